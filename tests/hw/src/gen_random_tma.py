#!/usr/bin/env python3
"""tests/hw/random_tma: randomized TMA runtime cases against the H100.

Usage: gen_random_tma.py [OUT_DIR] (default tests/hw/random_tma; PTXI=path of
the ptxi binary, default ./ptxi).  Writes OUT_DIR/cases.jsonl and
OUT_DIR/inputs/*.bin; the expected bytes come from the GPU through
../shared/oracle (plan.py, run.sh, collect.py).  The cases.jsonl it writes
lacks the encode statuses and launch errors collect.py adds: regenerate
into a scratch folder, not over the suite.

Kernels of tests/conformance/ptx/tma_sm90.ptx, parameters as the conformance
suites use them:
  load_tile   (tm, rank, c0..c4, expect_tx, smem_off, nbytes, dst, status)
  load_im2col (tm, rank, c0..c4, off0..off2 (u16), expect_tx, smem_off, nbytes, dst, status)
  store_tile  (tm, rank, c0..c4, smem_off, nbytes, src, status)
  reduce_tile (tm, op, rank, c0..c4, smem_off, nbytes, src, status)
The destination/source is the 1024-aligned start of dynamic shared memory
plus smem_off; loads pre-fill nbytes from there with 0xA5 and copy nbytes
out, so nbytes is the model's shared-memory footprint rounded up to 128 plus
128 bytes of margin (a write past the box shows).

Covered beyond the conformance random suites: every data type the sm_90
driver encodes, swizzles 32B/64B/128B with shared-memory offsets that are
not multiples of 1024, interleave 16B/32B (tile, im2col, stores,
reductions), OOB-NaN fill, traversal strides > 1 in every dimension
(dimension 0 included), boxes partly and wholly out of bounds on either side
and at huge coordinates, ranks 1-5, im2col corners / offsets / channel and
pixel counts, stores and every reduction op x type (illegal pairs fault),
with out-of-bounds boxes, on hashed and on crafted float data (narrow
exponent ranges, ties, subnormals, infinities, NaNs).

Each expect_tx is the transaction count under ptxi's model (tma/engine.c);
a phase that does not complete on the GPU (status 2) is a finding.  Only
maps that ptxi's encoder accepts are generated (checked with `ptxi tmap`);
the driver's status is recorded by collect.py.

Three batches, each with its own seed so that a later one leaves the
earlier cases as they were: the random cases above (SEED), then what the
first results asked (SEED + 1: every pair of special float values per
reduction type, im2col through interleaved maps with data in bounds,
stores and adds past a dimension 0 that does not end on 16 bytes), then
im2col with a traversal stride on the image dimension (SEED + 2).  What
the GPU showed: ../random_tma/README.md."""
import json, math, os, random, struct, subprocess, sys, tempfile

SEED = 90210
R = random.Random(SEED)
OUT = sys.argv[1] if len(sys.argv) > 1 else "tests/hw/random_tma"
PTXI = os.environ.get("PTXI", "./ptxi")
PTX = "../../conformance/ptx/tma_sm90.ptx"

DT = ["UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "FLOAT32", "FLOAT64", "BFLOAT16",
      "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ"]
ESZ = {"UINT8": 1, "UINT16": 2, "UINT32": 4, "INT32": 4, "UINT64": 8, "INT64": 8, "FLOAT16": 2, "FLOAT32": 4,
       "FLOAT64": 8, "BFLOAT16": 2, "FLOAT32_FTZ": 4, "TFLOAT32": 4, "TFLOAT32_FTZ": 4}
