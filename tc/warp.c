/* warp.c — mma.sync, ldmatrix, stmatrix and movmatrix on whole-warp
 * register images (contract in warp.h).
 *
 * Fragment layouts (PTX ISA, "Warp-level matrix fragments"), with
 * g = lane / 4 and t = lane % 4, for every dense m16n8k* and m8n8k* form
 * except the Volta m8n8k4 .f16: an A or B register holds `epr` consecutive
 * elements along K (epr = 32 / element bits; f64 registers hold one), and
 *   A reg i, element j: row g + 8 (i % 2),   col t epr + j + 4 epr (i / 2)
 *   B reg i, element j: k   t epr + j + 4 epr i,   col g
 *   C/D 32-bit or f64 reg i: row g + 8 (i / 2), col 2t + i % 2
 *   C/D f16x2 reg i, half j: row g + 8 i,     col 2t + j
 * ldmatrix/stmatrix .m8n8: lane l holds, for matrix r, the two b16 of row
 * l / 4 at columns 2 (l % 4) and +1 (transposed with .trans).
 */
#include "tc/warp.h"
#include "tc/dot.h"

#include <stdio.h>
#include <string.h>

static int tc_type_of(int irt)
{
    switch (irt) {
    case IR_T_F16: return TC_T_F16;
    case IR_T_BF16: return TC_T_BF16;
    case IR_T_TF32: return TC_T_TF32;
    case IR_T_F32: return TC_T_F32;
    case IR_T_F64: return TC_T_F64;
    case IR_T_E4M3: return TC_T_E4M3;
    case IR_T_E5M2: return TC_T_E5M2;
    case IR_T_S8: return TC_T_S8;
    case IR_T_U8: return TC_T_U8;
    case IR_T_S4: return TC_T_S4;
    case IR_T_U4: return TC_T_U4;
    case IR_T_B1: return TC_T_B1;
    case IR_T_S32: return TC_T_S32;
    default: return TC_T_NONE;
    }
}

static int tbits_tc(int t)
{
    switch (t) {
    case TC_T_F16: case TC_T_BF16: return 16;
    case TC_T_TF32: case TC_T_F32: case TC_T_S32: return 32;
    case TC_T_F64: return 64;
    case TC_T_E4M3: case TC_T_E5M2: case TC_T_S8: case TC_T_U8: return 8;
    case TC_T_S4: case TC_T_U4: return 4;
    case TC_T_B1: return 1;
    default: return 0;
    }
}

