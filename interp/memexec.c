/* memexec.c — semantics of memory, synchronisation and warp-level
 * instructions: ld/st/atom/red, cvta/isspacep/mapa/getctarank, bar/barrier,
 * barrier.cluster, vote/match/shfl/redux/elect/activemask, mbarrier.*, and
 * the dispatch of the asynchronous copies to async.c.
 *
 * Warp-level collectives (shfl.sync, vote.sync, ...) see the executing group
 * as the set of participating threads: with the lowest-PC rule (sched.c) the
 * threads named in the member mask have reconverged at the instruction in
 * every kernel that obeys the .sync contract.  Cross-lane sources are read
 * for all lanes before any destination is written.
 *
 * Atomics use the host's __atomic builtins on the backing bytes, so global
 * atomics stay atomic when clusters run on several host threads.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "interp/internal.h"
#include "interp/fp.h"
#include "check/check.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define FOR_LANES(m, l) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

static inline unsigned tbits(int t) { return ir_types[t].bits; }
static inline char tkind(int t) { return ir_types[t].kind; }

uint64_t ip_addr(interp_ctx *c, ip_warp *w, ip_frame *f, const ir_instr *in, int k, uint32_t l, int *space)
{
    const ir_operand *o = &in->opd[k];
    *space = in->space;
    if (o->kind == IR_OPD_REG)
        return f->regs[o->u.reg * IP_WARP + l];
    if (o->kind == IR_OPD_SYM) {
        int sp;
        uint64_t a = ip_sym_addr(c, w, (int)l, o->u.sym, &sp);
        if (sp == IR_SPACE_LOCAL || *space == IR_SPACE_NONE)
            *space = sp;
        return a;
    }
    if (o->kind != IR_OPD_ADDR)
        return (uint64_t)o->u.imm;
    switch (o->u.addr.base_kind) {
    case IR_BASE_REG: {
        uint64_t a = f->regs[o->u.addr.base * IP_WARP + l] + (uint64_t)o->u.addr.off;
        /* a 32-bit base register gives a 32-bit address: [%r + off] wraps
         * modulo 2^32.  libdevice's sinf/cosf index their local-memory
         * digits as [%r20+24] with %r20 = depot - 4*k, below the depot
         * when the depot sits at local address 0 (tests/hw/triton_sfu
         * ew_sin_wide). */
        if (o->u.addr.base32)
            a = (uint32_t)a;
        return a;
    }
    case IR_BASE_SYM: {
        int sp;
        uint64_t a = ip_sym_addr(c, w, (int)l, o->u.addr.base, &sp);
        /* a frame-resident symbol (func param, .local) is found in local
         * memory whatever the instruction's space says; a generic access
         * to a named variable uses that variable's space */
        if (sp == IR_SPACE_LOCAL || *space == IR_SPACE_NONE)
            *space = sp;
        return a + (uint64_t)o->u.addr.off;
    }
    default:
        return (uint64_t)o->u.addr.off;
    }
}

static int space_norm(int s) { return s == IR_SPACE_PARAM_FUNC ? IR_SPACE_PARAM : s; }

/* Global memory is shared by the host threads of -j N: an aligned word is
 * read with an atomic (relaxed) load, so that a thread spinning on a flag
 * another cluster sets sees the store (a plain read may be kept in a
 * register by the compiler: a data race). */
static uint64_t load_le(const uint8_t *p, unsigned n)
{
    if (n == 4 && !((uintptr_t)p & 3))
        return __atomic_load_n((const uint32_t *)(const void *)p, __ATOMIC_RELAXED);
    if (n == 8 && !((uintptr_t)p & 7))
        return __atomic_load_n((const uint64_t *)(const void *)p, __ATOMIC_RELAXED);
    uint64_t v = 0;
    memcpy(&v, p, n > 8 ? 8 : n);
    return v;
}

static uint64_t ext(uint64_t v, int t)
{
    unsigned b = tbits(t);
    if (b >= 64)
        return v;
    v &= (1ull << b) - 1;
    if (tkind(t) == 's' && (v >> (b - 1) & 1))
        v |= ~0ull << b;
    return v;
}

static void wreg(interp_ctx *c, ip_frame *f, uint32_t slot, uint32_t l, uint64_t v)
{
    f->regs[slot * IP_WARP + l] = v & c->plan->regmask[f->func][slot];
}


static inline __attribute__((always_inline)) uint64_t elem_val(interp_ctx *c, ip_frame *f, const ir_operand *e, uint32_t l,
                                                               int t)
{
    (void)c;
    if (!e) return 0;
    switch (e->kind) {
    case IR_OPD_REG: return f->regs[e->u.reg * IP_WARP + l];
    case IR_OPD_IMM: return (uint64_t)e->u.imm;
    case IR_OPD_FIMM: {
        if (t == IR_T_F32) { float v = (float)e->fimm; uint32_t u; memcpy(&u, &v, 4); return (uint64_t)e->u.imm >> 32 ? u : (uint64_t)e->u.imm; }
        if (t == IR_T_F64) { uint64_t u; memcpy(&u, &e->fimm, 8); return u; }
        return (uint64_t)e->u.imm;
    }
    default: return 0;
    }
}

/* The high 64 bits of a .b128 operand (a register's ip_hi_slot; 0 for
 * anything else), and setting them. */
static uint64_t get_hi(interp_ctx *c, ip_frame *f, const ir_operand *e, uint32_t l)
{
    const uint64_t *h = e && e->kind == IR_OPD_REG ? ip_hi_ref(c, f, e->u.reg, l) : NULL;
    return h ? *h : 0;
}
static void set_hi(interp_ctx *c, ip_frame *f, uint32_t slot, uint32_t l, uint64_t v)
{
    uint64_t *h = ip_hi_ref(c, f, slot, l);
    if (h)
        *h = v;
}

/* "ld.u32": how the data-race reports (async.c) name the access */
static const char *race_what(const ir_instr *in, char *buf, size_t n)
{
    snprintf(buf, n, "%s.%s", ir_ops[in->op].name, ir_types[in->types[0]].name);
    return buf;
}

/* ld/st with memory-ordering semantics (.relaxed, .acquire, .release,
 * .volatile, .mmio): a strong access, which may synchronise clusters */
static inline bool strong(const ir_instr *in) { return in->sem && in->sem != IR_M_WEAK; }

/* A shared-memory access by lane l: the checker (hooks.c) when it is on,
 * else the in-flight race check of async.c.  Atomics and accesses with
 * memory-ordering semantics (.volatile, .relaxed, .acquire, .release)
 * synchronise instead of racing. */
static inline int smem_check(interp_ctx *c, ip_warp *w, uint32_t l, const ir_instr *in, const ip_ptr *p, uint32_t n,
                      int write, bool ordered)
{
    if (p->cta < 0)
        return 0;
    if (c->ck) {
        unsigned fl = write ? CK_WRITE : 0;
        if (write == 2)
            fl |= CK_SAME;
        if (ordered || (in->sem && in->sem != IR_M_WEAK))
            fl |= CK_SYNC;
        if (p->cta != w->cta->slot || (fl & CK_SYNC))
            return ip_ck_access(c, w, (int)l, p, n, fl);
        /* the common case, straight into check/ */
        ck_conflict k;
        if (ck_access(c->ck, ip_ck_agent(c, w), l, ip_ck_site(c), p->cta, p->soff, n, fl, &k))
            return ip_ck_report(c, w, (int)l, &k, write != 0, n, p->cta);
        return 0;
    }
    char wb[96];
    if (c->nops && ip_async_smem_race(c, w, (int)l, p->cta, p->soff, n, write != 0, race_what(in, wb, sizeof wb)))
        return c->res.status;
    return 0;
}

/* exec_ld / exec_st: the checker's part of the instruction, looked up
 * once for its lanes (NULL when the checker is off or the access
 * synchronises: smem_check then takes each lane on its own). */
static ck_warp *plain_ck(interp_ctx *c, ip_warp *w, const ir_instr *in, ck_warp *x)
{
    if (!c->ck || (in->sem && in->sem != IR_M_WEAK))
        return NULL;
    ck_warp_begin(c->ck, ip_ck_agent(c, w), ip_ck_site(c), w->cta->slot, x);
    return x;
}

