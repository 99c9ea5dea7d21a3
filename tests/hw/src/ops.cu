// ops.cu — instruction-family coverage for the interpreter (issue #3, points
// 2 and 3): integer and bit arithmetic beyond probe.cu, comparisons and
// selects, int<->int conversions, mov packing, every memory space, atomics
// and reductions of every op and type, warp collectives, barriers, calls,
// special registers, and kernels that fault on purpose.  Each instruction
// is forced with inline PTX so that exactly it runs on the H100 (expected
// bytes: tests/hw/ops, written by gen_ops.py through ../shared/oracle).
//
//   nvcc -arch=sm_90a -ptx -O3 ops.cu -o ../ptx/ops_sm90a.ptx
#include <stdint.h>
#define A(...) asm volatile(__VA_ARGS__)

// ---- ops_int: integer, bit, compare/select, int<->int cvt, mov packing -------
// Every thread reads a[i], b[i], c[i] and writes NI words to out[i*NI + k].
#define NI 200
extern "C" __global__ void ops_int(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = a[i], y = b[i], z = c[i], r[NI];
    uint64_t X = ((uint64_t)y << 32) | x, Y = ((uint64_t)z << 32) | y, Z = ((uint64_t)x << 32) | z, l;
    uint16_t hx = (uint16_t)x, hy = (uint16_t)y, hz = (uint16_t)z, h;
    int k = 0;
#define R3(op) A(op " %0, %1, %2;" : "=r"(r[k++]) : "r"(x), "r"(y))
#define R4(op) A(op " %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z))
#define R2(op) A(op " %0, %1;" : "=r"(r[k++]) : "r"(x))
#define L(v) do { uint64_t v_ = (v); r[k++] = (uint32_t)v_; r[k++] = (uint32_t)(v_ >> 32); } while (0)
#define L3(op) do { A(op " %0, %1, %2;" : "=l"(l) : "l"(X), "l"(Y)); L(l); } while (0)
#define L3S(op) do { A(op " %0, %1, %2;" : "=l"(l) : "l"(X), "r"(y)); L(l); } while (0)
#define L2(op) do { A(op " %0, %1;" : "=l"(l) : "l"(X)); L(l); } while (0)
#define HS(op) do { A(op " %0, %1, %2;" : "=h"(h) : "h"(hx), "r"(y)); r[k++] = h; } while (0)
#define H3(op) do { A(op " %0, %1, %2;" : "=h"(h) : "h"(hx), "h"(hy)); r[k++] = h; } while (0)
    /* 32-bit arithmetic */
    R3("add.u32"); R3("sub.u32"); R3("mul.lo.u32"); R3("mul.lo.s32"); R3("mul.hi.s32");
    A("mul.wide.u32 %0, %1, %2;" : "=l"(l) : "r"(x), "r"(y)); L(l);
    A("mad.wide.s32 %0, %1, %2, %3;" : "=l"(l) : "r"(x), "r"(y), "l"(Z)); L(l);
    A("mad.wide.u32 %0, %1, %2, %3;" : "=l"(l) : "r"(x), "r"(y), "l"(Z)); L(l);
    R4("mad.lo.u32"); R4("mad.hi.u32"); R4("mad.hi.s32"); R4("mad.hi.sat.s32");
    R3("mul24.lo.u32"); R3("mul24.hi.u32"); R3("mul24.hi.s32");
    R4("mad24.lo.u32"); R4("mad24.lo.s32"); R4("mad24.hi.u32"); R4("mad24.hi.s32"); R4("mad24.hi.sat.s32");
    R4("sad.s32"); R2("abs.s32"); R2("neg.s32"); R3("min.u32"); R3("max.s32");
    R3("min.relu.s32"); R3("max.relu.s32");
    /* carry chains */
    A("{.reg .u32 t; sub.cc.u32 t, %1, %2; subc.u32 %0, %3, %1;}" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("{.reg .u32 t, u; add.cc.u32 t, %1, %2; addc.cc.u32 u, %3, %2; addc.u32 %0, 0, 0;}" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("{.reg .u32 t, u; sub.cc.u32 t, %1, %2; subc.cc.u32 u, %3, %1; subc.u32 %0, 5, 0;}" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("{.reg .u32 t; mad.lo.cc.u32 t, %1, %2, %3; madc.hi.u32 %0, %1, %2, 0;}" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("{.reg .u32 t; mad.hi.cc.u32 t, %1, %2, %3; madc.lo.cc.u32 t, %1, %3, %2; addc.u32 %0, 0, 0;}" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    /* 16-bit */
    H3("add.u16"); H3("sub.s16"); H3("mul.lo.u16"); H3("mul.hi.s16"); H3("mul.hi.u16");
    H3("min.s16"); H3("max.u16"); HS("shl.b16"); HS("shr.s16"); HS("shr.u16");
    H3("div.u16"); H3("rem.s16"); H3("and.b16"); H3("xor.b16");
    A("mul.wide.u16 %0, %1, %2;" : "=r"(r[k++]) : "h"(hx), "h"(hy));
    A("mul.wide.s16 %0, %1, %2;" : "=r"(r[k++]) : "h"(hx), "h"(hy));
    A("not.b16 %0, %1;" : "=h"(h) : "h"(hx)); r[k++] = h;
    A("cnot.b16 %0, %1;" : "=h"(h) : "h"((uint16_t)(hx & hz))); r[k++] = h;
    A("mad.lo.u16 %0, %1, %2, %3;" : "=h"(h) : "h"(hx), "h"(hy), "h"(hz)); r[k++] = h;
    /* 64-bit */
    L3("add.u64"); L3("sub.s64"); L3("mul.lo.u64"); L3("mul.hi.u64"); L3("mul.hi.s64");
    L3("div.u64"); L3("rem.s64"); L3("rem.u64"); L3("min.s64"); L3("max.u64");
    L3S("shl.b64"); L3S("shr.u64"); L3S("shr.s64");
    L2("abs.s64"); L2("neg.s64"); L2("not.b64"); L2("brev.b64");
    A("mad.lo.u64 %0, %1, %2, %3;" : "=l"(l) : "l"(X), "l"(Y), "l"(Z)); L(l);
    A("mad.hi.s64 %0, %1, %2, %3;" : "=l"(l) : "l"(X), "l"(Y), "l"(Z)); L(l);
    A("popc.b64 %0, %1;" : "=r"(r[k++]) : "l"(X));
    A("clz.b64 %0, %1;" : "=r"(r[k++]) : "l"(Z >> (x & 63)));
    A("bfind.u64 %0, %1;" : "=r"(r[k++]) : "l"(Z >> (y & 63)));
    A("bfind.s64 %0, %1;" : "=r"(r[k++]) : "l"(X));
    A("bfind.shiftamt.u64 %0, %1;" : "=r"(r[k++]) : "l"(Y));
    A("bfe.u64 %0, %1, %2, %3;" : "=l"(l) : "l"(X), "r"(y & 0xff), "r"(z & 0xff)); L(l);
    A("bfe.s64 %0, %1, %2, %3;" : "=l"(l) : "l"(X), "r"(y & 0x7f), "r"(z & 0x7f)); L(l);
    A("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(l) : "l"(Y), "l"(X), "r"(z & 0xff), "r"((z >> 8) & 0xff)); L(l);
    A("and.b64 %0, %1, %2;" : "=l"(l) : "l"(X), "l"(Y)); L(l);
    A("or.b64 %0, %1, %2;" : "=l"(l) : "l"(X), "l"(Y)); L(l);
    A("{.reg .u32 lo, hi; add.cc.u32 lo, %1, %3; addc.u32 hi, %2, %4; mov.b64 %0, {lo, hi};}" : "=l"(l) : "r"(x), "r"(y), "r"(z), "r"(x)); L(l);
    /* bitwise / bit manipulation, 32-bit */
    R3("and.b32"); R3("or.b32"); R3("xor.b32"); R2("not.b32");
    A("cnot.b32 %0, %1;" : "=r"(r[k++]) : "r"(x & y));
    R2("brev.b32"); R2("clz.b32"); R2("popc.b32"); R2("bfind.u32"); R2("bfind.shiftamt.s32");
    R4("prmt.b32.b4e"); R4("prmt.b32.rc8"); R4("prmt.b32.ecr");
    R4("shf.l.wrap.b32"); R4("shf.r.clamp.b32");
    A("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("lop3.b32 %0, %1, %2, %3, 0x1b;" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    R4("dp4a.u32.u32"); R4("dp4a.s32.s32"); R4("dp4a.u32.s32");
    R4("dp2a.lo.u32.u32"); R4("dp2a.hi.s32.s32"); R4("dp2a.lo.s32.u32"); R4("dp2a.hi.u32.s32");
    A("{.reg .pred p, q; setp.ne.u32 q, %3, 0; lop3.or.b32 %0|p, %1, %2, %3, 0x96, q; @p add.u32 %0, %0, 1;}" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    /* compare and select */
    A("{.reg .pred p; setp.lt.s32 p, %1, %2; selp.u32 %0, 1, 0, p;}" : "=r"(r[k++]) : "r"(x), "r"(y));
    A("{.reg .pred p; setp.lo.u32 p, %1, %2; selp.u32 %0, 1, 0, p;}" : "=r"(r[k++]) : "r"(x), "r"(y));
    A("{.reg .pred p, q, s; setp.ge.s32 s, %3, 0; setp.eq.and.u32 p|q, %1, %2, s; selp.u32 %0, 2, 0, p; @q add.u32 %0, %0, 1;}" : "=r"(r[k++]) : "r"(x & 3), "r"(y & 3), "r"(z));
    A("{.reg .pred p, q, s; setp.ge.s32 s, %3, 0; setp.gt.or.s16 p|q, %1, %2, !s; selp.u32 %0, 2, 0, p; @q add.u32 %0, %0, 1;}" : "=r"(r[k++]) : "h"(hx), "h"(hy), "r"(z));
    A("{.reg .pred p, q, s; setp.ge.s32 s, %3, 0; setp.hs.xor.u64 p|q, %1, %2, s; selp.u32 %0, 2, 0, p; @q add.u32 %0, %0, 1;}" : "=r"(r[k++]) : "l"(X), "l"(Y), "r"(z));
    A("{.reg .pred p; setp.ne.b64 p, %1, %2; selp.u32 %0, 1, 0, p;}" : "=r"(r[k++]) : "l"(X & 0xf0f), "l"(Y & 0xf0f));
    R3("set.lt.u32.s32"); R3("set.ls.u32.u32"); R3("set.eq.s32.b32");
    A("set.gt.f32.s32 %0, %1, %2;" : "=r"(r[k++]) : "r"(x), "r"(y));
    A("{.reg .pred s; setp.ge.s32 s, %3, 0; set.le.and.u32.s32 %0, %1, %2, s;}" : "=r"(r[k++]) : "r"(x), "r"(y), "r"(z));
    A("{.reg .pred s; setp.ge.s32 s, %3, 0; set.hi.or.u32.u64 %0, %1, %2, !s;}" : "=r"(r[k++]) : "l"(X), "l"(Y), "r"(z));
    R4("slct.u32.s32"); R4("slct.b32.f32"); R4("slct.ftz.s32.f32");
    A("slct.s64.s32 %0, %1, %2, %3;" : "=l"(l) : "l"(X), "l"(Y), "r"(z)); L(l);
    A("{.reg .pred p; setp.ne.u32 p, %3, 0; selp.b64 %0, %1, %2, p;}" : "=l"(l) : "l"(X), "l"(Y), "r"(z & 1)); L(l);
    /* int <-> int conversions (wider registers hold the extended value) */
    R2("cvt.u8.u32"); R2("cvt.s8.u32"); R2("cvt.u16.s32"); R2("cvt.s16.u32");
    R2("cvt.sat.s8.s32"); R2("cvt.sat.u8.s32"); R2("cvt.sat.s16.s32"); R2("cvt.sat.u16.u32");
    R2("cvt.sat.s8.u32"); R2("cvt.sat.u32.s32"); R2("cvt.sat.s32.u32");
    A("cvt.s64.s32 %0, %1;" : "=l"(l) : "r"(x)); L(l);
    A("cvt.u64.s16 %0, %1;" : "=l"(l) : "h"(hx)); L(l);
    A("cvt.s64.s8 %0, %1;" : "=l"(l) : "r"(x)); L(l);
    A("cvt.sat.u32.s64 %0, %1;" : "=r"(r[k++]) : "l"(X));
    A("cvt.sat.s32.s64 %0, %1;" : "=r"(r[k++]) : "l"(X));
    A("cvt.sat.s32.u64 %0, %1;" : "=r"(r[k++]) : "l"(X));
    A("cvt.sat.s64.u64 %0, %1;" : "=l"(l) : "l"(X)); L(l);
    A("cvt.sat.u64.s64 %0, %1;" : "=l"(l) : "l"(X)); L(l);
    A("cvt.sat.s8.s16 %0, %1;" : "=h"(h) : "h"(hx)); r[k++] = h;
    A("cvt.u32.u16 %0, %1;" : "=r"(r[k++]) : "h"(hx));
    A("cvt.s32.s16 %0, %1;" : "=r"(r[k++]) : "h"(hx));
    R4("cvt.pack.sat.u8.s32.b32"); R4("cvt.pack.sat.s8.s32.b32");
    R3("cvt.pack.sat.u16.s32"); R3("cvt.pack.sat.s16.s32");
    /* mov packing */
    A("mov.b32 %0, {%1, %2};" : "=r"(r[k++]) : "h"(hx), "h"(hz));
    A("{.reg .b16 p, q; mov.b32 {p, q}, %1; mov.b32 %0, {q, p};}" : "=r"(r[k++]) : "r"(x));
    A("mov.b64 %0, {%1, %2, %3, %4};" : "=l"(l) : "h"(hx), "h"(hy), "h"(hz), "h"((uint16_t)(x >> 16))); L(l);
    A("{.reg .b16 p, q, s, t; mov.b64 {p, q, s, t}, %1; mov.b64 %0, {t, s, q, p};}" : "=l"(l) : "l"(X)); L(l);
    A("{.reg .b32 p, q; mov.b64 {p, q}, %1; add.u32 %0, p, q;}" : "=r"(r[k++]) : "l"(X));
    /* szext / bmsk / fns with the other modes */
    R3("szext.wrap.s32"); R3("szext.clamp.u32");
    A("fns.b32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y & 31), "r"((int)(z % 33)));
    A("fns.b32 %0, %1, %2, %3;" : "=r"(r[k++]) : "r"(x), "r"(y & 31), "r"(-(int)(z % 33)));
    while (k < NI) r[k++] = 0xa5a5a5a5u;
    for (int j = 0; j < NI; j++) out[i * NI + j] = r[j];
}

// ---- ops_mem: every state space, vector forms, generic addressing ------------
// One CTA of 64 threads; thread t writes NM words to out[t*NM + k].
#define NM 48
__constant__ uint32_t ctab[64] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5,
                                   0, 2, 8, 8, 4, 1, 9, 7, 1, 6, 9, 3, 9, 9, 3, 7, 5, 1, 0, 5, 8, 2, 0, 9, 7, 4, 9, 4, 4, 5, 9, 2 };
__device__ uint32_t gvar[64] = { 10, 20, 30, 40 };
__device__ uint64_t gvar64 = 0x1122334455667788ull;
struct S8 { uint32_t a; uint16_t b; uint8_t c, d; };
extern __shared__ uint4 dyn[];

__device__ __noinline__ uint32_t by_ref(const uint32_t *p, int n)
{
    uint32_t s = 0;
    for (int i = 0; i < n; i++) s = s * 31 + p[i];
    return s;
}

extern "C" __global__ void ops_mem(const uint32_t *in, uint32_t *out, uint32_t *gout, S8 sp, uint8_t small, int16_t neg)
{
    __shared__ uint32_t sw[64];
    __shared__ uint8_t sb[256];
    int t = threadIdx.x, k = 0;
    uint32_t r[NM];
    uint32_t v0, v1, v2, v3;
    uint64_t q0, q1, gp;
    uint16_t h;
    const uint32_t *pin = in + 4 * t;
    /* global: scalar widths with sign/zero extension, vectors */
    A("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "l"(pin));
    r[k++] = v0 ^ v1; r[k++] = v2 + v3;
    A("ld.global.v2.u64 {%0, %1}, [%2];" : "=l"(q0), "=l"(q1) : "l"(pin));
    r[k++] = (uint32_t)(q0 >> 32); r[k++] = (uint32_t)q1;
    A("ld.global.s8 %0, [%1+1];" : "=r"(r[k++]) : "l"(pin));
    A("ld.global.u8 %0, [%1+2];" : "=r"(r[k++]) : "l"(pin));
    A("ld.global.s16 %0, [%1+2];" : "=r"(r[k++]) : "l"(pin));
    A("ld.global.v2.s16 {%0, %1}, [%2+4];" : "=r"(v0), "=r"(v1) : "l"(pin)); r[k++] = v0; r[k++] = v1;
    A("ld.global.v4.u8 {%0, %1, %2, %3}, [%4+8];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "l"(pin));
    r[k++] = v0 | v1 << 8 | v2 << 16 | v3 << 24 ^ 0x01010101u;
    A("ld.global.s8 %0, [%1+3];" : "=h"(h) : "l"(pin)); r[k++] = h;
    A("ld.volatile.global.u32 %0, [%1+12];" : "=r"(r[k++]) : "l"(pin));
    A("ld.global.nc.u32 %0, [%1+4];" : "=r"(r[k++]) : "l"(pin));
    A("ldu.global.u32 %0, [%1];" : "=r"(r[k++]) : "l"(in + 5));
    A("ld.relaxed.gpu.global.u32 %0, [%1+8];" : "=r"(r[k++]) : "l"(pin));
    A("ld.acquire.gpu.global.u32 %0, [%1+4];" : "=r"(r[k++]) : "l"(pin));
    A("prefetch.global.L2 [%0];" :: "l"(pin));
    A("prefetchu.L1 [%0];" :: "l"(pin));
    /* global stores: vectors, narrow, volatile, release */
    uint32_t *go = gout + 8 * t;
    A("st.global.v2.u32 [%0], {%1, %2};" :: "l"(go), "r"(pin[0]), "r"(pin[1]));
    A("st.global.u8 [%0+8], %1;" :: "l"(go), "r"(0x1234u + t));
    A("st.global.u16 [%0+10], %1;" :: "l"(go), "h"((uint16_t)(0xbeef - t)));
    A("st.volatile.global.u32 [%0+12], %1;" :: "l"(go), "r"((uint32_t)t * 3));
    A("st.release.gpu.global.v2.u16 [%0+16], {%1, %2};" :: "l"(go), "h"((uint16_t)t), "h"((uint16_t)~t));
    A("st.global.v4.u8 [%0+20], {%1, %2, %3, %4};" :: "l"(go), "r"(1u), "r"(2u + t), "r"(3u), "r"(0x104u));
    A("st.global.u64 [%0+24], %1;" :: "l"(go), "l"(gvar64 + t));
    /* module variables: .const with initialiser, .global with initialiser */
    r[k++] = ctab[(t * 7) & 63];
    { uint32_t cv; A("{.reg .u64 base; mov.u64 base, ctab; ld.const.u32 %0, [base+12];}" : "=r"(cv)); r[k++] = cv; }
    { uint64_t gen; A("cvta.const.u64 %0, ctab;" : "=l"(gen)); uint32_t cv; A("ld.u32 %0, [%1+20];" : "=r"(cv) : "l"(gen)); r[k++] = cv; }
    r[k++] = gvar[t & 3];
    atomicAdd(&gvar[4 + (t & 7)], (uint32_t)t);
    /* shared: static, vectors, narrow, dynamic, shared addresses */
    sw[t] = pin[0];
    for (int j = 0; j < 4; j++) sb[4 * t + j] = (uint8_t)(pin[1] >> (8 * j));
    dyn[t] = make_uint4(pin[0], pin[1], pin[2], pin[3]);
    __syncthreads();
    { uint32_t sa = (uint32_t)__cvta_generic_to_shared(sw); uint32_t o = sa + 4 * ((t + 1) & 63);
      A("ld.shared.u32 %0, [%1];" : "=r"(r[k++]) : "r"(o));
      A("ld.shared.s8 %0, [%1];" : "=r"(r[k++]) : "r"(o + 3));
      A("ld.shared.v2.u16 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(o)); r[k++] = v1 << 16 | v0; }
    { uint32_t da; uint64_t d64; A("cvta.to.shared.u64 %0, %1;" : "=l"(d64) : "l"((uint64_t)(dyn + ((t + 5) & 63)))); da = (uint32_t)d64;
      A("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(da));
      r[k++] = v0 + v1 + v2 + v3;
      A("ld.shared.v2.u64 {%0, %1}, [%2];" : "=l"(q0), "=l"(q1) : "r"(da)); r[k++] = (uint32_t)(q0 ^ q1); }
    r[k++] = sb[(4 * t + 7) & 255];
    __syncthreads();
    /* shared: store vectors, read back generically */
    if (t < 32)
        A("st.shared.v2.u32 [%0], {%1, %2};" :: "r"((uint32_t)__cvta_generic_to_shared(&sw[2 * t])), "r"((uint32_t)t), "r"((uint32_t)t + 100));
    __syncthreads();
    { uint64_t g; A("cvta.shared.u64 %0, %1;" : "=l"(g) : "l"((uint64_t)__cvta_generic_to_shared(sw))); A("ld.u32 %0, [%1];" : "=r"(r[k++]) : "l"(g + 4 * ((t * 5) & 63))); }
    /* local: an array the compiler cannot keep in registers, local vectors */
    { uint32_t loc[16];
      for (int j = 0; j < 16; j++) loc[j] = pin[j & 3] + j;
      r[k++] = by_ref(loc, 16); }
    { uint32_t lv0, lv1;
      A("{.local .align 8 .b8 lb[16]; .reg .u64 ga, la;\n\t"
        "st.local.v2.u32 [lb], {%2, %3};\n\t"
        "st.local.u32 [lb+8], %2;\n\t"
        "mov.u64 la, lb; cvta.local.u64 ga, la;\n\t"
        "ld.u32 %0, [ga+4];\n\t"
        "ld.local.s8 %1, [lb+11];}"
        : "=r"(lv0), "=r"(lv1) : "r"(pin[2]), "r"(pin[3]));
      r[k++] = lv0; r[k++] = lv1; }
    /* kernel parameters: by value struct, narrow scalars, address of a parameter */
    r[k++] = sp.a + sp.b + sp.c * sp.d + t;
    r[k++] = (uint32_t)small + (uint32_t)(int32_t)neg;
    A("{.reg .u64 pa; mov.u64 pa, ops_mem_param_3; ld.param.u32 %0, [pa+0];}" : "=r"(r[k++]));
    A("ld.param.v2.u8 {%0, %1}, [ops_mem_param_3+6];" : "=r"(v0), "=r"(v1)); r[k++] = v0 - v1;
    A("ld.param.s8 %0, [ops_mem_param_5+1];" : "=r"(r[k++]));
    A("{.reg .u64 pa, ga; mov.u64 pa, ops_mem_param_3; cvta.param.u64 ga, pa; ld.u16 %0, [ga+4];}" : "=h"(h)); r[k++] = h;
    /* generic pointers into every window, and isspacep */
    { uint64_t gs = (uint64_t)&sw[t], gg = (uint64_t)(in + t), gl; uint32_t lloc[2] = { (uint32_t)t, 7u };
      A("{.reg .u64 la; .local .align 4 .b8 lb[4]; mov.u64 la, lb; cvta.local.u64 %0, la;}" : "=l"(gl));
      uint32_t m = 0, p;
#define SP(sp, ptr, bit) A("{.reg .pred q; isspacep." sp " q, %1; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "l"(ptr)); m |= p << bit
      SP("global", gg, 0); SP("global", gs, 1); SP("shared", gs, 2); SP("shared", gg, 3); SP("local", gl, 4);
      SP("local", gs, 5); SP("shared::cta", gs, 6); SP("shared::cluster", gs, 7); SP("const", gg, 8);
      { uint64_t gc; A("cvta.const.u64 %0, ctab;" : "=l"(gc)); gc += 4 * (t & 63);
        SP("const", gc, 9); SP("global", gc, 10); SP("param", gc, 11); SP("local", gg, 12); }
      r[k++] = m;
      A("cvta.to.global.u64 %0, %1;" : "=l"(gp) : "l"(gg));
      r[k++] = gp == gg;
      r[k++] = by_ref(lloc, 2) + by_ref(&sw[t & ~3], 4) + by_ref(in + t, 3); }
    /* volatile and ordered forms in shared and local memory */
    __syncthreads();
    A("st.volatile.shared.u32 [%0], %1;" :: "r"((uint32_t)__cvta_generic_to_shared(&sw[t])), "r"((uint32_t)t * 9));
    __syncthreads();
    A("ld.volatile.shared.u32 %0, [%1];" : "=r"(r[k++]) : "r"((uint32_t)__cvta_generic_to_shared(&sw[63 - t])));
    A("ld.relaxed.cta.shared.u32 %0, [%1];" : "=r"(r[k++]) : "r"((uint32_t)__cvta_generic_to_shared(&sw[(t + 9) & 63])));
    A("{.local .align 8 .b8 lb[8]; .reg .u64 g, la; mov.u64 la, lb; cvta.local.u64 g, la; st.u32 [g+4], %1;\n\t"
      "cvta.to.local.u64 la, g; ld.local.u32 %0, [la+4];}" : "=r"(r[k++]) : "r"(pin[1] * 3));
    A("ld.weak.global.u32 %0, [%1+8];" : "=r"(r[k++]) : "l"(pin));
    A("ld.global.L1::evict_last.u32 %0, [%1+12];" : "=r"(r[k++]) : "l"(pin));
    A("st.global.L1::no_allocate.u32 [%0+4], %1;" :: "l"(go + 512 / 8 * 0), "r"(pin[2] ^ 77));
    while (k < NM) r[k++] = 0x5a5a5a5au;
    for (int j = 0; j < NM; j++) out[t * NM + j] = r[j];
    __syncthreads();
    if (t < 8) gout[8 * 64 + t] = gvar[4 + t];
}

// ---- ops_atom: atom and red, every op and type, global / shared / generic ------
// Part 1 (private slots, so the returned old values are deterministic):
// thread t owns word t of each 64-word row of `g` (one NA-row block per CTA)
// and of a shared copy; 64-bit rows come in pairs (u64 t of the pair), 16-bit
// ones in halves.  Rows: 0-15 atom (32-bit), 16-25 red (32-bit), 26-45 64-bit,
// 46 f16/bf16, 47 cas.b16, 48 f16x2, 49 bf16x2, 50 red f16x2, 51-52 v2.f32,
// 53-56 v4.f32 (red), 57-60 v4.f16x2 (red).  Part 2:
// contended counters whose final values do not depend on the order.
#define NA 61
#define NO 64
extern "C" __global__ void ops_atom(uint32_t *g, const uint32_t *in, uint32_t *old, uint32_t *sout, uint32_t *cnt)
{
    __shared__ uint32_t s[NA * 64];
    __shared__ uint32_t sc[16];
    int t = threadIdx.x, k = 0;
    uint32_t x = in[t], y = in[64 + t], z = in[128 + t];
    uint64_t X = ((uint64_t)y << 32) | x, Y = ((uint64_t)z << 32) | y;
    uint32_t *row = g + blockIdx.x * NA * 64;
    for (int j = 0; j < NA; j++) s[j * 64 + t] = row[j * 64 + t];
    if (t < 16) sc[t] = t == 3 ? 0xffffffffu : t == 4 ? 0x7fffffffu : 0;
    __syncthreads();
    uint32_t o[NO];
    uint16_t h;
    uint64_t l;
#define G(j) (row + (j) * 64 + t)
#define SA(j) ((uint32_t)__cvta_generic_to_shared(&s[(j) * 64 + t]))
#define AT(j, op) A("atom.global." op " %0, [%1], %2;" : "=r"(o[k++]) : "l"(G(j)), "r"(y))
#define AS(j, op) A("atom.shared." op " %0, [%1], %2;" : "=r"(o[k++]) : "r"(SA(j)), "r"(y))
    AT(0, "add.u32"); AT(1, "add.s32"); AT(2, "min.u32"); AT(3, "min.s32"); AT(4, "max.u32"); AT(5, "max.s32");
    AT(6, "inc.u32"); AT(7, "dec.u32"); AT(8, "and.b32"); AT(9, "or.b32"); AT(10, "xor.b32"); AT(11, "exch.b32");
    AT(12, "add.f32");
    A("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(o[k++]) : "l"(G(13)), "r"((t & 1) ? x : y), "r"(z));
    AS(0, "add.u32"); AS(1, "add.s32"); AS(2, "min.u32"); AS(3, "min.s32"); AS(4, "max.u32"); AS(5, "max.s32");
    AS(6, "inc.u32"); AS(7, "dec.u32"); AS(8, "and.b32"); AS(9, "or.b32"); AS(10, "xor.b32"); AS(11, "exch.b32");
    AS(12, "add.f32");
    A("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(o[k++]) : "r"(SA(13)), "r"((t & 1) ? x : y), "r"(z));
    /* generic: one into global, one into shared; with .sem/.scope */
    A("atom.add.u32 %0, [%1], %2;" : "=r"(o[k++]) : "l"(G(14)), "r"(z));
    A("atom.max.s32 %0, [%1], %2;" : "=r"(o[k++]) : "l"(&s[14 * 64 + t]), "r"(z));
    A("atom.acq_rel.gpu.global.exch.b32 %0, [%1], %2;" : "=r"(o[k++]) : "l"(G(15)), "r"(z));
    A("atom.relaxed.cta.shared.inc.u32 %0, [%1], %2;" : "=r"(o[k++]) : "r"(SA(15)), "r"(z));
    /* 64-bit */
    { uint64_t *r64 = (uint64_t *)(row + 26 * 64) + t;
#define AT64(j, op) do { A("atom.global." op " %0, [%1], %2;" : "=l"(l) : "l"(r64 + (j) * 64), "l"(Y)); o[k++] = (uint32_t)l; o[k++] = (uint32_t)(l >> 32); } while (0)
      AT64(0, "add.u64"); AT64(1, "min.u64"); AT64(2, "max.s64"); AT64(3, "and.b64");
      AT64(4, "exch.b64"); AT64(5, "add.f64"); AT64(6, "min.s64"); AT64(7, "xor.b64");
      A("atom.global.cas.b64 %0, [%1], %2, %3;" : "=l"(l) : "l"(r64 + 8 * 64), "l"((t & 1) ? X : Y), "l"(X ^ Y));
      o[k++] = (uint32_t)l; o[k++] = (uint32_t)(l >> 32);
      A("red.global.add.f64 [%0], %1;" :: "l"(r64 + 9 * 64), "l"(Y));
      A("atom.shared.or.b64 %0, [%1], %2;" : "=l"(l) : "r"((uint32_t)__cvta_generic_to_shared((uint64_t *)&s[26 * 64] + t)), "l"(Y));
      o[k++] = (uint32_t)l; o[k++] = (uint32_t)(l >> 32);
      A("red.shared.add.u64 [%0], %1;" :: "r"((uint32_t)__cvta_generic_to_shared((uint64_t *)&s[28 * 64] + t)), "l"(Y)); }
    /* 16-bit */
    { uint16_t *h16 = (uint16_t *)(row + 46 * 64) + t, hy = (uint16_t)y;
      A("atom.global.add.noftz.f16 %0, [%1], %2;" : "=h"(h) : "l"(h16), "h"(hy)); o[k++] = h;
      A("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(h) : "l"(h16 + 64), "h"(hy)); o[k++] = h;
      A("atom.global.cas.b16 %0, [%1], %2, %3;" : "=h"(h) : "l"(h16 + 128), "h"((t & 1) ? (uint16_t)x : hy), "h"((uint16_t)z)); o[k++] = h;
      A("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(o[k++]) : "l"(G(48)), "r"(y));
      A("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(o[k++]) : "l"(G(49)), "r"(y));
      A("red.global.add.noftz.f16x2 [%0], %1;" :: "l"(G(50)), "r"(y));
      A("atom.shared.add.noftz.f16 %0, [%1], %2;" : "=h"(h) : "r"((uint32_t)__cvta_generic_to_shared((uint16_t *)&s[46 * 64] + t)), "h"(hy)); o[k++] = h; }
    /* vector atomics (sm_90) */
    { float *v2p = (float *)(row + 51 * 64) + 2 * t; uint32_t o0, o1;
      A("atom.global.v2.f32.add {%0, %1}, [%2], {%3, %4};" : "=r"(o0), "=r"(o1) : "l"(v2p), "r"(y), "r"(z));
      o[k++] = o0; o[k++] = o1;
      A("red.global.v4.f32.add [%0], {%1, %2, %3, %1};" :: "l"((float *)(row + 53 * 64) + 4 * t), "r"(x), "r"(y), "r"(z));
      A("red.global.add.noftz.v4.f16x2 [%0], {%1, %2, %3, %1};" :: "l"(row + 57 * 64 + 4 * t), "r"(x), "r"(y), "r"(z)); }
    /* reductions: no old value */
    A("red.global.add.u32 [%0], %1;" :: "l"(G(16)), "r"(y));
    A("red.global.min.s32 [%0], %1;" :: "l"(G(17)), "r"(y));
    A("red.global.max.u32 [%0], %1;" :: "l"(G(18)), "r"(y));
    A("red.global.inc.u32 [%0], %1;" :: "l"(G(19)), "r"(y));
    A("red.global.dec.u32 [%0], %1;" :: "l"(G(20)), "r"(y));
    A("red.global.and.b32 [%0], %1;" :: "l"(G(21)), "r"(y));
    A("red.global.or.b32 [%0], %1;" :: "l"(G(22)), "r"(y));
    A("red.global.xor.b32 [%0], %1;" :: "l"(G(23)), "r"(y));
    A("red.global.add.f32 [%0], %1;" :: "l"(G(24)), "r"(y));
    A("red.relaxed.gpu.global.max.s32 [%0], %1;" :: "l"(G(25)), "r"(y));
    A("red.shared.add.u32 [%0], %1;" :: "r"(SA(16)), "r"(y));
    A("red.shared.xor.b32 [%0], %1;" :: "r"(SA(17)), "r"(y));
    A("red.add.f32 [%0], %1;" :: "l"(&s[18 * 64 + t]), "r"(y));
    A("red.shared.min.u32 [%0], %1;" :: "r"(SA(19)), "r"(y));
    /* part 2: contended counters (global and shared), order-independent results */
    uint32_t tt = blockIdx.x * 64 + t;
    atomicAdd(&cnt[0], tt);
    atomicMax(&cnt[1], tt * 2654435761u);
    atomicMin((int *)&cnt[2], (int)(tt * 2654435761u));
    atomicOr(&cnt[3], 1u << (tt & 31));
    atomicXor(&cnt[4], tt * 40503u);
    atomicAnd(&cnt[5], ~(1u << (tt % 29)));
    atomicInc(&cnt[6], 50u);
    atomicDec(&cnt[7], 1000u);
    atomicAdd((float *)&cnt[8], (float)(tt & 15));
    atomicAdd((unsigned long long *)&cnt[10], (unsigned long long)tt << 30);
    atomicAdd((double *)&cnt[12], (double)tt * 0.5);
    A("red.global.add.u32 [%0], 1;" :: "l"(&cnt[14]));
    A("red.global.inc.u32 [%0], 9;" :: "l"(&cnt[15]));
    atomicAdd(&sc[0], tt);
    atomicInc(&sc[1], 7u);
    atomicMax((int *)&sc[2], (int)(tt * 2654435761u));
    atomicAnd(&sc[3], ~(1u << (tt & 31)));
    atomicDec(&sc[4], 0xffffffffu);
    atomicAdd((float *)&sc[5], 0.25f);
    atomicExch(&sc[6], 42u);
    atomicCAS(&sc[7], 0u, tt + 1);   /* exactly one thread wins: final value is non-zero */
    __syncthreads();
    if (t < 7) cnt[16 + blockIdx.x * 8 + t] = sc[t];
    if (t == 7) cnt[16 + blockIdx.x * 8 + 7] = sc[7] != 0;
    for (int j = 0; j < NA; j++) sout[(blockIdx.x * NA + j) * 64 + t] = s[j * 64 + t];
    while (k < NO) o[k++] = 0xdeadbeefu;
    for (int j = 0; j < NO; j++) old[(blockIdx.x * 64 + t) * NO + j] = o[j];
}

// ---- ops_warp: shfl / vote / match / redux / activemask / elect, bar.red,
// bar.arrive + bar.sync producer/consumer, barrier.sync with a count,
// membar / fence / nanosleep, calls with parameters.  Thread t of a 128-thread
// CTA writes NW words to out[(cta*128 + t)*NW + k].
#define NW 56
struct Pair { uint32_t a, b; };
__device__ __noinline__ Pair call_pair(uint32_t a, uint64_t b, uint16_t c)
{
    Pair p;
    p.a = a * 3 + (uint32_t)c;
    p.b = (uint32_t)(b >> 7) ^ a;
    return p;
}
__device__ __noinline__ uint32_t call_rec(uint32_t n, uint32_t acc)
{
    if (n == 0) return acc;
    return call_rec(n - 1, acc * 2 + (n & 1));
}

extern "C" __global__ void ops_warp(const uint32_t *in, uint32_t *out, uint32_t *flag)
{
    __shared__ uint32_t box[4][32];
    int t = threadIdx.x, lane = t & 31, w = t >> 5, k = 0;
    uint32_t v = in[blockIdx.x * 128 + t], r[NW], p;
    uint64_t V = ((uint64_t)v << 32) | (v & 7);
#define SH(mode, b, c) do { A("{.reg .pred q; shfl.sync." mode ".b32 %0|q, %2, %3, %4, -1; selp.u32 %1, 1, 0, q;}" \
                               : "=r"(r[k]), "=r"(p) : "r"(v), "r"(b), "r"(c)); r[k + 1] = p; k += 2; } while (0)
    SH("up", 1u, 0u); SH("up", 5u, 0u); SH("up", 3u, 0x1800u); SH("up", 2u, 0x1c00u);
    SH("down", 1u, 31u); SH("down", 7u, 31u); SH("down", 2u, 0x181fu); SH("down", 3u, 0x1e07u);
    SH("bfly", 1u, 31u); SH("bfly", 16u, 31u); SH("bfly", 5u, 0x181fu); SH("bfly", 3u, 0x1c03u);
    SH("idx", 0u, 31u); SH("idx", (uint32_t)(lane * 7 + 3), 31u); SH("idx", 2u, 0x181fu); SH("idx", 9u, 0x1807u);
    SH("idx", 40u, 31u); SH("down", 0u, 31u);
    /* vote / match / redux on the full warp */
    A("{.reg .pred q, s; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, -1;}" : "=r"(r[k++]) : "r"(v & 1));
    A("{.reg .pred q, s; setp.ne.u32 q, %1, 0; vote.sync.all.pred s, q, -1; selp.u32 %0, 1, 0, s;}" : "=r"(r[k++]) : "r"(v & 0x7f));
    A("{.reg .pred q, s; setp.ne.u32 q, %1, 0; vote.sync.any.pred s, q, -1; selp.u32 %0, 1, 0, s;}" : "=r"(r[k++]) : "r"(v & 0x1f000000));
    A("{.reg .pred q, s; setp.ne.u32 q, %1, 0; vote.sync.uni.pred s, !q, -1; selp.u32 %0, 1, 0, s;}" : "=r"(r[k++]) : "r"((uint32_t)w & 1));
    A("{.reg .pred q, s; setp.ne.u32 q, %1, 0; vote.sync.uni.pred s, q, -1; selp.u32 %0, 1, 0, s;}" : "=r"(r[k++]) : "r"(v & 1));
    A("match.any.sync.b32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v & 3));
    A("match.any.sync.b64 %0, %1, -1;" : "=r"(r[k++]) : "l"(V & 0x100000003ull));
    A("{.reg .pred q; match.all.sync.b32 %0|q, %2, -1; selp.u32 %1, 1, 0, q;}" : "=r"(r[k]), "=r"(r[k + 1]) : "r"(v & 3)); k += 2;
    A("{.reg .pred q; match.all.sync.b32 %0|q, %2, -1; selp.u32 %1, 1, 0, q;}" : "=r"(r[k]), "=r"(r[k + 1]) : "r"((uint32_t)w)); k += 2;
    A("{.reg .pred q; match.all.sync.b64 %0|q, %2, -1; selp.u32 %1, 1, 0, q;}" : "=r"(r[k]), "=r"(r[k + 1]) : "l"((uint64_t)w << 40)); k += 2;
    A("redux.sync.add.u32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v));
    A("redux.sync.add.s32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v >> 3));
    A("redux.sync.min.u32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v));
    A("redux.sync.max.s32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v));
    A("redux.sync.min.s32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v));
    A("redux.sync.max.u32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v));
    A("redux.sync.and.b32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v | 0x0f0f0000u));
    A("redux.sync.or.b32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v & 0x11111111u));
    A("redux.sync.xor.b32 %0, %1, -1;" : "=r"(r[k++]) : "r"(v));
    /* divergent: only the lanes of one parity take part */
    if (lane & 1) {
        A("activemask.b32 %0;" : "=r"(r[k++]));
        A("shfl.sync.bfly.b32 %0, %1, 2, 31, 0xaaaaaaaa;" : "=r"(r[k++]) : "r"(v));
        A("{.reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xaaaaaaaa;}" : "=r"(r[k++]) : "r"(v & 2));
        A("redux.sync.add.u32 %0, %1, 0xaaaaaaaa;" : "=r"(r[k++]) : "r"(v));
        A("match.any.sync.b32 %0, %1, 0xaaaaaaaa;" : "=r"(r[k++]) : "r"(v & 1));
        A("{.reg .pred q; .reg .b32 ld; elect.sync ld|q, 0xaaaaaaaa; selp.u32 %0, 1, 0, q; add.u32 %0, %0, ld;}" : "=r"(r[k++]));
    } else {
        A("activemask.b32 %0;" : "=r"(r[k++]));
        A("shfl.sync.idx.b32 %0, %1, 4, 31, 0x55555555;" : "=r"(r[k++]) : "r"(v));
        A("{.reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0x55555555;}" : "=r"(r[k++]) : "r"(v & 2));
        A("redux.sync.max.u32 %0, %1, 0x55555555;" : "=r"(r[k++]) : "r"(v));
        A("match.any.sync.b32 %0, %1, 0x55555555;" : "=r"(r[k++]) : "r"(v & 1));
        A("{.reg .pred q; .reg .b32 ld; elect.sync ld|q, 0x55555555; selp.u32 %0, 1, 0, q; add.u32 %0, %0, ld;}" : "=r"(r[k++]));
    }
    __syncwarp();
    A("{.reg .pred q; .reg .b32 ld; elect.sync ld|q, -1; selp.u32 %0, 1, 0, q; add.u32 %0, %0, ld;}" : "=r"(r[k++]));
    /* bar.red */
    A("{.reg .pred q; setp.ne.u32 q, %1, 0; bar.red.popc.u32 %0, 0, q;}" : "=r"(r[k++]) : "r"(v & 1));
    A("{.reg .pred q, s; setp.ne.u32 q, %1, 0; bar.red.and.pred s, 1, q; selp.u32 %0, 1, 0, s;}" : "=r"(r[k++]) : "r"((uint32_t)(t != 77)));
    A("{.reg .pred q, s; setp.ne.u32 q, %1, 0; bar.red.or.pred s, 2, q; selp.u32 %0, 1, 0, s;}" : "=r"(r[k++]) : "r"((uint32_t)(t == 77)));
    A("{.reg .pred q, s; setp.ne.u32 q, %1, 0; barrier.red.or.pred s, 3, !q; selp.u32 %0, 1, 0, s;}" : "=r"(r[k++]) : "r"(1u));
    /* producer/consumer: warps 0,1 produce, warps 2,3 consume through named barrier 5 */
    if (w < 2) {
        box[w][lane] = v * 5 + 1;
        A("membar.cta;");
        A("bar.arrive 5, 128;");
        r[k++] = 0;
    } else {
        A("bar.sync 5, 128;");
        r[k++] = box[w - 2][31 - lane];
    }
    /* barrier with a count: only warps 2 and 3 take part */
    if (w >= 2) {
        box[w][lane] = v ^ 0x5555u;
        A("barrier.sync 6, 64;");
        r[k++] = box[5 - w][lane];
    } else r[k++] = 1;
    __syncthreads();
    A("fence.acq_rel.gpu;");
    A("fence.sc.cta;");
    A("membar.gl;");
    A("membar.sys;");
    A("nanosleep.u32 %0;" :: "r"(v & 255));
    A("nanosleep.u32 20;");
    A("barrier.sync.aligned 0;");
    A("bar.warp.sync -1;");
    /* calls with parameters and return values, recursion */
    { Pair pr = call_pair(v, V, (uint16_t)t); r[k++] = pr.a; r[k++] = pr.b; }
    r[k++] = call_rec(v & 15, t);
    /* grid-level: the last CTA to finish sees every CTA's count */
    if (t == 0) atomicAdd(flag, 1u);
    while (k < NW) r[k++] = 0xc0ffee00u;
    for (int j = 0; j < NW; j++) out[(blockIdx.x * 128 + t) * NW + j] = r[j];
}

// ---- ops_sreg: special registers, with and without clusters -----------------
// Each thread writes NS words to out[linear thread in grid * NS + k].
#define NS 40
extern "C" __global__ void ops_sreg(uint32_t *out)
{
    uint32_t r[NS], v;
    int k = 0;
#define SR(name) do { A("mov.u32 %0, " name ";" : "=r"(v)); r[k++] = v; } while (0)
    SR("%tid.x"); SR("%tid.y"); SR("%tid.z"); SR("%ntid.x"); SR("%ntid.y"); SR("%ntid.z");
    SR("%ctaid.x"); SR("%ctaid.y"); SR("%ctaid.z"); SR("%nctaid.x"); SR("%nctaid.y"); SR("%nctaid.z");
    SR("%laneid"); SR("%nwarpid");
    SR("%clusterid.x"); SR("%clusterid.y"); SR("%clusterid.z");
    SR("%nclusterid.x"); SR("%nclusterid.y"); SR("%nclusterid.z");
    SR("%cluster_ctaid.x"); SR("%cluster_ctaid.y"); SR("%cluster_ctaid.z");
    SR("%cluster_nctaid.x"); SR("%cluster_nctaid.y"); SR("%cluster_nctaid.z");
    SR("%cluster_ctarank"); SR("%cluster_nctarank");
    A("{.reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q;}" : "=r"(v)); r[k++] = v;
    SR("%lanemask_lt"); SR("%lanemask_ge");
    SR("%dynamic_smem_size");
    { uint32_t wid, nw, sm, nsm; A("mov.u32 %0, %%warpid;" : "=r"(wid)); A("mov.u32 %0, %%nwarpid;" : "=r"(nw));
      A("mov.u32 %0, %%smid;" : "=r"(sm)); A("mov.u32 %0, %%nsmid;" : "=r"(nsm));
      r[k++] = (wid < nw) | (sm < nsm) << 1; }
    { uint64_t c0, c1, g0; uint32_t lo = 0;
      A("mov.u64 %0, %%clock64;" : "=l"(c0)); A("mov.u32 %0, %%clock;" : "=r"(lo));
      A("mov.u64 %0, %%globaltimer;" : "=l"(g0));
      for (int j = 0; j < 4; j++) A("nanosleep.u32 100;");
      A("mov.u64 %0, %%clock64;" : "=l"(c1));
      r[k++] = (c1 > c0) | (g0 != 0) << 1; (void)lo; }
    uint32_t tpb = blockDim.x * blockDim.y * blockDim.z;
    uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    uint32_t tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    while (k < NS) r[k++] = 0;
    for (int j = 0; j < NS; j++) out[(cta * tpb + tid) * NS + j] = r[j];
}

// ---- ops_fault: one thread (CTA 1, thread 37) makes an illegal access --------
// mode selects the access; addr is its address (where the mode takes one).
// The hardware's verdict is the case's expected launch status.
extern "C" __global__ void ops_fault(uint32_t *buf, int mode, uint64_t addr)
{
    __shared__ uint32_t sm[256];
    int t = threadIdx.x;
    uint32_t v = 0;
    sm[t] = t;
    __syncthreads();
    if (blockIdx.x == 1 && t == 37) {
        switch (mode) {
        case 0: A("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(addr)); break;
        case 1: A("ld.global.u32 %0, [%1+2];" : "=r"(v) : "l"(buf)); break;
        case 2: A("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((uint32_t)addr)); break;
        case 3: A("ld.u32 %0, [%1];" : "=r"(v) : "l"(addr)); break;
        case 4: A("st.shared.u64 [%0+4], %1;" :: "r"((uint32_t)__cvta_generic_to_shared(sm)), "l"(addr)); break;
        case 5: A("atom.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(addr)); break;
        case 6: A("st.global.v4.u32 [%0+8], {%1, %1, %1, %1};" :: "l"(buf), "r"(v)); break;
        case 7: A("trap;"); break;
        case 8: A("st.global.u32 [%0], %1;" :: "l"(addr), "r"(v)); break;
        case 9: A("st.u32 [%0], %1;" :: "l"(addr), "r"(v)); break;
        /* the generic address of a .const variable: a store, an atomic and
         * global loads through it do not fault (each touches its own word:
         * the module, ctab included, lives on between launches) */
        case 10: { uint64_t gc; uint32_t v1, v2, v3; A("cvta.const.u64 %0, ctab;" : "=l"(gc));
                   A("st.u32 [%0+8], %1;" :: "l"(gc), "r"(99u));
                   A("ld.global.u32 %0, [%1+8];" : "=r"(v1) : "l"(gc));
                   A("atom.add.u32 %0, [%1+16], 1;" : "=r"(v2) : "l"(gc));
                   A("ld.global.u32 %0, [%1+24];" : "=r"(v3) : "l"(gc));
                   v = v1 * 10000 + v2 * 100 + v3; break; }
        }
    }
    buf[blockIdx.x * blockDim.x + t] = v + sm[(t + 1) & 255];
}

// ---- ops_cluster: distributed shared memory inside a cluster -----------------
// Grid of 8 CTAs in clusters of 4, 64 threads each.  Thread t writes NC words
// to out[(cta*64 + t)*NC + k].
#define NC 16
extern "C" __global__ void __cluster_dims__(4, 1, 1) ops_cluster(uint32_t *out)
{
    __shared__ uint32_t s[64];
    __shared__ uint32_t cnt[4];
    int t = threadIdx.x, k = 0;
    uint32_t r[NC], rank, nrank;
    A("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    A("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
    s[t] = rank * 1000 + t;
    if (t < 4) cnt[t] = 0;
    A("barrier.cluster.arrive.release;");
    A("barrier.cluster.wait.acquire;");
    uint32_t peer = (rank + 1) % nrank, me = (uint32_t)__cvta_generic_to_shared(&s[t]), pa;
    A("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(pa) : "r"(me), "r"(peer));
    A("ld.shared::cluster.u32 %0, [%1];" : "=r"(r[k++]) : "r"(pa));
    { uint64_t g; A("mapa.u64 %0, %1, %2;" : "=l"(g) : "l"((uint64_t)&s[(t + 3) & 63]), "r"((rank + 2) % nrank));
      A("ld.u32 %0, [%1];" : "=r"(r[k++]) : "l"(g));
      A("getctarank.u64 %0, %1;" : "=r"(r[k++]) : "l"(g));
      uint32_t p; A("{.reg .pred q; isspacep.shared::cluster q, %1; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "l"(g)); r[k++] = p;
      A("{.reg .pred q; isspacep.shared::cta q, %1; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "l"(g)); r[k++] = p;
      A("{.reg .pred q; isspacep.shared::cta q, %1; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "l"((uint64_t)&s[t])); r[k++] = p; }
    A("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r[k++]) : "r"(pa));
    /* atomics on a peer's shared memory */
    { uint32_t ca; A("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ca) : "r"((uint32_t)__cvta_generic_to_shared(&cnt[0])), "r"(peer));
      A("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(r[k]) : "r"(ca)); r[k] = r[k] < 64; k++;
      A("red.shared::cluster.add.u32 [%0], %1;" :: "r"(ca + 4), "r"((uint32_t)t));
      A("red.shared::cluster.max.u32 [%0], %1;" :: "r"(ca + 8), "r"((uint32_t)t * rank)); }
    A("barrier.cluster.arrive;");
    A("barrier.cluster.wait;");
    r[k++] = cnt[0]; r[k++] = cnt[1]; r[k++] = cnt[2];
    /* store into the peer, read back our own after the cluster barrier */
    A("st.shared::cluster.u32 [%0], %1;" :: "r"(pa), "r"(rank * 7 + (uint32_t)t * 3));
    A("barrier.cluster.arrive.aligned;");
    A("barrier.cluster.wait.aligned;");
    r[k++] = s[t];
    A("barrier.cluster.arrive.relaxed.aligned;");
    A("barrier.cluster.wait;");
    while (k < NC) r[k++] = 0;
    for (int j = 0; j < NC; j++) out[(blockIdx.x * 64 + t) * NC + j] = r[j];
}

// ---- ops_exit: threads that exit early no longer take part in bar.sync ----
extern "C" __global__ void ops_exit(uint32_t *out)
{
    int t = threadIdx.x;
    uint32_t *o = out + blockIdx.x * 256;
    o[t] = 1;
    if (t % 3 == 1) A("exit;");
    __syncthreads();
    uint32_t m, b;
    A("activemask.b32 %0;" : "=r"(m));
    o[t] = m;
    A("{.reg .pred q; setp.ne.u32 q, %2, 0; vote.sync.ballot.b32 %0, q, %1;}" : "=r"(b) : "r"(m), "r"((uint32_t)t & 4));
    o[128 + t] = b;
    A("bar.sync 1;");
    if (t == 0) o[255] = 77;
}

// ---- ops_cpasync: sm_80 cp.async with zero fill, groups and mbarrier arrive ----
// 64 threads; thread t writes 12 words to out[t*12 + k] and 1 status word.
extern "C" __global__ void ops_cpasync(const uint32_t *in, uint32_t *out)
{
    __shared__ __align__(16) uint32_t s[64 * 8];
    __shared__ __align__(16) uint32_t s2[64 * 4];
    __shared__ uint64_t mbar[2];
    int t = threadIdx.x;
    for (int j = 0; j < 8; j++) s[8 * t + j] = 0xdeadbeefu;
    for (int j = 0; j < 4; j++) s2[4 * t + j] = 0xdeadbeefu;
    uint32_t mb0 = (uint32_t)__cvta_generic_to_shared(&mbar[0]), mb1 = mb0 + 8;
    if (t == 0) {
        A("mbarrier.init.shared.b64 [%0], 64;" :: "r"(mb0));
        A("mbarrier.init.shared.b64 [%0], 64;" :: "r"(mb1));
    }
    __syncthreads();
    uint32_t sa = (uint32_t)__cvta_generic_to_shared(&s[8 * t]), sb = (uint32_t)__cvta_generic_to_shared(&s2[4 * t]);
    const uint32_t *g = in + 8 * t;
    A("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa), "l"(g));
    A("cp.async.ca.shared.global [%0+4], [%1+4], 4, 2;" :: "r"(sa), "l"(g));
    A("cp.async.ca.shared.global [%0+8], [%1+8], 8;" :: "r"(sa), "l"(g));
    A("cp.async.cg.shared.global [%0+16], [%1+16], 16, %2;" :: "r"(sa), "l"(g), "r"((uint32_t)t & 15));
    A("cp.async.commit_group;");
    A("{.reg .pred p; setp.ne.u32 p, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, p;}" :: "r"(sb), "l"(g), "r"((uint32_t)t & 1));
    A("cp.async.commit_group;");
    A("cp.async.wait_group 1;");
    A("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(mb0));
    A("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(mb1));
    A("{.reg .b64 st; mbarrier.arrive.shared.b64 st, [%0];}" :: "r"(mb1));
    uint32_t ok0 = 0, ok1 = 0;
    for (int i = 0; i < 1000000 && !(ok0 && ok1); i++) {
        A("{.reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}" : "=r"(ok0) : "r"(mb0));
        A("{.reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}" : "=r"(ok1) : "r"(mb1));
    }
    A("cp.async.wait_all;");
    __syncthreads();
    for (int j = 0; j < 8; j++) out[t * 13 + j] = s[8 * ((t + 1) & 63) + j];
    for (int j = 0; j < 4; j++) out[t * 13 + 8 + j] = s2[4 * ((t + 3) & 63) + j];
    out[t * 13 + 12] = ok0 | ok1 << 1;
}
