/* async.c — the asynchronous proxy: TMA and bulk copies in flight.
 *
 * Each cp.async.bulk[.tensor] / cp.reduce.async.bulk[.tensor] instruction
 * becomes an ip_op per issuing thread.  Its operands are decoded at issue:
 * the tensor map is read (128 bytes through its generic, param, const or
 * global address) and decoded, coordinates and shared addresses are taken,
 * and the checks the hardware makes at issue (tma_check: box alignment,
 * im2col bounds, reduction types, ...) fault at the instruction.  The op is
 * then queued; the completion policy lands it:
 *   eager     at issue;
 *   deferred  when no warp can run other than pollers and waiters
 *             (sched.c), oldest first;
 *   random    at random scheduler steps, in random order; a load into
 *             shared memory half the time in pieces of whole 32-byte
 *             sectors (or 16-byte chunks), in one of the orders an H100
 *             showed (tma/land.c, tests/hw/tma_order).
 * Landing performs the copy (tma_execute for tensor ops, a byte copy or
 * element-wise reduction for bulk ops) and then:
 *   - loads into shared memory complete_tx their byte count on the
 *     mbarrier of each destination CTA (multicast: every CTA in ctaMask, at
 *     the same offsets; a shared::cluster destination in a peer CTA uses the
 *     peer's mbarrier, which is where the instruction's mbarrier address
 *     points; with .cta_group::2 the mbarrier may be in the destination's
 *     peer CTA of its pair instead: signal_cta);
 *   - stores and reductions to global memory belong to the issuing
 *     thread's current bulk group: cp.async.bulk.commit_group closes the
 *     group, cp.async.bulk.wait_group[.read] N waits until every committed
 *     group but the N most recent has no operation in flight (operations
 *     not yet committed are in no group and are not waited for; landing is
 *     atomic, so .read, "the sources have been read", waits as long).
 * Prefetches are checked at issue and have no effect.
 *
 * A thread that touches shared memory an operation in flight writes (or
 * writes what it reads) has not synchronised with it.  The checker
 * (check/, fed through interp/hooks.c: ip_ck_issue here, ip_ck_complete at
 * landing) decides that by happens-before, under every policy; with
 * --check=none, ip_async_smem_race still faults on an access while the
 * operation is in flight (see the races section below).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interp/internal.h"
#include "interp/fp.h"

#define FOR_LANES(m, l) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

static int mode_of(int m)
{
    switch (m) {
    case IR_M_IM2COL: return TMA_IM2COL;
    case IR_M_IM2COL_W: return TMA_IM2COL_W;
    case IR_M_IM2COL_W_128: return TMA_IM2COL_W128;
    case IR_M_TILE_GATHER4: return TMA_GATHER4;
    case IR_M_TILE_SCATTER4: return TMA_SCATTER4;
    case IR_M_IM2COL_NO_OFFS: return TMA_IM2COL_NO_OFFS;
    default: return TMA_TILE;
    }
}

static int redop_of(int m)
{
    switch (m) {
    case IR_M_OP_ADD: return TMA_RED_ADD;
    case IR_M_OP_MIN: return TMA_RED_MIN;
    case IR_M_OP_MAX: return TMA_RED_MAX;
    case IR_M_OP_INC: return TMA_RED_INC;
    case IR_M_OP_DEC: return TMA_RED_DEC;
    case IR_M_AND: return TMA_RED_AND;
    case IR_M_OR: return TMA_RED_OR;
    case IR_M_XOR: return TMA_RED_XOR;
    default: return 0;
    }
}

static const char *kind_name(int k)
{
    switch (k) {
    case IP_OP_TENSOR: return "tensor copy";
    case IP_OP_BULK_G2S: return "bulk copy global->shared::cluster";
    case IP_OP_BULK_S2G: return "bulk copy shared::cta->global";
    case IP_OP_BULK_S2S: return "bulk copy shared::cta->shared::cluster";
    case IP_OP_BULK_RED: return "bulk reduction";
    default: return "prefetch";
    }
}

static const char *op_what(const ip_op *o)
{
    if (o->kind != IP_OP_TENSOR)
        return kind_name(o->kind);
    return o->req.kind == TMA_LOAD ? "TMA load" : o->req.kind == TMA_STORE ? "TMA store" : "TMA reduction";
}

int interp_inflight_describe(const interp_ctx *c, int i, char *buf, size_t len)
{
    if (i < 0 || i >= c->nops)
        return -1;
    const ip_op *o = &c->ops[i];
    char where[400];
    interp_where(c, o->func, o->pc, where, sizeof where);
    const char *what = op_what(o);
    char detail[128] = "";
    if (o->has_mbar)
        snprintf(detail, sizeof detail, " (smem 0x%x, mbarrier 0x%x, CTA mask 0x%x)", o->smem_off, o->mbar_off,
                 o->mcast);
    else if (o->bulk_group)
        snprintf(detail, sizeof detail, " (bulk group %u)", o->group);
    snprintf(buf, len, "#%d %s%s issued by CTA rank %d warp %d lane %d at %s", o->id, what, detail, o->cta,
             o->warp, o->lane, where);
    return o->id;
}

bool ip_async_groups_busy(const interp_ctx *c, int cta, int warp, int lane, uint32_t upto)
{
    /* any operation in flight from this thread's groups 0 .. upto-1 */
    for (int i = 0; i < c->nops; i++) {
        const ip_op *o = &c->ops[i];
        if (o->bulk_group && o->group < upto && o->cta == cta && o->warp == warp && o->lane == lane)
            return true;
    }
    return false;
}

