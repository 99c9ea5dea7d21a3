/* wgmma.c — the interpreter's side of wgmma: warpgroups, operations in
 * flight, and the ISA's ordering rules.  The MMA itself is tc/'s
 * (tc_wgmma_exec); this file gathers its operands and scatters its result.
 *
 * A warpgroup is 4 consecutive warps (warp id / 4).  Each warp executes the
 * same wgmma.mma_async instructions in the same order; the k-th mma_async
 * of every warp is one record (ip_wg_rec, a ring per warpgroup).  When the
 * 4th warp has issued it the record becomes an ip_op (IP_OP_WGMMA) that the
 * completion policy lands like a TMA copy (async.c, sched.c): eager at
 * issue, deferred when nothing else can run, random at random steps.
 * Landing reads the A fragment, the accumulators and shared memory then and
 * writes D; a warpgroup's records land in order (landing one lands the
 * older ones first).  wgmma.commit_group closes a warp's group, and
 * wgmma.wait_group N waits until every record of the groups but the N most
 * recent has landed.
 *
 * Rules (each a fault with CTA/warp/lane and both PTX lines):
 *  - a register of an mma_async's D or A fragment is touched by another
 *    instruction between the issue and the wait_group that covers it;
 *  - an mma_async without a wgmma.fence after the last other access by the
 *    warp to a register that any mma_async of the function uses;
 *  - shared memory written by the generic proxy (st.shared...) and read by
 *    an mma_async with no fence.proxy.async in between (tracked per 16-byte
 *    chunk: the writer is remembered until a fence.proxy.async);
 *  - shared memory an mma_async reads overwritten before the wait_group
 *    that covers it (its read window stays open until then, under every
 *    completion policy);
 *  - the warps of a warpgroup issuing different mma_async sequences.
 * Instructions that access a wgmma register are known at plan time
 * (plan->wgacc) and never take the uop fast path, so the checks cost
 * nothing elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interp/internal.h"
#include "interp/fp.h"

#define FOR_LANES(m, l) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)
#define IP_WG_RECS 64

typedef struct ip_wg_rec {
    int func;
    uint32_t pc;
    uint32_t seq, group;
    uint8_t issued;            /* bit per warp of the warpgroup */
    bool inflight, landed;
    uint16_t fr[4];            /* each warp's frame at issue */
    uint64_t desc_a, desc_b;
    bool scale_d;
    uint32_t meta[128];
    uint32_t lo, hi;           /* shared bytes it may read: [lo, hi) */
    uint32_t win[2][2];        /* A's and B's windows apart ([0, 0) for A in registers) */
} ip_wg_rec;

typedef struct ip_wg {
    ip_wg_rec rec[IP_WG_RECS]; /* rec[seq % IP_WG_RECS] */
    uint32_t head;             /* oldest record not landed */
    uint32_t next[4];          /* per warp: seq of its next mma_async */
    uint32_t commits[4];       /* per warp: groups committed */
    uint32_t waited[4];        /* per warp: records before this are waited for */
    bool fence_needed[4];      /* per warp: a wgmma register was accessed since the last wgmma.fence */
    int acc_func[4];           /* ... by this instruction */
    uint32_t acc_pc[4];
} ip_wg;

typedef struct ip_wg_buf {
    tc_wg_scratch s;
    uint32_t a[128 * 4], d[128 * 128];
} ip_wg_buf;

/* per-CTA generic-proxy writer of each 16-byte chunk, until a fence.proxy.async */
typedef struct ip_wg_dirty {
    uint64_t *w;               /* 0 = clean, else 1 | func<<1 | pc<<17 | warp<<49 | lane<<56 */
    uint32_t n;
} ip_wg_dirty;

static const tc_wg_form *form_of(const interp_ctx *c, int func, uint32_t pc)
{
    return &c->plan->wgf[func][pc];
}

/* ---- plan ------------------------------------------------------------------------ */

static void mark_regs(const ir_function *fn, const ir_operand *o, uint8_t *used)
{
    if (o->kind == IR_OPD_REG)
        used[o->u.reg] = 1;
    else if (o->kind == IR_OPD_VEC)
        for (uint32_t i = 0; i < o->u.vec.n; i++)
            mark_regs(fn, &fn->vecpool[o->u.vec.first + i], used);
}

