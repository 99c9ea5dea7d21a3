#!/usr/bin/env python3
"""tests/hw/encode_fuzz: 1500 random cuTensorMapEncode* argument sets biased
to the rules' edges (every data type, ranks, odd strides, boxes up to 257,
element strides to 9, interleave/swizzle mixes, corners, pixel counts).
Cases whose rank is outside 1..5 or whose values do not fit 64 bits are
dropped (the launch-file reader refuses them first), leaving 1440.
Statuses and bytes from the H100's driver through ../shared/oracle
(plan.py, run.sh with any module, collect.py; the 'tmapbytes' lines of
results.txt give driver_bytes.txt)."""
import json, random
r = random.Random(2026)
DT = ["UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "FLOAT32", "FLOAT64", "BFLOAT16", "FLOAT32_FTZ",
      "TFLOAT32", "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B"]
ESZ = [1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 1, 1, 1]
SW = ["NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"]
def pick(*opts): return r.choice(opts)
cases = []
for i in range(1500):
    enc = pick("tiled", "tiled", "im2col", "im2col_wide")
    di = r.randrange(16) if r.random() < 0.3 else r.choice([0, 1, 2, 3, 6, 7, 9, 10])
    rank = r.randint(3, 5) if enc != "tiled" else r.randint(1, 5)
    if r.random() < 0.03: rank = r.choice([0, 6])
    il = pick("NONE", "NONE", "NONE", "16B", "32B")
    sw = r.choice(SW) if r.random() < 0.7 else "NONE"
    es = ESZ[di]
    dims = [r.choice([1, 2, 3, 7, 16, 33, 64, 100, 256, 1000, 65536, 1 << 20, 1 << 31, (1 << 32), (1 << 32) + 1]) if r.random() < 0.3
            else r.randint(1, 300) for _ in range(max(rank, 1))]
    strides = []
    acc = dims[0] * es
    for k in range(1, max(rank, 1)):
        c = r.random()
        if c < 0.6: s = (acc + 15) // 16 * 16
        elif c < 0.75: s = r.choice([16, 32, 48, 64, 128, 4096, 1 << 20, (1 << 40) - 16, 1 << 40, 1 << 41]) 
        elif c < 0.85: s = acc + r.choice([1, 4, 8])
        else: s = (acc + 15) // 16 * 16 * r.randint(1, 4)
        strides.append(s); acc = s * dims[k]
    tm = {"name": "tm", "encode": enc, "data_type": DT[di], "rank": rank,
          "global_address": {"buffer": "tensor", "offset": r.choice([0, 0, 0, 16, 32, 8, 64, 128])},
          "global_dim": dims[:rank] if rank else [], "global_strides": strides[:max(rank - 1, 0)],
          "element_strides": [r.choice([1, 1, 1, 2, 3, 4, 8, 9]) for _ in range(rank)],
          "interleave": il, "swizzle": sw, "l2_promotion": pick("NONE", "L2_64B", "L2_128B", "L2_256B"),
          "oob_fill": pick("NONE", "NONE", "NAN_REQUEST_ZERO_FMA")}
    if enc == "tiled":
        tm["box_dim"] = [r.choice([1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 255, 256, 257]) for _ in range(rank)]
    elif enc == "im2col":
        tm["pixel_box_lower_corner"] = [r.randint(-40, 5) if r.random() < 0.8 else r.randint(-40000, 40000) for _ in range(rank - 2)]
        tm["pixel_box_upper_corner"] = [r.randint(-5, 40) if r.random() < 0.8 else r.randint(-40000, 40000) for _ in range(rank - 2)]
        tm["channels_per_pixel"] = r.choice([1, 2, 4, 8, 16, 32, 64, 128, 255, 256, 257])
        tm["pixels_per_column"] = r.choice([1, 2, 16, 64, 100, 256, 1024, 1025])
    else:
        tm["pixel_box_lower_corner_width"] = r.choice([-1, -3, -16, -17, -128, -129, -300, 0, 5])
        tm["pixel_box_upper_corner_width"] = r.choice([0, 1, 3, 15, 16, 127, 128, -5])
        tm["channels_per_pixel"] = r.choice([1, 2, 4, 8, 16, 32, 64, 128, 255, 256, 257])
        tm["pixels_per_column"] = r.choice([1, 2, 16, 64, 100, 256, 1024, 1025])
        tm["mode"] = pick("W", "W128")
    cases.append({"format": "ptxi-launch/1", "name": "ef_%04d" % i, "buffers": [{"name": "tensor", "bytes": 4096, "init": {"fill": 0}}],
                  "tensor_maps": [tm], "expect": {"encode": [{"tensor_map": "tm", "status": "CUDA_SUCCESS"}]}})
cases = [c for c in cases if 1 <= c["tensor_maps"][0]["rank"] <= 5
         and all(v < 2 ** 63 for v in c["tensor_maps"][0]["global_dim"] + c["tensor_maps"][0]["global_strides"])]
open("encfuzz/cases.jsonl", "w").write("".join(json.dumps(c) + "\n" for c in cases))
