/* api.c — the public C API (ptxi.h) over the launch model.
 *
 * A ptxi_launch is a launch_case built call by call (or read from a launch
 * file) plus what the last run left: its outcome (report, status, steps)
 * and its global memory, which ptxi_launch_read copies out of.  Runs go
 * through launch_run_case, the same path as `ptxi run` and `ptxi test`.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "launch/ptxi.h"
#include "launch/launch.h"
#include "interp/interp.h"

struct ptxi_module {
    ir_module *mod;
    char *err;
};

struct ptxi_launch {
    launch_case c;
    const ptxi_module *m;      /* given module, or */
    ptxi_module *own;          /* the launch file's, owned */
    uint64_t max_steps;
    double timeout;
    volatile int stop;
    launch_outcome res;
    bool ran;
    /* stepping (ptxi_launch_start / _step) */
    interp_ctx *ctx;
    uint8_t *params;
    /* options */
    int jobs, policy;
    uint64_t seed;
    bool update, quiet, drop_memory;
    bool no_check;             /* "check" none */
    bool no_contract;          /* "contract" off */
    char *keep_failed;
    char *trace;               /* "trace": the timeline's file */
    launch_dumps dumps;
    uint64_t progress;
    bool owned_by_file;
    char err[2048];
};

const char *ptxi_version(void)
{
    return PTXI_VERSION;
}

const char *ptxi_status_name(int st)
{
    static const char *const names[] = {"ok", "error", "nomem", "fail", "fault", "deadlock", "unsupported",
                                        "trap", "launch_error", "step_limit", "interrupted"};
    return st >= 0 && st < (int)(sizeof names / sizeof names[0]) ? names[st] : "unknown";
}

/* ---- modules -------------------------------------------------------------- */

static int module_new(const char *path, const char *text, ptxi_module **out)
{
    ptxi_module *m = calloc(1, sizeof *m);
    *out = m;
    if (!m)
        return PTXI_NOMEM;
    if (!path) {
        m->err = strdup("no PTX given (NULL)");
        return PTXI_ERROR;
    }
    m->mod = launch_parse_ptx(path, text, &m->err);
    return m->mod ? PTXI_OK : PTXI_ERROR;
}

int ptxi_module_load(const char *path, ptxi_module **out)
{
    return module_new(path, NULL, out);
}

int ptxi_module_load_text(const char *text, const char *name, ptxi_module **out)
{
    if (!text)
        return module_new(NULL, NULL, out);
    return module_new(name ? name : "<ptx>", text, out);
}

const char *ptxi_module_errmsg(const ptxi_module *m)
{
    return m && m->err ? m->err : "";
}

int ptxi_module_nentries(const ptxi_module *m)
{
    int n = 0;
    if (m && m->mod)
        for (uint32_t i = 0; i < m->mod->nfuncs; i++)
            n += m->mod->funcs[i].is_entry;
    return n;
}

const char *ptxi_module_entry(const ptxi_module *m, int k)
{
    if (m && m->mod)
        for (uint32_t i = 0; i < m->mod->nfuncs; i++)
            if (m->mod->funcs[i].is_entry && k-- == 0)
                return m->mod->funcs[i].name;
    return NULL;
}

static const ir_function *entry_named(const ptxi_module *m, const char *kernel)
{
    if (!m || !m->mod || !kernel)
        return NULL;
    const ir_function *f = ir_find_function(m->mod, kernel);
    return f && f->is_entry ? f : NULL;
}

int ptxi_module_nparams(const ptxi_module *m, const char *kernel)
{
    const ir_function *f = entry_named(m, kernel);
    return f ? (int)f->nparams : -1;
}

int ptxi_module_param(const ptxi_module *m, const char *kernel, int i, const char **type, uint64_t *bytes,
                      int *is_ptr)
{
    const ir_function *f = entry_named(m, kernel);
    if (!f || i < 0 || (uint32_t)i >= f->nparams)
        return PTXI_ERROR;
    const ir_symbol *s = &m->mod->syms[f->params[i]];
    const char *t = s->type < IR_T__COUNT ? ir_types[s->type].name : "?";
    if (type)
        *type = t && *t == '.' ? t + 1 : t;
    if (bytes)
        *bytes = s->size;
    if (is_ptr)
        *is_ptr = s->is_ptr;
    return PTXI_OK;
}

