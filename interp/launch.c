/* launch.c — from an interp_launch to running clusters.
 *
 * The plan (ip_plan) decides once where every symbol lives:
 *  - .global/.const variables (any scope): a global allocation each, with
 *    the initialiser copied and its relocations (addresses of other
 *    symbols, generic() included) patched in;
 *  - .shared variables of the module and of the launched entry / of .funcs:
 *    offsets in every CTA's shared window after the reserved first KiB, each
 *    at its alignment; `extern .shared dyn_smem[]` (an unsized array) is the
 *    start of dynamic shared memory, at the next 1024-byte boundary (TMA
 *    swizzle atoms are 1024 bytes; kernels align anyway);
 *  - entry parameters: offsets in the kernel parameter block;
 *  - .local variables and .param variables of a function body (call
 *    arguments) and of .func signatures: offsets in the function's frame,
 *    which lives in the calling thread's local memory (a stack of frames).
 *
 * Clusters are the unit of work: a context runs one cluster at a time (all
 * its CTAs resident together, as the hardware guarantees); interp_run with
 * jobs > 1 runs one context per host thread, taking cluster indices from a
 * shared counter.  Clusters only communicate through global memory (whose
 * atomics are real host atomics), and the reported error is the one of the
 * lowest cluster index, so any `jobs` gives the result of jobs = 1.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <pthread.h>
#include <time.h>
#include "interp/internal.h"
#include "contract/contract.h"

static uint32_t align_up32(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

static uint32_t sym_align(const ir_symbol *s)
{
    if (s->align)
        return s->align;
    uint32_t b = ir_types[s->type].bits / 8;
    b *= s->vec ? s->vec : 1;
    return b ? b : 1;
}

static bool is_entry_param(const ir_module *m, const ir_symbol *s)
{
    return s->kind == IR_SYM_PARAM && s->owner >= 0 && m->funcs[s->owner].is_entry;
}

static void write_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The instruction streams the interpreter executes: the module's, except
 * that in a function where ptxas contracts a mul and an add into one fma
 * (contract/) the add is that fma, in a copy.  Everything that shows or
 * inspects instructions (debugger, checker, reports) keeps reading the
 * module's. */
static bool plan_contract(ip_plan *p)
{
    const ir_module *m = p->mod;
    p->xin = calloc(m->nfuncs + 1, sizeof *p->xin);
    p->xown = calloc(m->nfuncs + 1, sizeof *p->xown);
    p->pairs = calloc(m->nfuncs + 1, sizeof *p->pairs);
    p->npairs = calloc(m->nfuncs + 1, sizeof *p->npairs);
    if (!p->xin || !p->xown || !p->pairs || !p->npairs)
        return false;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_function *fn = &m->funcs[f];
        p->xin[f] = fn->instrs;
        if (p->launch.no_contract || !fn->ninstrs)
            continue;
        ctr_pair *v;
        int n = ctr_find(fn, &v);
        if (n < 0)
            return false;
        if (!n)
            continue;
        ir_instr *x = malloc(fn->ninstrs * sizeof *x);
        if (!x) {
            free(v);
            return false;
        }
        memcpy(x, fn->instrs, fn->ninstrs * sizeof *x);
        for (int i = 0; i < n; i++)
            ctr_fused_instr(fn, &v[i], &x[v[i].add]);
        p->pairs[f] = v;
        p->npairs[f] = n;
        p->xown[f] = x;
        p->xin[f] = x;
    }
    return true;
}

