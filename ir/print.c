/* ir/print.c — IR back to PTX text, and the canonical dump.
 *
 * The printer replays what the parser kept: module items in source order,
 * each function's declarations, scopes, labels and pragmas (ir_event) at
 * their place among the instructions, modifiers and types in written order
 * (ir_instr.partmask).  Its output must reparse to the same IR and pass
 * ptxas; debug info (.loc/.file/.section) is not reproduced.
 *
 * ir_dump_canonical() prints everything semantic and nothing cosmetic (no
 * locations, no label names) so that parse -> print -> parse can be
 * checked with a text diff.
 */
#include <string.h>
#include <stdlib.h>
#include <inttypes.h>
#include "ir/ir.h"

static const char *space_name(int s)
{
    switch (s) {
    case IR_SPACE_REG: return ".reg";
    case IR_SPACE_SREG: return ".sreg";
    case IR_SPACE_GLOBAL: return ".global";
    case IR_SPACE_SHARED_CTA: return ".shared";
    case IR_SPACE_SHARED_CLUSTER: return ".shared::cluster";
    case IR_SPACE_LOCAL: return ".local";
    case IR_SPACE_CONST: return ".const";
    case IR_SPACE_PARAM: case IR_SPACE_PARAM_FUNC: return ".param";
    case IR_SPACE_TEX: return ".tex";
    }
    return "";
}

static const char *linkage_name(int l)
{
    switch (l) {
    case 'v': return ".visible ";
    case 'e': return ".extern ";
    case 'w': return ".weak ";
    case 'c': return ".common ";
    }
    return "";
}

int ir_format_mnemonic(const ir_instr *in, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "%s", ir_ops[in->op].name);
    unsigned mi = 0, ti = 0;
    for (unsigned part = 0; part < (unsigned)in->nmods + in->ntypes && k < len; part++) {
        const char *t = (in->partmask >> part) & 1 ? ir_types[in->types[ti++]].name
                                                    : ir_mods[in->mods[mi++]].text;
        k += (size_t)snprintf(buf + k, len - k, ".%s", t);
    }
    return (int)k;
}

/* ---- operands ------------------------------------------------------------ */

typedef struct {
    const ir_module *m;
    const ir_function *f;
    const int32_t *labelmap; /* instr index -> label index, or NULL */
} pctx;

static const char *label_for(const pctx *c, uint32_t instr)
{
    if (c->labelmap && c->labelmap[instr] >= 0)
        return c->f->labels[c->labelmap[instr]].name;
    for (uint32_t i = 0; i < c->f->nlabels; i++)
        if (c->f->labels[i].instr == instr)
            return c->f->labels[i].name;
    return "$L__unknown";
}

static const char *const vsel_names[] = { "", ".x", ".y", ".z", ".w", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1" };

static void print_fimm(const ir_operand *o, FILE *out)
{
    if (o->vsel == 'f') {
        fprintf(out, "0f%08" PRIX32, (uint32_t)o->u.imm);
    } else if (o->vsel == 'd' || !(o->fimm == o->fimm) || o->fimm - o->fimm != 0) {
        fprintf(out, "0d%016" PRIX64, (uint64_t)o->u.imm);
    } else {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", o->fimm);
        if (!strpbrk(buf, ".e"))
            strcat(buf, ".0");
        fputs(buf, out);
    }
}

static void print_opd(const pctx *c, const ir_operand *o, FILE *out, int paren);

static void print_list(const pctx *c, uint32_t first, uint32_t n, FILE *out, const char *sep)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            fputs(sep, out);
        print_opd(c, &c->f->vecpool[first + i], out, 0);
    }
}

