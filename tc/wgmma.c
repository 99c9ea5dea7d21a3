/* wgmma.c — wgmma.mma_async: decoding a form against shapes.def, the
 * shared-memory matrix descriptors and canonical layouts, the fragments,
 * and one MMA of a warpgroup computed element by element through tc_dot.
 *
 * Addressing (bytes; W = the swizzle width, eb = element bytes):
 *   K-major, element (row r, K byte kb):
 *     none   start + (r%8)*16 + (r/8)*SBO + (kb/16)*LBO + kb%16
 *     W      start + (r%8)*W  + (r/8)*SBO + kb
 *   MN-major (16-bit types), element (mn, k), mb = mn*eb:
 *     none   start + (k%8)*16 + (k/8)*LBO + (mb/16)*SBO + mb%16
 *     W      start + (k%8)*W  + (k/8)*SBO + (mb/W)*LBO + mb%W
 * then the swizzle XORs address bits [4, 4+log2(W/16)) with the bits above
 * bit 7 (Swizzle<3,4,3>, <2,4,3>, <1,4,3>), the same family TMA writes.
 * Every dense form reads 32 bytes of K per row; sparse B reads 64.
 */
#include <stdio.h>
#include <string.h>
#include "tc/wgmma.h"

/* ---- the table ------------------------------------------------------------------- */

enum { NSET_ALL, NSET_INT };
typedef struct wg_row {
    uint8_t a, b, d, nset, sel, satf, trans, neg;
    uint16_t k;
} wg_row;

