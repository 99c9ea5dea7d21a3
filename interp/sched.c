/* sched.c — the warp scheduler, the step API and the deadlock detector.
 *
 * Divergence rule.  Each thread has its own (frame, PC).  A warp step runs
 * the group of the warp's runnable threads that share the deepest call
 * frame and, within it, the lowest instruction index; those threads execute
 * the instruction together (they are the "active mask" that shfl.sync,
 * vote, bar.sync, elect.sync see).  Because the lowest PC always runs
 * first, the threads of an if/else meet again at the first instruction
 * after both paths: the path at the lower PC runs until it catches up.
 * Threads blocked at a barrier are not runnable, so the warp runs its other
 * threads meanwhile (independent thread scheduling): in `load_tile`, lanes
 * 1..31 wait at a bar.sync while lane 0 runs further down to issue the TMA.
 *
 * Warps take turns round-robin, IP_QUANTUM instructions at a time.  The
 * step API takes one instruction per call; interp_run's contexts (c->fast)
 * run a warp's whole turn in run_burst instead, and a converged warp's
 * pre-decoded instructions (uop.c) in one loop: the same instructions in
 * the same order, without going back through the scheduler each time.
 *
 * Waiting and polling.  Threads blocked at bar.sync / barrier.cluster.wait
 * / cp.async.bulk.wait_group do not run until released.  A thread whose
 * mbarrier.try_wait / test_wait returned false is a *poller*: it stays
 * parked at the instruction after the wait and runs only when nothing else
 * can — so its %clock64-bounded loop never times out while work is still
 * possible.  When no thread is runnable except pollers:
 *   1. an in-flight async operation lands (policy `deferred`), else
 *   2. the pollers whose barrier phase has now completed run, from the
 *      wait itself (it is executed again and now succeeds), else
 *   3. every poller runs once more (a re-poll round: it may do something
 *      other than wait), and if that round changed no memory, no barrier
 *      and issued nothing, the run stops with a deadlock report.
 * So a phase that can never complete is reported as a deadlock instead of
 * spinning until the kernel's own clock bound expires (the conformance
 * corpus removed exactly the cases whose phase never completed).  This is
 * a documented choice; hardware would spin and then take the timeout path.
 *
 * Aligned instructions.  An instruction with .aligned (wgmma.*, mma.sync,
 * ldmatrix, setmaxnreg, barrier.cluster, ...) must be executed by every
 * thread of the warp together.  ptxas guarantees it after an if whose
 * threads diverged by placing a convergence barrier at the join (BSSY /
 * BSYNC): threads that leave the if early wait there.  ptxi's equivalent:
 * a group that reaches an .aligned instruction while other live lanes of
 * its warp are elsewhere (running, polling an mbarrier, blocked) is parked
 * (w->converging) and runs once they arrive or exit.  If the rest of the
 * warp parks at another .aligned instruction, the warp has diverged for
 * good: the lanes run as they are and the instruction's own check reports
 * the partial warp.  A lane that can never arrive leaves the others parked
 * and the run ends in a deadlock report that names them.  CuTe's main
 * loop needs this: lane 0 of warp 0 waits on an mbarrier inside
 * `if (warp_idx == 0 && elect_one)` while lanes 1..31 run on to the next
 * wgmma.
 *
 * %clock64 is the cluster's count of warp instructions (plus a base), so
 * 2^31 cycles of a poll bound are 2^31 instructions away.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interp/internal.h"
#include "contract/contract.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---- errors ------------------------------------------------------------------ */

static size_t append(char *buf, size_t len, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t len, size_t at, const char *fmt, ...)
{
    if (at >= len)
        return at;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
    if (n < 0)
        return at;
    return at + (size_t)n >= len ? len - 1 : at + (size_t)n;
}

int64_t interp_contracted(const interp_ctx *c, int func, uint32_t pc)
{
    const ip_plan *p = c->plan;
    if (!p->pairs || func < 0 || (uint32_t)func >= p->mod->nfuncs)
        return -1;
    for (int i = 0; i < p->npairs[func]; i++)   /* the debugger's, not the run's */
        if (p->pairs[func][i].add == pc)
            return p->pairs[func][i].mul;
    return -1;
}

int interp_where(const interp_ctx *c, int func, uint32_t pc, char *buf, size_t len)
{
    const ir_module *m = c->plan->mod;
    if (func < 0 || (uint32_t)func >= m->nfuncs || pc >= m->funcs[func].ninstrs)
        return snprintf(buf, len, "(no instruction)");
    const ir_instr *in = &m->funcs[func].instrs[pc];
    const char *file = m->path ? m->path : "<ptx>";
    size_t sl = 0;
    const char *src = ir_source_line(m, in->loc.line, &sl);
    while (src && sl && (*src == ' ' || *src == '\t')) {
        src++;
        sl--;
    }
    /* the CUDA (or Python) line beside the PTX one, from .loc (-lineinfo) */
    char hl[160] = "";
    const char *hf;
    uint32_t hline;
    if (ir_src_of(m, in->loc.line, &hf, &hline)) {
        const char *base = strrchr(hf, '/');
        snprintf(hl, sizeof hl, " (%s:%u)", base ? base + 1 : hf, hline);
    }
    if (src)
        return snprintf(buf, len, "%s:%u%s: %.*s", file, in->loc.line, hl, (int)sl, src);
    return snprintf(buf, len, "%s:%u%s", file, in->loc.line, hl);
}

static size_t who(const interp_ctx *c, const ip_warp *w, int lane, char *buf, size_t len, size_t at)
{
    const ip_cta *t = w->cta;
    const interp_launch *l = &c->plan->launch;
    uint32_t lin = (uint32_t)w->id * 32 + (uint32_t)lane;
    uint32_t tx = lin % l->block[0], ty = lin / l->block[0] % l->block[1],
             tz = lin / l->block[0] / l->block[1];
    at = append(buf, len, at, "CTA (%u,%u,%u) warp %d lane %d (thread (%u,%u,%u))",
                t->ctaid[0], t->ctaid[1], t->ctaid[2], w->id, lane, tx, ty, tz);
    if (c->plan->cta_per_cluster > 1)
        at = append(buf, len, at, ", cluster rank %d", t->slot);
    return at;
}

static const char *state_name(int st);

