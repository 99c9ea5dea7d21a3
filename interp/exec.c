/* exec.c — instruction semantics.
 *
 * ip_exec runs one instruction for a group of lanes of one warp (the group
 * the scheduler picked, sched.c).  The guard predicate narrows the group to
 * the executing lanes; every lane of the group advances past the
 * instruction unless the handler moves PCs itself (branches, calls, waits).
 *
 * Registers are stored per call frame as uint64_t regs[slot * 32 + lane],
 * holding the register's value zero-extended to 64 bits (predicates 0/1);
 * writes are masked to the declared register width (ip_plan.regmask), so a
 * `ld.s8` into a .b32 register keeps the sign-extension to 32 bits only.
 * A .b128 register (PTX ISA 8.3: mov, ld/st, atom.cas/exch) keeps its high
 * 64 bits in a second bank of slots (ip_hi_slot, internal.h).
 *
 * One switch over the opcode; loops over lanes are inside the handlers;
 * nothing is allocated and no string is looked at on this path.  Opcodes
 * without semantics here stop the run with "not supported: <opcode>".
 */
#include <fenv.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "interp/internal.h"
#include "interp/fp.h"
#include "sfu/sfu.h"
#include "contract/contract.h"

#define FOR_LANES(m, l) for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

typedef struct X {
    interp_ctx *c;
    ip_warp *w;
    ip_frame *f;
    const ir_function *fn;
    const ir_instr *in;
    uint64_t *regs;
    const uint64_t *mask;
    uint32_t group;
} X;

static inline unsigned tbits(int t) { return ir_types[t].bits; }
static inline char tkind(int t) { return ir_types[t].kind; }
static inline uint64_t zx(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }
static inline int64_t sx(uint64_t v, unsigned bits)
{
    if (bits >= 64 || bits == 0)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v = zx(v, bits);
    return (int64_t)((v ^ m) - m);
}
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static int unsupported(X *x, const char *why)
{
    char name[96];
    snprintf(name, sizeof name, "%s", ir_ops[x->in->op].name);
    return ip_error(x->c, INTERP_UNSUPPORTED, NULL, 0, x->c->xfunc, x->c->xpc, "%s%s%s", name,
                    why ? " " : "", why ? why : "");
}

static uint32_t sfu_tanh_ftz(uint32_t a, bool ftz) { (void)ftz; return sfu_tanh(a); }

static int fault(X *x, int lane, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fault(X *x, int lane, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ip_error(x->c, INTERP_FAULT, x->w, lane, x->c->xfunc, x->c->xpc, "%s", msg);
}

/* ---- operands ---------------------------------------------------------------- */

static uint64_t sreg(X *x, uint32_t s, uint32_t lane)
{
    const ip_plan *p = x->c->plan;
    const interp_launch *l = &p->launch;
    const ip_cta *t = x->w->cta;
    const ip_cluster *cl = t->cl;
    uint32_t lin = (uint32_t)x->w->id * 32 + lane;
    switch (s) {
    case IR_SR_TID_X: return lin % l->block[0];
    case IR_SR_TID_Y: return lin / l->block[0] % l->block[1];
    case IR_SR_TID_Z: return lin / l->block[0] / l->block[1];
    case IR_SR_NTID_X: return l->block[0];
    case IR_SR_NTID_Y: return l->block[1];
    case IR_SR_NTID_Z: return l->block[2];
    case IR_SR_CTAID_X: return t->ctaid[0];
    case IR_SR_CTAID_Y: return t->ctaid[1];
    case IR_SR_CTAID_Z: return t->ctaid[2];
    case IR_SR_NCTAID_X: return l->grid[0];
    case IR_SR_NCTAID_Y: return l->grid[1];
    case IR_SR_NCTAID_Z: return l->grid[2];
    case IR_SR_LANEID: return lane;
    case IR_SR_WARPID: return (uint32_t)x->w->id;
    case IR_SR_NWARPID: return 64;
    case IR_SR_SMID: return (uint32_t)((cl->index * p->cta_per_cluster + (uint64_t)t->slot) % 132);
    case IR_SR_NSMID: return 132;
    case IR_SR_GRIDID: return 1;
    case IR_SR_LANEMASK_EQ: return 1u << lane;
    case IR_SR_LANEMASK_LE: return lane == 31 ? 0xffffffffu : (2u << lane) - 1;
    case IR_SR_LANEMASK_LT: return (1u << lane) - 1;
    case IR_SR_LANEMASK_GE: return ~((1u << lane) - 1) & 0xffffffffu;
    case IR_SR_LANEMASK_GT: return lane == 31 ? 0 : ~((2u << lane) - 1) & 0xffffffffu;
    case IR_SR_CLOCK: return (uint32_t)cl->clock;
    case IR_SR_CLOCK_HI: return (uint32_t)(cl->clock >> 32);
    case IR_SR_CLOCK64: return cl->clock;
    case IR_SR_GLOBALTIMER: return 1700000000000000000ull + cl->clock * 2;
    case IR_SR_GLOBALTIMER_LO: return (uint32_t)(1700000000000000000ull + cl->clock * 2);
    case IR_SR_GLOBALTIMER_HI: return (uint32_t)((1700000000000000000ull + cl->clock * 2) >> 32);
    case IR_SR_CLUSTERID_X: return cl->id[0];
    case IR_SR_CLUSTERID_Y: return cl->id[1];
    case IR_SR_CLUSTERID_Z: return cl->id[2];
    case IR_SR_NCLUSTERID_X: return p->ncluster[0];
    case IR_SR_NCLUSTERID_Y: return p->ncluster[1];
    case IR_SR_NCLUSTERID_Z: return p->ncluster[2];
    case IR_SR_CLUSTER_CTAID_X: return t->cid[0];
    case IR_SR_CLUSTER_CTAID_Y: return t->cid[1];
    case IR_SR_CLUSTER_CTAID_Z: return t->cid[2];
    case IR_SR_CLUSTER_NCTAID_X: return p->cluster[0];
    case IR_SR_CLUSTER_NCTAID_Y: return p->cluster[1];
    case IR_SR_CLUSTER_NCTAID_Z: return p->cluster[2];
    case IR_SR_CLUSTER_CTARANK: return (uint32_t)t->slot;
    case IR_SR_CLUSTER_NCTARANK: return p->cta_per_cluster;
    case IR_SR_IS_EXPLICIT_CLUSTER:
        return l->cluster[0] || l->cluster[1] || l->cluster[2] || x->c->plan->mod->funcs[p->entry].explicitcluster ||
               p->cta_per_cluster > 1;
    case IR_SR_DYNAMIC_SMEM_SIZE: return l->dyn_smem;
    case IR_SR_TOTAL_SMEM_SIZE: return p->smem_size - MEM_SHARED_RESERVED;
    case IR_SR_AGGR_SMEM_SIZE: return p->smem_size;
    default: return 0;
    }
}

/* Float immediate as the bits of type t. */
static uint64_t fimm_bits(const ir_operand *o, int t)
{
    uint64_t raw = (uint64_t)o->u.imm;
    switch (t) {
    case IR_T_F32:
    case IR_T_TF32:
        if (!(raw >> 32))
            return raw;            /* 0fXXXXXXXX */
        return f2u((float)o->fimm);
    case IR_T_F64:
        if (isnan(o->fimm))
            return raw;
        return d2u(o->fimm);
    case IR_T_F16: return fp_f32_to_f16((float)o->fimm, FP_RN);
    case IR_T_BF16: return fp_f32_to_bf16((float)o->fimm, FP_RN);
    default:
        if (tkind(t) == 'f' || tkind(t) == 'x')
            return raw;
        /* 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX on a bit-size type is a bit
         * pattern (mov.b32 %r, 0f3F800000 puts 0x3f800000 in %r) */
        if (tkind(t) == 'b' && (o->vsel == 'f' || o->vsel == 'd'))
            return raw;
        return (uint64_t)(int64_t)o->fimm;
    }
}

static uint64_t sym_value(X *x, uint32_t sym, uint32_t lane)
{
    int sp;
    uint64_t a = ip_sym_addr(x->c, x->w, (int)lane, sym, &sp);
    const ir_symbol *s = &x->c->plan->mod->syms[sym];
    /* a .func parameter / call-site .param lives in the frame: give its
     * generic local address so ld.param/cvta on it still find it */
    if (sp == IR_SPACE_LOCAL && (s->space == IR_SPACE_PARAM || s->space == IR_SPACE_PARAM_FUNC))
        return MEM_GENERIC_LOCAL + a;
    return a;
}

static inline uint64_t rd(X *x, int k, uint32_t lane, int t)
{
    const ir_operand *o = &x->in->opd[k];
    switch (o->kind) {
    case IR_OPD_REG: {
        uint64_t v = x->regs[o->u.reg * IP_WARP + lane];
        return o->neg ? !v : v;
    }
    case IR_OPD_IMM: return (uint64_t)o->u.imm;
    case IR_OPD_FIMM: return fimm_bits(o, t);
    case IR_OPD_SREG: return sreg(x, o->u.sreg, lane);
    case IR_OPD_SYM: return sym_value(x, o->u.sym, lane);
    default: return 0;
    }
}

static inline void wreg(X *x, uint32_t slot, uint32_t lane, uint64_t v)
{
    x->regs[slot * IP_WARP + lane] = v & x->mask[slot];
}

static inline void wr(X *x, int k, uint32_t lane, uint64_t v)
{
    const ir_operand *o = &x->in->opd[k];
    if (o->kind == IR_OPD_REG)
        wreg(x, o->u.reg, lane, v);
    else if (o->kind == IR_OPD_VEC && o->u.vec.n >= 1) {   /* d|p: first element */
        const ir_operand *e = &x->fn->vecpool[o->u.vec.first];
        if (e->kind == IR_OPD_REG)
            wreg(x, e->u.reg, lane, v);
    }
}

/* second element of a `d|p` pair (predicate output), if any */
static inline void wr_pair2(X *x, int k, uint32_t lane, uint64_t v)
{
    const ir_operand *o = &x->in->opd[k];
    if (o->kind == IR_OPD_VEC && o->u.vec.n >= 2) {
        const ir_operand *e = &x->fn->vecpool[o->u.vec.first + 1];
        if (e->kind == IR_OPD_REG)
            wreg(x, e->u.reg, lane, v);
    }
}

/* ---- integer arithmetic ---------------------------------------------------------- */

static uint64_t sat_s(int64_t v, unsigned bits, bool sat)
{
    if (!sat)
        return (uint64_t)v;
    int64_t hi = bits >= 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1), lo = -hi - 1;
    return (uint64_t)(v > hi ? hi : v < lo ? lo : v);
}