static ip_warp *op_warp(interp_ctx *c, const ip_op *o)
{
    return &c->cl.ctas[o->cta].warps[o->warp];
}

static int op_fault(interp_ctx *c, const ip_op *o, const char *fmt, const char *why)
{
    return ip_error(c, INTERP_FAULT, op_warp(c, o), o->lane, o->func, o->pc, fmt, why);
}

/* The CTA whose mbarrier (at o->mbar_off) a load completes for destination
 * CTA r.  Without .cta_group::2: r itself (multicast: "the same offset" in
 * each destination CTA).  With .cta_group::2 the mbarrier may be in the
 * peer CTA (%cluster_ctarank differing in bit 0): the CTA of r's pair on
 * the mbarrier operand's side, e.g. both CTAs of a pair completing on the
 * even CTA's mbarrier, as CUTLASS's SM100_TMA_2SM_LOAD* do ("Set peer bit
 * to 0 so that the transaction bytes will update CTA0's barrier"). */
static int signal_cta(const ip_op *o, int r)
{
    return o->pair ? (r & ~1) | (o->mbar_cta & 1) : r;
}

/* Shared-memory operand k as (CTA slot, offset). */
static bool shared_opd(interp_ctx *c, ip_warp *w, ip_frame *f, const ir_instr *in, int k, uint32_t l,
                       int space, uint32_t n, uint32_t align, const char *what, int *cta, uint32_t *off)
{
    int sp;
    uint64_t a = ip_addr(c, w, f, in, k, l, &sp);
    if (space == IR_SPACE_NONE || space == 0)
        space = sp ? sp : IR_SPACE_SHARED_CTA;
    ip_ptr p = ip_resolve(c, w, (int)l, space, a, n, align, what);
    if (!p.p)
        return false;
    if (p.cta < 0) {
        ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "%s: address 0x%llx is not shared memory",
                 what, (unsigned long long)a);
        return false;
    }
    if (space == IR_SPACE_SHARED_CTA && p.cta != w->cta->slot) {
        ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                 "%s: shared::cta address 0x%llx names another CTA", what, (unsigned long long)a);
        return false;
    }
    *cta = p.cta;
    *off = p.soff;
    return true;
}

static ip_op *op_new(interp_ctx *c)
{
    if (c->nops == c->capops) {
        int cap = c->capops ? c->capops * 2 : 16;
        ip_op *n = realloc(c->ops, (size_t)cap * sizeof *n);
        if (!n)
            return NULL;
        c->ops = n;
        c->capops = cap;
    }
    ip_op *o = &c->ops[c->nops];
    memset(o, 0, sizeof *o);
    o->id = c->next_op_id++;
    return o;
}