static const wg_row rows[] = {
#define TC_WGMMA(A, B, D, K, NSET, SEL, SATF, TRANS, NEG) \
    { TC_T_##A, TC_T_##B, TC_T_##D, NSET_##NSET, SEL, SATF, TRANS, NEG, K },
#include "tc/shapes.def"
#undef TC_WGMMA
};
#define NROWS (sizeof rows / sizeof rows[0])

const char *tc_type_name(int t)
{
    static const char *const nm[] = { "?", "f16", "bf16", "tf32", "f32", "f64", "e4m3", "e5m2",
                                      "s8", "u8", "s4", "u4", "b1", "s32" };
    return t >= 0 && t < (int)(sizeof nm / sizeof nm[0]) ? nm[t] : "?";
}

static int tc_of_ir(int t)
{
    switch (t) {
    case IR_T_F16: return TC_T_F16;
    case IR_T_BF16: return TC_T_BF16;
    case IR_T_TF32: return TC_T_TF32;
    case IR_T_F32: return TC_T_F32;
    case IR_T_E4M3: return TC_T_E4M3;
    case IR_T_E5M2: return TC_T_E5M2;
    case IR_T_S8: return TC_T_S8;
    case IR_T_U8: return TC_T_U8;
    case IR_T_B1: return TC_T_B1;
    case IR_T_S32: return TC_T_S32;
    default: return TC_T_NONE;
    }
}

static bool n_ok(int nset, unsigned n)
{
    if (n < 8 || n > 256 || n % 8)
        return false;
    return nset == NSET_ALL || n <= 32 || n % 16 == 0;
}

/* the shape modifier's N and K, from its text "m64nNkK" */
static bool shape_of(const ir_instr *in, unsigned *n, unsigned *k)
{
    for (int i = 0; i < in->nmods; i++) {
        const char *s = ir_mods[in->mods[i]].text;
        if (strncmp(s, "m64n", 4) == 0 && sscanf(s + 4, "%uk%u", n, k) == 2)
            return true;
    }
    return false;
}

static int imm_of(const ir_operand *o, int64_t *v)
{
    if (o->kind != IR_OPD_IMM)
        return 0;
    *v = o->u.imm;
    return 1;
}

#define FAIL(k, ...) do { *opd = (k); snprintf(why, wn, __VA_ARGS__); return -1; } while (0)

int tc_wgmma_decode(const ir_instr *in, tc_wg_form *f, int *opd, char *why, size_t wn)
{
    memset(f, 0, sizeof *f);
    *opd = -1;
    unsigned n = 0, k = 0;
    if (!shape_of(in, &n, &k))
        FAIL(-1, "needs a shape .m64nNkK");
    if (!ir_has(in, IR_M_SYNC) || !ir_has(in, IR_M_ALIGNED))
        FAIL(-1, "needs .sync.aligned");
    f->sparse = ir_has(in, IR_M_SP);
    f->satfinite = ir_has(in, IR_M_SATFINITE);
    if (in->ntypes != 3)
        FAIL(-1, "needs three types: .dtype.atype.btype");
    int d = tc_of_ir(in->types[0]), a = tc_of_ir(in->types[1]), b = tc_of_ir(in->types[2]);
    const wg_row *r = NULL;
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].a == a && rows[i].b == b && rows[i].d == d)
            r = &rows[i];
    if (!r)
        FAIL(-1, "no wgmma form has D .%s with A .%s and B .%s", ir_types[in->types[0]].name,
             ir_types[in->types[1]].name, ir_types[in->types[2]].name);
    unsigned kk = r->k * (f->sparse ? 2u : 1u);
    if (k != kk || !n_ok(r->nset, n))
        FAIL(-1, "shape .m64n%uk%u is not a form of .%s.%s.%s%s (K must be %u; N %s)", n, k,
             ir_types[in->types[0]].name, ir_types[in->types[1]].name, ir_types[in->types[2]].name,
             f->sparse ? " .sp" : "", kk, r->nset == NSET_ALL ? "8..256 in steps of 8"
                                                               : "8, 16, 24, 32, then 48..256 in steps of 16");
    if (f->sparse && !r->sel)
        FAIL(-1, "no .sp form for .%s", ir_types[in->types[1]].name);
    if (f->satfinite && !r->satf)
        FAIL(-1, ".satfinite is only for integer forms");
    bool b1 = a == TC_T_B1;
    if (b1 != (ir_has(in, IR_M_AND) && ir_has(in, IR_M_OP_POPC)))
        FAIL(-1, b1 ? ".b1 needs .and.popc" : ".and.popc is only for .b1");
    f->atype = (uint8_t)a;
    f->btype = (uint8_t)b;
    f->dtype = (uint8_t)d;
    f->bop = b1 ? TC_BOP_AND_POPC : TC_BOP_NONE;
    f->n = (uint16_t)n;
    f->k = (uint16_t)k;
    f->nd = (uint16_t)(d == TC_T_F16 ? n / 4 : n / 2);
    f->neg_a = f->neg_b = 1;
    /* operands: d, a, b-desc, [meta, sel,] scale-d [, imm-scale-a, imm-scale-b [, trans-a,] trans-b] */
    const ir_operand *o = in->opd;
    if (in->nopd < 4)
        FAIL(-1, "expects at least 4 operands");
    if (o[0].kind != IR_OPD_VEC || o[0].u.vec.n != f->nd)
        FAIL(0, "D must be a vector of %u registers for .m64n%u .%s", f->nd, n, ir_types[in->types[0]].name);
    f->o_a = 1;
    if (o[1].kind == IR_OPD_VEC) {
        if (o[1].u.vec.n != 4)
            FAIL(1, "A from registers must be a vector of 4 registers");
        f->a_regs = 1;
    } else if (o[1].kind != IR_OPD_REG && o[1].kind != IR_OPD_IMM) {
        FAIL(1, "A must be a 64-bit matrix descriptor or a vector of 4 registers");
    }
    f->o_b = 2;
    if (o[2].kind != IR_OPD_REG && o[2].kind != IR_OPD_IMM)
        FAIL(2, "B must be a 64-bit matrix descriptor");
    unsigned p = 3;
    if (f->sparse) {
        if (in->nopd < 6)
            FAIL(-1, ".sp expects the metadata and the selector after B");
        if (o[3].kind != IR_OPD_REG && o[3].kind != IR_OPD_IMM)
            FAIL(3, "the sparsity metadata must be a 32-bit register or constant");
        f->o_meta = 3;
        int64_t s;
        if (!imm_of(&o[4], &s) || s < 0 || s >= r->sel)
            FAIL(4, "the sparsity selector must be a constant %s", r->sel == 2 ? "0 or 1" : "0");
        f->sel = (uint8_t)s;
        p = 5;
    }
    f->o_scale = (uint8_t)p;
    if (o[p].kind != IR_OPD_REG && o[p].kind != IR_OPD_IMM)
        FAIL((int)p, "scale-d must be a predicate or a constant");
    p++;
    unsigned want = p + (r->neg ? 2u : 0u) + (r->trans ? (f->a_regs ? 1u : 2u) : 0u);
    if (in->nopd != want)
        FAIL(in->nopd < want ? -1 : (int)want, "expects %u operands, got %u", want, in->nopd);
    if (r->neg) {
        for (int i = 0; i < 2; i++, p++) {
            int64_t v;
            if (!imm_of(&o[p], &v) || (v != 1 && v != -1))
                FAIL((int)p, "imm-scale-%c must be the constant 1 or -1", "ab"[i]);
            if (i == 0) f->neg_a = (int8_t)v; else f->neg_b = (int8_t)v;
        }
    }
    if (r->trans) {
        for (int i = f->a_regs ? 1 : 0; i < 2; i++, p++) {
            int64_t v;
            if (!imm_of(&o[p], &v) || (v != 0 && v != 1))
                FAIL((int)p, "imm-trans-%c must be the constant 0 or 1", "ab"[i]);
            if (i == 0) f->trans_a = (uint8_t)v; else f->trans_b = (uint8_t)v;
        }
    }
    return 0;
}

