#!/bin/bash
# Builds the GPU job folder for this suite (oracle + PTX modules + plans +
# job.sh).  Usage: mkjob.sh JOBDIR   (run from this folder after gen.py)
set -e
J=$1; here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$J/oracle" "$J/suite" "$J/suite1" "$J/suite2"; mkdir -p "$J/oracle"
cp /work/shared/oracle/* "$J/oracle/"
# parallel jobs share /tmp: build the runner inside the job folder
sed -i 's#/tmp/ptxi-oracle-runner#"$here/runner-tcg"#g' "$J/oracle/run.sh"
cp "$here"/wgmma*_sm90a.ptx "$J/"
# one plan per module; the oracle reads u64 parameters as signed decimal
python3 - "$here/cases.jsonl" "$J" <<'EOF'
import json, os, sys
by = {}
for l in open(sys.argv[1]):
    c = json.loads(l)
    for p in c["params"]:
        if isinstance(p.get("u64"), str):
            v = int(p["u64"], 16); p["u64"] = v - (1 << 64) if v >= 1 << 63 else v
    by.setdefault(c["ptx"], []).append(json.dumps(c))
for i, (ptx, cs) in enumerate(sorted(by.items())):
    d = os.path.join(sys.argv[2], "suite%d" % (i + 1), "tc_wgmma")
    os.makedirs(d)
    open(os.path.join(d, "cases.jsonl"), "w").write("\n".join(cs) + "\n")
    open(os.path.join(sys.argv[2], "suite%d" % (i + 1), "ptx"), "w").write(ptx)
EOF
for s in "$J"/suite*/; do (cd "$J" && python3 oracle/plan.py "plan$(basename $s | tr -d suite).txt" "$s/tc_wgmma"); done
cp "$here/job.sh" "$J/job.sh"; chmod +x "$J/job.sh"
