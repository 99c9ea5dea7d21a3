#!/bin/sh
# debug_limits.sh — `ptxi debug` never hangs on a runaway kernel: --timeout
# stops the command that runs too long (the session goes on, at the warp's
# place), --max-steps stops the kernel with the step-limit report (every
# warp's place and the instruction count); bad values are refused.
PTXI=${PTXI:-build/ptxi}
SPIN=tests/launch/ci/spin.json
check() { # name, pattern, output
    if printf '%s\n' "$3" | grep -q -- "$2"; then echo "PASS debug_limits/$1"; else
        echo "FAIL debug_limits/$1: no '$2' in:"; printf '%s\n' "$3" | tail -8; fi
}
out=$(printf 'run\nprint 6*7\n' | timeout 60 "$PTXI" debug --timeout 1 "$SPIN" 2>&1)
check timeout_stops_command "Time limit reached (--timeout)" "$out"
check timeout_keeps_session '^\$1 = 42' "$out"
check timeout_shows_place "at ci.ptx:3[0-9] (pc" "$out"
out=$(printf 'run\n' | timeout 60 "$PTXI" debug --max-steps 5000 "$SPIN" 2>&1)
check max_steps_report "step limit (5000 warp instructions) was reached" "$out"
check max_steps_every_warp "every warp:" "$out"
out=$("$PTXI" debug --max-steps x "$SPIN" < /dev/null 2>&1); rc=$?
[ "$rc" -ne 0 ] && check bad_max_steps "is not a non-negative integer" "$out" || echo "FAIL debug_limits/bad_max_steps: exit status $rc"
out=$("$PTXI" debug --timeout -1 "$SPIN" < /dev/null 2>&1); rc=$?
[ "$rc" -ne 0 ] && check bad_timeout "is not a non-negative number of seconds" "$out" || echo "FAIL debug_limits/bad_timeout: exit status $rc"
# set var after `up` would have written the innermost frame: refused, naming the frame
out=$(printf 'break twice\nrun\nup\nset var %%r1 = 5\nframe 0\nset var %%t1 = 5\np %%t1\n' | timeout 60 "$PTXI" debug tests/launch/debug/calls.json 2>&1)
check set_var_caller_frame "set var: frame #1 is a caller's frame" "$out"
check set_var_frame0 '%t1 (.b32, warp 0) = 5 (all 32 lanes)' "$out"
