/* mma.c — the interpreter's side of the warp-level matrix instructions:
 * mma.sync (dense and .sp), wmma.load/store/mma, ldmatrix, stmatrix,
 * movmatrix (the layouts and numerics are tc/'s).  Each is .sync.aligned: the whole warp executes it together, so
 * it runs once for all live lanes; a warp that reaches it diverged, or with
 * a guard that differs between its lanes, stops with a fault naming the
 * lanes.  Shared-memory rows are bounds- and alignment-checked like ld/st
 * and take part in the data-race checks of copies in flight.
 * wmma.load/store address each element from the lane's own address, the
 * layout and the stride (elements; default the matrix's leading dimension).
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "interp/internal.h"
#include "tc/tc.h"

#define FOR_LANES(m, l) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

static uint64_t rreg(const ip_frame *f, const ir_operand *e, uint32_t l)
{
    if (!e) return 0;
    if (e->kind == IR_OPD_REG) return f->regs[e->u.reg * IP_WARP + l];
    if (e->kind == IR_OPD_IMM || e->kind == IR_OPD_FIMM) return (uint64_t)e->u.imm;
    return 0;
}

static void wreg(interp_ctx *c, ip_frame *f, const ir_operand *e, uint32_t l, uint64_t v)
{
    if (e && e->kind == IR_OPD_REG)
        f->regs[e->u.reg * IP_WARP + l] = v & c->plan->regmask[f->func][e->u.reg];
}

/* .aligned: every live lane of the warp, with the same guard */
static int converged(interp_ctx *c, ip_warp *w, const ir_instr *in, uint32_t group, uint32_t exec)
{
    uint32_t live = w->valid & ~w->exited;
    if (group == live && (exec == group || exec == 0))
        return 0;
    const char *nm = ir_ops[in->op].name;
    if (group != live)
        return ip_error(c, INTERP_FAULT, w, __builtin_ctz(group), c->xfunc, c->xpc,
                        "%s.sync.aligned reached by lanes 0x%08x of the warp only (live lanes 0x%08x): "
                        "every thread of the warp must execute it together, converged",
                        nm, group, live);
    return ip_error(c, INTERP_FAULT, w, __builtin_ctz(group & ~exec), c->xfunc, c->xpc,
                    "%s.sync.aligned with a guard true in lanes 0x%08x and false in 0x%08x: "
                    "the guard must be the same for the whole warp", nm, exec, group & ~exec);
}

/* The forms, decoded once per launch plan (ip_warp_mma_plan); ok false: a
 * form tc/ cannot run, whose message the instruction's first execution
 * asks tc/ for again. */
struct ip_tcw {
    bool ok;
    union {
        tc_mma_form mma;
        tc_wmma_form wmma;
    } u;
};

static bool is_warp_mma(int op)
{
    return op == IR_OP_MMA || op == IR_OP_WMMA_LOAD || op == IR_OP_WMMA_STORE || op == IR_OP_WMMA_MMA;
}

static bool decode(const ir_instr *in, struct ip_tcw *t, char *why, size_t n)
{
    t->ok = in->op == IR_OP_MMA ? tc_mma_decode(in, &t->u.mma, why, n) : tc_wmma_decode(in, &t->u.wmma, why, n);
    return t->ok;
}

bool ip_warp_mma_plan(ip_plan *p)
{
    const ir_module *m = p->mod;
    p->tcw = calloc(m->nfuncs + 1, sizeof *p->tcw);
    if (!p->tcw)
        return false;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_function *fn = &m->funcs[f];
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ir_instr *in = &fn->instrs[i];
            if (!is_warp_mma(in->op))
                continue;
            if (!p->tcw[f] && !(p->tcw[f] = calloc(fn->ninstrs + 1, sizeof **p->tcw)))
                return false;
            char why[200];
            decode(in, &p->tcw[f][i], why, sizeof why);
        }
    }
    return true;
}

void ip_warp_mma_plan_free(ip_plan *p)
{
    for (uint32_t f = 0; p->tcw && p->mod && f < p->mod->nfuncs; f++)
        free(p->tcw[f]);
    free(p->tcw);
    p->tcw = NULL;
}

/* the decoded form of the instruction at (c->xfunc, c->xpc); NULL after
 * reporting the form as not supported */
