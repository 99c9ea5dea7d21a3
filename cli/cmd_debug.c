/* cmd_debug.c — `ptxi debug`: a gdb-like REPL over the interpreter's step API.
 *
 *   ptxi debug LAUNCH.json|CASES.jsonl [--filter NAME] [--complete=POLICY]
 *              [-x FILE] [-ex CMD]... [--batch] [--echo]
 *
 * The launch is set up exactly as `ptxi run` sets it up (cli/launch.h),
 * then nothing runs until a command says so.  Commands read from a
 * terminal go through libedit (history, line editing); from a pipe or a
 * file they are read line by line with no prompt, so a script of commands
 * is a test.  When the kernel ends (or stops on a fault or a deadlock) the
 * case's expectations are checked and `PASS name` / `FAIL name: why` is
 * printed as `ptxi run` prints it; the exit status is that of the last
 * verdict (0 if none).
 *
 * Run control is a loop over interp_step()/interp_step_warp(): every
 * instruction executed passes through step_once(), which records the
 * mbarriers that mbarrier.init creates (the interpreter keeps no list of
 * them) and compares the bytes under each watchpoint (software
 * watchpoints: they see TMA landings too, which write shared memory
 * without an instruction).  `step` runs the selected warp; when that warp
 * cannot run (it waits at a barrier, or its mbarrier wait failed), the
 * scheduler runs the others, lands copies, until the warp executes one
 * instruction, like gdb's `step` with scheduler-locking off.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <editline/readline.h>
#include "cli/cli.h"
#include "cli/debug.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

void dbg_err(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

static const char *skip_ws(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* ---- session: set up / tear down one run of the launch ----------------------------- */

static const char *status_name(int st)
{
    return st == TMA_SUCCESS ? "CUDA_SUCCESS" : st == TMA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : "?";
}

static void session_end(dbg *d)
{
    interp_free(d->c);
    d->c = NULL;
    free(d->params);
    d->params = NULL;
    if (d->g)
        mem_global_free(d->g);
    d->g = NULL;
    d->nmbars = 0;
    for (size_t i = 0; i < d->nwatches; i++)
        d->watches[i].have = false;
    d->state = DBG_IDLE;
}

/* Allocate buffers, encode maps, build the parameters, create the context.
 * Returns 0, 1 when the case ends before any launch (its verdict printed),
 * -1 on a set-up error (printed). */
static int session_start(dbg *d)
{
    char err[2048];
    launch_case *lc = d->lc;
    d->g = mem_global_new();
    if (!d->g) {
        dbg_err("ptxi debug: out of memory");
        return -1;
    }
    if (launch_setup(lc, d->g, err, sizeof err)) {
        printf("FAIL %s: %s\n", lc->name, err);
        d->verdict = 1;
        return -1;
    }
    bool stop = false;
    for (size_t i = 0; i < lc->ntmaps; i++) {
        const launch_tmap *m = &lc->tmaps[i];
        int want = lc->expect_encode[i];
        if (want >= 0 && m->status != want) {
            printf("FAIL %s: tensor map %s: encode returned %s, want %s%s%s%s\n", lc->name, m->name,
                   status_name(m->status), status_name(want), m->why[0] ? " (" : "", m->why, m->why[0] ? ")" : "");
            d->verdict = 1;
            return 1;
        }
        if (want < 0 && m->status != TMA_SUCCESS) {
            printf("FAIL %s: tensor map %s: encode failed: %s\n", lc->name, m->name,
                   m->why[0] ? m->why : "CUDA_ERROR_INVALID_VALUE");
            d->verdict = 1;
            return 1;
        }
        if (m->status != TMA_SUCCESS)
            stop = true;
    }
    if (stop) {
        printf("PASS %s (a tensor map failed to encode, as expected: nothing to launch)\n", lc->name);
        d->verdict = 0;
        return 1;
    }
    if (launch_build_params(lc, d->mod, d->entry, &d->params, &d->psize, err, sizeof err)) {
        printf("FAIL %s: %s\n", lc->name, err);
        d->verdict = 1;
        return -1;
    }
    memset(&d->l, 0, sizeof d->l);
    d->l.mod = d->mod;
    d->l.entry = d->entry;
    memcpy(d->l.grid, lc->grid, sizeof d->l.grid);
    memcpy(d->l.block, lc->block, sizeof d->l.block);
    memcpy(d->l.cluster, lc->cluster, sizeof d->l.cluster);
    d->l.dyn_smem = lc->dyn_smem;
    d->l.params = d->params;
    d->l.params_size = d->psize;
    d->l.gmem = d->g;
    d->l.jobs = 1;
    d->l.policy = d->policy;
    d->l.seed = d->seed;
    d->c = interp_new(&d->l);
    if (!d->c) {
        dbg_err("ptxi debug: out of memory creating the launch");
        return -1;
    }
    for (size_t i = 0; i < d->nbps; i++)
        if (d->bps[i].enabled)
            interp_break_add(d->c, d->bps[i].func, d->bps[i].pc);
    dbg_syms_build(d);
    d->state = DBG_IDLE;
    d->cta = d->warp = 0;
    d->lane = -1;
    d->list_next = 0;
    return 0;
}

/* ---- verdict --------------------------------------------------------------------------- */

static int first_line_len(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? (int)(nl - s) : (int)strlen(s);
}

/* The case's expectations against this run's end; prints PASS/FAIL like `ptxi run`. */
static void verdict(dbg *d)
{
    const launch_case *lc = d->lc;
    const interp_result *res = interp_get_result(d->c);
    const char *msg = res->msg[0] ? res->msg : "error";
    d->verdict = 1;
    if (lc->expect_launch) {
        bool ok = res->status == INTERP_FAULT || res->status == INTERP_TRAP || res->status == INTERP_LAUNCH_ERROR;
        if (ok) {
            printf("PASS %s (stopped as expected, %s: %.*s)\n", lc->name, lc->expect_launch, first_line_len(msg), msg);
            d->verdict = 0;
        } else if (res->status == INTERP_OK) {
            printf("FAIL %s: expected the kernel to fault (%s), but it ran to completion\n", lc->name,
                   lc->expect_launch);
        } else {
            printf("FAIL %s: expected a fault (%s), but ptxi stopped with %.*s\n", lc->name, lc->expect_launch,
                   first_line_len(msg), msg);
        }
        return;
    }
    if (res->status != INTERP_OK) {
        printf("FAIL %s: %.*s\n", lc->name, first_line_len(msg), msg);
        return;
    }
    int nbad = 0;
    char *txt = NULL;
    size_t tl = 0;
    FILE *detail = open_memstream(&txt, &tl);
    for (size_t i = 0; i < lc->nexpect_bufs; i++) {
        const launch_expect_buf *e = &lc->expect_bufs[i];
        const launch_buffer *b = launch_find_buffer(lc, e->name);
        if (!b)
            continue;
        const uint8_t *got = mem_global_host(d->g, b->addr, b->bytes);
        if (detail && launch_check_sha256(e, got, b->bytes, detail))
            nbad++;
        if (!e->file)
            continue;
        uint64_t wn = 0;
        uint8_t *want = launch_slurp(e->file, &wn);
        if (!want) {
            if (detail)
                fprintf(detail, "    %s: cannot read %s: %s\n", e->name, e->file, strerror(errno));
            nbad++;
            continue;
        }
        char *ct = NULL;
        size_t cl = 0;
        FILE *f = open_memstream(&ct, &cl);
        uint64_t nd = f ? launch_compare(lc, e, got, b->bytes, want, wn, f) : 1;
        if (f)
            fclose(f);
        if (nd && detail) {
            fprintf(detail, "    buffer %s differs from %s in %llu byte%s:\n%s", e->name, e->file_rel,
                    (unsigned long long)nd, nd == 1 ? "" : "s", ct ? ct : "");
        }
        if (nd)
            nbad++;
        free(ct);
        free(want);
    }
    if (detail)
        fclose(detail);
    if (nbad)
        printf("FAIL %s: %d buffer%s differ%s\n%s", lc->name, nbad, nbad == 1 ? "" : "s", nbad == 1 ? "s" : "",
               txt ? txt : "");
    else
        printf("PASS %s\n", lc->name);
    d->verdict = nbad ? 1 : 0;
    free(txt);
}

