/* ex2.c — MUFU.EX2, the H100's base-2 exponential, bit for bit.
 *
 * Reconstructed from the H100's outputs (every x in [1, 2), in [-2, -1]
 * and in [0.5, 1), and 512 mantissas of every sign and exponent; checked on
 * all 2^32 inputs on the GPU machine):
 *
 * 1. The argument becomes a fixed-point number: |x| truncated to a multiple
 *    of 2^-23 (bits below are dropped), integer part I, 23-bit fraction m.
 *    A negative x with m != 0 uses the ones' complement of the fraction:
 *    2^-(I + m 2^-23) = 2^(-I-1) 2^(~m 2^-23), which is off by one unit of
 *    the fraction (~m = 2^23 - 1 - m); a negative integer is exact.
 * 2. 2^(m 2^-23) in [1, 2) comes from a quadratic interpolator (Oberman and
 *    Siu, ARITH 2005): i = m >> 17 picks one of 64 rows (C0, C1, C2) of
 *    sfu/ex2_tab.c, j = m & 0x1ffff is the offset in the row, and in units
 *    of 2^-38
 *        P = C0 2^13 + 6114 + C1 j + C2 q(j)
 *    where q(j) is a truncated squarer's j^2 / 2^19: the partial-product bits
 *    of j*j in columns 19 and up, added (those below are dropped, so q(j)
 *    is j^2 >> 19 less the carries the low columns would have sent).  The
 *    mantissa is P >> 15 (truncated; it never reaches 2^23).
 * 3. The exponent is the integer part; below 2^-126 the unit writes zero
 *    (it is flush-to-zero), from x >= 128 +Inf.
 * A subnormal input reads as zero (sfu.c flushes it before the call). */
#include <stdint.h>
#include "sfu/core.h"

extern const uint32_t sfu_ex2_tab[64][3];

/* the mantissa bits of 2^(m 2^-23), m < 2^23 */
static inline uint32_t ex2_frac(uint32_t m)
{
    const uint32_t *c = sfu_ex2_tab[m >> 17];
    uint32_t j = m & 0x1ffff;
    uint64_t p = ((uint64_t)c[0] << 13) + 6114 + (uint64_t)c[1] * j + (uint64_t)c[2] * sfu_square_cut(j, 19);
    return (uint32_t)(p >> 15);
}

/* x: not NaN, not subnormal; returns the unit's result (flushed) */
uint32_t sfu_ex2_core(uint32_t x)
{
    uint32_t a = x & 0x7fffffffu;
    int neg = (int)(x >> 31);
    if (a >= 0x43000000u)   /* |x| >= 128, Inf included */
        return neg ? 0 : 0x7f800000u;
    int e = (int)(a >> 23) - 127;
    uint32_t fx = 0;   /* |x| 2^23, truncated */
    if (a && e >= -24)
        fx = e >= 0 ? ((a & 0x7fffffu) | 0x800000u) << e : ((a & 0x7fffffu) | 0x800000u) >> -e;
    int n = (int)(fx >> 23);
    uint32_t m = fx & 0x7fffffu, mant;
    if (!neg)
        mant = ex2_frac(m);
    else if (!m) {
        n = -n;
        mant = 0;
    } else {
        n = -n - 1;
        mant = ex2_frac(~m & 0x7fffffu);
    }
    if (n <= -127)
        return 0;
    return ((uint32_t)(n + 127) << 23) | mant;
}
