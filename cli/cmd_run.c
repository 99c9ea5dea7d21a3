/* cmd_run.c — `ptxi run` and `ptxi test`: launch kernels, check results.
 *
 *   ptxi run launch.json|cases.jsonl [options]
 *   ptxi run kernel.ptx --kernel NAME --grid X,Y,Z --block X,Y,Z [...]
 *   ptxi test PATH... [-j N] [--filter SUBSTR] [--shard I/N] [--junit FILE] [-q] [--update]
 *
 * Both build launch_cases (launch/launch.c) and run each through
 * launch_run_case() (launch/run.c), under the limits every run has here:
 * --max-steps, --timeout (per case, with defaults that stop a runaway
 * kernel in minutes) and Ctrl-C, which stop the case with a report of
 * where every warp is.  Every case prints one `PASS name` or `FAIL name:
 * why` line (tests/run.sh's protocol), details and the kernel's printf
 * output indented below it.
 *
 * `ptxi test` streams one line per case as it finishes, in case order,
 * naming its launch file and line ("PASS dir/cases.jsonl:3 :: name"), as
 * lit does; -j N runs N cases at once, one host thread each (every case
 * has its own global memory; a parsed module is shared read-only).  `ptxi
 * run -j N` instead hands N to the interpreter, which spreads one launch's
 * clusters over N threads.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/heatmap.h"
#include "cli/trace.h"
#include "launch/launch.h"
#include "interp/interp.h"

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
    const char *filter;
    uint64_t max_steps;      /* --max-steps (0 = none) */
    double timeout;          /* --timeout seconds per case (0 = none) */
    dump_spec *dumps;
    size_t ndumps;
    const char *trace;       /* --trace FILE.json: a timeline (cli/trace.c) */
    bool trace_each;         /* several cases: FILE.<case>.json each */
} run_opts;

static int do_dumps(const launch_case *c, mem_global *g, const run_opts *o, launch_text *out)
{
    int bad = 0;
    for (size_t i = 0; i < o->ndumps; i++) {
        const dump_spec *d = &o->dumps[i];
        const launch_buffer *b = launch_find_buffer(c, d->buffer);
        if (!b) {
            launch_tprintf(out, "    --dump %s: no buffer named \"%s\" in %s\n", d->buffer, d->buffer, c->name);
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
                launch_tprintf(out, "%s (%llu bytes at 0x%llx):\n%s", b->name, (unsigned long long)b->bytes,
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
            launch_tprintf(out, "    --dump %s: cannot write %s: %s\n", d->buffer, d->file, err[0] ? err : strerror(errno));
            bad = 1;
        }
    }
    return bad;
}

/* --stats: one line per launch on stderr (bench/run.sh parses it).  The
 * time is interp_run's execution only: no process start, PTX parse or
 * buffer set-up. */
static void print_stats(const char *name, const launch_outcome *res, int jobs)
{
    double s = (double)res->wall_ns * 1e-9;
    fprintf(stderr,
            "stats %s: %llu thread-instr, %llu warp-instr, %.2f lanes/warp-instr, %.6f s, "
            "%.1f M thread-instr/s, -j %d\n",
            name, (unsigned long long)res->thread_instrs, (unsigned long long)res->steps,
            res->steps ? (double)res->thread_instrs / (double)res->steps : 0.0, s,
            s > 0 ? (double)res->thread_instrs / s * 1e-6 : 0.0, jobs);
}

/* ---- limits: --max-steps, --timeout, Ctrl-C ---------------------------------
 * Every running case has a slot: its stop flag (the interpreter polls it
 * between warp turns) and its deadline.  A watchdog thread raises the flag
 * of a case past its deadline, and of every case once SIGINT arrived; the
 * signal handler itself only sets a flag. */

#define DEFAULT_TIMEOUT_S 600.0              /* per case */
#define DEFAULT_MAX_STEPS 4000000000ull      /* warp instructions per case */

static volatile sig_atomic_t sigint_seen;

static void on_sigint(int sig)
{
    (void)sig;
    sigint_seen = 1;
}

typedef struct slot {
    volatile int stop;       /* INTERP_STOP_* */
    bool active;
    double deadline;         /* monotonic seconds; 0 = none */
    double started;
    const char *name;
    uint64_t progress;       /* clusters started (interp_launch.progress) */
} slot;

static slot *slots;
static int nslots;
static pthread_mutex_t slots_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t watchdog_th;
static volatile int watchdog_quit;
static bool watchdog_on;
static struct sigaction old_sigint;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *watchdog(void *arg)
{
    (void)arg;
    while (!watchdog_quit) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
        double t = now_s();
        pthread_mutex_lock(&slots_mu);
        for (int i = 0; i < nslots; i++) {
            slot *s = &slots[i];
            if (!s->active || s->stop)
                continue;
            if (sigint_seen)
                s->stop = INTERP_STOP_SIGNAL;
            else if (s->deadline > 0 && t >= s->deadline)
                s->stop = INTERP_STOP_TIMEOUT;
        }
        pthread_mutex_unlock(&slots_mu);
    }
    return NULL;
}

