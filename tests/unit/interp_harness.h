/* interp_harness.h — helpers for the interpreter unit tests: parse a PTX
 * string, allocate a zeroed output buffer, run one kernel, read results. */
#ifndef PTXI_TEST_INTERP_HARNESS_H
#define PTXI_TEST_INTERP_HARNESS_H
#include <stdlib.h>
#include <string.h>
#include "tests/unit/check.h"
#include "interp/interp.h"

/* set: launches run with --check=none (a test that races on purpose, to
 * see when ptxi lands a copy) */
static bool th_no_check;

typedef struct th_run {
    ir_module *mod;
    mem_global *g;
    uint64_t out;          /* device address of the output buffer */
    uint8_t *host;         /* its host bytes */
    interp_result res;
} th_run;

static void th_diag_quiet(ir_diag *d, const char *file, ir_loc loc, const char *sev, const char *msg)
{
    (void)d;
    printf("# %s:%u: %s: %s\n", file, loc.line, sev, msg);
}

/* Parse `src`, find `kernel`, and allocate a zeroed output buffer of
 * `out_bytes` in a new global memory (r->out, r->host).  Returns the
 * kernel, or NULL with r->res set.  A test may allocate more buffers in
 * r->g before th_launch. */
static const ir_function *th_prepare(th_run *r, const char *src, const char *kernel, uint32_t out_bytes)
{
    memset(r, 0, sizeof *r);
    ir_diag d;
    memset(&d, 0, sizeof d);
    d.emit = th_diag_quiet;
    r->mod = ptx_parse("test.ptx", src, strlen(src), &d);
    if (!r->mod) {
        r->res.status = -1;
        snprintf(r->res.msg, sizeof r->res.msg, "parse failed");
        return NULL;
    }
    const ir_function *fn = ir_find_function(r->mod, kernel);
    if (!fn) {
        r->res.status = -1;
        snprintf(r->res.msg, sizeof r->res.msg, "no kernel %s", kernel);
        return NULL;
    }
    r->g = mem_global_new();
    r->out = mem_global_alloc(r->g, out_bytes, 256, "out");
    r->host = mem_global_host(r->g, r->out, out_bytes);
    return fn;
}

/* Launch `fn` (from th_prepare) with params (out, extra...) as 8-byte
 * values in declaration order, a 1-D grid of 1-D blocks.  Returns the
 * status. */
static int th_launch(th_run *r, const ir_function *fn, uint32_t grid, uint32_t block, uint32_t cluster,
                     uint32_t dyn, int jobs, interp_policy pol, const uint64_t *extra, int nextra,
                     uint64_t max_steps)
{
    uint8_t params[1024];
    memset(params, 0, sizeof params);
    for (uint32_t i = 0; i < fn->nparams && i < 16; i++) {
        const ir_symbol *s = &r->mod->syms[fn->params[i]];
        uint64_t v = i == 0 ? r->out : (int)i - 1 < nextra ? extra[i - 1] : 0;
        memcpy(params + s->param_offset, &v, s->size < 8 ? s->size : 8);
    }
    interp_launch l;
    memset(&l, 0, sizeof l);
    l.mod = r->mod;
    l.entry = fn;
    l.grid[0] = grid; l.grid[1] = 1; l.grid[2] = 1;
    l.block[0] = block; l.block[1] = 1; l.block[2] = 1;
    l.cluster[0] = cluster; l.cluster[1] = 1; l.cluster[2] = 1;
    l.dyn_smem = dyn;
    l.params = params;
    l.params_size = fn->param_bytes;
    l.gmem = r->g;
    l.jobs = jobs;
    l.policy = pol;
    l.seed = 7;
    l.max_steps = max_steps;
    l.no_check = th_no_check;
    return interp_run(&l, &r->res);
}

/* Run `kernel` of `src` with params (out, extra...) as 8-byte values in
 * declaration order.  Returns the status. */
static int th_run_k(th_run *r, const char *src, const char *kernel, uint32_t grid, uint32_t block,
                    uint32_t cluster, uint32_t dyn, int jobs, interp_policy pol,
                    const uint64_t *extra, int nextra)
{
    const ir_function *fn = th_prepare(r, src, kernel, 1 << 16);
    if (!fn)
        return -1;
    return th_launch(r, fn, grid, block, cluster, dyn, jobs, pol, extra, nextra, 50000000);
}

static void th_free(th_run *r)
{
    if (r->g) mem_global_free(r->g);
    if (r->mod) ir_module_free(r->mod);
}

static inline uint32_t th_u32(const th_run *r, unsigned i) { uint32_t v; memcpy(&v, r->host + 4 * i, 4); return v; }
static inline uint64_t th_u64(const th_run *r, unsigned i) { uint64_t v; memcpy(&v, r->host + 8 * i, 8); return v; }

#define TH_HEADER ".version 8.0\n.target sm_90a\n.address_size 64\n"

#define CHECK_OK(name, r) do { if ((r)->res.status == 0) printf("PASS %s\n", name); \
    else { printf("FAIL %s: status %d: %s\n", name, (r)->res.status, (r)->res.msg); check_failures++; } } while (0)
#define CHECK_MSG(name, r, want_status, needle) do { \
    if ((r)->res.status == (want_status) && strstr((r)->res.msg, needle)) printf("PASS %s\n", name); \
    else { printf("FAIL %s: status %d (want %d), message lacks '%s': %s\n", name, (r)->res.status, \
                  (want_status), needle, (r)->res.msg); check_failures++; } } while (0)
#endif
