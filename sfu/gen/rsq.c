/* rsq.c — derives the coefficient tables of MUFU.RSQ and MUFU.SQRT from
 * the H100's outputs and writes sfu/rsq_tab.c.
 *
 *   cc -O2 -std=c17 -D_GNU_SOURCE -ffp-contract=off -o rsq sfu/gen/rsq.c -lm
 *   ./rsq DIR > sfu/rsq_tab.c
 *   ./rsq DIR hashes     (the per-segment hashes of tests/unit/test_sfu_rsq.c)
 *
 * DIR is the unpacked result of the H100 probe (hwdata.h reads it); the
 * sets used are c_rsqrt.ftz_1_4 and c_sqrt.ftz_1_4: every f32 input of
 * [1, 4), 2^24 each.
 *
 * The datapath (sfu/rsq.c has the same code, and its comment the story):
 * the input's 24 bits d over 1.0 (exponent parity, then the 23 mantissa
 * bits) split into the segment i = d >> 17 (128 segments) and j = d mod
 * 2^17; S = C0[i] + C1[i] j + C2[i] Q(j), where Q is the top of a squarer
 * that keeps only the partial-product bits of j*j in columns 2^19 and up;
 * the result is S >> 17 (rsqrt, units of 2^-24 over 0.5) or S >> 18 (sqrt,
 * units of 2^-23 over 1.0).
 *
 * For each segment this program takes the least-squares C1, C2 and tries
 * the integers around them; for a pair (C1, C2) the values
 * A_j = y_j 2^sh - C1 j - C2 Q(j) must all lie in [C0 - 2^sh + 1, C0], so
 * C0 exists iff max A - min A < 2^sh.  Every segment of both functions has
 * a solution (the one exception, rsqrt of 1.0, is exactly 1.0 in the unit
 * and in sfu/rsq.c); of the C0 allowed, the one with the most trailing
 * zero bits is written.  The program then checks every input again and
 * fails (exit 1) if any output differs. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "hwdata.h"

/* the squarer (as sfu/rsq.c, which explains it): with H = j >> 9 and
 * L = j mod 2^9, 2 (H*H - H mod 2) + 4 sum over a of L_a (H >> (9 - a)) */
static int64_t squarer(uint32_t j)
{
    uint32_t h = j >> 9, l = j & 0x1ffu, x = 0;
    for (int a = 2; a <= 8; a++)
        x += (l >> a & 1) ? h >> (9 - a) : 0;
    return (int64_t)(2 * (h * h - (h & 1)) + 4 * x);
}

/* the same, partial product by partial product (a check on the above) */
static int64_t squarer_slow(uint32_t j)
{
    uint64_t q = 0;
    for (int a = 0; a < 17; a++)
        for (int b = 0; b < 17; b++)
            if ((j >> a & 1) && (j >> b & 1) && a + b >= 19 - (a != b) && (a == b || a < b))
                q += (uint64_t)1 << (a + b + (a != b));
    return (int64_t)(q >> 17);
}

typedef struct { int64_t c0, c1, c2; } coef;

/* FNV-1a over the little-endian bytes of each output of segment g */
static uint64_t seg_hash(const uint32_t *y, int g)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = (size_t)g << 17; i < (size_t)(g + 1) << 17; i++)
        for (int b = 0; b < 4; b++) h = (h ^ ((y[i] >> (8 * b)) & 255)) * 1099511628211ull;
    return h;
}

