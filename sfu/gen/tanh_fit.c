/* tanh_fit.c — reconstructs the coefficient table of the H100's MUFU.TANH
 * from its outputs and writes sfu/tanh_tab.c.
 *
 *   cc -O2 -std=c17 -D_GNU_SOURCE -o tanh_fit sfu/gen/tanh_fit.c -lm
 *   ./tanh_fit DIR > sfu/tanh_tab.c
 *
 * DIR is the unpacked result of sfu/gen/tanh_probe.cu run on an H100
 * (index.txt and bNN.d2.xz: for each binade [2^(NN-8), 2^(NN-7)) of
 * positive x the output at every 2^G-th input, G the largest power of two
 * over whose aligned groups the output is constant; stored as second
 * differences of the output's bits, byte plane by byte plane).
 *
 * The datapath (sfu/tanh.c says it in full): in binade e the unit reads R
 * mantissa bits of x (R = 23 - G: the probe's G); all but the low 17
 * select a segment, the low 17 are j; V = C0 + C1 j + C2 T(j), T(j) the
 * square of j with the partial products of weight below 2^19 dropped (a
 * truncated squarer), and the result is V 2^-P cut to 24 significant bits;
 * P, per binade, is the least (from 36) for which every segment of the
 * binade has a solution (a solution at P gives one at P + 1).  For every
 * segment this program finds integers C0, C1, C2 that give every measured
 * output: the
 * outputs bound V to an interval per input, so C0 must lie in
 * [max(lo - C1 j - C2 T), min(hi - C1 j - C2 T)]; that spread is convex in
 * (C1, C2), which a nested ternary search from the least-squares fit
 * minimises.  Of the feasible C0 it takes the least, and it stops (exit 1,
 * the segment named on stderr) if any segment has none. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

enum { NB = 11, JB = 17, CT = 19 };

typedef struct { int g; uint32_t lo, n; uint64_t fnv; uint32_t *y; } binade;

static int load(const char *dir, int b, binade *B)
{
    char path[1024], line[512], key[8];
    snprintf(path, sizeof path, "%s/index.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    snprintf(key, sizeof key, "b%02d ", b);
    int found = 0;
    unsigned long long fnv = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, 4) &&
            sscanf(line + 4, "lo=%x G=%d n=%u fnv=%llx", &B->lo, &B->g, &B->n, &fnv) == 4)
            found = 1;
    fclose(f);
    if (!found) { fprintf(stderr, "binade %d: not in %s/index.txt\n", b, dir); return -1; }
    B->fnv = fnv;
    unsigned char *raw = malloc(4ull * B->n);
    snprintf(path, sizeof path, "xz -dc '%s/b%02d.d2.xz'", dir, b);
    FILE *p = popen(path, "r");
    size_t got = p ? fread(raw, 1, 4ull * B->n, p) : 0;
    if (p) pclose(p);
    if (got != 4ull * B->n) { fprintf(stderr, "binade %d: %zu bytes, expected %u\n", b, got, 4 * B->n); free(raw); return -1; }
    B->y = malloc(4ull * B->n);
    uint32_t p0 = 0, p1 = 0;
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < B->n; i++) {
        uint32_t d2 = raw[i] | (uint32_t)raw[B->n + i] << 8 | (uint32_t)raw[2 * B->n + i] << 16 |
                      (uint32_t)raw[3 * B->n + i] << 24;
        p1 += d2;
        p0 += p1;
        B->y[i] = p0;
        for (int q = 0; q < 4; q++) h = (h ^ ((p0 >> (8 * q)) & 255)) * 1099511628211ull;
    }
    free(raw);
    if (h != B->fnv) { fprintf(stderr, "binade %d: checksum differs\n", b); return -1; }
    return 0;
}

/* T(j): the square of the 17-bit j from the partial products of weight
 * 2^19 and above, over 2^19 (b_k b_l, k < l, has weight 2^(k+l+1); b_k
 * alone 2^(2k)) */
static int64_t tsq(uint32_t j)
{
    int64_t s = 0;
    for (int k = 0; k < JB; k++)
        if (j >> k & 1) {
            if (2 * k >= CT) s += (int64_t)1 << (2 * k);
            for (int l = k + 1; l < JB; l++)
                if ((j >> l & 1) && k + l + 1 >= CT) s += (int64_t)1 << (k + l + 1);
        }
    return s >> CT;
}

/* ---- the solver: integers c0, c1, c2 with lo_i <= c0 + c1 j_i + c2 q_i <= hi_i */
typedef struct { int64_t c0, c1, c2, g; } fit3;
typedef struct { int n; const int64_t *lo, *hi, *j, *q; } pts;

