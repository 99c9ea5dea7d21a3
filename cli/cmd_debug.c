/* cmd_debug.c — `ptxi debug`: a gdb-like REPL over the interpreter's step API.
 *
 *   ptxi debug LAUNCH.json|CASES.jsonl [--filter NAME] [--complete=POLICY]
 *              [-x FILE] [-ex CMD]... [--batch] [--echo] [--trace FILE.json]
 *
 * The launch is set up exactly as `ptxi run` sets it up (launch/launch.h),
 * then nothing runs until a command says so.  Commands read from a
 * terminal go through libedit (line editing, tab completion, history
 * saved when asked; Ctrl-C abandons the line); from a pipe or a file they
 * are read line by line with no prompt, so a script of commands is a
 * test.  Every line goes through exec_line(): it collects `commands`
 * bodies, and after a command that moved the run it shows the displays
 * and runs the stopping breakpoint's commands.  A breakpoint the
 * interpreter reports stops only if bp_decide() says so (its condition
 * holds in a lane at it, its ignore count is spent).  When the kernel ends (or stops on a fault or a deadlock) the
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
#include <sys/time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <editline/readline.h>
#include "cli/cli.h"
#include "cli/debug.h"
#include "launch/trace.h"

static volatile sig_atomic_t interrupted;

/* --timeout: SIGALRM ends the command that runs too long, as Ctrl-C does */
static void on_sigalrm(int sig)
{
    (void)sig;
    interrupted = 2;
}

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
    if (d->trace && launch_trace_close(d->trace, d->c))
        dbg_err("ptxi debug: --trace %s: write error", d->trace_path);
    d->trace = NULL;
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
    d->l.max_steps = d->max_steps;
    d->l.no_contract = d->no_contract;
    d->c = interp_new(&d->l);
    if (!d->c) {
        dbg_err("ptxi debug: out of memory creating the launch");
        return -1;
    }
    for (size_t i = 0; i < d->nbps; i++)
        if (d->bps[i].enabled)
            interp_break_add(d->c, d->bps[i].func, d->bps[i].pc);
    if (d->trace_path) {   /* each `run` writes the file anew */
        d->trace = launch_trace_open(d->trace_path, &d->l, err, sizeof err);
        if (!d->trace)
            dbg_err("ptxi debug: %s", err);
    }
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

/* "LOCATION if COND": split at the word `if`; *cond gets COND or NULL. */
static char *split_cond(const char *args, char **cond)
{
    char *loc = strdup(args);
    *cond = NULL;
    if (!loc)
        return NULL;
    for (char *p = loc; (p = strstr(p, "if")); p += 2) {
        bool before = p == loc || isspace((unsigned char)p[-1]);
        bool after = !p[2] || isspace((unsigned char)p[2]) || p[2] == '(';
        if (before && after) {
            *cond = strdup(skip_ws(p + 2));
            *p = 0;
            break;
        }
    }
    return loc;
}

static void add_break(dbg *d, const char *args, bool temp)
{
    int func;
    uint32_t pc;
    char *cond, *loc = split_cond(args, &cond);
    if (!loc || dbg_parse_location(d, loc, &func, &pc)) {
        free(loc);
        free(cond);
        return;
    }
    free(loc);
    if (cond && !*cond) {
        dbg_err("Argument required (the condition after `if`).");
        free(cond);
        return;
    }
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
    b->cond = cond;
    bp_sync(d, func, pc);
    char desc[320];
    bp_describe(d, b, desc, sizeof desc);
    printf("%s %d at %s%s%s\n", temp ? "Temporary breakpoint" : "Breakpoint", b->num, desc,
           cond ? ", if " : "", cond ? cond : "");
}

static void bp_free(dbg_bp *b)
{
    free(b->cond);
    for (size_t i = 0; i < b->ncmds; i++)
        free(b->cmds[i]);
    free(b->cmds);
}

static dbg_bp *bp_by_num(dbg *d, const char *args, const char **rest, const char *usage)
{
    char *end;
    args = skip_ws(args);
    long n = strtol(args, &end, 10);
    if (end == args) {
        if (!*args && d->nbps) {   /* gdb: the last breakpoint set */
            *rest = args;
            return &d->bps[d->nbps - 1];
        }
        dbg_err("Usage: %s", usage);
        return NULL;
    }
    for (size_t i = 0; i < d->nbps; i++)
        if (d->bps[i].num == n) {
            *rest = skip_ws(end);
            return &d->bps[i];
        }
    dbg_err("No breakpoint number %ld.", n);
    return NULL;
}

static void dc_condition(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    const char *rest;
    if (!*skip_ws(args)) {
        dbg_err("Usage: condition N [EXPRESSION]  (without EXPRESSION: stop unconditionally)");
        return;
    }
    dbg_bp *b = bp_by_num(d, args, &rest, "condition N [EXPRESSION]");
    if (!b)
        return;
    free(b->cond);
    b->cond = *rest ? strdup(rest) : NULL;
    if (b->cond)
        printf("Breakpoint %d stops only if %s.\n", b->num, b->cond);
    else
        printf("Breakpoint %d now unconditional.\n", b->num);
}

static void dc_ignore(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    const char *rest;
    dbg_bp *b = bp_by_num(d, args, &rest, "ignore N COUNT");
    if (!b)
        return;
    char *end;
    long k = strtol(rest, &end, 0);
    if (end == rest || *skip_ws(end) || k < 0) {
        dbg_err("Usage: ignore N COUNT  (\"%s\" is not a count)", rest);
        return;
    }
    b->ignore = (unsigned)k;
    if (k == 0)
        printf("Will stop next time breakpoint %d is reached.\n", b->num);
    else
        printf("Will ignore next %ld crossing%s of breakpoint %d.\n", k, k == 1 ? "" : "s", b->num);
}

static void dc_commands(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    const char *rest;
    dbg_bp *b = bp_by_num(d, args, &rest, "commands [N], then one command per line, then `end`");
    if (!b)
        return;
    for (size_t i = 0; i < b->ncmds; i++)
        free(b->cmds[i]);
    free(b->cmds);
    b->cmds = NULL;
    b->ncmds = 0;
    d->collect_num = b->num;
    if (isatty(STDIN_FILENO))
        printf("Type commands for breakpoint %d, one per line.\nEnd with a line saying just \"end\".\n", b->num);
}

