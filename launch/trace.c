/* trace.c — `--trace FILE.json`: a timeline of a launch in the Chrome
 * trace-event format, which Perfetto's UI (ui.perfetto.dev) and
 * chrome://tracing open.
 *
 * Time is the interpreter's clock: one warp instruction is one
 * microsecond ("ts" units), so the picture shows order and overlap, not
 * GPU cycles.  The layout:
 *   - one process per CTA ("CTA (x,y,z)"), one thread per warp: complete
 *     slices "run" (the warp has threads ready to run) and "wait ..." (every
 *     live thread waits: on an mbarrier phase, at bar.sync, at a bulk
 *     wait_group), from the state each warp is in after every step; each
 *     slice's "from" argument is the PTX (and CUDA) line it began at;
 *   - thread 0 of each CTA, "async copies / mbarriers": every TMA and bulk
 *     copy (and every wgmma.mma_async, category "wgmma", from the fourth
 *     warp's issue to its landing) as an async slice (ph b/e), a short
 *     "landed #N" slice at each landing (a chunk, under --complete=random),
 *     and an instant at each mbarrier phase completion;
 *   - flow arrows (ph s/f) from a landing to the start of the run slice of
 *     each warp whose mbarrier wait that landing's phase completion ended
 *     (none when a thread's arrive, not a copy, completed the phase).
 * The trace is written while the launch runs (slices when they close), so
 * memory stays bounded by what is open.  The warps are examined after every
 * step: tracing runs the step API on one host thread, slower than a plain
 * run, which is the price of the picture.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "launch/trace.h"

enum { W_NONE = 0, W_RUN, W_WAIT, W_EXITED };

typedef struct twarp {
    int state;
    uint64_t since;
    int func;              /* where the slice began (its "from" argument) */
    uint32_t pc;
    char what[96];         /* the wait's name */
    int mbar_cta;          /* an mbarrier wait: which (CTA slot, offset) */
    uint32_t mbar_off;
} twarp;

typedef struct tcta {
    uint32_t ctaid[3];
    int pid;
    twarp *w;
    int nw;
} tcta;

typedef struct top {       /* a copy in flight */
    int id;
    int pid;
    bool has_mbar;
    uint32_t mbar, mask;
    int cta;
    bool seen;
    bool wgmma;            /* a wgmma.mma_async, not a copy */
} top;

typedef struct tmbar {
    int cta;               /* CTA slot */
    int pid;
    uint32_t off;
    uint32_t phase;
    bool init;
    bool landed;           /* the last landing on it: when, on which CTA's track */
    uint64_t land_ts;
    int land_pid;
    bool done_by_land;     /* its latest phase completed at that landing */
} tmbar;

struct launch_trace {
    FILE *f;
    const ir_module *mod;
    uint32_t grid[3];
    bool first;
    tcta *ctas;            /* by resident slot, for the current cluster */
    int nctas;
    uint64_t cluster_key;
    top *ops;
    size_t nops, capops;
    tmbar *mb;
    size_t nmb, capmb;
    int next_flow;
    uint64_t nevents;
    bool *named;           /* pid (linear CTA) already named */
    uint64_t nnamed;
};

static void emit(launch_trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(launch_trace *t, const char *fmt, ...)
{
    va_list ap;
    fputs(t->first ? "\n" : ",\n", t->f);
    t->first = false;
    va_start(ap, fmt);
    vfprintf(t->f, fmt, ap);
    va_end(ap);
    t->nevents++;
}

/* s as a JSON string body (the names we build hold no control characters,
 * but a PTX path might hold a quote or backslash). */
static void jstr(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 3 < n; s++) {
        if (*s == '"' || *s == '\\')
            out[k++] = '\\';
        out[k++] = (unsigned char)*s < 32 ? ' ' : *s;
    }
    out[k] = 0;
}

static void where_json(launch_trace *t, int func, uint32_t pc, interp_ctx *c, char *out, size_t n)
{
    char w[512];
    interp_where(c, func, pc, w, sizeof w);
    (void)t;
    jstr(out, n, w);
}

