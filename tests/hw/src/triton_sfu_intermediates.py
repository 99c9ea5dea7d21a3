# triton_sfu_intermediates.py — the H100 measurement behind triton_sfu's
# note on layernorm/rmsnorm (once pending; ptxas fuses div.full.f32 with the
# add.f32 after it).  Copies of layernorm.ptx / rmsnorm.ptx whose Rstd / Rms
# store takes an intermediate register instead (made with sed, e.g.
#   sed 's/{ %r27 };/{ %r87 };/' layernorm.ptx > ln_87.ptx   (sum/N + eps)
#   sed 's/{ %r19 };/{ %r55 };/' rmsnorm.ptx > rms_55.ptx     (sum/N + eps)
# and ln_85/ln_86, rms_52/rms_54 for the sum and the quotient) are run with
# cupy on the GPU, in the directory that holds them and the cases' lines
# (cases.jsonl) and inputs/; the same copies run through `ptxi run
# --keep-failed` give ptxi's values.  Usage: python3 THIS OUTDIR
import json, os, sys
import numpy as np
import cupy as cp

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)


def hash_words(n, seed):
    w = np.arange(n, dtype=np.uint64)
    x = ((w * 0x9E3779B9) & 0xFFFFFFFF) ^ seed
    x ^= x >> 16
    x = (x * 0x7feb352d) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846ca68b) & 0xFFFFFFFF
    x ^= x >> 16
    return x.astype(np.uint32)


def buf_init(b):
    n = b["bytes"]
    i = b.get("init", {})
    if "hash32" in i:
        w = (hash_words((n + 3) // 4, i["hash32"]) & np.uint32(i.get("and", 0xFFFFFFFF))) | np.uint32(i.get("or", 0))
        return w.tobytes()[:n]
    if "file" in i:
        return open(i["file"], "rb").read()
    return bytes([i.get("fill", 0)]) * n


for line in open("cases.jsonl"):
    c = json.loads(line)
    bufs = {b["name"]: cp.asarray(np.frombuffer(buf_init(b), dtype=np.uint8)) for b in c["buffers"]}
    kind = "ln" if c["name"].startswith("layernorm") else "rms"
    outname = "Rstd" if kind == "ln" else "Rms"
    variants = [f for f in sorted(os.listdir(".")) if f.startswith(kind + "_") and f.endswith(".ptx")]
    for v in variants:
        for b in c["buffers"]:
            bufs[b["name"]][:] = cp.asarray(np.frombuffer(buf_init(b), dtype=np.uint8))
        mod = cp.RawModule(path=v)
        k = mod.get_function(c["kernel"])
        args = []
        for p in c["params"]:
            if "pointer" in p:
                args.append(bufs[p["pointer"]])
            elif "u32" in p:
                args.append(np.uint32(p["u32"]))
            elif "f32" in p:
                args.append(np.float32(p["f32"]))
            elif "u64" in p:
                args.append(np.uint64(p["u64"]))
            else:
                raise SystemExit("param " + repr(p))
        k(tuple(c["grid"]), tuple(c["block"]), tuple(args), shared_mem=c.get("dynamic_shared_bytes", 0))
        cp.cuda.runtime.deviceSynchronize()
        fn = os.path.join(OUT, "%s.%s.bin" % (c["name"], v[:-4]))
        open(fn, "wb").write(cp.asnumpy(bufs[outname]).tobytes())
        print("wrote", fn, flush=True)
