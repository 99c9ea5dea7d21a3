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

uint32_t sfu_rcp_sig(uint32_t frac);
extern const int32_t sfu_rcp_tab[128][3];

/* LT[x 16 + y] = the partial products x_a y_c 2^(a+c) of two 4-bit numbers
 * with a + c <= 3 (the low triangle of x y) */
#define LT(x, y) \
    (((x) & 1) * ((y) & 15) + ((x) >> 1 & 1) * 2 * ((y) & 7) + ((x) >> 2 & 1) * 4 * ((y) & 3) + ((x) >> 3 & 1) * 8 * ((y) & 1))
#define LT_ROW(x) \
    LT(x, 0), LT(x, 1), LT(x, 2), LT(x, 3), LT(x, 4), LT(x, 5), LT(x, 6), LT(x, 7), LT(x, 8), LT(x, 9), LT(x, 10), \
        LT(x, 11), LT(x, 12), LT(x, 13), LT(x, 14), LT(x, 15)
static const uint8_t lt4[256] = {LT_ROW(0),  LT_ROW(1),  LT_ROW(2),  LT_ROW(3), LT_ROW(4),  LT_ROW(5),
                                 LT_ROW(6),  LT_ROW(7),  LT_ROW(8),  LT_ROW(9), LT_ROW(10), LT_ROW(11),
                                 LT_ROW(12), LT_ROW(13), LT_ROW(14), LT_ROW(15)};
#undef LT_ROW
#undef LT

/* the folded truncated square of j (16 bits) over 2^16: of j^2's partial
 * products only those of weight 2^17 and up.  With j = h 2^8 + l (8 bits
 * each): all of h^2 but its column-16 diagonal h_0 2^16, and of the cross
 * products 2^9 l h those of l_a h_c with a + c >= 8, i.e. 2^9 (l h - T),
 * T the low triangle (a + c <= 7) of l h, from nibbles: T = l0 h0 +
 * 16 (lt4[l0, h1] + lt4[l1, h0]) (l0 h0 lies wholly in it, l1 h1 not). */
static inline uint32_t sq_trunc(uint32_t j)
{
    uint32_t l = j & 0xffu, h = j >> 8;
    uint32_t t = (l & 15) * (h & 15) + 16 * (uint32_t)(lt4[(l & 15) << 4 | h >> 4] + lt4[(l & 0xf0u) | (h & 15)]);
    return h * h - (h & 1) + ((l * h - t) >> 7);
}

/* frac: the 23 fraction bits of x in [1, 2); returns y, 1/x = y 2^-24 */
uint32_t sfu_rcp_sig(uint32_t frac)
{
    const int32_t *c = sfu_rcp_tab[frac >> 16];
    uint32_t j = frac & 0xffffu;
    int64_t acc = ((int64_t)c[0] << 12) + (int64_t)c[1] * j + (int64_t)c[2] * sq_trunc(j) - 50;
    return (uint32_t)(acc >> 16);
}
