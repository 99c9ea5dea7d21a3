/* test_tc_rows.c — tc_dot_row (a whole row of outputs against decoded
 * columns, the wgmma fast path) must give tc_dot's bits for every output.
 *
 * For every dense floating-point wgmma form (f16, bf16, tf32, e4m3, e5m2 and
 * the mixed fp8 pairs; f32 and f16 D; with and without C) random tiles are
 * drawn from a seeded generator that mixes: exponents clustered so that the
 * alignment cut matters, zeros of both signs, subnormals, the largest
 * finite values, and now and then an infinity or NaN in A, B or C; widths
 * of N from 1 to 256 (partial 8-column steps included).  Each output is
 * compared with tc_dot over the same raw operands; a failure prints the
 * form, the position and both results. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "tc/dot.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

typedef struct { int ebits, mbits, bias; } tfmt;
static tfmt fmt_of(int t)
{
    switch (t) {
    case TC_T_F16: return (tfmt){ 5, 10, 15 };
    case TC_T_BF16: return (tfmt){ 8, 7, 127 };
    case TC_T_TF32: return (tfmt){ 8, 10, 127 };
    case TC_T_F32: return (tfmt){ 8, 23, 127 };
    case TC_T_E4M3: return (tfmt){ 4, 3, 7 };
    default: return (tfmt){ 5, 2, 15 }; /* e5m2 */
    }
}

/* one element of type t; centre: the exponent field the values cluster at;
 * special: per-mille chance of an infinity or NaN */
static int uniform; /* every element the largest significand at the centre, positive: the sum of a
                     * row's cut products then nears 2^31 (the int32 lanes' edge) */

static uint32_t elem(int t, int centre, int special)
{
    tfmt f = fmt_of(t);
    if (uniform) {
        uint32_t e = centre < 1 ? 1u : (uint32_t)centre, m = (1u << f.mbits) - 1 - (uint32_t)(next() % 2);
        if (t == TC_T_E4M3 && e >= 15)
            e = 15, m = 6;
        uint32_t bits = e << f.mbits | m;
        return t == TC_T_TF32 ? bits << 13 : bits;
    }
    uint32_t emax = (1u << f.ebits) - 1, r = (uint32_t)next();
    uint32_t sgn = (r >> 31) & 1, m = (uint32_t)(next() & ((1u << f.mbits) - 1));
    uint32_t e;
    int pick = (int)(r % 1000);
    if (pick < special)
        e = emax, m = (r & 2) ? 0 : (m | 1);                 /* infinity or NaN */
    else if (pick < special + 40)
        e = 0, m = (r & 4) ? 0 : m;                          /* zero or subnormal */
    else if (pick < special + 50)
        e = emax - 1;                                        /* near the top */
    else {
        int x = centre + (int)(next() % 13) - 6;             /* clustered */
        e = x < 1 ? 1 : x > (int)emax - 1 ? emax - 1 : (uint32_t)x;
    }
    if (t == TC_T_E4M3 && e == emax && m == 7 && pick >= special)
        m = 6;                                               /* e4m3: only S.1111.111 is NaN */
    uint32_t bits = sgn << (f.ebits + f.mbits) | e << f.mbits | m;
    if (t == TC_T_TF32)
        bits = bits << 13 | (uint32_t)(next() & 0x1fff);     /* the ignored low bits */
    return bits;
}

static const char *nm(int t)
{
    switch (t) {
    case TC_T_F16: return "f16";
    case TC_T_BF16: return "bf16";
    case TC_T_TF32: return "tf32";
    case TC_T_F32: return "f32";
    case TC_T_E4M3: return "e4m3";
    default: return "e5m2";
    }
}

