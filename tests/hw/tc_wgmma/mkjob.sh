#!/bin/bash
# Builds the GPU job folder for this suite (oracle + PTX + plan + job.sh).
# Usage: mkjob.sh JOBDIR   (run from this folder after gen.py)
set -e
J=$1; here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$J/oracle" "$J/suite"; mkdir -p "$J/oracle" "$J/suite/tc_wgmma"
cp /work/shared/oracle/* "$J/oracle/"
# parallel jobs share /tmp: build the runner inside the job folder
sed -i 's#/tmp/ptxi-oracle-runner#"$here/runner-tcg"#g' "$J/oracle/run.sh"
cp "$here/wgmma_sm90a.ptx" "$J/"
# the oracle reads u64 parameters as signed decimal
python3 - "$here/cases.jsonl" "$J/suite/tc_wgmma/cases.jsonl" <<'EOF'
import json, sys
out = []
for l in open(sys.argv[1]):
    c = json.loads(l)
    for p in c["params"]:
        if isinstance(p.get("u64"), str):
            v = int(p["u64"], 16); p["u64"] = v - (1 << 64) if v >= 1 << 63 else v
    out.append(json.dumps(c))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
EOF
(cd "$J" && python3 oracle/plan.py plan.txt suite/tc_wgmma)
cp "$here/job.sh" "$J/job.sh"; chmod +x "$J/job.sh"
