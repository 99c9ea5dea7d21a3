/* sincos_fit.c — derives the H100's MUFU.SIN / MUFU.COS interpolation table
 * from its outputs and writes sfu/sincos_tab.c.
 *
 *   cc -O2 -std=c17 -D_GNU_SOURCE -ffp-contract=off -o sincos_fit sfu/gen/sincos_fit.c -lm
 *   ./sincos_fit DIR > sfu/sincos_tab.c
 *
 * DIR is the unpacked result of the probe (.dev/gpu/sfu/job.sh running
 * probe.cu on an H100; hwdata.h reads it); it uses the exhaustive sets
 * c_sin.ftz_05_1, c_sin.ftz_1_2 and c_cos.ftz_1_2 (inputs in radians).
 *
 * The unit's algorithm (sfu/sincos.c has the details): the argument, in
 * revolutions, is read as a fixed-point fraction of 25 bits; its top two
 * bits are the quadrant, the other 23 (f) index one function
 * G(f) ~ sin(2 pi f 2^-25) shared by both instructions (odd quadrants use
 * the ones' complement of f, quadrants 2 and 3 negate).  G(f) is the value
 *     V = C0[i] + C1[i] j + C2[i] S(j)        (units of 2^-37)
 * truncated to f32, with i = f >> 17 and j the 17 bits below, S(j) the
 * square of j from a truncated squarer (its folded partial products of
 * weight below 2^19 dropped) divided by 2^19.
 *
 * Each measured input, after the FMUL.RZ by 1/(2 pi) that ptxas puts
 * before MUFU, gives G at one f together with an interval for V (the f32
 * output's truncation); the three sets together give G at every f.  Per
 * segment i the program finds integers C1, C2 (a nested ternary search of
 * the convex infeasibility max(lo - C1 j - C2 S) - min(hi - C1 j - C2 S))
 * and the C0 that puts every V of the segment in its interval.  That C0 is
 * a multiple of 2^12 in every segment (its interval is one to 16 wide:
 * the unit's C0 has 25 fraction bits, C1 and C2 37), which the table
 * keeps.  The program checks all 2^23 values again and prints to stderr
 * how many differ (0 when the table is exact). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "hwdata.h"

#define QB 23          /* bits of f */
#define SEGB 6         /* index bits */
#define JB (QB - SEGB) /* bits of j */
#define SQCUT 19       /* the squarer keeps partial products of weight >= 2^SQCUT */
#define VFRAC 37       /* V is in units of 2^-VFRAC */
#define C0STEP 4096    /* C0 has 25 fraction bits */

static int64_t squarer(int64_t j)
{
    int64_t s = 0;
    for (int a = 0; a < JB; a++)
        if (j >> a & 1) {
            if (2 * a >= SQCUT)
                s += (int64_t)1 << (2 * a);
            for (int b = a + 1; b < JB; b++)
                if ((j >> b & 1) && a + b + 1 >= SQCUT)
                    s += (int64_t)1 << (a + b + 1);
        }
    return s >> SQCUT;
}

/* FMUL.RZ x * (float)(1 / (2 pi)) */
static uint32_t mul_rz(uint32_t x)
{
    double p = (double)r_u2f(x) * (double)r_u2f(0x3e22f983u);
    float f = (float)p;
    return r_f2u(f) - (fabs((double)f) > fabs(p));
}

/* the 25-bit fraction of a positive finite revolution count */
static uint32_t frac25(uint32_t r)
{
    int e = (int)(r >> 23), sh = e - 125;
    uint32_t m = (r & 0x7fffffu) | 0x800000u;
    if (!e)
        return 0;
    if (sh >= 25)
        return 0;
    return (sh >= 0 ? m << sh : sh > -32 ? m >> -sh : 0) & 0x1ffffffu;
}

static uint32_t *G;
static char *have;

static int take(const char *dir, const char *name, int cos)
{
    hwset s;
    if (hw_load(dir, name, &s))
        return -1;
    for (size_t i = 0; i < s.n; i++) {
        uint32_t k = frac25(mul_rz(s.x[i]));
        int quad = (int)(k >> QB) + cos;
        uint32_t f = k & ((1u << QB) - 1);
        if (quad & 1)
            f = ~f & ((1u << QB) - 1);
        uint32_t y = s.y[i] ^ (quad & 2 ? 0x80000000u : 0);
        if (y >> 31) {
            fprintf(stderr, "%s: input %08x: negative G\n", name, s.x[i]);
            return -1;
        }
        if (have[f] && G[f] != y) {
            fprintf(stderr, "%s: input %08x: G(%u) = %08x and %08x: the symmetry does not hold\n", name, s.x[i], f, G[f], y);
            return -1;
        }
        G[f] = y;
        have[f] = 1;
    }
    free(s.x);
    free(s.y);
    return 0;
}

static int64_t infeas(const int64_t *lo, const int64_t *hi, const int64_t *sq, int n, int64_t c1, int64_t c2, int64_t *c0)
{
    int64_t A = INT64_MIN, B = INT64_MAX;
    for (int j = 0; j < n; j++) {
        int64_t t = c1 * j + c2 * sq[j];
        if (lo[j] - t > A) A = lo[j] - t;
        if (hi[j] - t < B) B = hi[j] - t;
    }
    if (c0) *c0 = A;
    return A - B;
}

