/* rcp.c — the significand of MUFU.RCP (H100), bit for bit.
 *
 * The unit interpolates 1/x on [1, 2) with a quadratic per 1/128 of the
 * range (Oberman and Siu's multifunction interpolator): for x = 1 + (i 2^16
 * + j) 2^-23, i the fraction's top 7 bits and j its low 16,
 *
 *   y = (C0[i] 2^12 + C1[i] j + C2[i] sq(j) - 50) >> 16
 *
 * is the result's 24-bit significand, 1/x = y 2^-24 (y = 2^24 only at
 * x = 1).  sq(j) is a truncated squarer's output: of the partial products of
 * j^2, folded (j_a 2^2a on the diagonal, j_a j_b 2^(a+b+1) for a < b), only
 * those of weight 2^17 and above are summed; sq is that sum over 2^16.  The
 * products C1 j and C2 sq are exact; the sum is cut (floor) to 24 bits.
 * C0 (29 bits), C1 (signed, 18) and C2 (10) are sfu_rcp_tab (rcp_tab.c),
 * derived from the H100's outputs by sfu/gen/rcp_gen.c: with this datapath
 * one triple per segment, and only one, gives all 2^16 of its outputs, and
 * the 2^23 significands of [1, 2) all agree.  The constant -50 (or -49:
 * the same bits everywhere) is where the unit's rounding and truncation
 * land at this resolution. */
#include <stdint.h>
#include "sfu/core.h"

extern const int32_t sfu_rcp_tab[128][3];

/* frac: the 23 fraction bits of x in [1, 2); returns y, 1/x = y 2^-24 */
uint32_t sfu_rcp_sig(uint32_t frac)
{
    const int32_t *c = sfu_rcp_tab[frac >> 16];
    uint32_t j = frac & 0xffffu;
    int64_t acc = ((int64_t)c[0] << 12) + (int64_t)c[1] * j + (int64_t)c[2] * (2 * sfu_square_cut(j, 17)) - 50;
    return (uint32_t)(acc >> 16);
}