static bool opd_uses(const ir_function *fn, const ir_operand *o, const uint8_t *used)
{
    switch (o->kind) {
    case IR_OPD_REG: return used[o->u.reg];
    case IR_OPD_VEC:
        for (uint32_t i = 0; i < o->u.vec.n; i++)
            if (opd_uses(fn, &fn->vecpool[o->u.vec.first + i], used))
                return true;
        return false;
    case IR_OPD_ADDR:
        if (o->u.addr.base_kind == IR_BASE_REG && used[o->u.addr.base])
            return true;
        for (uint32_t i = 0; o->u.addr.has_vec && i < o->u.addr.vec_n; i++)
            if (opd_uses(fn, &fn->vecpool[o->u.addr.vec_first + i], used))
                return true;
        return false;
    default: return false;
    }
}

bool ip_wgmma_plan(ip_plan *p)
{
    const ir_module *m = p->mod;
    p->wgf = calloc(m->nfuncs + 1, sizeof *p->wgf);
    p->wgacc = calloc(m->nfuncs + 1, sizeof *p->wgacc);
    if (!p->wgf || !p->wgacc)
        return false;
    p->wg_any = false;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_function *fn = &m->funcs[f];
        bool any = false;
        for (uint32_t i = 0; i < fn->ninstrs && !any; i++)
            any = fn->instrs[i].op == IR_OP_WGMMA_MMA_ASYNC;
        if (!any)
            continue;
        p->wg_any = true;
        p->wgf[f] = calloc(fn->ninstrs + 1, sizeof **p->wgf);
        p->wgacc[f] = calloc(fn->ninstrs + 1, 1);
        uint8_t *used = calloc(fn->nregs + 1, 1);
        if (!p->wgf[f] || !p->wgacc[f] || !used) {
            free(used);
            return false;
        }
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ir_instr *in = &fn->instrs[i];
            if (in->op != IR_OP_WGMMA_MMA_ASYNC)
                continue;
            char why[200];
            int k;
            if (tc_wgmma_decode(in, &p->wgf[f][i], &k, why, sizeof why)) {
                snprintf(p->err, sizeof p->err, "line %u: wgmma.mma_async: %s", in->loc.line, why);
                free(used);
                return true;
            }
            mark_regs(fn, &in->opd[0], used);
            if (p->wgf[f][i].a_regs)
                mark_regs(fn, &in->opd[1], used);
        }
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ir_instr *in = &fn->instrs[i];
            if (in->op == IR_OP_WGMMA_MMA_ASYNC || in->op == IR_OP_WGMMA_FENCE ||
                in->op == IR_OP_WGMMA_COMMIT_GROUP || in->op == IR_OP_WGMMA_WAIT_GROUP)
                continue;
            for (uint32_t k = 0; k < in->nopd; k++)
                if (opd_uses(fn, &in->opd[k], used))
                    p->wgacc[f][i] = 1;
        }
        free(used);
    }
    return true;
}

void ip_wgmma_plan_free(ip_plan *p)
{
    for (uint32_t f = 0; p->mod && f < p->mod->nfuncs; f++) {
        if (p->wgf)
            free(p->wgf[f]);
        if (p->wgacc)
            free(p->wgacc[f]);
    }
    free(p->wgf);
    free(p->wgacc);
}

void ip_wgmma_cta_free(ip_cta *t)
{
    free(t->wg);
    t->wg = NULL;
    if (t->wg_dirty) {
        free(t->wg_dirty->w);
        free(t->wg_dirty);
        t->wg_dirty = NULL;
    }
}

void ip_wgmma_ctx_free(interp_ctx *c)
{
    free(c->wgbuf);
    c->wgbuf = NULL;
}

/* ---- helpers --------------------------------------------------------------------- */

static int where(const interp_ctx *c, int func, uint32_t pc, char *buf, size_t n)
{
    return interp_where(c, func, pc, buf, n);
}

static ip_wg *wg_of(interp_ctx *c, ip_cta *t)
{
    if (!t->wg) {
        int n = (t->nwarps + 3) / 4;
        t->wg = calloc((size_t)n, sizeof *t->wg);
        if (t->wg)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < 4; j++)
                    t->wg[i].fence_needed[j] = true, t->wg[i].acc_func[j] = -1;
    }
    return t->wg;
}


/* ---- shared memory: generic writes and read windows -------------------------------- */

static void note_write(interp_ctx *c, ip_warp *w, int lane, int cta, uint32_t off, uint32_t n)
{
    ip_cta *t = &c->cl.ctas[cta];
    if (!t->wg_dirty) {
        t->wg_dirty = calloc(1, sizeof *t->wg_dirty);
        if (!t->wg_dirty)
            return;
        t->wg_dirty->n = t->smem_size / 16 + 1;
        t->wg_dirty->w = calloc(t->wg_dirty->n, sizeof(uint64_t));
        if (!t->wg_dirty->w)
            return;
    }
    uint64_t tag = 1 | (uint64_t)(c->xfunc & 0xFFFF) << 1 | (uint64_t)c->xpc << 17 | (uint64_t)w->id << 49 |
                   (uint64_t)lane << 56;
    for (uint32_t k = off / 16; k <= (off + n - 1) / 16 && k < t->wg_dirty->n; k++)
        t->wg_dirty->w[k] = tag;
}

