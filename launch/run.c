/* run.c — run one launch case and judge it against its `expect`.
 *
 * launch_run_case() is what `ptxi run`, `ptxi test` and the public API
 * (launch/api.c) share: set up buffers and maps, check the encode
 * statuses, parse the module (once per path: a suite names one module in
 * hundreds of cases), lay out the parameters, interp_run(), then check
 * `expect`.  The verdict is text in tests/run.sh's protocol: one
 * `PASS name` or `FAIL name: why` line, details indented below it.
 * Kernel printf output goes to the outcome, not to stdout, so a runner
 * can print it under the case that produced it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "launch/launch.h"
#include "launch/trace.h"
#include "interp/interp.h"

/* ---- growing text ------------------------------------------------------------ */

void launch_tprintf(launch_text *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (s->len + (size_t)n + 1 > s->cap) {
        size_t cap = (s->cap + (size_t)n + 1) * 2;
        char *b = realloc(s->buf, cap);
        if (!b)
            return;
        s->buf = b;
        s->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

/* ---- parsed modules, shared by the cases that name the same .ptx ---------- */

typedef struct modent {
    char *path;
    ir_module *mod;
    char *err;
} modent;
static modent *mods;
static size_t nmods, capmods;
static pthread_mutex_t mods_mu = PTHREAD_MUTEX_INITIALIZER;

typedef struct diagbuf { launch_text t; unsigned n; } diagbuf;

static void diag_to_buf(ir_diag *d, const char *file, ir_loc loc, const char *sev, const char *msg)
{
    diagbuf *s = d->user;
    if (++s->n <= 10 && loc.line)
        launch_tprintf(&s->t, "%s:%u:%u: %s: %s\n", file, loc.line, loc.col, sev, msg);
    else if (s->n <= 10)
        launch_tprintf(&s->t, "%s: %s: %s\n", file, sev, msg);
}

ir_module *launch_parse_ptx(const char *path, const char *text, char **err)
{
    diagbuf sb = {0};
    ir_diag d = {0};
    d.emit = diag_to_buf;
    d.user = &sb;
    ir_module *m = NULL;
    if (text)
        m = ptx_parse(path, text, strlen(text), &d);
    else if (access(path, R_OK))
        launch_tprintf(&sb.t, "%s: cannot read: %s\n", path, strerror(errno));
    else
        m = ptx_parse_file(path, &d);
    if (!m && !sb.t.len)
        launch_tprintf(&sb.t, "%s: the PTX does not parse\n", path);
    if (sb.n > 10)
        launch_tprintf(&sb.t, "... %u errors in all\n", sb.n);
    if (m) {
        free(sb.t.buf);
        *err = NULL;
    } else {
        *err = sb.t.buf ? sb.t.buf : strdup("out of memory\n");
    }
    return m;
}

const ir_module *launch_module_get(const char *path, const char **err)
{
    pthread_mutex_lock(&mods_mu);
    for (size_t i = 0; i < nmods; i++)
        if (!strcmp(mods[i].path, path)) {
            /* Read the entry before unlocking: another thread may grow mods. */
            const ir_module *m = mods[i].mod;
            *err = mods[i].err;
            pthread_mutex_unlock(&mods_mu);
            return m;
        }
    if (nmods == capmods) {
        capmods = capmods ? capmods * 2 : 8;
        modent *n = realloc(mods, capmods * sizeof *mods);
        if (!n) {
            fprintf(stderr, "ptxi: out of memory\n");
            exit(3);
        }
        mods = n;
    }
    modent *e = &mods[nmods++];
    e->path = strdup(path);
    e->mod = launch_parse_ptx(path, NULL, &e->err);
    *err = e->err;
    const ir_module *m = e->mod;
    pthread_mutex_unlock(&mods_mu);
    return m;
}

void launch_modules_free(void)
{
    pthread_mutex_lock(&mods_mu);
    for (size_t i = 0; i < nmods; i++) {
        free(mods[i].path);
        free(mods[i].err);
        if (mods[i].mod)
            ir_module_free(mods[i].mod);
    }
    free(mods);
    mods = NULL;
    nmods = capmods = 0;
    pthread_mutex_unlock(&mods_mu);
}

/* ---- one case ---------------------------------------------------------------- */

static const char *status_name(int st)
{
    return st == TMA_SUCCESS ? "CUDA_SUCCESS" : st == TMA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : "?";
}

const char *launch_stop_name(int st)
{
    switch (st) {
    case INTERP_OK: return "ok";
    case INTERP_FAULT: return "fault";
    case INTERP_DEADLOCK: return "deadlock";
    case INTERP_UNSUPPORTED: return "unsupported";
    case INTERP_TRAP: return "trap";
    case INTERP_LAUNCH_ERROR: return "launch_error";
    case INTERP_STEP_LIMIT: return "step_limit";
    case INTERP_INTERRUPTED: return "interrupted";
    default: return "error";
    }
}

/* First line of a message, for the one-line verdict. */
static int first_line_len(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? (int)(nl - s) : (int)strlen(s);
}

/* Print the rest of a multi-line message indented. */
static void indent_rest(launch_text *o, const char *s)
{
    const char *nl = strchr(s, '\n');
    while (nl && nl[1]) {
        const char *next = strchr(nl + 1, '\n');
        int n = next ? (int)(next - nl - 1) : (int)strlen(nl + 1);
        launch_tprintf(o, "    %.*s\n", n, nl + 1);
        nl = next;
    }
}

static int write_file(const char *path, const uint8_t *d, uint64_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(d, 1, n, f);
    return (fclose(f) || w != n) ? -1 : 0;
}

static int mkdirs_for(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0777);
            *s = '/';
        }
    free(p);
    return 0;
}

