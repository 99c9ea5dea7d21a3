/* uop.c — the pre-decoded fast path for the instructions kernels run most.
 *
 * ip_exec (exec.c) is general: per instruction it finds the frame, checks
 * the guard, switches on the opcode, and per lane switches on each
 * operand's kind and on the modifiers.  Most instructions of a hot loop
 * are plain register arithmetic, though, so at plan time (ip_lower) each
 * instruction whose semantics are a pure function of its register inputs
 * is lowered once to an ip_uop: a small kind, its register slots (an
 * immediate becomes a constant slot after the function's registers, filled
 * in every frame by ip_frame_push) and the destination's value mask.
 * ip_exec_fast then runs it for the whole group with loops over all 32
 * lanes of contiguous register rows (regs[slot * 32 + lane]) into a
 * temporary, which the compiler vectorises, and stores the executing lanes.
 * Scalar ld.global / st.global at [reg + offset] are lowered too: every
 * lane's address is checked first (alignment, the global window, inside
 * one allocation, found with a one-entry cache instead of a search per
 * lane); if any lane would fault, nothing is done and ip_exec runs the
 * instruction, so faults keep their messages.  Anything else — other
 * spaces, vectors, barriers, calls, special registers, every modifier not
 * listed below — stays IP_U_GENERIC and goes to ip_exec.
 *
 * Semantics: each uop computes exactly what exec.c's handler computes for
 * the same instruction (the same zero-/sign-extensions of the raw 64-bit
 * register values, the same masking of the result); the lowering rules
 * below only accept the forms where that is a plain formula.  f32
 * arithmetic is IEEE round-to-nearest (PTX .rn, no .ftz/.sat), which is
 * what the GPU computes for every non-NaN result; when any executing lane
 * produces a NaN the uop is abandoned (nothing written yet) and ip_exec
 * runs the instruction, so NaN encodings stay the numerics code's business.
 *
 * PTXI_NO_FASTPATH=1 in the environment turns the lowering off (every
 * instruction through ip_exec) and interp_run's warp bursts (sched.c) with
 * it, which leaves the general path exactly: results must be identical
 * either way (tests/unit/test_interp_uop.c checks it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "interp/internal.h"
#include "contract/contract.h"

enum {
    IP_U_GENERIC = 0,
    IP_U_MOV,        /* d = a */
    IP_U_ADD,        /* d = zx(a) + zx(b) */
    IP_U_SUB,        /* d = zx(a) - zx(b) */
    IP_U_MUL,        /* d = zx(a) * zx(b)                  (.lo) */
    IP_U_MULW,       /* d = ext(a) * ext(b), 64-bit        (.wide; sub: signed) */
    IP_U_MAD,        /* d = zx(a) * zx(b) + zx(c)          (.lo) */
    IP_U_MADW,       /* d = ext(a) * ext(b) + c            (.wide; sub: signed) */
    IP_U_MIN,        /* sub: signed */
    IP_U_MAX,
    IP_U_AND, IP_U_OR, IP_U_XOR,
    IP_U_NOT,        /* ~a */
    IP_U_NOTP,       /* !a (predicates) */
    IP_U_SHL,
    IP_U_SHR,        /* sub: signed (arithmetic) */
    IP_U_SETP,       /* integer compare; sub: comparison, ssg: signed */
    IP_U_SETPF,      /* f32 compare; sub: comparison */
    IP_U_SELP,       /* d = p ? a : b; sub: p negated */
    IP_U_CVTI,       /* integer -> integer: sb/ssg -> db/dsg */
    IP_U_CVTF,       /* 32-bit-or-narrower integer -> f32, round to nearest; ssg */
    IP_U_FADD, IP_U_FSUB, IP_U_FMUL, IP_U_FFMA,   /* f32, .rn */
    IP_U_BRA,
    IP_U_LDG,        /* d = ext(global[a + off]); bits: access width; ssg: signed */
    IP_U_STG,        /* global[a + off] = b */
};

/* Integer comparisons (IP_U_SETP sub). */
enum { C_EQ = 1, C_NE, C_LT, C_LE, C_GT, C_GE, C_LO, C_LS, C_HI, C_HS,
       /* float only */
       C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU, C_NUM, C_NAN };

static inline uint64_t zmask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static inline int64_t sxt(uint64_t v, unsigned bits)
{
    if (bits >= 64 || bits == 0)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= zmask(bits);
    return (int64_t)((v ^ m) - m);
}
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* ---- lowering ------------------------------------------------------------------ */

static bool host_fma(void);

typedef struct lower {
    const ir_function *fn;
    const uint64_t *regmask;
    uint64_t *k;             /* constants of this function */
    uint32_t nk, capk;
    bool oom;
} lower;