launch_trace *launch_trace_open(const char *path, const interp_launch *l, char *err, size_t errlen)
{
    launch_trace *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->f = fopen(path, "w");
    if (!t->f) {
        snprintf(err, errlen, "--trace %s: %s", path, strerror(errno));
        free(t);
        return NULL;
    }
    t->mod = l->mod;
    memcpy(t->grid, l->grid, sizeof t->grid);
    t->nnamed = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    t->named = calloc(t->nnamed ? t->nnamed : 1, 1);
    t->first = true;
    t->cluster_key = UINT64_MAX;
    t->next_flow = 1;
    char k[256];
    jstr(k, sizeof k, l->entry->name);
    fprintf(t->f, "{\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"producer\": \"ptxi\", \"kernel\": \"%s\", "
            "\"clock\": \"1 us = 1 warp instruction (interpreter order, not GPU cycles)\"},\n\"traceEvents\": [", k);
    return t;
}

static int pid_of(const launch_trace *t, const uint32_t id[3])
{
    return (int)(id[0] + t->grid[0] * (id[1] + t->grid[1] * id[2])) + 1;
}

static void close_slice(launch_trace *t, interp_ctx *c, const tcta *tc, int w, uint64_t now)
{
    twarp *tw = &tc->w[w];
    if (tw->state != W_RUN && tw->state != W_WAIT)
        return;
    uint64_t dur = now > tw->since ? now - tw->since : 0;
    char at[600] = "";
    if (c && tw->func >= 0)
        where_json(t, tw->func, tw->pc, c, at, sizeof at);
    emit(t, "{\"ph\": \"X\", \"pid\": %d, \"tid\": %d, \"ts\": %" PRIu64 ", \"dur\": %" PRIu64
         ", \"name\": \"%s\", \"cat\": \"%s\", \"args\": {\"from\": \"%s\"}}",
         tc->pid, w + 1, tw->since, dur, tw->state == W_RUN ? "run" : tw->what,
         tw->state == W_RUN ? "run" : "wait", at);
}

/* The resident CTAs changed (a new cluster): close the old ones' slices. */
static void sync_ctas(launch_trace *t, interp_ctx *c, uint64_t now)
{
    int n = interp_ncta(c);
    interp_cta_info ci;
    uint64_t key = n > 0 && !interp_cta_get(c, 0, &ci)
                       ? ((uint64_t)ci.cluster_id[0] << 42 | (uint64_t)ci.cluster_id[1] << 21 | ci.cluster_id[2]) + 1
                       : 0;
    if (key == t->cluster_key && n == t->nctas)
        return;
    for (int i = 0; i < t->nctas; i++) {
        for (int w = 0; w < t->ctas[i].nw; w++)
            close_slice(t, c, &t->ctas[i], w, now);
        free(t->ctas[i].w);
    }
    free(t->ctas);
    t->ctas = NULL;
    t->nctas = 0;
    t->nmb = 0;   /* mbarriers live in the old cluster's shared memory */
    t->cluster_key = key;
    if (n <= 0)
        return;
    t->ctas = calloc((size_t)n, sizeof *t->ctas);
    if (!t->ctas)
        return;
    t->nctas = n;
    for (int i = 0; i < n; i++) {
        tcta *tc = &t->ctas[i];
        if (interp_cta_get(c, i, &ci))
            continue;
        memcpy(tc->ctaid, ci.ctaid, sizeof tc->ctaid);
        tc->pid = pid_of(t, ci.ctaid);
        tc->nw = ci.nwarps;
        tc->w = calloc((size_t)ci.nwarps, sizeof *tc->w);
        uint64_t lin = (uint64_t)tc->pid - 1;
        if (lin < t->nnamed && !t->named[lin]) {
            t->named[lin] = true;
            emit(t, "{\"ph\": \"M\", \"pid\": %d, \"name\": \"process_name\", \"args\": {\"name\": \"CTA (%u,%u,%u)\"}}",
                 tc->pid, ci.ctaid[0], ci.ctaid[1], ci.ctaid[2]);
            emit(t, "{\"ph\": \"M\", \"pid\": %d, \"name\": \"process_sort_index\", \"args\": {\"sort_index\": %d}}",
                 tc->pid, tc->pid);
            emit(t, "{\"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"name\": \"thread_name\", \"args\": {\"name\": "
                 "\"async copies / mbarriers\"}}", tc->pid);
            for (int w = 0; w < ci.nwarps; w++)
                emit(t, "{\"ph\": \"M\", \"pid\": %d, \"tid\": %d, \"name\": \"thread_name\", \"args\": {\"name\": "
                     "\"warp %d\"}}", tc->pid, w + 1, w);
        }
    }
}