static int issue_tensor(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t l, ip_op *o)
{
    const ir_function *fn = ip_func(c, f->func);
    bool is_load = in->op == IR_OP_CP_ASYNC_BULK_TENSOR && in->space != IR_SPACE_GLOBAL;
    bool is_pf = in->op == IR_OP_CP_ASYNC_BULK_PREFETCH_TENSOR;
    bool is_red = in->op == IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR;
    int mk = is_load ? 1 : 0;      /* [tensorMap, coords] operand */
    const ir_operand *mo = &in->opd[mk];
    if (mo->kind != IR_OPD_ADDR || !mo->u.addr.has_vec)
        return ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc,
                        "%s without a [tensorMap, {coordinates}] operand", ir_ops[in->op].name);
    /* the map: a generic address unless the base is a named variable */
    int sp;
    uint64_t ma = ip_addr(c, w, f, in, mk, l, &sp);
    if (mo->u.addr.base_kind != IR_BASE_SYM)
        sp = IR_SPACE_NONE;
    ip_ptr mp = ip_resolve(c, w, (int)l, sp == IR_SPACE_PARAM_FUNC ? IR_SPACE_PARAM : sp, ma, 128, 64,
                           "tensor map");
    if (!mp.p)
        return c->res.status;
    /* The TMA unit reads tensor maps from param, const or global memory
     * only; a CUtensorMap passed by value without __grid_constant__ is
     * copied to the thread's stack (local memory), and the GPU faults. */
    if (mp.space == IR_SPACE_LOCAL || mp.cta >= 0)
        return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                        "illegal address [tensormap-not-global]: the tensor map at address 0x%llx is in %s memory; "
                        "the TMA reads maps only from param, const or global memory (a CUtensorMap kernel "
                        "parameter needs __grid_constant__, or nvcc copies it to the thread's stack)",
                        (unsigned long long)ma, mp.space == IR_SPACE_LOCAL ? "local" : "shared");
    if (c->ck && ip_ck_tmap_use(c, w, (int)l, ma))
        return c->res.status;
    char why[512];
    if (tma_decode(mp.p, &o->map, why, sizeof why))
        return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                        "the 128 bytes at tensor-map address 0x%llx are not a valid tensor map: %s",
                        (unsigned long long)ma, why);
    tma_request *r = &o->req;
    r->kind = is_pf ? TMA_PREFETCH : is_load ? TMA_LOAD : is_red ? TMA_REDUCE : TMA_STORE;
    r->mode = mode_of(in->mode);
    r->dim = in->dim ? in->dim : o->map.rank;
    for (unsigned i = 0; i < mo->u.addr.vec_n && i < 5; i++) {
        const ir_operand *e = &fn->vecpool[mo->u.addr.vec_first + i];
        r->coords[i] = (int32_t)(e->kind == IR_OPD_REG ? f->regs[e->u.reg * IP_WARP + l] : (uint64_t)e->u.imm);
    }
    r->redop = is_red ? redop_of(in->redop) : 0;
    r->map = &o->map;   /* re-pointed at landing (ops move) */
    int next = mk + 1;
    if (is_load) {
        if (!shared_opd(c, w, f, in, 0, l, in->space, 1, 1, "TMA destination", &o->dst_cta, &o->smem_off))
            return c->res.status;
        /* .cta_group::2: the mbarrier may be in the peer CTA, so its
         * operand is a shared::cluster address even with a .shared::cta
         * destination (CUTLASS, FlashMLA's gather4 loads) */
        o->pair = ir_has(in, IR_M_CTA_GROUP_2);
        int mcta;
        if (!shared_opd(c, w, f, in, 2, l, o->pair ? IR_SPACE_SHARED_CLUSTER : in->space, 8, 8, "TMA mbarrier",
                        &mcta, &o->mbar_off))
            return c->res.status;
        o->has_mbar = true;
        o->mbar_cta = mcta;
        next = 3;
        if (r->mode == TMA_IM2COL || r->mode == TMA_IM2COL_W || r->mode == TMA_IM2COL_W128) {
            const ir_operand *io = &in->opd[next];
            if (next < in->nopd && io->kind == IR_OPD_VEC) {
                if (r->mode == TMA_IM2COL) {
                    for (unsigned i = 0; i < io->u.vec.n && i < 3; i++) {
                        const ir_operand *e = &fn->vecpool[io->u.vec.first + i];
                        r->im2col_off[i] = (uint16_t)(e->kind == IR_OPD_REG ? f->regs[e->u.reg * IP_WARP + l] : (uint64_t)e->u.imm);
                    }
                    r->n_im2col_off = (int)io->u.vec.n;
                } else {
                    const ir_operand *e0 = &fn->vecpool[io->u.vec.first];
                    const ir_operand *e1 = io->u.vec.n > 1 ? &fn->vecpool[io->u.vec.first + 1] : e0;
                    r->w_halo = (uint16_t)(e0->kind == IR_OPD_REG ? f->regs[e0->u.reg * IP_WARP + l] : (uint64_t)e0->u.imm);
                    r->w_offset = (uint16_t)(e1->kind == IR_OPD_REG ? f->regs[e1->u.reg * IP_WARP + l] : (uint64_t)e1->u.imm);
                }
                next++;
            }
        }
        if (ir_has(in, IR_M_MULTICAST_CLUSTER)) {
            o->mcast = (uint16_t)ip_opd(c, w, f, in, next, l);
            if (o->mcast >> c->cl.ncta)
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "multicast ctaMask 0x%x names CTAs outside the cluster of %d", o->mcast, c->cl.ncta);
            for (int r = 0; r < c->cl.ncta; r++)
                if ((o->mcast >> r & 1) && signal_cta(o, r) >= c->cl.ncta)
                    return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                    "with .cta_group::2 destination CTA rank %d completes on the mbarrier of its "
                                    "peer, rank %d, outside the cluster of %d", r, signal_cta(o, r), c->cl.ncta);
        } else {
            o->mcast = (uint16_t)(1u << o->dst_cta);
            if (o->pair && (mcta ^ o->dst_cta) > 1)
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "with .cta_group::2 the mbarrier must be in the destination CTA (rank %d) or its "
                                "peer (rank %d), not rank %d", o->dst_cta, o->dst_cta ^ 1, mcta);
            if (!o->pair && mcta != o->dst_cta)
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "TMA destination (CTA rank %d) and mbarrier (CTA rank %d) must be in the same CTA",
                                o->dst_cta, mcta);
        }
    } else if (!is_pf) {
        if (!shared_opd(c, w, f, in, 1, l, in->space2 ? in->space2 : IR_SPACE_SHARED_CTA, 1, 1, "TMA source",
                        &o->dst_cta, &o->smem_off))
            return c->res.status;
        o->bulk_group = true;
    }
    /* the hardware's issue-time checks, against the first destination */
    ip_cta *t = &c->cl.ctas[is_pf ? w->cta->slot : o->dst_cta];
    r->smem = t->smem;
    r->smem_size = t->smem_size;
    r->smem_off = o->smem_off;
    uint32_t tx = 0;
    int rc = tma_check(r, &tx, why, sizeof why);
    if (rc == TMA_UNSUPPORTED)   /* ip_error says "not supported: " itself; the engine's why does too */
        return ip_error(c, INTERP_UNSUPPORTED, w, (int)l, c->xfunc, c->xpc, "%s",
                        why + (strncmp(why, "not supported: ", 15) ? 0 : 15));
    if (rc)
        return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "%s: %s",
                        rc == TMA_FAULT_ILLEGAL_ADDRESS ? "illegal address" :
                        rc == TMA_FAULT_MISALIGNED ? "misaligned address" : "illegal instruction", why);
    o->kind = is_pf ? IP_OP_PREFETCH : IP_OP_TENSOR;
    if (!is_pf)
        o->foot = tma_smem_footprint(r);
    return 0;
}