static const struct ip_tcw *form_of(interp_ctx *c, const ir_instr *in)
{
    const struct ip_tcw *t = c->plan->tcw && c->plan->tcw[c->xfunc] ? &c->plan->tcw[c->xfunc][c->xpc] : NULL;
    if (t && t->ok)
        return t;
    char why[200];
    struct ip_tcw tmp;
    if (!decode(in, &tmp, why, sizeof why)) {
        ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc, "%s", why);
        return NULL;
    }
    ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc, "%s: not decoded at launch", ir_ops[in->op].name);
    return NULL;
}

static int exec_mma(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    const struct ip_tcw *t = form_of(c, in);
    if (!t)
        return c->res.status;
    const tc_mma_form fm = t->u.mma;
    if (fm.sparse && fm.sel_faults)
        return ip_error(c, INTERP_FAULT, w, 0, c->xfunc, c->xpc,
                        "mma.sp: sparsity selector %u of .m%un%uk%u names metadata threads past the quad: "
                        "ptxas accepts it, the H100 stops with an illegal instruction", fm.sel, fm.m, fm.n, fm.kk);
    const ir_function *fn = ip_func(c, f->func);
    uint64_t a[32 * 8], b[32 * 4], cc[32 * 8], d[32 * 8];   /* m8n8k4 .f16 -> .f32: 8 C and D registers */
    for (uint32_t l = 0; l < 32; l++) {
        for (int i = 0; i < fm.na; i++) a[l * fm.na + i] = rreg(f, ip_vec_elem(fn, &in->opd[1], (unsigned)i), l);
        for (int i = 0; i < fm.nb; i++) b[l * fm.nb + i] = rreg(f, ip_vec_elem(fn, &in->opd[2], (unsigned)i), l);
        for (int i = 0; i < fm.nc; i++) cc[l * fm.nc + i] = rreg(f, ip_vec_elem(fn, &in->opd[3], (unsigned)i), l);
    }
    if (fm.sparse) {
        uint32_t meta[32];
        for (uint32_t l = 0; l < 32; l++)
            meta[l] = (uint32_t)rreg(f, &in->opd[4], l);
        tc_mma_sp_run(&fm, a, b, cc, meta, d);
    } else {
        tc_mma_run(&fm, a, b, cc, d);
    }
    FOR_LANES(exec, l)
        for (int i = 0; i < fm.nd; i++)
            wreg(c, f, ip_vec_elem(fn, &in->opd[0], (unsigned)i), l, d[l * fm.nd + i]);
    return 0;
}

static int nmat_of(const ir_instr *in)
{
    return ir_has(in, IR_M_X4) ? 4 : ir_has(in, IR_M_X2) ? 2 : 1;
}

/* A shared-memory access of a matrix instruction by lane l: the
 * happens-before checker when it is on (hooks.c), else the in-flight race
 * check of async.c. */
static int smem_check(interp_ctx *c, ip_warp *w, int l, const ip_ptr *p, uint32_t n, bool write, const char *nm)
{
    if (p->cta < 0)
        return 0;
    if (c->ck)
        return ip_ck_access(c, w, l, p, n, write ? CK_WRITE : 0);
    if (c->nops && ip_async_smem_race(c, w, l, p->cta, p->soff, n, write, nm))
        return c->res.status;
    return 0;
}

/* the 16-byte row of lane l: checked, NULL after a fault */
static uint8_t *row_ptr(interp_ctx *c, ip_warp *w, ip_frame *f, const ir_instr *in, int k, uint32_t l,
                        bool write)
{
    int sp;
    uint64_t a = ip_addr(c, w, f, in, k, l, &sp);
    ip_ptr p = ip_resolve(c, w, (int)l, sp, a, 16, 16, NULL);
    if (!p.p)
        return NULL;
    if (p.space != IR_SPACE_SHARED_CTA && p.space != IR_SPACE_SHARED_CLUSTER) {
        ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                 "%s: row address 0x%llx is not in shared memory", ir_ops[in->op].name, (unsigned long long)a);
        return NULL;
    }
    if (smem_check(c, w, (int)l, &p, 16, write, ir_ops[in->op].name))
        return NULL;
    /* stmatrix over a tile a wgmma in flight may still read */
    if (write && c->plan->wg_any && p.cta >= 0 &&
        ip_wgmma_smem_write(c, w, (int)l, p.cta, p.soff, 16, ir_ops[in->op].name))
        return NULL;
    return p.p;
}