/* Where every warp of the resident cluster is, for a run stopped from
 * outside its own logic (step limit, time limit, Ctrl-C): the count of
 * instructions, then one line per group of a warp's lanes at the same
 * place in the same state.  Stops short of the buffer's end with a count
 * of the warps left out. */
static size_t warp_report(interp_ctx *c, char *buf, size_t len, size_t at)
{
    at = append(buf, len, at, "\n  after %llu warp instructions (cluster %llu of %llu); every warp:",
                (unsigned long long)c->steps, (unsigned long long)c->cl.index + 1,
                (unsigned long long)c->plan->nclusters);
    if (!c->have_cl)
        return append(buf, len, at, "\n  (no cluster resident)");
    ip_cluster *cl = &c->cl;
    int total = 0, shown = 0;
    for (int i = 0; i < cl->ncta; i++)
        total += cl->ctas[i].nwarps;
    for (int i = 0; i < cl->ncta; i++) {
        ip_cta *t = &cl->ctas[i];
        for (int wi = 0; wi < t->nwarps; wi++, shown++) {
            if (at + 400 >= len) {
                return append(buf, len, at, "\n  ... and %d more warps", total - shown);
            }
            ip_warp *w = &t->warps[wi];
            uint32_t done = w->exited | ~w->valid;
            if (done == 0xffffffffu) {
                at = append(buf, len, at, "\n  CTA (%u,%u,%u) warp %d: exited", t->ctaid[0], t->ctaid[1],
                            t->ctaid[2], w->id);
                continue;
            }
            while (done != 0xffffffffu) {
                int l0 = __builtin_ctz(~done);
                uint32_t grp = 0;
                for (int ln = l0; ln < w->nlanes; ln++)
                    if (!(done >> ln & 1) && w->st[ln] == w->st[l0] && w->pc[ln] == w->pc[l0] &&
                        w->fr[ln] == w->fr[l0] && (w->polling >> ln & 1) == (w->polling >> l0 & 1))
                        grp |= 1u << ln;
                if (!grp)
                    break;
                done |= grp;
                int st = (w->polling >> l0 & 1) ? INTERP_T_MBAR_POLL : w->st[l0];
                char where[400];
                interp_where(c, w->frames[w->fr[l0]].func, w->pc[l0], where, sizeof where);
                at = append(buf, len, at, "\n  CTA (%u,%u,%u) warp %d lanes 0x%08x: %s at %s", t->ctaid[0],
                            t->ctaid[1], t->ctaid[2], w->id, grp, state_name(st), where);
            }
        }
    }
    return at;
}

int ip_error(interp_ctx *c, int status, const ip_warp *w, int lane, int func, uint32_t pc,
             const char *fmt, ...)
{
    if (c->res.status != INTERP_OK)
        return c->res.status;
    char *buf = c->res.msg;
    size_t len = sizeof c->res.msg, at = 0;
    static const char *const kind[] = { "ok", "fault", "deadlock", "not supported", "trap",
                                        "launch error", "step limit", "interrupted" };
    at = append(buf, len, at, "%s: ", kind[status]);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
    if (n > 0)
        at = at + (size_t)n >= len ? len - 1 : at + (size_t)n;
    if (w) {
        at = append(buf, len, at, "\n  by ");
        at = who(c, w, lane, buf, len, at);
    }
    if (func >= 0) {
        char where[512];
        interp_where(c, func, pc, where, sizeof where);
        at = append(buf, len, at, "\n  at %s", where);
    }
    if (status == INTERP_STEP_LIMIT || status == INTERP_INTERRUPTED)
        at = warp_report(c, buf, len, at);
    c->res.status = status;
    c->err_cluster = c->cl.index;
    c->finished = true;
    if (c->shared_stop) {
        uint64_t cur = __atomic_load_n(c->shared_stop, __ATOMIC_SEQ_CST);
        while (c->cl.index < cur &&
               !__atomic_compare_exchange_n(c->shared_stop, &cur, c->cl.index, false,
                                            __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            ;
    }
    return status;
}

/* ---- barriers ------------------------------------------------------------------ */

void ip_bar_check(interp_ctx *c, ip_cta *t, int id)
{
    ip_bar *b = &t->bar[id];
    if (!b->arrived)
        return;
    uint32_t need = b->expected ? b->expected : t->live;
    if (b->arrived < need)
        return;
    uint32_t result = 0;
    switch (b->red_op) {
    case IR_M_OP_POPC: result = b->red_popc; break;
    case IR_M_AND: result = b->red_and; break;
    case IR_M_OR: result = b->red_or; break;
    default: break;
    }
    if (c->ck)
        ip_ck_bar_release(c, t, id);
    for (int wi = 0; wi < t->nwarps; wi++) {
        ip_warp *w = &t->warps[wi];
        for (int ln = 0; ln < w->nlanes; ln++) {
            if (w->st[ln] != INTERP_T_BAR || w->wait[ln] != (uint64_t)id)
                continue;
            w->st[ln] = INTERP_T_READY;
            if (b->red_op && w->wait_aux[ln] != UINT32_MAX) {
                ip_frame *f = ip_lane_frame(w, ln);
                uint32_t slot = w->wait_aux[ln];
                uint64_t v = result;
                if (slot < f->nregs)
                    f->regs[slot * IP_WARP + (unsigned)ln] = v & c->plan->regmask[f->func][slot];
            }
        }
    }
    memset(b, 0, sizeof *b);
    c->effects++;
}

void ip_cbar_check(interp_ctx *c)
{
    ip_cluster *cl = &c->cl;
    if (!cl->cbar_arrived || cl->cbar_arrived < cl->live)
        return;
    cl->cbar_phase++;
    cl->cbar_arrived = 0;
    if (c->ck)
        ip_ck_cbar_release(c);
    for (int i = 0; i < cl->ncta; i++) {
        ip_cta *t = &cl->ctas[i];
        for (int wi = 0; wi < t->nwarps; wi++) {
            ip_warp *w = &t->warps[wi];
            for (int ln = 0; ln < w->nlanes; ln++)
                if (w->st[ln] == INTERP_T_CLUSTER_BAR && w->cbar_phase[ln] <= cl->cbar_phase) {
                    w->st[ln] = INTERP_T_READY;
                    w->cbar_phase[ln] = 0;
                }
        }
    }
    c->effects++;
}

void ip_thread_exit(interp_ctx *c, ip_warp *w, int lane)
{
    if (w->st[lane] == INTERP_T_EXITED)
        return;
    if (c->ck)
        ip_ck_exit(c, w, lane);    /* a report stops the run; the exit still happens */
    w->st[lane] = INTERP_T_EXITED;
    w->exited |= 1u << lane;
    w->polling &= ~(1u << lane);
    ip_cta *t = w->cta;
    t->live--;
    t->cl->live--;
    c->effects++;
    for (int b = 0; b < IP_NBAR; b++)
        ip_bar_check(c, t, b);
    ip_cbar_check(c);
    /* warps of its warpgroup waiting for a wgmma this warp never issued
     * re-check (wgmma.c reports it) */
    if (t->wg && (w->exited & w->valid) == w->valid)
        for (int k = w->id / 4 * 4; k < w->id / 4 * 4 + 4 && k < t->nwarps; k++)
            for (int ln = 0; ln < t->warps[k].nlanes; ln++)
                if (t->warps[k].st[ln] == INTERP_T_BULK_WAIT)
                    t->warps[k].st[ln] = INTERP_T_READY;
}

/* ---- group selection ------------------------------------------------------------- */

/* Runs before every warp instruction: byte compares over the 32 states. */
static uint32_t ready_mask(const ip_warp *w)
{
#ifdef __SSE2__
    const __m128i r = _mm_set1_epi8(INTERP_T_READY);
    __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)w->st);
    __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(w->st + 16));
    uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, r)) |
                 (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, r)) << 16;
    return m & w->valid;
