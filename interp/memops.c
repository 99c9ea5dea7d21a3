/* memops.c — address resolution for every state space, with the checks.
 *
 * An access names a space (the instruction's, or generic) and an address in
 * it; ip_resolve turns that into a host pointer after checking that the
 * whole range lies in one object of that space and that the address is
 * aligned to the access size (PTX requires natural alignment; a vector
 * access is aligned to its total size).  A violation records a fault naming
 * the thread, the instruction's source line, the address and the space,
 * and stops the run.  The window encoding is described in memory/mem.h.
 *
 * Symbol addresses (ip_sym_addr): .global/.const variables have their
 * device address, .shared variables their shared::cta offset, entry
 * parameters their offset in the parameter block, and frame-resident
 * symbols (.local, call-site .param, .func parameters) an offset in the
 * executing thread's local memory.
 */
#include <stdio.h>
#include <string.h>
#include "interp/internal.h"

bool ip_shared_decode(const interp_ctx *c, const ip_cta *self, uint32_t saddr, int *cta, uint32_t *off)
{
    uint32_t rank = saddr >> MEM_SHARED_RANK_SHIFT;
    if (rank == 0) {
        *cta = self->slot;
        *off = saddr;
        return true;
    }
    if ((int)(rank - 1) >= c->cl.ncta)
        return false;
    *cta = (int)rank - 1;
    *off = saddr & MEM_SHARED_OFF_MASK;
    return true;
}

uint64_t ip_sym_addr(const interp_ctx *c, const ip_warp *w, int lane, uint32_t sym, int *space)
{
    const ip_plan *p = c->plan;
    uint64_t a = p->symaddr[sym];
    switch (p->symloc[sym]) {
    case IP_LOC_GLOBAL: *space = IR_SPACE_GLOBAL; return a;
    case IP_LOC_SHARED: *space = IR_SPACE_SHARED_CTA; return a;
    case IP_LOC_KPARAM: *space = IR_SPACE_PARAM; return a;
    case IP_LOC_FRAME:
        *space = IR_SPACE_LOCAL;
        return w->frames[w->fr[lane]].local_base + a;
    case IP_LOC_FUNC: *space = IR_SPACE_NONE; return a;
    default: *space = IR_SPACE_NONE; return 0;
    }
}

/* "ld.global.v4.u32": the executing instruction's opcode, state space,
 * vector width and type, for messages (built only when one is reported). */
const char *ip_instr_what(const interp_ctx *c, char *buf, size_t n)
{
    const ir_instr *in = &c->plan->mod->funcs[c->xfunc].instrs[c->xpc];
    size_t at = (size_t)snprintf(buf, n, "%s", ir_ops[in->op].name);
    for (int i = 0; i < in->nmods && at < n; i++) {
        const char *cls = ir_mods[in->mods[i]].cls;
        if (!strcmp(cls, "SPACE") || !strcmp(cls, "VEC"))
            at += (size_t)snprintf(buf + at, n - at, ".%s", ir_mods[in->mods[i]].text);
    }
    for (int i = 0; i < in->ntypes && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, ".%s", ir_types[in->types[i]].name);
    return buf;
}

