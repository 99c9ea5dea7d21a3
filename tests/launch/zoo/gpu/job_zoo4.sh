#!/bin/bash
# zoo4 (issue 10): each kernel of ../zoo4.cu on the GPU (not run by `make test`;
# from this folder with zoo4.cu copied here: `OUTF=out.tar.xz bash job_zoo4.sh`): the
# broken kernel twice, its twin once, 3 s limit each (host.cpp).  One
# line per run in results.txt: NAME OK <dst hash> <out hash> <dst[0,8K) hash>
# | HANG | FAULT <error>.
set -u
start=$(date +%s)
W=$(mktemp -d)
LOG=$W/log.txt
{
  nvcc -arch=sm_90a -O3 -cubin zoo4.cu -o $W/zoo4.cubin &&
  g++ -O2 -I/usr/local/cuda/include host.cpp -o $W/host -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda
} >> $LOG 2>&1 || echo "BUILD FAILED" >> $LOG
R=$W/results.txt
: > $R
names=$(grep -o '^ZOO([a-z0-9_]*)' zoo4.cu | sed 's/ZOO(\(.*\))/\1/')
echo "kernels: $names" >> $LOG
for n in $names; do
  cl=1
  case $n in cl_*) cl=2 ;; esac
  for k in ${n}_ok $n $n; do
    if [ $(( $(date +%s) - start )) -gt 130 ]; then echo "$k SKIPPED (job time)" >> $R; continue; fi
    timeout -s KILL 8 $W/host $W/zoo4.cubin $k zoo $cl >> $R 2>>$LOG || echo "$k rc=$?" >> $R
  done
done
nvidia-smi -q 2>/dev/null | grep -m3 -i "product name\|driver version" >> $LOG
cp zoo4.cu $W/
tar -C $W -cJf "$OUTF" results.txt log.txt zoo4.cu