/* the dense forms sm_90 has: tc/shapes.def, section 1 */
static const struct { uint8_t m, n; uint16_t k; uint8_t d, a, b, c, runs; } mma_forms[] = {
#define TC_MMA(M, N, K, D, A, B, C, RUNS) \
    { M, N, K, IR_T_##D, IR_T_##A, IR_T_##B, IR_T_##C, RUNS },
#include "tc/shapes.def"
#undef TC_MMA
};

/* the row of (shape, types), or -1 */
static int mma_form(int m, int n, int k, const uint8_t *types)
{
    for (int i = 0; i < (int)(sizeof mma_forms / sizeof mma_forms[0]); i++)
        if (mma_forms[i].m == m && mma_forms[i].n == n && mma_forms[i].k == k &&
            mma_forms[i].d == types[0] && mma_forms[i].a == types[1] &&
            mma_forms[i].b == types[2] && mma_forms[i].c == types[3])
            return i;
    return -1;
}

static const struct { ir_mod mod; uint8_t m, n; uint16_t k; } shapes[] = {
    { IR_M_M16N8K4, 16, 8, 4 }, { IR_M_M16N8K8, 16, 8, 8 }, { IR_M_M16N8K16, 16, 8, 16 },
    { IR_M_M16N8K32, 16, 8, 32 }, { IR_M_M16N8K64, 16, 8, 64 }, { IR_M_M16N8K128, 16, 8, 128 },
    { IR_M_M16N8K256, 16, 8, 256 }, { IR_M_M8N8K4, 8, 8, 4 }, { IR_M_M8N8K16, 8, 8, 16 },
    { IR_M_M8N8K32, 8, 8, 32 }, { IR_M_M8N8K128, 8, 8, 128 },
};

bool tc_mma_decode(const ir_instr *in, tc_mma_form *f, char *why, size_t n)
{
    memset(f, 0, sizeof *f);
    int si = -1;
    for (int i = 0; i < (int)(sizeof shapes / sizeof shapes[0]); i++)
        if (ir_has(in, shapes[i].mod))
            si = i;
    if (si < 0 || in->ntypes != 4) {
        snprintf(why, n, "this mma form (no shape or not 4 types)");
        return false;
    }
    f->m = shapes[si].m; f->n = shapes[si].n; f->kk = shapes[si].k;
    f->k = (uint8_t)(f->kk > 255 ? 0 : f->kk);
    f->dtype = (uint8_t)tc_type_of(in->types[0]);
    f->atype = (uint8_t)tc_type_of(in->types[1]);
    f->btype = (uint8_t)tc_type_of(in->types[2]);
    f->ctype = (uint8_t)tc_type_of(in->types[3]);
    if (ir_has(in, IR_M_SP) || ir_has(in, IR_M_ORDERED_METADATA)) {
        snprintf(why, n, "mma.sp (sparse) m%un8k%u", f->m, f->kk);
        return false;
    }
    int row = mma_form(f->m, f->n, f->kk, in->types);
    if (row < 0) {
        snprintf(why, n, "mma .m%un%uk%u with types .%s.%s.%s.%s: not an sm_90 form",
                 f->m, f->n, f->kk, ir_types[in->types[0]].name, ir_types[in->types[1]].name,
                 ir_types[in->types[2]].name, ir_types[in->types[3]].name);
        return false;
    }
    if (!mma_forms[row].runs) {
        snprintf(why, n, "mma.m8n8k4 .f16 (the Volta quad-pair layout)");
        return false;
    }
    f->satfinite = ir_has(in, IR_M_SATFINITE);
    if (f->atype == TC_T_B1)
        f->bop = ir_has(in, IR_M_XOR) ? TC_BOP_XOR_POPC : TC_BOP_AND_POPC;
    int ab = tbits_tc(f->atype);
    f->aepr = f->bepr = (uint8_t)(ab >= 32 ? 1 : 32 / ab);
    f->na = (uint8_t)(f->m * f->kk / 32 / f->aepr);
    f->nb = (uint8_t)(f->kk * f->n / 32 / f->bepr);
    f->nc = (uint8_t)(f->ctype == TC_T_F16 ? f->m * f->n / 64 : f->m * f->n / 32);
    f->nd = (uint8_t)(f->dtype == TC_T_F16 ? f->m * f->n / 64 : f->m * f->n / 32);
    return true;
}

/* element j of register value v holding elements of `bits` each */
static uint64_t elt(uint64_t v, int bits, int j)
{
    if (bits >= 32)
        return v;
    return (v >> (j * bits)) & ((1u << bits) - 1);
}

void tc_mma_run(const tc_mma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                uint64_t *d)
{
    /* unpack the fragments into row-major matrices of raw element bits */
    uint64_t A[16 * 256], B[256 * 8], C[16 * 8], D[16 * 8];
    int K = f->kk, M = f->m, N = f->n;
    int abits = tbits_tc(f->atype), bbits = tbits_tc(f->btype);
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int i = 0; i < f->na; i++)
            for (int j = 0; j < f->aepr; j++) {
                int row = g + 8 * (i & 1), col = t * f->aepr + j + 4 * f->aepr * (i >> 1);
                A[row * K + col] = elt(a[lane * f->na + i], abits, j);
            }
        for (int i = 0; i < f->nb; i++)
            for (int j = 0; j < f->bepr; j++) {
                int k = t * f->bepr + j + 4 * f->bepr * i;
                B[k * N + g] = elt(b[lane * f->nb + i], bbits, j);
            }
        for (int i = 0; i < f->nc; i++) {
            uint64_t v = c[lane * f->nc + i];
            if (f->ctype == TC_T_F16) {
                C[(g + 8 * i) * N + 2 * t] = v & 0xffff;
                C[(g + 8 * i) * N + 2 * t + 1] = (v >> 16) & 0xffff;
            } else {
                C[(g + 8 * (i >> 1)) * N + 2 * t + (i & 1)] = v;
            }
        }
    }
    struct tc_dot_op op = { .family = TC_FAM_MMA, .atype = f->atype, .btype = f->btype,
                            .ctype = f->ctype, .dtype = f->dtype, .satfinite = f->satfinite,
                            .bop = f->bop, .k = (uint16_t)K, .shape_m = (uint16_t)M,
                            .shape_n = (uint16_t)N };
    uint32_t av[512], bv[512];
    for (int r = 0; r < M; r++)
        for (int col = 0; col < N; col++) {
            int n;
            if (f->atype == TC_T_B1) {
                memset(av, 0, (size_t)(K / 32) * 4);
                memset(bv, 0, (size_t)(K / 32) * 4);
                for (int k = 0; k < K; k++) {
                    av[k / 32] |= (uint32_t)(A[r * K + k] & 1) << (k % 32);
                    bv[k / 32] |= (uint32_t)(B[k * N + col] & 1) << (k % 32);
                }
                n = K;
            } else if (f->atype == TC_T_F64) {
                for (int k = 0; k < K; k++) {
                    av[2 * k] = (uint32_t)A[r * K + k];
                    av[2 * k + 1] = (uint32_t)(A[r * K + k] >> 32);
                    bv[2 * k] = (uint32_t)B[k * N + col];
                    bv[2 * k + 1] = (uint32_t)(B[k * N + col] >> 32);
                }
                n = K;
            } else {
                for (int k = 0; k < K; k++) {
                    av[k] = (uint32_t)A[r * K + k];
                    bv[k] = (uint32_t)B[k * N + col];
                }
                n = K;
            }
            D[r * N + col] = tc_dot(&op, av, bv, n, C[r * N + col]);
        }
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int i = 0; i < f->nd; i++) {
            if (f->dtype == TC_T_F16)
                d[lane * f->nd + i] = (D[(g + 8 * i) * N + 2 * t] & 0xffff) |
                                      (D[(g + 8 * i) * N + 2 * t + 1] & 0xffff) << 16;
            else
                d[lane * f->nd + i] = f->dtype == TC_T_F64 ? D[(g + 8 * (i >> 1)) * N + 2 * t + (i & 1)]
                                                            : D[(g + 8 * (i >> 1)) * N + 2 * t + (i & 1)] & 0xffffffffu;
        }
    }
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

