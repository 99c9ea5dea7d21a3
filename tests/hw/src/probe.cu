// probe.cu — numeric edge cases, each op forced with inline PTX so that the
// exact instruction (rounding mode, ftz, sat) is what runs on the H100.
// Every thread reads inputs a[i], b[i], c[i] (32-bit patterns; 64-bit kernels
// read pairs) and writes NRES results to out[i*NRES + k].
#include <stdint.h>
#define A(...) asm volatile(__VA_ARGS__)

#define NF32 40
extern "C" __global__ void probe_f32(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = a[i], y = b[i], z = c[i], r[NF32];
    uint16_t h;
    int k = 0;
#define F3(op) A(op " %0, %1, %2;" : "=r"(r[k++]) : "r"(x), "r"(y))
    F3("add.rn.f32"); F3("add.rz.f32"); F3("add.rm.f32"); F3("add.rp.f32"); F3("add.rn.ftz.f32"); F3("add.rn.sat.f32");
    F3("mul.rn.f32"); F3("mul.rz.f32"); F3("mul.rm.f32"); F3("mul.rp.f32"); F3("mul.rn.ftz.f32");
    F3("min.f32"); F3("max.f32"); F3("min.NaN.f32"); F3("max.NaN.f32"); F3("min.ftz.f32");
    F3("div.rn.f32"); F3("div.rz.f32"); F3("div.full.f32"); F3("copysign.f32");
    A("fma.rn.f32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("fma.rz.f32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("fma.rm.ftz.f32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("fma.rn.sat.f32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("sqrt.rn.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("rcp.rn.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "r"(x)); r[k++] = h;
    A("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "r"(x)); r[k++] = h;
    A("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "r"(x)); r[k++] = h;
    A("cvt.rp.f16.f32 %0, %1;" : "=h"(h) : "r"(x)); r[k++] = h;
    A("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "r"(x)); r[k++] = h;
    A("cvt.rz.bf16.f32 %0, %1;" : "=h"(h) : "r"(x)); r[k++] = h;
    A("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r[k++]) : "r"(x), "r"(y));
    A("cvt.rn.tf32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rna.tf32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rni.f32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rzi.ftz.f32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.sat.f32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    { uint16_t p; A("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(p) : "r"(x), "r"(y)); r[k++] = p; }
    { uint32_t p; A("{.reg .pred q; testp.subnormal.f32 q, %1; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "r"(x)); r[k++] = p; }
    for (int j = 0; j < NF32; j++) out[i * NF32 + j] = r[j];
}

#define NCVT 30
extern "C" __global__ void probe_cvt(const uint32_t *a, const uint32_t *b, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = a[i], r[NCVT];
    uint64_t l;
    int k = 0;
    A("cvt.rni.s32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rzi.s32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rmi.s32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rpi.s32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rni.u32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rzi.u32.f32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    { uint16_t s; A("cvt.rni.s16.f32 %0, %1;" : "=h"(s) : "r"(x)); r[k++] = s; }
    { uint16_t s; A("cvt.rni.u8.f32 %0, %1;" : "=h"(s) : "r"(x)); r[k++] = s; }
    A("cvt.rni.s64.f32 %0, %1;" : "=l"(l) : "r"(x)); r[k++] = (uint32_t)l; r[k++] = (uint32_t)(l >> 32);
    A("cvt.rzi.u64.f32 %0, %1;" : "=l"(l) : "r"(x)); r[k++] = (uint32_t)l; r[k++] = (uint32_t)(l >> 32);
    A("cvt.rn.f32.s32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rz.f32.s32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rm.f32.u32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("cvt.rp.f32.u32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    { uint16_t h = (uint16_t)x; A("cvt.f32.f16 %0, %1;" : "=r"(r[k++]) : "h"(h)); }
    { uint16_t h = (uint16_t)x; A("cvt.f32.bf16 %0, %1;" : "=r"(r[k++]) : "h"(h)); }
    { uint16_t h = (uint16_t)(x >> 16), g = (uint16_t)x, o;
      A("add.rn.f16 %0, %1, %2;" : "=h"(o) : "h"(h), "h"(g)); r[k++] = o;
      A("mul.rn.f16 %0, %1, %2;" : "=h"(o) : "h"(h), "h"(g)); r[k++] = o;
      A("fma.rn.f16 %0, %1, %2, %2;" : "=h"(o) : "h"(h), "h"(g)); r[k++] = o;
      A("add.rn.bf16 %0, %1, %2;" : "=h"(o) : "h"(h), "h"(g)); r[k++] = o;
      A("min.f16 %0, %1, %2;" : "=h"(o) : "h"(h), "h"(g)); r[k++] = o;
      A("max.NaN.bf16 %0, %1, %2;" : "=h"(o) : "h"(h), "h"(g)); r[k++] = o; }
    A("add.rn.f16x2 %0, %1, %2;" : "=r"(r[k++]) : "r"(x), "r"(b[i]));
    A("fma.rn.bf16x2 %0, %1, %2, %1;" : "=r"(r[k++]) : "r"(x), "r"(b[i]));
    { uint16_t s = (uint16_t)x, o; A("cvt.rn.f16.s16 %0, %1;" : "=h"(o) : "h"(s)); r[k++] = o; }
    { uint16_t h = (uint16_t)x; A("cvt.rni.s32.f16 %0, %1;" : "=r"(r[k++]) : "h"(h)); }
    { uint16_t h = (uint16_t)x; A("cvt.f64.f16 %0, %1;" : "=l"(l) : "h"(h)); r[k++] = (uint32_t)(l >> 32); }
    { uint16_t o; A("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(o) : "r"(x)); r[k++] = o; }
    for (int j = 0; j < NCVT; j++) out[i * NCVT + j] = r[j];
}

#define NF64 16
extern "C" __global__ void probe_f64(const uint64_t *a, const uint64_t *b, uint64_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t x = a[i], y = b[i], r[NF64];
    uint32_t w;
    int k = 0;
#define D3(op) A(op " %0, %1, %2;" : "=l"(r[k++]) : "l"(x), "l"(y))
    D3("add.rn.f64"); D3("add.rz.f64"); D3("add.rm.f64"); D3("mul.rp.f64"); D3("div.rn.f64"); D3("min.f64"); D3("max.f64");
    A("fma.rn.f64 %0, %1, %2, %1;" : "=l"(r[k++]) : "l"(x), "l"(y));
    A("sqrt.rn.f64 %0, %1;" : "=l"(r[k++]) : "l"(x));
    A("rcp.rn.f64 %0, %1;" : "=l"(r[k++]) : "l"(x));
    A("cvt.rn.f32.f64 %0, %1;" : "=r"(w) : "l"(x)); r[k++] = w;
    A("cvt.rz.f32.f64 %0, %1;" : "=r"(w) : "l"(x)); r[k++] = w;
    A("cvt.rzi.s64.f64 %0, %1;" : "=l"(r[k++]) : "l"(x));
    A("cvt.rni.u64.f64 %0, %1;" : "=l"(r[k++]) : "l"(x));
    A("cvt.rn.f64.s64 %0, %1;" : "=l"(r[k++]) : "l"(x));
    A("cvt.rm.f64.u64 %0, %1;" : "=l"(r[k++]) : "l"(x));
    for (int j = 0; j < NF64; j++) out[i * NF64 + j] = r[j];
}

#define NINT 36
extern "C" __global__ void probe_int(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = a[i], y = b[i], z = c[i], r[NINT];
    uint64_t l;
    int k = 0;
#define I3(op) A(op " %0, %1, %2;" : "=r"(r[k++]) : "r"(x), "r"(y))
    I3("div.s32"); I3("div.u32"); I3("rem.s32"); I3("rem.u32");
    I3("shl.b32"); I3("shr.u32"); I3("shr.s32"); I3("mul.hi.s32"); I3("mul.hi.u32");
    I3("min.s32"); I3("max.u32"); I3("add.sat.s32"); I3("sub.sat.s32"); I3("mul24.lo.s32");
    I3("bmsk.clamp.b32"); I3("bmsk.wrap.b32"); I3("szext.clamp.s32"); I3("szext.wrap.u32");
    A("bfe.u32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y & 0xff), "r"(z & 0xff));
    A("bfe.s32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y & 0xff), "r"(z & 0xff));
    A("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r[k++]) : "r"(x), "r"(z), "r"(y & 0xff), "r"((y >> 8) & 0xff));
    A("prmt.b32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("bfind.s32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("bfind.shiftamt.u32 %0, %1;" : "=r"(r[k++]) : "r"(x));
    A("fns.b32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y & 63), "r"((int)(z % 64) - 32));
    A("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("sad.u32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("mul.wide.s32 %0, %1, %2;" : "=l"(l) : "r"(x), "r"(y)); r[k++] = (uint32_t)(l >> 32);
    A("{.reg .u32 t; add.cc.u32 t, %1, %2; addc.u32 %0, %3, 0;}" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    { uint64_t p = ((uint64_t)x << 32) | y, q = ((uint64_t)z << 32) | x;
      A("div.s64 %0, %1, %2;" : "=l"(l) : "l"(p), "l"(q)); r[k++] = (uint32_t)l; }
    for (int j = 0; j < NINT; j++) out[i * NINT + j] = r[j];
}
