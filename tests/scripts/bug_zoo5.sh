#!/bin/sh
# bug_zoo5.sh — the fifth part of the bug zoo (tests/launch/zoo/zoo5.cu: the
# memory-ordering, proxy, epilogue and tensor-core family).  Every broken
# kernel is located and every twin runs clean under deferred, eager and
# random:1..20 (bug_zoo.sh does that part), and the correct but unusual
# kernels `ok_*` of zoo5.cu run clean under every one of those policies.
PTXI=${PTXI:-build/ptxi}
export PTXI
ZOO_FILES=zoo5 sh tests/scripts/bug_zoo.sh
policies=${ZOO_POLICIES:-"deferred eager $(seq -f random:%g 1 20 | tr '\n' ' ')"}
tmp=${TMPDIR:-/tmp}/bug_zoo5.$$
trap 'rm -f "$tmp"' EXIT
oks=$(grep -o '^OK(ok_[a-z0-9_]*)' tests/launch/zoo/zoo5.cu | sed 's/OK(\(.*\))/\1/')
[ -n "$oks" ] || echo "FAIL zoo5: no ok_ kernels found in zoo5.cu"
for pol in $policies; do
    timeout 300 "$PTXI" test tests/launch/zoo/zoo5.jsonl --complete="$pol" > "$tmp" 2>&1
    for n in $oks; do
        if grep -q "^PASS .* :: $n\$" "$tmp"; then
            echo "PASS zoo5/$n/$pol"
        else
            echo "FAIL zoo5/$n/$pol: the correct kernel does not run clean"
            awk -v n="$n" '/^(PASS|FAIL) / { on = ($4 == n || $4 == n ":") } on' "$tmp" | sed 's/^/    /' | head -6
        fi
    done
done
