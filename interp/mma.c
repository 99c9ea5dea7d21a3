/* mma.c — the interpreter's side of the warp-level matrix instructions:
 * mma.sync, ldmatrix, stmatrix, movmatrix (the layouts and numerics are
 * tc/'s).  Each is .sync.aligned: the whole warp executes it together, so
 * it runs once for all live lanes; a warp that reaches it diverged, or with
 * a guard that differs between its lanes, stops with a fault naming the
 * lanes.  Shared-memory rows are bounds- and alignment-checked like ld/st
 * and take part in the data-race checks of copies in flight.
 * wmma.* stop with "not supported" naming the form.
 */
#include <stdio.h>
#include <string.h>
#include "interp/internal.h"
#include "tc/tc.h"

#define FOR_LANES(m, l) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

static const ir_operand *vec_elem(const ir_function *fn, const ir_operand *o, unsigned i)
{
    if (o->kind == IR_OPD_VEC)
        return i < o->u.vec.n ? &fn->vecpool[o->u.vec.first + i] : NULL;
    return i == 0 ? o : NULL;
}

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

static int exec_mma(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    tc_mma_form fm;
    char why[160];
    if (!tc_mma_decode(in, &fm, why, sizeof why))
        return ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc, "%s", why);
    const ir_function *fn = ip_func(c, f->func);
    uint64_t a[32 * 8], b[32 * 4], cc[32 * 4], d[32 * 4];
    for (uint32_t l = 0; l < 32; l++) {
        for (int i = 0; i < fm.na; i++) a[l * fm.na + i] = rreg(f, vec_elem(fn, &in->opd[1], (unsigned)i), l);
        for (int i = 0; i < fm.nb; i++) b[l * fm.nb + i] = rreg(f, vec_elem(fn, &in->opd[2], (unsigned)i), l);
        for (int i = 0; i < fm.nc; i++) cc[l * fm.nc + i] = rreg(f, vec_elem(fn, &in->opd[3], (unsigned)i), l);
    }
    tc_mma_run(&fm, a, b, cc, d);
    FOR_LANES(exec, l)
        for (int i = 0; i < fm.nd; i++)
            wreg(c, f, vec_elem(fn, &in->opd[0], (unsigned)i), l, d[l * fm.nd + i]);
    return 0;
}

static int nmat_of(const ir_instr *in)
{
    return ir_has(in, IR_M_X4) ? 4 : ir_has(in, IR_M_X2) ? 2 : 1;
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
    if (c->nops && p.cta >= 0 && ip_async_smem_race(c, w, (int)l, p.cta, p.soff, 16, write, ir_ops[in->op].name))
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
                wreg(c, f, vec_elem(fn, &in->opd[vk], (unsigned)m), l, regs[l * nmat + m]);
    } else {
        for (uint32_t l = 0; l < 32; l++)
            for (int m = 0; m < nmat; m++)
                regs[l * nmat + m] = (uint32_t)rreg(f, vec_elem(fn, &in->opd[vk], (unsigned)m), l);
        tc_stmatrix(nmat, trans, regs, rows);
        for (int r = 0; r < nmat * 8; r++)
            memcpy(ptr[r], rows[r], 16);
    }
    return 0;
}

/* Returns -2 when `in` is not a warp-level matrix instruction. */
int ip_exec_warp_mma(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group,
                     uint32_t exec)
{
    switch (in->op) {
    case IR_OP_MMA: case IR_OP_LDMATRIX: case IR_OP_STMATRIX: case IR_OP_MOVMATRIX:
        break;
    case IR_OP_WMMA_LOAD: case IR_OP_WMMA_STORE: case IR_OP_WMMA_MMA:
        return ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc, "%s: the wmma forms are not implemented yet (mma.sync, ldmatrix and stmatrix are)",
                        ir_ops[in->op].name);
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
    switch (in->op) {
    case IR_OP_MMA:
        return exec_mma(c, w, in, f, exec);
    case IR_OP_LDMATRIX:
        return exec_ldst_matrix(c, w, in, f, false);
    case IR_OP_STMATRIX:
        return exec_ldst_matrix(c, w, in, f, true);
    default: { /* movmatrix */
        const ir_function *fn = ip_func(c, f->func);
        uint32_t src[32], dst[32];
        for (uint32_t l = 0; l < 32; l++)
            src[l] = (uint32_t)rreg(f, vec_elem(fn, &in->opd[1], 0), l);
        tc_movmatrix(src, dst);
        for (uint32_t l = 0; l < 32; l++)
            wreg(c, f, vec_elem(fn, &in->opd[0], 0), l, dst[l]);
        return 0;
    }
    }
}