#else
    uint32_t m = 0;
    for (int ln = 0; ln < w->nlanes; ln++)
        m |= (uint32_t)(w->st[ln] == INTERP_T_READY) << ln;
    return m;
#endif
}

/* The lanes of w at frame fr, instruction pc. */
static uint32_t lanes_at(const ip_warp *w, uint16_t fr, uint32_t pc)
{
#ifdef __SSE2__
    const __m128i P = _mm_set1_epi32((int)pc), F = _mm_set1_epi16((short)fr);
    uint32_t mp = 0, mf = 0;
    for (int i = 0; i < IP_WARP; i += 16) {
        const __m128i *q = (const __m128i *)(const void *)(w->pc + i);
        __m128i a = _mm_cmpeq_epi32(_mm_loadu_si128(q), P), b = _mm_cmpeq_epi32(_mm_loadu_si128(q + 1), P);
        __m128i c = _mm_cmpeq_epi32(_mm_loadu_si128(q + 2), P), d = _mm_cmpeq_epi32(_mm_loadu_si128(q + 3), P);
        __m128i ab = _mm_packs_epi32(a, b), cd = _mm_packs_epi32(c, d);
        mp |= (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(ab, cd)) << i;
        const __m128i *h = (const __m128i *)(const void *)(w->fr + i);
        __m128i e = _mm_cmpeq_epi16(_mm_loadu_si128(h), F), f = _mm_cmpeq_epi16(_mm_loadu_si128(h + 1), F);
        mf |= (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(e, f)) << i;
    }
    return mp & mf;
#else
    uint32_t m = 0;
    for (int ln = 0; ln < IP_WARP; ln++)
        m |= (uint32_t)(w->pc[ln] == pc && w->fr[ln] == fr) << ln;
    return m;
#endif
}

/* ---- aligned instructions: convergence ------------------------------------------- */

static bool instr_aligned(const interp_ctx *c, int func, uint32_t pc)
{
    const ir_function *fn = ip_func(c, func);
    if (pc >= fn->ninstrs)
        return false;
    const ir_instr *in = &fn->instrs[pc];
    for (int i = 0; i < in->nmods; i++)
        if (in->mods[i] == IR_M_ALIGNED)
            return true;
    return false;
}

/* Before group *g executes: if its instruction is .aligned and live lanes
 * of the warp are neither here nor parked elsewhere, park the group
 * (returns true: do not execute now).  Otherwise unpark the lanes waiting
 * here and execute with them; if the rest of the warp is parked at another
 * .aligned instruction, the warp diverged for good: unpark everyone and let
 * the instruction run with the lanes it has (its own check reports it). */
static bool converge_gate(interp_ctx *c, ip_warp *w, uint32_t *g)
{
    uint32_t live = w->valid & ~w->exited;
    if ((*g & live) == live)
        return false;
    int l0 = __builtin_ctz(*g);
    uint16_t fr = w->fr[l0];
    uint32_t pc = w->pc[l0];
    if (!instr_aligned(c, w->frames[fr].func, pc)) {
        /* bar.warp.sync (__syncwarp): the lanes of its membermask meet here */
        const ir_function *fn = ip_func(c, w->frames[fr].func);
        if (pc >= fn->ninstrs || fn->instrs[pc].op != IR_OP_BAR_WARP_SYNC)
            return false;
        live &= (uint32_t)ip_opd(c, w, &w->frames[fr], &fn->instrs[pc], 0, (uint32_t)l0);
        if ((*g & live) == live)
            return false;
    }
    uint32_t here = lanes_at(w, fr, pc) & live & ~w->polling & (*g | w->converging);
    uint32_t others = live & ~here;
    if (others & ~w->converging) {
        w->converging |= *g;
        w->conv_need |= live;
        return true;
    }
    w->converging = others ? 0 : w->converging & ~here;
    if (!w->converging)
        w->conv_need = 0;
    *g = here;
    return false;
}

/* Unpark lanes of w once nothing outside them can still arrive.  Lanes of
 * the warp that exited while others waited at an .aligned instruction never
 * execute it with them: the H100 waits for them forever (tests/launch/zoo,
 * tensormap.cp_fenceproxy by one lane); reported.  -1: the run stops. */
