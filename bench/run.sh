#!/bin/sh
# bench/run.sh — `make bench`: every benchmark there is, one after another.
#
#  1. each built $B/bench/* program (bench/*.c: TMA engine throughput, ...),
#     run as is — they print their own table (bench_parse needs the corpus
#     as arguments: `make bench-parse` runs it);
#  2. interpreter throughput: every case of every launch file under
#     bench/kernels/ through `ptxi run --stats`, on one interpreter thread
#     and then with -j N.  `--stats` times the launch itself (interp_run:
#     no process start, PTX parse or buffer set-up) and counts the
#     thread-instructions executed (per warp instruction, the lanes that
#     issued it); each figure is the best of BENCH_REPS runs.  The kernel's
#     PASS/FAIL is shown so that a fast wrong answer does not pass for a
#     speed-up.  Columns:
#       thread-instr   thread-instructions of the launch (same for any -j)
#       s, M/s         launch wall time and M thread-instructions per second
#       x              speed-up of -j N over -j 1
#       chk            -j 1 time with the happens-before checker (the
#                      default, --check=full) over -j 1 with --check=none
#     and, for cases of one kernel at growing grid sizes (NAME_<grid>), how
#     the -j 1 time grew against the work (linear = the same M/s);
#  3. the Triton 512^3 matmul (bench/kernels/triton_mm512.jsonl) on one and
#     on two interpreter threads, the figure issue 9 sets a target for.
# BENCH_JOBS=N sets the -j of the parallel runs (default: online CPUs);
# BENCH_REPS=N the runs per figure (default 3).
B=${B:-build}
PTXI=${PTXI:-$B/ptxi}
JOBS=${BENCH_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
REPS=${BENCH_REPS:-3}
status=0

for b in "$B"/bench/*; do
    [ -f "$b" ] && [ -x "$b" ] || continue
    [ "$(basename "$b")" = bench_parse ] && continue
    echo "== $(basename "$b")"
    "$b" || { echo "FAIL bench/$(basename "$b"): exit status $?"; status=1; }
done

# best NAME FILE J [FLAG]: runs the case REPS times; prints "thread-instr
# seconds result" for the fastest run (result FAIL if any run failed).
best() {
    i=0; bt=; bs=; res=PASS
    while [ "$i" -lt "$REPS" ]; do
        out=$("$PTXI" run --stats -j "$3" ${4:+"$4"} --filter "$1" "$2" 2>&1)
        printf '%s\n' "$out" | grep -q "^PASS $1\$" || res=FAIL
        line=$(printf '%s\n' "$out" | grep "^stats $1: ")
        t=$(printf '%s\n' "$line" | awk '{ print $3 }')
        s=$(printf '%s\n' "$line" | awk '{ print $9 }')
        if [ -n "$s" ]; then
            if [ -z "$bs" ] || awk "BEGIN { exit !($s < $bs) }"; then bs=$s; bt=$t; fi
        fi
        i=$((i + 1))
    done
    echo "${bt:-0} ${bs:-0} $res"
}

rate() { awk "BEGIN { if ($2 > 0) printf \"%.1f\", $1 / $2 / 1e6; else print \"-\" }"; }

for f in bench/kernels/*.jsonl bench/kernels/*.json; do
    [ -f "$f" ] || continue
    echo "== ptxi run --stats $f (launch time only, best of $REPS)"
    printf '%-14s %13s %9s %9s %9s %9s %6s %6s  %s\n' case thread-instr "-j1 s" "-j1 M/s" \
        "-j$JOBS s" "-j$JOBS M/s" x chk result
    # verdicts read "PASS NAME" or, from a .jsonl, "PASS FILE:LINE :: NAME"
    names=$("$PTXI" test "$f" 2>/dev/null | sed -n 's/^\(PASS\|FAIL\) \(.* :: \)\{0,1\}\([^ :]*\).*/\3/p')
    scaling=
    prev_kernel=; prev_t=; prev_s=; prev_n=
    for n in $names; do
        set -- $(best "$n" "$f" 1); t1=$1; s1=$2; r1=$3
        set -- $(best "$n" "$f" "$JOBS"); sN=$2; rN=$3
        set -- $(best "$n" "$f" 1 --check=none); s0=$2
        res=PASS
        [ "$r1$rN" = PASSPASS ] || { res=FAIL; status=1; }
        x=$(awk "BEGIN { if ($sN > 0) printf \"%.2f\", $s1 / $sN; else print \"-\" }")
        cx=$(awk "BEGIN { if ($s0 > 0) printf \"%.2f\", $s1 / $s0; else print \"-\" }")
        printf '%-14s %13s %9.4f %9s %9.4f %9s %6s %6s  %s\n' "$n" "$t1" "$s1" "$(rate "$t1" "$s1")" \
            "$sN" "$(rate "$t1" "$sN")" "$x" "$cx" "$res"
        kernel=${n%_*}
        if [ "$kernel" = "$prev_kernel" ] && [ "$prev_t" != 0 ] && [ "$prev_s" != 0 ]; then
            scaling="$scaling$(awk "BEGIN { printf \"  %s -> %s: %.2fx the thread-instructions in %.2fx the time (-j 1)\", \
                \"$prev_n\", \"$n\", $t1 / $prev_t, $s1 / $prev_s }")
"
        fi
        prev_kernel=$kernel; prev_t=$t1; prev_s=$s1; prev_n=$n
    done
    if [ -n "$scaling" ]; then
        echo "grid scaling:"
        printf '%s' "$scaling"
    fi
done
# Issue 9's speed figure: the Triton 512x512x512 f16 TMA matmul on one and
# on two interpreter threads (whatever the machine's CPU count), with the
# checker on (the default), as in tests/hw/README.md.
mm=bench/kernels/triton_mm512.jsonl
if [ -f "$mm" ]; then
    set -- $(best mm_tma_f16_512 "$mm" 1); m1=$2; r1=$3
    set -- $(best mm_tma_f16_512 "$mm" 2); m2=$2; r2=$3
    [ "$r1$r2" = PASSPASS ] || status=1
    printf '== Triton TMA matmul 512x512x512 f16 (%s, launch time, best of %s): -j1 %s s, -j2 %s s  %s\n' \
        "$mm" "$REPS" "$m1" "$m2" "$([ "$r1$r2" = PASSPASS ] && echo PASS || echo FAIL)"
fi
exit $status