/* ---- breakpoints and watchpoints ------------------------------------------------------------ */

static dbg_bp *bp_at(dbg *d, int func, uint32_t pc)
{
    for (size_t i = 0; i < d->nbps; i++)
        if (d->bps[i].enabled && d->bps[i].func == func && d->bps[i].pc == pc)
            return &d->bps[i];
    return NULL;
}

/* Arm or disarm (func, pc) in the interpreter: armed while any enabled breakpoint is there. */
static void bp_sync(dbg *d, int func, uint32_t pc)
{
    if (!d->c)
        return;
    if (bp_at(d, func, pc))
        interp_break_add(d->c, func, pc);
    else
        interp_break_del(d->c, func * 1000000 + (int)pc);
}

static void bp_describe(const dbg *d, const dbg_bp *b, char *buf, size_t n)
{
    char where[256];
    dbg_loc_str(d, b->func, b->pc, where, sizeof where);
    snprintf(buf, n, "%s (pc %u of %s)", where, b->pc, d->mod->funcs[b->func].name);
}

static void add_break(dbg *d, const char *args, bool temp)
{
    int func;
    uint32_t pc;
    if (dbg_parse_location(d, args, &func, &pc))
        return;
    dbg_bp *nb = realloc(d->bps, (d->nbps + 1) * sizeof *nb);
    if (!nb)
        return;
    d->bps = nb;
    dbg_bp *b = &d->bps[d->nbps++];
    memset(b, 0, sizeof *b);
    b->num = ++d->next_num;
    b->func = func;
    b->pc = pc;
    b->enabled = true;
    b->temp = temp;
    bp_sync(d, func, pc);
    char desc[320];
    bp_describe(d, b, desc, sizeof desc);
    printf("%s %d at %s\n", temp ? "Temporary breakpoint" : "Breakpoint", b->num, desc);
}

static void dc_break(dbg *d, const char *fmt, const char *args) { (void)fmt; add_break(d, args, false); }
static void dc_tbreak(dbg *d, const char *fmt, const char *args) { (void)fmt; add_break(d, args, true); }

static void delete_bp_index(dbg *d, size_t i)
{
    int f = d->bps[i].func;
    uint32_t pc = d->bps[i].pc;
    memmove(&d->bps[i], &d->bps[i + 1], (d->nbps - i - 1) * sizeof *d->bps);
    d->nbps--;
    bp_sync(d, f, pc);
}

/* Apply `op` ('d' delete, 'e' enable, 'n' disable) to the numbered
 * breakpoints/watchpoints in args, or to all of them. */
static void bp_numbers(dbg *d, const char *args, char op)
{
    args = skip_ws(args);
    bool all = !*args;
    const char *p = args;
    for (;;) {
        long num = -1;
        if (!all) {
            p = skip_ws(p);
            if (!*p)
                break;
            char *end;
            num = strtol(p, &end, 10);
            if (end == p || (*end && !isspace((unsigned char)*end))) {
                dbg_err("\"%s\" is not a breakpoint number (info breakpoints lists them).", p);
                return;
            }
            p = end;
        }
        bool found = false;
        for (size_t i = 0; i < d->nbps; i++) {
            if (!all && d->bps[i].num != num)
                continue;
            found = true;
            if (op == 'd') {
                delete_bp_index(d, i);
                i--;
            } else {
                d->bps[i].enabled = op == 'e';
                bp_sync(d, d->bps[i].func, d->bps[i].pc);
            }
        }
        for (size_t i = 0; i < d->nwatches; i++) {
            if (!all && d->watches[i].num != num)
                continue;
            found = true;
            if (op == 'd') {
                memmove(&d->watches[i], &d->watches[i + 1], (d->nwatches - i - 1) * sizeof *d->watches);
                d->nwatches--;
                i--;
            } else {
                d->watches[i].enabled = op == 'e';
                d->watches[i].have = false;
            }
        }
        if (!found && !all) {
            dbg_err("No breakpoint or watchpoint number %ld.", num);
            return;
        }
        if (all)
            break;
    }
}

static void dc_delete(dbg *d, const char *fmt, const char *args) { (void)fmt; bp_numbers(d, args, 'd'); }
static void dc_enable(dbg *d, const char *fmt, const char *args) { (void)fmt; bp_numbers(d, args, 'e'); }
static void dc_disable(dbg *d, const char *fmt, const char *args) { (void)fmt; bp_numbers(d, args, 'n'); }

static void watch_desc(const dbg_watch *w, char *buf, size_t n)
{
    if (w->space == DBG_SP_SHARED)
        snprintf(buf, n, "smem 0x%" PRIx64 " (%u bytes, CTA slot %d)", w->addr, w->len, w->cta);
    else
        snprintf(buf, n, "global 0x%" PRIx64 " (%u bytes)", w->addr, w->len);
}

/* Current bytes under a watchpoint; false if not readable now. */
static bool watch_read(const dbg *d, const dbg_watch *w, uint8_t *buf, uint32_t ctaid[3])
{
    if (!d->c)
        return false;
    if (w->space == DBG_SP_GLOBAL) {
        const uint8_t *h = mem_global_host(d->g, w->addr, w->len);
        if (!h)
            return false;
        memcpy(buf, h, w->len);
        ctaid[0] = ctaid[1] = ctaid[2] = 0;
        return true;
    }
    interp_cta_info ci;
    if (interp_cta_get(d->c, w->cta, &ci) || w->addr + w->len > ci.smem_size)
        return false;
    memcpy(buf, ci.smem + w->addr, w->len);
    memcpy(ctaid, ci.ctaid, sizeof ci.ctaid);
    return true;
}

