#!/bin/sh
# wgmma_debug.sh — the debugger's wgmma views: `info wgmma` (a wgmma issued
# by one warp of four), `print/matrix` (accumulators as a 64 x 8 matrix after
# the wait, and the A fragment as 64 x 16) and `info desc` of a register and of a number.
# The transcript must equal tests/launch/wgmma/debug.expected.
PTXI=${PTXI:-build/ptxi}
dir=tests/launch/wgmma
got=$(printf 'break 173
run
step
info wgmma
delete
break 179
continue
info wgmma
print/matrix
print/matrix a 173
info desc %%rd6
info desc 0x4000000800400040
quit
' |
      "$PTXI" debug "$dir/a_in_flight_ok.json" 2>&1)
want=$(cat "$dir/debug.expected")
if [ "$got" = "$want" ]; then
    echo "PASS wgmma debugger transcript"
else
    echo "FAIL wgmma debugger transcript differs from $dir/debug.expected:"
    printf '%s\n' "$got" > /tmp/wgmma_debug.got.$$
    diff "$dir/debug.expected" /tmp/wgmma_debug.got.$$ | head -20
    rm -f /tmp/wgmma_debug.got.$$
fi
