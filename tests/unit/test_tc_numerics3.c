/* test_tc_numerics3.c — tc_dot (and tc_mma_run's fragment layouts) against
 * the H100, for the combinations of tests/hw/tc_numerics/probe3.cu (written
 * by gen_probe3.py): mma.sync forms run on raw per-lane registers, mma.sp
 * f16/bf16, wmma through CUDA's API, wgmma m64n8k32 with mixed 8-bit types.
 * The .bin format is test_tc_numerics.c's: outputs kept whole, then a 64-bit
 * FNV-1a hash of every block of 1024 (see the README beside the data).
 * Units: R and S combinations, D registers in [tile][lane][register] order
 * (8 bytes for f64, else 4); W and G combinations, D elements row-major per
 * tile (4 bytes, f16 zero-extended; f64 8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tc/dot.h"
#include "tc/warp.h"
#include "tests/hw/tc_numerics/gen.h"

enum part { P_R, P_S, P_W, P_G, P_GS };

struct combo {
    const char *name;
    int part, gid;
    int M, N, K;                       /* K: dense products */
    uint8_t dt, at, bt, ct, sat, bop;  /* enum tc_type, .satfinite, enum tc_bop */
    int ak, bk, ck;                    /* gen.h kinds (ck 14: tcg_s32c) */
};

#define F16 TC_T_F16
#define BF16 TC_T_BF16
#define TF32 TC_T_TF32
#define F32 TC_T_F32
#define F64 TC_T_F64
#define E4 TC_T_E4M3
#define E5 TC_T_E5M2
#define S8 TC_T_S8
#define U8 TC_T_U8
#define S4 TC_T_S4
#define U4 TC_T_U4
#define B1 TC_T_B1
#define S32 TC_T_S32

