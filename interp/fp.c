/* fp.c — exact single-rounding float conversions (see fp.h). */
#include <math.h>
#include <string.h>
#include <stdbool.h>
#include "interp/fp.h"
#include "ir/ir.h"

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
    case FP_RP: up = frac > 0 && !sign; break;
    case FP_RM: up = frac > 0 && sign; break;
    case FP_RNA: up = frac >= 0.5L; break;
    default: up = frac > 0.5L || (frac == 0.5L && (q & 1)); break;
    }
    q += (uint64_t)up;
    if (q >> (mb + 1)) {
        q >>= 1;
        ex++;
    }
    if (!(q >> mb))   /* subnormal (ex == emin) */
        return sbit | q;
    uint64_t biased = (uint64_t)(ex + bias);
    if (biased >= expall) {
        bool to_inf = mode == FP_RN || mode == FP_RNA || (mode == FP_RP && !sign) || (mode == FP_RM && sign);
        return to_inf ? (sbit | expall << mb) : (sbit | (expall - 1) << mb | ((1ull << mb) - 1));
    }
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
    return (uint16_t)fp_round(f, 10, 5, mode);
}
uint16_t fp_f32_to_bf16(float f, int mode)
{
    if (isnan(f)) return 0x7fff;
    return (uint16_t)fp_round(f, 7, 8, mode);
}
uint16_t fp_f64_to_f16(double d, int mode)
{
    if (isnan(d)) return 0x7fff;
    return (uint16_t)fp_round(d, 10, 5, mode);
}
uint16_t fp_f64_to_bf16(double d, int mode)
{
    if (isnan(d)) return 0x7fff;
    return (uint16_t)fp_round(d, 7, 8, mode);
}
uint32_t fp_f64_to_f32_bits(double d, int mode)
{
    if (isnan(d)) return 0x7fffffffu;
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
