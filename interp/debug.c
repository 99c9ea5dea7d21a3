/* debug.c — read-only views of the interpreter state for `ptxi debug`.
 *
 * The step API in sched.c already exposes warps, registers, memory and
 * mbarriers; this file adds the few views the debugger needs that would
 * otherwise require it to know interp/'s private structures: an in-flight
 * operation as fields (not just a sentence), a symbol's address, the
 * address an instruction's operand names for a lane, and what a waiting
 * lane waits on.  Nothing here changes the state of a run.
 */
#include <string.h>
#include "interp/internal.h"

static const ip_warp *warp_of(const interp_ctx *c, int cta, int warp)
{
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta || warp < 0 || warp >= c->cl.ctas[cta].nwarps)
        return NULL;
    return &c->cl.ctas[cta].warps[warp];
}

int interp_inflight_get(const interp_ctx *c, int i, interp_inflight *out)
{
    if (i < 0 || i >= c->nops)
        return -1;
    const ip_op *o = &c->ops[i];
    memset(out, 0, sizeof *out);
    out->id = o->id;
    out->cta = o->cta;
    out->warp = o->warp;
    out->lane = o->lane;
    out->func = o->func;
    out->pc = o->pc;
    out->has_mbar = o->has_mbar;
    out->mbar = o->mbar_off;
    out->bulk_group = o->bulk_group;
    out->group = o->group;
    out->src_cta = -1;
    out->dst_cta = -1;
    switch (o->kind) {
    case IP_OP_TENSOR: {
        out->map = &o->map;
        out->dim = o->req.dim;
        for (int d = 0; d < 5; d++)
            out->coords[d] = o->req.coords[d];
        /* The byte count the copy completes (loads) or moves: what
         * tma_check computes at issue, against the first destination. */
        tma_request r = o->req;
        r.map = &o->map;
        int dc = o->dst_cta >= 0 && o->dst_cta < c->cl.ncta ? o->dst_cta : o->cta;
        if (c->have_cl && dc >= 0 && dc < c->cl.ncta) {
            r.smem = c->cl.ctas[dc].smem;
            r.smem_size = c->cl.ctas[dc].smem_size;
            r.smem_off = o->smem_off;
            char why[256];
            uint32_t tx = 0;
            if (tma_check(&r, &tx, why, sizeof why) == TMA_OK)
                out->bytes = tx;
        }
        if (!out->bytes)
            out->bytes = tma_map_box_bytes(&o->map);
        if (o->req.kind == TMA_LOAD) {
            out->kind = "TMA load";
            out->src_space = IR_SPACE_GLOBAL;
            out->src = o->map.global_address;
            out->dst_space = IR_SPACE_SHARED_CLUSTER;
            out->dst = o->smem_off;
            out->cta_mask = o->mcast;
            if (o->piece) /* landing in pieces (--complete=random): what is left */
                out->bytes = 16 * (c->pieces[o->piece - 1].n - c->pieces[o->piece - 1].done);
        } else {
            out->kind = o->req.kind == TMA_STORE ? "TMA store" : "TMA reduction";
            out->src_space = IR_SPACE_SHARED_CTA;
            out->src = o->smem_off;
            out->src_cta = o->dst_cta;
            out->dst_space = IR_SPACE_GLOBAL;
            out->dst = o->map.global_address;
        }
        break;
    }
    case IP_OP_BULK_G2S:
        out->kind = "bulk copy global->shared::cluster";
        out->src_space = IR_SPACE_GLOBAL;
        out->src = o->gaddr;
        out->dst_space = IR_SPACE_SHARED_CLUSTER;
        out->dst = o->smem_off;
        out->cta_mask = o->mcast;
        out->bytes = o->bytes;
        if (o->piece) /* landing in pieces (--complete=random): what is left */
            out->bytes = 16 * (c->pieces[o->piece - 1].n - c->pieces[o->piece - 1].done);
        break;
    case IP_OP_BULK_S2G:
    case IP_OP_BULK_RED:
        out->kind = o->kind == IP_OP_BULK_S2G ? "bulk copy shared::cta->global" : "bulk reduction";
        out->src_space = IR_SPACE_SHARED_CTA;
        out->src = o->src_off;
        out->src_cta = o->src_cta;
        if (o->dst_cta < 0) {
            out->dst_space = IR_SPACE_GLOBAL;
            out->dst = o->gaddr;
        } else {
            out->dst_space = IR_SPACE_SHARED_CLUSTER;
            out->dst = o->smem_off;
            out->dst_cta = o->dst_cta;
            out->cta_mask = 1u << o->dst_cta;
        }
        out->bytes = o->bytes;
        break;
    case IP_OP_BULK_S2S:
        out->kind = "bulk copy shared::cta->shared::cluster";
        out->src_space = IR_SPACE_SHARED_CTA;
        out->src = o->src_off;
        out->src_cta = o->src_cta;
        out->dst_space = IR_SPACE_SHARED_CLUSTER;
        out->dst = o->smem_off;
        out->dst_cta = o->dst_cta;
        out->cta_mask = o->mcast;
        out->bytes = o->bytes;
        break;
    case IP_OP_WGMMA:
        out->kind = "wgmma.mma_async (info wgmma)";
        break;
    default:
        out->kind = "prefetch";
        out->dst_space = IR_SPACE_NONE;
        break;
    }
    return o->id;
}