/* smem_check for a plain access by lane l, with x from plain_ck */
static inline __attribute__((always_inline)) int smem_lane(interp_ctx *c, ip_warp *w, ck_warp *x, uint32_t l, const ir_instr *in,
                            const ip_ptr *p, uint32_t n, int write)
{
    if (!x || p->cta != w->cta->slot)
        return smem_check(c, w, l, in, p, n, write, false);
    ck_conflict k;
    if (ck_lane(x, l, p->soff, n, write ? (write == 2 ? CK_WRITE | CK_SAME : CK_WRITE) : 0, &k))
        return ip_ck_report(c, w, (int)l, &k, write != 0, n, p->cta);
    return 0;
}

static int exec_ld(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    int t = in->types[0];
    unsigned es = tbits(t) / 8, n = in->vec ? in->vec : 1;
    if (es == 0) es = 1;
    const ir_function *fn = ip_func(c, f->func);
    const char *what = NULL;   /* ip_resolve names the instruction itself */
    ck_warp xs, *x = plain_ck(c, w, in, &xs);
    bool gw_any = false;
    FOR_LANES(exec, l) {
        int sp;
        uint64_t a = ip_addr(c, w, f, in, 1, l, &sp);
        ip_ptr p = ip_resolve(c, w, (int)l, space_norm(sp), a, es * n, es * n, what);
        if (!p.p)
            return c->res.status;
        if (p.cta >= 0 && smem_lane(c, w, x, l, in, &p, es * n, false))
            return c->res.status;
        if (p.cta < 0 && ip_ck_gactive(c) && p.space == IR_SPACE_GLOBAL && ip_ck_global(c, w, (int)l, a, es * n, false))
            return c->res.status;
        if (c->gw && p.space == IR_SPACE_GLOBAL && strong(in))
            gw_any = true;
        for (unsigned i = 0; i < n; i++) {
            const ir_operand *e = ip_vec_elem(fn, &in->opd[0], i);
            if (e && e->kind == IR_OPD_REG) {
                wreg(c, f, e->u.reg, l, ext(load_le(p.p + i * es, es), t));
                if (es == 16)
                    set_hi(c, f, e->u.reg, l, load_le(p.p + i * es + 8, 8));
            }
        }
    }
    if (gw_any)
        ip_gw_sync(c);            /* ld.acquire/.relaxed/.volatile: may order clusters */
    return 0;
}

static int exec_st(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    int t = in->types[0];
    unsigned es = tbits(t) / 8, n = in->vec ? in->vec : 1;
    if (es == 0) es = 1;
    const ir_function *fn = ip_func(c, f->func);
    const char *what = NULL;   /* ip_resolve names the instruction itself */
    char wb[96];
    ck_warp xs, *x = plain_ck(c, w, in, &xs);
    bool gw_any = false;
    FOR_LANES(exec, l) {
        int sp;
        uint64_t a = ip_addr(c, w, f, in, 0, l, &sp);
        ip_ptr p = ip_resolve(c, w, (int)l, space_norm(sp), a, es * n, es * n, what);
        if (!p.p)
            return c->res.status;
        if (p.space == IR_SPACE_PARAM)
            return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                            "%s: kernel parameters are read-only (address 0x%llx)", ip_instr_what(c, wb, sizeof wb),
                            (unsigned long long)a);
        uint8_t nb[128];
        for (unsigned i = 0; i < n; i++) {
            const ir_operand *e = ip_vec_elem(fn, &in->opd[1], i);
            uint64_t v = elem_val(c, f, e, l, t);
            memcpy(nb + i * es, &v, es > 8 ? 8 : es);
            if (es == 16) {
                uint64_t h = get_hi(c, f, e, l);
                memcpy(nb + i * es + 8, &h, 8);
            }
        }
        /* writing the bytes already there is a benign overlap for racecheck */
        if (p.cta >= 0 && smem_lane(c, w, x, l, in, &p, es * n, memcmp(nb, p.p, es * n) ? 1 : 2))
            return c->res.status;
        if (p.cta < 0 && ip_ck_gactive(c) && p.space == IR_SPACE_GLOBAL && ip_ck_global(c, w, (int)l, a, es * n, true))
            return c->res.status;
        if (p.cta < 0 && c->ck && c->plan->gw_note && p.space == IR_SPACE_GLOBAL)
            ck_gwrite(c->ck, ip_ck_agent(c, w), l, ip_ck_site(c), a, es * n);
        if (c->plan->wg_any && p.cta >= 0 && ip_wgmma_smem_write(c, w, (int)l, p.cta, p.soff, es * n, race_what(in, wb, sizeof wb)))
            return c->res.status;
        memcpy(p.p, nb, es * n);
        ip_note_write(c, a, es * n);
        if (c->gw && p.space == IR_SPACE_GLOBAL) {
            if (!gw_any) {
                ip_gw_begin(c);
                gw_any = true;
            }
            ip_gw_write(c, w, (int)l, strong(in) ? CG_SYNC : CG_PLAIN, a, es * n, nb);
        }
    }
    if (gw_any && strong(in))
        ip_gw_sync(c);            /* st.relaxed/.release/.volatile: may order clusters */
    return 0;
}

/* ---- atomics ----------------------------------------------------------------------- */

static float h2f(uint16_t h, bool bf) { if (bf) { uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f; } return fp_f16_to_f32(h); }
static uint16_t f2h(float v, bool bf) { return bf ? fp_f32_to_bf16(v, FP_RN) : fp_f32_to_f16(v, FP_RN); }

/* f32 atomic add as the H100 does it (ops_atom in tests/hw/ops): a NaN
 * result is the canonical 0x7fffffff, and in global memory subnormal
 * inputs and results are flushed to sign-preserving zero (atom.add.f32 is
 * .ftz there; shared-memory atomics are not). */
static uint32_t atom_add_f32(uint32_t a, uint32_t b, bool ftz)
{
    float x, y, r;
    if (ftz) {
        if (!(a & 0x7f800000u)) a &= 0x80000000u;
        if (!(b & 0x7f800000u)) b &= 0x80000000u;
    }
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    r = x + y;
    uint32_t u;
    memcpy(&u, &r, 4);
    if (isnan(r))
        return 0x7fffffffu;
    if (ftz && !(u & 0x7f800000u))
        u &= 0x80000000u;
    return u;
}

static uint64_t rmw(int op, int t, uint64_t old, uint64_t b, uint64_t cv, bool ftz)
{
    unsigned bits = tbits(t);
    uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    bool sg = tkind(t) == 's';
    int64_t so = (int64_t)ext(old, sg ? t : t), sb = (int64_t)ext(b, t);
    switch (op) {
    case IR_M_OP_ADD:
        switch (t) {
        case IR_T_F32: return atom_add_f32((uint32_t)old, (uint32_t)b, ftz);
        case IR_T_F64: { double x, y; memcpy(&x, &old, 8); memcpy(&y, &b, 8); x += y; uint64_t u; memcpy(&u, &x, 8); return u; }
        case IR_T_F16: case IR_T_BF16: {
            bool bf = t == IR_T_BF16;
            return f2h(h2f((uint16_t)old, bf) + h2f((uint16_t)b, bf), bf);
        }
        case IR_T_F16X2: case IR_T_BF16X2: {
            bool bf = t == IR_T_BF16X2;
            uint32_t lo = f2h(h2f((uint16_t)old, bf) + h2f((uint16_t)b, bf), bf);
            uint32_t hi = f2h(h2f((uint16_t)(old >> 16), bf) + h2f((uint16_t)(b >> 16), bf), bf);
            return hi << 16 | lo;
        }
        default: return (old + b) & m;
        }
    case IR_M_OP_MIN:
        if (t == IR_T_F32 || t == IR_T_F64) return old; /* not in sm_90 PTX */
        return sg ? (uint64_t)(so < sb ? so : sb) & m : ((old & m) < (b & m) ? old : b) & m;
    case IR_M_OP_MAX:
        return sg ? (uint64_t)(so > sb ? so : sb) & m : ((old & m) > (b & m) ? old : b) & m;
    case IR_M_OP_INC: return (old & m) >= (b & m) ? 0 : (old + 1) & m;
    case IR_M_OP_DEC: return ((old & m) == 0 || (old & m) > (b & m)) ? b & m : (old - 1) & m;
    case IR_M_OP_EXCH: return b & m;
    case IR_M_OP_CAS: return (old & m) == (b & m) ? cv & m : old & m;
    case IR_M_AND: return old & b & m;
    case IR_M_OR: return (old | b) & m;
    case IR_M_XOR: return (old ^ b) & m;
    default: return old;
    }
}

