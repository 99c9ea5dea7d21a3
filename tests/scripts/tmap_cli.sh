#!/bin/sh
# tmap_cli.sh — `ptxi tmap`: encode from launch-file JSON, decode from bytes.
# One PASS/FAIL line per check (tests/run.sh protocol).
PTXI=${PTXI:-build/ptxi}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
check() {  # name, command status (0 = pass), detail
    if [ "$2" -eq 0 ]; then echo "PASS tmap/$1"; else echo "FAIL tmap/$1: $3"; fi
}
TM='{"name":"tm","encode":"tiled","data_type":"FLOAT16","rank":2,"global_address":{"buffer":"src","offset":0},"global_dim":[64,32],"global_strides":[128],"box_dim":[64,8],"element_strides":[1,1],"swizzle":"128B","l2_promotion":"L2_128B"}'

"$PTXI" tmap --bytes --json "$TM" > "$T/enc.txt" 2>&1
check encode-status $? "$(cat "$T/enc.txt")"
grep -q 'tm: CUDA_SUCCESS' "$T/enc.txt" && grep -q 'box dim          {64, 8}' "$T/enc.txt"
check encode-print $? "$(head -5 "$T/enc.txt")"

# the printed bytes decode back to the same fields
grep -E '^[0-9a-f]{8} ' "$T/enc.txt" > "$T/hex.txt"
"$PTXI" tmap --hex "$(cat "$T/hex.txt")" > "$T/dec.txt" 2>&1
rc=$?
sed -n '2,$p' "$T/enc.txt" | grep -v -E '^[0-9a-f]{8} ' > "$T/enc_fields.txt"
cmp -s "$T/enc_fields.txt" "$T/dec.txt"
check hex-roundtrip $((rc | $?)) "$(diff "$T/enc_fields.txt" "$T/dec.txt" | head -5)"

BAD='{"name":"tm","encode":"tiled","data_type":"FLOAT16","rank":2,"global_address":{"buffer":"src","offset":0},"global_dim":[100,32],"global_strides":[208],"box_dim":[72,8],"element_strides":[1,1],"swizzle":"128B"}'
out=$("$PTXI" tmap --json "$BAD" 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'CUDA_ERROR_INVALID_VALUE: boxDim\[0\] \* elementSize (144 bytes) exceeds the 128B swizzle span'
check encode-failure-reason $? "rc=$rc: $out"

out=$("$PTXI" tmap --json '{"name":"tm","encode":"tiled","data_type":"FLOAT17","rank":1}' 2>&1)
[ $? -eq 1 ] && printf '%s' "$out" | grep -q 'unknown value "FLOAT17"'
check bad-enum-name $? "$out"

head -c 128 /dev/zero > "$T/zero.bin"
out=$("$PTXI" tmap "$T/zero.bin" 2>&1)
[ $? -eq 1 ] && printf '%s' "$out" | grep -q 'not a tensor map'
check decode-rejects-zeros $? "$out"

# every encode_validation case gets the status the H100 driver returned
for d in tests/conformance ../shared/conformance; do
    [ -f "$d/encode_validation/cases.jsonl" ] && { CV=$d; break; }
done
if [ -n "$CV" ]; then
    "$PTXI" tmap "$CV/encode_validation/cases.jsonl" > "$T/ev.txt" 2>&1
    check encode-validation-suite $? "$(grep '(expected' "$T/ev.txt" | awk '{ w = $5; sub(/\).*/, "", w); if ($3 != w) print }' | head -3)"
else
    echo "FAIL tmap/encode-validation-suite: no conformance corpus"
fi

# maps as the H100's driver (580.159.04) encoded them: every byte but the
# global address (bytes 0..7) equal.  tests/hw/wide_encode: im2col_wide at
# ranks 3..5; tests/hw/encode_fuzz: the random encodes the driver accepted;
# tests/hw/im2col_box: the im2col bounding boxes the driver accepted.
for W in tests/hw/wide_encode tests/hw/encode_fuzz tests/hw/im2col_box; do
    "$PTXI" tmap --bytes "$W/cases.jsonl" > "$T/drv.txt" 2>/dev/null
    awk '/^[A-Za-z0-9_]+ tm: CUDA_/ { name = $1; next }
         NF == 8 && length($0) == 71 && /^[0-9a-f ]+$/ { gsub(/ /, ""); hex[name] = hex[name] $0 }
         END { for (n in hex) print n, hex[n] }' "$T/drv.txt" | sort > "$T/drv_ptxi.txt"
    bad=0; n=0; first=
    while read -r name want; do
        n=$((n + 1))
        got=$(awk -v n="$name" '$1 == n { print $2 }' "$T/drv_ptxi.txt")
        if [ -z "$got" ] || [ "${got#????????????????}" != "${want#????????????????}" ]; then
            bad=$((bad + 1)); [ -n "$first" ] || first="$name: ptxi ${got:-no map}, driver $want"
        fi
    done < "$W/driver_bytes.txt"
    [ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
    check "driver-bytes/$(basename "$W")" $? "$bad of $n maps differ; first: $first"
done
