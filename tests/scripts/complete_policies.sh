#!/bin/sh
# complete_policies.sh — every completion policy gives the same results.
#
# The conformance kernels wait correctly for their copies, so when a TMA or
# bulk operation lands must not change a single byte.  Each suite of
# tests/conformance/ and tests/hw/ runs under `--complete=deferred` (the
# default, which conformance.sh also checks against the hardware's bytes)
# and again under eager and random seeds; the `ptxi test` output (every
# case's PASS/FAIL line with its byte diff) must be the same.  One line per
# policy and suite.
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
for dir in tests/conformance/*/ tests/hw/*/; do
    [ -f "$dir/cases.jsonl" ] || continue
    grep -q '"ptx"' "$dir/cases.jsonl" || continue      # encode-only suite: nothing lands
    suite=${dir%/}
    suite=${suite#tests/conformance/}
    suite=${suite#tests/}
    # only the results: a kernel's own printf output interleaves with -j 2
    "$PTXI" test -j 2 "$dir" 2>&1 | grep -E '^(PASS|FAIL) |^    |^[0-9]+ passed' > "$T/deferred"
    for pol in $POLICIES; do
        "$PTXI" test -j 2 --complete="$pol" "$dir" 2>&1 | grep -E '^(PASS|FAIL) |^    |^[0-9]+ passed' > "$T/other"
        if cmp -s "$T/deferred" "$T/other"; then
            echo "PASS policy/$pol/$suite"
        else
            n=$(diff "$T/deferred" "$T/other" | grep -c '^[<>] \(PASS\|FAIL\)')
            echo "FAIL policy/$pol/$suite: results differ from --complete=deferred ($n case lines)"
            diff "$T/deferred" "$T/other" | head -8 | sed 's/^/    /'
        fi
    done
done
for pol in deferred $POLICIES; do
    "$PTXI" test --complete="$pol" tests/launch/async | grep '^\(PASS\|FAIL\)' | sed "s|^\(PASS\|FAIL\) |\1 policy/$pol/async/|"
done
