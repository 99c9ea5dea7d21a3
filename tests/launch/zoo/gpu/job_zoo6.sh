#!/bin/bash
# zoo6 (the grid-wide write check) on the GPU (not run by `make test`; from
# this folder with zoo6.cu copied here: `OUTF=out.tar.xz bash job_zoo6.sh`):
# each kernel, bug and twin, launched 2000 times on fresh buffers (host6.cpp);
# one line per kernel in results.txt: how many distinct `out` contents.
set -u
W=$(mktemp -d)
LOG=$W/log.txt
{
  nvcc -arch=sm_90a -O3 -cubin zoo6.cu -o $W/zoo6.cubin &&
  g++ -O2 -I/usr/local/cuda/include host6.cpp -o $W/host -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda
} >> $LOG 2>&1 || echo "BUILD FAILED" >> $LOG
R=$W/results.txt
: > $R
for n in $(grep -o '^ZOO([a-z_0-9]*)' zoo6.cu | sed 's/ZOO(\(.*\))/\1/'); do
  for k in $n ${n}_ok; do
    timeout -s KILL 20 $W/host $W/zoo6.cubin $k 2000 >> $R 2>>$LOG || echo "$k rc=$?" >> $R
  done
done
nvidia-smi -q 2>/dev/null | grep -m3 -i "product name\|driver version" >> $LOG
tar -C $W -cJf "$OUTF" results.txt log.txt