static uint64_t mulhi_u(uint64_t a, uint64_t b, unsigned bits)
{
    if (bits < 64)
        return (a * b) >> bits;
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static uint64_t mulhi_s(int64_t a, int64_t b, unsigned bits)
{
    if (bits < 64)
        return (uint64_t)((a * b) >> bits);
    return (uint64_t)(((__int128)a * b) >> 64);
}

static int exec_int(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    int t = in->types[0];
    unsigned bits = tbits(t);
    bool sg = tkind(t) == 's';
    bool sat = ir_has(in, IR_M_SAT);
    bool hi = ir_has(in, IR_M_HI) || in->cmp == IR_M_HI, wide = ir_has(in, IR_M_WIDE);
    bool cc = ir_has(in, IR_M_CC);
    int op = in->op;
    FOR_LANES(exec, l) {
        uint64_t a = rd(x, 1, l, t), b = in->nopd > 2 ? rd(x, 2, l, t) : 0;
        uint64_t c3 = in->nopd > 3 ? rd(x, 3, l, t) : 0;
        int64_t as = sx(a, bits), bs = sx(b, bits);
        uint64_t au = zx(a, bits), bu = zx(b, bits);
        uint64_t r = 0;
        switch (op) {
        case IR_OP_ADD:
        case IR_OP_ADDC: {
            uint64_t carry = op == IR_OP_ADDC ? (x->w->ccf >> l & 1) : 0;
            if (sat && sg)
                r = sat_s(as + bs, bits, true);
            else
                r = au + bu + carry;
            if (cc || op == IR_OP_ADDC) {
                unsigned __int128 s = (unsigned __int128)au + bu + carry;
                uint32_t co = bits >= 64 ? (uint32_t)(s >> 64) & 1 : (uint32_t)((uint64_t)s >> bits) & 1;
                if (cc)
                    x->w->ccf = (x->w->ccf & ~(1u << l)) | co << l;
            }
            break;
        }
        case IR_OP_SUB:
        case IR_OP_SUBC: {
            uint64_t borrow = op == IR_OP_SUBC ? (x->w->ccf >> l & 1) : 0;
            if (sat && sg)
                r = sat_s(as - bs, bits, true);
            else
                r = au - bu - borrow;
            if (cc) {
                uint32_t bo = (unsigned __int128)au < (unsigned __int128)bu + borrow;
                x->w->ccf = (x->w->ccf & ~(1u << l)) | bo << l;
            }
            break;
        }
        case IR_OP_MUL:
            if (wide)
                r = sg ? (uint64_t)(as * bs) : au * bu;
            else if (hi)
                r = sg ? mulhi_s(as, bs, bits) : mulhi_u(au, bu, bits);
            else
                r = au * bu;
            break;
        case IR_OP_MAD:
        case IR_OP_MADC: {
            int t2 = wide ? (sg ? IR_T_S64 : IR_T_U64) : t;
            uint64_t cv = zx(c3, tbits(t2));
            uint64_t carry = op == IR_OP_MADC ? (x->w->ccf >> l & 1) : 0;
            uint64_t prod;
            if (wide)
                prod = sg ? (uint64_t)(as * bs) : au * bu;
            else if (hi)
                prod = sg ? mulhi_s(as, bs, bits) : mulhi_u(au, bu, bits);
            else
                prod = au * bu;
            if (hi && sat && sg && bits == 32)
                r = sat_s(sx(prod, 32) + sx(cv, 32), 32, true);
            else
                r = prod + cv + carry;
            if (cc) {
                unsigned ob = wide ? 64 : bits;
                unsigned __int128 s = (unsigned __int128)zx(prod, ob) + cv + carry;
                uint32_t co = ob >= 64 ? (uint32_t)(s >> 64) & 1 : (uint32_t)((uint64_t)s >> ob) & 1;
                x->w->ccf = (x->w->ccf & ~(1u << l)) | co << l;
            }
            break;
        }
        case IR_OP_MUL24:
        case IR_OP_MAD24: {
            int64_t a24 = sg ? sx(a, 24) : (int64_t)zx(a, 24), b24 = sg ? sx(b, 24) : (int64_t)zx(b, 24);
            int64_t p = a24 * b24;
            r = hi ? (uint64_t)(p >> 16) : (uint64_t)p;
            if (op == IR_OP_MAD24)
                r = sat && sg ? sat_s(sx(r, 32) + sx(c3, 32), 32, true) : r + c3;
            break;
        }
        case IR_OP_SAD:
            r = (sg ? (uint64_t)(as > bs ? as - bs : bs - as) : (au > bu ? au - bu : bu - au)) + c3;
            break;
        case IR_OP_DIV:
            /* division by zero: the GPU's result is all ones (unsigned) and
             * -1 (signed); INT_MIN / -1 wraps to INT_MIN */
            if (bu == 0)
                r = sg ? (uint64_t)-1 : ~0ull;
            else if (sg)
                r = (bs == -1) ? (uint64_t)(-(uint64_t)as) : (uint64_t)(as / bs);
            else
                r = au / bu;
            break;
        case IR_OP_REM:
            if (bu == 0)      /* H100: x % 0 is all ones (probe_int) */
                r = ~0ull;
            else if (sg)
                r = bs == -1 ? 0 : (uint64_t)(as % bs);
            else
                r = au % bu;
            break;
        case IR_OP_ABS: r = (uint64_t)(as < 0 ? -(uint64_t)as : (uint64_t)as); break;
        case IR_OP_NEG: r = -(uint64_t)a; break;
        case IR_OP_MIN:
            r = sg ? (uint64_t)(as < bs ? as : bs) : (au < bu ? au : bu);
            if (ir_has(in, IR_M_RELU) && sg && (int64_t)sx(r, bits) < 0) r = 0;
            break;
        case IR_OP_MAX:
            r = sg ? (uint64_t)(as > bs ? as : bs) : (au > bu ? au : bu);
            if (ir_has(in, IR_M_RELU) && sg && (int64_t)sx(r, bits) < 0) r = 0;
            break;
        default:
            return unsupported(x, NULL);
        }
        wr(x, 0, l, r);
    }
    return 0;
}

/* ---- bit manipulation ---------------------------------------------------------------- */

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, const ir_instr *in)
{
    uint8_t by[8];
    for (int i = 0; i < 4; i++) {
        by[i] = (uint8_t)(a >> (8 * i));
        by[4 + i] = (uint8_t)(b >> (8 * i));
    }
    uint32_t r = 0;
    if (ir_has(in, IR_M_F4E) || ir_has(in, IR_M_B4E) || ir_has(in, IR_M_RC8) || ir_has(in, IR_M_ECL) ||
        ir_has(in, IR_M_ECR) || ir_has(in, IR_M_RC16)) {
        unsigned s = c & 3;
        int idx[4];
        if (ir_has(in, IR_M_F4E)) for (int i = 0; i < 4; i++) idx[i] = (int)((s + (unsigned)i) & 7);
        else if (ir_has(in, IR_M_B4E)) for (int i = 0; i < 4; i++) idx[i] = (int)((s + 8 - (unsigned)i - 1 + 1 + 7) & 7);
        else if (ir_has(in, IR_M_RC8)) for (int i = 0; i < 4; i++) idx[i] = (int)s;
        else if (ir_has(in, IR_M_ECL)) for (int i = 0; i < 4; i++) idx[i] = (int)((unsigned)i > s ? (unsigned)i : s);
        else if (ir_has(in, IR_M_ECR)) for (int i = 0; i < 4; i++) idx[i] = (int)((unsigned)i < s ? (unsigned)i : s);
        else for (int i = 0; i < 4; i++) idx[i] = (int)(((s & 1) * 2) + (unsigned)(i & 1));
        if (ir_has(in, IR_M_B4E)) {
            static const int tab[4][4] = { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } };
            for (int i = 0; i < 4; i++) idx[i] = tab[s][i];
        }
        for (int i = 0; i < 4; i++)
            r |= (uint32_t)by[idx[i]] << (8 * i);
        return r;
    }
    for (int i = 0; i < 4; i++) {
        unsigned sel = c >> (4 * i) & 15;
        uint8_t v = by[sel & 7];
        if (sel & 8)
            v = (v & 0x80) ? 0xff : 0;
        r |= (uint32_t)v << (8 * i);
    }
    return r;
}

static bool boolop(int op, bool a, bool c);