static void print_opd(const pctx *c, const ir_operand *o, FILE *out, int paren)
{
    switch (o->kind) {
    case IR_OPD_REG:
        fprintf(out, "%s%s%s", o->neg ? "!" : "", c->f->regs[o->u.reg].name,
                o->vsel < sizeof vsel_names / sizeof vsel_names[0] ? vsel_names[o->vsel] : "");
        if (o->xsel) {
            unsigned nd = (o->xsel >> 12) & 7;
            fputc('.', out);
            fputc(o->xsel & 0x8000 ? 'b' : 'h', out);
            for (unsigned i = nd; i-- > 0;)
                fputc('0' + ((o->xsel >> (3 * i)) & 7), out);
        }
        break;
    case IR_OPD_IMM: fprintf(out, "%" PRId64, o->u.imm); break;
    case IR_OPD_FIMM: print_fimm(o, out); break;
    case IR_OPD_SYM: fprintf(out, "%s%s", o->neg ? "!" : "", c->m->syms[o->u.sym].name); break;
    case IR_OPD_LABEL: fputs(label_for(c, o->u.label), out); break;
    case IR_OPD_SREG: fputs(ir_sreg_name((ir_sreg)o->u.sreg), out); break;
    case IR_OPD_SINK: fputc('_', out); break;
    case IR_OPD_VEC:
        if (o->vsel == '|') {
            print_list(c, o->u.vec.first, o->u.vec.n, out, "|");
            break;
        }
        fputc(paren ? '(' : '{', out);
        print_list(c, o->u.vec.first, o->u.vec.n, out, ", ");
        fputc(paren ? ')' : '}', out);
        break;
    case IR_OPD_ADDR:
        fputc('[', out);
        if (o->u.addr.base_kind == IR_BASE_REG)
            fputs(c->f->regs[o->u.addr.base].name, out);
        else if (o->u.addr.base_kind == IR_BASE_SYM)
            fputs(c->m->syms[o->u.addr.base].name, out);
        if (o->u.addr.base_kind == IR_BASE_NONE)
            fprintf(out, "%" PRId64, o->u.addr.off);
        else if (o->u.addr.off)
            fprintf(out, "+%" PRId64, o->u.addr.off);
        if (o->u.addr.has_vec) {
            fputs(", {", out);
            print_list(c, o->u.addr.vec_first, o->u.addr.vec_n, out, ", ");
            fputc('}', out);
        }
        fputc(']', out);
        break;
    default: fputs("?", out);
    }
}

static void print_instr(const pctx *c, const ir_instr *in, FILE *out)
{
    char mn[512];
    if (in->guard >= 0)
        fprintf(out, "@%s%s ", in->guard_neg ? "!" : "", c->f->regs[in->guard].name);
    ir_format_mnemonic(in, mn, sizeof mn);
    fputs(mn, out);
    unsigned first = 1;
    for (unsigned k = 0; k < in->nopd; k++) {
        const ir_operand *o = &in->opd[k];
        int paren = 0;
        if (in->op == IR_OP_CALL && (k == 0 || k == 2)) {
            if (o->kind == IR_OPD_VEC && o->u.vec.n == 0 && (k == 0 || in->nopd == 3))
                continue;
            paren = 1;
        }
        fputs(first ? " " : ", ", out);
        first = 0;
        print_opd(c, o, out, paren);
    }
    fputc(';', out);
}

int ir_format_instr(const ir_module *m, const ir_function *f, const ir_instr *in,
                    char *buf, size_t len)
{
    pctx c = { m, f, NULL };
    FILE *out = fmemopen(buf, len, "w");
    if (!out) {
        if (len)
            buf[0] = 0;
        return 0;
    }
    print_instr(&c, in, out);
    long n = ftell(out);
    fclose(out);
    if (len)
        buf[(size_t)n < len ? (size_t)n : len - 1] = 0;
    return (int)n;
}

/* ---- declarations ---------------------------------------------------------- */

static void print_init(const ir_module *m, const ir_symbol *s, FILE *out)
{
    if (!s->init)
        return;
    uint32_t esz = ir_types[s->type].bits < 8 ? 1 : ir_types[s->type].bits / 8;
    uint64_t n = s->nelem * s->vec;
    char kind = ir_types[s->type].kind;
    fputs(" = ", out);
    /* arrays in braces, each vector element in its own: {{1, 2}, {3, 4}} */
    if (s->is_array)
        fputc('{', out);
    uint32_t r = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", out);
        if (s->vec > 1 && i % s->vec == 0)
            fputc('{', out);
        uint64_t off = i * esz;
        if (r < s->ninit_relocs && s->init_relocs[r].offset == off) {
            const struct ir_init_reloc *rl = &s->init_relocs[r++];
            if (rl->generic)
                fprintf(out, "generic(%s)", m->syms[rl->sym].name);
            else
                fputs(m->syms[rl->sym].name, out);
            if (rl->addend)
                fprintf(out, "+%" PRId64, rl->addend);
        } else {
            uint64_t v = 0;
            for (uint32_t b = 0; b < esz && b < 8; b++)
                v |= (uint64_t)s->init[off + b] << (8 * b);
            if (kind == 'f' && esz == 4)
                fprintf(out, "0f%08" PRIX32, (uint32_t)v);
            else if (kind == 'f' && esz == 8)
                fprintf(out, "0d%016" PRIX64, v);
            else if (kind == 's' && esz < 8 && (v >> (8 * esz - 1)) & 1)
                fprintf(out, "%" PRId64, (int64_t)(v | ~(uint64_t)0 << (8 * esz)));
            else if (kind == 's')
                fprintf(out, "%" PRId64, (int64_t)v);
            else
                fprintf(out, "%" PRIu64, v);
        }
        if (s->vec > 1 && i % s->vec == s->vec - 1u)
            fputc('}', out);
    }
    if (s->is_array)
        fputc('}', out);
}

