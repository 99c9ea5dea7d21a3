#!/bin/bash
# zoo_warp (issue 10, lane-level ordering; not run by `make test`; from this
# folder with zoo_warp.cu copied here: `OUTF=out.tar.xz bash job_zoo_warp.sh`):
# each kernel of ../zoo_warp.cu on the GPU, launched as zoo_warp.jsonl does
# (host.cpp): the twin once, the broken kernel twice, 3 s limit
# each (results.txt: NAME OK <dst hash> <out hash> <dst[0:8K] hash> | HANG |
# FAULT); then each under compute-sanitizer --tool racecheck, if present
# (racecheck/NAME.txt, summary in racecheck.txt).
set -u
start=$(date +%s)
W=$(mktemp -d)
LOG=$W/log.txt
mkdir -p $W/racecheck
{
  echo "date: $(date -u)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "which compute-sanitizer: $(which compute-sanitizer 2>&1)"
  ls -la /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer 2>&1
  nvcc --version | tail -2
  nvcc -arch=sm_90a -O3 -lineinfo -cubin zoo_warp.cu -o $W/zoo_warp.cubin &&
  g++ -O2 -I/usr/local/cuda/include host.cpp -o $W/host -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda
} >> $LOG 2>&1 || echo "BUILD FAILED" >> $LOG
CS=$(which compute-sanitizer 2>/dev/null)
[ -z "$CS" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && CS=/usr/local/cuda/bin/compute-sanitizer
[ -z "$CS" ] && CS=$(ls /usr/local/cuda*/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)
echo "compute-sanitizer used: ${CS:-none}" >> $LOG
[ -n "$CS" ] && "$CS" --version >> $LOG 2>&1
R=$W/results.txt
: > $R
names=$(grep -o '^ZOO([a-z0-9_]*)' zoo_warp.cu | sed 's/ZOO(\(.*\))/\1/')
echo "kernels: $names" >> $LOG
for n in $names; do
  for k in ${n}_ok $n $n; do
    timeout -s KILL 8 $W/host $W/zoo_warp.cubin $k zoo 1 >> $R 2>>$LOG || echo "$k rc=$?" >> $R
  done
done
RS=$W/racecheck.txt
: > $RS
if [ -n "$CS" ]; then
  for n in $names; do
    for k in $n ${n}_ok; do
      if [ $(( $(date +%s) - start )) -gt 120 ]; then echo "$k SKIPPED (job time)" >> $RS; continue; fi
      timeout -s KILL 20 "$CS" --tool racecheck --racecheck-report all --racecheck-detect-level info \
          --print-limit 40 $W/host $W/zoo_warp.cubin $k zoo 1 > $W/racecheck/$k.txt 2>&1
      echo "$k rc=$? $(grep -c 'Race reported\|hazard' $W/racecheck/$k.txt) hazard-lines; summary: $(grep -i 'RACECHECK SUMMARY\|ERROR SUMMARY' $W/racecheck/$k.txt | tr '\n' ' ')" >> $RS
    done
  done
else
  echo "no compute-sanitizer on this machine" >> $RS
fi
echo "elapsed $(( $(date +%s) - start )) s" >> $LOG
cp zoo_warp.cu $W/
tar -C $W -cJf "$OUTF" results.txt racecheck.txt racecheck log.txt zoo_warp.cu
