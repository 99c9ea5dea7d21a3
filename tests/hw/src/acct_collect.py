#!/usr/bin/env python3
"""Turn the H100 output of the acct sweeps into two suites.

  acct_collect.py tile|i2t|im2col GEN_DIR RESULT_DIR

GEN_DIR holds cases_tile.json and cases_im2col.json (written by
acct_gen.py); RESULT_DIR the job's tile1.txt, tile2.txt and im2col.txt
(sweep.cpp).  Writes
  tests/hw/tx_interleave/cases.jsonl   one tile load per case whose map the
      driver encoded: expect_tx = the byte count the H100 credited (sweep.cpp
      T mode: exact at that count and never complete at 16 more, the same in
      both runs), status 1 (the phase completed, and the next one with a
      plain arrive: no byte more came) and the SHA-256 of the shared memory
      the kernel copied out;
  tests/hw/tx_im2col/cases.jsonl   (i2t) the same for im2col loads
      (kernel tx_probe_im2col, cases_i2t.json, i2t1.txt and i2t2.txt);
  tests/hw/im2col_box/cases.jsonl + driver_bytes.txt   every im2col encode
      with the driver's status, and the 128 bytes of those it accepted.
Prints a summary of what the H100 credited against the tiled formulas."""
import hashlib, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from acct_gen import tile_launch, im2col_launch, i2t_launch  # noqa: E402

def parse_tiles(path):
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) < 3 or f[0] != "T":
            continue
        c = out.setdefault(f[1], {})
        k = f[2]
        if k == "enc":
            c["enc"] = f[3]
            c["map"] = f[4]
        elif k == "exact":
            c["exact"] = (int(f[3]), f[4], f[5], f[6])
        elif k == "credit":
            c["credit"] = int(f[3])
        elif k == "tries":
            c["tries"] = [t.split(":") for t in f[3:]]
        elif k == "data":
            c["data"] = bytes.fromhex(f[3]) if len(f) > 3 else b""
        elif k == "mid":
            c.setdefault("mid", []).append((int(f[3]), f[4], f[5] if len(f) > 5 else ""))
    return out

