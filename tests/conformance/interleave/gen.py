#!/usr/bin/env python3
"""gen.py — writes cases.jsonl of the `interleave` suite: tile loads through
interleaved tensor maps (16B / 32B slices), ranks 3-5, with swizzles, traversal
strides, partly/wholly out-of-bounds boxes, and shared-memory windows on both
sides of the footprint.  Expected bytes come from an H100 (../../../shared/
oracle: plan.py, run.sh, collect.py); see README.md for what they showed.

Each case's nbytes (the kernel's expect_tx) is the byte count the H100 moves
under the model in README.md, so a case whose phase completes (status 1)
also confirms the transaction count.  Tensor buffers are padded so that no
read runs past the allocation (the GPU would read whatever follows)."""
import copy, json, math, os

BASE = {"format": "ptxi-launch/1", "ptx": "../ptx/tma_sm90.ptx", "kernel": "load_tile",
        "grid": [1, 1, 1], "block": [128, 1, 1], "cluster": [1, 1, 1]}
EL = {"UINT8": 1, "UINT16": 2, "FLOAT16": 2, "FLOAT32": 4, "TFLOAT32": 4}
SLICE = {"16B": 16, "32B": 32}

def model_bytes(box, es, il):
    """Bytes the H100 writes: box_dim[0] slices (stepped by es[0]) per row,
    rows over dims 1..rank-1 except dim rank-2 (pinned)."""
    rank = len(box)
    rows = 1
    for d in range(1, rank):
        if d != rank - 2:
            rows *= math.ceil(box[d] / es[d])
    return math.ceil(box[0] / es[0]) * SLICE[il] * rows