/* ---- descriptors ----------------------------------------------------------------- */

tc_desc tc_desc_decode(uint64_t d)
{
    static const uint8_t sw[4] = { 0, 128, 64, 32 };
    tc_desc r;
    r.start = (uint32_t)(d & 0x3FFF) << 4;
    r.lbo = (uint32_t)(d >> 16 & 0x3FFF) << 4;
    r.sbo = (uint32_t)(d >> 32 & 0x3FFF) << 4;
    r.base = (uint8_t)(d >> 49 & 7);
    r.swizzle = sw[d >> 62];
    return r;
}

const char *tc_desc_describe(uint64_t d, char *buf, size_t n)
{
    tc_desc t = tc_desc_decode(d);
    char sw[16];
    if (t.swizzle)
        snprintf(sw, sizeof sw, "%uB", t.swizzle);
    else
        snprintf(sw, sizeof sw, "none");
    snprintf(buf, n, "start 0x%x LBO %u SBO %u swizzle %s base offset %u", t.start, t.lbo, t.sbo, sw, t.base);
    return buf;
}

/* The swizzle XORs bits [4, 4+log2(W/16)) with the 128-byte line index
 * minus the descriptor's base offset: measured on the H100
 * (tests/hw/tc_wgmma f16_base_*: start +128..+896 with base offsets 0..7,
 * 128B/64B/32B, K- and MN-major; (line + base) and (line ^ base) do not fit). */
static uint32_t swz(uint32_t a, unsigned w, unsigned base)
{
    unsigned m = w == 128 ? 7 : w == 64 ? 3 : w == 32 ? 1 : 0;
    return a ^ ((((a >> 7) - base) & m) << 4);
}

/* address of K byte kb of row r (K-major) */
static uint32_t addr_k(const tc_desc *d, uint32_t r, uint32_t kb)
{
    uint32_t a;
    if (!d->swizzle)
        a = d->start + (r % 8) * 16 + (r / 8) * d->sbo + (kb / 16) * d->lbo + kb % 16;
    else
        a = d->start + (r % 8) * d->swizzle + (r / 8) * d->sbo + (kb / d->swizzle) * d->lbo + kb % d->swizzle;
    return swz(a, d->swizzle, d->base);
}