static int converge_release(interp_ctx *c, ip_warp *w)
{
    uint32_t live = w->valid & ~w->exited;
    w->converging &= live;
    if (w->converging && !(live & ~w->converging)) {
        /* every live lane is parked: at one instruction (they run together)
         * or at several (they diverged for good) */
        uint32_t gone = w->conv_need & ~live;
        if (gone) {
            int ln = __builtin_ctz(w->converging);
            int func = w->frames[w->fr[ln]].func;
            const ir_instr *in = &ip_func(c, func)->instrs[w->pc[ln]];
            ip_error(c, INTERP_FAULT, w, ln, func, w->pc[ln],
                     "[aligned-partial-warp]: %s%s executed by lanes 0x%08x of the warp while lanes 0x%08x "
                     "exited without executing it: every thread of the %s must (the GPU waits for them)",
                     ir_ops[in->op].name,
                     in->op == IR_OP_BAR_WARP_SYNC ? "" : ir_has(in, IR_M_SYNC) ? ".sync.aligned" : ".aligned",
                     w->converging, gone, in->op == IR_OP_BAR_WARP_SYNC ? "membermask" : "warp");
            return -1;
        }
        w->converging = 0;
        w->conv_need = 0;
    }
    return 0;
}

/* The lanes of `cand` sharing the deepest frame and, in it, the lowest PC. */
static uint32_t pick_group(const ip_warp *w, uint32_t cand)
{
    int best = -1;
    uint32_t bseq = 0, bpc = 0;
    for (uint32_t m = cand; m; m &= m - 1) {
        int ln = __builtin_ctz(m);
        uint32_t seq = w->frames[w->fr[ln]].seq, pc = w->pc[ln];
        if (best < 0 || seq > bseq || (seq == bseq && pc < bpc)) {
            best = ln;
            bseq = seq;
            bpc = pc;
        }
    }
    if (best < 0)
        return 0;
    uint32_t g = 0;
    uint16_t fr = w->fr[best];
    for (uint32_t m = cand; m; m &= m - 1) {
        int ln = __builtin_ctz(m);
        if (w->fr[ln] == fr && w->pc[ln] == bpc)
            g |= 1u << ln;
    }
    return g;
}

static uint64_t rng_next(interp_ctx *c)
{
    uint64_t x = c->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c->rng = x;
    return x;
}

/* ---- deadlock report --------------------------------------------------------------- */

static const char *state_name(int st)
{
    switch (st) {
    case INTERP_T_BAR: return "bar.sync";
    case INTERP_T_CLUSTER_BAR: return "barrier.cluster.wait";
    case INTERP_T_MBAR_POLL: return "mbarrier wait";
    case INTERP_T_BULK_WAIT: return "cp.async.bulk.wait_group";
    default: return "ready";
    }
}

