#!/bin/sh
# tests/scripts/frontend_diag.sh — every malformed snippet in tests/diag/
# must make `ptxi check` exit 1 (never crash) with exactly the diagnostics
# (line:col: error: message) listed in its sibling .expect file.
PTXI=${PTXI:-build/ptxi}
cd "$(dirname "$0")/../diag" || exit 1
case $PTXI in /*) ;; *) PTXI=../../$PTXI ;; esac
for f in *.ptx; do
    n=${f%.ptx}
    out=$("$PTXI" check "$f" 2>&1 >/dev/null); rc=$?
    got=$(printf '%s\n' "$out" | grep ': error: ' | sed "s|^$f:||")
    want=$(cat "$n.expect")
    if [ "$rc" -ne 1 ]; then
        echo "FAIL diag/$n: exit status $rc, want 1"
    elif [ "$got" != "$want" ]; then
        echo "FAIL diag/$n: got '$got', want '$want'"
    else
        echo "PASS diag/$n"
    fi
done