void ptxi_module_free(ptxi_module *m)
{
    if (!m)
        return;
    if (m->mod)
        ir_module_free(m->mod);
    free(m->err);
    free(m);
}

/* ---- launches ------------------------------------------------------------- */

static int seterr(ptxi_launch *l, int st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int seterr(ptxi_launch *l, int st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->err, sizeof l->err, fmt, ap);
    va_end(ap);
    return st;
}

static ptxi_launch *launch_alloc(void)
{
    ptxi_launch *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->c.cluster[0] = l->c.cluster[1] = l->c.cluster[2] = 1;
    l->c.grid[0] = l->c.grid[1] = l->c.grid[2] = 1;
    l->c.block[0] = l->c.block[1] = l->c.block[2] = 1;
    l->c.has_params = true;
    l->max_steps = 4000000000ull;
    l->timeout = 600;
    l->jobs = 1;
    return l;
}

ptxi_launch *ptxi_launch_new(ptxi_module *m, const char *kernel)
{
    ptxi_launch *l = launch_alloc();
    if (!l)
        return NULL;
    l->m = m;
    l->c.kernel = strdup(kernel ? kernel : "");
    l->c.name = strdup(kernel ? kernel : "launch");
    l->c.origin = strdup("api");
    l->c.dir = strdup(".");
    if (!l->c.kernel || !l->c.name || !l->c.origin || !l->c.dir) {
        ptxi_launch_free(l);
        return NULL;
    }
    if (m && !m->mod)
        seterr(l, PTXI_ERROR, "the module did not load: %s", ptxi_module_errmsg(m));
    return l;
}

long ptxi_launch_file_count(const char *path)
{
    launch_case *cases = NULL;
    size_t n = 0;
    char err[64];
    if (launch_read_file_all(path, &cases, &n, err, sizeof err)) {
        if (!errno)
            errno = EINVAL;
        return -1;
    }
    launch_free_all(cases, n);
    return (long)n;
}

static void launch_release(ptxi_launch *l);

struct ptxi_file {
    ptxi_launch *cases;
    size_t n;
    char err[4096];
};

int ptxi_file_open(const char *path, ptxi_file **out)
{
    ptxi_file *f = calloc(1, sizeof *f);
    *out = f;
    if (!f)
        return PTXI_NOMEM;
    launch_case *cases = NULL;
    size_t n = 0;
    if (!path) {
        snprintf(f->err, sizeof f->err, "no path given (NULL)");
        return PTXI_ERROR;
    }
    if (launch_read_file_all(path, &cases, &n, f->err, sizeof f->err))
        return PTXI_ERROR;
    f->cases = calloc(n ? n : 1, sizeof *f->cases);
    if (!f->cases) {
        launch_free_all(cases, n);
        return PTXI_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        ptxi_launch *l = &f->cases[i];
        l->c = cases[i];
        l->max_steps = 4000000000ull;
        l->timeout = 600;
        l->jobs = 1;
        l->owned_by_file = true;
        if (l->c.broken)
            snprintf(l->err, sizeof l->err, "%s", l->c.broken);
    }
    free(cases);
    f->n = n;
    return PTXI_OK;
}

const char *ptxi_file_errmsg(const ptxi_file *f)
{
    return f ? f->err : "out of memory";
}

size_t ptxi_file_count(const ptxi_file *f)
{
    return f ? f->n : 0;
}

ptxi_launch *ptxi_file_launch(ptxi_file *f, size_t i)
{
    return f && i < f->n ? &f->cases[i] : NULL;
}

int ptxi_file_is_launch(const char *path)
{
    return path && launch_file_is_launch(path);
}

void ptxi_file_close(ptxi_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        launch_release(&f->cases[i]);
    free(f->cases);
    free(f);
}

const char *ptxi_launch_name(const ptxi_launch *l)
{
    return l && l->c.name ? l->c.name : "";
}

const char *ptxi_launch_origin(const ptxi_launch *l)
{
    return l && l->c.origin ? l->c.origin : "";
}

int ptxi_launch_broken(const ptxi_launch *l)
{
    return l && l->c.broken;
}