static int issue_bulk(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t l, ip_op *o)
{
    bool is_red = in->op == IR_OP_CP_REDUCE_ASYNC_BULK;
    if (in->op == IR_OP_CP_ASYNC_BULK_PREFETCH) {
        o->kind = IP_OP_PREFETCH;
        return 0;
    }
    uint32_t size = (uint32_t)ip_opd(c, w, f, in, 2, l);
    if (size % 16)
        return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                        "bulk copy size %u is not a multiple of 16", size);
    o->bytes = size;
    o->redop = is_red ? in->redop : 0;
    o->rtype = in->types[0];
    int dsp = in->space, ssp = in->space2;
    if (dsp == IR_SPACE_GLOBAL) {
        /* shared::cta -> global, bulk group */
        int sp;
        o->gaddr = ip_addr(c, w, f, in, 0, l, &sp);
        if (o->gaddr % 16)
            return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                            "bulk copy global address 0x%llx is not 16-byte aligned", (unsigned long long)o->gaddr);
        ip_ptr g = ip_resolve(c, w, (int)l, IR_SPACE_GLOBAL, o->gaddr, size, 16, "bulk copy destination");
        if (!g.p)
            return c->res.status;
        if (!shared_opd(c, w, f, in, 1, l, ssp ? ssp : IR_SPACE_SHARED_CTA, size, 16, "bulk copy source",
                        &o->src_cta, &o->src_off))
            return c->res.status;
        o->kind = is_red ? IP_OP_BULK_RED : IP_OP_BULK_S2G;
        o->bulk_group = true;
        o->dst_cta = -1;
        return 0;
    }
    /* destination in shared::cluster, completing on an mbarrier */
    if (!shared_opd(c, w, f, in, 0, l, dsp ? dsp : IR_SPACE_SHARED_CLUSTER, size, 16, "bulk copy destination",
                    &o->dst_cta, &o->smem_off))
        return c->res.status;
    int mcta;
    if (!shared_opd(c, w, f, in, 3, l, dsp ? dsp : IR_SPACE_SHARED_CLUSTER, 8, 8, "bulk copy mbarrier", &mcta,
                    &o->mbar_off))
        return c->res.status;
    o->has_mbar = true;
    if (ssp == IR_SPACE_GLOBAL) {
        int sp;
        o->gaddr = ip_addr(c, w, f, in, 1, l, &sp);
        ip_ptr g = ip_resolve(c, w, (int)l, IR_SPACE_GLOBAL, o->gaddr, size, 16, "bulk copy source");
        if (!g.p)
            return c->res.status;
        o->kind = IP_OP_BULK_G2S;
        o->mcast = (uint16_t)(1u << o->dst_cta);
        if (ir_has(in, IR_M_MULTICAST_CLUSTER)) {
            o->mcast = (uint16_t)ip_opd(c, w, f, in, 4, l);
            if (o->mcast >> c->cl.ncta)
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "multicast ctaMask 0x%x names CTAs outside the cluster of %d", o->mcast, c->cl.ncta);
        }
    } else {
        if (!shared_opd(c, w, f, in, 1, l, IR_SPACE_SHARED_CTA, size, 16, "bulk copy source", &o->src_cta,
                        &o->src_off))
            return c->res.status;
        o->kind = is_red ? IP_OP_BULK_RED : IP_OP_BULK_S2S;
        o->mcast = (uint16_t)(1u << o->dst_cta);
    }
    if (mcta != o->dst_cta)
        return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                        "bulk copy destination (CTA rank %d) and mbarrier (CTA rank %d) must be in the same CTA",
                        o->dst_cta, mcta);
    return 0;
}

int ip_async_issue(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    FOR_LANES(exec, l) {
        ip_op *o = op_new(c);
        if (!o)
            return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "out of host memory");
        o->in = in;
        o->func = f->func;
        o->pc = c->xpc;
        o->cta = w->cta->slot;
        o->warp = w->id;
        o->lane = (int)l;
        o->group = w->bulk_seq[l];
        int rc;
        if (in->op == IR_OP_CP_ASYNC_BULK || in->op == IR_OP_CP_REDUCE_ASYNC_BULK ||
            in->op == IR_OP_CP_ASYNC_BULK_PREFETCH)
            rc = issue_bulk(c, w, in, f, l, o);
        else
            rc = issue_tensor(c, w, in, f, l, o);
        if (rc)
            return rc;
        c->effects++;
        if (o->kind == IP_OP_PREFETCH)
            continue;            /* checked; no visible effect */
        if (c->ck && ip_ck_issue(c, w, o, op_what(o)))
            return c->res.status;
        c->nops++;
        if (c->plan->launch.policy == INTERP_COMPLETE_EAGER && ip_async_land(c, c->nops - 1))
            return c->res.status;
    }
    return 0;
}

/* ---- races with the generic proxy ----------------------------------------------------------
 *
 * Until an operation has landed, the shared memory it writes (a load's
 * destination, in every CTA of a multicast) holds undefined bytes, and the
 * shared memory it reads (a store's or reduction's source) must not change.
 * No wait can have observed the completion of an operation still in
 * flight, so a thread that reads or writes those bytes meanwhile has not
 * synchronised with it: on hardware it reads garbage or corrupts the copy.
 * ptxi stops there instead: that is what a wait on the wrong parity, a
 * missing wait, or reusing a store's source before
 * cp.async.bulk.wait_group.read looks like.  Under `deferred` (operations
 * land as late as possible) every such access is caught; `eager` cannot
 * see any.  With a swizzle the range is the box's whole footprint,
 * including the padding of each row to the swizzle span.
 */

static bool overlaps(uint32_t a, uint32_t an, uint32_t b, uint32_t bn)
{
    return a < b + bn && b < a + an;
}