void ip_wgmma_proxy_fence(interp_ctx *c, ip_warp *w)
{
    ip_cta *t = w->cta;
    if (t->wg_dirty && t->wg_dirty->w)
        memset(t->wg_dirty->w, 0, t->wg_dirty->n * sizeof(uint64_t));
}

/* a generic write to [off, off+n) of CTA `cta` while an mma_async of that CTA
 * may still read it */
static int smem_race(interp_ctx *c, ip_warp *w, int lane, int cta, uint32_t off, uint32_t n, const char *what,
                     bool partial)
{
    ip_cta *t = &c->cl.ctas[cta];
    if (!t->wg)
        return 0;
    int ngr = (t->nwarps + 3) / 4;
    for (int g = 0; g < ngr; g++) {
        ip_wg *wg = &t->wg[g];
        /* a wait_group by any warp of the group that covers a record means
         * the operation is complete: its read window closes there */
        uint32_t from = wg->waited[0];
        for (int j = 1; j < 4; j++)
            if (wg->waited[j] > from)
                from = wg->waited[j];
        uint32_t to = 0;
        for (int j = 0; j < 4; j++)
            if (wg->next[j] > to)
                to = wg->next[j];
        for (uint32_t s = from; s < to; s++) {
            const ip_wg_rec *r = &wg->rec[s % IP_WG_RECS];
            if (r->seq != s || !r->issued || (partial && r->issued == 0xF) || off + n <= r->lo || off >= r->hi)
                continue;
            char a[300];
            where(c, r->func, r->pc, a, sizeof a);
            return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                            "data race [wgmma-operand-overwritten]: %s writes shared memory [0x%x, 0x%x) that "
                            "wgmma.mma_async (warpgroup %d, "
                            "issued at %s) may still read: wait with wgmma.wait_group before overwriting "
                            "its operands", what, off, off + n, g, a);
        }
    }
    return 0;
}

int ip_wgmma_smem_write(interp_ctx *c, ip_warp *w, int lane, int cta, uint32_t off, uint32_t n, const char *what)
{
    note_write(c, w, lane, cta, off, n);
    /* with the checker on, a write is checked against the read window of an
     * mma_async the whole warpgroup issued in happens-before terms (hooks.c);
     * here only against one that part of the warpgroup has issued (no wait
     * can cover it yet, so any write is a race); with it off, by timing */
    return smem_race(c, w, lane, cta, off, n, what, c->ck != NULL);
}

/* ---- landing --------------------------------------------------------------------- */

static int land_rec(interp_ctx *c, ip_cta *t, int g, ip_wg_rec *r)
{
    const tc_wg_form *f = form_of(c, r->func, r->pc);
    const ir_function *fn = ip_func(c, r->func);
    const ir_instr *in = &fn->instrs[r->pc];
    if (!c->wgbuf && !(c->wgbuf = calloc(1, sizeof *c->wgbuf)))
        return ip_error(c, INTERP_FAULT, NULL, 0, r->func, r->pc, "out of host memory");
    ip_wg_buf *b = c->wgbuf;
    uint32_t dslot[128];   /* the accumulator registers (nd <= 128), looked up once */
    for (uint32_t i = 0; i < f->nd; i++)
        dslot[i] = ip_vec_elem(fn, &in->opd[0], i)->u.reg;
    for (int j = 0; j < 4; j++) {
        ip_warp *w = &t->warps[g * 4 + j];
        ip_frame *fr = &w->frames[r->fr[j]];
        for (uint32_t i = 0; i < f->nd; i++) {
            const uint64_t *src = &fr->regs[dslot[i] * IP_WARP];
            uint32_t *dst = &b->d[i * 128 + (uint32_t)j * 32];
            for (uint32_t l = 0; l < 32; l++)
                dst[l] = (uint32_t)src[l];
        }
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t th = (uint32_t)j * 32 + l;
            if (f->a_regs)
                for (uint32_t i = 0; i < 4; i++) {
                    const ir_operand *e = ip_vec_elem(fn, &in->opd[1], i);
                    b->a[th * 4 + i] = e->kind == IR_OPD_REG ? (uint32_t)fr->regs[e->u.reg * IP_WARP + l]
                                                             : (uint32_t)e->u.imm;
                }
        }
    }
    tc_wg_io io = { .smem = t->smem, .smem_size = t->smem_size, .smem_base = 0, .desc_a = r->desc_a,
                    .desc_b = r->desc_b, .a = b->a, .meta = r->meta, .d = b->d, .scale_d = r->scale_d,
                    .s = &b->s };
    char why[300];
    if (tc_wgmma_exec(f, &io, why, sizeof why))
        return ip_error(c, INTERP_FAULT, &t->warps[g * 4], 0, r->func, r->pc, "wgmma.mma_async: %s", why);
    for (int j = 0; j < 4; j++) {
        ip_warp *w = &t->warps[g * 4 + j];
        ip_frame *fr = &w->frames[r->fr[j]];
        const uint64_t *mask = c->plan->regmask[r->func];
        for (uint32_t i = 0; i < f->nd; i++) {
            uint64_t *dst = &fr->regs[dslot[i] * IP_WARP], m = mask[dslot[i]];
            const uint32_t *src = &b->d[i * 128 + (uint32_t)j * 32];
            for (uint32_t l = 0; l < 32; l++)
                dst[l] = src[l] & m;
        }
        for (int ln = 0; ln < w->nlanes; ln++)
            if (w->st[ln] == INTERP_T_BULK_WAIT)
                w->st[ln] = INTERP_T_READY;
    }
    r->landed = true;
    c->effects++;
    return 0;
}