static void deadlock(interp_ctx *c)
{
    char *buf = c->res.msg;
    size_t len = sizeof c->res.msg, at = 0;
    ip_cluster *cl = &c->cl;
    at = append(buf, len, at, "deadlock: every thread waits and nothing in flight can wake one");
    uint32_t seen[16][2];      /* mbarriers described so far: (CTA slot, offset) */
    int nseen = 0;
    for (int i = 0; i < cl->ncta; i++) {
        ip_cta *t = &cl->ctas[i];
        for (int wi = 0; wi < t->nwarps; wi++) {
            ip_warp *w = &t->warps[wi];
            uint32_t done = w->exited | ~w->valid;
            while (done != 0xffffffffu) {
                int l0 = __builtin_ctz(~done);
                uint32_t grp = 0;
                for (int ln = l0; ln < w->nlanes; ln++)
                    if (!(done >> ln & 1) && w->st[ln] == w->st[l0] && w->pc[ln] == w->pc[l0] &&
                        w->fr[ln] == w->fr[l0] && w->wait[ln] == w->wait[l0] &&
                        (w->polling >> ln & 1) == (w->polling >> l0 & 1) &&
                        (w->converging >> ln & 1) == (w->converging >> l0 & 1))
                        grp |= 1u << ln;
                done |= grp;
                int st = (w->polling >> l0 & 1) ? INTERP_T_MBAR_POLL : w->st[l0];
                bool conv = w->converging >> l0 & 1;
                int func = w->frames[w->fr[l0]].func;
                uint32_t pc = w->pc[l0];
                /* a poller is parked after its wait, a thread at bar.sync or
                 * barrier.cluster.wait after the barrier: name the wait itself */
                if ((st == INTERP_T_MBAR_POLL || st == INTERP_T_BAR || st == INTERP_T_CLUSTER_BAR) && pc > 0)
                    pc--;
                char where[400];
                interp_where(c, func, pc, where, sizeof where);
                at = append(buf, len, at, "\n  CTA (%u,%u,%u) warp %d lanes 0x%08x: %s at %s",
                            t->ctaid[0], t->ctaid[1], t->ctaid[2], w->id, grp,
                            conv ? "waiting for the rest of its warp at an .aligned instruction" : state_name(st),
                            where);
                if (st == INTERP_T_BAR) {
                    ip_bar *b = &t->bar[w->wait[l0] & 15];
                    at = append(buf, len, at, "\n      barrier %u: %u of %u threads arrived",
                                (unsigned)w->wait[l0], b->arrived, b->expected ? b->expected : t->live);
                    if (b->expected > t->live)
                        at = append(buf, len, at, "; the count %u is more than the %u thread(s) of the CTA that "
                                    "have not exited: it names threads that will never arrive (the count of a "
                                    "named barrier counts every thread that syncs on it, in whole warps)",
                                    b->expected, t->live);
                } else if (st == INTERP_T_CLUSTER_BAR) {
                    at = append(buf, len, at, "\n      cluster barrier: %u of %u threads arrived",
                                cl->cbar_arrived, cl->live);
                } else if (st == INTERP_T_MBAR_POLL) {
                    int oc = w->wait_cta[l0];
                    uint32_t off = (uint32_t)w->wait[l0];
                    uint64_t word = 0;
                    if (oc >= 0 && oc < cl->ncta && off + 8 <= cl->ctas[oc].smem_size)
                        memcpy(&word, cl->ctas[oc].smem + off, 8);
                    /* a barrier's state and landings once; later waiters refer to it */
                    bool again = false;
                    for (int k = 0; k < nseen; k++)
                        again |= seen[k][0] == (uint32_t)oc && seen[k][1] == off;
                    if (!again && nseen < 16) {
                        seen[nseen][0] = (uint32_t)oc;
                        seen[nseen++][1] = off;
                    }
                    char mbs[160];
                    if (again)
                        at = append(buf, len, at, "\n      mbarrier at shared 0x%x (CTA rank %d), as above; waits "
                                    "for the phase with parity %u to complete", off, oc, w->wait_aux[l0] & 1);
                    else
                        at = append(buf, len, at,
                                    "\n      mbarrier at shared 0x%x (CTA rank %d): %s%s; waits for "
                                    "the phase with parity %u to complete",
                                    off, oc, word >> 62 & 1 ? "initialised, " : "",
                                    ip_mbar_describe(word, mbs, sizeof mbs), w->wait_aux[l0] & 1);
                    char hist[2048];
                    ip_ck_describe_missed(c, w, oc, off, w->wait_aux[l0], "      ", hist, sizeof hist);
                    at = append(buf, len, at, "%s", hist);
                    if (!again) {
                        ip_ck_describe_mbar(c, oc, off, "      ", hist, sizeof hist);
                        at = append(buf, len, at, "%s", hist);
                        ip_async_landed_on(c, oc, off, "      ", hist, sizeof hist);
                        at = append(buf, len, at, "%s", hist);
                    }
                }
            }
        }
    }
    char others[1024];
    ip_ck_deadlock_others(c, (const uint32_t (*)[2])seen, nseen, others, sizeof others);
    at = append(buf, len, at, "%s", others);
    if (c->nops == 0)
        at = append(buf, len, at, "\n  no asynchronous operation in flight");
    for (int i = 0; i < c->nops; i++) {
        char d[512];
        interp_inflight_describe(c, i, d, sizeof d);
        at = append(buf, len, at, "\n  in flight: %s", d);
    }
    c->res.status = INTERP_DEADLOCK;
    c->err_cluster = cl->index;
    c->finished = true;
    if (c->shared_stop) {
        uint64_t cur = __atomic_load_n(c->shared_stop, __ATOMIC_SEQ_CST);
        while (cl->index < cur &&
               !__atomic_compare_exchange_n(c->shared_stop, &cur, cl->index, false,
                                            __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            ;
    }
}

/* Is poller (w, ln)'s barrier phase complete now? */
static bool poll_satisfied(const interp_ctx *c, const ip_warp *w, int ln)
{
    int oc = w->wait_cta[ln];
    uint32_t off = (uint32_t)w->wait[ln];
    if (oc < 0 || oc >= c->cl.ncta || off + 8 > c->cl.ctas[oc].smem_size)
        return true;
    uint64_t word;
    memcpy(&word, c->cl.ctas[oc].smem + off, 8);
    return ip_mbar_test(word, true, w->wait_aux[ln]);
}

/* ---- stepping ------------------------------------------------------------------------ */

static bool start_next_cluster(interp_ctx *c)
{
    uint64_t idx;
    if (c->shared_next) {
        idx = __atomic_fetch_add(c->shared_next, 1, __ATOMIC_SEQ_CST);
        if (idx >= __atomic_load_n(c->shared_stop, __ATOMIC_SEQ_CST))
            return false;
    } else {
        idx = c->next_cluster++;
    }
    if (idx >= c->plan->nclusters) {
        /* a context of its own (the step API): the grid-wide check now */
        if (c->gw && !c->gw_defer && c->res.status == INTERP_OK) {
            interp_ctx *one = c;
            uint64_t f = ip_gw_finish(&one, 1, UINT64_MAX, &c->res);
            if (f != UINT64_MAX)
                c->err_cluster = f;
        }
        return false;
    }
    if (c->plan->launch.progress)
        __atomic_fetch_add(c->plan->launch.progress, 1, __ATOMIC_RELAXED);
    if (!ip_cluster_start(c, idx)) {
        ip_error(c, INTERP_LAUNCH_ERROR, NULL, 0, -1, 0, "out of memory creating cluster %llu",
                 (unsigned long long)idx);
        return false;
    }
    return true;
}

static void ev_clear(interp_event *ev, int kind)
{
    ev->kind = kind;
    ev->cta = -1;
    ev->warp = -1;
    ev->lanes = 0;
    ev->func = -1;
    ev->pc = 0;
    ev->op = -1;
}

static int finish_event(interp_ctx *c, interp_event *ev)
{
    ev_clear(ev, c->res.status == INTERP_OK ? INTERP_EV_DONE : INTERP_EV_ERROR);
    c->finished = true;
    return ev->kind;
}

/* Execute one instruction of warp w among the lanes of `cand`. */
static int run_warp(interp_ctx *c, ip_warp *w, uint32_t cand, interp_event *ev)
{
    uint32_t g = pick_group(w, cand);
    if (converge_gate(c, w, &g)) {
        ev_clear(ev, INTERP_EV_NONE);
        return ev->kind;
    }
    int ln = __builtin_ctz(g);
    ip_frame *f = ip_lane_frame(w, ln);
    ev_clear(ev, INTERP_EV_NONE);
    ev->cta = w->cta->slot;
    ev->warp = w->id;
    ev->lanes = g;
    ev->func = f->func;
    ev->pc = w->pc[ln];
    if (c->bp && c->bp[f->func] && c->bp[f->func][w->pc[ln]]) {
        if (!w->break_skip) {
            w->break_skip = true;
            ev->kind = INTERP_EV_BREAK;
            return ev->kind;
        }
    }
    w->break_skip = false;
    if (c->plan->launch.max_steps && c->steps >= c->plan->launch.max_steps) {
        ip_error(c, INTERP_STEP_LIMIT, w, ln, f->func, w->pc[ln],
                 "the launch's step limit (%llu warp instructions) was reached",
                 (unsigned long long)c->plan->launch.max_steps);
        return finish_event(c, ev);
    }
    c->steps++;
    c->thread_instrs += (uint64_t)__builtin_popcount(g);
    c->cl.clock++;
    if (ip_exec(c, w, g) != 0)
        return finish_event(c, ev);
    if (c->watch_hit) {
        c->watch_hit = false;
        ev->kind = INTERP_EV_WATCH;
    }
    return ev->kind;
}

/* interp_run's version of run_warp (c->fast: no breakpoints, watchpoints
 * or debugger): warp w keeps running for the rest of its quantum, exactly
 * the instructions sched_step would have given it one call at a time, but
 * without going back through the scheduler and re-deriving the group per
 * instruction.  While the group is the whole of the warp's runnable lanes
 * and an instruction moves it on as one (ip_exec_fast returns 0), the next
 * group is the same lanes; otherwise it is looked up again. */
static int run_burst(interp_ctx *c, ip_warp *w, uint32_t busy, interp_event *ev)
{
    const uint64_t max = c->plan->launch.max_steps;
    const bool random = c->plan->launch.policy == INTERP_COMPLETE_RANDOM;
    uint32_t g = pick_group(w, busy);
    for (;;) {
        /* a converged warp runs its uops in one loop (not while the random
         * policy may land an operation before any instruction) */
        if (g == busy && !(random && c->nops)) {
            uint64_t budget = (uint64_t)(IP_QUANTUM - c->quantum);
            if (max)
                budget = c->steps >= max ? 0 : max - c->steps < budget ? max - c->steps : budget;
            bool diverged = false;
            uint32_t k = budget ? ip_run_uops(c, w, g, (uint32_t)budget, &diverged) : 0;
            if (k) {
                c->quantum += (int)k;
                c->steps += k;
                c->cl.clock += k;
                c->thread_instrs += (uint64_t)k * (g == 0xffffffffu ? 32u : (uint64_t)__builtin_popcount(g));
                if (c->quantum >= IP_QUANTUM)
                    break;
                if (diverged) {
                    g = pick_group(w, busy);
                    continue;
                }
            }
            /* stopped before an instruction only the general path runs */
        }
        if ((w->valid & ~w->exited & ~g) && converge_gate(c, w, &g)) {
            busy = ready_mask(w) & ~w->polling & ~w->converging;
            if (!busy)
                break;
            g = pick_group(w, busy);
            continue;
        }
        busy |= g;
        c->quantum++;
        if (max && c->steps >= max) {
            int ln = __builtin_ctz(g);
            ip_error(c, INTERP_STEP_LIMIT, w, ln, ip_lane_frame(w, ln)->func, w->pc[ln],
                     "the launch's step limit (%llu warp instructions) was reached",
                     (unsigned long long)max);
            return finish_event(c, ev);
        }
        c->steps++;
        /* (popcount is a library call without -mpopcnt) */
        c->thread_instrs += g == 0xffffffffu ? 32u : (uint64_t)__builtin_popcount(g);
        c->cl.clock++;
        int r = ip_exec_fast(c, w, g);
        if (r < 0)
            return finish_event(c, ev);
        if (c->quantum >= IP_QUANTUM || (random && c->nops))
            break;
        uint32_t nb = ready_mask(w) & ~w->polling & ~w->converging;
        if (!nb)
            break;
        if (r == 0 && g == busy && nb == busy)
            continue;
        busy = nb;
        int l0 = __builtin_ctz(nb);
        g = (nb & ~lanes_at(w, w->fr[l0], w->pc[l0])) ? pick_group(w, nb) : nb;
    }
    ev_clear(ev, INTERP_EV_NONE);
    return ev->kind;
}

static int land_one(interp_ctx *c, int i, interp_event *ev)
{
    ev_clear(ev, INTERP_EV_LANDED);
    ev->op = c->ops[i].id;
    ev->func = c->ops[i].func;
    ev->pc = c->ops[i].pc;
    ev->cta = c->ops[i].cta;
    ev->warp = c->ops[i].warp;
    if (ip_async_land(c, i) != 0)
        return finish_event(c, ev);
    /* threads waiting for bulk groups re-check */
    ip_cluster *cl = &c->cl;
    for (int t = 0; t < cl->ncta; t++)
        for (int wi = 0; wi < cl->ctas[t].nwarps; wi++) {
            ip_warp *w = &cl->ctas[t].warps[wi];
            for (int ln = 0; ln < w->nlanes; ln++)
                if (w->st[ln] == INTERP_T_BULK_WAIT)
                    w->st[ln] = INTERP_T_READY;
        }
    return ev->kind;
}

static int sched_step(interp_ctx *c, interp_event *ev)
{
    if (c->finished)
        return finish_event(c, ev);
    if (c->plan->launch.stop && *c->plan->launch.stop) {
        int why = *c->plan->launch.stop;
        ip_error(c, INTERP_INTERRUPTED, NULL, 0, -1, 0, "%s",
                 why == INTERP_STOP_SIGNAL ? "interrupt signal (Ctrl-C)"
                 : why == INTERP_STOP_TIMEOUT ? "time limit reached"
                 : "by request (Ctrl-C, or the program's ptxi_launch_interrupt)");
        return finish_event(c, ev);
    }
    if (!c->have_cl) {
        if (c->plan->err[0]) {
            ip_error(c, INTERP_LAUNCH_ERROR, NULL, 0, -1, 0, "%s", c->plan->err);
            return finish_event(c, ev);
        }
        if (!start_next_cluster(c))
            return finish_event(c, ev);
    }
    ip_cluster *cl = &c->cl;
    if (c->plan->launch.policy == INTERP_COMPLETE_RANDOM && c->nops && (rng_next(c) & 7) == 0)
        return land_one(c, (int)(rng_next(c) % (uint64_t)c->nops), ev);
    for (int pass = 0; pass < 4; pass++) {
        /* current warp keeps its turn for a quantum */
        int nw = (int)c->plan->nwarps, total = cl->ncta * nw;
        for (int k = 0; k <= total; k++) {
            if (k > 0 || c->quantum >= IP_QUANTUM) {
                c->quantum = 0;
                if (++c->cur_warp >= nw) {
                    c->cur_warp = 0;
                    if (++c->cur_cta >= cl->ncta)
                        c->cur_cta = 0;
                }
            }
            ip_warp *w = &cl->ctas[c->cur_cta].warps[c->cur_warp];
            if (w->converging && converge_release(c, w))
                return finish_event(c, ev);
            uint32_t busy = ready_mask(w) & ~w->polling & ~w->converging;
            if (busy) {
                if (c->fast)
                    return run_burst(c, w, busy, ev);
                c->quantum++;
                return run_warp(c, w, busy, ev);
            }
        }
        /* nothing runnable but pollers and waiters */
        if (c->nops) {
            int i = c->plan->launch.policy == INTERP_COMPLETE_RANDOM
                        ? (int)(rng_next(c) % (uint64_t)c->nops) : 0;
            return land_one(c, i, ev);
        }
        if (cl->live == 0) {
            if (c->gw)
                ip_gw_cluster_end(c);
            ip_cluster_free(c);
            if (!start_next_cluster(c))
                return finish_event(c, ev);
            ev_clear(ev, INTERP_EV_NONE);
            return ev->kind;
        }
        bool any_poller = false, woke = false;
        for (int t = 0; t < cl->ncta; t++)
            for (int wi = 0; wi < nw; wi++) {
                ip_warp *w = &cl->ctas[t].warps[wi];
                for (uint32_t m = w->polling; m; m &= m - 1) {
                    int ln = __builtin_ctz(m);
                    any_poller = true;
                    if (poll_satisfied(c, w, ln)) {
                        /* rewind to the wait, which now succeeds: the thread
                         * was merely slow to reach it, so a %clock64 bound
                         * checked after the failed wait cannot expire while
                         * other warps ran or the copy was in flight (a
                         * kernel that ignores the wait's result is found by
                         * the checker instead: interp/hooks.c) */
                        w->polling &= ~(1u << ln);
                        w->pc[ln]--;
                        woke = true;
                    }
                }
            }
        if (woke)
            continue;
        if (any_poller && (!c->idle_repolled || c->effects != c->idle_effects)) {
            c->idle_repolled = true;
            c->idle_effects = c->effects;
            for (int t = 0; t < cl->ncta; t++)
                for (int wi = 0; wi < nw; wi++)
                    cl->ctas[t].warps[wi].polling = 0;
            continue;
        }
        deadlock(c);
        return finish_event(c, ev);
    }
    ev_clear(ev, INTERP_EV_NONE);
    return ev->kind;
}

int interp_step(interp_ctx *c, interp_event *ev)
{
    return sched_step(c, ev);
}

int interp_step_warp(interp_ctx *c, int cta, int warp, interp_event *ev)
{
    ev_clear(ev, INTERP_EV_NONE);
    if (c->finished)
        return finish_event(c, ev);
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta || warp < 0 || warp >= c->cl.ctas[cta].nwarps)
        return ev->kind;
    ip_warp *w = &c->cl.ctas[cta].warps[warp];
    uint32_t r = ready_mask(w);
    uint32_t busy = r & ~w->polling;
    if (!busy)
        busy = r;
    if (!busy)
        return ev->kind;
    w->polling &= ~busy;
    return run_warp(c, w, busy, ev);
}

int interp_run_until(interp_ctx *c, uint64_t max_steps, bool stop_on_land, interp_event *ev)
{
    for (uint64_t n = 0; !max_steps || n < max_steps; n++) {
        int k = sched_step(c, ev);
        if (k == INTERP_EV_NONE || (k == INTERP_EV_LANDED && !stop_on_land))
            continue;
        return k;
    }
    return ev->kind;
}

/* Run to the end (interp_run's workers). */
int ip_ctx_run(interp_ctx *c)
{
    interp_event ev;
    for (;;) {
        int k = sched_step(c, &ev);
        if (k == INTERP_EV_DONE || k == INTERP_EV_ERROR)
            break;
        if (k == INTERP_EV_BREAK) {   /* no breakpoints outside the debugger */
            continue;
        }
    }
    return c->res.status;
}

/* ---- step API: lifetime ---------------------------------------------------------------- */

interp_ctx *interp_new(const interp_launch *l)
{
    ip_plan *p = ip_plan_new(l);
    if (!p)
        return NULL;
    interp_ctx *c = ip_ctx_new(p);
    if (!c) {
        ip_plan_free(p);
        return NULL;
    }
    c->own_plan = true;
    return c;
}

void interp_free(interp_ctx *c)
{
    if (!c)
        return;
    ip_cluster_free(c);
    ip_ck_free(c);
    ip_async_ctx_free(c);
    ip_wgmma_ctx_free(c);
    if (c->bp) {
        for (uint32_t f = 0; f < c->plan->mod->nfuncs; f++)
            free(c->bp[f]);
        free(c->bp);
    }
    if (c->own_plan)
        ip_plan_free(c->plan);
    free(c);
}

const interp_result *interp_get_result(const interp_ctx *c)
{
    return &c->res;
}

bool interp_finished(const interp_ctx *c)
{
    return c->finished;
}

int interp_break_add(interp_ctx *c, int func, uint32_t pc)
{
    const ir_module *m = c->plan->mod;
    if (!m || func < 0 || (uint32_t)func >= m->nfuncs || pc >= m->funcs[func].ninstrs)
        return -1;
    if (!c->bp) {
        c->bp = calloc(m->nfuncs, sizeof *c->bp);
        if (!c->bp)
            return -1;
    }
    if (!c->bp[func]) {
        c->bp[func] = calloc(m->funcs[func].ninstrs + 1, 1);
        if (!c->bp[func])
            return -1;
    }
    c->bp[func][pc] = 1;
    return func * 1000000 + (int)pc;
}

void interp_break_del(interp_ctx *c, int id)
{
    if (id < 0 || !c->bp)
        return;
    int func = id / 1000000;
    uint32_t pc = (uint32_t)(id % 1000000);
    if ((uint32_t)func < c->plan->mod->nfuncs && c->bp[func] && pc < c->plan->mod->funcs[func].ninstrs)
        c->bp[func][pc] = 0;
}

int interp_watch_add(interp_ctx *c, uint64_t addr, uint64_t len)
{
    for (int i = 0; i < 16; i++)
        if (!c->watch[i].used) {
            c->watch[i].used = true;
            c->watch[i].addr = addr;
            c->watch[i].len = len;
            return i;
        }
    return -1;
}

void interp_watch_del(interp_ctx *c, int id)
{
    if (id >= 0 && id < 16)
        c->watch[id].used = false;
}

void ip_note_write(interp_ctx *c, uint64_t a, uint64_t n)
{
    c->effects++;
    for (int i = 0; i < 16; i++)
        if (c->watch[i].used && a < c->watch[i].addr + c->watch[i].len && c->watch[i].addr < a + n)
            c->watch_hit = true;
}

/* ---- inspection -------------------------------------------------------------------------- */

const interp_launch *interp_get_launch(const interp_ctx *c) { return &c->plan->launch; }
uint64_t interp_clock(const interp_ctx *c) { return c->steps; }
int interp_ncta(const interp_ctx *c) { return c->have_cl ? c->cl.ncta : 0; }

int interp_cta_get(const interp_ctx *c, int cta, interp_cta_info *out)
{
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta)
        return -1;
    const ip_cta *t = &c->cl.ctas[cta];
    memset(out, 0, sizeof *out);
    for (int d = 0; d < 3; d++) {
        out->ctaid[d] = t->ctaid[d];
        out->cluster_id[d] = c->cl.id[d];
    }
    out->cluster_rank = (uint32_t)t->slot;
    out->nwarps = t->nwarps;
    out->done = t->live == 0;
    out->smem = t->smem;
    out->smem_size = t->smem_size;
    out->dyn_smem_base = c->plan->dyn_base;
    return 0;
}