/* max_i (lo_i - c1 j_i - c2 q_i) - min_i (hi_i - c1 j_i - c2 q_i): feasible iff <= 0 */
static int64_t spread(const pts *P, int step, int64_t c1, int64_t c2, int64_t *c0)
{
    int64_t mx = INT64_MIN, mn = INT64_MAX;
    for (int i = 0; i < P->n; i += step) {
        int64_t t = c1 * P->j[i] + c2 * P->q[i], a = P->lo[i] - t, b = P->hi[i] - t;
        if (a > mx) mx = a;
        if (b < mn) mn = b;
    }
    if (c0) *c0 = mx;
    return mx - mn;
}

static int64_t best_c1(const pts *P, int step, int64_t c2, int64_t a, int64_t b, int64_t *bc)
{
    while (b - a > 2) {
        int64_t m1 = a + (b - a) / 3, m2 = b - (b - a) / 3;
        int64_t f1 = spread(P, step, m1, c2, 0), f2 = spread(P, step, m2, c2, 0);
        if (f1 < f2) b = m2;
        else if (f1 > f2) a = m1;
        else { a = m1; b = m2; }
    }
    int64_t bf = INT64_MAX;
    for (int64_t c = a; c <= b; c++) {
        int64_t f = spread(P, step, c, c2, 0);
        if (f < bf) { bf = f; *bc = c; }
    }
    return bf;
}