static int exec_ldst_matrix(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, bool st)
{
    if (!ir_has(in, IR_M_M8N8) || (in->ntypes && in->types[0] != IR_T_B16))
        return ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc,
                        "%s: only the .m8n8 .b16 forms (sm_90) are supported", ir_ops[in->op].name);
    int nmat = nmat_of(in);
    bool trans = ir_has(in, IR_M_TRANS);
    const ir_function *fn = ip_func(c, f->func);
    uint8_t rows[32][16];
    uint8_t *ptr[32];
    uint32_t regs[32 * 4];
    int ak = st ? 0 : 1, vk = st ? 1 : 0;
    for (int r = 0; r < nmat * 8; r++)
        if (!(ptr[r] = row_ptr(c, w, f, in, ak, (uint32_t)r, st)))
            return c->res.status;
    if (!st) {
        for (int r = 0; r < nmat * 8; r++)
            memcpy(rows[r], ptr[r], 16);
        tc_ldmatrix(nmat, trans, rows, regs);
        for (uint32_t l = 0; l < 32; l++)
            for (int m = 0; m < nmat; m++)
                wreg(c, f, ip_vec_elem(fn, &in->opd[vk], (unsigned)m), l, regs[l * nmat + m]);
    } else {
        for (uint32_t l = 0; l < 32; l++)
            for (int m = 0; m < nmat; m++)
                regs[l * nmat + m] = (uint32_t)rreg(f, ip_vec_elem(fn, &in->opd[vk], (unsigned)m), l);
        tc_stmatrix(nmat, trans, regs, rows);
        for (int r = 0; r < nmat * 8; r++)
            memcpy(ptr[r], rows[r], 16);
    }
    return 0;
}

static int exec_wmma_mma(interp_ctx *c, ip_frame *f, const ir_instr *in, const tc_wmma_form *fm, uint32_t exec)
{
    const ir_function *fn = ip_func(c, f->func);
    const tc_mma_form *m = &fm->mma;
    uint64_t a[32 * 8], b[32 * 8], cc[32 * 8], d[32 * 8];
    for (uint32_t l = 0; l < 32; l++) {
        for (int i = 0; i < m->na; i++) a[l * m->na + i] = rreg(f, ip_vec_elem(fn, &in->opd[1], (unsigned)i), l);
        for (int i = 0; i < m->nb; i++) b[l * m->nb + i] = rreg(f, ip_vec_elem(fn, &in->opd[2], (unsigned)i), l);
        for (int i = 0; i < m->nc; i++) cc[l * m->nc + i] = rreg(f, ip_vec_elem(fn, &in->opd[3], (unsigned)i), l);
    }
    tc_wmma_run(fm, a, b, cc, d);
    FOR_LANES(exec, l)
        for (int i = 0; i < m->nd; i++)
            wreg(c, f, ip_vec_elem(fn, &in->opd[0], (unsigned)i), l, d[l * m->nd + i]);
    return 0;
}

/* wmma.load / wmma.store: every element of every lane's fragment, from or
 * to its place in the strided matrix at the lane's address. */
