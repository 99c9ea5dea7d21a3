#!/bin/sh
# bench/run.sh — `make bench`: every benchmark there is, one after another.
#
#  1. each built $B/bench/* program (bench/*.c: TMA engine throughput, ...),
#     run as is — they print their own table (bench_parse needs the corpus
#     as arguments: `make bench-parse` runs it);
#  2. ptxi-based benches: every launch file under bench/kernels/ run through
#     `ptxi run` (deferred completion, one interpreter thread, then -j N),
#     timed end to end, with the kernel's PASS/FAIL so a fast wrong answer
#     does not pass for a speed-up.
# BENCH_JOBS=N sets the -j of the parallel runs (default: online CPUs).
B=${B:-build}
PTXI=${PTXI:-$B/ptxi}
JOBS=${BENCH_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
status=0

now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{ printf "%.3f", $2 - $1 }'; }

for b in "$B"/bench/*; do
    [ -f "$b" ] && [ -x "$b" ] || continue
    [ "$(basename "$b")" = bench_parse ] && continue
    echo "== $(basename "$b")"
    "$b" || { echo "FAIL bench/$(basename "$b"): exit status $?"; status=1; }
done

for f in bench/kernels/*.jsonl bench/kernels/*.json; do
    [ -f "$f" ] || continue
    echo "== ptxi run $f"
    printf '%-22s %10s %10s  %s\n' case "-j 1 (s)" "-j $JOBS (s)" result
    names=$("$PTXI" test "$f" 2>/dev/null | sed -n 's/^\(PASS\|FAIL\) \([^ :]*\).*/\2/p')
    for n in $names; do
        t0=$(now); r1=$("$PTXI" test -q --filter "$n" "$f" 2>&1); t1=$(now)
        "$PTXI" test -q --filter "$n" "$f" >/dev/null 2>&1   # warm, then time -j N
        t2=$(now); rN=$("$PTXI" run -j "$JOBS" --filter "$n" "$f" 2>&1); t3=$(now)
        res=PASS
        case "$r1$rN" in *FAIL*) res=FAIL; status=1 ;; esac
        printf '%-22s %10s %10s  %s\n' "$n" "$(elapsed "$t0" "$t1")" "$(elapsed "$t2" "$t3")" "$res"
    done
done
exit $status
