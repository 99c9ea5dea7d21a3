/* cmd_run.c — `ptxi run` and `ptxi test`: launch kernels, check results.
 *
 *   ptxi run launch.json|cases.jsonl [options]
 *   ptxi run kernel.ptx --kernel NAME --grid X,Y,Z --block X,Y,Z [...]
 *   ptxi test PATH... [-j N] [--complete=...] [--filter SUBSTR] [-q] [--update]
 *
 * Both build launch_cases (cli/launch.c) and run each through run_case():
 * set up buffers and maps, check the encode statuses, parse the module
 * (once per path: a suite names one module in hundreds of cases), lay out
 * the parameters, interp_run(), then check `expect`.  Every case prints one
 * `PASS name` or `FAIL name: why` line (tests/run.sh's protocol), details
 * indented below it.
 *
 * `ptxi test -j N` runs N cases at once, one host thread each (every case
 * has its own global memory; a parsed module is shared read-only); output
 * is printed in case order regardless.  `ptxi run -j N` instead hands N to
 * the interpreter, which spreads one launch's clusters over N threads.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/heatmap.h"
#include "cli/trace.h"
#include "cli/launch.h"

#if __has_include("interp/interp.h")
#include "interp/interp.h"
#define HAVE_INTERP 1
#else
#define HAVE_INTERP 0
typedef enum { INTERP_COMPLETE_DEFERRED = 0, INTERP_COMPLETE_EAGER, INTERP_COMPLETE_RANDOM } interp_policy;
#endif

typedef struct dump_spec {
    char *buffer, *dtype, *file;
    uint64_t shape[5];
    int ndim;
} dump_spec;

typedef struct run_opts {
    int jobs;
    interp_policy policy;
    uint64_t seed;
    bool update, quiet;
    bool stats;              /* --stats: instruction counts and rate to stderr */
    const char *trace;       /* --trace FILE.json: a timeline (cli/trace.c) */
    bool trace_each;         /* several cases: FILE.<case>.json each */
    const char *filter;
    dump_spec *dumps;
    size_t ndumps;
} run_opts;

/* ---- parsed modules, shared by the cases that name the same .ptx ---------- */

typedef struct modent {
    char *path;
    ir_module *mod;
    char *err;
} modent;
static modent *mods;
static size_t nmods, capmods;
static pthread_mutex_t mods_mu = PTHREAD_MUTEX_INITIALIZER;

typedef struct { char *buf; size_t len, cap; unsigned n; } strbuf;

static void sb_printf(strbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(strbuf *s, const char *fmt, ...)
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

static void diag_to_buf(ir_diag *d, const char *file, ir_loc loc, const char *sev, const char *msg)
{
    strbuf *s = d->user;
    if (++s->n <= 10 && loc.line)
        sb_printf(s, "%s:%u:%u: %s: %s\n", file, loc.line, loc.col, sev, msg);
    else if (s->n <= 10)
        sb_printf(s, "%s: %s: %s\n", file, sev, msg);
}

static const ir_module *module_get(const char *path, const char **err)
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
    strbuf sb = {0};
    ir_diag d = {0};
    d.emit = diag_to_buf;
    d.user = &sb;
    ir_module *m = NULL;
    if (access(path, R_OK))
        sb_printf(&sb, "%s: cannot read: %s\n", path, strerror(errno));
    else
        m = ptx_parse_file(path, &d);
    if (!m && !sb.len)
        sb_printf(&sb, "%s: the PTX does not parse\n", path);
    if (sb.n > 10)
        sb_printf(&sb, "... %u errors in all\n", sb.n);
    modent *e = &mods[nmods++];
    e->path = strdup(path);
    e->mod = m;
    e->err = m ? NULL : sb.buf;
    if (m)
        free(sb.buf);
    *err = e->err;
    pthread_mutex_unlock(&mods_mu);
    return m;
}

static void modules_free(void)
{
    for (size_t i = 0; i < nmods; i++) {
        free(mods[i].path);
        free(mods[i].err);
        if (mods[i].mod)
            ir_module_free(mods[i].mod);
    }
    free(mods);
    mods = NULL;
    nmods = capmods = 0;
}

/* ---- one case ---------------------------------------------------------------- */

static const char *status_name(int st)
{
    return st == TMA_SUCCESS ? "CUDA_SUCCESS" : st == TMA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : "?";
}

#if HAVE_INTERP
static const char *interp_status_name(int st)
{
    switch (st) {
    case INTERP_OK: return "ok";
    case INTERP_FAULT: return "fault";
    case INTERP_DEADLOCK: return "deadlock";
    case INTERP_UNSUPPORTED: return "unsupported instruction";
    case INTERP_TRAP: return "trap";
    case INTERP_LAUNCH_ERROR: return "launch error";
    case INTERP_STEP_LIMIT: return "step limit";
    default: return "error";
    }
}
#endif

/* First line of a message, for the one-line verdict. */
static int first_line_len(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? (int)(nl - s) : (int)strlen(s);
}