/* address of MN byte mb of K row k (MN-major) */
static uint32_t addr_mn(const tc_desc *d, uint32_t mb, uint32_t k)
{
    uint32_t a;
    if (!d->swizzle)
        a = d->start + (k % 8) * 16 + (k / 8) * d->lbo + (mb / 16) * d->sbo + mb % 16;
    else
        a = d->start + (k % 8) * d->swizzle + (k / 8) * d->sbo + (mb / d->swizzle) * d->lbo + mb % d->swizzle;
    return swz(a, d->swizzle, d->base);
}

void tc_wgmma_footprint(const tc_wg_form *f, uint64_t desc, bool is_a, uint32_t *lo, uint32_t *hi)
{
    /* every term of the address grows with the row and K indices, and the
     * swizzle only permutes 16-byte chunks inside a 128-byte line: the last
     * element's line bounds the operand */
    tc_desc d = tc_desc_decode(desc);
    int t = is_a ? f->atype : f->btype;
    unsigned bits = tc_type_bits(t);
    uint32_t rows = is_a ? 64 : f->n, kn = is_a && f->sparse ? f->k / 2u : f->k;
    bool mn = is_a ? f->trans_a : f->trans_b;
    uint32_t last = mn ? addr_mn(&d, (rows - 1) * bits / 8, kn - 1) : addr_k(&d, rows - 1, (kn - 1) * bits / 8);
    uint32_t a0 = d.start & ~127u, a1 = (last | 127u) + 1;
    if (a0 < *lo)
        *lo = a0;
    if (a1 > *hi)
        *hi = a1;
}

/* Read a rows x kn matrix of `t` elements through descriptor d into out
 * (row-major, out[row * stride + k]; b1: 32 elements a word). */
static int load_desc(const tc_wg_io *io, uint64_t desc, bool mn, int t, uint32_t nrows, uint32_t kn,
                     uint32_t *out, uint32_t stride, char *why, size_t wn)
{
    tc_desc d = tc_desc_decode(desc);
    unsigned bits = tc_type_bits(t), eb = bits / 8;
    for (uint32_t r = 0; r < nrows; r++) {
        if (bits == 1) {
            for (uint32_t w = 0; w < kn / 32; w++) {
                uint32_t v = 0;
                for (uint32_t j = 0; j < 4; j++) {
                    uint32_t a = addr_k(&d, r, w * 4 + j);
                    if (a < io->smem_base || a - io->smem_base >= io->smem_size)
                        goto oob;
                    v |= (uint32_t)io->smem[a - io->smem_base] << (8 * j);
                }
                out[r * stride + w] = v;
            }
            continue;
        }
        if (!mn && (kn * eb) % 16 == 0) {
            /* K-major: every 16 bytes along K are contiguous (the swizzle
             * and the core matrices move whole 16-byte units) */
            uint32_t per = 16 / eb;
            for (uint32_t k = 0; k < kn; k += per) {
                uint32_t a = addr_k(&d, r, k * eb);
                if (a < io->smem_base || a - io->smem_base + 16 > io->smem_size)
                    goto oob;
                const uint8_t *p = io->smem + (a - io->smem_base);
                for (uint32_t j = 0; j < per; j++) {
                    uint32_t v = 0;
                    memcpy(&v, p + j * eb, eb);
                    out[r * stride + k + j] = v;
                }
            }
            continue;
        }
        for (uint32_t k = 0; k < kn; k++) {
            uint32_t a = mn ? addr_mn(&d, r * eb, k) : addr_k(&d, r, k * eb);
            if (a < io->smem_base || a - io->smem_base + eb > io->smem_size)
                goto oob;
            uint32_t v = 0;
            memcpy(&v, io->smem + (a - io->smem_base), eb);
            out[r * stride + k] = v;
        }
    }
    return 0;
oob:
    snprintf(why, wn, "descriptor 0x%016llx addresses shared memory outside the CTA's %u bytes",
             (unsigned long long)desc, io->smem_size);
    return -1;
}