/* land the records of warpgroup g up to and including seq `upto`, in order */
static int land_upto(interp_ctx *c, ip_cta *t, int g, uint32_t upto)
{
    ip_wg *wg = &t->wg[g];
    while (wg->head <= upto) {
        ip_wg_rec *r = &wg->rec[wg->head % IP_WG_RECS];
        if (r->seq != wg->head || !r->inflight)
            break;
        if (!r->landed) {
            /* drop its queued op (it lands now) */
            for (int i = 0; i < c->nops; i++) {
                const ip_op *o = &c->ops[i];
                if (o->kind == IP_OP_WGMMA && o->cta == t->slot && o->wg == g && o->wg_seq == r->seq) {
                    memmove(&c->ops[i], &c->ops[i + 1], (size_t)(c->nops - i - 1) * sizeof *c->ops);
                    c->nops--;
                    break;
                }
            }
            if (land_rec(c, t, g, r))
                return c->res.status;
        }
        wg->head++;
    }
    return 0;
}

int ip_wgmma_land(interp_ctx *c, const ip_op *o)
{
    ip_cta *t = &c->cl.ctas[o->cta];
    ip_wg *wg = &t->wg[o->wg];
    ip_wg_rec *r = &wg->rec[o->wg_seq % IP_WG_RECS];
    if (o->wg_seq > 0 && land_upto(c, t, o->wg, o->wg_seq - 1))
        return -1;
    if (land_rec(c, t, o->wg, r))
        return -1;
    if (wg->head == o->wg_seq)
        wg->head++;
    return 0;
}

/* ---- register rules -------------------------------------------------------------- */

static bool vec_has(const ir_function *fn, const ir_operand *v, uint32_t reg)
{
    for (uint32_t i = 0; i < v->u.vec.n; i++) {
        const ir_operand *e = ip_vec_elem(fn, v, i);
        if (e->kind == IR_OPD_REG && e->u.reg == reg)
            return true;
    }
    return false;
}

static bool opd_has(const ir_function *fn, const ir_operand *o, uint32_t reg)
{
    switch (o->kind) {
    case IR_OPD_REG: return o->u.reg == reg;
    case IR_OPD_VEC: return vec_has(fn, o, reg);
    case IR_OPD_ADDR: return o->u.addr.base_kind == IR_BASE_REG && o->u.addr.base == reg;
    default: return false;
    }
}

int ip_wgmma_reg_check(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    if (!exec)
        return 0;
    ip_wg *wg = wg_of(c, w->cta);
    if (!wg)
        return 0;
    int g = w->id / 4, j = w->id % 4;
    ip_wg *s = &wg[g];
    const ir_function *fn = ip_func(c, f->func);
    /* in flight: records this warp issued and has not waited for */
    for (uint32_t q = s->waited[j]; q < s->next[j]; q++) {
        const ip_wg_rec *r = &s->rec[q % IP_WG_RECS];
        if (r->seq != q || r->func != f->func)
            continue;
        const tc_wg_form *fo = form_of(c, r->func, r->pc);
        const ir_instr *wi = &fn->instrs[r->pc];
        for (uint32_t k = 0; k < in->nopd; k++) {
            const ir_operand *o = &in->opd[k];
            for (int side = 0; side < (fo->a_regs ? 2 : 1); side++) {
                const ir_operand *v = &wi->opd[side];
                for (uint32_t i = 0; i < v->u.vec.n; i++) {
                    const ir_operand *e = ip_vec_elem(fn, v, i);
                    if (e->kind != IR_OPD_REG || !opd_has(fn, o, e->u.reg))
                        continue;
                    char a[300];
                    where(c, r->func, r->pc, a, sizeof a);
                    return ip_error(c, INTERP_FAULT, w, __builtin_ctz(exec), f->func, c->xpc,
                                    "[wgmma-register-in-flight]: register %s is %s of wgmma.mma_async "
                                    "issued at %s, which is still in "
                                    "flight: wgmma.commit_group and a wgmma.wait_group covering it must "
                                    "come before any other access", fn->regs[e->u.reg].name,
                                    side ? "part of the A fragment" : "an accumulator", a);
                }
            }
        }
    }
    s->fence_needed[j] = true;
    s->acc_func[j] = f->func;
    s->acc_pc[j] = c->xpc;
    return 0;
}

