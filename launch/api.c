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
    if (!m || !m->mod)
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

void ptxi_launch_free(ptxi_launch *l)
{
    if (!l)
        return;
    launch_outcome_free(&l->res);
    launch_free(&l->c);
    ptxi_module_free(l->own);
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

int ptxi_launch_run(ptxi_launch *l)
{
    launch_outcome_free(&l->res);
    l->ran = false;
    if (l->m && !l->m->mod)
        return seterr(l, PTXI_ERROR, "the module did not load: %s", ptxi_module_errmsg(l->m));
    if (!l->m && !l->c.ntmaps)
        return seterr(l, PTXI_ERROR, "no module to run");
    if (!l->c.expect_encode && l->c.ntmaps) {
        l->c.expect_encode = malloc(l->c.ntmaps * sizeof *l->c.expect_encode);
        if (!l->c.expect_encode)
            return PTXI_NOMEM;
        for (size_t i = 0; i < l->c.ntmaps; i++)
            l->c.expect_encode[i] = -1;
    }
    l->stop = 0;
    launch_run_opts o = {.max_steps = l->max_steps, .stop = &l->stop, .keep_memory = true};
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
    l->ran = l->res.g != NULL;
    const char *txt = l->res.text.buf ? l->res.text.buf : "";
    const char *nl = strchr(txt, '\n');
    snprintf(l->err, sizeof l->err, "%.*s", nl ? (int)(nl - txt) : (int)strlen(txt), txt);
    if (!failed)
        return PTXI_OK;
    switch (l->res.status) {
    case INTERP_OK: return PTXI_FAIL;
    case INTERP_FAULT: return PTXI_FAULT;
    case INTERP_DEADLOCK: return PTXI_DEADLOCK;
    case INTERP_UNSUPPORTED: return PTXI_UNSUPPORTED;
    case INTERP_TRAP: return PTXI_TRAP;
    case INTERP_LAUNCH_ERROR: return PTXI_LAUNCH_ERROR;
    case INTERP_STEP_LIMIT: return PTXI_STEP_LIMIT;
    case INTERP_INTERRUPTED: return PTXI_INTERRUPTED;
    default: return PTXI_ERROR;   /* nothing launched: set-up, parameters, encode */
    }
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