static void limits_start(int n)
{
    slots = calloc((size_t)(n > 0 ? n : 1), sizeof *slots);
    if (!slots)
        exit(3);
    nslots = n > 0 ? n : 1;
    sigint_seen = 0;
    watchdog_quit = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sigint);
    watchdog_on = pthread_create(&watchdog_th, NULL, watchdog, NULL) == 0;
}

static void limits_stop(void)
{
    watchdog_quit = 1;
    if (watchdog_on)
        pthread_join(watchdog_th, NULL);
    watchdog_on = false;
    sigaction(SIGINT, &old_sigint, NULL);
    free(slots);
    slots = NULL;
    nslots = 0;
}

/* --trace: the launch through the step API, traced into the path in arg
 * (launch_run_opts.runner).  A file that cannot be written fails the case. */
static int traced_run(const interp_launch *l, interp_result *res, void *arg)
{
    char err[512];
    if (trace_run(l, res, arg, err, sizeof err) == 0)
        return res->status;
    memset(res, 0, sizeof *res);
    res->status = INTERP_LAUNCH_ERROR;
    snprintf(res->msg, sizeof res->msg, "%s", err);
    return res->status;
}

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

/* Run case c in slot k under the limits of o; the verdict lands in res. */
static int run_limited(launch_case *c, const run_opts *o, int k, launch_outcome *res)
{
    slot *s = &slots[k];
    pthread_mutex_lock(&slots_mu);
    s->stop = sigint_seen ? INTERP_STOP_SIGNAL : 0;
    s->started = now_s();
    s->deadline = o->timeout > 0 ? s->started + o->timeout : 0;
    s->name = c->name;
    s->progress = 0;
    s->active = true;
    pthread_mutex_unlock(&slots_mu);
    launch_run_opts ro = {
        .jobs = o->jobs, .policy = o->policy, .seed = o->seed, .max_steps = o->max_steps,
        .stop = &s->stop, .progress = &s->progress, .update = o->update, .quiet = o->quiet,
        .keep_memory = o->ndumps > 0,
    };
    char *tp = o->trace ? trace_path(o, c->name) : NULL;
    if (tp) {
        ro.runner = traced_run;
        ro.runner_arg = tp;
    }
    int failed = launch_run_case(c, &ro, NULL, res);
    free(tp);
    pthread_mutex_lock(&slots_mu);
    s->active = false;
    int why = s->stop;
    pthread_mutex_unlock(&slots_mu);
    if (res->status == INTERP_INTERRUPTED && why == INTERP_STOP_TIMEOUT && failed) {
        /* name the option that stopped it */
        launch_text t = {0};
        launch_tprintf(&t, "    (the case ran longer than --timeout %g s)\n", o->timeout);
        launch_tprintf(&res->text, "%s", t.buf ? t.buf : "");
        free(t.buf);
    } else if (res->status == INTERP_STEP_LIMIT && o->max_steps && failed) {
        launch_tprintf(&res->text, "    (--max-steps %llu; raise it, or 0 for no limit)\n",
                       (unsigned long long)o->max_steps);
    }
    if (o->stats && res->status >= 0)
        print_stats(c->name, res, o->jobs);
    if (res->g) {
        launch_text dt = {0};
        if (!failed && do_dumps(c, res->g, o, &dt)) {
            /* the verdict line said PASS: it fails after all */
            const char *t = res->text.buf, *nl = strchr(t, '\n');
            launch_text nt = {0};
            launch_tprintf(&nt, "FAIL %s: --dump failed\n%s%s", c->name, nl ? nl + 1 : "", dt.buf);
            free(res->text.buf);
            res->text = nt;
            failed = res->failed = 1;
        } else if (dt.len) {
            launch_tprintf(&res->text, "%s", dt.buf);
        }
        free(dt.buf);
        mem_global_free(res->g);
        res->g = NULL;
    }
    return failed;
}