static uint64_t atomic_apply(uint8_t *p, unsigned size, int op, int t, uint64_t b, uint64_t cv, bool ftz)
{
    if (size == 8) {
        uint64_t old = __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST), nv;
        do nv = rmw(op, t, old, b, cv, ftz);
        while (!__atomic_compare_exchange_n((uint64_t *)p, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        return old;
    }
    if (size == 4) {
        uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST), nv;
        do nv = (uint32_t)rmw(op, t, old, b, cv, ftz);
        while (!__atomic_compare_exchange_n((uint32_t *)p, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        return old;
    }
    uint16_t old = __atomic_load_n((uint16_t *)p, __ATOMIC_SEQ_CST), nv;
    do nv = (uint16_t)rmw(op, t, old, b, cv, ftz);
    while (!__atomic_compare_exchange_n((uint16_t *)p, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}

/* atom.cas.b128 / atom.exch.b128 (PTX ISA 8.3, sm_90): one 16-byte
 * access, atomic with respect to the other 128-bit atomics.  The host may
 * have no 16-byte compare-and-swap (x86-64 needs cmpxchg16b, which the
 * build does not assume), so they take one lock; like the hardware's, they
 * are not atomic with respect to narrower atomics on the same bytes. */
static pthread_mutex_t atom128_lock = PTHREAD_MUTEX_INITIALIZER;

static int exec_atom128(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    int op = in->redop;
    char wb[96];
    if (in->op != IR_OP_ATOM || (op != IR_M_OP_CAS && op != IR_M_OP_EXCH) || in->vec > 1)
        return ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc,
                        "%s: .b128 is only for atom.cas and atom.exch", ip_instr_what(c, wb, sizeof wb));
    const ir_operand *d = &in->opd[0], *b = &in->opd[2], *cv = &in->opd[3];
    bool gw_any = false;
    FOR_LANES(exec, l) {
        int sp;
        uint64_t a = ip_addr(c, w, f, in, 1, l, &sp);
        ip_ptr p = ip_resolve(c, w, (int)l, space_norm(sp), a, 16, 16, NULL);
        if (!p.p)
            return c->res.status;
        if (p.space != IR_SPACE_GLOBAL && p.space != IR_SPACE_SHARED_CTA && p.space != IR_SPACE_SHARED_CLUSTER)
            return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "%s on %s memory (only global and shared)",
                            ip_instr_what(c, wb, sizeof wb), mem_space_name(p.space));
        if (p.cta >= 0 && smem_check(c, w, l, in, &p, 16, true, true))
            return c->res.status;
        if (c->plan->wg_any && p.cta >= 0 && ip_wgmma_smem_write(c, w, (int)l, p.cta, p.soff, 16, race_what(in, wb, sizeof wb)))
            return c->res.status;
        uint64_t bl = ip_opd(c, w, f, in, 2, l), bh = get_hi(c, f, b, l);
        uint64_t cl = op == IR_M_OP_CAS ? ip_opd(c, w, f, in, 3, l) : 0;
        uint64_t ch = op == IR_M_OP_CAS ? get_hi(c, f, cv, l) : 0;
        uint64_t old[2];
        pthread_mutex_lock(&atom128_lock);
        memcpy(old, p.p, 16);
        if (op == IR_M_OP_EXCH || (old[0] == bl && old[1] == bh)) {
            uint64_t nv[2] = { op == IR_M_OP_EXCH ? bl : cl, op == IR_M_OP_EXCH ? bh : ch };
            memcpy(p.p, nv, 16);
        }
        pthread_mutex_unlock(&atom128_lock);
        if (d->kind == IR_OPD_REG) {
            wreg(c, f, d->u.reg, l, old[0]);
            set_hi(c, f, d->u.reg, l, old[1]);
        }
        ip_note_write(c, a, 16);
        if (c->gw && p.space == IR_SPACE_GLOBAL) {
            if (!gw_any)
                ip_gw_begin(c);
            gw_any = true;
            ip_gw_write(c, w, (int)l, CG_SYNC, a, 16, NULL);
        }
    }
    if (gw_any)
        ip_gw_sync(c);
    return 0;
}

static int exec_atom(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    bool is_red = in->op == IR_OP_RED;
    int t = in->types[0];
    unsigned size = tbits(t) / 8;
    int ak = is_red ? 0 : 1;
    int op = in->redop;
    if (!op)
        return ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc, "%s without an operation",
                        ir_ops[in->op].name);
    if (size == 16)
        return exec_atom128(c, w, in, f, exec);
    if (size != 2 && size != 4 && size != 8)
        return ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc, "%s on %s",
                        ir_ops[in->op].name, ir_types[t].name);
    /* sm_90 vector forms (atom.global.v2.f32.add, red.global.add.noftz.v4.f16x2, ...):
     * one naturally aligned access of n elements, each updated atomically */
    unsigned n = in->vec > 1 ? in->vec : 1;
    const ir_function *fn = ip_func(c, f->func);
    const char *what = NULL;   /* ip_resolve names the instruction itself */
    char wb[96];
    bool gw_any = false;
    FOR_LANES(exec, l) {
        int sp;
        uint64_t a = ip_addr(c, w, f, in, ak, l, &sp);
        ip_ptr p = ip_resolve(c, w, (int)l, space_norm(sp), a, size * n, size * n, what);
        if (!p.p)
            return c->res.status;
        if (p.space == IR_SPACE_PARAM || p.space == IR_SPACE_CONST)
            return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "%s on read-only %s memory",
                            ip_instr_what(c, wb, sizeof wb), mem_space_name(p.space));
        if (p.cta >= 0 && smem_check(c, w, l, in, &p, size * n, true, true))
            return c->res.status;
        if (c->plan->wg_any && p.cta >= 0 && ip_wgmma_smem_write(c, w, (int)l, p.cta, p.soff, size * n, race_what(in, wb, sizeof wb)))
            return c->res.status;
        for (unsigned i = 0; i < n; i++) {
            uint64_t b = n > 1 ? elem_val(c, f, ip_vec_elem(fn, &in->opd[ak + 1], i), l, t) : ip_opd(c, w, f, in, ak + 1, l);
            uint64_t cv = op == IR_M_OP_CAS ? ip_opd(c, w, f, in, ak + 2, l) : 0;
            uint64_t old = atomic_apply(p.p + i * size, size, op, t, b, cv, p.space == IR_SPACE_GLOBAL);
            const ir_operand *d = is_red ? NULL : n > 1 ? ip_vec_elem(fn, &in->opd[0], i) : &in->opd[0];
            if (d && d->kind == IR_OPD_REG)
                wreg(c, f, d->u.reg, l, ext(old, t));
        }
        ip_note_write(c, a, size * n);
        if (c->gw && p.space == IR_SPACE_GLOBAL) {
            if (!gw_any)
                ip_gw_begin(c);
            gw_any = true;
            ip_gw_write(c, w, (int)l, CG_SYNC, a, size * n, NULL);
        }
    }
    if (gw_any)
        ip_gw_sync(c);            /* atom / red: may order clusters */
    return 0;
}

/* ---- address conversions ------------------------------------------------------------ */

static uint64_t window_base(int space)
{
    switch (space) {
    case IR_SPACE_SHARED_CTA: case IR_SPACE_SHARED_CLUSTER: return MEM_GENERIC_SHARED;
    case IR_SPACE_LOCAL: return MEM_GENERIC_LOCAL;
    case IR_SPACE_PARAM: case IR_SPACE_PARAM_FUNC: return MEM_GENERIC_PARAM;
    default: return 0;
    }
}

/* whether generic address a lies in a .const module variable */
static bool in_const_var(const interp_ctx *c, uint64_t a)
{
    const ir_module *m = c->plan->mod;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ir_symbol *s = &m->syms[i];
        if (s->space == IR_SPACE_CONST && c->plan->symloc[i] == IP_LOC_GLOBAL &&
            a - c->plan->symaddr[i] < (s->size ? s->size : 1))
            return true;
    }
    return false;
}

