/* ex2gen.c — derives MUFU.EX2's interpolation tables from the H100's
 * outputs and writes sfu/ex2_tab.c.
 *
 *   cc -O2 -std=c17 -D_GNU_SOURCE -ffp-contract=off -o ex2gen sfu/gen/ex2gen.c -lm
 *   ./ex2gen DIR > sfu/ex2_tab.c
 *
 * DIR is the unpacked result of the probe (hwdata.h reads it); the set used
 * is c_ex2.ftz_1_2.u32: ex2.approx.ftz.f32 of every x in [1, 2), that is
 * every 23-bit fraction m of the unit's fixed-point argument.  The datapath
 * (found from that set; sfu/ex2.c describes it) is, in units of 2^-38:
 *
 *     mantissa(2^(m 2^-23)) = (C0[i] 2^13 + K + C1[i] j + C2[i] q(j)) >> 15
 *
 * with i = m >> 17 (64 segments), j = m & 0x1ffff, q(j) the squarer's
 * truncated j^2 / 2^19 (the partial-product bits of j*j in columns 19 and
 * up, added; those below dropped) and K = 6114.  For each segment this
 * program finds the integers C1, C2 (searched around the least-squares
 * fit) for which a C0 exists that reproduces all 2^17 outputs, checks
 * that exactly one (C0, C1, C2) does, and prints the table.  It fails if
 * any segment has no solution or several.  Each step prints to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "hwdata.h"

#define SEGS 64
#define JB 17
#define K_ROUND 6114   /* the datapath's constant, in units of 2^-38 */

/* the truncated squarer as the hardware adds it: every partial-product bit
 * j_a j_b of j*j (a pair a < b once, at column a + b + 1; a square j_b at
 * column 2b) from column 19 up, in units of 2^19 */
static int64_t squarer(int64_t j)
{
    int64_t q = 0;
    for (int b = 0; b < JB; b++) {
        if (!((j >> b) & 1)) continue;
        if (2 * b >= 19) q += (int64_t)1 << (2 * b - 19);
        for (int a = 0; a < b; a++)
            if (((j >> a) & 1) && a + b + 1 >= 19) q += (int64_t)1 << (a + b + 1 - 19);
    }
    return q;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ex2gen DIR > sfu/ex2_tab.c\n");
        return 2;
    }
    hwset s;
    if (hw_load(argv[1], "c_ex2.ftz_1_2.u32", &s)) return 1;
    if (s.n != (size_t)1 << 23 || s.x[0] != 0x3f800000u) {
        fprintf(stderr, "c_ex2.ftz_1_2.u32: expected all 2^23 inputs of [1, 2)\n");
        return 1;
    }
    const int64_t J = (int64_t)1 << JB;
    int64_t *y = malloc(sizeof *y * J), *q = malloc(sizeof *q * J);
    int64_t tab[SEGS][3];
    for (int64_t j = 0; j < J; j++) q[j] = squarer(j);
    for (int seg = 0; seg < SEGS; seg++) {
        for (int64_t j = 0; j < J; j++) {
            uint32_t out = s.y[(size_t)seg * J + j];
            if ((out >> 23) != 0x80) {
                fprintf(stderr, "segment %d: output %08x outside [2, 4)\n", seg, out);
                return 1;
            }
            y[j] = out & 0x7fffff;
        }
        /* least squares y + 1/2 ~ a + b j + c q, for the search's centre */
        double S[3][4] = {{0}};
        for (int64_t j = 0; j < J; j++) {
            double v[3] = {1, (double)j, (double)q[j]};
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) S[a][b] += v[a] * v[b];
                S[a][3] += v[a] * ((double)y[j] + 0.5);
            }
        }
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                if (r != c) {
                    double f = S[r][c] / S[c][c];
                    for (int k = 0; k < 4; k++) S[r][k] -= f * S[c][k];
                }
        int64_t c1e = llround(S[1][3] / S[1][1] * 32768), c2e = llround(S[2][3] / S[2][2] * 32768);
        int found = 0;
        for (int64_t c1 = c1e - 8; c1 <= c1e + 8; c1++)
            for (int64_t c2 = c2e - 8; c2 <= c2e + 8; c2++) {
                /* C0 2^13 + K must lie in [max A_j, min A_j + 2^15 - 1] */
                int64_t hi = INT64_MIN, lo = INT64_MAX;
                for (int64_t j = 0; j < J; j++) {
                    int64_t a = (y[j] << 15) - c1 * j - c2 * q[j];
                    if (a > hi) hi = a;
                    if (a < lo) lo = a;
                }
                for (int64_t c0 = (hi - K_ROUND) >> 13; (c0 << 13) + K_ROUND <= lo + 32767; c0++)
                    if ((c0 << 13) + K_ROUND >= hi) {
                        tab[seg][0] = c0;
                        tab[seg][1] = c1;
                        tab[seg][2] = c2;
                        found++;
                    }
            }
        fprintf(stderr, "segment %2d: %d solution%s\n", seg, found, found == 1 ? "" : "s");
        if (found != 1) return 1;
    }
    printf("/* ex2_tab.c — MUFU.EX2's interpolation tables (H100), written by\n"
           " * sfu/gen/ex2gen.c from the GPU's ex2.approx.ftz.f32 of every x in [1, 2):\n"
           " *   ./ex2gen DIR > sfu/ex2_tab.c\n"
           " * Row i (the fraction's top 6 bits): C0 (units of 2^-25, the value\n"
           " * 2^(i/64) - 1 less the interpolator's error), C1 (units of 2^-38 per\n"
           " * unit of j, the slope), C2 (units of 2^-38 per unit of q(j)).  sfu/ex2.c\n"
           " * evaluates them.  Do not edit: regenerate. */\n"
           "#include <stdint.h>\n\n"
           "extern const uint32_t sfu_ex2_tab[64][3];\n"
           "const uint32_t sfu_ex2_tab[64][3] = {\n");
    for (int seg = 0; seg < SEGS; seg++)
        printf("    {%lld, %lld, %lld},\n", (long long)tab[seg][0], (long long)tab[seg][1], (long long)tab[seg][2]);
    printf("};\n");
    free(y);
    free(q);
    return 0;
}