/* On a terminal (stderr), a status line while a case runs: cases done,
 * the running case, its time and its clusters started.  Erased before
 * anything else is printed; nothing at all when stderr is not a tty. */
static bool progress_tty;
static bool progress_shown;

static void progress_clear(void)
{
    if (progress_shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        progress_shown = false;
    }
}

static void progress_show(size_t done, size_t total, int k)
{
    if (!progress_tty)
        return;
    pthread_mutex_lock(&slots_mu);
    slot *s = &slots[k];
    if (s->active)
        fprintf(stderr, "\r\033[K[%zu/%zu] %.50s: %.0f s, %llu clusters started", done, total, s->name,
                now_s() - s->started, (unsigned long long)s->progress);
    else
        fprintf(stderr, "\r\033[K[%zu/%zu]", done, total);
    pthread_mutex_unlock(&slots_mu);
    fflush(stderr);
    progress_shown = true;
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
    if ((v = opt_value(argc, argv, i, "--max-steps"))) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 0);
        if (!*v || *v == '-' || *end || errno) {
            fprintf(stderr, "ptxi: --max-steps: \"%s\" is not a count of warp instructions (0 = no limit)\n", v);
            return -1;
        }
        o->max_steps = n;
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--timeout"))) {
        char *end;
        errno = 0;
        double t = strtod(v, &end);
        if (!*v || *end || errno || !(t >= 0) || t > 1e9) {
            fprintf(stderr, "ptxi: --timeout: \"%s\" is not a number of seconds (0 = no limit)\n", v);
            return -1;
        }
        o->timeout = t;
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
        "                             thread-instructions/s to stderr\n"
        "  --max-steps N              stop after N warp instructions (default %llu; 0 = none)\n"
        "  --timeout SECONDS          stop a launch after SECONDS (default %g; 0 = none)\n"
        "A stop (limit, Ctrl-C) prints where every warp is; exit status 1 (130 after Ctrl-C).\n",
        (unsigned long long)DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT_S);
}

/* One case on a thread of its own (`ptxi run` on a terminal), so that the
 * calling thread can show progress. */
typedef struct run_job {
    launch_case *c;
    const run_opts *o;
    launch_outcome res;
    int failed;
    volatile int done;
} run_job;

