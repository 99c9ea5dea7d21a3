/* cmd_run.c — `ptxi run` and `ptxi test`: launch kernels, check results.
 *
 *   ptxi run launch.json|cases.jsonl [options]
 *   ptxi run kernel.ptx --kernel NAME --grid X,Y,Z --block X,Y,Z [...]
 *   ptxi test PATH... [-j N] [--filter SUBSTR] [--shard I/N] [--junit FILE] [-q] [--update]
 *
 * A client of the public API alone (launch/ptxi.h): launch files are read
 * with ptxi_file_open, a command-line launch is described with
 * ptxi_launch_new / ptxi_launch_spec, options go through
 * ptxi_launch_option, and each case runs with ptxi_launch_run, which
 * returns its verdict as text (tests/run.sh's protocol: one `PASS name` or
 * `FAIL name: why` line, details and the kernel's printf output indented
 * below).  Every run has limits: --max-steps and --timeout (per case, with
 * defaults that stop a runaway kernel in minutes) and Ctrl-C, which stop
 * the case with a report of where every warp is.
 *
 * `ptxi test` streams one line per case as it finishes, in case order,
 * naming its launch file and line ("PASS dir/cases.jsonl:3 :: name"), as
 * lit does; -j N runs N cases at once, one host thread each (a parsed
 * module is shared read-only).  `ptxi run -j N` instead hands N to the
 * interpreter, which spreads one launch's clusters over N threads.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "launch/ptxi.h"

#define DEFAULT_TIMEOUT_S 600.0              /* per case */
#define DEFAULT_MAX_STEPS 4000000000ull      /* warp instructions per case */

/* Options for every launch, as ptxi_launch_option pairs. */
typedef struct run_opts {
    const char *names[64], *values[64];
    int n;
    int jobs;
    bool quiet, stats;
    const char *filter;
    uint64_t max_steps;
    double timeout;
    const char *trace;       /* --trace FILE.json */
    bool trace_each;         /* several cases: FILE.<case>.json each */
} run_opts;

static int add_opt(run_opts *o, const char *name, const char *value)
{
    if (o->n == 64) {
        fprintf(stderr, "ptxi: too many options\n");
        return -1;
    }
    /* check the value now, so that a bad one is a usage error */
    ptxi_launch *probe = ptxi_launch_new(NULL, "probe");
    int r = probe ? ptxi_launch_option(probe, name, value) : PTXI_NOMEM;
    if (r)
        fprintf(stderr, "ptxi: %s\n", probe ? ptxi_launch_errmsg(probe) : "out of memory");
    ptxi_launch_free(probe);
    if (r)
        return -1;
    o->names[o->n] = name;
    o->values[o->n++] = value;
    return 0;
}

/* Give launch l the options; the run's own (-j, limits) last. */
static int apply_opts(ptxi_launch *l, run_opts *o, int jobs)
{
    char steps[32], secs[32], j[16];
    snprintf(steps, sizeof steps, "%llu", (unsigned long long)o->max_steps);
    snprintf(secs, sizeof secs, "%.17g", o->timeout);
    snprintf(j, sizeof j, "%d", jobs);
    int r = ptxi_launch_option(l, "max-steps", steps) | ptxi_launch_option(l, "timeout", secs) |
            ptxi_launch_option(l, "jobs", j) | ptxi_launch_option(l, "quiet", o->quiet ? "1" : "0");
    for (int i = 0; i < o->n && !r; i++)
        r = ptxi_launch_option(l, o->names[i], o->values[i]);
    return r;
}

/* ---- limits: Ctrl-C ---------------------------------------------------------
 * The step and time limits are the library's (per launch); Ctrl-C is
 * handled here: the signal handler only sets a flag, and a watchdog thread
 * interrupts every running launch (ptxi_launch_interrupt) once it is set.
 * Every running case has a slot. */

static volatile sig_atomic_t sigint_seen;

static void on_sigint(int sig)
{
    (void)sig;
    sigint_seen = 1;
}

