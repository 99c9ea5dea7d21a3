#!/bin/bash
# tcg: wgmma layout suite on the H100. Runs the plan twice (racy cases show as differing bins).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
mkdir -p res
LOG=res/log.txt
{ date; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $LOG 2>&1
timeout 80 bash oracle/run.sh plan.txt wgmma_sm90a.ptx res/r1 >> $LOG 2>&1; echo "run1 rc=$?" >> $LOG
if [ -x oracle/runner-tcg ]; then
  mkdir -p /tmp/tcg-r2; start=0
  while :; do
    timeout 40 oracle/runner-tcg plan.txt wgmma_sm90a.ptx /tmp/tcg-r2 $start >> $LOG 2>&1; rc=$?
    [ $rc -eq 3 ] || break
    start=$(( $(grep -o 'idx=[0-9]*' /tmp/tcg-r2/results.txt | tail -1 | cut -d= -f2) + 1 ))
  done
  echo "run2 rc=$rc" >> $LOG
  for f in res/r1/*.bin; do b=$(basename $f); cmp -s $f /tmp/tcg-r2/$b || echo "DIFF $b" >> res/racy.txt; done
  cp /tmp/tcg-r2/results.txt res/results2.txt
fi
grep -v '^result.*CUDA_SUCCESS$' res/r1/results.txt | head -50 >> $LOG
date >> $LOG
tar cJf "$OUTF" res
