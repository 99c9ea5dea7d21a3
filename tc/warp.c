/* warp.c — mma.sync, ldmatrix, stmatrix and movmatrix on whole-warp
 * register images (contract in warp.h).
 *
 * Fragment layouts (PTX ISA, "Warp-level matrix fragments"), with
 * g = lane / 4 and t = lane % 4, for every dense m16n8k* and m8n8k* form
 * but m8n8k4 .f16 (quadpair_run, below): an A or B register holds `epr` consecutive
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

#include <math.h>
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


/* the dense forms sm_90 has: tc/shapes.def, section 1 */
static const struct { uint8_t m, n; uint16_t k; uint8_t d, a, b, c, runs; } mma_forms[] = {
#define TC_MMA(M, N, K, D, A, B, C, RUNS) \
    { M, N, K, IR_T_##D, IR_T_##A, IR_T_##B, IR_T_##C, RUNS },
#include "tc/shapes.def"
#undef TC_MMA
};

/* mma.sp forms: tc/shapes.def, section 1 */
static const struct { uint8_t m, n; uint16_t k; uint8_t d, a, b, c, nsel; } mma_sp_forms[] = {
#define TC_MMA_SP(M, N, K, D, A, B, C, NSEL) \
    { M, N, K, IR_T_##D, IR_T_##A, IR_T_##B, IR_T_##C, NSEL },
#include "tc/shapes.def"
#undef TC_MMA_SP
};

static int mma_sp_form(int m, int n, int k, const uint8_t *types)
{
    for (int i = 0; i < (int)(sizeof mma_sp_forms / sizeof mma_sp_forms[0]); i++)
        if (mma_sp_forms[i].m == m && mma_sp_forms[i].n == n && mma_sp_forms[i].k == k &&
            mma_sp_forms[i].d == types[0] && mma_sp_forms[i].a == types[1] &&
            mma_sp_forms[i].b == types[2] && mma_sp_forms[i].c == types[3])
            return i;
    return -1;
}

/* registers per thread of each fragment (a sparse A holds K/2 columns) */
static void set_counts(tc_mma_form *f)
{
    int ab = (int)tc_type_bits(f->atype);
    int ka = f->sparse ? f->kk / 2 : f->kk;
    f->aepr = f->bepr = (uint8_t)(ab >= 32 ? 1 : 32 / ab);
    f->na = (uint8_t)(f->m * ka / 32 / f->aepr);
    f->nb = (uint8_t)(f->kk * f->n / 32 / f->bepr);
    f->nc = (uint8_t)(f->ctype == TC_T_F16 ? f->m * f->n / 64 : f->m * f->n / 32);
    f->nd = (uint8_t)(f->dtype == TC_T_F16 ? f->m * f->n / 64 : f->m * f->n / 32);
}

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

/* the position (in source order) of the first .row/.col after the opcode: 0 or 1 */
static int layout_at(const ir_instr *in, int which)
{
    int seen = 0;
    for (int i = 0; i < in->nmods; i++)
        if (in->mods[i] == IR_M_ROW || in->mods[i] == IR_M_COL) {
            if (seen == which)
                return in->mods[i] == IR_M_COL;
            seen++;
        }
    return -1;
}

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
    f->satfinite = ir_has(in, IR_M_SATFINITE);
    if (ir_has(in, IR_M_SP) || ir_has(in, IR_M_SP_ORDERED_METADATA)) {
        int sr = mma_sp_form(f->m, f->n, f->kk, in->types);
        if (sr < 0 || in->nopd != 6 || in->opd[5].kind != IR_OPD_IMM) {
            snprintf(why, n, "mma.sp .m%un%uk%u .%s.%s.%s.%s: not an sm_90 sparse form", f->m, f->n, f->kk,
                     ir_types[in->types[0]].name, ir_types[in->types[1]].name,
                     ir_types[in->types[2]].name, ir_types[in->types[3]].name);
            return false;
        }
        if (in->opd[5].u.imm < 0 || in->opd[5].u.imm >= mma_sp_forms[sr].nsel) {
            snprintf(why, n, "mma.sp .m%un%uk%u .%s.%s.%s.%s: sparsity selector %lld out of range (0..%d)", f->m,
                     f->n, f->kk, ir_types[in->types[0]].name, ir_types[in->types[1]].name,
                     ir_types[in->types[2]].name, ir_types[in->types[3]].name, (long long)in->opd[5].u.imm,
                     mma_sp_forms[sr].nsel - 1);
            return false;
        }
        f->sparse = 1;
        f->sel = (uint8_t)in->opd[5].u.imm;
        set_counts(f);
        /* metadata threads a quad: chunks of four units a row, four chunks
         * a thread; m16n8k32 .f16 -> .f32 takes selectors 2 and 3 in ptxas,
         * and the H100 stops on them (CUDA_ERROR_ILLEGAL_INSTRUCTION,
         * tests/hw/tc_warp, the sp3_sm90a.ptx cases) */
        int bits = (int)tc_type_bits(f->atype), nthr = f->kk * bits / (bits >= 16 ? 16 : 8) / 16;
        f->sel_faults = (f->sel + 1) * nthr > 4;
        return true;
    }
    int row = mma_form(f->m, f->n, f->kk, in->types);
    if (row < 0) {
        snprintf(why, n, "mma .m%un%uk%u with types .%s.%s.%s.%s: not an sm_90 form",
                 f->m, f->n, f->kk, ir_types[in->types[0]].name, ir_types[in->types[1]].name,
                 ir_types[in->types[2]].name, ir_types[in->types[3]].name);
        return false;
    }
    if (f->m == 8 && f->kk == 4 && f->atype == TC_T_F16) {
        int la = layout_at(in, 0), lb = layout_at(in, 1);
        if (la < 0 || lb < 0) {
            snprintf(why, n, "mma.m8n8k4 .f16 without its .alayout and .blayout (.row or .col each)");
            return false;
        }
        f->quadpair = 1;
        f->acol = (uint8_t)la;
        f->bcol = (uint8_t)lb;
        f->aepr = f->bepr = 2;
        f->na = f->nb = 2;
        f->nc = (uint8_t)(f->ctype == TC_T_F16 ? 4 : 8);
        f->nd = (uint8_t)(f->dtype == TC_T_F16 ? 4 : 8);
        return true;
    }
    if (!mma_forms[row].runs) {
        snprintf(why, n, "mma .m%un%uk%u .%s.%s.%s.%s", f->m, f->n, f->kk, ir_types[in->types[0]].name,
                 ir_types[in->types[1]].name, ir_types[in->types[2]].name, ir_types[in->types[3]].name);
        return false;
    }
    if (f->atype == TC_T_B1)
        f->bop = ir_has(in, IR_M_XOR) ? TC_BOP_XOR_POPC : TC_BOP_AND_POPC;
    set_counts(f);
    return true;
}

/* element j of register value v holding elements of `bits` each */
static uint64_t elt(uint64_t v, int bits, int j)
{
    if (bits >= 32)
        return v;
    return (v >> (j * bits)) & ((1u << bits) - 1);
}

/* D[r][col] = tc_dot over the kept products of each row: A is M x K raw
 * element bits, B K x N, C and D M x N; keep (sparse only) lists the kept
 * columns of each row (K/2 of them), NULL for all K. */
static void dot_all(const struct tc_dot_op *op, int M, int N, int K, const uint64_t *A,
                    const uint64_t *B, const uint64_t *C, const uint16_t *keep, uint64_t *D)
{
    uint32_t av[512], bv[512];
    int nk = keep ? K / 2 : K;
    for (int r = 0; r < M; r++)
        for (int col = 0; col < N; col++) {
            if (op->atype == TC_T_B1) {
                memset(av, 0, (size_t)(K / 32) * 4);
                memset(bv, 0, (size_t)(K / 32) * 4);
                for (int k = 0; k < K; k++) {
                    av[k / 32] |= (uint32_t)(A[r * K + k] & 1) << (k % 32);
                    bv[k / 32] |= (uint32_t)(B[k * N + col] & 1) << (k % 32);
                }
            } else if (op->atype == TC_T_F64) {
                for (int k = 0; k < K; k++) {
                    av[2 * k] = (uint32_t)A[r * K + k];
                    av[2 * k + 1] = (uint32_t)(A[r * K + k] >> 32);
                    bv[2 * k] = (uint32_t)B[k * N + col];
                    bv[2 * k + 1] = (uint32_t)(B[k * N + col] >> 32);
                }
            } else {
                for (int i = 0; i < nk; i++) {
                    int k = keep ? keep[r * nk + i] : i;
                    av[i] = (uint32_t)A[r * K + k];
                    bv[i] = (uint32_t)B[k * N + col];
                }
            }
            D[r * N + col] = tc_dot(op, av, bv, nk, C[r * N + col]);
        }
}

/* Unpacks the mma fragments into row-major matrices of raw element bits;
 * A has ka columns (K, or K/2 for a sparse A). */
static void mma_unpack(const tc_mma_form *f, int ka, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                       uint64_t *A, uint64_t *B, uint64_t *C)
{
    int N = f->n;
    int abits = (int)tc_type_bits(f->atype), bbits = (int)tc_type_bits(f->btype);
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int i = 0; i < f->na; i++)
            for (int j = 0; j < f->aepr; j++) {
                int row = g + 8 * (i & 1), col = t * f->aepr + j + 4 * f->aepr * (i >> 1);
                A[row * ka + col] = elt(a[lane * f->na + i], abits, j);
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
}

static void mma_pack(const tc_mma_form *f, const uint64_t *D, uint64_t *d)
{
    int N = f->n;
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

static struct tc_dot_op dot_op(const tc_mma_form *f, int family)
{
    struct tc_dot_op op = { .family = (uint8_t)family, .atype = f->atype, .btype = f->btype,
                            .ctype = f->ctype, .dtype = f->dtype, .satfinite = f->satfinite,
                            .bop = f->bop, .k = f->kk, .shape_m = f->m, .shape_n = f->n };
    return op;
}

/* mma.m8n8k4 .f16 (PTX ISA, "Matrix Fragments for mma.m8n8k4 with .f16"):
 * quad pair q is lanes 4q..4q+3 (low half) and 4q+16..4q+19 (high half)
 * and computes its own D = A B + C of 8x8x4.  With r = lane % 4 and
 * h = 4 for the high half (0 for the low), element i of a lane is
 *   A .row: (r + h, i)        A .col: (i + h, r)
 *   B .row: (r, i + h)        B .col: (i, r + h)
 *   C/D .f16: (r + h, i)      C/D .f32: ((lane & 1) + (i & 2) + h, (i & 4) + (lane & 2) + (i & 1))
 * (element i of a 16-bit fragment is half i % 2 of register i / 2). */
static float h2f(uint32_t h)
{
    uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
    if (e == 0x1f)
        u = m ? 0x7fffffffu : s | 0x7f800000u;   /* the GPU's conversion writes the canonical NaN */
    else if (e)
        u = s | (e + 112) << 23 | m << 13;
    else if (!m)
        u = s;
    else {   /* subnormal: normalise */
        int k = 0;
        while (!(m & 0x400)) { m <<= 1; k++; }
        u = s | (uint32_t)(113 - k) << 23 | (m & 0x3ff) << 13;
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t f2u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return isnan(f) ? 0x7fffffffu : u;
}

/* f32 to f16, round to nearest even (F2FP.F16.F32) */
static uint32_t f2h(float f)
{
    uint32_t u = f2u32(f), s = (u >> 16) & 0x8000u;
    if (u == 0x7fffffffu)
        return 0x7fffu;
    int e = (int)((u >> 23) & 0xff) - 127;
    uint32_t m = (u & 0x7fffffu) | 0x800000u;
    if (e > 15)
        return s | 0x7c00u;
    if (e < -25)
        return s;   /* below half the smallest subnormal (and zeros) */
    int sh = e >= -14 ? 13 : 13 + (-14 - e);   /* bits of m below the f16 result's last place */
    uint32_t q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    /* q counts units of the last place: normal results carry the hidden bit */
    uint32_t r = e >= -14 ? ((uint32_t)(e + 15) << 10) + (q - 0x400) : q;
    return s | (r >= 0x7c00u ? 0x7c00u : r);
}

/* one output of a quad pair's product as ptxas builds it on sm_90 (SASS:
 * operands converted to f32, products accumulated in FFMA, C added by
 * FADD): an f32 D is (((a0 b0 + a1 b1) + a2 b2) + a3 b3) + C, a chain of
 * FFMAs from +0 then one FADD; an f16 D is ((C + (a0 b0 + a1 b1)) +
 * (a2 b2 + a3 b3)) in FMUL, FFMA and FADD, rounded once to f16. */
static uint64_t qp_dot(const tc_mma_form *f, const uint64_t *arow, const uint64_t *bcol, int bstride, uint64_t c)
{
    float a[4], b[4];
    for (int k = 0; k < 4; k++) {
        a[k] = h2f((uint32_t)arow[k]);
        b[k] = h2f((uint32_t)bcol[k * bstride]);
    }
    float cf;
    if (f->ctype == TC_T_F16)
        cf = h2f((uint32_t)c);
    else {
        uint32_t cu = (uint32_t)c;
        memcpy(&cf, &cu, 4);
    }
    if (f->dtype == TC_T_F32) {
        float t = fmaf(a[0], b[0], 0.0f);
        t = fmaf(a[1], b[1], t);
        t = fmaf(a[2], b[2], t);
        t = fmaf(a[3], b[3], t);
        return f2u32(t + cf);
    }
    float p = fmaf(a[1], b[1], a[0] * b[0]), q = fmaf(a[3], b[3], a[2] * b[2]);
    return f2h((cf + p) + q);
}

static void quadpair_run(const tc_mma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                         uint64_t *d)
{
    uint64_t A[8 * 4], B[4 * 8], C[8 * 8], D[8 * 8];
    for (int q = 0; q < 4; q++) {
        for (int half = 0; half < 2; half++)
            for (int r = 0; r < 4; r++) {
                int lane = 4 * q + 16 * half + r, h = 4 * half;
                for (int i = 0; i < 4; i++) {
                    uint64_t av = elt(a[lane * 2 + i / 2], 16, i % 2), bv = elt(b[lane * 2 + i / 2], 16, i % 2);
                    if (f->acol) A[(i + h) * 4 + r] = av; else A[(r + h) * 4 + i] = av;
                    if (f->bcol) B[i * 8 + r + h] = bv; else B[r * 8 + i + h] = bv;
                }
                for (int i = 0; i < 8; i++) {
                    if (f->ctype == TC_T_F16)
                        C[(r + h) * 8 + i] = elt(c[lane * 4 + i / 2], 16, i % 2);
                    else
                        C[((lane & 1) + (i & 2) + h) * 8 + (i & 4) + (lane & 2) + (i & 1)] = c[lane * 8 + i] & 0xffffffffu;
                }
            }
        for (int r = 0; r < 8; r++)
            for (int col = 0; col < 8; col++)
                D[r * 8 + col] = qp_dot(f, &A[r * 4], &B[col], 8, C[r * 8 + col]);
        for (int half = 0; half < 2; half++)
            for (int r = 0; r < 4; r++) {
                int lane = 4 * q + 16 * half + r, h = 4 * half;
                if (f->dtype == TC_T_F16) {
                    for (int i = 0; i < 4; i++)
                        d[lane * 4 + i] = (D[(r + h) * 8 + 2 * i] & 0xffff) | (D[(r + h) * 8 + 2 * i + 1] & 0xffff) << 16;
                } else {
                    for (int i = 0; i < 8; i++)
                        d[lane * 8 + i] = D[((lane & 1) + (i & 2) + h) * 8 + (i & 4) + (lane & 2) + (i & 1)] & 0xffffffffu;
                }
            }
    }
}

void tc_mma_run(const tc_mma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                uint64_t *d)
{
    if (f->quadpair) {
        quadpair_run(f, a, b, c, d);
        return;
    }
    static _Thread_local uint64_t A[16 * 256], B[256 * 8], C[16 * 8], D[16 * 8];
    mma_unpack(f, f->kk, a, b, c, A, B, C);
    struct tc_dot_op op = dot_op(f, TC_FAM_MMA);
    dot_all(&op, f->m, f->n, f->kk, A, B, C, NULL, D);
    mma_pack(f, D, d);
}

/* mma.sp (PTX ISA "Sparse matrix storage"): each row of A is cut into
 * chunks of four units (a unit is 16 bits for .f16/.bf16/.tf32 -- a .tf32
 * element is two units -- and 8 bits for the 8- and 4-bit types), of which
 * two are kept; the kept units are the row's K/2 columns in the fragment
 * (laid out as the dense fragment of K/2 columns), and a 4-bit metadata
 * field per chunk names their places (bits 1:0 the first, 3:2 the second).
 * The metadata of the two rows g and g + 8 of a quad comes from the threads
 * the selector picks: with c chunks a row, c / 4 threads from thread
 * sel * c/4 of the quad on, four bits a chunk.  Measured on the H100
 * (tests/hw/tc_warp, the wmma_sm90a.ptx cases): with 16-bit units thread i holds chunks
 * 4i .. 4i+3 of row g in bits 15:0 and of row g + 8 in bits 31:16; with
 * 8-bit units thread 2i holds chunks 8i .. 8i+7 of row g, thread 2i + 1
 * those of row g + 8. */
void tc_mma_sp_run(const tc_mma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                   const uint32_t *meta, uint64_t *d)
{
    static _Thread_local uint64_t Ac[16 * 128], A[16 * 256], B[256 * 8], C[16 * 8], D[16 * 8];
    static _Thread_local uint16_t keep[16 * 128];
    int K = f->kk, kc = K / 2, M = f->m;
    mma_unpack(f, kc, a, b, c, Ac, B, C);
    int bits = (int)tc_type_bits(f->atype);
    int ubits = bits >= 16 ? 16 : 8;                   /* unit */
    int kunits = K * bits / ubits, chunks = kunits / 4, nthr = chunks / 4;
    memset(A, 0, sizeof(uint64_t) * (size_t)(M * K));
    for (int r = 0; r < M; r++) {
        int g = r % 8, h = r / 8, nk = 0;
        for (int ch = 0; ch < chunks; ch++) {
            int th, bit;
            if (ubits == 16) {   /* chunks 4i..4i+3: thread i, row g in 15:0, g+8 in 31:16 */
                th = ch / 4;
                bit = 16 * h + 4 * (ch % 4);
            } else {             /* chunks 8i..8i+7 of row g: thread 2i, of row g+8: 2i+1 */
                th = 2 * (ch / 8) + h;
                bit = 4 * (ch % 8);
            }
            int lane = 4 * g + ((f->sel * nthr + th) & 3);
            uint32_t nib = (meta[lane] >> bit) & 0xf;
            for (int s = 0; s < 2; s++) {
                int u = 4 * ch + (int)((nib >> (2 * s)) & 3);   /* the kept unit */
                int cu = 2 * ch + s;                             /* its compressed unit */
                if (bits > ubits) {            /* tf32: one element, two units */
                    if (s == 1)
                        continue;
                    A[r * K + u / 2] = Ac[r * kc + cu / 2];
                    keep[r * kc + nk++] = (uint16_t)(u / 2);
                } else {
                    int per = ubits / bits;    /* elements a unit */
                    for (int e = 0; e < per; e++) {
                        A[r * K + u * per + e] = Ac[r * kc + cu * per + e];
                        keep[r * kc + nk++] = (uint16_t)(u * per + e);
                    }
                }
            }
        }
    }
    struct tc_dot_op op = dot_op(f, TC_FAM_MMA_SP);
    dot_all(&op, M, f->n, K, A, B, C, keep, D);
    mma_pack(f, D, d);
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

/* ---- wmma ------------------------------------------------------------------
 * The fragments of wmma on sm_90 are those of mma.sync put side by side
 * (measured on the H100, tests/hw/tc_warp, the wmma_sm90a.ptx cases): A is a column of
 * m16 x K mma A fragments (an 8-row A: row g, register i holding columns
 * 4 epr i + epr t ..), B a row of K x n8 mma B fragments, C and D the
 * m16n8 (m8n8 for 8-row shapes) accumulator tiles in row-major tile order;
 * except that m8n32k16 is m32n8k16 transposed: its B is the A fragment of
 * B^T and its C and D the accumulator of C^T.
 * A fragment declaring more registers than its elements need (the .f16 A
 * and B of some shapes) repeats them: register i holds what i % need does. */

static const struct { uint8_t m, n, k, d, a, b, c, na, nb, any; } wmma_forms[] = {
#define TC_WMMA(M, N, K, D, A, B, C, NA, NB, ANY) \
    { M, N, K, IR_T_##D, IR_T_##A, IR_T_##B, IR_T_##C, NA, NB, ANY },
#include "tc/shapes.def"
#undef TC_WMMA
};

static const struct { ir_mod mod; uint8_t m, n, k; } wmma_shapes[] = {
    { IR_M_M16N16K16, 16, 16, 16 }, { IR_M_M32N8K16, 32, 8, 16 }, { IR_M_M8N32K16, 8, 32, 16 },
    { IR_M_M16N16K8, 16, 16, 8 }, { IR_M_M8N8K4, 8, 8, 4 }, { IR_M_M8N8K32, 8, 8, 32 },
    { IR_M_M8N8K128, 8, 8, 128 },
};

/* registers of an accumulator of type t (tc) for an m x n shape */
static int acc_regs(int t, int m, int n)
{
    if (t == TC_T_F64 || (m == 8 && n == 8))
        return 2;
    return t == TC_T_F16 ? m * n / 64 : m * n / 32;
}

bool tc_wmma_decode(const ir_instr *in, tc_wmma_form *f, char *why, size_t n)
{
    memset(f, 0, sizeof *f);
    f->op = (uint8_t)in->op;
    int si = -1;
    for (int i = 0; i < (int)(sizeof wmma_shapes / sizeof wmma_shapes[0]); i++)
        if (ir_has(in, wmma_shapes[i].mod))
            si = i;
    if (si < 0) {
        snprintf(why, n, "%s without a wmma shape (.m16n16k16, .m32n8k16, .m8n32k16, .m16n16k8, .m8n8k4, "
                 ".m8n8k32, .m8n8k128)", ir_ops[in->op].name);
        return false;
    }
    f->m = wmma_shapes[si].m; f->n = wmma_shapes[si].n; f->k = wmma_shapes[si].k;
    const char *shape = ir_mods[wmma_shapes[si].mod].text;
    if (in->op == IR_OP_WMMA_MMA) {
        /* .f16 forms write .dtype.ctype; the others .dtype.atype.btype.ctype */
        int d, a, b, c;
        if (in->ntypes == 2) {
            d = in->types[0]; c = in->types[1]; a = b = IR_T_F16;
        } else if (in->ntypes == 4) {
            d = in->types[0]; a = in->types[1]; b = in->types[2]; c = in->types[3];
        } else {
            snprintf(why, n, "wmma.mma.%s needs .dtype.ctype (.f16) or .dtype.atype.btype.ctype", shape);
            return false;
        }
        int la = layout_at(in, 0), lb = layout_at(in, 1);
        int row = -1;
        for (int i = 0; i < (int)(sizeof wmma_forms / sizeof wmma_forms[0]); i++)
            if (wmma_forms[i].m == f->m && wmma_forms[i].n == f->n && wmma_forms[i].k == f->k &&
                wmma_forms[i].d == d && wmma_forms[i].a == a && wmma_forms[i].b == b && wmma_forms[i].c == c &&
                (in->ntypes == 4) == (a != IR_T_F16))
                row = i;
        bool popc = a == IR_T_B1;
        if (row < 0 || la < 0 || lb < 0 || (!wmma_forms[row].any && (la != 0 || lb != 1)) ||
            (ir_has(in, IR_M_SATFINITE) && (d != IR_T_S32 || popc)) ||
            (popc != ((ir_has(in, IR_M_XOR) || ir_has(in, IR_M_AND)) && ir_has(in, IR_M_OP_POPC))) ||
            (in->rnd && a != IR_T_F64)) {
            snprintf(why, n, "wmma.mma .%s with these layouts, types and modifiers is not an sm_90 form", shape);
            return false;
        }
        tc_mma_form *m = &f->mma;
        m->m = f->m; m->n = f->n; m->kk = f->k; m->k = f->k;
        m->dtype = (uint8_t)tc_type_of(d); m->atype = (uint8_t)tc_type_of(a);
        m->btype = (uint8_t)tc_type_of(b); m->ctype = (uint8_t)tc_type_of(c);
        m->satfinite = ir_has(in, IR_M_SATFINITE);
        m->bop = !popc ? TC_BOP_NONE : ir_has(in, IR_M_AND) ? TC_BOP_AND_POPC : TC_BOP_XOR_POPC;
        m->na = wmma_forms[row].na; m->nb = wmma_forms[row].nb;
        m->nc = (uint8_t)acc_regs(m->ctype, f->m, f->n);
        m->nd = (uint8_t)acc_regs(m->dtype, f->m, f->n);
        int ab = (int)tc_type_bits(m->atype);
        m->aepr = m->bepr = (uint8_t)(ab >= 32 ? 1 : 32 / ab);
        return true;
    }
    /* wmma.load.{a,b,c} / wmma.store.d */
    int fr = ir_has(in, IR_M_A) ? TC_WF_A : ir_has(in, IR_M_B) ? TC_WF_B : ir_has(in, IR_M_C) ? TC_WF_C
           : ir_has(in, IR_M_D) ? TC_WF_D : -1;
    int lay = layout_at(in, 0);
    if (fr < 0 || (in->op == IR_OP_WMMA_LOAD) == (fr == TC_WF_D) || lay < 0 || in->ntypes != 1 ||
        layout_at(in, 1) >= 0) {
        snprintf(why, n, "%s needs one of %s, one layout (.row or .col), a shape and a type", ir_ops[in->op].name,
                 in->op == IR_OP_WMMA_LOAD ? ".a, .b, .c" : ".d");
        return false;
    }
    int t = in->types[0], nr = -1;
    for (int i = 0; i < (int)(sizeof wmma_forms / sizeof wmma_forms[0]) && nr < 0; i++) {
        if (wmma_forms[i].m != f->m || wmma_forms[i].n != f->n || wmma_forms[i].k != f->k)
            continue;
        if (fr == TC_WF_A && wmma_forms[i].a == t && (wmma_forms[i].any || lay == 0))
            nr = wmma_forms[i].na;
        if (fr == TC_WF_B && wmma_forms[i].b == t && (wmma_forms[i].any || lay == 1))
            nr = wmma_forms[i].nb;
        /* the m8n8 integer shapes' accumulators may also be named .f32 (ptxas
         * takes it: 32-bit words either way) */
        int acc = fr == TC_WF_C ? wmma_forms[i].c : wmma_forms[i].d;
        if ((fr == TC_WF_C || fr == TC_WF_D) &&
            (acc == t || (t == IR_T_F32 && acc == IR_T_S32 && f->m == 8 && f->n == 8)))
            nr = acc_regs(tc_type_of(t), f->m, f->n);
    }
    if (nr < 0) {
        snprintf(why, n, "%s.%c.%s.%s.%s is not an sm_90 form", ir_ops[in->op].name, "abcd"[fr], lay ? "col" : "row",
                 shape, ir_types[t].name);
        return false;
    }
    f->frag = (uint8_t)fr;
    f->type = (uint8_t)tc_type_of(t);
    f->bits = (uint8_t)(int)tc_type_bits(f->type);
    f->nregs = (uint8_t)nr;
    f->colmajor = (uint8_t)lay;
    f->rows = fr == TC_WF_A ? f->m : fr == TC_WF_B ? f->k : f->m;
    f->cols = fr == TC_WF_A ? f->k : f->n;
    return true;
}

void tc_wmma_elem(const tc_wmma_form *f, int lane, int reg, int j, int *row, int *col)
{
    if (f->m == 8 && f->n == 32 && f->frag != TC_WF_A) {
        /* m8n32k16 is m32n8k16 transposed (measured): B is laid out as
         * m32n8's A of B^T, C and D as m32n8's accumulator of C^T */
        tc_wmma_form t = *f;
        t.m = 32; t.n = 8;
        t.frag = f->frag == TC_WF_B ? TC_WF_A : f->frag;
        t.rows = f->cols; t.cols = f->rows;
        tc_wmma_elem(&t, lane, reg, j, col, row);
        return;
    }
    int g = lane >> 2, t = lane & 3;
    int bits = f->bits, epr = bits >= 32 ? 1 : 32 / bits;
    if (f->frag == TC_WF_C || f->frag == TC_WF_D) {
        /* accumulator tiles of 16 x 8 (8 x 8 when the matrix has 8 rows) */
        int th = f->rows >= 16 ? 16 : 8, tiles_n = f->cols / 8;
        int per = f->type == TC_T_F16 ? th * 8 / 64 : th * 8 / 32;   /* registers a tile */
        int tile = reg / per, i = reg % per;
        int r0 = (tile / tiles_n) * th, c0 = (tile % tiles_n) * 8;
        if (f->type == TC_T_F16) {
            *row = r0 + g + 8 * i;
            *col = c0 + 2 * t + j;
        } else {
            *row = r0 + g + 8 * (i >> 1);
            *col = c0 + 2 * t + (i & 1);
        }
        return;
    }
    int need = f->rows * f->cols * bits / 32 / 32;
    if (bits == 64)
        need = f->rows * f->cols / 32;
    reg %= need;
    if (f->frag == TC_WF_A) {
        if (f->rows >= 16) {
            int per = need / (f->rows / 16), tile = reg / per, i = reg % per;
            *row = 16 * tile + g + 8 * (i & 1);
            *col = t * epr + j + 4 * epr * (i >> 1);
        } else {
            *row = g;
            *col = t * epr + j + 4 * epr * reg;
        }
    } else {
        int per = need / (f->cols / 8), tile = reg / per, i = reg % per;
        *row = t * epr + j + 4 * epr * i;
        *col = 8 * tile + g;
    }
}

void tc_wmma_run(const tc_wmma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                 uint64_t *d)
{
    static _Thread_local uint64_t A[32 * 128], B[128 * 32], C[32 * 32], D[32 * 32];
    const tc_mma_form *m = &f->mma;
    int M = f->m, N = f->n, K = f->k;
    tc_wmma_form fa = *f, fb = *f, fc = *f;
    fa.frag = TC_WF_A; fa.rows = (uint8_t)M; fa.cols = (uint8_t)K; fa.type = m->atype;
    fb.frag = TC_WF_B; fb.rows = (uint8_t)K; fb.cols = (uint8_t)N; fb.type = m->btype;
    fc.frag = TC_WF_C; fc.rows = (uint8_t)M; fc.cols = (uint8_t)N; fc.type = m->ctype;
    fa.bits = fb.bits = (uint8_t)(int)tc_type_bits(m->atype);
    fc.bits = (uint8_t)(int)tc_type_bits(m->ctype);
    int need_a = M * K * fa.bits / 1024, need_b = K * N * fb.bits / 1024;
    if (fa.bits == 64) { need_a = M * K / 32; need_b = K * N / 32; }
    int cepr = fc.bits >= 32 ? 1 : 2;
    for (int lane = 0; lane < 32; lane++) {
        int r, col;
        for (int i = 0; i < need_a; i++)
            for (int j = 0; j < (fa.bits >= 32 ? 1 : 32 / fa.bits); j++) {
                tc_wmma_elem(&fa, lane, i, j, &r, &col);
                A[r * K + col] = elt(a[lane * m->na + i], fa.bits, j);
            }
        for (int i = 0; i < need_b; i++)
            for (int j = 0; j < (fb.bits >= 32 ? 1 : 32 / fb.bits); j++) {
                tc_wmma_elem(&fb, lane, i, j, &r, &col);
                B[r * N + col] = elt(b[lane * m->nb + i], fb.bits, j);
            }
        for (int i = 0; i < m->nc; i++)
            for (int j = 0; j < cepr; j++) {
                tc_wmma_elem(&fc, lane, i, j, &r, &col);
                C[r * N + col] = elt(c[lane * m->nc + i], fc.bits, j);
            }
    }
    struct tc_dot_op op = dot_op(m, TC_FAM_WMMA);
    dot_all(&op, M, N, K, A, B, C, NULL, D);
    fc.type = m->dtype; fc.bits = (uint8_t)(int)tc_type_bits(m->dtype);
    int depr = fc.bits >= 32 ? 1 : 2;
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < m->nd; i++) {
            uint64_t v = 0;
            for (int j = 0; j < depr; j++) {
                int r, col;
                tc_wmma_elem(&fc, lane, i, j, &r, &col);
                uint64_t e = D[r * N + col];
                v |= fc.bits == 64 ? e : (e & (fc.bits == 16 ? 0xffffu : 0xffffffffu)) << (16 * j);
            }
            d[lane * m->nd + i] = v;
        }
}
