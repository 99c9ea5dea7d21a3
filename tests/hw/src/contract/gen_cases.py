#!/usr/bin/env python3
"""Appends the launch cases of one GPU round of job.sh to tests/hw/contract/:
one case per pattern kernel (gen_patterns.py), expecting the sha256 of its
16 KiB output buffer as the H100 wrote it with ptxas's defaults
(contract.jsonl: ptxi must match with contraction on) and with ptxas
--fmad=false (literal.jsonl: ptxi must match with --no-contract).  Cases
ptxi does not reproduce, named with -k NAME (a reason each in the README),
(-k def:NAME, -k nofmad:NAME) go to known_diff.jsonl / known_literal.jsonl
instead.  Each description gives the SASS count of
adds that contraction removed.

usage: gen_cases.py GPU_OUT_DIR PATTERNS.ptx PTX_NAME DEST_DIR [-p NAME_PREFIX] [-k def:NAME|nofmad:NAME]...
(the committed files: set 1 from the first round, then set 2 with -p s2_:
  gen_cases.py R1 patterns.ptx patterns.ptx tests/hw/contract -k def:mul_loop_inv -k def:src_redef
  gen_cases.py R2 patterns2.ptx patterns2.ptx tests/hw/contract -p s2_)
"""
import hashlib, json, os, re, sys

args = sys.argv[1:]
prefix = ""
if "-p" in args:
    i = args.index("-p")
    prefix = args[i + 1]
    del args[i:i + 2]
known = set()
while "-k" in args:
    i = args.index("-k")
    known.add(args[i + 1])
    del args[i:i + 2]
out, ptx, ptxname, dst = args
names = re.findall(r"\.entry\s+(k_\w+)", open(ptx).read())
removed = {}
for line in open(os.path.join(out, "summ", "patterns.tsv")):
    f = line.rstrip("\n").split("\t")
    cnt = {}
    for col, sign in ((4, -1), (5, 1)):
        for kv in f[col][f[col].index("[") + 1:-1].split(","):
            if "=" in kv:
                k, v = kv.split("=")
                if k in ("FADD", "DADD", "HADD2"):
                    cnt[k] = cnt.get(k, 0) + sign * int(v)
    removed[f[1]] = sum(cnt.values())
for var, main in (("def", "contract.jsonl"), ("nofmad", "literal.jsonl")):
    for n in names:
        fname = main
        data = open(os.path.join(out, "vals", var, n + ".bin"), "rb").read()
        case = {
            "format": "ptxi-launch/1", "name": prefix + n[2:],
            "description": "%s: H100, ptxas %s; contraction removed %d add%s" % (
                n, "defaults" if var == "def" else "--fmad=false", removed[n], "" if removed[n] == 1 else "s"),
            "ptx": ptxname, "kernel": n, "grid": [4, 1, 1], "block": [256, 1, 1],
            "buffers": [{"name": "out", "bytes": len(data), "init": {"fill": 0}}],
            "params": [{"pointer": "out"}],
            "expect": {"buffers": [{"name": "out", "sha256": hashlib.sha256(data).hexdigest()}]},
        }
        if (var + ":" + n[2:]) in known:
            fname = "known_diff.jsonl" if var == "def" else "known_literal.jsonl"
        with open(os.path.join(dst, fname), "a") as o:
            o.write(json.dumps(case, separators=(",", ":")) + "\n")
print(len(names), "kernels")
