/* seg.h — fits one table segment of a quadratic interpolator.
 *
 * Given the points (j, q_j, y_j) of one segment (j the low input bits, q_j
 * the interpolator's truncated square of j, y_j the hardware's output in
 * units of its last place), find integers C0, C1, C2 with
 *
 *     floor((C0 + C1 j + C2 q_j) / 2^s) == y_j      for every point.
 *
 * With A_j = y_j 2^s - C1 j - C2 q_j, C0 must lie in
 * [max A_j, min A_j + 2^s - 1]: a solution exists iff the spread
 * max A - min A is below 2^s.  The spread is convex in (C1, C2), so a
 * nested ternary search from the least-squares fit finds its minimum. */
#include <math.h>
#include <stdint.h>

typedef struct { int64_t c0, c1, c2, spread; } seg_fit;

static int64_t seg_spread(const int64_t *Y, const int64_t *j, const int64_t *q, int n, int step, int64_t c1, int64_t c2,
                          int64_t *mx)
{
    int64_t hi = INT64_MIN, lo = INT64_MAX;
    for (int i = 0; i < n; i += step) {
        int64_t a = Y[i] - c1 * j[i] - c2 * q[i];
        if (a > hi) hi = a;
        if (a < lo) lo = a;
    }
    if (mx) *mx = hi;
    return hi - lo;
}

static int64_t seg_best_c1(const int64_t *Y, const int64_t *j, const int64_t *q, int n, int step, int64_t c2, int64_t lo,
                           int64_t hi, int64_t *best)
{
    while (hi - lo > 2) {
        int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        int64_t f1 = seg_spread(Y, j, q, n, step, m1, c2, 0), f2 = seg_spread(Y, j, q, n, step, m2, c2, 0);
        if (f1 < f2) hi = m2;
        else if (f1 > f2) lo = m1;
        else { lo = m1; hi = m2; }
    }
    int64_t bf = INT64_MAX;
    for (int64_t c = lo; c <= hi; c++) {
        int64_t f = seg_spread(Y, j, q, n, step, c, c2, 0);
        if (f < bf) { bf = f; *best = c; }
    }
    return bf;
}

/* Y is scratch of n entries */
static seg_fit seg_solve(const int64_t *y, const int64_t *j, const int64_t *q, int n, int s, int64_t *Y)
{
    double S[3][4] = {{0}};
    for (int i = 0; i < n; i++) {
        double v[3] = {1, (double)j[i], (double)q[i]};
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) S[a][b] += v[a] * v[b];
            S[a][3] += v[a] * (double)y[i];
        }
    }
    for (int c = 0; c < 3; c++) {
        int p = c;
        for (int r = c + 1; r < 3; r++) if (fabs(S[r][c]) > fabs(S[p][c])) p = r;
        for (int k = 0; k < 4; k++) { double t = S[c][k]; S[c][k] = S[p][k]; S[p][k] = t; }
        for (int r = 0; r < 3; r++) if (r != c && S[c][c] != 0) {
            double f = S[r][c] / S[c][c];
            for (int k = 0; k < 4; k++) S[r][k] -= f * S[c][k];
        }
    }
    double b = S[1][1] ? S[1][3] / S[1][1] : 0, c = S[2][2] ? S[2][3] / S[2][2] : 0;
    for (int i = 0; i < n; i++) Y[i] = y[i] * ((int64_t)1 << s);
    double sc = ldexp(1, s);
    int64_t c2e = llround(c * sc), c1e = llround(b * sc);
    double mj = 0, mq = 0, cjq = 0, vj = 0;
    for (int i = 0; i < n; i++) { mj += j[i]; mq += q[i]; }
    mj /= n; mq /= n;
    for (int i = 0; i < n; i++) { cjq += (j[i] - mj) * (q[i] - mq); vj += (j[i] - mj) * (j[i] - mj); }
    double k = vj ? -cjq / vj : 0;
    int64_t R = ((int64_t)1 << (s + 2)) + 64;
    seg_fit best = {0, 0, 0, INT64_MAX};
    int step = n >= 8192 ? 8 : 1;
    int64_t l2 = c2e - R, h2 = c2e + R, t;
    while (h2 - l2 > 2) {
        int64_t m1 = l2 + (h2 - l2) / 3, m2 = h2 - (h2 - l2) / 3;
        int64_t e1 = c1e + llround(k * (double)(m1 - c2e)), e2 = c1e + llround(k * (double)(m2 - c2e));
        int64_t f1 = seg_best_c1(Y, j, q, n, step, m1, e1 - R, e1 + R, &t);
        int64_t f2 = seg_best_c1(Y, j, q, n, step, m2, e2 - R, e2 + R, &t);
        if (f1 < f2) h2 = m2;
        else if (f1 > f2) l2 = m1;
        else { l2 = m1; h2 = m2; }
    }
    for (int64_t c2v = l2 - 4; c2v <= h2 + 4; c2v++) {
        int64_t e = c1e + llround(k * (double)(c2v - c2e)), c1v = 0;
        seg_best_c1(Y, j, q, n, step, c2v, e - R, e + R, &c1v);
        for (int64_t d = -2; d <= 2; d++) {
            int64_t mx, fs = seg_spread(Y, j, q, n, 1, c1v + d, c2v, &mx);
            if (fs < best.spread) { best.spread = fs; best.c1 = c1v + d; best.c2 = c2v; best.c0 = mx; }
        }
    }
    return best;
}