static void *run_job_thread(void *arg)
{
    run_job *j = arg;
    j->failed = run_limited(j->c, j->o, 0, &j->res);
    __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static int run_cases(launch_case *cases, size_t n, const run_opts *o0)
{
    int fails = 0;
    size_t matched = 0;
    run_opts oo = *o0;   /* --trace over several cases: a file each */
    const run_opts *o = &oo;
    size_t nsel = 0;
    for (size_t i = 0; i < n; i++)
        nsel += !o0->filter || strstr(cases[i].name, o0->filter);
    oo.trace_each = nsel > 1;
    limits_start(1);
    progress_tty = isatty(2);
    for (size_t i = 0; i < n && !sigint_seen; i++) {
        if (o->filter && !strstr(cases[i].name, o->filter))
            continue;
        matched++;
        run_job j = {.c = &cases[i], .o = o};
        pthread_t th;
        if (progress_tty && pthread_create(&th, NULL, run_job_thread, &j) == 0) {
            double t0 = now_s();
            while (!__atomic_load_n(&j.done, __ATOMIC_ACQUIRE)) {
                struct timespec ts = {0, 100 * 1000 * 1000};
                nanosleep(&ts, NULL);
                if (now_s() - t0 > 1.0)
                    progress_show(matched - 1, n, 0);
            }
            pthread_join(th, NULL);
            progress_clear();
        } else {
            run_job_thread(&j);
        }
        fails += j.failed;
        if (j.res.text.len)
            fwrite(j.res.text.buf, 1, j.res.text.len, stdout);
        fflush(stdout);
        launch_outcome_free(&j.res);
    }
    limits_stop();
    if (sigint_seen) {
        fprintf(stderr, "ptxi: interrupted (Ctrl-C)\n");
        return fails ? fails : 1;
    }
    if (o->filter && !matched) {
        fprintf(stderr, "ptxi: --filter %s: no case name contains it\n", o->filter);
        return 1;
    }
    return fails;
}

int cmd_run(int argc, char **argv)
{
    run_opts o = {.jobs = 1, .policy = INTERP_COMPLETE_DEFERRED, .max_steps = DEFAULT_MAX_STEPS,
                  .timeout = DEFAULT_TIMEOUT_S};
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
        if (launch_read_file_all(input, &cases, &n, err, sizeof err)) {
            fprintf(stderr, "ptxi: %s\n", err);
            rc = 1;
            goto out;
        }
        if (n == 1 && cases[0].broken) {   /* one launch object: the error is the file's */
            fprintf(stderr, "ptxi: %s\n", cases[0].broken);
            launch_free_all(cases, n);
            rc = 1;
            goto out;
        }
        int fails = run_cases(cases, n, &o);
        launch_free_all(cases, n);
        rc = sigint_seen ? 130 : fails ? 1 : 0;
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
    if (sigint_seen)
        rc = 130;
out:
    launch_free(&c);
    free(expects);
    free_dumps(&o);
    launch_modules_free();
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
    launch_outcome *res;
    double *secs;
    bool *done, *ran;
    size_t next;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} test_job;

typedef struct test_worker_arg { test_job *j; int slot; } test_worker_arg;

static void *test_worker(void *arg)
{
    test_worker_arg *wa = arg;
    test_job *j = wa->j;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        size_t i = j->next++;
        pthread_mutex_unlock(&j->mu);
        if (i >= j->n)
            return NULL;
        launch_outcome res;
        memset(&res, 0, sizeof res);
        bool ran = false;
        double t0 = now_s();
        if (!sigint_seen) {   /* after Ctrl-C the rest is reported as not run */
            run_limited(j->cases[i], j->o, wa->slot, &res);
            ran = true;
        }
        pthread_mutex_lock(&j->mu);
        j->res[i] = res;
        j->secs[i] = now_s() - t0;
        j->ran[i] = ran;
        j->done[i] = true;
        pthread_cond_broadcast(&j->cv);
        pthread_mutex_unlock(&j->mu);
    }
}

/* ---- --junit FILE: JUnit XML (the schema Jenkins, GitLab and GitHub read) -- */

static void xml_text(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        unsigned char ch = (unsigned char)s[i];
        switch (ch) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            /* XML 1.0 has no form for most control characters */
            if (ch < 0x20 && ch != '\n' && ch != '\t' && ch != '\r')
                fprintf(f, "?");
            else
                fputc(ch, f);
        }
    }
}

/* The launch file of a case: its origin without the ":LINE". */
static size_t origin_file_len(const launch_case *c)
{
    const char *o = c->origin ? c->origin : "";
    const char *colon = strrchr(o, ':');
    if (colon && colon[1] >= '0' && colon[1] <= '9')
        return (size_t)(colon - o);
    return strlen(o);
}