/* Print the rest of a multi-line message indented. */
static void indent_rest(strbuf *o, const char *s)
{
    const char *nl = strchr(s, '\n');
    while (nl && nl[1]) {
        const char *next = strchr(nl + 1, '\n');
        int n = next ? (int)(next - nl - 1) : (int)strlen(nl + 1);
        sb_printf(o, "    %.*s\n", n, nl + 1);
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

static int do_dumps(const launch_case *c, mem_global *g, const run_opts *o, strbuf *out)
{
    int bad = 0;
    for (size_t i = 0; i < o->ndumps; i++) {
        const dump_spec *d = &o->dumps[i];
        const launch_buffer *b = launch_find_buffer(c, d->buffer);
        if (!b) {
            sb_printf(out, "    --dump %s: no buffer named \"%s\" in %s\n", d->buffer, d->buffer, c->name);
            bad = 1;
            continue;
        }
        const uint8_t *h = mem_global_host(g, b->addr, b->bytes);
        if (!strcmp(d->file, "-")) {
            char *txt = NULL;
            size_t tl = 0;
            FILE *f = open_memstream(&txt, &tl);
            if (f) {
                launch_print_values(f, d->dtype, h, b->bytes);
                fclose(f);
                sb_printf(out, "%s (%llu bytes at 0x%llx):\n%s", b->name, (unsigned long long)b->bytes,
                          (unsigned long long)b->addr, txt);
                free(txt);
            }
            continue;
        }
        size_t fl = strlen(d->file);
        bool npy = fl > 4 && !strcmp(d->file + fl - 4, ".npy");
        bool svg = fl > 4 && !strcmp(d->file + fl - 4, ".svg"), png = fl > 4 && !strcmp(d->file + fl - 4, ".png");
        FILE *f = fopen(d->file, "wb");
        char err[256] = "";
        int r = -1;
        if (f) {
            heatmap_in hm = {b->name, d->dtype, d->shape, d->ndim, h, b->bytes};
            if (npy)
                r = launch_write_npy(f, d->dtype, d->shape, d->ndim, h, b->bytes, err, sizeof err);
            else if (svg)
                r = heatmap_write_svg(f, &hm, err, sizeof err);
            else if (png)
                r = heatmap_write_png(f, &hm, err, sizeof err);
            else
                r = fwrite(h, 1, b->bytes, f) == b->bytes ? 0 : -1;
            if (fclose(f))
                r = -1;
        }
        if (r) {
            sb_printf(out, "    --dump %s: cannot write %s: %s\n", d->buffer, d->file, err[0] ? err : strerror(errno));
            bad = 1;
        }
    }
    return bad;
}

#if HAVE_INTERP
/* --stats: one line per launch on stderr (bench/run.sh parses it).  The
 * time is interp_run's execution only: no process start, PTX parse or
 * buffer set-up. */
static void print_stats(const char *name, const interp_result *res, int jobs)
{
    double s = (double)res->wall_ns * 1e-9;
    fprintf(stderr,
            "stats %s: %llu thread-instr, %llu warp-instr, %.2f lanes/warp-instr, %.6f s, "
            "%.1f M thread-instr/s, -j %d\n",
            name, (unsigned long long)res->thread_instrs, (unsigned long long)res->steps,
            res->steps ? (double)res->thread_instrs / (double)res->steps : 0.0, s,
            s > 0 ? (double)res->thread_instrs / s * 1e-6 : 0.0, jobs);
}
#endif

/* Run one case; appends its verdict to `out`.  Returns 0 on PASS. */
/* --trace FILE: FILE itself, or FILE.<case>.json when several cases run. */
static char *trace_path(const run_opts *o, const char *name)
{
    if (!o->trace_each)
        return strdup(o->trace);
    size_t n = strlen(o->trace);
    if (n > 5 && !strcmp(o->trace + n - 5, ".json"))
        n -= 5;
    char *p = NULL;
    if (asprintf(&p, "%.*s.%s.json", (int)n, o->trace, name) < 0)
        return NULL;
    return p;
}

static int run_case(launch_case *c, const run_opts *o, strbuf *out)
{
    char err[2048];
    int failed = 1;
    mem_global *g = mem_global_new();
    uint8_t *params = NULL;
    if (!g) {
        sb_printf(out, "FAIL %s: out of memory\n", c->name);
        return 1;
    }
    if (launch_setup(c, g, err, sizeof err)) {
        sb_printf(out, "FAIL %s: %s\n", c->name, err);
        goto done;
    }
    /* Encode statuses.  An expected failure ends the case: nothing launches. */
    bool stop = false;
    for (size_t i = 0; i < c->ntmaps; i++) {
        const launch_tmap *m = &c->tmaps[i];
        int want = c->expect_encode[i];
        if (want >= 0 && m->status != want) {
            sb_printf(out, "FAIL %s: tensor map %s: encode returned %s, want %s%s%s%s\n", c->name, m->name,
                      status_name(m->status), status_name(want), m->why[0] ? " (" : "", m->why,
                      m->why[0] ? ")" : "");
            goto done;
        }
        if (want < 0 && m->status != TMA_SUCCESS && c->ptx) {
            sb_printf(out, "FAIL %s: tensor map %s: encode failed: %s\n", c->name, m->name,
                      m->why[0] ? m->why : "CUDA_ERROR_INVALID_VALUE");
            goto done;
        }
        if (m->status != TMA_SUCCESS)
            stop = true;
    }
    if (stop || !c->ptx) {
        sb_printf(out, "PASS %s\n", c->name);
        failed = 0;
        goto done;
    }
#if !HAVE_INTERP
    sb_printf(out, "FAIL %s: interpreter not available in this build\n", c->name);
    goto done;
#else
    const char *perr = NULL;
    const ir_module *mod = module_get(c->ptx, &perr);
    if (!mod) {
        sb_printf(out, "FAIL %s: %.*s\n", c->name, first_line_len(perr), perr);
        indent_rest(out, perr);
        goto done;
    }
    const ir_function *fn = ir_find_function(mod, c->kernel);
    if (!fn || !fn->is_entry) {
        sb_printf(out, "FAIL %s: kernel: no .entry named \"%s\" in %s (entries:", c->name, c->kernel, c->ptx);
        for (uint32_t i = 0; i < mod->nfuncs; i++)
            if (mod->funcs[i].is_entry)
                sb_printf(out, " %s", mod->funcs[i].name);
        sb_printf(out, ")\n");
        goto done;
    }
    uint32_t psize = 0;
    if (launch_build_params(c, mod, fn, &params, &psize, err, sizeof err)) {
        sb_printf(out, "FAIL %s: %s\n", c->name, err);
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
    l.policy = o->policy;
    l.seed = o->seed;
    static interp_result res_zero;
    interp_result *res = malloc(sizeof *res);
    if (!res) {
        sb_printf(out, "FAIL %s: out of memory\n", c->name);
        goto done;
    }
    *res = res_zero;
    if (o->trace) {
        char *tp = trace_path(o, c->name);
        if (!tp)
            snprintf(err, sizeof err, "out of memory");
        int trc = tp ? trace_run(&l, res, tp, err, sizeof err) : -1;
        free(tp);
        if (trc) {
            sb_printf(out, "FAIL %s: %s\n", c->name, err);
            free(res);
            goto done;
        }
    } else {
        interp_run(&l, res);
    }
    if (o->stats)
        print_stats(c->name, res, o->jobs);
    const char *msg = res->msg[0] ? res->msg : interp_status_name(res->status);
    if (c->expect_launch) {
        bool ok = res->status == INTERP_FAULT || res->status == INTERP_TRAP || res->status == INTERP_LAUNCH_ERROR;
        if (ok && o->quiet)
            sb_printf(out, "PASS %s\n", c->name);
        else if (ok)
            sb_printf(out, "PASS %s (stopped as expected, %s: %.*s)\n", c->name, c->expect_launch,
                      first_line_len(msg), msg);
        else if (res->status == INTERP_OK)
            sb_printf(out, "FAIL %s: expected the kernel to fault (%s), but it ran to completion\n", c->name,
                      c->expect_launch);
        else {
            /* res->msg already begins with the status ("deadlock: ...") */
            sb_printf(out, "FAIL %s: expected a fault (%s), but ptxi stopped with %.*s\n", c->name,
                      c->expect_launch, first_line_len(msg), msg);
            indent_rest(out, msg);
        }
        free(res);
        failed = !ok;
        goto done;
    }
    if (res->status != INTERP_OK) {
        sb_printf(out, "FAIL %s: %.*s\n", c->name, first_line_len(msg), msg);
        indent_rest(out, msg);
        free(res);
        goto done;
    }
    free(res);
    /* Expected buffers. */
    strbuf detail = {0};
    int nbad = 0, nupdated = 0;
    for (size_t i = 0; i < c->nexpect_bufs; i++) {
        const launch_expect_buf *e = &c->expect_bufs[i];
        const launch_buffer *b = launch_find_buffer(c, e->name);
        const uint8_t *got = mem_global_host(g, b->addr, b->bytes);
        if (!e->file) {
            if (o->update)
                sb_printf(&detail, "    %s: expect.buffers has no \"file\" to update\n", e->name);
            continue;
        }
        uint64_t wn = 0;
        uint8_t *want = launch_slurp(e->file, &wn);
        if (o->update) {
            if (!want || wn != b->bytes || memcmp(want, got, wn)) {
                mkdirs_for(e->file);
                if (write_file(e->file, got, b->bytes)) {
                    sb_printf(&detail, "    %s: cannot write %s: %s\n", e->name, e->file, strerror(errno));
                    nbad++;
                } else {
                    nupdated++;
                }
            }
            free(want);
            continue;
        }
        if (!want) {
            sb_printf(&detail, "    %s: cannot read %s: %s\n", e->name, e->file, strerror(errno));
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
            sb_printf(&detail, "    buffer %s differs from %s in %llu byte%s:\n%s", e->name, e->file_rel,
                      (unsigned long long)nd, nd == 1 ? "" : "s", txt ? txt : "");
            nbad++;
        }
        free(txt);
        free(want);
    }
    int dbad = do_dumps(c, g, o, &detail);
    if (nbad || dbad) {
        if (nbad)
            sb_printf(out, "FAIL %s: %d buffer%s differ%s\n", c->name, nbad, nbad == 1 ? "" : "s",
                      nbad == 1 ? "s" : "");
        else
            sb_printf(out, "FAIL %s: --dump failed\n", c->name);
    } else if (nupdated) {
        sb_printf(out, "PASS %s (updated %d expected file%s)\n", c->name, nupdated, nupdated == 1 ? "" : "s");
        failed = 0;
    } else {
        sb_printf(out, "PASS %s\n", c->name);
        failed = 0;
    }
    if (detail.len)
        sb_printf(out, "%s", detail.buf);
    free(detail.buf);
#endif
done:
    free(params);
    mem_global_free(g);
    return failed;
}

/* ---- options shared by run and test -------------------------------------- */

static int parse_complete(const char *s, run_opts *o)
{
    if (!strcmp(s, "eager"))
        o->policy = INTERP_COMPLETE_EAGER;
    else if (!strcmp(s, "deferred"))
        o->policy = INTERP_COMPLETE_DEFERRED;
    else if (!strncmp(s, "random", 6) && (s[6] == 0 || s[6] == ':')) {
        o->policy = INTERP_COMPLETE_RANDOM;
        o->seed = 1;
        if (s[6] == ':') {
            char *end;
            errno = 0;
            o->seed = strtoull(s + 7, &end, 0);
            if (!s[7] || *end || errno) {
                fprintf(stderr, "ptxi: --complete=random:SEED: \"%s\" is not a number\n", s + 7);
                return -1;
            }
        }
    } else {
        fprintf(stderr, "ptxi: --complete: \"%s\" is not eager, deferred or random[:SEED]\n", s);
        return -1;
    }
    return 0;
}

/* Matches "--name=V", "--name V" (and "-j4", "-j 4" for short options).
 * Returns the value and advances *i, or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n))
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "ptxi: %s needs a value\n", name);
            exit(2);
        }
        return argv[++*i];
    }
    if (name[1] != '-')   /* -j4 */
        return a + n;
    return NULL;
}

static int parse_jobs(const char *v)
{
    char *end;
    long j = strtol(v, &end, 10);
    if (!*v || *end || j < 1 || j > 1024) {
        fprintf(stderr, "ptxi: -j: \"%s\" is not a thread count 1..1024\n", v);
        exit(2);
    }
    return (int)j;
}

/* Common options; returns 1 if argv[*i] was one, 0 if not, -1 on error. */
static int common_opt(int argc, char **argv, int *i, run_opts *o)
{
    const char *v;
    if ((v = opt_value(argc, argv, i, "-j")) || (v = opt_value(argc, argv, i, "--jobs"))) {
        o->jobs = parse_jobs(v);
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--complete")))
        return parse_complete(v, o) ? -1 : 1;
    if ((v = opt_value(argc, argv, i, "--filter"))) {
        o->filter = v;
        return 1;
    }
    if (!strcmp(argv[*i], "--stats")) {
        o->stats = true;
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--trace"))) {
        o->trace = v;
        return 1;
    }
    return 0;
}

/* ---- ptxi run --------------------------------------------------------------- */

static int parse_dim3(const char *opt, const char *s, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    const char *p = s;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno || v < 1 || v > UINT32_MAX || *p == '-') {
            fprintf(stderr, "ptxi: %s: \"%s\" is not X[,Y[,Z]] with positive integers\n", opt, s);
            return -1;
        }
        out[k] = (uint32_t)v;
        if (!*end)
            return 0;
        if (*end != ',' || k == 2) {
            fprintf(stderr, "ptxi: %s: \"%s\" is not X[,Y[,Z]] with positive integers\n", opt, s);
            return -1;
        }
        p = end + 1;
    }
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return -1;
    *out = strtoull(s, &end, 0);
    return (*end || errno) ? -1 : 0;
}

/* --buffer NAME:BYTES[:fill=N|:hash32=S|:file=PATH][:align=N] */
static int parse_buffer(const char *spec, launch_case *c)
{
    char *s = strdup(spec), *save = NULL;
    char *name = strtok_r(s, ":", &save), *bytes = strtok_r(NULL, ":", &save);
    launch_buffer b = {0};
    uint64_t v;
    b.align = 256;
    if (!name || !bytes || parse_u64(bytes, &b.bytes)) {
        fprintf(stderr, "ptxi: --buffer %s: expected NAME:BYTES[:fill=N|:hash32=S|:file=PATH][:align=N]\n", spec);
        free(s);
        return -1;
    }
    for (char *t; (t = strtok_r(NULL, ":", &save));) {
        if (!strncmp(t, "fill=", 5) && !parse_u64(t + 5, &v) && v < 256) {
            b.init = LAUNCH_INIT_FILL;
            b.value = v;
        } else if (!strncmp(t, "hash32=", 7) && !parse_u64(t + 7, &v) && v <= UINT32_MAX) {
            b.init = LAUNCH_INIT_HASH32;
            b.value = v;
        } else if (!strncmp(t, "file=", 5) && t[5]) {
            b.init = LAUNCH_INIT_FILE;
            free(b.file);
            b.file = strdup(t + 5);
        } else if (!strncmp(t, "align=", 6) && !parse_u64(t + 6, &v) && v && !(v & (v - 1))) {
            b.align = v < 256 ? 256 : v;
        } else {
            fprintf(stderr, "ptxi: --buffer %s: \"%s\" is not fill=0..255, hash32=SEED, file=PATH or align=POW2\n",
                    spec, t);
            free(b.file);
            free(s);
            return -1;
        }
    }
    if (launch_find_buffer(c, name)) {
        fprintf(stderr, "ptxi: --buffer %s: duplicate buffer name \"%s\"\n", spec, name);
        free(b.file);
        free(s);
        return -1;
    }
    b.name = strdup(name);
    launch_buffer *nb = realloc(c->buffers, (c->nbuffers + 1) * sizeof *nb);
    if (!nb)
        exit(3);
    c->buffers = nb;
    c->buffers[c->nbuffers++] = b;
    free(s);
    return 0;
}

/* One TYPE:VALUE | ptr:BUF[+OFF] | pad:N (`in_struct` only) of `spec`,
 * the whole option value, named in messages.  0, or -1 after a message. */
static int parse_param_one(const char *item, size_t len, const char *spec, bool in_struct, launch_param *p)
{
    char *it = strndup(item, len);
    const char *colon = strchr(it, ':');
    int rc = -1;
    memset(p, 0, sizeof *p);
    if (!colon)
        goto bad;
    size_t tl = (size_t)(colon - it);
    const char *val = colon + 1;
    static const char *const names[] = {"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f32", "f64"};
    if ((tl == 3 && !strncmp(it, "ptr", 3)) || (tl == 7 && !strncmp(it, "pointer", 7))) {
        p->kind = LAUNCH_P_POINTER;
        const char *plus = strchr(val, '+');
        size_t nl = plus ? (size_t)(plus - val) : strlen(val);
        if (!nl || (plus && parse_u64(plus + 1, &p->offset)))
            goto bad;
        p->ref = strndup(val, nl);
        rc = 0;
        goto done;
    }
    if (in_struct && tl == 3 && !strncmp(it, "pad", 3)) {
        p->kind = LAUNCH_P_PAD;
        if (parse_u64(val, &p->bits) || p->bits > 65536)
            goto bad;
        rc = 0;
        goto done;
    }
    for (int k = 0; k < 10; k++)
        if (strlen(names[k]) == tl && !strncmp(it, names[k], tl))
            p->kind = LAUNCH_P_U8 + k;
    if (!p->kind || !*val)
        goto bad;
    char *end;
    errno = 0;
    if (p->kind == LAUNCH_P_F32) {
        float f = strtof(val, &end);
        uint32_t u;
        memcpy(&u, &f, 4);
        p->bits = u;
    } else if (p->kind == LAUNCH_P_F64) {
        double d = strtod(val, &end);
        memcpy(&p->bits, &d, 8);
    } else if (p->kind >= LAUNCH_P_S8) {
        long long sv = strtoll(val, &end, 0);
        unsigned sz = launch_param_size(p->kind);
        if (sz < 8 && (sv < -(1LL << (8 * sz - 1)) || sv >= (1LL << (8 * sz - 1))))
            errno = ERANGE;
        p->bits = (uint64_t)sv;
    } else {
        unsigned long long u = strtoull(val, &end, 0);
        unsigned sz = launch_param_size(p->kind);
        if (*val == '-' || (sz < 8 && u >> (8 * sz)))
            errno = ERANGE;
        p->bits = u;
    }
    if (*end || errno) {
        fprintf(stderr, "ptxi: --param %s: \"%s\" is not a %.*s value\n", spec, val, (int)tl, it);
        goto done;
    }
    rc = 0;
    goto done;
bad:
    if (in_struct)
        fprintf(stderr, "ptxi: --param %s: struct field \"%s\": expected TYPE:VALUE (u8..u64, s8..s64, f32, f64), "
                "ptr:BUFFER[+OFFSET] or pad:BYTES\n", spec, it);
    else
        fprintf(stderr, "ptxi: --param %s: expected TYPE:VALUE (u8..u64, s8..s64, f32, f64), ptr:BUFFER[+OFFSET] "
                "or struct:FIELD,FIELD,...\n", spec);
done:
    free(it);
    return rc;
}

/* --param TYPE:VALUE | ptr:BUF[+OFF] | struct:FIELD,FIELD,...  A struct's
 * fields are the same forms plus pad:N, laid out as the launch file's
 * {"struct": [...]} (one level; nested structs need a launch file).
 * Buffer names are checked later (the --buffer options may come after). */
static int parse_param(const char *spec, launch_case *c)
{
    launch_param p = {0};
    if (!strncmp(spec, "struct:", 7)) {
        p.kind = LAUNCH_P_STRUCT;
        for (const char *f = spec + 7; *f;) {
            const char *comma = strchr(f, ',');
            size_t len = comma ? (size_t)(comma - f) : strlen(f);
            launch_param *nf = realloc(p.fields, (p.nfields + 1) * sizeof *nf);
            if (!nf)
                exit(3);
            p.fields = nf;
            if (parse_param_one(f, len, spec, true, &p.fields[p.nfields])) {
                launch_param_free(&p);
                return -1;
            }
            p.nfields++;
            f += len + (comma != NULL);
        }
    } else if (parse_param_one(spec, strlen(spec), spec, false, &p)) {
        return -1;
    }
    launch_param *np = realloc(c->params, (c->nparams + 1) * sizeof *np);
    if (!np)
        exit(3);
    c->params = np;
    c->params[c->nparams++] = p;
    c->has_params = true;
    return 0;
}

/* The first pointer parameter (or struct field) naming no buffer, or NULL. */
static const launch_param *unknown_pointer(const launch_case *c, const launch_param *ps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (ps[i].kind == LAUNCH_P_POINTER && !launch_find_buffer(c, ps[i].ref))
            return &ps[i];
        const launch_param *q = unknown_pointer(c, ps[i].fields, ps[i].nfields);
        if (q)
            return q;
    }
    return NULL;
}