static tmbar *mbar_find(launch_trace *t, int cta, uint32_t off, bool add)
{
    for (size_t i = 0; i < t->nmb; i++)
        if (t->mb[i].cta == cta && t->mb[i].off == off)
            return &t->mb[i];
    if (!add || cta < 0 || cta >= t->nctas)
        return NULL;
    if (t->nmb == t->capmb) {
        size_t cap = t->capmb ? t->capmb * 2 : 16;
        tmbar *nm = realloc(t->mb, cap * sizeof *nm);
        if (!nm)
            return NULL;
        t->mb = nm;
        t->capmb = cap;
    }
    tmbar *m = &t->mb[t->nmb++];
    memset(m, 0, sizeof *m);
    m->cta = cta;
    m->off = off;
    m->pid = t->ctas[cta].pid;
    return m;
}

/* What warp w of CTA slot cta is doing, as a state and a name. */
static int warp_state(interp_ctx *c, int cta, int w, char *what, size_t n, int *mcta, uint32_t *moff)
{
    interp_warp_info wi;
    if (interp_warp_get(c, cta, w, &wi))
        return W_NONE;
    if (wi.ready)
        return W_RUN;
    int live = -1;
    for (int l = 0; l < wi.nlanes && live < 0; l++)
        if (wi.state[l] != INTERP_T_EXITED && wi.state[l] != INTERP_T_INACTIVE)
            live = l;
    if (live < 0)
        return W_EXITED;
    interp_wait wt;
    if (!interp_lane_wait(c, cta, w, live, &wt))
        return W_RUN;
    *mcta = -1;
    switch (wt.state) {
    case INTERP_T_READY: return W_RUN;
    case INTERP_T_BAR: snprintf(what, n, "wait bar.sync %" PRIu64, wt.addr); break;
    case INTERP_T_CLUSTER_BAR: snprintf(what, n, "wait barrier.cluster"); break;
    case INTERP_T_MBAR_POLL:
        snprintf(what, n, "wait mbarrier smem 0x%" PRIx64 " parity %u", wt.addr, wt.parity);
        *mcta = wt.cta;
        *moff = (uint32_t)wt.addr;
        break;
    case INTERP_T_BULK_WAIT: snprintf(what, n, "wait cp.async.bulk.wait_group"); break;
    default: snprintf(what, n, "wait"); break;
    }
    return W_WAIT;
}

static void update_warps(launch_trace *t, interp_ctx *c, uint64_t now)
{
    for (int i = 0; i < t->nctas; i++) {
        tcta *tc = &t->ctas[i];
        for (int w = 0; w < tc->nw; w++) {
            twarp *tw = &tc->w[w];
            char what[96] = "";
            int mcta = -1;
            uint32_t moff = 0;
            int st = warp_state(c, i, w, what, sizeof what, &mcta, &moff);
            if (st == tw->state && (st != W_WAIT || !strcmp(what, tw->what)))
                continue;
            close_slice(t, c, tc, w, now);
            /* a wait on an mbarrier ends: the landing that completed its phase points here */
            if (tw->state == W_WAIT && tw->mbar_cta >= 0 && st == W_RUN) {
                tmbar *m = mbar_find(t, tw->mbar_cta, tw->mbar_off, false);
                if (m && m->done_by_land) {   /* one arrow per (landing, warp it woke) */
                    int fid = t->next_flow++;
                    emit(t, "{\"ph\": \"s\", \"id\": %d, \"pid\": %d, \"tid\": 0, \"ts\": %" PRIu64
                         ", \"name\": \"satisfies\", \"cat\": \"flow\"}", fid, m->land_pid, m->land_ts);
                    emit(t, "{\"ph\": \"f\", \"bp\": \"e\", \"id\": %d, \"pid\": %d, \"tid\": %d, \"ts\": %" PRIu64
                         ", \"name\": \"satisfies\", \"cat\": \"flow\"}", fid, tc->pid, w + 1, now);
                }
            }
            tw->state = st;
            tw->since = now;
            tw->func = -1;
            interp_warp_info wi;
            if (!interp_warp_get(c, i, w, &wi)) {   /* the lanes it runs next: the first live one's place */
                for (int l = 0; l < wi.nlanes && tw->func < 0; l++)
                    if (wi.state[l] != INTERP_T_EXITED && wi.state[l] != INTERP_T_INACTIVE) {
                        tw->func = wi.func[l];
                        tw->pc = interp_wait_pc(t->mod, wi.func[l], wi.pc[l], wi.state[l]);
                    }
            }
            snprintf(tw->what, sizeof tw->what, "%s", what);
            tw->mbar_cta = st == W_WAIT ? mcta : -1;
            tw->mbar_off = moff;
            if (st == W_WAIT && mcta >= 0)
                mbar_find(t, mcta, moff, true);
        }
    }
}