static int exec_addrconv(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    int t = in->types[0];
    uint64_t tm = tbits(t) >= 64 ? ~0ull : 0xffffffffull;
    FOR_LANES(exec, l) {
        uint64_t a = ip_opd(c, w, f, in, 1, l), r = 0;
        switch (in->op) {
        case IR_OP_CVTA: {
            uint64_t base = window_base(in->space);
            bool to = ir_has(in, IR_M_TO);
            if ((in->space == IR_SPACE_PARAM || in->space == IR_SPACE_PARAM_FUNC) &&
                mem_generic_window(a) == MEM_WIN_LOCAL)
                r = to ? a : a;          /* a .func parameter's generic address */
            else if (to)
                r = base && a >= base && a - base < MEM_WINDOW_SIZE ? a - base : (base ? a - base : a);
            else
                r = a + base;
            break;
        }
        case IR_OP_ISSPACEP: {
            mem_window win = mem_generic_window(a);
            switch (in->space) {
            case IR_SPACE_SHARED_CTA: {
                int oc; uint32_t off;
                r = win == MEM_WIN_SHARED && ip_shared_decode(c, w->cta, (uint32_t)(a - MEM_GENERIC_SHARED), &oc, &off) && oc == w->cta->slot;
                break;
            }
            case IR_SPACE_SHARED_CLUSTER: r = win == MEM_WIN_SHARED; break;
            case IR_SPACE_LOCAL: r = win == MEM_WIN_LOCAL; break;
            case IR_SPACE_PARAM: case IR_SPACE_PARAM_FUNC: r = win == MEM_WIN_PARAM; break;
            /* .const variables live in global allocations here; on the GPU
             * they have their own window (ops_mem in tests/hw/ops) */
            case IR_SPACE_GLOBAL: r = win == MEM_WIN_GLOBAL && !in_const_var(c, a); break;
            case IR_SPACE_CONST: r = win == MEM_WIN_GLOBAL && in_const_var(c, a); break;
            default: r = 0;
            }
            break;
        }
        case IR_OP_MAPA: {
            uint32_t rank = (uint32_t)ip_opd(c, w, f, in, 2, l);
            if (rank >= (uint32_t)c->cl.ncta)
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "mapa to CTA rank %u, but the cluster has %d CTAs", rank, c->cl.ncta);
            bool generic = in->space == IR_SPACE_NONE;
            uint64_t sa = generic ? a - MEM_GENERIC_SHARED : a;
            if (generic && mem_generic_window(a) != MEM_WIN_SHARED)
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "mapa of generic address 0x%llx, which is not in the shared window",
                                (unsigned long long)a);
            uint32_t off = (uint32_t)sa & MEM_SHARED_OFF_MASK;
            r = MEM_SHARED_CLUSTER_ADDR(rank, off) + (generic ? MEM_GENERIC_SHARED : 0);
            break;
        }
        case IR_OP_GETCTARANK: {
            bool generic = in->space == IR_SPACE_NONE;
            uint64_t sa = generic ? a - MEM_GENERIC_SHARED : a;
            int oc; uint32_t off;
            if ((generic && mem_generic_window(a) != MEM_WIN_SHARED) ||
                !ip_shared_decode(c, w->cta, (uint32_t)sa, &oc, &off))
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "getctarank of address 0x%llx, which names no CTA of the cluster",
                                (unsigned long long)a);
            r = (uint64_t)oc;
            break;
        }
        default: break;
        }
        if (in->opd[0].kind == IR_OPD_REG)
            wreg(c, f, in->opd[0].u.reg, l, in->op == IR_OP_ISSPACEP ? r : r & tm);
    }
    return 0;
}

/* ---- cp.async (sm_80 non-bulk asynchronous copies) ------------------------------------
 *
 * cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}
 * copies cp-size (4, 8 or 16) bytes, the bytes past src-size (or all of them
 * when the ignore-src predicate is true) as zeros.  ptxi completes the copy
 * when it is issued, so cp.async.commit_group / wait_group / wait_all have
 * nothing left to wait for, and cp.async.mbarrier.arrive's arrive-on (made
 * when all of the thread's earlier cp.async have completed) happens at once:
 * with .noinc it is one of the phase's expected arrivals; without, the pending
 * count is first raised by one, so the net effect is none. */
static int exec_cp_async(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    char wb[96];
    if (in->op != IR_OP_CP_ASYNC && in->op != IR_OP_CP_ASYNC_MBARRIER_ARRIVE) {
        /* commit_group, wait_group, wait_all: nothing left to wait for, but
         * the checker orders the copies by them */
        if (c->ck && exec) {
            if (in->op == IR_OP_CP_ASYNC_COMMIT_GROUP)
                ip_ck_cpasync_commit(c, w);
            else if (in->op == IR_OP_CP_ASYNC_WAIT_ALL)
                ip_ck_cpasync_wait(c, w, -1);
            else
                ip_ck_cpasync_wait(c, w, (int64_t)ip_opd(c, w, f, in, 0, (uint32_t)__builtin_ctz(exec)));
        }
        return 0;
    }
    if (in->op == IR_OP_CP_ASYNC_MBARRIER_ARRIVE) {
        FOR_LANES(exec, l) {
            int sp;
            uint64_t a = ip_addr(c, w, f, in, 0, l, &sp);
            ip_ptr p = ip_resolve(c, w, (int)l, space_norm(sp), a, 8, 8, NULL);
            if (!p.p)
                return c->res.status;
            uint64_t word;
            char why[256];
            memcpy(&word, p.p, 8);
            if (!(word >> 62 & 1))   /* as in exec_mbar: bit 62 marks an initialised mbarrier */
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                                "%s on an mbarrier that is not initialised (mbarrier at shared 0x%x of CTA rank %d)",
                                ip_instr_what(c, wb, sizeof wb), p.soff, p.cta);
            uint64_t before = word;
            if (ir_has(in, IR_M_NOINC) && ip_mbar_arrive(&word, 1, false, false, 0, NULL, why, sizeof why))
                return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "%s (mbarrier at shared 0x%x of CTA rank %d)",
                                why, p.soff, p.cta);
            /* an arrive-on releases the thread's cp.async writes to the barrier's waiters */
            if (c->ck && ip_ck_cpasync_arrive(c, w, (int)l, ir_has(in, IR_M_NOINC) ? IR_OP_MBARRIER_ARRIVE
                                                                                    : IR_OP_MBARRIER_COMPLETE_TX,
                                              p.cta, p.soff, before, word))
                return c->res.status;
            if (!ir_has(in, IR_M_NOINC))
                continue;
            memcpy(p.p, &word, 8);
            c->effects++;
        }
        return 0;
    }
    const ir_function *fn = ip_func(c, f->func);
    int nopd = in->nopd - (ir_has(in, IR_M_L2_CACHE_HINT) ? 1 : 0);
    FOR_LANES(exec, l) {
        uint32_t cp = (uint32_t)ip_opd(c, w, f, in, 2, l), n = cp;
        if (cp != 4 && cp != 8 && cp != 16)
            return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "%s: cp-size %u (must be 4, 8 or 16)",
                            ip_instr_what(c, wb, sizeof wb), cp);
        if (nopd > 3) {
            const ir_operand *o = &in->opd[3];
            uint64_t v = ip_opd(c, w, f, in, 3, l);
            bool pred = o->kind == IR_OPD_REG && o->u.reg < fn->nregs && fn->regs[o->u.reg].type == IR_T_PRED;
            n = pred ? (v ? 0 : cp) : (v < cp ? (uint32_t)v : cp);
        }
        int dsp, ssp;
        uint64_t da = ip_addr(c, w, f, in, 0, l, &dsp), sa = ip_addr(c, w, f, in, 1, l, &ssp);
        ip_ptr d = ip_resolve(c, w, (int)l, dsp == IR_SPACE_NONE ? IR_SPACE_SHARED_CTA : space_norm(dsp), da, cp, cp, NULL);
        if (!d.p)
            return c->res.status;
        if (d.cta >= 0 && (c->ck ? ip_ck_cpasync(c, w, (int)l, &d, cp) : smem_check(c, w, l, in, &d, cp, true, false)))
            return c->res.status;
        if (c->plan->wg_any && d.cta >= 0 && ip_wgmma_smem_write(c, w, (int)l, d.cta, d.soff, cp, race_what(in, wb, sizeof wb)))
            return c->res.status;
        uint8_t buf[16] = { 0 };
        if (n) {
            ip_ptr s = ip_resolve(c, w, (int)l, in->space2 ? space_norm(in->space2) : IR_SPACE_GLOBAL, sa, n, cp, NULL);
            if (!s.p)
                return c->res.status;
            memcpy(buf, s.p, n);
        }
        memcpy(d.p, buf, cp);
        ip_note_write(c, da, cp);
    }
    return 0;
}