static bool plan_layout(ip_plan *p)
{
    const ir_module *m = p->mod;
    const interp_launch *l = &p->launch;
    uint32_t soff = MEM_SHARED_RESERVED;
    bool have_dyn = false;
    uint32_t dyn_align = 16;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ir_symbol *s = &m->syms[i];
        if (s->kind == IR_SYM_FUNC) {
            p->symloc[i] = IP_LOC_FUNC;
            p->symaddr[i] = (uint64_t)(s->func_index < 0 ? 0 : s->func_index);
            continue;
        }
        if (is_entry_param(m, s)) {
            p->symloc[i] = IP_LOC_KPARAM;
            p->symaddr[i] = s->param_offset;
            continue;
        }
        switch (s->space) {
        case IR_SPACE_GLOBAL:
        case IR_SPACE_CONST: {
            if (s->linkage == 'e' && s->size == 0)
                break;
            uint64_t a = mem_global_alloc(l->gmem, s->size ? s->size : 1,
                                          sym_align(s) > 256 ? sym_align(s) : 256, s->name);
            if (!a) {
                snprintf(p->err, sizeof p->err, "cannot allocate %s variable %s (%llu bytes)",
                         mem_space_name(s->space), s->name, (unsigned long long)s->size);
                return false;
            }
            p->symloc[i] = IP_LOC_GLOBAL;
            p->symaddr[i] = a;
            if (s->init)
                memcpy(mem_global_host(l->gmem, a, s->size), s->init, s->size);
            break;
        }
        case IR_SPACE_SHARED_CTA:
        case IR_SPACE_SHARED_CLUSTER:
            if (s->owner >= 0 && m->funcs[s->owner].is_entry && s->owner != p->entry)
                break;
            p->symloc[i] = IP_LOC_SHARED;
            if (s->size == 0) {  /* extern .shared x[]: dynamic shared memory */
                p->symaddr[i] = UINT64_MAX;
                have_dyn = true;
                if (sym_align(s) > dyn_align) dyn_align = sym_align(s);
                break;
            }
            soff = align_up32(soff, sym_align(s));
            p->symaddr[i] = soff;
            soff += (uint32_t)s->size;
            break;
        case IR_SPACE_LOCAL:
        case IR_SPACE_PARAM:
        case IR_SPACE_PARAM_FUNC:
            if (s->owner < 0)
                break;
            {
                uint32_t fb = p->frame_bytes[s->owner];
                fb = align_up32(fb, sym_align(s));
                p->symloc[i] = IP_LOC_FRAME;
                p->symaddr[i] = fb;
                p->frame_bytes[s->owner] = fb + (uint32_t)(s->size ? s->size : 8);
            }
            break;
        default:
            break;
        }
    }
    (void)have_dyn;
    /* The H100's layout (measured, tests/conformance/interleave/README.md):
     * 1 KiB reserved, static variables from 0x400, dynamic shared memory at
     * the next 16-byte boundary (or the extern declaration's alignment),
     * and the CTA's window ends at 0x400 + (static + dynamic) rounded up to
     * 128 bytes -- an access past that faults (ILLEGAL_ADDRESS), one inside
     * the rounding does not. */
    p->static_smem = soff;
    p->dyn_base = align_up32(soff, dyn_align);
    p->smem_size = MEM_SHARED_RESERVED +
                   align_up32(p->dyn_base - MEM_SHARED_RESERVED + l->dyn_smem, 128);
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (p->symloc[i] == IP_LOC_SHARED && p->symaddr[i] == UINT64_MAX)
            p->symaddr[i] = p->dyn_base;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        p->frame_bytes[f] = align_up32(p->frame_bytes[f], 16);
    if (p->smem_size - MEM_SHARED_RESERVED > IP_MAX_SMEM) {
        snprintf(p->err, sizeof p->err,
                 "shared memory per CTA is %u bytes (static %u + dynamic %u), above the %u-byte limit",
                 p->smem_size - MEM_SHARED_RESERVED, p->static_smem - MEM_SHARED_RESERVED,
                 l->dyn_smem, IP_MAX_SMEM);
        return false;
    }
    /* relocations of global/const initialisers */
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ir_symbol *s = &m->syms[i];
        if (p->symloc[i] != IP_LOC_GLOBAL)
            continue;
        uint8_t *host = mem_global_host(l->gmem, p->symaddr[i], s->size);
        for (uint32_t r = 0; r < s->ninit_relocs; r++) {
            const struct ir_init_reloc *rl = &s->init_relocs[r];
            uint64_t v = 0;
            switch (p->symloc[rl->sym]) {
            case IP_LOC_GLOBAL: v = p->symaddr[rl->sym]; break;
            case IP_LOC_SHARED:
                v = p->symaddr[rl->sym] + (rl->generic ? MEM_GENERIC_SHARED : 0);
                break;
            case IP_LOC_FUNC: v = p->symaddr[rl->sym]; break;
            default:
                snprintf(p->err, sizeof p->err, "initialiser of %s names %s, which has no address",
                         s->name, m->syms[rl->sym].name);
                return false;
            }
            v += (uint64_t)rl->addend;
            if (host && rl->offset + rl->bytes <= s->size)
                write_le(host + rl->offset, v, rl->bytes ? rl->bytes : 8);
        }
    }
    return true;
}