static int exec_bits(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    int t = in->types[0];
    unsigned bits = tbits(t);
    bool sg = tkind(t) == 's';
    FOR_LANES(exec, l) {
        uint64_t a = rd(x, 1, l, t), b = in->nopd > 2 ? rd(x, 2, l, t) : 0;
        uint64_t r = 0;
        switch (in->op) {
        case IR_OP_AND: r = a & b; break;
        case IR_OP_OR: r = a | b; break;
        case IR_OP_XOR: r = a ^ b; break;
        case IR_OP_NOT: r = t == IR_T_PRED ? !a : ~a; break;
        case IR_OP_CNOT: r = zx(a, bits) == 0; break;
        case IR_OP_SHL: {
            uint64_t n = zx(b, 32);
            r = n >= bits ? 0 : a << n;
            break;
        }
        case IR_OP_SHR: {
            uint64_t n = zx(b, 32);
            if (sg)
                r = (uint64_t)(sx(a, bits) >> (n >= bits ? bits - 1 : n));
            else
                r = n >= bits ? 0 : zx(a, bits) >> n;
            break;
        }
        case IR_OP_POPC: r = (uint64_t)__builtin_popcountll(zx(a, bits)); break;
        case IR_OP_CLZ: {
            uint64_t v = zx(a, bits);
            r = v ? (uint64_t)(__builtin_clzll(v) - (64 - (int)bits)) : bits;
            break;
        }
        case IR_OP_BREV: {
            uint64_t v = zx(a, bits), o = 0;
            for (unsigned i = 0; i < bits; i++)
                o |= (v >> i & 1) << (bits - 1 - i);
            r = o;
            break;
        }
        case IR_OP_BFIND: {
            uint64_t v = zx(a, bits);
            if (sg && sx(a, bits) < 0)
                v = zx(~a, bits);
            if (!v)
                r = 0xffffffffu;
            else {
                unsigned pos = 63 - (unsigned)__builtin_clzll(v);
                r = ir_has(in, IR_M_SHIFTAMT) ? bits - 1 - pos : pos;
            }
            break;
        }
        case IR_OP_BFE: {
            uint32_t pos = (uint32_t)rd(x, 2, l, IR_T_U32) & 0xff, len = (uint32_t)rd(x, 3, l, IR_T_U32) & 0xff;
            uint64_t v = zx(a, bits);
            bool sbit = false;
            if (sg)
                sbit = len == 0 ? false : (pos + len - 1 >= bits ? (v >> (bits - 1) & 1) : (v >> (pos + len - 1) & 1));
            uint64_t o = 0;
            for (unsigned i = 0; i < bits; i++) {
                uint64_t bit;
                if (i < len && pos + i < bits)
                    bit = v >> (pos + i) & 1;
                else
                    bit = sg ? sbit : 0;
                o |= bit << i;
            }
            r = o;
            break;
        }
        case IR_OP_BFI: {
            uint64_t bv = rd(x, 2, l, t);
            uint32_t pos = (uint32_t)rd(x, 3, l, IR_T_U32) & 0xff, len = (uint32_t)rd(x, 4, l, IR_T_U32) & 0xff;
            uint64_t o = zx(bv, bits);
            for (unsigned i = 0; i < len && pos + i < bits; i++)
                o = (o & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
            r = o;
            break;
        }
        case IR_OP_BMSK: {
            uint32_t pos = (uint32_t)a, len = (uint32_t)b;
            if (ir_has(in, IR_M_CLAMP)) {
                pos = pos > 32 ? 32 : pos;
                len = len > 32 ? 32 : len;
            } else {
                pos &= 31;
                len &= 31;
            }
            uint64_t m = (len >= 32 ? 0xffffffffull : ((1ull << len) - 1)) << pos;
            r = m & 0xffffffffu;
            break;
        }
        case IR_OP_SZEXT: {
            uint32_t n = (uint32_t)b;
            n = ir_has(in, IR_M_CLAMP) ? (n > 32 ? 32 : n) : (n & 31);
            if (n == 0)
                r = 0;
            else
                r = sg ? (uint64_t)sx(a, n) : zx(a, n);
            break;
        }
        case IR_OP_PRMT: r = prmt((uint32_t)a, (uint32_t)b, (uint32_t)rd(x, 3, l, IR_T_B32), in); break;
        case IR_OP_SHF: {
            uint32_t lo = (uint32_t)a, hi = (uint32_t)b, n = (uint32_t)rd(x, 3, l, IR_T_U32);
            n = ir_has(in, IR_M_CLAMP) ? (n > 32 ? 32 : n) : (n & 31);
            uint64_t v = (uint64_t)hi << 32 | lo;
            r = ir_has(in, IR_M_L) ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
            break;
        }
        case IR_OP_LOP3: {
            uint64_t cv = rd(x, 3, l, t);
            uint32_t lut = (uint32_t)rd(x, 4, l, IR_T_U32) & 0xff, o = 0;
            for (int i = 0; i < 32; i++) {
                unsigned idx = (unsigned)((a >> i & 1) << 2 | (b >> i & 1) << 1 | (cv >> i & 1));
                o |= (lut >> idx & 1u) << i;
            }
            r = o;
            /* lop3.{or,and}.b32 d|p, a, b, c, lut, q: p = (d != 0) BOOLOP q */
            if (in->nopd > 5)
                wr_pair2(x, 0, l, boolop(ir_has(in, IR_M_AND) ? IR_M_AND : IR_M_OR, o != 0,
                                         rd(x, 5, l, IR_T_PRED) != 0));
            break;
        }
        case IR_OP_FNS: {
            uint32_t mask = (uint32_t)a, base = (uint32_t)b;
            int32_t off = (int32_t)rd(x, 3, l, IR_T_S32);
            uint32_t res = 0xffffffffu;
            if (base > 31)
                ;                      /* H100: no bit found (probe_int) */
            else if (off == 0)
                res = base < 32 && (mask >> base & 1) ? base : 0xffffffffu;
            else if (off > 0) {
                int k = 0;
                for (uint32_t i = base; i < 32; i++)
                    if (mask >> i & 1 && ++k == off) { res = i; break; }
            } else {
                int k = 0;
                for (int i = (int)base; i >= 0; i--)
                    if (mask >> i & 1 && --k == off) { res = (uint32_t)i; break; }
            }
            r = res;
            break;
        }
        case IR_OP_DP4A:
        case IR_OP_DP2A: {
            int ta = in->types[0], tb = in->ntypes > 1 ? in->types[1] : ta;
            bool sa = tkind(ta) == 's', sb = tkind(tb) == 's';
            uint32_t av = (uint32_t)a, bv = (uint32_t)b;
            int64_t acc = sa || sb ? sx(rd(x, 3, l, IR_T_S32), 32) : (int64_t)zx(rd(x, 3, l, IR_T_U32), 32);
            if (in->op == IR_OP_DP4A) {
                for (int i = 0; i < 4; i++) {
                    int64_t ea = sa ? (int8_t)(av >> (8 * i)) : (uint8_t)(av >> (8 * i));
                    int64_t eb = sb ? (int8_t)(bv >> (8 * i)) : (uint8_t)(bv >> (8 * i));
                    acc += ea * eb;
                }
            } else {
                int hiw = ir_has(in, IR_M_HI) || in->cmp == IR_M_HI;
                for (int i = 0; i < 2; i++) {
                    int64_t ea = sa ? (int16_t)(av >> (16 * i)) : (uint16_t)(av >> (16 * i));
                    uint32_t bb = bv >> (16 * hiw + 8 * i);
                    int64_t eb = sb ? (int8_t)bb : (uint8_t)bb;
                    acc += ea * eb;
                }
            }
            r = (uint64_t)acc;
            break;
        }
        default:
            return unsupported(x, NULL);
        }
        wr(x, 0, l, r);
    }
    return 0;
}

/* ---- comparison ---------------------------------------------------------------------- */

static bool cmp_int(int cmp, uint64_t a, uint64_t b, unsigned bits, bool sg)
{
    int64_t as = sx(a, bits), bs = sx(b, bits);
    uint64_t au = zx(a, bits), bu = zx(b, bits);
    switch (cmp) {
    case IR_M_EQ: return au == bu;
    case IR_M_NE: return au != bu;
    case IR_M_LT: return sg ? as < bs : au < bu;
    case IR_M_LE: return sg ? as <= bs : au <= bu;
    case IR_M_GT: return sg ? as > bs : au > bu;
    case IR_M_GE: return sg ? as >= bs : au >= bu;
    case IR_M_LO: return au < bu;
    case IR_M_LS: return au <= bu;
    case IR_M_HI: return au > bu;
    case IR_M_HS: return au >= bu;
    default: return false;
    }
}

static bool cmp_f(int cmp, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (cmp) {
    case IR_M_EQ: return !un && a == b;
    case IR_M_NE: return !un && a != b;
    case IR_M_LT: return !un && a < b;
    case IR_M_LE: return !un && a <= b;
    case IR_M_GT: return !un && a > b;
    case IR_M_GE: return !un && a >= b;
    case IR_M_EQU: return un || a == b;
    case IR_M_NEU: return un || a != b;
    case IR_M_LTU: return un || a < b;
    case IR_M_LEU: return un || a <= b;
    case IR_M_GTU: return un || a > b;
    case IR_M_GEU: return un || a >= b;
    case IR_M_NUM: return !un;
    case IR_M_NAN: return un;
    default: return false;
    }
}

/* value of a float-typed raw operand as double (f16/bf16/f32/f64); .ftz
 * flushes a subnormal f16 or f32 to sign-preserving zero (setp.ftz.f16,
 * setp.ftz.f16x2: PTX ISA 9.7.6.2 "flushes subnormal inputs") */
static double fval(uint64_t v, int t, bool ftz)
{
    switch (t) {
    case IR_T_F16:
        if (ftz && !(v & 0x7c00) && (v & 0x3ff))
            return (v & 0x8000) ? -0.0 : 0.0;
        return fp_f16_to_f32((uint16_t)v);
    case IR_T_BF16: return u2f((uint32_t)(v & 0xffff) << 16);
    case IR_T_F32: {
        float f = u2f((uint32_t)v);
        if (ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        return f;
    }
    case IR_T_F64: return u2d(v);
    default: return (double)v;
    }
}

static bool compare(X *x, int t, uint64_t a, uint64_t b)
{
    char k = tkind(t);
    if (k == 'f')
        return cmp_f(x->in->cmp, fval(a, t, ir_has(x->in, IR_M_FTZ)), fval(b, t, ir_has(x->in, IR_M_FTZ)));
    return cmp_int(x->in->cmp, a, b, tbits(t), k == 's');
}

static bool boolop(int op, bool a, bool c)
{
    switch (op) {
    case IR_M_AND: return a && c;
    case IR_M_OR: return a || c;
    case IR_M_XOR: return a != c;
    default: return a;
    }
}

/* What `set` writes for true in a destination of type dt (PTX ISA 9.7.6.1
 * and 9.7.7.1): 1.0 in a float type, all ones in an integer type; for the
 * packed types, per half (.f16x2 1.0 = 0x3c00, .bf16x2 1.0 = 0x3f80). */
static uint64_t set_true(int dt)
{
    switch (dt) {
    case IR_T_F32: return 0x3f800000u;
    case IR_T_F16: case IR_T_F16X2: return 0x3c00;
    case IR_T_BF16: case IR_T_BF16X2: return 0x3f80;
    default: return ~0ull;
    }
}

/* setp/set on .f16x2 / .bf16x2 (PTX ISA 9.7.7): both halves compared on
 * their own; setp writes the low half's result (BoolOp'ed with c) to p and
 * the high half's to q (not its complement, unlike the scalar forms); set
 * packs one 16-bit result per half: 1.0 in .f16x2 / .bf16x2, 0xffff in
 * .u32 / .s32. */
static int exec_cmp_x2(X *x, uint32_t exec, int t)
{
    const ir_instr *in = x->in;
    int ht = t == IR_T_F16X2 ? IR_T_F16 : IR_T_BF16;
    bool ftz = ir_has(in, IR_M_FTZ);
    int dt = in->types[0];
    uint64_t tv = dt == IR_T_F16X2 || dt == IR_T_BF16X2 ? set_true(dt) : 0xffff;
    FOR_LANES(exec, l) {
        uint64_t a = rd(x, 1, l, t), b = rd(x, 2, l, t);
        bool cpred = in->nopd > 3 ? rd(x, 3, l, IR_T_PRED) != 0 : false;
        bool r[2];
        for (int h = 0; h < 2; h++)
            r[h] = boolop(in->boolop, cmp_f(in->cmp, fval(a >> (16 * h) & 0xffff, ht, ftz),
                                            fval(b >> (16 * h) & 0xffff, ht, ftz)), cpred);
        if (in->op == IR_OP_SETP) {
            wr(x, 0, l, r[0]);
            wr_pair2(x, 0, l, r[1]);
        } else {
            wr(x, 0, l, (r[0] ? tv : 0) | (r[1] ? tv : 0) << 16);
        }
    }
    return 0;
}

static int exec_cmp(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    int t = in->op == IR_OP_SET ? (in->ntypes > 1 ? in->types[1] : in->types[0]) : in->types[0];
    if (in->op == IR_OP_SLCT)
        t = in->ntypes > 1 ? in->types[1] : in->types[0];
    if ((in->op == IR_OP_SETP || in->op == IR_OP_SET) && tkind(t) == 'x') {
        if (t == IR_T_F16X2 || t == IR_T_BF16X2)
            return exec_cmp_x2(x, exec, t);
        return unsupported(x, "on packed types other than .f16x2 / .bf16x2");
    }
    FOR_LANES(exec, l) {
        switch (in->op) {
        case IR_OP_SETP:
        case IR_OP_SET: {
            bool r = compare(x, t, rd(x, 1, l, t), rd(x, 2, l, t));
            bool cpred = in->nopd > 3 ? rd(x, 3, l, IR_T_PRED) != 0 : false;
            bool r1 = boolop(in->boolop, r, cpred);
            bool r2 = boolop(in->boolop, !r, cpred);
            if (in->op == IR_OP_SETP) {
                wr(x, 0, l, r1);
                wr_pair2(x, 0, l, r2);
            } else {
                wr(x, 0, l, r1 ? set_true(in->types[0]) : 0);
            }
            break;
        }
        case IR_OP_SELP: {
            int dt = in->types[0];
            bool p = rd(x, 3, l, IR_T_PRED) != 0;
            wr(x, 0, l, p ? rd(x, 1, l, dt) : rd(x, 2, l, dt));
            break;
        }
        case IR_OP_SLCT: {
            int dt = in->types[0];
            uint64_t cv = rd(x, 3, l, t);
            /* .f32: the float compare c >= 0 (H100, ops_int in tests/hw/ops):
             * -0 selects a, a NaN of either sign selects b, .ftz flushes a
             * subnormal c to zero first */
            bool ge = t == IR_T_F32 ? fval(cv, IR_T_F32, ir_has(in, IR_M_FTZ)) >= 0.0
                                    : sx(cv, 32) >= 0;
            wr(x, 0, l, ge ? rd(x, 1, l, dt) : rd(x, 2, l, dt));
            break;
        }
        default:
            return unsupported(x, NULL);
        }
    }
    return 0;
}

/* ---- floating point ----------------------------------------------------------------- */

static int fe_of(int rnd)
{
    switch (rnd) {
    case IR_M_RZ: case IR_M_RZI: return FE_TOWARDZERO;
    case IR_M_RM: case IR_M_RMI: return FE_DOWNWARD;
    case IR_M_RP: case IR_M_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static int fp_mode_of(int rnd)
{
    switch (rnd) {
    case IR_M_RZ: case IR_M_RZI: return FP_RZ;
    case IR_M_RM: case IR_M_RMI: return FP_RM;
    case IR_M_RP: case IR_M_RPI: return FP_RP;
    case IR_M_RNA: return FP_RNA;
    default: return FP_RN;
    }
}

/* One scalar f32 / f64 operation in the host's FPU under rounding mode `fe`. */
static double fop(int op, double a, double b, double c, bool dbl, int fe)
{
    volatile double va = a, vb = b, vc = c;
    double r;
    if (fe != FE_TONEAREST)
        fesetround(fe);
    if (dbl) {
        switch (op) {
        case IR_OP_ADD: r = va + vb; break;
        case IR_OP_SUB: r = va - vb; break;
        case IR_OP_MUL: r = va * vb; break;
        case IR_OP_DIV: r = va / vb; break;
        case IR_OP_FMA: case IR_OP_MAD: r = fma(va, vb, vc); break;
        case IR_OP_SQRT: r = sqrt(va); break;
        case IR_OP_RCP: r = 1.0 / va; break;
        default: r = 0; break;
        }
    } else {
        volatile float fa = (float)va, fb = (float)vb, fc = (float)vc, fr;
        switch (op) {
        case IR_OP_ADD: fr = fa + fb; break;
        case IR_OP_SUB: fr = fa - fb; break;
        case IR_OP_MUL: fr = fa * fb; break;
        case IR_OP_DIV: fr = fa / fb; break;
        case IR_OP_FMA: case IR_OP_MAD: fr = fmaf(fa, fb, fc); break;
        case IR_OP_SQRT: fr = sqrtf(fa); break;
        case IR_OP_RCP: fr = 1.0f / fa; break;
        default: fr = 0; break;
        }
        r = fr;
    }
    if (fe != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    return r;
}

static uint32_t f32_out(float r, bool ftz, bool sat)
{
    if (isnan(r))
        return sat ? 0 : 0x7fffffffu;
    if (sat)   /* -0 saturates to +0 (probe_f32) */
        r = !(r > 0.0f) ? 0.0f : r > 1.0f ? 1.0f : r;
    if (ftz && fpclassify(r) == FP_SUBNORMAL)
        r = copysignf(0.0f, r);
    return f2u(r);
}

/* f16 / bf16 scalar op: computed in f32 (exact for add/sub/mul of halves
 * up to one rounding; fma in double), rounded once to the 16-bit format.
 * Every NaN result is the canonical 0x7fff, neg and abs of a NaN and
 * min/max.NaN included (H100: neg.f16 / abs.bf16 / max.NaN.bf16 of a NaN
 * give 0x7fff, probe_cvt slot 23). */
static uint16_t hop(int op, int t, uint16_t a, uint16_t b, uint16_t c, int mode, bool ftz, bool sat, bool relu,
                    bool nanp)
{
    double x = t == IR_T_BF16 ? u2f((uint32_t)a << 16) : fp_f16_to_f32(a);
    double y = t == IR_T_BF16 ? u2f((uint32_t)b << 16) : fp_f16_to_f32(b);
    double z = t == IR_T_BF16 ? u2f((uint32_t)c << 16) : fp_f16_to_f32(c);
    (void)ftz;
    double r;
    switch (op) {
    case IR_OP_ADD: r = x + y; break;
    case IR_OP_SUB: r = x - y; break;
    case IR_OP_MUL: r = x * y; break;
    case IR_OP_FMA: case IR_OP_MAD: r = fma(x, y, z); break;
    case IR_OP_NEG: r = -x; break;
    case IR_OP_ABS: r = fabs(x); break;
    case IR_OP_MIN: r = isnan(x) ? y : isnan(y) ? x : (x < y || (x == y && signbit(x))) ? x : y; break;
    case IR_OP_MAX: r = isnan(x) ? y : isnan(y) ? x : (x > y || (x == y && !signbit(x))) ? x : y; break;
    default: r = 0; break;
    }
    if (isnan(x) && (op == IR_OP_NEG || op == IR_OP_ABS))
        return 0x7fff;
    if (op == IR_OP_NEG || op == IR_OP_ABS)
        return op == IR_OP_NEG ? a ^ 0x8000 : a & 0x7fff;
    if (nanp && (op == IR_OP_MIN || op == IR_OP_MAX) && (isnan(x) || isnan(y)))
        return 0x7fff;
    if (isnan(r))
        return 0x7fff;
    if (sat)
        r = r < 0 ? 0 : r > 1 ? 1 : r;
    if (relu && r < 0)
        r = 0;
    return t == IR_T_BF16 ? fp_f64_to_bf16(r, mode) : fp_f64_to_f16(r, mode);
}

/* testp.op on a value already widened to double (v) and, for .subnormal of
 * an f32, its unflushed bits (raw; a double never holds an f32 subnormal
 * as one). */
static bool testp(const ir_instr *in, double v, float raw)
{
    if (ir_has(in, IR_M_TESTP_FINITE)) return isfinite(v);
    if (ir_has(in, IR_M_TESTP_INFINITE)) return isinf(v);
    if (ir_has(in, IR_M_TESTP_NUMBER)) return !isnan(v);
    if (ir_has(in, IR_M_TESTP_NOTANUMBER)) return isnan(v);
    /* .normal holds for zero too: ptxas tests |a| == 0 || (min normal <=
     * |a| < inf) (H100, f32 and f64: testp.normal of -0 is true) */
    if (ir_has(in, IR_M_TESTP_NORMAL))
        return v == 0 || (in->types[0] == IR_T_F64 ? isnormal(v) : isnormal((float)v));
    if (ir_has(in, IR_M_TESTP_SUBNORMAL))
        return in->types[0] == IR_T_F64 ? fpclassify(v) == FP_SUBNORMAL : fpclassify(raw) == FP_SUBNORMAL;
    return false;
}

/* Which NaN operand an f64 instruction passes on (quieted, sign and payload
 * kept) when it has one: H100, every pair and triple of distinct NaNs.
 * add/sub/mul: b, then a (sub does not flip b's sign); fma/mad: b, c, a;
 * div: a, then b; one-operand ops (sqrt, rcp, and abs and neg, which ptxas
 * makes DADDs): a.  probe_f64 holds the pairs. */
static bool f64_nan_operand(int op, int nopd, uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    uint64_t order[3];
    int n = 0;
    if (nopd <= 2)
        order[n++] = a;
    else if (op == IR_OP_DIV) {
        order[n++] = a;
        order[n++] = b;
    } else if (op == IR_OP_FMA || op == IR_OP_MAD) {
        order[n++] = b;
        order[n++] = c;
        order[n++] = a;
    } else {
        order[n++] = b;
        order[n++] = a;
    }
    for (int i = 0; i < n; i++)
        if (fp_f64_isnan(order[i])) {
            *out = fp_f64_quiet(order[i]);
            return true;
        }
    return false;
}

/* min/max.f64: a NaN operand is ignored; of two NaNs b is returned, quieted
 * (probe_f64 slots 5, 6); -0 < +0. */
static uint64_t f64_minmax(int op, uint64_t ua, uint64_t ub)
{
    bool na = fp_f64_isnan(ua), nb = fp_f64_isnan(ub);
    if (nb)
        return na ? fp_f64_quiet(ub) : ua;
    if (na)
        return ub;
    double a = u2d(ua), b = u2d(ub);
    if (a == b)
        return (op == IR_OP_MIN) == (bool)signbit(a) ? ua : ub;
    return (op == IR_OP_MIN) == (a < b) ? ua : ub;
}

/* f64 arithmetic: the host computes the numbers (f64 has no .ftz and the
 * host's IEEE double is the GPU's); NaNs follow f64_nan_operand, and an
 * invalid operation (inf - inf, 0 * inf, 0 / 0, sqrt(-1)) gives
 * FP_F64_DEFAULT_NAN, not the f32 style canonical NaN. */
static int exec_f64(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    int op = in->op, fe = fe_of(in->rnd), t = IR_T_F64;
    FOR_LANES(exec, l) {
        uint64_t ua = rd(x, 1, l, t), ub = in->nopd > 2 ? rd(x, 2, l, t) : 0, uc = in->nopd > 3 ? rd(x, 3, l, t) : 0;
        uint64_t r;
        if (op == IR_OP_MIN || op == IR_OP_MAX) {
            wr(x, 0, l, f64_minmax(op, ua, ub));
            continue;
        }
        if (op == IR_OP_COPYSIGN) {
            wr(x, 0, l, (ub & 0x7fffffffffffffffull) | (ua & 0x8000000000000000ull));
            continue;
        }
        if (op == IR_OP_TESTP) {
            wr(x, 0, l, testp(in, u2d(ua), 0));
            continue;
        }
        /* the special-function unit's forms (sfu/) */
        if (op == IR_OP_RCP && ir_has(in, IR_M_APPROX)) {
            wr(x, 0, l, sfu_rcp_f64(ua));
            continue;
        }
        if (op == IR_OP_RSQRT) {
            wr(x, 0, l, sfu_rsqrt_f64(ua, ir_has(in, IR_M_FTZ)));
            continue;
        }
        if (f64_nan_operand(op, in->nopd, ua, ub, uc, &r)) {
            wr(x, 0, l, r);
            continue;
        }
        double a = u2d(ua), b = u2d(ub), c = u2d(uc), d;
        switch (op) {
        case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL: case IR_OP_FMA: case IR_OP_MAD:
        case IR_OP_DIV: case IR_OP_SQRT: case IR_OP_RCP:
            d = fop(op, a, b, c, true, fe);
            break;
        case IR_OP_SIN: d = sin(a); break;
        case IR_OP_COS: d = cos(a); break;
        case IR_OP_LG2: d = log2(a); break;
        case IR_OP_EX2: d = exp2(a); break;
        case IR_OP_TANH: d = tanh(a); break;
        case IR_OP_ABS: d = fabs(a); break;
        case IR_OP_NEG: d = -a; break;
        default:
            return unsupported(x, NULL);
        }
        wr(x, 0, l, isnan(d) ? FP_F64_DEFAULT_NAN : d2u(d));
    }
    return 0;
}

/* The f32 forms the special-function unit computes (sfu/): the .approx
 * functions and the divisions built on its reciprocal.  Returns false for
 * any other instruction. */
static bool exec_sfu32(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    bool ftz = ir_has(in, IR_M_FTZ), approx = ir_has(in, IR_M_APPROX);
    uint32_t (*f1)(uint32_t, bool) = NULL, (*f2)(uint32_t, uint32_t, bool) = NULL;
    switch (in->op) {
    case IR_OP_RCP: f1 = approx ? sfu_rcp : NULL; break;
    case IR_OP_SQRT: f1 = approx ? sfu_sqrt : NULL; break;
    case IR_OP_RSQRT: f1 = sfu_rsqrt; break;
    case IR_OP_EX2: f1 = sfu_ex2; break;
    case IR_OP_LG2: f1 = sfu_lg2; break;
    case IR_OP_SIN: f1 = sfu_sin; break;
    case IR_OP_COS: f1 = sfu_cos; break;
    case IR_OP_TANH: f1 = sfu_tanh_ftz; break;
    case IR_OP_DIV:
        f2 = approx ? sfu_div_approx : ir_has(in, IR_M_FULL) ? sfu_div_full : NULL;
        if (f2 && in->opd[2].kind == IR_OPD_FIMM) {   /* ptxas: FMULs by constants */
            FOR_LANES(exec, l)
                wr(x, 0, l, sfu_div_imm((uint32_t)rd(x, 1, l, IR_T_F32), (uint32_t)rd(x, 2, l, IR_T_F32), ftz, approx));
            return true;
        }
        break;
    default: break;
    }
    if (f1) {
        FOR_LANES(exec, l)
            wr(x, 0, l, f1((uint32_t)rd(x, 1, l, IR_T_F32), ftz));
    } else if (f2) {
        FOR_LANES(exec, l)
            wr(x, 0, l, f2((uint32_t)rd(x, 1, l, IR_T_F32), (uint32_t)rd(x, 2, l, IR_T_F32), ftz));
    }
    return f1 || f2;
}

/* A contracted add (contract/: ptxas fused the mul before it into one
 * FFMA / DFMA / HFMA2): fma.rn of the mul's operands (opd 1, 2) and the
 * add's other operand (opd 3), with the sign flips of a subtraction or a
 * neg in aux, or div.full's a * rcp(b) + c.  Computed exactly as the same
 * fma from the PTX would be. */
static int exec_fused(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    int t = in->types[0];
    bool ftz = ir_has(in, IR_M_FTZ), sat = ir_has(in, IR_M_SAT);
    uint64_t sign = t == IR_T_F64 ? 1ull << 63 : t == IR_T_F32 ? 1ull << 31
                    : (t == IR_T_F16X2 || t == IR_T_BF16X2) ? 0x80008000u : 0x8000u;
    uint64_t sa = (in->aux & CTR_NEG_PROD) ? sign : 0, sc = (in->aux & CTR_NEG_C) ? sign : 0;
    FOR_LANES(exec, l) {
        uint64_t a = rd(x, 1, l, t) ^ sa, b = rd(x, 2, l, t), c = rd(x, 3, l, t) ^ sc, r;
        switch (t) {
        case IR_T_F32:
            if (!(in->aux & (CTR_DIV_FULL | CTR_DIV_APPROX))) {
                r = f32_out((float)fop(IR_OP_FMA, fval(a, t, ftz), fval(b, t, ftz), fval(c, t, ftz), false,
                                       FE_TONEAREST), ftz, sat);
                break;
            }
            if (in->opd[2].kind == IR_OPD_FIMM)
                r = sfu_div_imm_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, ftz, (in->aux & CTR_DIV_APPROX) != 0);
            else if (in->aux & CTR_DIV_FULL)
                r = sfu_div_full_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, ftz);
            else
                r = sfu_div_approx_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, ftz);
            if (sat)   /* FFMA.SAT */
                r = f32_out(u2f((uint32_t)r), ftz, true);
            break;
        case IR_T_F64:
            if (!f64_nan_operand(IR_OP_FMA, 4, a, b, c, &r)) {
                double d = fop(IR_OP_FMA, u2d(a), u2d(b), u2d(c), true, FE_TONEAREST);
                r = isnan(d) ? FP_F64_DEFAULT_NAN : d2u(d);
            }
            break;
        default: {
            int et = (t == IR_T_BF16 || t == IR_T_BF16X2) ? IR_T_BF16 : IR_T_F16;
            r = hop(IR_OP_FMA, et, (uint16_t)a, (uint16_t)b, (uint16_t)c, FP_RN, ftz, sat, false, false);
            if (t == IR_T_F16X2 || t == IR_T_BF16X2)
                r |= (uint64_t)hop(IR_OP_FMA, et, (uint16_t)(a >> 16), (uint16_t)(b >> 16), (uint16_t)(c >> 16),
                                   FP_RN, ftz, sat, false, false) << 16;
            break;
        }
        }
        wr(x, 0, l, r);
    }
    return 0;
}

static int exec_float(X *x, uint32_t exec)
{
    if (x->in->op == IR_OP_FMA && (x->in->aux & CTR_FUSED))   /* only a contracted add has it */
        return exec_fused(x, exec);
    const ir_instr *in = x->in;
    int t = in->types[0];
    int op = in->op;
    bool ftz = ir_has(in, IR_M_FTZ), sat = ir_has(in, IR_M_SAT);
    int fe = fe_of(in->rnd);
    if (t == IR_T_F16 || t == IR_T_BF16 || t == IR_T_F16X2 || t == IR_T_BF16X2) {
        bool pk = t == IR_T_F16X2 || t == IR_T_BF16X2;
        int et = (t == IR_T_BF16 || t == IR_T_BF16X2) ? IR_T_BF16 : IR_T_F16;
        int mode = fp_mode_of(in->rnd);
        bool relu = ir_has(in, IR_M_RELU), nanp = ir_has(in, IR_M_NANMOD);
        if (op == IR_OP_EX2 || op == IR_OP_TANH) {   /* the special-function unit (sfu/) */
            uint16_t (*h1)(uint16_t) = op == IR_OP_EX2 ? (et == IR_T_BF16 ? sfu_ex2_bf16 : sfu_ex2_f16)
                                                       : (et == IR_T_BF16 ? sfu_tanh_bf16 : sfu_tanh_f16);
            FOR_LANES(exec, l) {
                uint64_t a = rd(x, 1, l, t);
                uint32_t r = h1((uint16_t)a);
                if (pk)
                    r |= (uint32_t)h1((uint16_t)(a >> 16)) << 16;
                wr(x, 0, l, r);
            }
            return 0;
        }
        FOR_LANES(exec, l) {
            uint64_t a = rd(x, 1, l, t), b = in->nopd > 2 ? rd(x, 2, l, t) : 0, c = in->nopd > 3 ? rd(x, 3, l, t) : 0;
            uint32_t r = hop(op, et, (uint16_t)a, (uint16_t)b, (uint16_t)c, mode, ftz, sat, relu, nanp);
            if (pk)
                r |= (uint32_t)hop(op, et, (uint16_t)(a >> 16), (uint16_t)(b >> 16), (uint16_t)(c >> 16), mode, ftz, sat,
                                   relu, nanp) << 16;
            wr(x, 0, l, r);
        }
        return 0;
    }
    if (t == IR_T_F64)
        return exec_f64(x, exec);
    if (t != IR_T_F32)
        return unsupported(x, "on this type");
    if (exec_sfu32(x, exec))
        return 0;
    FOR_LANES(exec, l) {
        double a = fval(rd(x, 1, l, t), t, ftz);
        double b = in->nopd > 2 ? fval(rd(x, 2, l, t), t, ftz) : 0;
        double c = in->nopd > 3 ? fval(rd(x, 3, l, t), t, ftz) : 0;
        double r;
        switch (op) {
        case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL: case IR_OP_FMA: case IR_OP_MAD:
            r = fop(op, a, b, c, false, fe);
            break;
        case IR_OP_DIV: r = fop(op, a, b, c, false, fe); break;
        case IR_OP_SQRT: r = fop(op, a, 0, 0, false, fe); break;
        case IR_OP_RCP: r = fop(op, a, 0, 0, false, fe); break;
        case IR_OP_ABS: case IR_OP_NEG: case IR_OP_COPYSIGN: r = 0; break;
        case IR_OP_MIN:
        case IR_OP_MAX: {
            bool isnan_a = isnan(a), isnan_b = isnan(b);
            if (isnan_a && isnan_b) r = NAN;
            else if (isnan_a) r = b;
            else if (isnan_b) r = a;
            else if (a == b) r = (op == IR_OP_MIN) == (bool)signbit(a) ? a : b;
            else r = (op == IR_OP_MIN) == (a < b) ? a : b;
            if (ir_has(in, IR_M_NANMOD) && (isnan_a || isnan_b)) r = NAN;
            break;
        }
        case IR_OP_TESTP:
            wr(x, 0, l, testp(in, (float)a, u2f((uint32_t)rd(x, 1, l, t))));
            continue;
        default:
            return unsupported(x, NULL);
        }
        if (op == IR_OP_ABS || op == IR_OP_NEG || op == IR_OP_COPYSIGN) {
            uint32_t ua = (uint32_t)rd(x, 1, l, t);
            if (op != IR_OP_COPYSIGN && isnan(u2f(ua))) {   /* FADD -a, -RZ: canonical NaN */
                wr(x, 0, l, 0x7fffffffu);
                continue;
            }
            uint32_t o = op == IR_OP_ABS ? ua & 0x7fffffffu : op == IR_OP_NEG ? ua ^ 0x80000000u
                         : ((uint32_t)rd(x, 2, l, t) & 0x7fffffffu) | (ua & 0x80000000u);
            if (ftz && fpclassify(u2f(o)) == FP_SUBNORMAL)
                o &= 0x80000000u;
            wr(x, 0, l, o);
        } else
            wr(x, 0, l, f32_out((float)r, ftz, sat));
    }
    return 0;
}

/* ---- conversion -------------------------------------------------------------------- */

/* float -> integer.  Out-of-range values saturate.  A NaN gives 0, except
 * into a 64-bit integer and from an f64, where the H100 (F2I.S64/U64,
 * F2I.*.F64) writes the destination's sign bit: cvt.rzi.u64.f32 and
 * cvt.rzi.s64.f64 of NaN are 0x8000000000000000 (probe_cvt slots 9 and 11,
 * probe_f64 slots 12 and 13), cvt.rzi.u8.f64 0x80, cvt.rni.s32.f32 0. */
static uint64_t cvt_to_int(double v, int dt, int st, int rnd)
{
    unsigned bits = tbits(dt);
    bool sg = tkind(dt) == 's';
    if (isnan(v))
        return bits == 64 || st == IR_T_F64 ? 1ull << (bits - 1) : 0;
    switch (rnd) {
    case IR_M_RNI: v = nearbyint(v); break;
    case IR_M_RMI: v = floor(v); break;
    case IR_M_RPI: v = ceil(v); break;
    default: v = trunc(v); break;
    }
    if (sg) {
        double hi = ldexp(1.0, (int)bits - 1);
        if (v >= hi) return zx((uint64_t)(hi == 9223372036854775808.0 ? INT64_MAX : (int64_t)hi - 1), bits);
        if (v < -hi) return zx((uint64_t)(int64_t)(-hi), bits);
        return zx((uint64_t)(int64_t)v, bits);
    }
    double hi = ldexp(1.0, (int)bits);
    if (v <= 0) return 0;
    if (v >= hi) return zx(~0ull, bits);
    return (uint64_t)v;
}

static double int_val(uint64_t v, int st)
{
    return tkind(st) == 's' ? (double)sx(v, tbits(st)) : (double)zx(v, tbits(st));
}

/* The NaN a float -> float cvt writes for a NaN source `a`.  Into f64 and
 * out of f64 the payload and sign survive (quieted); f32 -> f64 too.
 * bf16 -> f32 is a plain shift (F2F is not used), so even a signalling
 * NaN passes unchanged (cvt.f32.bf16 of 0xffff is 0xffff0000, probe_cvt
 * slot 17), while f16 -> f32 (HADD2.F32) and every other narrowing write
 * the canonical NaN. */
static uint64_t cvt_nan(uint64_t a, int st, int dt)
{
    switch (dt) {
    case IR_T_F64:
        switch (st) {
        case IR_T_F64: return fp_f64_quiet(a);
        case IR_T_F32: return fp_f32_nan_to_f64((uint32_t)a);
        case IR_T_BF16: return fp_bf16_nan_to_f64((uint16_t)a);
        default: return fp_f16_nan_to_f64((uint16_t)a);
        }
    case IR_T_F32:
        if (st == IR_T_F64) return fp_f64_nan_to_f32(a);
        if (st == IR_T_BF16) return (uint32_t)(uint16_t)a << 16;
        return 0x7fffffffu;
    case IR_T_F16: return st == IR_T_F64 ? fp_f64_nan_to_f16(a) : 0x7fff;
    case IR_T_BF16: return st == IR_T_F64 ? fp_f64_nan_to_bf16(a) : 0x7fff;
    default: return 0x7fffe000u;   /* tf32 .rn */
    }
}

/* float -> float cvt of the bits `a`; false if the pair is not supported. */
static bool cvt_ff(const ir_instr *in, uint64_t a, int st, int dt, uint64_t *out)
{
    bool ftz = ir_has(in, IR_M_FTZ), sat = ir_has(in, IR_M_SAT), relu = ir_has(in, IR_M_RELU);
    int mode = fp_mode_of(in->rnd);
    bool rint_mode = in->rnd == IR_M_RNI || in->rnd == IR_M_RZI || in->rnd == IR_M_RMI || in->rnd == IR_M_RPI;
    if (dt == IR_T_TF32 && in->rnd == IR_M_RNA) {
        *out = fp_f32_to_tf32_rna((uint32_t)a, ir_has(in, IR_M_SATFINITE));
        return true;
    }
    double v = fval(a, st, ftz);
    if (isnan(v) && !sat) {
        if (dt != IR_T_F64 && dt != IR_T_F32 && dt != IR_T_F16 && dt != IR_T_BF16 && dt != IR_T_TF32)
            return false;
        *out = cvt_nan(a, st, dt);
        return true;
    }
    if (rint_mode)
        v = in->rnd == IR_M_RNI ? nearbyint(v) : in->rnd == IR_M_RZI ? trunc(v) : in->rnd == IR_M_RMI ? floor(v) : ceil(v);
    if (sat)   /* NaN and -0 saturate to +0 */
        v = isnan(v) || !(v > 0) ? 0 : v > 1 ? 1 : v;
    if (relu && !(v > 0))   /* .relu: every negative, -0 too, is +0 (probe_cvt slot 29) */
        v = 0;
    switch (dt) {
    case IR_T_F64: *out = d2u(v); return true;
    case IR_T_F32:
        if (st == IR_T_F64 && !rint_mode) {
            uint32_t r = fp_f64_to_f32_bits(v, mode);
            if (ftz && fpclassify(u2f(r)) == FP_SUBNORMAL) r &= 0x80000000u;
            *out = r;
        } else
            *out = f32_out((float)v, ftz, false);
        return true;
    case IR_T_F16: *out = fp_f64_to_f16(v, mode); return true;
    case IR_T_BF16: *out = fp_f64_to_bf16(v, mode); return true;
    case IR_T_TF32:
        *out = isinf(v) ? (uint32_t)a : fp_f32_to_tf32((float)v, mode);
        return true;
    default: return false;
    }
}

static int exec_cvt_x2(X *x, uint32_t exec);

static int exec_cvt(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    int dt = in->types[0], st = in->ntypes > 1 ? in->types[1] : dt;
    char dk = tkind(dt), sk = tkind(st);
    bool ftz = ir_has(in, IR_M_FTZ), sat = ir_has(in, IR_M_SAT);
    int mode = fp_mode_of(in->rnd);
    if (dk == 'x' || sk == 'x')   /* packed: e4m3x2, e5m2x2, f16x2 ... */
        return exec_cvt_x2(x, exec);
    FOR_LANES(exec, l) {
        uint64_t a = rd(x, 1, l, st), r = 0;
        if (dk != 'f' && sk != 'f') {   /* integer <-> integer */
            unsigned sb = tbits(st), db = tbits(dt);
            int64_t sv = sk == 's' ? sx(a, sb) : (int64_t)zx(a, sb);
            if (sat) {
                if (dk == 's') {
                    int64_t hi = db >= 64 ? INT64_MAX : (int64_t)((1ull << (db - 1)) - 1), lo = -hi - 1;
                    if (sk != 's' && zx(a, sb) > (uint64_t)hi) sv = hi;
                    else sv = sv > hi ? hi : sv < lo ? lo : sv;
                } else {
                    uint64_t hi = db >= 64 ? ~0ull : (1ull << db) - 1;
                    if (sk == 's' && sv < 0) sv = 0;
                    else if ((uint64_t)sv > hi) sv = (int64_t)hi;
                }
            }
            r = dk == 's' ? (uint64_t)sx((uint64_t)sv, db) : zx((uint64_t)sv, db);
        } else if (dk == 'f' && sk == 'f') {
            if (!cvt_ff(in, a, st, dt, &r))
                return unsupported(x, "between these types");
        } else if (dk == 'f') {          /* int -> float */
            double v;
            if (tbits(st) == 64) {
                /* 64-bit integers do not fit a double exactly: round directly */
                r = tkind(st) == 's' ? fp_s64_to_float((int64_t)a, dt, mode) : fp_u64_to_float(a, dt, mode);
                wr(x, 0, l, r);
                continue;
            }
            v = int_val(a, st);
            switch (dt) {
            case IR_T_F64: r = d2u(v); break;
            case IR_T_F32: r = fp_f64_to_f32_bits(v, mode); break;
            case IR_T_F16: r = fp_f64_to_f16(v, mode); break;
            case IR_T_BF16: r = fp_f64_to_bf16(v, mode); break;
            default: return unsupported(x, "between these types");
            }
        } else {                         /* float -> int */
            r = cvt_to_int(fval(a, st, ftz), dt, st, in->rnd);
            if (tkind(dt) == 's')
                r = (uint64_t)sx(r, tbits(dt));
        }
        wr(x, 0, l, r);
    }
    return 0;
}

static int exec_cvt_pack(X *x, uint32_t exec)
{
    /* cvt.pack.sat.{u8,s8,u16,s16}.s32.b32 d, a, b, c (4 operands) or
     * cvt.rn.f16x2.f32 d, a, b / cvt.rn.bf16x2.f32 (handled by cvt with x2) */
    const ir_instr *in = x->in;
    int dt = in->types[0];
    unsigned db = tbits(dt);
    bool sg = tkind(dt) == 's';
    FOR_LANES(exec, l) {
        int64_t a = sx(rd(x, 1, l, IR_T_S32), 32), b = sx(rd(x, 2, l, IR_T_S32), 32);
        int64_t lo = sg ? -(1ll << (db - 1)) : 0, hi = sg ? (1ll << (db - 1)) - 1 : (1ll << db) - 1;
        a = a < lo ? lo : a > hi ? hi : a;
        b = b < lo ? lo : b > hi ? hi : b;
        uint64_t m = (1ull << db) - 1;
        uint64_t r;
        if (in->nopd > 3) {
            uint64_t cv = rd(x, 3, l, IR_T_B32);
            r = (cv << (2 * db)) | ((uint64_t)a & m) << db | ((uint64_t)b & m);
        } else
            r = ((uint64_t)a & m) << db | ((uint64_t)b & m);
        wr(x, 0, l, r);
    }
    return 0;
}

/* One f32 -> f16/bf16 element of F2FP{.RELU}{.SATFINITE}.{F16,BF16}.F32:
 * NaN -> 0x7fff; .relu turns negatives and -0 into +0; .satfinite clamps
 * to the largest finite value, Inf included. */
static uint16_t cvt_h_elem(uint32_t a, bool bf, int mode, bool relu, bool satfinite)
{
    float f = u2f(a);
    if (isnan(f))
        return 0x7fff;
    if (relu && !(f > 0))
        f = 0;
    uint16_t h = bf ? fp_f64_to_bf16(f, mode) : fp_f64_to_f16(f, mode);
    uint16_t inf = bf ? 0x7f80 : 0x7c00;
    if (satfinite && (h & 0x7fff) == inf)
        h = (uint16_t)(h - 1);   /* largest finite of the same sign */
    return h;
}

static int exec_cvt_x2(X *x, uint32_t exec)
{
    /* cvt.rn{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b and
     * cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b: a -> upper half,
     * b -> lower half;  cvt.rn.f16x2.{e4m3x2,e5m2x2} d, a: byte 1 -> upper. */
    const ir_instr *in = x->in;
    int dt = in->types[0], st = in->ntypes > 1 ? in->types[1] : IR_T_F32;
    int mode = fp_mode_of(in->rnd);
    bool relu = ir_has(in, IR_M_RELU), satf = ir_has(in, IR_M_SATFINITE);
    if (dt == IR_T_F16X2 && (st == IR_T_E4M3X2 || st == IR_T_E5M2X2)) {
        FOR_LANES(exec, l) {
            uint32_t v = (uint32_t)rd(x, 1, l, st);
            uint16_t hi = st == IR_T_E4M3X2 ? fp_e4m3_to_f16((uint8_t)(v >> 8)) : fp_e5m2_to_f16((uint8_t)(v >> 8));
            uint16_t lo = st == IR_T_E4M3X2 ? fp_e4m3_to_f16((uint8_t)v) : fp_e5m2_to_f16((uint8_t)v);
            if (relu) {   /* negatives and -0 -> +0; the NaN 0x7fff is positive */
                hi = hi & 0x8000 ? 0 : hi;
                lo = lo & 0x8000 ? 0 : lo;
            }
            wr(x, 0, l, (uint32_t)hi << 16 | lo);
        }
        return 0;
    }
    if (st != IR_T_F32 || in->nopd < 3)
        return unsupported(x, "between these types");
    FOR_LANES(exec, l) {
        uint32_t a = (uint32_t)rd(x, 1, l, IR_T_F32), b = (uint32_t)rd(x, 2, l, IR_T_F32), r;
        switch (dt) {
        case IR_T_F16X2:
        case IR_T_BF16X2: {
            bool bf = dt == IR_T_BF16X2;
            r = (uint32_t)cvt_h_elem(a, bf, mode, relu, satf) << 16 | cvt_h_elem(b, bf, mode, relu, satf);
            break;
        }
        case IR_T_E4M3X2: r = (uint32_t)fp_f32_to_e4m3(a, relu) << 8 | fp_f32_to_e4m3(b, relu); break;
        case IR_T_E5M2X2: r = (uint32_t)fp_f32_to_e5m2(a, relu) << 8 | fp_f32_to_e5m2(b, relu); break;
        default: return unsupported(x, "between these types");
        }
        wr(x, 0, l, r);
    }
    return 0;
}

/* ---- moves ------------------------------------------------------------------------ */

/* mov.b128 (PTX ISA 8.3): a .b128 register is its slot (low 64 bits) and
 * its ip_hi_slot; {a, b} packs / unpacks two .b64 halves, a first (or four
 * .b32 quarters). */
static int exec_mov128(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    const ir_operand *d = &in->opd[0], *s = &in->opd[1];
    unsigned ns = s->kind == IR_OPD_VEC ? s->u.vec.n : 0, nd = d->kind == IR_OPD_VEC ? d->u.vec.n : 0;
    if ((s->kind == IR_OPD_VEC && ns != 2 && ns != 4) || (d->kind == IR_OPD_VEC && nd != 2 && nd != 4) ||
        (s->kind != IR_OPD_VEC && s->kind != IR_OPD_REG) || (d->kind != IR_OPD_VEC && d->kind != IR_OPD_REG))
        return unsupported(x, ".b128 other than between .b128 registers and {2 x .b64 | 4 x .b32}");
    FOR_LANES(exec, l) {
        unsigned __int128 v = 0;
        if (ns) {
            unsigned eb = 128 / ns;
            for (unsigned i = 0; i < ns; i++) {
                const ir_operand *e = &x->fn->vecpool[s->u.vec.first + i];
                uint64_t ev = e->kind == IR_OPD_REG ? x->regs[e->u.reg * IP_WARP + l]
                            : e->kind == IR_OPD_IMM ? (uint64_t)e->u.imm : 0;
                v |= (unsigned __int128)zx(ev, eb) << (eb * i);
            }
        } else {
            const uint64_t *hi = ip_hi_ref(x->c, x->f, s->u.reg, l);
            v = (unsigned __int128)(hi ? *hi : 0) << 64 | x->regs[s->u.reg * IP_WARP + l];
        }
        if (nd) {
            unsigned eb = 128 / nd;
            for (unsigned i = 0; i < nd; i++) {
                const ir_operand *e = &x->fn->vecpool[d->u.vec.first + i];
                if (e->kind == IR_OPD_REG)
                    wreg(x, e->u.reg, l, zx((uint64_t)(v >> (eb * i)), eb));
            }
        } else {
            wreg(x, d->u.reg, l, (uint64_t)v);
            uint64_t *hi = ip_hi_ref(x->c, x->f, d->u.reg, l);
            if (hi)
                *hi = (uint64_t)(v >> 64);
        }
    }
    return 0;
}

static int exec_mov(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    int t = in->types[0];
    const ir_operand *d = &in->opd[0], *s = &in->opd[1];
    unsigned bits = tbits(t);
    if (bits > 64)
        return exec_mov128(x, exec);
    if (s->kind == IR_OPD_VEC) {          /* pack */
        unsigned n = s->u.vec.n, eb = n ? bits / n : bits;
        FOR_LANES(exec, l) {
            uint64_t v = 0;
            for (unsigned i = 0; i < n; i++) {
                const ir_operand *e = &x->fn->vecpool[s->u.vec.first + i];
                uint64_t ev = 0;
                if (e->kind == IR_OPD_REG) ev = x->regs[e->u.reg * IP_WARP + l];
                else if (e->kind == IR_OPD_IMM) ev = (uint64_t)e->u.imm;
                else if (e->kind == IR_OPD_FIMM) ev = fimm_bits(e, eb == 32 ? IR_T_F32 : eb == 16 ? IR_T_F16 : IR_T_F64);
                v |= zx(ev, eb) << (eb * i);
            }
            wr(x, 0, l, v);
        }
        return 0;
    }
    if (d->kind == IR_OPD_VEC && d->vsel != '|') {   /* unpack */
        unsigned n = d->u.vec.n, eb = n ? bits / n : bits;
        FOR_LANES(exec, l) {
            uint64_t v = rd(x, 1, l, t);
            for (unsigned i = 0; i < n; i++) {
                const ir_operand *e = &x->fn->vecpool[d->u.vec.first + i];
                if (e->kind == IR_OPD_REG)
                    wreg(x, e->u.reg, l, zx(v >> (eb * i), eb));
            }
        }
        return 0;
    }
    FOR_LANES(exec, l)
        wr(x, 0, l, rd(x, 1, l, t));
    return 0;
}

/* ---- control flow -------------------------------------------------------------------- */

static void release_chain(ip_warp *w, int fi)
{
    while (fi >= 0) {
        ip_frame_release(w, fi);
        fi = w->frames[fi].parent;
    }
}

static void thread_exit(X *x, uint32_t lane)
{
    release_chain(x->w, x->w->fr[lane]);
    ip_thread_exit(x->c, x->w, (int)lane);
}

/* vprintf(fmt, args): the CUDA device printf.  The format string and the
 * packed argument buffer (each argument aligned to its size) are read
 * through generic addresses; output goes to stdout, one call at a time. */
static uint64_t call_arg(X *x, uint32_t l, unsigned k)
{
    const ir_operand *args = &x->in->opd[2];
    if (args->kind != IR_OPD_VEC || k >= args->u.vec.n)
        return 0;
    const ir_operand *a = &x->fn->vecpool[args->u.vec.first + k];
    if (a->kind == IR_OPD_REG)
        return x->regs[a->u.reg * IP_WARP + l];
    if (a->kind == IR_OPD_SYM) {
        int sp;
        uint64_t sa = ip_sym_addr(x->c, x->w, (int)l, a->u.sym, &sp);
        ip_ptr p = ip_resolve(x->c, x->w, (int)l, sp, sa, 8, 1, "vprintf argument");
        uint64_t v = 0;
        if (p.p)
            memcpy(&v, p.p, 8);
        return v;
    }
    return (uint64_t)a->u.imm;
}

static int exec_vprintf(X *x, uint32_t exec)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    FOR_LANES(x->group & ~exec, l) x->w->pc[l]++;
    FOR_LANES(exec, l) {
        uint64_t fa = call_arg(x, l, 0), aa = call_arg(x, l, 1);
        char fmt[1024], out[4096];
        size_t n = 0, o = 0, ap = 0;
        for (; n + 1 < sizeof fmt; n++) {
            if (!interp_mem_read(x->c, x->w->cta->slot, x->w->id, (int)l, fa + n, &fmt[n], 1))
                return fault(x, (int)l, "vprintf: format string at 0x%llx is not readable", (unsigned long long)fa);
            if (!fmt[n])
                break;
        }
        fmt[n] = 0;
        for (size_t i = 0; fmt[i] && o + 64 < sizeof out; i++) {
            if (fmt[i] != '%' || fmt[i + 1] == '%') {
                out[o++] = fmt[i];
                if (fmt[i] == '%') i++;
                continue;
            }
            char spec[32];
            size_t sl = 0;
            int longs = 0;
            while (fmt[i] && sl < 30) {
                char ch = fmt[i];
                spec[sl++] = ch;
                if (ch == 'l') longs++;
                if (strchr("diouxXcsfFeEgGaAp", ch))
                    break;
                i++;
            }
            spec[sl] = 0;
            char conv = sl ? spec[sl - 1] : 'd';
            unsigned sz = (strchr("fFeEgGaAsp", conv) || longs) ? 8 : 4;
            ap = (ap + sz - 1) / sz * sz;
            uint64_t v = 0;
            interp_mem_read(x->c, x->w->cta->slot, x->w->id, (int)l, aa + ap, &v, sz);
            ap += sz;
            int k;
            if (strchr("fFeEgGaA", conv)) { double d; memcpy(&d, &v, 8); k = snprintf(out + o, sizeof out - o, spec, d); }
            else if (conv == 's') {
                char sbuf[256];
                size_t j = 0;
                for (; j + 1 < sizeof sbuf && interp_mem_read(x->c, x->w->cta->slot, x->w->id, (int)l, v + j, &sbuf[j], 1) && sbuf[j]; j++)
                    ;
                sbuf[j] = 0;
                k = snprintf(out + o, sizeof out - o, "%s", sbuf);
            } else if (conv == 'p') k = snprintf(out + o, sizeof out - o, "0x%llx", (unsigned long long)v);
            else if (sz == 8) {
                char sp2[40];
                snprintf(sp2, sizeof sp2, "%.*sll%c", (int)(sl - 1 - (size_t)longs), spec, conv);
                k = snprintf(out + o, sizeof out - o, sp2, (long long)v);
            } else if (strchr("di", conv)) k = snprintf(out + o, sizeof out - o, spec, (int)(int32_t)v);
            else k = snprintf(out + o, sizeof out - o, spec, (unsigned)v);
            if (k > 0) o += (size_t)k < sizeof out - o ? (size_t)k : sizeof out - o - 1;
        }
        pthread_mutex_lock(&mu);
        FILE *pf = x->c->plan->launch.printf_out ? x->c->plan->launch.printf_out : stdout;
        fwrite(out, 1, o, pf);
        fflush(pf);
        pthread_mutex_unlock(&mu);
        /* return value: the argument count, like the device printf */
        const ir_operand *rets = &x->in->opd[0];
        if (rets->kind == IR_OPD_VEC && rets->u.vec.n) {
            const ir_operand *r0 = &x->fn->vecpool[rets->u.vec.first];
            int sp;
            if (r0->kind == IR_OPD_SYM) {
                uint64_t ra = ip_sym_addr(x->c, x->w, (int)l, r0->u.sym, &sp);
                ip_ptr p = ip_resolve(x->c, x->w, (int)l, sp, ra, 4, 1, "vprintf result");
                if (p.p) { uint32_t v = 1; memcpy(p.p, &v, 4); }
            } else if (r0->kind == IR_OPD_REG)
                wreg(x, r0->u.reg, l, 1);
        }
        x->w->pc[l]++;
    }
    return 1;
}

static int exec_call(X *x, uint32_t exec)
{
    const ir_instr *in = x->in;
    interp_ctx *c = x->c;
    ip_warp *w = x->w;
    const ir_module *m = c->plan->mod;
    if (in->opd[1].kind != IR_OPD_SYM)
        return unsupported(x, "(indirect call)");
    const ir_symbol *fs = &m->syms[in->opd[1].u.sym];
    if (fs->kind != IR_SYM_FUNC || fs->func_index < 0)
        return unsupported(x, "(call through a prototype)");
    int callee = fs->func_index;
    const ir_function *cf = &m->funcs[callee];
    if ((cf->is_decl || !cf->ninstrs) && !strcmp(cf->name, "vprintf"))
        return exec_vprintf(x, exec);
    if (cf->is_decl || !cf->ninstrs) {
        char why[160];
        snprintf(why, sizeof why, "(call to external function %s)", cf->name);
        return unsupported(x, why);
    }
    uint32_t l0 = (uint32_t)__builtin_ctz(x->group);
    int parent = w->fr[l0];
    uint32_t pc = w->pc[l0];
    if (!exec) {
        FOR_LANES(x->group, l) w->pc[l]++;
        return 1;
    }
    if (!ip_local_ensure(c, w))
        return fault(x, (int)l0, "out of host memory for local memory");
    ip_frame *nf = ip_frame_push(c, w, callee, parent);
    if (!nf)
        return fault(x, (int)l0, "call stack too deep (more than 4096 frames in a warp)");
    int nfi = (int)(nf - w->frames);
    /* frames may have moved */
    x->f = &w->frames[parent];
    x->regs = x->f->regs;
    if (nf->local_base + c->plan->frame_bytes[callee] > IP_LOCAL_STACK)
        return fault(x, (int)l0, "local memory stack overflow calling %s (%u bytes per thread)",
                     cf->name, IP_LOCAL_STACK);
    nf->ret_pc = pc + 1;
    nf->call_pc = pc;
    const ir_operand *args = &in->opd[2];
    uint32_t nargs = args->kind == IR_OPD_VEC ? args->u.vec.n : 0;
    FOR_LANES(exec, l) {
        uint8_t *loc = w->local + (size_t)l * IP_LOCAL_STACK;
        for (uint32_t k = 0; k < nargs && k < cf->nparams; k++) {
            const ir_symbol *ps = &m->syms[cf->params[k]];
            uint8_t *dst = loc + nf->local_base + c->plan->symaddr[cf->params[k]];
            const ir_operand *a = &x->fn->vecpool[args->u.vec.first + k];
            uint64_t sz = ps->size ? ps->size : 8;
            if (ps->reg1) {   /* a .reg parameter: straight into the callee's register */
                uint64_t v = 0;
                if (a->kind == IR_OPD_REG)
                    v = x->regs[a->u.reg * IP_WARP + l];
                else if (a->kind == IR_OPD_FIMM)
                    v = fimm_bits(a, ps->type);
                else if (a->kind == IR_OPD_IMM)
                    v = (uint64_t)a->u.imm;
                else
                    return fault(x, (int)l, "argument %u of %s: a .reg parameter takes a register or an immediate",
                                 k + 1, cf->name);
                nf->regs[(ps->reg1 - 1) * IP_WARP + l] = v & c->plan->regmask[callee][ps->reg1 - 1];
                continue;
            }
            if (a->kind == IR_OPD_SYM) {
                int sp;
                uint64_t sa = ip_sym_addr(c, w, (int)l, a->u.sym, &sp);
                const ir_symbol *as = &m->syms[a->u.sym];
                uint64_t n = as->size < sz ? as->size : sz;
                if (sp == IR_SPACE_LOCAL)
                    memcpy(dst, loc + sa, n);
                else {
                    ip_ptr pp = ip_resolve(c, w, (int)l, sp, sa, (uint32_t)n, 1, "call argument");
                    if (!pp.p)
                        return c->res.status;
                    memcpy(dst, pp.p, n);
                }
            } else {
                uint64_t v = a->kind == IR_OPD_REG ? x->regs[a->u.reg * IP_WARP + l]
                           : a->kind == IR_OPD_FIMM ? fimm_bits(a, ps->type) : (uint64_t)a->u.imm;
                memcpy(dst, &v, sz > 8 ? 8 : sz);
            }
        }
        w->fr[l] = (uint16_t)nfi;
        w->pc[l] = 0;
        nf->refs++;
    }
    FOR_LANES(x->group & ~exec, l) w->pc[l]++;
    return 1;
}

static int exec_ret(X *x, uint32_t exec)
{
    interp_ctx *c = x->c;
    ip_warp *w = x->w;
    const ir_module *m = c->plan->mod;
    FOR_LANES(x->group & ~exec, l) w->pc[l]++;
    FOR_LANES(exec, l) {
        int fi = w->fr[l];
        ip_frame *f = &w->frames[fi];
        if (f->parent < 0) {
            thread_exit(x, l);
            continue;
        }
        ip_frame *pf = &w->frames[f->parent];
        const ir_function *cf = &m->funcs[f->func];
        const ir_instr *call = &m->funcs[pf->func].instrs[f->call_pc];
        const ir_function *pfn = &m->funcs[pf->func];
        const ir_operand *rets = &call->opd[0];
        uint32_t nrets = rets->kind == IR_OPD_VEC ? rets->u.vec.n : 0;
        uint8_t *loc = w->local + (size_t)l * IP_LOCAL_STACK;
        for (uint32_t k = 0; k < nrets && k < cf->nrets; k++) {
            const ir_symbol *rs = &m->syms[cf->rets[k]];
            uint8_t *src = loc + f->local_base + c->plan->symaddr[cf->rets[k]];
            const ir_operand *a = &pfn->vecpool[rets->u.vec.first + k];
            uint64_t sz = rs->size ? rs->size : 8;
            if (rs->reg1) {   /* a .reg return parameter: from the callee's register */
                if (a->kind == IR_OPD_REG)
                    pf->regs[a->u.reg * IP_WARP + l] =
                        f->regs[(rs->reg1 - 1) * IP_WARP + l] & c->plan->regmask[pf->func][a->u.reg];
                continue;
            }
            if (a->kind == IR_OPD_SYM) {
                const ir_symbol *as = &m->syms[a->u.sym];
                if (c->plan->symloc[a->u.sym] == IP_LOC_FRAME)
                    memcpy(loc + pf->local_base + c->plan->symaddr[a->u.sym], src, as->size < sz ? as->size : sz);
            } else if (a->kind == IR_OPD_REG) {
                uint64_t v = 0;
                memcpy(&v, src, sz > 8 ? 8 : sz);
                pf->regs[a->u.reg * IP_WARP + l] = v & c->plan->regmask[pf->func][a->u.reg];
            }
        }
        w->fr[l] = (uint16_t)f->parent;
        w->pc[l] = f->ret_pc;
        ip_frame_release(w, fi);
    }
    return 1;
}

/* ---- dispatch ------------------------------------------------------------------------- */

int ip_exec_mem(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec);
int ip_exec_sync(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec);
/* mma.c: mma.sync, ldmatrix, stmatrix, movmatrix; -2 if `in` is none of them */
int ip_exec_warp_mma(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec);

int ip_exec(interp_ctx *c, ip_warp *w, uint32_t group)
{
    uint32_t l0 = (uint32_t)__builtin_ctz(group);
    ip_frame *f = ip_lane_frame(w, (int)l0);
    const ir_function *fn = ip_func(c, f->func);
    uint32_t pc = w->pc[l0];
    c->xfunc = f->func;
    c->xpc = pc;
    if (pc >= fn->ninstrs) {     /* fell off the end of the body: ret */
        X x = { c, w, f, fn, NULL, f->regs, c->plan->regmask[f->func], group };
        static const ir_instr ret_in = { .op = IR_OP_RET, .guard = -1 };
        x.in = &ret_in;
        exec_ret(&x, group);
        return c->res.status;
    }
    const ir_instr *in = &c->plan->xin[f->func][pc];   /* contracted adds are fmas there */
    uint32_t exec = group;
    if (in->guard >= 0) {
        exec = 0;
        FOR_LANES(group, l) {
            bool p = f->regs[(uint32_t)in->guard * IP_WARP + l] != 0;
            if (p != (bool)in->guard_neg)
                exec |= 1u << l;
        }
    }
    X x = { c, w, f, fn, in, f->regs, c->plan->regmask[f->func], group };
    int r = 0;
    if (c->plan->wgacc && c->plan->wgacc[f->func] && c->plan->wgacc[f->func][pc] &&
        ip_wgmma_reg_check(c, w, in, f, exec))
        return c->res.status;
    switch (in->op) {
    case IR_OP_WGMMA_FENCE: case IR_OP_WGMMA_MMA_ASYNC: case IR_OP_WGMMA_COMMIT_GROUP:
    case IR_OP_WGMMA_WAIT_GROUP:
        r = ip_wgmma_exec(c, w, in, f, group, exec);
        return c->res.status;
    case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL: case IR_OP_MAD: case IR_OP_FMA:
    case IR_OP_MIN: case IR_OP_MAX: case IR_OP_ABS: case IR_OP_NEG: case IR_OP_DIV: {
        char k = tkind(in->types[0]);
        if (k == 'f' || k == 'x')
            r = exec_float(&x, exec);
        else if (in->op == IR_OP_FMA)
            r = unsupported(&x, "on integer types");
        else
            r = exec_int(&x, exec);
        break;
    }
    case IR_OP_REM: case IR_OP_MUL24: case IR_OP_MAD24: case IR_OP_SAD:
    case IR_OP_ADDC: case IR_OP_SUBC: case IR_OP_MADC:
        r = exec_int(&x, exec);
        break;
    case IR_OP_RCP: case IR_OP_SQRT: case IR_OP_RSQRT: case IR_OP_SIN: case IR_OP_COS:
    case IR_OP_LG2: case IR_OP_EX2: case IR_OP_TANH: case IR_OP_TESTP: case IR_OP_COPYSIGN:
        r = exec_float(&x, exec);
        break;
    case IR_OP_POPC: case IR_OP_CLZ: case IR_OP_BFIND: case IR_OP_FNS: case IR_OP_BREV:
    case IR_OP_BFE: case IR_OP_BFI: case IR_OP_BMSK: case IR_OP_SZEXT: case IR_OP_PRMT:
    case IR_OP_SHF: case IR_OP_SHL: case IR_OP_SHR: case IR_OP_AND: case IR_OP_OR:
    case IR_OP_XOR: case IR_OP_NOT: case IR_OP_CNOT: case IR_OP_LOP3: case IR_OP_DP4A:
    case IR_OP_DP2A:
        r = exec_bits(&x, exec);
        break;
    case IR_OP_SET: case IR_OP_SETP: case IR_OP_SELP: case IR_OP_SLCT:
        r = exec_cmp(&x, exec);
        break;
    case IR_OP_CVT:
        if (in->types[0] == IR_T_F16X2 || in->types[0] == IR_T_BF16X2)
            r = exec_cvt_x2(&x, exec);
        else
            r = exec_cvt(&x, exec);
        break;
    case IR_OP_CVT_PACK:
        r = exec_cvt_pack(&x, exec);
        break;
    case IR_OP_MOV:
        r = exec_mov(&x, exec);
        break;
    case IR_OP_BRA:
        FOR_LANES(group, l) w->pc[l] = (exec >> l & 1) ? in->opd[0].u.label : w->pc[l] + 1;
        return 0 == c->res.status ? 0 : c->res.status;
    case IR_OP_CALL:
        r = exec_call(&x, exec);
        return r < 0 || c->res.status ? c->res.status : 0;
    case IR_OP_RET:
        exec_ret(&x, exec);
        return c->res.status;
    case IR_OP_EXIT:
        FOR_LANES(group & ~exec, l) w->pc[l]++;
        FOR_LANES(exec, l) thread_exit(&x, l);
        return c->res.status;
    case IR_OP_TRAP:
    case IR_OP_BRKPT:
        if (!exec)
            break;
        return ip_error(c, INTERP_TRAP, w, __builtin_ctz(exec), f->func, pc, "%s executed",
                        ir_ops[in->op].name);
    default:
        r = ip_exec_mem(c, w, in, f, group, exec);
        if (r == -2)
            r = ip_exec_sync(c, w, in, f, group, exec);
        if (r == -2)
            r = ip_exec_warp_mma(c, w, in, f, group, exec);
        if (r == -2)
            r = unsupported(&x, NULL);
        if (r == 1)
            return c->res.status;
        break;
    }
    if (c->res.status)
        return c->res.status;
    FOR_LANES(group, l) w->pc[l]++;
    return 0;
}

uint64_t ip_opd(interp_ctx *c, ip_warp *w, ip_frame *f, const ir_instr *in, int k, uint32_t l)
{
    X x = { c, w, f, ip_func(c, f->func), in, f->regs, c->plan->regmask[f->func], 0 };
    return rd(&x, k, l, in->types[0] ? in->types[0] : IR_T_U64);
}
