#!/bin/sh
# trace.sh — `--trace FILE.json` of run, test and debug: the files are
# validated as Chrome/Perfetto trace-event files by trace_check.py (tracks
# named, slices nested, async copy pairs, flows inside their slices) and
# must show what a TMA pipeline does: copies in flight, mbarrier waits,
# phase completions, arrows from landings to the waits they satisfied.
PTXI=${PTXI:-build/ptxi}
if ! command -v python3 > /dev/null 2>&1; then
    echo "SKIP trace: python3 is not installed (apt-get install python3); the files are not validated"
    exit 0
fi
T=${TMPDIR:-/tmp}/ptxi-trace.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
CHECK="python3 tests/scripts/trace_check.py"
ok() { echo "PASS trace/$1"; }
bad() { echo "FAIL trace/$1: $2"; }

# Triton's TMA pipeline (host TensorDescriptor, 12 CTAs): loads, stores, waits, arrows
out=$("$PTXI" run tests/hw/triton/cases.jsonl --filter tma_scale --trace "$T/tma_scale.json" 2>&1)
case "$out" in "PASS tma_scale"*) ok run_passes ;; *) bad run_passes "$out" ;; esac
$CHECK "$T/tma_scale.json" copy wait-mbarrier wait-bar flow phase landed
# the arrows: as many as the warps that waited on an mbarrier a copy completed (4 warps x 12 CTAs)
n=$(python3 -c "import json,sys; print(sum(e['ph']=='f' for e in json.load(open(sys.argv[1]))['traceEvents']))" "$T/tma_scale.json")
[ "$n" = 48 ] && ok tma_scale_arrows || bad tma_scale_arrows "$n flow arrows, want 48 (4 warps x 12 CTAs woken by a landing)"

# out of order, in chunks: several landings per copy
"$PTXI" run samples/tma_tile2d.json --complete=random:7 --trace "$T/random.json" > "$T/random.out" 2>&1
$CHECK "$T/random.json" copy landed phase

# ptxi test over several cases: one file per case
"$PTXI" test tests/launch/lineinfo --filter lineinfo_s --trace "$T/suite.json" > "$T/suite.out" 2>&1
n=$(ls "$T"/suite.*.json 2>/dev/null | wc -l)
[ "$n" -eq 2 ] && ok test_per_case || bad test_per_case "$n files $T/suite.<case>.json, want 2 (scale, stuck): $(tr '\n' '|' < "$T/suite.out")"
[ -f "$T/suite.lineinfo_stuck.json" ] && $CHECK "$T/suite.lineinfo_stuck.json" wait-mbarrier
[ -f "$T/suite.lineinfo_scale.json" ] && $CHECK "$T/suite.lineinfo_scale.json"

# the debugger: what ran between the commands, written at the end
"$PTXI" debug samples/tma_tile2d.json --trace "$T/debug.json" --batch -ex "break 59" -ex run -ex "step 3" -ex continue \
    -ex "delete" -ex continue > "$T/debug.out" 2>&1
grep -q "PASS tma_tile2d" "$T/debug.out" && ok debug_runs || bad debug_runs "$(tr '\n' '|' < "$T/debug.out")"
$CHECK "$T/debug.json" copy flow phase

# a file that cannot be written: a clear message, non-zero status
out=$("$PTXI" run samples/tma_tile2d.json --trace /nonexistent/dir/t.json 2>&1); rc=$?
case "$out" in *"--trace /nonexistent/dir/t.json:"*) [ $rc -ne 0 ] && ok bad_path || bad bad_path "status 0" ;;
               *) bad bad_path "$out" ;; esac

# a run stopped by --max-steps still leaves a complete, valid trace
"$PTXI" run tests/launch/debug/spin.json --max-steps 20000 --trace "$T/limited.json" > "$T/limited.out" 2>&1
grep -q "step limit" "$T/limited.out" && ok limit_stops || bad limit_stops "$(tr '\n' '|' < "$T/limited.out")"
$CHECK "$T/limited.json"

# wgmma.mma_async in flight: an async slice of its own category
"$PTXI" run tests/launch/wgmma/a_in_flight_ok.json --trace "$T/wgmma.json" > "$T/wgmma.out" 2>&1
grep -q "PASS a_in_flight_ok" "$T/wgmma.out" && ok wgmma_runs || bad wgmma_runs "$(tr '\n' '|' < "$T/wgmma.out")"
$CHECK "$T/wgmma.json" wgmma
