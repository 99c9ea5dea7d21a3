#!/bin/sh
# mem_faults.sh — illegal memory accesses stop the run with a report that
# names the rule broken, the address and its state space, the thread (CTA,
# warp, lane, thread index) and the source line (issue #3, point 2); and
# instructions ptxi does not execute (mma, wgmma, ldmatrix, video...) stop it
# with "not supported: OPCODE" and the source line, never a silent skip
# (tests/launch/unsupported, same layout).
#
# tests/launch/faults/faults.ptx holds the kernels; each NAME.json launches
# one of them so that it faults.  `ptxi run NAME.json` must exit with status 1
# and print exactly NAME.expected, with -j 1 and with -j 3.  To add a case:
# add the kernel (at the end of faults.ptx), NAME.json, then
#   build/ptxi run tests/launch/faults/NAME.json > tests/launch/faults/NAME.expected
# (from the repository root: the report names faults.ptx by that path)
# after reading the report: it must say what a user needs to find the bug.
PTXI=${PTXI:-build/ptxi}
for dir in tests/launch/faults tests/launch/unsupported; do
for f in "$dir"/*.json; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .json)
    if [ ! -f "$dir/$name.expected" ]; then
        echo "FAIL $(basename $dir)/$name: no $dir/$name.expected"
        continue
    fi
    want=$(cat "$dir/$name.expected")
    for j in 1 3; do
        out=$(timeout 60 "$PTXI" run -j $j "$f" 2>&1); rc=$?
        if [ "$rc" -ne 1 ]; then
            echo "FAIL $(basename $dir)/$name/j$j: exit status $rc, want 1"
            printf '%s\n' "$out" | sed 's/^/    /' | head -5
        elif [ "$out" != "$want" ]; then
            echo "FAIL $(basename $dir)/$name/j$j: wrong report"
            printf '%s\n' "$out" | sed 's/^/    got:  /' | head -5
            printf '%s\n' "$want" | sed 's/^/    want: /' | head -5
        else
            echo "PASS $(basename $dir)/$name/j$j"
        fi
    done
done
done
