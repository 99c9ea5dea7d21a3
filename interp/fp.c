/* fp.c — exact single-rounding float conversions, and the H100's choices
 * where IEEE 754 leaves one (NaN encodings, fp8 saturation, div.full's
 * scaling, tf32 .rna) (see fp.h). */
#include <math.h>
#include <string.h>
#include <stdbool.h>
#include "interp/fp.h"
#include "ir/ir.h"

/* Round finite v > 0 to a significand of mb fraction bits; exponents below
 * emin give subnormals.  Returns the significand q (q < 2^mb: subnormal)
 * and its exponent in *exp (the exponent of bit mb of q, >= emin); q may
 * have grown to 2^(mb+1) only if the exponent was bumped (then it is
 * renormalised).  `neg` says which way .rm/.rp go. */
static uint64_t round_sig(long double v, int mb, int emin, int mode, int neg, int *exp)
{
    int e;
    frexpl(v, &e);
    int ex = e - 1;
    if (ex < emin)
        ex = emin;
    long double s = ldexpl(v, mb - ex);
    long double fl = floorl(s), frac = s - fl;
    uint64_t q = (uint64_t)fl;
    int up = 0;
    switch (mode) {
    case FP_RZ: up = 0; break;
    case FP_RP: up = frac > 0 && !neg; break;
    case FP_RM: up = frac > 0 && neg; break;
    case FP_RNA: up = frac >= 0.5L; break;
    default: up = frac > 0.5L || (frac == 0.5L && (q & 1)); break;
    }
    q += (uint64_t)up;
    if (q >> (mb + 1)) {
        q >>= 1;
        ex++;
    }
    *exp = ex;
    return q;
}

uint64_t fp_round(long double v, int mb, int eb, int mode)
{
    uint64_t sign = signbit(v) ? 1 : 0;
    uint64_t sbit = sign << (mb + eb);
    int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    uint64_t expall = (1ull << eb) - 1;
    v = fabsl(v);
    if (v == 0)
        return sbit;
    if (isinf(v))
        return sbit | expall << mb;
    int ex;
    uint64_t q = round_sig(v, mb, emin, mode, (int)sign, &ex);
    if (!(q >> mb))   /* subnormal (ex == emin) */
        return sbit | q;
    uint64_t biased = (uint64_t)(ex + bias);
    if (biased >= expall) {
        bool to_inf = mode == FP_RN || mode == FP_RNA || (mode == FP_RP && !sign) || (mode == FP_RM && sign);
        return to_inf ? (sbit | expall << mb) : (sbit | (expall - 1) << mb | ((1ull << mb) - 1));
    }
    return sbit | biased << mb | (q & ((1ull << mb) - 1));
}

/* fp_round(d, mb, eb, FP_RN) for a double d that is not a NaN, on its bits
 * (the conversions to f16, bf16 and f32 that epilogues run per element:
 * frexpl/ldexpl on long doubles cost tens of nanoseconds each).  The tests
 * (test_interp_fp) hold it to fp_round on random and boundary values. */
static uint64_t round_f64_rn(double d, int mb, int eb)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    uint64_t sbit = (u >> 63) << (mb + eb), expall = (1ull << eb) - 1;
    int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    unsigned E = (unsigned)(u >> 52) & 0x7ff;
    if (E == 0x7ff)
        return sbit | expall << mb;   /* an infinity */
    if (E == 0)
        return sbit;                  /* zero, or a double subnormal: below half of any target's least */
    int e = (int)E - 1023;
    uint64_t sig = (u & ((1ull << 52) - 1)) | 1ull << 52;
    int s = 52 - mb + (e < emin ? emin - e : 0);  /* bits below the last kept one */
    if (s >= 64)
        return sbit;
    uint64_t q = sig >> s, rem = sig & ((1ull << s) - 1), half = 1ull << (s - 1);
    q += rem > half || (rem == half && (q & 1));
    if (e < emin)
        return sbit | q;              /* subnormal (2^mb: the least normal) */
    if (q >> (mb + 1)) {
        q >>= 1;
        e++;
    }
    uint64_t biased = (uint64_t)(e + bias);
    if (biased >= expall)
        return sbit | expall << mb;
    return sbit | biased << mb | (q & ((1ull << mb) - 1));
}