static void watch_value(const uint8_t *b, uint32_t len, char *out, size_t n)
{
    size_t at = 0;
    if (len == 1 || len == 2 || len == 4 || len == 8) {
        uint64_t v = 0;
        memcpy(&v, b, len);
        snprintf(out, n, "0x%0*" PRIx64 " (%" PRIu64 ")", (int)len * 2, v, v);
        return;
    }
    for (uint32_t i = 0; i < len && at + 4 < n; i++)
        at += (size_t)snprintf(out + at, n - at, "%s%02x", i ? " " : "", b[i]);
}

static void dc_watch(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    int space;
    uint64_t addr;
    const char *rest;
    if (!*skip_ws(args)) {
        dbg_err("Usage: watch [smem|global] ADDRESS [BYTES]  (default 4 bytes, at most %d)", DBG_WATCH_MAX);
        return;
    }
    if (dbg_parse_addr(d, args, DBG_SP_GENERIC, &space, &addr, &rest))
        return;
    unsigned long len = 4;
    rest = skip_ws(rest);
    if (*rest) {
        char *end;
        len = strtoul(rest, &end, 0);
        if (end == rest || *skip_ws(end) || !len || len > DBG_WATCH_MAX) {
            dbg_err("watch: the length must be 1..%d bytes, not \"%s\".", DBG_WATCH_MAX, rest);
            return;
        }
    }
    if (space == DBG_SP_GENERIC) {
        if (mem_generic_window(addr) == MEM_WIN_SHARED) {
            space = DBG_SP_SHARED;
            addr -= MEM_GENERIC_SHARED;
        } else if (mem_generic_window(addr) == MEM_WIN_GLOBAL) {
            space = DBG_SP_GLOBAL;
        }
    }
    if (space != DBG_SP_SHARED && space != DBG_SP_GLOBAL) {
        dbg_err("watch: only shared (smem ADDRESS) and global memory can be watched.");
        return;
    }
    dbg_watch w;
    memset(&w, 0, sizeof w);
    w.space = space;
    w.addr = addr;
    w.len = (uint32_t)len;
    w.enabled = true;
    if (space == DBG_SP_SHARED) {
        uint32_t s = (uint32_t)addr, rank = s >> MEM_SHARED_RANK_SHIFT;
        w.cta = rank ? (int)rank - 1 : d->cta;
        w.addr = s & MEM_SHARED_OFF_MASK;
    } else if (!mem_global_host(d->g, addr, len)) {
        dbg_err("watch: global 0x%" PRIx64 " + %lu bytes is not inside a buffer (info launch lists them).", addr, len);
        return;
    }
    w.have = watch_read(d, &w, w.old, w.ctaid);
    dbg_watch *nw = realloc(d->watches, (d->nwatches + 1) * sizeof *nw);
    if (!nw)
        return;
    d->watches = nw;
    w.num = ++d->next_num;
    d->watches[d->nwatches++] = w;
    char desc[160];
    watch_desc(&w, desc, sizeof desc);
    printf("Watchpoint %d: %s\n", w.num, desc);
}

static void dc_info_breakpoints(dbg *d, const char *args)
{
    (void)args;
    if (!d->nbps && !d->nwatches) {
        printf("No breakpoints or watchpoints.\n");
        return;
    }
    printf("Num  Type        Enb  Where\n");
    for (size_t i = 0; i < d->nbps; i++) {
        const dbg_bp *b = &d->bps[i];
        char desc[320];
        bp_describe(d, b, desc, sizeof desc);
        printf("%-4d %-11s %-4s %s", b->num, b->temp ? "tbreakpoint" : "breakpoint", b->enabled ? "y" : "n", desc);
        if (b->hits)
            printf(", hit %u time%s", b->hits, b->hits == 1 ? "" : "s");
        putchar('\n');
    }
    for (size_t i = 0; i < d->nwatches; i++) {
        const dbg_watch *w = &d->watches[i];
        char desc[160];
        watch_desc(w, desc, sizeof desc);
        printf("%-4d %-11s %-4s %s", w->num, "watchpoint", w->enabled ? "y" : "n", desc);
        if (w->hits)
            printf(", hit %u time%s", w->hits, w->hits == 1 ? "" : "s");
        putchar('\n');
    }
}

/* ---- run control ------------------------------------------------------------------------------ */

enum { STOP_NONE = 0, STOP_BREAK, STOP_WATCH, STOP_END, STOP_INTR, STOP_GONE };

/* Record the mbarriers an executed mbarrier.init created. */
static void note_mbar_init(dbg *d, const interp_event *ev)
{
    if (ev->func < 0 || ev->cta < 0 || (uint32_t)ev->func >= d->mod->nfuncs)
        return;
    const ir_function *fn = &d->mod->funcs[ev->func];
    if (ev->pc >= fn->ninstrs || fn->instrs[ev->pc].op != IR_OP_MBARRIER_INIT)
        return;
    const ir_instr *in = &fn->instrs[ev->pc];
    for (uint32_t m = ev->lanes; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t g;
        if (in->guard >= 0 && interp_reg_get(d->c, ev->cta, ev->warp, l, (uint32_t)in->guard, &g) &&
            (!(g & 1)) != !in->guard_neg)
            continue;
        int space, owner;
        uint64_t a;
        uint32_t off;
        if (!interp_instr_addr(d->c, ev->cta, ev->warp, l, ev->func, ev->pc, 0, &space, &a) ||
            !dbg_shared_of(d, ev->cta, space, a, &owner, &off))
            continue;
        bool dup = false;
        for (size_t i = 0; i < d->nmbars && !dup; i++)
            dup = d->mbars[i].cta == owner && d->mbars[i].off == off;
        if (dup)
            continue;
        if (d->nmbars == d->capmbars) {
            size_t cap = d->capmbars ? d->capmbars * 2 : 16;
            dbg_mbar *nm = realloc(d->mbars, cap * sizeof *nm);
            if (!nm)
                return;
            d->mbars = nm;
            d->capmbars = cap;
        }
        d->mbars[d->nmbars++] = (dbg_mbar){owner, off};
    }
}

/* Compare every watchpoint with its last value; report the first change. */
static bool check_watches(dbg *d, const interp_event *ev)
{
    bool hit = false;
    for (size_t i = 0; i < d->nwatches; i++) {
        dbg_watch *w = &d->watches[i];
        uint8_t now[DBG_WATCH_MAX];
        uint32_t id[3];
        if (!w->enabled || !watch_read(d, w, now, id))
            continue;
        if (!w->have || memcmp(id, w->ctaid, sizeof id)) {   /* first look, or a new cluster's CTA */
            memcpy(w->old, now, w->len);
            memcpy(w->ctaid, id, sizeof id);
            w->have = true;
            continue;
        }
        if (!memcmp(now, w->old, w->len))
            continue;
        char desc[160], ov[256], nv[256];
        watch_desc(w, desc, sizeof desc);
        watch_value(w->old, w->len, ov, sizeof ov);
        watch_value(now, w->len, nv, sizeof nv);
        printf("\nWatchpoint %d: %s\n\nOld value = %s\nNew value = %s\n", w->num, desc, ov, nv);
        if (ev->kind == INTERP_EV_LANDED)
            printf("(written by asynchronous operation #%d landing)\n", ev->op);
        memcpy(w->old, now, w->len);
        w->hits++;
        hit = true;
    }
    return hit;
}

