#!/bin/sh
# tests/scripts/frontend_corpus.sh — the front end's main test: every .ptx
# of the shared corpus and conformance suite, and of the front end's own
# fixtures (tests/diag/good: hand-written ISA forms; tests/diag/cccl: every
# instruction form of the CUDA toolkit's libcu++ PTX wrappers), checks
# clean, prints, reparses to the same canonical IR, and (where ptxas exists)
# the printed text is accepted by ptxas for the file's own .target.
PTXI=${PTXI:-build/ptxi}
B=${B:-build}
T=$B/fe-corpus
mkdir -p "$T"
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
seen=" "
nshared=0
for f in tests/diag/good/*.ptx tests/diag/cccl/*.ptx \
         ../shared/corpus/*.ptx ../shared/conformance/ptx/*.ptx \
         /work/shared/corpus/*.ptx /work/shared/conformance/ptx/*.ptx; do
    [ -f "$f" ] || continue
    real=$(realpath "$f")
    case $seen in *" $real "*) continue ;; esac   # ../shared is /work/shared here
    seen="$seen$real "
    case $real in */shared/*) nshared=$((nshared + 1)) ;; esac
    n=$(basename "$(dirname "$f")")_$(basename "$f" .ptx)
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
        else echo "FAIL corpus/$n: ptxas -arch=$arch: $(head -2 "$T/$n.ptxas" | tr '\n' ' ')"; fi
    else
        echo "PASS corpus/$n: ptxas skipped (absent)"
    fi
done
[ "$nshared" -gt 0 ] || echo "note: no shared corpus found (../shared/corpus); only the front end's own fixtures ran"