static bool konst(lower *lw, uint64_t v, uint32_t *slot)
{
    for (uint32_t i = 0; i < lw->nk; i++)
        if (lw->k[i] == v) {
            *slot = lw->fn->nregs + i;
            return true;
        }
    if (lw->nk == lw->capk) {
        uint32_t cap = lw->capk ? lw->capk * 2 : 8;
        uint64_t *n = realloc(lw->k, cap * sizeof *n);
        if (!n) {
            lw->oom = true;
            return false;
        }
        lw->k = n;
        lw->capk = cap;
    }
    lw->k[lw->nk] = v;
    *slot = lw->fn->nregs + lw->nk++;
    return true;
}

/* A source operand as exec.c's rd() reads it for type t: a register (no
 * negation, no selector), an integer immediate (its raw bits), or an f32
 * immediate written 0fXXXXXXXX (rd gives those bits). */
static bool src(lower *lw, const ir_operand *o, int t, uint32_t *slot)
{
    switch (o->kind) {
    case IR_OPD_REG:
        if (o->neg || o->vsel || o->u.reg >= lw->fn->nregs)
            return false;
        *slot = o->u.reg;
        return true;
    case IR_OPD_IMM:
        return konst(lw, (uint64_t)o->u.imm, slot);
    case IR_OPD_FIMM:
        if (t != IR_T_F32 || ((uint64_t)o->u.imm >> 32))
            return false;
        return konst(lw, (uint64_t)o->u.imm, slot);
    default:
        return false;
    }
}

static bool dst(lower *lw, const ir_operand *o, ip_uop *u)
{
    if (o->kind != IR_OPD_REG || o->u.reg >= lw->fn->nregs)
        return false;
    u->d = o->u.reg;
    u->dmask = lw->regmask[o->u.reg];
    return true;
}

/* Sources 1..n of `in` into u->a, b, c. */
static bool srcs(lower *lw, const ir_instr *in, int n, int t, ip_uop *u)
{
    if (in->nopd != n + 1 || !dst(lw, &in->opd[0], u))
        return false;
    uint32_t s[3] = { 0, 0, 0 };
    for (int k = 0; k < n; k++)
        if (!src(lw, &in->opd[1 + k], t, &s[k]))
            return false;
    u->a = s[0];
    u->b = n > 1 ? s[1] : s[0];
    u->c = n > 2 ? s[2] : s[0];
    return true;
}

static int int_cmp(int m)
{
    switch (m) {
    case IR_M_EQ: return C_EQ;
    case IR_M_NE: return C_NE;
    case IR_M_LT: return C_LT;
    case IR_M_LE: return C_LE;
    case IR_M_GT: return C_GT;
    case IR_M_GE: return C_GE;
    case IR_M_LO: return C_LO;
    case IR_M_LS: return C_LS;
    case IR_M_HI: return C_HI;
    case IR_M_HS: return C_HS;
    default: return 0;
    }
}

static int f_cmp(int m)
{
    switch (m) {
    case IR_M_EQ: return C_EQ;
    case IR_M_NE: return C_NE;
    case IR_M_LT: return C_LT;
    case IR_M_LE: return C_LE;
    case IR_M_GT: return C_GT;
    case IR_M_GE: return C_GE;
    case IR_M_EQU: return C_EQU;
    case IR_M_NEU: return C_NEU;
    case IR_M_LTU: return C_LTU;
    case IR_M_LEU: return C_LEU;
    case IR_M_GTU: return C_GTU;
    case IR_M_GEU: return C_GEU;
    case IR_M_NUM: return C_NUM;
    case IR_M_NAN: return C_NAN;
    default: return 0;
    }
}

static bool is_int(int t)
{
    char k = ir_types[t].kind;
    return t != IR_T_PRED && (k == 's' || k == 'u' || k == 'b') && ir_types[t].bits;
}

/* The uop kind for `in` (0 = generic), filling u.  Each case mirrors the
 * exec.c path ip_exec takes for this opcode and type. */
