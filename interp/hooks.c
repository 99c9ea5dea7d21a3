/* hooks.c — the interpreter's calls into the happens-before checker.
 *
 * Every function here is called from one place in exec/memexec/async/sched
 * and only when c->ck is set (--check=full, the default; --check=none
 * leaves it NULL, so the hot path pays one branch).  They translate the
 * interpreter's events into check/'s vocabulary (agents = warps of the
 * cluster, sites = function << 20 | instruction, sync clocks) and turn its
 * conflicts into reports that name both sides: the instruction, the
 * thread, the PTX line, and the rule broken, in brackets, e.g.
 * "data race [copy-not-waited]".
 *
 * Rules (see check/check.h for how each is decided):
 *   copy-not-waited      access to an async copy's destination that no wait
 *                        observing its completion orders after the copy
 *   store-source-reused  write to a TMA/bulk store's source before the
 *                        cp.async.bulk.wait_group.read that covers it (for
 *                        another lane of the issuing warp: before a warp
 *                        sync after the issuing lane's wait)
 *   copy-overlap         an async operation writing bytes that another one,
 *                        not yet ordered before it, writes or reads
 *   copy-over-access     an async copy issued over bytes that a thread
 *                        accessed without being ordered before the issue
 *                        (a missing "empty" barrier wait)
 *   smem-race            two warps' plain accesses, one a write, with no
 *                        bar.sync / barrier.cluster / mbarrier between them
 *   intra-warp-race      two lanes of one warp: plain accesses to the same
 *                        bytes, one a write (or two stores of different
 *                        values, one st.shared included), with no
 *                        __syncwarp / bar.sync / mbarrier wait between them
 *                        (a partial __syncwarp orders only its mask's lanes)
 *   missing-proxy-fence  a TMA store reading shared bytes a thread wrote
 *                        with no fence.proxy.async after the write
 *   store-pending-at-exit  a thread exits with a TMA/bulk store whose
 *                        source read no wait_group.read has covered
 *   cta-exited / cta-exit-peer-use  shared memory of a CTA that has exited,
 *                        or a CTA exiting while a peer's use of its shared
 *                        memory is not ordered before (no final cluster barrier)
 *   mbarrier-init-unordered  a peer CTA's mbarrier used (remote arrive,
 *                        multicast) before its init is ordered by a cluster
 *                        barrier, or with no fence.mbarrier_init (or release
 *                        cluster arrive) after the init
 *   mbarrier-reinit-live  mbarrier.init over a barrier with arrivals, bytes
 *                        or copies outstanding in its current phase
 *   stale-phase          a wait, in a loop, succeeding on the completion its
 *                        previous lap already observed
 *   wait-result-ignored  a try_wait/test_wait whose result decides nothing
 *   wgmma-operand-overwritten  a generic write, or an async copy landing, in
 *                        the A/B tiles a wgmma.mma_async reads, not ordered
 *                        after the wgmma.wait_group that covers it (a stage
 *                        released before that wait)
 *   wgmma-operand-unordered  a wgmma.mma_async issued over tile bytes a thread
 *                        wrote with no barrier ordering the write before it
 *                        (a TMA copy not waited for is copy-not-waited)
 *   global-store-race    a global access to bytes an async store still writes
 *   tensormap-no-acquire a TMA through a map written in the kernel without
 *                        fence.proxy.tensormap::generic.acquire after the write
 *   (aligned-partial-warp, tensormap-not-global: in memexec.c and async.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interp/internal.h"
#include "check/check.h"

#define FOR_LANES(m, l) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

#define agent_of ip_ck_agent
#define site_here ip_ck_site
static int site_func(uint32_t s) { return (int)(s >> 20); }
static uint32_t site_pc(uint32_t s) { return s & 0xfffff; }

bool ip_ck_start(interp_ctx *c)
{
    if (c->plan->launch.no_check)
        return true;
    if (!c->ck)
        c->ck = ck_new((int)c->plan->cta_per_cluster, (int)c->plan->nwarps, c->plan->smem_size);
    else
        ck_reset(c->ck);
    return c->ck != NULL && ip_gw_start(c);
}

void ip_ck_free(interp_ctx *c)
{
    ck_free(c->ck);
    c->ck = NULL;
    ip_gw_free(c);
    if (c->ck_waits) {
        for (uint32_t f = 0; f < c->plan->mod->nfuncs; f++)
            free(c->ck_waits[f]);
        free(c->ck_waits);
        c->ck_waits = NULL;
    }
}

/* "CTA (0,0,0) warp 1 lane 3 at file:line: text" for a recorded side */
static void side_str(const interp_ctx *c, uint32_t agent, uint32_t lane, uint32_t site, char *buf, size_t n)
{
    int nw = (int)c->plan->nwarps, cta = (int)agent / nw, warp = (int)agent % nw;
    const ip_cta *t = &c->cl.ctas[cta];
    char where[400];
    interp_where(c, site_func(site), site_pc(site), where, sizeof where);
    if (c->cl.ncta > 1)
        snprintf(buf, n, "CTA (%u,%u,%u) (cluster rank %d) warp %d lane %u at %s", t->ctaid[0], t->ctaid[1],
                 t->ctaid[2], cta, warp, lane, where);
    else
        snprintf(buf, n, "CTA (%u,%u,%u) warp %d lane %u at %s", t->ctaid[0], t->ctaid[1], t->ctaid[2], warp, lane,
                 where);
}

static void op_str(interp_ctx *c, uint32_t i, char *buf, size_t n)
{
    const ck_op *o = ck_op_get(c->ck, i);
    char s[600];
    side_str(c, o->agent, o->lane, o->site, s, sizeof s);
    snprintf(buf, n, "%s #%d issued from %s", o->what, o->id, s);
}