int ip_async_smem_race(interp_ctx *c, ip_warp *w, int lane, int cta, uint32_t off, uint32_t n, bool write,
                       const char *what)
{
    for (int i = 0; i < c->nops; i++) {
        const ip_op *o = &c->ops[i];
        bool wr = false;             /* the op writes the range (else reads it) */
        uint32_t lo = 0, len = 0;
        switch (o->kind) {
        case IP_OP_TENSOR:
            if (o->req.kind == TMA_LOAD) {
                if (o->mcast >> cta & 1)
                    wr = true, lo = o->smem_off, len = o->foot;
            } else if (o->dst_cta == cta) {
                lo = o->smem_off, len = o->foot;
            }
            break;
        case IP_OP_BULK_G2S:
            if (o->mcast >> cta & 1)
                wr = true, lo = o->smem_off, len = o->bytes;
            break;
        case IP_OP_BULK_S2S:
        case IP_OP_BULK_RED:
            if (o->dst_cta == cta && overlaps(off, n, o->smem_off, o->bytes))
                wr = true, lo = o->smem_off, len = o->bytes;
            else if (o->src_cta == cta)
                lo = o->src_off, len = o->bytes;
            break;
        case IP_OP_BULK_S2G:
            if (o->src_cta == cta)
                lo = o->src_off, len = o->bytes;
            break;
        default:
            break;
        }
        if (!len || !overlaps(off, n, lo, len) || (!wr && !write))
            continue;
        char d[600], hint[400];
        interp_inflight_describe(c, i, d, sizeof d);
        if (wr && o->has_mbar) {
            uint64_t word = 0;
            char mbs[160];
            int mc = o->kind == IP_OP_TENSOR ? signal_cta(o, cta) : cta;
            const ip_cta *t = &c->cl.ctas[mc];
            if (o->mbar_off + 8 <= t->smem_size)
                memcpy(&word, t->smem + o->mbar_off, 8);
            snprintf(hint, sizeof hint,
                     "the thread has not waited for it; its mbarrier at shared 0x%x (CTA rank %d): %s; "
                     "wait for that phase to complete (right parity?) before touching the bytes",
                     o->mbar_off, mc, ip_mbar_describe(word, mbs, sizeof mbs));
        } else if (wr) {
            snprintf(hint, sizeof hint, "wait for it before touching the bytes");
        } else {
            snprintf(hint, sizeof hint, "its bulk group has not passed cp.async.bulk.wait_group.read: wait "
                     "for the read before reusing the source");
        }
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "data race: %s %s %u byte(s) at shared 0x%x of CTA rank %d while an asynchronous "
                        "operation still %s them (%s)\n  in flight: %s",
                        what, write ? "writes" : "reads", n, off, cta, wr ? "writes" : "reads", hint, d);
    }
    return 0;
}

/* ---- landing ----------------------------------------------------------------------------- */

void ip_async_landed_on(const interp_ctx *c, int cta, uint32_t off, const char *indent, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    unsigned first = c->nlanded > 16 ? c->nlanded - 16 : 0;
    for (unsigned k = first; k < c->nlanded && at + 1 < n; k++) {
        const struct ip_landed *h = &c->landed[k % 16];
        if (h->cluster != c->cl.index || h->cta != cta || h->mbar_off != off)
            continue;
        char where[400];
        interp_where(c, h->func, h->pc, where, sizeof where);
        const char *what = h->kind != IP_OP_TENSOR ? kind_name(h->kind)
                         : h->tkind == TMA_LOAD ? "TMA load" : "TMA operation";
        int k2 = snprintf(buf + at, n - at, "\n%slanded on it: #%d %s, %u bytes completed in the phase with "
                          "parity %u; issued at %s", indent, h->id, what, h->bytes, h->parity, where);
        if (k2 < 0)
            break;
        at += (size_t)k2 < n - at ? (size_t)k2 : n - at - 1;
    }
}

/* complete_tx of a load's bytes for destination CTA d on the mbarrier of CTA cta */
static int complete(interp_ctx *c, const ip_op *o, int d, int cta, uint32_t tx)
{
    ip_cta *t = &c->cl.ctas[cta];
    if (o->mbar_off + 8 > t->smem_size)
        return op_fault(c, o, "%s", "mbarrier outside shared memory");
    uint64_t word;
    memcpy(&word, t->smem + o->mbar_off, 8);
    struct ip_landed *h = &c->landed[c->nlanded++ % 16];
    *h = (struct ip_landed){ c->cl.index, o->id, o->kind, o->req.kind, o->func, o->pc, cta, o->mbar_off, tx,
                             (uint32_t)(word >> 63) };
    char why[256];
    if (ip_mbar_complete_tx(&word, tx, why, sizeof why)) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s (mbarrier at shared 0x%x of CTA rank %d, completing %u bytes)", why,
                 o->mbar_off, cta, tx);
        return op_fault(c, o, "asynchronous copy landed: %s", msg);
    }
    if (c->ck) {
        uint64_t before;
        memcpy(&before, t->smem + o->mbar_off, 8);
        ip_ck_complete(c, o, d, cta, before, word, tx);
    }
    memcpy(t->smem + o->mbar_off, &word, 8);
    return 0;
}

