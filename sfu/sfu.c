/* sfu.c — special values, argument reductions and the instruction
 * sequences ptxas builds around MUFU, for every .approx form (sfu.h).
 * The functions themselves are in the cores' files (see below).
 */
#include <math.h>
#include <string.h>
#include "sfu/sfu.h"
#include "sfu/core.h"

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

/* ---- the unit's cores (MUFU.RCP, .RSQ, .SQRT, .EX2, .LG2, .SIN, .COS, .TANH)
 *
 * Every core but TANH reads a subnormal input as zero, and every core
 * writes a subnormal result as zero of its sign (the unit is flush-to-zero;
 * the instruction sequences below rescale around it); every NaN it writes
 * is 0x7fffffff.  Each core is the H100's own algorithm, reconstructed from
 * its outputs and checked on every f32 input (README, "The special-function
 * unit"): a table-driven quadratic interpolator with a truncated squarer,
 * in rcp.c, rsq.c (RSQ and SQRT), ex2.c, lg2.c, sincos.c and tanh.c, each
 * with its generated table (*_tab.c, written by sfu/gen/). */

enum { C_RCP, C_RSQ, C_SQRT, C_EX2, C_LG2, C_SIN, C_COS, C_TANH };

/* a result r (a normal f32) times 2^n, written by the flush-to-zero unit */
static inline uint32_t scale_ftz(float r, int n)
{
    uint32_t u = f2u(r);
    int ef = (int)((u >> 23) & 0xff) + n;
    if (ef <= 0)
        return u & 0x80000000u;
    if (ef >= 255)
        return (u & 0x80000000u) | 0x7f800000u;
    return u + (uint32_t)((int32_t)n * (1 << 23));
}

/* x normal: the interpolator's significand (rcp.c; bit for bit, H100) and
 * the exponent -e - 1 (-e for a power of two); a result below 2^-126 is
 * written as zero */
static uint32_t core_rcp(uint32_t x)
{
    uint32_t y = sfu_rcp_sig(x & 0x7fffffu), s = x & 0x80000000u;
    int ef = 253 - (int)((x >> 23) & 0xff) + (int)(y >> 24);   /* y = 2^24 only for a power of two */
    if (ef <= 0)
        return s;
    return s | (uint32_t)ef << 23 | (y & 0x7fffffu);
}

/* x > 0 normal: x = xr 4^k with xr in [1, 4); d = the bits of xr over 1.
 * MUFU.RSQ and MUFU.SQRT are reconstructed bit for bit (rsq.c); the
 * exponent only scales the core's result (H100: every exponent agrees) */
static uint32_t core_rsq_sqrt(uint32_t x, bool rsq)
{
    int ex = (int)((x >> 23) & 0xff) - 127, k = ex >> 1;   /* floor(ex / 2) */
    uint32_t d = ((uint32_t)(ex - 2 * k) << 23) | (x & 0x7fffffu);
    return scale_ftz(u2f(sfu_core_rsq_sqrt(d, rsq)), rsq ? -k : k);
}