/* the order and the gid of each part follow gen_probe3.py's lists R, W, G */
static const struct combo combos[] = {
    {"mmar_m16n8k8_f32_bf16_f32", P_R, 200, 16, 8, 8, F32, BF16, BF16, F32, 0, 0, 1, 1, 5},
    {"mmar_m16n8k4_f32_tf32_f32", P_R, 201, 16, 8, 4, F32, TF32, TF32, F32, 0, 0, 2, 2, 5},
    {"mmar_m16n8k8_f16_f16_f16", P_R, 202, 16, 8, 8, F16, F16, F16, F16, 0, 0, 0, 0, 0},
    {"mmar_m16n8k32_f16_e5m2_f16", P_R, 203, 16, 8, 32, F16, E5, E5, F16, 0, 0, 4, 4, 0},
    {"mmar_m16n8k32_f32_e4m3e5m2_f32", P_R, 204, 16, 8, 32, F32, E4, E5, F32, 0, 0, 3, 4, 5},
    {"mmar_m16n8k32_f16_e5m2e4m3_f16", P_R, 205, 16, 8, 32, F16, E5, E4, F16, 0, 0, 4, 3, 0},
    {"mmar_m16n8k16_s32_s8_s32", P_R, 206, 16, 8, 16, S32, S8, S8, S32, 0, 0, 6, 6, 14},
    {"mmar_m16n8k16_s32_u8s8_s32_satfinite", P_R, 207, 16, 8, 16, S32, U8, S8, S32, 1, 0, 8, 6, 14},
    {"mmar_m16n8k32_s32_u8_s32", P_R, 208, 16, 8, 32, S32, U8, U8, S32, 0, 0, 8, 8, 14},
    {"mmar_m16n8k32_s32_s8u8_s32_satfinite", P_R, 209, 16, 8, 32, S32, S8, U8, S32, 1, 0, 6, 8, 14},
    {"mmar_m16n8k32_s32_s4_s32", P_R, 210, 16, 8, 32, S32, S4, S4, S32, 0, 0, 11, 11, 14},
    {"mmar_m16n8k32_s32_u4s4_s32_satfinite", P_R, 211, 16, 8, 32, S32, U4, S4, S32, 1, 0, 12, 11, 14},
    {"mmar_m16n8k64_s32_u4_s32_satfinite", P_R, 212, 16, 8, 64, S32, U4, U4, S32, 1, 0, 12, 12, 14},
    {"mmar_m16n8k64_s32_s4u4_s32", P_R, 213, 16, 8, 64, S32, S4, U4, S32, 0, 0, 11, 12, 14},
    {"mmar_m16n8k128_s32_b1_s32_andpopc", P_R, 214, 16, 8, 128, S32, B1, B1, S32, 0, TC_BOP_AND_POPC, 13, 13, 14},
    {"mmar_m16n8k256_s32_b1_s32_xorpopc", P_R, 215, 16, 8, 256, S32, B1, B1, S32, 0, TC_BOP_XOR_POPC, 13, 13, 14},
    {"mmar_m16n8k128_s32_b1_s32_xorpopc", P_R, 216, 16, 8, 128, S32, B1, B1, S32, 0, TC_BOP_XOR_POPC, 13, 13, 14},
    {"mmar_m16n8k4_f64_f64_f64", P_R, 217, 16, 8, 4, F64, F64, F64, F64, 0, 0, 7, 7, 7},
    {"mmar_m16n8k8_f64_f64_f64", P_R, 218, 16, 8, 8, F64, F64, F64, F64, 0, 0, 7, 7, 7},
    {"mmar_m16n8k16_f64_f64_f64", P_R, 219, 16, 8, 16, F64, F64, F64, F64, 0, 0, 7, 7, 7},
    {"mmar_m16n8k16_f32_f16_f32_sp", P_S, 220, 16, 8, 16, F32, F16, F16, F32, 0, 0, 0, 0, 5},
    {"mmar_m16n8k32_f32_f16_f32_sp", P_S, 221, 16, 8, 32, F32, F16, F16, F32, 0, 0, 0, 0, 5},
    {"mmar_m16n8k32_f16_f16_f16_sp", P_S, 222, 16, 8, 32, F16, F16, F16, F16, 0, 0, 0, 0, 0},
    {"mmar_m16n8k32_f32_bf16_f32_sp", P_S, 223, 16, 8, 32, F32, BF16, BF16, F32, 0, 0, 1, 1, 5},
    {"mmar_m16n8k32_s32_s8_s32_sp", P_S, 224, 16, 8, 32, S32, S8, S8, S32, 0, 0, 6, 6, 14},
    {"mmar_m16n8k64_s32_u8s8_s32_sp", P_S, 225, 16, 8, 64, S32, U8, S8, S32, 0, 0, 8, 6, 14},
    {"mmar_m16n8k64_f32_e4m3_f32_sp", P_S, 226, 16, 8, 64, F32, E4, E4, F32, 0, 0, 3, 3, 5},
    {"mmar_m16n8k64_f32_e5m2e4m3_f32_sp", P_S, 227, 16, 8, 64, F32, E5, E4, F32, 0, 0, 4, 3, 5},
    {"mmar_m16n8k8_f32_tf32_f32_sp", P_S, 228, 16, 8, 8, F32, TF32, TF32, F32, 0, 0, 2, 2, 5},
    {"mmar_m16n8k16_f32_tf32_f32_sp", P_S, 229, 16, 8, 16, F32, TF32, TF32, F32, 0, 0, 2, 2, 5},
    {"mmar_m16n8k64_s32_s4_s32_sp", P_S, 230, 16, 8, 64, S32, S4, S4, S32, 0, 0, 11, 11, 14},
    {"mmar_m16n8k128_s32_u4_s32_sp", P_S, 231, 16, 8, 128, S32, U4, U4, S32, 0, 0, 12, 12, 14},
    {"mmar_m16n8k32_f32_e5m2e4m3_f32", P_R, 232, 16, 8, 32, F32, E5, E4, F32, 0, 0, 4, 3, 5},
    {"mmar_m16n8k32_f16_e4m3e5m2_f16", P_R, 233, 16, 8, 32, F16, E4, E5, F16, 0, 0, 3, 4, 0},
    {"mmar_m16n8k64_f32_e4m3e5m2_f32_sp", P_S, 234, 16, 8, 64, F32, E4, E5, F32, 0, 0, 3, 4, 5},
    {"mmar_m16n8k64_f32_e5m2_f32_sp", P_S, 235, 16, 8, 64, F32, E5, E5, F32, 0, 0, 4, 4, 5},
    {"wmma_m16n16k16_f32_f16", P_W, 400, 16, 16, 16, F32, F16, F16, F32, 0, 0, 0, 0, 5},
    {"wmma_m32n8k16_f32_f16", P_W, 401, 32, 8, 16, F32, F16, F16, F32, 0, 0, 0, 0, 5},
    {"wmma_m8n32k16_f16_f16", P_W, 402, 8, 32, 16, F16, F16, F16, F16, 0, 0, 0, 0, 0},
    {"wmma_m16n16k16_f16_f16", P_W, 403, 16, 16, 16, F16, F16, F16, F16, 0, 0, 0, 0, 0},
    {"wmma_m16n16k16_f32_bf16", P_W, 404, 16, 16, 16, F32, BF16, BF16, F32, 0, 0, 1, 1, 5},
    {"wmma_m32n8k16_f32_bf16", P_W, 405, 32, 8, 16, F32, BF16, BF16, F32, 0, 0, 1, 1, 5},
    {"wmma_m16n16k8_f32_tf32", P_W, 406, 16, 16, 8, F32, TF32, TF32, F32, 0, 0, 2, 2, 5},
    {"wmma_m8n8k4_f64_f64", P_W, 407, 8, 8, 4, F64, F64, F64, F64, 0, 0, 7, 7, 7},
    {"wmma_m16n16k16_s32_s8", P_W, 408, 16, 16, 16, S32, S8, S8, S32, 0, 0, 6, 6, 14},
    {"wmma_m8n32k16_s32_u8", P_W, 409, 8, 32, 16, S32, U8, U8, S32, 0, 0, 8, 8, 14},
    {"wmma_m8n8k32_s32_u4", P_W, 410, 8, 8, 32, S32, U4, U4, S32, 0, 0, 12, 12, 14},
    {"wmma_m8n8k32_s32_s4", P_W, 411, 8, 8, 32, S32, S4, S4, S32, 0, 0, 11, 11, 14},
    {"wmma_m8n8k128_s32_b1_xor", P_W, 412, 8, 8, 128, S32, B1, B1, S32, 0, TC_BOP_XOR_POPC, 13, 13, 14},
    {"wmma_m8n8k128_s32_b1_and", P_W, 413, 8, 8, 128, S32, B1, B1, S32, 0, TC_BOP_AND_POPC, 13, 13, 14},
    {"wgmma_m64n8k32_f16_e5m2e5m2", P_G, 300, 64, 8, 32, F16, E5, E5, F16, 0, 0, 4, 4, 0},
    {"wgmma_m64n8k32_f32_e4m3e5m2", P_G, 301, 64, 8, 32, F32, E4, E5, F32, 0, 0, 3, 4, 5},
    {"wgmma_m64n8k32_f16_e5m2e4m3", P_G, 302, 64, 8, 32, F16, E5, E4, F16, 0, 0, 4, 3, 0},
    {"wgmma_m64n8k32_s32_u8s8", P_G, 303, 64, 8, 32, S32, U8, S8, S32, 0, 0, 8, 6, 14},
    {"wgmma_m64n8k32_s32_u8u8_sat", P_G, 304, 64, 8, 32, S32, U8, U8, S32, 1, 0, 8, 8, 14},
    {"wgmma_m64n8k32_s32_s8u8_sat", P_G, 305, 64, 8, 32, S32, S8, U8, S32, 1, 0, 6, 8, 14},
    {"wgmmasp_m64n8k32_f32_f16", P_GS, 500, 64, 8, 32, F32, F16, F16, F32, 0, 0, 0, 0, 5},
    {"wgmmasp_m64n8k32_f16_f16", P_GS, 501, 64, 8, 32, F16, F16, F16, F16, 0, 0, 0, 0, 0},
    {"wgmmasp_m64n8k32_f32_bf16", P_GS, 502, 64, 8, 32, F32, BF16, BF16, F32, 0, 0, 1, 1, 5},
    {"wgmmasp_m64n8k16_f32_tf32", P_GS, 503, 64, 8, 16, F32, TF32, TF32, F32, 0, 0, 2, 2, 5},
    {"wgmmasp_m64n8k64_f32_e4m3", P_GS, 504, 64, 8, 64, F32, E4, E4, F32, 0, 0, 3, 3, 5},
    {"wgmmasp_m64n8k64_f16_e5m2", P_GS, 505, 64, 8, 64, F16, E5, E5, F16, 0, 0, 4, 4, 0},
    {"wgmmasp_m64n8k64_s32_s8", P_GS, 506, 64, 8, 64, S32, S8, S8, S32, 0, 0, 6, 6, 14},
};