bool interp_sym_addr(const interp_ctx *c, int cta, int warp, int lane, uint32_t sym, int *space, uint64_t *addr)
{
    const ip_plan *p = c->plan;
    if (!p->symloc || sym >= p->mod->nsyms || p->symloc[sym] == IP_LOC_NONE)   /* no symloc: a launch error */
        return false;
    const ip_warp *w = NULL;
    if (p->symloc[sym] == IP_LOC_FRAME) {
        w = warp_of(c, cta, warp);
        if (!w || lane < 0 || lane >= IP_WARP)
            return false;
    }
    *addr = ip_sym_addr(c, w, lane, sym, space);
    return true;
}

bool interp_instr_addr(const interp_ctx *c, int cta, int warp, int lane, int func, uint32_t pc, int k,
                       int *space, uint64_t *addr)
{
    const ip_warp *w = warp_of(c, cta, warp);
    const ir_module *m = c->plan->mod;
    if (!w || lane < 0 || lane >= IP_WARP || func < 0 || (uint32_t)func >= m->nfuncs ||
        pc >= m->funcs[func].ninstrs)
        return false;
    const ir_instr *in = &m->funcs[func].instrs[pc];
    const ip_frame *f = &w->frames[w->fr[lane]];
    if (k < 0 || k >= in->nopd || f->func != func)
        return false;
    const ir_operand *o = &in->opd[k];
    int sp = IR_SPACE_NONE;
    *space = in->space;
    switch (o->kind) {
    case IR_OPD_REG:
        if (o->u.reg >= f->nregs)
            return false;
        *addr = f->regs[o->u.reg * IP_WARP + (unsigned)lane];
        return true;
    case IR_OPD_SYM:
        *addr = ip_sym_addr(c, w, lane, o->u.sym, &sp);
        if (sp == IR_SPACE_LOCAL || *space == IR_SPACE_NONE)
            *space = sp;
        return true;
    case IR_OPD_ADDR:
        switch (o->u.addr.base_kind) {
        case IR_BASE_REG:
            if (o->u.addr.base >= f->nregs)
                return false;
            *addr = f->regs[o->u.addr.base * IP_WARP + (unsigned)lane] + (uint64_t)o->u.addr.off;
            if (o->u.addr.base32)   /* as ip_addr: a 32-bit base wraps */
                *addr = (uint32_t)*addr;
            return true;
        case IR_BASE_SYM:
            *addr = ip_sym_addr(c, w, lane, o->u.addr.base, &sp) + (uint64_t)o->u.addr.off;
            if (sp == IR_SPACE_LOCAL || *space == IR_SPACE_NONE)
                *space = sp;
            return true;
        default:
            *addr = (uint64_t)o->u.addr.off;
            return true;
        }
    case IR_OPD_IMM:
        *addr = (uint64_t)o->u.imm;
        return true;
    default:
        return false;
    }
}

bool interp_lane_wait(const interp_ctx *c, int cta, int warp, int lane, interp_wait *out)
{
    const ip_warp *w = warp_of(c, cta, warp);
    if (!w || lane < 0 || lane >= w->nlanes)
        return false;
    memset(out, 0, sizeof *out);
    int st = w->st[lane];
    if (st == INTERP_T_READY && (w->polling >> lane & 1))
        st = INTERP_T_MBAR_POLL;
    out->state = st;
    out->cta = cta;
    switch (st) {
    case INTERP_T_BAR:
        out->addr = w->wait[lane];
        break;
    case INTERP_T_MBAR_POLL:
        out->cta = w->wait_cta[lane];
        out->addr = (uint32_t)w->wait[lane];
        out->parity = w->wait_aux[lane] & 1;
        break;
    default:
        break;
    }
    return true;
}