def case(name, dt, gd, strides, box, coords, es=None, il="32B", sw="32B", fill=None, oob="NONE", seed=None, pad=None):
    rank = len(gd)
    es = es or [1] * rank
    nb = model_bytes(box, es, il)
    if fill is None:
        fill = max(nb, 128)
    if pad is None:
        pad = box[0] * SLICE[il] * max(es[0], 1) + sum(abs(c) * s for c, s in zip(coords[1:], strides)) + 4096
    c = copy.deepcopy(BASE)
    c["name"] = name
    c["dynamic_shared_bytes"] = fill + 1024
    c["buffers"] = [
        {"name": "tensor", "bytes": strides[-1] * gd[-1] + pad, "init": {"hash32": seed or (len(name) * 7919 + rank)}},
        {"name": "dst", "bytes": fill, "init": {"fill": 0}},
        {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    c["tensor_maps"] = [{"name": "tm", "encode": "tiled", "data_type": dt, "rank": rank,
                         "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": gd,
                         "global_strides": strides, "box_dim": box, "element_strides": es,
                         "interleave": il, "swizzle": sw, "l2_promotion": "NONE", "oob_fill": oob}]
    co = list(coords) + [0] * (5 - rank)
    c["params"] = ([{"tensor_map": "tm"}, {"s32": rank}] + [{"s32": x} for x in co] +
                   [{"u32": nb}, {"u32": 0}, {"u32": fill}, {"pointer": "dst"}, {"pointer": "status"}])
    c["expect"] = {"buffers": [{"name": "dst"}, {"name": "status"}]}
    return c

def im2col_case(name, dt, gd, strides, cpp, px, coords, es, il, sw, fill, lo, up, seed):
    """An im2col load (kernel load_im2col) through an interleaved map.  nbytes
    is what the H100 moves: pixels_per_column slices (README, point 6)."""
    rank = len(gd)
    nb = px * SLICE[il]
    c = copy.deepcopy(BASE)
    c["kernel"] = "load_im2col"
    c["name"] = name
    c["dynamic_shared_bytes"] = fill + 1024
    c["buffers"] = [
        {"name": "tensor", "bytes": strides[-1] * gd[-1] + 16384, "init": {"hash32": seed}},
        {"name": "dst", "bytes": fill, "init": {"fill": 0}},
        {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    c["tensor_maps"] = [{"name": "tm", "encode": "im2col", "data_type": dt, "rank": rank,
                         "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": gd,
                         "global_strides": strides, "pixel_box_lower_corner": lo, "pixel_box_upper_corner": up,
                         "channels_per_pixel": cpp, "pixels_per_column": px, "element_strides": es,
                         "interleave": il, "swizzle": sw, "l2_promotion": "NONE", "oob_fill": "NONE"}]
    co = list(coords) + [0] * (5 - rank)
    c["params"] = ([{"tensor_map": "tm"}, {"s32": rank}] + [{"s32": x} for x in co] +
                   [{"u16": 0}, {"u16": 0}, {"u16": 0}, {"u32": nb}, {"u32": 0}, {"u32": fill},
                    {"pointer": "dst"}, {"pointer": "status"}])
    c["expect"] = {"buffers": [{"name": "dst"}, {"name": "status"}]}
    return c

C = []
# rank 3: dim 1 pinned; dim 0 in slices
C.append(case("il_r3_u8_32b", "UINT8", [32, 6, 5], [32, 192], [32, 4, 3], [0, 1, 1]))
C.append(case("il_r3_u8_box1", "UINT8", [32, 6, 5], [32, 192], [32, 1, 1], [0, 0, 0]))
C.append(case("il_r3_u8_box8", "UINT8", [32, 8, 5], [32, 256], [32, 8, 1], [0, 0, 0]))
C.append(case("il_r3_f32_32b", "FLOAT32", [8, 6, 5], [32, 192], [8, 4, 3], [0, 1, 1]))
C.append(case("il_r3_f16_32b", "FLOAT16", [16, 6, 5], [32, 192], [16, 2, 2], [0, 1, 1]))
C.append(case("il_r3_u8_16b_stride32", "UINT8", [16, 6, 5], [32, 192], [16, 4, 3], [0, 1, 1], il="16B"))
C.append(case("il_r3_u8_16b_sw128", "UINT8", [16, 6, 5], [16, 96], [16, 2, 2], [0, 1, 1], il="16B", sw="128B"))
C.append(case("il_r3_u8_16b_sw64", "UINT8", [16, 6, 5], [16, 96], [16, 2, 2], [0, 1, 1], il="16B", sw="64B"))
C.append(case("il_r3_u8_16b_nosw", "UINT8", [16, 6, 5], [16, 96], [16, 2, 2], [0, 1, 1], il="16B", sw="NONE"))
C.append(case("il_r3_es0_2", "UINT8", [32, 6, 5], [32, 192], [32, 1, 2], [0, 0, 0], es=[2, 1, 1]))
C.append(case("il_r3_es2_3", "UINT8", [32, 6, 9], [32, 192], [32, 1, 7], [2, 1, 1], es=[1, 1, 3]))
# out of bounds: dim 0 partly / wholly, the pinned dim, an outer dim
C.append(case("il_r3_c0_16", "UINT8", [32, 6, 5], [32, 192], [32, 4, 3], [16, 1, 1]))
C.append(case("il_r3_c0_32", "UINT8", [32, 6, 5], [32, 192], [32, 4, 3], [32, 1, 1]))
C.append(case("il_r3_c0_m8", "UINT8", [32, 6, 5], [32, 192], [16, 4, 3], [-8, 1, 1]))
C.append(case("il_r3_pinned_oob", "UINT8", [32, 6, 5], [32, 192], [32, 4, 3], [0, 100, 1]))
C.append(case("il_r3_pinned_m1", "UINT8", [32, 6, 5], [32, 192], [32, 4, 1], [0, -1, 0]))
C.append(case("il_r3_c2_m1", "UINT8", [32, 6, 5], [32, 192], [32, 1, 3], [0, 0, -1]))
C.append(case("il_r3_f32_nan", "FLOAT32", [8, 6, 5], [32, 192], [8, 4, 3], [4, 1, 3], oob="NAN_REQUEST_ZERO_FMA"))
C.append(case("il_r3_tf32", "TFLOAT32", [8, 6, 5], [32, 192], [8, 2, 2], [0, 1, 1]))
# rank 4 and 5: dim rank-2 pinned
C.append(case("il_r4_u8_32b", "UINT8", [32, 3, 3, 3], [32, 96, 288], [32, 2, 2, 2], [0, 1, 1, 1]))
C.append(case("il_r4_u8_16b", "UINT8", [16, 3, 3, 3], [16, 48, 144], [16, 2, 2, 2], [0, 1, 1, 1], il="16B"))
C.append(case("il_r4_f16_0266", "FLOAT16", [16, 6, 5, 3], [32, 192, 960], [16, 4, 3, 2], [0, 1, 1, 1], fill=8192))
C.append(case("il_r4_tf32_oob", "TFLOAT32", [8, 4, 6, 5], [32, 128, 768], [8, 6, 8, 7], [4, -3, 0, 0], fill=16384))
C.append(case("il_r5_u8_32b", "UINT8", [32, 3, 3, 3, 3], [32, 96, 288, 864], [32, 2, 2, 2, 2], [0, 1, 1, 1, 1]))
C.append(case("il_r5_f32_16b", "FLOAT32", [4, 3, 3, 3, 3], [16, 48, 144, 432], [4, 2, 2, 2, 2], [0, 1, 1, 1, 1], il="16B", sw="NONE"))
# shared-memory window: footprint just inside / past the CTA's window
C.append(case("il_win_fits", "UINT8", [32, 6, 5], [32, 192], [32, 4, 3], [0, 1, 1], fill=3072))
C.append(case("il_win_over", "UINT8", [32, 6, 5], [32, 192], [32, 4, 3], [0, 1, 1], fill=1600))
C.append(case("il_win_over_f16", "FLOAT16", [16, 6, 5, 3], [32, 192, 960], [16, 4, 3, 2], [0, 1, 1, 1], fill=3136))
# dim-0 traversal stride (second batch): ceil(box_dim[0] / es0) slices per
# row, not floor (a floor nbytes leaves the phase open or closes it early),
# nothing written past the packed rows (dumps wider than nbytes), tf32
# rounding and NaN fill as without the stride
P = 16384  # tensor padding of this batch
C.append(case("il_es0_3_u8", "UINT8", [32, 6, 5], [32, 192], [16, 1, 2], [0, 0, 0], es=[3, 1, 1], fill=2048, seed=4242, pad=P))
C.append(case("il_es0_3_c1", "UINT8", [32, 6, 5], [32, 192], [16, 1, 2], [1, 0, 0], es=[3, 1, 1], fill=2048, seed=4243, pad=P))
C.append(case("il_es0_2_cm3", "UINT8", [32, 6, 5], [32, 192], [16, 1, 2], [-3, 0, 0], es=[2, 1, 1], fill=2048, seed=4244, pad=P))
C.append(case("il_es0_2_tf32", "TFLOAT32", [8, 6, 5], [32, 192], [8, 2, 2], [0, 1, 1], es=[2, 1, 1], fill=1024, seed=4245, pad=P))
C.append(case("il_es0_2_nan", "FLOAT32", [8, 6, 5], [32, 192], [8, 1, 2], [4, 1, 1], es=[2, 1, 1], il="16B", sw="NONE", fill=1024,
              oob="NAN_REQUEST_ZERO_FMA", seed=4246, pad=P))
C.append(case("il_es0_2_sw128", "UINT8", [16, 6, 5], [16, 96], [16, 1, 3], [0, 1, 1], es=[2, 1, 1], il="16B", sw="128B", fill=2048,
              seed=4247, pad=P))
C.append(case("il_es0_3_f16_nosw", "FLOAT16", [8, 6, 5], [16, 96], [8, 1, 2], [0, 1, 1], es=[3, 1, 1], il="16B", sw="NONE", fill=1024,
              seed=4248, pad=P))
C.append(case("il_es0_3_f16_sw32", "FLOAT16", [8, 6, 5], [16, 96], [8, 1, 2], [0, 1, 1], es=[3, 1, 1], il="16B", sw="32B", fill=1024,
              seed=4249, pad=P))
# im2col through interleaved maps (README, point 6)
C.append(im2col_case("im_il16_es2", "FLOAT16", [16, 8, 4, 2], [32, 256, 1024], 16, 16, [0, 0, 0, 0], [2, 1, 1, 1], "16B", "NONE",
                     8192, [0, 0], [0, 0], 4251))
C.append(im2col_case("im_il32_u8_sw32", "UINT8", [32, 8, 4, 2], [32, 256, 1024], 32, 8, [0, 0, 0, 0], [1, 1, 1, 1], "32B", "32B",
                     8192, [0, 0], [0, 0], 4254))
C.append(im2col_case("im_il16_es8_px64", "FLOAT16", [8, 8, 4, 2], [16, 128, 512], 8, 64, [0, 0, 0, 0], [8, 1, 1, 1], "16B", "NONE",
                     4096, [0, 0], [0, 0], 4260))
C.append(im2col_case("im_il16_c8_px16", "FLOAT16", [8, 8, 4, 2], [16, 128, 512], 8, 16, [0, 0, 0, 0], [1, 1, 1, 1], "16B", "NONE",
                     4096, [0, 0], [0, 0], 4261))
C.append(im2col_case("im_il32_f32_sw32", "FLOAT32", [8, 8, 4, 2], [32, 256, 1024], 8, 8, [0, 0, 0, 0], [1, 1, 1, 1], "32B", "32B",
                     4096, [0, 0], [0, 0], 4262))
C.append(im2col_case("im_il16_u8_es4", "UINT8", [32, 8, 4, 2], [32, 256, 1024], 32, 4, [0, 0, 0, 0], [4, 1, 1, 1], "16B", "NONE",
                     4096, [0, 0], [0, 0], 4263))

# Keep what the hardware produced: a case already in cases.jsonl keeps its
# expect block (collect.py wrote it), a new one whose expected files are
# there gets the block collect.py would write.
here = os.path.dirname(os.path.abspath(__file__))
old = {}
if os.path.exists(os.path.join(here, "cases.jsonl")):
    for line in open(os.path.join(here, "cases.jsonl")):
        o = json.loads(line)
        old[o["name"]] = o.get("expect")
for c in C:
    if old.get(c["name"]):
        c["expect"] = old[c["name"]]
    elif all(os.path.exists(os.path.join(here, "expected", "%s.%s.bin" % (c["name"], b["name"])))
             for b in c["expect"]["buffers"]):
        for b in c["expect"]["buffers"]:
            b["file"] = "expected/%s.%s.bin" % (c["name"], b["name"])
        c["expect"]["encode"] = [{"tensor_map": "tm", "status": "CUDA_SUCCESS"}]
with open(os.path.join(here, "cases.jsonl"), "w") as f:
    for c in C:
        f.write(json.dumps(c, separators=(",", ":")) + "\n")
print(len(C), "cases")
