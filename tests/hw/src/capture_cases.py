#!/usr/bin/env python3
"""capture_cases.py — turn GPU captures into ptxi-launch/1 suites.

  capture_cases.py cutlass RES_DIR PTX_DIR SUITE_DIR
      RES_DIR/CASE/meta.json from tests/hw/src/cutlass/capture.h (one per
      case); PTX_DIR holds cutlass_gemm.ptx and cute_tutorial.ptx.
  capture_cases.py triton RES_DIR SUITE_DIR [SHA256_OVER]
      RES_DIR/CASE/meta.json from tests/hw/src/triton_tc_gen.py (or
      triton_sfu_gen.py).  An output buffer of more than SHA256_OVER bytes
      is expected by its SHA-256 instead of a file.

Writes SUITE_DIR/cases.jsonl, SUITE_DIR/*.ptx (one per distinct module) and
SUITE_DIR/expected/CASE.BUF.bin (the GPU's bytes of every output buffer),
and copies stored inputs to SUITE_DIR/inputs/.

Kernel parameters are read from the PTX entry.  A by-value .b8 parameter
becomes {"struct": [...]}: 128 bytes at a multiple of 64 equal to a map the
program encoded become {"tensor_map": ...}; 8 bytes at a multiple of 8 that
point into a captured buffer become {"pointer": ..., "offset": ...}; the rest
stays as raw u32 words (u8 where not 4-aligned).
"""
import json
import os
import re
import shutil
import struct
import sys

DT = ["UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "FLOAT32", "FLOAT64", "BFLOAT16",
      "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B"]
IL = ["NONE", "16B", "32B"]
SW = ["NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"]
L2 = ["NONE", "L2_64B", "L2_128B", "L2_256B"]
OOB = ["NONE", "NAN_REQUEST_ZERO_FMA"]


def die(msg):
    sys.exit("capture_cases: " + msg)


