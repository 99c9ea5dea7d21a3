#!/bin/bash
# zoo3 (issue 10): each kernel of ../zoo3.cu on the GPU (not run by `make test`;
# from this folder with zoo3.cu copied here: `OUTF=out.tar.xz bash job_zoo3.sh`): the broken kernel
# twice, its twin once, 3 s limit each (host.cpp).  One line per run in
# results.txt: NAME OK <dst hash> <out hash> | HANG | FAULT <error>.
# Round 2: also txgran.cu (how a copy's bytes are credited to its mbarrier
# when expect_tx announces fewer): tx.txt, one line per (mode, box, S, E);
# round 3: the same on an H100, some E repeated 20 times, and a third hash
# (dst's first 8 KiB) in results.txt.
set -u
start=$(date +%s)
W=$(mktemp -d)
LOG=$W/log.txt
{
  nvcc -arch=sm_90a -O3 -cubin zoo3.cu -o $W/zoo3.cubin &&
  g++ -O2 -I/usr/local/cuda/include host.cpp -o $W/host -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda &&
  nvcc -arch=sm_90a -O3 -cubin txgran.cu -o $W/txgran.cubin &&
  g++ -O2 -I/usr/local/cuda/include txhost.cpp -o $W/txhost -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda
} >> $LOG 2>&1 || echo "BUILD FAILED" >> $LOG
T=$W/tx.txt
: > $T
for c in "0 0 512 16" "0 0 1024 16" "0 0 2048 16" "0 0 4096 64" "0 0 16384 1024" \
         "1 16 512 16" "1 16 1024 16" "1 16 2048 16" "1 32 1024 16" "1 32 2048 16" "1 64 2048 16" \
         "0 0 2048 512 20" "1 16 2048 256 20" "1 64 2048 256 20"; do
  timeout -s KILL 8 $W/txhost $W/txgran.cubin $c >> $T 2>>$LOG || echo "tx $c rc=$?" >> $T
done
R=$W/results.txt
: > $R
names=$(grep -o '^ZOO([a-z0-9_]*)' zoo3.cu | sed 's/ZOO(\(.*\))/\1/')
echo "kernels: $names" >> $LOG
for n in $names; do
  cl=1
  case $n in cl_*) cl=2 ;; esac
  for k in ${n}_ok $n $n; do
    if [ $(( $(date +%s) - start )) -gt 130 ]; then echo "$k SKIPPED (job time)" >> $R; continue; fi
    timeout -s KILL 8 $W/host $W/zoo3.cubin $k zoo $cl >> $R 2>>$LOG || echo "$k rc=$?" >> $R
  done
done
nvidia-smi -q 2>/dev/null | grep -m3 -i "product name\|driver version" >> $LOG
cp zoo3.cu txgran.cu $W/
tar -C $W -cJf "$OUTF" results.txt tx.txt log.txt zoo3.cu txgran.cu
