/* contract.c — ptxas's mul + add contraction, found on the IR.
 *
 * A pair is fused when all of these hold (each one is a rule the SASS
 * survey showed; tests/unit/test_contract.c has a case per rule):
 *   - the add is add/sub with no rounding modifier, on f32, f64, f16, bf16,
 *     f16x2 or bf16x2;
 *   - one of its operands is the destination of a mul of the same type
 *     with no rounding modifier and no .sat (or, for f32, of div.full),
 *     possibly through one neg of the same type;
 *   - that register (and the neg's) has exactly one definition and exactly
 *     one read in the whole function: the product has no other use;
 *   - the mul (neg) and the add are in the same basic block, the mul is not
 *     predicated, and no instruction between them writes the mul's
 *     sources (so that the add can read them again);
 *   - .ftz agrees between the mul and the add (f32);
 *   - when both operands of the add qualify, the first one written is
 *     fused.
 * A register that is written more than once (PTX is not SSA) is never
 * taken for a product: ptxi does not follow definitions that far, which
 * only matters for hand-written PTX (compilers emit one definition per
 * virtual register).
 */
#include <stdlib.h>
#include <string.h>
#include "contract/contract.h"

static bool half_or_float(int t)
{
    switch (t) {
    case IR_T_F32: case IR_T_F64: case IR_T_F16: case IR_T_BF16: case IR_T_F16X2: case IR_T_BF16X2:
        return true;
    default:
        return false;
    }
}

/* add/sub/mul without a rounding modifier, one float type */
static bool loose(const ir_instr *in, int op)
{
    return in->op == op && in->ntypes == 1 && in->rnd == IR_M_NONE && half_or_float(in->types[0]) &&
           in->nopd == 3 && in->opd[0].kind == IR_OPD_REG;
}

static void count_opd(const ir_function *fn, const ir_operand *o, uint32_t *n)
{
    switch (o->kind) {
    case IR_OPD_REG:
        if (o->u.reg < fn->nregs)
            n[o->u.reg]++;
        break;
    case IR_OPD_VEC:
        for (uint32_t i = 0; i < o->u.vec.n && o->u.vec.first + i < fn->nvecpool; i++)
            count_opd(fn, &fn->vecpool[o->u.vec.first + i], n);
        break;
    case IR_OPD_ADDR:
        if (o->u.addr.base_kind == IR_BASE_REG && o->u.addr.base < fn->nregs)
            n[o->u.addr.base]++;
        for (uint32_t i = 0; o->u.addr.has_vec && i < o->u.addr.vec_n; i++)
            if (o->u.addr.vec_first + i < fn->nvecpool)
                count_opd(fn, &fn->vecpool[o->u.addr.vec_first + i], n);
        break;
    default:
        break;
    }
}

/* Does `o` (an instruction's first operand, where PTX puts what it
 * writes) name register r? */
static bool writes(const ir_function *fn, const ir_operand *o, uint32_t r)
{
    if (o->kind == IR_OPD_REG)
        return o->u.reg == r;
    if (o->kind == IR_OPD_VEC)
        for (uint32_t i = 0; i < o->u.vec.n && o->u.vec.first + i < fn->nvecpool; i++)
            if (writes(fn, &fn->vecpool[o->u.vec.first + i], r))
                return true;
    return false;
}

typedef struct {
    const ir_function *fn;
    uint32_t *uses;     /* per register: operands that name it, all instructions */
    uint32_t *def;      /* per register: the instruction whose opd[0] is it, +1; 0 none */
    uint32_t *block;    /* per instruction: basic block number */
} scan;

/* The single definition of register r when r is named exactly twice in
 * the function (that definition and one read), else -1. */
static int64_t single_def(const scan *s, uint32_t r)
{
    if (r >= s->fn->nregs || s->uses[r] != 2 || !s->def[r])
        return -1;
    return (int64_t)s->def[r] - 1;
}

/* No instruction in (from, to) writes a register source of `in`. */
static bool sources_kept(const scan *s, const ir_instr *in, uint32_t from, uint32_t to)
{
    for (uint32_t k = 1; k < in->nopd; k++) {
        const ir_operand *o = &in->opd[k];
        if (o->kind != IR_OPD_REG)
            continue;
        if (o->u.reg == in->opd[0].u.reg)
            return false;
        for (uint32_t i = from + 1; i < to; i++)
            if (s->fn->instrs[i].nopd && writes(s->fn, &s->fn->instrs[i].opd[0], o->u.reg))
                return false;
    }
    return true;
}

/* Operand k of add `ai` as a product: fills p and returns true when the
 * rules hold. */
