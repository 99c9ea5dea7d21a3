import os, json, torch, triton, triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor
out = os.environ.get("OUT", "/tmp/out"); os.makedirs(out, exist_ok=True)
print("triton", triton.__version__)
res = {}
def save(name, k, ok):
    open(f"{out}/{name}.ptx", "w").write(k.asm["ptx"])
    res[name] = {"shared": k.metadata.shared, "num_warps": k.metadata.num_warps, "ok": bool(ok)}
    print(name, "ok" if ok else "MISMATCH", "shared", k.metadata.shared, "warps", k.metadata.num_warps)

@triton.jit
def tma_ksum(desc, y_ptr, K, BM: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    acc = tl.zeros([BM, BK], dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        acc += desc.load([pm * BM, k]).to(tl.float32)
    offs_m = pm * BM + tl.arange(0, BM)
    tl.store(y_ptr + offs_m[:, None] * BK + tl.arange(0, BK)[None, :], acc)

@triton.jit
def hist(x_ptr, h_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(h_ptr + (x & 63), 1, mask=offs < n)

@triton.jit
def scan_sort(x_ptr, c_ptr, s_ptr, N: tl.constexpr):
    r = tl.program_id(0)
    x = tl.load(x_ptr + r * N + tl.arange(0, N))
    tl.store(c_ptr + r * N + tl.arange(0, N), tl.cumsum(x, axis=0))
    tl.store(s_ptr + r * N + tl.arange(0, N), tl.sort(x, dim=0))

@triton.jit
def casts(x_ptr, a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(a_ptr + offs, x.to(tl.float8e4nv).to(tl.float32), mask=m)
    tl.store(b_ptr + offs, x.to(tl.bfloat16).to(tl.float32), mask=m)
    tl.store(c_ptr + offs, x.to(tl.float8e5).to(tl.float16).to(tl.float32), mask=m)

@triton.jit
def intops(a_ptr, b_ptr, q_ptr, r_ptr, h_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=1)
    b = tl.load(b_ptr + offs, mask=m, other=1)
    b = tl.where(b == 0, 7, b)
    tl.store(q_ptr + offs, a // b, mask=m)
    tl.store(r_ptr + offs, a % b, mask=m)
    tl.store(h_ptr + offs, tl.umulhi(a.to(tl.uint32), b.to(tl.uint32)).to(tl.int32) ^ (a >> 3) ^ (b << 5), mask=m)

@triton.jit
def fmath(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    r = tl.maximum(x, y) + tl.minimum(x, y) * 0.5
    r += tl.div_rn(x, y) + tl.sqrt_rn(tl.abs(x)) + tl.fma(x, y, -1.0)
    tl.store(o_ptr + offs, r, mask=m)

@triton.jit
def tma3d(desc, odesc, B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr):
    i = tl.program_id(0); j = tl.program_id(1)
    t = desc.load([i * B0, j * B1, 0])
    odesc.store([i * B0, j * B1, 0], (t.to(tl.float32) * 3.0 - 1.0).to(tl.bfloat16))

torch.manual_seed(0)
# tma_ksum: x [64, 512] f16, BM=32, BK=64
x = torch.randn(64, 512, device="cuda", dtype=torch.float16); y = torch.zeros(64, 64, device="cuda")
d = TensorDescriptor.from_tensor(x, [32, 64])
k = tma_ksum[(2,)](d, y, 512, BM=32, BK=64)
ref = x.float().reshape(64, 8, 64).sum(1)
save("tma_ksum", k, torch.allclose(y, ref, atol=1e-2))
xi = torch.randint(0, 1000, (5000,), device="cuda", dtype=torch.int32); h = torch.zeros(64, device="cuda", dtype=torch.int32)
k = hist[(5,)](xi, h, 5000, BLOCK=1024); save("hist", k, torch.equal(h, torch.bincount(xi & 63, minlength=64).int()))
xs = torch.randint(-1000, 1000, (4, 128), device="cuda", dtype=torch.int32); c = torch.empty_like(xs); s = torch.empty_like(xs)
k = scan_sort[(4,)](xs, c, s, N=128); save("scan_sort", k, torch.equal(c, xs.cumsum(1).int()) and torch.equal(s, xs.sort(1).values))
xf = torch.randn(3000, device="cuda") * 100; a = torch.empty_like(xf); b = torch.empty_like(xf); cc = torch.empty_like(xf)
k = casts[(3,)](xf, a, b, cc, 3000, BLOCK=1024); save("casts", k, True)
ai = torch.randint(-2**31, 2**31 - 1, (3000,), device="cuda", dtype=torch.int32); bi = torch.randint(-1000, 1000, (3000,), device="cuda", dtype=torch.int32)
q = torch.empty_like(ai); r = torch.empty_like(ai); hh = torch.empty_like(ai)
k = intops[(3,)](ai, bi, q, r, hh, 3000, BLOCK=1024); save("intops", k, True)
xa = torch.randn(3000, device="cuda"); ya = torch.randn(3000, device="cuda"); o = torch.empty_like(xa)
k = fmath[(3,)](xa, ya, o, 3000, BLOCK=1024); save("fmath", k, True)
x3 = torch.randn(16, 24, 32, device="cuda", dtype=torch.bfloat16); y3 = torch.zeros_like(x3)
d3 = TensorDescriptor.from_tensor(x3, [8, 8, 32]); o3 = TensorDescriptor.from_tensor(y3, [8, 8, 32])
k = tma3d[(2, 3)](d3, o3, B0=8, B1=8, B2=32); save("tma3d", k, torch.equal(y3, (x3.float() * 3 - 1).bfloat16()))
json.dump(res, open(f"{out}/info.json", "w"), indent=1)