/* New copies in flight begin; copies no longer in flight end. */
static void update_ops(launch_trace *t, interp_ctx *c, uint64_t now)
{
    for (size_t k = 0; k < t->nops; k++)
        t->ops[k].seen = false;
    int n = interp_ninflight(c);
    for (int i = 0; i < n; i++) {
        interp_inflight in;
        if (interp_inflight_get(c, i, &in) < 0)
            continue;
        size_t k = 0;
        while (k < t->nops && t->ops[k].id != in.id)
            k++;
        if (k < t->nops) {
            t->ops[k].seen = true;
            continue;
        }
        if (t->nops == t->capops) {
            size_t cap = t->capops ? t->capops * 2 : 16;
            top *no = realloc(t->ops, cap * sizeof *no);
            if (!no)
                return;
            t->ops = no;
            t->capops = cap;
        }
        int pid = in.cta >= 0 && in.cta < t->nctas ? t->ctas[in.cta].pid : 1;
        top *o = &t->ops[t->nops++];
        *o = (top){in.id, pid, in.has_mbar, in.mbar, in.cta_mask, in.cta, true, false};
        char w[600];
        where_json(t, in.func, in.pc, c, w, sizeof w);
        /* the kind without the debugger's hint ("wgmma.mma_async (info wgmma)") */
        int kl = (int)strcspn(in.kind, "(");
        while (kl > 0 && in.kind[kl - 1] == ' ')
            kl--;
        o->wgmma = !strncmp(in.kind, "wgmma", 5);
        emit(t, "{\"ph\": \"b\", \"cat\": \"%s\", \"id\": %d, \"pid\": %d, \"tid\": 0, \"ts\": %" PRIu64
             ", \"name\": \"%.*s #%d\", \"args\": {\"bytes\": %u, \"issued by\": \"warp %d lane %d\", \"at\": \"%s\"%s}}",
             o->wgmma ? "wgmma" : "copy", in.id, pid, now, kl, in.kind, in.id, in.bytes, in.warp, in.lane, w,
             in.has_mbar ? ", \"completes on\": \"mbarrier\"" : "");
        if (in.has_mbar) {   /* the destination CTAs' mbarriers at that offset */
            for (int r = 0; r < t->nctas; r++)
                if (in.cta_mask ? (in.cta_mask >> r & 1) : r == in.cta)
                    mbar_find(t, r, in.mbar, true);
        }
    }
    for (size_t k = 0; k < t->nops;) {
        if (t->ops[k].seen) {
            k++;
            continue;
        }
        emit(t, "{\"ph\": \"e\", \"cat\": \"%s\", \"id\": %d, \"pid\": %d, \"tid\": 0, \"ts\": %" PRIu64 "}",
             t->ops[k].wgmma ? "wgmma" : "copy", t->ops[k].id, t->ops[k].pid, now);
        t->ops[k] = t->ops[--t->nops];
    }
}

/* A landing: a short slice on the CTA's async track that flows start from. */
static void landed(launch_trace *t, interp_ctx *c, const interp_event *ev, uint64_t now)
{
    int pid = 1;
    const top *o = NULL;
    for (size_t k = 0; k < t->nops; k++)
        if (t->ops[k].id == ev->op)
            o = &t->ops[k];
    if (o)
        pid = o->pid;
    emit(t, "{\"ph\": \"X\", \"pid\": %d, \"tid\": 0, \"ts\": %" PRIu64 ", \"dur\": 1, \"name\": \"landed #%d\", "
         "\"cat\": \"landing\"}", pid, now, ev->op);
    (void)c;
    if (o && o->has_mbar)
        for (size_t i = 0; i < t->nmb; i++)
            if (t->mb[i].off == o->mbar && (o->mask ? (o->mask >> t->mb[i].cta & 1) : t->mb[i].cta == o->cta)) {
                t->mb[i].landed = true;
                t->mb[i].land_ts = now;
                t->mb[i].land_pid = pid;
            }
}

