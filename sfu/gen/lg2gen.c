/* lg2gen.c — derives MUFU.LG2's interpolation table (sfu/lg2_tab.c) from
 * the H100's outputs on every input of [0.5, 2) (set c_lg2.ftz_05_2 of the
 * probe, see hwdata.h), and checks the reconstructed unit on all of them.
 *
 *   cc -O2 -ffp-contract=off -o /tmp/lg2gen sfu/gen/lg2gen.c -lm
 *   /tmp/lg2gen /work/main/.dev/gpu/sfu/round1/out > sfu/lg2_tab.c
 *
 * The datapath (sfu/lg2.c says why each step is so): the 23 mantissa bits
 * of x = 2^E (1 + j 2^-23) split into a 6-bit segment and 17 bits jj; in
 * units of 2^-38
 *     v = (A << 12) + 837 + B jj - 2 C q(jj),  q = the truncated square,
 * log2 of the mantissa is floor(v / 4) 2^-36; the result E + that, in
 * fixed point, is converted to f32 toward zero, negative values through
 * their ones' complement.
 *
 * What the data give: x in [1, 2) gives floor(v/4) to 24 significant bits,
 * x in [0.5, 1) gives 2^36 - 1 - floor(v/4) to 24 significant bits: near
 * both ends of a binade one of them is exact, in the middle each pins the
 * value to an interval of up to 2^12 units.  For each segment the solver
 * scans C (the square's coefficient), finds the slope B by ternary search
 * on the width of the feasible interval of the constant (a convex function
 * of B), and keeps every (B, C) that leaves a constant; the constant's
 * offset 837 (below A's last bit) is the one value every segment admits.
 * Every segment has exactly one feasible (A, B, C) on this lattice. */
#include <stdio.h>
#include <stdlib.h>
#include "hwdata.h"

#define NSEG 64
#define JB 17

static int64_t *LO, *HI;   /* floor(v/4) lies in [LO, HI], per mantissa j */

/* the squarer: partial products of jj^2 of weight 2^19 and above */
static int64_t tsq(uint32_t jj)
{
    int64_t s = 0;
    for (int i = 0; i < JB; i++)
        for (int k = i; k < JB; k++)
            if ((jj >> i & 1) && (jj >> k & 1)) {
                int w = i == k ? 2 * i : i + k + 1;
                if (w >= 19) s += (int64_t)1 << (w - 19);
            }
    return s;
}

/* truncated, toward zero, to f32 (24 significant bits) of a magnitude M 2^-36 */
static void bounds(uint32_t y, int64_t *w, int64_t *ulp)
{
    int e = (int)((y >> 23) & 0xff);
    int64_t m = e ? (int64_t)((y & 0x7fffffu) | 0x800000u) : 0;
    int sh = e - 127 - 23 + 36;   /* M = m 2^sh */
    *w = sh >= 0 ? m << sh : m >> -sh;
    *ulp = sh > 0 ? (int64_t)1 << sh : 1;
}

static int N;
static int64_t *J, *Q, *Alo, *Ahi;   /* v in [Alo, Ahi] */

/* for slope b and square coefficient c: the constant's interval [lo, hi] */
static int64_t width(int64_t b, int64_t c, int64_t *lo, int64_t *hi)
{
    int64_t mx = INT64_MIN, mn = INT64_MAX;
    for (int i = 0; i < N; i++) {
        int64_t t = b * J[i] - 2 * c * Q[i];
        if (Alo[i] - t > mx) mx = Alo[i] - t;
        if (Ahi[i] - t < mn) mn = Ahi[i] - t;
    }
    if (lo) *lo = mx;
    if (hi) *hi = mn;
    return mx - mn;
}

static int64_t best_b(int64_t c, int64_t lo, int64_t hi, int64_t *bb)
{
    while (hi - lo > 2) {
        int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        int64_t f1 = width(m1, c, 0, 0), f2 = width(m2, c, 0, 0);
        if (f1 < f2) hi = m2;
        else if (f1 > f2) lo = m1;
        else { lo = m1; hi = m2; }
    }
    int64_t bf = INT64_MAX;
    for (int64_t b = lo; b <= hi; b++) {
        int64_t f = width(b, c, 0, 0);
        if (f < bf) { bf = f; *bb = b; }
    }
    return bf;
}