/* --keep-failed DIR: a failing buffer's bytes as DIR/CASE.BUFFER.bin, and
 * as .npy (its dtype and shape) when the buffer is typed. */
static void keep_failed(const launch_case *c, const launch_buffer *b, const uint8_t *got, const char *dir,
                        launch_text *out)
{
    launch_text base = {0};
    launch_tprintf(&base, "%s/%s.%s", dir, c->name, b->name);
    for (char *p = base.buf + strlen(dir) + 1; p && *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';
    mkdir(dir, 0777);
    launch_text bin = {0}, npy = {0};
    launch_tprintf(&bin, "%s.bin", base.buf);
    launch_tprintf(&npy, "%s.npy", base.buf);
    if (write_file(bin.buf, got, b->bytes))
        launch_tprintf(out, "    --keep-failed: cannot write %s: %s\n", bin.buf, strerror(errno));
    else
        launch_tprintf(out, "    actual bytes kept in %s\n", bin.buf);
    if (b->dtype[0]) {
        FILE *f = fopen(npy.buf, "wb");
        char err[256] = "";
        int r = f ? launch_write_npy(f, b->dtype, b->shape, b->ndim, got, b->bytes, err, sizeof err) : -1;
        if (f && fclose(f))
            r = -1;
        if (r)
            launch_tprintf(out, "    --keep-failed: cannot write %s: %s\n", npy.buf, err[0] ? err : strerror(errno));
        else
            launch_tprintf(out, "    actual values kept in %s\n", npy.buf);
    }
    free(base.buf);
    free(bin.buf);
    free(npy.buf);
}

/* Does the stop (status st, message msg) satisfy the case's expect.launch? */
static bool stop_expected(const launch_case *c, int st, const char *msg)
{
    bool kind_ok;
    switch (c->expect_stop) {
    case LAUNCH_STOP_ANY_FAULT:
        kind_ok = st == INTERP_FAULT || st == INTERP_TRAP || st == INTERP_LAUNCH_ERROR;
        break;
    case LAUNCH_STOP_RACE:
        /* a race is reported as a fault: "fault: data race [rule]: ..." */
        kind_ok = st == INTERP_FAULT && !strncmp(msg, "fault: data race", 16);
        break;
    default:
        kind_ok = st == c->expect_stop;
        break;
    }
    return kind_ok && (!c->expect_message || strstr(msg, c->expect_message));
}

static void describe_expect(const launch_case *c, launch_text *o)
{
    if (c->expect_stop == LAUNCH_STOP_ANY_FAULT)
        launch_tprintf(o, "a fault (%s)", c->expect_launch);
    else
        launch_tprintf(o, "a stop of kind %s", c->expect_launch);
    if (c->expect_message)
        launch_tprintf(o, " with \"%s\" in its message", c->expect_message);
}

static void add_printf(launch_text *out, const char *txt, size_t len)
{
    if (!txt || !len)
        return;
    const char *s = txt, *end = txt + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        launch_tprintf(out, "    printf: %.*s\n", (int)n, s);
        s += n + (nl != NULL);
    }
}