/* One step of the scheduler (warp < 0) or of one warp, with the
 * debugger's bookkeeping.  *stop gets STOP_WATCH on a watchpoint. */
static int step_once(dbg *d, int cta, int warp, interp_event *ev, int *stop)
{
    int k = warp < 0 ? interp_step(d->c, ev) : interp_step_warp(d->c, cta, warp, ev);
    d->state = DBG_STOPPED;
    if (k == INTERP_EV_NONE && ev->lanes)
        note_mbar_init(d, ev);
    if (d->nwatches && (k == INTERP_EV_NONE || k == INTERP_EV_LANDED || k == INTERP_EV_WATCH) && check_watches(d, ev)) {
        *stop = STOP_WATCH;
        if (k != INTERP_EV_LANDED && ev->cta >= 0 && (ev->cta != d->cta || ev->warp != d->warp)) {
            d->cta = ev->cta;   /* the warp that wrote, as gdb switches to the thread */
            d->warp = ev->warp;
            d->lane = -1;
        }
        d->list_next = 0;
    }
    return k;
}

/* After an error: select the warp the message names ("by CTA (x,y,z) warp W lane L"). */
static void select_culprit(dbg *d)
{
    const char *msg = interp_get_result(d->c)->msg;
    const char *by = strstr(msg, "by CTA (");
    unsigned x, y, z;
    int w, l;
    if (!by || sscanf(by, "by CTA (%u,%u,%u) warp %d lane %d", &x, &y, &z, &w, &l) != 5)
        return;
    int n = interp_ncta(d->c);
    for (int t = 0; t < n; t++) {
        interp_cta_info ci;
        if (!interp_cta_get(d->c, t, &ci) && ci.ctaid[0] == x && ci.ctaid[1] == y && ci.ctaid[2] == z) {
            d->cta = t;
            d->warp = w;
            d->lane = -1;
            return;
        }
    }
}

static void report_end(dbg *d, int kind)
{
    const interp_result *res = interp_get_result(d->c);
    d->state = DBG_FINISHED;
    d->list_next = 0;
    if (kind == INTERP_EV_DONE) {
        printf("\nKernel %s finished after %" PRIu64 " warp instructions.\n", d->entry->name, interp_clock(d->c));
    } else {
        printf("\nKernel stopped: %s\n", res->msg);
        select_culprit(d);
        if (dbg_resident(d))
            dbg_show_warp(d, d->cta, d->warp, NULL);
    }
    verdict(d);
}

/* Report a breakpoint stop of warp (cta, warp). */
static void report_break(dbg *d, const interp_event *ev)
{
    d->cta = ev->cta;
    d->warp = ev->warp;
    d->lane = -1;
    d->list_next = 0;
    dbg_bp *b = bp_at(d, ev->func, ev->pc);
    char pre[64] = "";
    if (b) {
        b->hits++;
        snprintf(pre, sizeof pre, "\n%s %d, ", b->temp ? "Temporary breakpoint" : "Breakpoint", b->num);
    }
    dbg_show_warp(d, d->cta, d->warp, pre);
    if (b && b->temp)
        delete_bp_index(d, (size_t)(b - d->bps));
}

static bool check_running(dbg *d)
{
    if (d->state == DBG_FINISHED) {
        dbg_err("The kernel is not running (it has %s). Use `run` to start it again.",
                interp_get_result(d->c)->status == INTERP_OK ? "finished" : "stopped");
        return false;
    }
    if (!d->c) {
        dbg_err("There is no launch to run.");
        return false;
    }
    return true;
}

/* The selected warp sits at an armed breakpoint it has not reported: a
 * resume must step it over, as gdb steps a thread off its breakpoint. */
static bool at_own_break(const dbg *d)
{
    uint32_t lanes, pc;
    int f;
    return dbg_warp_next(d, d->cta, d->warp, &lanes, &f, &pc) && bp_at((dbg *)d, f, pc);
}

/* Run until something stops us; returns STOP_*. */
static int resume(dbg *d)
{
    interp_event ev;
    int stop = STOP_NONE;
    interrupted = 0;
    for (;;) {
        if (interrupted) {
            printf("\nInterrupted.\n");
            dbg_show_warp(d, d->cta, d->warp, NULL);
            return STOP_INTR;
        }
        int k = step_once(d, -1, -1, &ev, &stop);
        if (k == INTERP_EV_DONE || k == INTERP_EV_ERROR) {
            report_end(d, k);
            return STOP_END;
        }
        if (k == INTERP_EV_BREAK) {
            report_break(d, &ev);
            return STOP_BREAK;
        }
        if (stop == STOP_WATCH) {
            dbg_show_warp(d, d->cta, d->warp, NULL);
            return STOP_WATCH;
        }
    }
}

/* One instruction of the selected warp (see the file comment).  Returns STOP_*. */
static int step_warp(dbg *d)
{
    interp_event ev;
    int stop = STOP_NONE, cta = d->cta, warp = d->warp;
    interrupted = 0;
    for (;;) {
        interp_warp_info wi;
        if (interrupted) {
            printf("\nInterrupted.\n");
            return STOP_INTR;
        }
        if (d->state != DBG_IDLE && interp_warp_get(d->c, cta, warp, &wi)) {
            dbg_err("CTA slot %d warp %d is not resident (its cluster has finished).", cta, warp);
            return STOP_GONE;
        }
        if (d->state == DBG_IDLE) {
            /* nothing is resident before the first step: start the first cluster */
            int k = step_once(d, -1, -1, &ev, &stop);
            if (k == INTERP_EV_DONE || k == INTERP_EV_ERROR) {
                report_end(d, k);
                return STOP_END;
            }
            if (k == INTERP_EV_BREAK) {
                if (ev.cta == cta && ev.warp == warp)
                    continue;   /* our own first instruction: step it below */
                report_break(d, &ev);
                return STOP_BREAK;
            }
            if (stop)
                return stop;
            if (ev.cta == cta && ev.warp == warp && ev.lanes)
                return STOP_NONE;
            continue;
        }
        if (wi.ready) {
            int k = step_once(d, cta, warp, &ev, &stop);
            if (k == INTERP_EV_BREAK)   /* sitting on a breakpoint it had not reported: step over it */
                k = step_once(d, cta, warp, &ev, &stop);
            if (k == INTERP_EV_DONE || k == INTERP_EV_ERROR) {
                report_end(d, k);
                return STOP_END;
            }
            return stop;
        }
        if (!wi.blocked && !(wi.ready)) {
            bool poll = false;
            for (int l = 0; l < wi.nlanes; l++)
                poll |= wi.state[l] == INTERP_T_MBAR_POLL;
            if (!poll) {
                dbg_err("Every thread of warp %d has exited; select another warp (info warps).", warp);
                return STOP_GONE;
            }
        }
        /* the warp waits: let the scheduler run the others until it moves */
        int k = step_once(d, -1, -1, &ev, &stop);
        if (k == INTERP_EV_DONE || k == INTERP_EV_ERROR) {
            report_end(d, k);
            return STOP_END;
        }
        if (k == INTERP_EV_BREAK) {
            report_break(d, &ev);
            return STOP_BREAK;
        }
        if (stop)
            return stop;
        if (k == INTERP_EV_NONE && ev.cta == cta && ev.warp == warp && ev.lanes)
            return STOP_NONE;
    }
}