typedef struct { int64_t b, c, lo, hi; int n; } segsol;

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: lg2gen PROBE_OUT_DIR > sfu/lg2_tab.c\n"); return 2; }
    hwset s;
    if (hw_load(argv[1], "c_lg2.ftz_05_2.u32", &s)) return 1;
    if (s.n != 1u << 24 || s.x[0] != 0x3f000000u) { fprintf(stderr, "c_lg2.ftz_05_2: not the whole of [0.5, 2)\n"); return 1; }
    LO = malloc(8u << 23);
    HI = malloc(8u << 23);
    for (uint32_t j = 0; j < 1u << 23; j++) {
        int64_t w, u, lo = 0, hi = (int64_t)1 << 37;
        if (j) {   /* x = 1 + j 2^-23: floor(v/4) truncated (x = 1 gives 0: a special case) */
            bounds(s.y[(1u << 23) + j], &w, &u);
            lo = w;
            hi = w + u - 1;
        }
        bounds(s.y[j], &w, &u);   /* x = (1 + j 2^-23)/2: 2^36 - 1 - floor(v/4), truncated */
        if (((int64_t)1 << 36) - w - u > lo) lo = ((int64_t)1 << 36) - w - u;
        if (((int64_t)1 << 36) - 1 - w < hi) hi = ((int64_t)1 << 36) - 1 - w;
        if (lo > hi) { fprintf(stderr, "j %u: x and x/2 disagree\n", j); return 1; }
        LO[j] = lo;
        HI[j] = hi;
    }
    int n = 1 << JB;
    J = malloc(8 * (size_t)n); Q = malloc(8 * (size_t)n); Alo = malloc(8 * (size_t)n); Ahi = malloc(8 * (size_t)n);
    int64_t *q = malloc(8 * (size_t)n);
    for (int i = 0; i < n; i++) q[i] = tsq((uint32_t)i);
    segsol sol[NSEG];
    /* the constant's offset below A's last bit: feasible residues mod 4096 */
    static int ok_off[NSEG][4096];
    for (int g = 0; g < NSEG; g++) {
        N = 0;
        for (int i = 0; i < n; i++) {
            uint32_t j = ((uint32_t)g << JB) + (uint32_t)i;
            J[N] = i; Q[N] = q[i]; Alo[N] = 4 * LO[j]; Ahi[N] = 4 * HI[j] + 3; N++;
        }
        double m = 1 + (g + 0.5) / NSEG;   /* B ~ f' 2^15 (units 2^-38), C ~ -f''/2 2^10 (units 2^-37) */
        double be = 0x1p15 / (m * 0.69314718055994530942), ce = 0x1p9 / (m * m * 0.69314718055994530942);
        int64_t rc = (int64_t)(ce * 0.06) + 4, rb = (int64_t)(be * 0.01) + 64;
        sol[g].n = 0;
        for (int64_t c = (int64_t)ce - rc; c <= (int64_t)ce + rc; c++) {
            int64_t b = 0;
            if (best_b(c, (int64_t)be - rb, (int64_t)be + rb, &b) > 0) continue;
            for (int64_t d = -8; d <= 8; d++) {
                int64_t lo, hi;
                if (width(b + d, c, &lo, &hi) > 0) continue;
                sol[g].n++;
                sol[g].b = b + d; sol[g].c = c; sol[g].lo = lo; sol[g].hi = hi;
                for (int64_t v = lo; v <= hi && v < lo + 4096; v++) ok_off[g][v & 4095] = 1;
            }
        }
        fprintf(stderr, "segment %2d: %d feasible (B, C)\n", g, sol[g].n);
        if (!sol[g].n) return 1;
    }
    int off = -1, noff = 0;
    for (int r = 0; r < 4096; r++) {
        int all = 1;
        for (int g = 0; g < NSEG; g++) all &= ok_off[g][r];
        if (all) { noff++; if (off < 0) off = r; }
    }
    fprintf(stderr, "offsets every segment admits: %d (first %d)\n", noff, off);
    if (off != 837) { fprintf(stderr, "the datapath differs from sfu/lg2.c's (offset 837)\n"); return 1; }
    printf("/* lg2_tab.c — MUFU.LG2's table: one row {A, B, C} per 1/64 of the\n"
           " * mantissa (sfu/lg2.c).  Generated by sfu/gen/lg2gen.c from the H100's\n"
           " * outputs on all 2^24 inputs of [0.5, 2); do not edit. */\n"
           "#include <stdint.h>\n\n"
           "const int32_t sfu_lg2_tab[64][3] = {\n");
    for (int g = 0; g < NSEG; g++) {
        if (sol[g].n != 1) { fprintf(stderr, "segment %d: %d solutions\n", g, sol[g].n); return 1; }
        int64_t a = (sol[g].lo - 837 + 4095) >> 12;   /* (a << 12) + 837 in [lo, hi] */
        if ((a << 12) + 837 > sol[g].hi) { fprintf(stderr, "segment %d: no constant\n", g); return 1; }
        printf("    {%lld, %lld, %lld},\n", (long long)a, (long long)sol[g].b, (long long)sol[g].c);
    }
    printf("};\n");
    return 0;
}