static int write_junit(const char *path, launch_case **cases, const launch_outcome *res, const double *secs,
                       const bool *ran, size_t n, double total)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    size_t nfail = 0, nskip = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ran[i])
            nskip++;
        else if (res[i].failed)
            nfail++;
    }
    char stamp[32];
    time_t t = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", gmtime_r(&t, &tm));
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"ptxi\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n",
            n, nfail, nskip, total);
    /* one <testsuite> per launch file, cases in order */
    for (size_t i = 0; i < n;) {
        size_t fl = origin_file_len(cases[i]), k = i;
        size_t sf = 0, ss = 0;
        double st = 0;
        while (k < n && origin_file_len(cases[k]) == fl && !strncmp(cases[k]->origin, cases[i]->origin, fl)) {
            if (!ran[k])
                ss++;
            else if (res[k].failed)
                sf++;
            st += secs[k];
            k++;
        }
        fprintf(f, "  <testsuite name=\"");
        xml_text(f, cases[i]->origin, fl);
        fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\" "
                "timestamp=\"%s\" hostname=\"", k - i, sf, ss, st, stamp);
        xml_text(f, host, strlen(host));
        fprintf(f, "\">\n");
        for (size_t m = i; m < k; m++) {
            fprintf(f, "    <testcase classname=\"");
            xml_text(f, cases[m]->origin, fl);
            fprintf(f, "\" name=\"");
            xml_text(f, cases[m]->name, strlen(cases[m]->name));
            fprintf(f, "\" time=\"%.3f\"", secs[m]);
            const char *txt = res[m].text.buf ? res[m].text.buf : "";
            if (!ran[m]) {
                fprintf(f, ">\n      <skipped message=\"not run: interrupted\"/>\n    </testcase>\n");
            } else if (res[m].failed) {
                const char *nl = strchr(txt, '\n');
                size_t l1 = nl ? (size_t)(nl - txt) : strlen(txt);
                /* "FAIL name: why" -> "why" */
                const char *msg = txt;
                size_t nl5 = strlen(cases[m]->name);
                if (l1 > 5 && !strncmp(txt, "FAIL ", 5))
                    msg = txt + 5;
                if (!strncmp(msg, cases[m]->name, nl5) && !strncmp(msg + nl5, ": ", 2))
                    msg += nl5 + 2;
                size_t ml = l1 - (size_t)(msg - txt);
                fprintf(f, ">\n      <failure message=\"");
                xml_text(f, msg, ml);
                fprintf(f, "\" type=\"%s\">", res[m].status >= 0 ? launch_stop_name(res[m].status) : "setup");
                xml_text(f, txt, strlen(txt));
                fprintf(f, "</failure>\n    </testcase>\n");
            } else if (strstr(txt, "\n    printf: ")) {
                fprintf(f, ">\n      <system-out>");
                xml_text(f, txt, strlen(txt));
                fprintf(f, "</system-out>\n    </testcase>\n");
            } else {
                fprintf(f, "/>\n");
            }
        }
        fprintf(f, "  </testsuite>\n");
        i = k;
    }
    fprintf(f, "</testsuites>\n");
    return fclose(f) ? -1 : 0;
}

