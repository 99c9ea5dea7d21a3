#!/bin/sh
# complete_policies.sh — every completion policy gives the same results.
#
# The conformance kernels wait correctly for their copies, so when a TMA or
# bulk operation lands must not change a single byte.  Each suite of
# tests/conformance/ and tests/hw/ runs under `--complete=deferred` (the
# default, which conformance.sh also checks against the hardware's bytes)
# and again under eager and random seeds; the `ptxi test` output (every
# case's PASS/FAIL line with its byte diff, and what the kernels printed)
# must be the same.  Under -j 2 a kernel's printf output lands among the
# other case's lines in any order, so the case lines are compared in order
# and everything else (device printf) as a sorted list of lines.  One line
# per policy and suite.
#
# tests/launch/async/ (async.cu) must moreover pass under every policy: a
# warp polling with try_wait in a %clock64-bounded loop counts as waiting, so
# a copy in flight lands before the loop can time out, however long other
# warps run meanwhile.
#
#   COMPLETE_POLICIES="eager random:1 random:7"   the policies compared
#                                   (default: eager random:1, to keep make test quick)
PTXI=${PTXI:-build/ptxi}
POLICIES=${COMPLETE_POLICIES:-eager random:1}
T=${TMPDIR:-/tmp}/ptxi-policies.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
RESULT='^(PASS|FAIL) |^    |^[0-9]+ passed'
# run_suite OUT ARGS...: the case lines in order into OUT, the rest (the
# kernels' printf output) sorted into OUT.printf
run_suite() {
    out=$1; shift
    "$PTXI" test -j 2 "$@" > "$out.raw" 2>&1
    grep -E "$RESULT" "$out.raw" > "$out"
    grep -vE "$RESULT" "$out.raw" | LC_ALL=C sort > "$out.printf"
}
for dir in tests/conformance/*/ tests/hw/*/; do
    [ -f "$dir/cases.jsonl" ] || continue
    grep -q '"ptx"' "$dir/cases.jsonl" || continue      # encode-only suite: nothing lands
    suite=${dir%/}
    suite=${suite#tests/conformance/}
    suite=${suite#tests/}
    run_suite "$T/deferred" "$dir"
    for pol in $POLICIES; do
        run_suite "$T/other" --complete="$pol" "$dir"
        if ! cmp -s "$T/deferred" "$T/other"; then
            n=$(diff "$T/deferred" "$T/other" | grep -c '^[<>] \(PASS\|FAIL\)')
            echo "FAIL policy/$pol/$suite: results differ from --complete=deferred ($n case lines)"
            diff "$T/deferred" "$T/other" | head -8 | sed 's/^/    /'
        elif ! cmp -s "$T/deferred.printf" "$T/other.printf"; then
            n=$(diff "$T/deferred.printf" "$T/other.printf" | grep -c '^[<>]')
            echo "FAIL policy/$pol/$suite: kernel printf output differs from --complete=deferred ($n lines, sorted)"
            diff "$T/deferred.printf" "$T/other.printf" | head -8 | sed 's/^/    /'
        else
            echo "PASS policy/$pol/$suite"
        fi
    done
done
for pol in deferred $POLICIES; do
    # (not `|` as the delimiter: there `\|` is a literal bar, not "or")
    "$PTXI" test --complete="$pol" tests/launch/async | grep '^\(PASS\|FAIL\)' | sed "s#^\(PASS\|FAIL\) #\1 policy/$pol/async/#"
done