static uint64_t red_elem(int op, int t, uint64_t a, uint64_t b)
{
    unsigned bits = ir_types[t].bits;
    bool sg = ir_types[t].kind == 's';
    uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    int64_t sa = sg ? (int64_t)(a << (64 - bits)) >> (64 - bits) : (int64_t)a;
    int64_t sb = sg ? (int64_t)(b << (64 - bits)) >> (64 - bits) : (int64_t)b;
    switch (op) {
    case IR_M_OP_ADD:
        if (t == IR_T_F32) { float x, y; uint32_t u = (uint32_t)a, v = (uint32_t)b; memcpy(&x, &u, 4); memcpy(&y, &v, 4); x += y; memcpy(&u, &x, 4); return u; }
        if (t == IR_T_F64) { double x, y; memcpy(&x, &a, 8); memcpy(&y, &b, 8); x += y; uint64_t u; memcpy(&u, &x, 8); return u; }
        if (t == IR_T_F16) return fp_f32_to_f16(fp_f16_to_f32((uint16_t)a) + fp_f16_to_f32((uint16_t)b), FP_RN);
        if (t == IR_T_BF16) {
            uint32_t ua = (uint32_t)a << 16, ub = (uint32_t)b << 16;
            float x, y;
            memcpy(&x, &ua, 4); memcpy(&y, &ub, 4);
            return fp_f32_to_bf16(x + y, FP_RN);
        }
        return (a + b) & m;
    case IR_M_OP_MIN:
        if (t == IR_T_F16 || t == IR_T_BF16) {
            float x = t == IR_T_F16 ? fp_f16_to_f32((uint16_t)a) : 0, y = t == IR_T_F16 ? fp_f16_to_f32((uint16_t)b) : 0;
            if (t == IR_T_BF16) { uint32_t ua = (uint32_t)a << 16, ub = (uint32_t)b << 16; memcpy(&x, &ua, 4); memcpy(&y, &ub, 4); }
            return y < x ? b : a;
        }
        return sg ? (sa < sb ? a : b) & m : ((a & m) < (b & m) ? a : b) & m;
    case IR_M_OP_MAX:
        if (t == IR_T_F16 || t == IR_T_BF16) {
            float x = t == IR_T_F16 ? fp_f16_to_f32((uint16_t)a) : 0, y = t == IR_T_F16 ? fp_f16_to_f32((uint16_t)b) : 0;
            if (t == IR_T_BF16) { uint32_t ua = (uint32_t)a << 16, ub = (uint32_t)b << 16; memcpy(&x, &ua, 4); memcpy(&y, &ub, 4); }
            return y > x ? b : a;
        }
        return sg ? (sa > sb ? a : b) & m : ((a & m) > (b & m) ? a : b) & m;
    case IR_M_OP_INC: return (a & m) >= (b & m) ? 0 : (a + 1) & m;
    case IR_M_OP_DEC: return ((a & m) == 0 || (a & m) > (b & m)) ? b & m : (a - 1) & m;
    case IR_M_AND: return a & b;
    case IR_M_OR: return a | b;
    case IR_M_XOR: return a ^ b;
    default: return a;
    }
}

