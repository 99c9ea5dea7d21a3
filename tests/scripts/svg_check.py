#!/usr/bin/env python3
"""svg_check.py FILE.svg SWIZZLE [PNG] — check a `ptxi tmap --svg` picture
of a 2-D tiled map whose box rows fill the swizzle span: prints PASS/FAIL
lines (tests/run.sh protocol; tests/scripts/tmap_svg.sh).

The SVG is parsed as XML: the "global" and "smem" groups hold one <rect>
per 16-byte chunk, each with a <title>; global chunk (row, col) sits at
byte o = row * rowbytes + col * 16 of the unswizzled box, and must be
drawn in the shared-memory chunk at o XOR (((o >> 7) & m) << 4), m = 0
(none), 1 (32B), 3 (64B), 7 (128B) -- the PTX ISA's swizzle modes, 16-byte
chunks XORed with the 128-byte row index -- in that chunk's colour.  With PNG (the SVG rendered by rsvg-convert),
the pixel at the centre of every chunk must have the chunk's fill colour:
the swizzle is checked in what a renderer draws, not only in the text.
"""
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"


def png_pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, "PNG form %d/%d" % (depth, ctype)
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, at = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


def main():
    path, swz = sys.argv[1], sys.argv[2]
    png = sys.argv[3] if len(sys.argv) > 3 else None
    tag = "svg/%s" % path.rsplit("/", 1)[-1]
    fails = []

    def check(name, ok, why):
        print(("PASS %s/%s" % (tag, name)) if ok else ("FAIL %s/%s: %s" % (tag, name, why)))
        if not ok:
            fails.append(name)

    root = ET.parse(path).getroot()
    check("root", root.tag == NS + "svg", "root is %s" % root.tag)
    groups = {g.get("id"): g for g in root.iter(NS + "g")}
    check("groups", "global" in groups and "smem" in groups, "groups %s" % sorted(groups))
    if fails:
        return 1

    def cells(g, pat):
        out = {}
        for r in g.iter(NS + "rect"):
            t = r.find(NS + "title")
            m = re.search(pat, t.text if t is not None else "")
            if m:
                out[m.groups()] = r
        return out

    glob = cells(groups["global"], r"global chunk row (\d+) col (\d+)")
    smem_all = list(groups["smem"].iter(NS + "rect"))
    titled = all(r.find(NS + "title") is not None for r in smem_all + list(groups["global"].iter(NS + "rect")))
    check("titles", titled, "a chunk without a <title>")
    smem = {}
    for r in smem_all:
        m = re.search(r"smem \+0x([0-9a-f]+): global chunk row (\d+) col (\d+)", r.find(NS + "title").text)
        if m:
            smem[int(m.group(1), 16)] = (m.group(2), m.group(3), r)
    check("chunks", glob and len(smem) == len(glob), "%d global chunks, %d shared chunks with box data" % (len(glob), len(smem)))
    ncol = 1 + max(int(c) for _, c in glob) if glob else 1
    mask = {"none": 0, "32B": 1, "64B": 3, "128B": 7}[swz]
    wrong = []
    for off, (gr, gc, _) in smem.items():
        o = int(gr) * ncol * 16 + int(gc) * 16
        if off != o ^ (((o >> 7) & mask) << 4):
            wrong.append((hex(off), (gr, gc)))
    check("swizzle_" + swz, not wrong, "shared offset <- global chunk (row, col) not as the swizzle puts it: %s" % wrong[:4])
    colour = [k for k in smem if smem[k][2].get("fill") != glob[(smem[k][0], smem[k][1])].get("fill")]
    check("colours_follow_chunks", not colour, "smem chunks coloured unlike their global chunk: %s" % colour[:4])
    if png:
        px = png_pixels(png)
        bad = []
        for r in list(glob.values()) + [v[2] for v in smem.values()]:
            x = int(float(r.get("x")) + float(r.get("width")) / 2)
            y = int(float(r.get("y")) + float(r.get("height")) / 2)
            want = tuple(int(r.get("fill")[i:i + 2], 16) for i in (1, 3, 5))
            if px(x, y) != want:
                bad.append(((x, y), px(x, y), want))
        check("rendered_pixels", not bad, "%d chunk centres differ from their fill, e.g. %s" % (len(bad), bad[:3]))
        # the swizzle as drawn: each shared chunk's centre pixel is its global chunk's
        sw = []
        for off, (gr, gc, rect) in smem.items():
            g = glob[(gr, gc)]
            p1 = px(int(float(rect.get("x")) + 15), int(float(rect.get("y")) + 8))
            p2 = px(int(float(g.get("x")) + 15), int(float(g.get("y")) + 8))
            if p1 != p2:
                sw.append((hex(off), p1, p2))
        check("rendered_swizzle", not sw, "rendered smem chunk colours do not follow the swizzle: %s" % sw[:3])
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
