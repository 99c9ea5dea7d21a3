#!/bin/sh
# cli_launch_errors.sh — malformed launch files give the exact error text.
#
# Each tests/launch/errors/NAME.json[l] is run with `ptxi run`; its output
# (stdout and stderr together) must equal NAME.expected byte for byte, and
# the exit status must be 1: an error, never a crash.  To add a case, write
# the file and its .expected (run from the repository root; paths in
# messages are as given on the command line).
PTXI=${PTXI:-build/ptxi}
dir=tests/launch/errors
for f in "$dir"/*.json "$dir"/*.jsonl; do
    [ -f "$f" ] || continue
    base=${f%.*}
    name=launch_error/$(basename "$f")
    if [ ! -f "$base.expected" ]; then
        echo "FAIL $name: no $base.expected"
        continue
    fi
    out=$("$PTXI" run "$f" 2>&1); rc=$?
    want=$(cat "$base.expected")
    if [ "$rc" -ne 1 ]; then
        echo "FAIL $name: exit status $rc, want 1"
        printf '%s\n' "$out" | sed 's/^/    /' | head -5
    elif [ "$out" != "$want" ]; then
        echo "FAIL $name: wrong message"
        echo "    got:  $out" | head -3
        echo "    want: $want" | head -3
    else
        echo "PASS $name"
    fi
done