static ip_ptr fail(interp_ctx *c, ip_warp *w, int lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static ip_ptr fail(interp_ctx *c, ip_warp *w, int lane, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ip_error(c, INTERP_FAULT, w, lane, c->xfunc, c->xpc, "%s", msg);
    ip_ptr r = { NULL, 0, -1, 0 };
    return r;
}

/* `what` names the access in messages; NULL: the executing instruction */
#define WHAT (what ? what : ip_instr_what(c, whatbuf, sizeof whatbuf))

static ip_ptr shared_ptr(interp_ctx *c, ip_warp *w, int lane, int space, uint64_t addr, uint32_t n,
                         const char *what, const char *sname)
{
    char whatbuf[96];
    ip_ptr r = { NULL, space, -1, 0 };
    int oc;
    uint32_t off;
    if (addr > 0xffffffffull || !ip_shared_decode(c, w->cta, (uint32_t)addr, &oc, &off))
        return fail(c, w, lane, "%s: %u-byte access at %s address 0x%llx, which names no CTA of the "
                    "cluster (cluster of %d CTAs; shared::cluster addresses carry rank+1 in bits 24..31)",
                    WHAT, n, sname, (unsigned long long)addr, c->cl.ncta);
    ip_cta *t = &c->cl.ctas[oc];
    if (off < MEM_SHARED_RESERVED || (uint64_t)off + n > t->smem_size)
        return fail(c, w, lane, "%s: out-of-bounds %u-byte access at %s address 0x%llx "
                    "(CTA rank %d's shared memory is 0x%x..0x%x)", WHAT, n, sname,
                    (unsigned long long)addr, oc, MEM_SHARED_RESERVED, t->smem_size);
    r.p = t->smem + off;
    r.cta = oc;
    r.soff = off;
    return r;
}

ip_ptr ip_resolve(interp_ctx *c, ip_warp *w, int lane, int space, uint64_t addr, uint32_t n,
                  uint32_t align, const char *what)
{
    char whatbuf[96];
    ip_ptr r = { NULL, space, -1, 0 };
    const char *sname = mem_space_name(space);
    if (align > 1 && (addr & (align - 1)))
        return fail(c, w, lane, "%s: misaligned %u-byte access at %s address 0x%llx "
                    "(must be a multiple of %u)", WHAT, n, sname, (unsigned long long)addr, align);
    switch (space) {
    case IR_SPACE_NONE:
        switch (mem_generic_window(addr)) {
        case MEM_WIN_SHARED:
            r = shared_ptr(c, w, lane, IR_SPACE_SHARED_CLUSTER, addr - MEM_GENERIC_SHARED, n, what,
                           "generic (shared window)");
            return r;
        case MEM_WIN_LOCAL:
            if (addr - MEM_GENERIC_LOCAL + n > IP_LOCAL_STACK)
                return fail(c, w, lane, "%s: out-of-bounds %u-byte access at generic (local window) address "
                            "0x%llx, local address 0x%llx (local memory is %u bytes per thread)", WHAT, n,
                            (unsigned long long)addr, (unsigned long long)(addr - MEM_GENERIC_LOCAL),
                            IP_LOCAL_STACK);
            return ip_resolve(c, w, lane, IR_SPACE_LOCAL, addr - MEM_GENERIC_LOCAL, n, 1, what);
        case MEM_WIN_PARAM:
            if (addr - MEM_GENERIC_PARAM + n > c->plan->launch.params_size)
                return fail(c, w, lane, "%s: %u-byte access at generic (param window) address 0x%llx, param "
                            "address 0x%llx, outside the %u-byte kernel parameter block", WHAT, n,
                            (unsigned long long)addr, (unsigned long long)(addr - MEM_GENERIC_PARAM),
                            c->plan->launch.params_size);
            return ip_resolve(c, w, lane, IR_SPACE_PARAM, addr - MEM_GENERIC_PARAM, n, 1, what);
        default:
            break;
        }
        __attribute__((fallthrough)); /* a generic global address */
    case IR_SPACE_GLOBAL:
    case IR_SPACE_CONST: {
        if (space == IR_SPACE_GLOBAL && mem_generic_window(addr) != MEM_WIN_GLOBAL)
            return fail(c, w, lane, "%s: global address 0x%llx lies in the generic %s window "
                        "(missing cvta.to.global?)", WHAT, (unsigned long long)addr,
                        mem_generic_window(addr) == MEM_WIN_SHARED ? "shared" :
                        mem_generic_window(addr) == MEM_WIN_LOCAL ? "local" : "param");
        r.p = mem_global_host(c->plan->launch.gmem, addr, n);
        r.space = space == IR_SPACE_CONST ? IR_SPACE_CONST : IR_SPACE_GLOBAL;
        if (r.p)
            return r;
        const mem_alloc *a = mem_global_find(c->plan->launch.gmem, addr);
        if (a)
            return fail(c, w, lane, "%s: %u-byte access at %s address 0x%llx runs past the end of "
                        "buffer '%s' (0x%llx, %llu bytes)", WHAT, n, sname, (unsigned long long)addr,
                        a->name ? a->name : "?", (unsigned long long)a->base,
                        (unsigned long long)a->size);
        /* name the nearest buffer below: the usual bug is running off its end */
        const mem_alloc *near = NULL;
        for (size_t i = 0; i < mem_global_count(c->plan->launch.gmem); i++) {
            const mem_alloc *m = mem_global_at(c->plan->launch.gmem, i);
            if (m->base <= addr && (!near || m->base > near->base))
                near = m;
        }
        if (near && addr - (near->base + near->size) < (1ull << 21))
            return fail(c, w, lane, "%s: %u-byte access at %s address 0x%llx, %llu bytes past the end "
                        "of buffer '%s' (0x%llx, %llu bytes)", WHAT, n, space == IR_SPACE_NONE ? "generic" : sname,
                        (unsigned long long)addr, (unsigned long long)(addr - near->base - near->size),
                        near->name ? near->name : "?", (unsigned long long)near->base,
                        (unsigned long long)near->size);
        return fail(c, w, lane, "%s: %u-byte access at %s address 0x%llx, which is inside no "
                    "allocation", WHAT, n, space == IR_SPACE_NONE ? "generic" : sname,
                    (unsigned long long)addr);
    }
    case IR_SPACE_SHARED_CTA:
    case IR_SPACE_SHARED_CLUSTER:
        return shared_ptr(c, w, lane, space, addr, n, what, sname);
    case IR_SPACE_LOCAL:
        if (addr + n > IP_LOCAL_STACK || addr + n < addr)
            return fail(c, w, lane, "%s: out-of-bounds %u-byte access at local address 0x%llx "
                        "(local memory is %u bytes per thread)", WHAT, n, (unsigned long long)addr,
                        IP_LOCAL_STACK);
        if (!ip_local_ensure(c, w))
            return fail(c, w, lane, "out of host memory for local memory");
        r.p = w->local + (size_t)lane * IP_LOCAL_STACK + addr;
        return r;
    case IR_SPACE_PARAM:
    case IR_SPACE_PARAM_FUNC:
        if (mem_generic_window(addr) == MEM_WIN_LOCAL)   /* a .func parameter's address */
            return ip_resolve(c, w, lane, IR_SPACE_LOCAL, addr - MEM_GENERIC_LOCAL, n, 1, what);
        if (addr + n > c->plan->launch.params_size || addr + n < addr)
            return fail(c, w, lane, "%s: %u-byte access at param address 0x%llx outside the %u-byte "
                        "kernel parameter block", WHAT, n, (unsigned long long)addr,
                        c->plan->launch.params_size);
        r.p = (uint8_t *)c->plan->launch.params + addr;
        r.space = IR_SPACE_PARAM;
        return r;
    default:
        return fail(c, w, lane, "%s: access in the %s state space is not supported", WHAT, sname);
    }
}