static void bulk_reduce(uint8_t *dst, const uint8_t *src, uint32_t n, int op, int t, bool atomic)
{
    unsigned es = ir_types[t].bits / 8;
    if (!es) es = 1;
    for (uint32_t i = 0; i + es <= n; i += es) {
        uint64_t a = 0, b = 0;
        memcpy(&b, src + i, es);
        if (atomic && (es == 4 || es == 8)) {
            if (es == 4) {
                uint32_t old = __atomic_load_n((uint32_t *)(dst + i), __ATOMIC_SEQ_CST), nv;
                do nv = (uint32_t)red_elem(op, t, old, b);
                while (!__atomic_compare_exchange_n((uint32_t *)(dst + i), &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
            } else {
                uint64_t old = __atomic_load_n((uint64_t *)(dst + i), __ATOMIC_SEQ_CST), nv;
                do nv = red_elem(op, t, old, b);
                while (!__atomic_compare_exchange_n((uint64_t *)(dst + i), &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
            }
            continue;
        }
        memcpy(&a, dst + i, es);
        a = red_elem(op, t, a, b);
        memcpy(dst + i, &a, es);
    }
}

/* Land the next k chunks of a load landing in pieces (o->piece) in every
 * destination CTA and complete their bytes on its mbarrier. */
static int land_chunks(interp_ctx *c, const ip_op *o, uint32_t k)
{
    struct ip_piece *p = &c->pieces[o->piece - 1];
    for (int r = 0; r < c->cl.ncta; r++) {
        if (!(o->mcast >> r & 1))
            continue;
        uint8_t *smem = c->cl.ctas[r].smem;
        for (uint32_t j = p->done; j < p->done + k; j++)
            memcpy(smem + p->off[j], p->data + 16 * (size_t)j, 16);
        if (complete(c, o, r, o->kind == IP_OP_TENSOR ? signal_cta(o, r) : r, 16 * k))
            return c->res.status;
    }
    p->done += k;
    return 0;
}

/* A TMA store's or reduction's row of global bytes (tma_request.on_write):
 * the grid-wide write check's record (gridck.c) */
struct gw_arg { interp_ctx *c; const ip_op *o; };
static void gw_row(void *arg, uint64_t a, const uint8_t *bytes, uint32_t n)
{
    const struct gw_arg *g = arg;
    ip_gw_op_write(g->c, g->o, g->o->req.kind == TMA_REDUCE ? CG_RED : CG_ASYNC, g->o->req.redop, a, n, bytes);
}

static int land(interp_ctx *c, ip_op *o)
{
    if (o->kind == IP_OP_WGMMA)
        return ip_wgmma_land(c, o);
    mem_global *g = c->plan->launch.gmem;
    char why[512];
    switch (o->kind) {
    case IP_OP_TENSOR: {
        o->req.map = &o->map;
        if (o->req.kind == TMA_LOAD && o->piece) {
            struct ip_piece *p = &c->pieces[o->piece - 1];
            int rc = land_chunks(c, o, p->n - p->done);
            p->used = false;
            return rc;
        }
        if (o->req.kind == TMA_LOAD) {
            for (int r = 0; r < c->cl.ncta; r++) {
                if (!(o->mcast >> r & 1))
                    continue;
                ip_cta *t = &c->cl.ctas[r];
                o->req.smem = t->smem;
                o->req.smem_size = t->smem_size;
                o->req.smem_off = o->smem_off;
                uint32_t tx = 0;
                int rc = tma_execute(&o->req, g, &tx, why, sizeof why);
                if (rc)
                    return op_fault(c, o, "TMA load faulted when it landed: %s", why);
                if (complete(c, o, r, signal_cta(o, r), tx))
                    return c->res.status;
            }
            return 0;
        }
        ip_cta *t = &c->cl.ctas[o->dst_cta];
        o->req.smem = t->smem;
        o->req.smem_size = t->smem_size;
        o->req.smem_off = o->smem_off;
        struct gw_arg ga = { c, o };
        if (c->gw) {
            ip_gw_begin(c);
            o->req.on_write = gw_row;
            o->req.on_write_arg = &ga;
        }
        int rc = tma_execute(&o->req, g, NULL, why, sizeof why);
        o->req.on_write = NULL;
        o->req.on_write_arg = NULL;
        if (rc)
            return op_fault(c, o, "TMA store/reduction faulted when it landed: %s", why);
        return 0;
    }
    case IP_OP_BULK_G2S: {
        if (o->piece) {
            struct ip_piece *p = &c->pieces[o->piece - 1];
            int rc = land_chunks(c, o, p->n - p->done);
            p->used = false;
            return rc;
        }
        const uint8_t *src = mem_global_host(g, o->gaddr, o->bytes);
        if (!src)
            return op_fault(c, o, "%s", "bulk copy source left global memory");
        for (int r = 0; r < c->cl.ncta; r++) {
            if (!(o->mcast >> r & 1))
                continue;
            memcpy(c->cl.ctas[r].smem + o->smem_off, src, o->bytes);
            if (complete(c, o, r, r, o->bytes))
                return c->res.status;
        }
        return 0;
    }
    case IP_OP_BULK_S2S:
        memmove(c->cl.ctas[o->dst_cta].smem + o->smem_off, c->cl.ctas[o->src_cta].smem + o->src_off, o->bytes);
        return complete(c, o, o->dst_cta, o->dst_cta, o->bytes);
    case IP_OP_BULK_S2G: {
        uint8_t *dst = mem_global_host(g, o->gaddr, o->bytes);
        if (!dst)
            return op_fault(c, o, "%s", "bulk copy destination left global memory");
        memcpy(dst, c->cl.ctas[o->src_cta].smem + o->src_off, o->bytes);
        ip_note_write(c, o->gaddr, o->bytes);
        if (c->gw) {
            ip_gw_begin(c);
            ip_gw_op_write(c, o, CG_ASYNC, 0, o->gaddr, o->bytes, c->cl.ctas[o->src_cta].smem + o->src_off);
        }
        return 0;
    }
    case IP_OP_BULK_RED: {
        const uint8_t *src = c->cl.ctas[o->src_cta].smem + o->src_off;
        if (o->dst_cta < 0) {
            uint8_t *dst = mem_global_host(g, o->gaddr, o->bytes);
            if (!dst)
                return op_fault(c, o, "%s", "bulk reduction destination left global memory");
            bulk_reduce(dst, src, o->bytes, o->redop, o->rtype, true);
            ip_note_write(c, o->gaddr, o->bytes);
            if (c->gw) {
                ip_gw_begin(c);
                ip_gw_op_write(c, o, CG_RED, redop_of(o->redop), o->gaddr, o->bytes, NULL);
            }
            return 0;
        }
        bulk_reduce(c->cl.ctas[o->dst_cta].smem + o->smem_off, src, o->bytes, o->redop, o->rtype, false);
        return complete(c, o, o->dst_cta, o->dst_cta, o->bytes);
    }
    default:
        return 0;
    }
}

static uint64_t rng_next(interp_ctx *c)
{
    uint64_t x = c->rng;             /* the scheduler's xorshift (sched.c) */
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c->rng = x;
    return x;
}

/* A free slot of c->pieces with room for n chunks, or -1. */
static int piece_slot(interp_ctx *c, uint32_t n)
{
    int s = 0;
    while (s < c->npieces && c->pieces[s].used)
        s++;
    if (s == c->npieces) {
        struct ip_piece *np = realloc(c->pieces, (size_t)(c->npieces + 1) * sizeof *np);
        if (!np)
            return -1;
        c->pieces = np;
        memset(&np[c->npieces++], 0, sizeof *np);
    }
    struct ip_piece *p = &c->pieces[s];
    if (p->cap < n) {
        uint32_t *off = realloc(p->off, (size_t)n * sizeof *off);
        if (!off)
            return -1;
        p->off = off;
        uint32_t *uend = realloc(p->uend, (size_t)n * sizeof *uend);
        if (!uend)
            return -1;
        p->uend = uend;
        uint8_t *data = realloc(p->data, (size_t)n * 16);
        if (!data)
            return -1;
        p->data = data;
        p->cap = n;
    }
    return s;
}

/* Put the n chunks at offsets eng[] (the engine's order; their bytes at
 * src + (offset - base)) in slot s in one of the landing orders the H100
 * showed (tma_land_order, drawn from the policy's generator). */
static bool piece_fill(interp_ctx *c, ip_op *o, int s, const uint32_t *eng, uint32_t n, uint32_t per_row,
                       int lead, const uint8_t *src, uint32_t base)
{
    struct ip_piece *p = &c->pieces[s];
    uint64_t *key = malloc((size_t)n * sizeof *key);
    if (!key)
        return false;
    p->nu = tma_land_order(eng, n, per_row, lead, rng_next(c), p->off, p->uend, key, NULL);
    free(key);
    for (uint32_t k = 0; k < n; k++)
        memcpy(p->data + 16 * (size_t)k, src + (p->off[k] - base), 16);
    p->used = true;
    p->n = n;
    p->done = p->udone = 0;
    o->piece = s + 1;
    return true;
}

/* A tensor load's first piece: run the whole load into a scratch window
 * (its bytes as they will land) and order its chunks (piece_fill) in a free
 * slot of c->pieces.  Returns false (land it whole) when it has fewer than
 * two chunks, faults (landing whole reports that) or memory runs out. */
static bool piece_start(interp_ctx *c, ip_op *o)
{
    int r0 = __builtin_ctz(o->mcast ? o->mcast : 1u);
    if (r0 >= c->cl.ncta)
        return false;
    ip_cta *t = &c->cl.ctas[r0];
    tma_request req = o->req;
    req.map = &o->map;
    req.smem_size = t->smem_size;
    req.smem_off = o->smem_off;
    uint32_t n = tma_load_chunks(&req, NULL, 0), per_row = 0;
    if (n < 2)
        return false;
    int lead = tma_load_sectors(&req, &per_row);
    if (lead < -1)
        return false;
    if (c->scratch_size < t->smem_size) {
        uint8_t *sc = realloc(c->scratch, t->smem_size);
        if (!sc)
            return false;
        c->scratch = sc;
        c->scratch_size = t->smem_size;
    }
    int s = piece_slot(c, n);
    uint32_t *eng = s < 0 ? NULL : malloc((size_t)n * sizeof *eng);
    if (!eng)
        return false;
    tma_load_chunks(&req, eng, n);
    req.smem = c->scratch;
    uint32_t tx = 0;
    char why[512];
    bool ok = !tma_execute(&req, c->plan->launch.gmem, &tx, why, sizeof why) && tx == 16 * n &&
              piece_fill(c, o, s, eng, n, per_row, lead, c->scratch, 0);
    free(eng);
    return ok;
}

/* A bulk copy's first piece: its source bytes as they will land, its
 * chunks in address order.  The two chunks of a 32-byte global sector
 * land together when source and destination start on 32-byte boundaries
 * (H100: always, tests/hw/tma_order); otherwise each chunk is a unit of its
 * own (with the source 16 bytes into a sector the H100 split sectors at
 * global and at shared 32-byte boundaries). */
static bool bulk_piece_start(interp_ctx *c, ip_op *o)
{
    uint32_t n = o->bytes / 16;
    const uint8_t *src = mem_global_host(c->plan->launch.gmem, o->gaddr, o->bytes);
    if (n < 2 || !src)
        return false;
    int s = piece_slot(c, n);
    uint32_t *eng = s < 0 ? NULL : malloc((size_t)n * sizeof *eng);
    if (!eng)
        return false;
    for (uint32_t k = 0; k < n; k++)
        eng[k] = o->smem_off + 16 * k;
    int lead = o->gaddr % 32 || o->smem_off % 32 ? -1 : 0;
    bool ok = piece_fill(c, o, s, eng, n, n, lead, src, o->smem_off);
    free(eng);
    return ok;
}

/* The random policy lands a load into shared memory in pieces, as the GPU
 * may: the next few units of its landing order (piece_fill) land in every
 * destination CTA and complete their bytes on the mbarrier(s); the rest
 * stays in flight.  Half the time a load (or what is left of it) lands
 * whole.  Returns 1 when it landed a piece (the op stays), 0 when the
 * whole op should land, -1 on a fault. */
static int land_piece(interp_ctx *c, int i)
{
    ip_op *o = &c->ops[i];
    if (c->plan->launch.policy != INTERP_COMPLETE_RANDOM)
        return 0;
    bool tensor = o->kind == IP_OP_TENSOR && o->req.kind == TMA_LOAD;
    if (!tensor && !(o->kind == IP_OP_BULK_G2S && o->bytes > 16))
        return 0;
    uint64_t x = rng_next(c);
    if (!(x & 1))
        return 0;
    if (!o->piece && !(tensor ? piece_start(c, o) : bulk_piece_start(c, o)))
        return 0;
    struct ip_piece *p = &c->pieces[o->piece - 1];
    uint32_t left = p->nu - p->udone;
    if (left < 2)
        return 0;
    uint32_t m = 1 + (uint32_t)(x >> 1) % (left - 1);
    uint32_t k = p->uend[p->udone + m - 1] - p->done;
    p->udone += m;
    c->effects++;
    return land_chunks(c, o, k) ? -1 : 1;
}

int ip_async_land(interp_ctx *c, int i)
{
    int pc = land_piece(c, i);
    if (pc)
        return pc < 0 ? c->res.status : 0;
    ip_op op = c->ops[i];
    /* remove first: landing may fault, and the op is done either way */
    memmove(&c->ops[i], &c->ops[i + 1], (size_t)(c->nops - i - 1) * sizeof *c->ops);
    c->nops--;
    c->effects++;
    return land(c, &op) ? c->res.status : 0;
}

void ip_async_reset(interp_ctx *c)
{
    c->nops = 0;
    for (int s = 0; s < c->npieces; s++)
        c->pieces[s].used = false;
}

void ip_async_ctx_free(interp_ctx *c)
{
    free(c->ops);
    c->ops = NULL;
    c->nops = c->capops = 0;
    for (int s = 0; s < c->npieces; s++) {
        free(c->pieces[s].off);
        free(c->pieces[s].data);
        free(c->pieces[s].uend);
    }
    free(c->pieces);
    c->pieces = NULL;
    c->npieces = 0;
    free(c->scratch);
    c->scratch = NULL;
    c->scratch_size = 0;
}
