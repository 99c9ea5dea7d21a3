/* bench_tc.c — the tensor-core model's throughput on its bit-exact path:
 * GFLOP/s of wgmma m64n256k16 f16->f32 (tc_dot_cols once, then tc_dot_row
 * per row of A, as tc_wgmma_exec runs the dense float forms; and, for
 * reference, tc_dot per output element, the general path) and of mma.sync
 * m16n8k16 f16->f32 (tc_mma_run,
 * fragments in and out, as interp/mma.c calls it), each beside a plain C
 * loop of float fmas over the same shape in the same run (the issue's
 * yardstick: target >= 0.25 of that loop).  One core, best of 3. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "tc/tc.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint32_t rnd(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static uint16_t f16v(uint32_t *s) { return (uint16_t)(((rnd(s) & 1) << 15) | ((13 + rnd(s) % 5) << 10) | (rnd(s) & 0x3ff)); }

/* the yardstick: D = A*B + C in float, same M, N, K; volatile sink keeps it */
static volatile float sink;
static double fma_loop(int M, int N, int K, const float *A, const float *B, float *C, int reps)
{
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int it = 0; it < reps; it++)
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    float acc = C[i * N + j];
                    for (int k = 0; k < K; k++)
                        acc = __builtin_fmaf(A[i * K + k], B[k * N + j], acc);
                    C[i * N + j] = acc;
                }
        double t = now() - t0;
        if (t < best) best = t;
    }
    sink = C[0];
    return 2.0 * M * N * K * reps / best * 1e-9;
}

int main(void)
{
    uint32_t s = 12345;
    /* wgmma m64n256k16 f16 -> f32 */
    enum { WM = 64, WN = 256, WK = 16 };
    static uint32_t a[WM][WK], b[WN][WK], d[WM * WN];
    for (int i = 0; i < WM; i++) for (int k = 0; k < WK; k++) a[i][k] = f16v(&s);
    for (int j = 0; j < WN; j++) for (int k = 0; k < WK; k++) b[j][k] = f16v(&s);
    struct tc_dot_op op = { .family = TC_FAM_WGMMA, .atype = TC_T_F16, .btype = TC_T_F16,
                            .ctype = TC_T_F32, .dtype = TC_T_F32, .k = WK, .shape_m = WM, .shape_n = WN };
    int reps = 20;
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int it = 0; it < reps; it++)
            for (int i = 0; i < WM; i++)
                for (int j = 0; j < WN; j++)
                    d[i * WN + j] = (uint32_t)tc_dot(&op, a[i], b[j], WK, d[i * WN + j]);
        double t = now() - t0;
        if (t < best) best = t;
    }
    double wg1 = 2.0 * WM * WN * WK * reps / best * 1e-9;
    /* the row path: B's columns decoded once per wgmma, a row of D per call */
    static tc_dcols cols;
    static uint32_t bflat[WN * WK];
    for (int j = 0; j < WN; j++) for (int k = 0; k < WK; k++) bflat[j * WK + k] = b[j][k];
    best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int it = 0; it < reps; it++) {
            tc_dot_cols(&op, bflat, WK, WN, WK, &cols);
            for (int i = 0; i < WM; i++)
                tc_dot_row(&op, a[i], &cols, &d[i * WN], &d[i * WN]);
        }
        double t = now() - t0;
        if (t < best) best = t;
    }
    double wg = 2.0 * WM * WN * WK * reps / best * 1e-9;
    static float fa[WM * WK], fb[WK * WN], fc[WM * WN];
    for (int i = 0; i < WM * WK; i++) fa[i] = (float)(rnd(&s) % 7) * 0.25f;
    for (int i = 0; i < WK * WN; i++) fb[i] = (float)(rnd(&s) % 5) * 0.5f;
    double wl = fma_loop(WM, WN, WK, fa, fb, fc, reps);

    /* mma.sync m16n8k16 f16 -> f32 through the fragments */
    ir_instr in;
    memset(&in, 0, sizeof in);
    in.op = IR_OP_MMA;
    in.modset[IR_M_M16N8K16 >> 6] |= 1ull << (IR_M_M16N8K16 & 63);
    in.ntypes = 4;
    in.types[0] = IR_T_F32; in.types[1] = IR_T_F16; in.types[2] = IR_T_F16; in.types[3] = IR_T_F32;
    tc_mma_form f;
    char why[160];
    if (!tc_mma_decode(&in, &f, why, sizeof why)) {
        printf("FAIL bench_tc: %s\n", why);
        return 1;
    }
    static uint64_t ma[32 * 4], mb[32 * 2], mc[32 * 4], md[32 * 4];
    for (int i = 0; i < 32 * 4; i++) ma[i] = f16v(&s) | (uint32_t)f16v(&s) << 16;
    for (int i = 0; i < 32 * 2; i++) mb[i] = f16v(&s) | (uint32_t)f16v(&s) << 16;
    int mreps = 20000;
    best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int it = 0; it < mreps; it++) {
            tc_mma_run(&f, ma, mb, mc, md);
            mc[it & 127] ^= md[it & 127] & 1;
        }
        double t = now() - t0;
        if (t < best) best = t;
    }
    double mm = 2.0 * 16 * 8 * 16 * mreps / best * 1e-9;
    double ml = fma_loop(16, 8, 16, fa, fb, fc, mreps);
    printf("%-30s %10s %14s %8s\n", "shape (bit-exact path)", "GFLOP/s", "fma loop GF/s", "ratio");
    printf("%-30s %10.3f %14.3f %8.2f\n", "wgmma m64n256k16 f16->f32", wg, wl, wg / wl);
    printf("%-30s %10.3f %14.3f %8.2f\n", "  the same, tc_dot per element", wg1, wl, wg1 / wl);
    printf("%-30s %10.3f %14.3f %8.2f\n", "mma.sync m16n8k16 f16->f32", mm, ml, mm / ml);
    return 0;
}