/* What the op needs before its bytes may be touched, in words. */
static void op_need(interp_ctx *c, uint32_t agent, uint32_t i, char *buf, size_t n)
{
    const ck_op *o = ck_op_get(c->ck, i);
    uint32_t seen = o->comp ? ck_clock(c->ck, agent)[o->comp] : 0;
    ck_mbar *m = o->is_load ? ck_mbar_at(c->ck, o->mbar_cta, o->mbar_off) : NULL;
    /* the phase the thread did observe, when it is the one before: its
     * expect_tx may have announced too few bytes */
    uint32_t k = o->val > o->issued_val ? o->issued_val : seen;
    if (o->wgmma) {
        snprintf(buf, n, "it is wgmma.mma_async #%u of its warpgroup, which reads its shared-memory operands "
                 "until the wgmma.wait_group that covers it, and %s", o->val - 1,
                 agent == o->agent ? "this warp has not passed that wait"
                                   : "no such wait is ordered before this (a stage released, e.g. by an arrive "
                                     "on its \"empty\" barrier, before the consumer's wgmma.wait_group?)");
        return;
    }
    if (m && k && k + 1 == o->val && m->completions - k < 4 && m->hist[k % 4].site) {
        char where[400];
        interp_where(c, site_func(m->hist[k % 4].site), site_pc(m->hist[k % 4].site), where, sizeof where);
        snprintf(buf, n, "its bytes count into completion #%u of the mbarrier at shared 0x%x of CTA rank %d, and "
                 "this thread has observed %u: completion #%u came first, its expect_tx announcing %u bytes (fewer "
                 "than the copies bring, so the phase completed in the middle of them?)\n  expect_tx: %s\n  (the "
                 "GPU (H100, H200) credits a copy's bytes to its mbarrier in batches of multiples of 32 bytes whose sizes vary "
                 "with timing: such a phase completes only if its count happens to reach exactly zero between two "
                 "batches, as here; otherwise the count goes negative and the kernel hangs)",
                 o->val, o->mbar_off, o->mbar_cta, seen, k, m->hist[k % 4].bytes, where);
    } else if (o->is_load)
        snprintf(buf, n, "it completes on the mbarrier at shared 0x%x of CTA rank %d, in that barrier's "
                 "completion #%u (the phase with parity %u); this thread has observed %u of its completions "
                 "(missing wait, wrong barrier or wrong parity, or a try_wait/test_wait result ignored?)",
                 o->mbar_off, o->mbar_cta, o->val, (o->val - 1) & 1, seen);
    else
        snprintf(buf, n, "it is in bulk group %u of its issuing thread, and %s", o->val - 1,
                 agent == o->agent ? "this thread has not passed a cp.async.bulk.wait_group.read covering it"
                                   : "no cp.async.bulk.wait_group.read covering it is ordered before this access");
}

static const char *rw(bool write) { return write ? "writes" : "reads"; }

static int report(interp_ctx *c, ip_warp *w, int lane, const ck_conflict *k, const char *what, bool write,
                  uint32_t n, int cta);

int ip_ck_report(interp_ctx *c, ip_warp *w, int lane, const ck_conflict *k, bool write, uint32_t n, int cta)
{
    char what[96];
    return report(c, w, lane, k, ip_instr_what(c, what, sizeof what), write, n, cta);
}

static int report(interp_ctx *c, ip_warp *w, int lane, const ck_conflict *k, const char *what, bool write,
                  uint32_t n, int cta)
{
    char other[800], need[1200];
    const ck_side *o = &k->other;
    switch (k->kind) {
    case CK_COPY_UNWAITED:
    case CK_SOURCE_REUSED: {
        const ck_op *op = ck_op_get(c->ck, o->op);
        if (op->wgmma) {
            op_str(c, o->op, other, sizeof other);
            op_need(c, agent_of(c, w), o->op, need, sizeof need);
            return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                            "data race [wgmma-operand-overwritten]: %s %s %u byte(s) at shared 0x%x of CTA rank %d "
                            "that a wgmma.mma_async may still read, not ordered after it: %s\n  other side: %s",
                            what, rw(write), n, k->off, cta, need, other);
        }
        op_str(c, o->op, other, sizeof other);
        op_need(c, agent_of(c, w), o->op, need, sizeof need);
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "data race [%s]: %s %s %u byte(s) at shared 0x%x of CTA rank %d that an asynchronous "
                        "%s %s, not ordered after it: %s\n  other side: %s",
                        k->kind == CK_COPY_UNWAITED ? "copy-not-waited" : "store-source-reused", what, rw(write),
                        n, k->off, cta, op->is_load ? "copy" : "store", op->is_load ? "writes" : "reads", need,
                        other);
    }
    case CK_LANE_UNWAITED: {
        const ck_op *op = ck_op_get(c->ck, o->op);
        char wt[400];
        uint32_t ws = ck_lane_obs_site(c->ck, agent_of(c, w), op->comp);
        interp_where(c, site_func(ws), site_pc(ws), wt, sizeof wt);
        op_str(c, o->op, other, sizeof other);
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "data race [copy-not-waited]: %s %s %u byte(s) at shared 0x%x of CTA rank %d that an "
                        "asynchronous copy writes: lane %u of this warp waited for the copy's mbarrier phase, this "
                        "lane did not, and no __syncwarp (bar.warp.sync) or barrier after that wait orders it "
                        "(the lanes of a warp are scheduled independently)\n  the wait: %s\n  other side: %s",
                        what, rw(write), n, k->off, cta, o->lane, wt, other);
    }
    case CK_LANE_SOURCE_REUSED: {
        const ck_op *op = ck_op_get(c->ck, o->op);
        char wt[400];
        uint32_t ws = ck_lane_obs_site(c->ck, agent_of(c, w), op->comp);
        interp_where(c, site_func(ws), site_pc(ws), wt, sizeof wt);
        op_str(c, o->op, other, sizeof other);
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "data race [store-source-reused]: %s %s %u byte(s) at shared 0x%x of CTA rank %d that an "
                        "asynchronous store reads: lane %u of this warp, its issuing thread, passed the "
                        "cp.async.bulk.wait_group.read covering it (bulk group %u), this lane did not (a bulk "
                        "async-group belongs to the thread that committed it), and no __syncwarp (bar.warp.sync) "
                        "or barrier after that wait orders this lane\n  the wait: %s\n  other side: %s",
                        what, rw(write), n, k->off, cta, o->lane, op->val - 1, wt, other);
    }
    case CK_LANE_RW:
    case CK_LANE_WW:
    case CK_LANE_WR: {
        side_str(c, o->agent, o->lane, o->site, other, sizeof other);
        bool one = o->site == site_here(c) && k->kind == CK_LANE_WW;
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "data race [intra-warp-race]: %s %s shared 0x%x of CTA rank %d, which lane %u of the same "
                        "warp %s%s with no __syncwarp (bar.warp.sync) whose membermask holds both lanes, bar.sync or "
                        "barrier wait between them (the lanes of a warp are scheduled independently)\n  other side: %s "
                        "%s it",
                        what, rw(write), k->off, cta, o->lane,
                        k->kind == CK_LANE_WR ? "read" : k->kind == CK_LANE_WW ? "wrote a different value to" : "wrote",
                        one ? " in the same instruction (which lane's value stays is unspecified)" : "", other,
                        k->kind == CK_LANE_WR ? "read" : "wrote");
    }
    default:
        side_str(c, o->agent, o->lane, o->site, other, sizeof other);
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "data race [smem-race]: %s %s shared 0x%x of CTA rank %d, which another warp %s with no "
                        "bar.sync, barrier.cluster or mbarrier wait ordering the two\n  other side: %s %s it",
                        what, rw(write), k->off, cta, k->kind == CK_RACE_WR ? "read" : "wrote", other,
                        k->kind == CK_RACE_WR ? "read" : "wrote");
    }
}

