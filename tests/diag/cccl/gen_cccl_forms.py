#!/usr/bin/env python3
"""tests/diag/cccl/gen_cccl_forms.py — regenerate the cccl_*.ptx fixtures.

Every inline-asm string in the CUDA toolkit's libcu++ PTX wrappers
(cccl/cuda/__ptx/instructions/generated/*.h: one wrapper per instruction
form, with the PTX ISA version and target it needs) becomes one instruction
in a kernel, its %N operands replaced by registers of the constraint's width
("r" .b32, "l" .b64, "h" .b16) or, for "n", an immediate.  Forms are grouped
by the target their #if guard asks for (sm_90a covers every "__CUDA_ARCH__ >=
N" form up to 900, sm_100a the Blackwell-only ones); one .entry per header
(two where a header has both .cta_group::1 and ::2 forms, which ptxas does
not allow in one kernel).

The output is committed, so the test suite needs no CUDA install:
tests/scripts/frontend_corpus.sh checks, prints, reparses and (where ptxas
exists) assembles these files like the shared corpus.

    python3 tests/diag/cccl/gen_cccl_forms.py [CCCL_GENERATED_DIR [OUT_DIR]]

(OUT_DIR, default this folder: tests/scripts/frontend_cccl.sh regenerates
into a scratch folder to see whether the committed files are current.)
"""
import os
import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else \
    "/usr/local/cuda/include/cccl/cuda/__ptx/instructions/generated"
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
VERSION = "8.8"   # >= every form's ISA version (8.6), accepted by ptxas 12.8+

REG = {"r": ("b32", "%r"), "l": ("b64", "%rd"), "h": ("b16", "%rs"),
       "f": ("f32", "%f"), "d": ("f64", "%fd")}


def c_strings(text, i):
    """Concatenated C string literals from text[i:]; returns (str, end)."""
    out = []
    n = len(text)
    while True:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if i >= n or text[i] != '"':
            return "".join(out), i
        i += 1
        while text[i] != '"':
            c = text[i]
            if c == "\\":
                e = text[i + 1]
                out.append({"n": "\n", "t": "\t", "\\": "\\", '"': '"'}.get(e, e))
                i += 2
            else:
                out.append(c)
                i += 1
        i += 1


def balanced_end(text, i):
    """Index just past the ')' closing the '(' at text[i - 1]."""
    depth = 1
    while depth:
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1)
            while text[i - 1] == "\\":
                i = text.index('"', i + 1)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return i


def target_of(cond):
    """The .target that a '#  if ... __CUDA_ARCH...' guard asks for."""
    feats = re.findall(r"__CUDA_ARCH_FEAT_SM(\d+)_ALL", cond)
    if feats:
        return "sm_%sa" % min(feats, key=int)
    m = re.search(r"__CUDA_ARCH__ >= (\d+)", cond)
    if m:
        return "sm_90a" if int(m.group(1)) <= 900 else "sm_100a"
    return None


def forms(path):
    text = open(path).read()
    lines = []
    cond = None
    pos = 0
    for m in re.finditer(r"^#\s*if ([^\n]*(?:\\\n[^\n]*)*)|\basm\s*(?:volatile\s*)?\(", text, re.M):
        if m.group(1) is not None:
            t = target_of(m.group(1))
            if t:
                cond = t
            continue
        body, i = c_strings(text, m.end())
        end = balanced_end(text, m.end())
        cons = re.findall(r'"([=+&]*)([a-zA-Z])"\s*\(', text[i:end])
        yield cond, body, cons


def instantiate(body, cons):
    def opd(mm):
        k = int(mm.group(1))
        mod, letter = cons[k]
        if letter == "n":
            # a tensor-map size is 128 bytes; other immediates (indices,
            # offsets, init values, scale flags) take 0
            return "128" if re.match(r"\s*(fence.proxy.tensormap|tensormap.cp_fenceproxy)", body) else "0"
        return "%s%d" % (REG[letter][1], k)
    s = body.replace("%%", "\x00")
    s = re.sub(r"%(\d+)", opd, s)
    s = s.replace("\x00", "%")
    # one instruction per line, comments dropped, whitespace normalised
    out = []
    for ln in s.split("\n"):
        ln = ln.split("//")[0].strip()
        if ln:
            out.append(re.sub(r"[ \t]+", " ", ln))
    return out


def main():
    groups = {}
    nforms = 0
    for h in sorted(os.listdir(SRC)):
        if not h.endswith(".h"):
            continue
        seen = set()
        for tgt, body, cons in forms(os.path.join(SRC, h)):
            if tgt is None:
                tgt = "sm_90a"
            code = tuple(instantiate(body, cons))
            if not code or code in seen:
                continue
            seen.add(code)
            # ptxas wants one .cta_group per kernel: pairs get their own
            kernel = h[:-2] + ("_cta_pair" if "cta_group::2" in " ".join(code) else "")
            groups.setdefault(tgt, {}).setdefault(kernel, []).append(code)
            nforms += 1
    for tgt, kernels in sorted(groups.items()):
        path = os.path.join(OUT, "cccl_%s.ptx" % tgt)
        with open(path, "w") as f:
            f.write("// Generated by gen_cccl_forms.py from the CUDA toolkit's\n"
                    "// cccl/cuda/__ptx/instructions/generated/*.h; do not edit.\n")
            f.write(".version %s\n.target %s\n.address_size 64\n" % (VERSION, tgt))
            for name, codes in sorted(kernels.items()):
                f.write("\n// %s: %d form(s)\n.visible .entry %s()\n{\n" % (name, len(codes), name))
                for ty, pfx in (("pred", "%p"), ("b16", "%rs"), ("b32", "%r"), ("b64", "%rd"),
                                ("f32", "%f"), ("f64", "%fd")):
                    f.write("\t.reg .%s %s<160>;\n" % (ty, pfx))
                for code in codes:
                    depth = 1
                    for ln in code:
                        if ln.startswith("}"):
                            depth -= 1
                        f.write("\t" * depth + ln + "\n")
                        if ln.endswith("{"):
                            depth += 1
                f.write("\tret;\n}\n")
        print("%s: %d kernels, %d forms" % (path, len(kernels), sum(len(c) for c in kernels.values())))
    print("%d forms in all" % nforms)


if __name__ == "__main__":
    main()
