/* contract.c — ptxas's mul + add contraction, found on the IR.
 *
 * The rules, as ptxas 13.0 applies them for sm_90a (the pattern kernels of
 * tests/hw/src/contract/gen_patterns.py, SASS with and without --fmad=false
 * and their results on an H100: tests/hw/contract/):
 *
 *   - The add is add/sub with no rounding modifier on f32, f64, f16, bf16,
 *     f16x2 or bf16x2, and one operand is the product of a mul of the same
 *     type with no rounding modifier and no .sat — or, on f32, the quotient
 *     of div.full or div.approx (an FMUL by MUFU.RCP's reciprocal).
 *     `.rn` (any rounding modifier) on either forbids it; .sat on the add
 *     stays (FFMA.SAT, the divisions' too).
 *   - The product may reach the add through mov (copies vanish, also
 *     through a .b32 register) and neg (a sign on the FFMA's operand).
 *   - Every use of the product must be such an add: then each of them is
 *     fused (ptxas repeats the multiply in each FFMA); one other use (a
 *     store, a setp, ex2, abs, the same add reading it twice, an add whose
 *     .ftz differs) and none is.
 *   - .ftz agrees between the multiply (or division) and every add.
 *   - The mul is not predicated (a predicated add is fine).
 *   - The mul and the adds are in one straight run of code: one basic
 *     block, or blocks that follow each other where the first has no other
 *     successor and the second no other predecessor (`bra.uni` to the next
 *     label, a label nothing branches to).  A product used after a
 *     conditional branch is never fused.  A block that only a `bra.uni`
 *     from an earlier block reaches joins that block's run too, even with
 *     other code between them (pattern bra_far).
 *   - When both operands of an add qualify, ptxas fuses the first one and
 *     keeps the other product, rounded, as the addend (patterns chain2*:
 *     whichever mul comes first in the code).
 *
 * What ptxi cannot follow: ptxas works on SSA values, so it fuses even
 * when the PTX writes one of the mul's sources again between the mul and
 * the add (pattern src_redef); ptxi re-reads the sources at the add, so it
 * leaves such a pair unfused (compilers do not emit it: their PTX is SSA).
 * A value defined in one block and read in another is never taken for a
 * product either way.
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

/* add/sub/mul without a rounding modifier, one float type, d = a op b */
static bool loose(const ir_instr *in, int op)
{
    return in->op == op && in->ntypes == 1 && in->rnd == IR_M_NONE && half_or_float(in->types[0]) &&
           in->nopd == 3 && in->opd[0].kind == IR_OPD_REG;
}

/* The multiplications: 0 if `in` is none, else CTR_FUSED plus the form. */
static uint32_t product_form(const ir_instr *in)
{
    if (in->guard >= 0 || in->nopd != 3 || in->opd[0].kind != IR_OPD_REG)
        return 0;
    if (loose(in, IR_OP_MUL) && !ir_has(in, IR_M_SAT))
        return CTR_FUSED;
    if (in->op == IR_OP_DIV && in->ntypes == 1 && in->types[0] == IR_T_F32)
        return ir_has(in, IR_M_FULL) ? CTR_FUSED | CTR_DIV_FULL
             : ir_has(in, IR_M_APPROX) ? CTR_FUSED | CTR_DIV_APPROX : 0;
    return 0;
}

/* A plain copy (mov of a register of the same width) or a neg of type t:
 * 1 copy, 2 neg, 0 neither. */
static int passes(const ir_function *fn, const ir_instr *in, int t)
{
    if (in->guard >= 0 || in->nopd != 2 || in->opd[0].kind != IR_OPD_REG || in->opd[1].kind != IR_OPD_REG ||
        in->opd[1].vsel || in->opd[1].neg || in->opd[1].xsel || in->ntypes != 1)
        return 0;
    if (in->op == IR_OP_NEG)
        return in->types[0] == t ? 2 : 0;
    /* any register type of the width: mov.b32 through a .b32 register too */
    if (in->op == IR_OP_MOV && in->nmods == 0 && ir_types[in->types[0]].bits == ir_types[t].bits &&
        in->opd[0].u.reg < fn->nregs && in->opd[1].u.reg < fn->nregs &&
        ir_types[fn->regs[in->opd[0].u.reg].type].bits == ir_types[t].bits &&
        ir_types[fn->regs[in->opd[1].u.reg].type].bits == ir_types[t].bits)
        return 1;
    return 0;
}

