#!/usr/bin/env python3
"""Per-kernel summary of ptxas's mul+add contractions.

usage: sass_summary.py FILE.ptx DEFAULT.sass NOFMAD.sass
Prints one line per kernel: the PTX's counts of explicit fma (f32/f64/f16),
of mul/add/sub on floats without a rounding modifier (contractible), and for
the SASS compiled with ptxas defaults and with --fmad=false the counts of
FFMA, DFMA, HFMA2 (all forms), FMUL, FADD, DMUL, DADD, HMUL2, HADD2 and of
all instructions.  default.FFMA - nofmad.FFMA is the number of contractions
ptxas made (the rest of the code is the same in both).
"""
import re, sys
from collections import Counter, defaultdict

OPS = ["FFMA", "DFMA", "HFMA2", "FMUL", "FADD", "DMUL", "DADD", "HMUL2", "HADD2", "MUFU"]

def sass_counts(path):
    per = defaultdict(Counter)
    fn = None
    for line in open(path, errors="replace"):
        m = re.search(r"Function : (\S+)", line)
        if m:
            fn = m.group(1); continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_]+)(\.[A-Z0-9_.]+)?", line)
        if m and fn:
            op = m.group(2)
            per[fn]["ALL"] += 1
            if op in OPS:
                per[fn][op] += 1
    return per

def ptx_counts(path):
    per = defaultdict(Counter)
    fn = None
    txt = open(path, errors="replace").read()
    for line in txt.split("\n"):
        m = re.search(r"\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)", line)
        if m:
            fn = m.group(2); continue
        m = re.match(r"\s*(@!?%\w+\s+)?(fma|mad|mul|add|sub|div)((\.\w+)*)\s", line)
        if m and fn:
            op, mods = m.group(2), m.group(3)
            ty = mods.split(".")[-1]
            if ty not in ("f32", "f64", "f16", "f16x2", "bf16", "bf16x2"):
                continue
            if op in ("fma", "mad"):
                per[fn]["fma." + ty] += 1
            elif op == "div":
                per[fn]["div" + mods] += 1
            elif not re.search(r"\.(rn|rz|rm|rp)\b", mods):
                per[fn][op + "." + ty] += 1
    return per

def main():
    ptx, a, b = sys.argv[1:4]
    pc = ptx_counts(ptx)
    sa, sb = sass_counts(a), sass_counts(b)
    for fn in sorted(set(sa) | set(sb)):
        ca, cb = sa.get(fn, Counter()), sb.get(fn, Counter())
        p = pc.get(fn, Counter())
        pstr = ",".join(f"{k}={v}" for k, v in sorted(p.items()))
        d = {op: ca[op] - cb[op] for op in ("FFMA", "DFMA", "HFMA2")}
        dstr = " ".join(f"d{op}={v}" for op, v in d.items() if v)
        astr = ",".join(f"{op}={ca[op]}" for op in OPS if ca[op])
        bstr = ",".join(f"{op}={cb[op]}" for op in OPS if cb[op])
        print(f"{ptx}\t{fn}\t{dstr or '-'}\tptx[{pstr}]\tdef[ALL={ca['ALL']},{astr}]\tnofmad[ALL={cb['ALL']},{bstr}]")

main()