static long parse_count(const char *args)
{
    args = skip_ws(args);
    if (!*args)
        return 1;
    char *end;
    long n = strtol(args, &end, 0);
    if (end == args || *skip_ws(end) || n < 1) {
        dbg_err("\"%s\" is not a positive count.", args);
        return -1;
    }
    return n;
}

/* step/stepi/next: N times; `over_calls` runs a call to its return. */
static void do_steps(dbg *d, const char *args, bool over_calls)
{
    long n = parse_count(args);
    if (n < 0 || !check_running(d))
        return;
    int stop = STOP_NONE;
    for (long i = 0; i < n && stop == STOP_NONE; i++) {
        uint32_t lanes, pc;
        int f;
        bool have = dbg_warp_next(d, d->cta, d->warp, &lanes, &f, &pc);
        int lane = have ? __builtin_ctz(lanes) : 0;
        interp_warp_info wi;
        int depth0 = have && !interp_warp_get(d->c, d->cta, d->warp, &wi) ? wi.depth[lane] : 0;
        bool is_call = have && d->mod->funcs[f].instrs[pc].op == IR_OP_CALL;
        stop = step_warp(d);
        while (over_calls && is_call && stop == STOP_NONE && !interp_warp_get(d->c, d->cta, d->warp, &wi) &&
               wi.state[lane] != INTERP_T_EXITED && wi.depth[lane] > depth0)
            stop = step_warp(d);
    }
    if (stop == STOP_NONE || stop == STOP_INTR || stop == STOP_WATCH) {
        d->list_next = 0;
        uint32_t lanes, pc;
        int f;
        char pre[64] = "";
        dbg_bp *b = dbg_warp_next(d, d->cta, d->warp, &lanes, &f, &pc) ? bp_at(d, f, pc) : NULL;
        if (b)
            snprintf(pre, sizeof pre, "Breakpoint %d, ", b->num);
        dbg_show_warp(d, d->cta, d->warp, pre);
    }
}

static void dc_step(dbg *d, const char *fmt, const char *args) { (void)fmt; do_steps(d, args, false); }
static void dc_next(dbg *d, const char *fmt, const char *args) { (void)fmt; do_steps(d, args, true); }

static void dc_continue(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    if (*skip_ws(args)) {
        dbg_err("continue takes no argument here (to skip a breakpoint N times, disable it).");
        return;
    }
    if (!check_running(d))
        return;
    if (d->state == DBG_STOPPED && at_own_break(d)) {
        int s = step_warp(d);
        if (s == STOP_WATCH)
            dbg_show_warp(d, d->cta, d->warp, NULL);
        if (s != STOP_NONE)
            return;
    }
    resume(d);
}

static void dc_run(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    (void)args;
    if (d->state != DBG_IDLE) {
        printf("Restarting %s from the beginning (buffers re-initialised).\n", d->lc->name);
        session_end(d);
        if (session_start(d))
            return;
    }
    if (!d->c)
        return;
    printf("Starting kernel %s: grid (%u,%u,%u), block (%u,%u,%u)\n", d->entry->name, d->l.grid[0], d->l.grid[1],
           d->l.grid[2], d->l.block[0], d->l.block[1], d->l.block[2]);
    resume(d);
}

/* until/advance: with a location, run to it (a temporary breakpoint);
 * without one, step the selected warp until it passes its current pc in
 * the same frame (out of a loop). */
static void dc_until(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    if (!check_running(d))
        return;
    if (*skip_ws(args)) {
        int f;
        uint32_t pc;
        if (dbg_parse_location(d, args, &f, &pc))
            return;
        dbg_bp *nb = realloc(d->bps, (d->nbps + 1) * sizeof *nb);
        if (!nb)
            return;
        d->bps = nb;
        dbg_bp *b = &d->bps[d->nbps++];
        memset(b, 0, sizeof *b);
        b->num = ++d->next_num;
        b->func = f;
        b->pc = pc;
        b->enabled = b->temp = true;
        bp_sync(d, f, pc);
        dc_continue(d, NULL, "");
        return;
    }
    uint32_t lanes, pc0;
    int f0;
    if (!dbg_warp_next(d, d->cta, d->warp, &lanes, &f0, &pc0)) {
        do_steps(d, "", true);
        return;
    }
    int lane = __builtin_ctz(lanes);
    interp_warp_info wi;
    if (interp_warp_get(d->c, d->cta, d->warp, &wi)) {
        do_steps(d, "", true);
        return;
    }
    int depth0 = wi.depth[lane];
    int stop;
    do {
        stop = step_warp(d);
        if (stop != STOP_NONE || interp_warp_get(d->c, d->cta, d->warp, &wi))
            break;
    } while (wi.state[lane] != INTERP_T_EXITED &&
             (wi.depth[lane] > depth0 || (wi.depth[lane] == depth0 && wi.func[lane] == f0 && wi.pc[lane] <= pc0)));
    if (stop == STOP_NONE || stop == STOP_INTR || stop == STOP_WATCH) {
        d->list_next = 0;
        dbg_show_warp(d, d->cta, d->warp, NULL);
    }
}

/* ---- selection -------------------------------------------------------------------------------- */

static void dc_warp(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    args = skip_ws(args);
    if (!dbg_resident(d)) {
        dbg_err("No CTA is resident (%s).", d->state == DBG_FINISHED ? "the kernel has exited" : "use `run` or `step` first");
        return;
    }
    if (!*args) {
        dbg_show_warp(d, d->cta, d->warp, "Current: ");
        return;
    }
    char a[64] = "", b[64] = "", c[8];
    int n = sscanf(args, "%63s %63s %7s", a, b, c);
    int cta = d->cta, warp;
    char *end;
    if (n >= 3) {
        dbg_err("Usage: warp [CTA] WARP  (CTA: slot number or x,y,z)");
        return;
    }
    const char *ws = n == 2 ? b : a;
    if (n == 2) {
        unsigned x, y = 0, z = 0;
        if (strchr(a, ',')) {
            if (sscanf(a, "%u,%u,%u", &x, &y, &z) < 1) {
                dbg_err("\"%s\" is not a CTA (slot number or x,y,z).", a);
                return;
            }
            cta = -1;
            for (int t = 0; t < interp_ncta(d->c); t++) {
                interp_cta_info ci;
                if (!interp_cta_get(d->c, t, &ci) && ci.ctaid[0] == x && ci.ctaid[1] == y && ci.ctaid[2] == z)
                    cta = t;
            }
            if (cta < 0) {
                dbg_err("CTA (%u,%u,%u) is not resident (only the current cluster's CTAs are; info warps).", x, y, z);
                return;
            }
        } else {
            long v = strtol(a, &end, 0);
            if (end == a || *end || v < 0 || v >= interp_ncta(d->c)) {
                dbg_err("CTA slot \"%s\" is not 0..%d.", a, interp_ncta(d->c) - 1);
                return;
            }
            cta = (int)v;
        }
    }
    long v = strtol(ws, &end, 0);
    interp_cta_info ci;
    interp_cta_get(d->c, cta, &ci);
    if (end == ws || *end || v < 0 || v >= ci.nwarps) {
        dbg_err("Warp \"%s\" is not 0..%d.", ws, ci.nwarps - 1);
        return;
    }
    warp = (int)v;
    d->cta = cta;
    d->warp = warp;
    d->lane = -1;
    d->list_next = 0;
    dbg_show_warp(d, cta, warp, "Switched to ");
}