/* ---- values and their uses, inside straight runs of blocks --------------- */

enum { F_UNKNOWN = 0, F_YES, F_NO, F_BUSY };

typedef struct {
    const ir_function *fn;
    uint32_t n;         /* instructions */
    uint32_t *run;      /* per instruction: its straight run of blocks */
    uint32_t *rdef;     /* per instruction, operands 1 and 2: the instruction in the
                           same run that wrote that register last before it, or
                           UINT32_MAX (2 entries per instruction) */
    uint32_t *use1;     /* per instruction: its first use record, UINT32_MAX none */
    uint32_t *unext;    /* per use record: the next of the same value */
    uint32_t *uinstr;   /* per use record: the reading instruction */
    uint8_t *uopd;      /* per use record: the operand (1, 2; 0 = any other place) */
    uint32_t nuse;
    uint8_t *escapes;   /* per instruction: its value may be read outside its run */
    uint8_t *memo;      /* per instruction: F_* (does every use fuse?) */
} scan;

static uint32_t origin(const scan *s, uint32_t ai, int k, int t, uint32_t *neg);

/* Every use of the value written by instruction d (the product `root`, or
 * a copy or neg of it) is an add that can take it, of type t with .ftz
 * `ftz`, and whose other operand is not the same product. */
static bool fuses_everywhere(scan *s, uint32_t d, uint32_t root, int t, bool ftz, int depth)
{
    if (s->memo[d] == F_YES || s->memo[d] == F_NO)
        return s->memo[d] == F_YES;
    if (s->memo[d] == F_BUSY || depth > 8 || s->escapes[d] || s->use1[d] == UINT32_MAX)
        return false;
    s->memo[d] = F_BUSY;
    bool ok = true;
    for (uint32_t u = s->use1[d]; ok && u != UINT32_MAX; u = s->unext[u]) {
        const ir_instr *in = &s->fn->instrs[s->uinstr[u]];
        int k = s->uopd[u];
        if (k == 1 && passes(s->fn, in, t)) {
            ok = fuses_everywhere(s, s->uinstr[u], root, t, ftz, depth + 1);
            continue;
        }
        uint32_t neg = 0;
        ok = (loose(in, IR_OP_ADD) || loose(in, IR_OP_SUB)) && in->types[0] == t && (k == 1 || k == 2) &&
             !in->opd[k].neg && !in->opd[k].vsel && !ir_has(in, IR_M_FTZ) == !ftz &&
             origin(s, s->uinstr[u], 3 - k, t, &neg) != root;   /* not the product twice */
    }
    s->memo[d] = ok ? F_YES : F_NO;
    return ok;
}

/* Operand k of add ai, followed back through copies and negs to a product
 * in the same run: the product's instruction (and *neg toggled for each
 * neg), or UINT32_MAX. */
static uint32_t origin(const scan *s, uint32_t ai, int k, int t, uint32_t *neg)
{
    uint32_t i = ai;
    for (int depth = 0; depth < 9; depth++) {
        uint32_t d = s->rdef[2 * i + (uint32_t)(k - 1)];
        if (d == UINT32_MAX)
            return UINT32_MAX;
        const ir_instr *in = &s->fn->instrs[d];
        int p = passes(s->fn, in, t);
        if (!p)
            return d;
        if (p == 2)
            *neg ^= 1;
        i = d;
        k = 1;
    }
    return UINT32_MAX;
}

/* No instruction in (from, to) writes a register source of `m`. */
static bool sources_kept(const ir_function *fn, const ir_instr *m, uint32_t from, uint32_t to)
{
    for (uint32_t k = 1; k < m->nopd; k++) {
        const ir_operand *o = &m->opd[k];
        if (o->kind != IR_OPD_REG)
            continue;
        if (o->u.reg == m->opd[0].u.reg)
            return false;
        for (uint32_t i = from + 1; i < to; i++) {
            const ir_operand *w = &fn->instrs[i].opd[0];
            if (!fn->instrs[i].nopd)
                continue;
            if (w->kind == IR_OPD_REG && w->u.reg == o->u.reg)
                return false;
            for (uint32_t e = 0; w->kind == IR_OPD_VEC && e < w->u.vec.n; e++)
                if (fn->vecpool[w->u.vec.first + e].kind == IR_OPD_REG &&
                    fn->vecpool[w->u.vec.first + e].u.reg == o->u.reg)
                    return false;
        }
    }
    return true;
}