ip_plan *ip_plan_new(const interp_launch *l)
{
    ip_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->launch = *l;
    p->l = &p->launch;
    p->mod = l->mod;
    const ir_module *m = l->mod;
    if (!m || !l->entry || !l->gmem) {
        snprintf(p->err, sizeof p->err, "launch without a module, an entry or global memory");
        return p;
    }
    p->entry = (int)(l->entry - m->funcs);
    if (p->entry < 0 || (uint32_t)p->entry >= m->nfuncs || !l->entry->is_entry) {
        snprintf(p->err, sizeof p->err, "%s is not a kernel entry of the module", l->entry->name);
        return p;
    }
    /* CUDA's limits (cudaDeviceProp maxGridSize / maxThreadsDim on sm_90) */
    static const uint32_t grid_max[3] = {2147483647u, 65535, 65535}, block_max[3] = {1024, 1024, 64};
    for (int d = 0; d < 3; d++) {
        if (l->grid[d] > grid_max[d]) {
            snprintf(p->err, sizeof p->err, "grid (%u,%u,%u): %c = %u is above CUDA's limit of %u CTAs",
                     l->grid[0], l->grid[1], l->grid[2], "xyz"[d], l->grid[d], grid_max[d]);
            return p;
        }
        if (l->block[d] > block_max[d]) {
            snprintf(p->err, sizeof p->err, "block (%u,%u,%u): %c = %u is above CUDA's limit of %u threads",
                     l->block[0], l->block[1], l->block[2], "xyz"[d], l->block[d], block_max[d]);
            return p;
        }
    }
    uint64_t nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (nthreads == 0 || nthreads > 1024 || l->block[2] > 64) {
        snprintf(p->err, sizeof p->err, "block (%u,%u,%u) is not a valid CTA shape (1..1024 threads, z <= 64)",
                 l->block[0], l->block[1], l->block[2]);
        return p;
    }
    if ((uint64_t)l->grid[0] * l->grid[1] * l->grid[2] == 0) {
        snprintf(p->err, sizeof p->err, "grid (%u,%u,%u) is empty", l->grid[0], l->grid[1], l->grid[2]);
        return p;
    }
    const ir_function *e = l->entry;
    for (int d = 0; d < 3; d++) {
        uint32_t c = l->cluster[d];
        if (!l->cluster[0] && !l->cluster[1] && !l->cluster[2])
            c = e->reqnctapercluster[d];
        p->cluster[d] = c ? c : 1;
    }
    for (int d = 0; d < 3; d++) {
        if (l->grid[d] % p->cluster[d]) {
            snprintf(p->err, sizeof p->err, "grid (%u,%u,%u) is not a multiple of the cluster (%u,%u,%u)",
                     l->grid[0], l->grid[1], l->grid[2], p->cluster[0], p->cluster[1], p->cluster[2]);
            return p;
        }
        p->ncluster[d] = l->grid[d] / p->cluster[d];
    }
    p->cta_per_cluster = p->cluster[0] * p->cluster[1] * p->cluster[2];
    if (p->cta_per_cluster > 16) {
        snprintf(p->err, sizeof p->err, "cluster of %u CTAs is above the limit of 16", p->cta_per_cluster);
        return p;
    }
    if (l->params_size < e->param_bytes) {
        snprintf(p->err, sizeof p->err, "parameter block has %u bytes, %s needs %u",
                 l->params_size, e->name, e->param_bytes);
        return p;
    }
    p->nclusters = (uint64_t)p->ncluster[0] * p->ncluster[1] * p->ncluster[2];
    p->nthreads = (uint32_t)nthreads;
    p->nwarps = (p->nthreads + 31) / 32;
    p->symloc = calloc(m->nsyms + 1, 1);
    p->symaddr = calloc(m->nsyms + 1, sizeof *p->symaddr);
    p->frame_bytes = calloc(m->nfuncs + 1, sizeof *p->frame_bytes);
    p->regmask = calloc(m->nfuncs + 1, sizeof *p->regmask);
    p->wide = calloc(m->nfuncs + 1, 1);
    if (!p->symloc || !p->symaddr || !p->frame_bytes || !p->regmask || !p->wide) {
        snprintf(p->err, sizeof p->err, "out of memory");
        return p;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_function *fn = &m->funcs[f];
        p->regmask[f] = calloc(fn->nregs + 1, sizeof(uint64_t));
        if (!p->regmask[f]) {
            snprintf(p->err, sizeof p->err, "out of memory");
            return p;
        }
        for (uint32_t r = 0; r < fn->nregs; r++) {
            unsigned bits = ir_types[fn->regs[r].type].bits;
            if (fn->regs[r].type == IR_T_PRED)
                bits = 1;
            p->regmask[f][r] = bits >= 64 || bits == 0 ? ~0ull : (1ull << bits) - 1;
            if (bits > 64)
                p->wide[f] = 1;
        }
    }
    plan_layout(p);
    for (uint32_t f = 0; f < m->nfuncs && !p->gw_note; f++)
        for (uint32_t i = 0; i < m->funcs[f].ninstrs; i++) {
            int op = m->funcs[f].instrs[i].op;
            if (op == IR_OP_CP_ASYNC_BULK_TENSOR || op == IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR ||
                op == IR_OP_CP_ASYNC_BULK_PREFETCH_TENSOR || op == IR_OP_CP_ASYNC_BULK) {
                p->gw_note = true;
                break;
            }
        }
    if (!ip_wgmma_plan(p) && !p->err[0])
        snprintf(p->err, sizeof p->err, "out of memory");
    if (!ip_warp_mma_plan(p) && !p->err[0])
        snprintf(p->err, sizeof p->err, "out of memory");
    if (!plan_contract(p) && !p->err[0])
        snprintf(p->err, sizeof p->err, "out of memory");
    if (!ip_lower(p) && !p->err[0])
        snprintf(p->err, sizeof p->err, "out of memory");
    return p;
}