static void dc_lane(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    args = skip_ws(args);
    if (!*args) {
        if (d->lane < 0)
            printf("No lane selected: commands use the first lane of the warp's next group (now %d).\n",
                   dbg_ref_lane(d));
        else
            printf("Lane %d selected.\n", d->lane);
        return;
    }
    if (!strcmp(args, "auto") || !strcmp(args, "none")) {
        d->lane = -1;
        return;
    }
    char *end;
    long v = strtol(args, &end, 0);
    if (end == args || *skip_ws(end) || v < 0 || v > 31) {
        dbg_err("Usage: lane N (0..31) | lane auto");
        return;
    }
    d->lane = (int)v;
    printf("Lane %d selected.\n", d->lane);
}

/* ---- command table ---------------------------------------------------------------------------- */

typedef void (*cmd_fn)(dbg *, const char *fmt, const char *args);
typedef void (*info_fn)(dbg *, const char *args);

static const struct info_cmd {
    const char *name, *alias;
    info_fn fn;
    const char *help;
} infos[] = {
    {"breakpoints", "b", dc_info_breakpoints, "breakpoints and watchpoints, with their hit counts"},
    {"watchpoints", NULL, dc_info_breakpoints, "the same as info breakpoints"},
    {"warps", "w", dbg_info_warps, "every resident warp: CTA, warp, lanes, pc, source line, state"},
    {"registers", "r", dbg_info_registers, "[LANE | %REG...]: the registers of one lane of the selected warp"},
    {"mbarriers", "m", dbg_info_mbarriers, "[ADDRESS]: mbarriers seen (or the one at ADDRESS): phase, arrivals, tx-count, waiters"},
    {"tmaps", "t", dbg_info_tmaps, "[ADDRESS]: the launch's tensor maps decoded (or the 128 bytes at ADDRESS)"},
    {"async", "a", dbg_info_async, "asynchronous copies in flight: kind, bytes, source, destination, mbarrier"},
    {"wgmma", NULL, dbg_info_wgmma, "wgmma.mma_async not yet waited for: shape, types, descriptors decoded, registers written"},
    {"desc", NULL, dbg_info_desc, "%REG | NUMBER: a wgmma matrix descriptor decoded (address, LBO, SBO, swizzle, base offset)"},
    {"launch", NULL, dbg_info_launch, "the case: grid, block, buffers and variables with their addresses"},
    {"line", NULL, dbg_info_line, "[LOCATION]: the pc of a source line"},
};

static void dc_info(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    args = skip_ws(args);
    size_t n = strcspn(args, " \t");
    if (!n) {
        printf("info takes a subcommand:\n");
        for (size_t i = 0; i < sizeof infos / sizeof infos[0]; i++)
            printf("  info %-12s %s\n", infos[i].name, infos[i].help);
        return;
    }
    const struct info_cmd *hit = NULL;
    int matches = 0;
    for (size_t i = 0; i < sizeof infos / sizeof infos[0]; i++) {
        if ((infos[i].alias && strlen(infos[i].alias) == n && !strncmp(infos[i].alias, args, n)) ||
            (strlen(infos[i].name) == n && !strncmp(infos[i].name, args, n))) {
            hit = &infos[i];
            matches = 1;
            break;
        }
        if (!strncmp(infos[i].name, args, n)) {
            hit = &infos[i];
            matches++;
        }
    }
    if (matches != 1 || !hit) {
        dbg_err("%s info subcommand \"%.*s\" (try `info`).", matches > 1 ? "Ambiguous" : "Undefined", (int)n, args);
        return;
    }
    hit->fn(d, skip_ws(args + n));
}

static void dc_help(dbg *d, const char *fmt, const char *args);
static void dc_quit(dbg *d, const char *fmt, const char *args) { (void)d; (void)fmt; (void)args; }

static const struct cmd {
    const char *name, *alias;
    cmd_fn fn;
    bool repeat;            /* an empty line at a terminal repeats it */
    const char *usage, *help;
} cmds[] = {
    {"run", "r", dc_run, false, "run", "start the kernel (again, from fresh buffers, if it has run)"},
    {"continue", "c", dc_continue, true, "continue", "run until a breakpoint, a watchpoint, a fault, a deadlock or the end"},
    {"step", "s", dc_step, true, "step [N]", "execute N instructions (default 1) of the selected warp, into calls"},
    {"next", "n", dc_next, true, "next [N]", "like step, but a call runs to its return"},
    {"stepi", "si", dc_step, true, "stepi [N]", "the same as step (one PTX line is one instruction)"},
    {"nexti", "ni", dc_next, true, "nexti [N]", "the same as next"},
    {"until", "u", dc_until, true, "until [LOCATION]", "run to LOCATION; without one, step until the warp leaves its loop"},
    {"advance", NULL, dc_until, false, "advance LOCATION", "run to LOCATION"},
    {"break", "b", dc_break, false, "break LOCATION", "stop before any warp executes LOCATION: LINE, FILE:LINE, LABEL, FUNCTION or *PC"},
    {"tbreak", NULL, dc_tbreak, false, "tbreak LOCATION", "a breakpoint deleted when first hit"},
    {"watch", NULL, dc_watch, false, "watch [smem|global] ADDRESS [BYTES]", "stop when those bytes change (instructions and TMA landings)"},
    {"delete", "d", dc_delete, false, "delete [N...]", "delete breakpoints/watchpoints (all without N)"},
    {"disable", NULL, dc_disable, false, "disable [N...]", "disable breakpoints/watchpoints"},
    {"enable", NULL, dc_enable, false, "enable [N...]", "enable breakpoints/watchpoints"},
    {"info", "i", dc_info, false, "info SUBCOMMAND", "breakpoints, warps, registers, mbarriers, tmaps, async, wgmma, desc, launch, line"},
    {"warp", NULL, dc_warp, false, "warp [CTA] WARP", "select a warp (CTA: resident slot or x,y,z)"},
    {"lane", NULL, dc_lane, false, "lane [N|auto]", "select the lane for info registers, %reg in addresses and local memory"},
    {"list", "l", dbg_cmd_list, true, "list [LOCATION]", "source lines around the selected warp (or LOCATION); again: the next ones"},
    {"disassemble", "disas", dbg_cmd_disas, false, "disassemble [FUNCTION]", "instructions around the selected warp's pc (or all of FUNCTION)"},
    {"print", "p", dbg_cmd_print, false, "print[/FMT] %REG [LANE] | VARIABLE | BUFFER", "a register in every lane (or one), %tid.x etc., or an address; "
     "print/matrix [a|d] [LINE]: a wgmma's accumulators (d) or A fragment (a) as the matrix they hold"},
    {"x", NULL, dbg_cmd_x, true, "x/NFU [smem|global|param|local] ADDRESS", "examine memory: N units, F = x d u o t f c, U = b h w g"},
    {"set", NULL, dbg_cmd_set, false, "set var %REG[LANE] = VALUE", "change a register (every lane without [LANE])"},
    {"help", "h", dc_help, false, "help [COMMAND]", "this list, or one command"},
    {"quit", "q", dc_quit, false, "quit", "leave (also end of input)"},
};