def entry_params(ptx_text, kernel):
    """[(kind, size, align)] of the entry's parameters: kind is the PTX type
    ('u32', 'u64', 'f32', ...) or 'b8' for a byte array."""
    m = re.search(r"\.entry\s+" + re.escape(kernel) + r"\s*\((.*?)\)", ptx_text, re.S)
    if not m:
        return None
    out = []
    for decl in m.group(1).split(","):
        decl = decl.strip()
        if not decl:
            continue
        a = re.search(r"\.align\s+(\d+)", decl)
        b = re.search(r"\.b8\s+\S+\[(\d+)\]", decl)
        if b:
            out.append(("b8", int(b.group(1)), int(a.group(1)) if a else 1))
            continue
        t = re.search(r"\.param\s+\.([usfb])(8|16|32|64)\b", decl)
        if not t:
            die("cannot read parameter declaration: " + decl[:120])
        k, n = t.group(1), int(t.group(2))
        out.append(({"b": "u"}.get(k, k) + str(n), n // 8, n // 8))
    return out


def entries(ptx_text):
    return re.findall(r"\.entry\s+([A-Za-z0-9_$]+)\s*\(", ptx_text)


class Builder:
    def __init__(self, bufs, tmaps):
        self.bufs = bufs          # [{"name", "addr", "bytes"}]
        self.tmaps = tmaps        # [{"name", "bytes": b"...", ...}]
        self.used = []

    def pointer(self, v):
        # a buffer's start first: cudaMalloc may place one buffer right at
        # the end of another, and that address is the next one's start
        for b in self.bufs:
            if b["addr"] == v:
                return {"pointer": b["name"]}
        for b in self.bufs:
            if b["addr"] <= v <= b["addr"] + b["bytes"] and b["addr"]:
                p = {"pointer": b["name"]}
                if v != b["addr"]:
                    p["offset"] = v - b["addr"]
                return p
        return None

    def tmap_at(self, raw, off):
        if off % 64 or off + 128 > len(raw):
            return None
        chunk = raw[off:off + 128]
        for t in self.tmaps:
            if t["bytes"] == chunk:
                if t["name"] not in self.used:
                    self.used.append(t["name"])
                return {"tensor_map": t["name"]}
        return None

    def struct(self, raw):
        fields, off, n = [], 0, len(raw)
        while off < n:
            f = self.tmap_at(raw, off)
            if f:
                fields.append(f)
                off += 128
                continue
            if off % 8 == 0 and off + 8 <= n:
                v = struct.unpack_from("<Q", raw, off)[0]
                p = self.pointer(v) if v else None
                if p:
                    fields.append(p)
                    off += 8
                    continue
            if off % 4 == 0 and off + 4 <= n:
                fields.append({"u32": struct.unpack_from("<I", raw, off)[0]})
                off += 4
            else:
                fields.append({"u8": raw[off]})
                off += 1
        return {"struct": fields}

    def scalar(self, kind, raw):
        n = len(raw)
        v = int.from_bytes(raw, "little")
        if kind == "u64":
            p = self.pointer(v) if v else None
            return p or {"u64": v}
        if kind == "f32":
            return {"f32": struct.unpack("<f", raw)[0]}
        if kind == "f64":
            return {"f64": struct.unpack("<d", raw)[0]}
        if kind.startswith("s"):
            return {kind: int.from_bytes(raw, "little", signed=True)}
        return {"u%d" % (8 * n): v}


def tmap_json(name, t, bufs):
    addr = t["addr"]
    ga = None
    for b in bufs:
        if b["addr"] <= addr < b["addr"] + max(b["bytes"], 1):
            ga = {"buffer": b["name"], "offset": addr - b["addr"]}
    if ga is None:
        die("tensor map %s: global address 0x%x is in no buffer" % (name, addr))
    return {"name": name, "encode": "tiled", "data_type": DT[t["data_type"]], "rank": t["rank"],
            "global_address": ga, "global_dim": t["dim"], "global_strides": t["strides"], "box_dim": t["box"],
            "element_strides": t["element_strides"], "interleave": IL[t["interleave"]], "swizzle": SW[t["swizzle"]],
            "l2_promotion": L2[t["l2"]], "oob_fill": OOB[t["oob"]]}


def cutlass(res, ptxdir, suite):
    os.makedirs(os.path.join(suite, "expected"), exist_ok=True)
    mods = {}
    for f in sorted(os.listdir(ptxdir)):
        if f.endswith(".ptx"):
            mods[f] = open(os.path.join(ptxdir, f)).read()
    lines = []
    for case in sorted(os.listdir(res)):
        mp = os.path.join(res, case, "meta.json")
        if not os.path.exists(mp):
            continue
        m = json.load(open(mp))
        if m["launch"] != "cudaSuccess" or m["sync"] != "cudaSuccess":
            print("skip %s: %s/%s" % (case, m["launch"], m["sync"]))
            continue
        kernel = m["kernel"]
        mod = [f for f, t in mods.items() if kernel in entries(t)]
        if len(mod) != 1:
            die("%s: kernel %s found in %d modules" % (case, kernel[:60], len(mod)))
        mod = mod[0]
        params = entry_params(mods[mod], kernel)
        args = [bytes.fromhex(h) for h in m["args"]]
        if len(params) != len(args):
            die("%s: %d PTX parameters, %d captured arguments" % (case, len(params), len(args)))
        tms = []
        for i, t in enumerate(m["tensor_maps"]):
            tms.append(dict(t, name="tm%d" % i, bytes=bytes.fromhex(t["bytes"])))
        bld = Builder(m["buffers"], tms)
        plist = []
        for (kind, size, align), raw in zip(params, args):
            if kind == "b8":
                if len(raw) != size:
                    die("%s: argument of %d bytes for a .b8[%d] parameter" % (case, len(raw), size))
                plist.append(bld.struct(raw))
            else:
                if len(raw) != size:
                    die("%s: argument of %d bytes for a .%s parameter" % (case, len(raw), kind))
                plist.append(bld.scalar(kind, raw))
        buffers, expect = [], []
        for b in m["buffers"]:
            buffers.append({"name": b["name"], "bytes": b["bytes"], "init": b["init"]})
            if "fill" in b["init"] and b["name"] != "workspace":
                fn = "expected/%s.%s.bin" % (case, b["name"])
                shutil.copy(os.path.join(res, case, b["name"] + ".bin"), os.path.join(suite, fn))
                expect.append({"name": b["name"], "file": fn})
        tmj = [tmap_json(t["name"], t, m["buffers"]) for t in tms if t["name"] in bld.used]
        lines.append({"format": "ptxi-launch/1", "name": case, "description": DESCR.get(case.rsplit("_", 1)[0], ""),
                      "ptx": mod, "kernel": kernel, "grid": m["grid"], "block": m["block"],
                      "cluster": m["cluster"], "dynamic_shared_bytes": m["smem"], "buffers": buffers,
                      "tensor_maps": tmj, "params": plist,
                      "expect": {"buffers": expect,
                                 "encode": [{"tensor_map": t["name"], "status": "CUDA_SUCCESS"} for t in tmj]}})
        if mod not in os.listdir(suite):
            open(os.path.join(suite, mod), "w").write(mods[mod])
    with open(os.path.join(suite, "cases.jsonl"), "w") as f:
        for c in lines:
            f.write(json.dumps(c, separators=(",", ":")) + "\n")
    print("%d cases" % len(lines))


DESCR = {
    "cute_tn": "CuTe tutorial hopper/wgmma_tma_sm90.cu, TN: TMA into 128B-swizzled K-major tiles, 3-stage "
               "full/empty mbarrier pipeline, wgmma m64n64k16 f16 += f16*f16 (f16 accumulator), 2-CTA cluster",
    "cute_nt": "CuTe tutorial hopper/wgmma_tma_sm90.cu, NT: TMA into 128B-swizzled M/N-major tiles "
               "(transposed descriptors), 3-stage pipeline, wgmma m64n64k16 f16 accumulator, 2-CTA cluster",
    "cutlass_ws": "CUTLASS 3.x KernelTmaWarpSpecializedCooperative f16 GEMM (CollectiveBuilder): producer "
                  "warpgroup with TMA (B multicast over a 2x1 cluster), two consumer warpgroups with wgmma "
                  "m64n64k16 f32 accumulators, multi-stage pipeline, persistent scheduler (2 CTAs), "
                  "stmatrix + TMA-store epilogue with alpha/beta",
}


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "cutlass":
        cutlass(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "triton":
        triton(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) == 5 else None)
    else:
        die("usage: capture_cases.py cutlass RES PTXDIR SUITE | triton RES SUITE [SHA256_OVER]")


TORCH_DT = {"torch.float16": "FLOAT16", "torch.bfloat16": "BFLOAT16", "torch.float32": "FLOAT32",
            "torch.float8_e4m3fn": "UINT8", "torch.int8": "UINT8", "torch.int32": "INT32"}
ESZ = {"torch.float16": 2, "torch.bfloat16": 2, "torch.float32": 4, "torch.float8_e4m3fn": 1, "torch.int8": 1,
       "torch.int32": 4}
HOST_DT = {0: "UINT8", 1: "UINT16", 2: "UINT32", 3: "INT32", 4: "UINT64", 5: "INT64", 6: "FLOAT16", 7: "FLOAT32",
           8: "FLOAT64", 9: "BFLOAT16", 10: "FLOAT32_FTZ", 11: "TFLOAT32", 12: "TFLOAT32_FTZ"}


def triton_tmap(name, desc, tens, log):
    """The tensor map Triton's launcher encoded for a host TensorDescriptor:
    shape/strides/block from the descriptor, swizzle and element type from
    the logged fill_tma_descriptor call (args: ptr, swizzle, elem_size,
    elem_type, block_size, shape, strides, padding)."""
    t = tens[desc["tensor"]]
    a = log["args"]
    if not (isinstance(a[0], int) and a[0] == desc["ptr"]):
        die("tensor map %s: logged call %r is not for this descriptor" % (name, a[:2]))
    swz, esz, edt, block = a[1], a[2], a[3], a[4]
    pad = a[7] if len(a) > 7 else 0
    rank = len(desc["shape"])
    return {"name": name, "encode": "tiled", "data_type": HOST_DT[edt], "rank": rank,
            "global_address": {"buffer": desc["tensor"], "offset": desc["ptr"] - t["ptr"]},
            "global_dim": list(reversed(desc["shape"])),
            "global_strides": [s * esz for s in reversed(desc["strides"][:-1])],
            "box_dim": list(reversed(block)), "element_strides": [1] * rank, "interleave": "NONE",
            "swizzle": SW[swz], "l2_promotion": "L2_128B",
            "oob_fill": "NAN_REQUEST_ZERO_FMA" if pad else "NONE"}


def sfu_note(ops):
    """' PTX: ex2.approx.ftz.f32 x2, ...' from meta.json's sfu_ops."""
    if not ops:
        return ""
    return " PTX: " + ", ".join("%s x%d" % (k, v) for k, v in sorted(ops.items())) + "."


def triton(res, suite, sha_over=None):
    os.makedirs(os.path.join(suite, "expected"), exist_ok=True)
    os.makedirs(os.path.join(suite, "inputs"), exist_ok=True)
    lines = []
    written = {}
    for case in sorted(os.listdir(res)):
        mp = os.path.join(res, case, "meta.json")
        if not os.path.exists(mp):
            continue
        m = json.load(open(mp))
        ptx = open(os.path.join(res, case, case + ".ptx")).read()
        # the cases of one kernel (rand, special, ...) share their module
        base = re.sub(r"_(rand|special|wide|all)$", "", case)
        ptxname = base + ".ptx"
        if ptxname in written and written[ptxname] != ptx:
            ptxname = case + ".ptx"
        written[ptxname] = ptx
        kernel = entries(ptx)
        if len(kernel) != 1:
            die("%s: %d entries" % (case, len(kernel)))
        kernel = kernel[0]
        params = entry_params(ptx, kernel)
        sig = m["signature"]
        names = m["arg_names"]
        tens = m["tensors"]
        bufs = [{"name": n, "addr": t["ptr"], "bytes": t["bytes"]} for n, t in tens.items()]
        plist, tmaps = [], []
        pi = 0
        logs = list(m["tma_log"])

        def take(kind_ok, what):
            nonlocal pi
            if pi >= len(params):
                die("%s: PTX has too few parameters for %s" % (case, what))
            k = params[pi]
            if not kind_ok(k):
                die("%s: parameter %d is %r, expected %s" % (case, pi, k, what))
            pi += 1
            return k
        for i, a in enumerate(m["args"]):
            ty = sig.get(names[i])
            if ty == "constexpr":
                continue
            if a["kind"] == "tensor":
                take(lambda k: k[0] == "u64", "a pointer")
                plist.append({"pointer": a["name"]})
            elif a["kind"] == "desc":
                nm = "%s_%d" % (a["tensor"], i)
                if not logs:
                    die("%s: no fill_tma_descriptor call logged for argument %d" % (case, i))
                tmaps.append(triton_tmap(nm, a, tens, logs.pop(0)))
                take(lambda k: k[0] == "b8" and k[1] == 128, "a tensor map")
                plist.append({"tensor_map": nm})
                for d in a["shape"]:
                    k = take(lambda k: k[0] in ("u32", "s32"), "a shape entry")
                    plist.append({k[0]: d})
                for d in a["strides"]:
                    k = take(lambda k: k[0] in ("u64", "s64"), "a stride entry")
                    plist.append({k[0]: d})
            elif a["kind"] in ("int", "bool"):
                k = take(lambda k: k[0][0] in "us", "an integer")
                v = int(a["value"])
                if k[0][0] == "u":
                    v &= (1 << (8 * k[1])) - 1
                plist.append({k[0]: v})
            elif a["kind"] == "float":
                take(lambda k: k[0] == "f32", "an f32")
                plist.append({"f32": a["value"]})
            else:
                die("%s: argument %d of kind %s" % (case, i, a["kind"]))
        scratch = 0
        while pi < len(params):  # global and profile scratch pointers
            take(lambda k: k[0] == "u64", "a scratch pointer")
            plist.append({"u64": 0})
            scratch += 1
        if scratch != 2:
            die("%s: %d trailing parameters, expected Triton's 2 scratch pointers" % (case, scratch))
        gs = m["metadata"].get("global_scratch_size", 0) or 0
        if gs:
            die("%s: needs %d bytes of global scratch" % (case, gs))
        buffers, expect = [], []
        for n, t in tens.items():
            init = dict(t["init"])
            if "file" in init:
                fn = "inputs/%s.%s.bin" % (case, n)
                shutil.copy(os.path.join(res, case, init["file"]), os.path.join(suite, fn))
                init = {"file": fn}
            buffers.append({"name": n, "bytes": t["bytes"], "init": init})
            if t["init"].get("fill") == 0:
                src = os.path.join(res, case, n + ".bin")
                dig = os.path.join(res, case, n + ".sha256")
                if not os.path.exists(src) and os.path.exists(dig):
                    expect.append({"name": n, "sha256": open(dig).read().split()[0]})
                elif os.path.exists(src) and sha_over is not None and os.path.getsize(src) > sha_over:
                    import hashlib
                    expect.append({"name": n, "sha256": hashlib.sha256(open(src, "rb").read()).hexdigest()})
                elif os.path.exists(src):
                    fn = "expected/%s.%s.bin" % (case, n)
                    shutil.copy(src, os.path.join(suite, fn))
                    expect.append({"name": n, "file": fn})
        grid = m["grid"]
        cl = m["metadata"].get("cluster_dims") or [1, 1, 1]
        shared = m["shared"]
        c = {"format": "ptxi-launch/1", "name": case, "description": m["description"] + sfu_note(m.get("sfu_ops")),
             "ptx": ptxname,
             "kernel": kernel, "grid": grid, "block": [32 * m["num_warps"], 1, 1],
             "dynamic_shared_bytes": shared, "buffers": buffers, "params": plist}
        if list(cl) != [1, 1, 1]:
            c["cluster"] = list(cl)
        if tmaps:
            c["tensor_maps"] = tmaps
        c["expect"] = {"buffers": expect}
        if tmaps:
            c["expect"]["encode"] = [{"tensor_map": t["name"], "status": "CUDA_SUCCESS"} for t in tmaps]
        lines.append(c)
        open(os.path.join(suite, ptxname), "w").write(ptx)
    with open(os.path.join(suite, "cases.jsonl"), "w") as f:
        for c in lines:
            f.write(json.dumps(c, separators=(",", ":")) + "\n")
    print("%d cases" % len(lines))


if __name__ == "__main__":
    main()