/* --dump NAME[:DTYPE[:SHAPE]]=FILE, SHAPE like 64x32 (outermost first, as numpy). */
static int parse_dump(const char *spec, run_opts *o)
{
    const char *eq = strchr(spec, '=');
    dump_spec d = {0};
    if (!eq || eq == spec || !eq[1]) {
        fprintf(stderr, "ptxi: --dump %s: expected NAME[:DTYPE[:SHAPE]]=FILE (FILE .npy, raw, or - to print)\n",
                spec);
        return -1;
    }
    char *lhs = strndup(spec, (size_t)(eq - spec)), *save = NULL;
    d.buffer = strdup(strtok_r(lhs, ":", &save));
    char *dt = strtok_r(NULL, ":", &save), *shape = strtok_r(NULL, ":", &save);
    d.dtype = strdup(dt ? dt : "u8");
    d.file = strdup(eq + 1);
    if (!launch_dtype_size(d.dtype)) {
        fprintf(stderr, "ptxi: --dump %s: unknown dtype \"%s\" (u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64)\n",
                spec, d.dtype);
        goto bad;
    }
    if (shape) {
        char *s2 = NULL;
        for (char *t = strtok_r(shape, "x,", &s2); t; t = strtok_r(NULL, "x,", &s2)) {
            if (d.ndim == 5 || parse_u64(t, &d.shape[d.ndim])) {
                fprintf(stderr, "ptxi: --dump %s: shape must be up to 5 sizes like 64x32\n", spec);
                goto bad;
            }
            d.ndim++;
        }
    }
    free(lhs);
    dump_spec *nd = realloc(o->dumps, (o->ndumps + 1) * sizeof *nd);
    if (!nd)
        exit(3);
    o->dumps = nd;
    o->dumps[o->ndumps++] = d;
    return 0;
bad:
    free(lhs);
    free(d.buffer);
    free(d.dtype);
    free(d.file);
    return -1;
}

