# triton_sfu_gen.py — capture Triton 3.6 kernels that run the special-function
# unit (ex2/lg2/rcp/rsqrt/sqrt/sin/cos/tanh .approx, div.full) on the H100,
# for the ptxi launch suite tests/hw/triton_sfu/.  Run on the GPU machine
# beside triton_tc_gen.py (whose Case/run()/hash32 machinery it reuses):
#   OUT=dir python3 triton_sfu_gen.py        (captures into dir/triton_sfu/)
# Every case is compiled, launched, checked loosely against torch, launched a
# second time (bytes must repeat) and written as dir/triton_sfu/CASE/
# (meta.json, CASE.ptx, CASE.cubin, the output buffers); then
# tests/hw/src/capture_cases.py triton turns them into launch cases.
# meta.json gains "sfu_ops": the SFU-related PTX instructions of the module.
#
# Inputs.  "rand" cases: hash32 words with and/or masks (exponent ranges
# chosen per kernel, see each case), nothing stored; a runtime "scale"
# parameter widens them where a kernel takes one (softmax temperature, the
# elementwise kernels).  "wide" cases: raw hash32 bits (every exponent:
# subnormals, huge values, Inf and NaN).  "special" cases: small stored
# inputs built by specials_f32() / the row builders below (Inf, NaN, -0,
# subnormals, overflow and underflow boundaries, huge arguments).
# 16-bit tanh: "all" cases take every 16-bit pattern from the element index.
import os, sys, json, re
import numpy as np

OUT = os.environ.get("OUT", "/tmp/out")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_tc_gen as tg  # noqa: E402  (imports torch and triton)
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

tg.DIR = os.path.join(OUT, "triton_sfu")
os.makedirs(tg.DIR, exist_ok=True)
tg.ESZ["i16"] = 2
tg.TDT["i16"] = torch.int16

try:
    from triton.language.extra import libdevice
except Exception:  # older layout
    try:
        from triton.language.extra.cuda import libdevice
    except Exception:
        libdevice = None

SFU_RE = re.compile(r"\b((?:ex2|lg2|rcp|rsqrt|sqrt|sin|cos|tanh|div)\.[a-z0-9.]+)")


def sfu_ops(ptx):
    ops = {}
    for m in SFU_RE.findall(ptx):
        ops[m] = ops.get(m, 0) + 1
    return ops


class SCase(tg.Case):
    def tensor_mask(self, name, kind, shape, seed, andm=0xFFFFFFFF, orm=0):
        n = int(np.prod(shape)) * tg.ESZ[kind]
        b = tg.hash_bytes(n, seed, andm, orm)
        t = torch.frombuffer(bytearray(b), dtype=torch.uint8).view(tg.TDT[kind]).reshape(shape).cuda()
        init = {"hash32": seed}
        if andm != 0xFFFFFFFF:
            init["and"] = andm
        if orm:
            init["or"] = orm
        self.tensors[name] = (t, init)
        return t

    def tensor_np(self, name, arr, tdt=None):
        """A stored input from a numpy array (uint32 words are taken as f32)."""
        arr = np.ascontiguousarray(arr)
        if arr.dtype == np.uint32:
            arr = arr.view(np.float32)
        open(os.path.join(self.dir, name + ".in.bin"), "wb").write(arr.tobytes())
        t = torch.from_numpy(arr.copy())
        if tdt is not None:
            t = t.view(tdt)
        t = t.cuda()
        self.tensors[name] = (t, {"file": name + ".in.bin"})
        return t