static int lower_one(lower *lw, const ir_instr *in, ip_uop *u)
{
    int t = in->ntypes ? in->types[0] : IR_T_NONE;
    unsigned bits = ir_types[t].bits;
    bool sg = ir_types[t].kind == 's';
    bool hi = ir_has(in, IR_M_HI) || in->cmp == IR_M_HI;
    bool plain_int = is_int(t) && !ir_has(in, IR_M_SAT) && !ir_has(in, IR_M_CC) && !hi &&
                     !ir_has(in, IR_M_RELU);
    /* f32 arithmetic that is IEEE round-to-nearest */
    bool plain_f32 = t == IR_T_F32 && in->ntypes == 1 && !ir_has(in, IR_M_FTZ) && !ir_has(in, IR_M_SAT) &&
                     (in->rnd == IR_M_NONE || in->rnd == IR_M_RN);
    u->bits = (uint8_t)bits;
    u->sub = sg;
    switch (in->op) {
    case IR_OP_ADD:
        if (plain_int && !ir_has(in, IR_M_WIDE))
            return srcs(lw, in, 2, t, u) ? IP_U_ADD : 0;
        if (plain_f32)
            return srcs(lw, in, 2, t, u) ? IP_U_FADD : 0;
        return 0;
    case IR_OP_SUB:
        if (plain_int && !ir_has(in, IR_M_WIDE))
            return srcs(lw, in, 2, t, u) ? IP_U_SUB : 0;
        if (plain_f32)
            return srcs(lw, in, 2, t, u) ? IP_U_FSUB : 0;
        return 0;
    case IR_OP_MUL:
        if (plain_int && (!ir_has(in, IR_M_WIDE) || bits <= 32))
            return srcs(lw, in, 2, t, u) ? (ir_has(in, IR_M_WIDE) ? IP_U_MULW : IP_U_MUL) : 0;
        if (plain_f32)
            return srcs(lw, in, 2, t, u) ? IP_U_FMUL : 0;
        return 0;
    case IR_OP_MAD:
        if (plain_int && (!ir_has(in, IR_M_WIDE) || bits <= 32))
            return srcs(lw, in, 3, t, u) ? (ir_has(in, IR_M_WIDE) ? IP_U_MADW : IP_U_MAD) : 0;
        return 0;
    case IR_OP_FMA:
        /* a contracted add (contract/): the product or the addend may
         * enter negated (u->off: bit 0, bit 1); div.full's form is not here */
        if (plain_f32 && in->rnd == IR_M_RN && !(in->aux & (CTR_DIV_FULL | CTR_DIV_APPROX))) {
            u->sub = host_fma();
            u->off = ((in->aux & CTR_NEG_PROD) ? 1 : 0) | ((in->aux & CTR_NEG_C) ? 2 : 0);
            return srcs(lw, in, 3, t, u) ? IP_U_FFMA : 0;
        }
        return 0;
    case IR_OP_MIN:
    case IR_OP_MAX:
        if (plain_int && !ir_has(in, IR_M_WIDE))
            return srcs(lw, in, 2, t, u) ? (in->op == IR_OP_MIN ? IP_U_MIN : IP_U_MAX) : 0;
        return 0;
    case IR_OP_AND:
    case IR_OP_OR:
    case IR_OP_XOR:
        if (!is_int(t) && t != IR_T_PRED)
            return 0;
        if (!srcs(lw, in, 2, t, u))
            return 0;
        return in->op == IR_OP_AND ? IP_U_AND : in->op == IR_OP_OR ? IP_U_OR : IP_U_XOR;
    case IR_OP_NOT:
        if (!is_int(t) && t != IR_T_PRED)
            return 0;
        return srcs(lw, in, 1, t, u) ? (t == IR_T_PRED ? IP_U_NOTP : IP_U_NOT) : 0;
    case IR_OP_SHL:
    case IR_OP_SHR:
        if (!is_int(t) || in->ntypes != 1)
            return 0;
        return srcs(lw, in, 2, t, u) ? (in->op == IR_OP_SHL ? IP_U_SHL : IP_U_SHR) : 0;
    case IR_OP_SETP: {
        /* one destination, no combining predicate */
        if (in->nopd != 3 || in->boolop || in->opd[0].kind != IR_OPD_REG)
            return 0;
        int k;
        if (is_int(t) && (k = int_cmp(in->cmp))) {
            if (!srcs(lw, in, 2, t, u))
                return 0;
            u->sub = (uint8_t)k;
            u->ssg = sg;
            return IP_U_SETP;
        }
        if (t == IR_T_F32 && !ir_has(in, IR_M_FTZ) && (k = f_cmp(in->cmp))) {
            if (!srcs(lw, in, 2, t, u))
                return 0;
            u->sub = (uint8_t)k;
            return IP_U_SETPF;
        }
        return 0;
    }
    case IR_OP_SELP: {
        const ir_operand *p = &in->opd[3];
        if (in->nopd != 4 || p->kind != IR_OPD_REG || p->vsel || p->u.reg >= lw->fn->nregs)
            return 0;
        if (!dst(lw, &in->opd[0], u) || !src(lw, &in->opd[1], t, &u->a) || !src(lw, &in->opd[2], t, &u->b))
            return 0;
        u->c = p->u.reg;
        u->sub = p->neg != 0;
        return IP_U_SELP;
    }
    case IR_OP_MOV:
        /* .b128: two slots per register (exec_mov) */
        if (in->opd[1].kind == IR_OPD_VEC || in->opd[0].kind != IR_OPD_REG || bits > 64)
            return 0;
        return srcs(lw, in, 1, t, u) ? IP_U_MOV : 0;
    case IR_OP_CVT: {
        int st = in->ntypes > 1 ? in->types[1] : t;
        if (ir_has(in, IR_M_SAT) || ir_has(in, IR_M_FTZ) || in->ntypes > 2)
            return 0;
        if (is_int(t) && is_int(st) && in->rnd == IR_M_NONE) {
            if (!srcs(lw, in, 1, st, u))
                return 0;
            u->sb = ir_types[st].bits;
            u->ssg = ir_types[st].kind == 's';
            u->db = (uint8_t)bits;
            u->dsg = sg;
            return IP_U_CVTI;
        }
        if (t == IR_T_F32 && (ir_types[st].kind == 's' || ir_types[st].kind == 'u') &&
            ir_types[st].bits && ir_types[st].bits <= 32 && (in->rnd == IR_M_NONE || in->rnd == IR_M_RN)) {
            if (!srcs(lw, in, 1, st, u))
                return 0;
            u->sb = ir_types[st].bits;
            u->ssg = ir_types[st].kind == 's';
            return IP_U_CVTF;
        }
        return 0;
    }
    case IR_OP_LD:
    case IR_OP_ST: {
        /* exec_ld / exec_st (memexec.c) for one scalar in the global space:
         * [%reg + off], no cache-policy operand */
        int ak = in->op == IR_OP_LD ? 1 : 0;
        const ir_operand *ad = &in->opd[ak], *v = &in->opd[1 - ak];
        if (in->nopd != 2 || in->space != IR_SPACE_GLOBAL || (in->vec && in->vec != 1) || in->ntypes != 1 ||
            bits < 8 || bits > 64 || (bits & (bits - 1)))
            return 0;
        if (in->sem && in->sem != IR_M_WEAK)
            return 0;   /* .volatile/.relaxed/...: the grid check counts them (memexec.c) */
        if (ad->kind == IR_OPD_ADDR && ad->u.addr.base_kind == IR_BASE_REG && !ad->u.addr.has_vec &&
            !ad->u.addr.base32 && ad->u.addr.base < lw->fn->nregs) {
            u->a = ad->u.addr.base;
            u->off = ad->u.addr.off;
        } else if (ad->kind == IR_OPD_REG && !ad->neg && !ad->vsel && ad->u.reg < lw->fn->nregs) {
            u->a = ad->u.reg;
            u->off = 0;
        } else {
            return 0;
        }
        u->ssg = sg;
        if (in->op == IR_OP_LD)
            return dst(lw, v, u) ? IP_U_LDG : 0;
        if (v->kind != IR_OPD_REG && v->kind != IR_OPD_IMM)
            return 0;
        return src(lw, v, t, &u->b) ? IP_U_STG : 0;
    }
    case IR_OP_BRA:
        if (in->nopd != 1 || in->opd[0].kind != IR_OPD_LABEL || in->opd[0].u.label > lw->fn->ninstrs)
            return 0;
        u->target = in->opd[0].u.label;
        return IP_U_BRA;
    default:
        return 0;
    }
}