int ptxi_launch_spec(ptxi_launch *l, const char *what, const char *spec)
{
    if (!what || !spec)
        return seterr(l, PTXI_ERROR, "ptxi_launch_spec: what and spec are required");
    if (!strcmp(what, "buffer"))
        return launch_spec_buffer(&l->c, spec, l->err, sizeof l->err) ? PTXI_ERROR : PTXI_OK;
    if (!strcmp(what, "param"))
        return launch_spec_param(&l->c, spec, l->err, sizeof l->err) ? PTXI_ERROR : PTXI_OK;
    if (!strcmp(what, "expect")) {
        const char *eq = strchr(spec, '=');
        if (!eq || eq == spec || !eq[1])
            return seterr(l, PTXI_ERROR, "--expect %s: expected NAME=FILE", spec);
        launch_expect_buf *ne = realloc(l->c.expect_bufs, (l->c.nexpect_bufs + 1) * sizeof *ne);
        if (!ne)
            return PTXI_NOMEM;
        l->c.expect_bufs = ne;
        launch_expect_buf *e = &ne[l->c.nexpect_bufs];
        memset(e, 0, sizeof *e);
        e->name = strndup(spec, (size_t)(eq - spec));
        e->file = strdup(eq + 1);
        e->file_rel = strdup(eq + 1);
        if (!e->name || !e->file || !e->file_rel) {
            free(e->name);
            free(e->file);
            free(e->file_rel);
            return PTXI_NOMEM;
        }
        l->c.nexpect_bufs++;
        return PTXI_OK;
    }
    return seterr(l, PTXI_ERROR, "ptxi_launch_spec: \"%s\" is not buffer, param or expect", what);
}

int ptxi_launch_check(ptxi_launch *l)
{
    const launch_param *unk = launch_unknown_pointer(&l->c, l->c.params, l->c.nparams);
    if (unk)
        return seterr(l, PTXI_ERROR, "--param ptr:%s: no --buffer named \"%s\"", unk->ref, unk->ref);
    for (size_t i = 0; i < l->c.nexpect_bufs; i++)
        if (!launch_find_buffer(&l->c, l->c.expect_bufs[i].name))
            return seterr(l, PTXI_ERROR, "--expect %s=%s: no --buffer named \"%s\"", l->c.expect_bufs[i].name,
                          l->c.expect_bufs[i].file_rel, l->c.expect_bufs[i].name);
    return PTXI_OK;
}

static int parse_count(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!v || !*v || *v == '-')
        return -1;
    *out = strtoull(v, &end, 0);
    return *end || errno ? -1 : 0;
}

int ptxi_launch_option(ptxi_launch *l, const char *name, const char *v)
{
    uint64_t n;
    if (!name || !v)
        return seterr(l, PTXI_ERROR, "ptxi_launch_option: name and value are required");
    if (!strcmp(name, "ptx")) {
        free(l->c.ptx);
        l->c.ptx = strdup(v);
        if (!l->c.origin || !strcmp(l->c.origin, "api")) {
            free(l->c.origin);
            l->c.origin = strdup(v);
        }
        return l->c.ptx ? PTXI_OK : PTXI_NOMEM;
    }
    if (!strcmp(name, "jobs")) {
        if (parse_count(v, &n) || n < 1 || n > 1024)
            return seterr(l, PTXI_ERROR, "jobs: \"%s\" is not a thread count 1..1024", v);
        l->jobs = (int)n;
        return PTXI_OK;
    }
    if (!strcmp(name, "complete")) {
        if (!strcmp(v, "eager"))
            l->policy = INTERP_COMPLETE_EAGER;
        else if (!strcmp(v, "deferred"))
            l->policy = INTERP_COMPLETE_DEFERRED;
        else if (!strncmp(v, "random", 6) && (v[6] == 0 || (v[6] == ':' && !parse_count(v + 7, &n)))) {
            l->policy = INTERP_COMPLETE_RANDOM;
            l->seed = v[6] ? n : 1;
        } else {
            return seterr(l, PTXI_ERROR, "--complete: \"%s\" is not eager, deferred or random[:SEED]", v);
        }
        return PTXI_OK;
    }
    if (!strcmp(name, "contract")) {
        if (strcmp(v, "on") && strcmp(v, "off"))
            return seterr(l, PTXI_ERROR, "contract: \"%s\" is not on or off", v);
        l->no_contract = !strcmp(v, "off");
        return PTXI_OK;
    }
    if (!strcmp(name, "check")) {
        if (strcmp(v, "full") && strcmp(v, "none"))
            return seterr(l, PTXI_ERROR, "--check: \"%s\" is not full or none", v);
        l->no_check = !strcmp(v, "none");
        return PTXI_OK;
    }
    if (!strcmp(name, "max-steps")) {
        if (parse_count(v, &n))
            return seterr(l, PTXI_ERROR, "--max-steps: \"%s\" is not a count of warp instructions", v);
        l->max_steps = n;
        return PTXI_OK;
    }
    if (!strcmp(name, "timeout")) {
        char *end;
        double t = strtod(v, &end);
        if (!*v || *end || !(t >= 0))
            return seterr(l, PTXI_ERROR, "--timeout: \"%s\" is not a number of seconds", v);
        l->timeout = t;
        return PTXI_OK;
    }
    if (!strcmp(name, "update") || !strcmp(name, "quiet") || !strcmp(name, "keep-memory")) {
        if (strcmp(v, "0") && strcmp(v, "1"))
            return seterr(l, PTXI_ERROR, "%s: \"%s\" is not 0 or 1", name, v);
        bool on = *v == '1';
        if (name[0] == 'u')
            l->update = on;
        else if (name[0] == 'q')
            l->quiet = on;
        else
            l->drop_memory = !on;
        return PTXI_OK;
    }
    if (!strcmp(name, "keep-failed")) {
        free(l->keep_failed);
        l->keep_failed = *v ? strdup(v) : NULL;
        return PTXI_OK;
    }
    if (!strcmp(name, "trace")) {
        free(l->trace);
        l->trace = *v ? strdup(v) : NULL;
        return PTXI_OK;
    }
    if (!strcmp(name, "dump"))
        return launch_spec_dump(&l->dumps, v, l->err, sizeof l->err) ? PTXI_ERROR : PTXI_OK;
    return seterr(l, PTXI_ERROR, "ptxi_launch_option: unknown option \"%s\"", name);
}

