#!/bin/bash
# How HARDWARE.md's facts were read on the H100 (not run by `make test`:
# it needs a GPU and nvcc).  Copy this folder with ../zoo.cu beside it
# and run `OUTF=out.tar.xz bash job.sh`; one line per run in results.txt.
# The first round ran, instead of the round-2 loops below, the
# arrive_overflow probe (counts 1 4 31 32) and every zoo kernel (twin once,
# broken twice): see the git history of this file's first version's notes
# in HARDWARE.md.
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
# round 2: the expect_tx-smaller-than-the-copies probe in variants
# (announce 512 / 768 / 1024; mode bit 0: warp 0 does not wait; bit 1:
# the copies are issued before the arrive.expect_tx), and the fixed zoo
# kernel 25 with its twin
for m in 0 1 2 3; do
  for a in 512 768 1024; do
    timeout -s KILL 6 $W/host $W/probe.cubin tx_short tx $((a + (m << 16))) >> $R 2>>$LOG || echo "tx_short $a mode $m rc=$?" >> $R
  done
done
for k in tmap_no_acquire_ok tmap_no_acquire tx_counts_one_box_ok tx_counts_one_box; do
  timeout -s KILL 6 $W/host $W/zoo.cubin $k zoo 1 >> $R 2>>$LOG || echo "$k rc=$?" >> $R
done
nvidia-smi -q 2>/dev/null | grep -m3 -i "product name\|driver version" >> $LOG
tar -C $W -cJf "$OUTF" results.txt log.txt