int interp_warp_get(const interp_ctx *c, int cta, int warp, interp_warp_info *out)
{
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta || warp < 0 || warp >= c->cl.ctas[cta].nwarps)
        return -1;
    const ip_warp *w = &c->cl.ctas[cta].warps[warp];
    memset(out, 0, sizeof *out);
    out->nlanes = w->nlanes;
    out->exited = w->exited;
    for (int ln = 0; ln < IP_WARP; ln++) {
        const ip_frame *f = &w->frames[w->fr[ln]];
        out->func[ln] = f->func;
        out->pc[ln] = w->pc[ln];
        int st = w->st[ln];
        if (st == INTERP_T_READY && (w->polling >> ln & 1))
            st = INTERP_T_MBAR_POLL;
        out->state[ln] = (uint8_t)st;
        out->wait_addr[ln] = w->wait[ln];
        int d = 0;
        for (int p = f->parent; p >= 0; p = w->frames[p].parent)
            d++;
        out->depth[ln] = d;
        if (st == INTERP_T_READY)
            out->ready |= 1u << ln;
        else if (st != INTERP_T_EXITED && st != INTERP_T_INACTIVE)
            out->blocked |= 1u << ln;
    }
    return 0;
}

bool interp_reg_get(const interp_ctx *c, int cta, int warp, int lane, uint32_t slot, uint64_t *val)
{
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta || warp < 0 || warp >= c->cl.ctas[cta].nwarps ||
        lane < 0 || lane >= IP_WARP)
        return false;
    const ip_warp *w = &c->cl.ctas[cta].warps[warp];
    const ip_frame *f = &w->frames[w->fr[lane]];
    if (slot >= f->nregs)
        return false;
    *val = f->regs[slot * IP_WARP + (unsigned)lane];
    return true;
}