static unsigned tbits(int t)
{
    switch (t) {
    case F16: case BF16: return 16;
    case E4: case E5: case S8: case U8: return 8;
    case S4: case U4: return 4;
    case B1: return 1;
    case F64: return 64;
    default: return 32;
    }
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* registers of one tile of an R/S combination */
struct regs {
    int na, nb, nc, nd;
    uint64_t a[32 * 16], b[32 * 16], c[32 * 8], d[32 * 8];
};

static void reg_counts(const struct combo *cb, struct regs *r)
{
    unsigned ab = tbits(cb->at), bb = tbits(cb->bt);
    int ka = cb->part == P_S ? cb->K / 2 : cb->K;
    r->na = cb->at == F64 ? cb->M * ka / 32 : (int)(cb->M * ka * ab / 1024);
    r->nb = cb->bt == F64 ? cb->K * cb->N / 32 : (int)(cb->K * cb->N * bb / 1024);
    r->nc = cb->ct == F16 ? cb->M * cb->N / 64 : cb->M * cb->N / 32;
    r->nd = cb->dt == F16 ? cb->M * cb->N / 64 : cb->M * cb->N / 32;
}

static void draw_regs(const struct combo *cb, int t, struct regs *r)
{
    int abits = cb->at == B1 ? 32 : (int)tbits(cb->at), bbits = cb->bt == B1 ? 32 : (int)tbits(cb->bt);
    int cbits = (int)tbits(cb->ct);
    for (uint32_t l = 0; l < 32; l++) {
        for (int j = 0; j < r->na; j++)
            r->a[l * r->na + j] = tcg_reg(cb->ak, abits, cb->gid, t, 0, l, r->na, j);
        for (int j = 0; j < r->nb; j++)
            r->b[l * r->nb + j] = tcg_reg(cb->bk, bbits, cb->gid, t, 1, l, r->nb, j);
        for (int j = 0; j < r->nc; j++)
            r->c[l * r->nc + j] = tcg_reg(cb->ck, cbits, cb->gid, t, 2, l, r->nc, j);
    }
}

/* mma.sp with metadata 0x44444444 and selector 0: each group of four
 * elements keeps its first two (tf32: each pair its first), so entry q of
 * a compressed A row is dense column 4*(q/2) + q%2 (tf32: 2*q).  Compressed
 * A is laid out as a dense A of K/2 columns, B as the dense B of K rows (the
 * mma.sync layouts, epr elements a register).  Returns D registers in r->d. */
static int sp_dense(int at, int q)
{
    if (at == TF32)
        return 2 * q;
    if (at == S4 || at == U4) /* hypothesis under test */
        return 8 * (q / 4) + q % 4;
    return 4 * (q / 2) + q % 2;
}

static void run_sp(const struct combo *cb, struct regs *r)
{
    int M = cb->M, N = cb->N, K = cb->K, KA = K / 2;
    unsigned bits = tbits(cb->at);
    int epr = bits >= 32 ? 1 : (int)(32 / bits);
    uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
    static uint32_t A[16][64], B[128][8];
    uint64_t C[16][8];
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int i = 0; i < r->na; i++)
            for (int j = 0; j < epr; j++)
                A[g + 8 * (i & 1)][t * epr + j + 4 * epr * (i >> 1)] =
                    (uint32_t)(r->a[lane * r->na + i] >> (bits * (unsigned)j % 32)) & mask;
        for (int i = 0; i < r->nb; i++)
            for (int j = 0; j < epr; j++)
                B[t * epr + j + 4 * epr * i][g] = (uint32_t)(r->b[lane * r->nb + i] >> (bits * (unsigned)j % 32)) & mask;
        for (int i = 0; i < r->nc; i++) {
            uint64_t v = r->c[lane * r->nc + i];
            if (cb->ct == F16) {
                C[g + 8 * i][2 * t] = v & 0xffff;
                C[g + 8 * i][2 * t + 1] = (v >> 16) & 0xffff;
            } else {
                C[g + 8 * (i >> 1)][2 * t + (i & 1)] = v;
            }
        }
    }
    struct tc_dot_op op = { .family = TC_FAM_MMA_SP, .atype = cb->at, .btype = cb->bt, .ctype = cb->ct,
                            .dtype = cb->dt, .satfinite = cb->sat, .k = (uint16_t)K, .shape_m = (uint16_t)M,
                            .shape_n = (uint16_t)N };
    uint64_t D[16][8];
    for (int row = 0; row < M; row++)
        for (int n = 0; n < N; n++) {
            uint32_t a[64], b[64];
            for (int q = 0; q < KA; q++) {
                a[q] = A[row][q];
                b[q] = B[sp_dense(cb->at, q)][n];
            }
            D[row][n] = tc_dot(&op, a, b, KA, C[row][n]);
        }
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int i = 0; i < r->nd; i++)
            r->d[lane * r->nd + i] = cb->dt == F16
                ? (D[g + 8 * i][2 * t] & 0xffff) | (D[g + 8 * i][2 * t + 1] & 0xffff) << 16
                : D[g + 8 * (i >> 1)][2 * t + (i & 1)];
    }
}