static void print_var(const ir_module *m, const ir_symbol *s, FILE *out)
{
    fprintf(out, "%s%s", linkage_name(s->linkage), space_name(s->space));
    if (s->align)
        fprintf(out, " .align %u", s->align);
    if (s->vec > 1)
        fprintf(out, " .v%u", s->vec);
    fprintf(out, " .%s", ir_types[s->type].name);
    if (s->is_ptr) {
        fputs(" .ptr", out);
        if (s->ptr_space)
            fprintf(out, " %s", space_name(s->ptr_space));
        if (s->ptr_align)
            fprintf(out, " .align %u", s->ptr_align);
    }
    fprintf(out, " %s", s->name);
    if (s->is_array) {
        if (s->nelem || s->init)
            fprintf(out, "[%" PRIu64 "]", s->nelem);
        else
            fputs("[]", out);
    }
    print_init(m, s, out);
}

static void print_params(const ir_module *m, const uint32_t *p, uint32_t n, FILE *out)
{
    fputc('(', out);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ",\n\t" : "\n\t", out);
        print_var(m, &m->syms[p[i]], out);
    }
    fputs(n ? "\n)" : ")", out);
}

static void print_func_head(const ir_module *m, const ir_function *f, FILE *out)
{
    fprintf(out, "%s%s ", linkage_name(f->linkage), f->is_entry ? ".entry" : ".func");
    if (f->nrets) {
        print_params(m, f->rets, f->nrets, out);
        fputc(' ', out);
    }
    fputs(f->name, out);
    if (f->nparams || !f->is_entry)
        print_params(m, f->params, f->nparams, out);
    else
        fputs("()", out);
    if (f->maxntid[0])
        fprintf(out, "\n.maxntid %u, %u, %u", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
    if (f->reqntid[0])
        fprintf(out, "\n.reqntid %u, %u, %u", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->minnctapersm)
        fprintf(out, "\n.minnctapersm %u", f->minnctapersm);
    if (f->maxnreg)
        fprintf(out, "\n.maxnreg %u", f->maxnreg);
    if (f->explicitcluster)
        fputs("\n.explicitcluster", out);
    if (f->reqnctapercluster[0])
        fprintf(out, "\n.reqnctapercluster %u, %u, %u", f->reqnctapercluster[0],
                f->reqnctapercluster[1], f->reqnctapercluster[2]);
    if (f->maxclusterrank)
        fprintf(out, "\n.maxclusterrank %u", f->maxclusterrank);
    if (f->noreturn)
        fputs("\n.noreturn", out);
}

/* Entry-scope pragmas, after the performance directives (ptxas takes
 * them in any order there). */
static void print_head_pragmas(const ir_function *f, FILE *out)
{
    for (uint32_t i = 0; i < f->nhead_pragmas; i++)
        fprintf(out, "\n.pragma %s;", f->pragmas[i]);
}

static void indent(int depth, FILE *out)
{
    for (int i = 0; i < depth; i++)
        fputc('\t', out);
}

static void print_event(const ir_module *m, const ir_function *f, const struct ir_event *ev,
                        int *depth, FILE *out)
{
    switch (ev->kind) {
    case IR_EV_SCOPE_OPEN:
        indent(*depth, out);
        fputs("{\n", out);
        ++*depth;
        break;
    case IR_EV_SCOPE_CLOSE:
        --*depth;
        indent(*depth, out);
        fputs("}\n", out);
        break;
    case IR_EV_REG: {
        const ir_regdecl *r = &f->regs[ev->idx];
        indent(*depth, out);
        fputs(".reg ", out);
        if (r->vec > 1)
            fprintf(out, ".v%u ", r->vec);
        if (ev->range) {
            size_t n = strlen(r->name) - 1; /* the first of a range is <base>0 */
            fprintf(out, ".%s %.*s<%u>;\n", ir_types[r->type].name, (int)n, r->name, ev->n);
        } else {
            fprintf(out, ".%s %s;\n", ir_types[r->type].name, r->name);
        }
        break;
    }
    case IR_EV_SYM: {
        const ir_symbol *s = &m->syms[ev->idx];
        indent(*depth, out);
        if (s->proto)
            fprintf(out, "%s : %s;\n", s->name, s->proto);
        else {
            print_var(m, s, out);
            fputs(";\n", out);
        }
        break;
    }
    case IR_EV_LABEL:
        fprintf(out, "%s:\n", f->labels[ev->idx].name);
        break;
    case IR_EV_PRAGMA:
        indent(*depth, out);
        fprintf(out, ".pragma %s;\n", f->pragmas[ev->idx]);
        break;
    }
}

static void print_body(const ir_module *m, const ir_function *f, FILE *out)
{
    int32_t *lm = malloc((f->ninstrs + 1) * sizeof *lm);
    for (uint32_t i = 0; i <= f->ninstrs; i++)
        lm[i] = -1;
    for (uint32_t i = f->nlabels; i-- > 0;)
        lm[f->labels[i].instr] = (int32_t)i;
    pctx c = { m, f, lm };
    int depth = 1;
    uint32_t e = 0;
    fputs("\n{\n", out);
    for (uint32_t i = 0; i <= f->ninstrs; i++) {
        while (e < f->nevents && f->events[e].instr == i)
            print_event(m, f, &f->events[e++], &depth, out);
        if (i == f->ninstrs)
            break;
        indent(depth, out);
        print_instr(&c, &f->instrs[i], out);
        fputc('\n', out);
    }
    fputs("}\n", out);
    free(lm);
}

void ir_print_module(const ir_module *m, FILE *out)
{
    /* ", debug" is not printed: it obliges debug sections, which the IR
     * does not keep (ptxas: "Debug information not found"). */
    fprintf(out, ".version %u.%u\n.target %s%s\n.address_size %u\n\n", m->version_major,
            m->version_minor, m->target,
            m->texmode_unified ? ", texmode_unified" : "", m->address_size);
    for (uint32_t i = 0; i < m->nitems; i++) {
        const struct ir_item *it = &m->items[i];
        if (it->kind == IR_ITEM_SYM) {
            print_var(m, &m->syms[it->idx], out);
            fputs(";\n", out);
            continue;
        }
        if (it->kind == IR_ITEM_PRAGMA) {
            fprintf(out, ".pragma %s;\n", m->pragmas[it->idx]);
            continue;
        }
        const ir_function *f = &m->funcs[it->idx];
        fputc('\n', out);
        print_func_head(m, f, out);
        /* a declaration shares its ir_function with the definition that
         * follows it; the pragmas are the definition's then */
        if (it->kind == IR_ITEM_FUNC_DEF || f->is_decl)
            print_head_pragmas(f, out);
        if (it->kind == IR_ITEM_FUNC_DECL)
            /* a trailing .pragma's ';' ends a declaration (ptxas reads
             * `.pragma "x"; ;` as an empty statement: a syntax error) */
            fputs(f->is_decl && f->nhead_pragmas ? "\n" : ";\n", out);
        else
            print_body(m, f, out);
    }
}

/* ---- canonical dump ---------------------------------------------------------- */

static void dump_opd(const ir_function *f, const ir_operand *o, FILE *out);

static void dump_pool(const ir_function *f, uint32_t first, uint32_t n, FILE *out)
{
    fputc('{', out);
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        dump_opd(f, &f->vecpool[first + i], out);
    }
    fputc('}', out);
}