int ip_ck_access(interp_ctx *c, ip_warp *w, int lane, const ip_ptr *p, uint32_t n, unsigned flags)
{
    bool write = flags & CK_WRITE;
    char what[96];
    ck_state *s = c->ck;
    uint32_t ag = agent_of(c, w);
    if (p->cta != w->cta->slot) {
        const ip_cta *t = &c->cl.ctas[p->cta];
        if (!t->live && ip_instr_what(c, what, sizeof what))
            return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                            "[cta-exited]: %s %s shared memory of cluster CTA rank %d, which has exited (its "
                            "shared memory is gone; end every CTA of the cluster with a cluster barrier after "
                            "the last remote access)", what, rw(write), p->cta);
        ck_note_remote(s, ag, (uint32_t)lane, site_here(c), p->cta);
    }
    ck_conflict k;
    if (flags & CK_SYNC) {
        /* atomics and ordered accesses synchronise through one clock per CTA */
        uint32_t *m = ck_memsync(s, p->cta);
        ck_acquire(s, ag, m);
        ck_release(s, ag, m);
    }
    if (ck_access(s, ag, (uint32_t)lane, site_here(c), p->cta, p->soff, n, flags, &k))
        return report(c, w, lane, &k, ip_instr_what(c, what, sizeof what), write, n, p->cta);
    return 0;
}


/* ---- barriers ---------------------------------------------------------------------------------------- */

void ip_ck_bar_arrive(interp_ctx *c, ip_warp *w, int id)
{
    ck_warp_sync(c->ck, agent_of(c, w));   /* .aligned: the warp's lanes meet here */
    ck_release(c->ck, agent_of(c, w), ck_bar(c->ck, w->cta->slot, id));
}

/* Called by ip_bar_check as the barrier opens, before the waiters wake. */
void ip_ck_bar_release(interp_ctx *c, ip_cta *t, int id)
{
    uint32_t *b = ck_bar(c->ck, t->slot, id);
    for (int wi = 0; wi < t->nwarps; wi++) {
        ip_warp *w = &t->warps[wi];
        for (int ln = 0; ln < w->nlanes; ln++)
            if (w->st[ln] == INTERP_T_BAR && w->wait[ln] == (uint64_t)id) {
                ck_acquire(c->ck, agent_of(c, w), b);
                break;
            }
    }
    ck_clear(c->ck, b);
}

void ip_ck_cbar_arrive(interp_ctx *c, ip_warp *w)
{
    ck_release(c->ck, agent_of(c, w), ck_cbar(c->ck, false));
}

void ip_ck_cbar_release(interp_ctx *c)
{
    uint32_t *pend = ck_cbar(c->ck, false), *done = ck_cbar(c->ck, true);
    ck_join(c->ck, done, pend);
    ck_clear(c->ck, pend);
    for (int i = 0; i < c->cl.ncta; i++) {
        ip_cta *t = &c->cl.ctas[i];
        for (int wi = 0; wi < t->nwarps; wi++) {
            ip_warp *w = &t->warps[wi];
            for (int ln = 0; ln < w->nlanes; ln++)
                if (w->st[ln] == INTERP_T_CLUSTER_BAR) {
                    ck_acquire(c->ck, agent_of(c, w), done);
                    break;
                }
        }
    }
}

void ip_ck_cbar_pass(interp_ctx *c, ip_warp *w)
{
    ck_acquire(c->ck, agent_of(c, w), ck_cbar(c->ck, true));
}

/* ---- mbarriers ----------------------------------------------------------------------------------- */

/* A peer may signal an mbarrier once its init is visible at cluster scope:
 * the initialising warp made a fence.mbarrier_init.release.cluster (or a
 * release at cluster scope: barrier.cluster.arrive.release, fence.acq_rel
 * or fence.sc .cluster) after the init, and that fence is ordered before
 * the peer's access (a cluster barrier). */
static const char init_nofence[] = "; the initialising thread made no fence.mbarrier_init.release.cluster (nor a "
                                   "release cluster barrier arrive) after the init, so the peer's signal may reach "
                                   "the barrier before its initialisation";

static bool init_visible(ck_state *s, uint32_t ag, const ck_mbar *m)
{
    return m->init_fence_epoch && ck_before(s, ag, m->init_agent, m->init_fence_epoch);
}

/* fence.mbarrier_init.release.cluster (or a release at cluster scope) by
 * w: the inits its warp made before it are visible in the cluster. */
void ip_ck_mbar_init_fence(interp_ctx *c, ip_warp *w)
{
    ck_state *s = c->ck;
    uint32_t ag = agent_of(c, w);
    ck_mbar *m;
    for (uint32_t i = 0; (m = ck_mbar_nth(s, i)); i++)
        if (m->inited && m->init_agent == ag && !m->init_fence_epoch)
            m->init_fence_epoch = ck_epoch(s, ag);
}

static void phase_done(interp_ctx *c, ck_mbar *m)
{
    m->completions++;
    uint32_t h = m->completions % 4;
    m->hist[h].site = m->ntx ? m->tx[0].site : 0;
    m->hist[h].bytes = 0;
    for (uint32_t i = 0; i < m->ntx && i < CK_MAX_TX; i++)
        m->hist[h].bytes += m->tx[i].bytes;
    ck_join(c->ck, m->done, m->pend);
    ck_clear(c->ck, m->pend);
    m->ntx = 0;
    m->landed_bytes = 0;
    m->arrivals = 0;
}

static bool flipped(uint64_t before, uint64_t after) { return (before ^ after) >> 63 && before >> 62 & 1; }

/* An mbarrier instruction by (w, lane) succeeded: before/after are its 8
 * bytes; value is init's count, expect_tx's bytes or arrive's tx. */
