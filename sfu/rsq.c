/* rsq.c — the cores of MUFU.RSQ and MUFU.SQRT, bit for bit (H100).
 *
 * Both are one quadratic interpolator over the reduced argument
 * xr = x 4^-k in [1, 4): its 24 bits d over 1.0 (the exponent's parity,
 * then the 23 mantissa bits) split into a segment i = d >> 17 (64 segments
 * per binade, 128 in all) and j = d mod 2^17.  In integers,
 *
 *     S = C0[i] + C1[i] j + C2[i] Q(j)
 *
 * where Q(j) is the squarer's output: of the partial-product bits of j*j
 * only those in columns 2^19 and up are summed (the rest are not built),
 * and the sum is taken over 2^17.  The result is S >> 17 in units of 2^-24
 * above 0.5 for rsqrt, S >> 18 in units of 2^-23 above 1.0 for sqrt (a
 * truncation, no rounding step); rsqrt of 1.0 is exactly 1.0.
 *
 * The tables (rsq_tab.c) are written by sfu/gen/rsq.c from the H100's
 * outputs for all 2^24 inputs of [1, 4) of each function; with them this
 * code gives every one of those outputs (a squarer keeping columns 2^18 or
 * 2^20 and up instead fits no segment).  C0 is known to within a few
 * units of its last place, C1 and C2 exactly. */
#include <stdbool.h>
#include <stdint.h>
#include "sfu/core.h"

extern const int64_t sfu_rsq_tab[2][128][3];

/* d < 2^24: the f32 bits of 1/sqrt(xr) in (0.5, 1] or sqrt(xr) in [1, 2) */
uint32_t sfu_core_rsq_sqrt(uint32_t d, bool rsq)
{
    if (rsq && !d)
        return 0x3f800000u;
    const int64_t *c = sfu_rsq_tab[!rsq][d >> 17];
    uint32_t j = d & 0x1ffffu;
    int64_t s = c[0] + c[1] * (int64_t)j + c[2] * (4 * (int64_t)sfu_square_cut(j, 19));
    return rsq ? 0x3f000000u + (uint32_t)(s >> 17) : 0x3f800000u + (uint32_t)(s >> 18);
}