/* ---- fragments ------------------------------------------------------------------- */

void tc_wgmma_d_where(const tc_wg_form *f, uint32_t row, uint32_t col, uint32_t *thread, uint32_t *reg,
                      uint32_t *half)
{
    uint32_t w = row / 16, g = row % 8, hi = (row / 8) & 1;
    *thread = w * 32 + g * 4 + (col % 8) / 2;
    if (f->dtype == TC_T_F16) {
        *reg = (col / 8) * 2 + hi;
        *half = col & 1;
    } else {
        *reg = (col / 8) * 4 + hi * 2 + (col & 1);
        *half = 0;
    }
}

void tc_wgmma_a_where(const tc_wg_form *f, uint32_t row, uint32_t k, uint32_t *thread, uint32_t *reg,
                      uint32_t *bit)
{
    unsigned bits = tc_type_bits(f->atype);
    uint32_t kbit = k * bits, kb = kbit / 8;
    uint32_t w = row / 16, g = row % 8, hi = (row / 8) & 1;
    *thread = w * 32 + g * 4 + (kb % 16) / 4;
    *reg = (kb / 16) * 2 + hi;
    *bit = (kb % 4) * 8 + kbit % 8;
}

static uint32_t neg_bits(int t, uint32_t v)
{
    switch (t) {
    case TC_T_F16: case TC_T_BF16: return v ^ 0x8000u;
    case TC_T_TF32: return v ^ 0x80000000u;
    case TC_T_E4M3: case TC_T_E5M2: return v ^ 0x80u;
    default: return v;
    }
}

/* ---- execution ------------------------------------------------------------------- */