void ptxi_launch_stats(const ptxi_launch *l, uint64_t *thread_instrs, uint64_t *wall_ns)
{
    if (thread_instrs)
        *thread_instrs = l ? l->res.thread_instrs : 0;
    if (wall_ns)
        *wall_ns = l ? l->res.wall_ns : 0;
}

uint64_t ptxi_launch_progress(const ptxi_launch *l)
{
    return l ? __atomic_load_n(&l->progress, __ATOMIC_RELAXED) : 0;
}

int ptxi_launch_from_file(const char *path, size_t index, ptxi_launch **out)
{
    ptxi_launch *l = launch_alloc();
    *out = l;
    if (!l)
        return PTXI_NOMEM;
    launch_case *cases = NULL;
    size_t n = 0;
    if (launch_read_file_all(path, &cases, &n, l->err, sizeof l->err))
        return PTXI_ERROR;
    if (index >= n) {
        launch_free_all(cases, n);
        return seterr(l, PTXI_ERROR, "%s: case %zu asked for, the file has %zu", path, index, n);
    }
    l->c = cases[index];
    for (size_t i = 0; i < n; i++)
        if (i != index)
            launch_free(&cases[i]);
    free(cases);
    if (l->c.broken)
        return seterr(l, PTXI_ERROR, "%s", l->c.broken);
    if (l->c.ptx) {
        int r = ptxi_module_load(l->c.ptx, &l->own);
        l->m = l->own;
        if (r)
            return seterr(l, r, "%s", ptxi_module_errmsg(l->own));
    }
    return PTXI_OK;
}

static void step_end(ptxi_launch *l)
{
    if (l->ctx)
        interp_free(l->ctx);
    l->ctx = NULL;
    free(l->params);
    l->params = NULL;
}

static void launch_release(ptxi_launch *l)
{
    step_end(l);
    launch_outcome_free(&l->res);
    launch_free(&l->c);
    ptxi_module_free(l->own);
    free(l->keep_failed);
    free(l->trace);
    launch_dumps_free(&l->dumps);
}

void ptxi_launch_free(ptxi_launch *l)
{
    if (!l || l->owned_by_file)
        return;
    launch_release(l);
    free(l);
}

