/* tanh.c — MUFU.TANH, the H100's tanh.approx.f32 (and, through sfu.c, its
 * .f16/.bf16 forms), bit for bit.
 *
 * The unit is a piecewise quadratic in fixed point (reconstructed from
 * every output of the H100 over each binade; sfu/gen/tanh_fit.c):
 *
 *   |x| <= 2^-8      x itself (subnormals included);
 *   |x| >= 8         +-1;
 *   NaN              0x7fffffff;
 *   between, in the binade [2^e, 2^(e+1)) of |x|, the unit reads the top R
 *   bits of the mantissa (R = 19 below 1/2, 20 + e above: x >= 1/2 is read
 *   in fixed point with 20 fraction bits, toward zero); the bits above the
 *   low 17 select a segment of 1/4 binade below 1/2 and of width 1/8 above;
 *   the low 17 are j.  Then
 *
 *       V = C0 + C1 j + C2 T(j)
 *
 *   with T(j) the square of j as a truncated squarer makes it: the partial
 *   products of weight below 2^19 are dropped, the rest summed and divided
 *   by 2^19 (exact).  tanh|x| is V 2^-P cut to 24 significant bits (toward
 *   zero), P = sfu_tanh_lsb[binade], and the sign is x's.
 *
 * The coefficients (sfu/tanh_tab.c) are integers that reproduce every
 * measured output; they need not be the unit's stored values bit for bit
 * (any integers inside the outputs' bounds give the same results), and they
 * follow tanh' and tanh''/2 as they should.  Their widths: C0 < 2^38,
 * |C1| < 2^18, |C2| < 2^17. */
#include <stdint.h>
#include <string.h>
#include <math.h>

uint32_t sfu_tanh_core(uint32_t x);

static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

extern const unsigned char sfu_tanh_read[11], sfu_tanh_lsb[11];
extern const unsigned short sfu_tanh_first[11];
extern const int64_t sfu_tanh_coef[][3];

/* T(j) for 17-bit j: bit k pairs with bit l (k < l) at weight 2^(k+l+1),
 * kept when k + l >= 18, and stands alone at 2^(2k), kept when k >= 10.
 * Bits 9..16 (jh) pair among themselves at 2^20 and above: jh^2, less bit
 * 9's own 2^18; bit k <= 8 pairs with the bits l >= 18 - k. */
static inline uint32_t tsq(uint32_t j)
{
    uint64_t jh = j & ~0x1ffu, s = jh * jh - ((uint64_t)(j & 0x200u) << 9);
    for (int k = 0; k <= 8; k++)
        s += (uint64_t)((j >> k) & 1u) * (((uint64_t)(j >> (18 - k)) << (18 - k)) << (k + 1));
    return (uint32_t)(s >> 19);
}

uint32_t sfu_tanh_core(uint32_t x)
{
    uint32_t a = x & 0x7fffffffu, sign = x & 0x80000000u;
    if (a > 0x7f800000u)
        return 0x7fffffffu;
    if (a <= 0x3b800000u)   /* |x| <= 2^-8 */
        return x;
    if (a >= 0x41000000u)   /* |x| >= 8 */
        return sign | 0x3f800000u;
    int b = (int)(a >> 23) - 119;   /* binade: 0 for [2^-8, 2^-7) */
    int r = sfu_tanh_read[b];
    if (!r) {   /* binade not reconstructed yet: tanh of the input without its low 4 bits, rounded once */
        float t = (float)tanh((double)u2f(a & ~0xfu));
        uint32_t u;
        memcpy(&u, &t, 4);
        return sign | u;
    }
    uint32_t k = (a & 0x7fffffu) >> (23 - r), j = k & 0x1ffffu;
    const int64_t *c = sfu_tanh_coef[sfu_tanh_first[b] + (k >> 17)];
    uint64_t v = (uint64_t)(c[0] + c[1] * (int64_t)j + c[2] * (int64_t)tsq(j));
    int top = 63 - __builtin_clzll(v);
    return sign | ((uint32_t)(top - sfu_tanh_lsb[b] + 127) << 23) | ((uint32_t)(v >> (top - 23)) & 0x7fffffu);
}