/* Operand k of add ai as a fused product: fills p. */
static bool candidate(scan *s, uint32_t ai, int k, ctr_pair *p)
{
    const ir_instr *add = &s->fn->instrs[ai];
    const ir_operand *o = &add->opd[k];
    int t = add->types[0];
    if (o->kind != IR_OPD_REG || o->neg || o->vsel)
        return false;
    uint32_t neg = 0, mi = origin(s, ai, k, t, &neg);
    if (mi == UINT32_MAX)
        return false;
    const ir_instr *m = &s->fn->instrs[mi];
    uint32_t flags = product_form(m);
    if (!flags || m->types[0] != t)
        return false;
    if (!fuses_everywhere(s, mi, mi, t, ir_has(m, IR_M_FTZ), 0) || !sources_kept(s->fn, m, mi, ai))
        return false;
    if (neg)
        flags ^= CTR_NEG_PROD;
    if (add->op == IR_OP_SUB)
        flags ^= k == 1 ? CTR_NEG_C : CTR_NEG_PROD;
    *p = (ctr_pair){ .mul = mi, .add = ai, .prod_opd = (uint8_t)k, .flags = flags };
    return true;
}

/* ---- building the scan ------------------------------------------------------- */

static void note_use(scan *s, uint32_t d, uint32_t i, int k)
{
    uint32_t u = s->nuse++;
    s->uinstr[u] = i;
    s->uopd[u] = (uint8_t)k;
    s->unext[u] = UINT32_MAX;
    /* append, so that uses stay in program order */
    if (s->use1[d] == UINT32_MAX) {
        s->use1[d] = u;
        return;
    }
    uint32_t x = s->use1[d];
    while (s->unext[x] != UINT32_MAX)
        x = s->unext[x];
    s->unext[x] = u;
}

typedef struct {
    scan *s;
    uint32_t *last;     /* per register: last writer in the current run */
    uint32_t *stamp;    /* per register: the run `last` belongs to, + 1 */
    uint32_t *outside;  /* per register: reads with no writer before them in their run */
    uint32_t run;
} walk;

/* A read of register r by instruction i (operand k; 0 = not a plain
 * operand 1 or 2). */
static void read_reg(walk *w, uint32_t r, uint32_t i, int k)
{
    if (r >= w->s->fn->nregs)
        return;
    if (w->stamp[r] == w->run + 1)
        note_use(w->s, w->last[r], i, k);
    else
        w->outside[r]++;
}

static void read_opd(walk *w, const ir_operand *o, uint32_t i, int k)
{
    const ir_function *fn = w->s->fn;
    switch (o->kind) {
    case IR_OPD_REG:
        read_reg(w, o->u.reg, i, k);
        break;
    case IR_OPD_VEC:
        for (uint32_t e = 0; e < o->u.vec.n && o->u.vec.first + e < fn->nvecpool; e++)
            read_opd(w, &fn->vecpool[o->u.vec.first + e], i, 0);
        break;
    case IR_OPD_ADDR:
        if (o->u.addr.base_kind == IR_BASE_REG)
            read_reg(w, o->u.addr.base, i, 0);
        for (uint32_t e = 0; o->u.addr.has_vec && e < o->u.addr.vec_n; e++)
            if (o->u.addr.vec_first + e < fn->nvecpool)
                read_opd(w, &fn->vecpool[o->u.addr.vec_first + e], i, 0);
        break;
    default:
        break;
    }
}

static void write_reg(walk *w, uint32_t r, uint32_t i)
{
    if (r >= w->s->fn->nregs)
        return;
    w->last[r] = i;
    w->stamp[r] = w->run + 1;
}

/* Straight runs: a block joins the one before it when that one's only
 * successor is this block and this block's only predecessor is that one. */
