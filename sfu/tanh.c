/* tanh.c — MUFU.TANH, the H100's tanh.approx.f32 (and, through sfu.c, its
 * .f16/.bf16 forms and their x2 pairs), bit for bit.
 *
 * The unit is a piecewise quadratic in fixed point, reconstructed from
 * every output of an H100 (sfu/gen/tanh_probe.cu measured all 2^32 inputs;
 * sfu/gen/tanh_fit.c derives the tables):
 *
 *   |x| <= 2^-8      x itself (subnormals and -0 included);
 *   |x| >= 8         +-1;
 *   NaN              0x7fffffff;
 *   between, tanh is odd (the negative half is the positive one negated),
 *   and in the binade [2^e, 2^(e+1)) of |x| the unit reads the top R bits
 *   of the mantissa, toward zero (R = sfu_tanh_read[e + 8]: 17 for e <= -6,
 *   18 for e = -5, -4, 19 for -3..-1, 20 for e = 0, 21 for e = 1, 20 for
 *   e = 2: the output is constant over each 2^(23-R) inputs and no wider).
 *   The read bits above the low 17 select a segment (1, 2, 4, 8, 16 and
 *   again 8 per binade), the low 17 are j, and
 *
 *       V = C0 + C1 j + C2 T(j)
 *
 *   where T(j) is the square of j as a truncated squarer makes it: the
 *   partial products of weight below 2^19 are dropped and the rest, over
 *   2^19, kept (a least-squares fit of the outputs as a quadratic function
 *   of j's bits shows exactly these pair terms, and the per-segment
 *   solutions exist only with them).  tanh|x| is V 2^-P cut toward zero to
 *   24 significant bits, P = sfu_tanh_lsb[e + 8].
 *
 * The coefficients (sfu/tanh_tab.c) are integers that reproduce every
 * output of every segment; where the outputs leave room (a few units of
 * C0, a factor 2^k between binades' P) they need not be the stored values
 * of the hardware, but they give its results: C1 and C2 follow tanh' and
 * tanh''/2 (first segment: V = 2^30 + 2^13 j - T(j) at P = 38, i.e.
 * x - x^3/3 in the unit's fixed point).  Widths: C0 < 2^40, |C1| < 2^16,
 * |C2| < 2^15. */
#include <stdint.h>
#include "sfu/core.h"


extern const unsigned char sfu_tanh_read[11], sfu_tanh_lsb[11];
extern const unsigned short sfu_tanh_first[11];
extern const int64_t sfu_tanh_coef[][3];

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
    uint32_t k = (a & 0x7fffffu) >> (23 - r), j = k & 0x1ffffu;
    const int64_t *c = sfu_tanh_coef[sfu_tanh_first[b] + (k >> 17)];
    uint64_t v = (uint64_t)(c[0] + c[1] * (int64_t)j + c[2] * (int64_t)sfu_square_cut(j, 19));
    int top = 63 - __builtin_clzll(v);
    return sign | ((uint32_t)(top - sfu_tanh_lsb[b] + 127) << 23) | ((uint32_t)(v >> (top - 23)) & 0x7fffffu);
}
