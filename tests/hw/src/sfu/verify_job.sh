#!/bin/bash
# SFU round 2: every f32 input of each .approx form on the H100 against
# ptxi's sfu/ model (sfu.c, compiled here with the product's flags).
# Run from a folder that also holds copies of sfu/sfu.c, sfu/sfu.h,
# sfu/tables.c, sfu/tables.h (their "sfu/..." includes made local) and
# sfu/gen/hwref.h as ref.h: cd FOLDER && OUTF=result.tar.xz bash verify_job.sh
set -u
T0=$(date +%s)
W=$(mktemp -d /tmp/sfu2.XXXXXX)
R=$W/res; mkdir -p $R
exec > >(tee $R/log.txt) 2>&1
echo "start $(date -u)"; nvidia-smi --query-gpu=name --format=csv 2>&1 | tail -1
gcc -O2 -std=c17 -D_GNU_SOURCE -c sfu.c -o $W/sfu.o && gcc -O2 -std=c17 -D_GNU_SOURCE -c tables.c -o $W/tables.o && \
timeout 40 nvcc -O2 -arch=sm_90a -Xcompiler -fopenmp -o $W/verify verify.cu $W/sfu.o $W/tables.o -lgomp -lm || echo "build failed"
echo "built at $(( $(date +%s) - T0 ))s"
LEFT=$(( 100 - ($(date +%s) - T0) ))
OMP_NUM_THREADS=16 timeout $(( LEFT + 8 )) $W/verify $(( LEFT - 12 )) > $R/verify.txt; echo "verify rc=$? at $(( $(date +%s) - T0 ))s"
cat $R/verify.txt
echo "end $(date -u)"
sleep 1
tar -C $R -cJf "$OUTF" . ; echo "tar rc=$?"
rm -rf $W
