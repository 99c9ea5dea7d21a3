#!/bin/sh
# tests/run.sh — run every test and print the closing line "N passed, N failed".
#
# Protocol: every test program prints one line per check, starting with
# "PASS " or "FAIL " (a FAIL line says what differed).  Sources:
#   $B/tests/*            unit-test binaries built from tests/unit/*.c
#   tests/scripts/*.sh    shell tests (front-end round trips, diagnostics,
#                         conformance suites through `ptxi test`, ...)
# A program that exits non-zero without printing a FAIL line counts as one
# failure (a crash or a sanitizer report is never silent).  "SKIP " lines
# (a check that cannot run on this machine, and why) are shown, not counted.
B=${B:-build}
PTXI=${PTXI:-$B/ptxi}
export B PTXI
LOG=${TEST_LOG:-$B/test.log}
mkdir -p "$B"
: > "$LOG"
pass=0; fail=0
run_one() {
    name=$1; shift
    out=$("$@" 2>&1); rc=$?
    printf '%s\n' "$out" >> "$LOG"
    p=$(printf '%s\n' "$out" | grep -c '^PASS ')
    f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        printf 'FAIL %s: exited with status %s\n' "$name" "$rc"
        printf '%s\n' "$out" | tail -20
    fi
    printf '%s\n' "$out" | grep '^FAIL ' | head -50
    # a suite that could not run here says why (e.g. numpy missing)
    printf '%s\n' "$out" | grep '^SKIP ' | head -5
    printf '%-40s %6d passed, %d failed\n' "$name" "$p" "$f"
    pass=$((pass + p)); fail=$((fail + f))
}
for t in "$B"/tests/*; do
    [ -x "$t" ] && [ -f "$t" ] || continue
    run_one "unit/$(basename "$t")" "$t"
done
for s in tests/scripts/*.sh; do
    [ -f "$s" ] || continue
    run_one "$(basename "$s" .sh)" sh "$s"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