static void test_usage(FILE *f)
{
    fprintf(f,
        "usage: ptxi test PATH... [options]\n"
        "  PATH is a launch file (.json, .jsonl) or a directory, searched recursively for them\n"
        "  -j N                       run N cases at once\n"
        "  --complete=eager|deferred|random[:SEED]   when async copies land (default deferred)\n"
        "  --filter SUBSTR            only cases whose name contains SUBSTR (none matching: an error)\n"
        "  --shard I/N                run only slice I of N (1 <= I <= N): case k of the selected\n"
        "                             cases goes to slice (k mod N) + 1, so the N slices together\n"
        "                             run every case exactly once (CI matrices, Slurm arrays)\n"
        "  --junit FILE               also write the results as JUnit XML\n"
        "  --max-steps N              stop a case after N warp instructions (default %llu; 0 = none)\n"
        "  --timeout SECONDS          stop a case after SECONDS (default %g; 0 = none)\n"
        "  -q                         print only failures and the closing line\n"
        "  --stats                    per case: instructions executed, time, rate (stderr)\n"
        "  --trace FILE.json          a Perfetto/Chrome timeline per case (FILE.<case>.json)\n"
        "  --update                   write the expected files from this run (golden suites)\n"
        "prints one line per case as it finishes, in order: PASS|FAIL FILE[:LINE] :: NAME, details\n"
        "indented below; then 'N passed, N failed'.  Exit status 0 if all passed, 1 if any failed,\n"
        "2 on a usage error, 130 after Ctrl-C (the cases not run are counted and named).\n"
        "On a terminal, stderr shows progress.\n",
        (unsigned long long)DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT_S);
}

/* Print a verdict with the case's launch file after PASS/FAIL:
 * "PASS dir/cases.jsonl:3 :: name ..." */
static void print_verdict(const launch_case *c, const launch_outcome *r)
{
    const char *t = r->text.buf ? r->text.buf : "";
    if (!strncmp(t, "PASS ", 5) || !strncmp(t, "FAIL ", 5))
        printf("%.5s%s :: %s", t, c->origin, t + 5);
    else
        fputs(t, stdout);
}

