#!/usr/bin/env python3
"""Writes tests/hw/contract/patterns.jsonl and literal.jsonl from a GPU run
of job.sh (its unpacked output folder): one case per pattern kernel of
gen_patterns.py, the 16 KiB output buffer's sha256 as the H100 wrote it
with ptxas's defaults (patterns.jsonl, which ptxi must match with
contraction on) and with ptxas --fmad=false (literal.jsonl, which ptxi must
match with --no-contract).  Each description says what the SASS showed:
how many FFMA/DFMA/HFMA2 ptxas's contraction added.

usage: gen_cases.py GPU_OUT_DIR PATTERNS.ptx OUT_DIR
"""
import hashlib, json, os, re, sys

out, ptx, dst = sys.argv[1:4]
names = re.findall(r"\.entry\s+(k_\w+)", open(ptx).read())
sass = {}
for line in open(os.path.join(out, "summ", "patterns.tsv")):
    f = line.rstrip("\n").split("\t")
    sass[f[1]] = f[2]
for var, fname, what in (("def", "patterns.jsonl", "ptxas defaults (contraction on)"),
                         ("nofmad", "literal.jsonl", "ptxas --fmad=false (no contraction)")):
    with open(os.path.join(dst, fname), "w") as o:
        for n in names:
            data = open(os.path.join(out, "vals", var, n + ".bin"), "rb").read()
            d = sass.get(n, "?")
            case = {
                "format": "ptxi-launch/1", "name": n[2:],
                "description": "contraction pattern %s (tests/hw/src/contract/gen_patterns.py) as the H100 ran it "
                               "compiled with %s; SASS: %s" % (n, what, "no contraction" if d == "-" else
                                                                  "contraction adds " + d),
                "ptx": "patterns.ptx", "kernel": n, "grid": [4, 1, 1], "block": [256, 1, 1],
                "buffers": [{"name": "out", "bytes": len(data), "init": {"fill": 0}}],
                "params": [{"pointer": "out"}],
                "expect": {"buffers": [{"name": "out", "sha256": hashlib.sha256(data).hexdigest()}]},
            }
            o.write(json.dumps(case, separators=(",", ":")) + "\n")
print(len(names), "cases")
