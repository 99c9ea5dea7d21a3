#!/bin/bash
# Every f32 input of every f32 .approx form on the H100 (plus every divisor
# of the four f32 divisions and every high word of the f64 forms) against
# ptxi's sfu/ model compiled here with the product's flags (verify.cu).
# Run from a folder that holds copies of every sfu/*.c and sfu/*.h (their
# "sfu/..." includes made local, e.g. sed 's|"sfu/|"|') and sfu/gen/hwref.h
# as ref.h:   cd FOLDER && OUTF=result.tar.xz bash verify_job.sh
set -u
T0=$(date +%s)
W=$(mktemp -d /tmp/sfu2.XXXXXX)
R=$W/res; mkdir -p $R
exec > >(tee $R/log.txt) 2>&1
echo "start $(date -u)"; nvidia-smi --query-gpu=name --format=csv 2>&1 | tail -1
ok=1
for f in *.c; do gcc -O2 -std=c17 -D_GNU_SOURCE -c $f -o $W/${f%.c}.o || ok=0; done
[ $ok = 1 ] && timeout 60 nvcc -O2 -arch=sm_90a -Xcompiler -fopenmp -o $W/verify verify.cu $W/*.o -lgomp -lm || echo "build failed"
echo "built at $(( $(date +%s) - T0 ))s"
LEFT=$(( ${VERIFY_SECONDS:-240} - ($(date +%s) - T0) ))
OMP_NUM_THREADS=16 timeout $(( LEFT + 8 )) $W/verify $(( LEFT - 12 )) > $R/verify.txt; echo "verify rc=$? at $(( $(date +%s) - T0 ))s"
cat $R/verify.txt
echo "end $(date -u)"
sleep 1
tar -C $R -cJf "$OUTF" . ; echo "tar rc=$?"
rm -rf $W