static void free_dumps(run_opts *o)
{
    for (size_t i = 0; i < o->ndumps; i++) {
        free(o->dumps[i].buffer);
        free(o->dumps[i].dtype);
        free(o->dumps[i].file);
    }
    free(o->dumps);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static void run_usage(FILE *f)
{
    fprintf(f,
        "usage: ptxi run LAUNCH.json|CASES.jsonl [options]\n"
        "       ptxi run KERNEL.ptx --kernel NAME --grid X,Y,Z --block X,Y,Z [options]\n"
        "launch options (with a .ptx):\n"
        "  --cluster X,Y,Z            CTAs per cluster (default 1,1,1)\n"
        "  --smem BYTES               dynamic shared memory per CTA\n"
        "  --buffer NAME:BYTES[:fill=N|:hash32=SEED|:file=PATH][:align=N]   (in allocation order)\n"
        "  --param TYPE:VALUE         u8 u16 u32 u64 s8 s16 s32 s64 f32 f64, in .param order\n"
        "  --param ptr:BUF[+OFF]      a buffer's device address\n"
        "  --param struct:F,F,...     a by-value struct: fields TYPE:VALUE, ptr:BUF[+OFF], pad:N,\n"
        "                             each at its natural alignment (as a C struct)\n"
        "  --expect NAME=FILE         compare a buffer with FILE afterwards\n"
        "options:\n"
        "  --dump NAME[:DTYPE[:SHAPE]]=FILE   write a buffer afterwards: FILE.npy (NumPy, DTYPE,\n"
        "                             SHAPE like 64x32), FILE.svg / FILE.png (a heat map), '-' (print\n"
        "                             values), else raw bytes\n"
        "  -j N                       interpreter threads (clusters run in parallel)\n"
        "  --filter SUBSTR            only the cases of a launch file whose name contains SUBSTR\n"
        "  --complete=eager|deferred|random[:SEED]   when async copies land (default deferred)\n"
        "  --trace FILE.json          write a Perfetto/Chrome timeline: warps, copies, mbarrier phases\n"
        "                             (several cases: FILE.<case>.json each); runs on one thread\n"
        "  --stats                    print instructions executed, wall time of the launch and\n"
        "                             thread-instructions/s to stderr\n");
}

static int run_cases(launch_case *cases, size_t n, const run_opts *o0)
{
    int fails = 0;
    run_opts oo = *o0;
    const run_opts *o = &oo;
    size_t nsel = 0;
    for (size_t i = 0; i < n; i++)
        nsel += !o0->filter || strstr(cases[i].name, o0->filter);
    oo.trace_each = nsel > 1;
    for (size_t i = 0; i < n; i++) {
        if (o->filter && !strstr(cases[i].name, o->filter))
            continue;
        strbuf out = {0};
        fails += run_case(&cases[i], o, &out);
        if (out.len)
            fwrite(out.buf, 1, out.len, stdout);
        fflush(stdout);
        free(out.buf);
    }
    return fails;
}

int cmd_run(int argc, char **argv)
{
    run_opts o = {.jobs = 1, .policy = INTERP_COMPLETE_DEFERRED};
    launch_case c;
    memset(&c, 0, sizeof c);
    c.grid[0] = c.grid[1] = c.grid[2] = 0;
    c.cluster[0] = c.cluster[1] = c.cluster[2] = 1;
    const char *input = NULL, *v;
    char **expects = NULL;
    size_t nexpects = 0;
    int rc = 2;
    bool have_grid = false, have_block = false;
    for (int i = 1; i < argc; i++) {
        int r = common_opt(argc, argv, &i, &o);
        if (r < 0)
            goto out;
        if (r)
            continue;
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            run_usage(stdout);
            rc = 0;
            goto out;
        } else if ((v = opt_value(argc, argv, &i, "--kernel"))) {
            free(c.kernel);
            c.kernel = strdup(v);
        } else if ((v = opt_value(argc, argv, &i, "--grid"))) {
            if (parse_dim3("--grid", v, c.grid))
                goto out;
            have_grid = true;
        } else if ((v = opt_value(argc, argv, &i, "--block"))) {
            if (parse_dim3("--block", v, c.block))
                goto out;
            have_block = true;
        } else if ((v = opt_value(argc, argv, &i, "--cluster"))) {
            if (parse_dim3("--cluster", v, c.cluster))
                goto out;
        } else if ((v = opt_value(argc, argv, &i, "--smem"))) {
            uint64_t s;
            if (parse_u64(v, &s) || s > UINT32_MAX) {
                fprintf(stderr, "ptxi: --smem: \"%s\" is not a byte count\n", v);
                goto out;
            }
            c.dyn_smem = (uint32_t)s;
        } else if ((v = opt_value(argc, argv, &i, "--buffer"))) {
            if (parse_buffer(v, &c))
                goto out;
        } else if ((v = opt_value(argc, argv, &i, "--param"))) {
            if (parse_param(v, &c))
                goto out;
        } else if ((v = opt_value(argc, argv, &i, "--dump"))) {
            if (parse_dump(v, &o))
                goto out;
        } else if ((v = opt_value(argc, argv, &i, "--expect"))) {
            if (!strchr(v, '=')) {
                fprintf(stderr, "ptxi: --expect %s: expected NAME=FILE\n", v);
                goto out;
            }
            char **ne = realloc(expects, (nexpects + 1) * sizeof *ne);
            if (!ne)
                exit(3);
            expects = ne;
            expects[nexpects++] = (char *)v;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ptxi run: unknown option '%s'\n", a);
            run_usage(stderr);
            goto out;
        } else if (input) {
            fprintf(stderr, "ptxi run: more than one input ('%s' and '%s')\n", input, a);
            goto out;
        } else {
            input = a;
        }
    }
    if (!input) {
        run_usage(stderr);
        goto out;
    }
    bool is_ptx = has_suffix(input, ".ptx");
    if (!is_ptx) {
        if (c.kernel || have_grid || have_block || c.nbuffers || c.nparams || nexpects) {
            fprintf(stderr, "ptxi run: --kernel/--grid/--block/--buffer/--param/--expect go with a .ptx input; "
                    "%s is a launch file\n", input);
            goto out;
        }
        launch_case *cases = NULL;
        size_t n = 0;
        char err[4096];
        if (launch_read_file(input, &cases, &n, err, sizeof err)) {
            fprintf(stderr, "ptxi: %s\n", err);
            rc = 1;
            goto out;
        }
        int fails = run_cases(cases, n, &o);
        launch_free_all(cases, n);
        rc = fails ? 1 : 0;
        goto out;
    }
    if (!c.kernel || !have_grid || !have_block) {
        fprintf(stderr, "ptxi run: a .ptx input needs --kernel NAME, --grid X,Y,Z and --block X,Y,Z\n");
        goto out;
    }
    c.name = strdup(c.kernel);
    c.origin = strdup(input);
    c.dir = strdup(".");
    c.ptx = strdup(input);
    c.has_params = true;
    const launch_param *unk = unknown_pointer(&c, c.params, c.nparams);
    if (unk) {
        fprintf(stderr, "ptxi: --param ptr:%s: no --buffer named \"%s\"\n", unk->ref, unk->ref);
        goto out;
    }
    c.expect_bufs = calloc(nexpects ? nexpects : 1, sizeof *c.expect_bufs);
    for (size_t i = 0; i < nexpects; i++) {
        const char *eq = strchr(expects[i], '=');
        char *name = strndup(expects[i], (size_t)(eq - expects[i]));
        if (!launch_find_buffer(&c, name)) {
            fprintf(stderr, "ptxi: --expect %s: no --buffer named \"%s\"\n", expects[i], name);
            free(name);
            goto out;
        }
        c.expect_bufs[i].name = name;
        c.expect_bufs[i].file = strdup(eq + 1);
        c.expect_bufs[i].file_rel = strdup(eq + 1);
        c.nexpect_bufs++;
    }
    rc = run_cases(&c, 1, &o) ? 1 : 0;
out:
    launch_free(&c);
    free(expects);
    free_dumps(&o);
    modules_free();
    return rc;
}