bool ip_lower(ip_plan *p)
{
    const ir_module *m = p->mod;
    p->uops = calloc(m->nfuncs + 1, sizeof *p->uops);
    p->nconst = calloc(m->nfuncs + 1, sizeof *p->nconst);
    p->konst = calloc(m->nfuncs + 1, sizeof *p->konst);
    if (!p->uops || !p->nconst || !p->konst)
        return false;
    const char *off = getenv("PTXI_NO_FASTPATH");
    bool enabled = !(off && *off && strcmp(off, "0"));
    p->fast = enabled;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_function *fn = &m->funcs[f];
        p->uops[f] = calloc(fn->ninstrs + 1, sizeof **p->uops);
        if (!p->uops[f])
            return false;
        if (!enabled)
            continue;
        lower lw = { .fn = fn, .regmask = p->regmask[f] };
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ir_instr *in = &p->xin[f][i];   /* a contracted add is its fma */
            if (p->wgacc && p->wgacc[f] && p->wgacc[f][i])
                continue;   /* wgmma register rules: checked in ip_exec */
            ip_uop u = { 0 };
            uint32_t nk = lw.nk;
            u.kind = (uint8_t)lower_one(&lw, in, &u);
            if (lw.oom) {
                free(lw.k);
                return false;
            }
            if (!u.kind) {
                lw.nk = nk;   /* constants of a rejected instruction are not needed */
                continue;
            }
            u.guard = in->guard;
            u.guard_neg = in->guard_neg != 0;
            if (u.guard >= 0 && (uint32_t)u.guard >= fn->nregs)
                continue;
            p->uops[f][i] = u;
        }
        p->nconst[f] = lw.nk;
        p->konst[f] = lw.k;
    }
    return true;
}