static int fit(const char *dir, const char *set, uint32_t ybase, int sh, int skip_one, coef *tab, uint64_t *hash)
{
    hwset s;
    if (hw_load(dir, set, &s)) return -1;
    if (s.n != 1u << 24 || s.x[0] != 0x3f800000u) { fprintf(stderr, "%s: expected all 2^24 inputs of [1, 4)\n", set); return -1; }
    for (int g = 0; g < 128; g++) hash[g] = seg_hash(s.y, g);
    const int64_t N = 1 << 17, M = (int64_t)1 << sh;
    int64_t *Y = malloc(8 * N), *Q = malloc(8 * N);
    for (int64_t j = 0; j < N; j++) Q[j] = squarer((uint32_t)j);
    for (int g = 0; g < 128; g++) {
        size_t base = (size_t)g << 17;
        int64_t j0 = skip_one && g == 0;   /* rsqrt(1) = 1 exactly: not on the segment's polynomial */
        double S[3][4] = {{0}};
        for (int64_t j = 0; j < N; j++) {
            Y[j] = (int64_t)(int32_t)(s.y[base + j] - ybase);
            double v[3] = {1, (double)j, (double)Q[j]};
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) S[a][b] += v[a] * v[b];
                S[a][3] += v[a] * (double)Y[j];
            }
        }
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                if (r != c) {
                    double f = S[r][c] / S[c][c];
                    for (int k = 0; k < 4; k++) S[r][k] -= f * S[c][k];
                }
        int64_t e1 = llround(S[1][3] / S[1][1] * (double)M), e2 = llround(S[2][3] / S[2][2] * (double)M);
        int64_t bw = INT64_MAX, lo = 0, hi = 0;
        for (int64_t c1 = e1 - 4; c1 <= e1 + 4; c1++)
            for (int64_t c2 = e2 - 4; c2 <= e2 + 4; c2++) {
                int64_t mn = INT64_MAX, mx = INT64_MIN;
                for (int64_t j = j0; j < N && (mx == INT64_MIN || mx - mn < bw); j++) {
                    int64_t a = Y[j] * M - c1 * j - c2 * Q[j];
                    if (a < mn) mn = a;
                    if (a > mx) mx = a;
                }
                if (mx - mn < bw) { bw = mx - mn; lo = mx; hi = mn + M - 1; tab[g].c1 = c1; tab[g].c2 = c2; }
            }
        if (bw >= M) { fprintf(stderr, "%s: segment %d: no (C0, C1, C2) fits (spread %lld)\n", set, g, (long long)bw); return -1; }
        tab[g].c0 = lo;
        for (int k = 62; k >= 0; k--) {
            int64_t m = (int64_t)((uint64_t)(lo + ((int64_t)1 << k) - 1) >> k << k);
            if (m >= lo && m <= hi) { tab[g].c0 = m; break; }
        }
    }
    /* check every input with the tables as written */
    size_t bad = 0;
    for (size_t i = 0; i < s.n; i++) {
        uint32_t d = (uint32_t)i, g = d >> 17, j = d & 0x1ffff;
        int64_t S = tab[g].c0 + tab[g].c1 * j + tab[g].c2 * squarer(j);
        uint32_t r = (skip_one && d == 0) ? 0x3f800000u : ybase + (uint32_t)(S >> sh);
        bad += r != s.y[i];
    }
    fprintf(stderr, "%s: %zu of %zu outputs differ\n", set, bad, s.n);
    free(Y); free(Q); free(s.x); free(s.y);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 && (argc != 3 || strcmp(argv[2], "hashes"))) { fprintf(stderr, "usage: rsq DIR [hashes]\n"); return 2; }
    for (uint32_t j = 0; j < 1u << 17; j++)
        if (squarer(j) != squarer_slow(j)) { fprintf(stderr, "squarer differs at %u\n", j); return 1; }
    static coef t[2][128];
    static uint64_t hash[2][128];
    if (fit(argv[1], "c_rsqrt.ftz_1_4.u32", 0x3f000000u, 17, 1, t[0], hash[0]) ||
        fit(argv[1], "c_sqrt.ftz_1_4.u32", 0x3f800000u, 18, 0, t[1], hash[1]))
        return 1;
    if (argc == 3) {
        printf("static const uint64_t h100_hash[2][128] = {\n");
        for (int f = 0; f < 2; f++) {
            printf("    {   /* %s */\n", f ? "sqrt.approx.ftz.f32" : "rsqrt.approx.ftz.f32");
            for (int g = 0; g < 128; g += 4)
                printf("        0x%016llxull, 0x%016llxull, 0x%016llxull, 0x%016llxull,\n", (unsigned long long)hash[f][g],
                       (unsigned long long)hash[f][g + 1], (unsigned long long)hash[f][g + 2], (unsigned long long)hash[f][g + 3]);
            printf("    },\n");
        }
        printf("};\n");
        return 0;
    }
    printf("/* rsq_tab.c — the coefficient tables of MUFU.RSQ and MUFU.SQRT (sfu/rsq.c).\n"
           " * Generated by sfu/gen/rsq.c from an H100's outputs over [1, 4); do not edit.\n"
           " * Row i is the segment of d >> 17 (d: exponent parity and mantissa of the\n"
           " * input): {C0, C1, C2}, S = C0 + C1 j + C2 Q(j). */\n"
           "#include <stdint.h>\n\n"
           "const int64_t sfu_rsq_tab[2][128][3] = {\n");
    for (int f = 0; f < 2; f++) {
        printf("    {   /* %s */\n", f ? "sqrt: result S >> 18 units of 2^-23 over 1.0" : "rsqrt: result S >> 17 units of 2^-24 over 0.5");
        for (int g = 0; g < 128; g++)
            printf("        {%lldll, %lld, %lld},\n", (long long)t[f][g].c0, (long long)t[f][g].c1, (long long)t[f][g].c2);
        printf("    },\n");
    }
    printf("};\n");
    return 0;
}