static void dump_opd(const ir_function *f, const ir_operand *o, FILE *out)
{
    fprintf(out, "k%u", o->kind);
    if (o->neg)
        fprintf(out, "!");
    if (o->vsel)
        fprintf(out, "s%u", o->vsel);
    if (o->xsel)
        fprintf(out, "x%x", o->xsel);
    if (o->type)
        fprintf(out, "t%u", o->type);
    switch (o->kind) {
    case IR_OPD_REG: case IR_OPD_SYM: case IR_OPD_LABEL: case IR_OPD_SREG:
        fprintf(out, ":%u", o->u.reg);
        break;
    case IR_OPD_IMM: fprintf(out, ":%" PRId64, o->u.imm); break;
    case IR_OPD_FIMM: fprintf(out, ":%016" PRIx64, (uint64_t)o->u.imm); break;
    case IR_OPD_VEC: dump_pool(f, o->u.vec.first, o->u.vec.n, out); break;
    case IR_OPD_ADDR:
        fprintf(out, "[b%u:%u%+" PRId64 "]", o->u.addr.base_kind, o->u.addr.base, o->u.addr.off);
        if (o->u.addr.has_vec)
            dump_pool(f, o->u.addr.vec_first, o->u.addr.vec_n, out);
        break;
    }
}