static const struct cmd *find_cmd(const char *name, size_t n, int *nmatch)
{
    const struct cmd *hit = NULL;
    *nmatch = 0;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if ((strlen(cmds[i].name) == n && !strncmp(cmds[i].name, name, n)) ||
            (cmds[i].alias && strlen(cmds[i].alias) == n && !strncmp(cmds[i].alias, name, n))) {
            *nmatch = 1;
            return &cmds[i];
        }
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strncmp(cmds[i].name, name, n)) {
            if (!hit || hit->fn != cmds[i].fn)
                ++*nmatch;
            hit = &cmds[i];
        }
    return *nmatch == 1 ? hit : NULL;
}

static void dc_help(dbg *d, const char *fmt, const char *args)
{
    (void)d;
    (void)fmt;
    args = skip_ws(args);
    if (*args) {
        int nm;
        const struct cmd *c = find_cmd(args, strcspn(args, " \t/"), &nm);
        if (!c) {
            dbg_err("%s command \"%s\" (try `help`).", nm > 1 ? "Ambiguous" : "Undefined", args);
            return;
        }
        printf("%s%s%s%s\n  %s\n", c->usage, c->alias ? "  (alias " : "", c->alias ? c->alias : "",
               c->alias ? ")" : "", c->help);
        if (c->fn == dc_info)
            for (size_t i = 0; i < sizeof infos / sizeof infos[0]; i++)
                printf("  info %-12s %s\n", infos[i].name, infos[i].help);
        return;
    }
    printf("Commands (unique prefixes work; an empty line at a terminal repeats step/next/continue/x/list):\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char u[96];
        snprintf(u, sizeof u, "%s%s%s", cmds[i].name, cmds[i].alias ? ", " : "", cmds[i].alias ? cmds[i].alias : "");
        printf("  %-16s %s\n", u, cmds[i].help);
    }
    printf("ADDRESS: [smem|global|param|local|generic] then a sum of numbers, %%registers, variables\n"
           "(tile, _ZZ10kE4tile) and buffer names, e.g.  x/8fw smem tile+64,  x/4xg dst,  watch smem 0x400 8\n");
}

/* Execute one line; returns false on quit. */
static bool execute(dbg *d, const char *line, const struct cmd **last)
{
    const char *s = skip_ws(line);
    if (!*s || *s == '#')
        return true;
    size_t n = 0;
    while (s[n] && (isalpha((unsigned char)s[n]) || s[n] == '_'))
        n++;
    if (!n) {
        dbg_err("Undefined command: \"%s\" (try `help`).", s);
        return true;
    }
    int nm;
    const struct cmd *c = find_cmd(s, n, &nm);
    if (!c) {
        dbg_err("%s command: \"%.*s\" (try `help`).", nm > 1 ? "Ambiguous" : "Undefined", (int)n, s);
        return true;
    }
    if (c->fn == dc_quit)
        return false;
    const char *rest = s + n;
    char fmt[32] = "";
    if (*rest == '/') {
        size_t k = strcspn(rest + 1, " \t");
        if (k >= sizeof fmt) {
            dbg_err("Format \"%.*s\" is too long.", (int)k, rest + 1);
            return true;
        }
        memcpy(fmt, rest + 1, k);
        fmt[k] = 0;
        rest += 1 + k;
        if (c->fn != dbg_cmd_x && c->fn != dbg_cmd_print) {
            dbg_err("%s takes no /FORMAT.", c->name);
            return true;
        }
    } else if (*rest && !isspace((unsigned char)*rest)) {
        dbg_err("Undefined command: \"%s\" (try `help`).", s);
        return true;
    }
    if (last)
        *last = c;
    c->fn(d, fmt, skip_ws(rest));
    fflush(stdout);
    return true;
}

