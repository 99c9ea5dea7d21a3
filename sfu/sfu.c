/* sfu.c — special values, argument reductions and the instruction
 * sequences ptxas builds around MUFU, for every .approx form (sfu.h).
 *
 * Forms not reconstructed from the hardware yet compute the exact function
 * in the host's libm and round once; their comment says so.
 */
#include <math.h>
#include <string.h>
#include "sfu/sfu.h"

#define QNAN32 0x7fffffffu   /* the canonical NaN every f32 MUFU result uses */

static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline bool is_sub32(uint32_t x) { return (x & 0x7f800000u) == 0 && (x & 0x7fffffu); }
static inline uint32_t flush32(uint32_t x) { return is_sub32(x) ? x & 0x80000000u : x; }
static inline uint32_t out32(float r, bool ftz)
{
    if (isnan(r))
        return QNAN32;
    uint32_t u = f2u(r);
    return ftz ? flush32(u) : u;
}

/* ---- forms still computed from the exact function ---------------------- */

static uint32_t exact_f32(int which, uint32_t x, bool ftz)
{
    float a = u2f(ftz ? flush32(x) : x), r;
    switch (which) {
    case 0: r = 1.0f / a; break;
    case 1: r = 1.0f / sqrtf(a); break;
    case 2: r = sqrtf(a); break;
    case 3: r = exp2f(a); break;
    case 4: r = log2f(a); break;
    case 5: r = sinf(a); break;
    case 6: r = cosf(a); break;
    default: r = tanhf(a); break;
    }
    return out32(r, ftz);
}

uint32_t sfu_rcp(uint32_t x, bool ftz) { return exact_f32(0, x, ftz); }
uint32_t sfu_rsqrt(uint32_t x, bool ftz) { return exact_f32(1, x, ftz); }
uint32_t sfu_sqrt(uint32_t x, bool ftz) { return exact_f32(2, x, ftz); }
uint32_t sfu_ex2(uint32_t x, bool ftz) { return exact_f32(3, x, ftz); }
uint32_t sfu_lg2(uint32_t x, bool ftz) { return exact_f32(4, x, ftz); }
uint32_t sfu_sin(uint32_t x, bool ftz) { return exact_f32(5, x, ftz); }
uint32_t sfu_cos(uint32_t x, bool ftz) { return exact_f32(6, x, ftz); }
uint32_t sfu_tanh(uint32_t x) { return exact_f32(7, x, false); }

/* div.approx: a * MUFU.RCP(b).  div.full.f32 on sm_90 (SASS of
 * probe_sm90.ptx):
 *   |b| > 2^126        ? a *= 0.25, b *= 0.25    (so 1/b stays normal)
 *   |b| < 2^-126       ? a *= 2^24, b *= 2^24    (not with .ftz)
 *   d = a * MUFU.RCP(b) */
uint32_t sfu_div_approx(uint32_t ua, uint32_t ub, bool ftz)
{
    float a = u2f(ftz ? flush32(ua) : ua), b = u2f(ftz ? flush32(ub) : ub);
    return out32(a * (1.0f / b), ftz);
}

uint32_t sfu_div_full(uint32_t ua, uint32_t ub, bool ftz)
{
    float a = u2f(ua), b = u2f(ub), r;
    if (ftz) {
        a = u2f(flush32(ua));
        b = u2f(flush32(ub));
        if (fabsf(b) > 0x1p126f) {
            a = u2f(flush32(f2u(a * 0.25f)));
            b = u2f(flush32(f2u(b * 0.25f)));
        }
        r = u2f(flush32(f2u(a * (1.0f / b))));
    } else {
        if (fabsf(b) > 0x1p126f) {
            a *= 0.25f;
            b *= 0.25f;
        }
        if (fabsf(b) < 0x1p-126f) {
            a *= 0x1p24f;
            b *= 0x1p24f;
        }
        r = a * (1.0f / b);
    }
    return isnan(r) ? QNAN32 : f2u(r);
}

/* ---- 16-bit forms -------------------------------------------------------- */

static float h2f(uint16_t h)
{
    uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400), (int)e - 25);
    return (h & 0x8000) ? -v : v;
}
/* round to nearest even into f16 (sb = 10 fraction bits, 5 exponent bits) or bf16 */
static uint16_t f2h(float f, bool bf)
{
    if (isnan(f))
        return 0x7fff;
    uint32_t u = f2u(f);
    if (bf) {
        uint32_t r = u + 0x7fffu + ((u >> 16) & 1);
        return (uint16_t)(r >> 16);
    }
    uint16_t s = (u >> 16) & 0x8000;
    float a = fabsf(f);
    if (a >= 65520.0f)
        return s | 0x7c00;
    if (a < 0x1p-14f) {   /* subnormal range: a multiple of 2^-24 */
        float q = nearbyintf(a * 0x1p24f);
        return s | (uint16_t)q;
    }
    uint32_t ua = f2u(a), r = ua + 0xfffu + ((ua >> 13) & 1);
    return s | (uint16_t)(((r >> 13) - ((127 - 15) << 10)));
}

uint16_t sfu_ex2_f16(uint16_t x) { return f2h(exp2f(h2f(x)), false); }
uint16_t sfu_tanh_f16(uint16_t x) { return f2h(tanhf(h2f(x)), false); }
static float bf2f(uint16_t h, bool ftz)
{
    uint32_t u = (uint32_t)h << 16;
    return u2f(ftz ? flush32(u) : u);
}
static uint16_t bf_out(float r, bool ftz)
{
    uint16_t h = f2h(r, true);
    if (ftz && (h & 0x7f80) == 0)
        h &= 0x8000;
    return h;
}
uint16_t sfu_ex2_bf16(uint16_t x) { return bf_out(exp2f(bf2f(x, true)), true); }
uint16_t sfu_tanh_bf16(uint16_t x) { return bf_out(tanhf(bf2f(x, false)), false); }

/* ---- f64 ----------------------------------------------------------------- */

/* rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 are one MUFU.RCP64H /
 * MUFU.RSQ64H: they read only the high word of a (sign, exponent and 20
 * mantissa bits), flush subnormals, and write only the high word of the
 * result (the low word is 0).  A NaN anywhere, also from a negative rsqrt,
 * gives 0x7fffffff00000000.  The high word is modelled as the truncated
 * exact result: the H100 agrees for 93% of the 2^20 mantissas of rcp and
 * is one unit of the high word above it for the other 7%. */
static uint64_t f64_hi_approx(bool rcp, uint64_t ua)
{
    uint64_t h = ua & 0xffffffff00000000ull;
    if ((h & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
        return 0x7fffffff00000000ull;
    double v = u2d(h);
    if (fpclassify(v) == FP_SUBNORMAL)
        v = copysign(0.0, v);
    double r = rcp ? 1.0 / v : 1.0 / sqrt(v);
    if (isnan(r))
        return 0x7fffffff00000000ull;
    if (fpclassify(r) == FP_SUBNORMAL)
        r = copysign(0.0, r);
    return d2u(r) & 0xffffffff00000000ull;
}

uint64_t sfu_rcp_f64(uint64_t x) { return f64_hi_approx(true, x); }

/* rsqrt.approx.f64: one rounding from the long double quotient (it came
 * back correctly rounded on every value the device probe tried) */
uint64_t sfu_rsqrt_f64(uint64_t x, bool ftz)
{
    if (ftz)
        return f64_hi_approx(false, x);
    double a = u2d(x);
    if (isnan(a))
        return x | 0x0008000000000000ull;
    double d = (double)(1.0L / sqrtl((long double)a));
    return isnan(d) ? 0xfff8000000000000ull : d2u(d);
}
