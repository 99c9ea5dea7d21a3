#!/usr/bin/env python3
"""Asks ptxas -arch=sm_90a which wgmma.mma_async forms are legal and writes
the verdicts to wgmma_forms.txt, one form a line: the accepted forms
grouped by types (see the file's head).  Needs ptxas (CUDA);
the committed list is what tests/unit/test_tc_wgmma.c checks ptxi against.
Usage: wgmma_forms.py [OUT]"""
import os, re, subprocess, sys, tempfile

TYPES = [("f16", "f16", d) for d in ("f16", "f32")] + [("bf16", "bf16", "f32"), ("bf16", "bf16", "f16")] + \
        [("tf32", "tf32", "f32"), ("tf32", "tf32", "f16")] + \
        [(a, b, d) for a in ("e4m3", "e5m2") for b in ("e4m3", "e5m2") for d in ("f16", "f32")] + \
        [(a, b, "s32") for a in ("s8", "u8") for b in ("s8", "u8")] + [("b1", "b1", "s32")] + \
        [("f16", "bf16", "f32"), ("s8", "s8", "f32"), ("e4m3", "f16", "f32")]
KS = (8, 16, 32, 64, 128, 256)
NS = list(range(8, 257, 8)) + [4, 264]


def forms():
    for at, bt, dt in TYPES:
        for k in KS:
            for n in NS:
                for sp in (0, 1):
                    for areg in (0, 1):
                        for sat in ((0, 1) if dt == "s32" and at != "b1" else (0,)):
                            yield at, bt, dt, k, n, sp, areg, sat


def line(f):
    at, bt, dt, k, n, sp, areg, sat = f
    nd = max(1, n // 4 if dt == "f16" else n // 2)
    rk = "%f" if dt == "f32" else "%r"
    d = "{" + ",".join("%s%d" % (rk, i) for i in range(nd)) + "}"
    a = "{%r200,%r201,%r202,%r203}" if areg else "%rd1"
    mn = "wgmma.mma_async%s.sync.aligned.m64n%dk%d" % (".sp" if sp else "", n, k)
    if at == "b1":
        mn += ".s32.b1.b1.and.popc"
    elif dt == "s32":
        mn += "%s.s32.%s.%s" % (".satfinite" if sat else "", at, bt)
    else:
        mn += ".%s.%s.%s" % (dt, at, bt)
    ops = [d, a, "%rd2"]
    if sp:
        ops += ["%r210", "0"]
    ops.append("%p1")
    if at in ("f16", "bf16", "tf32", "e4m3", "e5m2") and dt != "s32":
        ops += ["1", "1"]
        if at in ("f16", "bf16"):
            ops += ["0", "0"] if not areg else ["0"]
    return mn, "%s %s;" % (mn, ", ".join(ops))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "wgmma_forms.txt")
    fs = list(forms())
    head = ".version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n" \
           " .reg .f32 %f<200>; .reg .b32 %r<220>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    body, first = [], 7
    for f in fs:
        body.append(" " + line(f)[1])
    txt = head + "\n".join(body) + "\n ret;\n}\n"
    bad = set()
    with tempfile.TemporaryDirectory() as t:
        p = os.path.join(t, "f.ptx")
        open(p, "w").write(txt)
        r = subprocess.run(["ptxas", "-arch=sm_90a", p, "-o", os.path.join(t, "f.cubin")],
                           capture_output=True, text=True)
        for m in re.finditer(r"line (\d+); error", r.stderr):
            bad.add(int(m.group(1)) - first)
    # compact: one line per (types, .sp, A source, .satfinite) that has legal
    # shapes: the accepted m64nNkK as "kK: N N ..."; every other form of
    # TYPES x KS x NS x .sp x A x .satfinite is rejected
    acc = {}
    for i, f in enumerate(fs):
        at, bt, dt, k, n, sp, areg, sat = f
        key = (dt, at, bt, sp, areg, sat)
        acc.setdefault(key, {})
        if i not in bad:
            acc[key].setdefault(k, []).append(n)
    with open(out, "w") as o:
        o.write("# ptxas %s -arch=sm_90a: the wgmma.mma_async forms it accepts (tests/tc/wgmma_forms.py);\n"
                "# tried: D.A.B in %s, K in %s, N in %s, .sp, A desc/regs, .satfinite;\n"
                "# every form not listed was rejected\n" %
                (subprocess.run(["ptxas", "--version"], capture_output=True, text=True).stdout.split()[-1],
                 " ".join("%s.%s.%s" % (d, a, b) for a, b, d in TYPES), " ".join(map(str, KS)),
                 " ".join(map(str, NS))))
        for key, ks in acc.items():
            for k, ns in ks.items():
                dt, at, bt, sp, areg, sat = key
                o.write("%s.%s.%s sp=%d a=%s sat=%d k%d: %s\n" % (dt, at, bt, sp, "regs" if areg else "desc", sat, k,
                                                                 " ".join(map(str, ns))))
    print(len(fs), "forms,", len(fs) - len(bad), "accepted")


def check(ptxi, listing):
    """tests/scripts/tc_wgmma_forms.sh: ptxi check must accept exactly the
    forms of the committed list (no ptxas needed)."""
    ok = set()
    for l in open(listing):
        if l.startswith("#"):
            continue
        head, ns = l.split(":")
        types, sp, a, sat, k = head.split()
        d, at, bt = types.split(".")
        for n in ns.split():
            ok.add((at, bt, d, int(k[1:]), int(n), int(sp[3:]), a == "a=regs", int(sat[4:])))
    fs = list(forms())
    head = ".version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n" \
           " .reg .f32 %f<200>; .reg .b32 %r<220>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    bad = set()
    with tempfile.TemporaryDirectory() as t:
        # ptxi check shows at most 100 errors: 100 forms a file
        for c0 in range(0, len(fs), 100):
            p = os.path.join(t, "f.ptx")
            open(p, "w").write(head + "\n".join(" " + line(f)[1] for f in fs[c0:c0 + 100]) + "\n ret;\n}\n")
            r = subprocess.run([ptxi, "check", p], capture_output=True, text=True)
            for m in re.finditer(r"f\.ptx:(\d+):\d+: error", r.stdout + r.stderr):
                bad.add(c0 + int(m.group(1)) - 7)
    nfail = 0
    for i, f in enumerate(fs):
        legal = tuple(f[:5]) + (f[5], bool(f[6]), f[7]) in ok
        if legal == (i not in bad):
            continue
        nfail += 1
        if nfail <= 20:
            print("FAIL wgmma form %s A=%s: ptxas %s it, ptxi %s it" % (line(f)[0], "regs" if f[6] else "desc",
                  "accepts" if legal else "rejects", "rejects" if legal else "accepts"))
    if nfail > 20:
        print("FAIL ... %d more forms disagree" % (nfail - 20))
    if not nfail:
        print("PASS wgmma forms: ptxi accepts the %d forms ptxas accepts and rejects the other %d" %
              (len(ok), len(fs) - len(ok)))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--check":
        check(sys.argv[2], os.path.join(os.path.dirname(os.path.abspath(__file__)), "wgmma_forms.txt"))
    else:
        main()
