#!/bin/sh
# tmap_svg.sh — `ptxi tmap --svg` and `info tmaps --svg`: pictures of a
# tensor map's box and where each 16-byte chunk lands in shared memory,
# placed by the TMA engine.  svg_check.py parses the SVG (chunks, titles,
# the XOR pattern of each swizzle) and, when rsvg-convert is installed,
# renders it and checks the pixels at every chunk's centre.
PTXI=${PTXI:-build/ptxi}
if ! command -v python3 > /dev/null 2>&1; then
    echo "SKIP tmap_svg: python3 is not installed (apt-get install python3); the files are not validated"
    exit 0
fi
T=${TMPDIR:-/tmp}/ptxi-svg.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS tmap_svg/$1"; }
bad() { echo "FAIL tmap_svg/$1: $2"; }
have_rsvg=1
command -v rsvg-convert > /dev/null 2>&1 || {
    have_rsvg=0
    echo "SKIP tmap_svg/render: rsvg-convert is not installed (apt-get install librsvg2-bin); the SVG is checked as text only"
}

# map SWIZZLE BOX_X BOX_Y: a 64x64 f16 tensor; the box's rows fill the swizzle span
map() {
    printf '{"name":"sw%s","encode":"tiled","data_type":"FLOAT16","rank":2,"global_address":{"buffer":"t","offset":0},' "$1"
    printf '"global_dim":[64,64],"global_strides":[128],"box_dim":[%s,%s],"element_strides":[1,1],"interleave":"NONE",' "$2" "$3"
    printf '"swizzle":"%s","l2_promotion":"NONE","oob_fill":"NONE"}' "$1"
}
for spec in "NONE 64 8" "32B 16 16" "64B 32 16" "128B 64 8"; do
    set -- $spec
    s=$1
    out=$("$PTXI" tmap --svg "$T/$s.svg" --json "$(map $s $2 $3)" 2>&1)
    case "$out" in *"wrote $T/$s.svg"*) ok "write_$s" ;; *) bad "write_$s" "$out"; continue ;; esac
    want=$s; [ "$s" = NONE ] && want=none
    if [ $have_rsvg = 1 ]; then
        rsvg-convert "$T/$s.svg" -o "$T/$s.png" || bad "render_$s" "rsvg-convert failed"
        python3 tests/scripts/svg_check.py "$T/$s.svg" "$want" "$T/$s.png"
    else
        python3 tests/scripts/svg_check.py "$T/$s.svg" "$want"
    fi
done

# the launch file's maps, from the debugger
"$PTXI" debug samples/tma_tile2d.json --batch -ex "info tmaps --svg $T/dbg.svg" > "$T/dbg.out" 2>&1
grep -q "picture of the box and its shared-memory layout: $T/dbg.svg" "$T/dbg.out" && ok debug_info_tmaps \
    || bad debug_info_tmaps "$(tr '\n' '|' < "$T/dbg.out")"
python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); \
n = sum(1 for g in r.iter('{http://www.w3.org/2000/svg}g') if g.get('id') == 'smem'); sys.exit(n != 1)" "$T/dbg.svg" \
    && ok debug_svg_parses || bad debug_svg_parses "no smem group in $T/dbg.svg"

# an im2col map is refused with a clear message
im='{"name":"im","encode":"im2col","data_type":"FLOAT16","rank":4,"global_address":{"buffer":"t","offset":0},"global_dim":[64,8,8,1],"global_strides":[128,1024,8192],"pixel_box_lower_corner":[0,0],"pixel_box_upper_corner":[0,0],"channels_per_pixel":64,"pixels_per_column":8,"element_strides":[1,1,1,1],"interleave":"NONE","swizzle":"128B","l2_promotion":"NONE","oob_fill":"NONE"}'
out=$("$PTXI" tmap --svg "$T/im.svg" --json "$im" 2>&1); rc=$?
case "$out" in *"not supported: --svg of an im2col tensor map"*) [ $rc -ne 0 ] && ok im2col_refused || bad im2col_refused "status 0" ;;
               *) bad im2col_refused "$out" ;; esac