static bool runs(const ir_function *fn, uint32_t *run)
{
    uint32_t n = fn->ninstrs;
    uint8_t *leader = calloc(n + 1, 1);
    uint32_t *npred = calloc(n + 1, sizeof *npred);   /* per leader instruction */
    uint32_t *nsucc = calloc(n + 1, sizeof *nsucc);   /* per block-ending instruction */
    uint32_t *from = malloc((n + 1) * sizeof *from);  /* per leader: the bra to it */
    if (!leader || !npred || !nsucc || !from) {
        free(leader);
        free(npred);
        free(nsucc);
        free(from);
        return false;
    }
    for (uint32_t i = 0; i <= n; i++)
        from[i] = UINT32_MAX;
    leader[0] = 1;
    for (uint32_t i = 0; i < fn->nlabels; i++)
        if (fn->labels[i].instr < n)
            leader[fn->labels[i].instr] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = &fn->instrs[i];
        switch (in->op) {
        case IR_OP_BRA: case IR_OP_BRX_IDX: case IR_OP_CALL: case IR_OP_RET: case IR_OP_EXIT: case IR_OP_TRAP:
            leader[i + 1] = 1;
            break;
        default:
            break;
        }
    }
    /* edges: fall-through from i to i + 1 unless i ends with an
     * unconditional jump or return; a branch to its label */
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = &fn->instrs[i];
        bool ends = leader[i + 1] || i + 1 == n;
        if (in->op == IR_OP_BRA) {
            uint32_t tgt = in->opd[0].kind == IR_OPD_LABEL ? in->opd[0].u.label : UINT32_MAX;
            if (tgt < n) {
                npred[tgt]++;
                nsucc[i]++;
                from[tgt] = in->guard < 0 ? i : UINT32_MAX;
            } else {
                nsucc[i] += 2;   /* unknown: no merging */
            }
            if (in->guard >= 0 && i + 1 < n && tgt != i + 1) {
                npred[i + 1]++;
                nsucc[i]++;
            }
        } else if (in->op == IR_OP_BRX_IDX) {
            nsucc[i] += 2;
            if (i + 1 < n)
                npred[i + 1] += 2;
        } else if ((in->op == IR_OP_RET || in->op == IR_OP_EXIT || in->op == IR_OP_TRAP) && in->guard < 0) {
            /* no successor */
        } else if (ends && i + 1 < n) {
            npred[i + 1]++;
            nsucc[i]++;
        }
    }
    /* a block that only an unguarded bra from an earlier block reaches, the
     * branch being that block's only way out, continues that block's run
     * even when other code lies between them (ptxas joins them: bra_far);
     * the scans over instruction indices between a mul and its add then
     * only see more code than runs, which can only refuse a pair */
    uint32_t r = 0, next = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i && leader[i]) {
            const ir_instr *p = &fn->instrs[i - 1];
            if (npred[i] == 1 && nsucc[i - 1] == 1 && (p->op != IR_OP_BRA || p->opd[0].u.label == i)) {
                /* falls into it, or jumps right to it: the same run */
            } else if (npred[i] == 1 && from[i] != UINT32_MAX && from[i] < i && nsucc[from[i]] == 1) {
                r = run[from[i]];
            } else {
                r = ++next;
            }
        }
        run[i] = r;
    }
    free(leader);
    free(npred);
    free(nsucc);
    free(from);
    return true;
}

static void scan_free(scan *s, walk *w)
{
    free(s->run);
    free(s->rdef);
    free(s->use1);
    free(s->unext);
    free(s->uinstr);
    free(s->uopd);
    free(s->escapes);
    free(s->memo);
    free(w->last);
    free(w->stamp);
    free(w->outside);
}

static uint32_t count_mentions(const ir_function *fn, const ir_operand *o)
{
    switch (o->kind) {
    case IR_OPD_REG: return 1;
    case IR_OPD_VEC: return o->u.vec.n;
    case IR_OPD_ADDR: return 1 + (o->u.addr.has_vec ? o->u.addr.vec_n : 0);
    default: return 0;
    }
}