def tiles(gen, res, kind="tile"):
    i2t = kind == "i2t"
    cases = json.load(open(os.path.join(gen, "cases_i2t.json" if i2t else "cases_tile.json")))
    f1, f2 = ("i2t1.txt", "i2t2.txt") if i2t else ("tile1.txt", "tile2.txt")
    r1 = parse_tiles(os.path.join(res, f1))
    r2 = parse_tiles(os.path.join(res, f2)) if os.path.exists(os.path.join(res, f2)) else {}
    root = os.path.join(HERE, "..")
    lines, stats = [], {"cases": len(cases), "encoded": 0, "kept": 0, "rejected": 0, "unstable": 0,
                        "missing": 0, "ptxi_model_differs": 0}
    diffs = []
    for c in cases:
        a = r1.get(c["name"])
        if not a or "enc" not in a:
            stats["missing"] += 1
            continue
        if a["enc"] != "CUDA_SUCCESS":
            stats["rejected"] += 1
            continue
        stats["encoded"] += 1
        b = r2.get(c["name"], {})
        C = a.get("credit", -1)
        tries = dict((int(t[0]), t[1]) for t in a.get("tries", []))
        ok = C >= 0 and tries.get(C + 16) == "2" and a.get("exact", (0, "", "", ""))[3] == "same=1"
        if C == c["e_ptxi"]:
            ok = ok and a["exact"][1:3] == ("1", "1")
        if b:
            ok = ok and b.get("credit") == C and (C != c["e_ptxi"] or b.get("data") == a.get("data"))
        if not ok:
            stats["unstable"] += 1
            print("not kept:", c["name"], {k: a.get(k) for k in ("exact", "credit", "tries")})
            continue
        if C != c["e_ptxi"]:
            stats["ptxi_model_differs"] += 1
            diffs.append((c, C))
        sha = hashlib.sha256(a["data"]).hexdigest()
        d = i2t_launch(c, C, "txprobe_im2col.ptx") if i2t else tile_launch(c, C, "txprobe.ptx")
        d["expect"] = {"encode": [{"tensor_map": "tm", "status": "CUDA_SUCCESS"}],
                       "buffers": [{"name": "status", "file": "status1.bin"},
                                   {"name": "dst", "sha256": sha}]}
        if i2t:
            d["expect"]["buffers"][0]["file"] = "../tx_interleave/status1.bin"
        lines.append(json.dumps(d))
        stats["kept"] += 1
    if i2t:
        od = os.path.join(root, "tx_im2col")
        os.makedirs(od, exist_ok=True)
        open(os.path.join(od, "cases.jsonl"), "w").write("".join(l + "\n" for l in lines))
        print("im2col loads:", stats)
        for c, C in diffs[:40]:
            print("  %s il=%d sw=%d rank=%d dt=%d cpp=%d ppc=%d es=%s hw=%d ptxi=%d alt=%d" % (
                c["name"], c["il"], c["sw"], c["rank"], c["dt"], c["cpp"], c["ppc"], c["es"], C, c["e_ptxi"],
                c["e_alt"]))
        return
    # txil_/txpl_ cases go to tx_interleave, the large boxes (txbig_) to tx_big
    for sub, pick in (("tx_interleave", lambda n: not n.startswith("txbig_")),
                      ("tx_big", lambda n: n.startswith("txbig_"))):
        mine = [l for l in lines if pick(json.loads(l)["name"])]
        if not mine:
            continue
        od = os.path.join(root, sub)
        os.makedirs(od, exist_ok=True)
        open(os.path.join(od, "cases.jsonl"), "w").write("".join(
            (l.replace('"ptx": "txprobe.ptx"', '"ptx": "../tx_interleave/txprobe.ptx"').replace(
                '"file": "status1.bin"', '"file": "../tx_interleave/status1.bin"') if sub == "tx_big" else l) + "\n"
            for l in mine))
    open(os.path.join(root, "tx_interleave", "status1.bin"), "wb").write(b"\x01\x00\x00\x00")
    print("tile:", stats)
    for c, C in diffs[:40]:
        print("  %s il=%d sw=%d rank=%d dt=%d box=%s es=%s hw=%d ptxi=%d alt=%d" % (
            c["name"], c["il"], c["sw"], c["rank"], c["dt"], c["box"], c["es"], C, c["e_ptxi"], c["e_alt"]))

def im2col(gen, res):
    root = os.path.join(HERE, "..")
    ic = json.load(open(os.path.join(gen, "cases_im2col.json")))
    got = {}
    for line in open(os.path.join(res, "im2col.txt")):
        f = line.split()
        if len(f) == 4 and f[0] == "E":
            got[f[1]] = (f[2], f[3])
    lines, drv = [], []
    for c in ic:
        if c["name"] not in got:
            continue
        st, hx = got[c["name"]]
        d = im2col_launch(c)
        d["expect"] = {"encode": [{"tensor_map": "tm", "status": st}]}
        lines.append(json.dumps(d))
        if st == "CUDA_SUCCESS":
            drv.append("%s %s" % (c["name"], hx))
    od = os.path.join(root, "im2col_box")
    os.makedirs(od, exist_ok=True)
    open(os.path.join(od, "cases.jsonl"), "w").write("".join(l + "\n" for l in lines))
    open(os.path.join(od, "driver_bytes.txt"), "w").write("".join(l + "\n" for l in drv))
    print("im2col: %d cases, %d accepted" % (len(lines), len(drv)))

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("tile", "i2t", "im2col"):
        sys.exit("usage: acct_collect.py tile|i2t|im2col GEN_DIR RESULT_DIR")
    if sys.argv[1] == "im2col":
        im2col(sys.argv[2], sys.argv[3])
    else:
        tiles(sys.argv[2], sys.argv[3], sys.argv[1])