int ip_exec_mem(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec)
{
    (void)group;
    switch (in->op) {
    case IR_OP_CP_ASYNC: case IR_OP_CP_ASYNC_COMMIT_GROUP: case IR_OP_CP_ASYNC_WAIT_GROUP:
    case IR_OP_CP_ASYNC_WAIT_ALL: case IR_OP_CP_ASYNC_MBARRIER_ARRIVE:
        return exec_cp_async(c, w, in, f, exec);
    case IR_OP_LD: case IR_OP_LDU: return exec_ld(c, w, in, f, exec);
    case IR_OP_ST: return exec_st(c, w, in, f, exec);
    case IR_OP_ATOM: case IR_OP_RED: return exec_atom(c, w, in, f, exec);
    case IR_OP_CVTA: case IR_OP_ISSPACEP: case IR_OP_MAPA: case IR_OP_GETCTARANK:
        return exec_addrconv(c, w, in, f, exec);
    case IR_OP_PREFETCH: case IR_OP_PREFETCHU:
        return 0;
    default:
        return -2;
    }
}

/* ---- barriers -------------------------------------------------------------------------- */

static int exec_bar(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec)
{
    ip_cta *t = w->cta;
    bool arrive = ir_has(in, IR_M_ARRIVE), red = ir_has(in, IR_M_RED);
    int k = red ? 1 : 0;      /* bar.red has the destination first */
    FOR_LANES(group, l) w->pc[l]++;
    if (!exec)
        return 1;
    uint32_t l0 = (uint32_t)__builtin_ctz(exec);
    uint32_t id = (uint32_t)ip_opd(c, w, f, in, k, l0);
    if (id >= IP_NBAR)
        return ip_error(c, INTERP_FAULT, w, (int)l0, c->xfunc, c->xpc, "barrier number %u (0..15)", id);
    ip_bar *b = &t->bar[id];
    int nop = in->nopd;
    bool has_count = red ? nop >= 4 : nop >= 2;
    if (has_count) {
        uint32_t cnt = (uint32_t)ip_opd(c, w, f, in, k + 1, l0);
        if (cnt == 0 || cnt % 32 || cnt > c->plan->nthreads + 31)
            return ip_error(c, INTERP_FAULT, w, (int)l0, c->xfunc, c->xpc,
                            "barrier thread count %u must be a non-zero multiple of 32 and at most the CTA size",
                            cnt);
        if (cnt > c->plan->nthreads) cnt = c->plan->nthreads;
        b->expected = cnt;
    }
    if (red) {
        if (!b->arrived) {
            b->red_and = 1;
            b->red_or = 0;
            b->red_popc = 0;
        }
        b->red_op = in->redop ? in->redop : IR_M_OP_POPC;
        int pk = nop - 1;
        FOR_LANES(exec, l) {
            bool p = ip_opd(c, w, f, in, pk, l) != 0;
            b->red_popc += p;
            b->red_and &= p;
            b->red_or |= p;
        }
    }
    if (c->ck)
        ip_ck_bar_arrive(c, w, (int)id);
    FOR_LANES(exec, l) {
        b->arrived++;
        if (!arrive) {
            w->st[l] = INTERP_T_BAR;
            w->wait[l] = id;
            w->wait_aux[l] = red && in->opd[0].kind == IR_OPD_REG ? in->opd[0].u.reg : UINT32_MAX;
        }
    }
    c->effects++;
    ip_bar_check(c, t, (int)id);
    return 1;
}

static int exec_cbar(interp_ctx *c, ip_warp *w, const ir_instr *in, uint32_t group, uint32_t exec)
{
    ip_cluster *cl = &c->cl;
    bool wait = ir_has(in, IR_M_WAIT), arrive = ir_has(in, IR_M_ARRIVE) || !wait;
    FOR_LANES(group, l) w->pc[l]++;
    if (arrive) {
        /* .relaxed too: CUTLASS orders its mbarrier inits with
         * fence.mbarrier_init.release.cluster + a relaxed arrive */
        if (c->ck && exec && !ir_has(in, IR_M_RELAXED))
            ip_ck_mbar_init_fence(c, w);   /* a release arrive publishes the warp's mbarrier inits */
        if (c->ck && exec)
            ip_ck_cbar_arrive(c, w);
        FOR_LANES(exec, l) {
            w->cbar_phase[l] = cl->cbar_phase + 1;
            cl->cbar_arrived++;
        }
        c->effects++;
    }
    if (wait) {
        FOR_LANES(exec, l) {
            if (w->cbar_phase[l] && w->cbar_phase[l] > cl->cbar_phase) {
                w->st[l] = INTERP_T_CLUSTER_BAR;
            } else {
                w->cbar_phase[l] = 0;
                if (c->ck)
                    ip_ck_cbar_pass(c, w);
            }
        }
    }
    ip_cbar_check(c);
    return 1;
}

/* ---- warp collectives ------------------------------------------------------------------ */

static int exec_warp(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    uint64_t src[IP_WARP], d[IP_WARP];
    uint8_t pv[IP_WARP];
    const ir_function *fn = ip_func(c, f->func);
    const ir_operand *dst = &in->opd[0];
    int t = in->types[0];
    switch (in->op) {
    case IR_OP_ACTIVEMASK:
        FOR_LANES(exec, l) wreg(c, f, dst->u.reg, l, exec);
        return 0;
    case IR_OP_ELECT: {
        if (!exec) return 0;
        uint32_t l0 = (uint32_t)__builtin_ctz(exec);
        uint32_t mm = (uint32_t)ip_opd(c, w, f, in, in->nopd - 1, l0);
        uint32_t part = exec & mm;
        uint32_t leader = part ? (uint32_t)__builtin_ctz(part) : 0;
        FOR_LANES(exec, l) {
            const ir_operand *e0 = ip_vec_elem(fn, dst, 0), *e1 = ip_vec_elem(fn, dst, 1);
            if (dst->kind == IR_OPD_REG) e1 = NULL;
            if (e0 && e0->kind == IR_OPD_REG) wreg(c, f, e0->u.reg, l, leader);
            if (e1 && e1->kind == IR_OPD_REG) wreg(c, f, e1->u.reg, l, l == leader);
        }
        return 0;
    }
    default: break;
    }
    FOR_LANES(exec, l) src[l] = ip_opd(c, w, f, in, 1, l);
    uint32_t l0 = exec ? (uint32_t)__builtin_ctz(exec) : 0;
    uint32_t mm = exec ? (uint32_t)ip_opd(c, w, f, in, in->nopd - 1, l0) : 0;
    uint32_t part = exec & mm;
    switch (in->op) {
    case IR_OP_VOTE: {
        uint32_t ballot = 0;
        FOR_LANES(part, l) ballot |= (uint32_t)(src[l] != 0) << l;
        FOR_LANES(exec, l) {
            if (ir_has(in, IR_M_BALLOT)) d[l] = ballot;
            else if (ir_has(in, IR_M_ALL)) d[l] = ballot == part;
            else if (ir_has(in, IR_M_ANY)) d[l] = ballot != 0;
            else d[l] = ballot == 0 || ballot == part;     /* uni */
        }
        break;
    }
    case IR_OP_MATCH: {
        bool all = ir_has(in, IR_M_ALL);
        unsigned bits = tbits(t);
        uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        bool every = true;
        FOR_LANES(part, l) if ((src[l] & m) != (src[l0] & m)) every = false;
        FOR_LANES(exec, l) {
            uint32_t same = 0;
            FOR_LANES(part, j) if ((src[j] & m) == (src[l] & m)) same |= 1u << j;
            if (all) { d[l] = every ? part : 0; pv[l] = every; }
            else d[l] = same;
        }
        if (all)
            FOR_LANES(exec, l) {
                const ir_operand *e1 = dst->kind == IR_OPD_VEC ? ip_vec_elem(fn, dst, 1) : NULL;
                if (e1 && e1->kind == IR_OPD_REG) wreg(c, f, e1->u.reg, l, pv[l]);
            }
        break;
    }
    case IR_OP_REDUX: {
        uint64_t acc = 0;
        bool first = true, sg = tkind(t) == 's';
        FOR_LANES(part, l) {
            uint32_t v = (uint32_t)src[l];
            if (first) { acc = v; first = false; continue; }
            switch (in->redop) {
            case IR_M_OP_ADD: acc = (uint32_t)(acc + v); break;
            case IR_M_OP_MIN: acc = sg ? (uint32_t)((int32_t)acc < (int32_t)v ? acc : v) : (acc < v ? acc : v); break;
            case IR_M_OP_MAX: acc = sg ? (uint32_t)((int32_t)acc > (int32_t)v ? acc : v) : (acc > v ? acc : v); break;
            case IR_M_AND: acc &= v; break;
            case IR_M_OR: acc |= v; break;
            case IR_M_XOR: acc ^= v; break;
            default: break;
            }
        }
        FOR_LANES(exec, l) d[l] = acc;
        break;
    }
    case IR_OP_SHFL: {
        FOR_LANES(exec, l) {
            uint32_t b = (uint32_t)ip_opd(c, w, f, in, 2, l) & 31, cc = (uint32_t)ip_opd(c, w, f, in, 3, l);
            uint32_t cval = cc & 31, mask = (cc >> 8) & 31;
            uint32_t maxl = (l & mask) | (cval & ~mask), minl = l & mask;
            int32_t j;
            bool p;
            if (ir_has(in, IR_M_UP)) { j = (int32_t)l - (int32_t)b; p = j >= (int32_t)maxl; }
            else if (ir_has(in, IR_M_DOWN)) { j = (int32_t)(l + b); p = j <= (int32_t)maxl; }
            else if (ir_has(in, IR_M_BFLY)) { j = (int32_t)(l ^ b); p = j <= (int32_t)maxl; }
            else { j = (int32_t)(minl | (b & ~mask)); p = j <= (int32_t)maxl; }
            if (!p) j = (int32_t)l;
            /* a source lane outside the group: its register as it stands */
            d[l] = (exec >> j & 1) ? src[j] : f->regs[in->opd[1].kind == IR_OPD_REG ? in->opd[1].u.reg * IP_WARP + (uint32_t)j : 0];
            if (in->opd[1].kind != IR_OPD_REG) d[l] = src[l];
            pv[l] = p;
        }
        FOR_LANES(exec, l) {
            const ir_operand *e1 = dst->kind == IR_OPD_VEC ? ip_vec_elem(fn, dst, 1) : NULL;
            if (e1 && e1->kind == IR_OPD_REG) wreg(c, f, e1->u.reg, l, pv[l]);
        }
        break;
    }
    default:
        return -2;
    }
    const ir_operand *e0 = dst->kind == IR_OPD_VEC ? ip_vec_elem(fn, dst, 0) : dst;
    if (e0 && e0->kind == IR_OPD_REG)
        FOR_LANES(exec, l) wreg(c, f, e0->u.reg, l, d[l]);
    return 0;
}

