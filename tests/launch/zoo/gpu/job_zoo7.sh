#!/bin/bash
# zoo7 (issue 10): each kernel of ../zoo7.cu on the GPU (not run by `make test`;
# from this folder with zoo7.cu copied here: `OUTF=out.tar.xz bash job_zoo7.sh`):
# the twin once, the broken kernel three times (once if it hung), 2 s limit
# each (host.cpp).  One line per run in results.txt, as job_zoo4.sh.
set -u
start=$(date +%s)
W=$(mktemp -d)
LOG=$W/log.txt
{
  nvcc -arch=sm_90a -O3 -cubin zoo7.cu -o $W/zoo7.cubin &&
  g++ -O2 -I/usr/local/cuda/include host.cpp -o $W/host -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda
} >> $LOG 2>&1 || echo "BUILD FAILED" >> $LOG
R=$W/results.txt
: > $R
names=$(grep -o '^ZOO([a-z0-9_]*)' zoo7.cu | sed 's/ZOO(\(.*\))/\1/')
echo "kernels: $names" >> $LOG
for n in $names; do
  cl=1
  case $n in cl_*) cl=2 ;; esac
  hung=
  for k in ${n}_ok $n $n $n; do
    if [ $(( $(date +%s) - start )) -gt 130 ]; then echo "$k SKIPPED (job time)" >> $R; continue; fi
    if [ -n "$hung" ]; then echo "$k SKIPPED (its first run hung)" >> $R; continue; fi
    HOST_HANG_S=2 timeout -s KILL 8 $W/host $W/zoo7.cubin $k zoo $cl > $W/one 2>>$LOG || echo "$k rc=$?" >> $W/one
    cat $W/one >> $R
    [ "$k" = "$n" ] && grep -q HANG $W/one && hung=1
  done
done
echo "elapsed $(( $(date +%s) - start )) s" >> $LOG
nvidia-smi -q 2>/dev/null | grep -m3 -i "product name\|driver version" >> $LOG
cp zoo7.cu $W/
tar -C $W -cJf "$OUTF" results.txt log.txt zoo7.cu
