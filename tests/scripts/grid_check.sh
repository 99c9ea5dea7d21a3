#!/bin/sh
# grid_check.sh — the grid-wide write check (interp/gridck.c) gives the same
# result for any -j: every case of tests/launch/zoo/zoo6.jsonl (CTAs of
# different clusters writing the same global bytes, and their correct twins)
# is run with one and with two interpreter threads (clusters in parallel)
# under deferred, eager and random:1..20, and the two outputs must be
# identical (report, address, both sides).  bug_zoo.sh checks the lines.
PTXI=${PTXI:-build/ptxi}
z=tests/launch/zoo/zoo6.jsonl
tmp=${TMPDIR:-/tmp}/grid_check.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for pol in deferred eager $(seq -f random:%g 1 20); do
    "$PTXI" run "$z" -j 1 --complete="$pol" > "$tmp/j1" 2>&1
    "$PTXI" run "$z" -j 2 --complete="$pol" > "$tmp/j2" 2>&1
    races=$(grep -c '^FAIL [a-z_]*: fault: data race \[grid-write-race\]' "$tmp/j1")
    clean=$(grep -c '^PASS [a-z_]*_ok$' "$tmp/j1")
    n=$((n + 1))
    if ! cmp -s "$tmp/j1" "$tmp/j2"; then
        echo "FAIL grid_check/$pol: -j 1 and -j 2 differ:"
        diff "$tmp/j1" "$tmp/j2" | head -10 | sed 's/^/    /'
        fail=$((fail + 1))
    elif [ "$races" -ne 7 ] || [ "$clean" -ne 7 ]; then
        echo "FAIL grid_check/$pol: $races of 7 bugs reported as [grid-write-race], $clean of 7 twins clean:"
        grep -v '^ ' "$tmp/j1" | head -12 | sed 's/^/    /'
        fail=$((fail + 1))
    else
        echo "PASS grid_check/$pol (7 bugs, 7 twins; -j 1 = -j 2)"
    fi
done
echo "grid_check: $((n - fail)) of $n policies pass"
[ "$fail" -eq 0 ]