void ip_plan_free(ip_plan *p)
{
    if (!p)
        return;
    if (p->regmask)
        for (uint32_t f = 0; p->mod && f < p->mod->nfuncs; f++)
            free(p->regmask[f]);
    free(p->regmask);
    free(p->wide);
    ip_lower_free(p);
    if (p->xown)
        for (uint32_t f = 0; p->mod && f < p->mod->nfuncs; f++)
            free(p->xown[f]);
    if (p->pairs)
        for (uint32_t f = 0; p->mod && f < p->mod->nfuncs; f++)
            free(p->pairs[f]);
    free(p->xown);
    free(p->pairs);
    free(p->npairs);
    free(p->xin);
    ip_wgmma_plan_free(p);
    ip_warp_mma_plan_free(p);
    free(p->symloc);
    free(p->symaddr);
    free(p->frame_bytes);
    free(p);
}

interp_ctx *ip_ctx_new(ip_plan *p)
{
    interp_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->plan = p;
    c->stop_at = UINT64_MAX;
    c->rng = p->launch.seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    c->next_op_id = 1;
    return c;
}

/* ---- frames ---------------------------------------------------------------- */

ip_frame *ip_frame_push(interp_ctx *c, ip_warp *w, int func, int parent)
{
    int fi = -1;
    for (int i = 0; i < w->nframes; i++)
        if (!w->frames[i].refs) {
            fi = i;
            break;
        }
    if (fi < 0) {
        if (w->nframes == w->capframes) {
            int cap = w->capframes ? w->capframes * 2 : 4;
            if (cap > 4096)
                return NULL;
            ip_frame *nf = realloc(w->frames, (size_t)cap * sizeof *nf);
            if (!nf)
                return NULL;
            memset(nf + w->capframes, 0, (size_t)(cap - w->capframes) * sizeof *nf);
            w->frames = nf;
            w->capframes = cap;
        }
        fi = w->nframes++;
    }
    ip_frame *f = &w->frames[fi];
    const ir_function *fn = ip_func(c, func);
    /* the function's registers, then its constant slots (uop.c) */
    uint32_t nk = c->plan->nconst ? c->plan->nconst[func] : 0;
    uint32_t need = fn->nregs + nk ? fn->nregs + nk : 1;
    if (c->plan->wide && c->plan->wide[func])
        need = fn->nregs + nk + fn->nregs;   /* high halves of .b128 registers */
    if (f->cap < need) {
        uint64_t *r = realloc(f->regs, (size_t)need * IP_WARP * sizeof *r);
        if (!r)
            return NULL;
        f->regs = r;
        f->cap = need;
    }
    memset(f->regs, 0, (size_t)need * IP_WARP * sizeof *f->regs);
    for (uint32_t k = 0; k < nk; k++)
        for (int l = 0; l < IP_WARP; l++)
            f->regs[(size_t)(fn->nregs + k) * IP_WARP + (unsigned)l] = c->plan->konst[func][k];
    f->func = func;
    f->nregs = fn->nregs;
    f->seq = ++w->frame_seq;
    f->parent = parent;
    f->refs = 0;
    f->local_base = parent < 0 ? 0
        : w->frames[parent].local_base + c->plan->frame_bytes[w->frames[parent].func];
    return f;
}