/* ---- ptxi test ------------------------------------------------------------------ */

typedef struct file_list { char **v; size_t n, cap; } file_list;

static void fl_add(file_list *l, const char *path)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        char **nv = realloc(l->v, l->cap * sizeof *nv);
        if (!nv)
            exit(3);
        l->v = nv;
    }
    l->v[l->n++] = strdup(path);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every launch file under dir, recursively, sorted so runs are repeatable. */
static void scan_dir(const char *dir, file_list *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    file_list here = {0};
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(n);
        if (!p)
            exit(3);
        snprintf(p, n, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", e->d_name);
        fl_add(&here, p);
        free(p);
    }
    closedir(d);
    qsort(here.v, here.n, sizeof *here.v, cmp_str);
    for (size_t i = 0; i < here.n; i++) {
        struct stat st;
        const char *p = here.v[i];
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
            scan_dir(p, out);
        else if ((has_suffix(p, ".json") || has_suffix(p, ".jsonl")) && launch_file_is_launch(p))
            fl_add(out, p);
        free(here.v[i]);
    }
    free(here.v);
}

typedef struct test_job {
    launch_case **cases;
    size_t n;
    const run_opts *o;
    strbuf *outs;
    int *fails;
    bool *done;
    size_t next;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} test_job;

static void *test_worker(void *arg)
{
    test_job *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        size_t i = j->next++;
        pthread_mutex_unlock(&j->mu);
        if (i >= j->n)
            return NULL;
        strbuf out = {0};
        int f = run_case(j->cases[i], j->o, &out);
        pthread_mutex_lock(&j->mu);
        j->outs[i] = out;
        j->fails[i] = f;
        j->done[i] = true;
        pthread_cond_broadcast(&j->cv);
        pthread_mutex_unlock(&j->mu);
    }
}

