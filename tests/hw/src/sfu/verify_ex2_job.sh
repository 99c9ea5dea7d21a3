#!/bin/bash
# Every input of the ex2 forms on the H100 against ptxi's sfu/ model
# (verify_ex2.cu; every sfu/*.c compiled here with the product's flags).
# Run from a folder that also holds copies of every sfu/*.c and sfu/*.h
# (their "sfu/..." includes made local) and this folder's verify_ex2.cu as verify.cu:
#   cd FOLDER && OUTF=result.tar.xz bash verify_ex2_job.sh
# H100 (2026-11-27): 0 of 2^32 differ for each of the four forms.
set -u
T0=$(date +%s)
W=$(mktemp -d /tmp/sfuex2.XXXXXX)
R=$W/res; mkdir -p $R
exec > >(tee $R/log.txt) 2>&1
echo "start $(date -u)"; nvidia-smi --query-gpu=name --format=csv 2>&1 | tail -1
for f in *.c; do gcc -O2 -std=c17 -D_GNU_SOURCE -c $f -o $W/${f%.c}.o || echo "build $f failed"; done
timeout 60 nvcc -O2 -arch=sm_90a -Xcompiler -fopenmp -o $W/verify verify.cu $W/*.o -lgomp -lm || echo "build failed"
echo "built at $(( $(date +%s) - T0 ))s"
LEFT=$(( 120 - ($(date +%s) - T0) ))
OMP_NUM_THREADS=16 timeout $(( LEFT + 8 )) $W/verify $(( LEFT - 12 )) > $R/verify.txt; echo "verify rc=$? at $(( $(date +%s) - T0 ))s"
cat $R/verify.txt
echo "end $(date -u)"
sleep 1
tar -C $R -cJf "$OUTF" . ; echo "tar rc=$?"
rm -rf $W