static int64_t best_c1(const int64_t *lo, const int64_t *hi, const int64_t *sq, int n, int64_t c2, int64_t l, int64_t h,
                       int64_t *best)
{
    while (h - l > 2) {
        int64_t m1 = l + (h - l) / 3, m2 = h - (h - l) / 3;
        int64_t f1 = infeas(lo, hi, sq, n, m1, c2, 0), f2 = infeas(lo, hi, sq, n, m2, c2, 0);
        if (f1 < f2) h = m2;
        else if (f1 > f2) l = m1;
        else { l = m1; h = m2; }
    }
    int64_t bf = INT64_MAX;
    for (int64_t c = l; c <= h; c++) {
        int64_t f = infeas(lo, hi, sq, n, c, c2, 0);
        if (f < bf) { bf = f; *best = c; }
    }
    return bf;
}

/* V(i, j) with the table row (the same arithmetic as sfu/sincos.c) */
static uint32_t gval(const int64_t *row, int64_t j, int64_t sq)
{
    int64_t v = row[0] + row[1] * j + row[2] * sq;
    double d = ldexp((double)v, -VFRAC);
    float f = (float)d;
    return r_f2u(f) - ((double)f > d);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sincos_fit DIR > sfu/sincos_tab.c\n");
        return 2;
    }
    G = calloc(1u << QB, 4);
    have = calloc(1u << QB, 1);
    if (take(argv[1], "c_sin.ftz_05_1.u32", 0) || take(argv[1], "c_sin.ftz_1_2.u32", 0) ||
        take(argv[1], "c_cos.ftz_1_2.u32", 1))
        return 1;
    for (uint32_t f = 0; f < 1u << QB; f++)
        if (!have[f]) {
            fprintf(stderr, "G(%u) not measured\n", f);
            return 1;
        }
    int n = 1 << JB;
    int64_t *lo = malloc(8 * (size_t)n), *hi = malloc(8 * (size_t)n), *sq = malloc(8 * (size_t)n);
    int64_t tab[1 << SEGB][3];
    for (int j = 0; j < n; j++)
        sq[j] = squarer(j);
    int fails = 0;
    for (int i = 0; i < 1 << SEGB; i++) {
        for (int j = 0; j < n; j++) {
            uint32_t u = G[(i << JB) + j];
            int e = (int)((u >> 23) & 255) - 150 + VFRAC;   /* the output's last place, in units of 2^-VFRAC */
            lo[j] = (int64_t)ldexp(r_u2f(u), VFRAC);
            hi[j] = lo[j] + (e > 0 ? ((int64_t)1 << e) : 1) - 1;
        }
        /* start from the derivatives of sin(2 pi r) at the segment's start */
        double r0 = ldexp(i << JB, -25), t = 2 * M_PI;
        int64_t e1 = llround(t * cos(t * r0) * ldexp(1, VFRAC - 25));
        int64_t e2 = llround(-0.5 * t * t * sin(t * r0) * ldexp(1, 2 * VFRAC - 50 + SQCUT - VFRAC));
        int64_t R1 = llabs(e1) / 100 + 64, R2 = llabs(e2) * 3 / 10 + 64, l2 = e2 - R2, h2 = e2 + R2, c1 = 0;
        while (h2 - l2 > 2) {
            int64_t m1 = l2 + (h2 - l2) / 3, m2 = h2 - (h2 - l2) / 3;
            int64_t f1 = best_c1(lo, hi, sq, n, m1, e1 - R1, e1 + R1, &c1);
            int64_t f2 = best_c1(lo, hi, sq, n, m2, e1 - R1, e1 + R1, &c1);
            if (f1 < f2) h2 = m2;
            else if (f1 > f2) l2 = m1;
            else { l2 = m1; h2 = m2; }
        }
        /* the minimum over integer C1 is not exactly convex in C2: scan
         * around the ternary search's end, wider until a fit is found */
        int64_t bF = 1;
        for (int64_t w = 16; bF > 0 && w <= 256; w *= 4)
        for (int64_t c2 = l2 - w; c2 <= h2 + w; c2++) {
            int64_t f = best_c1(lo, hi, sq, n, c2, e1 - R1, e1 + R1, &c1), c0;
            if (f > 0 || f >= bF)
                continue;
            /* C0 is a multiple of 2^12 (2^-25 in value) in every segment:
             * take the one in [c0, c0 - f] */
            infeas(lo, hi, sq, n, c1, c2, &c0);
            int64_t c0r = (c0 + C0STEP - 1) / C0STEP * C0STEP;
            if (c0r > c0 - f)
                continue;
            bF = f;
            tab[i][0] = c0r;
            tab[i][1] = c1;
            tab[i][2] = c2;
        }
        if (bF > 0) {
            fprintf(stderr, "segment %d: no C0 (a multiple of 2^12), C1, C2 fits\n", i);
            fails++;
        }
    }
    long bad = 0;
    for (uint32_t f = 0; f < 1u << QB; f++)
        bad += gval(tab[f >> JB], f & (n - 1), sq[f & (n - 1)]) != G[f];
    fprintf(stderr, "sincos_fit: %d segments, %ld of %u values of G differ\n", 1 << SEGB, bad, 1u << QB);
    printf("/* sincos_tab.c — MUFU.SIN / MUFU.COS interpolation table of the H100,\n"
           " * generated by sfu/gen/sincos_fit.c from the GPU's outputs (see there;\n"
           " * sfu/sincos.c uses it).  Row i, for the revolution fractions f with\n"
           " * f >> 17 == i: C0 (units of 2^-25), C1 and C2 (units of 2^-37).\n"
           " * Do not edit. */\n"
           "#include <stdint.h>\n\n"
           "const int32_t sfu_sincos_tab[64][3] = {\n");
    for (int i = 0; i < 1 << SEGB; i++)
        printf("    {%lld, %lld, %lld},\n", (long long)(tab[i][0] / C0STEP), (long long)tab[i][1], (long long)tab[i][2]);
    printf("};\n");
    return fails || bad ? 1 : 0;
}