/* ---- instructions ---------------------------------------------------------------- */

static int issue(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    ip_cta *t = w->cta;
    const tc_wg_form *fo = form_of(c, f->func, c->xpc);
    if (exec != 0xffffffffu || w->nlanes != 32)
        return ip_error(c, INTERP_FAULT, w, exec ? __builtin_ctz(exec) : 0, f->func, c->xpc,
                        "wgmma.mma_async is .aligned: all 32 lanes of the warp must execute it "
                        "(%d did)", __builtin_popcount(exec));
    int g = w->id / 4, j = w->id % 4;
    if (g * 4 + 4 > t->nwarps)
        return ip_error(c, INTERP_FAULT, w, 0, f->func, c->xpc,
                        "wgmma.mma_async needs a whole warpgroup (4 warps); warp %d's group has only %d",
                        w->id, t->nwarps - g * 4);
    ip_wg *wgs = wg_of(c, t);
    if (!wgs)
        return ip_error(c, INTERP_FAULT, w, 0, f->func, c->xpc, "out of host memory");
    ip_wg *s = &wgs[g];
    if (s->fence_needed[j]) {
        char a[300] = "the start of the kernel";
        if (s->acc_func[j] >= 0)
            where(c, s->acc_func[j], s->acc_pc[j], a, sizeof a);
        return ip_error(c, INTERP_FAULT, w, 0, f->func, c->xpc,
                        "[wgmma-no-fence]: wgmma.mma_async without a wgmma.fence since %s%s: the "
                        "warpgroup's register "
                        "accesses must be fenced before an mma_async uses its registers",
                        s->acc_func[j] >= 0 ? "the register access at " : "", a);
    }
    uint32_t seq = s->next[j];
    if (seq >= s->head + IP_WG_RECS)
        return ip_error(c, INTERP_UNSUPPORTED, w, 0, f->func, c->xpc,
                        "more than %d wgmma.mma_async of one warpgroup in flight", IP_WG_RECS);
    ip_wg_rec *r = &s->rec[seq % IP_WG_RECS];
    if (r->seq != seq || !r->issued) {
        memset(r, 0, sizeof *r);
        r->seq = seq;
        r->func = f->func;
        r->pc = c->xpc;
        r->group = s->commits[j];
        r->lo = UINT32_MAX;
        r->desc_b = ip_opd(c, w, f, in, fo->o_b, 0);
        if (!fo->a_regs)
            r->desc_a = ip_opd(c, w, f, in, fo->o_a, 0);
        r->scale_d = ip_opd(c, w, f, in, fo->o_scale, 0) != 0;
        r->win[1][0] = UINT32_MAX;
        tc_wgmma_footprint(fo, r->desc_b, false, &r->win[1][0], &r->win[1][1]);
        if (!fo->a_regs) {
            r->win[0][0] = UINT32_MAX;
            tc_wgmma_footprint(fo, r->desc_a, true, &r->win[0][0], &r->win[0][1]);
        }
        r->lo = r->win[0][1] && r->win[0][0] < r->win[1][0] ? r->win[0][0] : r->win[1][0];
        r->hi = r->win[0][1] > r->win[1][1] ? r->win[0][1] : r->win[1][1];
    } else if (r->func != f->func || r->pc != c->xpc || r->group != s->commits[j]) {
        char a[300], b[300];
        int first = __builtin_ctz(r->issued);
        where(c, r->func, r->pc, a, sizeof a);
        where(c, f->func, c->xpc, b, sizeof b);
        return ip_error(c, INTERP_FAULT, w, 0, f->func, c->xpc,
                        "the warps of warpgroup %d issue different wgmma sequences: wgmma.mma_async #%u is "
                        "%s in warp %d (commit group %u) but %s in warp %d (commit group %u)",
                        g, seq, a, g * 4 + first, r->group, b, w->id, s->commits[j]);
    }
    if (fo->sparse)
        for (uint32_t l = 0; l < 32; l++)
            r->meta[j * 32 + l] = (uint32_t)ip_opd(c, w, f, in, fo->o_meta, l);
    r->fr[j] = w->fr[0];
    r->issued |= (uint8_t)(1u << j);
    s->next[j]++;
    w->wg_busy++;
    /* generic writes not fenced for the async proxy, in what it reads (with
     * the checker on, hooks.c decides that in happens-before terms: a fence
     * by the writer after the write, or by the issuer after the write is
     * ordered before it; this record of the last writer per chunk is
     * cleared by any warp's fence) */
    if (!c->ck && t->wg_dirty && t->wg_dirty->w) {
        for (uint32_t k = r->lo / 16; k < r->hi / 16 && k < t->wg_dirty->n; k++) {
            uint64_t tag = t->wg_dirty->w[k];
            if (!tag)
                continue;
            char a[300];
            where(c, (int)(tag >> 1 & 0xFFFF), (uint32_t)(tag >> 17 & 0xFFFFFFFF), a, sizeof a);
            return ip_error(c, INTERP_FAULT, w, 0, f->func, c->xpc,
                            "data race [missing-proxy-fence]: wgmma.mma_async reads shared memory at 0x%x that "
                            "warp %u lane %u wrote through "
                            "the generic proxy at %s with no fence.proxy.async since", k * 16,
                            (unsigned)(tag >> 49 & 0x7F), (unsigned)(tag >> 56 & 0x1F), a);
        }
    }
    if (r->issued != 0xF)
        return 0;
    /* the whole warpgroup issued it: in flight */
    if (c->nops == c->capops) {
        int cap = c->capops ? c->capops * 2 : 16;
        ip_op *n = realloc(c->ops, (size_t)cap * sizeof *n);
        if (!n)
            return ip_error(c, INTERP_FAULT, w, 0, f->func, c->xpc, "out of host memory");
        c->ops = n;
        c->capops = cap;
    }
    ip_op *o = &c->ops[c->nops];
    memset(o, 0, sizeof *o);
    o->id = c->next_op_id++;
    o->kind = IP_OP_WGMMA;
    o->in = in;
    o->func = r->func;
    o->pc = r->pc;
    o->cta = t->slot;
    o->warp = g * 4;
    o->wg = g;
    o->wg_seq = seq;
    r->inflight = true;
    c->nops++;
    c->effects++;
    if (c->ck && ip_ck_wgmma_issue(c, w, o, (const uint32_t (*)[2])r->win))
        return c->res.status;
    if (c->plan->launch.policy == INTERP_COMPLETE_EAGER && ip_async_land(c, c->nops - 1))
        return c->res.status;
    return 0;
}

