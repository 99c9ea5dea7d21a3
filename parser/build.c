/* parser/build.c — the IR builder behind the grammar actions, and
 * ptx_parse() itself.
 *
 * The builder owns all transient state of a parse: growable arrays for the
 * function being built, hash tables for names, and a cache of decoded
 * mnemonics.  Nothing is copied when a function ends: the instruction array
 * (most of a module's memory) grows in place at the end of its own arena
 * (ir_arena_extend), the other arrays are handed to the module arena
 * (ir_arena_adopt) — a parse is bound by the memory it touches, see
 * ir/arena.c.  Name tables use a
 * generation stamp so that starting a new function empties them in O(1).
 * Inline `{ }` scopes push bindings that shadow outer ones; closing the
 * scope restores what was shadowed.  Labels may be used before they are
 * defined, so label operands hold a reference index until the function
 * ends and are then resolved to instruction indices.
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdarg.h>
#include "parser/parser.h"
#include "lexer/lexer.h"
#include "parser/ptx.h"

/* An initialised variable keeps its bytes in the IR; beyond this the
 * initialiser is refused (uninitialised variables may be any size). */
#define IR_MAX_INIT_BYTES ((uint64_t)1 << 30)
/* Registers (slots) one function may declare, ranges expanded. */
#define IR_MAX_REGS (1u << 22)

/* ---- growable arrays ------------------------------------------------------ */

#define VEC_PUSH(arr, n, cap) \
    (((n) == (cap) ? ((cap) = (cap) ? (cap) * 2 : 64, \
      (arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr))) : 0), &(arr)[(n)++])

static void *xrealloc(void *p, size_t n)
{
    return ir_big_realloc(p, n);
}

/* ---- name tables ---------------------------------------------------------- */

typedef struct { const char *s; uint32_t n, h, gen; int32_t val; } hent;
typedef struct { hent *e; uint32_t cap, used, gen; } htab;

static uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h | 1;
}

static void ht_init(htab *t, uint32_t cap)
{
    t->e = calloc(cap, sizeof *t->e);
    t->cap = cap;
    t->used = 0;
    t->gen = 1;
}

static void ht_newgen(htab *t)
{
    t->gen++;
    t->used = 0;
}

static hent *ht_slot(htab *t, const char *s, uint32_t n, uint32_t h)
{
    uint32_t mask = t->cap - 1, i = h & mask;
    for (;;) {
        hent *e = &t->e[i];
        if (e->gen != t->gen)
            return e;
        if (e->h == h && e->n == n && memcmp(e->s, s, n) == 0)
            return e;
        i = (i + 1) & mask;
    }
}

static hent *ht_find(htab *t, const char *s, uint32_t n, uint32_t h)
{
    hent *e = ht_slot(t, s, n, h);
    return e->gen == t->gen ? e : NULL;
}

static void ht_grow(htab *t)
{
    htab nt;
    ht_init(&nt, t->cap * 2);
    nt.gen = t->gen;
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->e[i].gen == t->gen) {
            hent *e = ht_slot(&nt, t->e[i].s, t->e[i].n, t->e[i].h);
            *e = t->e[i];
            nt.used++;
        }
    free(t->e);
    *t = nt;
}

static hent *ht_put(htab *t, const char *s, uint32_t n, uint32_t h, int32_t val)
{
    if ((t->used + 1) * 2 > t->cap)
        ht_grow(t);
    hent *e = ht_slot(t, s, n, h);
    if (e->gen != t->gen) {
        e->s = s;
        e->n = n;
        e->h = h;
        e->gen = t->gen;
        t->used++;
    }
    e->val = val;
    return e;
}

/* ---- builder state -------------------------------------------------------- */

enum { BIND_REG = 1, BIND_SYM };
typedef struct { const char *s; uint32_t n, h; uint8_t kind; uint32_t idx; int32_t prev; uint32_t depth; } binding;
typedef struct { const char *s; uint32_t n; ptx_loc loc; uint32_t block; } labelref;
/* a label's scope: the { } block it is written in, and the previous label of
 * the same name in this function (labeltab holds the newest) */
typedef struct { uint32_t block; int32_t prev; ptx_loc loc; } labelscope;
typedef struct { uint8_t kind; int64_t i; double f; uint64_t bits; int fk; uint32_t sym; uint8_t generic; } initel;
enum { INIT_INT = 1, INIT_FLOAT, INIT_SYM };

/* modifier classes, decoded once from mods.def's CLASS column */
enum { MC_OTHER, MC_SPACE, MC_CMP, MC_BOOL, MC_RND, MC_DIM, MC_MODE, MC_SCOPE, MC_SEM, MC_VEC,
       MC_REDOP, MC__COUNT };

struct ptx_builder {
    ir_module *m;
    ir_arena *A;
    ir_diag *diag;
    const char *path, *src;
    /* module */
    ir_symbol *syms; uint32_t nsyms, capsyms;
    ir_function *funcs; uint32_t nfuncs, capfuncs;
    struct ir_item *items; uint32_t nitems, capitems;
    const char **files; uint32_t nfiles, capfiles;
    const char **mpragmas; uint32_t nmpragmas, capmpragmas;
    char *pstr; uint32_t npstr, cappstr; /* the .pragma string list being read */
    htab modtab;
    /* declaration specifiers */
    struct { char linkage; int space, align, type, vec, ptr, ptr_space, ptr_align, dup_type, dup_space;
             ptx_loc loc; } spec;
    /* variable being declared */
    struct { ptx_tok name; ptx_loc loc; uint64_t nelem; int is_array, unsized, has_range, too_big;
             int64_t range; } var;
    initel *init; uint32_t ninit, capinit;
    /* function being built */
    int in_func, in_body, is_entry;
    uint32_t proto_line;    /* line of the declaration a redeclaration must match */
    int head_pragma_last;   /* the function header's last directive is a .pragma (its ';' may end a declaration) */
    int32_t fidx;
    ptx_loc floc;
    uint32_t *params; uint32_t nparams, capparams;
    uint32_t *rets; uint32_t nrets, caprets;
    int64_t ints[3]; int nints;
    ir_instr *instrs; uint32_t ninstrs, capinstrs; /* grows in place in IA */
    ir_arena *IA;
    ir_regdecl *regs; uint32_t nregs, capregs;
    ir_operand *vecpool; uint32_t nvecpool, capvecpool;
    struct ir_label *labels; uint32_t nlabels, caplabels;
    labelscope *lscope; uint32_t caplscope;      /* parallel to labels */
    uint32_t *bparent; uint32_t nblocks, capblocks; /* each { } block's enclosing block */
    uint32_t *locals; uint32_t nlocals, caplocals;
    struct ir_event *events; uint32_t nevents, capevents;
    const char **pragmas; uint32_t npragmas, cappragmas, nhead_pragmas;
    labelref *refs; uint32_t nrefs, caprefs;
    binding *binds; uint32_t nbinds, capbinds;
    uint32_t scopes[256], blockat[256]; uint32_t depth, too_deep;
    htab scopetab, labeltab;
    /* instruction being built */
    ir_instr cur;
    ir_function fview;
    int in_instr, bad_instr;
    int has_guard, guard_neg; int32_t guard;
    ir_operand *tmp; uint32_t ntmp, captmp; /* operands, then vector elements */
    ir_opd_locs oloc;  /* where each operand was written (diagnostics only) */
    uint32_t vstack[8]; uint32_t nvstack;
    /* mnemonic cache: text -> decoded instruction header */
    htab mtab;
    ir_instr *mcache; uint32_t nmcache, capmcache;
    uint8_t modcls[IR_M__COUNT];
};

static ir_loc to_loc(ptx_loc l)
{
    ir_loc r = { l.line, (uint16_t)l.col, 0 };
    return r;
}

