#!/bin/bash
# SFU probe: H100 outputs of the .approx functions for fitting (see probe.cu).
# Run from a folder that also holds sfu/gen/hwref.h as ref.h:
#   cd FOLDER && OUTF=result.tar.xz bash probe_job.sh
set -u
T0=$(date +%s)
W=$(mktemp -d /tmp/sfu.XXXXXX)
R=$W/res; mkdir -p $R $W/raw
exec > >(tee $R/log.txt) 2>&1
echo "start $(date -u)"; nvidia-smi --query-gpu=name,clocks.sm --format=csv 2>&1 | head -3
nvcc --version | tail -2
( timeout 20 nvcc -arch=sm_90a -cubin -o $W/sass.cubin sass.cu && (timeout 10 cuobjdump -sass $W/sass.cubin || timeout 10 nvdisasm $W/sass.cubin) > $R/sass.txt 2>&1 ) || echo "sass dump failed"
timeout 40 nvcc -O2 -arch=sm_90a -Xcompiler -fopenmp,-ffp-contract=off -o $W/probe probe.cu -lgomp || { echo "probe build failed"; }
echo "built at $(( $(date +%s) - T0 ))s"
OMP_NUM_THREADS=16 timeout 55 $W/probe $W/raw; echo "probe rc=$? at $(( $(date +%s) - T0 ))s"
cp $W/raw/manifest.txt $R/ 2>/dev/null
DL=$(( T0 + 100 ))
TL=$(( DL + 5 - $(date +%s) )); [ $TL -lt 8 ] && TL=8
timeout $TL python3 pack.py $W/raw $R 9500000 $DL; echo "pack rc=$? at $(( $(date +%s) - T0 ))s"
ls -la $R | head -80
echo "end $(date -u)"
sleep 1
tar -C $R -cJf "$OUTF" . ; echo "tar rc=$?"
rm -rf $W