static uint32_t core(int fn, uint32_t x)
{
    if (fn != C_TANH)   /* MUFU.TANH keeps subnormals: tanh(x) = x there */
        x = flush32(x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return QNAN32;
    bool finite = (x & 0x7f800000u) != 0x7f800000u, zero = !(x & 0x7fffffffu), neg = x >> 31;
    double a = u2f(x), r;
    switch (fn) {
    case C_RCP:
        if (finite && !zero)
            return core_rcp(x);
        r = 1.0 / a;
        break;
    case C_RSQ:
        if (finite && !zero && !neg)
            return core_rsq_sqrt(x, true);
        r = 1.0 / sqrt(a);
        break;
    case C_SQRT:
        if (finite && !zero && !neg)
            return core_rsq_sqrt(x, false);
        r = sqrt(a);
        break;
    case C_EX2: return sfu_ex2_core(x);
    case C_LG2:
        if (finite && !zero && !neg)
            return sfu_lg2_core(x);
        r = log2(a);
        break;
    /* the argument is already in revolutions (the FMUL.RZ by 1/(2 pi)
     * before); sincos.c has the unit's algorithm, bit for bit */
    case C_SIN: case C_COS: {
        return sfu_sincos_core(x, fn == C_COS);
    }
    /* TANH: sfu/tanh.c */
    default: {
        return sfu_tanh_core(x);
    }
    }
    return out32((float)r, true);
}

/* ---- the instruction sequences ptxas builds around the cores (SASS, sm_90a) */

static inline float f32mul(float a, float b) { return a * b; }   /* FMUL: round to nearest, subnormals kept */
static inline float f32mul_ftz(float a, float b)
{
    return u2f(flush32(f2u(u2f(flush32(f2u(a))) * u2f(flush32(f2u(b))))));
}
/* |x| < 2^-126 (where FSETP.GEU |x|, 2^-126 fails; not for NaN) */
static inline bool tiny(uint32_t x) { return (x & 0x7fffffffu) < 0x00800000u; }
/* |x| > 2^126 (FSETP.GT; not for NaN) */
static inline bool huge(uint32_t x) { return (x & 0x7fffffffu) > 0x7e800000u && (x & 0x7fffffffu) <= 0x7f800000u; }

/* rcp.approx.f32: s = 2^24 for |x| < 2^-126, 1/4 for |x| > 2^126, else 1;
 * d = s * MUFU.RCP(x * s), so subnormal inputs and results survive */
uint32_t sfu_rcp(uint32_t x, bool ftz)
{
    if (ftz)
        return core(C_RCP, x);
    float s = huge(x) ? 0.25f : tiny(x) ? 0x1p24f : 1.0f;
    return out32(f32mul(s, u2f(core(C_RCP, f2u(f32mul(u2f(x), s))))), false);
}

/* rsqrt / sqrt .approx.f32: |x| < 2^-126 is scaled by 2^24 and the result
 * by 2^12 / 2^-12 */
uint32_t sfu_rsqrt(uint32_t x, bool ftz)
{
    if (ftz || !tiny(x))
        return core(C_RSQ, x);
    return out32(f32mul(u2f(core(C_RSQ, f2u(f32mul(u2f(x), 0x1p24f)))), 4096.0f), false);
}

uint32_t sfu_sqrt(uint32_t x, bool ftz)
{
    if (ftz || !tiny(x))
        return core(C_SQRT, x);
    return out32(f32mul(u2f(core(C_SQRT, f2u(f32mul(u2f(x), 0x1p24f)))), 0x1p-12f), false);
}

/* ex2.approx.f32: below -126 the core gets x/2 and the result is squared
 * (FMUL), which reaches the subnormal results */
uint32_t sfu_ex2(uint32_t x, bool ftz)
{
    if (ftz || !(u2f(x) < -126.0f))
        return core(C_EX2, x);
    float r = u2f(core(C_EX2, f2u(f32mul(u2f(x), 0.5f))));
    return out32(f32mul(r, r), false);
}

/* lg2.approx.f32: |x| < 2^-126 is scaled by 2^24 and 24 subtracted (FADD) */
uint32_t sfu_lg2(uint32_t x, bool ftz)
{
    if (ftz || !tiny(x))
        return core(C_LG2, x);
    return out32(u2f(core(C_LG2, f2u(f32mul(u2f(x), 0x1p24f)))) - 24.0f, false);
}

/* sin/cos.approx(.ftz).f32: FMUL.RZ by (float)(1/(2 pi)), then the core
 * (the same code with and without .ftz: the core flushes) */
static uint32_t mul_rz_inv2pi(uint32_t x)
{
    double p = (double)u2f(x) * (double)u2f(0x3e22f983u);   /* exact: 24 x 24 bits */
    float f = (float)p;
    return f2u(f) - (fabs((double)f) > fabs(p));   /* toward zero: one step down in magnitude */
}
uint32_t sfu_sin(uint32_t x, bool ftz) { (void)ftz; return core(C_SIN, mul_rz_inv2pi(x)); }
uint32_t sfu_cos(uint32_t x, bool ftz) { (void)ftz; return core(C_COS, mul_rz_inv2pi(x)); }
uint32_t sfu_tanh(uint32_t x) { return core(C_TANH, x); }

/* div.approx.f32: |b| < 2^-126 scales a and b by 2^24; d = MUFU.RCP(b) * a.
 * div.approx.ftz.f32: d = FMUL.FTZ(a, MUFU.RCP(b)), no scaling, so a
 * divisor above 2^126 gives a zero reciprocal.
 * div.full.f32: |b| > 2^126 scales both by 1/4, |b| < 2^-126 by 2^24
 * (.ftz: only the first, with FMUL.FTZ); d = MUFU.RCP(b) * a. */
uint32_t sfu_div_approx(uint32_t ua, uint32_t ub, bool ftz)
{
    float a = u2f(ua), b = u2f(ub);
    if (ftz)
        return out32(f32mul_ftz(u2f(core(C_RCP, ub)), a), true);
    if (tiny(ub)) {
        a = f32mul(a, 0x1p24f);
        b = f32mul(b, 0x1p24f);
    }
    return out32(f32mul(u2f(core(C_RCP, f2u(b))), a), false);
}

/* div.full's operand scaling: a huge divisor (both by 1/4) and, without
 * .ftz, a tiny one (both by 2^24), so that MUFU.RCP(b) stays normal. */
static void div_full_scale(float *a, float *b, uint32_t ub, bool ftz)
{
    if (huge(ub)) {
        *a = ftz ? f32mul_ftz(*a, 0.25f) : f32mul(*a, 0.25f);
        *b = ftz ? f32mul_ftz(*b, 0.25f) : f32mul(*b, 0.25f);
    }
    if (!ftz && tiny(f2u(*b))) {
        *a = f32mul(*a, 0x1p24f);
        *b = f32mul(*b, 0x1p24f);
    }
}

uint32_t sfu_div_full(uint32_t ua, uint32_t ub, bool ftz)
{
    float a = u2f(ua), b = u2f(ub);
    div_full_scale(&a, &b, ub, ftz);
    float r = u2f(core(C_RCP, f2u(b)));
    return out32(ftz ? f32mul_ftz(r, a) : f32mul(r, a), ftz);
}

/* div.full(.ftz).f32 whose FMUL ptxas fused with the add after it
 * (contract/): the same scaling of a and b as sfu_div_full, then one FFMA,
 * a * MUFU.RCP(b) + c rounded once (.ftz: FFMA.FTZ, every operand and the
 * result flushed).  H100: Triton's layer norm `sum / N + eps`
 * (tests/hw/triton_sfu, layernorm_rand). */
uint32_t sfu_div_full_fma(uint32_t ua, uint32_t ub, uint32_t uc, bool ftz)
{
    float a = u2f(ua), b = u2f(ub), c = u2f(uc);
    div_full_scale(&a, &b, ub, ftz);
    float r = u2f(core(C_RCP, f2u(b)));
    if (ftz)
        return out32(fmaf(u2f(flush32(f2u(a))), r, u2f(flush32(uc))), true);
    return out32(fmaf(r, a, c), false);
}

/* div.full / div.approx (.ftz).f32 by an immediate b: ptxas builds the
 * same sequence as for a register but computes the reciprocal of the
 * (scaled) divisor itself, correctly rounded, and emits FMULs by
 * constants: div.full scales a and b by 1/4 when |b| > 2^126 and (without
 * .ftz) by 2^24 when b is subnormal; div.approx scales by 2^24 when b is
 * subnormal (without .ftz) and, like MUFU.RCP, writes a reciprocal below
 * 2^-126 as zero.  With the add after it fused: one FFMA.  (H100: the
 * divi_* patterns of tests/hw/contract, 18 divisors, each form.) */
static void div_imm_prep(uint32_t ua, uint32_t ub, bool ftz, bool approx, float *a, float *k)
{
    float x = u2f(ua), b = u2f(ub);
    if (!approx && huge(ub)) {
        x = ftz ? f32mul_ftz(x, 0.25f) : f32mul(x, 0.25f);
        b = f32mul(b, 0.25f);
    }
    if (!ftz && tiny(f2u(b))) {
        x = f32mul(x, 0x1p24f);
        b = f32mul(b, 0x1p24f);
    }
    float r = 1.0f / b;
    *a = x;
    *k = approx && !ftz ? u2f(flush32(f2u(r))) : r;
}

uint32_t sfu_div_imm(uint32_t ua, uint32_t ub, bool ftz, bool approx)
{
    float a, k;
    div_imm_prep(ua, ub, ftz, approx, &a, &k);
    return ftz ? out32(f32mul_ftz(a, k), true) : out32(a * k, false);
}

uint32_t sfu_div_imm_fma(uint32_t ua, uint32_t ub, uint32_t uc, bool ftz, bool approx)
{
    float a, k;
    div_imm_prep(ua, ub, ftz, approx, &a, &k);
    if (ftz)
        return out32(fmaf(u2f(flush32(f2u(a))), u2f(flush32(f2u(k))), u2f(flush32(uc))), true);
    return out32(fmaf(a, k, u2f(uc)), false);
}

/* div.approx(.ftz).f32 fused with the add after it (contract/): the same
 * scaling as sfu_div_approx, then FFMA(.FTZ) of a, MUFU.RCP(b) and c. */
uint32_t sfu_div_approx_fma(uint32_t ua, uint32_t ub, uint32_t uc, bool ftz)
{
    float a = u2f(ua), b = u2f(ub), c = u2f(uc);
    if (ftz)
        return out32(fmaf(u2f(core(C_RCP, ub)), u2f(flush32(ua)), u2f(flush32(uc))), true);
    if (tiny(ub)) {
        a = f32mul(a, 0x1p24f);
        b = f32mul(b, 0x1p24f);
    }
    return out32(fmaf(u2f(core(C_RCP, f2u(b))), a, c), false);
}

/* ---- 16-bit forms --------------------------------------------------------
 * MUFU.EX2.F16 / .BF16 and MUFU.TANH.F16 / .BF16 (one instruction each; the
 * x2 forms apply it to each half): the f32 core on the widened input, its
 * result truncated (round toward zero) to the 16-bit format, except that an
 * f16 result of 2^16 or more is Inf.  NaN gives 0x7fff.  (All 2^16 inputs
 * of each form measured on an H100: truncation of the f32 core's bits is
 * exact wherever the f32 core was measured too.) */

static uint32_t f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 31)
        return s | 0x7f800000u | (m << 13);
    if (e)
        return s | ((e + 112) << 23) | (m << 13);
    if (!m)
        return s;
    return s | f2u((float)m * 0x1p-24f);
}