int cmd_test(int argc, char **argv)
{
    run_opts o = {.jobs = 1, .policy = INTERP_COMPLETE_DEFERRED, .max_steps = DEFAULT_MAX_STEPS,
                  .timeout = DEFAULT_TIMEOUT_S};
    file_list files = {0};
    const char *junit = NULL, *v;
    unsigned long shard_i = 1, shard_n = 1;
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
        } else if ((v = opt_value(argc, argv, &i, "--junit"))) {
            junit = v;
        } else if ((v = opt_value(argc, argv, &i, "--shard"))) {
            char *end, *end2;
            errno = 0;
            shard_i = strtoul(v, &end, 10);
            shard_n = *end == '/' ? strtoul(end + 1, &end2, 10) : 0;
            if (*v < '0' || *v > '9' || *end != '/' || end[1] < '0' || end[1] > '9' || *end2 || errno ||
                shard_n < 1 || shard_i < 1 || shard_i > shard_n || shard_n > 1000000) {
                fprintf(stderr, "ptxi test: --shard %s: expected I/N with 1 <= I <= N (e.g. 2/4)\n", v);
                goto out;
            }
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
            if (files.n == before) {
                fprintf(stderr, "ptxi test: %s: no launch files (*.json, *.jsonl) under it\n", a);
                rc = 1;
                goto out;
            }
        } else {
            fl_add(&files, a);
        }
    }
    if (!files.n) {
        if (argc < 2)
            test_usage(stderr);
        else
            fprintf(stderr, "ptxi test: no launch file named\n");
        goto out;
    }
    /* Read everything first: a malformed line is one FAIL, the rest still run. */
    launch_case **all = NULL, **sel = NULL;
    size_t nall = 0, nsel = 0, nfiles_bad = 0;
    launch_case **owners = calloc(files.n, sizeof *owners);
    size_t *owner_n = calloc(files.n, sizeof *owner_n);
    if (!owners || !owner_n)
        exit(3);
    for (size_t f = 0; f < files.n; f++) {
        char err[4096];
        if (launch_read_file_all(files.v[f], &owners[f], &owner_n[f], err, sizeof err)) {
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
    size_t matched = 0;
    for (size_t i = 0; i < nall; i++)
        if (!o.filter || strstr(all[i]->name, o.filter)) {
            /* lit's --run-shard: every N-th case of the selection, from I */
            if (matched++ % shard_n == shard_i - 1)
                sel[nsel++] = all[i];
        }
    if (o.filter && !matched) {
        fprintf(stderr, "ptxi test: --filter %s: no case name contains it (%zu case%s read)\n", o.filter, nall,
                nall == 1 ? "" : "s");
        rc = 1;
        goto freeall;
    }

    size_t nthreads = (size_t)o.jobs;
    if (nthreads > nsel)
        nthreads = nsel ? nsel : 1;
    run_opts co = o;
    co.trace_each = nsel > 1;
    if (nthreads > 1)
        co.jobs = 1;   /* parallel over cases, not inside one */
    test_job j = {.cases = sel, .n = nsel, .o = &co};
    j.res = calloc(nsel ? nsel : 1, sizeof *j.res);
    j.secs = calloc(nsel ? nsel : 1, sizeof *j.secs);
    j.done = calloc(nsel ? nsel : 1, sizeof *j.done);
    j.ran = calloc(nsel ? nsel : 1, sizeof *j.ran);
    test_worker_arg *wa = calloc(nthreads, sizeof *wa);
    if (!j.res || !j.secs || !j.done || !j.ran || !wa)
        exit(3);
    pthread_mutex_init(&j.mu, NULL);
    pthread_cond_init(&j.cv, NULL);
    limits_start((int)nthreads);
    progress_tty = isatty(2);
    double t0 = now_s();
    /* Workers always run on threads of their own, so that each result is
     * printed as soon as it and every case before it are done. */
    pthread_t *th = calloc(nthreads, sizeof *th);
    size_t started = 0;
    for (; th && started < nthreads; started++) {
        wa[started].j = &j;
        wa[started].slot = (int)started;
        if (pthread_create(&th[started], NULL, test_worker, &wa[started]))
            break;
    }
    if (!started) {
        wa[0].j = &j;
        test_worker(&wa[0]);
    }
    size_t passed = 0, failed = nfiles_bad, notrun = 0;
    for (size_t i = 0; i < nsel; i++) {
        pthread_mutex_lock(&j.mu);
        while (!j.done[i]) {
            if (progress_tty) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 250 * 1000 * 1000;
                if (ts.tv_nsec >= 1000000000) {
                    ts.tv_sec++;
                    ts.tv_nsec -= 1000000000;
                }
                pthread_cond_timedwait(&j.cv, &j.mu, &ts);
                if (!j.done[i]) {
                    pthread_mutex_unlock(&j.mu);
                    progress_show(i, nsel, 0);
                    pthread_mutex_lock(&j.mu);
                }
            } else {
                pthread_cond_wait(&j.cv, &j.mu);
            }
        }
        pthread_mutex_unlock(&j.mu);
        progress_clear();
        if (!j.ran[i]) {
            notrun++;
            continue;
        }
        if (j.res[i].failed)
            failed++;
        else
            passed++;
        if (j.res[i].text.len && (!o.quiet || j.res[i].failed))
            print_verdict(sel[i], &j.res[i]);
        fflush(stdout);
    }
    for (size_t t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    limits_stop();
    double total = now_s() - t0;
    if (junit && write_junit(junit, sel, j.res, j.secs, j.ran, nsel, total)) {
        fprintf(stderr, "ptxi test: --junit %s: cannot write: %s\n", junit, strerror(errno));
        failed++;
    }
    if (notrun) {
        printf("interrupted (Ctrl-C): %zu case%s not run:", notrun, notrun == 1 ? "" : "s");
        size_t shown = 0;
        for (size_t i = 0; i < nsel && shown < 10; i++)
            if (!j.ran[i]) {
                printf(" %s", sel[i]->name);
                shown++;
            }
        printf("%s\n", notrun > shown ? " ..." : "");
    }
    printf("%zu passed, %zu failed\n", passed, failed);
    rc = sigint_seen ? 130 : failed ? 1 : 0;
    for (size_t i = 0; i < nsel; i++)
        launch_outcome_free(&j.res[i]);
    free(th);
    free(wa);
    free(j.res);
    free(j.secs);
    free(j.done);
    free(j.ran);
    pthread_mutex_destroy(&j.mu);
    pthread_cond_destroy(&j.cv);
freeall:
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
    launch_modules_free();
    return rc;
}