int ptxi_launch_shape(ptxi_launch *l, const unsigned grid[3], const unsigned block[3], const unsigned cluster[3],
                      unsigned smem)
{
    if (!grid || !block)
        return seterr(l, PTXI_ERROR, "ptxi_launch_shape: grid and block are required");
    for (int d = 0; d < 3; d++) {
        if (!grid[d] || !block[d] || (cluster && !cluster[d]))
            return seterr(l, PTXI_ERROR, "ptxi_launch_shape: %s %c is 0 (every extent is at least 1)",
                          !grid[d] ? "grid" : !block[d] ? "block" : "cluster", "xyz"[d]);
        l->c.grid[d] = grid[d];
        l->c.block[d] = block[d];
        l->c.cluster[d] = cluster ? cluster[d] : 1;
    }
    l->c.dyn_smem = smem;
    return PTXI_OK;
}

int ptxi_launch_buffer(ptxi_launch *l, const char *name, uint64_t bytes, const void *data)
{
    if (!name || !*name)
        return seterr(l, PTXI_ERROR, "ptxi_launch_buffer: a buffer needs a name");
    if (launch_find_buffer(&l->c, name))
        return seterr(l, PTXI_ERROR, "ptxi_launch_buffer: a buffer named \"%s\" exists already", name);
    if (bytes > (1ull << 40))
        return seterr(l, PTXI_ERROR, "ptxi_launch_buffer: %s: %llu bytes is more than ptxi allocates (1 TiB)",
                      name, (unsigned long long)bytes);
    launch_buffer *nb = realloc(l->c.buffers, (l->c.nbuffers + 1) * sizeof *nb);
    if (!nb)
        return PTXI_NOMEM;
    l->c.buffers = nb;
    launch_buffer *b = &nb[l->c.nbuffers];
    memset(b, 0, sizeof *b);
    b->name = strdup(name);
    b->bytes = bytes;
    b->align = 256;
    if (data) {
        b->data = malloc(bytes ? bytes : 1);
        if (b->data)
            memcpy(b->data, data, bytes);
        b->init = LAUNCH_INIT_DATA;
    }
    if (!b->name || (data && !b->data)) {
        free(b->name);
        free(b->data);
        return PTXI_NOMEM;
    }
    l->c.nbuffers++;
    return PTXI_OK;
}

int ptxi_launch_tensor_map(ptxi_launch *l, const char *json)
{
    if (!json)
        return seterr(l, PTXI_ERROR, "ptxi_launch_tensor_map: no JSON given");
    return launch_add_json(&l->c, "tensor_maps", json, l->err, sizeof l->err) ? PTXI_ERROR : PTXI_OK;
}

int ptxi_launch_param_json(ptxi_launch *l, const char *json)
{
    if (!json)
        return seterr(l, PTXI_ERROR, "ptxi_launch_param_json: no JSON given");
    return launch_add_json(&l->c, "params", json, l->err, sizeof l->err) ? PTXI_ERROR : PTXI_OK;
}

static int add_param(ptxi_launch *l, const launch_param *p)
{
    launch_param *np = realloc(l->c.params, (l->c.nparams + 1) * sizeof *np);
    if (!np)
        return PTXI_NOMEM;
    l->c.params = np;
    np[l->c.nparams++] = *p;
    l->c.has_params = true;
    return PTXI_OK;
}

int ptxi_launch_param(ptxi_launch *l, const char *type, uint64_t value)
{
    static const struct { const char *name; int kind; } kinds[] = {
        {"u8", LAUNCH_P_U8}, {"u16", LAUNCH_P_U16}, {"u32", LAUNCH_P_U32}, {"u64", LAUNCH_P_U64},
        {"s8", LAUNCH_P_S8}, {"s16", LAUNCH_P_S16}, {"s32", LAUNCH_P_S32}, {"s64", LAUNCH_P_S64},
        {"f32", LAUNCH_P_F32}, {"f64", LAUNCH_P_F64},
    };
    for (size_t i = 0; type && i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(type, kinds[i].name)) {
            launch_param p = {0};
            p.kind = kinds[i].kind;
            uint32_t size = launch_param_size(p.kind);
            p.bits = size < 8 ? value & ((1ull << (size * 8)) - 1) : value;
            return add_param(l, &p);
        }
    return seterr(l, PTXI_ERROR, "ptxi_launch_param: unknown type \"%s\" (u8 u16 u32 u64 s8 s16 s32 s64 f32 f64)",
                  type ? type : "(null)");
}

int ptxi_launch_param_f32(ptxi_launch *l, float v)
{
    uint32_t b;
    memcpy(&b, &v, 4);
    return ptxi_launch_param(l, "f32", b);
}

