#!/usr/bin/env python3
"""fuzz/mutate.py — mutation fuzzing of the front end through the CLI.

Takes the PTX the project already has (the front end's fixtures, the shared
corpus split into one small module per function), applies random
mutations (truncation, byte flips, deletions, duplicated or swapped lines,
inserted PTX tokens, extreme numbers, NULs, unterminated comments and
strings, deep nesting), and feeds each result to `ptxi check` (then, if it
parses, `ptxi print`, a check of the printed text and a comparison of
both canonical dumps).  Build ptxi with
ASan + UBSan first; any exit status other than 0 or 1, any sanitizer
report, a time-out, or printed text that does not reparse to the same IR
is a finding, saved under OUT/ with what went wrong.

    make B=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \\
         -fno-sanitize-recover=undefined" LDFLAGS="-fsanitize=address,undefined"
    python3 fuzz/mutate.py --ptxi build-asan/ptxi -n 3000 --seed 1 --out build-asan/fuzz

--split-only DIR writes the seed modules to DIR (for the libFuzzer target).
Exit status 1 when something was found.
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOKENS = [b".reg", b".pred", b".b32", b".u64", b".f32", b".v4", b".shared", b".global",
          b".shared::cluster", b".param", b".entry", b".func", b".visible", b".align 8",
          b"{", b"}", b"[", b"]", b"(", b")", b";", b",", b":", b"::", b"<", b">", b"<100000>",
          b"%r1", b"%rd1", b"%p1", b"@%p1", b"@!%p1", b"_", b"%tid.x", b"%cluster_ctaid",
          b"%r1.x", b"0f3F800000", b"0d3FF0000000000000", b"-", b"+", b"!", b"|", b"=",
          b"0x", b"0xFFFFFFFFFFFFFFFFFF", b"99999999999999999999999", b"-9223372036854775808",
          b"1e400", b".5", b"0b101", b"017", b"$L__BB0_1", b"$L__BB0_1:", b"bra", b"call",
          b"ret;", b"exit;", b"mov.u32", b"ld.global.v4.u32", b"cp.async.bulk.tensor.5d",
          b".im2col", b".multicast::cluster", b".L2::cache_hint", b".mbarrier::complete_tx::bytes",
          b"mbarrier.try_wait.parity", b"tensormap.replace", b".section .debug_info {",
          b".loc 1 2 3", b".file 1 \"x\"", b"/*", b"*/", b"//", b"\"", b"\\", b"\x00", b"\xff",
          b"\t", b"\n", b"\r\n", b" ", b".pragma \"nounroll\";", b".maxntid 1, 2, 3",
          b".callprototype", b"prototype_0 :", b".extern", b".weak", b".common", b"= {1, 2}",
          b"generic(", b"tcgen05.mma", b".version 9.9", b".target sm_100a", b".address_size 32"]


def sources():
    pats = ["tests/diag/*.ptx", "tests/diag/good/*.ptx", "tests/diag/cccl/*.ptx",
            "samples/*.ptx", "../shared/corpus/*.ptx", "../shared/conformance/ptx/*.ptx"]
    seen = set()
    for p in pats:
        for f in sorted(glob.glob(os.path.join(ROOT, p))):
            r = os.path.realpath(f)
            if r not in seen:
                seen.add(r)
                yield r


def split(text):
    """One module per top-level function: the header and module-scope
    declarations, then that function.  Debug sections are dropped."""
    text = re.sub(rb"\.section[^{]*\{.*?\n\s*\}", b"", text, flags=re.S)
    hdr = re.compile(rb"^[ \t]*\.(version|target|address_size)\b[^\n]*\n?", re.M)
    header = b"".join(m.group(0).rstrip(b"\n") + b"\n" for m in hdr.finditer(text))
    text = hdr.sub(b"", text)
    items, depth, start, i = [], 0, 0, 0
    n = len(text)
    while i < n:
        c = text[i:i + 1]
        if c == b"/" and text[i:i + 2] == b"//":
            i = text.find(b"\n", i)
            i = n if i < 0 else i
            continue
        if c == b"{":
            depth += 1
        elif c == b"}":
            depth -= 1
            if depth == 0:
                items.append(text[start:i + 1])
                start = i + 1
        elif c == b";" and depth == 0:
            items.append(text[start:i + 1])
            start = i + 1
        i += 1
    head = [it for it in items if b"{" not in it or b"=" in it.split(b"{")[0]]
    funcs = [it for it in items if it not in head]
    prefix = b"".join(head)
    if len(prefix) > 20000:     # a big module's globals: keep the header only
        prefix = b""
    return [header + prefix + f + b"\n" for f in funcs] or [header + text]


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        op = rng.randrange(11)
        n = len(data)
        p = rng.randrange(n + 1) if n else 0
        if op == 0 and n:                       # truncate
            del data[p:]
        elif op == 1 and n:                     # flip a byte
            data[min(p, n - 1)] = rng.randrange(256)
        elif op == 2 and n:                     # delete a range
            del data[p:p + rng.randrange(1, 40)]
        elif op in (3, 4):                      # insert a token
            data[p:p] = rng.choice(TOKENS)
        elif op == 5 and n:                     # replace a word by a token
            m = re.compile(rb"[A-Za-z0-9_.:%$]+").search(bytes(data), p)
            if m:
                data[m.start():m.end()] = rng.choice(TOKENS)
        elif op in (6, 7):                      # duplicate / swap / drop lines
            lines = bytes(data).split(b"\n")
            if len(lines) > 2:
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                if op == 6:
                    lines.insert(b, lines[a])
                elif rng.random() < 0.5:
                    lines[a], lines[b] = lines[b], lines[a]
                else:
                    del lines[a]
                data = bytearray(b"\n".join(lines))
        elif op == 8:                           # a number made extreme
            m = re.compile(rb"\b[0-9]+\b").search(bytes(data), p)
            if m:
                data[m.start():m.end()] = rng.choice(
                    [b"0", b"4294967296", b"18446744073709551615", b"99999999999999999999",
                     b"2147483648", b"65536", b"1000001", b"0x8000000000000000"])
        elif op == 9:                           # deep nesting
            k = rng.randrange(1, 400)
            data[p:p] = b"{" * k + b"}" * rng.randrange(k + 1)
        elif op == 10:                          # a long line / identifier
            data[p:p] = rng.choice([b"a", b"%r", b".b32 ", b"{%r1,", b"["]) * rng.randrange(1, 3000)
    return bytes(data)


def run(cmd, timeout):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxi", default=os.path.join(ROOT, "build-asan/ptxi"))
    ap.add_argument("-n", type=int, default=2000, help="mutated inputs to try")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "build-asan/fuzz"))
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--split-only", metavar="DIR")
    a = ap.parse_args()

    seeds = []
    for f in sources():
        seeds += split(open(f, "rb").read())
    seeds = [s for s in seeds if len(s) < 200000]
    if a.split_only:
        os.makedirs(a.split_only, exist_ok=True)
        for i, s in enumerate(seeds):
            open(os.path.join(a.split_only, "seed%05d.ptx" % i), "wb").write(s)
        print("%d seed modules in %s" % (len(seeds), a.split_only))
        return 0

    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="ptxi-fuzz-")
    path, printed = os.path.join(tmp, "in.ptx"), os.path.join(tmp, "printed.ptx")
    env_ok = (0, 1)
    found = 0
    counts = {0: 0, 1: 0}
    for it in range(a.n):
        data = mutate(rng, rng.choice(seeds))
        open(path, "wb").write(data)
        problem = None
        rc, _, err = run([a.ptxi, "check", path], a.timeout)
        if rc not in env_ok or b"Sanitizer" in err or b"runtime error" in err:
            problem = "check: status %s\n%s" % (rc, err.decode(errors="replace")[-3000:])
        elif rc == 0:
            rc2, out, err = run([a.ptxi, "print", path], a.timeout)
            if rc2 != 0:
                problem = "print: status %s\n%s" % (rc2, err.decode(errors="replace")[-3000:])
            else:
                open(printed, "wb").write(out)
                rc3, _, err = run([a.ptxi, "check", printed], a.timeout)
                if rc3 != 0:
                    problem = "printed text does not check: status %s\n%s" % (
                        rc3, err.decode(errors="replace")[-3000:])
                else:
                    c1 = run([a.ptxi, "print", "--canonical", path], a.timeout)
                    c2 = run([a.ptxi, "print", "--canonical", printed], a.timeout)
                    if c1[0] != 0 or c1[1] != c2[1]:
                        problem = "print -> parse changed the IR (canonical dumps differ)"
        if isinstance(rc, int) and rc in counts:
            counts[rc] += 1
        if problem:
            found += 1
            keep = os.path.join(a.out, "finding%03d.ptx" % found)
            open(keep, "wb").write(data)
            open(keep + ".txt", "w").write(problem)
            print("FINDING %s: %s" % (keep, problem.splitlines()[0]), flush=True)
        if (it + 1) % 500 == 0:
            print("%d inputs, %d findings (%d parsed clean, %d rejected)" % (
                it + 1, found, counts[0], counts[1]), flush=True)
    print("done: %d inputs from %d seeds, %d findings (%d parsed clean, %d rejected with errors)" % (
        a.n, len(seeds), found, counts[0], counts[1]))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