static void run_form(int at, int bt, int dt, int no_c, int trials)
{
    static uint32_t a[TC_COLS_K], b[TC_COLS_N * TC_COLS_K], cin[TC_COLS_N], out[TC_COLS_N];
    static tc_dcols cols;
    int fp8 = at == TC_T_E4M3 || at == TC_T_E5M2;
    int k = fp8 ? 32 : at == TC_T_TF32 ? 8 : 16;
    struct tc_dot_op op = { .family = TC_FAM_WGMMA, .atype = (uint8_t)at, .btype = (uint8_t)bt,
                            .ctype = (uint8_t)dt, .dtype = (uint8_t)dt, .no_c = (uint8_t)no_c,
                            .k = (uint16_t)k, .shape_m = 64, .shape_n = 256 };
    if (!tc_dot_fast(&op)) {
        printf("FAIL tc_rows: .%s.%s.%s is not on the fast path\n", nm(dt), nm(at), nm(bt));
        check_failures++;
        return;
    }
    tfmt fa = fmt_of(at), fb = fmt_of(bt), fc = fmt_of(dt);
    long bad = 0, total = 0, sub = 0, inf = 0, nan = 0;
    for (int tr = 0; tr < trials; tr++) {
        int n = tr % 5 == 0 ? 1 + (int)(next() % TC_COLS_N) : 8 * (1 + (int)(next() % 32));
        int special = tr % 3 == 0 ? 0 : (int)(next() % 8);
        uniform = tr % 7 == 3;
        int ca = (int)(next() % ((1u << fa.ebits) - 1)), cb = (int)(next() % ((1u << fb.ebits) - 1));
        int cc = ca - fa.bias + cb - fb.bias + fc.bias + (int)(next() % 9) - 4;
        tc_dot_cols(&op, b, k, 0, k, &cols); /* an empty decode must be harmless */
        for (int c = 0; c < n; c++)
            for (int i = 0; i < k; i++)
                b[c * k + i] = elem(bt, cb, special);
        tc_dot_cols(&op, b, (uint32_t)k, n, k, &cols);
        for (int row = 0; row < 8; row++) {
            for (int i = 0; i < k; i++)
                a[i] = elem(at, ca, special);
            int centre = cc < 1 ? 1 : cc > (1 << fc.ebits) - 2 ? (1 << fc.ebits) - 2 : cc;
            for (int c = 0; c < n; c++)
                cin[c] = elem(dt, centre, special);
            tc_dot_row(&op, a, &cols, cin, out);
            for (int c = 0; c < n; c++) {
                uint64_t want = tc_dot(&op, a, b + c * k, k, no_c ? 0 : cin[c]);
                total++;
                uint32_t ex = dt == TC_T_F16 ? (uint32_t)(want >> 10 & 31) : (uint32_t)(want >> 23 & 255);
                uint32_t emx = dt == TC_T_F16 ? 31 : 255, mm = dt == TC_T_F16 ? 0x3ff : 0x7fffff;
                sub += ex == 0 && (want & mm);
                inf += ex == emx && !(want & mm);
                nan += ex == emx && (want & mm);
                if (out[c] != (uint32_t)want) {
                    if (!bad)
                        printf("FAIL tc_rows/%s.%s.%s%s: trial %d row %d column %d of %d: "
                               "tc_dot_row 0x%08x, tc_dot 0x%08" PRIx64 "\n", nm(dt), nm(at), nm(bt),
                               no_c ? "/no_c" : "", tr, row, c, n,
                               out[c], want);
                    bad++;
                }
            }
        }
    }
    if (bad) {
        printf("FAIL tc_rows/%s.%s.%s%s: %ld of %ld outputs differ\n", nm(dt), nm(at), nm(bt),
               no_c ? "/no_c" : "", bad, total);
        check_failures++;
        return;
    }
    printf("PASS tc_rows/%s.%s.%s%s (%ld outputs: %ld subnormal, %ld infinite, %ld NaN)\n", nm(dt), nm(at),
           nm(bt), no_c ? "/no_c" : "", total, sub, inf, nan);
}

int main(void)
{
    static const int pairs[][2] = {
        { TC_T_F16, TC_T_F16 }, { TC_T_BF16, TC_T_BF16 }, { TC_T_TF32, TC_T_TF32 },
        { TC_T_E4M3, TC_T_E4M3 }, { TC_T_E5M2, TC_T_E5M2 }, { TC_T_E4M3, TC_T_E5M2 },
        { TC_T_E5M2, TC_T_E4M3 },
    };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        for (int d = 0; d < 2; d++) {
            int dt = d ? TC_T_F16 : TC_T_F32;
            if (dt == TC_T_F16 && (pairs[p][0] == TC_T_BF16 || pairs[p][0] == TC_T_TF32))
                continue; /* wgmma has f16 D only for f16 and fp8 inputs */
            for (int no_c = 0; no_c < 2; no_c++)
                run_form(pairs[p][0], pairs[p][1], dt, no_c, 60);
        }
    CHECK_DONE();
}