float fp_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15), e = (h >> 10) & 31, m = h & 1023;
    float f;
    if (e == 31)
        f = m ? NAN : INFINITY;
    else if (e == 0)
        f = ldexpf((float)m, -24);
    else
        f = ldexpf((float)(m | 1024), (int)e - 25);
    if (e == 31 && m) {   /* keep the payload */
        uint32_t u = s << 31 | 0x7f800000u | m << 13;
        memcpy(&f, &u, 4);
        return f;
    }
    return s ? -f : f;
}

uint16_t fp_f32_to_f16(float f, int mode)
{
    if (isnan(f)) return 0x7fff;
    if (mode == FP_RN) return (uint16_t)round_f64_rn(f, 10, 5);
    return (uint16_t)fp_round(f, 10, 5, mode);
}
uint16_t fp_f32_to_bf16(float f, int mode)
{
    if (isnan(f)) return 0x7fff;
    if (mode == FP_RN) return (uint16_t)round_f64_rn(f, 7, 8);
    return (uint16_t)fp_round(f, 7, 8, mode);
}
uint16_t fp_f64_to_f16(double d, int mode)
{
    if (isnan(d)) return 0x7fff;
    if (mode == FP_RN) return (uint16_t)round_f64_rn(d, 10, 5);
    return (uint16_t)fp_round(d, 10, 5, mode);
}
uint16_t fp_f64_to_bf16(double d, int mode)
{
    if (isnan(d)) return 0x7fff;
    if (mode == FP_RN) return (uint16_t)round_f64_rn(d, 7, 8);
    return (uint16_t)fp_round(d, 7, 8, mode);
}
uint32_t fp_f64_to_f32_bits(double d, int mode)
{
    if (isnan(d)) return 0x7fffffffu;
    if (mode == FP_RN) return (uint32_t)round_f64_rn(d, 23, 8);
    return (uint32_t)fp_round(d, 23, 8, mode);
}
uint32_t fp_f32_to_tf32(float f, int mode)
{
    if (isnan(f)) return 0x7fffffffu;
    return (uint32_t)fp_round(f, 10, 8, mode) << 13;
}

static uint64_t int_to(long double v, int dt, int mode)
{
    switch (dt) {
    case IR_T_F16: return fp_round(v, 10, 5, mode);
    case IR_T_BF16: return fp_round(v, 7, 8, mode);
    case IR_T_F32: return fp_round(v, 23, 8, mode);
    default: return fp_round(v, 52, 11, mode);
    }
}
uint64_t fp_s64_to_float(int64_t v, int dt, int mode) { return int_to((long double)v, dt, mode); }
uint64_t fp_u64_to_float(uint64_t v, int dt, int mode) { return int_to((long double)v, dt, mode); }

/* ---- the H100's choices ------------------------------------------------------- */

static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* NaN narrowing keeps the sign and the top of the payload and sets the
 * quiet bit: cvt.rn.f32.f64 of 0x7ff00000e0000000 is 0x7fc00007, of
 * 0xffffffffffffffff is 0xffffffff (probe_f64); f16 and bf16 alike. */
uint32_t fp_f64_nan_to_f32(uint64_t a)
{
    return (uint32_t)(a >> 32 & 0x80000000u) | 0x7fc00000u | (uint32_t)(a >> 29 & 0x7fffffu);
}
uint16_t fp_f64_nan_to_f16(uint64_t a)
{
    return (uint16_t)((a >> 48 & 0x8000u) | 0x7e00u | (a >> 42 & 0x3ffu));
}
uint16_t fp_f64_nan_to_bf16(uint64_t a)
{
    return (uint16_t)((a >> 48 & 0x8000u) | 0x7fc0u | (a >> 45 & 0x7fu));
}
/* Widening to f64 keeps sign and payload too (cvt.f64.f16 of 0xffff has the
 * high word 0xfffffc00, probe_cvt).  (cvt.f32.f16 does not: HADD2.F32
 * writes 0x7fffffff; cvt.f32.bf16 is a plain shift.) */