int ip_wgmma_exec(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec)
{
    int g = w->id / 4, j = w->id % 4;
    if (exec)
        ip_ck_warp_sync(c, w);   /* .sync.aligned: the lanes of the warp meet here */
    switch (in->op) {
    case IR_OP_WGMMA_FENCE:
        if (exec) {
            ip_wg *s = wg_of(c, w->cta);
            if (s && g * 4 + 4 <= w->cta->nwarps)
                s[g].fence_needed[j] = false;
        }
        break;
    case IR_OP_WGMMA_MMA_ASYNC:
        if (exec && issue(c, w, in, f, exec))
            return c->res.status;
        break;
    case IR_OP_WGMMA_COMMIT_GROUP:
        if (exec) {
            ip_wg *s = wg_of(c, w->cta);
            if (s && g * 4 + 4 <= w->cta->nwarps)
                s[g].commits[j]++;
        }
        break;
    case IR_OP_WGMMA_WAIT_GROUP: {
        ip_wg *s = exec ? wg_of(c, w->cta) : NULL;
        if (!s || g * 4 + 4 > w->cta->nwarps)
            break;
        ip_wg *q = &s[g];
        uint32_t n = (uint32_t)ip_opd(c, w, f, in, 0, (uint32_t)__builtin_ctz(exec));
        uint32_t upto = q->commits[j] > n ? q->commits[j] - n : 0;
        /* records of this warp in groups below upto must have landed */
        uint32_t last = q->waited[j];
        for (uint32_t sq = q->waited[j]; sq < q->next[j]; sq++) {
            ip_wg_rec *r = &q->rec[sq % IP_WG_RECS];
            if (r->group >= upto)
                break;
            if (!r->landed) {
                /* a warp of the group that has exited will never issue it */
                for (int k = 0; k < 4; k++) {
                    const ip_warp *o = &w->cta->warps[g * 4 + k];
                    if (r->issued >> k & 1 || (o->exited & o->valid) != o->valid)
                        continue;
                    char a[300];
                    where(c, r->func, r->pc, a, sizeof a);
                    return ip_error(c, INTERP_FAULT, w, __builtin_ctz(exec), f->func, c->xpc,
                                    "the warps of warpgroup %d issue different wgmma sequences: warp %d exited "
                                    "without issuing wgmma.mma_async #%u (%s), which this warp waits for",
                                    g, g * 4 + k, sq, a);
                }
                FOR_LANES(exec, l) w->st[l] = INTERP_T_BULK_WAIT;   /* re-executes after a landing */
                FOR_LANES(group & ~exec, l) w->pc[l]++;
                return 1;
            }
            last = sq + 1;
        }
        if (last > q->waited[j]) {
            w->wg_busy -= last - q->waited[j];
            q->waited[j] = last;
        }
        if (c->ck)
            ip_ck_wgmma_waited(c, w, q->waited[j]);
        break;
    }
    default:
        return -2;
    }
    FOR_LANES(group, l) w->pc[l]++;
    return 1;
}