bool interp_reg_set(interp_ctx *c, int cta, int warp, int lane, uint32_t slot, uint64_t val)
{
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta || warp < 0 || warp >= c->cl.ctas[cta].nwarps ||
        lane < 0 || lane >= IP_WARP)
        return false;
    ip_warp *w = &c->cl.ctas[cta].warps[warp];
    ip_frame *f = &w->frames[w->fr[lane]];
    if (slot >= f->nregs)
        return false;
    f->regs[slot * IP_WARP + (unsigned)lane] = val & c->plan->regmask[f->func][slot];
    return true;
}

/* Only a .b128 register owns its high-half slot (ip_hi_slot). */
static bool reg_is_b128(const interp_ctx *c, const ip_frame *f, uint32_t slot)
{
    return ir_types[ip_func(c, f->func)->regs[slot].type].bits > 64;
}

bool interp_reg_get128(const interp_ctx *c, int cta, int warp, int lane, uint32_t slot, uint64_t *lo,
                       uint64_t *hi)
{
    if (!interp_reg_get(c, cta, warp, lane, slot, lo))
        return false;
    ip_frame *f = ip_lane_frame(&c->cl.ctas[cta].warps[warp], lane);
    const uint64_t *h = reg_is_b128(c, f, slot) ? ip_hi_ref(c, f, slot, (uint32_t)lane) : NULL;
    *hi = h ? *h : 0;
    return true;
}

