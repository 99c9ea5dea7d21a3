#!/bin/bash
# How HARDWARE.md's facts were read on an H100 (not run by `make test`: it
# needs a GPU and nvcc).  Run from this folder: `OUTF=out.tar.xz bash
# job.sh`; one line per run in results.txt inside the archive.
#   - arrive_overflow: one mbarrier.arrive by 32 lanes on a barrier of
#     count 1, 4, 31, 32;
#   - tx_short: arrive.expect_tx of 512 / 768 / 1024 bytes and two 512-byte
#     box loads, in four variants (mode bit 0: warp 0 does not wait; bit 1:
#     the copies are issued before the arrive.expect_tx);
#   - every kernel of ../zoo.cu: its twin once, the broken kernel twice, each
#     with a 3 s limit (HANG), a fault (the CUDA error), or the FNV hashes of
#     dst and out.
set -u
W=$(mktemp -d)
LOG=$W/log.txt
{
  nvcc -arch=sm_90a -O3 -cubin ../zoo.cu -o $W/zoo.cubin &&
  nvcc -arch=sm_90a -O3 -cubin probe.cu -o $W/probe.cubin &&
  g++ -O2 -I/usr/local/cuda/include host.cpp -o $W/host -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda
} >> $LOG 2>&1 || echo "BUILD FAILED" >> $LOG
R=$W/results.txt
: > $R
for c in 1 4 31 32; do
  timeout -s KILL 6 $W/host $W/probe.cubin arrive_overflow arrive $c >> $R 2>>$LOG || echo "arrive_overflow $c rc=$?" >> $R
done
for m in 0 1 2 3; do
  for a in 512 768 1024; do
    timeout -s KILL 6 $W/host $W/probe.cubin tx_short tx $((a + (m << 16))) >> $R 2>>$LOG || echo "tx_short $a mode $m rc=$?" >> $R
  done
done
names="$(grep -o '^ZOO([a-z_0-9]*)' ../zoo.cu | sed 's/ZOO(\(.*\))/\1/') tmap_by_value"
for n in $names; do
  case $n in mc_*|dsmem_*) g=2 ;; *) g=1 ;; esac
  for k in ${n}_ok $n $n; do
    timeout -s KILL 6 $W/host $W/zoo.cubin $k zoo $g >> $R 2>>$LOG || echo "$k rc=$?" >> $R
  done
done
nvidia-smi -q 2>/dev/null | grep -m3 -i "product name\|driver version" >> $LOG
tar -C $W -cJf "$OUTF" results.txt log.txt
