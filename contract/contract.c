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

/* ptxas fuses a mul and an add in different basic blocks */
static const bool CROSS_BLOCKS = false;

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
    uint32_t nblocks;
    uint32_t *first;    /* per block: its first instruction (nblocks + 1 entries) */
    uint32_t *succ;     /* per block: up to two successors, UINT32_MAX none */
    uint32_t *pfirst;   /* per block: its predecessors are preds[pfirst[b] .. pfirst[b + 1]) */
    uint32_t *preds;
    uint32_t *stack;    /* nblocks + 1: the searches' work list */
    uint8_t *mark;      /* per block: scratch for the searches */
    bool cfg_ok;        /* no brx.idx: every successor is known */
} scan;

/* Blocks reachable from the successors of block b without entering
 * block `stop`, marked `bit` in s->mark (forward = true), or the blocks
 * from which b is reachable without passing through `stop` (forward =
 * false; b itself not marked unless on a cycle). */
static void reach(const scan *s, uint32_t b, uint32_t stop, uint8_t bit, bool forward)
{
    uint32_t *stack = s->stack, n = 0;
    for (uint32_t i = 0; i < s->nblocks; i++)
        s->mark[i] &= (uint8_t)~bit;
    stack[n++] = b;
    while (n) {
        uint32_t x = stack[--n];
        const uint32_t *next = forward ? &s->succ[2 * x] : &s->preds[s->pfirst[x]];
        uint32_t nn = forward ? 2 : s->pfirst[x + 1] - s->pfirst[x];
        for (uint32_t k = 0; k < nn; k++) {
            uint32_t y = next[k];
            if (y == UINT32_MAX || y == stop || (s->mark[y] & bit))
                continue;
            s->mark[y] |= bit;
            stack[n++] = y;   /* each block is pushed once per search */
        }
    }
}

/* Does any instruction of [lo, hi) write register r? */
static bool written(const scan *s, uint32_t r, uint32_t lo, uint32_t hi)
{
    for (uint32_t i = lo; i < hi; i++)
        if (s->fn->instrs[i].nopd && writes(s->fn, &s->fn->instrs[i].opd[0], r))
            return true;
    return false;
}

/* The mul at mi (block bm) and the add at ai (block ba != bm): every path
 * from the entry to the add passes the mul, and no path from the mul to
 * the add (not through the mul again) writes one of the mul's sources. */
static bool across_blocks(const scan *s, const ir_instr *m, uint32_t mi, uint32_t ai)
{
    uint32_t bm = s->block[mi], ba = s->block[ai];
    if (!s->cfg_ok)
        return false;
    /* dominance: the add's block is not reachable from the entry around bm */
    if (bm != 0) {
        reach(s, 0, bm, 1, true);
        if (ba == 0 || (s->mark[ba] & 1))
            return false;
    }
    reach(s, bm, bm, 2, true);    /* after the mul */
    reach(s, ba, bm, 4, false);   /* before the add */
    for (uint32_t k = 1; k < m->nopd; k++) {
        const ir_operand *o = &m->opd[k];
        if (o->kind != IR_OPD_REG)
            continue;
        if (o->u.reg == m->opd[0].u.reg || written(s, o->u.reg, mi + 1, s->first[bm + 1]) ||
            written(s, o->u.reg, s->first[ba], ai))
            return false;
        /* the add's block whole when a path leaves it after the add and
         * comes back (a loop not through the mul) */
        for (uint32_t b = 0; b < s->nblocks; b++)
            if ((s->mark[b] & 6) == 6 && written(s, o->u.reg, s->first[b], s->first[b + 1]))
                return false;
    }
    return true;
}

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
    if (m->guard >= 0 || (s->block[mi] == s->block[ai] && (uint32_t)mi > ai))
        return false;
    bool same = s->block[mi] == s->block[ai];
    if (!same && !(CROSS_BLOCKS && across_blocks(s, m, (uint32_t)mi, ai)))
        return false;
    uint32_t flags = CTR_FUSED;
    if (m->op == IR_OP_DIV && t == IR_T_F32 && m->ntypes == 1 && m->types[0] == t && ir_has(m, IR_M_FULL) &&
        m->nopd == 3)
        flags |= CTR_DIV_FULL;
    else if (!loose(m, IR_OP_MUL) || m->types[0] != t || ir_has(m, IR_M_SAT))
        return false;
    if (!ir_has(m, IR_M_FTZ) != !ir_has(add, IR_M_FTZ))
        return false;
    if (same && !sources_kept(s, m, (uint32_t)mi, ai))
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
    s.nblocks = s.block[fn->ninstrs - 1] + 1;
    s.first = calloc(s.nblocks + 1, sizeof *s.first);
    s.succ = malloc(2 * (s.nblocks + 1) * sizeof *s.succ);
    s.mark = calloc(s.nblocks + 1, 1);
    if (!s.first || !s.succ || !s.mark)
        goto oom;
    s.cfg_ok = true;
    s.first[s.nblocks] = fn->ninstrs;
    for (uint32_t i = fn->ninstrs; i-- > 0;)
        s.first[s.block[i]] = i;
    for (uint32_t b = 0; b < s.nblocks; b++) {
        const ir_instr *last = &fn->instrs[s.first[b + 1] - 1];
        uint32_t next = b + 1 < s.nblocks ? b + 1 : UINT32_MAX, *su = &s.succ[2 * b];
        su[0] = next;
        su[1] = UINT32_MAX;
        switch (last->op) {
        case IR_OP_BRA:
            if (last->opd[0].kind == IR_OPD_LABEL && last->opd[0].u.label < fn->ninstrs) {
                su[1] = s.block[last->opd[0].u.label];
                if (last->guard < 0)
                    su[0] = UINT32_MAX;
            } else {
                s.cfg_ok = false;
            }
            break;
        case IR_OP_RET: case IR_OP_EXIT: case IR_OP_TRAP:
            if (last->guard < 0)
                su[0] = UINT32_MAX;
            break;
        case IR_OP_BRX_IDX:
            s.cfg_ok = false;
            break;
        default:
            break;
        }
    }
    s.pfirst = calloc(s.nblocks + 2, sizeof *s.pfirst);
    s.preds = malloc((2 * s.nblocks + 1) * sizeof *s.preds);
    s.stack = malloc((s.nblocks + 1) * sizeof *s.stack);
    if (!s.pfirst || !s.preds || !s.stack)
        goto oom;
    for (uint32_t k = 0; k < 2 * s.nblocks; k++)
        if (s.succ[k] != UINT32_MAX)
            s.pfirst[s.succ[k] + 2]++;
    for (uint32_t b = 0; b < s.nblocks; b++)
        s.pfirst[b + 2] += s.pfirst[b + 1];
    for (uint32_t k = 0; k < 2 * s.nblocks; k++)
        if (s.succ[k] != UINT32_MAX)
            s.preds[s.pfirst[s.succ[k] + 1]++] = k / 2;
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
    free(s.first);
    free(s.succ);
    free(s.mark);
    free(s.pfirst);
    free(s.preds);
    free(s.stack);
    free(leader);
    *out = v;
    return n;
oom:
    free(s.uses);
    free(s.def);
    free(s.block);
    free(s.first);
    free(s.succ);
    free(s.mark);
    free(s.pfirst);
    free(s.preds);
    free(s.stack);
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
