#!/bin/sh
# wgmma_rules.sh — the wgmma ordering rules (interp/wgmma.c): each broken
# kernel of tests/launch/wgmma (one rule each, written by gen.py) stops with
# the diagnostic in NAME.expected (message, thread, `at` line) under every
# completion policy; each fixed twin NAME_ok runs clean and writes the same
# bytes under every policy.  To refresh an expectation after reading it:
#   build/ptxi run tests/launch/wgmma/NAME.json > tests/launch/wgmma/NAME.expected
PTXI=${PTXI:-build/ptxi}
dir=tests/launch/wgmma
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$dir"/*.json; do
    name=$(basename "$f" .json)
    case $name in
    *_ok)
        for pol in deferred eager random:1 random:2 random:3 random:4 random:5; do
            out=$(timeout 60 "$PTXI" run --complete="$pol" "$f" --dump "out=$tmp/$name.$pol.bin" 2>&1); rc=$?
            if [ "$rc" -ne 0 ]; then
                echo "FAIL wgmma/$name/$pol: exit status $rc"
                printf '%s\n' "$out" | sed 's/^/    /' | head -6
            elif ! cmp -s "$tmp/$name.$pol.bin" "$tmp/$name.deferred.bin"; then
                echo "FAIL wgmma/$name/$pol: output differs from --complete=deferred"
            else
                echo "PASS wgmma/$name/$pol"
            fi
        done ;;
    *)
        want=$(cat "$dir/$name.expected")
        for pol in deferred eager random:1 random:2 random:3 random:4 random:5; do
            out=$(timeout 60 "$PTXI" run --complete="$pol" "$f" 2>&1); rc=$?
            if [ "$rc" -ne 1 ]; then
                echo "FAIL wgmma/$name/$pol: exit status $rc, want 1"
            elif [ "$out" != "$want" ]; then
                echo "FAIL wgmma/$name/$pol: wrong diagnostic"
                printf '%s\n' "$out" | sed 's/^/    got:  /' | head -6
                printf '%s\n' "$want" | sed 's/^/    want: /' | head -6
            else
                echo "PASS wgmma/$name/$pol"
            fi
        done ;;
    esac
done