/* ---- command line ------------------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
        "usage: ptxi debug LAUNCH.json|CASES.jsonl [options]\n"
        "  --filter NAME              the case of a .jsonl to debug (exact name, else the one containing NAME)\n"
        "  --complete=eager|deferred|random[:SEED]   when async copies land (default deferred)\n"
        "  -x FILE                    execute the commands in FILE first\n"
        "  -ex CMD                    execute CMD first (repeatable, after -x files, in order)\n"
        "  --batch                    exit after -x/-ex instead of reading commands from stdin\n"
        "  --echo                     print each command read from a file or pipe before its output\n"
        "commands are read from stdin (with line editing at a terminal); `help` lists them\n");
}

static int parse_complete(const char *s, dbg *d)
{
    if (!strcmp(s, "eager"))
        d->policy = INTERP_COMPLETE_EAGER;
    else if (!strcmp(s, "deferred"))
        d->policy = INTERP_COMPLETE_DEFERRED;
    else if (!strncmp(s, "random", 6) && (s[6] == 0 || s[6] == ':')) {
        d->policy = INTERP_COMPLETE_RANDOM;
        d->seed = 1;
        if (s[6] == ':') {
            char *end;
            errno = 0;
            d->seed = strtoull(s + 7, &end, 0);
            if (!s[7] || *end || errno) {
                fprintf(stderr, "ptxi debug: --complete=random:SEED: \"%s\" is not a number\n", s + 7);
                return -1;
            }
        }
    } else {
        fprintf(stderr, "ptxi debug: --complete: \"%s\" is not eager, deferred or random[:SEED]\n", s);
        return -1;
    }
    return 0;
}

/* The case to debug: the only one, the one named `filter`, or the only one containing it. */
static launch_case *pick_case(launch_case *cases, size_t n, const char *filter, const char *path)
{
    if (!filter && n == 1)
        return &cases[0];
    size_t hits = 0;
    launch_case *hit = NULL;
    if (filter) {
        for (size_t i = 0; i < n; i++)
            if (!strcmp(cases[i].name, filter))
                return &cases[i];
        for (size_t i = 0; i < n; i++)
            if (strstr(cases[i].name, filter)) {
                hit = &cases[i];
                hits++;
            }
        if (hits == 1)
            return hit;
    }
    if (filter && !hits)
        fprintf(stderr, "ptxi debug: no case of %s has a name containing \"%s\"; its cases:", path, filter);
    else
        fprintf(stderr, "ptxi debug: %s holds %zu %scases; pick one with --filter NAME:", path,
                filter ? hits : n, filter ? "matching " : "");
    for (size_t i = 0; i < n; i++)
        if (!filter || !hits || strstr(cases[i].name, filter))
            fprintf(stderr, " %s", cases[i].name);
    fputc('\n', stderr);
    return NULL;
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* Read commands from f (no prompt) until EOF or quit; false on quit. */
static bool run_file(dbg *d, FILE *f, bool echo)
{
    char *line = NULL;
    size_t cap = 0;
    bool go = true;
    for (;;) {
        errno = 0;
        ssize_t n = getline(&line, &cap, f);
        if (n < 0) {
            if (errno == EINTR && !feof(f)) {
                clearerr(f);
                continue;
            }
            break;
        }
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (echo && *skip_ws(line) && *skip_ws(line) != '#')
            printf("(ptxi) %s\n", line);
        if (!execute(d, line, NULL)) {
            go = false;
            break;
        }
    }
    free(line);
    return go;
}

static void run_tty(dbg *d)
{
    const struct cmd *last = NULL;
    char *prev = NULL;
    for (;;) {
        char *line = readline("(ptxi) ");
        if (!line) {
            putchar('\n');
            break;
        }
        const char *s = skip_ws(line);
        bool go;
        if (!*s && last && last->repeat && prev) {
            go = execute(d, prev, &last);
        } else {
            if (*s) {
                add_history(line);
                free(prev);
                prev = strdup(line);
            }
            last = NULL;
            go = execute(d, line, &last);
        }
        free(line);
        if (!go)
            break;
    }
    free(prev);
}

int cmd_debug(int argc, char **argv)
{
    dbg d;
    memset(&d, 0, sizeof d);
    d.verdict = -1;
    d.lane = -1;
    d.policy = INTERP_COMPLETE_DEFERRED;
    const char *input = NULL, *filter = NULL;
    const char **scripts = calloc((size_t)argc, sizeof *scripts);
    bool *script_is_cmd = calloc((size_t)argc, sizeof *script_is_cmd);
    int nscripts = 0, rc = 2;
    bool batch = false, echo = false;
    launch_case *cases = NULL;
    size_t ncases = 0;
    if (!scripts || !script_is_cmd)
        goto out;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            rc = 0;
            goto out;
        } else if (!strcmp(a, "--batch") || !strcmp(a, "-batch")) {
            batch = true;
        } else if (!strcmp(a, "--echo")) {
            echo = true;
        } else if (!strncmp(a, "--complete=", 11)) {
            if (parse_complete(a + 11, &d))
                goto out;
        } else if (!strncmp(a, "--filter=", 9)) {
            filter = a + 9;
        } else if (!strcmp(a, "--filter") || !strcmp(a, "--complete") || !strcmp(a, "-x") || !strcmp(a, "-ex") ||
                   !strcmp(a, "--command") || !strcmp(a, "--ex")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ptxi debug: %s needs a value\n", a);
                goto out;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--filter"))
                filter = v;
            else if (!strcmp(a, "--complete")) {
                if (parse_complete(v, &d))
                    goto out;
            } else {
                script_is_cmd[nscripts] = !strcmp(a, "-ex") || !strcmp(a, "--ex");
                scripts[nscripts++] = v;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ptxi debug: unknown option '%s'\n", a);
            usage(stderr);
            goto out;
        } else if (input) {
            fprintf(stderr, "ptxi debug: more than one input ('%s' and '%s')\n", input, a);
            goto out;
        } else {
            input = a;
        }
    }
    if (!input) {
        usage(stderr);
        goto out;
    }
    if (has_suffix(input, ".ptx")) {
        fprintf(stderr, "ptxi debug: %s: give a launch file (ptxi-launch/1 .json or .jsonl), which names the PTX, "
                "kernel, grid, buffers and parameters; `ptxi run` documents the format\n", input);
        goto out;
    }
    char err[4096];
    rc = 1;
    if (launch_read_file(input, &cases, &ncases, err, sizeof err)) {
        fprintf(stderr, "ptxi: %s\n", err);
        goto out;
    }
    d.lc = pick_case(cases, ncases, filter, input);
    if (!d.lc) {
        rc = 2;
        goto out;
    }
    if (!d.lc->ptx) {
        printf("%s: the case only encodes tensor maps; there is no kernel to debug (ptxi tmap %s shows them)\n",
               d.lc->name, input);
        goto out;
    }
    d.mod = ptx_parse_file(d.lc->ptx, NULL);
    if (!d.mod) {
        printf("FAIL %s: %s does not parse\n", d.lc->name, d.lc->ptx);
        goto out;
    }
    d.entry = ir_find_function(d.mod, d.lc->kernel);
    if (!d.entry || !d.entry->is_entry) {
        printf("FAIL %s: kernel: no .entry named \"%s\" in %s\n", d.lc->name, d.lc->kernel, d.lc->ptx);
        goto out;
    }
    for (size_t i = 0; i < d.mod->src_len; i++)
        if (d.mod->src[i] == '\n')
            d.nlines++;
    if (d.mod->src_len && d.mod->src[d.mod->src_len - 1] != '\n')
        d.nlines++;
    int st = session_start(&d);
    if (st) {
        rc = st < 0 || d.verdict != 0 ? 1 : 0;
        goto out;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    bool tty = isatty(STDIN_FILENO) && !batch;
    if (tty || !batch)
        printf("ptxi debug: case %s, kernel %s in %s; `help` lists the commands.\n", d.lc->name, d.entry->name,
               d.lc->ptx);
    bool go = true;
    for (int i = 0; i < nscripts && go; i++) {
        if (script_is_cmd[i]) {
            if (echo)
                printf("(ptxi) %s\n", scripts[i]);
            go = execute(&d, scripts[i], NULL);
            continue;
        }
        FILE *f = fopen(scripts[i], "r");
        if (!f) {
            dbg_err("ptxi debug: -x %s: %s", scripts[i], strerror(errno));
            continue;
        }
        go = run_file(&d, f, echo);
        fclose(f);
    }
    if (go && !batch) {
        if (tty)
            run_tty(&d);
        else
            run_file(&d, stdin, echo);
    }
    fflush(stdout);
    rc = d.verdict > 0 ? 1 : 0;
out:
    session_end(&d);
    dbg_syms_free(&d);
    free(d.bps);
    free(d.watches);
    free(d.mbars);
    if (d.mod)
        ir_module_free(d.mod);
    launch_free_all(cases, ncases);
    free(scripts);
    free(script_is_cmd);
    return rc;
}
