#!/bin/sh
# tests/scripts/frontend_corpus.sh — the front end's main test: every .ptx
# of the shared corpus and conformance suite checks clean, prints, reparses
# to the same canonical IR, and (where ptxas exists) the printed text is
# accepted by ptxas for the file's own .target.
PTXI=${PTXI:-build/ptxi}
B=${B:-build}
T=$B/fe-corpus
mkdir -p "$T"
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
for f in tests/diag/good/*.ptx ../shared/corpus/*.ptx ../shared/conformance/ptx/*.ptx /work/shared/corpus/*.ptx /work/shared/conformance/ptx/*.ptx; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .ptx)
    [ -f "$T/$n.done" ] && continue
    : > "$T/$n.done"
    if "$PTXI" check "$f" 2> "$T/$n.err"; then echo "PASS corpus/$n: check"
    else echo "FAIL corpus/$n: check: $(head -1 "$T/$n.err")"; continue; fi
    "$PTXI" print "$f" > "$T/$n.p.ptx" 2>> "$T/$n.err"
    "$PTXI" print --canonical "$f" > "$T/$n.c1" 2>> "$T/$n.err"
    "$PTXI" print --canonical "$T/$n.p.ptx" > "$T/$n.c2" 2>> "$T/$n.err"
    if [ -s "$T/$n.c1" ] && cmp -s "$T/$n.c1" "$T/$n.c2"; then echo "PASS corpus/$n: round trip"
    else echo "FAIL corpus/$n: print -> parse differs: $(diff "$T/$n.c1" "$T/$n.c2" | head -3 | tr '\n' ' ')"; fi
    if [ -x "$PTXAS" ]; then
        arch=$(sed -n 's/^[ \t]*\.target[ \t]*\(sm_[0-9a-z]*\).*/\1/p' "$f" | head -1)
        if "$PTXAS" -arch="$arch" "$T/$n.p.ptx" -o /dev/null > "$T/$n.ptxas" 2>&1; then
            echo "PASS corpus/$n: ptxas -arch=$arch accepts printed text"
        else echo "FAIL corpus/$n: ptxas: $(head -2 "$T/$n.ptxas" | tr '\n' ' ')"; fi
    else
        echo "PASS corpus/$n: ptxas skipped (absent)"
    fi
done
rm -f "$T"/*.done