void ip_frame_release(ip_warp *w, int fi)
{
    if (w->frames[fi].refs)
        w->frames[fi].refs--;
}

bool ip_local_ensure(interp_ctx *c, ip_warp *w)
{
    (void)c;
    if (w->local)
        return true;
    w->local = calloc(IP_WARP, IP_LOCAL_STACK);
    return w->local != NULL;
}

/* ---- clusters ---------------------------------------------------------------- */

void ip_cluster_free(interp_ctx *c)
{
    if (!c->have_cl)
        return;
    ip_cluster *cl = &c->cl;
    for (int i = 0; i < cl->ncta; i++) {
        ip_cta *t = &cl->ctas[i];
        for (int w = 0; w < t->nwarps; w++) {
            ip_warp *wp = &t->warps[w];
            for (int f = 0; f < wp->capframes; f++)
                free(wp->frames[f].regs);
            free(wp->frames);
            free(wp->local);
        }
        free(t->warps);
        free(t->smem);
        ip_wgmma_cta_free(t);
    }
    free(cl->ctas);
    memset(cl, 0, sizeof *cl);
    c->have_cl = false;
    ip_async_reset(c);
}

bool ip_cluster_start(interp_ctx *c, uint64_t index)
{
    ip_plan *p = c->plan;
    ip_cluster *cl = &c->cl;
    memset(cl, 0, sizeof *cl);
    c->have_cl = true;
    cl->index = index;
    cl->id[0] = (uint32_t)(index % p->ncluster[0]);
    cl->id[1] = (uint32_t)(index / p->ncluster[0] % p->ncluster[1]);
    cl->id[2] = (uint32_t)(index / p->ncluster[0] / p->ncluster[1]);
    cl->ncta = (int)p->cta_per_cluster;
    cl->clock = 0x10000 + index * 4096;
    cl->ctas = calloc((size_t)cl->ncta, sizeof *cl->ctas);
    if (!cl->ctas)
        return false;
    for (int r = 0; r < cl->ncta; r++) {
        ip_cta *t = &cl->ctas[r];
        t->cl = cl;
        t->slot = r;
        t->cid[0] = (uint32_t)r % p->cluster[0];
        t->cid[1] = (uint32_t)r / p->cluster[0] % p->cluster[1];
        t->cid[2] = (uint32_t)r / p->cluster[0] / p->cluster[1];
        for (int d = 0; d < 3; d++)
            t->ctaid[d] = cl->id[d] * p->cluster[d] + t->cid[d];
        t->smem_size = p->smem_size;
        t->smem = calloc(1, p->smem_size);
        t->nwarps = (int)p->nwarps;
        t->warps = calloc((size_t)t->nwarps, sizeof *t->warps);
        if (!t->smem || !t->warps)
            return false;
        t->live = p->nthreads;
        cl->live += p->nthreads;
        for (int wi = 0; wi < t->nwarps; wi++) {
            ip_warp *w = &t->warps[wi];
            w->cta = t;
            w->id = wi;
            uint32_t left = p->nthreads - (uint32_t)wi * 32;
            w->nlanes = left >= 32 ? 32 : (int)left;
            w->valid = w->nlanes == 32 ? 0xffffffffu : (1u << w->nlanes) - 1;
            ip_frame *f = ip_frame_push(c, w, p->entry, -1);
            if (!f)
                return false;
            f->refs = (uint32_t)w->nlanes;
            for (int ln = 0; ln < IP_WARP; ln++) {
                w->fr[ln] = 0;
                w->pc[ln] = 0;
                w->st[ln] = (w->valid >> ln & 1) ? INTERP_T_READY : INTERP_T_INACTIVE;
            }
            if (p->frame_bytes[p->entry] && !ip_local_ensure(c, w))
                return false;
        }
    }
    c->cur_cta = 0;
    c->cur_warp = 0;
    c->quantum = 0;
    c->idle_repolled = false;
    return ip_ck_start(c);
}

