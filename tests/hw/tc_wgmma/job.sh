#!/bin/bash
# tcg: wgmma layout suite on the H100: every plan (one per PTX module) run
# twice; a case whose bytes differ between the runs is listed in racy.txt.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
mkdir -p res
LOG=res/log.txt
{ date; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $LOG 2>&1
nvcc -O2 -std=c++17 oracle/runner.cpp -o oracle/runner-tcg -lcuda >> $LOG 2>&1 || echo "nvcc failed" >> $LOG
runplan() {   # runplan PLAN PTX OUTDIR
  mkdir -p "$3"; local start=0 rc
  while :; do
    timeout 40 oracle/runner-tcg "$1" "$2" "$3" $start >> $LOG 2>&1; rc=$?
    [ $rc -eq 3 ] || break
    start=$(( $(grep -o 'idx=[0-9]*' "$3/results.txt" | tail -1 | cut -d= -f2) + 1 ))
  done
  echo "$1 -> $3 rc=$rc" >> $LOG
}
for s in suite*/; do
  i=$(basename $s | tr -d suite); ptx=$(cat $s/ptx)
  runplan plan$i.txt $ptx res/r$i
  runplan plan$i.txt $ptx /tmp/tcg-again$i
  for f in res/r$i/*.bin; do cmp -s $f /tmp/tcg-again$i/$(basename $f) || echo "DIFF $f" >> res/racy.txt; done
  grep -v '^result.*CUDA_SUCCESS$' res/r$i/results.txt | head -50 >> $LOG
  echo "res/r$i: $(ls res/r$i | wc -l) files" >> $LOG
done
date >> $LOG
tar cJf "$OUTF" res