/* ---- debugger views -------------------------------------------------------------- */

#define APPEND(...) do { if (at < n) at += (size_t)snprintf(buf + at, n - at, __VA_ARGS__); } while (0)

int interp_wgmma_describe(const interp_ctx *c, char *buf, size_t n)
{
    size_t at = 0;
    int count = 0;
    if (n)
        buf[0] = 0;
    if (!c->have_cl)
        return 0;
    for (int t = 0; t < c->cl.ncta; t++) {
        const ip_cta *cta = &c->cl.ctas[t];
        if (!cta->wg)
            continue;
        for (int g = 0; g < (cta->nwarps + 3) / 4; g++) {
            const ip_wg *wg = &cta->wg[g];
            uint32_t from = UINT32_MAX, to = 0;
            for (int j = 0; j < 4; j++) {
                if (wg->waited[j] < from)
                    from = wg->waited[j];
                if (wg->next[j] > to)
                    to = wg->next[j];
            }
            for (uint32_t s = from; s < to; s++) {
                const ip_wg_rec *r = &wg->rec[s % IP_WG_RECS];
                if (r->seq != s || !r->issued)
                    continue;
                const tc_wg_form *f = &c->plan->wgf[r->func][r->pc];
                const ir_function *fn = ip_func(c, r->func);
                const ir_instr *in = &fn->instrs[r->pc];
                char w[300], d[160];
                interp_where(c, r->func, r->pc, w, sizeof w);
                count++;
                APPEND("CTA slot %d warpgroup %d (warps %d-%d) wgmma #%u, commit group %u: %s\n", t, g, 4 * g,
                       4 * g + 3, s, r->group, w);
                APPEND("    m64n%uk%u .%s += .%s x .%s%s%s%s%s%s, scale-d %d\n", f->n, f->k, tc_type_name(f->dtype),
                       tc_type_name(f->atype), tc_type_name(f->btype), f->sparse ? " .sp" : "",
                       f->satfinite ? " .satfinite" : "", f->neg_a < 0 ? " -A" : "", f->neg_b < 0 ? " -B" : "",
                       f->trans_a || f->trans_b ? (f->trans_a && f->trans_b ? " A,B MN-major"
                                                   : f->trans_a ? " A MN-major" : " B MN-major") : "",
                       r->scale_d);
                if (r->issued != 0xF)
                    APPEND("    issued by warps%s%s%s%s of 4; not in flight until all have\n",
                           r->issued & 1 ? " 0" : "", r->issued & 2 ? " 1" : "", r->issued & 4 ? " 2" : "",
                           r->issued & 8 ? " 3" : "");
                else
                    APPEND("    %s\n", r->landed ? "landed (results in the registers), not yet waited for"
                                                 : "in flight: operands not yet read, D not yet written");
                if (f->a_regs)
                    APPEND("    A: registers %s..%s (fragment)\n", fn->regs[ip_vec_elem(fn, &in->opd[1], 0)->u.reg].name,
                           fn->regs[ip_vec_elem(fn, &in->opd[1], 3)->u.reg].name);
                else
                    APPEND("    A: descriptor 0x%016llx: %s\n", (unsigned long long)r->desc_a,
                           tc_desc_describe(r->desc_a, d, sizeof d));
                APPEND("    B: descriptor 0x%016llx: %s\n", (unsigned long long)r->desc_b,
                       tc_desc_describe(r->desc_b, d, sizeof d));
                APPEND("    writes D: %s..%s (%u registers a thread)\n", fn->regs[ip_vec_elem(fn, &in->opd[0], 0)->u.reg].name,
                       fn->regs[ip_vec_elem(fn, &in->opd[0], f->nd - 1u)->u.reg].name, f->nd);
            }
        }
    }
    return count;
}