/* ---- mbarrier -------------------------------------------------------------------------- */

static int mbar_fault(interp_ctx *c, ip_warp *w, uint32_t l, uint32_t off, int oc, const char *why)
{
    char inv[700];
    if (c->ck && ip_ck_mbar_invalidated(c, oc, off, inv, sizeof inv))
        return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                        "[mbarrier-invalidated]: %s (mbarrier at shared 0x%x of CTA rank %d): mbarrier.inval "
                        "invalidated it and nothing initialised it again (an inval inside the loop that still "
                        "uses the barrier?)\n  invalidated by: %s", why, off, oc, inv);
    return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "%s (mbarrier at shared 0x%x of CTA rank %d)",
                    why, off, oc);
}

static int exec_mbar(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    char why[256];
    const char *name = ir_ops[in->op].name;
    if (in->op == IR_OP_MBARRIER_PENDING_COUNT) {
        FOR_LANES(exec, l)
            wreg(c, f, in->opd[0].u.reg, l, ip_mbar_pending(ip_opd(c, w, f, in, 1, l)));
        return 0;
    }
    /* address operand: first ADDR operand */
    int ak = in->opd[0].kind == IR_OPD_ADDR ? 0 : 1;
    /* barriers whose phase an earlier lane of this arrive completed */
    struct { int cta; uint32_t off, pend; } flip[IP_WARP];
    int nflip = 0;
    bool observed = false;   /* a wait of some lane found its phase complete */
    FOR_LANES(exec, l) {
        int sp;
        uint64_t a = ip_addr(c, w, f, in, ak, l, &sp);
        ip_ptr p = ip_resolve(c, w, (int)l, space_norm(sp), a, 8, 8, name);
        if (!p.p)
            return c->res.status;
        if (p.cta < 0)
            return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc,
                            "%s on address 0x%llx, which is not shared memory", name, (unsigned long long)a);
        uint64_t word, before;
        memcpy(&word, p.p, 8);
        before = word;
        int rc = 0;
        uint64_t token = 0;
        uint32_t value = 0;
        switch (in->op) {
        case IR_OP_MBARRIER_INIT:
            value = (uint32_t)ip_opd(c, w, f, in, 1, l);
            rc = ip_mbar_init(&word, value, why, sizeof why);
            break;
        case IR_OP_MBARRIER_INVAL:
            word = 0;
            break;
        case IR_OP_MBARRIER_EXPECT_TX:
            value = (uint32_t)ip_opd(c, w, f, in, 1, l);
            rc = ip_mbar_expect_tx(&word, value, why, sizeof why);
            break;
        case IR_OP_MBARRIER_COMPLETE_TX:
            value = (uint32_t)ip_opd(c, w, f, in, 1, l);
            rc = ip_mbar_complete_tx(&word, value, why, sizeof why);
            break;
        case IR_OP_MBARRIER_ARRIVE:
        case IR_OP_MBARRIER_ARRIVE_DROP: {
            bool etx = ir_has(in, IR_M_EXPECT_TX);
            uint32_t cnt = 1, tx = 0;
            if (in->nopd > ak + 1) {
                uint32_t v = (uint32_t)ip_opd(c, w, f, in, ak + 1, l);
                if (etx) tx = v; else cnt = v;
            }
            value = tx;
            /* One arrive executed by several lanes is one transaction on
             * the barrier (issue 10: the H100 faults when the lanes
             * together exceed the phase's pending count), not one phase
             * after another. */
            for (int k = 0; k < nflip; k++)
                if (flip[k].cta == p.cta && flip[k].off == p.soff) {
                    snprintf(why, sizeof why, "this %s, executed by several lanes at once, brings more arrivals "
                             "than its phase has (expected count %u): lane %u's arrival overflows it; more threads "
                             "arrive than the barrier was initialised for", name, flip[k].pend, l);
                    return mbar_fault(c, w, l, p.soff, p.cta, why);
                }
            rc = ip_mbar_arrive(&word, cnt, in->op == IR_OP_MBARRIER_ARRIVE_DROP, etx, tx, &token, why, sizeof why);
            if (!rc && (word ^ token) >> 63 && nflip < IP_WARP) {
                flip[nflip].cta = p.cta;
                flip[nflip].off = p.soff;
                interp_mbar mb;
                interp_mbar_decode(word, &mb);
                flip[nflip++].pend = mb.expected;
            }
            if (!rc && ir_has(in, IR_M_NOCOMPLETE) && (word ^ token) >> 63) {
                snprintf(why, sizeof why, "%s.noComplete completed the phase (%u arrival(s) were all that was "
                         "pending): undefined in PTX", name, cnt);
                rc = -1;
            }
            if (!rc && ak == 1 && in->opd[0].kind == IR_OPD_REG)
                wreg(c, f, in->opd[0].u.reg, l, token);
            break;
        }
        case IR_OP_MBARRIER_TEST_WAIT:
        case IR_OP_MBARRIER_TRY_WAIT: {
            if (!(word >> 62 & 1)) {
                snprintf(why, sizeof why, "%s on an mbarrier that is not initialised", name);
                rc = -1;
                break;
            }
            if (c->ck && ip_ck_wait_used(c, w, (int)l, in))
                return c->res.status;
            bool par = ir_has(in, IR_M_PARITY);
            uint64_t arg = ip_opd(c, w, f, in, 2, l);
            bool ok = ip_mbar_test(word, par, arg);
            const ir_operand *d = &in->opd[0];
            if (d->kind == IR_OPD_REG)
                wreg(c, f, d->u.reg, l, ok);
            if (ok && c->ck && ip_ck_mbar_observed(c, w, (int)l, p.cta, p.soff, par))
                return c->res.status;
            observed |= ok;
            if (!ok) {
                w->polling |= 1u << l;
                w->wait[l] = p.soff;
                w->wait_cta[l] = p.cta;
                w->wait_aux[l] = par ? (uint32_t)(arg & 1) : (uint32_t)(arg >> 63);
            }
            continue;
        }
        default:
            return -2;
        }
        if (rc)
            return mbar_fault(c, w, l, p.soff, p.cta, why);
        if (c->ck && ip_ck_mbar(c, w, (int)l, in->op, p.cta, p.soff, before, word, value))
            return c->res.status;
        memcpy(p.p, &word, 8);
        c->effects++;
    }
    if (observed)
        ip_ck_warp_sync(c, w);   /* the wait's lanes meet the others only at the next warp sync */
    return 0;
}