int ip_ck_mbar(interp_ctx *c, ip_warp *w, int lane, int op, int cta, uint32_t off, uint64_t before, uint64_t after,
               uint32_t value)
{
    ck_state *s = c->ck;
    uint32_t ag = agent_of(c, w);
    ck_mbar *m = ck_mbar_at(s, cta, off);
    if (!m)
        return 0;
    if (cta != w->cta->slot && op != IR_OP_MBARRIER_INIT) {
        if (!c->cl.ctas[cta].live)
            return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                            "[cta-exited]: %s on the mbarrier at shared 0x%x of cluster CTA rank %d, which has "
                            "exited", ir_ops[op].name, off, cta);
        if (m->inited && !init_visible(s, ag, m)) {
            char o[600];
            side_str(c, m->init_agent, m->init_lane, m->init_site, o, sizeof o);
            return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                            "[mbarrier-init-unordered]: %s on the mbarrier at shared 0x%x of cluster CTA rank %d "
                            "before its initialisation is ordered before it (fence.mbarrier_init.release.cluster "
                            "and a cluster barrier after mbarrier.init)%s\n  initialised from %s",
                            ir_ops[op].name, off, cta, m->init_fence_epoch ? "" : init_nofence, o);
        }
        ck_note_remote(s, ag, (uint32_t)lane, site_here(c), cta);
    }
    switch (op) {
    case IR_OP_MBARRIER_INIT: {
        bool live = before >> 62 & 1 &&
                    ((uint32_t)(before & 0xfffff) != (uint32_t)(before >> 20 & 0xfffff) || (before >> 40 & 0x3fffff));
        for (int i = 0; !live && i < c->nops; i++) {
            const ip_op *o = &c->ops[i];
            live = o->has_mbar && o->mbar_off == off && (o->mcast >> cta & 1);
        }
        if (live && m->inited) {
            char o[600];
            side_str(c, m->init_agent, m->init_lane, m->init_site, o, sizeof o);
            return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                            "[mbarrier-reinit-live]: mbarrier.init of the mbarrier at shared 0x%x of CTA rank %d "
                            "while its phase still has arrivals, transaction bytes or copies outstanding (%u "
                            "arrival(s) and %u expect_tx so far); first initialised from %s",
                            off, cta, m->arrivals, m->ntx, o);
        }
        m->inited = true;
        m->ninit++;
        m->completions = 0;
        m->init_agent = ag;
        m->init_lane = (uint32_t)lane;
        m->init_site = site_here(c);
        m->init_epoch = ck_epoch(s, ag);
        m->init_count = value;
        m->init_fence_epoch = 0;
        m->ntx = m->landed_bytes = m->arrivals = 0;
        ck_release(s, ag, m->pend);   /* the init is ordered before every waiter */
        break;
    }
    case IR_OP_MBARRIER_INVAL:
        m->inited = false;
        break;
    case IR_OP_MBARRIER_EXPECT_TX:
    case IR_OP_MBARRIER_ARRIVE:
    case IR_OP_MBARRIER_ARRIVE_DROP:
        if (op != IR_OP_MBARRIER_EXPECT_TX)
            m->arrivals++;
        if (cta == w->cta->slot && c->cl.ncta > 1 &&
            ip_func(c, c->xfunc)->instrs[c->xpc].space == IR_SPACE_SHARED_CLUSTER) {
            /* a .shared::cluster arrive that addressed the issuer's own CTA */
            m->self_hit = true;
            m->self_site = site_here(c), m->self_lane = (uint32_t)lane, m->self_agent = ag;
        }
        if (op == IR_OP_MBARRIER_EXPECT_TX || value) {
            if (m->ntx < CK_MAX_TX) {
                m->tx[m->ntx].site = site_here(c);
                m->tx[m->ntx].bytes = value;
            }
            m->ntx++;
        }
        ck_release(s, ag, m->pend);
        if (flipped(before, after))
            phase_done(c, m);
        break;
    case IR_OP_MBARRIER_COMPLETE_TX:
        m->landed_bytes += value;
        ck_release(s, ag, m->pend);
        if (flipped(before, after))
            phase_done(c, m);
        break;
    default:
        break;
    }
    return 0;
}

/* A test_wait/try_wait by lane `lane` of w found the awaited phase
 * complete.  A thread whose own earlier execution of this same wait (a
 * loop: the next lap) already observed the barrier's latest completion
 * learns nothing new: the phase it names is one it has consumed (a phase
 * bit that does not flip), so it is reported [stale-phase]. */
int ip_ck_mbar_observed(interp_ctx *c, ip_warp *w, int lane, int cta, uint32_t off)
{
    ck_mbar *m = ck_mbar_at(c->ck, cta, off);
    if (!m)
        return 0;
    uint32_t ag = agent_of(c, w);
    uint32_t lanes, site;
    if (m->comp && m->completions && ck_seen(c->ck, ag, m->comp, &lanes, &site) == m->completions &&
        (lanes >> lane & 1) && site == site_here(c))
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "[stale-phase]: this wait on the mbarrier at shared 0x%x of CTA rank %d succeeds on its "
                        "completion #%u, which this thread's previous execution of this wait already observed: the phase it "
                        "names completed long ago (a phase bit that does not flip, or a stage index that does not "
                        "advance?); the data it guards has not been refilled", off, cta, m->completions);
    ck_seen_set(c->ck, ag, m->comp, m->completions, 1u << lane, site_here(c));
    /* this lane is ordered after the completion; the warp's other lanes only
     * once the warp synchronises (exec_mbar ticks the warp-sync count after
     * the instruction: ck_lane_observe) */
    ck_join(c->ck, ck_clock(c->ck, ag), m->done);
    ck_lane_observe(c->ck, ag, (uint32_t)lane, m->comp, m->completions, site_here(c));
    return 0;
}

/* ---- try_wait / test_wait results --------------------------------------------------------------
 *
 * The scheduler runs a thread whose try_wait failed again from the wait
 * once the phase has completed (sched.c), so in ptxi a wait whose result is
 * ignored behaves like a blocking one.  On the GPU the kernel goes on with
 * `false` and reads what the copy has not brought yet.  So each wait's
 * result is followed through the registers it flows into, along the path
 * the thread takes after it (fall-through, unconditional branches): if it
 * reaches a branch, a guard, a store or any instruction with an effect
 * other than a register, it decides something; if it dies (overwritten, or
 * the thread exits) first, it was ignored. */

static bool pure_op(int op)
{
    static const char *const pure[] = { "mov", "selp", "setp", "set", "and", "or", "xor", "not", "cnot", "cvt",
                                        "add", "sub", "mul", "mad", "shl", "shr", "neg", "min", "max", "prmt",
                                        "bfe", "bfi", "slct", "lop3", "abs", NULL };
    const char *n = ir_ops[op].name;
    for (int i = 0; pure[i]; i++)
        if (!strcmp(n, pure[i]))
            return true;
    return false;
}

static bool opd_tainted(const ir_function *fn, const ir_operand *o, const uint8_t *t)
{
    switch (o->kind) {
    case IR_OPD_REG: return o->u.reg < fn->nregs && t[o->u.reg];
    case IR_OPD_VEC:
        for (uint32_t i = 0; i < o->u.vec.n; i++)
            if (opd_tainted(fn, &fn->vecpool[o->u.vec.first + i], t))
                return true;
        return false;
    case IR_OPD_ADDR: return o->u.addr.base_kind == IR_BASE_REG && o->u.addr.base < fn->nregs && t[o->u.addr.base];
    default: return false;
    }
}