static void run_r(const struct combo *cb, struct regs *r)
{
    unsigned ab = tbits(cb->at);
    tc_mma_form f = { .m = (uint8_t)cb->M, .n = (uint8_t)cb->N, .k = (uint8_t)(cb->K > 255 ? 0 : cb->K),
                      .kk = (uint16_t)cb->K, .atype = cb->at, .btype = cb->bt, .ctype = cb->ct,
                      .dtype = cb->dt, .satfinite = cb->sat, .bop = cb->bop,
                      .na = (uint8_t)r->na, .nb = (uint8_t)r->nb, .nc = (uint8_t)r->nc, .nd = (uint8_t)r->nd,
                      .aepr = (uint8_t)(ab >= 32 ? 1 : 32 / ab), .bepr = (uint8_t)(ab >= 32 ? 1 : 32 / ab) };
    if (tbits(cb->bt) != ab) /* never: A and B of one width */
        abort();
    tc_mma_run(&f, r->a, r->b, r->c, r->d);
}

/* element i (row-major within tile t) of a W or G combination */
static uint64_t model_elem(const struct combo *cb, int t, int e)
{
    int row = e / cb->N, n = e % cb->N, K = cb->K;
    uint32_t a[2 * 256], b[2 * 256];
    int words = cb->at == B1 ? K / 32 : cb->part == P_GS ? K / 2 : K;
    for (int k = 0; k < words; k++) {
        uint64_t x = tcg_elem(cb->ak, cb->gid, t, 0, row * words + k);
        uint64_t y = cb->part == P_W ? tcg_elem(cb->bk, cb->gid, t, 1, n * words + k)
                   : cb->part == P_GS ? tcg_elem(cb->bk, cb->gid, t, 1, sp_dense(cb->at, k) * cb->N + n)
                                      : tcg_elem(cb->bk, cb->gid, t, 1, k * cb->N + n);
        if (cb->at == F64) {
            a[2 * k] = (uint32_t)x; a[2 * k + 1] = (uint32_t)(x >> 32);
            b[2 * k] = (uint32_t)y; b[2 * k + 1] = (uint32_t)(y >> 32);
        } else {
            a[k] = (uint32_t)x;
            b[k] = (uint32_t)y;
        }
    }
    uint64_t c = cb->ck == 14 ? tcg_s32c(cb->gid, t, e) : tcg_elem(cb->ck, cb->gid, t, 2, e);
    struct tc_dot_op op = { .family = cb->part == P_W ? TC_FAM_WMMA : cb->part == P_GS ? TC_FAM_WGMMA_SP : TC_FAM_WGMMA, .atype = cb->at,
                            .btype = cb->bt, .ctype = cb->ct, .dtype = cb->dt, .satfinite = cb->sat,
                            .bop = cb->bop, .k = (uint16_t)K, .shape_m = (uint16_t)cb->M,
                            .shape_n = (uint16_t)cb->N };
    return tc_dot(&op, a, b, cb->at == B1 ? K : words, c); /* .b1: n counts bits */
}

