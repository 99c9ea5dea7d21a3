# triton_gelu_gen.py — Triton 3.6 GELU (tanh form) kernels that run tanh.approx.f32,
# .f16x2 and .bf16x2 (tl.inline_asm_elementwise), captured on the H100 with
# triton_tc_gen.py's machinery, for tests/hw/triton_gelu:
#   OUT=dir python3 triton_gelu_gen.py                 (on the GPU machine)
#   capture_cases.py triton dir/triton tests/hw/triton_gelu
import os, sys, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_tc_gen as g
import torch
import triton
import triton.language as tl


@triton.jit
def gelu_f32(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0) * 6.0
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [u], dtype=tl.float32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + t), mask=m)


@triton.jit
def gelu_f16x2(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    xf = x.to(tl.float32) * 6.0
    u = (0.7978845608028654 * (xf + 0.044715 * xf * xf * xf)).to(tl.float16)
    t = tl.inline_asm_elementwise("tanh.approx.f16x2 $0, $1;", "=r,r", [u], dtype=tl.float16, is_pure=True, pack=2)
    tl.store(y_ptr + offs, 0.5 * xf * (1.0 + t.to(tl.float32)), mask=m)


@triton.jit
def gelu_bf16x2(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    xf = x.to(tl.float32) * 6.0
    u = (0.7978845608028654 * (xf + 0.044715 * xf * xf * xf)).to(tl.bfloat16)
    t = tl.inline_asm_elementwise("tanh.approx.bf16x2 $0, $1;", "=r,r", [u], dtype=tl.bfloat16, is_pure=True, pack=2)
    tl.store(y_ptr + offs, 0.5 * xf * (1.0 + t.to(tl.float32)), mask=m)


def case(name, desc, kernel, kind, n, block, seed):
    c = g.Case(name, desc)
    x = c.tensor_hash("x", kind, [n], seed)
    y = c.tensor_zero("y", "f32", [n])

    def check():
        xf = x.float() * 6.0
        ref = torch.nn.functional.gelu(xf, approximate="tanh")
        err = (y - ref).abs().max().item()
        print(name, "max |y - torch gelu|", err, flush=True)
        return err < 0.05
    try:
        g.run(c, kernel, (triton.cdiv(n, block),), [x, y, n], {"BLOCK": block}, check)
    except Exception:
        import traceback
        traceback.print_exc()


case("gelu_f32", "Triton 3.6 GELU (tanh form) with tanh.approx.f32, x = 6 * hash32 in [2^-7, 2)", gelu_f32, "f32", 3000, 256, 91)
case("gelu_f16x2", "Triton 3.6 GELU (tanh form) with tanh.approx.f16x2 on f16", gelu_f16x2, "f16", 4000, 256, 92)
case("gelu_bf16x2", "Triton 3.6 GELU (tanh form) with tanh.approx.bf16x2 on bf16", gelu_bf16x2, "bf16", 4000, 256, 93)
json.dump(g.RESULTS, open(os.path.join(g.DIR, "results.json"), "w"), indent=1)
print("done", flush=True)
