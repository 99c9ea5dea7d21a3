#!/bin/sh
# cli_ci.sh — ptxi as CI meets it: limits that stop a runaway kernel
# (--max-steps, --timeout, SIGINT) with a report of where every warp is,
# CUDA's shape limits, `ptxi test` as a runner (lines naming the launch
# file, --junit checked against a JUnit schema with xmllint, --shard
# slices that together run every case once, a malformed line failing
# alone, typos and empty filters as errors, expect.launch kinds, printf
# under its case, nothing extra on stderr when piped), `ptxi check` with
# several files and -, --version, help and --help everywhere.
PTXI=${PTXI:-build/ptxi}
T=${TMPDIR:-/tmp}/ptxi-cli-ci.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
D=tests/launch/ci
ok() { echo "PASS cli_ci/$1"; }
bad() { echo "FAIL cli_ci/$1: $(printf '%s' "$2" | tr '\n' ' ')"; }
# has NAME WANT-STATUS FILE SUBSTRING...: the status (in FILE.rc) and every substring in FILE
has() {
    name=$1 st=$2 f=$3; shift 3
    rc=$(cat "$f.rc")
    if [ "$rc" != "$st" ]; then bad "$name" "exit status $rc, want $st: $(head -c 600 "$f")"; return; fi
    for w in "$@"; do
        if ! grep -qF -- "$w" "$f"; then bad "$name" "output lacks [$w]: $(head -c 600 "$f")"; return; fi
    done
    ok "$name"
}
run() { out=$1; shift; "$@" > "$T/$out" 2>&1; echo $? > "$T/$out.rc"; }

# ---- limits ---------------------------------------------------------------------
run steps "$PTXI" run --max-steps 5000 $D/spin.json
has max_steps 1 "$T/steps" "FAIL spin_forever: step limit: the launch's step limit (5000 warp instructions)" \
    "after 5000 warp instructions (cluster 1 of 2); every warp:" \
    "CTA (0,0,0) warp 0 lanes 0xffffffff: ready at tests/launch/ci/ci.ptx:3" "(--max-steps 5000;"
run tmo "$PTXI" test --max-steps 0 --timeout 0.3 $D/spin.json $D/suite.jsonl
has timeout 1 "$T/tmo" "FAIL $D/spin.json :: spin_forever: interrupted: time limit reached" \
    "every warp:" "(the case ran longer than --timeout 0.3 s)" "PASS $D/suite.jsonl:7 :: hello_6" "7 passed, 1 failed"
run tmo_run "$PTXI" run --max-steps 0 --timeout 0.2 $D/ci.ptx --kernel spin --grid 1 --block 64 --buffer f:4 --param ptr:f
has timeout_run 1 "$T/tmo_run" "interrupted: time limit reached" "CTA (0,0,0) warp 1 lanes 0xffffffff"
# Ctrl-C: the running case stops with the report, the rest is named as not run
"$PTXI" test --max-steps 0 --timeout 0 $D/suite.jsonl $D/spin.json $D/suite.jsonl > "$T/int" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! grep -q 'hello_6' "$T/int" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
kill -INT $pid
wait $pid; echo $? > "$T/int.rc"
has sigint 130 "$T/int" "PASS $D/suite.jsonl:7 :: hello_6" "interrupted: by request (Ctrl-C" "every warp:" \
    "interrupted (Ctrl-C): 7 cases not run: hello_0" "7 passed, 1 failed"
run defaults "$PTXI" test --help
has default_limits 0 "$T/defaults" "--max-steps N" "(default 4000000000" "--timeout SECONDS" "(default 600"

