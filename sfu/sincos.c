/* sincos.c — MUFU.SIN and MUFU.COS of the H100, bit for bit.
 *
 * The unit takes its argument in revolutions (ptxas multiplies by
 * 1/(2 pi) before, sfu.c) and works as follows (reconstructed from the
 * H100's outputs on every 25-bit revolution fraction; sfu/gen/sincos_fit.c):
 *
 *   1. |r| is read as a fixed-point number and only its fraction's top 25
 *      bits count: k = floor(|r| 2^25) mod 2^25 (whole revolutions vanish,
 *      bits below 2^-25 are dropped).
 *   2. The top two bits of k are the quadrant q (COS uses q + 1); the
 *      other 23 bits are f, replaced by their ones' complement in odd
 *      quadrants (so sin of the last step before a quarter is read at
 *      f = 0x7fffff, and cos of it at f = 0: exactly 0).  Quadrants 2 and 3
 *      negate, and SIN negates again for r < 0.
 *   3. G(f) ~ sin(2 pi f 2^-25) is a quadratic interpolation on 64
 *      segments: i = f >> 17, j = the 17 bits below,
 *          V = C0[i] 2^12 + C1[i] j + C2[i] S(j)       in units of 2^-37
 *      (C0 has 25 fraction bits, 25 bits in all; C1 15 bits; C2 -1265..-14),
 *      where S(j) is j^2 from a truncated squarer: of its folded partial
 *      products (j_a 2^(2a), and j_a j_b 2^(a+b+1) for a < b) those of
 *      weight below 2^19 are dropped, and the sum is divided by 2^19.
 *   4. The result is V 2^-37 truncated to f32 (it keeps the fixed point's
 *      absolute precision for small results: below 2^-15 revolutions SIN
 *      is exactly j 25737 2^-37).
 *
 * The table (sincos_tab.c) holds, per segment, integers that reproduce
 * every one of the 2^23 values of G the H100 gives. */
#include <stdbool.h>
#include <stdint.h>
#include "sfu/core.h"

extern const int32_t sfu_sincos_tab[64][3];

/* x: a finite or infinite f32 (revolutions), not NaN, subnormals already
 * read as zero; returns the unit's result bits */
uint32_t sfu_sincos_core(uint32_t x, bool cos)
{
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u)
        return 0x7fffffffu;   /* +-Inf: the canonical NaN */
    int e = (int)(ax >> 23), sh = e - 125;   /* |x| 2^25 = m 2^sh */
    uint32_t m = (ax & 0x7fffffu) | 0x800000u, k;
    if (!e || sh >= 25 || sh <= -24)
        k = 0;
    else
        k = (sh >= 0 ? m << sh : m >> -sh) & 0x1ffffffu;
    unsigned q = (k >> 23) + cos;
    uint32_t f = k & 0x7fffffu;
    if (q & 1)
        f ^= 0x7fffffu;
    const int32_t *row = sfu_sincos_tab[f >> 17];
    uint64_t j = f & 0x1ffffu;
    uint64_t v = (uint64_t)((int64_t)row[0] * 4096 + row[1] * (int64_t)j + row[2] * (int64_t)sfu_square_cut(j, 19));
    uint32_t r = 0;
    if (v) {
        int n = 63 - __builtin_clzll(v);   /* V < 2^n+1: the result is in [2^(n-37), 2^(n-36)) */
        uint64_t mant = n > 23 ? v >> (n - 23) : v << (23 - n);
        r = ((uint32_t)(n - 37 + 127) << 23) | ((uint32_t)mant & 0x7fffffu);
    }
    bool neg = (q & 2) != 0;
    if (!cos && (x >> 31))
        neg = !neg;
    return r | (neg ? 0x80000000u : 0);
}