int launch_run_case(launch_case *c, const launch_run_opts *o, const ir_module *given, launch_outcome *res)
{
    static const launch_run_opts dflt;
    if (!o)
        o = &dflt;
    memset(res, 0, sizeof *res);
    res->status = -1;
    launch_text *out = &res->text;
    char err[2048];
    int failed = 1;
    uint8_t *params = NULL;
    char *ptxt = NULL;
    size_t plen = 0;
    FILE *pf = NULL;
    if (c->broken) {
        /* a line without a name: its location leads the message already */
        if (!strncmp(c->broken, c->name, strlen(c->name)))
            launch_tprintf(out, "FAIL %s\n", c->broken);
        else
            launch_tprintf(out, "FAIL %s: %s\n", c->name, c->broken);
        res->failed = 1;
        return 1;
    }
    mem_global *g = mem_global_new();
    if (!g) {
        launch_tprintf(out, "FAIL %s: out of memory\n", c->name);
        return 1;
    }
    if (launch_setup(c, g, err, sizeof err)) {
        launch_tprintf(out, "FAIL %s: %s\n", c->name, err);
        goto done;
    }
    /* Encode statuses.  An expected failure ends the case: nothing launches. */
    bool stop = false;
    for (size_t i = 0; i < c->ntmaps; i++) {
        const launch_tmap *m = &c->tmaps[i];
        int want = c->expect_encode[i];
        if (want >= 0 && m->status != want) {
            launch_tprintf(out, "FAIL %s: tensor map %s: encode returned %s, want %s%s%s%s\n", c->name, m->name,
                           status_name(m->status), status_name(want), m->why[0] ? " (" : "", m->why,
                           m->why[0] ? ")" : "");
            goto done;
        }
        if (want < 0 && m->status != TMA_SUCCESS && (c->ptx || given)) {
            launch_tprintf(out, "FAIL %s: tensor map %s: encode failed: %s\n", c->name, m->name,
                           m->why[0] ? m->why : "CUDA_ERROR_INVALID_VALUE");
            goto done;
        }
        if (m->status != TMA_SUCCESS)
            stop = true;
    }
    if (stop || (!c->ptx && !given)) {
        launch_tprintf(out, "PASS %s\n", c->name);
        failed = 0;
        goto done;
    }
    const char *perr = NULL;
    const ir_module *mod = given ? given : launch_module_get(c->ptx, &perr);
    if (!mod) {
        launch_tprintf(out, "FAIL %s: %.*s\n", c->name, first_line_len(perr), perr);
        indent_rest(out, perr);
        goto done;
    }
    const ir_function *fn = ir_find_function(mod, c->kernel);
    if (!fn || !fn->is_entry) {
        launch_tprintf(out, "FAIL %s: kernel: no .entry named \"%s\" in %s (entries:", c->name, c->kernel,
                       c->ptx ? c->ptx : mod->path ? mod->path : "the module");
        for (uint32_t i = 0; i < mod->nfuncs; i++)
            if (mod->funcs[i].is_entry)
                launch_tprintf(out, " %s", mod->funcs[i].name);
        launch_tprintf(out, ")\n");
        goto done;
    }
    uint32_t psize = 0;
    if (launch_build_params(c, mod, fn, &params, &psize, err, sizeof err)) {
        launch_tprintf(out, "FAIL %s: %s\n", c->name, err);
        goto done;
    }
    interp_launch l;
    memset(&l, 0, sizeof l);
    l.mod = mod;
    l.entry = fn;
    memcpy(l.grid, c->grid, sizeof l.grid);
    memcpy(l.block, c->block, sizeof l.block);
    memcpy(l.cluster, c->cluster, sizeof l.cluster);
    l.dyn_smem = c->dyn_smem;
    l.params = params;
    l.params_size = psize;
    l.gmem = g;
    l.jobs = o->jobs;
    l.policy = (interp_policy)o->policy;
    l.seed = o->seed;
    l.no_check = o->no_check;
    l.no_contract = o->no_contract;
    l.max_steps = o->max_steps;
    l.stop = o->stop;
    l.progress = o->progress;
    if (!o->printf_direct) {
        pf = open_memstream(&ptxt, &plen);
        l.printf_out = pf;
    }
    static interp_result res_zero;
    interp_result *ir = malloc(sizeof *ir);
    if (!ir) {
        launch_tprintf(out, "FAIL %s: out of memory\n", c->name);
        goto done;
    }
    *ir = res_zero;
    char terr[512];
    if (!o->trace)
        interp_run(&l, ir);
    else if (launch_trace_run(&l, ir, o->trace, terr, sizeof terr)) {   /* a file that cannot be written fails the case */
        memset(ir, 0, sizeof *ir);
        ir->status = INTERP_LAUNCH_ERROR;
        snprintf(ir->msg, sizeof ir->msg, "%s", terr);
    }
    if (pf) {
        fclose(pf);
        pf = NULL;
    }
    res->status = ir->status;
    res->steps = ir->steps;
    res->thread_instrs = ir->thread_instrs;
    res->wall_ns = ir->wall_ns;
    const char *msg = ir->msg[0] ? ir->msg : launch_stop_name(ir->status);
    if (c->expect_launch) {
        bool ok = ir->status != INTERP_OK && stop_expected(c, ir->status, msg);
        if (ok && o->quiet) {
            launch_tprintf(out, "PASS %s\n", c->name);
        } else if (ok) {
            launch_tprintf(out, "PASS %s (stopped as expected, %s: %.*s)\n", c->name, c->expect_launch,
                           first_line_len(msg), msg);
        } else if (ir->status == INTERP_OK) {
            launch_tprintf(out, "FAIL %s: expected ", c->name);
            describe_expect(c, out);
            launch_tprintf(out, ", but the kernel ran to completion\n");
        } else {
            /* ir->msg already begins with the status ("deadlock: ...") */
            launch_tprintf(out, "FAIL %s: expected ", c->name);
            describe_expect(c, out);
            launch_tprintf(out, ", but ptxi stopped with %.*s\n", first_line_len(msg), msg);
            indent_rest(out, msg);
        }
        add_printf(out, ptxt, plen);
        free(ir);
        failed = !ok;
        goto done;
    }
    if (ir->status != INTERP_OK) {
        launch_tprintf(out, "FAIL %s: %.*s\n", c->name, first_line_len(msg), msg);
        indent_rest(out, msg);
        add_printf(out, ptxt, plen);
        free(ir);
        goto done;
    }
    if (ir->msg[0])   /* a clean run's note (the grid-wide write check stopped recording) */
        launch_tprintf(out, "note %s: %s\n", c->name, ir->msg);
    free(ir);
    /* Expected buffers. */
    launch_text detail = {0};
    int nbad = 0, nupdated = 0;
    for (size_t i = 0; i < c->nexpect_bufs; i++) {
        const launch_expect_buf *e = &c->expect_bufs[i];
        const launch_buffer *b = launch_find_buffer(c, e->name);
        const uint8_t *got = mem_global_host(g, b->addr, b->bytes);
        if (!o->update && e->has_sha256) {
            char *txt = NULL;
            size_t tl = 0;
            FILE *f = open_memstream(&txt, &tl);
            int bad = !f || launch_check_sha256(e, got, b->bytes, f);
            if (f)
                fclose(f);
            if (bad) {
                launch_tprintf(&detail, "%s", txt ? txt : "    sha256: out of memory\n");
                nbad++;
            }
            free(txt);
        }
        if (!e->file) {
            if (o->update && !e->has_sha256)
                launch_tprintf(&detail, "    %s: expect.buffers has no \"file\" to update\n", e->name);
            continue;
        }
        uint64_t wn = 0;
        char why[600];
        uint8_t *want = launch_load_data(e->file, b->dtype, &wn, why, sizeof why);
        if (o->update) {
            if (!want || wn != b->bytes || memcmp(want, got, wn)) {
                mkdirs_for(e->file);
                if (write_file(e->file, got, b->bytes)) {
                    launch_tprintf(&detail, "    %s: cannot write %s: %s\n", e->name, e->file, strerror(errno));
                    nbad++;
                } else {
                    nupdated++;
                }
            }
            free(want);
            continue;
        }
        if (!want) {
            launch_tprintf(&detail, "    %s: %s\n", e->name, why);
            nbad++;
            continue;
        }
        char *txt = NULL;
        size_t tl = 0;
        FILE *f = open_memstream(&txt, &tl);
        uint64_t nd = f ? launch_compare(c, e, got, b->bytes, want, wn, f) : 1;
        if (f)
            fclose(f);
        if (nd) {
            launch_tprintf(&detail, "    buffer %s differs from %s in %llu %s%s:\n%s", e->name, e->file_rel,
                           (unsigned long long)nd, b->dtype[0] ? "element" : "byte", nd == 1 ? "" : "s",
                           txt ? txt : "");
            nbad++;
            if (o->keep_failed)
                keep_failed(c, b, got, o->keep_failed, &detail);
        }
        free(txt);
        free(want);
    }
    if (nbad) {
        launch_tprintf(out, "FAIL %s: %d buffer%s differ%s\n", c->name, nbad, nbad == 1 ? "" : "s",
                       nbad == 1 ? "s" : "");
    } else if (nupdated) {
        launch_tprintf(out, "PASS %s (updated %d expected file%s)\n", c->name, nupdated, nupdated == 1 ? "" : "s");
        failed = 0;
    } else {
        launch_tprintf(out, "PASS %s\n", c->name);
        failed = 0;
    }
    if (detail.len)
        launch_tprintf(out, "%s", detail.buf);
    free(detail.buf);
    add_printf(out, ptxt, plen);
done:
    if (pf)
        fclose(pf);
    free(ptxt);
    free(params);
    if (o->keep_memory)
        res->g = g;
    else
        mem_global_free(g);
    res->failed = failed;
    return failed;
}

void launch_outcome_free(launch_outcome *r)
{
    free(r->text.buf);
    r->text.buf = NULL;
    if (r->g)
        mem_global_free(r->g);
    r->g = NULL;
}