/* returns the number of registers newly tainted (or untainted, negative) */
static int opd_set(const ir_function *fn, const ir_operand *o, uint8_t *t, uint8_t v)
{
    int k = 0;
    if (o->kind == IR_OPD_REG && o->u.reg < fn->nregs) {
        k = (int)v - (int)t[o->u.reg];
        t[o->u.reg] = v;
    } else if (o->kind == IR_OPD_VEC) {
        for (uint32_t i = 0; i < o->u.vec.n; i++)
            k += opd_set(fn, &fn->vecpool[o->u.vec.first + i], t, v);
    }
    return k;
}

/* 1 = the result of the wait at pc decides something, 2 = it is ignored */
static uint8_t wait_result_use(const ir_function *fn, uint32_t pc)
{
    const ir_instr *in = &fn->instrs[pc];
    if (in->opd[0].kind == IR_OPD_SINK)
        return 2;
    if (in->opd[0].kind != IR_OPD_REG || in->opd[0].u.reg >= fn->nregs)
        return 1;
    uint8_t *t = calloc(fn->nregs, 1);
    if (!t)
        return 1;
    t[in->opd[0].u.reg] = 1;
    int live = 1;
    uint8_t res = 1;                 /* unknown counts as used */
    uint32_t i = pc + 1;
    for (int steps = 0; steps < 4096 && i < fn->ninstrs; steps++) {
        if (i == pc) {                /* around a loop back to the wait: it overwrites its result */
            res = 2;
            break;
        }
        const ir_instr *x = &fn->instrs[i];
        bool pure = pure_op(x->op);
        /* a register first operand is the destination, except bar.sync's */
        bool dst = x->nopd && (x->opd[0].kind == IR_OPD_REG || x->opd[0].kind == IR_OPD_VEC) &&
                   x->op != IR_OP_BAR && x->op != IR_OP_BARRIER;
        bool guard = x->guard >= 0 && (uint32_t)x->guard < fn->nregs && t[x->guard];
        bool reads = guard && !pure;
        for (int k = dst ? 1 : 0; k < x->nopd && !reads; k++)
            reads = opd_tainted(fn, &x->opd[k], t);
        if (reads && !pure)
            break;                   /* decides a branch, a store, ... */
        if (reads || guard)
            live += opd_set(fn, &x->opd[0], t, 1);
        else if (dst)
            live += opd_set(fn, &x->opd[0], t, 0);
        if (live <= 0 || x->op == IR_OP_EXIT || x->op == IR_OP_RET) {
            res = 2;
            break;
        }
        if (x->op == IR_OP_BRA && x->guard < 0 && x->nopd && x->opd[0].kind == IR_OPD_LABEL)
            i = x->opd[0].u.label;
        else
            i++;
    }
    free(t);
    return res;
}

int ip_ck_wait_used(interp_ctx *c, ip_warp *w, int lane, const ir_instr *in)
{
    const ir_module *m = c->plan->mod;
    if (!c->ck_waits && !(c->ck_waits = calloc(m->nfuncs, sizeof *c->ck_waits)))
        return 0;
    uint8_t **fw = &c->ck_waits[c->xfunc];
    if (!*fw && !(*fw = calloc(m->funcs[c->xfunc].ninstrs, 1)))
        return 0;
    uint8_t *u = &(*fw)[c->xpc];
    if (!*u)
        *u = wait_result_use(&m->funcs[c->xfunc], c->xpc);
    if (*u == 2)
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "[wait-result-ignored]: the result of this %s decides nothing (no branch, guard or store "
                        "uses it before the thread goes on): on the GPU it may return false and the thread then "
                        "touches what the barrier guards before the phase completes; loop until it returns true",
                        ir_ops[in->op].name);
    return 0;
}

/* Deadlock report: what the checker knows of the mbarrier's history. */
void ip_ck_describe_mbar(interp_ctx *c, int cta, uint32_t off, const char *ind, char *buf, size_t n)
{
    buf[0] = 0;
    if (!c->ck)
        return;
    ck_mbar *m = ck_mbar_at(c->ck, cta, off);
    if (!m || !m->inited)
        return;
    char o[600];
    size_t at = 0;
    side_str(c, m->init_agent, m->init_lane, m->init_site, o, sizeof o);
    char again[64] = "";
    if (m->ninit > 1)
        snprintf(again, sizeof again, " (its init number %u: re-initialised)", m->ninit);
    int k = snprintf(buf, n, "\n%sinitialised with count %u (%u thread(s) of the cluster have not exited)%s from %s"
                     "\n%sphase completions so far: %u; in this phase %u arrival(s)", ind, m->init_count,
                     c->cl.live, again, o, ind, m->completions, m->arrivals);
    if (k < 0 || (size_t)k >= n)
        return;
    at = (size_t)k;
    uint32_t want = 0;
    for (uint32_t i = 0; i < m->ntx && i < CK_MAX_TX; i++) {
        char where[400];
        interp_where(c, site_func(m->tx[i].site), site_pc(m->tx[i].site), where, sizeof where);
        want += m->tx[i].bytes;
        k = snprintf(buf + at, n - at, "\n%sexpect_tx of %u bytes at %s", ind, m->tx[i].bytes, where);
        if (k < 0 || (size_t)k >= n - at)
            return;
        at += (size_t)k;
    }
    k = snprintf(buf + at, n - at, "\n%sbytes announced in this phase: %u; bytes the copies brought: %u%s", ind,
                 want, m->landed_bytes,
                 want > m->landed_bytes ? " (expect_tx announces more than the copies bring: wrong byte count, or a "
                                          "copy that went to another barrier?)" :
                 want < m->landed_bytes ? " (the copies brought more than announced)" : "");
    if (k < 0 || (size_t)k >= n - at)
        return;
    at += (size_t)k;
    /* the barrier at the same offset of another CTA, arrived on by its own
     * threads through .shared::cluster: a signal meant for this one */
    ck_mbar *q;
    for (uint32_t i = 0; (q = ck_mbar_nth(c->ck, i)) && at + 1 < n; i++) {
        if (q->off != off || q->cta == cta || !q->self_hit)
            continue;
        char who[600];
        side_str(c, q->self_agent, q->self_lane, q->self_site, who, sizeof who);
        k = snprintf(buf + at, n - at, "\n%sthe mbarrier at the same offset of CTA rank %d was arrived on by its own "
                     "thread through a .shared::cluster address (a shared::cta address used without mapa names the "
                     "issuer's own CTA, not this one): %s", ind, q->cta, who);
        if (k < 0 || (size_t)k >= n - at)
            return;
        at += (size_t)k;
    }
}

