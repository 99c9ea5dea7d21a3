#!/bin/sh
# tmap_svg.sh — `ptxi tmap --svg` and `info tmaps --svg`: pictures of a
# tensor map's box and where each 16-byte chunk lands in shared memory,
# placed by the TMA engine.  svg_check.py parses the SVG (chunks, titles,
# the XOR pattern of each swizzle) and, when rsvg-convert is installed,
# renders it and checks the pixels at every chunk's centre.  Also `--dump
# ...=FILE.svg|.png`: a buffer as a heat map (cells, values, colours, a
# PNG whose CRCs and zlib stream are checked and whose pixels are read).
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

# im2col maps: the pixels one load gathers, in load order, as the global rows
im='{"name":"im","encode":"im2col","data_type":"FLOAT16","rank":4,"global_address":{"buffer":"t","offset":0},"global_dim":[64,8,8,1],"global_strides":[128,1024,8192],"pixel_box_lower_corner":[0,0],"pixel_box_upper_corner":[0,0],"channels_per_pixel":64,"pixels_per_column":8,"element_strides":[1,1,1,1],"interleave":"NONE","swizzle":"128B","l2_promotion":"NONE","oob_fill":"NONE"}'
out=$("$PTXI" tmap --svg "$T/im.svg" --json "$im" 2>&1)
case "$out" in *"wrote $T/im.svg"*) ok im2col_write ;; *) bad im2col_write "$out" ;; esac
python3 tests/scripts/svg_check.py "$T/im.svg" 128B
grep -q "global chunk row 1 col 0: c 0-7 of pixel w 1 h 0 n 0; lands at smem +0x90" "$T/im.svg" && ok im2col_pixel_titles \
    || bad im2col_pixel_titles "$(grep -o '<title>global chunk row 1 col 0[^<]*' "$T/im.svg")"
# padding (corners -1): the 4x4 image gathers 3 pixels a row, the fourth is filled
pad='{"name":"pad","encode":"im2col","data_type":"FLOAT16","rank":4,"global_address":{"buffer":"t","offset":0},"global_dim":[32,4,4,2],"global_strides":[64,256,1024],"pixel_box_lower_corner":[-1,-1],"pixel_box_upper_corner":[-1,-1],"channels_per_pixel":32,"pixels_per_column":16,"element_strides":[1,1,1,1],"interleave":"NONE","swizzle":"64B","l2_promotion":"NONE","oob_fill":"NONE"}'
"$PTXI" tmap --svg "$T/pad.svg" --json "$pad" > "$T/pad.out" 2>&1
rows=$(grep -o '<title>global chunk row [0-9]* col 0:' "$T/pad.svg" | wc -l)
fill=$(grep -c 'filled: a pixel outside the tensor' "$T/pad.svg")
third=$(grep -o '<title>global chunk row 3 col 0:[^<]*' "$T/pad.svg")
[ "$rows" = 9 ] && [ "$fill" = 28 ] && [ "$third" = "<title>global chunk row 3 col 0: c 0-7 of pixel w 0 h 1 n 0; lands at smem +0x120" ] \
    && ok im2col_padding || bad im2col_padding "rows $rows (want 9), filled chunks $fill (want 28), row 3: $third"
# im2col::w: 32 pixels along W
wide='{"name":"wd","encode":"im2col_wide","data_type":"FLOAT16","rank":3,"global_address":{"buffer":"t","offset":0},"global_dim":[64,32,2],"global_strides":[128,4096],"pixel_box_lower_corner_width":-2,"pixel_box_upper_corner_width":2,"channels_per_pixel":64,"pixels_per_column":32,"element_strides":[1,1,1],"interleave":"NONE","mode":"W","swizzle":"128B","l2_promotion":"NONE","oob_fill":"NONE"}'
"$PTXI" tmap --svg "$T/wd.svg" --json "$wide" > "$T/wd.out" 2>&1
python3 tests/scripts/svg_check.py "$T/wd.svg" 128B
grep -q "global chunk row 31 col 0: c 0-7 of pixel w 31 n 0" "$T/wd.svg" && grep -q "im2col::w 3-D" "$T/wd.svg" \
    && ok im2col_w || bad im2col_w "$(tr '\n' '|' < "$T/wd.out")"

# --dump as a heat map: SVG (a rect and a title per element) and PNG (decoded here, pixels checked)
out=$("$PTXI" run samples/tma_tile2d.json --dump tensor:f32:32x64="$T/heat.svg" --dump tensor:f32:32x64="$T/heat.png" 2>&1)
case "$out" in "PASS tma_tile2d"*) ok heat_dump ;; *) bad heat_dump "$(printf '%s' "$out" | tr '\n' '|')" ;; esac
python3 - "$T/heat.svg" "$T/heat.png" <<'PY'
import re, sys, zlib, struct
sys.path.insert(0, "tests/scripts")
import svg_check
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
def check(name, ok, why):
    print(("PASS tmap_svg/%s" % name) if ok else ("FAIL tmap_svg/%s: %s" % (name, why)))
root = ET.parse(sys.argv[1]).getroot()
cells = [g for g in root.iter(NS + "g") if g.get("id") == "cells"]
rects = list(cells[0].iter(NS + "rect")) if cells else []
check("heat_svg_cells", len(rects) == 32 * 64, "%d cells, want 2048" % len(rects))
vals = {}
for r in rects:
    m = re.match(r"\[(\d+), (\d+)\] = (\S+)", r.find(NS + "title").text)
    vals[(int(m.group(1)), int(m.group(2)))] = (float(m.group(3)), r.get("fill"))
# samples/data/tensor_64x32_f32.bin holds row * 100 + col
check("heat_svg_values", vals.get((5, 7), (None,))[0] == 507.0 and vals.get((31, 63), (None,))[0] == 3163.0,
      "titles: [5, 7] = %s, [31, 63] = %s" % (vals.get((5, 7)), vals.get((31, 63))))
check("heat_svg_ramp", vals[(0, 0)][1] == "#440154" and vals[(31, 63)][1] == "#fde725",
      "min and max coloured %s, %s" % (vals[(0, 0)][1], vals[(31, 63)][1]))
data = open(sys.argv[2], "rb").read()
pos, idat, ok_crc = 8, b"", True
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    crc = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]
    ok_crc &= crc == zlib.crc32(data[pos + 4:pos + 8 + n])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
check("heat_png_crc", ok_crc, "a chunk's CRC is wrong")
try:
    zlib.decompress(idat)
    check("heat_png_zlib", True, "")
except zlib.error as e:
    check("heat_png_zlib", False, str(e))
px = svg_check.png_pixels(sys.argv[2])
check("heat_png_pixels", px(0, 0) == (0x44, 0x01, 0x54) and px(511, 255) == (0xfd, 0xe7, 0x25),
      "corners %s %s" % (px(0, 0), px(511, 255)))
PY
out=$("$PTXI" run samples/tma_tile2d.json --dump tensor:f32:7x7="$T/bad.svg" 2>&1)
case "$out" in *"the shape covers 49 elements; the buffer holds 2048"*) ok heat_bad_shape ;;
               *) bad heat_bad_shape "$(printf '%s' "$out" | tr '\n' '|')" ;; esac