int tc_wgmma_exec(const tc_wg_form *f, tc_wg_io *io, char *why, size_t wn)
{
    tc_wg_scratch *s = io->s;
    const unsigned abits = tc_type_bits(f->atype);
    const uint32_t n = f->n;
    /* stored K of A (a sparse A holds half), words per row for b1 */
    const uint32_t ka = f->sparse ? f->k / 2u : f->k;
    const bool b1 = f->atype == TC_T_B1;
    const uint32_t astride = 64, bstride = 64;
    /* A */
    if (f->a_regs) {
        const uint32_t an = b1 ? f->k / 32u : ka;   /* b1: whole registers of 32 elements */
        for (uint32_t r = 0; r < 64; r++)
            for (uint32_t k = 0; k < an; k++) {
                uint32_t t, reg, bit;
                tc_wgmma_a_where(f, r, b1 ? k * 32 : k, &t, &reg, &bit);
                uint32_t v = io->a[t * 4 + reg] >> bit;
                if (abits < 32 && !b1)
                    v &= (1u << abits) - 1;
                s->a[r * astride + k] = v;
            }
    } else if (load_desc(io, io->desc_a, f->trans_a, f->atype, 64, ka, s->a, astride, why, wn)) {
        return -1;
    }
    if (load_desc(io, io->desc_b, f->trans_b, f->btype, n, f->k, s->b, bstride, why, wn))
        return -1;
    if (f->neg_a < 0)
        for (uint32_t r = 0; r < 64; r++)
            for (uint32_t k = 0; k < ka; k++)
                s->a[r * astride + k] = neg_bits(f->atype, s->a[r * astride + k]);
    if (f->neg_b < 0)
        for (uint32_t r = 0; r < n; r++)
            for (uint32_t k = 0; k < f->k; k++)
                s->b[r * bstride + k] = neg_bits(f->btype, s->b[r * bstride + k]);
    /* sparse: the logical K index of each stored element of A */
    if (f->sparse) {
        /* 4-bit metadata per pair of stored elements (2 of 4 logical; tf32:
         * 1 of 2, indices in 16-bit halves); row r's nibble j comes from the
         * thread 4(r%8) + 2 sel + j/4 of warp r/16, bits 16((r/8)&1) + 4(j%4) */
        uint32_t per = abits == 32 ? 1 : 2;       /* stored elements per nibble */
        uint32_t groups = ka / per;
        for (uint32_t r = 0; r < 64; r++)
            for (uint32_t j = 0; j < groups; j++) {
                uint32_t t, sh, hi = (r / 8) & 1;
                if (abits == 8) {
                    /* 8-bit (16 nibbles a row, selector 0): the quad's thread
                     * hi + 2(j/8), bits 4(j%8) (H100: sp_s8, sp_u8_areg, sp_e4m3) */
                    t = (r / 16) * 32 + (r % 8) * 4 + hi + 2 * (j / 8);
                    sh = 4 * (j % 8);
                } else {
                    t = (r / 16) * 32 + (r % 8) * 4 + 2u * f->sel + j / 4;
                    sh = 16 * hi + 4 * (j % 4);
                }
                uint32_t nib = io->meta[t] >> sh & 0xF;
                uint32_t i0 = nib & 3, i1 = nib >> 2;
                if (per == 2) {
                    s->meta[r * 64 + 2 * j] = 4 * j + i0;
                    s->meta[r * 64 + 2 * j + 1] = 4 * j + i1;
                } else {
                    /* tf32: the H100 takes the element from the second
                     * index (0b0100 and 0b1110 are the documented values;
                     * sp_tf32_mix gives 0b0110 and 0b1100 too) */
                    s->meta[r * 64 + j] = 2 * j + i1 / 2;
                }
            }
    }
    struct tc_dot_op op = { .family = f->sparse ? TC_FAM_WGMMA_SP : TC_FAM_WGMMA, .atype = f->atype,
                            .btype = f->btype, .ctype = f->dtype, .dtype = f->dtype,
                            .satfinite = f->satfinite, .bop = f->bop, .no_c = !io->scale_d,
                            .k = f->k, .shape_m = 64, .shape_n = f->n };
    uint32_t bk[64];
    /* dense floating-point forms: each row of A and column of B decoded once */
    bool fast = !f->sparse && !b1 && tc_dot_fast(&op);
    tc_dvec *da = s->dv, *db = s->dv + 64;
    if (fast) {
        for (uint32_t r = 0; r < 64; r++)
            tc_dot_decode(&op, false, &s->a[r * astride], (int)ka, &da[r]);
        for (uint32_t c = 0; c < n; c++)
            tc_dot_decode(&op, true, &s->b[c * bstride], (int)ka, &db[c]);
    }
    for (uint32_t r = 0; r < 64; r++)
        for (uint32_t c = 0; c < n; c++) {
            uint32_t t, reg, half;
            tc_wgmma_d_where(f, r, c, &t, &reg, &half);
            uint32_t *dp = &io->d[t * f->nd + reg];
            uint64_t cv = f->dtype == TC_T_F16 ? (*dp >> (16 * half)) & 0xFFFF : *dp;
            uint64_t dv;
            if (fast) {
                dv = tc_dot_dv(&op, &da[r], &db[c], io->scale_d ? cv : 0);
                goto store;
            }
            const uint32_t *ar = &s->a[r * astride], *br = &s->b[c * bstride];
            int cnt = (int)(b1 ? f->k : ka);
            if (f->sparse) {
                for (uint32_t i = 0; i < ka; i++)
                    bk[i] = br[s->meta[r * 64 + i]];
                br = bk;
            }
            dv = tc_dot(&op, ar, br, cnt, io->scale_d ? cv : 0);
        store:
            if (f->dtype == TC_T_F16)
                *dp = (*dp & ~(0xFFFFu << (16 * half))) | (uint32_t)(dv & 0xFFFF) << (16 * half);
            else
                *dp = (uint32_t)dv;
        }
    return 0;
}