void ip_lower_free(ip_plan *p)
{
    if (p->uops)
        for (uint32_t f = 0; p->mod && f < p->mod->nfuncs; f++)
            free(p->uops[f]);
    if (p->konst)
        for (uint32_t f = 0; p->mod && f < p->mod->nfuncs; f++)
            free(p->konst[f]);
    free(p->uops);
    free(p->konst);
    free(p->nconst);
}

/* ---- execution -------------------------------------------------------------------- */

/* t[l] = expr for every lane l of the row, with a, b, c the lane's source
 * values (unused ones are never loaded). */
#define LANES(expr)                                                  \
    for (int l = 0; l < IP_WARP; l++) {                              \
        uint64_t a = A[l], b = B[l], c = C[l];                       \
        (void)a; (void)b; (void)c;                                   \
        t[l] = (expr);                                               \
    }

static bool cmpi(int k, uint64_t a, uint64_t b, unsigned bits, bool sg)
{
    int64_t as = sxt(a, bits), bs = sxt(b, bits);
    uint64_t au = a & zmask(bits), bu = b & zmask(bits);
    switch (k) {
    case C_EQ: return au == bu;
    case C_NE: return au != bu;
    case C_LT: return sg ? as < bs : au < bu;
    case C_LE: return sg ? as <= bs : au <= bu;
    case C_GT: return sg ? as > bs : au > bu;
    case C_GE: return sg ? as >= bs : au >= bu;
    case C_LO: return au < bu;
    case C_LS: return au <= bu;
    case C_HI: return au > bu;
    default: return au >= bu;   /* C_HS */
    }
}

static bool cmpf(int k, float a, float b)
{
    bool un = isnan(a) || isnan(b);
    switch (k) {
    case C_EQ: return !un && a == b;
    case C_NE: return !un && a != b;
    case C_LT: return !un && a < b;
    case C_LE: return !un && a <= b;
    case C_GT: return !un && a > b;
    case C_GE: return !un && a >= b;
    case C_EQU: return un || a == b;
    case C_NEU: return un || a != b;
    case C_LTU: return un || a < b;
    case C_LEU: return un || a <= b;
    case C_GTU: return un || a > b;
    case C_GEU: return un || a >= b;
    case C_NUM: return !un;
    default: return un;         /* C_NAN */
    }
}

/* fma.rn.f32 for a row: the host's fused multiply-add, inline where the
 * CPU has one (fmaf is a library call otherwise); `hw` was decided at
 * lowering (host_fma). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define HAVE_FMA_CLONE 1
__attribute__((target("fma"))) static void ffma_row_fma(uint64_t *t, const uint64_t *A, const uint64_t *B,
                                                       const uint64_t *C)
{
    LANES(f2u(__builtin_fmaf(u2f((uint32_t)a), u2f((uint32_t)b), u2f((uint32_t)c))))
}
#endif

static bool host_fma(void)
{
#ifdef HAVE_FMA_CLONE
    return __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

static void ffma_row(uint64_t *t, const uint64_t *A, const uint64_t *B, const uint64_t *C, bool hw)
{
#ifdef HAVE_FMA_CLONE
    if (hw) {
        ffma_row_fma(t, A, B, C);
        return;
    }
#endif
    (void)hw;
    LANES(f2u(fmaf(u2f((uint32_t)a), u2f((uint32_t)b), u2f((uint32_t)c))))
}

/* Any executing lane whose f32 result is a NaN?  (|x| + 0x7fffff carries
 * into bit 31 exactly when |x| > 0x7f800000.) */
static bool any_nan(const uint64_t *t, uint32_t ex)
{
    if (ex == 0xffffffffu) {
        uint64_t acc = 0;
        for (int l = 0; l < IP_WARP; l++)
            acc |= (t[l] & 0x7fffffffu) + 0x7fffffu;
        return (acc & 0x80000000u) != 0;
    }
    for (uint32_t m = ex; m; m &= m - 1)
        if ((t[__builtin_ctz(m)] & 0x7fffffffu) > 0x7f800000u)
            return true;
    return false;
}

/* Compute the uop for all 32 lanes and store the lanes of `ex`.  false:
 * nothing was written, run the instruction through ip_exec instead. */