static int exec_bulk_wait(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec)
{
    if (in->op == IR_OP_CP_ASYNC_BULK_COMMIT_GROUP) {
        FOR_LANES(exec, l) w->bulk_seq[l]++;
        FOR_LANES(group, l) w->pc[l]++;
        return 1;
    }
    uint32_t n = exec ? (uint32_t)ip_opd(c, w, f, in, 0, (uint32_t)__builtin_ctz(exec)) : 0;
    FOR_LANES(group, l) {
        /* every committed group but the n most recent must be complete */
        if ((exec >> l & 1) && w->bulk_seq[l] > n &&
            ip_async_groups_busy(c, w->cta->slot, w->id, (int)l, w->bulk_seq[l] - n)) {
            w->st[l] = INTERP_T_BULK_WAIT;   /* re-executes after a landing */
            continue;
        }
        if (c->ck && (exec >> l & 1) && w->bulk_seq[l] > n)
            ip_ck_bulk_waited(c, w, (int)l, w->bulk_seq[l] - n, ir_has(in, IR_M_READ));
        w->pc[l]++;
    }
    return 1;
}

/* The TMA_FIELD_* a tensormap.replace names, 0 if none. */
static int replace_field(const ir_instr *in)
{
    static const struct { int mod, field; } t[] = {
        {IR_M_GLOBAL_ADDRESS, TMA_FIELD_GLOBAL_ADDRESS}, {IR_M_RANK, TMA_FIELD_RANK},
        {IR_M_BOX_DIM, TMA_FIELD_BOX_DIM}, {IR_M_GLOBAL_DIM, TMA_FIELD_GLOBAL_DIM},
        {IR_M_GLOBAL_STRIDE, TMA_FIELD_GLOBAL_STRIDE}, {IR_M_ELEMENT_STRIDE, TMA_FIELD_ELEMENT_STRIDE},
        {IR_M_ELEMTYPE, TMA_FIELD_ELEMTYPE}, {IR_M_INTERLEAVE_LAYOUT, TMA_FIELD_INTERLEAVE_LAYOUT},
        {IR_M_SWIZZLE_MODE, TMA_FIELD_SWIZZLE_MODE}, {IR_M_SWIZZLE_ATOMICITY, TMA_FIELD_SWIZZLE_ATOMICITY},
        {IR_M_FILL_MODE, TMA_FIELD_FILL_MODE},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (ir_has(in, t[i].mod))
            return t[i].field;
    return 0;
}

static int exec_tensormap(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec)
{
    /* .sync.aligned: every thread of the warp executes it together; the
     * H100 hangs when one lane of a full warp does (tests/launch/zoo,
     * HARDWARE.md) */
    uint32_t live = w->valid & ~w->exited;
    if (c->ck && in->op == IR_OP_TENSORMAP_CP_FENCEPROXY && ir_has(in, IR_M_ALIGNED) && group != live && group)
        return ip_error(c, INTERP_FAULT, w, __builtin_ctz(group), c->xfunc, c->xpc,
                        "[aligned-partial-warp]: %s.sync.aligned executed by lanes 0x%08x of the warp while lanes "
                        "0x%08x, not exited, do not execute it with them: every thread of the warp must",
                        ir_ops[in->op].name, group, live & ~group);
    FOR_LANES(exec, l) {
        int sp;
        uint64_t a = ip_addr(c, w, f, in, 0, l, &sp);
        ip_ptr p = ip_resolve(c, w, (int)l, space_norm(sp), a, 128, 64, ir_ops[in->op].name);
        if (!p.p)
            return c->res.status;
        if (in->op == IR_OP_TENSORMAP_CP_FENCEPROXY) {
            int sp2;
            uint64_t s = ip_addr(c, w, f, in, 1, l, &sp2);
            int srcsp = in->space2 ? in->space2 : sp2;
            ip_ptr q = ip_resolve(c, w, (int)l, space_norm(srcsp), s, 128, 64, ir_ops[in->op].name);
            if (!q.p)
                return c->res.status;
            memcpy(p.p, q.p, 128);
            ip_note_write(c, a, 128);
            if (c->ck && p.space == IR_SPACE_GLOBAL)
                ip_ck_tmap_write(c, w, (int)l, a);
            continue;
        }
        /* Only the field's bits change, in the map's own encoding
         * (tma_replace; PTX ISA Table 33 for the .field3 values). */
        int field = replace_field(in);
        if (!field)
            return ip_error(c, INTERP_UNSUPPORTED, NULL, 0, c->xfunc, c->xpc,
                            "tensormap.replace without a field qualifier ptxi knows");
        uint32_t ord = in->nopd > 2 ? (uint32_t)ip_opd(c, w, f, in, 1, l) : 0;
        uint64_t v = ip_opd(c, w, f, in, in->nopd - 1, l);
        char why[256];
        if (tma_replace(p.p, field, ord, v, why, sizeof why))
            return ip_error(c, INTERP_FAULT, w, (int)l, c->xfunc, c->xpc, "%s", why);
        ip_note_write(c, a, 128);
        if (c->ck && p.space == IR_SPACE_GLOBAL)
            ip_ck_tmap_write(c, w, (int)l, a);
    }
    return 0;
}

/* ---- createpolicy ----------------------------------------------------------------------
 * The 64-bit policy as an H100 builds it (worked out from about 5000
 * policies read back; tests/hw/policy holds 10240 of them: 256 inputs x 40
 * forms).  The cache hints it feeds are accepted and otherwise ignored, so
 * only its bits matter:
 *   bits 56..63  0x10 | range << 3 | primary << 1 | secondary-is-evict_first,
 *                primary: evict_unchanged 0, evict_first 1, evict_last 2,
 *                evict_normal 3
 *   fractional   bits 52..55 = (unsigned)trunc(fraction * 15.99f) & 15, the
 *                conversion saturating (NaN and negatives 0): ptxas's own
 *                expansion (FMUL by 15.99, F2I.U32.TRUNC, SASS read on the
 *                H100), so 0.0625000075 gives 0 and 1.5 gives 7 as there
 *   range        a zero total-size gives 0x18 << 56 and nothing else;
 *                else s = the least s >= 0 with (total >> 4) <= 2^(15+s),
 *                unit = 2^(12+s), bits 52..55 = s, 44..50 = (a / unit) & 0x7f,
 *                37..43 = min(127, ((a % unit + primary + unit - 1) mod 2^32)
 *                / unit): the units the primary range touches, summed in
 *                32 bits as the H100 does
 *   cvt.L2       the access property unchanged.
 * The PTX ISA wants a fraction in (0, 1]; others get the H100's bits. */
static uint8_t policy_prio(const ir_instr *in)
{
    unsigned n = 0;
    uint8_t top = 0;
    for (unsigned i = 0; i < in->nmods; i++) {
        int m = in->mods[i], pr = m == IR_M_L2_EVICT_UNCHANGED ? 0 : m == IR_M_L2_EVICT_FIRST ? 1
                                : m == IR_M_L2_EVICT_LAST ? 2 : m == IR_M_L2_EVICT_NORMAL ? 3 : -1;
        if (pr < 0)
            continue;
        if (n++ == 0)
            top |= (uint8_t)(pr << 1);
        else if (pr == 1)
            top |= 1;
    }
    return top;
}

static int exec_createpolicy(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec)
{
    const ir_operand *d = &in->opd[0];
    uint64_t top = 0x10u | policy_prio(in);
    FOR_LANES(exec, l) {
        uint64_t v;
        if (ir_has(in, IR_M_CVT)) {
            v = ip_opd(c, w, f, in, 1, l);
        } else if (ir_has(in, IR_M_RANGE)) {
            int sp;
            uint64_t a = ip_addr(c, w, f, in, 1, l, &sp);
            uint32_t prim = (uint32_t)ip_opd(c, w, f, in, 2, l), tot = (uint32_t)ip_opd(c, w, f, in, 3, l);
            if (!tot) {
                v = 0x18ull << 56;
            } else {
                unsigned sc = 0;
                while ((tot >> 4) > (1u << (15 + sc)))
                    sc++;
                unsigned sh = 12 + sc;
                uint64_t unit = 1ull << sh;
                uint32_t end = (uint32_t)((a & (unit - 1)) + prim + unit - 1);
                uint64_t cnt = end >> sh;
                if (cnt > 127)
                    cnt = 127;
                v = (top | 8) << 56 | (uint64_t)sc << 52 | (a >> sh & 0x7f) << 44 | cnt << 37;
            }
        } else {
            float fr = 1.0f;
            if (in->nopd > 1) {
                const ir_operand *o = &in->opd[1];
                if (o->kind == IR_OPD_FIMM) {
                    fr = (float)o->fimm;
                } else if (o->kind == IR_OPD_IMM) {
                    fr = (float)o->u.imm;
                } else {
                    uint32_t bits = (uint32_t)ip_opd(c, w, f, in, 1, l);
                    memcpy(&fr, &bits, 4);
                }
            }
            volatile float x = fr * 15.99f;   /* one f32 rounding, as FMUL */
            uint32_t q = !(x > 0.0f) ? 0 : x >= 4294967296.0f ? 0xffffffffu : (uint32_t)x;
            v = top << 56 | (uint64_t)(q & 15) << 52;
        }
        if (d->kind == IR_OPD_REG)
            wreg(c, f, d->u.reg, l, v);
    }
    return 0;
}

/* The OR over the 32 lanes of v[lane] ^ m: zero in its low 32 bits iff
 * every lane's 32-bit value is m (bar.warp.sync's membermask). */
static inline uint64_t xor_any(const uint64_t *v, uint32_t m)
{
#ifdef __SSE2__
    const __m128i mm = _mm_set1_epi64x((long long)m);
    __m128i a = _mm_setzero_si128(), b = _mm_setzero_si128();
    for (int i = 0; i < IP_WARP; i += 4) {
        a = _mm_or_si128(a, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(v + i)), mm));
        b = _mm_or_si128(b, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(v + i + 2)), mm));
    }
    a = _mm_or_si128(a, b);
    return (uint64_t)_mm_cvtsi128_si64(_mm_or_si128(a, _mm_unpackhi_epi64(a, a)));
