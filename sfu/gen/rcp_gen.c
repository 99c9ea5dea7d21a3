/* rcp_gen.c — derives MUFU.RCP's interpolation table (sfu/rcp_tab.c) from
 * the H100's outputs over all 2^23 significands of [1, 2) (the probe's set
 * c_rcp.ftz_1_2, read with hwdata.h), checks that the datapath of sfu/rcp.c
 * then gives every one of them, and writes the table as C to stdout:
 *
 *   cc -O2 -ffp-contract=off -o rcp_gen sfu/gen/rcp_gen.c -lm
 *   ./rcp_gen DIR > sfu/rcp_tab.c        (DIR: the probe's out/ folder)
 *
 * The datapath (sfu/rcp.c has the same code): x = 1 + (i 2^16 + j) 2^-23
 * with i the top 7 bits of the significand's fraction and j the low 16;
 *
 *   y = (C0[i] 2^12 + C1[i] j + C2[i] sq(j) + RC) >> 16
 *
 * is the result's 24-bit significand (1/x = y 2^-24), sq(j) the top 15 bits
 * (weights 2^17 and up) of a truncated squarer on j: of the partial products
 * j_a j_b 2^(a+b) (folded: j_a 2^2a on the diagonal, j_a j_b 2^(a+b+1) for
 * a < b) only those of column 17 and above are added.  With that structure,
 * each segment has exactly one triple of integers within 8 of its
 * least-squares fit (and one C0) for which all of its 2^16 outputs come out
 * right: the search below finds it and counts the others (none); a segment
 * without one is an error (the structure would be wrong).  RC = -50: -49
 * gives the same bits on every input, every other constant from -80 to 10
 * fails in some segment.
 *
 * How the structure was found: an exact quadratic in j (any real
 * coefficients, any single rounding) cannot reproduce a segment (its best
 * minimax fit to y + 1/2 misses by 0.51 to 0.6 units, for 7, 8 and 9
 * index bits alike: the misfit is fine-grained, not the segmentation);
 * replacing j^2 by the truncated square above makes every segment of 7
 * index bits fit with integer C1, C2 (units as above) and C0 a multiple of
 * 2^12 (2^-4 units); squarers cut at other columns, unfolded, on a
 * truncated j or centred on the segment all fail, and so does cutting the
 * products C1 j and C2 sq to 2^-14 units or coarser. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "hwdata.h"

enum { RC = -50, SEGS = 128, NJ = 1 << 16 };

/* the kept top of the folded truncated square of a 16-bit j, over 2^16 */
static uint32_t sq15(uint32_t j)
{
    uint64_t s = 0;
    for (int a = 0; a < 16; a++)
        for (int b = a; b < 16; b++) {
            if (!((j >> a) & (j >> b) & 1))
                continue;
            int col = a == b ? 2 * a : a + b + 1;
            if (col >= 17)
                s += 1ull << col;
        }
    return (uint32_t)(s >> 16);
}

/* least squares of y on (1, j, sq): the start of the integer search */
static void lsq(const int64_t *y, const uint32_t *sq, double c[3])
{
    long double S[3][4] = {{0}};
    for (int j = 0; j < NJ; j++) {
        long double v[3] = {1, j / 65536.0L, sq[j] / 65536.0L};
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) S[a][b] += v[a] * v[b];
            S[a][3] += v[a] * (long double)y[j];
        }
    }
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            if (r != k) {
                long double f = S[r][k] / S[k][k];
                for (int q = 0; q < 4; q++) S[r][q] -= f * S[k][q];
            }
    for (int a = 0; a < 3; a++) c[a] = (double)(S[a][3] / S[a][a]);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rcp_gen DIR > sfu/rcp_tab.c\n");
        return 2;
    }
    hwset s;
    if (hw_load(argv[1], "c_rcp.ftz_1_2.u32", &s))
        return 1;
    if (s.n != (size_t)SEGS * NJ || s.x[0] != 0x3f800000u) {
        fprintf(stderr, "c_rcp.ftz_1_2: %zu inputs, expected all 2^23 of [1, 2)\n", s.n);
        return 1;
    }
    static uint32_t sq[NJ];
    static int64_t y[NJ];
    for (int j = 0; j < NJ; j++) sq[j] = sq15((uint32_t)j);
    long long tab[SEGS][3], solutions = 0;
    for (int i = 0; i < SEGS; i++) {
        for (int j = 0; j < NJ; j++) {
            uint32_t x = s.x[i * NJ + j], r = s.y[i * NJ + j];
            int e = (int)((r >> 23) & 0xff);
            if (x != 0x3f800000u + (uint32_t)(i * NJ + j) || e < 126 || e > 127) {
                fprintf(stderr, "input %08x: unexpected output %08x\n", x, r);
                return 1;
            }
            y[j] = (int64_t)((r & 0x7fffffu) | 0x800000u) << (e - 126);   /* units of 2^-24 */
        }
        double c[3];
        lsq(y, sq, c);
        int64_t c1e = llround(c[1]), c2e = llround(c[2]);
        /* every integer pair within 8 of the fit: C0 2^12 must lie in
         * [lo, hi] for every j; keep the first that works, count them all */
        int found = 0;
        for (int64_t c1 = c1e - 8; c1 <= c1e + 8; c1++)
            for (int64_t c2 = c2e - 8; c2 <= c2e + 8; c2++) {
                int64_t lo = INT64_MIN, hi = INT64_MAX;
                for (int j = 0; j < NJ && lo <= hi; j++) {
                    int64_t t = c1 * j + c2 * sq[j] + RC, l = (y[j] << 16) - t, h = ((y[j] + 1) << 16) - t - 1;
                    if (l > lo) lo = l;
                    if (h < hi) hi = h;
                }
                int64_t a = (lo + 4095) >> 12;
                if (lo > hi || (a << 12) > hi)
                    continue;
                if (!found++) {
                    tab[i][0] = a;
                    tab[i][1] = c1;
                    tab[i][2] = c2;
                }
                solutions += ((hi >> 12) - a + 1);
            }
        if (!found) {
            fprintf(stderr, "segment %d: no coefficients reproduce the H100\n", i);
            return 1;
        }
        for (int j = 0; j < NJ; j++)
            if (((tab[i][0] << 12) + tab[i][1] * j + tab[i][2] * (int64_t)sq[j] + RC) >> 16 != y[j]) {
                fprintf(stderr, "segment %d: check failed at j %d\n", i, j);
                return 1;
            }
    }
    printf("/* rcp_tab.c — MUFU.RCP's interpolation table (H100), GENERATED by\n"
           " * sfu/gen/rcp_gen.c from the GPU's outputs over all 2^23 significands of\n"
           " * [1, 2); do not edit.  Row i (the fraction's top 7 bits): C0, C1, C2 of\n"
           " * y = (C0 2^12 + C1 j + C2 sq(j) - 50) >> 16 (sfu/rcp.c). */\n"
           "#include <stdint.h>\n\n"
           "const int32_t sfu_rcp_tab[128][3] = {\n");
    for (int i = 0; i < SEGS; i++)
        printf("    {%lld, %lld, %lld},\n", tab[i][0], tab[i][1], tab[i][2]);
    printf("};\n");
    fprintf(stderr, "rcp_gen: 128 segments, all 2^23 outputs reproduced; %lld coefficient triples fit (one per segment: unique)\n", solutions);
    return 0;
}