void ir_dump_canonical(const ir_module *m, FILE *out)
{
    fprintf(out, "version %u.%u target %s addr %u\n", m->version_major,
            m->version_minor, m->target, m->address_size);
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ir_symbol *s = &m->syms[i];
        if (s->owner == -2) {
            /* a parameter of a declaration that a later declaration or the
             * definition superseded: dead, and printed under the later names */
            fprintf(out, "sym %u superseded\n", i);
            continue;
        }
        fprintf(out, "sym %u %s k%u sp%u t%u v%u l%u p%u/%u/%u al%u n%" PRIu64 " sz%" PRIu64
                " fi%d own%d off%u arr%u", i, s->name, s->kind, s->space, s->type, s->vec,
                s->linkage, s->is_ptr, s->ptr_space, s->ptr_align, s->align, s->nelem, s->size,
                s->func_index, s->owner, s->param_offset, s->is_array);
        if (s->init) {
            fputs(" init=", out);
            for (uint64_t b = 0; b < s->size; b++)
                fprintf(out, "%02x", s->init[b]);
        }
        for (uint32_t r = 0; r < s->ninit_relocs; r++)
            fprintf(out, " rel(%" PRIu64 ",%u,%" PRId64 ",%u,%u)", s->init_relocs[r].offset,
                    s->init_relocs[r].sym, s->init_relocs[r].addend, s->init_relocs[r].bytes,
                    s->init_relocs[r].generic);
        if (s->proto)
            fprintf(out, " proto=%s", s->proto);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < m->nitems; i++)
        if (m->items[i].kind == IR_ITEM_PRAGMA)
            fprintf(out, "pragma item%u %s\n", i, m->pragmas[m->items[i].idx]);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ir_function *f = &m->funcs[fi];
        fprintf(out, "func %u %s entry%d l%u decl%d sym%u pb%u ntid%u,%u,%u req%u,%u,%u "
                "cl%u,%u,%u min%u nreg%u rank%u ec%d nr%d\n", fi, f->name, f->is_entry,
                f->linkage, f->is_decl, f->sym, f->param_bytes, f->maxntid[0], f->maxntid[1],
                f->maxntid[2], f->reqntid[0], f->reqntid[1], f->reqntid[2],
                f->reqnctapercluster[0], f->reqnctapercluster[1], f->reqnctapercluster[2],
                f->minnctapersm, f->maxnreg, f->maxclusterrank, f->explicitcluster, f->noreturn);
        fputs(" params", out);
        for (uint32_t i = 0; i < f->nparams; i++)
            fprintf(out, " %u", f->params[i]);
        fputs(" rets", out);
        for (uint32_t i = 0; i < f->nrets; i++)
            fprintf(out, " %u", f->rets[i]);
        fputs(" locals", out);
        for (uint32_t i = 0; i < f->nlocals; i++)
            fprintf(out, " %u", f->locals[i]);
        fputc('\n', out);
        for (uint32_t i = 0; i < f->nregs; i++)
            fprintf(out, " reg %u %s t%u v%u\n", i, f->regs[i].name, f->regs[i].type, f->regs[i].vec);
        for (uint32_t i = 0; i < f->nlabels; i++)
            fprintf(out, " label -> %u\n", f->labels[i].instr);
        for (uint32_t i = 0; i < f->nhead_pragmas; i++)
            fprintf(out, " pragma head %s\n", f->pragmas[i]);
        for (uint32_t i = 0; i < f->nevents; i++)
            if (f->events[i].kind == IR_EV_PRAGMA)
                fprintf(out, " pragma @%u %s\n", f->events[i].instr, f->pragmas[f->events[i].idx]);
        for (uint32_t i = 0; i < f->ninstrs; i++) {
            const ir_instr *in = &f->instrs[i];
            fprintf(out, " %u op%u g%d%s m", i, in->op, in->guard, in->guard_neg ? "!" : "");
            for (unsigned k = 0; k < in->nmods; k++)
                fprintf(out, "%s%u", k ? "," : "", in->mods[k]);
            fputs(" t", out);
            for (unsigned k = 0; k < in->ntypes; k++)
                fprintf(out, "%s%u", k ? "," : "", in->types[k]);
            fprintf(out, " pm%x sp%u/%u c%u b%u r%u d%u md%u sc%u se%u v%u ro%u aux%u :", in->partmask,
                    in->space, in->space2, in->cmp, in->boolop, in->rnd, in->dim, in->mode,
                    in->scope, in->sem, in->vec, in->redop, in->aux);
            for (unsigned k = 0; k < in->nopd; k++) {
                fputc(' ', out);
                dump_opd(f, &in->opd[k], out);
            }
            fputc('\n', out);
        }
    }
}