uint64_t fp_f32_nan_to_f64(uint32_t a)
{
    return (uint64_t)(a & 0x80000000u) << 32 | 0x7ff8000000000000ull | (uint64_t)(a & 0x7fffffu) << 29;
}
uint64_t fp_f16_nan_to_f64(uint16_t h)
{
    return (uint64_t)(h & 0x8000u) << 48 | 0x7ff8000000000000ull | (uint64_t)(h & 0x3ffu) << 42;
}
uint64_t fp_bf16_nan_to_f64(uint16_t h)
{
    return (uint64_t)(h & 0x8000u) << 48 | 0x7ff8000000000000ull | (uint64_t)(h & 0x7fu) << 45;
}

/* ptxas turns cvt.rna.tf32.f32 into `x + 0x1000` for finite x (ties away
 * from zero on the magnitude), then `& 0xffffe000`: a NaN only loses its
 * low 13 bits, so 0x7f800001 becomes Inf (probe_f32 slot 34).  .satfinite
 * then steps an all-ones exponent down by one tf32 ulp: Inf -> max finite,
 * and a NaN stays a NaN unless its payload was only in those low bits. */
uint32_t fp_f32_to_tf32_rna(uint32_t a, int satfinite)
{
    uint32_t r = ((a & 0x7f800000u) != 0x7f800000u ? a + 0x1000u : a) & 0xffffe000u;
    if (satfinite && (r & 0x7f800000u) == 0x7f800000u)
        r -= 0x2000u;
    return r;
}

/* One f32 -> fp8 element of F2FP.SATFINITE{.RELU}: bias/mb describe the
 * format, maxcode is its largest finite magnitude (e4m3 0x7e = 448, e5m2
 * 0x7b = 57344).  Rounds to nearest even; anything beyond, Inf included,
 * becomes maxcode; NaN becomes 0x7f whatever its sign; zero keeps its sign
 * unless .relu, which turns every negative, -0 included, into +0. */
static uint8_t f32_to_fp8(uint32_t a, int mb, int bias, uint32_t maxcode, int relu)
{
    uint32_t mag = a & 0x7fffffffu;
    uint8_t s = (uint8_t)(a >> 24 & 0x80u);
    if (mag > 0x7f800000u)
        return 0x7f;
    if (relu && s)
        return 0;
    if (mag == 0x7f800000u)
        return (uint8_t)(s | maxcode);
    if (mag == 0)
        return s;
    int ex;
    uint64_t q = round_sig(u2f(mag), mb, 1 - bias, FP_RN, 0, &ex);
    uint64_t code = (q >> mb) ? (uint64_t)(ex + bias) << mb | (q & ((1u << mb) - 1)) : q;
    return (uint8_t)(s | (code > maxcode ? maxcode : code));
}
uint8_t fp_f32_to_e4m3(uint32_t a, int relu) { return f32_to_fp8(a, 3, 7, 0x7e, relu); }
uint8_t fp_f32_to_e5m2(uint32_t a, int relu) { return f32_to_fp8(a, 2, 15, 0x7b, relu); }

uint16_t fp_e4m3_to_f16(uint8_t v)
{
    uint32_t e = v >> 3 & 15, m = v & 7;
    if ((v & 0x7f) == 0x7f)
        return 0x7fff;
    long double x = e ? ldexpl((long double)(8 + m), (int)e - 10) : ldexpl((long double)m, -9);
    return (uint16_t)((v & 0x80 ? 0x8000u : 0) | fp_round(x, 10, 5, FP_RN));
}
uint16_t fp_e5m2_to_f16(uint8_t v)
{
    if ((v & 0x7c) == 0x7c && (v & 3))
        return 0x7fff;
    return (uint16_t)(v << 8);   /* e5m2 is the top byte of an f16 */
}