int interp_lane_frames(const interp_ctx *c, int cta, int warp, int lane, interp_frame_info *out, int max)
{
    const ip_warp *w = warp_of(c, cta, warp);
    if (!w || lane < 0 || lane >= w->nlanes || (w->exited >> lane & 1))
        return 0;
    int n = 0, fi = w->fr[lane];
    uint32_t pc = w->pc[lane];
    /* the innermost frame's pc is where the lane stands; a caller's is its
     * call instruction (the line gdb shows for an outer frame) */
    while (fi >= 0 && fi < w->nframes && n < max) {
        const ip_frame *f = &w->frames[fi];
        out[n].func = f->func;
        out[n].pc = pc;
        out[n].ret_pc = n ? pc + 1 : 0;
        n++;
        pc = f->call_pc;
        fi = f->parent;
    }
    return n;
}

bool interp_frame_reg_get(const interp_ctx *c, int cta, int warp, int lane, int level, uint32_t slot,
                          uint64_t *val)
{
    const ip_warp *w = warp_of(c, cta, warp);
    if (!w || lane < 0 || lane >= w->nlanes || level < 0)
        return false;
    int fi = w->fr[lane];
    for (int k = 0; k < level && fi >= 0 && fi < w->nframes; k++)
        fi = w->frames[fi].parent;
    if (fi < 0 || fi >= w->nframes)
        return false;
    const ip_frame *f = &w->frames[fi];
    if (slot >= f->nregs)
        return false;
    *val = f->regs[slot * IP_WARP + (unsigned)lane];
    return true;
}

int interp_cta_where(const interp_ctx *c, const uint32_t ctaid[3], int *slot)
{
    const ip_plan *p = c->plan;
    const interp_launch *l = &p->launch;
    for (int d = 0; d < 3; d++)
        if (ctaid[d] >= l->grid[d])
            return INTERP_CTA_NONE;
    if (p->err[0])
        return c->finished ? INTERP_CTA_DONE : INTERP_CTA_LATER;   /* the first step reports the launch error */
    uint64_t idx = ctaid[0] / p->cluster[0] +
                   (uint64_t)p->ncluster[0] * (ctaid[1] / p->cluster[1] + (uint64_t)p->ncluster[1] * (ctaid[2] / p->cluster[2]));
    if (c->have_cl && idx == c->cl.index) {
        for (int r = 0; r < c->cl.ncta; r++) {
            const ip_cta *t = &c->cl.ctas[r];
            if (t->ctaid[0] == ctaid[0] && t->ctaid[1] == ctaid[1] && t->ctaid[2] == ctaid[2]) {
                *slot = r;
                return INTERP_CTA_RESIDENT;
            }
        }
    }
    if (c->finished || (c->have_cl && idx < c->cl.index) || idx < c->next_cluster - (c->have_cl ? 1 : 0))
        return INTERP_CTA_DONE;
    return INTERP_CTA_LATER;
}

uint32_t interp_smem_size(const interp_ctx *c)
{
    return c->plan->smem_size;
}

uint32_t interp_wait_pc(const ir_module *m, int func, uint32_t pc, int state)
{
    if (func < 0 || (uint32_t)func >= m->nfuncs || pc == 0 || pc > m->funcs[func].ninstrs)
        return pc;
    int op = m->funcs[func].instrs[pc - 1].op;
    switch (state) {
    case INTERP_T_BAR: return op == IR_OP_BAR || op == IR_OP_BARRIER ? pc - 1 : pc;
    case INTERP_T_CLUSTER_BAR: return op == IR_OP_BARRIER_CLUSTER ? pc - 1 : pc;
    case INTERP_T_MBAR_POLL: return op == IR_OP_MBARRIER_TRY_WAIT || op == IR_OP_MBARRIER_TEST_WAIT ? pc - 1 : pc;
    case INTERP_T_BULK_WAIT: return op == IR_OP_CP_ASYNC_BULK_WAIT_GROUP ? pc - 1 : pc;
    default: return pc;
    }
}