/* mbarrier phases that completed since the last look: an instant each. */
static void update_mbars(launch_trace *t, interp_ctx *c, uint64_t now)
{
    for (size_t i = 0; i < t->nmb; i++) {
        tmbar *m = &t->mb[i];
        interp_mbar s;
        if (!interp_mbar_get(c, m->cta, m->off, &s) || !s.initialised) {
            m->init = false;
            continue;
        }
        if (!m->init) {
            m->init = true;
            m->phase = s.phase;
            continue;
        }
        if (s.phase == m->phase)
            continue;
        emit(t, "{\"ph\": \"i\", \"s\": \"t\", \"pid\": %d, \"tid\": 0, \"ts\": %" PRIu64 ", \"name\": \"mbarrier smem "
             "0x%x phase %u complete\", \"cat\": \"mbarrier\"}", m->pid, now, m->off, m->phase);
        m->phase = s.phase;
        m->done_by_land = m->landed && m->land_ts == now;
    }
}

/* Note the mbarrier an executed mbarrier.init names. */
static void note_init(launch_trace *t, interp_ctx *c, const interp_event *ev)
{
    if (ev->func < 0 || (uint32_t)ev->func >= t->mod->nfuncs || ev->pc >= t->mod->funcs[ev->func].ninstrs ||
        t->mod->funcs[ev->func].instrs[ev->pc].op != IR_OP_MBARRIER_INIT || !ev->lanes)
        return;
    int sp;
    uint64_t a;
    if (!interp_instr_addr(c, ev->cta, ev->warp, __builtin_ctz(ev->lanes), ev->func, ev->pc, 0, &sp, &a))
        return;
    if (sp == IR_SPACE_NONE) {
        if (mem_generic_window(a) != MEM_WIN_SHARED)
            return;
        a -= MEM_GENERIC_SHARED;
    }
    uint32_t s = (uint32_t)a, rank = s >> MEM_SHARED_RANK_SHIFT;
    mbar_find(t, rank ? (int)rank - 1 : ev->cta, s & MEM_SHARED_OFF_MASK, true);
}

void launch_trace_step(launch_trace *t, interp_ctx *c, const interp_event *ev)
{
    uint64_t now = interp_clock(c);
    if (ev->kind == INTERP_EV_DONE || ev->kind == INTERP_EV_ERROR)
        return;
    sync_ctas(t, c, now);
    if (ev->kind == INTERP_EV_NONE && ev->lanes)
        note_init(t, c, ev);
    if (ev->kind == INTERP_EV_LANDED)
        landed(t, c, ev, now);
    update_ops(t, c, now);
    update_mbars(t, c, now);
    update_warps(t, c, now);
}

int launch_trace_close(launch_trace *t, interp_ctx *c)
{
    if (!t)
        return 0;
    uint64_t now = c ? interp_clock(c) : 0;
    for (int i = 0; i < t->nctas; i++) {
        for (int w = 0; w < t->ctas[i].nw; w++)
            close_slice(t, c, &t->ctas[i], w, now);
        free(t->ctas[i].w);
    }
    for (size_t k = 0; k < t->nops; k++)   /* never landed (the run stopped) */
        emit(t, "{\"ph\": \"e\", \"cat\": \"%s\", \"id\": %d, \"pid\": %d, \"tid\": 0, \"ts\": %" PRIu64 "}",
             t->ops[k].wgmma ? "wgmma" : "copy", t->ops[k].id, t->ops[k].pid, now);
    fputs("\n]}\n", t->f);
    int rc = ferror(t->f) ? -1 : 0;
    if (fclose(t->f))
        rc = -1;
    free(t->ctas);
    free(t->ops);
    free(t->mb);
    free(t->named);
    free(t);
    return rc;
}

int launch_trace_run(const interp_launch *l, interp_result *res, const char *path, char *err, size_t errlen)
{
    launch_trace *t = launch_trace_open(path, l, err, errlen);
    if (!t)
        return -1;
    interp_ctx *c = interp_new(l);
    if (!c) {
        launch_trace_close(t, NULL);
        snprintf(err, errlen, "out of memory creating the launch");
        return -1;
    }
    interp_event ev;
    for (;;) {
        int k = interp_step(c, &ev);
        launch_trace_step(t, c, &ev);
        if (k == INTERP_EV_DONE || k == INTERP_EV_ERROR)
            break;
    }
    *res = *interp_get_result(c);
    int rc = launch_trace_close(t, c);
    interp_free(c);
    if (rc)
        snprintf(err, errlen, "--trace %s: write error", path);
    return rc;
}