static fit3 solve(const pts *P, int64_t c1a, int64_t c1b, int64_t c2a, int64_t c2b)
{
    int step = P->n >= 8192 ? 4 : 1;
    int64_t t, a = c2a, b = c2b;
    while (b - a > 2) {
        int64_t m1 = a + (b - a) / 3, m2 = b - (b - a) / 3;
        int64_t f1 = best_c1(P, step, m1, c1a, c1b, &t), f2 = best_c1(P, step, m2, c1a, c1b, &t);
        if (f1 < f2) b = m2;
        else if (f1 > f2) a = m1;
        else { a = m1; b = m2; }
    }
    fit3 r = {0, 0, 0, INT64_MAX};
    /* the least spread over integer c1 need not be convex in c2: look
     * around the ternary search's end, widely if it found no fit */
    for (int64_t c2 = a - 3; c2 <= b + 3; c2++) {
        int64_t c1 = 0;
        best_c1(P, step, c2, c1a, c1b, &c1);
        for (int64_t d = -3; d <= 3; d++) {
            int64_t c0, g = spread(P, 1, c1 + d, c2, &c0);
            if (g < r.g) { r.g = g; r.c0 = c0; r.c1 = c1 + d; r.c2 = c2; }
        }
    }
    for (int64_t c2 = r.c2 - 256, mid = r.c2; r.g > 0 && c2 <= mid + 256; c2++) {
        int64_t c1 = 0;
        best_c1(P, 1, c2, c1a, c1b, &c1);
        for (int64_t d = -3; d <= 3; d++) {
            int64_t c0, g = spread(P, 1, c1 + d, c2, &c0);
            if (g < r.g) { r.g = g; r.c0 = c0; r.c1 = c1 + d; r.c2 = c2; }
        }
    }
    return r;
}

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* one segment: the points of binade B whose read bits k have k >> JB == s */
static int fit_segment(const binade *B, int e, int R, int P, uint32_t s, uint32_t stride, const int64_t *tq, fit3 *out,
                       int64_t *buf)
{
    int64_t *lo = buf, *hi = buf + (1 << JB), *jj = buf + (2 << JB), *qq = buf + (3 << JB);
    double *yv = (double *)(buf + (4 << JB));
    int n = 0;
    uint32_t first = (s << JB) << (23 - R), last = ((s + 1) << JB) << (23 - R);
    for (uint32_t m = first; m < last; m += stride << B->g) {
        uint32_t y = B->y[m >> B->g], k = m >> (23 - R);
        int ey = (int)((y >> 23) & 255) - 127, sh = P + ey - 23;
        int64_t Y = (y & 0x7fffff) | 0x800000;
        if (sh < 0 || (y >> 31)) { fprintf(stderr, "binade %d: output %08x below the fixed point\n", e, y); return -1; }
        lo[n] = Y << sh;
        hi[n] = ((Y + 1) << sh) - 1;
        jj[n] = k & ((1u << JB) - 1);
        qq[n] = tq[jj[n]];
        yv[n] = ldexp(u2f(y), P);
        n++;
    }
    /* least squares y ~ a + b j + c q for the search's start */
    double S[3][4] = {{0}};
    for (int i = 0; i < n; i++) {
        double v[3] = {1, (double)jj[i], (double)qq[i]};
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) S[a][b] += v[a] * v[b];
            S[a][3] += v[a] * yv[i];
        }
    }
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            if (r != c && S[c][c] != 0) {
                double t = S[r][c] / S[c][c];
                for (int k = 0; k < 4; k++) S[r][k] -= t * S[c][k];
            }
    double b1 = S[1][1] ? S[1][3] / S[1][1] : 0, b2 = S[2][2] ? S[2][3] / S[2][2] : 0;
    int64_t r1 = (int64_t)(fabs(b1) * 0.02) + 4096, r2 = (int64_t)(fabs(b2) * 0.1) + 4096;
    pts Pt = {n, lo, hi, jj, qq};
    *out = solve(&Pt, (int64_t)b1 - r1, (int64_t)b1 + r1, (int64_t)b2 - r2, (int64_t)b2 + r2);
    return out->g <= 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: tanh_fit DIR > sfu/tanh_tab.c\n"); return 2; }
    /* diagnostics: tanh_fit DIR B fits binade B alone and prints its segments */
    int only = argc > 2 ? atoi(argv[2]) : -1;
    int64_t *tq = malloc(8 << JB), *buf = malloc(8ull * (5 << JB));
    for (uint32_t j = 0; j < (1u << JB); j++) tq[j] = tsq(j);
    int R[NB], P[NB], first[NB + 1], nseg = 0, bad = 0;
    static int64_t tab[1 << 12][3];
    for (int b = 0; b < NB; b++) {
        int e = b - 8;
        first[b] = nseg;
        binade B;
        if (only >= 0 && b != only) { R[b] = P[b] = 0; continue; }
        if (load(argv[1], b, &B)) return 1;
        /* the unit reads R = 23 - G mantissa bits: the output is constant
         * over the 2^G inputs that share them (and varies within 2^(G+1)) */
        R[b] = 23 - B.g;
        if (R[b] < JB || R[b] - JB > 8) { fprintf(stderr, "binade %d: %d bits read: not this datapath\n", e, R[b]); return 1; }
        /* P: the least that fits every segment, tried on every 8th input first */
        P[b] = 0;
        for (int p = 36; p <= 46 && !P[b]; p++) {
            int ok = 1;
            for (uint32_t stride = 8; stride && ok; stride >>= 3)
                for (uint32_t s = 0; s < (1u << (R[b] - JB)) && ok; s++) {
                    fit3 f;
                    int r = fit_segment(&B, e, R[b], p, s, stride, tq, &f, buf);
                    if (r < 0) return 1;
                    ok = !r;
                    if (ok && stride == 1) {
                        tab[nseg + s][0] = f.c0;
                        tab[nseg + s][1] = f.c1;
                        tab[nseg + s][2] = f.c2;
                    }
                    if (only >= 0)
                        fprintf(stderr, "binade %d R %d P %d segment %u (every %u): %s c0 %lld c1 %lld c2 %lld slack %lld\n", e, R[b],
                                p, s, stride, ok ? "fits" : "no fit", (long long)f.c0, (long long)f.c1, (long long)f.c2,
                                (long long)-f.g);
                }
            if (ok) P[b] = p;
        }
        if (!P[b]) { fprintf(stderr, "binade %d: no fit for any P\n", e); bad++; }
        nseg += 1 << (R[b] - JB);
        free(B.y);
    }
    first[NB] = nseg;
    if (bad) { fprintf(stderr, "%d segments without a fit\n", bad); return 1; }
    if (only >= 0) return 0;
    printf("/* tanh_tab.c — MUFU.TANH's coefficients, reconstructed from the H100's\n"
           " * outputs by sfu/gen/tanh_fit.c (do not edit; regenerate with the command\n"
           " * there).  Binade i covers x in [2^(i-8), 2^(i-7)); sfu/tanh.c says how\n"
           " * the unit uses them. */\n#include <stdint.h>\n\n");
    printf("const unsigned char sfu_tanh_read[%d] = {", NB);   /* mantissa bits read */
    for (int b = 0; b < NB; b++) printf("%s%d", b ? ", " : "", R[b]);
    printf("};\nconst unsigned char sfu_tanh_lsb[%d] = {", NB);   /* V's last place is 2^-lsb */
    for (int b = 0; b < NB; b++) printf("%s%d", b ? ", " : "", P[b]);
    printf("};\nconst unsigned short sfu_tanh_first[%d] = {", NB);   /* first segment of binade i */
    for (int b = 0; b < NB; b++) printf("%s%d", b ? ", " : "", first[b]);
    printf("};\n/* {C0, C1, C2} per segment */\nconst int64_t sfu_tanh_coef[%d][3] = {\n", nseg);
    for (int s = 0; s < nseg; s++) printf("    {%lld, %lld, %lld},\n", (long long)tab[s][0], (long long)tab[s][1], (long long)tab[s][2]);
    printf("};\n");
    return 0;
}