static void elem_str(int t, uint32_t v, char *s, size_t n)
{
    switch (t) {
    case TC_T_F32: case TC_T_TF32: { float x; memcpy(&x, &v, 4); snprintf(s, n, "%g", (double)x); break; }
    case TC_T_F16: { snprintf(s, n, "%g", (double)fp_f16_to_f32((uint16_t)v)); break; }
    case TC_T_BF16: { uint32_t u = v << 16; float x; memcpy(&x, &u, 4); snprintf(s, n, "%g", (double)x); break; }
    case TC_T_E4M3: snprintf(s, n, "%g", (double)fp_f16_to_f32(fp_e4m3_to_f16((uint8_t)v))); break;
    case TC_T_E5M2: snprintf(s, n, "%g", (double)fp_f16_to_f32(fp_e5m2_to_f16((uint8_t)v))); break;
    case TC_T_S8: snprintf(s, n, "%d", (int)(int8_t)v); break;
    case TC_T_U8: snprintf(s, n, "%u", v & 0xFF); break;
    case TC_T_S32: snprintf(s, n, "%d", (int)v); break;
    default: snprintf(s, n, "0x%x", v); break;
    }
}

int interp_wgmma_matrix(const interp_ctx *c, int cta, int warp, int func, uint32_t pc, char which, char *buf,
                        size_t n)
{
    size_t at = 0;
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta || func < 0 || !c->plan->wgf[func] ||
        pc >= ip_func(c, func)->ninstrs || ip_func(c, func)->instrs[pc].op != IR_OP_WGMMA_MMA_ASYNC) {
        snprintf(buf, n, "no wgmma.mma_async there");
        return -1;
    }
    const ip_cta *t = &c->cl.ctas[cta];
    int g = warp / 4;
    if (g * 4 + 4 > t->nwarps) {
        snprintf(buf, n, "warp %d is not in a whole warpgroup", warp);
        return -1;
    }
    const tc_wg_form *f = &c->plan->wgf[func][pc];
    const ir_function *fn = ip_func(c, func);
    const ir_instr *in = &fn->instrs[pc];
    if (which == 'a' && !f->a_regs) {
        snprintf(buf, n, "this wgmma.mma_async takes A from shared memory (a descriptor), not from registers");
        return -1;
    }
    uint32_t rows = 64, cols = which == 'a' ? (f->sparse ? f->k / 2u : f->k) : f->n;
    int et = which == 'a' ? f->atype : f->dtype;
    if (et == TC_T_B1)
        cols /= 32;   /* words of 32 elements */
    APPEND("%s of %s (warpgroup %d of CTA slot %d), %u x %u .%s%s:\n", which == 'a' ? "A fragment" : "accumulators D",
           "wgmma.mma_async", g, cta, rows, cols, tc_type_name(et), et == TC_T_B1 ? " (32 elements a word)" : "");
    for (uint32_t r = 0; r < rows; r++) {
        APPEND("%3u:", r);
        for (uint32_t k = 0; k < cols; k++) {
            uint32_t th, reg, sub;
            const ir_operand *v;
            if (which == 'a') {
                tc_wgmma_a_where(f, r, et == TC_T_B1 ? k * 32 : k, &th, &reg, &sub);
                v = ip_vec_elem(fn, &in->opd[1], reg);
            } else {
                tc_wgmma_d_where(f, r, k, &th, &reg, &sub);
                v = ip_vec_elem(fn, &in->opd[0], reg);
            }
            const ip_warp *w = &t->warps[g * 4 + (int)(th / 32)];
            uint32_t lane = th % 32;
            const ip_frame *fr = &w->frames[w->fr[lane]];
            uint32_t val = v->kind == IR_OPD_REG && fr->func == func ? (uint32_t)fr->regs[v->u.reg * IP_WARP + lane]
                                                                     : (uint32_t)v->u.imm;
            if (which == 'a')
                val = et == TC_T_B1 ? val : (val >> sub) & (tc_type_bits(et) >= 32 ? ~0u : (1u << tc_type_bits(et)) - 1);
            else if (et == TC_T_F16)
                val = (val >> (16 * sub)) & 0xFFFF;
            char s[32];
            elem_str(et, val, s, sizeof s);
            APPEND(" %9s", s);
        }
        APPEND("\n");
    }
    if (at >= n && n > 20)
        snprintf(buf + n - 20, 20, "\n... (truncated)\n");
    return 0;
}