FLOATS = {"FLOAT16", "FLOAT32", "FLOAT64", "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ"}
SPAN = {"NONE": 0, "32B": 32, "64B": 64, "128B": 128}
SLICE = {"16B": 16, "32B": 32}
L2 = ["NONE", "L2_64B", "L2_128B", "L2_256B"]
OPS = ["add", "min", "max", "inc", "dec", "and", "or", "xor"]
LEGAL = {"add": ["UINT32", "INT32", "UINT64", "FLOAT16", "BFLOAT16", "FLOAT32", "FLOAT32_FTZ", "TFLOAT32",
                 "TFLOAT32_FTZ", "FLOAT64"],
         "min": ["UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "BFLOAT16"],
         "max": ["UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "BFLOAT16"],
         "inc": ["UINT32"], "dec": ["UINT32"],
         "and": ["UINT32", "INT32", "UINT64"], "or": ["UINT32", "INT32", "UINT64"], "xor": ["UINT32", "INT32", "UINT64"]}
MAXFOOT = 24576  # shared-memory footprint cap per case (keeps copy-outs small)
MAXTENSOR = 1 << 18  # tensor buffer cap (bytes)
INPUTS = {}      # file name -> bytes


def cdiv(a, b):
    return -(-a // b)


def rup(a, b):
    return cdiv(a, b) * b


# ---- crafted data ---------------------------------------------------------------

def craft(dt, n, r):
    """n bytes of elements of dt whose values make arithmetic interesting:
    narrow exponent ranges (sums round), ties, subnormals, zeros of both
    signs, infinities and NaNs with payloads; integers near the limits."""
    es = ESZ[dt]
    out = bytearray()
    if dt in ("FLOAT16", "BFLOAT16"):
        eb, mb = (5, 10) if dt == "FLOAT16" else (8, 7)
    elif dt in ("FLOAT64",):
        eb, mb = 11, 52
    elif dt in FLOATS:
        eb, mb = 8, 23
    else:
        eb = mb = None
    bias = (1 << (eb - 1)) - 1 if eb else 0
    ectr = bias + r.randint(-3, 3) if eb else 0
    while len(out) < n:
        if eb is None:
            bits = es * 8
            k = r.random()
            if k < 0.15: v = r.choice([0, 1, (1 << bits) - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1, 2])
            elif k < 0.5: v = r.randrange(0, 64)
            elif k < 0.6: v = (1 << bits) - r.randrange(1, 64)
            else: v = r.getrandbits(bits)
        else:
            s = r.getrandbits(1)
            k = r.random()
            if k < 0.70:
                e = ectr + r.randint(-2, 2)
                m = r.getrandbits(mb)
                if r.random() < 0.3:  # a tie or near tie for tf32/bf16/f16 rounding
                    low = mb - 10 if mb > 10 else 1
                    m = (m >> low << low) | r.choice([1 << (low - 1), (1 << (low - 1)) - 1, (1 << (low - 1)) + 1, 0])
            elif k < 0.80: e, m = 0, r.getrandbits(mb)            # subnormal
            elif k < 0.84: e, m = 0, 0                              # +-0
            elif k < 0.88: e, m = (1 << eb) - 1, 0                  # +-inf
            elif k < 0.93: e, m = (1 << eb) - 1, r.getrandbits(mb) | 1  # NaN, payload
            elif k < 0.97: e, m = (1 << eb) - 2, r.getrandbits(mb)  # near overflow
            else: e, m = 1, r.getrandbits(mb)                       # smallest normals
            v = (s << (eb + mb)) | (e << mb) | m
        out += v.to_bytes(es, "little")
    return bytes(out[:n])


def add_input(case, buf, data):
    """A buffer initialised from a file, written once the case is kept
    (inputs/NAME.BUF.bin, NAME being the case's final name)."""
    case.setdefault("_inputs", {})[buf] = data
    return {"file": None}


# ---- the geometry model (tma/engine.c: plan) ---------------------------------------

def model(tm, kind):
    """(tx bytes, smem footprint bytes) under ptxi's model."""
    rank, dt, il = tm["rank"], tm["data_type"], tm["interleave"]
    es = tm["element_strides"]
    span = SPAN[tm["swizzle"]]
    inter = il != "NONE" and rank >= 3
    if tm["encode"] == "tiled":
        box = list(tm["box_dim"])
        ess = list(es)
        if inter:
            box[rank - 2] = 1
            ess[rank - 2] = 1
        rows = 1
        for i in range(1, rank):
            rows *= cdiv(box[i], ess[i])
        if inter:
            rb = cdiv(box[0], es[0]) * SLICE[il]
            return rb * rows, rb * rows
        rb = box[0] * ESZ[dt]
        pitch = span if span else rb
        return rb * rows, pitch * rows
    cpp, ppc = tm["channels_per_pixel"], tm["pixels_per_column"]
    if inter:
        total = ppc * SLICE[il]
        return total, total
    rb = cpp * ESZ[dt]
    pitch = span if span else rb
    return rb * ppc, pitch * ppc


def tensor_extent(tm):
    il = tm["interleave"]
    d0 = tm["global_dim"][0] * (SLICE[il] if il != "NONE" and tm["rank"] >= 3 else ESZ[tm["data_type"]])
    return d0 + sum((d - 1) * s for d, s in zip(tm["global_dim"][1:], tm["global_strides"]))


def make_strides(dims, row_bytes, align, r):
    st = []
    acc = rup(row_bytes, align)
    for k in range(1, len(dims)):
        c = r.random()
        if c < 0.6: s = acc
        elif c < 0.85: s = acc + align * r.randint(1, 4)
        elif c < 0.93: s = rup(max(acc // 2, align), align)   # overlapping rows
        else: s = acc * r.randint(2, 3)
        st.append(s)
        acc = s * dims[k]
    return st


def coord(dim, box, step, r, mode=None, align=1):
    """A start coordinate for a box of `box` positions (step apart) in a
    dimension of `dim`: inside, partly out below or above, wholly out, huge."""
    ext = (box - 1) * step + 1
    mode = mode or r.choices(["in", "lo", "hi", "out_lo", "out_hi", "huge"], [40, 15, 15, 8, 8, 4])[0]
    if mode == "in": c = r.randint(0, max(dim - ext, 0))
    elif mode == "lo": c = -r.randint(1, max(ext - 1, 1))
    elif mode == "hi": c = r.randint(min(max(dim - ext + 1, 0), dim - 1), dim - 1)
    elif mode == "out_lo": c = -ext - r.randint(0, 40)
    elif mode == "out_hi": c = dim + r.randint(0, 40)
    else: c = r.choice([2 ** 31 - 1, 2 ** 31 - 2 * ext, -2 ** 31, -2 ** 31 + 7, 2 ** 30 + 3, -2 ** 30, 65536, -65536])
    c = c // align * align
    return max(min(c, 2 ** 31 - 1), -2 ** 31)


def pick_dt(r, floats_bias=0.5):
    if r.random() < floats_bias:
        return r.choice(sorted(FLOATS))
    return r.choice(DT)


def base_case(name, kernel):
    return {"format": "ptxi-launch/1", "name": name, "ptx": PTX, "kernel": kernel,
            "grid": [1, 1, 1], "block": [128, 1, 1], "cluster": [1, 1, 1]}


def smem_offset(r, sw):
    if r.random() < 0.012:
        return r.choice([16, 32, 64, 96])          # below the 128-byte rule
    if sw != "NONE" and r.random() < 0.75:
        return 128 * r.randint(1, 7) + (1024 if r.random() < 0.2 else 0)
    return 128 * r.randint(0, 8) if r.random() < 0.5 else 0


# ---- tile loads ------------------------------------------------------------------

def gen_tile_map(r, rank, dt, store=False):
    esz = ESZ[dt]
    il = "NONE"
    if rank >= 3 and r.random() < 0.22:
        il = r.choice(["16B", "32B"])
    sw = r.choice(["NONE", "32B", "64B", "128B"])
    if il == "32B" and r.random() < 0.6: sw = "32B"
    span = SPAN[sw]
    es = [1] * rank
    if r.random() < 0.45:
        es = [r.choice([1, 1, 2, 3, 4, 5, 8]) for _ in range(rank)]
    # box_dim[0]: whole 16-byte multiples
    unit = 16 // esz
    if il != "NONE":
        box0 = unit * r.randint(1, 3)
    else:
        maxb = (span if span else 256) // esz
        maxb = min(maxb, 256)
        box0 = unit * r.randint(1, max(1, maxb // unit))
        if r.random() < 0.4: box0 = unit * r.randint(1, min(4, max(1, maxb // unit)))
    box = [box0] + [r.choice([1, 2, 3, 4, 5, 7, 8, 12, 16]) for _ in range(rank - 1)]
    dims = []
    for i in range(rank):
        b = box[i] * (es[i] if i else 1)
        dims.append(max(1, r.choice([b // 2, b, b + r.randint(0, 8), 2 * b + r.randint(0, 5), r.randint(1, 3 * b + 4)])))
    if il != "NONE":
        d0b = dims[0] * SLICE[il]
        align = 32 if il == "32B" else 16
    else:
        d0b = dims[0] * esz
        align = 16
    st = make_strides(dims, d0b, align, r)
    oob = "NAN_REQUEST_ZERO_FMA" if dt in FLOATS and r.random() < 0.45 else "NONE"
    return {"name": "tm", "encode": "tiled", "data_type": dt, "rank": rank,
            "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": dims, "global_strides": st,
            "box_dim": box, "element_strides": es, "interleave": il, "swizzle": sw,
            "l2_promotion": r.choice(L2), "oob_fill": oob}


def tile_coords(r, tm, kind):
    rank, dt, il = tm["rank"], tm["data_type"], tm["interleave"]
    esz = ESZ[dt]
    co = []
    nint = r.choice([0, 1, 1, 2, rank])  # how many dimensions get an edge/out-of-bounds start
    edgy = set(r.sample(range(rank), min(nint, rank)))
    for i in range(rank):
        step = tm["element_strides"][i] if i else 1
        box = tm["box_dim"][i]
        align = 16 // esz if (i == 0 and il == "NONE") else 1
        mode = None if i in edgy else "in"
        if kind != "load" and mode is None:
            # stores/reductions: past the end, huge positive, a few negatives
            mode = r.choices(["in", "hi", "out_hi", "huge", "lo"], [30, 35, 15, 5, 3])[0]
        c = coord(tm["global_dim"][i], box, step, r, mode, align)
        if kind != "load" and mode == "huge": c = min(abs(c), 2 ** 31 - 1) // align * align
        co.append(c)
    if il == "NONE" and r.random() < 0.02 and esz < 16:
        co[0] += 1 if 16 // esz > 1 else 0   # misaligned inner start: faults
    return co


def finish_load(c, tm, r, tx, foot, smem_off):
    nbytes = rup(max(foot, 16), 128) + 128
    c["dynamic_shared_bytes"] = 1024 + smem_off + nbytes
    return nbytes


def tensor_buffer(c, tm, r, crafted):
    ext = tensor_extent(tm)
    size = rup(ext + r.choice([0, 0, 16, 48, 100]), 4)
    if crafted:
        init = add_input(c, "tensor", craft(tm["data_type"], size, r))
    else:
        init = {"hash32": r.getrandbits(31)}
    return {"name": "tensor", "bytes": size, "init": init}


def gen_load_tile(i, r):
    name = "ld_tile_%04d" % i
    rank = r.choices([1, 2, 3, 4, 5], [12, 25, 25, 20, 18])[0]
    dt = pick_dt(r)
    tm = gen_tile_map(r, rank, dt)
    tx, foot = model(tm, "load")
    if foot > MAXFOOT or foot == 0 or tensor_extent(tm) > MAXTENSOR:
        return None
    co = tile_coords(r, tm, "load")
    smem_off = smem_offset(r, tm["swizzle"])
    c = base_case(name, "load_tile")
    nbytes = finish_load(c, tm, r, tx, foot, smem_off)
    crafted = dt in ("TFLOAT32", "TFLOAT32_FTZ") and r.random() < 0.5
    c["buffers"] = [tensor_buffer(c, tm, r, crafted), {"name": "dst", "bytes": nbytes, "init": {"fill": 0}},
                    {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    c["tensor_maps"] = [tm]
    c["params"] = ([{"tensor_map": "tm"}, {"s32": rank}] + [{"s32": x} for x in co + [0] * (5 - rank)] +
                   [{"u32": tx}, {"u32": smem_off}, {"u32": nbytes}, {"pointer": "dst"}, {"pointer": "status"}])
    c["expect"] = {"buffers": [{"name": "dst"}, {"name": "status"}]}
    return c


# ---- im2col loads -----------------------------------------------------------------

CORNER = {3: 32767, 4: 127, 5: 15}


def gen_load_im2col(i, r):
    name = "ld_im2col_%04d" % i
    rank = r.choice([3, 4, 5])
    dt = pick_dt(r)
    esz = ESZ[dt]
    S = rank - 2
    il = "NONE"
    if r.random() < 0.15: il = r.choice(["16B", "32B"])
    sw = r.choice(["NONE", "32B", "64B", "128B"])
    if il == "32B" and r.random() < 0.6: sw = "32B"
    span = SPAN[sw]
    unit = 16 // esz
    if il != "NONE":
        cpp = unit * r.randint(1, 2)
    else:
        maxc = min(256, (span if span else 256) // esz)
        cpp = unit * r.randint(1, max(1, min(maxc // unit, 6)))
    C = max(1, r.choice([cpp, cpp + unit * r.randint(0, 3), cpp // 2 + 1, 3 * cpp]))
    sp = [r.randint(1, 9) for _ in range(S)]
    N = r.randint(1, 3)
    dims = [C] + sp + [N]
    es = [1] + [r.choice([1, 1, 1, 2, 3]) for _ in range(S)] + [1]
    if r.random() < 0.1: es[0] = r.choice([2, 4])
    lim = min(CORNER[rank], 6)
    lo = [r.randint(-lim, 2) for _ in range(S)]
    up = [r.randint(-3, lim) for _ in range(S)]
    for d in range(S):
        if sp[d] + up[d] - lo[d] <= 0: up[d] = lo[d] - sp[d] + 1 + r.randint(0, 2)
        up[d] = min(up[d], CORNER[rank])
    ppc = r.choice([1, 2, 4, 8, 16, 24, 32, 64, 100, 128])
    if il != "NONE":
        d0b, align = C * SLICE[il], (32 if il == "32B" else 16)
    else:
        d0b, align = C * esz, 16
    st = make_strides(dims, d0b, align, r)
    oob = "NAN_REQUEST_ZERO_FMA" if dt in FLOATS and r.random() < 0.45 else "NONE"
    tm = {"name": "tm", "encode": "im2col", "data_type": dt, "rank": rank,
          "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": dims, "global_strides": st,
          "pixel_box_lower_corner": lo, "pixel_box_upper_corner": up, "channels_per_pixel": cpp,
          "pixels_per_column": ppc, "element_strides": es, "interleave": il, "swizzle": sw,
          "l2_promotion": r.choice(L2), "oob_fill": oob}
    tx, foot = model(tm, "load")
    if foot > MAXFOOT or tensor_extent(tm) > MAXTENSOR:
        return None
    # coordinates: channel (16-byte aligned, maybe past the end or negative),
    # filter base inside [lo, dim-1+up] (a few just outside: fault), image
    if il == "NONE":
        c0 = r.choice([0, 0, 0, unit * r.randint(1, 3), -unit * r.randint(1, 2), C // unit * unit])
    else:
        c0 = r.choice([0, 0, 0, 1, 2, -1, C - 1])
    co = [c0]
    fault_base = r.random() < 0.04
    for d in range(S):
        a, b = lo[d], sp[d] - 1 + up[d]
        co.append(r.randint(a, b))
    if fault_base:
        d = r.randrange(S)
        co[1 + d] = r.choice([lo[d] - 1, sp[d] + up[d]])
    co.append(r.choice([0, 0, r.randint(0, N - 1), N, -1]) if r.random() < 0.8 else r.choice([N + 5, -3]))
    offs = [0, 0, 0]
    if r.random() < 0.6:
        for d in range(S - 0):
            if d < S:
                offs[d] = r.choice([0, 1, 2, 3, r.randint(0, 8)])
    if r.random() < 0.06:
        offs[r.randrange(S)] = r.choice([31, 32, 255, 256, 1000, 65535])
    smem_off = smem_offset(r, sw)
    c = base_case(name, "load_im2col")
    nbytes = finish_load(c, tm, r, tx, foot, smem_off)
    c["buffers"] = [tensor_buffer(c, tm, r, dt in ("TFLOAT32", "TFLOAT32_FTZ") and r.random() < 0.5),
                    {"name": "dst", "bytes": nbytes, "init": {"fill": 0}},
                    {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    c["tensor_maps"] = [tm]
    c["params"] = ([{"tensor_map": "tm"}, {"s32": rank}] + [{"s32": x} for x in co + [0] * (5 - rank)] +
                   [{"u16": o} for o in offs] +
                   [{"u32": tx}, {"u32": smem_off}, {"u32": nbytes}, {"pointer": "dst"}, {"pointer": "status"}])
    c["expect"] = {"buffers": [{"name": "dst"}, {"name": "status"}]}
    return c


# ---- stores and reductions ---------------------------------------------------------

def gen_store(i, r, op=None, dt=None):
    red = op is not None
    name = ("red_%s_%04d" % (op, i)) if red else "st_tile_%04d" % i
    rank = r.choices([1, 2, 3, 4, 5], [15, 25, 25, 18, 17])[0]
    dt = dt or pick_dt(r, 0.4)
    tm = gen_tile_map(r, rank, dt, store=True)
    if red and tm["interleave"] != "NONE" and r.random() < 0.6:
        return None
    _, foot = model(tm, "store")
    if foot > MAXFOOT or foot == 0 or tensor_extent(tm) > MAXTENSOR:
        return None
    co = tile_coords(r, tm, "store")
    smem_off = smem_offset(r, tm["swizzle"])
    nbytes = rup(foot, 128)
    crafted = (dt in FLOATS and r.random() < 0.6) or (red and r.random() < 0.3)
    c = base_case(name, "reduce_tile" if red else "store_tile")
    c["dynamic_shared_bytes"] = 1024 + smem_off + nbytes
    tb = tensor_buffer(c, tm, r, crafted)
    if crafted:
        src = {"name": "src", "bytes": nbytes, "init": add_input(c, "src", craft(dt, nbytes, r))}
    else:
        src = {"name": "src", "bytes": nbytes, "init": {"hash32": r.getrandbits(31)}}
    c["buffers"] = [tb, src, {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    c["tensor_maps"] = [tm]
    p = [{"tensor_map": "tm"}]
    if red: p.append({"s32": OPS.index(op)})
    p += [{"s32": rank}] + [{"s32": x} for x in co + [0] * (5 - rank)]
    p += [{"u32": smem_off}, {"u32": nbytes}, {"pointer": "src"}, {"pointer": "status"}]
    c["params"] = p
    c["expect"] = {"buffers": [{"name": "tensor"}, {"name": "status"}]}
    return c


# ---- encode filter ---------------------------------------------------------------

def encodes(cands):
    """Which candidates' maps ptxi encodes (ptxi tmap FILE.jsonl)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for c in cands:
            f.write(json.dumps(c["tensor_maps"][0]) + "\n")
        fn = f.name
    out = subprocess.run([PTXI, "tmap", fn], capture_output=True, text=True).stdout
    os.unlink(fn)
    ok = {}
    for line in out.splitlines():
        if line.startswith(fn + ":"):
            k = int(line[len(fn) + 1:].split()[0])
            ok[k - 1] = ": CUDA_SUCCESS" in line
    return [c for k, c in enumerate(cands) if ok.get(k)]


def take(gen, n, r, *a):
    """n generated cases whose maps encode, drawing candidates in batches."""
    got = []
    while len(got) < n:
        cands = []
        for _ in range(4 * (n - len(got)) + 8):
            c = gen(0, r, *a)
            if c: cands.append(c)
        got += encodes(cands)[: n - len(got)]
    return got

# ---- second batch: what the first showed (tests/hw/random_tma/README.md) ------------

SPECIAL = {  # bit patterns: +-0, +-1, 1.5, subnormals, normals' edges, +-inf, quiet and signalling NaNs
    4: [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x00000001, 0x007fffff, 0x80400000,
        0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fc12345, 0xffc54321,
        0x7f800001, 0x7fa00bcd, 0xff912345],
    8: [0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 0x3ff8000000000000, 1, 0x000fffffffffffff,
        0x8008000000000000, 0x0010000000000000, 0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000000,
        0xfff0000000000000, 0x7ff8000000000000, 0x7ff8000000012345, 0xfff8000000054321, 0x7ff0000000000001,
        0x7ff4000000000bcd, 0xfff1000000012345],
    "FLOAT16": [0x0000, 0x8000, 0x3c00, 0xbc00, 0x3e00, 0x0001, 0x03ff, 0x8200, 0x0400, 0x7bff, 0xfbff,
                0x7c00, 0xfc00, 0x7e00, 0x7e12, 0xfe34, 0x7c01, 0x7d23, 0xfd45],
    "BFLOAT16": [0x0000, 0x8000, 0x3f80, 0xbf80, 0x3fc0, 0x0001, 0x007f, 0x8040, 0x0080, 0x7f7f, 0xff7f,
                 0x7f80, 0xff80, 0x7fc0, 0x7fc5, 0xffd3, 0x7f81, 0x7fa3, 0xff91],
}


def gen_red_special(op, dt):
    """Every pair of special values, tensor (i, j) = SPECIAL[i], src (i, j) =
    SPECIAL[j]: a 2D box over the whole tensor, no swizzle (padding columns
    hold 1.0 + 1.0)."""
    esz = ESZ[dt]
    sp = SPECIAL.get(dt) or SPECIAL[esz]
    n = len(sp)
    w = rup(n * esz, 16) // esz
    one = sp[2]
    T = b"".join(((sp[i] if i < n else one)).to_bytes(esz, "little") for j in range(n) for i in range(w))
    S = b"".join(((sp[j] if i < n else one)).to_bytes(esz, "little") for j in range(n) for i in range(w))
    tm = {"name": "tm", "encode": "tiled", "data_type": dt, "rank": 2,
          "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": [w, n], "global_strides": [w * esz],
          "box_dim": [w, n], "element_strides": [1, 1], "interleave": "NONE", "swizzle": "NONE",
          "l2_promotion": "NONE", "oob_fill": "NONE"}
    c = base_case("red_special_%s_%s_0" % (op, dt.lower()), "reduce_tile")
    c["dynamic_shared_bytes"] = 1024 + rup(len(S), 128)
    c["_inputs"] = {"tensor": T, "src": S}
    c["buffers"] = [{"name": "tensor", "bytes": len(T), "init": {"file": None}},
                    {"name": "src", "bytes": len(S), "init": {"file": None}},
                    {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    c["tensor_maps"] = [tm]
    c["params"] = ([{"tensor_map": "tm"}, {"s32": OPS.index(op)}, {"s32": 2}] + [{"s32": 0}] * 5 +
                   [{"u32": 0}, {"u32": len(S)}, {"pointer": "src"}, {"pointer": "status"}])
    c["expect"] = {"buffers": [{"name": "tensor"}, {"name": "status"}]}
    return c


def gen_il_im2col(i, r):
    """im2col through interleaved maps with data in bounds: corners, offsets,
    traversal strides and channels_per_pixel varied independently, so that
    the walk over dimensions 0..rank-3 shows."""
    rank = r.choice([3, 4, 5])
    dt = pick_dt(r)
    il = r.choice(["16B", "32B"])
    sw = r.choice(["NONE", "32B", "32B", "64B", "128B"])
    S = rank - 2
    dims = [r.randint(2, 10)] + [r.randint(2, 7) for _ in range(S - 1)] + [r.randint(1, 3), r.randint(1, 3)]
    es = [r.choice([1, 1, 2, 3]) for _ in range(rank)]
    lim = min(CORNER[rank], 4)
    lo = [r.randint(-lim, 1) for _ in range(S)]
    up = [r.randint(-2, lim) for _ in range(S)]
    for d in range(S):
        if dims[d] + up[d] - lo[d] <= 0: up[d] = lo[d] - dims[d] + 1
    unit = 16 // ESZ[dt]
    cpp = unit * r.randint(1, 4)
    ppc = r.choice([4, 8, 16, 24, 32, 48, 64])
    slice_ = SLICE[il]
    st = make_strides(dims, dims[0] * slice_, slice_, r)
    oob = "NAN_REQUEST_ZERO_FMA" if dt in FLOATS and r.random() < 0.3 else "NONE"
    tm = {"name": "tm", "encode": "im2col", "data_type": dt, "rank": rank,
          "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": dims, "global_strides": st,
          "pixel_box_lower_corner": lo, "pixel_box_upper_corner": up, "channels_per_pixel": cpp,
          "pixels_per_column": ppc, "element_strides": es, "interleave": il, "swizzle": sw,
          "l2_promotion": "NONE", "oob_fill": oob}
    if tensor_extent(tm) > MAXTENSOR:
        return None
    co = []
    for d in range(S):  # walked dimensions: inside the box, mostly inside the tensor
        a, b = lo[d], dims[d] - 1 + up[d]
        inb = [x for x in range(max(a, 0), min(b, dims[d] - 1) + 1)]
        co.append(r.choice(inb) if inb and r.random() < 0.8 else r.randint(a, b))
    co.append(r.randint(0, dims[rank - 2] - 1) if r.random() < 0.9 else dims[rank - 2])   # pinned
    co.append(r.randint(0, dims[rank - 1] - 1))                                          # image
    if r.random() < 0.12:  # just outside the box in one walked dimension: a fault
        d = r.randrange(S)
        co[d] = r.choice([lo[d] - 1, dims[d] + up[d]])
    offs = [r.choice([0, 0, 0, 0, 1, 2]) if d < S else 0 for d in range(3)]
    tx, foot = model(tm, "load")
    smem_off = 128 * r.randint(0, 3)
    c = base_case("ld_il2col_%04d" % i, "load_im2col")
    nbytes = finish_load(c, tm, r, tx, foot, smem_off)
    c["buffers"] = [tensor_buffer(c, tm, r, False), {"name": "dst", "bytes": nbytes, "init": {"fill": 0}},
                    {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    c["tensor_maps"] = [tm]
    c["params"] = ([{"tensor_map": "tm"}, {"s32": rank}] + [{"s32": x} for x in co + [0] * (5 - rank)] +
                   [{"u16": o} for o in offs] +
                   [{"u32": tx}, {"u32": smem_off}, {"u32": nbytes}, {"pointer": "dst"}, {"pointer": "status"}])
    c["expect"] = {"buffers": [{"name": "dst"}, {"name": "status"}]}
    return c


def gen_granule(i, r, red):
    """Stores / reductions whose box runs past a dimension 0 that does not
    end on 16 bytes (the granule rule), rows spaced so that bytes past the
    end stay visible."""
    dt = r.choice(["UINT8", "UINT16", "FLOAT16", "INT32", "UINT32", "FLOAT32", "UINT64", "FLOAT64"])
    if red:
        dt = r.choice([d for d in ("UINT32", "INT32", "UINT64", "FLOAT16", "FLOAT32", "FLOAT64") if d in LEGAL["add"]])
    esz = ESZ[dt]
    unit = 16 // esz
    rank = r.choice([1, 2, 2, 3])
    d0 = r.randint(1, 5 * unit)
    while d0 % unit == 0:
        d0 = r.randint(1, 5 * unit)
    box0 = unit * r.randint(1, 4)
    dims = [d0] + [r.randint(1, 4) for _ in range(rank - 1)]
    st = []
    acc = rup(d0 * esz, 16) + 16 * r.randint(1, 3)
    for k in range(1, rank):
        st.append(acc)
        acc *= dims[k]
    sw = r.choice(["NONE", "NONE", "32B", "64B", "128B"])
    while SPAN[sw] and box0 * esz > SPAN[sw]:
        sw = "NONE"
    tm = {"name": "tm", "encode": "tiled", "data_type": dt, "rank": rank,
          "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": dims, "global_strides": st,
          "box_dim": [box0] + [r.randint(1, 3) for _ in range(rank - 1)], "element_strides": [1] * rank,
          "interleave": "NONE", "swizzle": sw, "l2_promotion": "NONE", "oob_fill": "NONE"}
    c0 = max(0, (d0 - r.randint(1, box0)) // unit * unit)
    co = [c0] + [r.randint(0, max(0, dims[k] - 1)) for k in range(1, rank)]
    _, foot = model(tm, "store")
    nbytes = rup(foot, 128)
    op = "add" if red else None
    c = base_case(("red_gran_%04d" if red else "st_gran_%04d") % i, "reduce_tile" if red else "store_tile")
    c["dynamic_shared_bytes"] = 1024 + nbytes
    size = rup(tensor_extent(tm), 16) + 64
    c["buffers"] = [{"name": "tensor", "bytes": size, "init": {"hash32": r.getrandbits(31)}},
                    {"name": "src", "bytes": nbytes, "init": {"hash32": r.getrandbits(31)}},
                    {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    if red and dt in FLOATS:
        c["_inputs"] = {"tensor": craft(dt, size, r), "src": craft(dt, nbytes, r)}
        c["buffers"][0]["init"] = {"file": None}
        c["buffers"][1]["init"] = {"file": None}
    c["tensor_maps"] = [tm]
    p = [{"tensor_map": "tm"}] + ([{"s32": 0}] if red else [])
    p += [{"s32": rank}] + [{"s32": x} for x in co + [0] * (5 - rank)]
    p += [{"u32": 0}, {"u32": nbytes}, {"pointer": "src"}, {"pointer": "status"}]
    c["params"] = p
    c["expect"] = {"buffers": [{"name": "tensor"}, {"name": "status"}]}
    return c


def gen_im2col_nstride(i, r):
    """im2col (no interleave) with a traversal stride on the image
    dimension and pixel walks that wrap from image to image."""
    rank = r.choice([3, 4, 5])
    dt = r.choice(["UINT8", "FLOAT16", "FLOAT32", "UINT64", "BFLOAT16"])
    esz = ESZ[dt]
    S = rank - 2
    unit = 16 // esz
    cpp = unit * r.randint(1, 2)
    C = cpp + unit * r.randint(0, 1)
    sp = [r.randint(1, 3) for _ in range(S)]
    N = r.randint(4, 7)
    dims = [C] + sp + [N]
    es = [1] + [r.choice([1, 1, 2]) for _ in range(S)] + [r.choice([2, 3])]
    lo = [r.randint(-1, 0) for _ in range(S)]
    up = [r.randint(0, 1) for _ in range(S)]
    box = 1
    for d in range(S):
        box *= cdiv(sp[d] + up[d] - lo[d], es[d + 1])
    ppc = min(256, box * r.randint(2, 4) + r.randint(0, 2))
    sw = r.choice(["NONE", "32B", "64B", "128B"])
    while SPAN[sw] and cpp * esz > SPAN[sw]:
        sw = "NONE"
    st = make_strides(dims, C * esz, 16, r)
    tm = {"name": "tm", "encode": "im2col", "data_type": dt, "rank": rank,
          "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": dims, "global_strides": st,
          "pixel_box_lower_corner": lo, "pixel_box_upper_corner": up, "channels_per_pixel": cpp,
          "pixels_per_column": ppc, "element_strides": es, "interleave": "NONE", "swizzle": sw,
          "l2_promotion": "NONE", "oob_fill": "NONE"}
    tx, foot = model(tm, "load")
    if foot > MAXFOOT or tensor_extent(tm) > MAXTENSOR:
        return None
    co = [0] + [r.randint(max(lo[d], 0), sp[d] - 1) for d in range(S)] + [r.randint(0, 1)]
    c = base_case("ld_im2col_nst_%04d" % i, "load_im2col")
    nbytes = finish_load(c, tm, r, tx, foot, 0)
    c["buffers"] = [tensor_buffer(c, tm, r, False), {"name": "dst", "bytes": nbytes, "init": {"fill": 0}},
                    {"name": "status", "bytes": 16, "init": {"fill": 0}}]
    c["tensor_maps"] = [tm]
    c["params"] = ([{"tensor_map": "tm"}, {"s32": rank}] + [{"s32": x} for x in co + [0] * (5 - rank)] +
                   [{"u16": 0}] * 3 +
                   [{"u32": tx}, {"u32": 0}, {"u32": nbytes}, {"pointer": "dst"}, {"pointer": "status"}])
    c["expect"] = {"buffers": [{"name": "dst"}, {"name": "status"}]}
    return c


def main():
    cases = []
    cases += take(gen_load_tile, 300, R)
    cases += take(gen_load_im2col, 120, R)
    cases += take(gen_store, 90, R)
    # reductions: every legal op x type pair three times, a few illegal pairs
    for op in OPS:
        for dt in LEGAL[op]:
            cases += take(gen_store, 3, R, op, dt)
    illegal = [(op, dt) for op in OPS for dt in DT if dt not in LEGAL[op]]
    for op, dt in R.sample(illegal, 14):
        cases += take(gen_store, 1, R, op, dt)
    # second batch (its own seed, so the first stays as it was)
    R2 = random.Random(SEED + 1)
    for op, dt in [("add", d) for d in ("FLOAT16", "BFLOAT16", "FLOAT32", "FLOAT32_FTZ", "TFLOAT32",
                                         "TFLOAT32_FTZ", "FLOAT64")] + \
                  [(o, d) for o in ("min", "max") for d in ("FLOAT16", "BFLOAT16")]:
        cases += encodes([gen_red_special(op, dt)])
    cases += take(gen_il_im2col, 64, R2)
    cases += take(gen_granule, 16, R2, False)
    cases += take(gen_granule, 12, R2, True)
    # third batch: the image dimension's traversal stride without interleave
    R3 = random.Random(SEED + 2)
    cases += take(gen_im2col_nstride, 16, R3)
    # unique, stable names; the crafted inputs' files
    kinds = {}
    for c in cases:
        pre = c["name"].rsplit("_", 1)[0]
        kinds[pre] = kinds.get(pre, 0) + 1
        c["name"] = "%s_%03d" % (pre, kinds[pre] - 1)
        for b in c["expect"]["buffers"]:
            b["file"] = "expected/%s.%s.bin" % (c["name"], b["name"])
        for buf, data in c.pop("_inputs", {}).items():
            fn = "%s.%s.bin" % (c["name"], buf)
            INPUTS[fn] = data
            [b for b in c["buffers"] if b["name"] == buf][0]["init"] = {"file": "inputs/" + fn}
    os.makedirs(os.path.join(OUT, "inputs"), exist_ok=True)
    for fn, data in INPUTS.items():
        open(os.path.join(OUT, "inputs", fn), "wb").write(data)
    with open(os.path.join(OUT, "cases.jsonl"), "w") as f:
        for c in cases:
            f.write(json.dumps(c, separators=(",", ":")) + "\n")
    print(len(cases), "cases,", len(INPUTS), "input files")


if __name__ == "__main__":
    main()