# ---- CUDA's shape limits ----------------------------------------------------------
for spec in "grid 2147483648:x = 2147483648 is above CUDA's limit of 2147483647 CTAs" \
            "grid 1,65536:y = 65536 is above CUDA's limit of 65535 CTAs" \
            "block 1,1,65:z = 65 is above CUDA's limit of 64 threads" \
            "block 2048:x = 2048 is above CUDA's limit of 1024 threads"; do
    opt=${spec%%:*} want=${spec#*:}
    set -- $opt
    g=1 b=32
    [ "$1" = grid ] && g=$2
    [ "$1" = block ] && b=$2
    run shape "$PTXI" run $D/ci.ptx --kernel hello --grid "$g" --block "$b" --buffer o:256 --param ptr:o --param s32:1
    has "limit_$1_$2" 1 "$T/shape" "launch error: $1" "$want"
done

# ---- the test runner ----------------------------------------------------------------
run mixed "$PTXI" test $D/mixed.jsonl
has malformed_line_alone 1 "$T/mixed" "PASS $D/mixed.jsonl:1 :: first" \
    "FAIL $D/mixed.jsonl:2 :: $D/mixed.jsonl:2:65: JSON error" \
    "FAIL $D/mixed.jsonl:3 :: typo: $D/mixed.jsonl:3: expects: unknown key \"expects\"" \
    "PASS $D/mixed.jsonl:4 :: last" "2 passed, 2 failed"
has printf_under_case 1 "$T/mixed" "PASS $D/mixed.jsonl:4 :: last
    printf: hello from CTA 0, v=3"
if awk '/:: first/{f=1} /:: last/{l=1} /v=3/{ if (!l) bad=1 } END{exit bad}' "$T/mixed"; then ok printf_order; else bad printf_order "printf of 'last' printed before its case"; fi
run nofilter "$PTXI" test --filter nosuchcase $D/suite.jsonl
has empty_filter 1 "$T/nofilter" "ptxi test: --filter nosuchcase: no case name contains it (7 cases read)"
run nofilter_run "$PTXI" run --filter nosuchcase $D/suite.jsonl
has empty_filter_run 1 "$T/nofilter_run" "--filter nosuchcase: no case name contains it"
run kind "$PTXI" test $D/bad_kind.json
has expect_launch_unknown_kind 1 "$T/kind" "expect.launch: unknown kind of stop \"hang\""
run wrong "$PTXI" test --max-steps 3000 $D/wrong_kind.json
has expect_launch_wrong_kind 1 "$T/wrong" "expected a stop of kind deadlock, but ptxi stopped with step limit"
run dl "$PTXI" test --max-steps 3000 $D/deadlock.json $D/spin_expected.json $D/race.json
has expect_launch_kinds 0 "$T/dl" "PASS $D/deadlock.json :: deadlock_expected (stopped as expected, deadlock:" \
    "PASS $D/spin_expected.json :: spin_step_limit" "PASS $D/race.json :: race_expected (stopped as expected, race: fault: data race" "3 passed, 0 failed"
# the message substring must be in the report
sed 's/"message":"1 of 1"/"message":"2 of 2"/' $D/deadlock.json > "$T/dl_msg.json"
sed -i "s#\"\\.\\./#\"$(pwd)/tests/launch/#g" "$T/dl_msg.json"
run dlm "$PTXI" test "$T/dl_msg.json"
has expect_launch_message 1 "$T/dlm" "expected a stop of kind deadlock with \"2 of 2\" in its message, but ptxi stopped with deadlock"
# piped: stdout only, nothing on stderr
"$PTXI" test $D/suite.jsonl > "$T/quiet.out" 2> "$T/quiet.err"
if [ ! -s "$T/quiet.err" ]; then ok no_progress_when_piped; else bad no_progress_when_piped "stderr: $(head -c 200 "$T/quiet.err")"; fi

# --shard: the slices run every case exactly once
: > "$T/shards"
for i in 1 2 3; do
    "$PTXI" test --shard $i/3 $D/suite.jsonl $D/mixed.jsonl | grep -E '^(PASS|FAIL) ' | sed 's/^[A-Z]* \([^ ]*\) .*/\1/' >> "$T/shards"
done
"$PTXI" test $D/suite.jsonl $D/mixed.jsonl | grep -E '^(PASS|FAIL) ' | sed 's/^[A-Z]* \([^ ]*\) .*/\1/' | sort > "$T/all"
sort "$T/shards" > "$T/shards.sorted"
if [ "$(wc -l < "$T/all")" -eq 11 ] && cmp -s "$T/all" "$T/shards.sorted"; then ok shard_union
else bad shard_union "slices ran [$(tr '\n' ' ' < "$T/shards.sorted")], all ran [$(tr '\n' ' ' < "$T/all")]"; fi
if [ "$(sort "$T/shards" | uniq -d | wc -l)" -eq 0 ]; then ok shard_disjoint; else bad shard_disjoint "a case ran in two slices"; fi
run shard_count "$PTXI" test --shard 2/3 $D/suite.jsonl
has shard_slice 0 "$T/shard_count" "PASS $D/suite.jsonl:2 :: hello_1" "PASS $D/suite.jsonl:5 :: hello_4" "2 passed, 0 failed"
run shard_bad "$PTXI" test --shard 4/3 $D/suite.jsonl
has shard_refused 2 "$T/shard_bad" "--shard 4/3: expected I/N with 1 <= I <= N"

# --junit, validated against the schema
"$PTXI" test --max-steps 3000 --junit "$T/j.xml" $D/mixed.jsonl $D/spin.json $D/suite.jsonl > /dev/null 2>&1
if command -v xmllint > /dev/null 2>&1; then
    if xmllint --noout --schema $D/junit.xsd "$T/j.xml" > "$T/xl" 2>&1; then ok junit_valid
    else bad junit_valid "$(head -5 "$T/xl")"; fi
else
    echo "SKIP cli_ci/junit_valid: xmllint is not installed (apt-get install libxml2-utils)"
fi
grep -q '<testsuites name="ptxi" tests="12" failures="3" errors="0" skipped="0"' "$T/j.xml" && ok junit_counts || bad junit_counts "$(head -3 "$T/j.xml")"
grep -q '<failure message="interrupted\|<failure message="step limit: the launch' "$T/j.xml" && ok junit_failure || bad junit_failure "no step-limit failure in $(grep -c failure "$T/j.xml") failures"
grep -q '<testsuite name="tests/launch/ci/suite.jsonl" tests="7" failures="0"' "$T/j.xml" && ok junit_per_file || bad junit_per_file "no suite.jsonl testsuite"

# ---- ptxi check, help, --version --------------------------------------------------
printf '.version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k() { ret; }\n' > "$T/good.ptx"
printf '.version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k() { nonsense %%r1; }\n' > "$T/bad.ptx"
run check "$PTXI" check "$T/good.ptx" "$T/bad.ptx" $D/ci.ptx
has check_many 1 "$T/check" "$T/good.ptx: ok" "$T/bad.ptx:4:" "$T/bad.ptx: 2 errors" "$D/ci.ptx: ok" "3 files checked, 1 with errors"
"$PTXI" check - < "$T/bad.ptx" > "$T/stdin" 2>&1; echo $? > "$T/stdin.rc"
has check_stdin 1 "$T/stdin" "<stdin>:4:"
"$PTXI" check - "$T/good.ptx" < "$T/good.ptx" > "$T/stdin2" 2>&1; echo $? > "$T/stdin2.rc"
has check_stdin_ok 0 "$T/stdin2" "<stdin>: ok" "2 files checked, 0 with errors"
run version "$PTXI" --version
has version 0 "$T/version" "ptxi 0."
run help "$PTXI" help
has help 0 "$T/help" "usage: ptxi COMMAND" "help" "--version"
for c in run test debug check print tmap; do
    run "help_$c" "$PTXI" help $c
    run "dash_$c" "$PTXI" $c --help
    if [ "$(cat "$T/help_$c.rc")" = 0 ] && [ -s "$T/help_$c" ] && cmp -s "$T/help_$c" "$T/dash_$c"; then ok "help_$c"
    else bad "help_$c" "ptxi help $c (status $(cat "$T/help_$c.rc")) and ptxi $c --help differ or fail"; fi
done
run help_bad "$PTXI" help nosuch
has help_unknown 2 "$T/help_bad" "ptxi help: unknown command 'nosuch'"

# ---- typed diffs, tolerances, .npy in and out, --keep-failed ------------------------
PTX=$(pwd)/$D/ci.ptx
# dst = src * s over 128 floats (16 x 8); src from hash32, as floats of all kinds
"$PTXI" run "$PTX" --kernel scale --grid 1 --block 128 --buffer dst:512 --buffer src:512:hash32=3 \
    --param ptr:dst --param ptr:src --param f32:1.0 --param s32:128 \
    --dump dst:f32:16x8="$T/want.npy" --dump src:f32:16x8="$T/src.npy" > "$T/gen" 2>&1
case_json() {   # case_json NAME SCALE EXPECT-EXTRA
    printf '{"format":"ptxi-launch/1","name":"%s","ptx":"%s","kernel":"scale","grid":[1,1,1],"block":[128,1,1],' "$1" "$PTX"
    printf '"buffers":[{"name":"dst","bytes":512,"dtype":"f32","shape":[16,8]},{"name":"src","bytes":512,"dtype":"f32","init":{"file":"%s/src.npy"}}],' "$T"
    printf '"tensor_maps":[{"name":"tm","encode":"tiled","data_type":"FLOAT32","rank":2,"global_address":{"buffer":"dst","offset":0},"global_dim":[8,16],"global_strides":[32],"box_dim":[8,8],"element_strides":[1,1],"interleave":"NONE","swizzle":"NONE","l2_promotion":"NONE","oob_fill":"NONE"}],'
    printf '"params":[{"pointer":"dst"},{"pointer":"src"},{"f32":%s},{"s32":128}],"expect":{"buffers":[{"name":"dst","file":"%s/want.npy"%s}]}}\n' "$2" "$T" "$3"
}
{ case_json same 1.0 ""; case_json scaled 1.0000001 ""; case_json scaled_ulp 1.0000001 ',"ulp":2'
  case_json scaled_rtol 1.0000001 ',"rtol":1e-6'; case_json scaled_far 1.001 ',"ulp":1'; } > "$T/typed.jsonl"
run typed "$PTXI" test --keep-failed "$T/kept" "$T/typed.jsonl"
has npy_in_and_expected 1 "$T/typed" "PASS $T/typed.jsonl:1 :: same" "PASS $T/typed.jsonl:3 :: scaled_ulp" \
    "PASS $T/typed.jsonl:4 :: scaled_rtol"
has typed_diff 1 "$T/typed" "FAIL $T/typed.jsonl:2 :: scaled: 1 buffer differs" "elements:" \
    " f32 elements differ; max abs error " "max rel error " "; first dst[" ", last dst[15,"
if grep -E '^    dst\[[0-9]+,[0-9]+\]: got -?[0-9.e+-]+, want -?[0-9.e+-]+ \([12] ulp\) \[tensor map tm \([0-9]+, [0-9]+\)\]$' "$T/typed" > /dev/null
then ok typed_diff_lines; else bad typed_diff_lines "no 'dst[r,c]: got X, want Y (N ulp) [tensor map tm (c, r)]' line: $(grep -m2 'dst\[' "$T/typed")"; fi
has tolerance_exceeded 1 "$T/typed" "FAIL $T/typed.jsonl:5 :: scaled_far" "elements differ beyond atol 0, rtol 0, ulp 1"
if [ -f "$T/kept/scaled.dst.bin" ] && [ "$(wc -c < "$T/kept/scaled.dst.bin")" -eq 512 ] && [ -f "$T/kept/scaled.dst.npy" ]; then
    ok keep_failed
else bad keep_failed "$(ls "$T/kept" 2>&1 | head -3)"; fi
# the kept .npy is what the kernel wrote: as the expected file, the case passes
case_json kept_as_expected 1.0000001 "" | sed "s#$T/want.npy#$T/kept/scaled.dst.npy#" > "$T/kept.json"
run keptrun "$PTXI" run "$T/kept.json"
has keep_failed_npy_roundtrip 0 "$T/keptrun" "PASS kept_as_expected"
# typos in the new keys are errors with their path
printf '{"format":"ptxi-launch/1","name":"t","buffers":[{"name":"b","bytes":8,"dtype":"f33"}]}\n' > "$T/dt.json"
run dtype_bad "$PTXI" run "$T/dt.json"
has dtype_unknown 1 "$T/dtype_bad" "buffers[0].dtype: unknown dtype \"f33\""
printf '{"format":"ptxi-launch/1","name":"t","buffers":[{"name":"b","bytes":8,"dtype":"f32","shape":[3]}]}\n' > "$T/sh.json"
run shape_bad "$PTXI" run "$T/sh.json"
has shape_mismatch 1 "$T/shape_bad" "buffers[0].shape: 3 elements of f32 are 12 bytes, the buffer has 8"

# ---- progress: on a terminal only -------------------------------------------------
if command -v script > /dev/null 2>&1; then
    script -qec "$PTXI test --max-steps 0 --timeout 2 $D/spin.json" /dev/null > "$T/tty" 2>&1
    if grep -q '\[0/1\] spin_forever: [0-9]* s, 1 clusters started' "$T/tty" && grep -q '0 passed, 1 failed' "$T/tty"; then
        ok progress_on_tty
    else bad progress_on_tty "$(tr '\r' '\n' < "$T/tty" | head -5)"; fi
    script -qec "$PTXI run --max-steps 0 --timeout 2 $D/ci.ptx --kernel spin --grid 100 --block 32 --buffer f:4 --param ptr:f" /dev/null > "$T/tty2" 2>&1
    if grep -q '\[0/1\] spin: [0-9]* s, 1 clusters started' "$T/tty2"; then ok progress_on_tty_run
    else bad progress_on_tty_run "$(tr '\r' '\n' < "$T/tty2" | head -5)"; fi
else
    echo "SKIP cli_ci/progress_on_tty: script(1) is not installed"
fi
