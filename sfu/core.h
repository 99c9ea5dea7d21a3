/* core.h — what the special-function unit's cores share (inside sfu/).
 *
 * Each MUFU function is a table-driven quadratic interpolator: the reduced
 * argument's top bits pick a row (C0, C1, C2), its low bits j enter as
 * C0 + C1 j + C2 sq(j), where sq is a truncated squarer.  The H100's
 * squarer is the same for every function (reconstructed from each one's
 * outputs): it sums only the partial products of j*j of weight 2^c and
 * above (bit k alone at 2^(2k), bits k and i together at 2^(k+i+1)).
 * The cores and their cut columns: rcp (16-bit j, c = 17),
 * rsq/sqrt, ex2, lg2, sin/cos and tanh (17-bit j, c = 19). */
#ifndef PTXI_SFU_CORE_H
#define PTXI_SFU_CORE_H
#include <stdbool.h>
#include <stdint.h>

/* the kept partial products of j*j over 2^c (c odd, j < 2^c).  With
 * s = (c - 1) / 2, h = j >> s and l = j mod 2^s: no product inside l
 * reaches column c; every product inside h does, but the square of h's
 * lowest bit (column c - 1); bit a of l times bit m of h sits in column
 * c + a + m - s, kept for m >= s - a, which sums to (h >> (s - a)) 2^c. */
static inline uint32_t sfu_square_cut(uint32_t j, int c)
{
    int s = (c - 1) / 2;
    uint32_t h = j >> s, q = (h * h - (h & 1)) >> 1;
#pragma GCC unroll 16
    for (int a = 0; a < s; a++)
        q += -((j >> a) & 1) & (h >> (s - a));
    return q;
}

/* the cores (one file each; sfu.c adds the reductions and special values) */
uint32_t sfu_rcp_sig(uint32_t frac);                  /* rcp.c */
uint32_t sfu_core_rsq_sqrt(uint32_t d, bool rsq);     /* rsq.c */
uint32_t sfu_ex2_core(uint32_t x);                    /* ex2.c */
uint32_t sfu_lg2_core(uint32_t x);                    /* lg2.c */
uint32_t sfu_sincos_core(uint32_t x, bool cos);       /* sincos.c */
uint32_t sfu_tanh_core(uint32_t x);                   /* tanh.c */

#endif