bool interp_reg_set128(interp_ctx *c, int cta, int warp, int lane, uint32_t slot, uint64_t lo, uint64_t hi)
{
    if (!interp_reg_set(c, cta, warp, lane, slot, lo))
        return false;
    ip_frame *f = ip_lane_frame(&c->cl.ctas[cta].warps[warp], lane);
    uint64_t *h = reg_is_b128(c, f, slot) ? ip_hi_ref(c, f, slot, (uint32_t)lane) : NULL;
    if (h)
        *h = hi;
    return true;
}

bool interp_mem_read(const interp_ctx *c, int cta, int warp, int lane, uint64_t a, void *buf, size_t n)
{
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta || warp < 0 || warp >= c->cl.ctas[cta].nwarps ||
        lane < 0 || lane >= IP_WARP)
        return false;
    const ip_cta *self = &c->cl.ctas[cta];
    const ip_warp *w = &self->warps[warp];
    switch (mem_generic_window(a)) {
    case MEM_WIN_SHARED: {
        int oc;
        uint32_t off;
        if (!ip_shared_decode(c, self, (uint32_t)(a - MEM_GENERIC_SHARED), &oc, &off))
            return false;
        if ((uint64_t)off + n > c->cl.ctas[oc].smem_size)
            return false;
        memcpy(buf, c->cl.ctas[oc].smem + off, n);
        return true;
    }
    case MEM_WIN_LOCAL: {
        uint64_t off = a - MEM_GENERIC_LOCAL;
        if (!w->local || off + n > IP_LOCAL_STACK)
            return false;
        memcpy(buf, w->local + (size_t)lane * IP_LOCAL_STACK + off, n);
        return true;
    }
    case MEM_WIN_PARAM: {
        uint64_t off = a - MEM_GENERIC_PARAM;
        if (off + n > c->plan->launch.params_size)
            return false;
        memcpy(buf, c->plan->launch.params + off, n);
        return true;
    }
    default: {
        uint8_t *h = mem_global_host(c->plan->launch.gmem, a, n);
        if (!h)
            return false;
        memcpy(buf, h, n);
        return true;
    }
    }
}

bool interp_mbar_get(const interp_ctx *c, int cta, uint32_t saddr, interp_mbar *out)
{
    if (!c->have_cl || cta < 0 || cta >= c->cl.ncta)
        return false;
    int oc;
    uint32_t off;
    if (!ip_shared_decode(c, &c->cl.ctas[cta], saddr, &oc, &off) || off + 8 > c->cl.ctas[oc].smem_size)
        return false;
    uint64_t word;
    memcpy(&word, c->cl.ctas[oc].smem + off, 8);
    interp_mbar_decode(word, out);
    return true;
}

int interp_ninflight(const interp_ctx *c) { return c->nops; }
