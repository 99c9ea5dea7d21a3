#!/bin/sh
# tests/scripts/frontend_diag.sh — every malformed snippet in tests/diag/
# must make `ptxi check` exit 1 (never crash) with exactly the diagnostics
# (line:col: error: message) listed in its sibling .expect file, each
# followed by its source line and a caret under the column.  The avail_*
# cases (a form the module's .target or .version lacks, ir/avail.def) must
# be refused by ptxas too, for that .target, where ptxas exists.
PTXI=${PTXI:-build/ptxi}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
cd "$(dirname "$0")/../diag" || exit 1
case $PTXI in /*) ;; *) PTXI=../../$PTXI ;; esac
for f in *.ptx; do
    n=${f%.ptx}
    out=$("$PTXI" check "$f" 2>&1 >/dev/null); rc=$?
    got=$(printf '%s\n' "$out" | grep ': error: ' | sed "s|^$f:||")
    want=$(cat "$n.expect")
    # file:L:C: error: ... / the source line L / a caret in column C
    shape=$(printf '%s\n' "$out" | awk -v f="$f" '
        BEGIN { while ((getline s < f) > 0) { sub(/\r$/, "", s); src[++n] = s } }
        state == 1 { if ($0 != src[L]) { print "line " L " not quoted"; exit }
                     state = 2; next }
        state == 2 { pre = substr(src[L], 1, C - 1); gsub(/[^\t]/, " ", pre)
                     if ($0 != pre "^") { print "caret misplaced under " L ":" C; exit }
                     state = 0; next }
        index($0, f ":") == 1 && / error: / {
            split(substr($0, length(f) + 2), p, ":"); L = p[1] + 0; C = p[2] + 0
            if (L > 0 && L <= n) state = 1 }
        END { if (state == 1) print "line " L " not quoted"
              else if (state == 2) print "no caret under " L ":" C }')
    if [ "$rc" -ne 1 ]; then
        echo "FAIL diag/$n: exit status $rc, want 1"
    elif [ "$got" != "$want" ]; then
        echo "FAIL diag/$n: got '$got', want '$want'"
    elif [ -n "$shape" ]; then
        echo "FAIL diag/$n: $shape"
    elif case $n in avail_*) [ -x "$PTXAS" ] ;; *) false ;; esac &&
         "$PTXAS" -arch="$(sed -n 's/^[ \t]*\.target[ \t]*\(sm_[0-9a-z]*\).*/\1/p' "$f" | head -1 | grep . || echo sm_90a)" \
                  "$f" -o /dev/null > /dev/null 2>&1; then
        echo "FAIL diag/$n: ptxas accepts it"
    else
        echo "PASS diag/$n"
    fi
done