int ptxi_launch_param_f64(ptxi_launch *l, double v)
{
    uint64_t b;
    memcpy(&b, &v, 8);
    return ptxi_launch_param(l, "f64", b);
}

int ptxi_launch_param_pointer(ptxi_launch *l, const char *buffer, uint64_t offset)
{
    if (!buffer || !launch_find_buffer(&l->c, buffer))
        return seterr(l, PTXI_ERROR, "ptxi_launch_param_pointer: no buffer named \"%s\"", buffer ? buffer : "(null)");
    launch_param p = {0};
    p.kind = LAUNCH_P_POINTER;
    p.ref = strdup(buffer);
    p.offset = offset;
    return p.ref ? add_param(l, &p) : PTXI_NOMEM;
}

int ptxi_launch_param_tensor_map(ptxi_launch *l, const char *tmap)
{
    if (!tmap || !launch_find_tmap(&l->c, tmap))
        return seterr(l, PTXI_ERROR, "ptxi_launch_param_tensor_map: no tensor map named \"%s\"",
                      tmap ? tmap : "(null)");
    launch_param p = {0};
    p.kind = LAUNCH_P_TMAP;
    p.ref = strdup(tmap);
    return p.ref ? add_param(l, &p) : PTXI_NOMEM;
}

int ptxi_launch_limits(ptxi_launch *l, uint64_t max_steps, double timeout)
{
    if (!(timeout >= 0))
        return seterr(l, PTXI_ERROR, "ptxi_launch_limits: the timeout must be >= 0 seconds");
    l->max_steps = max_steps;
    l->timeout = timeout;
    return PTXI_OK;
}

void ptxi_launch_interrupt(ptxi_launch *l)
{
    if (l)
        l->stop = INTERP_STOP_REQUEST;
}

/* --timeout for the API: a thread that raises the stop flag at the deadline
 * unless the run ends first. */
typedef struct timer {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done;
    struct timespec deadline;
    volatile int *stop;
} timer;