static void check_combo(const struct combo *cb, const char *dir)
{
    char path[512], name[160];
    snprintf(name, sizeof name, "tc_numerics/%s", cb->name);
    snprintf(path, sizeof path, "%s/%s.bin", dir, cb->name);
    FILE *f = fopen(path, "rb");
    uint32_t hdr[2];
    if (!f || fread(hdr, 4, 2, f) != 2) {
        printf("FAIL %s: cannot read %s\n", name, path);
        check_failures++;
        if (f)
            fclose(f);
        return;
    }
    int w = cb->dt == F64 ? 8 : 4;
    long total = hdr[0], whole = hdr[1], nblocks = (total + 1023) / 1024;
    unsigned char *kept = malloc((size_t)whole * (size_t)w);
    uint64_t *hashes = malloc((size_t)nblocks * 8);
    int ok = kept && hashes && fread(kept, (size_t)w, (size_t)whole, f) == (size_t)whole &&
             fread(hashes, 8, (size_t)nblocks, f) == (size_t)nblocks;
    fclose(f);
    if (!ok) {
        printf("FAIL %s: %s is truncated\n", name, path);
        check_failures++;
        free(kept);
        free(hashes);
        return;
    }
    static struct regs r;
    int per;                        /* units of one tile */
    if (cb->part == P_R || cb->part == P_S) {
        reg_counts(cb, &r);
        per = 32 * r.nd;
    } else {
        per = cb->M * cb->N;
    }
    long bad = 0, badblocks = 0, first = -1, firstblock = -1, products = 0;
    uint64_t fmodel = 0, fhw = 0;
    int cur = -1;
    uint64_t h = 0xcbf29ce484222325ull;
    for (long i = 0; i < total; i++) {
        int t = (int)(i / per), e = (int)(i % per);
        uint64_t d;
        if (cb->part == P_R || cb->part == P_S) {
            if (t != cur) {
                draw_regs(cb, t, &r);
                if (cb->part == P_R)
                    run_r(cb, &r);
                else
                    run_sp(cb, &r);
                cur = t;
            }
            d = r.d[e];
        } else {
            d = model_elem(cb, t, e);
        }
        products += (cb->part == P_R || cb->part == P_S) && cb->dt == F16 ? 2 : 1;
        h = fnv1a(h, &d, (size_t)w);
        if (i < whole) {
            uint64_t g = 0;
            memcpy(&g, kept + i * w, (size_t)w);
            if (g != d) {
                if (first < 0) {
                    first = i;
                    fmodel = d;
                    fhw = g;
                }
                bad++;
            }
        }
        if ((i + 1) % 1024 == 0 || i + 1 == total) {
            if (h != hashes[i / 1024]) {
                if (firstblock < 0)
                    firstblock = i / 1024;
                badblocks++;
            }
            h = 0xcbf29ce484222325ull;
        }
    }
    free(kept);
    free(hashes);
    if (bad == 0 && badblocks == 0) {
        printf("PASS %s (%ld inner products)\n", name, products);
        return;
    }
    check_failures++;
    if (first >= 0)
        printf("FAIL %s: %ld of the first %ld outputs differ, %ld of %ld blocks; first: unit %ld (tile %ld, "
               "unit %ld of it) model 0x%" PRIx64 ", H100 0x%" PRIx64 "\n", name, bad, whole, badblocks,
               nblocks, first, first / per, first % per, fmodel, fhw);
    else
        printf("FAIL %s: %ld of %ld blocks of 1024 outputs differ from the H100's hashes, first block %ld "
               "(units %ld..)\n", name, badblocks, nblocks, firstblock, firstblock * 1024);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/hw/tc_numerics";
    for (size_t c = 0; c < sizeof combos / sizeof combos[0]; c++)
        check_combo(&combos[c], dir);
    CHECK_DONE();
}