static bool product(const scan *s, uint32_t ai, int k, ctr_pair *p)
{
    const ir_function *fn = s->fn;
    const ir_instr *add = &fn->instrs[ai];
    const ir_operand *o = &add->opd[k];
    if (o->kind != IR_OPD_REG || o->neg || o->vsel)
        return false;
    int t = add->types[0];
    int64_t mi = single_def(s, o->u.reg);
    uint32_t neg = UINT32_MAX;
    if (mi < 0)
        return false;
    const ir_instr *m = &fn->instrs[mi];
    if (m->op == IR_OP_NEG && m->ntypes == 1 && m->types[0] == t && m->nopd == 2 && m->guard < 0 &&
        m->opd[1].kind == IR_OPD_REG && !m->opd[1].vsel && !ir_has(m, IR_M_FTZ) == !ir_has(add, IR_M_FTZ)) {
        neg = (uint32_t)mi;
        if (s->block[neg] != s->block[ai])
            return false;
        mi = single_def(s, m->opd[1].u.reg);
        if (mi < 0)
            return false;
        m = &fn->instrs[mi];
    }
    if (s->block[mi] != s->block[ai] || (uint32_t)mi > ai || m->guard >= 0)
        return false;
    uint32_t flags = CTR_FUSED;
    if (m->op == IR_OP_DIV && t == IR_T_F32 && m->ntypes == 1 && m->types[0] == t && ir_has(m, IR_M_FULL) &&
        m->nopd == 3)
        flags |= CTR_DIV_FULL;
    else if (!loose(m, IR_OP_MUL) || m->types[0] != t || ir_has(m, IR_M_SAT))
        return false;
    if (!ir_has(m, IR_M_FTZ) != !ir_has(add, IR_M_FTZ))
        return false;
    if (!sources_kept(s, m, (uint32_t)mi, ai))
        return false;
    if (neg != UINT32_MAX)
        flags ^= CTR_NEG_PROD;
    if (add->op == IR_OP_SUB)
        flags ^= k == 1 ? CTR_NEG_C : CTR_NEG_PROD;
    *p = (ctr_pair){ .mul = (uint32_t)mi, .add = ai, .neg = neg, .prod_opd = (uint8_t)k, .flags = flags };
    return true;
}

int ctr_find(const ir_function *fn, ctr_pair **out)
{
    *out = NULL;
    if (!fn->ninstrs)
        return 0;
    scan s = { .fn = fn };
    s.uses = calloc(fn->nregs + 1, sizeof *s.uses);
    s.def = calloc(fn->nregs + 1, sizeof *s.def);
    s.block = calloc(fn->ninstrs + 1, sizeof *s.block);
    uint8_t *leader = calloc(fn->ninstrs + 1, 1);
    ctr_pair *v = NULL;
    int n = 0, cap = 0;
    if (!s.uses || !s.def || !s.block || !leader)
        goto oom;
    for (uint32_t i = 0; i < fn->nlabels; i++)
        if (fn->labels[i].instr < fn->ninstrs)
            leader[fn->labels[i].instr] = 1;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ir_instr *in = &fn->instrs[i];
        switch (in->op) {
        case IR_OP_BRA: case IR_OP_BRX_IDX: case IR_OP_CALL: case IR_OP_RET: case IR_OP_EXIT: case IR_OP_TRAP:
            leader[i + 1] = 1;
            break;
        default:
            break;
        }
        for (uint32_t k = 0; k < in->nopd; k++)
            count_opd(fn, &in->opd[k], s.uses);
        if (in->nopd && in->opd[0].kind == IR_OPD_REG && in->opd[0].u.reg < fn->nregs)
            s.def[in->opd[0].u.reg] = i + 1;
        s.block[i] = (i ? s.block[i - 1] : 0) + (i && leader[i]);
    }
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ir_instr *in = &fn->instrs[i];
        if (!loose(in, IR_OP_ADD) && !loose(in, IR_OP_SUB))
            continue;
        ctr_pair p1, p2, *p = NULL;
        bool q1 = product(&s, i, 1, &p1), q2 = product(&s, i, 2, &p2);
        if (q1 && q2)
            p = p2.mul < p1.mul ? &p2 : &p1;
        else if (q1 || q2)
            p = q1 ? &p1 : &p2;
        if (!p)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            ctr_pair *nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv)
                goto oom;
            v = nv;
        }
        v[n++] = *p;
    }
    free(s.uses);
    free(s.def);
    free(s.block);
    free(leader);
    *out = v;
    return n;
oom:
    free(s.uses);
    free(s.def);
    free(s.block);
    free(leader);
    free(v);
    return -1;
}

static void set_mod(ir_instr *in, int m)
{
    if (in->nmods < IR_MAX_MODS)
        in->mods[in->nmods++] = (uint16_t)m;
    in->modset[m >> 6] |= 1ull << (m & 63);
}

void ctr_fused_instr(const ir_function *fn, const ctr_pair *p, ir_instr *out)
{
    const ir_instr *add = &fn->instrs[p->add], *m = &fn->instrs[p->mul];
    ir_instr f = { 0 };
    f.op = IR_OP_FMA;
    f.ntypes = 1;
    f.types[0] = add->types[0];
    f.guard = add->guard;
    f.guard_neg = add->guard_neg;
    f.loc = add->loc;
    f.rnd = IR_M_RN;
    set_mod(&f, IR_M_RN);
    if (ir_has(add, IR_M_FTZ))
        set_mod(&f, IR_M_FTZ);
    if (ir_has(add, IR_M_SAT))
        set_mod(&f, IR_M_SAT);
    if (p->flags & CTR_DIV_FULL)
        set_mod(&f, IR_M_FULL);
    f.nopd = 4;
    f.opd[0] = add->opd[0];
    f.opd[1] = m->opd[1];
    f.opd[2] = m->opd[2];
    f.opd[3] = add->opd[3 - p->prod_opd];
    f.aux = p->flags;
    *out = f;
}