void tc_ldmatrix(int nmat, bool trans, const uint8_t rows[][16], uint32_t *regs)
{
    for (int lane = 0; lane < 32; lane++)
        for (int mat = 0; mat < nmat; mat++) {
            const uint8_t (*m)[16] = rows + mat * 8;
            uint16_t lo, hi;
            if (!trans) {
                lo = rd16(&m[lane / 4][4 * (lane % 4)]);
                hi = rd16(&m[lane / 4][4 * (lane % 4) + 2]);
            } else {
                lo = rd16(&m[2 * (lane % 4)][2 * (lane / 4)]);
                hi = rd16(&m[2 * (lane % 4) + 1][2 * (lane / 4)]);
            }
            regs[lane * nmat + mat] = (uint32_t)lo | (uint32_t)hi << 16;
        }
}

void tc_stmatrix(int nmat, bool trans, const uint32_t *regs, uint8_t rows[][16])
{
    for (int lane = 0; lane < 32; lane++)
        for (int mat = 0; mat < nmat; mat++) {
            uint8_t (*m)[16] = rows + mat * 8;
            uint32_t v = regs[lane * nmat + mat];
            if (!trans) {
                wr16(&m[lane / 4][4 * (lane % 4)], (uint16_t)v);
                wr16(&m[lane / 4][4 * (lane % 4) + 2], (uint16_t)(v >> 16));
            } else {
                wr16(&m[2 * (lane % 4)][2 * (lane / 4)], (uint16_t)v);
                wr16(&m[2 * (lane % 4) + 1][2 * (lane / 4)], (uint16_t)(v >> 16));
            }
        }
}

void tc_movmatrix(const uint32_t *in, uint32_t *out)
{
    /* element (r, c) of the 8x8 b16 matrix is half c % 2 of lane 4r + c / 2 */
    for (int lane = 0; lane < 32; lane++) {
        uint32_t v = 0;
        for (int h = 0; h < 2; h++) {
            int r = lane / 4, cc = 2 * (lane % 4) + h; /* element (r, cc) of the transpose */
            int sr = cc, sc = r;                       /* = element (sr, sc) of the input */
            uint32_t w = in[4 * sr + sc / 2];
            v |= ((w >> (16 * (sc % 2))) & 0xffff) << (16 * h);
        }
        out[lane] = v;
    }
}
