#!/bin/bash
# Every f32 input of sin.approx(.ftz).f32 and cos.approx(.ftz).f32 on the
# H100 against ptxi's sfu/ model (verify_sincos.cu; every sfu/*.c compiled
# here with the product's flags).  Run from a folder that also holds copies
# of sfu/*.c and sfu/*.h (their "sfu/..." includes made local), ref.h (a
# copy of sfu/gen/hwref.h) and this folder's verify_sincos.cu as verify.cu:
#   cd FOLDER && OUTF=result.tar.xz bash verify_sincos_job.sh
# H100 (2026-11-27): 0 of 2^32 differ for each of the four forms.
set -u
T0=$(date +%s)
W=$(mktemp -d /tmp/sfusc.XXXXXX)
R=$W/res; mkdir -p $R
exec > >(tee $R/log.txt) 2>&1
echo "start $(date -u)"; nvidia-smi --query-gpu=name --format=csv 2>&1 | tail -1
OK=1
for f in *.c; do gcc -O2 -std=c17 -D_GNU_SOURCE -c $f -o $W/${f%.c}.o || OK=0; done
[ $OK = 1 ] && { timeout 60 nvcc -O2 -arch=sm_90a -Xcompiler -fopenmp -o $W/verify verify.cu $W/*.o -lgomp -lm || OK=0; }
echo "built ok=$OK at $(( $(date +%s) - T0 ))s"
if [ $OK = 1 ]; then
  LEFT=$(( 125 - ($(date +%s) - T0) ))
  OMP_NUM_THREADS=16 timeout $(( LEFT + 8 )) $W/verify $(( LEFT - 10 )) > $R/verify.txt; echo "verify rc=$? at $(( $(date +%s) - T0 ))s"
  cat $R/verify.txt
fi
echo "end $(date -u)"
sleep 1
tar -C $R -cJf "$OUTF" . ; echo "tar rc=$?"
rm -rf $W