int ctr_find(const ir_function *fn, ctr_pair **out)
{
    *out = NULL;
    uint32_t n = fn->ninstrs;
    if (!n)
        return 0;
    uint32_t nm = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < fn->instrs[i].nopd; k++)
            nm += count_mentions(fn, &fn->instrs[i].opd[k]);
    scan s = { .fn = fn, .n = n };
    walk w = { .s = &s };
    s.run = malloc(n * sizeof *s.run);
    s.rdef = malloc(2 * n * sizeof *s.rdef);
    s.use1 = malloc(n * sizeof *s.use1);
    s.unext = malloc((nm + 1) * sizeof *s.unext);
    s.uinstr = malloc((nm + 1) * sizeof *s.uinstr);
    s.uopd = malloc(nm + 1);
    s.escapes = calloc(n, 1);
    s.memo = calloc(n, 1);
    w.last = calloc(fn->nregs + 1, sizeof *w.last);
    w.stamp = calloc(fn->nregs + 1, sizeof *w.stamp);
    w.outside = calloc(fn->nregs + 1, sizeof *w.outside);
    ctr_pair *v = NULL;
    int np = 0, cap = 0;
    if (!s.run || !s.rdef || !s.use1 || !s.unext || !s.uinstr || !s.uopd || !s.escapes || !s.memo || !w.last ||
        !w.stamp || !w.outside || !runs(fn, s.run))
        goto oom;
    /* one pass: the writer each read sees inside its run */
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = &fn->instrs[i];
        w.run = s.run[i];
        s.use1[i] = UINT32_MAX;
        for (int k = 1; k <= 2; k++) {
            const ir_operand *o = &in->opd[k];
            s.rdef[2 * i + (uint32_t)(k - 1)] =
                k < in->nopd && o->kind == IR_OPD_REG && o->u.reg < fn->nregs && w.stamp[o->u.reg] == w.run + 1
                    ? w.last[o->u.reg] : UINT32_MAX;
        }
        for (uint32_t k = 0; k < in->nopd; k++) {
            const ir_operand *o = &in->opd[k];
            if (k == 0 && o->kind == IR_OPD_REG)
                continue;   /* the destination */
            read_opd(&w, o, i, k == 1 || k == 2 ? (int)k : 0);
        }
        if (in->guard >= 0)
            read_reg(&w, (uint32_t)in->guard, i, 0);
        const ir_operand *d = &in->opd[0];
        if (in->nopd && d->kind == IR_OPD_REG)
            write_reg(&w, d->u.reg, i);
        for (uint32_t e = 0; in->nopd && d->kind == IR_OPD_VEC && e < d->u.vec.n; e++)
            if (fn->vecpool[d->u.vec.first + e].kind == IR_OPD_REG)
                write_reg(&w, fn->vecpool[d->u.vec.first + e].u.reg, i);
    }
    /* a value still current at the end of its run may be read later,
     * wherever its register is read with no writer before it in its run:
     * the last writer of a register in each run (a backward pass) */
    memset(w.stamp, 0, (fn->nregs + 1) * sizeof *w.stamp);
    for (uint32_t i = n; i-- > 0;) {
        const ir_operand *d = &fn->instrs[i].opd[0];
        if (!fn->instrs[i].nopd || d->kind != IR_OPD_REG || d->u.reg >= fn->nregs)
            continue;
        if (w.stamp[d->u.reg] != s.run[i] + 1 && w.outside[d->u.reg])
            s.escapes[i] = 1;
        w.stamp[d->u.reg] = s.run[i] + 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = &fn->instrs[i];
        if (!loose(in, IR_OP_ADD) && !loose(in, IR_OP_SUB))
            continue;
        ctr_pair p1, p2, *p = NULL;
        bool q1 = candidate(&s, i, 1, &p1), q2 = candidate(&s, i, 2, &p2);
        if (q1 || q2)
            p = q1 ? &p1 : &p2;   /* both: the first operand's product */
        if (!p)
            continue;
        if (np == cap) {
            cap = cap ? cap * 2 : 16;
            ctr_pair *nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv)
                goto oom;
            v = nv;
        }
        v[np++] = *p;
    }
    scan_free(&s, &w);
    *out = v;
    return np;
oom:
    scan_free(&s, &w);
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
    f.nopd = 4;
    f.opd[0] = add->opd[0];
    f.opd[1] = m->opd[1];
    f.opd[2] = m->opd[2];
    f.opd[3] = add->opd[3 - p->prod_opd];
    f.aux = p->flags;
    *out = f;
}
