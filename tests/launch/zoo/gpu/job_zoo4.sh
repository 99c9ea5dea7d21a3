#!/bin/bash
# zoo4 (issue 10): each kernel of ../zoo4.cu on the GPU (not run by `make test`;
# from this folder with zoo4.cu copied here: `OUTF=out.tar.xz bash job_zoo4.sh`): the
# broken kernel twice (once if it hung), its twin once, 2 s limit each
# (host.cpp).  One
# line per run in results.txt: NAME OK <dst hash> <out hash> <dst[0,8K) hash>
# | HANG | FAULT <error>; first probe4.cu's lines (round 2) and
# exitprobe.cu's (host.cpp mode exit).
set -u
start=$(date +%s)
W=$(mktemp -d)
LOG=$W/log.txt
{
  nvcc -arch=sm_90a -O3 -cubin zoo4.cu -o $W/zoo4.cubin &&
  g++ -O2 -I/usr/local/cuda/include host.cpp -o $W/host -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda &&
  nvcc -arch=sm_90a -O3 -cubin exitprobe.cu -o $W/exitprobe.cubin &&
  nvcc -arch=sm_90a -O3 -cubin probe4.cu -o $W/probe4.cubin
} >> $LOG 2>&1 || echo "BUILD FAILED" >> $LOG
R=$W/results.txt
: > $R
# probe4.cu (round 2): rel_wrong_stage with a sleeping producer, and what
# mbarrier.inval leaves; then rel_wrong_stage itself ten times
for k in overrun_sleep_ok overrun_sleep overrun_sleep overrun_sleep; do
  HOST_HANG_S=2 timeout -s KILL 8 $W/host $W/probe4.cubin $k zoo 1 >> $R 2>>$LOG || echo "$k rc=$?" >> $R
done
timeout -s KILL 8 $W/host $W/probe4.cubin inval_word raw >> $R 2>>$LOG || echo "inval_word rc=$?" >> $R
for i in 1 2 3 4 5 6 7 8 9 10; do
  HOST_HANG_S=2 timeout -s KILL 8 $W/host $W/zoo4.cubin rel_wrong_stage zoo 1 >> $R 2>>$LOG || echo "rel_wrong_stage rc=$?" >> $R
done
# exitprobe.cu: CTAs that exit with their own TMA loads in flight (wait 0)
# or after waiting for them (wait 1), 16384 CTAs in many waves
for c in "16384 1" "16384 0" "16384 0" "16384 0" "65536 0" "16384 1"; do
  timeout -s KILL 8 $W/host $W/exitprobe.cubin exit_inflight exit $c >> $R 2>>$LOG || echo "exit_inflight $c rc=$?" >> $R
done
names=$(grep -o '^ZOO([a-z0-9_]*)' zoo4.cu | sed 's/ZOO(\(.*\))/\1/')
echo "kernels: $names" >> $LOG
for n in $names; do
  cl=1
  case $n in cl_*) cl=2 ;; esac
  hung=
  for k in ${n}_ok $n $n; do
    if [ $(( $(date +%s) - start )) -gt 130 ]; then echo "$k SKIPPED (job time)" >> $R; continue; fi
    if [ -n "$hung" ]; then echo "$k SKIPPED (its first run hung)" >> $R; continue; fi
    HOST_HANG_S=2 timeout -s KILL 8 $W/host $W/zoo4.cubin $k zoo $cl > $W/one 2>>$LOG || echo "$k rc=$?" >> $W/one
    cat $W/one >> $R
    [ "$k" = "$n" ] && grep -q HANG $W/one && hung=1
  done
done
echo "elapsed $(( $(date +%s) - start )) s" >> $LOG
nvidia-smi -q 2>/dev/null | grep -m3 -i "product name\|driver version" >> $LOG
cp zoo4.cu exitprobe.cu probe4.cu $W/
tar -C $W -cJf "$OUTF" results.txt log.txt zoo4.cu exitprobe.cu probe4.cu