/* Deadlock report: the barriers nobody waits on (not in seen[]) whose
 * current phase has arrivals or bytes: where a copy or an arrival went
 * instead of the barrier that is waited on (another stage's, a peer's). */
void ip_ck_deadlock_others(interp_ctx *c, const uint32_t (*seen)[2], int nseen, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    if (!c->ck)
        return;
    ck_mbar *m;
    for (uint32_t i = 0; (m = ck_mbar_nth(c->ck, i)) && at + 1 < n; i++) {
        bool waited = false;
        for (int k = 0; k < nseen; k++)
            waited |= seen[k][0] == (uint32_t)m->cta && seen[k][1] == m->off;
        if (waited || !m->inited || (!m->arrivals && !m->landed_bytes && !m->ntx))
            continue;
        int k = snprintf(buf + at, n - at, "\n  not waited on: mbarrier at shared 0x%x (CTA rank %d), count %u: in its "
                         "current phase (after %u completion(s)) %u arrival(s), %u expect_tx byte(s) announced, %u "
                         "byte(s) landed", m->off, m->cta, m->init_count, m->completions, m->arrivals,
                         m->ntx ? m->tx[0].bytes : 0, m->landed_bytes);
        if (k < 0)
            break;
        at += (size_t)k < n - at ? (size_t)k : n - at - 1;
    }
}

/* ---- asynchronous operations ----------------------------------------------------------------------- */

static int op_report(interp_ctx *c, const ip_op *o, uint32_t rec, const ck_conflict *k, int cta)
{
    ip_warp *w = &c->cl.ctas[o->cta].warps[o->warp];
    char other[800], need[1200] = "";
    const ck_op *me = ck_op_get(c->ck, rec);
    const ck_side *s = &k->other;
    const char *rule, *why;
    switch (k->kind) {
    case CK_COPY_OVERLAP:
        rule = "copy-overlap";
        why = "overlaps the bytes of an earlier asynchronous operation that is not ordered before this issue";
        if (ck_op_get(c->ck, s->op)->wgmma) {
            rule = "wgmma-operand-overwritten";
            why = "writes shared bytes that a wgmma.mma_async may still read";
        } else if (me->wgmma) {
            rule = "copy-not-waited";
            why = "reads shared bytes that an asynchronous copy writes, not ordered after its completion (a "
                  "missing wait on the stage's \"full\" barrier?)";
        }
        op_str(c, s->op, other, sizeof other);
        op_need(c, me->agent, s->op, need, sizeof need);
        break;
    case CK_READ_BEFORE_COPY:
        rule = "copy-not-waited";
        why = "writes shared bytes that a thread read before anything had written them, before this issue: "
              "it read what this copy brings without waiting for it (a missing wait on the stage's \"full\" "
              "barrier?)";
        side_str(c, s->agent, s->lane, s->site, other, sizeof other);
        break;
    case CK_NO_PROXY_FENCE:
        rule = "missing-proxy-fence";
        why = "reads shared bytes written through the generic proxy with no fence.proxy.async (.shared::cta) "
              "between that write and the issue: the async proxy may read stale bytes";
        side_str(c, s->agent, s->lane, s->site, other, sizeof other);
        break;
    default:
        if (me->wgmma) {
            rule = "wgmma-operand-unordered";
            why = "reads shared bytes that a thread wrote with no barrier ordering that write before this issue "
                  "(every warp that writes a tile must synchronise with the warpgroup before its mma_async)";
            side_str(c, s->agent, s->lane, s->site, other, sizeof other);
            break;
        }
        rule = "copy-over-access";
        why = "overwrites shared bytes that a thread accessed with no wait ordering that access before this "
              "issue (a missing wait on the stage's \"empty\" barrier?)";
        side_str(c, s->agent, s->lane, s->site, other, sizeof other);
        break;
    }
    return ip_error(c, INTERP_FAULT, w, o->lane, c->xfunc, c->xpc,
                    "data race [%s]: this %s (#%d) %s: shared 0x%x of CTA rank %d%s%s\n  other side: %s", rule,
                    me->what, o->id, why, k->off, cta, need[0] ? "; " : "", need, other);
}

/* The global bytes a store or reduction writes, as a region (check.h):
 * bulk copies exactly; tensor stores of a tiled map in tile mode with unit
 * element strides and whole-byte elements (others are not tracked). */
static void global_region(interp_ctx *c, const ip_op *o, const ck_op *rd)
{
    ck_greg g;
    memset(&g, 0, sizeof g);
    if (o->kind == IP_OP_TENSOR) {
        const tma_map *m = &o->map;
        unsigned bits = tma_dtype_bits(m->data_type);
        if (m->kind != TMA_MAP_TILED || o->req.mode != TMA_TILE || m->interleave || bits % 8 || !bits)
            return;
        g.base = m->global_address;
        g.rank = m->rank;
        g.stride[0] = bits / 8;
        uint64_t lo = 0, hi = 0;
        for (int d = 0; d < m->rank; d++) {
            if (m->element_strides[d] != 1)
                return;
            if (d)
                g.stride[d] = m->global_strides[d];
            int64_t a = o->req.coords[d], b = a + m->box_dim[d];
            if (a < 0) a = 0;
            if (b > (int64_t)m->global_dim[d]) b = (int64_t)m->global_dim[d];
            if (a >= b)
                return;              /* wholly out of bounds: writes nothing */
            g.b0[d] = a;
            g.b1[d] = b;
            lo += (uint64_t)a * g.stride[d];
            hi += (uint64_t)(b - 1) * g.stride[d];
        }
        g.lo = g.base + lo;
        g.hi = g.base + hi + g.stride[0];
    } else if (o->dst_cta < 0 || o->kind == IP_OP_BULK_S2G) {
        g.base = g.lo = o->gaddr;
        g.hi = o->gaddr + o->bytes;
        g.rank = 1;
        g.stride[0] = 1;
        g.b1[0] = o->bytes;
    } else {
        return;
    }
    ck_op r = *rd;
    r.comp = ck_bulk_wcomp(c->ck, rd->agent, rd->lane);
    if (!r.comp)
        return;
    r.cta = -1;
    g.op = ck_op_new(c->ck, &r);
    if (g.op != UINT32_MAX)
        ck_greg_add(c->ck, &g);
}