static void *timer_main(void *arg)
{
    timer *t = arg;
    pthread_mutex_lock(&t->mu);
    while (!t->done)
        if (pthread_cond_timedwait(&t->cv, &t->mu, &t->deadline) == ETIMEDOUT) {
            if (!t->done && !*t->stop)
                *t->stop = INTERP_STOP_TIMEOUT;
            break;
        }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

static int status_of(int interp_status)
{
    switch (interp_status) {
    case INTERP_OK: return PTXI_OK;
    case INTERP_FAULT: return PTXI_FAULT;
    case INTERP_DEADLOCK: return PTXI_DEADLOCK;
    case INTERP_UNSUPPORTED: return PTXI_UNSUPPORTED;
    case INTERP_TRAP: return PTXI_TRAP;
    case INTERP_LAUNCH_ERROR: return PTXI_LAUNCH_ERROR;
    case INTERP_STEP_LIMIT: return PTXI_STEP_LIMIT;
    case INTERP_INTERRUPTED: return PTXI_INTERRUPTED;
    default: return PTXI_ERROR;
    }
}

static int encode_checks(ptxi_launch *l)
{
    if (!l->c.expect_encode && l->c.ntmaps) {
        l->c.expect_encode = malloc(l->c.ntmaps * sizeof *l->c.expect_encode);
        if (!l->c.expect_encode)
            return PTXI_NOMEM;
        for (size_t i = 0; i < l->c.ntmaps; i++)
            l->c.expect_encode[i] = -1;
    }
    return PTXI_OK;
}

int ptxi_launch_start(ptxi_launch *l)
{
    step_end(l);
    launch_outcome_free(&l->res);
    memset(&l->res, 0, sizeof l->res);
    l->res.status = -1;
    l->ran = false;
    const char *perr = NULL;
    const ir_module *mod = l->m ? l->m->mod : l->c.ptx ? launch_module_get(l->c.ptx, &perr) : NULL;
    if (!mod)
        return seterr(l, PTXI_ERROR, "no module: %s",
                      l->m ? ptxi_module_errmsg(l->m) : perr ? perr : "none given");
    if (encode_checks(l))
        return PTXI_NOMEM;
    const ir_function *fn = ir_find_function(mod, l->c.kernel);
    if (!fn || !fn->is_entry)
        return seterr(l, PTXI_ERROR, "kernel: no .entry named \"%s\"", l->c.kernel);
    mem_global *g = mem_global_new();
    if (!g)
        return PTXI_NOMEM;
    l->res.g = g;
    if (launch_setup(&l->c, g, l->err, sizeof l->err))
        return PTXI_ERROR;
    for (size_t i = 0; i < l->c.ntmaps; i++)
        if (l->c.tmaps[i].status != TMA_SUCCESS)
            return seterr(l, PTXI_ERROR, "tensor map %s: encode failed: %s", l->c.tmaps[i].name,
                          l->c.tmaps[i].why[0] ? l->c.tmaps[i].why : "CUDA_ERROR_INVALID_VALUE");
    uint32_t psize = 0;
    if (launch_build_params(&l->c, mod, fn, &l->params, &psize, l->err, sizeof l->err))
        return PTXI_ERROR;
    interp_launch il;
    memset(&il, 0, sizeof il);
    il.mod = mod;
    il.entry = fn;
    memcpy(il.grid, l->c.grid, sizeof il.grid);
    memcpy(il.block, l->c.block, sizeof il.block);
    memcpy(il.cluster, l->c.cluster, sizeof il.cluster);
    il.dyn_smem = l->c.dyn_smem;
    il.params = l->params;
    il.params_size = psize;
    il.gmem = g;
    il.max_steps = l->max_steps;
    il.no_contract = l->no_contract;
    il.stop = &l->stop;
    l->stop = 0;
    l->ctx = interp_new(&il);
    if (!l->ctx)
        return PTXI_NOMEM;
    l->ran = true;
    l->err[0] = 0;
    return PTXI_OK;
}

int ptxi_launch_step(ptxi_launch *l, uint64_t steps, int *done)
{
    if (done)
        *done = 1;
    if (!l->ctx)
        return seterr(l, PTXI_ERROR, "ptxi_launch_step: no launch started (ptxi_launch_start)");
    if (!steps)
        steps = 1;
    interp_event ev;
    int k = interp_finished(l->ctx) ? INTERP_EV_DONE : interp_run_until(l->ctx, steps, false, &ev);
    const interp_result *r = interp_get_result(l->ctx);
    l->res.steps = interp_clock(l->ctx);
    if (k != INTERP_EV_DONE && k != INTERP_EV_ERROR && !interp_finished(l->ctx)) {
        if (done)
            *done = 0;
        return PTXI_OK;
    }
    l->res.status = r->status;
    free(l->res.text.buf);
    memset(&l->res.text, 0, sizeof l->res.text);
    if (r->status == INTERP_OK)
        launch_tprintf(&l->res.text, "PASS %s\n", l->c.name);
    else
        launch_tprintf(&l->res.text, "FAIL %s: %s\n", l->c.name, r->msg);
    snprintf(l->err, sizeof l->err, "%.2000s", r->status == INTERP_OK ? "" : r->msg);
    return status_of(r->status);
}

int ptxi_launch_run(ptxi_launch *l)
{
    step_end(l);
    launch_outcome_free(&l->res);
    l->ran = false;
    if (l->m && !l->m->mod)
        return seterr(l, PTXI_ERROR, "the module did not load: %s", ptxi_module_errmsg(l->m));
    if (!l->m && !l->c.ptx && !l->c.ntmaps && !l->c.broken)
        return seterr(l, PTXI_ERROR, "no module to run (give one to ptxi_launch_new, or the option \"ptx\")");
    if (encode_checks(l))
        return PTXI_NOMEM;
    l->stop = 0;
    __atomic_store_n(&l->progress, 0, __ATOMIC_RELAXED);
    launch_run_opts o = {.max_steps = l->max_steps, .stop = &l->stop, .keep_memory = true, .jobs = l->jobs,
                         .policy = l->policy, .seed = l->seed, .update = l->update, .quiet = l->quiet,
                         .keep_failed = l->keep_failed, .progress = &l->progress, .trace = l->trace,
                         .no_check = l->no_check, .no_contract = l->no_contract};
    timer t = {.stop = &l->stop};
    pthread_t th;
    bool timed = false;
    if (l->timeout > 0) {
        pthread_mutex_init(&t.mu, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_cond_init(&t.cv, &ca);
        pthread_condattr_destroy(&ca);
        clock_gettime(CLOCK_REALTIME, &t.deadline);
        double s = l->timeout;
        time_t whole = (time_t)s;
        t.deadline.tv_sec += whole;
        t.deadline.tv_nsec += (long)((s - (double)whole) * 1e9);
        if (t.deadline.tv_nsec >= 1000000000L) {
            t.deadline.tv_sec++;
            t.deadline.tv_nsec -= 1000000000L;
        }
        timed = pthread_create(&th, NULL, timer_main, &t) == 0;
    }
    int failed = launch_run_case(&l->c, &o, l->m ? l->m->mod : NULL, &l->res);
    if (timed) {
        pthread_mutex_lock(&t.mu);
        t.done = true;
        pthread_cond_signal(&t.cv);
        pthread_mutex_unlock(&t.mu);
        pthread_join(th, NULL);
    }
    if (l->timeout > 0) {
        pthread_mutex_destroy(&t.mu);
        pthread_cond_destroy(&t.cv);
    }
    if (l->res.g && l->dumps.ndumps) {
        launch_text dt = {0};
        if (!failed && launch_do_dumps(&l->c, l->res.g, &l->dumps, &dt)) {
            /* the report said PASS: it fails after all */
            const char *t = l->res.text.buf ? l->res.text.buf : "", *nl = strchr(t, '\n');
            launch_text nt = {0};
            launch_tprintf(&nt, "FAIL %s: --dump failed\n%s%s", l->c.name, nl ? nl + 1 : "", dt.buf ? dt.buf : "");
            free(l->res.text.buf);
            l->res.text = nt;
            failed = l->res.failed = 1;
            free(dt.buf);
            dt.buf = NULL;
            l->res.status = INTERP_OK;
        } else if (dt.len) {
            launch_tprintf(&l->res.text, "%s", dt.buf);
        }
        free(dt.buf);
    }
    if (l->drop_memory && l->res.g) {
        mem_global_free(l->res.g);
        l->res.g = NULL;
    }
    l->ran = l->res.g != NULL;
    const char *txt = l->res.text.buf ? l->res.text.buf : "";
    const char *nl = strchr(txt, '\n');
    snprintf(l->err, sizeof l->err, "%.*s", nl ? (int)(nl - txt) : (int)strlen(txt), txt);
    if (!failed)
        return PTXI_OK;
    if (l->res.status == INTERP_OK)
        return PTXI_FAIL;
    return status_of(l->res.status);   /* (-1, nothing launched: set-up, parameters, encode: PTXI_ERROR) */
}

const char *ptxi_launch_report(const ptxi_launch *l)
{
    return l && l->res.text.buf ? l->res.text.buf : "";
}

const char *ptxi_launch_errmsg(const ptxi_launch *l)
{
    return l ? l->err : "out of memory";
}

uint64_t ptxi_launch_steps(const ptxi_launch *l)
{
    return l ? l->res.steps : 0;
}

int ptxi_launch_read(const ptxi_launch *l, const char *buffer, void *dst, uint64_t bytes)
{
    const launch_buffer *b = buffer ? launch_find_buffer(&l->c, buffer) : NULL;
    if (!b)
        return seterr((ptxi_launch *)l, PTXI_ERROR, "ptxi_launch_read: no buffer named \"%s\"",
                      buffer ? buffer : "(null)");
    if (!l->ran || !l->res.g)
        return seterr((ptxi_launch *)l, PTXI_ERROR, "ptxi_launch_read: %s: no run has set up memory yet", buffer);
    uint64_t n = bytes < b->bytes ? bytes : b->bytes;
    const uint8_t *h = n ? mem_global_host(l->res.g, b->addr, n) : NULL;
    if (n && !h)
        return seterr((ptxi_launch *)l, PTXI_ERROR, "ptxi_launch_read: %s: not readable", buffer);
    if (n)
        memcpy(dst, h, n);
    return PTXI_OK;
}

uint64_t ptxi_launch_buffer_size(const ptxi_launch *l, const char *buffer)
{
    const launch_buffer *b = buffer ? launch_find_buffer(&l->c, buffer) : NULL;
    return b ? b->bytes : 0;
}

int ptxi_launch_nbuffers(const ptxi_launch *l)
{
    return l ? (int)l->c.nbuffers : 0;
}

const char *ptxi_launch_buffer_name(const ptxi_launch *l, int i)
{
    return l && i >= 0 && (size_t)i < l->c.nbuffers ? l->c.buffers[i].name : NULL;
}
