#!/bin/sh
# readme.sh — every example of the README runs as written: each `./ptxi`
# command of its ```sh blocks (continuation lines joined) runs from a
# scratch directory that sees the repository's samples/ and tests/ (so the
# files the examples write land there), with no input, and must exit 0;
# the Python example runs when numpy is installed.
B=${B:-build}
PTXI=${PTXI:-$B/ptxi}
ROOT=$(pwd)
T=${TMPDIR:-/tmp}/ptxi-readme.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
ln -s "$ROOT/samples" "$ROOT/tests" "$ROOT/python" "$T/"
ln -s "$ROOT/$PTXI" "$T/ptxi"
awk '/^```sh/{f=1;next} /^```/{f=0} f' README.md | sed -e :a -e '/\\$/N; s/\\\n//; ta' > "$T/blocks"
n=0
grep '^\./ptxi ' "$T/blocks" | sed 's/ \{2,\}#.*//' > "$T/cmds"
while IFS= read -r cmd; do
    n=$((n + 1))
    (cd "$T" && timeout 300 sh -c "$cmd" < /dev/null > "$T/out" 2>&1); rc=$?
    short=$(printf '%s' "$cmd" | cut -c1-70)
    if [ "$rc" -eq 0 ]; then echo "PASS readme/$n: $short"
    else echo "FAIL readme/$n: exit status $rc: $cmd"; tail -5 "$T/out" | sed 's/^/    /'; fi
done < "$T/cmds"
[ "$n" -ge 10 ] && echo "PASS readme/count: $n examples" || echo "FAIL readme/count: only $n ./ptxi examples found"
# the Python example: from PYTHONPATH=python to the closing quote
PY=
for p in python3 /usr/bin/python3; do
    if command -v "$p" > /dev/null 2>&1 && "$p" -c 'import numpy' > /dev/null 2>&1; then PY=$p; break; fi
done
sed -n "/^PYTHONPATH=python python3 -c '/,/'\$/p" "$T/blocks" | sed '1s/^PYTHONPATH=python python3 -c .//; $s/.$//' > "$T/example.py"
if [ ! -s "$T/example.py" ]; then
    echo "FAIL readme/python: no Python example found"
elif [ -z "$PY" ]; then
    echo "SKIP readme/python: numpy is not installed"
elif (cd "$T" && PRE= && if nm "$ROOT/$B/libptxi.so" | grep -q __asan_report; then
          PRE=$(cc -print-file-name=libasan.so); export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}; fi &&
        LD_PRELOAD=$PRE PTXI_LIBRARY="$ROOT/$B/libptxi.so" PYTHONPATH=python "$PY" example.py) > "$T/py.out" 2>&1 \
        && grep -q '^ok$' "$T/py.out"; then
    echo "PASS readme/python"
else
    echo "FAIL readme/python: $(tail -3 "$T/py.out")"
fi