int ip_ck_global(interp_ctx *c, ip_warp *w, int lane, uint64_t a, uint32_t n, bool write)
{
    uint32_t op, waiter;
    int k = ck_global(c->ck, agent_of(c, w), (uint32_t)lane, a, n, &op, &waiter);
    if (!k)
        return 0;
    char what[96], other[800];
    const ck_op *o = ck_op_get(c->ck, op);
    op_str(c, op, other, sizeof other);
    if (k == CK_LANE_GLOBAL_STORE) {
        char wt[400];
        uint32_t ws = ck_lane_obs_site(c->ck, agent_of(c, w), o->comp);
        interp_where(c, site_func(ws), site_pc(ws), wt, sizeof wt);
        return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                        "data race [global-store-race]: %s %s global 0x%llx, which an asynchronous %s writes: "
                        "lane %u of this warp, its issuing thread, waited for its bulk group %u, this lane did "
                        "not (a bulk async-group belongs to the thread that committed it), and no __syncwarp "
                        "(bar.warp.sync) or barrier after that wait orders this lane\n  the wait: %s\n"
                        "  other side: %s", ip_instr_what(c, what, sizeof what), write ? "writes" : "reads",
                        (unsigned long long)a, o->what, waiter, o->val - 1, wt, other);
    }
    return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                    "data race [global-store-race]: %s %s global 0x%llx, which an asynchronous %s still writes: "
                    "it is in bulk group %u of its issuing thread, and no cp.async.bulk.wait_group (without "
                    ".read: .read only frees the source) covering it is ordered before this access\n"
                    "  other side: %s", ip_instr_what(c, what, sizeof what), write ? "writes" : "reads",
                    (unsigned long long)a, o->what, o->val - 1, other);
}

int ip_ck_issue(interp_ctx *c, ip_warp *w, ip_op *o, const char *what)
{
    ck_state *s = c->ck;
    uint32_t ag = agent_of(c, w);
    ck_op r = { .agent = ag, .lane = (uint32_t)o->lane, .site = site_here(c), .id = o->id, .what = what,
                .epoch = ck_epoch(s, ag) };
    ck_conflict k;
    bool load = o->has_mbar;
    o->ck_rec = UINT32_MAX;
    if (load) {
        r.is_load = true;
        uint32_t len = o->kind == IP_OP_TENSOR ? o->foot : o->bytes;
        uint32_t first = UINT32_MAX;
        for (int d = 0; d < c->cl.ncta; d++) {
            if (!(o->mcast >> d & 1))
                continue;
            int mc = o->kind == IP_OP_TENSOR && o->pair ? (d & ~1) | (o->mbar_cta & 1) : d;
            ip_cta *t = &c->cl.ctas[d];
            if (!t->live)
                return ip_error(c, INTERP_FAULT, w, o->lane, c->xfunc, c->xpc,
                                "[cta-exited]: %s into cluster CTA rank %d, which has exited", what, d);
            ck_mbar *m = ck_mbar_at(s, mc, o->mbar_off);
            if (!m)
                return 0;
            if (mc != w->cta->slot) {
                uint64_t word = 0;
                if (o->mbar_off + 8 <= c->cl.ctas[mc].smem_size)
                    memcpy(&word, c->cl.ctas[mc].smem + o->mbar_off, 8);
                if (!(word >> 62 & 1) || !m->inited || !init_visible(s, ag, m)) {
                    char oth[600] = "(not initialised yet)";
                    if (m->inited)
                        side_str(c, m->init_agent, m->init_lane, m->init_site, oth, sizeof oth);
                    return ip_error(c, INTERP_FAULT, w, o->lane, c->xfunc, c->xpc,
                                    "[mbarrier-init-unordered]: %s signals the mbarrier at shared 0x%x of cluster "
                                    "CTA rank %d, whose initialisation is not ordered before this issue (each CTA: "
                                    "mbarrier.init, fence.mbarrier_init.release.cluster, then a cluster barrier "
                                    "before any peer multicasts into it)%s\n  initialised from %s",
                                    what, o->mbar_off, mc, m->inited && !m->init_fence_epoch ? init_nofence : "",
                                    oth);
                }
                ck_note_remote(s, ag, (uint32_t)o->lane, site_here(c), mc);
            }
            if (d != w->cta->slot)
                ck_note_remote(s, ag, (uint32_t)o->lane, site_here(c), d);
            r.comp = m->comp;
            r.val = r.issued_val = m->completions + 1;
            r.cta = d;
            r.mbar_cta = mc;
            r.mbar_off = o->mbar_off;
            uint32_t rec = ck_op_new(s, &r);
            if (rec == UINT32_MAX)
                return 0;
            if (first == UINT32_MAX)
                first = rec;
            if (ck_op_write(s, rec, d, o->smem_off, len, &k))
                return op_report(c, o, rec, &k, d);
        }
        o->ck_rec = first;
    } else if (o->kind == IP_OP_TENSOR || o->kind == IP_OP_BULK_S2G || o->kind == IP_OP_BULK_RED) {
        /* a store or reduction reads shared memory, completes through the
         * issuing thread's bulk group */
        int src = o->kind == IP_OP_TENSOR ? o->dst_cta : o->src_cta;
        uint32_t off = o->kind == IP_OP_TENSOR ? o->smem_off : o->src_off;
        uint32_t len = o->kind == IP_OP_TENSOR ? o->foot : o->bytes;
        r.comp = ck_bulk_comp(s, ag, (uint32_t)o->lane);
        r.val = o->group + 1;
        r.cta = src;
        uint32_t rec = ck_op_new(s, &r);
        if (rec == UINT32_MAX || !r.comp)
            return 0;
        o->ck_rec = rec;
        ck_set_bulk_need(s, ag, (uint32_t)o->lane, r.val, rec);
        if (ck_op_read(s, rec, src, off, len, &k))
            return op_report(c, o, rec, &k, src);
        global_region(c, o, &r);
    }
    ck_release(s, ag, NULL);
    return 0;
}

/* A load's bytes completed `tx` on the mbarrier of CTA mc for destination
 * d: before/after are the mbarrier's bytes. */
void ip_ck_complete(interp_ctx *c, const ip_op *o, int d, int mc, uint64_t before, uint64_t after, uint32_t tx)
{
    ck_state *s = c->ck;
    ck_mbar *m = ck_mbar_at(s, mc, o->mbar_off);
    if (!m)
        return;
    uint32_t rec = o->ck_rec;
    ck_op *r = NULL;
    if (rec != UINT32_MAX) {
        for (uint32_t i = rec; (r = ck_op_get(s, i)) && r->id == o->id; i++)
            if (r->cta == d)
                break;
        if (r && r->id != o->id)
            r = NULL;
    }
    m->landed_bytes += tx;
    if (r) {
        /* the issuer's actions before the issue happen before the completion */
        uint32_t *p = m->pend;
        if (p[r->agent] < r->epoch)
            p[r->agent] = r->epoch;
        r->landed = true;
    }
    if (flipped(before, after)) {
        phase_done(c, m);
        /* the bytes counted into a later phase (expect_tx too small: the
         * phase completed in the middle of the copy) are covered only by
         * that later completion */
        if (r && (uint32_t)(after >> 40 & 0x3fffff))
            r->val = m->completions + 1;
        else if (r)
            r->val = m->completions;
    } else if (r) {
        r->val = m->completions + 1;
    }
}