static void dc_break(dbg *d, const char *fmt, const char *args) { (void)fmt; add_break(d, args, false); }
static void dc_tbreak(dbg *d, const char *fmt, const char *args) { (void)fmt; add_break(d, args, true); }

static void delete_bp_index(dbg *d, size_t i)
{
    int f = d->bps[i].func;
    uint32_t pc = d->bps[i].pc;
    if (d->collect_num == d->bps[i].num)
        d->collect_num = 0;
    bp_free(&d->bps[i]);
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

/* A watched value in words: by its format or type (a float as a float),
 * an mbarrier (8 bytes where mbarrier.init ran) decoded, else hex and
 * decimal; longer ranges as bytes. */
static void watch_value(const dbg *d, const dbg_watch *w, const uint8_t *b, char *out, size_t n)
{
    uint32_t len = w->len;
    size_t at = 0;
    if (len == 8 && w->space == DBG_SP_SHARED && !w->fmt) {
        for (size_t i = 0; i < d->nmbars; i++)
            if (d->mbars[i].cta == w->cta && d->mbars[i].off == w->addr) {
                uint64_t word;
                memcpy(&word, b, 8);
                interp_mbar mb;
                interp_mbar_decode(word, &mb);
                if (mb.initialised) {
                    snprintf(out, n, "mbarrier phase parity %u, %u of %u arrivals pending, tx-count %d (0x%016" PRIx64 ")",
                             mb.phase, mb.pending, mb.expected, mb.tx, word);
                    return;
                }
            }
    }
    bool is_float = w->fmt == 'f' || (!w->fmt && w->type && ir_types[w->type].kind == 'f');
    /* floats: the variable's width, else f32 (f16 for 2 bytes), one value per element */
    unsigned fw = w->type && ir_types[w->type].kind == 'f' ? ir_types[w->type].bits / 8 : len == 2 ? 2 : 4;
    if (is_float && len > fw && len % fw == 0) {
        for (uint32_t i = 0; i < len && at + 24 < n; i += fw) {
            uint64_t v = 0;
            memcpy(&v, b + i, fw);
            char t[64];
            dbg_fmt_value(t, sizeof t, v, 0, fw * 8, 'f');
            at += (size_t)snprintf(out + at, n - at, "%s%s", i ? " " : "", t);
        }
        return;
    }
    if (len == 1 || len == 2 || len == 4 || len == 8) {
        uint64_t v = 0;
        memcpy(&v, b, len);
        if (w->fmt || w->type) {
            char t[80];
            dbg_fmt_value(t, sizeof t, v, w->fmt ? 0 : w->type, len * 8, w->fmt);
            snprintf(out, n, "%s", t);
            return;
        }
        snprintf(out, n, "0x%0*" PRIx64 " (%" PRIu64 ")", (int)len * 2, v, v);
        return;
    }
    for (uint32_t i = 0; i < len && at + 4 < n; i++)
        at += (size_t)snprintf(out + at, n - at, "%s%02x", i ? " " : "", b[i]);
}

static void dc_watch(dbg *d, const char *fmt, const char *args)
{
    char f = fmt && *fmt ? fmt[strlen(fmt) - 1] : 0;
    if (fmt && *fmt && (strlen(fmt) != 1 || !strchr("xduf", f))) {
        dbg_err("Bad format \"/%s\": watch takes /x /d /u or /f.", fmt);
        return;
    }
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
    w.fmt = f;
    if (space == DBG_SP_SHARED) {
        if (addr >> 32) {
            dbg_err("watch: smem 0x%" PRIx64 " is not a shared::cta or shared::cluster address.", addr);
            return;
        }
        uint32_t s = (uint32_t)addr, rank = s >> MEM_SHARED_RANK_SHIFT;
        w.cta = rank ? (int)rank - 1 : d->cta;
        w.addr = s & MEM_SHARED_OFF_MASK;
        uint32_t size = d->c ? interp_smem_size(d->c) : 0;
        if (size && (w.addr < 1024 || w.addr + len > size)) {
            dbg_err("watch: smem 0x%" PRIx64 " + %lu bytes is outside the CTA's shared memory (0x400..0x%x; the "
                    "first KiB is reserved).", w.addr, len, size);
            return;
        }
        const dbg_sym *sym = dbg_sym_at(d, DBG_SP_SHARED, w.addr);
        if (sym)
            w.type = d->mod->syms[sym->index].type;
    } else if (!mem_global_host(d->g, addr, len)) {
        dbg_err("watch: global 0x%" PRIx64 " + %lu bytes is not inside a buffer (info launch lists them).", addr, len);
        return;
    } else {
        const dbg_sym *sym = dbg_sym_at(d, DBG_SP_GLOBAL, addr);
        if (sym)
            w.type = d->mod->syms[sym->index].type;
    }
    /* a float variable's values show as floats (integers keep hex and decimal) */
    if (w.type && ir_types[w.type].kind != 'f')
        w.type = 0;
    if (w.type && ir_types[w.type].kind == 'f' && (w.len * 8) % ir_types[w.type].bits)
        w.type = 0;
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
        if (b->cond)
            printf("        stop only if %s\n", b->cond);
        if (b->ignore)
            printf("        will ignore next %u crossing%s\n", b->ignore, b->ignore == 1 ? "" : "s");
        for (size_t k = 0; k < b->ncmds; k++)
            printf("        %s\n", b->cmds[k]);
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
        watch_value(d, w, w->old, ov, sizeof ov);
        watch_value(d, w, now, nv, sizeof nv);
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
    if (d->trace)
        launch_trace_step(d->trace, d->c, ev);
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

/* Whether a warp that reached a breakpoint stops there: an enabled
 * breakpoint at its pc whose condition holds in one of the lanes at it
 * (evaluated in each lane, as cuda-gdb evaluates per thread) and whose
 * ignore count is spent.  A condition that cannot be evaluated stops, as
 * in gdb.  *num gets the breakpoint, *lane the lane where the condition
 * held (-1: no condition). */
static bool bp_decide(dbg *d, const interp_event *ev, int *num, int *lane)
{
    int cta0 = d->cta, warp0 = d->warp, lane0 = d->lane, frame0 = d->frame;
    d->cta = ev->cta;
    d->warp = ev->warp;
    d->frame = 0;
    bool stop = false;
    for (size_t i = 0; i < d->nbps && !stop; i++) {
        dbg_bp *b = &d->bps[i];
        if (!b->enabled || b->func != ev->func || b->pc != ev->pc)
            continue;
        int at = -1;
        for (uint32_t m = ev->lanes; b->cond && m && at < 0; m &= m - 1) {
            int l = __builtin_ctz(m);
            dbg_value v;
            char err[256];
            if (dbg_eval(d, b->cond, l, &v, err, sizeof err)) {
                printf("Error in testing condition for breakpoint %d: %s\n", b->num, err);
                at = l;
            } else if (dbg_value_true(&v)) {
                at = l;
            }
        }
        if (b->cond && at < 0)
            continue;
        b->hits++;
        if (b->ignore) {
            b->ignore--;
            continue;
        }
        stop = true;
        *num = b->num;
        *lane = at;
    }
    d->cta = cta0;
    d->warp = warp0;
    d->lane = lane0;
    d->frame = frame0;
    return stop;
}

static dbg_bp *bp_find_num(dbg *d, int num)
{
    for (size_t i = 0; i < d->nbps; i++)
        if (d->bps[i].num == num)
            return &d->bps[i];
    return NULL;
}

/* Report a breakpoint stop of warp (cta, warp): breakpoint `num` (0: none
 * of ours), the condition held in `lane` (selected; -1 none). */
static void report_break(dbg *d, const interp_event *ev, int num, int lane)
{
    d->cta = ev->cta;
    d->warp = ev->warp;
    d->lane = lane;
    d->list_next = 0;
    dbg_bp *b = bp_find_num(d, num);
    char pre[64] = "";
    if (b)
        snprintf(pre, sizeof pre, "\n%s %d, ", b->temp ? "Temporary breakpoint" : "Breakpoint", b->num);
    d->stopped_bp = b ? b->num : 0;
    dbg_show_warp(d, d->cta, d->warp, pre);
    if (lane >= 0)
        printf("(the condition holds in lane %d, now selected)\n", lane);
    if (b && b->temp)
        delete_bp_index(d, (size_t)(b - d->bps));
}

/* A breakpoint event: true (reported) when it stops the run. */
static bool on_break(dbg *d, const interp_event *ev)
{
    int num = 0, lane = -1;
    if (!bp_decide(d, ev, &num, &lane))
        return false;
    report_break(d, ev, num, lane);
    return true;
}

bool dbg_check_running(dbg *d)
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
    for (;;) {
        if (interrupted) {
            printf(interrupted == 2 ? "\nTime limit reached (--timeout): the command stopped.\n" : "\nInterrupted.\n");
            dbg_show_warp(d, d->cta, d->warp, NULL);
            return STOP_INTR;
        }
        int k = step_once(d, -1, -1, &ev, &stop);
        if (k == INTERP_EV_DONE || k == INTERP_EV_ERROR) {
            report_end(d, k);
            return STOP_END;
        }
        if (k == INTERP_EV_BREAK && on_break(d, &ev))
            return STOP_BREAK;
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
    for (;;) {
        interp_warp_info wi;
        if (interrupted)
            return STOP_INTR;   /* the caller says so */
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
                if (on_break(d, &ev))
                    return STOP_BREAK;
                continue;
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
        if (k == INTERP_EV_BREAK && on_break(d, &ev))
            return STOP_BREAK;
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

/* One instruction of the selected warp; `over_calls` runs a call to its return. */
static int step_instr(dbg *d, bool over_calls)
{
    uint32_t lanes, pc;
    int f;
    bool have = dbg_warp_next(d, d->cta, d->warp, &lanes, &f, &pc);
    int lane = have ? __builtin_ctz(lanes) : 0;
    interp_warp_info wi;
    int depth0 = have && !interp_warp_get(d->c, d->cta, d->warp, &wi) ? wi.depth[lane] : 0;
    bool is_call = have && d->mod->funcs[f].instrs[pc].op == IR_OP_CALL;
    int stop = step_warp(d);
    while (over_calls && is_call && stop == STOP_NONE && !interp_warp_get(d->c, d->cta, d->warp, &wi) &&
           wi.state[lane] != INTERP_T_EXITED && wi.depth[lane] > depth0) {
        if (interrupted)
            return STOP_INTR;
        stop = step_warp(d);
    }
    return stop;
}

/* One CUDA source line, as gdb's step/next: instructions until the warp
 * stands on another line (instructions without a line, .loc 0, are passed
 * through), or back at the start of the same line (a loop on one line),
 * or in another call depth (step into a callee / out of a return). */
static int step_line(dbg *d, bool over_calls)
{
    uint32_t lanes, pc0;
    int f0, file0;
    uint32_t line0;
    if (!dbg_warp_next(d, d->cta, d->warp, &lanes, &f0, &pc0) || !dbg_src_at(d, f0, pc0, &file0, &line0))
        return step_instr(d, over_calls);
    int lane = __builtin_ctz(lanes);
    int depth0 = dbg_stack_depth(d, lane), cta = d->cta, warp = d->warp;
    for (;;) {
        if (interrupted)
            return STOP_INTR;
        int stop = step_instr(d, over_calls);
        if (stop != STOP_NONE || d->cta != cta || d->warp != warp)
            return stop;
        uint32_t pc;
        int f, file;
        uint32_t line;
        if (!dbg_warp_next(d, d->cta, d->warp, &lanes, &f, &pc))
            return STOP_NONE;
        int depth = dbg_stack_depth(d, lane);
        if (!dbg_src_at(d, f, pc, &file, &line))
            continue;
        if (depth != depth0 || file != file0 || line != line0 || (f == f0 && pc <= pc0))
            return STOP_NONE;
    }
}

/* step/next (by source line when the PTX has .loc and `set source cuda`)
 * and stepi/nexti (by instruction): N times. */
static void do_steps(dbg *d, const char *args, bool over_calls, bool by_line)
{
    long n = parse_count(args);
    if (n < 0 || !dbg_check_running(d))
        return;
    int stop = STOP_NONE;
    by_line = by_line && d->source_view && d->mod->srclines;
    long i = 0;
    for (; i < n && stop == STOP_NONE; i++)
        stop = interrupted ? STOP_INTR : by_line ? step_line(d, over_calls) : step_instr(d, over_calls);
    if (stop == STOP_INTR)
        printf("\nInterrupted after %ld of %ld step%s.\n", i - 1, n, n == 1 ? "" : "s");
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

static void dc_step(dbg *d, const char *fmt, const char *args) { (void)fmt; do_steps(d, args, false, true); }
static void dc_next(dbg *d, const char *fmt, const char *args) { (void)fmt; do_steps(d, args, true, true); }
static void dc_stepi(dbg *d, const char *fmt, const char *args) { (void)fmt; do_steps(d, args, false, false); }
static void dc_nexti(dbg *d, const char *fmt, const char *args) { (void)fmt; do_steps(d, args, true, false); }

static void dc_continue(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    if (*skip_ws(args)) {
        dbg_err("continue takes no argument here (to skip a breakpoint N times, disable it).");
        return;
    }
    if (!dbg_check_running(d))
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
    if (!dbg_check_running(d))
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
        int num = b->num;
        bp_sync(d, f, pc);
        dc_continue(d, NULL, "");
        /* stopped elsewhere (another breakpoint, a watchpoint, the end):
         * the temporary breakpoint must not outlive the command, as in gdb */
        for (size_t i = 0; i < d->nbps; i++)
            if (d->bps[i].num == num) {
                delete_bp_index(d, i);
                break;
            }
        return;
    }
    uint32_t lanes, pc0;
    int f0;
    if (!dbg_warp_next(d, d->cta, d->warp, &lanes, &f0, &pc0)) {
        do_steps(d, "", true, false);
        return;
    }
    int lane = __builtin_ctz(lanes);
    interp_warp_info wi;
    if (interp_warp_get(d->c, d->cta, d->warp, &wi)) {
        do_steps(d, "", true, false);
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
    if (stop == STOP_INTR)
        printf("\nInterrupted.\n");
    if (stop == STOP_NONE || stop == STOP_INTR || stop == STOP_WATCH) {
        d->list_next = 0;
        dbg_show_warp(d, d->cta, d->warp, NULL);
    }
}

/* After `finish`: gdb's "Value returned is $N = V", one line per return
 * parameter of the callee, read from the caller's return variables (the
 * call's first operand) once the lane stands at the call's return point;
 * each value goes into the history.  A return parameter wider than 8 bytes
 * (an array or .v4) is shown as its bytes and not kept. */
static void finish_value(dbg *d, int lane, int callee, int caller, uint32_t ret_pc)
{
    interp_frame_info fr[2];
    if (interp_lane_frames(d->c, d->cta, d->warp, lane, fr, 2) < 1 || fr[0].func != caller || fr[0].pc != ret_pc ||
        ret_pc == 0)
        return;
    const ir_function *cf = &d->mod->funcs[caller], *ef = &d->mod->funcs[callee];
    const ir_instr *in = &cf->instrs[ret_pc - 1];
    if (in->op != IR_OP_CALL || in->nopd < 1 || in->opd[0].kind != IR_OPD_VEC)
        return;
    uint32_t n = in->opd[0].u.vec.n;
    for (uint32_t k = 0; k < n && k < ef->nrets; k++) {
        const ir_operand *o = &cf->vecpool[in->opd[0].u.vec.first + k];
        if (o->kind != IR_OPD_SYM)
            continue;
        const ir_symbol *rs = &d->mod->syms[ef->rets[k]];
        int space;
        uint64_t addr;
        uint8_t buf[64];
        char why[256];
        size_t size = rs->size < sizeof buf ? (size_t)rs->size : sizeof buf;
        if (!size || !interp_sym_addr(d->c, d->cta, d->warp, lane, o->u.sym, &space, &addr) ||
            !dbg_read(d, DBG_SP_LOCAL, addr, buf, size, why, sizeof why))
            continue;
        if (size <= 8 && rs->vec <= 1 && rs->nelem == 1) {
            uint64_t raw = 0;
            memcpy(&raw, buf, size);
            /* nvcc declares every return as .b32/.b64: take the type the
             * caller reads it with (ld.param.f32 %f1, [retval0]) */
            int type = rs->type;
            for (uint32_t pc = ret_pc; pc < cf->ninstrs && pc < ret_pc + 8; pc++) {
                const ir_instr *ld = &cf->instrs[pc];
                if (ld->op == IR_OP_LD && ld->nopd >= 2 && ld->opd[1].kind == IR_OPD_ADDR &&
                    ld->opd[1].u.addr.base_kind == IR_BASE_SYM && ld->opd[1].u.addr.base == o->u.sym &&
                    ld->opd[1].u.addr.off == 0 && ld->types[0] && ir_types[ld->types[0]].bits == size * 8) {
                    type = ld->types[0];
                    break;
                }
            }
            dbg_value v = dbg_typed_value(raw, type);
            struct dbg_hist *nh = realloc(d->hist, (d->nhist + 1) * sizeof *nh);
            if (!nh)
                return;
            d->hist = nh;
            d->hist[d->nhist++] = (struct dbg_hist){v.u, v.f, v.kind, v.bits};
            char vb[160];
            dbg_value_str(&v, 0, vb, sizeof vb);
            printf("Value returned is $%zu = %s\n", d->nhist, vb);
        } else {
            printf("Value returned (%s, %zu bytes) = {", rs->name, size);
            for (size_t i = 0; i < size; i++)
                printf("%s0x%02x", i ? ", " : "", buf[i]);
            printf("}\n");
        }
    }
}

/* finish: run the selected lane until the selected frame returns (gdb's
 * "Run till exit from #N"). */
static void dc_finish(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    (void)args;
    if (!dbg_check_running(d) || !dbg_resident(d)) {
        if (d->state == DBG_IDLE)
            dbg_err("The kernel is not running yet.");
        return;
    }
    int lane = dbg_ref_lane(d);
    int depth = dbg_stack_depth(d, lane);
    if (depth - d->frame <= 1) {
        dbg_err("\"finish\" not meaningful in the outermost frame (lane %d is in the kernel's entry).", lane);
        return;
    }
    int target = depth - d->frame - 1;   /* frames left once the selected one returns */
    interp_frame_info fr[64];
    interp_lane_frames(d->c, d->cta, d->warp, lane, fr, 64);
    printf("Run till exit from #%d %s\n", d->frame, d->mod->funcs[fr[d->frame].func].name);
    int callee = fr[d->frame].func, caller = fr[d->frame + 1].func;
    uint32_t ret_pc = fr[d->frame + 1].ret_pc;
    int cta = d->cta, warp = d->warp, stop = STOP_NONE;
    d->frame = 0;
    interp_warp_info wi;
    while (stop == STOP_NONE) {
        stop = step_warp(d);
        if (stop != STOP_NONE || d->cta != cta || d->warp != warp || interp_warp_get(d->c, cta, warp, &wi) ||
            wi.state[lane] == INTERP_T_EXITED || dbg_stack_depth(d, lane) <= target)
            break;
    }
    if (stop == STOP_INTR)
        printf("\nInterrupted.\n");
    if (stop == STOP_NONE || stop == STOP_INTR || stop == STOP_WATCH) {
        d->list_next = 0;
        d->lane = lane;
        dbg_show_warp(d, d->cta, d->warp, NULL);
    }
    if (stop == STOP_NONE && d->cta == cta && d->warp == warp)
        finish_value(d, lane, callee, caller, ret_pc);
}

/* Run (the scheduler, breakpoints passed over) until CTA `id` is
 * resident; returns its slot or -1 (message printed). */
int dbg_run_to_cta(dbg *d, const uint32_t id[3])
{
    int slot = -1;
    int w = interp_cta_where(d->c, id, &slot);
    if (w == INTERP_CTA_NONE) {
        dbg_err("CTA (%u,%u,%u) is outside the grid (%u,%u,%u).", id[0], id[1], id[2], d->l.grid[0], d->l.grid[1],
                d->l.grid[2]);
        return -1;
    }
    if (w == INTERP_CTA_DONE || (w != INTERP_CTA_RESIDENT && d->state == DBG_FINISHED)) {
        dbg_err("CTA (%u,%u,%u) has already run to its end (CTAs run cluster by cluster, in order); `run` starts "
                "again.", id[0], id[1], id[2]);
        return -1;
    }
    if (w == INTERP_CTA_LATER) {
        printf("Running until CTA (%u,%u,%u) is resident...\n", id[0], id[1], id[2]);
        interp_event ev;
        int stop = STOP_NONE;
        while ((w = interp_cta_where(d->c, id, &slot)) == INTERP_CTA_LATER) {
            if (interrupted) {
                printf("\nInterrupted.\n");
                return -1;
            }
            int k = step_once(d, -1, -1, &ev, &stop);
            if (k == INTERP_EV_DONE || k == INTERP_EV_ERROR) {
                report_end(d, k);
                return -1;
            }
            if (stop == STOP_WATCH) {
                dbg_show_warp(d, d->cta, d->warp, NULL);
                return -1;
            }
        }
        if (w != INTERP_CTA_RESIDENT)
            return -1;
    }
    return slot;
}

/* ---- selection -------------------------------------------------------------------------------- */

static void dc_warp(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    args = skip_ws(args);
    if (!dbg_resident(d) && !(strchr(args, ',') && d->state != DBG_FINISHED && d->c)) {
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
            uint32_t id[3] = {x, y, z};
            cta = dbg_run_to_cta(d, id);   /* cuda-gdb focus: run until it is resident */
            if (cta < 0)
                return;
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
    d->frame = 0;
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
    d->frame = 0;
    printf("Lane %d selected.\n", d->lane);
}

/* ---- scripting: echo, shell, source --------------------------------------------------------- */

/* echo TEXT: C escapes (\n, \t, \\, \") as in gdb; no newline unless asked. */
static void dc_echo(dbg *d, const char *fmt, const char *args)
{
    (void)d;
    (void)fmt;
    for (const char *p = args; *p; p++) {
        if (*p != '\\' || !p[1]) {
            if (*p != '\\')
                putchar(*p);
            continue;
        }
        p++;
        switch (*p) {
        case 'n': putchar('\n'); break;
        case 't': putchar('\t'); break;
        case 'a': putchar('\a'); break;
        default: putchar(*p); break;
        }
    }
    fflush(stdout);
}

static void dc_shell(dbg *d, const char *fmt, const char *args)
{
    (void)d;
    (void)fmt;
    fflush(stdout);
    fflush(stderr);
    int rc = system(*args ? args : "${SHELL:-/bin/sh}");
    if (rc == -1)
        dbg_err("shell: cannot run the command: %s", strerror(errno));
    else if (WIFEXITED(rc) && WEXITSTATUS(rc))
        printf("(exit status %d)\n", WEXITSTATUS(rc));
}

static bool run_file(dbg *d, FILE *f, bool echo);

static void dc_source(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    args = skip_ws(args);
    if (!*args) {
        dbg_err("source: a file of commands is required.");
        return;
    }
    if (d->depth > 16) {
        dbg_err("source: nested too deeply (a file that sources itself?).");
        return;
    }
    FILE *f = fopen(args, "r");
    if (!f) {
        dbg_err("%s: %s.", args, strerror(errno));
        return;
    }
    d->depth++;
    if (!run_file(d, f, false))
        d->quit = true;
    d->depth--;
    fclose(f);
}

static void dc_info_source(dbg *d, const char *args)
{
    (void)args;
    printf("Current source file is %s\n", d->mod->path ? d->mod->path : "<ptx>");
    printf("Contains %u lines.\nSource language is PTX %u.%u (%s).\n", d->nlines, d->mod->version_major,
           d->mod->version_minor, d->mod->target);
    dbg_info_cuda_source(d);
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
    {"display", NULL, dbg_info_display, "the expressions `display` shows at every stop"},
    {"frame", "f", dbg_info_frame, "the selected frame: function, pc, caller, where it returns"},
    {"watchpoints", NULL, dc_info_breakpoints, "the same as info breakpoints"},
    {"warps", "w", dbg_info_warps, "every resident warp: CTA, warp, lanes, pc, source line, state"},
    {"registers", "r", dbg_info_registers, "[LANE | %REG...]: the registers of one lane of the selected warp"},
    {"mbarriers", "m", dbg_info_mbarriers, "[ADDRESS]: mbarriers seen (or the one at ADDRESS): phase, arrivals, tx-count, waiters"},
    {"tmaps", "t", dbg_info_tmaps, "[--svg FILE] [ADDRESS]: the launch's tensor maps decoded (or the 128 bytes at ADDRESS); --svg draws them"},
    {"async", "a", dbg_info_async, "asynchronous copies in flight: kind, bytes, source, destination, mbarrier"},
    {"wgmma", NULL, dbg_info_wgmma, "wgmma.mma_async not yet waited for: shape, types, descriptors decoded, registers written"},
    {"desc", NULL, dbg_info_desc, "%REG | NUMBER: a wgmma matrix descriptor decoded (address, LBO, SBO, swizzle, base offset)"},
    {"launch", NULL, dbg_info_launch, "the case: grid, block, buffers and variables with their addresses"},
    {"line", NULL, dbg_info_line, "[LOCATION]: the pc of a source line"},
    {"source", NULL, dc_info_source, "the PTX file and the CUDA (or Python) files its .file/.loc name"},
    {"threads", NULL, dbg_info_warps, "the same as info warps (CUDA threads grouped by warp and pc)"},
    {"cuda", NULL, dbg_info_cuda, "kernels|blocks|warps|lanes|threads: cuda-gdb's views (threads in runs at one place)"},
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
static void dc_set(dbg *d, const char *fmt, const char *args);
static void dc_quit(dbg *d, const char *fmt, const char *args) { (void)d; (void)fmt; (void)args; }

static const struct cmd {
    const char *name, *alias;
    cmd_fn fn;
    bool repeat;            /* an empty line at a terminal repeats it */
    const char *usage, *help;
} cmds[] = {
    {"run", "r", dc_run, false, "run", "start the kernel (again, from fresh buffers, if it has run)"},
    {"continue", "c", dc_continue, true, "continue", "run until a breakpoint, a watchpoint, a fault, a deadlock or the end"},
    {"step", "s", dc_step, true, "step [N]", "N source lines (CUDA lines with .loc, else PTX instructions) of the selected warp, into calls"},
    {"next", "n", dc_next, true, "next [N]", "like step, but a call runs to its return"},
    {"stepi", "si", dc_stepi, true, "stepi [N]", "N PTX instructions of the selected warp, into calls"},
    {"nexti", "ni", dc_nexti, true, "nexti [N]", "like stepi, but a call runs to its return"},
    {"until", "u", dc_until, true, "until [LOCATION]", "run to LOCATION; without one, step until the warp leaves its loop"},
    {"advance", NULL, dc_until, false, "advance LOCATION", "run to LOCATION"},
    {"finish", "fin", dc_finish, false, "finish", "run the selected lane until the selected frame (a .func call) returns; print the value it returned"},
    {"break", "b", dc_break, false, "break LOCATION [if COND]", "stop before a warp executes LOCATION (LINE, FILE:LINE, k.cu:LINE, LABEL, FUNC, *PC)"},
    {"tbreak", NULL, dc_tbreak, false, "tbreak LOCATION [if COND]", "a breakpoint deleted when first hit"},
    {"condition", NULL, dc_condition, false, "condition N [COND]", "stop at breakpoint N only where COND holds (none: always)"},
    {"ignore", NULL, dc_ignore, false, "ignore N COUNT", "pass over breakpoint N the next COUNT times it is reached"},
    {"commands", NULL, dc_commands, false, "commands [N] ... end", "commands to run when breakpoint N (the last one) stops"},
    {"watch", NULL, dc_watch, false, "watch[/FMT] [smem|global] ADDRESS [BYTES]", "stop when those bytes change (instructions and TMA landings); /f shows floats"},
    {"delete", "d", dc_delete, false, "delete [N...]", "delete breakpoints/watchpoints (all without N)"},
    {"disable", NULL, dc_disable, false, "disable [N...]", "disable breakpoints/watchpoints"},
    {"enable", NULL, dc_enable, false, "enable [N...]", "enable breakpoints/watchpoints"},
    {"info", "i", dc_info, false, "info SUBCOMMAND", "breakpoints, warps/threads, registers, frame, display, mbarriers, tmaps, async, wgmma, desc, launch, line, source, cuda"},
    {"warp", NULL, dc_warp, false, "warp [CTA] WARP", "select a warp (CTA: resident slot or x,y,z)"},
    {"lane", NULL, dc_lane, false, "lane [N|auto]", "select the lane for info registers, %reg in addresses and local memory"},
    {"cta", NULL, dbg_cmd_cta, false, "cta [X,Y,Z [WARP]]", "focus on a CTA of the grid by %ctaid, running until it is resident"},
    {"cuda", NULL, dbg_cmd_cuda, false, "cuda [block X,Y,Z] [thread X,Y,Z] | cuda warp W | cuda lane L", "cuda-gdb's focus: show it, or switch (running until the block is resident)"},
    {"backtrace", "bt", dbg_cmd_bt, false, "backtrace", "the selected lane's call stack (.func calls), innermost first"},
    {"where", NULL, dbg_cmd_bt, false, "where", "the same as backtrace"},
    {"frame", "f", dbg_cmd_frame, false, "frame [N]", "select frame N of the stack (registers and list follow it)"},
    {"up", NULL, dbg_cmd_up, false, "up [N]", "select the caller's frame (N levels up)"},
    {"down", NULL, dbg_cmd_down, false, "down [N]", "select the callee's frame (N levels down)"},
    {"list", "l", dbg_cmd_list, true, "list [LOCATION | A,B | k.cu:LINE]", "source lines around the selected warp (or LOCATION, or lines A to B); again: the next ones"},
    {"disassemble", "disas", dbg_cmd_disas, false, "disassemble[/s] [FUNCTION]", "instructions around the selected warp's pc (or all of FUNCTION); /s: under their CUDA lines"},
    {"print", "p", dbg_cmd_print, false, "print[/FMT] %REG [LANE] | VARIABLE | BUFFER | EXPR", "a register in every lane (or one), a variable's address, or an expression in the selected lane ($N); "
     "print/matrix [a|d] [LINE]: a wgmma's accumulators (d) or A fragment (a) as the matrix they hold"},
    {"output", NULL, dbg_cmd_print, false, "output[/FMT] EXPR", "the same as print"},
    {"x", NULL, dbg_cmd_x, true, "x/NFU [smem|global|param|local] ADDRESS", "examine memory: N units, F = x d u o t f c, U = b h w g; ADDRESS may be an expression"},
    {"set", NULL, dc_set, false, "set var %REG[LANE] = VALUE | set history save on|off | set history filename F | set source cuda|ptx", "change a register (every lane without [LANE]); settings"},
    {"display", NULL, dbg_cmd_display, false, "display[/FMT] EXPR", "show EXPR after every stop (no EXPR: show them now)"},
    {"undisplay", NULL, dbg_cmd_undisplay, false, "undisplay [N...]", "stop showing display N (all without N)"},
    {"echo", NULL, dc_echo, false, "echo TEXT", "print TEXT (\\n for a newline), for scripts"},
    {"shell", NULL, dc_shell, false, "shell COMMAND", "run COMMAND in /bin/sh"},
    {"source", NULL, dc_source, false, "source FILE", "execute the commands in FILE"},
    {"help", "h", dc_help, false, "help [COMMAND]", "this list, or one command"},
    {"quit", "q", dc_quit, false, "quit", "leave (also end of input)"},
};

const char *dbg_cmd_name(size_t i)
{
    return i < sizeof cmds / sizeof cmds[0] ? cmds[i].name : NULL;
}

const char *dbg_info_name(size_t i)
{
    return i < sizeof infos / sizeof infos[0] ? infos[i].name : NULL;
}

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
    bool takes_fmt = c->fn == dbg_cmd_x || c->fn == dbg_cmd_print || c->fn == dbg_cmd_display || c->fn == dc_watch ||
                     c->fn == dbg_cmd_disas;
    if (takes_fmt && isspace((unsigned char)*rest) && *skip_ws(rest) == '/')
        rest = skip_ws(rest);   /* "p /x %r7" as well as "p/x %r7" */
    if (*rest == '/') {
        size_t k = strcspn(rest + 1, " \t");
        if (k >= sizeof fmt) {
            dbg_err("Format \"%.*s\" is too long.", (int)k, rest + 1);
            return true;
        }
        memcpy(fmt, rest + 1, k);
        fmt[k] = 0;
        rest += 1 + k;
        if (!takes_fmt) {
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

/* Has the run moved since (c0, k0, s0)?  Then a stop happened. */
static bool moved(const dbg *d, const interp_ctx *c0, uint64_t k0, int s0)
{
    return d->c != c0 || d->state != s0 || (d->c && interp_clock(d->c) != k0);
}

/* One line as the user typed it: `commands` bodies are collected, and
 * after a command that moved the run, the frame is reset, the displays are
 * shown and the stopping breakpoint's commands run (those that resume
 * end the list, as in gdb; the loop then handles the next stop without
 * recursing).  Returns false on quit. */
static bool exec_line(dbg *d, const char *line, const struct cmd **last)
{
    if (d->collect_num) {
        const char *t = skip_ws(line);
        dbg_bp *b = bp_find_num(d, d->collect_num);
        if (!strncmp(t, "end", 3) && !*skip_ws(t + 3)) {
            d->collect_num = 0;
            return true;
        }
        if (!b)
            return true;
        char **nc = realloc(b->cmds, (b->ncmds + 1) * sizeof *nc);
        if (!nc)
            return true;
        b->cmds = nc;
        b->cmds[b->ncmds++] = strdup(t);
        return true;
    }
    const interp_ctx *c0 = d->c;
    uint64_t k0 = d->c ? interp_clock(d->c) : 0;
    int s0 = d->state;
    d->stopped_bp = 0;
    interrupted = 0;   /* a Ctrl-C counts for the command it interrupts */
    if (d->timeout > 0) {
        struct itimerval it = { { 0, 0 }, { (time_t)d->timeout, (suseconds_t)((d->timeout - (double)(time_t)d->timeout) * 1e6) } };
        setitimer(ITIMER_REAL, &it, NULL);
    }
    bool go = execute(d, line, last) && !d->quit;
    if (d->timeout > 0) {
        struct itimerval off = { { 0, 0 }, { 0, 0 } };
        setitimer(ITIMER_REAL, &off, NULL);
    }
    for (int rounds = 0; go && moved(d, c0, k0, s0); rounds++) {
        d->frame = 0;
        dbg_show_displays(d);
        dbg_bp *b = d->stopped_bp ? bp_find_num(d, d->stopped_bp) : NULL;
        if (!b || !b->ncmds || d->depth > 16)
            break;
        size_t n = b->ncmds;
        char **copy = calloc(n, sizeof *copy);   /* the commands may delete their breakpoint */
        if (!copy)
            break;
        for (size_t i = 0; i < n; i++)
            copy[i] = strdup(b->cmds[i]);
        c0 = d->c;
        k0 = d->c ? interp_clock(d->c) : 0;
        s0 = d->state;
        d->stopped_bp = 0;
        d->depth++;
        for (size_t i = 0; i < n && go; i++) {
            if (!copy[i] || !strcmp(copy[i], "silent"))
                continue;
            go = execute(d, copy[i], NULL) && !d->quit;
            if (moved(d, c0, k0, s0))
                break;
        }
        d->depth--;
        for (size_t i = 0; i < n; i++)
            free(copy[i]);
        free(copy);
    }
    fflush(stdout);
    return go;
}

/* set: the debugger's own settings, else `set var` (debug_inspect.c). */
static void dc_set(dbg *d, const char *fmt, const char *args)
{
    args = skip_ws(args);
    if (!strncmp(args, "history", 7) && (isspace((unsigned char)args[7]) || !args[7])) {
        const char *a = skip_ws(args + 7);
        if (!strncmp(a, "save", 4)) {
            a = skip_ws(a + 4);
            if (!*a || !strcmp(a, "on") || !strcmp(a, "1"))
                d->history_save = true;
            else if (!strcmp(a, "off") || !strcmp(a, "0"))
                d->history_save = false;
            else
                dbg_err("set history save: on or off, not \"%s\".", a);
            return;
        }
        if (!strncmp(a, "filename", 8) && *skip_ws(a + 8)) {
            free(d->history_file);
            d->history_file = strdup(skip_ws(a + 8));
            return;
        }
        dbg_err("Usage: set history save on|off | set history filename FILE");
        return;
    }
    if (!strncmp(args, "source", 6) && (isspace((unsigned char)args[6]) || !args[6])) {
        const char *a = skip_ws(args + 6);
        d->list_next = 0;
        if (!strcmp(a, "cuda") || !strcmp(a, "on"))
            d->source_view = true;
        else if (!strcmp(a, "ptx") || !strcmp(a, "off"))
            d->source_view = false;
        else
            dbg_err("Usage: set source cuda|ptx  (list and step in .cu lines or in PTX lines)");
        return;
    }
    dbg_cmd_set(d, fmt, args);
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
        "  --trace FILE.json          write a Perfetto/Chrome timeline of what runs (each `run` anew)\n"
        "  --max-steps N              stop the kernel after N warp instructions in all (default 4e9; 0: none)\n"
        "  --no-contract              round every mul and add on its own instead of fusing the pairs ptxas\n"
        "                             fuses into one fma (the add then shows the PTX-literal value)\n"
        "  --timeout SECONDS          stop any one command (run, continue, step N...) after SECONDS (default 600; 0: none)\n"
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
        if (!exec_line(d, line, NULL)) {
            go = false;
            break;
        }
    }
    free(line);
    return go;
}

static char *history_path(const dbg *d)
{
    if (d->history_file)
        return strdup(d->history_file);
    const char *env = getenv("PTXI_HISTFILE");
    return strdup(env && *env ? env : ".ptxi_history");
}

/* The terminal: libedit line editing, tab completion, history (read at
 * start when the file exists, written at the end when `set history save
 * on`, as gdb does).  Ctrl-C at the prompt abandons the line and prompts
 * again ("Quit", as gdb says); during a command it interrupts the command. */
static void run_tty(dbg *d)
{
    const struct cmd *last = NULL;
    char *prev = NULL;
    char *hist = history_path(d);
    stifle_history(1000);
    if (hist && access(hist, R_OK) == 0)
        read_history(hist);
    dbg_complete_init(d);
    for (;;) {
        interrupted = 0;
        char *line = readline(d->collect_num ? ">" : "(ptxi) ");
        if (!line && interrupted) {
            /* libedit returns NULL when read() is interrupted: the line is abandoned */
            printf("\nQuit\n");
            fflush(stdout);
            continue;
        }
        if (!line) {
            putchar('\n');
            break;
        }
        const char *s = skip_ws(line);
        bool go;
        if (!*s && last && last->repeat && prev && !d->collect_num) {
            go = exec_line(d, prev, &last);
        } else {
            if (*s) {
                add_history(line);
                free(prev);
                prev = strdup(line);
            }
            last = NULL;
            go = exec_line(d, line, &last);
        }
        free(line);
        if (!go)
            break;
    }
    free(prev);
    dbg_complete_done();
    char *out = history_path(d);   /* `set history filename` may have changed it */
    if (d->history_save && out && write_history(out) != 0)
        dbg_err("ptxi debug: cannot save the history in %s: %s", out, strerror(errno));
    free(out);
    free(hist);
}

int cmd_debug(int argc, char **argv)
{
    dbg d;
    memset(&d, 0, sizeof d);
    d.verdict = -1;
    d.lane = -1;
    d.policy = INTERP_COMPLETE_DEFERRED;
    d.max_steps = 4000000000ull;    /* as run and test: a runaway kernel ends in minutes */
    d.timeout = 600;
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
        } else if (!strcmp(a, "--no-contract")) {
            d.no_contract = true;
        } else if (!strncmp(a, "--complete=", 11)) {
            if (parse_complete(a + 11, &d))
                goto out;
        } else if (!strncmp(a, "--filter=", 9)) {
            filter = a + 9;
        } else if (!strncmp(a, "--trace=", 8)) {
            d.trace_path = a + 8;
        } else if (!strcmp(a, "--trace") && i + 1 < argc) {
            d.trace_path = argv[++i];
        } else if ((!strcmp(a, "--max-steps") || !strcmp(a, "--timeout")) && i + 1 < argc) {
            char *end;
            const char *v = argv[++i];
            errno = 0;
            double x = strtod(v, &end);
            if (!*v || *end || errno || x < 0 || (a[2] == 'm' && x != (double)(uint64_t)x)) {
                fprintf(stderr, "ptxi debug: %s: \"%s\" is not a %s\n", a, v,
                        a[2] == 'm' ? "non-negative integer" : "non-negative number of seconds");
                goto out;
            }
            if (a[2] == 'm')
                d.max_steps = (uint64_t)x;
            else
                d.timeout = x;
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
    dbg_source_init(&d);
    d.list_file = -1;
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
    struct sigaction sal;
    memset(&sal, 0, sizeof sal);
    sal.sa_handler = on_sigalrm;
    sigaction(SIGALRM, &sal, NULL);
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
            go = exec_line(&d, scripts[i], NULL);
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
    dbg_displays_free(&d);
    dbg_source_free(&d);
    for (size_t i = 0; i < d.nbps; i++)
        bp_free(&d.bps[i]);
    free(d.history_file);
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