static uint16_t f32_to_f16_rz(uint32_t u)
{
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    uint16_t s = (u >> 16) & 0x8000;
    uint32_t a = u & 0x7fffffffu;
    if (a >= 0x47800000u)                 /* 2^16 and above, Inf included */
        return s | 0x7c00;
    if (a < 0x38800000u)                  /* below 2^-14: multiples of 2^-24 */
        return s | (uint16_t)(u2f(a) * 0x1p24f);
    return s | (uint16_t)((((a >> 23) - 112) << 10) | ((a >> 13) & 0x3ff));
}

static uint16_t f32_to_bf16_rz(uint32_t u)
{
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return (uint16_t)(u >> 16);
}

uint16_t sfu_ex2_f16(uint16_t x) { return f32_to_f16_rz(core(C_EX2, f16_to_f32(x))); }
uint16_t sfu_tanh_f16(uint16_t x) { return f32_to_f16_rz(core(C_TANH, f16_to_f32(x))); }
uint16_t sfu_ex2_bf16(uint16_t x) { return f32_to_bf16_rz(core(C_EX2, (uint32_t)x << 16)); }
uint16_t sfu_tanh_bf16(uint16_t x) { return f32_to_bf16_rz(core(C_TANH, (uint32_t)x << 16)); }

/* ---- f64 ----------------------------------------------------------------- */

/* rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 are one MUFU.RCP64H /
 * MUFU.RSQ64H: they read only the high word of a (sign, exponent and 20
 * mantissa bits), flush subnormals, and write only the high word of the
 * result (the low word is 0).  A NaN anywhere, also from a negative rsqrt,
 * gives 0x7fffffff00000000.  The high word is the f32 core's result on the
 * same mantissa, truncated to 20 bits, with the f64 exponent (H100: over
 * all 2^21 high words of [1, 4), it differs only where the f32 core does). */
static uint64_t f64_hi_approx(bool rcp, uint64_t ua)
{
    uint64_t h = ua & 0xffffffff00000000ull;
    if ((h & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
        return 0x7fffffff00000000ull;
    int ef = (int)((h >> 52) & 0x7ff);
    if (ef > 0 && ef < 0x7ff && (rcp || !(h >> 63))) {
        int ex = ef - 1023, k = ex >> 1;
        uint32_t m20 = (uint32_t)((h >> 29) & 0x7fffffu);   /* the 20 bits, as f32 mantissa bits */
        double r;
        if (rcp)
            r = ldexp((double)u2f(core_rcp(0x3f800000u | m20)), -ex);
        else
            r = ldexp((double)u2f(core_rsq_sqrt(((uint32_t)(127 + ex - 2 * k) << 23) | m20, true)), -k);
        if (fpclassify(r) == FP_SUBNORMAL)
            r = 0.0;
        return (d2u(r) & 0x7fffffff00000000ull) | (h & 0x8000000000000000ull);
    }
    double v = u2d(h);
    if (fpclassify(v) == FP_SUBNORMAL)
        v = copysign(0.0, v);
    double r = rcp ? 1.0 / v : 1.0 / sqrt(v);
    if (isnan(r))
        return 0x7fffffff00000000ull;
    return d2u(r) & 0xffffffff00000000ull;
}

uint64_t sfu_rcp_f64(uint64_t x) { return f64_hi_approx(true, x); }

/* rsqrt.approx.f64 (SASS, sm_90a): y0 = MUFU.RSQ64H of the high word, then
 *   e = fma(x, -(y0 y0), 1), y = fma(fma(e, 3/8, 1/2), y0 e, y0);
 * zero, subnormal, negative, Inf and NaN take a slower path: +-0 -> +-Inf,
 * NaN -> x + x, negative -> 0xfff8000000000000, +Inf -> 0, subnormal x ->
 * the same steps on x 2^54, times 2^27. */
static double rsqrt_f64_steps(double x, uint64_t ux)
{
    double y0 = u2d(f64_hi_approx(false, ux));
    double e = fma(x, -(y0 * y0), 1.0);
    return fma(fma(e, 0.375, 0.5), y0 * e, y0);
}

uint64_t sfu_rsqrt_f64(uint64_t x, bool ftz)
{
    if (ftz)
        return f64_hi_approx(false, x);
    uint32_t hi = (uint32_t)(x >> 32);
    double a = u2d(x);
    if (hi - 0x00100000u < 0x7fe00000u)
        return d2u(rsqrt_f64_steps(a, x));
    if (a == 0)
        return (x & 0x8000000000000000ull) | 0x7ff0000000000000ull;
    if (isnan(a))
        return x | 0x0008000000000000ull;
    if (x >> 63)
        return 0xfff8000000000000ull;
    if (isinf(a))
        return 0;
    double s = a * 0x1p54;
    return d2u(rsqrt_f64_steps(s, d2u(s)) * 0x1p27);
}
