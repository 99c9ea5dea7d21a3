/* lg2.c — MUFU.LG2, the H100's base-2 logarithm, bit for bit.
 *
 * Reconstructed from the unit's outputs on all 2^24 inputs of [0.5, 2)
 * (sfu/gen/lg2gen.c derives the table, sfu/lg2_tab.c, and checks every one
 * of them) and checked on every exponent (tests/hw/sfu/lg2.*).  For a
 * normal x = 2^E (1 + j 2^-23), j the 23 mantissa bits:
 *
 * - the mantissa's logarithm is a quadratic interpolation, in fixed point
 *   with 38 fractional bits: the top 6 bits of j pick a row {A, B, C} of 64,
 *   jj = the low 17 bits, and
 *       v = A 2^12 + 837 + B jj - 2 C q,
 *   A a 26-bit constant (2^-26), B a 16-bit slope, C a 10-bit curvature;
 *   q is jj^2 from a truncated squarer: only the partial products of weight
 *   2^19 and above are summed (the H100's steps in the curvature term fall
 *   exactly where those partial products switch on), then divided by 2^19.
 *   837 is one constant for every row (every row admits it and no other);
 *   v is cut to 36 fractional bits (floor).
 * - E is added in fixed point: r = E 2^36 + floor(v / 4).
 * - r is converted to f32 toward zero; a negative r goes through its ones'
 *   complement, magnitude -r - 1 (the H100: with -r, the two's complement,
 *   results of the measured sets differ).
 * - x = 1 gives +0 (v would give 7377 2^-36); 0.5 and the other powers of
 *   two take the table like every other input (lg2(0.5) = -1 + 2^-23).
 *
 * The error is absolute, up to about 2^-23 (near x = 1: lg2(1 + 2^-23)
 * comes out 1.6 times the exact value).
 * Subnormals, zero, negatives, Inf and NaN are sfu.c's business. */
#include <stdint.h>
#include "sfu/core.h"

extern const int32_t sfu_lg2_tab[64][3];

/* x: a positive normal f32 */
uint32_t sfu_lg2_core(uint32_t x)
{
    if (x == 0x3f800000u)
        return 0;
    int e = (int)(x >> 23) - 127;
    uint32_t j = x & 0x7fffffu, jj = j & 0x1ffffu;
    const int32_t *t = sfu_lg2_tab[j >> 17];
    int64_t v = ((int64_t)t[0] << 12) + 837 + (int64_t)t[1] * jj - 2 * (int64_t)t[2] * sfu_square_cut(jj, 19);
    int64_t r = (int64_t)e * ((int64_t)1 << 36) + (v >> 2);
    uint32_t sign = r < 0 ? 0x80000000u : 0;
    uint64_t m = r < 0 ? (uint64_t)(-r - 1) : (uint64_t)r;
    if (!m)
        return sign;
    int n = 64 - __builtin_clzll(m);   /* m < 2^44 */
    m = n > 24 ? m >> (n - 24) : m << (24 - n);
    return sign | (uint32_t)(n - 1 - 36 + 127) << 23 | ((uint32_t)m & 0x7fffffu);
}
