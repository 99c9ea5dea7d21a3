#!/bin/sh
# tests/scripts/frontend_mnemonics.sh — every entry of the shared corpus's
# MNEMONICS.txt (each distinct mnemonic, opcode with all its modifiers, of
# the corpus and conformance PTX) must come out of `ptxi print` of those
# files exactly as written: parsed, decoded into opcode, modifiers and
# types, and printed back in the written order.  The list also holds names
# from calls that nvcc splits over lines (`vprintf,`, `param0,`): those
# must be operands of a printed call instead.
PTXI=${PTXI:-build/ptxi}
B=${B:-build}
T=$B/fe-mnemonics
mkdir -p "$T"
C=../shared/corpus
[ -d "$C" ] || C=/work/shared/corpus
CF=../shared/conformance/ptx
[ -d "$CF" ] || CF=/work/shared/conformance/ptx
if [ ! -f "$C/MNEMONICS.txt" ]; then
    echo "note: no shared corpus ($C/MNEMONICS.txt); nothing to check"
    exit 0
fi
: > "$T/printed.ptx"
for f in "$C"/*.ptx "$CF"/*.ptx; do
    [ -f "$f" ] || continue
    if "$PTXI" print "$f" >> "$T/printed.ptx" 2> "$T/err"; then :
    else echo "FAIL mnemonics: $(basename "$f") does not parse: $(head -1 "$T/err")"; fi
done
# instruction lines are indented; an optional guard precedes the mnemonic
sed -n 's/^\t\{1,\}\(@!\{0,1\}%[^ ]* \)\{0,1\}\([a-z][^ ;]*\).*/\2/p' "$T/printed.ptx" | sort -u > "$T/mnemonics"
grep -E '^	+(@!?%[^ ]+ )?call[. ]' "$T/printed.ptx" | sed 's/^[^ ]* //' |
    tr -c 'A-Za-z0-9_$\n' '\n' | sort -u > "$T/callnames"
awk -v M="$T/mnemonics" -v N="$T/callnames" '
    BEGIN { while ((getline w < M) > 0) mn[w] = 1; while ((getline w < N) > 0) cn[w] = 1 }
    NF >= 2 { w = $2
        if (w in mn) print "PASS mnemonic/" w
        else if (w in cn) print "PASS mnemonic/" w ": a name in a call split over lines, printed as a call operand"
        else print "FAIL mnemonic/" w ": not among the printed instructions" }' "$C/MNEMONICS.txt"