void ip_ck_bulk_waited(interp_ctx *c, ip_warp *w, int lane, uint32_t upto, bool read_only)
{
    /* the thread's own groups: this lane is ordered after them, the other
     * lanes of the warp once a warp sync follows */
    uint32_t ag = agent_of(c, w);
    ck_bulk_observe(c->ck, ag, (uint32_t)lane, ck_bulk_comp(c->ck, ag, (uint32_t)lane), upto, site_here(c));
    if (!read_only)
        ck_bulk_observe(c->ck, ag, (uint32_t)lane, ck_bulk_wcomp(c->ck, ag, (uint32_t)lane), upto, site_here(c));
}

void ip_ck_warp_sync_lanes(interp_ctx *c, ip_warp *w, const uint32_t *mask, uint32_t exec)
{
    /* each distinct membermask among the executing lanes (a converged warp
     * may give its halves different masks) orders its own lanes; one that
     * holds every live lane of the warp orders the whole warp */
    uint32_t done = 0;
    for (uint32_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (done >> l & 1)
            continue;
        for (uint32_t o = m; o; o &= o - 1)
            if (mask[__builtin_ctz(o)] == mask[l])
                done |= o & -o;
        ip_ck_warp_sync_mask(c, w, mask[l]);
    }
}

void ip_ck_tmap_write(interp_ctx *c, ip_warp *w, int lane, uint64_t a)
{
    ck_tmap_write(c->ck, a, agent_of(c, w), (uint32_t)lane, site_here(c));
}

void ip_ck_tmap_acquire(interp_ctx *c, ip_warp *w, uint64_t a)
{
    ck_tmap_acquire(c->ck, a, agent_of(c, w));
}

int ip_ck_tmap_use(interp_ctx *c, ip_warp *w, int lane, uint64_t a)
{
    ck_side s;
    if (!ck_tmap_use(c->ck, a, agent_of(c, w), &s))
        return 0;
    char other[800];
    side_str(c, s.agent, s.lane, s.site, other, sizeof other);
    return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                    "[tensormap-no-acquire]: the tensor map at global 0x%llx was written during the kernel, and this "
                    "warp has no fence.proxy.tensormap::generic.acquire on it after that write: the TMA may use the "
                    "stale map\n  written by: %s", (unsigned long long)a, other);
}

void ip_ck_proxy_fence(interp_ctx *c, ip_warp *w)
{
    ck_proxy_fence(c->ck, agent_of(c, w));
}

/* Thread (w, lane) exits (called before it is marked exited). */
int ip_ck_exit(interp_ctx *c, ip_warp *w, int lane)
{
    ck_state *s = c->ck;
    uint32_t ag = agent_of(c, w), rec;
    uint32_t need = ck_bulk_need(s, ag, (uint32_t)lane, &rec);
    if (need) {
        uint32_t comp = ck_bulk_comp(s, ag, (uint32_t)lane);
        if (ck_clock(s, ag)[comp] < need) {
            char other[800];
            op_str(c, rec, other, sizeof other);
            return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                            "[store-pending-at-exit]: the thread exits while its asynchronous store may still read "
                            "shared memory (bulk group %u): no cp.async.bulk.wait_group.read covers it, and the "
                            "CTA's shared memory is released at exit\n  store: %s", need - 1, other);
        }
    }
    ip_cta *t = w->cta;
    if (t->live == 1 && c->cl.ncta > 1) {
        /* the CTA's exit: every warp of it has its final clock now */
        uint32_t *j = ck_sync_new(s);
        if (!j)
            return 0;
        for (int wi = 0; wi < t->nwarps; wi++)
            ck_join(s, j, ck_clock(s, agent_of(c, &t->warps[wi])));
        uint32_t plane, psite;
        int peer = ck_remote_unordered(s, j, t->slot, &plane, &psite);
        if (peer >= 0) {
            char other[800];
            side_str(c, (uint32_t)peer, plane, psite, other, sizeof other);
            return ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc,
                            "[cta-exit-peer-use]: CTA rank %d exits while a cluster peer's use of its shared memory "
                            "(DSMEM access, remote arrive or multicast) is not ordered before the exit (end every "
                            "CTA of the cluster with barrier.cluster.arrive + wait after the last remote use)\n"
                            "  peer's use: %s", t->slot, other);
        }
    }
    return 0;
}

/* ---- wgmma operand reads ---------------------------------------------------------------------------- */

/* The whole warpgroup has issued the mma_async of ip_op o (w: its last
 * warp): from now until the wgmma.wait_group that covers it, it reads
 * win[0] (A, empty when A is in registers) and win[1] (B) of its CTA. */
int ip_ck_wgmma_issue(interp_ctx *c, ip_warp *w, ip_op *o, const uint32_t win[2][2])
{
    ck_state *s = c->ck;
    uint32_t ag = agent_of(c, w);
    ck_op r = { .agent = ag, .lane = 0, .site = (uint32_t)o->func << 20 | (o->pc & 0xfffff), .id = o->id,
                .what = "wgmma.mma_async", .epoch = ck_epoch(s, ag), .wgmma = true, .cta = o->cta,
                .comp = ck_wg_comp(s, o->cta, o->wg), .val = o->wg_seq + 1 };
    r.issued_val = r.val;
    o->ck_rec = UINT32_MAX;
    if (!r.comp)
        return 0;
    uint32_t rec = ck_op_new(s, &r);
    if (rec == UINT32_MAX)
        return 0;
    o->ck_rec = rec;
    ck_conflict k;
    for (int i = 0; i < 2; i++)
        if (win[i][1] > win[i][0] && ck_op_read(s, rec, o->cta, win[i][0], win[i][1] - win[i][0], &k))
            return op_report(c, o, rec, &k, o->cta);
    ck_release(s, ag, NULL);
    return 0;
}

/* Warp w passed a wgmma.wait_group: its warpgroup's mma_async before
 * sequence number `upto` are complete. */
void ip_ck_wgmma_waited(interp_ctx *c, ip_warp *w, uint32_t upto)
{
    uint32_t ag = agent_of(c, w);
    ck_observe(c->ck, ag, ck_wg_comp(c->ck, w->cta->slot, w->id / 4), upto);
}