typedef struct slot {
    ptxi_launch *l;          /* running, or NULL */
    bool stopped;
    double started;
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
        if (!sigint_seen)
            continue;
        pthread_mutex_lock(&slots_mu);
        for (int i = 0; i < nslots; i++)
            if (slots[i].l && !slots[i].stopped) {
                ptxi_launch_interrupt(slots[i].l);
                slots[i].stopped = true;
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

/* A case's outcome: its status and its text (the report, then notes). */
typedef struct outcome {
    int status;              /* ptxi_status */
    bool failed;
    char *text;
    double secs;
} outcome;

static char *text_cat(const char *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *text_cat(const char *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t al = strlen(a);
    char *s = malloc(al + (size_t)(n > 0 ? n : 0) + 1);
    if (!s)
        exit(3);
    memcpy(s, a, al);
    va_start(ap, fmt);
    vsnprintf(s + al, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* --stats: one line per launch on stderr (bench/run.sh parses it).  The
 * time is the execution only: no process start, PTX parse or buffer set-up. */
static void print_stats(ptxi_launch *l, int jobs)
{
    uint64_t thr = 0, ns = 0, steps = ptxi_launch_steps(l);
    ptxi_launch_stats(l, &thr, &ns);
    double s = (double)ns * 1e-9;
    fprintf(stderr,
            "stats %s: %llu thread-instr, %llu warp-instr, %.2f lanes/warp-instr, %.6f s, "
            "%.1f M thread-instr/s, -j %d\n",
            ptxi_launch_name(l), (unsigned long long)thr, (unsigned long long)steps,
            steps ? (double)thr / (double)steps : 0.0, s, s > 0 ? (double)thr / s * 1e-6 : 0.0, jobs);
}

/* --trace FILE for launch l: FILE itself, or FILE.<case>.json when several
 * cases run (malloc'ed; NULL without --trace). */
static char *trace_path(const run_opts *o, ptxi_launch *l)
{
    if (!o->trace)
        return NULL;
    if (!o->trace_each)
        return strdup(o->trace);
    size_t n = strlen(o->trace);
    if (n > 5 && !strcmp(o->trace + n - 5, ".json"))
        n -= 5;
    char *p = NULL;
    if (asprintf(&p, "%.*s.%s.json", (int)n, o->trace, ptxi_launch_name(l)) < 0)
        exit(3);
    return p;
}

/* Run launch l in slot k under the options of o; the verdict lands in out. */
static void run_limited(ptxi_launch *l, run_opts *o, int jobs, int k, outcome *out)
{
    slot *s = &slots[k];
    memset(out, 0, sizeof *out);
    double t0 = now_s();
    int st = apply_opts(l, o, jobs);
    char *tp = trace_path(o, l);
    if (st == PTXI_OK && tp)
        st = ptxi_launch_option(l, "trace", tp);
    free(tp);
    if (st == PTXI_OK) {
        pthread_mutex_lock(&slots_mu);
        s->l = l;
        s->stopped = false;
        s->started = t0;
        pthread_mutex_unlock(&slots_mu);
        if (sigint_seen)
            ptxi_launch_interrupt(l);
        st = ptxi_launch_run(l);
        pthread_mutex_lock(&slots_mu);
        s->l = NULL;
        pthread_mutex_unlock(&slots_mu);
    }
    out->secs = now_s() - t0;
    out->status = st;
    out->failed = st != PTXI_OK;
    const char *rep = ptxi_launch_report(l);
    if (!*rep)   /* nothing ran: the reason is the errmsg */
        out->text = text_cat("", "FAIL %s: %s\n", ptxi_launch_name(l), ptxi_launch_errmsg(l));
    else
        out->text = text_cat(rep, "%s", "");
    if (st == PTXI_INTERRUPTED && !sigint_seen && o->timeout > 0) {
        char *t = text_cat(out->text, "    (the case ran longer than --timeout %g s)\n", o->timeout);
        free(out->text);
        out->text = t;
    } else if (st == PTXI_STEP_LIMIT && o->max_steps) {
        char *t = text_cat(out->text, "    (--max-steps %llu; raise it, or 0 for no limit)\n",
                           (unsigned long long)o->max_steps);
        free(out->text);
        out->text = t;
    }
    if (o->stats && ptxi_launch_steps(l))
        print_stats(l, jobs);
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
    if (s->l)
        fprintf(stderr, "\r\033[K[%zu/%zu] %.50s: %.0f s, %llu clusters started", done, total,
                ptxi_launch_name(s->l), now_s() - s->started, (unsigned long long)ptxi_launch_progress(s->l));
    else
        fprintf(stderr, "\r\033[K[%zu/%zu]", done, total);
    pthread_mutex_unlock(&slots_mu);
    fflush(stderr);
    progress_shown = true;
}

/* ---- options shared by run and test -------------------------------------- */

static int parse_complete(const char *s, run_opts *o)
{
    if (!strcmp(s, "eager") || !strcmp(s, "deferred") || !strcmp(s, "random"))
        return add_opt(o, "complete", s);
    if (!strncmp(s, "random:", 7)) {
        char *end;
        errno = 0;
        strtoull(s + 7, &end, 0);
        if (!s[7] || *end || errno) {
            fprintf(stderr, "ptxi: --complete=random:SEED: \"%s\" is not a number\n", s + 7);
            return -1;
        }
        return add_opt(o, "complete", s);
    }
    fprintf(stderr, "ptxi: --complete: \"%s\" is not eager, deferred or random[:SEED]\n", s);
    return -1;
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
    if ((v = opt_value(argc, argv, i, "--check")))
        return add_opt(o, "check", v) ? -1 : 1;
    if (!strcmp(argv[*i], "--no-contract"))
        return add_opt(o, "contract", "off") ? -1 : 1;
    if ((v = opt_value(argc, argv, i, "--filter"))) {
        o->filter = v;
        return 1;
    }
    if (!strcmp(argv[*i], "--stats")) {
        o->stats = true;
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--keep-failed")))
        return add_opt(o, "keep-failed", v) ? -1 : 1;
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
        "  --check=full|none          happens-before checking of shared memory, async copies and\n"
        "                             barriers (default full; none runs faster and finds fewer bugs)\n"
        "  --no-contract              round every mul and add on its own, as the PTX reads, instead of\n"
        "                             fusing the pairs ptxas fuses into one fma (as the GPU runs them)\n"
        "  --stats                    print instructions executed, wall time of the launch and\n"
        "                             thread-instructions/s to stderr\n"
        "  --max-steps N              stop after N warp instructions (default %llu; 0 = none)\n"
        "  --timeout SECONDS          stop a launch after SECONDS (default %g; 0 = none)\n"
        "  --keep-failed DIR          write the actual bytes (and .npy of typed buffers) of failing buffers\n"
        "A stop (limit, Ctrl-C) prints where every warp is; exit status 1 (130 after Ctrl-C).\n",
        (unsigned long long)DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT_S);
}

/* One case on a thread of its own (`ptxi run` on a terminal), so that the
 * calling thread can show progress. */
typedef struct run_job {
    ptxi_launch *l;
    run_opts *o;
    outcome res;
    volatile int done;
} run_job;

static void *run_job_thread(void *arg)
{
    run_job *j = arg;
    run_limited(j->l, j->o, j->o->jobs, 0, &j->res);
    __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static int run_cases(ptxi_launch **cases, size_t n, run_opts *o)
{
    int fails = 0;
    size_t matched = 0, nsel = 0;
    for (size_t i = 0; i < n; i++)
        nsel += !o->filter || strstr(ptxi_launch_name(cases[i]), o->filter);
    o->trace_each = nsel > 1;   /* --trace over several cases: a file each */
    limits_start(1);
    progress_tty = isatty(2);
    for (size_t i = 0; i < n && !sigint_seen; i++) {
        if (o->filter && !strstr(ptxi_launch_name(cases[i]), o->filter))
            continue;
        matched++;
        run_job j = {.l = cases[i], .o = o};
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
        fails += j.res.failed;
        fputs(j.res.text, stdout);
        fflush(stdout);
        free(j.res.text);
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
    run_opts o = {.jobs = 1, .max_steps = DEFAULT_MAX_STEPS, .timeout = DEFAULT_TIMEOUT_S};
    const char *input = NULL, *kernel = NULL, *v;
    /* --buffer, --param, --expect in the order given */
    const char **specs = calloc((size_t)argc + 1, sizeof *specs), **whats = calloc((size_t)argc + 1, sizeof *whats);
    size_t nspecs = 0;
    unsigned grid[3] = {0}, block[3] = {0}, cluster[3] = {1, 1, 1};
    unsigned smem = 0;
    int rc = 2;
    bool have_grid = false, have_block = false;
    ptxi_file *file = NULL;
    ptxi_launch *one = NULL;
    if (!specs || !whats)
        exit(3);
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
            kernel = v;
        } else if ((v = opt_value(argc, argv, &i, "--grid"))) {
            if (parse_dim3("--grid", v, grid))
                goto out;
            have_grid = true;
        } else if ((v = opt_value(argc, argv, &i, "--block"))) {
            if (parse_dim3("--block", v, block))
                goto out;
            have_block = true;
        } else if ((v = opt_value(argc, argv, &i, "--cluster"))) {
            if (parse_dim3("--cluster", v, cluster))
                goto out;
        } else if ((v = opt_value(argc, argv, &i, "--smem"))) {
            uint64_t s;
            if (parse_u64(v, &s) || s > UINT32_MAX) {
                fprintf(stderr, "ptxi: --smem: \"%s\" is not a byte count\n", v);
                goto out;
            }
            smem = (unsigned)s;
        } else if ((v = opt_value(argc, argv, &i, "--buffer"))) {
            whats[nspecs] = "buffer";
            specs[nspecs++] = v;
        } else if ((v = opt_value(argc, argv, &i, "--param"))) {
            whats[nspecs] = "param";
            specs[nspecs++] = v;
        } else if ((v = opt_value(argc, argv, &i, "--expect"))) {
            if (!strchr(v, '=')) {
                fprintf(stderr, "ptxi: --expect %s: expected NAME=FILE\n", v);
                goto out;
            }
            whats[nspecs] = "expect";
            specs[nspecs++] = v;
        } else if ((v = opt_value(argc, argv, &i, "--dump"))) {
            if (add_opt(&o, "dump", v))
                goto out;
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
        if (kernel || have_grid || have_block || nspecs) {
            fprintf(stderr, "ptxi run: --kernel/--grid/--block/--buffer/--param/--expect go with a .ptx input; "
                    "%s is a launch file\n", input);
            goto out;
        }
        if (ptxi_file_open(input, &file)) {
            fprintf(stderr, "ptxi: %s\n", ptxi_file_errmsg(file));
            rc = 1;
            goto out;
        }
        size_t n = ptxi_file_count(file);
        if (n == 1 && ptxi_launch_broken(ptxi_file_launch(file, 0))) {   /* one launch object: the file's error */
            fprintf(stderr, "ptxi: %s\n", ptxi_launch_errmsg(ptxi_file_launch(file, 0)));
            rc = 1;
            goto out;
        }
        ptxi_launch **cases = calloc(n ? n : 1, sizeof *cases);
        if (!cases)
            exit(3);
        for (size_t i = 0; i < n; i++) {
            cases[i] = ptxi_file_launch(file, i);
            ptxi_launch_option(cases[i], "keep-memory", "0");
        }
        int fails = run_cases(cases, n, &o);
        free(cases);
        rc = sigint_seen ? 130 : fails ? 1 : 0;
        goto out;
    }
    if (!kernel || !have_grid || !have_block) {
        fprintf(stderr, "ptxi run: a .ptx input needs --kernel NAME, --grid X,Y,Z and --block X,Y,Z\n");
        goto out;
    }
    one = ptxi_launch_new(NULL, kernel);
    if (!one || ptxi_launch_option(one, "ptx", input) || ptxi_launch_option(one, "keep-memory", "0") ||
        ptxi_launch_shape(one, grid, block, cluster, smem)) {
        fprintf(stderr, "ptxi: %s\n", one ? ptxi_launch_errmsg(one) : "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nspecs; i++)
        if (ptxi_launch_spec(one, whats[i], specs[i])) {
            fprintf(stderr, "ptxi: %s\n", ptxi_launch_errmsg(one));
            goto out;
        }
    if (ptxi_launch_check(one)) {
        fprintf(stderr, "ptxi: %s\n", ptxi_launch_errmsg(one));
        goto out;
    }
    rc = run_cases(&one, 1, &o) ? 1 : 0;
    if (sigint_seen)
        rc = 130;
out:
    ptxi_launch_free(one);
    ptxi_file_close(file);
    free(specs);
    free(whats);
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
        else if ((has_suffix(p, ".json") || has_suffix(p, ".jsonl")) && ptxi_file_is_launch(p))
            fl_add(out, p);
        free(here.v[i]);
    }
    free(here.v);
}

typedef struct test_job {
    ptxi_launch **cases;
    size_t n;
    run_opts *o;
    int jobs;                /* interpreter threads per case */
    outcome *res;
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
        outcome res;
        memset(&res, 0, sizeof res);
        bool ran = false;
        if (!sigint_seen) {   /* after Ctrl-C the rest is reported as not run */
            run_limited(j->cases[i], j->o, j->jobs, wa->slot, &res);
            ran = true;
        }
        pthread_mutex_lock(&j->mu);
        j->res[i] = res;
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
static size_t origin_file_len(const ptxi_launch *l)
{
    const char *o = ptxi_launch_origin(l);
    const char *colon = strrchr(o, ':');
    if (colon && colon[1] >= '0' && colon[1] <= '9')
        return (size_t)(colon - o);
    return strlen(o);
}

static int write_junit(const char *path, ptxi_launch **cases, const outcome *res, const bool *ran, size_t n,
                       double total)
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
        const char *oi = ptxi_launch_origin(cases[i]);
        size_t fl = origin_file_len(cases[i]), k = i;
        size_t sf = 0, ss = 0;
        double st = 0;
        while (k < n && origin_file_len(cases[k]) == fl && !strncmp(ptxi_launch_origin(cases[k]), oi, fl)) {
            if (!ran[k])
                ss++;
            else if (res[k].failed)
                sf++;
            st += res[k].secs;
            k++;
        }
        fprintf(f, "  <testsuite name=\"");
        xml_text(f, oi, fl);
        fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\" "
                "timestamp=\"%s\" hostname=\"", k - i, sf, ss, st, stamp);
        xml_text(f, host, strlen(host));
        fprintf(f, "\">\n");
        for (size_t m = i; m < k; m++) {
            const char *name = ptxi_launch_name(cases[m]);
            fprintf(f, "    <testcase classname=\"");
            xml_text(f, oi, fl);
            fprintf(f, "\" name=\"");
            xml_text(f, name, strlen(name));
            fprintf(f, "\" time=\"%.3f\"", res[m].secs);
            const char *txt = res[m].text ? res[m].text : "";
            if (!ran[m]) {
                fprintf(f, ">\n      <skipped message=\"not run: interrupted\"/>\n    </testcase>\n");
            } else if (res[m].failed) {
                const char *nl = strchr(txt, '\n');
                size_t l1 = nl ? (size_t)(nl - txt) : strlen(txt);
                /* "FAIL name: why" -> "why" */
                const char *msg = txt;
                size_t nl5 = strlen(name);
                if (l1 > 5 && !strncmp(txt, "FAIL ", 5))
                    msg = txt + 5;
                if (!strncmp(msg, name, nl5) && !strncmp(msg + nl5, ": ", 2))
                    msg += nl5 + 2;
                size_t ml = l1 - (size_t)(msg - txt);
                fprintf(f, ">\n      <failure message=\"");
                xml_text(f, msg, ml);
                fprintf(f, "\" type=\"%s\">", ptxi_status_name(res[m].status));
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
        "  --check=full|none          happens-before checking of shared memory, async copies and\n"
        "                             barriers (default full; none runs faster and finds fewer bugs)\n"
        "  --no-contract              round every mul and add on its own, as the PTX reads, instead of\n"
        "                             fusing the pairs ptxas fuses into one fma (as the GPU runs them)\n"
        "  --filter SUBSTR            only cases whose name contains SUBSTR (none matching: an error)\n"
        "  --shard I/N                run only slice I of N (1 <= I <= N): case k of the selected\n"
        "                             cases goes to slice (k mod N) + 1, so the N slices together\n"
        "                             run every case exactly once (CI matrices, Slurm arrays)\n"
        "  --junit FILE               also write the results as JUnit XML\n"
        "  --max-steps N              stop a case after N warp instructions (default %llu; 0 = none)\n"
        "  --timeout SECONDS          stop a case after SECONDS (default %g; 0 = none)\n"
        "  --keep-failed DIR          write the actual bytes (and .npy of typed buffers) of failing buffers\n"
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
static void print_verdict(const ptxi_launch *l, const char *t)
{
    if (!strncmp(t, "PASS ", 5) || !strncmp(t, "FAIL ", 5))
        printf("%.5s%s :: %s", t, ptxi_launch_origin(l), t + 5);
    else
        fputs(t, stdout);
}

int cmd_test(int argc, char **argv)
{
    run_opts o = {.jobs = 1, .max_steps = DEFAULT_MAX_STEPS, .timeout = DEFAULT_TIMEOUT_S};
    file_list files = {0};
    const char *junit = NULL, *v;
    unsigned long shard_i = 1, shard_n = 1;
    int rc = 2;
    ptxi_file **opened = NULL;
    size_t nopened = 0;
    ptxi_launch **sel = NULL;
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
            if (add_opt(&o, "update", "1"))
                goto out;
        } else if ((v = opt_value(argc, argv, &i, "--junit"))) {
            junit = v;
        } else if ((v = opt_value(argc, argv, &i, "--shard"))) {
            char *end, *end2 = NULL;
            errno = 0;
            shard_i = strtoul(v, &end, 10);
            shard_n = *end == '/' ? strtoul(end + 1, &end2, 10) : 0;
            if (*v < '0' || *v > '9' || *end != '/' || end[1] < '0' || end[1] > '9' || !end2 || *end2 || errno ||
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
    size_t nall = 0, nsel = 0, nfiles_bad = 0;
    opened = calloc(files.n, sizeof *opened);
    if (!opened)
        exit(3);
    for (size_t f = 0; f < files.n; f++) {
        ptxi_file *pf = NULL;
        if (ptxi_file_open(files.v[f], &pf)) {
            printf("FAIL %s\n", ptxi_file_errmsg(pf));
            ptxi_file_close(pf);
            nfiles_bad++;
            continue;
        }
        opened[nopened++] = pf;
        nall += ptxi_file_count(pf);
    }
    sel = calloc(nall ? nall : 1, sizeof *sel);
    if (!sel)
        exit(3);
    size_t matched = 0;
    for (size_t f = 0; f < nopened; f++)
        for (size_t k = 0; k < ptxi_file_count(opened[f]); k++) {
            ptxi_launch *l = ptxi_file_launch(opened[f], k);
            if (o.filter && !strstr(ptxi_launch_name(l), o.filter))
                continue;
            /* lit's --run-shard: every N-th case of the selection, from I */
            if (matched++ % shard_n == shard_i - 1) {
                sel[nsel++] = l;
                ptxi_launch_option(l, "keep-memory", "0");
            }
        }
    if (o.filter && !matched) {
        fprintf(stderr, "ptxi test: --filter %s: no case name contains it (%zu case%s read)\n", o.filter, nall,
                nall == 1 ? "" : "s");
        rc = 1;
        goto out;
    }

    size_t nthreads = (size_t)o.jobs;
    if (nthreads > nsel)
        nthreads = nsel ? nsel : 1;
    o.trace_each = nsel > 1;
    /* parallel over cases, not inside one */
    test_job j = {.cases = sel, .n = nsel, .o = &o, .jobs = nthreads > 1 ? 1 : o.jobs};
    j.res = calloc(nsel ? nsel : 1, sizeof *j.res);
    j.done = calloc(nsel ? nsel : 1, sizeof *j.done);
    j.ran = calloc(nsel ? nsel : 1, sizeof *j.ran);
    test_worker_arg *wa = calloc(nthreads, sizeof *wa);
    if (!j.res || !j.done || !j.ran || !wa)
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
        if (!o.quiet || j.res[i].failed)
            print_verdict(sel[i], j.res[i].text);
        fflush(stdout);
    }
    for (size_t t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    limits_stop();
    double total = now_s() - t0;
    if (junit && write_junit(junit, sel, j.res, j.ran, nsel, total)) {
        fprintf(stderr, "ptxi test: --junit %s: cannot write: %s\n", junit, strerror(errno));
        failed++;
    }
    if (notrun) {
        printf("interrupted (Ctrl-C): %zu case%s not run:", notrun, notrun == 1 ? "" : "s");
        size_t shown = 0;
        for (size_t i = 0; i < nsel && shown < 10; i++)
            if (!j.ran[i]) {
                printf(" %s", ptxi_launch_name(sel[i]));
                shown++;
            }
        printf("%s\n", notrun > shown ? " ..." : "");
    }
    printf("%zu passed, %zu failed\n", passed, failed);
    rc = sigint_seen ? 130 : failed ? 1 : 0;
    for (size_t i = 0; i < nsel; i++)
        free(j.res[i].text);
    free(th);
    free(wa);
    free(j.res);
    free(j.done);
    free(j.ran);
    pthread_mutex_destroy(&j.mu);
    pthread_cond_destroy(&j.cv);
out:
    for (size_t f = 0; f < nopened; f++)
        ptxi_file_close(opened[f]);
    free(opened);
    free(sel);
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    return rc;
}