def srun(case, kernel, grid, args, kw, check=None):
    def safe():  # the torch comparison is informative only
        try:
            return check() if check else None
        except Exception as e:
            return "check raised " + repr(e)[:200]
    k = tg.run(case, kernel, grid, args, kw, safe)
    ptx = k.asm["ptx"]
    ops = sfu_ops(ptx)
    mp = os.path.join(case.dir, "meta.json")
    m = json.load(open(mp))
    m["sfu_ops"] = ops
    json.dump(m, open(mp, "w"), indent=1)
    tg.RESULTS[case.name]["sfu_ops"] = ops
    try:
        open(os.path.join(case.dir, case.name + ".cubin"), "wb").write(k.asm["cubin"])
    except Exception as e:
        print("no cubin", case.name, repr(e))
    # hash32 inputs can be regenerated: do not carry them back
    for n, (t, init) in case.tensors.items():
        if "hash32" in init:
            p = os.path.join(case.dir, n + ".bin")
            if os.path.exists(p):
                os.remove(p)
    print("  sfu_ops", ops, flush=True)
    return k


# ------------------------------------------------------------ special values

def specials_f32(seed):
    """f32 special values and boundaries (as uint32 words), then seeded
    random values around them; length a multiple of 16."""
    f = lambda v: np.float32(v).view(np.uint32)
    w = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FFFFFFF, 0xFFFFFFFF,
         0x7F800001, 0xFF800001, 0x7FA00000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
         0x80800000, 0x00400000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F7FFFFF, 0x3F800001]
    for v in (0.5, -0.5, 2, -2, 126, 127, 127.99999, 128, 128.5, 129, -125, -126, -126.5, -127, -127.5,
              -128, -149, -149.5, -150, -151, 88.72283, 88.72284, -87.33655, -103.97208, -104,
              np.pi, -np.pi, np.pi / 2, 2 * np.pi, 3 * np.pi / 2, 100, 1e4, 105414.36, 1e6, 2 ** 20,
              2 ** 24, 2 ** 30, 1e10, 1e20, 1e30, 3e38, -3e38, 1e-10, 1e-20, 1e-30, 1e-38, 1e-40, 1e-44,
              0.1, 0.7, 0.9, 0.99, 1.01, 1.5, 3.0, 4.0, 8.0, 9.0, 10.0, 15.0, 20.0, -20.0, 1e-5, 1e-4,
              5e-3, 2 ** -8, 2 ** -9, 2 ** -12, 2 ** -16, 2 ** -20, 2 ** -24, 2 ** -60, 2 ** -100,
              2 ** -126, 2 ** -127, 2 ** -130):
        w.append(int(f(v)))
        w.append(int(f(-v)))
    for e in range(-149, 128):  # every power of two
        w.append(int(f(2.0 ** e)))
    rng = np.random.default_rng(seed)
    for e in range(-30, 12):  # random mantissas over a moderate range
        for _ in range(4):
            w.append(int(f(rng.uniform(1, 2) * 2.0 ** e * rng.choice([-1, 1]))))
    for _ in range(64):  # near the ex2 overflow and underflow edges
        w.append(int(f(rng.uniform(126, 130) * rng.choice([-1, 1]))))
        w.append(int(f(rng.uniform(-152, -146))))
    while len(w) % 16:
        w.append(int(f(rng.uniform(-4, 4))))
    return np.array(w, dtype=np.uint32)


