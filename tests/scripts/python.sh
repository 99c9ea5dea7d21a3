#!/bin/sh
# python.sh — the Python package's pytest tests (python/tests), counted
# in tests/run.sh's protocol: each pytest test becomes a PASS or FAIL line
# (a FAIL with pytest's summary of it).  Runs against this build's
# libptxi.so.  Needs numpy and pytest (Debian: python3-numpy,
# python3-pytest; CI installs them); without them it says so and counts
# nothing, so that a machine without Python can still run `make test`.
B=${B:-build}
# PTXI_PYTHON=INTERPRETER picks the Python (default: python3, then the system's)
PY=
for p in ${PTXI_PYTHON:-python3 /usr/bin/python3}; do
    if command -v "$p" > /dev/null 2>&1 && "$p" -c 'import numpy, pytest' > /dev/null 2>&1; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
    echo "SKIP python: numpy and pytest are not installed (apt-get install python3-numpy python3-pytest); the Python package's tests did not run"
    exit 0
fi
LIB=$(pwd)/$B/libptxi.so
if [ ! -f "$LIB" ]; then
    echo "FAIL python/setup: $LIB is not built (make $B/libptxi.so)"
    exit 1
fi
# A sanitizer build's library needs its runtime loaded first.
PRE=
if nm "$LIB" 2>/dev/null | grep -q __asan_report; then
    PRE=$(cc -print-file-name=libasan.so 2>/dev/null)
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
fi
T=${TMPDIR:-/tmp}/ptxi-python.$$
trap 'rm -f "$T"' EXIT
PTXI_LIBRARY=$LIB PYTHONDONTWRITEBYTECODE=1 LD_PRELOAD=$PRE \
    "$PY" -m pytest -p no:cacheprovider -v -rfE --tb=short python/tests > "$T" 2>&1
rc=$?
# "python/tests/test_ptxi.py::test_x[case] PASSED   [ 5%]"
sed -n 's#^python/tests/\([^ ]*\) \(PASSED\|FAILED\|ERROR\|SKIPPED\|XFAIL\|XPASS\).*#\2 \1#p' "$T" |
while read -r verdict id; do
    case $verdict in
    PASSED|XFAIL) echo "PASS python/$id" ;;
    SKIPPED) echo "SKIP python/$id" ;;
    *) echo "FAIL python/$id: pytest says $verdict (pytest's report below)" ;;
    esac
done
n=$(grep -c '^python/tests/.* \(PASSED\|FAILED\|ERROR\|SKIPPED\|XFAIL\|XPASS\)' "$T")
if [ "$rc" -ne 0 ]; then
    if [ "$n" -eq 0 ]; then echo "FAIL python/pytest: exited with status $rc before running a test"; fi
    sed -n '/= FAILURES =\|= ERRORS =\|short test summary/,$p' "$T" | head -60 | sed 's/^/    /'
    [ "$n" -gt 0 ] || tail -20 "$T" | sed 's/^/    /'
fi
exit 0