/* ---- interp_run ------------------------------------------------------------- */

int ip_ctx_run(interp_ctx *c);   /* sched.c */

typedef struct worker {
    interp_ctx *c;
    pthread_t th;
} worker;

static void *worker_main(void *arg)
{
    worker *wk = arg;
    ip_ctx_run(wk->c);
    return NULL;
}

int interp_run(const interp_launch *l, interp_result *res)
{
    memset(res, 0, sizeof *res);
    ip_plan *p = ip_plan_new(l);
    if (!p) {
        res->status = INTERP_LAUNCH_ERROR;
        snprintf(res->msg, sizeof res->msg, "launch error: out of memory");
        return res->status;
    }
    if (p->err[0]) {
        res->status = INTERP_LAUNCH_ERROR;
        snprintf(res->msg, sizeof res->msg, "launch error: %s", p->err);
        ip_plan_free(p);
        return res->status;
    }
    int jobs = l->jobs > 1 ? l->jobs : 1;
    if ((uint64_t)jobs > p->nclusters)
        jobs = (int)p->nclusters;
    uint64_t next = 0, stop_at = UINT64_MAX, gw_total = 0;
    worker *wk = calloc((size_t)jobs, sizeof *wk);
    if (!wk) {
        res->status = INTERP_LAUNCH_ERROR;
        snprintf(res->msg, sizeof res->msg, "launch error: out of memory");
        ip_plan_free(p);
        return res->status;
    }
    for (int j = 0; j < jobs; j++) {
        wk[j].c = ip_ctx_new(p);
        if (wk[j].c)
            wk[j].c->fast = p->fast;   /* no debugger on these contexts */
        if (wk[j].c) {
            wk[j].c->gw_defer = true;     /* checked below, over all contexts */
            wk[j].c->gw_total = &gw_total;
        }
        if (wk[j].c && jobs > 1) {
            wk[j].c->shared_next = &next;
            wk[j].c->shared_stop = &stop_at;
        }
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (jobs == 1) {
        if (wk[0].c)
            ip_ctx_run(wk[0].c);
    } else {
        bool *started = calloc((size_t)jobs, sizeof *started);
        for (int j = 0; j < jobs; j++)
            if (wk[j].c && started)
                started[j] = pthread_create(&wk[j].th, NULL, worker_main, &wk[j]) == 0;
        for (int j = 0; j < jobs; j++)
            if (wk[j].c && started && started[j])
                pthread_join(wk[j].th, NULL);
        /* a worker that could not start: its clusters were taken by others,
         * or are run here */
        for (int j = 0; j < jobs; j++)
            if (wk[j].c && (!started || !started[j]))
                ip_ctx_run(wk[j].c);
        free(started);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    res->wall_ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
    /* the error of the lowest cluster index wins */
    interp_ctx *best = NULL;
    for (int j = 0; j < jobs; j++) {
        interp_ctx *c = wk[j].c;
        if (!c)
            continue;
        res->steps += c->steps;
        res->thread_instrs += c->thread_instrs;
        if (c->res.status != INTERP_OK && (!best || c->err_cluster < best->err_cluster))
            best = c;
    }
    if (best) {
        res->status = best->res.status;
        memcpy(res->msg, best->res.msg, sizeof res->msg);
    }
    /* the grid-wide write check: races between clusters below the first
     * failed one (gridck.c) */
    {
        interp_ctx **cs = calloc((size_t)jobs, sizeof *cs);
        if (cs) {
            for (int j = 0; j < jobs; j++)
                cs[j] = wk[j].c;
            ip_gw_finish(cs, jobs, best ? best->err_cluster : UINT64_MAX, res);
            free(cs);
        }
    }
    for (int j = 0; j < jobs; j++)
        if (wk[j].c) {
            ip_cluster_free(wk[j].c);
            ip_ck_free(wk[j].c);
            ip_async_ctx_free(wk[j].c);
            ip_wgmma_ctx_free(wk[j].c);
            free(wk[j].c);
        }
    free(wk);
    ip_plan_free(p);
    return res->status;
}