static void berr(ptx_builder *b, ptx_loc l, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void berr(ptx_builder *b, ptx_loc l, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ir_diag_error(b->diag, b->path, to_loc(l), "%s", msg);
}

void ptx_b_error(ptx_builder *b, ptx_loc l, const char *msg)
{
    berr(b, l, "%s", msg);
}

static char *bstr(ptx_builder *b, const char *s, size_t n)
{
    return ir_arena_strdup(b->A, s, n);
}

/* ---- module header ---------------------------------------------------------- */

void ptx_b_version(ptx_builder *b, const ptx_tok *t, ptx_loc l)
{
    const char *dot = memchr(t->s, '.', t->n);
    if (!dot) {
        berr(b, l, "malformed .version");
        return;
    }
    b->m->version_major = (uint32_t)atoi(t->s);
    b->m->version_minor = (uint32_t)atoi(dot + 1);
}

void ptx_b_target(ptx_builder *b, const ptx_tok *t, ptx_loc l)
{
    if (t->n == 5 && memcmp(t->s, "debug", 5) == 0)
        b->m->target_debug = true;
    else if (t->n == 15 && memcmp(t->s, "texmode_unified", 15) == 0)
        b->m->texmode_unified = true;
    else if (t->n == 19 && memcmp(t->s, "texmode_independent", 19) == 0)
        ;
    else if (t->n == 9 && memcmp(t->s, "map_f64_to_f32", 9) == 0)
        ;
    else if (t->n >= 4 && memcmp(t->s, "sm_", 3) == 0 && t->n < sizeof b->m->target) {
        memcpy(b->m->target, t->s, t->n), b->m->target[t->n] = 0;
        /* ptxas: "PTX .version 8.5 does not support .target sm_100a" */
        unsigned need = ir_target_min_ptx(b->m->target), maj = b->m->version_major, min = b->m->version_minor;
        if (need && maj && (maj < need / 10 || (maj == need / 10 && min < need % 10)))
            berr(b, l, ".target %s requires PTX ISA %u.%u or later (this module: .version %u.%u)",
                 b->m->target, need / 10, need % 10, maj, min);
    } else
        berr(b, l, "unknown target '%.*s'", (int)t->n, t->s);
}

void ptx_b_address_size(ptx_builder *b, int64_t v, ptx_loc l)
{
    if (v != 32 && v != 64)
        berr(b, l, ".address_size must be 32 or 64");
    b->m->address_size = (uint32_t)v;
}

/* ---- specifiers ------------------------------------------------------------ */

void ptx_b_spec_reset(ptx_builder *b)
{
    memset(&b->spec, 0, sizeof b->spec);
}

void ptx_b_spec_linkage(ptx_builder *b, char linkage) { b->spec.linkage = linkage; }
void ptx_b_spec_vec(ptx_builder *b, int vec) { b->spec.vec = vec; }
void ptx_b_spec_ptr(ptx_builder *b) { b->spec.ptr = 1; }

void ptx_b_spec_space(ptx_builder *b, int space, ptx_loc l)
{
    if (b->spec.ptr && b->spec.space) {
        b->spec.ptr_space = space;
        return;
    }
    if (b->spec.space && !b->spec.dup_space)
        berr(b, l, "more than one state space in a declaration");
    if (b->spec.space)
        b->spec.dup_space = 1;
    b->spec.space = space;
    b->spec.loc = l;
}

void ptx_b_spec_align(ptx_builder *b, int64_t align, ptx_loc l)
{
    if (align <= 0 || (align & (align - 1)))
        berr(b, l, "alignment must be a power of two, got %lld", (long long)align);
    if (b->spec.ptr)
        b->spec.ptr_align = (int)align;
    else
        b->spec.align = (int)align;
}

void ptx_b_spec_type(ptx_builder *b, int type, ptx_loc l)
{
    if (b->spec.type && !b->spec.dup_type)
        berr(b, l, "more than one type in a declaration");
    if (b->spec.type)
        b->spec.dup_type = 1; /* once per declaration */
    b->spec.type = type;
}

/* ---- scoped names ---------------------------------------------------------- */

static binding *bind_find(ptx_builder *b, const char *s, uint32_t n, uint32_t h)
{
    hent *e = ht_find(&b->scopetab, s, n, h);
    if (!e || e->val < 0)
        return NULL;
    return &b->binds[e->val];
}

static int bind_add(ptx_builder *b, const char *s, uint32_t n, uint8_t kind, uint32_t idx, ptx_loc l)
{
    uint32_t h = name_hash(s, n);
    hent *e = ht_find(&b->scopetab, s, n, h);
    int32_t prev = e ? e->val : -1;
    if (prev >= 0 && b->binds[prev].depth == b->depth) {
        berr(b, l, "%s '%.*s' is already declared in this scope",
             kind == BIND_REG ? "register" : "symbol", (int)n, s);
        return 0;
    }
    binding *bd = VEC_PUSH(b->binds, b->nbinds, b->capbinds);
    bd->s = s;
    bd->n = n;
    bd->h = h;
    bd->kind = kind;
    bd->idx = idx;
    bd->prev = prev;
    bd->depth = b->depth;
    ht_put(&b->scopetab, s, n, h, (int32_t)(b->nbinds - 1));
    return 1;
}

static void event(ptx_builder *b, uint8_t kind, uint32_t idx, uint32_t n, uint8_t range)
{
    struct ir_event *ev = VEC_PUSH(b->events, b->nevents, b->capevents);
    ev->instr = b->ninstrs;
    ev->kind = kind;
    ev->idx = idx;
    ev->n = n;
    ev->range = range;
}

void ptx_b_scope_open(ptx_builder *b, ptx_loc l)
{
    if (b->depth + 1 >= sizeof b->scopes / sizeof b->scopes[0]) {
        if (!b->too_deep++) /* once; the matching '}' are skipped below */
            berr(b, l, "scopes nested too deeply (more than %u levels)",
                 (unsigned)(sizeof b->scopes / sizeof b->scopes[0] - 2));
        return;
    }
    b->scopes[++b->depth] = b->nbinds;
    if (b->in_body) {
        *VEC_PUSH(b->bparent, b->nblocks, b->capblocks) = b->blockat[b->depth - 1];
        b->blockat[b->depth] = b->nblocks - 1;
    }
    event(b, IR_EV_SCOPE_OPEN, 0, 0, 0);
}

static void scope_pop(ptx_builder *b)
{
    uint32_t keep = b->scopes[b->depth];
    while (b->nbinds > keep) {
        binding *bd = &b->binds[--b->nbinds];
        hent *e = ht_find(&b->scopetab, bd->s, bd->n, bd->h);
        if (e)
            e->val = bd->prev;
    }
    b->depth--;
}

void ptx_b_scope_close(ptx_builder *b, ptx_loc l)
{
    if (b->too_deep) { /* closes a scope that was not opened */
        b->too_deep--;
        return;
    }
    if (b->depth <= 1) {
        berr(b, l, "unbalanced '}'");
        return;
    }
    scope_pop(b);
    event(b, IR_EV_SCOPE_CLOSE, 0, 0, 0);
}

/* ---- variables ------------------------------------------------------------- */

static uint32_t type_bytes(int type)
{
    uint32_t bits = ir_types[type].bits;
    return bits < 8 ? 1 : bits / 8;
}

void ptx_b_var_begin(ptx_builder *b, const ptx_tok *name, ptx_loc l)
{
    memset(&b->var, 0, sizeof b->var);
    b->var.name = *name;
    b->var.loc = l;
    b->var.nelem = 1;
    b->ninit = 0;
}

void ptx_b_var_dim_unsized(ptx_builder *b, ptx_loc l)
{
    if (b->var.is_array)
        berr(b, l, "only the first array dimension may be unsized");
    b->var.unsized = 1;
    b->var.nelem = 0;
    b->var.is_array = 1;
}

void ptx_b_var_dim(ptx_builder *b, int64_t n, ptx_loc l)
{
    uint64_t u = (uint64_t)n; /* the literal as written: [18446744073709551615] is not [] */
    if (u == 0)
        berr(b, l, "array dimension must be positive");
    else if (b->var.nelem && __builtin_mul_overflow(b->var.nelem, u, &b->var.nelem))
        b->var.too_big = 1;
    b->var.is_array = 1;
}

void ptx_b_var_reg_range(ptx_builder *b, int64_t n, ptx_loc l)
{
    if (n <= 0 || n > 1000000) {
        berr(b, l, "register range must be between 1 and 1000000");
        n = 1;
    }
    b->var.has_range = 1;
    b->var.range = n;
}

static initel *init_push(ptx_builder *b)
{
    initel *e = VEC_PUSH(b->init, b->ninit, b->capinit);
    memset(e, 0, sizeof *e);
    return e;
}

void ptx_b_init_int(ptx_builder *b, int64_t v, ptx_loc l)
{
    (void)l;
    initel *e = init_push(b);
    e->kind = INIT_INT;
    e->i = v;
}

void ptx_b_init_float(ptx_builder *b, const ptx_tok *t, int neg, ptx_loc l)
{
    (void)l;
    initel *e = init_push(b);
    e->kind = INIT_FLOAT;
    e->f = neg ? -t->f : t->f;
    e->fk = t->v;
    e->bits = t->bits;
    if (neg)
        e->bits ^= t->v == 'f' ? 0x80000000ull : 0x8000000000000000ull;
}

static int lookup_sym(ptx_builder *b, const char *s, uint32_t n, uint32_t *out)
{
    uint32_t h = name_hash(s, n);
    if (b->in_func) {
        binding *bd = bind_find(b, s, n, h);
        if (bd) {
            if (bd->kind != BIND_SYM)
                return -1;
            *out = bd->idx;
            return 1;
        }
    }
    hent *e = ht_find(&b->modtab, s, n, h);
    if (e) {
        *out = (uint32_t)e->val;
        return 1;
    }
    return 0;
}

void ptx_b_init_sym(ptx_builder *b, const ptx_tok *name, int64_t addend, int generic, ptx_loc l)
{
    uint32_t s;
    if (lookup_sym(b, name->s, name->n, &s) != 1) {
        berr(b, l, "undefined symbol '%.*s' in initialiser", (int)name->n, name->s);
        return;
    }
    initel *e = init_push(b);
    e->kind = INIT_SYM;
    e->sym = s;
    e->i = addend;
    e->generic = (uint8_t)generic;
}

static void put_le(uint8_t *p, uint64_t v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Lay the collected initialiser elements out as bytes (and relocations). */
static void build_init(ptx_builder *b, ir_symbol *sym, uint32_t esz, ptx_loc l)
{
    uint64_t cap = sym->nelem * sym->vec;
    if (b->var.unsized && sym->nelem == 0) {
        sym->nelem = (b->ninit + sym->vec - 1) / sym->vec;
        sym->size = sym->nelem * sym->vec * esz;
        cap = sym->nelem * sym->vec;
    }
    if (b->ninit > cap) {
        berr(b, l, "too many initialisers for '%s': %u given, room for %llu", sym->name,
             b->ninit, (unsigned long long)cap);
        return;
    }
    if (sym->size > IR_MAX_INIT_BYTES) { /* its bytes live in the IR */
        berr(b, l, "initialised variable '%s' is too large: %llu bytes (at most %llu)", sym->name,
             (unsigned long long)sym->size, (unsigned long long)IR_MAX_INIT_BYTES);
        return;
    }
    sym->init = ir_arena_alloc(b->A, sym->size ? sym->size : 1);
    uint32_t nrel = 0;
    for (uint32_t i = 0; i < b->ninit; i++)
        nrel += b->init[i].kind == INIT_SYM;
    if (nrel)
        sym->init_relocs = ir_arena_alloc(b->A, nrel * sizeof *sym->init_relocs);
    char kind = ir_types[sym->type].kind;
    for (uint32_t i = 0; i < b->ninit; i++) {
        initel *e = &b->init[i];
        uint8_t *p = sym->init + (uint64_t)i * esz;
        uint64_t v = 0;
        if (e->kind == INIT_SYM) {
            struct ir_init_reloc *r = &sym->init_relocs[sym->ninit_relocs++];
            r->offset = (uint64_t)i * esz;
            r->sym = e->sym;
            r->addend = e->i;
            r->bytes = (uint8_t)esz;
            r->generic = e->generic;
            continue;
        }
        if (kind == 'f' && esz >= 4) {
            double d = e->kind == INIT_INT ? (double)e->i : e->f;
            if (esz == 4) {
                float f = (float)d;
                uint32_t u;
                if (e->kind == INIT_FLOAT && e->fk == 'f')
                    u = (uint32_t)e->bits;
                else
                    memcpy(&u, &f, 4);
                v = u;
            } else {
                if (e->kind == INIT_FLOAT && e->fk == 'd')
                    v = e->bits;
                else
                    memcpy(&v, &d, 8);
            }
        } else {
            v = e->kind == INIT_INT ? (uint64_t)e->i : e->bits;
        }
        put_le(p, v, esz);
    }
}

static uint32_t new_sym(ptx_builder *b)
{
    ir_symbol *s = VEC_PUSH(b->syms, b->nsyms, b->capsyms);
    memset(s, 0, sizeof *s);
    s->owner = -1;
    s->func_index = -1;
    s->vec = 1;
    return b->nsyms - 1;
}

static void item(ptx_builder *b, uint8_t kind, uint32_t idx)
{
    struct ir_item *it = VEC_PUSH(b->items, b->nitems, b->capitems);
    it->kind = kind;
    it->idx = idx;
}

static void declare_regs(ptx_builder *b)
{
    const ptx_tok *nm = &b->var.name;
    if (!b->spec.type) {
        berr(b, b->var.loc, "register '%.*s' needs a type", (int)nm->n, nm->s);
        return;
    }
    uint32_t n = b->var.has_range ? (uint32_t)b->var.range : 1;
    uint32_t first = b->nregs;
    if (b->nregs + (uint64_t)n > IR_MAX_REGS) {
        berr(b, b->var.loc, "more than %u registers in one function", (unsigned)IR_MAX_REGS);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        ir_regdecl *r = VEC_PUSH(b->regs, b->nregs, b->capregs);
        uint32_t len = nm->n;
        if (b->var.has_range) {
            /* "%r" + decimal i, without printf: ranges declare most registers */
            char digits[12];
            uint32_t nd = 0, v = i;
            do digits[nd++] = (char)('0' + v % 10); while ((v /= 10) != 0);
            char *p = ir_arena_alloc_raw(b->A, nm->n + nd + 1);
            memcpy(p, nm->s, nm->n);
            for (uint32_t k = 0; k < nd; k++)
                p[nm->n + k] = digits[nd - 1 - k];
            p[nm->n + nd] = 0;
            r->name = p;
            len += nd;
        } else {
            r->name = bstr(b, nm->s, nm->n);
        }
        r->type = (uint8_t)b->spec.type;
        r->vec = (uint8_t)(b->spec.vec ? b->spec.vec : 1);
        r->loc = to_loc(b->var.loc);
        if (!bind_add(b, r->name, len, BIND_REG, first + i, b->var.loc)) {
            b->nregs = first + i; /* drop the duplicate */
            break;
        }
    }
    if (b->nregs > first)
        event(b, IR_EV_REG, first, b->nregs - first, (uint8_t)b->var.has_range);
}

/* Fill a symbol's type, size and alignment from the current specifiers. */
static void sym_from_spec(ptx_builder *b, ir_symbol *s)
{
    s->name = bstr(b, b->var.name.s, b->var.name.n);
    s->space = (uint8_t)b->spec.space;
    s->type = (uint8_t)b->spec.type;
    s->vec = (uint8_t)(b->spec.vec ? b->spec.vec : 1);
    s->linkage = (uint8_t)b->spec.linkage;
    s->is_ptr = (uint8_t)b->spec.ptr;
    s->ptr_space = (uint8_t)b->spec.ptr_space;
    s->ptr_align = (uint32_t)b->spec.ptr_align;
    s->align = (uint32_t)b->spec.align;
    s->nelem = b->var.nelem;
    s->is_array = (uint8_t)b->var.is_array;
    if (b->var.too_big || __builtin_mul_overflow(s->nelem, (uint64_t)s->vec * type_bytes(s->type), &s->size)) {
        berr(b, b->var.loc, "'%s' is too large (more than 2^64 bytes)", s->name);
        s->nelem = s->size = 0;
        b->var.too_big = 1;
    }
    s->loc = to_loc(b->var.loc);
}

void ptx_b_var_end(ptx_builder *b, ptx_loc l)
{
    (void)l;
    const ptx_tok *nm = &b->var.name;
    if (b->spec.space == IR_SPACE_REG || b->var.has_range) {
        if (b->spec.space != IR_SPACE_REG)
            berr(b, b->var.loc, "a register range <N> needs .reg");
        else if (!b->in_body)
            berr(b, b->var.loc, ".reg declarations are only allowed inside a function body");
        else
            declare_regs(b);
        return;
    }
    if (!b->spec.space) {
        berr(b, b->var.loc, "declaration of '%.*s' needs a state space", (int)nm->n, nm->s);
        return;
    }
    if (!b->spec.type) {
        berr(b, b->var.loc, "declaration of '%.*s' needs a type", (int)nm->n, nm->s);
        return;
    }
    uint32_t h = name_hash(nm->s, nm->n);
    if (!b->in_body) {
        hent *e = ht_find(&b->modtab, nm->s, nm->n, h);
        if (e && !(b->syms[e->val].linkage == 'e' || b->spec.linkage == 'e')) {
            berr(b, b->var.loc, "symbol '%.*s' is already declared", (int)nm->n, nm->s);
            return;
        }
    }
    uint32_t si = new_sym(b);
    ir_symbol *s = &b->syms[si];
    s->kind = IR_SYM_VAR;
    sym_from_spec(b, s);
    if (b->ninit && !b->var.too_big)
        build_init(b, s, type_bytes(s->type), b->var.loc);
    if (b->in_body) {
        s->owner = b->fidx;
        *VEC_PUSH(b->locals, b->nlocals, b->caplocals) = si;
        if (bind_add(b, s->name, nm->n, BIND_SYM, si, b->var.loc))
            event(b, IR_EV_SYM, si, 1, 0);
    } else {
        ht_put(&b->modtab, s->name, nm->n, h, (int32_t)si);
        item(b, IR_ITEM_SYM, si);
    }
}

/* ---- functions ---------------------------------------------------------- */

static void func_reset(ptx_builder *b)
{
    b->nparams = b->nrets = 0;
    b->ninstrs = b->nregs = b->nvecpool = b->nlabels = b->nlocals = 0;
    b->nevents = b->npragmas = b->nhead_pragmas = b->nrefs = b->nbinds = 0;
    b->nints = 0;
    b->head_pragma_last = 0;
    b->depth = b->too_deep = 0;
    b->nblocks = 0;
    ht_newgen(&b->scopetab);
    ht_newgen(&b->labeltab);
    b->fidx = -1;
    b->in_body = 0;
    b->in_instr = 0;
}

void ptx_b_func_begin(ptx_builder *b, int is_entry, ptx_loc l)
{
    if (b->in_func)
        ptx_b_func_end(b, 0, l);
    func_reset(b);
    b->in_func = 1;
    b->is_entry = is_entry;
    b->floc = l;
    b->spec.space = 0;
    char linkage = b->spec.linkage;
    ptx_b_spec_reset(b);
    b->spec.linkage = linkage;
}

void ptx_b_func_param(ptx_builder *b, const ptx_tok *unused, int is_ret, ptx_loc l)
{
    (void)l;
    (void)unused;
    const ptx_tok *nm = &b->var.name;
    char linkage = 0;
    if (!b->spec.space)
        berr(b, b->var.loc, "parameter '%.*s' needs .param or .reg", (int)nm->n, nm->s);
    if (!b->spec.type)
        berr(b, b->var.loc, "parameter '%.*s' needs a type", (int)nm->n, nm->s);
    for (uint32_t i = 0; i < b->nparams + b->nrets; i++) {
        const ir_symbol *o = &b->syms[i < b->nparams ? b->params[i] : b->rets[i - b->nparams]];
        if (strlen(o->name) == nm->n && memcmp(o->name, nm->s, nm->n) == 0) {
            berr(b, b->var.loc, "parameter '%.*s' is already declared", (int)nm->n, nm->s);
            break;
        }
    }
    uint32_t si = new_sym(b);
    ir_symbol *s = &b->syms[si];
    sym_from_spec(b, s);
    s->kind = IR_SYM_PARAM;
    s->linkage = (uint8_t)linkage;
    if (s->space == IR_SPACE_PARAM || !s->space)
        s->space = IR_SPACE_PARAM;
    s->owner = b->fidx;
    if (is_ret)
        *VEC_PUSH(b->rets, b->nrets, b->caprets) = si;
    else
        *VEC_PUSH(b->params, b->nparams, b->capparams) = si;
    /* keep the function's linkage, drop the parameter's specifiers */
    char fl = b->spec.linkage;
    ptx_b_spec_reset(b);
    b->spec.linkage = fl;
}

void ptx_b_func_name(ptx_builder *b, const ptx_tok *name, ptx_loc l)
{
    uint32_t h = name_hash(name->s, name->n);
    hent *e = ht_find(&b->modtab, name->s, name->n, h);
    if (e) {
        ir_symbol *s = &b->syms[e->val];
        if (s->kind == IR_SYM_FUNC && s->func_index >= 0 && b->funcs[s->func_index].is_decl) {
            b->fidx = s->func_index;
            ir_function *f = &b->funcs[b->fidx];
            b->proto_line = f->loc.line;   /* for check_prototype's message */
            for (uint32_t i = 0; i < f->nparams; i++)
                b->syms[f->params[i]].owner = -2; /* superseded by this definition */
            for (uint32_t i = 0; i < f->nrets; i++)
                b->syms[f->rets[i]].owner = -2;
            goto named;
        }
        berr(b, l, "'%.*s' is already declared", (int)name->n, name->s);
    }
    {
        uint32_t si = new_sym(b);
        ir_function *f = VEC_PUSH(b->funcs, b->nfuncs, b->capfuncs);
        memset(f, 0, sizeof *f);
        ir_symbol *s = &b->syms[si];
        s->name = bstr(b, name->s, name->n);
        s->kind = IR_SYM_FUNC;
        s->func_index = (int32_t)(b->nfuncs - 1);
        s->loc = to_loc(l);
        f->name = s->name;
        f->sym = si;
        f->is_decl = true;
        b->fidx = (int32_t)(b->nfuncs - 1);
        if (!e)
            ht_put(&b->modtab, s->name, name->n, h, (int32_t)si);
    }
named:;
    ir_function *f = &b->funcs[b->fidx];
    f->is_entry = b->is_entry;
    f->linkage = (uint8_t)b->spec.linkage;
    b->syms[f->sym].linkage = f->linkage;
    f->loc = to_loc(b->floc);
    for (uint32_t i = 0; i < b->nrets; i++)
        b->syms[b->rets[i]].owner = b->fidx;
    if (b->is_entry && b->nrets)
        berr(b, l, "a kernel (.entry) cannot have return parameters");
    memset(f->maxntid, 0, sizeof f->maxntid);
    memset(f->reqntid, 0, sizeof f->reqntid);
    memset(f->reqnctapercluster, 0, sizeof f->reqnctapercluster);
    f->minnctapersm = f->maxnreg = f->maxclusterrank = 0;
    f->explicitcluster = f->noreturn = false;
}

void ptx_b_func_dir(ptx_builder *b, int kind, const int64_t *v, int n, ptx_loc l)
{
    b->head_pragma_last = 0;
    if (kind == 0) {
        if (b->nints < 3)
            b->ints[b->nints++] = *v;
        return;
    }
    if (b->fidx < 0)
        return;
    ir_function *f = &b->funcs[b->fidx];
    uint32_t *dst3 = NULL;
    switch (kind) {
    case PTX_DIR_MAXNTID: dst3 = f->maxntid; break;
    case PTX_DIR_REQNTID: dst3 = f->reqntid; break;
    case PTX_DIR_REQNCTAPERCLUSTER: dst3 = f->reqnctapercluster; break;
    case PTX_DIR_MINNCTAPERSM: case PTX_DIR_MAXNCTAPERSM: f->minnctapersm = (uint32_t)*v; break;
    case PTX_DIR_MAXNREG: f->maxnreg = (uint32_t)*v; break;
    case PTX_DIR_MAXCLUSTERRANK: f->maxclusterrank = (uint32_t)*v; break;
    case PTX_DIR_EXPLICITCLUSTER: f->explicitcluster = true; break;
    case PTX_DIR_NORETURN: f->noreturn = true; break;
    }
    if (dst3) {
        for (int i = 0; i < 3; i++)
            dst3[i] = i < b->nints ? (uint32_t)b->ints[i] : 1;
        b->nints = 0;
    }
    (void)n;
    (void)l;
}

/* Lay out the parameter block: each parameter at the next offset that
 * satisfies its alignment (explicit .align, else the element size). */
/* A function declared again (or defined after a declaration) must keep its
 * prototype: the same parameters and return parameters, of the same types,
 * sizes and alignments (their names may change), as ptxas requires. */
static void check_prototype(ptx_builder *b, const ir_function *f)
{
    if (!f->params && !f->rets)
        return; /* first declaration */
    if (f->nparams != b->nparams || f->nrets != b->nrets) {
        berr(b, b->floc, "inconsistent prototypes of '%s': %u parameters and %u return parameters here, "
             "%u and %u at line %u", f->name, b->nparams, b->nrets, f->nparams, f->nrets, b->proto_line);
        return;
    }
    for (uint32_t i = 0; i < b->nparams + b->nrets; i++) {
        bool ret = i >= b->nparams;
        const ir_symbol *x = &b->syms[ret ? f->rets[i - b->nparams] : f->params[i]];
        const ir_symbol *y = &b->syms[ret ? b->rets[i - b->nparams] : b->params[i]];
        if (x->type != y->type || x->vec != y->vec || x->size != y->size || x->align != y->align ||
            x->is_ptr != y->is_ptr) {
            berr(b, b->floc, "inconsistent prototypes of '%s': %sparameter %u differs in type, size or "
                 "alignment from line %u", f->name, ret ? "return " : "",
                 (ret ? i - b->nparams : i) + 1, b->proto_line);
            return;
        }
    }
}

static void layout_params(ptx_builder *b, ir_function *f)
{
    check_prototype(b, f);
    uint32_t off = 0;
    for (uint32_t i = 0; i < b->nparams; i++) {
        ir_symbol *s = &b->syms[b->params[i]];
        s->owner = b->fidx;
        uint32_t al = s->align ? s->align : type_bytes(s->type) * s->vec;
        if (!al)
            al = 1;
        off = (off + al - 1) & ~(al - 1);
        s->param_offset = off;
        off += (uint32_t)s->size;
    }
    f->param_bytes = off;
    f->nparams = b->nparams;
    f->params = ir_arena_alloc(b->A, (b->nparams + 1) * sizeof *f->params);
    if (b->nparams) memcpy(f->params, b->params, b->nparams * sizeof *f->params);
    uint32_t roff = 0;
    for (uint32_t i = 0; i < b->nrets; i++) {
        ir_symbol *s = &b->syms[b->rets[i]];
        uint32_t al = s->align ? s->align : type_bytes(s->type) * s->vec;
        roff = (roff + al - 1) & ~(al - 1);
        s->param_offset = roff;
        roff += (uint32_t)s->size;
    }
    f->nrets = b->nrets;
    f->rets = ir_arena_alloc(b->A, (b->nrets + 1) * sizeof *f->rets);
    if (b->nrets) memcpy(f->rets, b->rets, b->nrets * sizeof *f->rets);
}

void ptx_b_func_body(ptx_builder *b, ptx_loc l)
{
    if (b->fidx < 0)
        return;
    ir_function *f = &b->funcs[b->fidx];
    if (!f->is_decl) {
        berr(b, l, "function '%s' is already defined", f->name);
    }
    layout_params(b, f);
    ptx_b_spec_reset(b);
    b->nhead_pragmas = b->npragmas;
    b->in_body = 1;
    b->depth = 1;
    b->scopes[1] = 0;
    b->nblocks = 0;
    *VEC_PUSH(b->bparent, b->nblocks, b->capblocks) = 0; /* block 0: the body */
    b->blockat[1] = 0;
    for (uint32_t i = 0; i < b->nrets + b->nparams; i++) {
        uint32_t si = i < b->nrets ? b->rets[i] : b->params[i - b->nrets];
        const char *nm = b->syms[si].name;
        uint32_t n = (uint32_t)strlen(nm);
        if (bind_find(b, nm, n, name_hash(nm, n))) /* duplicates were reported above */
            continue;
        ir_symbol *s = &b->syms[si];
        if (s->space == IR_SPACE_REG && b->nregs < IR_MAX_REGS) {
            /* a `.reg` parameter is a register of the body: the call
             * copies the argument into it, ret copies it out */
            ir_regdecl *r = VEC_PUSH(b->regs, b->nregs, b->capregs);
            r->name = s->name;
            r->type = s->type;
            r->vec = s->vec ? s->vec : 1;
            r->loc = s->loc;
            s = &b->syms[si];
            s->reg1 = b->nregs;
            bind_add(b, nm, n, BIND_REG, b->nregs - 1, l);
        } else {
            bind_add(b, nm, n, BIND_SYM, si, l);
        }
    }
}

/* Hand a grown builder array over to the module: trim it to n + 1
 * elements (the last one zeroed, as a sentinel), let the arena free it
 * with the module, and start the builder's array afresh.  No copy: the
 * instruction array is most of a module's memory. */
static void *hand_over(ptx_builder *b, void **arr, uint32_t n, uint32_t *cap, size_t esz)
{
    if (!*arr)
        return ir_arena_alloc(b->A, esz);
    char *p = *arr;
    if (*cap != n + 1)
        p = xrealloc(p, ((size_t)n + 1) * esz);
    memset(p + (size_t)n * esz, 0, esz);
    ir_arena_adopt(b->A, p);
    *arr = NULL;
    *cap = 0;
    return p;
}
#define HAND_OVER(dst, arr, n, cap) \
    ((dst) = hand_over(b, (void **)&(arr), (n), &(cap), sizeof *(arr)))

/* The label a reference in block `blk` means: PTX scopes labels to their
 * { } block as it scopes registers, so the one written in the innermost
 * block enclosing the reference wins (CUTLASS's and Triton's inline-asm wait
 * loops define the same label once per inlined copy, each in its own block;
 * ptxas accepts that).  Returns the label's index or -1. */
static int32_t label_lookup(ptx_builder *b, const char *s, uint32_t n, uint32_t blk)
{
    hent *e = ht_find(&b->labeltab, s, n, name_hash(s, n));
    if (!e)
        return -1;
    for (;;) {
        for (int32_t i = e->val; i >= 0; i = b->lscope[i].prev)
            if (b->lscope[i].block == blk)
                return i;
        if (blk == 0)
            return -1;
        blk = b->bparent[blk];
    }
}

static void resolve_label(ptx_builder *b, ir_operand *o)
{
    if (o->kind != IR_OPD_LABEL)
        return;
    labelref *r = &b->refs[o->u.label];
    int32_t i = label_lookup(b, r->s, r->n, r->block);
    if (i < 0) {
        hent *e = ht_find(&b->labeltab, r->s, r->n, name_hash(r->s, r->n));
        if (e)
            berr(b, r->loc, "label '%.*s' is not visible here: it is defined at line %u, "
                 "inside a { } block that does not enclose this use",
                 (int)r->n, r->s, b->lscope[e->val].loc.line);
        else
            berr(b, r->loc, "undefined label or symbol '%.*s'", (int)r->n, r->s);
        o->u.label = 0;
        return;
    }
    o->u.label = b->labels[i].instr;
}

void ptx_b_func_end(ptx_builder *b, int has_body, ptx_loc l)
{
    if (!b->in_func)
        return;
    b->in_func = 0;
    if (b->fidx < 0)
        return;
    ir_function *f = &b->funcs[b->fidx];
    if (!has_body || !b->in_body) {
        if (!b->in_body) {
            layout_params(b, f);
            b->nhead_pragmas = b->npragmas;
        }
        /* a definition that follows replaces these (the printer writes
         * them for a declaration only when no definition does) */
        f->npragmas = f->nhead_pragmas = b->nhead_pragmas;
        HAND_OVER(f->pragmas, b->pragmas, b->nhead_pragmas, b->cappragmas);
        item(b, IR_ITEM_FUNC_DECL, (uint32_t)b->fidx);
        ptx_b_spec_reset(b);
        return;
    }
    while (b->depth > 1)
        scope_pop(b);
    for (uint32_t i = 0; i < b->ninstrs; i++)
        for (uint32_t k = 0; k < b->instrs[i].nopd; k++)
            resolve_label(b, &b->instrs[i].opd[k]);
    for (uint32_t i = 0; i < b->nvecpool; i++)
        resolve_label(b, &b->vecpool[i]);
    f->is_decl = false;
    f->ninstrs = b->ninstrs;
    f->instrs = ir_arena_extend(b->IA, b->instrs, (size_t)b->capinstrs * sizeof *b->instrs,
                                ((size_t)b->ninstrs + 1) * sizeof *b->instrs);
    memset(&f->instrs[b->ninstrs], 0, sizeof *f->instrs); /* sentinel, as for every array */
    b->instrs = NULL;
    b->capinstrs = 0;
    f->nregs = b->nregs;
    HAND_OVER(f->regs, b->regs, b->nregs, b->capregs);
    f->nvecpool = b->nvecpool;
    HAND_OVER(f->vecpool, b->vecpool, b->nvecpool, b->capvecpool);
    f->nlabels = b->nlabels;
    HAND_OVER(f->labels, b->labels, b->nlabels, b->caplabels);
    f->nlocals = b->nlocals;
    HAND_OVER(f->locals, b->locals, b->nlocals, b->caplocals);
    f->nevents = b->nevents;
    HAND_OVER(f->events, b->events, b->nevents, b->capevents);
    f->npragmas = b->npragmas;
    f->nhead_pragmas = b->nhead_pragmas;
    HAND_OVER(f->pragmas, b->pragmas, b->npragmas, b->cappragmas);
    item(b, IR_ITEM_FUNC_DEF, (uint32_t)b->fidx);
    b->in_body = 0;
    ptx_b_spec_reset(b);
    (void)l;
}

/* ---- body statements -------------------------------------------------------- */

void ptx_b_label(ptx_builder *b, const ptx_tok *name, ptx_loc l)
{
    if (!b->in_body)
        return;
    uint32_t h = name_hash(name->s, name->n);
    uint32_t blk = b->blockat[b->depth];
    hent *e = ht_find(&b->labeltab, name->s, name->n, h);
    int32_t prev = e ? e->val : -1;
    for (int32_t i = prev; i >= 0; i = b->lscope[i].prev)
        if (b->lscope[i].block == blk) {
            berr(b, l, "label '%.*s' is already defined in this block (line %u)",
                 (int)name->n, name->s, b->lscope[i].loc.line);
            return;
        }
    struct ir_label *lb = VEC_PUSH(b->labels, b->nlabels, b->caplabels);
    lb->name = bstr(b, name->s, name->n);
    lb->instr = b->ninstrs;
    if (b->caplscope < b->caplabels) {
        b->lscope = xrealloc(b->lscope, (size_t)b->caplabels * sizeof *b->lscope);
        b->caplscope = b->caplabels;
    }
    b->lscope[b->nlabels - 1] = (labelscope){ .block = blk, .prev = prev, .loc = l };
    ht_put(&b->labeltab, lb->name, name->n, h, (int32_t)(b->nlabels - 1));
    event(b, IR_EV_LABEL, b->nlabels - 1, 0, 0);
}

void ptx_b_pragma_str(ptx_builder *b, const ptx_tok *str, int first)
{
    if (first)
        b->npstr = 0;
    uint32_t need = b->npstr + str->n + 3;
    if (need > b->cappstr) {
        b->cappstr = need * 2;
        b->pstr = xrealloc(b->pstr, b->cappstr);
    }
    if (!first) {
        memcpy(b->pstr + b->npstr, ", ", 2);
        b->npstr += 2;
    }
    memcpy(b->pstr + b->npstr, str->s, str->n);
    b->npstr += str->n;
}

/* PTX allows .pragma at module scope, at entry scope (between a function's
 * header and its body) and as a statement of a body; each is kept where it
 * stood.  The strings are not interpreted ("nounroll", "used_bytes_mask
 * ...", "enable_smem_spilling": ptxas's business). */
void ptx_b_pragma(ptx_builder *b, ptx_loc l)
{
    (void)l;
    const char *text = bstr(b, b->pstr ? b->pstr : "", b->npstr);
    if (b->in_body) {
        *VEC_PUSH(b->pragmas, b->npragmas, b->cappragmas) = text;
        event(b, IR_EV_PRAGMA, b->npragmas - 1, 0, 0);
    } else if (b->in_func) {
        *VEC_PUSH(b->pragmas, b->npragmas, b->cappragmas) = text;
        b->head_pragma_last = 1;
    } else {
        *VEC_PUSH(b->mpragmas, b->nmpragmas, b->capmpragmas) = text;
        item(b, IR_ITEM_PRAGMA, b->nmpragmas - 1);
    }
}

/* `header ;`: a declaration, unless a trailing .pragma's ';' already
 * ended it, where ptxas sees an empty statement: a syntax error. */
void ptx_b_func_end_semi(ptx_builder *b, ptx_loc semi)
{
    if (b->in_func && b->head_pragma_last)
        ptx_b_error(b, semi, "syntax error: unexpected ';' (the .pragma's ';' ended the declaration)");
    ptx_b_func_end(b, 0, semi);
}

/* A header followed by neither ';' nor a body: as in ptxas, the ';' of a
 * trailing `.pragma "..";` ends the declaration (`.func f() .pragma "x";`);
 * anything else lacks its ';'.  `l` is where the next item starts. */
void ptx_b_func_end_bare(ptx_builder *b, ptx_loc l)
{
    if (b->in_func && !b->head_pragma_last)
        ptx_b_error(b, l, "syntax error: expected ';' or '{' after the function header");
    ptx_b_func_end(b, 0, l);
}

void ptx_b_proto(ptx_builder *b, const ptx_tok *name, ptx_loc text, ptx_loc l)
{
    if (!b->in_body)
        return;
    uint32_t si = new_sym(b);
    ir_symbol *s = &b->syms[si];
    s->name = bstr(b, name->s, name->n);
    s->kind = IR_SYM_FUNC;
    s->func_index = -1;
    s->owner = b->fidx;
    s->loc = to_loc(l);
    uint32_t end = l.end;
    while (end > text.off && (b->src[end - 1] == ';' || b->src[end - 1] == ' ' || b->src[end - 1] == '\t'))
        end--;
    s->proto = bstr(b, b->src + text.off, end - text.off);
    *VEC_PUSH(b->locals, b->nlocals, b->caplocals) = si;
    if (bind_add(b, s->name, name->n, BIND_SYM, si, l))
        event(b, IR_EV_SYM, si, 1, 0);
}

/* ---- mnemonics -------------------------------------------------------------- */

static void modcls_init(ptx_builder *b)
{
    static const struct { const char *n; uint8_t c; } map[] = {
        { "SPACE", MC_SPACE }, { "CMP", MC_CMP }, { "BOOL", MC_BOOL }, { "RND", MC_RND },
        { "DIM", MC_DIM }, { "MODE", MC_MODE }, { "SCOPE", MC_SCOPE }, { "SEM", MC_SEM },
        { "VEC", MC_VEC },
    };
    for (int m = 1; m < IR_M__COUNT; m++) {
        b->modcls[m] = MC_OTHER;
        for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
            if (strcmp(ir_mods[m].cls, map[k].n) == 0)
                b->modcls[m] = map[k].c;
    }
}

static int is_redop_op(int op)
{
    switch (op) {
    case IR_OP_ATOM: case IR_OP_RED: case IR_OP_REDUX: case IR_OP_CP_REDUCE_ASYNC_BULK:
    case IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR: case IR_OP_BAR: case IR_OP_BARRIER:
    case IR_OP_MULTIMEM_LD_REDUCE: case IR_OP_MULTIMEM_RED: case IR_OP_RED_ASYNC:
        return 1;
    }
    return 0;
}

static int is_cmp_op(int op)
{
    switch (op) {
    case IR_OP_MUL: case IR_OP_MAD: case IR_OP_MUL24: case IR_OP_MAD24: case IR_OP_MADC:
        return 0; /* .hi/.lo select a half there */
    }
    return 1;
}

static uint8_t mod_space(int m)
{
    switch (m) {
    case IR_M_GLOBAL: return IR_SPACE_GLOBAL;
    case IR_M_SHARED: case IR_M_SHARED_CTA: return IR_SPACE_SHARED_CTA;
    case IR_M_SHARED_CLUSTER: return IR_SPACE_SHARED_CLUSTER;
    case IR_M_LOCAL: return IR_SPACE_LOCAL;
    case IR_M_CONST: return IR_SPACE_CONST;
    case IR_M_PARAM: case IR_M_PARAM_ENTRY: return IR_SPACE_PARAM;
    case IR_M_PARAM_FUNC: return IR_SPACE_PARAM_FUNC;
    }
    return IR_SPACE_NONE;
}

static int is_tensor_op(int op)
{
    return op == IR_OP_CP_ASYNC_BULK_TENSOR || op == IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR ||
           op == IR_OP_CP_ASYNC_BULK_PREFETCH_TENSOR;
}

static int is_copy_op(int op)
{
    return strncmp(ir_ops[op].name, "cp.", 3) == 0 || op == IR_OP_TENSORMAP_CP_FENCEPROXY;
}

/* The class within which modifier m of opcode op excludes others (two
 * roundings, two comparisons, two scopes, two reduction operations, a
 * second state space outside copies, ...), or -1. */
static int conflict_class(const ptx_builder *b, int op, int m, const ir_instr *in)
{
    int k = b->modcls[m];
    switch (k) {
    case MC_SPACE: case MC_RND: case MC_DIM: case MC_MODE: case MC_SCOPE: case MC_VEC:
        return k;
    case MC_CMP:
        return is_cmp_op(op) ? k : -1;
    case MC_BOOL:
        return op == IR_OP_SETP || op == IR_OP_SET ? k : is_redop_op(op) ? MC_REDOP : -1;
    case MC_SEM: /* .mmio goes with .relaxed */
        return m == IR_M_MMIO || ir_has(in, IR_M_MMIO) ? -1 : k;
    }
    switch (m) {
    case IR_M_OP_ADD: case IR_M_OP_MIN: case IR_M_OP_MAX: case IR_M_OP_INC: case IR_M_OP_DEC:
    case IR_M_OP_EXCH: case IR_M_OP_CAS: case IR_M_OP_POPC:
        return is_redop_op(op) ? MC_REDOP : -1;
    }
    return -1;
}

/* Split a written mnemonic into opcode + modifiers/types.  Returns 0 and
 * reports at the offending column on failure. */
static int decode_mnemonic(ptx_builder *b, const char *s, uint32_t n, ptx_loc l, ir_instr *in)
{
    uint32_t dots[40], nd = 0;
    for (uint32_t i = 0; i < n && nd < 40; i++)
        if (s[i] == '.')
            dots[nd++] = i;
    int op = ir_op_lookup(s, n);
    uint32_t base = n;
    for (int k = (int)nd - 1; op < 0 && k >= 0; k--) {
        op = ir_op_lookup(s, dots[k]);
        base = dots[k];
    }
    if (op < 0) {
        uint32_t w = nd ? dots[0] : n;
        berr(b, l, "unknown instruction '%.*s'", (int)w, s);
        return 0;
    }
    memset(in, 0, offsetof(ir_instr, opd));
    in->partmask = 0;
    in->aux = 0;
    in->op = (uint16_t)op;
    in->vec = 1;
    uint32_t p = base, part = 0;
    int first[MC__COUNT] = { 0 }, spaces[2] = { 0, 0 }, nspace = 0;
    while (p < n) {
        uint32_t q = p + 1;
        while (q < n && s[q] != '.')
            q++;
        const char *w = s + p + 1;
        uint32_t wn = q - p - 1;
        int t = ir_type_lookup(w, wn);
        if (t) {
            if (in->ntypes >= IR_MAX_TYPES) {
                ptx_loc ml = l; ml.col += p;
                berr(b, ml, "too many types in '%.*s'", (int)n, s);
                return 0;
            }
            in->types[in->ntypes++] = (uint8_t)t;
            in->partmask |= 1u << part;
        } else {
            int m = ir_mod_lookup(w, wn);
            if (!m) {
                ptx_loc ml = l; ml.col += p;
                berr(b, ml, "unknown modifier '.%.*s' in '%.*s'", (int)wn, w, (int)n, s);
                return 0;
            }
            if (in->nmods >= IR_MAX_MODS) {
                ptx_loc ml = l; ml.col += p;
                berr(b, ml, "too many modifiers in '%.*s'", (int)n, s);
                return 0;
            }
            /* createpolicy names a primary and a secondary priority, which
             * may be the same (.L2::evict_first.L2::evict_first) */
            if (ir_has(in, (ir_mod)m) &&
                !(op == IR_OP_CREATEPOLICY && (m == IR_M_L2_EVICT_FIRST || m == IR_M_L2_EVICT_UNCHANGED)) &&
                /* wmma.mma and mma.m8n8k4 name A's and B's layouts in turn (.row.row) */
                !((op == IR_OP_WMMA_MMA || op == IR_OP_MMA) && (m == IR_M_ROW || m == IR_M_COL))) {
                ptx_loc ml = l; ml.col += p;
                berr(b, ml, "modifier '.%.*s' appears twice in '%.*s'", (int)wn, w, (int)n, s);
                return 0;
            }
            int k = conflict_class(b, op, m, in), other = 0;
            if (k == MC_SPACE) { /* copies name a destination and a source */
                if (nspace >= (is_copy_op(op) ? 2 : 1))
                    other = spaces[nspace - 1];
                else
                    spaces[nspace++] = m;
            } else if (k >= 0) {
                if (first[k])
                    other = first[k];
                else
                    first[k] = m;
            }
            if (other) {
                ptx_loc ml = l; ml.col += p;
                berr(b, ml, "conflicting %s '.%s' and '.%.*s' in '%.*s'",
                     k == MC_SPACE ? "state spaces" : "modifiers", ir_mods[other].text,
                     (int)wn, w, (int)n, s);
                return 0;
            }
            in->mods[in->nmods++] = (uint16_t)m;
            in->modset[m >> 6] |= 1ull << (m & 63);
            switch (b->modcls[m]) {
            case MC_SPACE:
                if (!in->space) in->space = mod_space(m);
                else if (!in->space2) in->space2 = mod_space(m);
                break;
            case MC_CMP: if (is_cmp_op(op)) in->cmp = (uint8_t)m; break;
            case MC_BOOL:
                if (op == IR_OP_SETP || op == IR_OP_SET) in->boolop = (uint8_t)m;
                else if (is_redop_op(op)) in->redop = (uint16_t)m;
                break;
            case MC_RND: in->rnd = (uint8_t)m; break;
            case MC_DIM: in->dim = (uint8_t)(m - IR_M_D1 + 1); break;
            case MC_MODE: in->mode = (uint8_t)m; break;
            case MC_SCOPE: in->scope = (uint8_t)m; break;
            case MC_SEM: in->sem = (uint8_t)m; break;
            case MC_VEC: in->vec = m == IR_M_V2 ? 2 : m == IR_M_V4 ? 4 : 8; break;
            default:
                switch (m) {
                case IR_M_OP_ADD: case IR_M_OP_MIN: case IR_M_OP_MAX: case IR_M_OP_INC:
                case IR_M_OP_DEC: case IR_M_OP_EXCH: case IR_M_OP_CAS: case IR_M_OP_POPC:
                    if (is_redop_op(op)) in->redop = (uint16_t)m;
                    break;
                }
            }
        }
        part++;
        p = q;
    }
    if (is_tensor_op(op) && !in->mode)
        in->mode = IR_M_TILE; /* the ISA's default load_mode */
    return 1;
}

static int mnemonic(ptx_builder *b, const ptx_tok *t, ptx_loc l, ir_instr *in)
{
    uint32_t h = name_hash(t->s, t->n);
    hent *e = ht_find(&b->mtab, t->s, t->n, h);
    if (e) {
        memcpy(in, &b->mcache[e->val], offsetof(ir_instr, opd));
        in->partmask = b->mcache[e->val].partmask;
        in->aux = 0;
        return 1;
    }
    if (!decode_mnemonic(b, t->s, t->n, l, in))
        return 0;
    ir_instr *c = VEC_PUSH(b->mcache, b->nmcache, b->capmcache);
    memcpy(c, in, offsetof(ir_instr, opd));
    c->partmask = in->partmask;
    ht_put(&b->mtab, bstr(b, t->s, t->n), t->n, h, (int32_t)(b->nmcache - 1));
    return 1;
}

/* ---- instructions ----------------------------------------------------------- */

void ptx_b_guard(ptx_builder *b, const ptx_tok *reg, int neg, ptx_loc l)
{
    b->has_guard = 1;
    b->guard_neg = neg;
    b->guard = -1;
    if (!b->in_body)
        return;
    binding *bd = bind_find(b, reg->s, reg->n, name_hash(reg->s, reg->n));
    if (!bd || bd->kind != BIND_REG) {
        berr(b, l, "undefined predicate register '%.*s'", (int)reg->n, reg->s);
        return;
    }
    if (b->regs[bd->idx].type != IR_T_PRED)
        berr(b, l, "guard '%.*s' is not a .pred register", (int)reg->n, reg->s);
    b->guard = (int32_t)bd->idx;
}

void ptx_b_instr_begin(ptx_builder *b, const ptx_tok *mnem, ptx_loc l)
{
    b->in_instr = 1;
    b->ntmp = 0;
    b->nvstack = 0;
    b->bad_instr = !mnemonic(b, mnem, l, &b->cur);
    b->cur.guard = b->has_guard ? b->guard : -1;
    b->cur.guard_neg = (uint8_t)(b->has_guard && b->guard_neg);
    if (b->has_guard && b->guard < 0)
        b->bad_instr = 1;
    b->has_guard = 0;
    b->cur.loc = to_loc(l);
    if (!b->in_body) {
        berr(b, l, "instruction outside a function body");
        b->bad_instr = 1;
    }
}

static ir_operand *opd_push(ptx_builder *b)
{
    ir_operand *o = VEC_PUSH(b->tmp, b->ntmp, b->captmp);
    memset(o, 0, sizeof *o);
    return o;
}

void ptx_b_opd_name(ptx_builder *b, const ptx_tok *t, int neg, ptx_loc l)
{
    ir_operand *o = opd_push(b);
    if (!b->in_body)
        return;
    uint32_t h = name_hash(t->s, t->n);
    binding *bd = bind_find(b, t->s, t->n, h);
    o->neg = (uint8_t)neg;
    o->vsel = (uint8_t)(t->v & 0xff);
    o->xsel = (uint16_t)(t->v >> 8);
    if (bd && bd->kind == BIND_REG) {
        o->kind = IR_OPD_REG;
        o->u.reg = bd->idx;
        if (neg && b->regs[bd->idx].type != IR_T_PRED) {
            berr(b, l, "'!' negates predicates only; '%.*s' is not a .pred register", (int)t->n, t->s);
            b->bad_instr = 1;
        }
        return;
    }
    if (neg || t->v) { /* the printer has no way to write these back */
        berr(b, l, "%s applies to registers only, not to '%.*s'",
             neg ? "'!'" : "a component selector", (int)t->n, t->s);
        b->bad_instr = 1;
        return;
    }
    if (bd) {
        o->kind = IR_OPD_SYM;
        o->u.sym = bd->idx;
        return;
    }
    hent *e = ht_find(&b->modtab, t->s, t->n, h);
    if (e) {
        o->kind = IR_OPD_SYM;
        o->u.sym = (uint32_t)e->val;
        return;
    }
    if (t->s[0] == '%') {
        berr(b, l, "undefined register '%.*s'", (int)t->n, t->s);
        b->bad_instr = 1;
        return;
    }
    labelref *r = VEC_PUSH(b->refs, b->nrefs, b->caprefs);
    r->s = t->s;
    r->n = t->n;
    r->loc = l;
    r->block = b->in_body ? b->blockat[b->depth] : 0;
    o->kind = IR_OPD_LABEL;
    o->u.label = b->nrefs - 1;
}

void ptx_b_opd_sreg(ptx_builder *b, const ptx_tok *t, ptx_loc l)
{
    (void)l;
    ir_operand *o = opd_push(b);
    o->kind = IR_OPD_SREG;
    o->u.sreg = (uint32_t)t->v;
}

void ptx_b_opd_int(ptx_builder *b, int64_t v, ptx_loc l)
{
    (void)l;
    ir_operand *o = opd_push(b);
    o->kind = IR_OPD_IMM;
    o->u.imm = v;
}

void ptx_b_opd_float(ptx_builder *b, const ptx_tok *t, int neg, ptx_loc l)
{
    (void)l;
    ir_operand *o = opd_push(b);
    o->kind = IR_OPD_FIMM;
    o->fimm = neg ? -t->f : t->f;
    uint64_t bits = t->bits;
    if (neg)
        bits ^= t->v == 'f' ? 0x80000000ull : 0x8000000000000000ull;
    o->u.imm = (int64_t)bits;
    o->type = t->v == 'f' ? IR_T_F32 : IR_T_F64;
    o->vsel = (uint8_t)(t->v ? t->v : 'e'); /* how it was written: 0f, 0d or decimal */
}

void ptx_b_opd_sink(ptx_builder *b, ptx_loc l)
{
    (void)l;
    ir_operand *o = opd_push(b);
    o->kind = IR_OPD_SINK;
}

void ptx_b_addr(ptx_builder *b, const ptx_tok *base, int64_t off, ptx_loc l)
{
    ir_operand *o = opd_push(b);
    o->kind = IR_OPD_ADDR;
    o->u.addr.off = off;
    if (!base || !b->in_body)
        return;
    uint32_t h = name_hash(base->s, base->n);
    binding *bd = bind_find(b, base->s, base->n, h);
    if (bd) {
        o->u.addr.base_kind = bd->kind == BIND_REG ? IR_BASE_REG : IR_BASE_SYM;
        o->u.addr.base = bd->idx;
        o->u.addr.base32 = bd->kind == BIND_REG && ir_types[b->regs[bd->idx].type].bits == 32;
        return;
    }
    hent *e = ht_find(&b->modtab, base->s, base->n, h);
    if (e) {
        o->u.addr.base_kind = IR_BASE_SYM;
        o->u.addr.base = (uint32_t)e->val;
        return;
    }
    berr(b, l, "undefined %s '%.*s' in address", base->s[0] == '%' ? "register" : "symbol",
         (int)base->n, base->s);
    b->bad_instr = 1;
}

void ptx_b_vec_begin(ptx_builder *b)
{
    if (b->nvstack < 8)
        b->vstack[b->nvstack++] = b->ntmp;
}

void ptx_b_vec_end(ptx_builder *b, int pair)
{
    if (!b->nvstack)
        return;
    uint32_t start = b->vstack[--b->nvstack];
    uint32_t n = b->ntmp - start, first = b->nvecpool;
    for (uint32_t i = 0; i < n; i++)
        *VEC_PUSH(b->vecpool, b->nvecpool, b->capvecpool) = b->tmp[start + i];
    b->ntmp = start;
    ir_operand *o = opd_push(b);
    o->kind = IR_OPD_VEC;
    o->u.vec.first = first;
    o->u.vec.n = n;
    if (pair)
        o->vsel = '|';
}

void ptx_b_addr_attach_vec(ptx_builder *b, ptx_loc brace)
{
    if (b->ntmp < 2)
        return;
    ir_operand *v = &b->tmp[b->ntmp - 1], *a = &b->tmp[b->ntmp - 2];
    a->u.addr.has_vec = 1;
    a->u.addr.vec_first = v->u.vec.first;
    a->u.addr.vec_n = (uint16_t)v->u.vec.n;
    b->ntmp--;
    if (b->ntmp <= IR_MAX_OPDS)
        b->oloc.coords[b->ntmp - 1] = to_loc(brace);
}

/* A top-level operand is complete (vector elements and address parts are
 * folded into it): remember where it was written. */
void ptx_b_opd_end(ptx_builder *b, ptx_loc l)
{
    if (b->ntmp && b->ntmp <= IR_MAX_OPDS + 2)
        b->oloc.opd[b->ntmp - 1] = to_loc(l);
}

/* An operand list inserted at `at` by the builder: it points at what now
 * follows it. */
static void oloc_insert(ptx_builder *b, uint32_t at)
{
    const uint32_t n = IR_MAX_OPDS + 2;
    if (at + 1 < n)
        memmove(&b->oloc.opd[at + 1], &b->oloc.opd[at], (n - at - 1) * sizeof b->oloc.opd[0]);
}

void ptx_b_instr_abort(ptx_builder *b)
{
    b->in_instr = 0;
    b->has_guard = 0;
    b->ntmp = 0;
    b->nvstack = 0;
}

/* call's operands are normalised to: (rets), target, (args) [, proto]. */
static void normalise_call(ptx_builder *b)
{
    ir_operand empty;
    memset(&empty, 0, sizeof empty);
    empty.kind = IR_OPD_VEC;
    empty.u.vec.first = b->nvecpool;
    if (b->ntmp + 2 > b->captmp) { /* room for the two lists inserted below */
        b->captmp = b->ntmp + 64;
        b->tmp = xrealloc(b->tmp, b->captmp * sizeof *b->tmp);
    }
    if (b->ntmp == 0 || b->tmp[0].kind != IR_OPD_VEC) {
        memmove(&b->tmp[1], &b->tmp[0], b->ntmp * sizeof b->tmp[0]);
        b->tmp[0] = empty;
        b->ntmp++;
        oloc_insert(b, 0);
    }
    if (b->ntmp == 2) {
        b->tmp[b->ntmp++] = empty;
        b->oloc.opd[2] = b->oloc.opd[1];
    } else if (b->ntmp >= 3 && b->tmp[2].kind != IR_OPD_VEC) {
        memmove(&b->tmp[3], &b->tmp[2], (b->ntmp - 2) * sizeof b->tmp[0]);
        b->tmp[2] = empty;
        b->ntmp++;
        oloc_insert(b, 2);
    }
    if (b->ntmp >= 2 && b->tmp[1].kind == IR_OPD_SYM && b->syms[b->tmp[1].u.sym].kind == IR_SYM_FUNC)
        b->cur.aux = (uint32_t)b->syms[b->tmp[1].u.sym].func_index;
}

void ptx_b_instr_end(ptx_builder *b, ptx_loc semi)
{
    if (!b->in_instr)
        return;
    b->in_instr = 0;
    if (b->bad_instr)
        return;
    if (b->cur.op == IR_OP_CALL)
        normalise_call(b);
    if (b->ntmp > IR_MAX_OPDS) {
        char mn[256];
        ir_format_mnemonic(&b->cur, mn, sizeof mn);
        ir_diag_error(b->diag, b->path, b->oloc.opd[IR_MAX_OPDS], /* the first one too many */
                      "%s has %u operands; at most %d are supported", mn, b->ntmp, IR_MAX_OPDS);
        return;
    }
    b->oloc.opd[b->ntmp] = to_loc(semi);
    b->cur.nopd = (uint8_t)b->ntmp;
    if (b->ntmp)
        memcpy(b->cur.opd, b->tmp, b->ntmp * sizeof b->tmp[0]);
    memset(b->cur.opd + b->ntmp, 0, (IR_MAX_OPDS - b->ntmp) * sizeof b->tmp[0]);
    ir_function *fview = &b->fview; /* the function so far, as the validator sees it */
    fview->vecpool = b->vecpool;
    fview->nvecpool = b->nvecpool;
    fview->regs = b->regs;
    fview->nregs = b->nregs;
    if (ir_validate_instr(b->m, fview, &b->cur, &b->oloc, b->diag))
        return;
    if (b->ninstrs + 1 >= b->capinstrs) { /* room for the sentinel too */
        uint32_t cap = b->capinstrs ? b->capinstrs * 2 : 64;
        b->instrs = ir_arena_extend(b->IA, b->instrs, (size_t)b->capinstrs * sizeof *b->instrs,
                                    (size_t)cap * sizeof *b->instrs);
        b->capinstrs = cap;
    }
    b->instrs[b->ninstrs++] = b->cur;
}

/* ---- entry points ------------------------------------------------------------ */

int ptx_yyparse(struct lex_state *L, ptx_builder *B);

ir_module *ptx_parse(const char *path, const char *src, size_t len, ir_diag *diag)
{
    ir_diag local;
    memset(&local, 0, sizeof local);
    if (!diag)
        diag = &local;
    unsigned errs0 = diag->nerrors;
    ir_arena *A = ir_arena_new();
    ir_module *m = ir_arena_alloc(A, sizeof *m);
    m->arena = A;
    m->path = ir_arena_strdup(A, path, strlen(path));
    char *copy = ir_arena_alloc_raw(A, len + 1);
    memcpy(copy, src, len);
    copy[len] = 0;
    m->src = copy;
    m->src_len = len;
    m->address_size = 64;
    diag->src = src;
    diag->src_len = len;
    diag->path = m->path;

    ptx_builder *b = calloc(1, sizeof *b);
    b->m = m;
    b->A = A;
    b->diag = diag;
    b->path = m->path;
    b->src = copy;
    b->fidx = -1;
    b->IA = ir_arena_sub(A);
    ht_init(&b->modtab, 1024);
    ht_init(&b->scopetab, 1024);
    ht_init(&b->labeltab, 256);
    ht_init(&b->mtab, 1024);
    modcls_init(b);

    lex_state L;
    lex_init(&L, copy, len, m->path, diag);
    ptx_yyparse(&L, b);
    if (b->in_func)
        ptx_b_func_end(b, b->in_body, (ptx_loc){ 0, 0, 0, 0 });
    if (!m->version_major && diag->nerrors == errs0)
        ir_diag_error(diag, m->path, (ir_loc){ 1, 1, 0 }, "missing .version directive");
    if (!m->target[0] && diag->nerrors == errs0)
        ir_diag_error(diag, m->path, (ir_loc){ 1, 1, 0 }, "missing .target directive");

    m->nsyms = b->nsyms;
    HAND_OVER(m->syms, b->syms, b->nsyms, b->capsyms);
    m->nfuncs = b->nfuncs;
    HAND_OVER(m->funcs, b->funcs, b->nfuncs, b->capfuncs);
    m->nitems = b->nitems;
    HAND_OVER(m->items, b->items, b->nitems, b->capitems);
    m->npragmas = b->nmpragmas;
    HAND_OVER(m->pragmas, b->mpragmas, b->nmpragmas, b->capmpragmas);
    m->files = ir_arena_alloc(A, sizeof *m->files);
    ir_srcmap_build(m);

    free(b->syms); free(b->funcs); free(b->items); free(b->files); free(b->init);
    free(b->params); free(b->rets); free(b->regs); free(b->vecpool);
    free(b->labels); free(b->lscope); free(b->bparent); free(b->locals); free(b->events); free(b->pragmas); free(b->refs);
    free(b->binds); free(b->mcache); free(b->tmp); free(b->pstr);
    free(b->modtab.e); free(b->scopetab.e); free(b->labeltab.e); free(b->mtab.e);
    free(b);
    diag->path = NULL; /* m->path may be freed below */
    if (diag->nerrors != errs0) {
        ir_module_free(m);
        return NULL;
    }
    return m;
}

ir_module *ptx_parse_file(const char *path, ir_diag *diag)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ir_diag_error(diag, path, (ir_loc){ 0, 0, 0 }, "cannot open file: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        ir_diag_error(diag, path, (ir_loc){ 0, 0, 0 }, "cannot read: %s",
                      S_ISDIR(st.st_mode) ? "a directory, not a PTX file" : "not a regular file");
        return NULL;
    }
    /* read to the end rather than trusting the size: the file may change */
    size_t cap = (size_t)st.st_size + 1, got = 0;
    char *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + got, 1, cap - got - 1, f)) > 0;) {
        got += k;
        if (got + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    int rerr = ferror(f);
    fclose(f);
    if (!buf || rerr) {
        free(buf);
        ir_diag_error(diag, path, (ir_loc){ 0, 0, 0 }, "cannot read file");
        return NULL;
    }
    buf[got] = 0;
    ir_diag local;
    memset(&local, 0, sizeof local);
    ir_module *m = ptx_parse(path, buf, got, diag ? diag : &local);
    if (diag) {
        diag->src = NULL; /* buf goes away */
        diag->src_len = 0;
    }
    free(buf);
    return m;
}