static void test_usage(FILE *f)
{
    fprintf(f,
        "usage: ptxi test PATH... [options]\n"
        "  PATH is a launch file (.json, .jsonl) or a directory, searched recursively for them\n"
        "  -j N                       run N cases at once\n"
        "  --complete=eager|deferred|random[:SEED]   when async copies land (default deferred)\n"
        "  --filter SUBSTR            only cases whose name contains SUBSTR\n"
        "  -q                         print only failures and the closing line\n"
        "  --stats                    per case: instructions executed, time, rate (stderr)\n"
        "  --trace FILE.json          a Perfetto/Chrome timeline per case (FILE.<case>.json)\n"
        "  --update                   write the expected files from this run (golden suites)\n"
        "prints PASS/FAIL per case and 'N passed, N failed'; exit status 1 if any failed\n");
}

int cmd_test(int argc, char **argv)
{
    run_opts o = {.jobs = 1, .policy = INTERP_COMPLETE_DEFERRED};
    file_list files = {0};
    int rc = 2;
    for (int i = 1; i < argc; i++) {
        int r = common_opt(argc, argv, &i, &o);
        if (r < 0)
            goto out;
        if (r)
            continue;
        const char *a = argv[i];
        struct stat st;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            test_usage(stdout);
            rc = 0;
            goto out;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o.quiet = true;
        } else if (!strcmp(a, "--update")) {
            o.update = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ptxi test: unknown option '%s'\n", a);
            test_usage(stderr);
            goto out;
        } else if (stat(a, &st)) {
            fprintf(stderr, "ptxi test: %s: %s\n", a, strerror(errno));
            rc = 1;
            goto out;
        } else if (S_ISDIR(st.st_mode)) {
            size_t before = files.n;
            scan_dir(a, &files);
            if (files.n == before)
                fprintf(stderr, "ptxi test: %s: no launch files (*.json, *.jsonl) under it\n", a);
        } else {
            fl_add(&files, a);
        }
    }
    if (!files.n) {
        if (argc < 2)
            test_usage(stderr);
        goto out;
    }
    /* Read everything first: a malformed file is one FAIL, the rest still run. */
    launch_case **all = NULL, **sel = NULL;
    size_t nall = 0, nsel = 0, nfiles_bad = 0;
    launch_case **owners = calloc(files.n, sizeof *owners);
    size_t *owner_n = calloc(files.n, sizeof *owner_n);
    if (!owners || !owner_n)
        exit(3);
    for (size_t f = 0; f < files.n; f++) {
        char err[4096];
        if (launch_read_file(files.v[f], &owners[f], &owner_n[f], err, sizeof err)) {
            printf("FAIL %s\n", err);
            nfiles_bad++;
            continue;
        }
        launch_case **na = realloc(all, (nall + owner_n[f]) * sizeof *na);
        if (!na)
            exit(3);
        all = na;
        for (size_t k = 0; k < owner_n[f]; k++)
            all[nall++] = &owners[f][k];
    }
    sel = calloc(nall ? nall : 1, sizeof *sel);
    if (!sel)
        exit(3);
    for (size_t i = 0; i < nall; i++)
        if (!o.filter || strstr(all[i]->name, o.filter))
            sel[nsel++] = all[i];

    size_t nthreads = (size_t)o.jobs;
    if (nthreads > nsel)
        nthreads = nsel ? nsel : 1;
    run_opts co = o;
    co.trace_each = nsel > 1;
    if (nthreads > 1)
        co.jobs = 1;   /* parallel over cases, not inside one */
    test_job j = {.cases = sel, .n = nsel, .o = &co};
    j.outs = calloc(nsel ? nsel : 1, sizeof *j.outs);
    j.fails = calloc(nsel ? nsel : 1, sizeof *j.fails);
    j.done = calloc(nsel ? nsel : 1, sizeof *j.done);
    if (!j.outs || !j.fails || !j.done)
        exit(3);
    pthread_mutex_init(&j.mu, NULL);
    pthread_cond_init(&j.cv, NULL);
    pthread_t *th = calloc(nthreads, sizeof *th);
    size_t started = 0;
    if (nthreads > 1)
        for (; started < nthreads; started++)
            if (pthread_create(&th[started], NULL, test_worker, &j))
                break;
    if (!started)
        test_worker(&j);
    size_t passed = 0, failed = nfiles_bad;
    for (size_t i = 0; i < nsel; i++) {
        pthread_mutex_lock(&j.mu);
        while (!j.done[i])
            pthread_cond_wait(&j.cv, &j.mu);
        pthread_mutex_unlock(&j.mu);
        if (j.fails[i])
            failed++;
        else
            passed++;
        if (j.outs[i].len && (!o.quiet || j.fails[i]))
            fwrite(j.outs[i].buf, 1, j.outs[i].len, stdout);
        fflush(stdout);
        free(j.outs[i].buf);
        j.outs[i].buf = NULL;
    }
    for (size_t t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    printf("%zu passed, %zu failed\n", passed, failed);
    rc = failed ? 1 : 0;
    free(th);
    free(j.outs);
    free(j.fails);
    free(j.done);
    pthread_mutex_destroy(&j.mu);
    pthread_cond_destroy(&j.cv);
    for (size_t f = 0; f < files.n; f++)
        launch_free_all(owners[f], owner_n[f]);
    free(owners);
    free(owner_n);
    free(all);
    free(sel);
out:
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    free_dumps(&o);
    modules_free();
    return rc;
}