static int exec_wmma_ldst(interp_ctx *c, ip_warp *w, ip_frame *f, const ir_instr *in, const tc_wmma_form *fm,
                          uint32_t exec)
{
    const ir_function *fn = ip_func(c, f->func);
    bool st = in->op == IR_OP_WMMA_STORE;
    int ak = st ? 0 : 1, vk = st ? 1 : 0;
    int bits = fm->bits, epr = bits >= 32 ? 1 : 32 / bits, bytes = bits >= 8 ? bits / 8 : 1;
    const char *nm = st ? "wmma.store" : "wmma.load";
    FOR_LANES(exec, l) {
        int sp;
        uint64_t base = ip_addr(c, w, f, in, ak, l, &sp);
        uint64_t ld = fm->colmajor ? fm->rows : fm->cols;
        if (in->nopd > 2) {
            int64_t s = (int64_t)(uint32_t)rreg(f, &in->opd[2], l);
            if (s <= 0 || (uint64_t)s < ld)
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "%s: stride %lld is smaller than the matrix's %llu %s", nm, (long long)s,
                                (unsigned long long)ld, fm->colmajor ? "rows" : "columns");
            ld = (uint64_t)s;
        }
        for (int i = 0; i < fm->nregs; i++) {
            const ir_operand *ro = ip_vec_elem(fn, &in->opd[vk], (unsigned)i);
            uint64_t v = st ? rreg(f, ro, l) : 0;
            for (int j = 0; j < epr; j++) {
                int r, col;
                tc_wmma_elem(fm, (int)l, i, j, &r, &col);
                uint64_t e = fm->colmajor ? (uint64_t)col * ld + (uint64_t)r : (uint64_t)r * ld + (uint64_t)col;
                uint64_t bit = e * (uint64_t)bits;
                ip_ptr p = ip_resolve(c, w, (int)l, sp, base + bit / 8, (uint32_t)bytes, (uint32_t)bytes, nm);
                if (!p.p)
                    return c->res.status;
                if (smem_check(c, w, (int)l, &p, (uint32_t)bytes, st, nm))
                    return c->res.status;
                if (st && c->plan->wg_any && p.cta >= 0 &&
                    ip_wgmma_smem_write(c, w, (int)l, p.cta, p.soff, (uint32_t)bytes, nm))
                    return c->res.status;
                uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
                if (bits < 8) {
                    int sh = (int)(bit % 8);
                    if (st)
                        *p.p = (uint8_t)((*p.p & ~(mask << sh)) | (((v >> (j * bits)) & mask) << sh));
                    else
                        v |= (uint64_t)((*p.p >> sh) & mask) << (j * bits);
                } else if (st) {
                    uint64_t x = (v >> (bits < 64 ? j * bits : 0)) & mask;
                    memcpy(p.p, &x, (size_t)bytes);  /* little-endian host */
                } else {
                    uint64_t x = 0;
                    memcpy(&x, p.p, (size_t)bytes);
                    v |= x << (bits < 64 ? j * bits : 0);
                }
            }
            if (!st)
                wreg(c, f, ro, l, v);
        }
    }
    return 0;
}

/* Returns -2 when `in` is not a warp-level matrix instruction. */
int ip_exec_warp_mma(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group,
                     uint32_t exec)
{
    switch (in->op) {
    case IR_OP_MMA: case IR_OP_LDMATRIX: case IR_OP_STMATRIX: case IR_OP_MOVMATRIX:
    case IR_OP_WMMA_LOAD: case IR_OP_WMMA_STORE: case IR_OP_WMMA_MMA:
        break;
    default:
        return -2;
    }
    if (converged(c, w, in, group, exec))
        return c->res.status;
    if (!exec)
        return 0;
    if (w->valid != 0xffffffffu)
        return ip_error(c, INTERP_FAULT, w, 0, c->xfunc, c->xpc,
                        "%s.sync.aligned in a partial warp (lanes 0x%08x): it needs all 32 threads",
                        ir_ops[in->op].name, w->valid);
    ip_ck_warp_sync(c, w);   /* a .sync.aligned warp collective: the lanes meet here */
    int rc;
    switch (in->op) {
    case IR_OP_MMA:
        return exec_mma(c, w, in, f, exec);
    case IR_OP_LDMATRIX:
    case IR_OP_STMATRIX:
        /* a row's bytes come from (or go to) several lanes' registers: the
         * lanes meet again after the collective, so what one lane's row
         * address wrote is ordered before the others' next accesses */
        if (!(rc = exec_ldst_matrix(c, w, in, f, in->op == IR_OP_STMATRIX)))
            ip_ck_warp_sync(c, w);
        return rc;
    case IR_OP_WMMA_LOAD: case IR_OP_WMMA_STORE: case IR_OP_WMMA_MMA: {
        const struct ip_tcw *t = form_of(c, in);
        if (!t)
            return c->res.status;
        if (in->op == IR_OP_WMMA_MMA)
            return exec_wmma_mma(c, f, in, &t->u.wmma, exec);
        if (!(rc = exec_wmma_ldst(c, w, f, in, &t->u.wmma, exec)))
            ip_ck_warp_sync(c, w);
        return rc;
    }
    default: { /* movmatrix */
        const ir_function *fn = ip_func(c, f->func);
        uint32_t src[32], dst[32];
        for (uint32_t l = 0; l < 32; l++)
            src[l] = (uint32_t)rreg(f, ip_vec_elem(fn, &in->opd[1], 0), l);
        tc_movmatrix(src, dst);
        for (uint32_t l = 0; l < 32; l++)
            wreg(c, f, ip_vec_elem(fn, &in->opd[0], 0), l, dst[l]);
        return 0;
    }
    }
}