static bool run_uop(const ip_uop *u, uint64_t *R, uint32_t ex)
{
    uint64_t t[IP_WARP] __attribute__((aligned(64)));
    const uint64_t *A = R + (size_t)u->a * IP_WARP, *B = R + (size_t)u->b * IP_WARP,
                   *C = R + (size_t)u->c * IP_WARP;
    const unsigned bits = u->bits;
    const uint64_t z = zmask(bits);
    switch (u->kind) {
    case IP_U_MOV: LANES(a) break;
    case IP_U_ADD: LANES((a & z) + (b & z)) break;
    case IP_U_SUB: LANES((a & z) - (b & z)) break;
    case IP_U_MUL: LANES((a & z) * (b & z)) break;
    case IP_U_MULW:
        if (u->sub)
            LANES((uint64_t)(sxt(a, bits) * sxt(b, bits)))
        else
            LANES((a & z) * (b & z))
        break;
    case IP_U_MAD: LANES((a & z) * (b & z) + (c & z)) break;
    case IP_U_MADW:
        if (u->sub)
            LANES((uint64_t)(sxt(a, bits) * sxt(b, bits)) + c)
        else
            LANES((a & z) * (b & z) + c)
        break;
    case IP_U_MIN:
        if (u->sub)
            LANES((uint64_t)(sxt(a, bits) < sxt(b, bits) ? sxt(a, bits) : sxt(b, bits)))
        else
            LANES((a & z) < (b & z) ? (a & z) : (b & z))
        break;
    case IP_U_MAX:
        if (u->sub)
            LANES((uint64_t)(sxt(a, bits) > sxt(b, bits) ? sxt(a, bits) : sxt(b, bits)))
        else
            LANES((a & z) > (b & z) ? (a & z) : (b & z))
        break;
    case IP_U_AND: LANES(a & b) break;
    case IP_U_OR: LANES(a | b) break;
    case IP_U_XOR: LANES(a ^ b) break;
    case IP_U_NOT: LANES(~a) break;
    case IP_U_NOTP: LANES((uint64_t)!a) break;
    case IP_U_SHL: LANES((b & 0xffffffffu) >= bits ? 0 : a << (b & 0xffffffffu)) break;
    case IP_U_SHR:
        if (u->sub)
            LANES((uint64_t)(sxt(a, bits) >> ((b & 0xffffffffu) >= bits ? bits - 1 : (b & 0xffffffffu))))
        else
            LANES((b & 0xffffffffu) >= bits ? 0 : (a & z) >> (b & 0xffffffffu))
        break;
    case IP_U_SETP: {
        const int k = u->sub;
        const bool sg = u->ssg;
        switch (k) {   /* the common ones with the comparison hoisted out of the loop */
        case C_EQ: LANES((uint64_t)((a & z) == (b & z))) break;
        case C_NE: LANES((uint64_t)((a & z) != (b & z))) break;
        case C_LT:
            if (sg) LANES((uint64_t)(sxt(a, bits) < sxt(b, bits)))
            else LANES((uint64_t)((a & z) < (b & z)))
            break;
        case C_GE:
            if (sg) LANES((uint64_t)(sxt(a, bits) >= sxt(b, bits)))
            else LANES((uint64_t)((a & z) >= (b & z)))
            break;
        default: LANES((uint64_t)cmpi(k, a, b, bits, sg)) break;
        }
        break;
    }
    case IP_U_SETPF: LANES((uint64_t)cmpf(u->sub, u2f((uint32_t)a), u2f((uint32_t)b))) break;
    case IP_U_SELP:
        if (u->sub)
            LANES(c ? b : a)
        else
            LANES(c ? a : b)
        break;
    case IP_U_CVTI: {
        const unsigned sb = u->sb, db = u->db;
        const uint64_t zs = zmask(sb), zd = zmask(db);
        if (u->ssg && u->dsg) LANES((uint64_t)sxt((uint64_t)sxt(a, sb), db))
        else if (u->ssg) LANES((uint64_t)sxt(a, sb) & zd)
        else if (u->dsg) LANES((uint64_t)sxt(a & zs, db))
        else LANES(a & zs & zd)
        break;
    }
    case IP_U_CVTF: {
        const unsigned sb = u->sb;
        const uint64_t zs = zmask(sb);
        /* exact in double, then one rounding to nearest */
        if (u->ssg) LANES((uint64_t)f2u((float)(double)sxt(a, sb)))
        else LANES((uint64_t)f2u((float)(double)(a & zs)))
        break;
    }
    case IP_U_FADD:
        LANES((uint64_t)f2u(u2f((uint32_t)a) + u2f((uint32_t)b)))
        if (any_nan(t, ex))
            return false;
        break;
    case IP_U_FSUB:
        LANES((uint64_t)f2u(u2f((uint32_t)a) - u2f((uint32_t)b)))
        if (any_nan(t, ex))
            return false;
        break;
    case IP_U_FMUL:
        LANES((uint64_t)f2u(u2f((uint32_t)a) * u2f((uint32_t)b)))
        if (any_nan(t, ex))
            return false;
        break;
    case IP_U_FFMA:
        if (u->off) {   /* a contracted sub: flip the signs first */
            uint64_t na[IP_WARP], nc[IP_WARP];
            const uint64_t fa = (u->off & 1) ? 0x80000000u : 0, fc = (u->off & 2) ? 0x80000000u : 0;
            for (int l = 0; l < IP_WARP; l++) {
                na[l] = A[l] ^ fa;
                nc[l] = C[l] ^ fc;
            }
            ffma_row(t, na, B, nc, u->sub);
        } else {
            ffma_row(t, A, B, C, u->sub);
        }
        if (any_nan(t, ex))
            return false;
        break;
    default:
        return false;
    }
    uint64_t *D = R + (size_t)u->d * IP_WARP;
    const uint64_t dm = u->dmask;
    if (ex == 0xffffffffu) {
        for (int l = 0; l < IP_WARP; l++)
            D[l] = t[l] & dm;
    } else {
        for (uint32_t m = ex; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            D[l] = t[l] & dm;
        }
    }
    return true;
}