def special_rows_f32(rows, cols, seed, lo=-30.0, hi=30.0):
    """rows x cols scores: row r % 10 selects a pattern."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(lo, hi, (rows, cols)).astype(np.float32)
    for r in range(rows):
        k = r % 10
        if k == 1:   # masked scores: a third are -inf
            x[r, rng.random(cols) < 0.33] = -np.inf
        elif k == 2:  # fully masked row: every score -inf
            x[r] = -np.inf
        elif k == 3:  # one +inf
            x[r, rng.integers(0, cols)] = np.inf
        elif k == 4:  # one NaN
            x[r, rng.integers(0, cols)] = np.nan
        elif k == 5:  # huge magnitudes (differences overflow)
            x[r] = rng.uniform(-3e38, 3e38, cols)
        elif k == 6:  # subnormals, zeros and -0
            x[r] = rng.uniform(-1, 1, cols) * 2.0 ** -130
            x[r, ::7] = 0.0
            x[r, 3::7] = -0.0
        elif k == 7:  # all equal
            x[r] = 1.25
        elif k == 8:  # one dominant score, the rest far below (underflow)
            x[r] = rng.uniform(-200, -80, cols)
            x[r, rng.integers(0, cols)] = 50.0
        elif k == 9:  # wide range
            x[r] = rng.uniform(-1, 1, cols) * 2.0 ** rng.integers(-20, 8, cols)
    return x.astype(np.float32)


# masks (f32 words): sign and mantissa random
M_E120 = (0xBFFFFFFF, 0x3C000000)   # exponents 120..127: [2^-7, 2)
M_E112 = (0xBFFFFFFF, 0x38000000)   # exponents 112..127: [2^-15, 2)


# ------------------------------------------------------------ kernels

@triton.jit
def softmax_k(out_ptr, in_ptr, in_stride, out_stride, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(in_ptr + row * in_stride + offs, mask=m, other=-float("inf"))
    x = x * scale
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + offs, num / den, mask=m)


@triton.jit
def log_softmax_k(out_ptr, in_ptr, stride, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(in_ptr + row * stride + offs, mask=m, other=-float("inf")) * scale
    z = x - tl.max(x, axis=0)
    s = tl.sum(tl.exp(z), axis=0)
    tl.store(out_ptr + row * stride + offs, z - tl.log(s), mask=m)


@triton.jit
def xent_k(logits, targets, loss, grad, stride, n_cols, scale, BLOCK: tl.constexpr):
    # online log-sum-exp over column blocks with exp2/log2, then the gradient
    row = tl.program_id(0)
    base = logits + row * stride
    t = tl.load(targets + row)
    m = float("-inf")
    d = 0.0
    for i in range(0, n_cols, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < n_cols, other=float("-inf")) * scale
        mn = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp2((m - mn) * 1.4426950408889634) + tl.sum(tl.exp2((x - mn) * 1.4426950408889634), axis=0)
        m = mn
    lse = m + tl.log2(d) * 0.6931471805599453
    xt = tl.load(base + t) * scale
    tl.store(loss + row, lse - xt)
    for i in range(0, n_cols, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < n_cols, other=0.0) * scale
        p = tl.exp2((x - m) * 1.4426950408889634) / d
        p = tl.where(offs == t, p - 1.0, p)
        tl.store(grad + row * stride + offs, p, mask=offs < n_cols)


@triton.jit
def tanh_f32(x):
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=f,f", [x], dtype=tl.float32, is_pure=True,
                                     pack=1)


@triton.jit
def gelu_k(X, Y, T, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0.0) * scale
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = tanh_f32(inner)
    tl.store(T + offs, t, mask=m)
    tl.store(Y + offs, 0.5 * x * (1.0 + t), mask=m)


@triton.jit
def gelu16_k(X, Y, T, n, MODE: tl.constexpr, BLOCK: tl.constexpr):
    # MODE 0: f16 with tanh.approx.f16; 1: bf16 with tanh.approx.bf16;
    # 2: f16 with tanh.approx.f16x2 (two elements a register)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0.0)
    x = x * 4.0
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    xi = inner.to(tl.int16, bitcast=True)
    if MODE == 0:
        ti = tl.inline_asm_elementwise("tanh.approx.f16 $0, $1;", "=h,h", [xi], dtype=tl.int16, is_pure=True, pack=1)
    elif MODE == 1:
        ti = tl.inline_asm_elementwise("tanh.approx.bf16 $0, $1;", "=h,h", [xi], dtype=tl.int16, is_pure=True,
                                       pack=1)
    else:
        ti = tl.inline_asm_elementwise("tanh.approx.f16x2 $0, $1;", "=r,r", [xi], dtype=tl.int16, is_pure=True,
                                       pack=2)
    t = ti.to(x.dtype, bitcast=True)
    tl.store(T + offs, t, mask=m)
    tl.store(Y + offs, 0.5 * x * (1.0 + t), mask=m)


@triton.jit
def tanh16_all_k(Y, MODE: tl.constexpr, BLOCK: tl.constexpr):
    # every 16-bit pattern: element i is the pattern i
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    xi = offs.to(tl.int16)
    if MODE == 0:
        ti = tl.inline_asm_elementwise("tanh.approx.f16 $0, $1;", "=h,h", [xi], dtype=tl.int16, is_pure=True, pack=1)
    elif MODE == 1:
        ti = tl.inline_asm_elementwise("tanh.approx.bf16 $0, $1;", "=h,h", [xi], dtype=tl.int16, is_pure=True,
                                       pack=1)
    else:
        ti = tl.inline_asm_elementwise("tanh.approx.bf16x2 $0, $1;", "=r,r", [xi], dtype=tl.int16, is_pure=True,
                                       pack=2)
    tl.store(Y + offs, ti)


@triton.jit
def layernorm_k(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(X + row * stride + cols, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(m, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = tl.rsqrt(var + eps)
    w = tl.load(W + cols, mask=m)
    b = tl.load(B + cols, mask=m)
    tl.store(Y + row * stride + cols, xc * rstd * w + b, mask=m)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)


@triton.jit
def rmsnorm_k(X, Y, W, Rms, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(X + row * stride + cols, mask=m, other=0.0)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=m)
    tl.store(Y + row * stride + cols, x / rms * w, mask=m)
    tl.store(Rms + row, rms)


@triton.jit
def ew_k(X, Y, n, scale, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=1.0) * scale
    if FN == "exp2":
        y = tl.exp2(x)
    elif FN == "exp":
        y = tl.exp(x)
    elif FN == "log2":
        y = tl.log2(x)
    elif FN == "log":
        y = tl.log(x)
    elif FN == "sin":
        y = tl.sin(x)
    elif FN == "cos":
        y = tl.cos(x)
    elif FN == "sqrt":
        y = tl.sqrt(x)
    elif FN == "rsqrt":
        y = tl.rsqrt(x)
    elif FN == "recip":
        y = 1.0 / x
    elif FN == "tanh":
        y = tanh_f32(x)
    elif FN == "fast_sin":
        y = libdevice.fast_sinf(x)
    elif FN == "fast_cos":
        y = libdevice.fast_cosf(x)
    elif FN == "fast_log2":
        y = libdevice.fast_log2f(x)
    elif FN == "fast_log":
        y = libdevice.fast_logf(x)
    else:
        y = libdevice.fast_dividef(tl.full([BLOCK], 1.0, tl.float32), x)
    tl.store(Y + offs, y, mask=m)


@triton.jit
def attn_k(q_desc, k_desc, v_desc, o_desc, N_CTX, sm_scale, HEAD: tl.constexpr, BM: tl.constexpr,
           BN: tl.constexpr, CAUSAL: tl.constexpr):
    pm = tl.program_id(0)
    q = q_desc.load([pm * BM, 0])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, HEAD], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    rm = pm * BM + tl.arange(0, BM)
    if CAUSAL:
        hi = (pm + 1) * BM
    else:
        hi = N_CTX
    for start_n in range(0, hi, BN):
        k = k_desc.load([start_n, 0])
        v = v_desc.load([start_n, 0])
        qk = tl.dot(q, k.T)
        if CAUSAL:
            rn = start_n + tl.arange(0, BN)
            qk = tl.where(rm[:, None] >= rn[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    o_desc.store([pm * BM, 0], acc.to(o_desc.dtype))


# ------------------------------------------------------------ cases

def rowfill(c, name, mode, rows, cols, seed, lo=-30.0, hi=30.0):
    if mode == "rand":
        return c.tensor_mask(name, "f32", (rows, cols), seed, *M_E120)
    return c.tensor_np(name, special_rows_f32(rows, cols, seed, lo, hi))


@tg.guarded
def case_softmax(mode, rows, cols, scale, seed, warps=4):
    name = "softmax_" + mode
    c = SCase(name, f"Triton 3.6 row softmax (tl.exp, max-subtract, tl.sum, `/`), f32 [{rows} x {cols}] "
                    f"({mode} inputs) times a runtime scale {scale}, BLOCK {triton.next_power_of_2(cols)} "
                    f"with masked tail columns")
    X = rowfill(c, "X", mode, rows, cols, seed)
    Y = c.tensor_zero("Y", "f32", (rows, cols))
    blk = triton.next_power_of_2(cols)
    return srun(c, softmax_k, (rows,), [Y, X, cols, cols, cols, scale], dict(BLOCK=blk, num_warps=warps),
                check=lambda: tg.near(Y, torch.softmax(X * scale, 1), 1e-5))


@tg.guarded
def case_log_softmax(mode, rows, cols, scale, seed):
    name = "log_softmax_" + mode
    c = SCase(name, f"Triton 3.6 row log-softmax (tl.exp, tl.log), f32 [{rows} x {cols}] ({mode} inputs), "
                    f"runtime scale {scale}, masked tail")
    X = rowfill(c, "X", mode, rows, cols, seed)
    Y = c.tensor_zero("Y", "f32", (rows, cols))
    blk = triton.next_power_of_2(cols)
    return srun(c, log_softmax_k, (rows,), [Y, X, cols, cols, scale], dict(BLOCK=blk, num_warps=4),
                check=lambda: tg.near(Y, torch.log_softmax(X * scale, 1), 1e-4))


@tg.guarded
def case_xent(mode, rows, cols, scale, seed, blk):
    name = "xent_" + mode
    c = SCase(name, f"Triton 3.6 cross-entropy forward+gradient (online log-sum-exp over {blk}-column blocks "
                    f"with tl.exp2/tl.log2, gradient softmax - onehot with `/`), f32 logits [{rows} x {cols}] "
                    f"({mode} inputs), runtime scale {scale}")
    X = rowfill(c, "X", mode, rows, cols, seed)
    T = c.tensor_mask("T", "i32", (rows,), seed + 1, 0x1FF, 0)  # targets 0..511 < cols
    L = c.tensor_zero("L", "f32", (rows,))
    G = c.tensor_zero("G", "f32", (rows, cols))

    def chk():
        ref = torch.nn.functional.cross_entropy(X * scale, T.long(), reduction="none")
        return tg.near(L, ref, 1e-3)
    return srun(c, xent_k, (rows,), [X, T, L, G, cols, cols, scale], dict(BLOCK=blk, num_warps=4), check=chk)


@tg.guarded
def case_gelu(mode, n, scale, seed):
    name = "gelu_" + mode
    c = SCase(name, f"Triton 3.6 GELU, tanh form, f32, tanh.approx.f32 through tl.inline_asm_elementwise; "
                    f"{n} elements ({mode} inputs) times a runtime scale {scale}; outputs the tanh and the GELU")
    if mode == "rand":
        X = c.tensor_mask("X", "f32", (n,), seed, *M_E112)   # [2^-15, 2) x scale: many small arguments
    else:
        X = c.tensor_np("X", specials_f32(seed))
        n = X.numel()
    Y = c.tensor_zero("Y", "f32", (n,))
    T = c.tensor_zero("T", "f32", (n,))
    return srun(c, gelu_k, (triton.cdiv(n, 1024),), [X, Y, T, n, scale], dict(BLOCK=1024, num_warps=4),
                check=lambda: tg.near(Y, torch.nn.functional.gelu(X * scale, approximate="tanh"), 1e-3))


@tg.guarded
def case_gelu16(kind, mode_i, n, seed):
    name = {0: "gelu_f16", 1: "gelu_bf16", 2: "gelu_f16x2"}[mode_i] + "_rand"
    form = {0: "tanh.approx.f16", 1: "tanh.approx.bf16", 2: "tanh.approx.f16x2"}[mode_i]
    c = SCase(name, f"Triton 3.6 GELU, tanh form, {kind} arithmetic with {form} (inline asm); {n} elements "
                    f"(rand inputs times 4); outputs the tanh and the GELU ({kind})")
    if kind == "f16":   # exponents 0..15: subnormals up to [1, 2)
        X = c.tensor_mask("X", "f16", (n,), seed, 0xBFFFBFFF, 0)
    else:               # exponents 112..127
        X = c.tensor_mask("X", "bf16", (n,), seed, 0xBFFFBFFF, 0x38003800)
    Y = c.tensor_zero("Y", kind, (n,))
    T = c.tensor_zero("T", kind, (n,))
    return srun(c, gelu16_k, (triton.cdiv(n, 1024),), [X, Y, T, n], dict(MODE=mode_i, BLOCK=1024, num_warps=4),
                check=lambda: tg.near(Y, torch.nn.functional.gelu(X.float() * 4, approximate="tanh"), 0.05))


@tg.guarded
def case_tanh16_all(mode_i):
    name = {0: "tanh_f16_all", 1: "tanh_bf16_all", 2: "tanh_bf16x2_all"}[mode_i]
    form = {0: "tanh.approx.f16", 1: "tanh.approx.bf16", 2: "tanh.approx.bf16x2"}[mode_i]
    c = SCase(name, f"Triton 3.6 elementwise {form} (inline asm) over every 16-bit pattern (element i is "
                    f"pattern i: zeros, subnormals, Inf, NaN)")
    Y = c.tensor_zero("Y", "i16", (65536,))
    kind = torch.float16 if mode_i == 0 else torch.bfloat16
    x = torch.arange(65536, dtype=torch.int32).to(torch.int16).view(kind).float()

    def chk():
        y = Y.view(kind).float().cpu()
        ref = torch.tanh(x)
        fin = torch.isfinite(ref) & torch.isfinite(y)
        return bool(torch.allclose(y[fin], ref[fin], rtol=0.01, atol=1e-3))
    return srun(c, tanh16_all_k, (64,), [Y], dict(MODE=mode_i, BLOCK=1024, num_warps=4), check=chk)


@tg.guarded
def case_layernorm(mode, rows, cols, seed):
    name = "layernorm_" + mode
    c = SCase(name, f"Triton 3.6 layer norm forward (tutorial form: tl.sum, `/ N`, tl.rsqrt(var + eps)), "
                    f"f32 [{rows} x {cols}] ({mode} inputs), eps 1e-5; outputs Y, Mean and Rstd")
    if mode == "rand":
        X = c.tensor_mask("X", "f32", (rows, cols), seed, *M_E112)
    else:
        X = c.tensor_np("X", special_rows_f32(rows, cols, seed, -3.0, 3.0))
    W = c.tensor_mask("W", "f32", (cols,), seed + 1, *M_E120)
    B = c.tensor_mask("B", "f32", (cols,), seed + 2, *M_E120)
    Y = c.tensor_zero("Y", "f32", (rows, cols))
    Mn = c.tensor_zero("Mean", "f32", (rows,))
    Rs = c.tensor_zero("Rstd", "f32", (rows,))
    blk = triton.next_power_of_2(cols)
    return srun(c, layernorm_k, (rows,), [X, Y, W, B, Mn, Rs, cols, cols, 1e-5], dict(BLOCK=blk, num_warps=4),
                check=lambda: tg.near(Y, torch.nn.functional.layer_norm(X, (cols,), W, B, 1e-5), 1e-3))


@tg.guarded
def case_rmsnorm(mode, rows, cols, seed):
    name = "rmsnorm_" + mode
    c = SCase(name, f"Triton 3.6 RMS norm forward (x / tl.sqrt(mean(x^2) + eps) * w), f32 [{rows} x {cols}] "
                    f"({mode} inputs), eps 1e-6; outputs Y and the RMS")
    if mode == "rand":
        X = c.tensor_mask("X", "f32", (rows, cols), seed, *M_E112)
    else:
        X = c.tensor_np("X", special_rows_f32(rows, cols, seed, -3.0, 3.0))
    W = c.tensor_mask("W", "f32", (cols,), seed + 1, *M_E120)
    Y = c.tensor_zero("Y", "f32", (rows, cols))
    R = c.tensor_zero("Rms", "f32", (rows,))
    blk = triton.next_power_of_2(cols)

    def chk():
        ref = X / torch.sqrt((X * X).mean(1, keepdim=True) + 1e-6) * W
        return tg.near(Y, ref, 1e-3)
    return srun(c, rmsnorm_k, (rows,), [X, Y, W, R, cols, cols, 1e-6], dict(BLOCK=blk, num_warps=4), check=chk)


TORCH_FN = {"exp2": torch.exp2, "exp": torch.exp, "log2": torch.log2, "log": torch.log, "sin": torch.sin,
            "cos": torch.cos, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "recip": lambda x: 1.0 / x,
            "tanh": torch.tanh, "fast_sin": torch.sin, "fast_cos": torch.cos, "fast_log2": torch.log2,
            "fast_log": torch.log,
            "fast_recip": lambda x: 1.0 / x}


POSITIVE = ("log2", "log", "sqrt", "rsqrt", "fast_log2", "fast_log")


@tg.guarded
def case_ew(fn, mode, n, scale, seed):
    name = f"ew_{fn}_{mode}"
    what = {"rand": "hash32 with exponents 112..127 ([2^-15, 2), %s)" % ("positive" if fn in POSITIVE
                                                                         else "both signs"), "wide": "raw hash32 bits "
            "(every exponent: subnormals, huge, Inf, NaN)", "special": "special values and boundaries"}[mode]
    c = SCase(name, f"Triton 3.6 elementwise f32 y = {fn}(x * scale), scale {scale}, {n} elements: {what}")
    if mode == "rand" and fn in POSITIVE:  # sign cleared: [2^-15, 2)
        X = c.tensor_mask("X", "f32", (n,), seed, M_E112[0] & 0x7FFFFFFF, M_E112[1])
    elif mode == "rand":
        X = c.tensor_mask("X", "f32", (n,), seed, *M_E112)
    elif mode == "wide":
        X = c.tensor_mask("X", "f32", (n,), seed)
    else:
        X = c.tensor_np("X", specials_f32(seed))
        n = X.numel()
    Y = c.tensor_zero("Y", "f32", (n,))
    f = TORCH_FN[fn]
    return srun(c, ew_k, (triton.cdiv(n, 1024),), [X, Y, n, scale], dict(FN=fn, BLOCK=1024, num_warps=4),
                check=lambda: tg.near(Y, f(X * scale), 1e-3 if fn not in ("sin", "cos", "fast_sin", "fast_cos")
                                      else 1e-2))


@tg.guarded
def case_attn(mode, causal, NCTX, HEAD, BM, BN, seed, sm):
    name = ("attn_causal_" if causal else "attn_") + mode
    c = SCase(name, f"Triton 3.6 flash-attention forward (one head, N_CTX {NCTX}, HEAD {HEAD}, tiles {BM}x{BN}, "
                    f"{'causal, ' if causal else ''}sm_scale {sm}, {mode} f16 Q/K/V through host TensorDescriptors): "
                    f"QK^T and PV on wgmma, online softmax with tl.math.exp2, `acc / l_i`, f32 output")
    if mode == "rand":
        Q = c.tensor_mask("Q", "f16", (NCTX, HEAD), seed, *tg.MASKS["f16"])
        Kt = c.tensor_mask("K", "f16", (NCTX, HEAD), seed + 1, *tg.MASKS["f16"])
        V = c.tensor_mask("V", "f16", (NCTX, HEAD), seed + 2, *tg.MASKS["f16"])
    else:
        Q = c.tensor_special("Q", "f16", (NCTX, HEAD), seed, "A")
        Kt = c.tensor_special("K", "f16", (NCTX, HEAD), seed + 1, "B")
        V = c.tensor_special("V", "f16", (NCTX, HEAD), seed + 2, "A")
    O = c.tensor_zero("O", "f32", (NCTX, HEAD))
    dq = TensorDescriptor.from_tensor(Q, [BM, HEAD])
    dk = TensorDescriptor.from_tensor(Kt, [BN, HEAD])
    dv = TensorDescriptor.from_tensor(V, [BN, HEAD])
    do = TensorDescriptor.from_tensor(O, [BM, HEAD])

    def chk():
        s = (Q.float() @ Kt.float().T) * sm
        if causal:
            s = s.masked_fill(torch.triu(torch.ones_like(s, dtype=torch.bool), 1), float("-inf"))
        ref = torch.softmax(s, 1) @ V.float()
        return tg.near(O, ref, 0.05)
    return srun(c, attn_k, (triton.cdiv(NCTX, BM),), [dq, dk, dv, do, NCTX, sm],
                dict(HEAD=HEAD, BM=BM, BN=BN, CAUSAL=causal, num_warps=4), check=chk)


def main():
    print("triton", triton.__version__, "torch", torch.__version__, torch.cuda.get_device_name(), flush=True)
    tg._wrap_fill()
    only = os.environ.get("ONLY", "")
    want = lambda grp: not only or grp in only.split(",")
    if want("softmax"):
        case_softmax("rand", 64, 1000, 15.0, 301)
        case_softmax("special", 20, 200, 1.0, 302)
        case_log_softmax("rand", 64, 1000, 15.0, 311)
        case_log_softmax("special", 20, 200, 1.0, 312)
        case_xent("rand", 32, 1000, 15.0, 321, 256)
        case_xent("special", 20, 600, 1.0, 322, 256)
    if want("gelu"):
        case_gelu("rand", 32768, 4.0, 331)
        case_gelu("special", 0, 1.0, 332)
        case_gelu16("f16", 0, 16384, 341)
        case_gelu16("bf16", 1, 16384, 342)
        case_gelu16("f16", 2, 16384, 343)
        for mi in (0, 1, 2):
            case_tanh16_all(mi)
    if want("norm"):
        case_layernorm("rand", 128, 300, 351)
        case_layernorm("special", 20, 300, 352)
        case_rmsnorm("rand", 128, 300, 361)
        case_rmsnorm("special", 20, 300, 362)
    if want("ew"):
        scales = {"exp2": 64.0, "exp": 44.0, "log2": 1.0, "log": 1.0, "sin": 64.0, "cos": 64.0, "sqrt": 1.0,
                  "rsqrt": 1.0, "recip": 1.0, "tanh": 8.0}
        for i, (fn, sc) in enumerate(scales.items()):
            case_ew(fn, "rand", 32768, sc, 400 + 10 * i)
            case_ew(fn, "wide", 32768, 1.0, 401 + 10 * i)
            case_ew(fn, "special", 0, 1.0, 402 + 10 * i)
        if libdevice is not None:
            for i, fn in enumerate(("fast_sin", "fast_cos", "fast_log2", "fast_recip", "fast_log")):
                case_ew(fn, "rand", 32768, 64.0 if "sin" in fn or "cos" in fn else 1.0, 500 + 10 * i)
                case_ew(fn, "wide", 32768, 1.0, 501 + 10 * i)
                case_ew(fn, "special", 0, 1.0, 502 + 10 * i)
    if want("attn"):
        case_attn("rand", False, 256, 64, 64, 64, 601, 0.5)
        case_attn("rand", True, 256, 64, 64, 64, 611, 0.5)
        case_attn("special", False, 64, 64, 64, 32, 621, 0.125)
    json.dump(tg.RESULTS, open(os.path.join(tg.DIR, "results_%s.json" % (only or "all")), "w"), indent=1)


if __name__ == "__main__":
    main()
