#!/bin/sh
# tests/scripts/frontend_cccl.sh — every PTX instruction form of the CUDA
# toolkit's libcu++ wrappers (cccl/cuda/__ptx/instructions/generated/*.h)
# parses.  frontend_corpus.sh checks, round-trips and assembles the
# committed tests/diag/cccl/cccl_*.ptx; this script regenerates them from
# the installed headers (when there are any, and python3) and checks that
# the committed files are current.  If they are not (another CUDA version),
# the freshly generated files are checked and round-tripped here instead,
# so the forms of the installed toolkit are what is tested.
PTXI=${PTXI:-build/ptxi}
B=${B:-build}
T=$B/fe-cccl
H=${CCCL_GENERATED:-/usr/local/cuda/include/cccl/cuda/__ptx/instructions/generated}
if [ ! -d "$H" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "note: no CUDA headers ($H) or no python3: only the committed tests/diag/cccl fixtures are tested"
    exit 0
fi
rm -rf "$T" && mkdir -p "$T"
if ! python3 tests/diag/cccl/gen_cccl_forms.py "$H" "$T" > "$T/gen.log" 2>&1; then
    echo "FAIL cccl: gen_cccl_forms.py: $(tail -1 "$T/gen.log")"
    exit 0
fi
echo "PASS cccl: $(tail -1 "$T/gen.log") from $H"
for g in "$T"/cccl_*.ptx; do
    n=$(basename "$g" .ptx)
    if cmp -s "$g" "tests/diag/cccl/$n.ptx"; then
        echo "PASS cccl/$n: tests/diag/cccl/$n.ptx is current (tested by frontend_corpus)"
        continue
    fi
    echo "note: tests/diag/cccl/$n.ptx differs from the installed headers' forms; regenerate it:" \
         "python3 tests/diag/cccl/gen_cccl_forms.py"
    if "$PTXI" check "$g" 2> "$T/$n.err"; then echo "PASS cccl/$n: installed forms check"
    else echo "FAIL cccl/$n: installed forms: $(head -1 "$T/$n.err")"; continue; fi
    "$PTXI" print "$g" > "$T/$n.p.ptx"
    "$PTXI" print --canonical "$g" > "$T/$n.c1"
    "$PTXI" print --canonical "$T/$n.p.ptx" > "$T/$n.c2"
    if [ -s "$T/$n.c1" ] && cmp -s "$T/$n.c1" "$T/$n.c2"; then echo "PASS cccl/$n: installed forms round trip"
    else echo "FAIL cccl/$n: installed forms: print -> parse differs"; fi
done