/* Does allocation `al` hold [lo, hi + es) and lie outside the generic
 * windows (memory/mem.h puts them below every allocation)? */
static bool alloc_holds(const mem_alloc *al, uint64_t lo, uint64_t hi, unsigned es)
{
    static const uint64_t win[] = { MEM_GENERIC_SHARED, MEM_GENERIC_LOCAL, MEM_GENERIC_PARAM };
    if (!al || al->size < es || lo < al->base || hi - al->base > al->size - es)
        return false;
    for (int i = 0; i < 3; i++)
        if (al->base < win[i] + MEM_WINDOW_SIZE && win[i] < al->base + al->size)
            return false;
    return true;
}

/* Host pointers of every executing lane's access, or false if any lane
 * would fault (ip_exec then reports it).  The usual case — every lane in
 * one allocation — costs one look-up for the warp; otherwise each lane is
 * looked up (with a one-entry cache). */
static bool global_ptrs(interp_ctx *c, const ip_uop *u, const uint64_t *R, uint32_t ex, uint8_t **ptr)
{
    const uint64_t *A = R + (size_t)u->a * IP_WARP;
    const uint64_t off = (uint64_t)u->off;
    const unsigned es = u->bits / 8u;
    const mem_global *g = c->plan->launch.gmem;
    uint64_t lo = ~0ull, hi = 0, any = 0;
    for (uint32_t m = ex; m; m &= m - 1) {
        uint64_t a = A[__builtin_ctz(m)] + off;
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        any |= a;
    }
    if (any & (es - 1))
        return false;   /* misaligned */
    const mem_alloc *al = mem_global_find(g, lo);
    if (alloc_holds(al, lo, hi, es)) {
        uint8_t *host = al->host;
        uint64_t base = al->base;
        for (uint32_t m = ex; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            ptr[l] = host + (A[l] + off - base);
        }
        return true;
    }
    al = NULL;
    for (uint32_t m = ex; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = A[l] + off;
        if (!al || a < al->base || a - al->base > al->size - es) {
            al = mem_global_find(g, a);
            if (!alloc_holds(al, a, a, es))
                return false;
        }
        ptr[l] = al->host + (a - al->base);
    }
    return true;
}

static bool run_mem(interp_ctx *c, const ip_uop *u, uint64_t *R, uint32_t ex, const ip_warp *w, int func,
                    uint32_t pc)
{
    uint8_t *ptr[IP_WARP];
    /* with copies in flight, or asynchronous stores the checker tracks
     * (interp/hooks.c), exec_ld / exec_st decide (race checks); so do the
     * stores of a kernel with TMA or bulk copies under the checker (a store
     * may write a tensor map, or what a TMA load reads: ck_gwrite) */
    if (c->nops || ip_ck_gactive(c) || (c->ck && c->plan->gw_note && u->kind != IP_U_LDG) ||
        !global_ptrs(c, u, R, ex, ptr))
        return false;
    const unsigned bits = u->bits;
    if (u->kind == IP_U_LDG) {
        uint64_t *D = R + (size_t)u->d * IP_WARP;
        const uint64_t dm = u->dmask;
        for (uint32_t m = ex; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            uint64_t v = 0;
            switch (bits) {
            case 8: v = *ptr[l]; break;
            case 16: { uint16_t h; memcpy(&h, ptr[l], 2); v = h; break; }
            case 32: { uint32_t h; memcpy(&h, ptr[l], 4); v = h; break; }
            default: memcpy(&v, ptr[l], 8); break;
            }
            if (u->ssg)
                v = (uint64_t)sxt(v, bits);
            D[l] = v & dm;
        }
        return true;
    }
    const uint64_t *V = R + (size_t)u->b * IP_WARP;
    for (uint32_t m = ex; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t v = V[l];
        memcpy(ptr[l], &v, bits / 8u);   /* little-endian host, as exec_st */
    }
    if (c->gw)   /* the grid-wide write check (gridck.c), one record per run of lanes */
        cg_write_warp(c->gw, (uint32_t)func << 20 | (pc & 0xfffff), w->cta->slot, w->id * 32, ex,
                      R + (size_t)u->a * IP_WARP, (uint64_t)u->off, V, bits / 8u);
    /* ip_note_write's count; fast contexts (interp_run) have no watchpoints */
    c->effects += (uint64_t)__builtin_popcount(ex);
    return true;
}

