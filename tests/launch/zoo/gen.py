#!/usr/bin/env python3
"""gen.py — writes zoo.jsonl, zoo2.jsonl, zoo3.jsonl and zoo_warp.jsonl, one ptxi-launch/1 case
per entry of zoo.ptx / zoo2.ptx / zoo3.ptx / zoo_warp.ptx (every kernel and its _ok twin), all
with the same buffers and tensor maps.  Run it after rebuilding zoo.ptx."""
import json, re

def tmap(name, buf):
    return {"name": name, "encode": "tiled", "data_type": "FLOAT32", "rank": 2,
            "global_address": {"buffer": buf, "offset": 0}, "global_dim": [64, 64],
            "global_strides": [256], "box_dim": [16, 8], "element_strides": [1, 1],
            "interleave": "NONE", "swizzle": "NONE", "l2_promotion": "NONE", "oob_fill": "NONE"}

for z in ("zoo", "zoo3", "zoo_warp"):
    ptx = open(z + ".ptx").read()
    names = re.findall(r"^\.visible \.entry (\w+)\(", ptx, re.M)
    with open(z + ".jsonl", "w") as f:
        for n in names:
            cl = n.startswith(("mc_", "dsmem_", "cl_"))
            case = {"format": "ptxi-launch/1", "name": n, "ptx": z + ".ptx", "kernel": n,
                    "grid": [2 if cl else 1, 1, 1], "block": [96, 1, 1], "cluster": [2 if cl else 1, 1, 1],
                    "buffers": [{"name": "src", "bytes": 16384, "init": {"hash32": 7}},
                                {"name": "out", "bytes": 16384},
                                {"name": "dst", "bytes": 16384}],
                    "tensor_maps": [tmap("tm", "src"), tmap("tmo", "out")],
                    "params": [{"tensor_map": "tm"}, {"tensor_map": "tmo"}, {"pointer": "dst"},
                               {"pointer": "out"}]}
            f.write(json.dumps(case, separators=(",", ":")) + "\n")

# zoo2: the wgmma pipelines (160 threads: a consumer warpgroup and a producer warp)
ptx = open("zoo2.ptx").read()
names = re.findall(r"^\.visible \.entry (\w+)\(", ptx, re.M)
with open("zoo2.jsonl", "w") as f:
    for n in names:
        case = {"format": "ptxi-launch/1", "name": n, "ptx": "zoo2.ptx", "kernel": n,
                "grid": [1, 1, 1], "block": [160, 1, 1], "cluster": [1, 1, 1],
                "buffers": [{"name": "src", "bytes": 16384, "init": {"hash32": 7}},
                            {"name": "dst", "bytes": 16384}],
                "tensor_maps": [tmap("tm", "src")],
                "params": [{"tensor_map": "tm"}, {"pointer": "dst"}]}
        f.write(json.dumps(case, separators=(",", ":")) + "\n")

# zoo6: the grid-wide write check (4 CTAs in clusters of 1, 128 threads; flags: zeroed semaphores)
ptx = open("zoo6.ptx").read()
names = re.findall(r"^\.visible \.entry (\w+)\(", ptx, re.M)
with open("zoo6.jsonl", "w") as f:
    for n in names:
        case = {"format": "ptxi-launch/1", "name": n, "ptx": "zoo6.ptx", "kernel": n,
                "grid": [4, 1, 1], "block": [128, 1, 1], "cluster": [1, 1, 1],
                "buffers": [{"name": "src", "bytes": 16384, "init": {"hash32": 7}},
                            {"name": "out", "bytes": 16384},
                            {"name": "flags", "bytes": 256}],
                "tensor_maps": [tmap("tm", "src"), tmap("tmo", "out")],
                "params": [{"tensor_map": "tm"}, {"tensor_map": "tmo"}, {"pointer": "src"},
                           {"pointer": "out"}, {"pointer": "flags"}]}
        f.write(json.dumps(case, separators=(",", ":")) + "\n")