#else
    uint64_t d = 0;
    for (int i = 0; i < IP_WARP; i++)
        d |= v[i] ^ m;
    return d;
#endif
}

int ip_exec_sync(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec)
{
    switch (in->op) {
    case IR_OP_BAR: case IR_OP_BARRIER:
        return exec_bar(c, w, in, f, group, exec);
    case IR_OP_BARRIER_CLUSTER:
        return exec_cbar(c, w, in, group, exec);
    case IR_OP_FENCE:
        if (c->gw && exec && !ir_has(in, IR_M_PROXY) && !ir_has(in, IR_M_MBARRIER_INIT) &&
            (ir_has(in, IR_M_GPU) || ir_has(in, IR_M_SYS)))
            ip_gw_sync(c);           /* fence.acq_rel/.sc at gpu or sys scope: may order clusters */
        /* fence.proxy.async orders shared memory for the async proxy unless
         * its state space is .global only */
        if (c->ck && exec && ir_has(in, IR_M_PROXY) && ir_has(in, IR_M_ASYNC)) {
            if (in->space != IR_SPACE_GLOBAL)
                ip_ck_proxy_fence(c, w);
            if (in->space == IR_SPACE_GLOBAL || in->space == IR_SPACE_NONE)
                ck_proxy_fence_global(c->ck, ip_ck_agent(c, w));
        }
        if (c->ck && ir_has(in, IR_M_TENSORMAP_GENERIC) && ir_has(in, IR_M_ACQUIRE) && in->nopd >= 1)
            FOR_LANES(exec, l) {
                int sp;
                ip_ck_tmap_acquire(c, w, ip_addr(c, w, f, in, 0, l, &sp));
            }
        if (exec && c->plan->wg_any && ir_has(in, IR_M_PROXY) && ir_has(in, IR_M_ASYNC) && in->space != IR_SPACE_GLOBAL)
            ip_wgmma_proxy_fence(c, w);
        if (c->ck && exec && (ir_has(in, IR_M_MBARRIER_INIT) ||
                              (ir_has(in, IR_M_CLUSTER) && (ir_has(in, IR_M_ACQ_REL) || ir_has(in, IR_M_SC)))))
            ip_ck_mbar_init_fence(c, w);
        return 0;
    case IR_OP_BAR_WARP_SYNC:
        if (exec && c->ck) {
            /* __syncwarp orders the memory accesses of its membermask's lanes */
            const ir_operand *o = &in->opd[0];
            uint32_t l0 = (uint32_t)__builtin_ctz(exec), m0;
            uint64_t d = 0;
            const uint64_t *rv = NULL;
            if (o->kind == IR_OPD_IMM) {
                m0 = (uint32_t)o->u.imm;
            } else if (o->kind != IR_OPD_REG) {
                m0 = (uint32_t)ip_opd(c, w, f, in, 0, l0);
            } else {
                /* the lanes' masks, read straight from the register: the
                 * usual one mask for all costs one pass of xors */
                rv = f->regs + (size_t)o->u.reg * IP_WARP;
                m0 = (uint32_t)rv[l0];
                if (exec == 0xffffffffu)
                    d = xor_any(rv, m0);
                else
                    FOR_LANES(exec, l) d |= rv[l] ^ m0;
            }
            if (!(uint32_t)d) {
                ip_ck_warp_sync_mask(c, w, m0);
            } else {
                uint32_t mask[IP_WARP];
                FOR_LANES(exec, l) mask[l] = (uint32_t)rv[l];
                ip_ck_warp_sync_lanes(c, w, mask, exec);
            }
        }
        return 0;
    case IR_OP_MEMBAR:
        if (c->gw && exec && (ir_has(in, IR_M_GL) || ir_has(in, IR_M_SYS) || ir_has(in, IR_M_GPU)))
            ip_gw_sync(c);           /* membar.gl / .sys */
        return 0;
    case IR_OP_GRIDDEPCONTROL:
    case IR_OP_NANOSLEEP: case IR_OP_PMEVENT: case IR_OP_SETMAXNREG:
        return 0;
    case IR_OP_VOTE: case IR_OP_MATCH: case IR_OP_REDUX: case IR_OP_SHFL: case IR_OP_ACTIVEMASK:
    case IR_OP_ELECT:
        return exec_warp(c, w, in, f, exec);
    case IR_OP_MBARRIER_INIT: case IR_OP_MBARRIER_INVAL: case IR_OP_MBARRIER_EXPECT_TX:
    case IR_OP_MBARRIER_COMPLETE_TX: case IR_OP_MBARRIER_ARRIVE: case IR_OP_MBARRIER_ARRIVE_DROP:
    case IR_OP_MBARRIER_TEST_WAIT: case IR_OP_MBARRIER_TRY_WAIT: case IR_OP_MBARRIER_PENDING_COUNT:
        return exec_mbar(c, w, in, f, exec);
    case IR_OP_CP_ASYNC_BULK_COMMIT_GROUP: case IR_OP_CP_ASYNC_BULK_WAIT_GROUP:
        return exec_bulk_wait(c, w, in, f, group, exec);
    case IR_OP_CP_ASYNC_BULK: case IR_OP_CP_REDUCE_ASYNC_BULK: case IR_OP_CP_ASYNC_BULK_PREFETCH:
    case IR_OP_CP_ASYNC_BULK_TENSOR: case IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
    case IR_OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
        return ip_async_issue(c, w, in, f, exec);
    case IR_OP_TENSORMAP_REPLACE: case IR_OP_TENSORMAP_CP_FENCEPROXY:
        return exec_tensormap(c, w, in, f, group, exec);
    case IR_OP_CREATEPOLICY:
        return exec_createpolicy(c, w, in, f, exec);
    default:
        return -2;
    }
}