static inline void set_pc(ip_warp *w, uint32_t g, uint32_t pc)
{
    if (g == 0xffffffffu) {
        for (int l = 0; l < IP_WARP; l++)
            w->pc[l] = pc;
    } else {
        for (uint32_t m = g; m; m &= m - 1)
            w->pc[__builtin_ctz(m)] = pc;
    }
}

uint32_t ip_run_uops(interp_ctx *c, ip_warp *w, uint32_t g, uint32_t budget, bool *diverged)
{
    uint32_t l0 = (uint32_t)__builtin_ctz(g);
    const ip_frame *f = &w->frames[w->fr[l0]];
    const ip_plan *p = c->plan;
    const ip_uop *uops = p->uops[f->func];
    const uint32_t n = p->mod->funcs[f->func].ninstrs;
    uint64_t *R = f->regs;
    uint32_t pc = w->pc[l0], k = 0;
    *diverged = false;
    while (k < budget && pc < n) {
        const ip_uop *u = &uops[pc];
        if (u->kind == IP_U_GENERIC)
            break;
        uint32_t ex = g;
        if (u->guard >= 0) {
            const uint64_t *P = R + (size_t)u->guard * IP_WARP;
            uint32_t m = 0;
            for (int l = 0; l < IP_WARP; l++)
                m |= (uint32_t)(P[l] != 0) << l;
            ex = g & (u->guard_neg ? ~m : m);
        }
        if (u->kind == IP_U_BRA) {
            k++;
            if (ex == g) {
                pc = u->target;
                continue;
            }
            if (!ex) {
                pc++;
                continue;
            }
            set_pc(w, ex, u->target);
            set_pc(w, g & ~ex, pc + 1);
            *diverged = true;
            return k;
        }
        if (ex && !(u->kind >= IP_U_LDG ? run_mem(c, u, R, ex, w, f->func, pc) : run_uop(u, R, ex)))
            break;   /* nothing done: the general path runs it */
        pc++;
        k++;
    }
    set_pc(w, g, pc);
    return k;
}

int ip_exec_fast(interp_ctx *c, ip_warp *w, uint32_t g)
{
    uint32_t l0 = (uint32_t)__builtin_ctz(g);
    ip_frame *f = &w->frames[w->fr[l0]];
    uint32_t pc = w->pc[l0];
    const ip_plan *p = c->plan;
    if (pc >= p->mod->funcs[f->func].ninstrs)
        goto generic;
    const ip_uop *u = &p->uops[f->func][pc];
    if (u->kind == IP_U_GENERIC)
        goto generic;
    uint64_t *R = f->regs;
    uint32_t ex = g;
    if (u->guard >= 0) {
        const uint64_t *P = R + (size_t)u->guard * IP_WARP;
        uint32_t m = 0;
        for (int l = 0; l < IP_WARP; l++)
            m |= (uint32_t)(P[l] != 0) << l;
        ex = g & (u->guard_neg ? ~m : m);
    }
    if (u->kind == IP_U_BRA) {
        if (ex == g) {
            set_pc(w, g, u->target);
            return 0;
        }
        if (!ex) {
            set_pc(w, g, pc + 1);
            return 0;
        }
        set_pc(w, ex, u->target);
        set_pc(w, g & ~ex, pc + 1);
        return 1;
    }
    if (u->kind >= IP_U_LDG) {
        if (ex && !run_mem(c, u, R, ex, w, f->func, pc))
            goto generic;
    } else if (ex && !run_uop(u, R, ex)) {
        goto generic;
    }
    set_pc(w, g, pc + 1);
    return 0;
generic:
    return ip_exec(c, w, g) ? -1 : 1;
}
