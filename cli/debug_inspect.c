/* debug_inspect.c — the read side of `ptxi debug`: where warps stand,
 * registers, memory, mbarriers, tensor maps, operations in flight, and the
 * PTX source.
 *
 * Everything here reads the interpreter through its step API
 * (interp/interp.h) and never changes a run, except `set var`.  Values are
 * shown by their PTX type: .s as signed decimal, .u and .b8-.b32 as
 * unsigned decimal, .b64 in hex (they are mostly addresses), floats as
 * %g, predicates as the lanes where they hold, .b128 as 0x and all 32 hex
 * digits; /x /d /u /o /t /f /c override it as in gdb.  A register is a
 * warp-wide value, so `print` shows all 32 lanes (one value when they
 * agree).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/debug.h"
#include "cli/tmap_svg.h"
#include "tc/wgmma.h"

/* ---- small helpers ---------------------------------------------------------- */

static const char *skip_ws(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

static bool is_ident(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '$' || ch == '.' || ch == ':';
}

bool dbg_resident(const dbg *d)
{
    return d->c && interp_ncta(d->c) > 0;
}

static bool need_resident(const dbg *d)
{
    if (dbg_resident(d))
        return true;
    if (d->state == DBG_FINISHED)
        dbg_err("The kernel has exited: no CTA is resident (global memory is still readable).");
    else
        dbg_err("The kernel is not running yet: no CTA is resident. Use `run`, `step` or `break` + `run`.");
    return false;
}

char *dbg_lanes_str(uint32_t mask, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    if (!mask) {
        snprintf(buf, n, "none");
        return buf;
    }
    for (int i = 0; i < 32;) {
        if (!(mask >> i & 1)) {
            i++;
            continue;
        }
        int j = i;
        while (j + 1 < 32 && (mask >> (j + 1) & 1))
            j++;
        int w = j > i ? snprintf(buf + at, at < n ? n - at : 0, "%s%d-%d", at ? "," : "", i, j)
                      : snprintf(buf + at, at < n ? n - at : 0, "%s%d", at ? "," : "", i);
        if (w > 0)
            at += (size_t)w;
        if (at >= n) {
            buf[n - 1] = 0;
            break;
        }
        i = j + 1;
    }
    return buf;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static const char *func_file(const dbg *d, const ir_instr *in)
{
    (void)in;
    return base_name(d->mod->path ? d->mod->path : "<ptx>");
}

static const ir_instr *instr_at(const dbg *d, int func, uint32_t pc)
{
    if (func < 0 || (uint32_t)func >= d->mod->nfuncs || pc >= d->mod->funcs[func].ninstrs)
        return NULL;
    return &d->mod->funcs[func].instrs[pc];
}

void dbg_loc_str(const dbg *d, int func, uint32_t pc, char *buf, size_t n)
{
    const ir_instr *in = instr_at(d, func, pc);
    int sf;
    uint32_t sl;
    if (!in)
        snprintf(buf, n, "%s:?", func_file(d, NULL));
    else if (dbg_src_at(d, func, pc, &sf, &sl))
        snprintf(buf, n, "%s:%u (%s:%u)", func_file(d, in), in->loc.line, dbg_src_name(d, sf), sl);
    else
        snprintf(buf, n, "%s:%u", func_file(d, in), in->loc.line);
}

const char *dbg_space_name(int space)
{
    switch (space) {
    case DBG_SP_SHARED: return "smem";
    case DBG_SP_GLOBAL: return "global";
    case DBG_SP_PARAM: return "param";
    case DBG_SP_LOCAL: return "local";
    default: return "generic";
    }
}

/* ---- symbols ------------------------------------------------------------------ */

/* _ZZ10tma_tile2dE4tile -> "tile" (a function-scope static, demoted by
 * nvcc to module scope); NULL if the name is not of that form. */
static char *demangle_local(const char *name)
{
    if (strncmp(name, "_ZZ", 3))
        return NULL;
    for (const char *p = name + strlen(name); p > name + 3; p--) {
        if (p[-1] != 'E' || !isdigit((unsigned char)*p))
            continue;
        char *end;
        unsigned long n = strtoul(p, &end, 10);
        size_t rest = strlen(end);
        if (n && (rest == n || (rest > n && end[n] == '_')))
            return strndup(end, n);
    }
    return NULL;
}

void dbg_syms_free(dbg *d)
{
    for (size_t i = 0; i < d->nsyms; i++)
        free(d->syms[i].shortname);
    free(d->syms);
    d->syms = NULL;
    d->nsyms = 0;
}

void dbg_syms_build(dbg *d)
{
    dbg_syms_free(d);
    const ir_module *m = d->mod;
    int entry = (int)(d->entry - m->funcs);
    d->syms = calloc(m->nsyms ? m->nsyms : 1, sizeof *d->syms);
    if (!d->syms)
        return;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ir_symbol *s = &m->syms[i];
        if (s->kind == IR_SYM_FUNC || (s->kind == IR_SYM_PARAM && s->owner != entry))
            continue;
        int sp;
        uint64_t a;
        if (!interp_sym_addr(d->c, 0, 0, 0, i, &sp, &a))
            continue;
        int ds;
        switch (sp) {
        case IR_SPACE_SHARED_CTA:
        case IR_SPACE_SHARED_CLUSTER: ds = DBG_SP_SHARED; break;
        case IR_SPACE_GLOBAL:
        case IR_SPACE_CONST: ds = DBG_SP_GLOBAL; break;
        case IR_SPACE_PARAM: ds = DBG_SP_PARAM; break;
        default: continue;
        }
        dbg_sym *e = &d->syms[d->nsyms++];
        e->name = s->name;
        e->shortname = demangle_local(s->name);
        e->space = ds;
        e->addr = a;
        e->size = s->size;
        e->index = i;
    }
}

/* A variable by PTX name or demangled short name; with params true, a
 * kernel parameter (looked up after the launch's buffer names, which a
 * parameter often shares: `out` the buffer, `out` the pointer to it). */
static const dbg_sym *sym_find(const dbg *d, const char *name, bool params)
{
    const dbg_sym *hit = NULL;
    int n = 0;
    for (size_t i = 0; i < d->nsyms; i++)
        if ((d->syms[i].space == DBG_SP_PARAM) == params && !strcmp(d->syms[i].name, name))
            return &d->syms[i];
    for (size_t i = 0; i < d->nsyms; i++)
        if ((d->syms[i].space == DBG_SP_PARAM) == params && d->syms[i].shortname &&
            !strcmp(d->syms[i].shortname, name)) {
            hit = &d->syms[i];
            n++;
        }
    return n == 1 ? hit : NULL;
}

const dbg_sym *dbg_sym_find(const dbg *d, const char *name)
{
    const dbg_sym *s = sym_find(d, name, false);
    return s || launch_find_buffer(d->lc, name) ? s : sym_find(d, name, true);
}

const dbg_sym *dbg_sym_at(const dbg *d, int space, uint64_t addr)
{
    for (size_t i = 0; i < d->nsyms; i++) {
        const dbg_sym *s = &d->syms[i];
        if (s->space == space && addr >= s->addr && addr < s->addr + (s->size ? s->size : 1))
            return s;
    }
    return NULL;
}

/* " <tile+16>" or "" */
static void sym_note(const dbg *d, int space, uint64_t addr, char *buf, size_t n)
{
    const dbg_sym *s = dbg_sym_at(d, space, addr);
    buf[0] = 0;
    if (!s) {
        const mem_alloc *a = space == DBG_SP_GLOBAL && d->g ? mem_global_find(d->g, addr) : NULL;
        if (a && a->name && addr == a->base)
            snprintf(buf, n, " <%s>", a->name);
        else if (a && a->name)
            snprintf(buf, n, " <%s+%" PRIu64 ">", a->name, addr - a->base);
        return;
    }
    const char *nm = s->shortname ? s->shortname : s->name;
    if (addr == s->addr)
        snprintf(buf, n, " <%s>", nm);
    else
        snprintf(buf, n, " <%s+%" PRIu64 ">", nm, addr - s->addr);
}

/* ---- warps ------------------------------------------------------------------- */

bool dbg_warp_next(const dbg *d, int cta, int warp, uint32_t *lanes, int *func, uint32_t *pc)
{
    interp_warp_info wi;
    if (!d->c || interp_warp_get(d->c, cta, warp, &wi))
        return false;
    uint32_t cand = wi.ready, poll = 0;
    for (int l = 0; l < wi.nlanes; l++)
        if (wi.state[l] == INTERP_T_MBAR_POLL)
            poll |= 1u << l;
    if (!cand)
        cand = poll;
    if (!cand)
        cand = wi.blocked;
    if (!cand)
        return false;
    int best = -1;
    for (int l = 0; l < 32; l++) {
        if (!(cand >> l & 1))
            continue;
        if (best < 0 || wi.depth[l] > wi.depth[best] ||
            (wi.depth[l] == wi.depth[best] && wi.pc[l] < wi.pc[best]))
            best = l;
    }
    uint32_t g = 0;
    for (int l = 0; l < 32; l++)
        if ((cand >> l & 1) && wi.func[l] == wi.func[best] && wi.pc[l] == wi.pc[best] &&
            wi.depth[l] == wi.depth[best])
            g |= 1u << l;
    *lanes = g;
    *func = wi.func[best];
    *pc = wi.pc[best];
    return true;
}

int dbg_ref_lane(const dbg *d)
{
    if (d->lane >= 0)
        return d->lane;
    uint32_t lanes;
    int f;
    uint32_t pc;
    if (dbg_warp_next(d, d->cta, d->warp, &lanes, &f, &pc))
        return __builtin_ctz(lanes);
    return 0;
}

static void cta_str(const dbg *d, int cta, char *buf, size_t n)
{
    interp_cta_info ci;
    if (!d->c || interp_cta_get(d->c, cta, &ci)) {
        snprintf(buf, n, "CTA slot %d", cta);
        return;
    }
    if (interp_ncta(d->c) > 1)
        snprintf(buf, n, "CTA (%u,%u,%u) rank %u", ci.ctaid[0], ci.ctaid[1], ci.ctaid[2], ci.cluster_rank);
    else
        snprintf(buf, n, "CTA (%u,%u,%u)", ci.ctaid[0], ci.ctaid[1], ci.ctaid[2]);
}

/* Where a waiting lane waits: the interpreter parks a lane blocked at a
 * barrier (and a failed mbarrier poll) after the instruction; show that
 * instruction, which is the line the user is looking for. */
uint32_t dbg_shown_pc(const dbg *d, int func, uint32_t pc, int state)
{
    return interp_wait_pc(d->mod, func, pc, state);
}

/* What lane l of (cta, warp) is doing, in words. */
void dbg_lane_state_str(const dbg *d, int cta, int warp, int l, char *buf, size_t n)
{
    interp_wait w;
    if (!interp_lane_wait(d->c, cta, warp, l, &w)) {
        snprintf(buf, n, "?");
        return;
    }
    char note[64];
    switch (w.state) {
    case INTERP_T_READY: snprintf(buf, n, "ready"); break;
    case INTERP_T_EXITED: snprintf(buf, n, "exited"); break;
    case INTERP_T_BAR: snprintf(buf, n, "waiting at barrier %" PRIu64 " (bar.sync)", w.addr); break;
    case INTERP_T_CLUSTER_BAR: snprintf(buf, n, "waiting at barrier.cluster.wait"); break;
    case INTERP_T_MBAR_POLL:
        sym_note(d, DBG_SP_SHARED, w.addr, note, sizeof note);
        if (interp_ncta(d->c) > 1)
            snprintf(buf, n, "waiting on mbarrier smem 0x%" PRIx64 "%s of CTA rank %d for phase parity %u", w.addr,
                     note, w.cta, w.parity);
        else
            snprintf(buf, n, "waiting on mbarrier smem 0x%" PRIx64 "%s for phase parity %u", w.addr, note, w.parity);
        break;
    case INTERP_T_BULK_WAIT: snprintf(buf, n, "waiting at cp.async.bulk.wait_group"); break;
    default: snprintf(buf, n, "inactive"); break;
    }
}

void dbg_show_source_line(const dbg *d, uint32_t line, bool current)
{
    size_t len = 0;
    const char *s = line && line <= d->nlines ? ir_source_line(d->mod, line, &len) : NULL;
    printf("%s%u\t%.*s\n", current ? "=> " : "", line, (int)len, s ? s : "");
}

void dbg_show_warp(const dbg *d, int cta, int warp, const char *prefix)
{
    char cs[64], ls[128], where[256], st[160] = "";
    uint32_t lanes;
    int func;
    uint32_t pc;
    cta_str(d, cta, cs, sizeof cs);
    if (!dbg_warp_next(d, cta, warp, &lanes, &func, &pc)) {
        printf("%s%s warp %d: every thread has exited\n", prefix ? prefix : "", cs, warp);
        return;
    }
    interp_wait wt;
    if (interp_lane_wait(d->c, cta, warp, __builtin_ctz(lanes), &wt))
        pc = dbg_shown_pc(d, func, pc, wt.state);
    dbg_loc_str(d, func, pc, where, sizeof where);
    dbg_lane_state_str(d, cta, warp, __builtin_ctz(lanes), st, sizeof st);
    printf("%s%s warp %d lane%s %s at %s (pc %u%s%s)%s%s\n", prefix ? prefix : "", cs, warp,
           (lanes & (lanes - 1)) ? "s" : "", dbg_lanes_str(lanes, ls, sizeof ls), where, pc,
           d->mod->funcs[func].is_entry ? "" : " in ", d->mod->funcs[func].is_entry ? "" : d->mod->funcs[func].name,
           strcmp(st, "ready") ? ", " : "", strcmp(st, "ready") ? st : "");
    const ir_instr *in = instr_at(d, func, pc);
    int sf;
    uint32_t sl;
    if (d->source_view && dbg_src_at(d, func, pc, &sf, &sl))
        dbg_show_src_line(d, sf, sl, false);
    if (in)
        dbg_show_source_line(d, in->loc.line, false);
    int64_t mul = in ? interp_contracted(d->c, func, pc) : -1;
    if (mul >= 0)
        printf("\t(one fma with line %u: ptxas fuses this %s and the %s, so the sum is rounded once; "
               "--no-contract rounds each)\n", d->mod->funcs[func].instrs[mul].loc.line, ir_ops[in->op].name,
               ir_ops[d->mod->funcs[func].instrs[mul].op].name);
}

/* ---- locations ------------------------------------------------------------------ */

static int cur_func(const dbg *d)
{
    uint32_t lanes, pc;
    int f;
    if (dbg_warp_next(d, d->cta, d->warp, &lanes, &f, &pc))
        return f;
    return (int)(d->entry - d->mod->funcs);
}

/* First instruction of a line (or of the next line that has one, in
 * whichever function it is: a line above the first function, such as
 * `.version`, means the first instruction). */
static int line_to_pc(const dbg *d, uint32_t line, int *func, uint32_t *pc)
{
    const ir_module *m = d->mod;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f].ninstrs; i++)
            if (m->funcs[f].instrs[i].loc.line == line) {
                *func = (int)f;
                *pc = i;
                return 0;
            }
    int bf = -1;
    uint32_t bpc = 0, bline = UINT32_MAX;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_function *fn = &m->funcs[f];
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            uint32_t l = fn->instrs[i].loc.line;
            if (l > line && l < bline) {
                bline = l;
                bf = (int)f;
                bpc = i;
            }
        }
    }
    if (bf < 0)
        return -1;
    *func = bf;
    *pc = bpc;
    return 0;
}

/* A function by its CUDA name: `twice` for nvcc's `_Z5twicef` (the
 * Itanium mangling's <length><name> right after _Z; names nested in a
 * namespace, _ZN...E, are not matched). */
static const ir_function *func_by_source_name(const ir_module *m, const char *name)
{
    size_t n = strlen(name);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const char *fn = m->funcs[f].name;
        if (strncmp(fn, "_Z", 2) || !isdigit((unsigned char)fn[2]))
            continue;
        char *end;
        unsigned long len = strtoul(fn + 2, &end, 10);
        if (len == n && !strncmp(end, name, n))
            return &m->funcs[f];
    }
    return NULL;
}

int dbg_parse_location(const dbg *d, const char *s, int *func, uint32_t *pc)
{
    s = skip_ws(s);
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (!n) {
        dbg_err("Argument required (a location: LINE, FILE:LINE, FUNCTION, LABEL or *PC).");
        return -1;
    }
    char *loc = strndup(s, n);
    int rc = -1;
    char *end;
    if (loc[0] == '*') {
        errno = 0;
        unsigned long v = strtoul(loc + 1, &end, 0);
        int f = cur_func(d);
        if (end == loc + 1 || *end || errno)
            dbg_err("\"%s\": *PC takes an instruction index, e.g. *12.", loc);
        else if (v >= d->mod->funcs[f].ninstrs)
            dbg_err("%s has %u instructions; there is no pc %lu.", d->mod->funcs[f].name, d->mod->funcs[f].ninstrs, v);
        else {
            *func = f;
            *pc = (uint32_t)v;
            rc = 0;
        }
        goto out;
    }
    const char *linepart = loc;
    char *colon = strrchr(loc, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        *colon = 0;
        const char *path = d->mod->path ? d->mod->path : "";
        if (strcmp(loc, path) && strcmp(loc, base_name(path))) {
            int sf = dbg_src_file_named(d, loc);
            if (sf < 0) {
                dbg_err("No source file named %s (the kernel's source is %s%s).", loc, base_name(path),
                        d->mod->nfiles ? "; info source lists its CUDA files" : "");
                goto out;
            }
            unsigned long v = strtoul(colon + 1, &end, 10);
            if (!v || dbg_src_to_pc(d, sf, (uint32_t)v, func, pc))
                dbg_err("No instruction at or after line %lu of %s.", v, loc);
            else
                rc = 0;
            goto out;
        }
        linepart = colon + 1;
    }
    if (isdigit((unsigned char)linepart[0])) {
        errno = 0;
        unsigned long v = strtoul(linepart, &end, 10);
        if (*end || errno || !v) {
            dbg_err("\"%s\" is not a line number.", linepart);
            goto out;
        }
        if (line_to_pc(d, (uint32_t)v, func, pc))
            dbg_err("No instruction at or after line %lu of %s.", v, base_name(d->mod->path ? d->mod->path : ""));
        else
            rc = 0;
        goto out;
    }
    const ir_function *fn = ir_find_function(d->mod, loc);
    if (!fn)
        fn = func_by_source_name(d->mod, loc);
    if (fn && !fn->is_decl && fn->ninstrs) {
        *func = (int)(fn - d->mod->funcs);
        *pc = 0;
        rc = 0;
        goto out;
    }
    /* a label: the selected warp's function first */
    int cf = cur_func(d);
    for (int pass = 0; pass < 2 && rc; pass++)
        for (uint32_t f = 0; f < d->mod->nfuncs && rc; f++) {
            if ((pass == 0) != ((int)f == cf))
                continue;
            const ir_function *g = &d->mod->funcs[f];
            for (uint32_t k = 0; k < g->nlabels; k++)
                if (!strcmp(g->labels[k].name, loc) && g->labels[k].instr < g->ninstrs) {
                    *func = (int)f;
                    *pc = g->labels[k].instr;
                    rc = 0;
                    break;
                }
        }
    if (rc)
        dbg_err("No line, function or label named \"%s\".", loc);
out:
    free(loc);
    return rc;
}

/* ---- registers ---------------------------------------------------------------------- */

bool dbg_frame_at(const dbg *d, int lane, int *func, uint32_t *pc)
{
    interp_frame_info fr[64];
    int n = d->c ? interp_lane_frames(d->c, d->cta, d->warp, lane, fr, 64) : 0;
    int k = d->frame < n ? d->frame : n - 1;
    if (k < 0)
        return false;
    *func = fr[k].func;
    *pc = fr[k].pc;
    return true;
}

int dbg_reg_find(const dbg *d, const char *name, int lane, uint32_t *slot, int *type)
{
    int f;
    uint32_t pc;
    if (!dbg_frame_at(d, lane, &f, &pc) || f < 0 || (uint32_t)f >= d->mod->nfuncs)
        return -1;
    const ir_function *fn = &d->mod->funcs[f];
    for (uint32_t i = 0; i < fn->nregs; i++)
        if (!strcmp(fn->regs[i].name, name)) {
            *slot = i;
            if (type)
                *type = fn->regs[i].type;
            return 0;
        }
    return -1;
}

bool dbg_reg_read(const dbg *d, int lane, uint32_t slot, uint64_t *lo, uint64_t *hi)
{
    if (d->frame == 0)
        return interp_reg_get128(d->c, d->cta, d->warp, lane, slot, lo, hi);
    *hi = 0;
    return interp_frame_reg_get(d->c, d->cta, d->warp, lane, d->frame, slot, lo);
}

/* Lane l's selected frame runs function func. */
static bool lane_in(const dbg *d, int l, int func)
{
    int f;
    uint32_t pc;
    return dbg_frame_at(d, l, &f, &pc) && f == func;
}

/* Register `name` in the function lane `lane` of the selected warp runs
 * (in the selected frame). */
static int reg_lookup(const dbg *d, const char *name, int lane, int *func, uint32_t *slot)
{
    uint32_t pc;
    if (!dbg_frame_at(d, lane, func, &pc))
        return -1;
    return dbg_reg_find(d, name, lane, slot, NULL);
}

/* "%r5" or "%r5[3]" at s; returns chars consumed, name/lane filled (lane -1 if none). */
size_t dbg_scan_reg(const char *s, char *name, size_t n, int *lane)
{
    size_t i = 0;
    if (s[0] != '%')
        return 0;
    i = 1;
    while (s[i] && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '$' || s[i] == '.'))
        i++;
    snprintf(name, n, "%.*s", (int)i, s);
    *lane = -1;
    if (s[i] == '[') {
        char *end;
        long v = strtol(s + i + 1, &end, 0);
        if (*end == ']') {
            *lane = (int)v;
            i = (size_t)(end - s) + 1;
        }
    }
    return i;
}

/* ---- addresses ------------------------------------------------------------------------ */

static int space_keyword(const char *w, size_t n)
{
    static const struct { const char *kw; int sp; } k[] = {
        {"smem", DBG_SP_SHARED},   {"shared", DBG_SP_SHARED}, {"shared::cta", DBG_SP_SHARED},
        {"shared::cluster", DBG_SP_SHARED}, {"global", DBG_SP_GLOBAL}, {"gmem", DBG_SP_GLOBAL},
        {"param", DBG_SP_PARAM},   {"local", DBG_SP_LOCAL},   {"generic", DBG_SP_GENERIC},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (strlen(k[i].kw) == n && !strncmp(k[i].kw, w, n))
            return k[i].sp;
    return -1;
}

int dbg_parse_addr(const dbg *d, const char *s, int defspace, int *space, uint64_t *addr, const char **rest)
{
    s = skip_ws(s);
    size_t wl = 0;
    while (is_ident((unsigned char)s[wl]))
        wl++;
    int sp = wl ? space_keyword(s, wl) : -1;
    if (sp >= 0 && (!s[wl] || isspace((unsigned char)s[wl])))
        s = skip_ws(s + wl);
    else
        sp = -1;
    int symspace = -1;
    uint64_t total = 0;
    int sign = 1;
    for (int term = 0;; term++) {
        s = skip_ws(s);
        if (*s == '&')
            s++;
        uint64_t v;
        if (*s == '%') {
            char name[64];
            int lane;
            size_t k = dbg_scan_reg(s, name, sizeof name, &lane);
            if (!need_resident(d))
                return -1;
            if (lane < 0)
                lane = dbg_ref_lane(d);
            int f;
            uint32_t slot;
            uint64_t hi;
            if (lane >= 32 || reg_lookup(d, name, lane, &f, &slot) || !dbg_reg_read(d, lane, slot, &v, &hi)) {
                dbg_err("No register %s in the function lane %d runs.", name, lane);
                return -1;
            }
            s += k;
        } else if (isdigit((unsigned char)*s)) {
            char *end;
            errno = 0;
            v = strtoull(s, &end, 0);
            if (errno || is_ident((unsigned char)*end)) {
                dbg_err("\"%.*s\" is not a number.", (int)strcspn(s, " \t+-"), s);
                return -1;
            }
            s = end;
        } else if (is_ident((unsigned char)*s)) {
            size_t k = 0;
            while (is_ident((unsigned char)s[k]))
                k++;
            char *name = strndup(s, k);
            const dbg_sym *sym = dbg_sym_find(d, name);
            const launch_buffer *b = sym ? NULL : launch_find_buffer(d->lc, name);
            if (sym) {
                v = sym->addr;
                if (term == 0)
                    symspace = sym->space;
            } else if (b) {
                v = b->addr;
                if (term == 0)
                    symspace = DBG_SP_GLOBAL;
            } else {
                dbg_err("No symbol or buffer named \"%s\" (info launch lists the buffers).", name);
                free(name);
                return -1;
            }
            free(name);
            s += k;
        } else {
            dbg_err("Expected an address (a number, %%register, variable or buffer name) at \"%s\".",
                    *s ? s : "end of line");
            return -1;
        }
        total += sign > 0 ? v : (uint64_t)0 - v;
        s = skip_ws(s);
        if (*s == '+' || *s == '-') {
            sign = *s == '+' ? 1 : -1;
            s++;
            continue;
        }
        break;
    }
    if (sp < 0)
        sp = symspace >= 0 ? symspace : defspace;
    *space = sp;
    *addr = total;
    if (rest)
        *rest = s;
    return 0;
}

bool dbg_read(const dbg *d, int space, uint64_t addr, void *buf, size_t n, char *why, size_t wl)
{
    const interp_launch *l = &d->l;
    if (space == DBG_SP_GENERIC) {
        switch (mem_generic_window(addr)) {
        case MEM_WIN_SHARED: space = DBG_SP_SHARED; addr -= MEM_GENERIC_SHARED; break;
        case MEM_WIN_LOCAL: space = DBG_SP_LOCAL; addr -= MEM_GENERIC_LOCAL; break;
        case MEM_WIN_PARAM: space = DBG_SP_PARAM; addr -= MEM_GENERIC_PARAM; break;
        default: space = DBG_SP_GLOBAL; break;
        }
    }
    switch (space) {
    case DBG_SP_GLOBAL: {
        uint8_t *h = d->g ? mem_global_host(d->g, addr, n) : NULL;
        if (!h) {
            const mem_alloc *a = d->g ? mem_global_find(d->g, addr) : NULL;
            if (a)
                snprintf(why, wl, "global 0x%" PRIx64 " + %zu bytes runs past the end of buffer %s (0x%" PRIx64
                         ", %" PRIu64 " bytes)", addr, n, a->name ? a->name : "?", a->base, a->size);
            else if (addr < MEM_WINDOW_SIZE)
                snprintf(why, wl, "global 0x%" PRIx64 " is not in any buffer (info launch lists them; for "
                         "shared memory say `smem 0x%" PRIx64 "`)", addr, addr);
            else
                snprintf(why, wl, "global 0x%" PRIx64 " is not in any buffer (info launch lists them)", addr);
            return false;
        }
        memcpy(buf, h, n);
        return true;
    }
    case DBG_SP_PARAM:
        if (addr + n > l->params_size || addr + n < addr) {
            snprintf(why, wl, "param 0x%" PRIx64 " + %zu bytes is past the %u-byte parameter block", addr, n,
                     l->params_size);
            return false;
        }
        memcpy(buf, l->params + addr, n);
        return true;
    case DBG_SP_SHARED:
    case DBG_SP_LOCAL: {
        if (!dbg_resident(d)) {
            snprintf(why, wl, "no CTA is resident (%s)", d->state == DBG_FINISHED ? "the kernel has exited"
                                                                                   : "the kernel has not started");
            return false;
        }
        if (addr >= MEM_WINDOW_SIZE) {
            snprintf(why, wl, "%s 0x%" PRIx64 " is outside the 32-bit window", dbg_space_name(space), addr);
            return false;
        }
        uint64_t base = space == DBG_SP_SHARED ? MEM_GENERIC_SHARED : MEM_GENERIC_LOCAL;
        if (interp_mem_read(d->c, d->cta, d->warp, dbg_ref_lane(d), base + addr, buf, n))
            return true;
        interp_cta_info ci;
        if (space == DBG_SP_SHARED && !interp_cta_get(d->c, d->cta, &ci))
            snprintf(why, wl, "smem 0x%" PRIx64 " + %zu bytes is outside the CTA's shared memory (0x%x bytes, the "
                     "first 0x%x reserved)", addr, n, ci.smem_size, MEM_SHARED_RESERVED);
        else
            snprintf(why, wl, "%s 0x%" PRIx64 " + %zu bytes is not mapped", dbg_space_name(space), addr, n);
        return false;
    }
    default:
        snprintf(why, wl, "unknown space");
        return false;
    }
}

bool dbg_shared_of(const dbg *d, int cta, int space, uint64_t a, int *owner, uint32_t *off)
{
    if (space == IR_SPACE_NONE) {
        if (mem_generic_window(a) != MEM_WIN_SHARED)
            return false;
        a -= MEM_GENERIC_SHARED;
    } else if (space != IR_SPACE_SHARED_CTA && space != IR_SPACE_SHARED_CLUSTER) {
        return false;
    }
    uint32_t s = (uint32_t)a, rank = s >> MEM_SHARED_RANK_SHIFT;
    if (rank) {
        if ((int)rank - 1 >= interp_ncta(d->c))
            return false;
        *owner = (int)rank - 1;
        *off = s & MEM_SHARED_OFF_MASK;
    } else {
        *owner = cta;
        *off = s;
    }
    return true;
}

/* ---- values ------------------------------------------------------------------------------- */

static double half_to_double(uint16_t h)
{
    int e = h >> 10 & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h >> 15 ? -v : v;
}

static double bf16_to_double(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static bool valid_fmt(char f)
{
    return !f || strchr("xduotfc", f);
}

/* Format v (raw bits) as type `type` (ir_type) or `bits` wide, in gdb's
 * format letter fmt (0 = by type). */
void dbg_fmt_value(char *buf, size_t n, uint64_t v, int type, unsigned bits, char fmt)
{
    char kind = type ? ir_types[type].kind : 'b';
    if (type)
        bits = ir_types[type].bits;
    if (bits == 0 || bits > 64)
        bits = 64;
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    v &= mask;
    if (!fmt) {
        switch (kind) {
        case 'p': fmt = 'u'; break;
        case 's': fmt = 'd'; break;
        case 'f': fmt = 'f'; break;
        case 'x': fmt = 'x'; break;
        case 'b': fmt = bits == 64 ? 'x' : 'u'; break;
        default: fmt = 'u'; break;
        }
    }
    switch (fmt) {
    case 'x':
        snprintf(buf, n, "0x%" PRIx64, v);
        return;
    case 'o':
        snprintf(buf, n, "0%" PRIo64, v);
        return;
    case 'u':
        snprintf(buf, n, "%" PRIu64, v);
        return;
    case 'd': {
        int64_t s = bits < 64 && (v >> (bits - 1) & 1) ? (int64_t)(v | ~mask) : (int64_t)v;
        snprintf(buf, n, "%" PRId64, s);
        return;
    }
    case 't': {
        char t[65];
        int k = 0;
        for (int i = (int)bits - 1; i >= 0; i--)
            if (k || (v >> i & 1) || i == 0)
                t[k++] = (char)('0' + (v >> i & 1));
        t[k] = 0;
        snprintf(buf, n, "%s", t);
        return;
    }
    case 'c':
        if (v >= 32 && v < 127)
            snprintf(buf, n, "'%c'", (int)v);
        else
            snprintf(buf, n, "'\\x%02" PRIx64 "'", v & 0xff);
        return;
    case 'f': {
        double f;
        if (type == IR_T_BF16)
            f = bf16_to_double((uint16_t)v);
        else if (bits == 16)
            f = half_to_double((uint16_t)v);
        else if (bits == 32) {
            float x;
            uint32_t u = (uint32_t)v;
            memcpy(&x, &u, 4);
            f = x;
        } else if (bits == 64)
            memcpy(&f, &v, 8);
        else {
            snprintf(buf, n, "%" PRIu64, v);
            return;
        }
        snprintf(buf, n, "%.9g", f);
        return;
    }
    default:
        snprintf(buf, n, "%" PRIu64, v);
    }
}

/* Digits of v in `base` (2, 8, 10 or 16), most significant first, no
 * leading zeros except `width` of them at least. */
static void u128_digits(char *buf, size_t n, unsigned __int128 v, unsigned base, int width)
{
    char t[130];
    int k = 0;
    do {
        t[k++] = "0123456789abcdef"[(unsigned)(v % base)];
        v /= base;
    } while (v || k < width);
    int at = 0;
    while (k > 0 && (size_t)at + 1 < n)
        buf[at++] = t[--k];
    buf[at] = 0;
}

/* A .b128 register (lo, hi) in format fmt (0 = hex, all 32 digits, so the
 * width says it is 128 bits); /f has no 128-bit float and shows hex too. */
static void fmt_value128(char *buf, size_t n, uint64_t lo, uint64_t hi, char fmt)
{
    unsigned __int128 v = (unsigned __int128)hi << 64 | lo;
    char t[130];   /* 128 binary digits */
    switch (fmt) {
    case 'u': u128_digits(buf, n, v, 10, 1); return;
    case 'd':
        if (hi >> 63) {
            u128_digits(t, sizeof t, -v, 10, 1);
            snprintf(buf, n, "-%s", t);
        } else {
            u128_digits(buf, n, v, 10, 1);
        }
        return;
    case 'o': u128_digits(t, sizeof t, v, 8, 1); snprintf(buf, n, "0%s", t); return;
    case 't': u128_digits(buf, n, v, 2, 1); return;
    case 'c': dbg_fmt_value(buf, n, lo, 0, 8, 'c'); return;
    default: u128_digits(t, sizeof t, v, 16, 32); snprintf(buf, n, "0x%s", t); return;
    }
}

/* Register `slot` of `lane` of the selected warp formatted by its type
 * (all 128 bits of a .b128); false if the lane cannot read it. */
static bool fmt_reg(const dbg *d, int lane, uint32_t slot, int type, char fmt, char *buf, size_t n)
{
    uint64_t lo, hi;
    if (!dbg_reg_read(d, lane, slot, &lo, &hi))
        return false;
    if (ir_types[type].bits > 64)
        fmt_value128(buf, n, lo, hi, fmt);
    else
        dbg_fmt_value(buf, n, lo, type, 0, fmt);
    return true;
}

/* Longest formatted value: a .b128 in binary. */
#define DBG_VAL_MAX 136

/* Print 32 per-lane strings as one value (all equal) or a table. */
static void print_lane_table(const char *title, char vals[32][DBG_VAL_MAX], int nlanes)
{
    bool same = true;
    for (int l = 1; l < nlanes; l++)
        if (strcmp(vals[l], vals[0]))
            same = false;
    if (same) {
        printf("%s = %s (all %d lanes)\n", title, vals[0], nlanes);
        return;
    }
    size_t w = 1;
    for (int l = 0; l < nlanes; l++)
        if (strlen(vals[l]) > w)
            w = strlen(vals[l]);
    printf("%s:\n", title);
    int per = w > 12 ? 4 : 8;
    for (int l = 0; l < nlanes; l += per) {
        int e = l + per - 1 < nlanes - 1 ? l + per - 1 : nlanes - 1;
        printf("  lanes %2d-%-2d:", l, e);
        for (int k = l; k <= e; k++)
            printf(" %*s", (int)w, vals[k]);
        putchar('\n');
    }
}

static const char *const sreg_names[] = {"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
                                          "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y",
                                          "%nctaid.z", "%laneid", "%warpid", "%cluster_ctarank"};

/* A special register's value for lane l of the selected warp; -1 if `name` is not one we compute. */
int dbg_sreg_value(const dbg *d, const char *name, int l, uint64_t *v)
{
    int k = -1;
    for (size_t i = 0; i < sizeof sreg_names / sizeof sreg_names[0]; i++)
        if (!strcmp(name, sreg_names[i]))
            k = (int)i;
    if (k < 0)
        return -1;
    interp_cta_info ci;
    if (interp_cta_get(d->c, d->cta, &ci))
        return -1;
    const uint32_t *b = d->l.block;
    uint32_t lin = (uint32_t)d->warp * 32 + (uint32_t)l;
    uint32_t tid[3] = {lin % b[0], lin / b[0] % b[1], lin / b[0] / b[1]};
    if (k < 3) *v = tid[k];
    else if (k < 6) *v = b[k - 3];
    else if (k < 9) *v = ci.ctaid[k - 6];
    else if (k < 12) *v = d->l.grid[k - 9];
    else if (k == 12) *v = (uint64_t)l;
    else if (k == 13) *v = (uint64_t)d->warp;
    else *v = ci.cluster_rank;
    return 0;
}

static void print_reg(dbg *d, const char *name, int only_lane, char fmt)
{
    interp_warp_info wi;
    if (interp_warp_get(d->c, d->cta, d->warp, &wi)) {
        dbg_err("No warp %d in CTA slot %d.", d->warp, d->cta);
        return;
    }
    if (only_lane >= wi.nlanes || only_lane < -1) {
        dbg_err("Lane %d is outside the warp (lanes 0-%d).", only_lane, wi.nlanes - 1);
        return;
    }
    char vals[32][DBG_VAL_MAX];
    char title[128];
    uint64_t v;
    int ref = only_lane >= 0 ? only_lane : dbg_ref_lane(d);
    if (dbg_sreg_value(d, name, ref, &v) == 0) {
        for (int l = 0; l < wi.nlanes; l++) {
            dbg_sreg_value(d, name, l, &v);
            dbg_fmt_value(vals[l], sizeof vals[l], v, IR_T_U32, 32, fmt);
        }
        if (only_lane >= 0)
            printf("%s[%d] = %s\n", name, only_lane, vals[only_lane]);
        else {
            snprintf(title, sizeof title, "%s (warp %d)", name, d->warp);
            print_lane_table(title, vals, wi.nlanes);
        }
        return;
    }
    int func;
    uint32_t slot;
    if (reg_lookup(d, name, ref, &func, &slot)) {
        dbg_err("No register %s in %s (the function lane %d runs).", name,
                wi.func[ref] >= 0 ? d->mod->funcs[wi.func[ref]].name : "?", ref);
        return;
    }
    const ir_regdecl *rd = &d->mod->funcs[func].regs[slot];
    int type = rd->type;
    if (only_lane >= 0) {
        if (!fmt_reg(d, only_lane, slot, type, fmt, vals[0], sizeof vals[0])) {
            dbg_err("Cannot read %s of lane %d.", name, only_lane);
            return;
        }
        printf("%s[%d] (.%s) = %s\n", name, only_lane, ir_types[type].name, vals[0]);
        return;
    }
    if (ir_types[type].kind == 'p' && !fmt) {
        uint32_t t = 0, f = 0;
        for (int l = 0; l < wi.nlanes; l++) {
            uint64_t hi;
            if (!lane_in(d, l, func) || !dbg_reg_read(d, l, slot, &v, &hi))
                continue;
            if (v & 1)
                t |= 1u << l;
            else
                f |= 1u << l;
        }
        char ts[128], fs[128];
        if (!f)
            printf("%s (.pred, warp %d) = 1 (all %d lanes)\n", name, d->warp, wi.nlanes);
        else if (!t)
            printf("%s (.pred, warp %d) = 0 (all %d lanes)\n", name, d->warp, wi.nlanes);
        else
            printf("%s (.pred, warp %d) = 1 in lane%s %s; 0 in lane%s %s\n", name, d->warp, (t & (t - 1)) ? "s" : "",
                   dbg_lanes_str(t, ts, sizeof ts), (f & (f - 1)) ? "s" : "", dbg_lanes_str(f, fs, sizeof fs));
        return;
    }
    for (int l = 0; l < wi.nlanes; l++) {
        if (!lane_in(d, l, func) || !fmt_reg(d, l, slot, type, fmt, vals[l], sizeof vals[l]))
            snprintf(vals[l], sizeof vals[l], "?");
    }
    snprintf(title, sizeof title, "%s (.%s, warp %d)", name, ir_types[type].name, d->warp);
    print_lane_table(title, vals, wi.nlanes);
}

/* print EXPR: its value in the reference lane, kept in the history as $N. */
static void print_expr(dbg *d, const char *expr, char fmt)
{
    dbg_value v;
    char err[256], buf[DBG_VAL_MAX];
    if (dbg_eval(d, expr, dbg_ref_lane(d), &v, err, sizeof err)) {
        dbg_err("%s.", err);
        return;
    }
    struct dbg_hist *nh = realloc(d->hist, (d->nhist + 1) * sizeof *nh);
    if (!nh)
        return;
    d->hist = nh;
    d->hist[d->nhist++] = (struct dbg_hist){v.u, v.f, v.kind, v.bits};
    dbg_value_str(&v, fmt, buf, sizeof buf);
    printf("$%zu = %s\n", d->nhist, buf);
}

void dbg_cmd_print(dbg *d, const char *fmt, const char *args)
{
    if (fmt && !strcmp(fmt, "matrix")) {
        dbg_print_matrix(d, args);
        return;
    }
    char f = fmt && *fmt ? fmt[strlen(fmt) - 1] : 0;
    if (fmt && *fmt && (strlen(fmt) != 1 || !valid_fmt(f))) {
        dbg_err("Bad format \"/%s\": print takes /x /d /u /o /t /f or /c.", fmt);
        return;
    }
    args = skip_ws(args);
    if (!*args) {
        dbg_err("Usage: print[/FMT] %%REG [LANE] | %%REG[LANE] | VARIABLE | BUFFER | EXPRESSION");
        return;
    }
    if (*args == '%') {
        char name[64];
        int lane;
        size_t k = dbg_scan_reg(args, name, sizeof name, &lane);
        const char *r = skip_ws(args + k);
        char *end = (char *)r;
        long v = *r && isdigit((unsigned char)*r) ? strtol(r, &end, 0) : 0;
        if (!*r || (end != r && !*skip_ws(end) && lane < 0)) {   /* %REG or %REG LANE: every lane */
            if (*r)
                lane = (int)v;
            if (!need_resident(d))
                return;
            print_reg(d, name, lane, f);
            return;
        }
        print_expr(d, args, f);
        return;
    }
    if (strpbrk(args, "+-*/%()<>=!&|^~$") || isdigit((unsigned char)*args) || *args == '.') {
        print_expr(d, args, f);   /* numbers too: $N = value, as gdb */
        return;
    }
    char name[256];
    snprintf(name, sizeof name, "%s", args[0] == '&' ? args + 1 : args);
    name[strcspn(name, " \t")] = 0;
    const dbg_sym *s = dbg_sym_find(d, name);
    if (s) {
        const ir_symbol *is = &d->mod->syms[s->index];
        printf("%s%s%s%s = %s 0x%" PRIx64 " (.%s, %" PRIu64 " bytes)\n", s->shortname ? s->shortname : s->name,
               s->shortname ? " (" : "", s->shortname ? s->name : "", s->shortname ? ")" : "",
               dbg_space_name(s->space), s->addr, is->type ? ir_types[is->type].name : "b8", s->size);
        return;
    }
    const launch_buffer *b = launch_find_buffer(d->lc, name);
    if (b) {
        printf("buffer %s = global 0x%" PRIx64 " (%" PRIu64 " bytes)\n", b->name, b->addr, b->bytes);
        return;
    }
    dbg_err("No register, symbol or buffer named \"%s\".", name);
}

/* An integer of up to 128 bits as strtoull reads one (0x.. hex, 0.. octal,
 * else decimal; a leading '-' negates it modulo 2^128).  *end is where it
 * stops; false when there are no digits or it does not fit. */
static bool parse_u128(const char *s, const char **end, unsigned __int128 *out)
{
    bool neg = *s == '-';
    s += neg || *s == '+';
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
        base = 16;
        s += 2;
    } else if (s[0] == '0') {
        base = 8;
    }
    unsigned __int128 v = 0, max = ~(unsigned __int128)0;
    const char *p = s;
    for (;; p++) {
        int c = tolower((unsigned char)*p);
        unsigned dg = isdigit(c) ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 99;
        if (dg >= base)
            break;
        if (v > (max - dg) / base)
            return false;
        v = v * base + dg;
    }
    *end = p;
    *out = neg ? -v : v;
    return p > s;
}

void dbg_cmd_set(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    args = skip_ws(args);
    if (!strncmp(args, "var", 3) && (isspace((unsigned char)args[3]) || args[3] == '%'))
        args = skip_ws(args + 3);
    if (*args != '%') {
        dbg_err("Usage: set var %%REG[LANE] = VALUE  (without [LANE]: every lane of the warp)");
        return;
    }
    if (!need_resident(d))
        return;
    if (d->frame != 0) {
        /* the interpreter writes the innermost frame's registers only */
        dbg_err("set var: frame #%d is a caller's frame; ptxi changes registers of the innermost frame "
                "only (`frame 0` first)", d->frame);
        return;
    }
    char name[64];
    int lane;
    size_t k = dbg_scan_reg(args, name, sizeof name, &lane);
    const char *r = skip_ws(args + k);
    if (*r != '=') {
        dbg_err("Usage: set var %%REG[LANE] = VALUE");
        return;
    }
    r = skip_ws(r + 1);
    interp_warp_info wi;
    if (interp_warp_get(d->c, d->cta, d->warp, &wi))
        return;
    if (lane >= wi.nlanes) {
        dbg_err("Lane %d is outside the warp (lanes 0-%d).", lane, wi.nlanes - 1);
        return;
    }
    int ref = lane >= 0 ? lane : dbg_ref_lane(d), func;
    uint32_t slot;
    if (reg_lookup(d, name, ref, &func, &slot)) {
        dbg_err("No register %s in the function lane %d runs.", name, ref);
        return;
    }
    int type = d->mod->funcs[func].regs[slot].type;
    uint64_t v, hi = 0;
    char *end;
    errno = 0;
    if (ir_types[type].bits > 64) {
        /* .b128: the whole 128-bit value (interp_reg_set128) */
        unsigned __int128 w;
        const char *e;
        if (!parse_u128(r, &e, &w) || *skip_ws(e)) {
            dbg_err("\"%s\" is not a value for a .%s register (an integer of at most 128 bits).", r,
                    ir_types[type].name);
            return;
        }
        v = (uint64_t)w;
        hi = (uint64_t)(w >> 64);
        end = (char *)e;
    } else if (ir_types[type].kind == 'f') {
        double x = strtod(r, &end);
        if (ir_types[type].bits == 64)
            memcpy(&v, &x, 8);
        else if (ir_types[type].bits == 32) {
            float y = (float)x;
            uint32_t u;
            memcpy(&u, &y, 4);
            v = u;
        } else {
            dbg_err("set var: only .f32 and .f64 registers take a float value; give %s its bits as an integer.", name);
            return;
        }
    } else if (*r == '-') {
        v = (uint64_t)strtoll(r, &end, 0);
    } else {
        v = strtoull(r, &end, 0);
    }
    if (end == r || *skip_ws(end) || errno) {
        dbg_err("\"%s\" is not a value for a .%s register.", r, ir_types[type].name);
        return;
    }
    for (int l = 0; l < wi.nlanes; l++)
        if ((lane < 0 || l == lane) && wi.func[l] == func)
            interp_reg_set128(d->c, d->cta, d->warp, l, slot, v, hi);
    print_reg(d, name, lane, 0);
}

/* ---- x --------------------------------------------------------------------------------- */

/* x/g over shared memory: each 8-byte unit that is an mbarrier (one seen
 * initialised) decoded below the dump. */
static void x_mbarriers(const dbg *d, int space, uint64_t addr, const uint8_t *buf, unsigned long count)
{
    if (space != DBG_SP_SHARED && space != DBG_SP_GENERIC)
        return;
    int irsp = space == DBG_SP_SHARED ? IR_SPACE_SHARED_CTA : IR_SPACE_NONE;
    for (unsigned long i = 0; i < count; i++) {
        int owner;
        uint32_t off;
        if (!dbg_shared_of(d, d->cta, irsp, addr + 8 * i, &owner, &off))
            continue;
        for (size_t k = 0; k < d->nmbars; k++) {
            if (d->mbars[k].cta != owner || d->mbars[k].off != off)
                continue;
            uint64_t w;
            memcpy(&w, buf + 8 * i, 8);
            interp_mbar mb;
            interp_mbar_decode(w, &mb);
            char note[96];
            sym_note(d, DBG_SP_SHARED, off, note, sizeof note);
            if (mb.initialised)
                printf("  smem 0x%x%s: mbarrier phase parity %u, %u of %u arrivals pending, tx-count %d\n", off, note,
                       mb.phase, mb.pending, mb.expected, mb.tx);
        }
    }
}

/* x's ADDRESS: [SPACE] then a sum of terms (dbg_parse_addr), or any
 * expression (%r5 * 4 + tile); the space is the keyword's, else that of a
 * variable the expression starts with, else generic. */
static int x_addr(dbg *d, const char *args, int *space, uint64_t *addr)
{
    if (!strpbrk(args, "*/()<>&|^~!$")) {   /* a sum of terms: the address parser, with its messages */
        const char *rest;
        if (dbg_parse_addr(d, args, DBG_SP_GENERIC, space, addr, &rest))
            return -1;
        if (*skip_ws(rest)) {
            dbg_err("Junk after the address: \"%s\".", rest);
            return -1;
        }
        return 0;
    }
    const char *e = skip_ws(args);
    size_t wl = 0;
    while (is_ident((unsigned char)e[wl]))
        wl++;
    int sp = wl ? space_keyword(e, wl) : -1;
    if (sp >= 0 && isspace((unsigned char)e[wl]))
        e = skip_ws(e + wl);
    else
        sp = -1;
    dbg_value v;
    char err[256];
    err[0] = 0;
    if (dbg_eval(d, e, dbg_ref_lane(d), &v, err, sizeof err) || v.kind == 'f') {
        dbg_err("x: %s.", err[0] ? err : "an address cannot be a float");
        return -1;
    }
    if (sp < 0) {
        size_t k = 0;
        while (isalnum((unsigned char)e[k]) || e[k] == '_' || e[k] == '$' || e[k] == '.')
            k++;
        char *name = k ? strndup(e, k) : NULL;
        const dbg_sym *sym = name ? dbg_sym_find(d, name) : NULL;
        sp = sym ? sym->space : name && launch_find_buffer(d->lc, name) ? DBG_SP_GLOBAL : DBG_SP_GENERIC;
        free(name);
    }
    *space = sp;
    *addr = v.u;
    return 0;
}

void dbg_cmd_x(dbg *d, const char *fmt, const char *args)
{
    unsigned long count = 1;
    char f = 0, sz = 0;
    if (fmt && *fmt) {
        const char *p = fmt;
        if (isdigit((unsigned char)*p)) {
            char *end;
            count = strtoul(p, &end, 10);
            p = end;
        }
        for (; *p; p++) {
            if (strchr("bhwg", *p))
                sz = *p;
            else if (valid_fmt(*p))
                f = *p;
            else {
                dbg_err("Bad format letter '%c' in \"/%s\": x/NFU takes a count, a format (x d u o t f c) and a "
                        "size (b h w g).", *p, fmt);
                return;
            }
        }
    }
    if (count == 0 || count > 65536) {
        dbg_err("x: the count must be 1..65536.");
        return;
    }
    if (!f)
        f = d->xfmt ? d->xfmt : 'x';
    if (!sz)
        sz = f == 'c' ? 'b' : d->xsize ? d->xsize : 'w';
    unsigned size = sz == 'b' ? 1 : sz == 'h' ? 2 : sz == 'w' ? 4 : 8;
    if (f == 'f' && size == 1) {
        dbg_err("x/f needs a size of h (f16), w (f32) or g (f64).");
        return;
    }
    int space;
    uint64_t addr;
    args = skip_ws(args);
    if (!*args) {
        if (!d->xhave) {
            dbg_err("Argument required (starting address): x/NFU [smem|global|param|local] ADDRESS");
            return;
        }
        space = d->xspace;
        addr = d->xnext;
    } else {
        if (x_addr(d, args, &space, &addr))
            return;
    }
    d->xfmt = f;
    d->xsize = sz;
    size_t n = (size_t)count * size;
    uint8_t *buf = malloc(n);
    char why[256];
    if (!buf)
        return;
    if (!dbg_read(d, space, addr, buf, n, why, sizeof why)) {
        dbg_err("Cannot read %zu bytes: %s.", n, why);
        free(buf);
        return;
    }
    int per = size == 8 ? 2 : size == 4 ? 4 : 8;
    if (f == 't')
        per = size >= 4 ? 2 : 4;
    int type = f != 'f' ? 0 : size == 2 ? IR_T_F16 : size == 4 ? IR_T_F32 : IR_T_F64;
    for (unsigned long i = 0; i < count; i++) {
        if (i % (unsigned long)per == 0) {
            char note[96];
            uint64_t a = addr + i * size;
            sym_note(d, space, a, note, sizeof note);
            printf("%s%s 0x%" PRIx64 "%s:", i ? "\n" : "", dbg_space_name(space), a, note);
        }
        uint64_t v = 0;
        memcpy(&v, buf + i * size, size);
        char s[80];
        if (f == 'x')
            snprintf(s, sizeof s, "0x%0*" PRIx64, (int)size * 2, v);
        else
            dbg_fmt_value(s, sizeof s, v, type, size * 8, f);
        printf("\t%s", s);
    }
    putchar('\n');
    if (size == 8)
        x_mbarriers(d, space, addr, buf, count);
    free(buf);
    d->xhave = true;
    d->xspace = space;
    d->xnext = addr + n;
}

/* ---- source ------------------------------------------------------------------------------- */

/* The selected warp's pc as the stop report shows it (a waiting warp: the
 * wait instruction), in the selected frame. */
static bool cur_pc(const dbg *d, int *f, uint32_t *pc)
{
    uint32_t lanes;
    if (!dbg_warp_next(d, d->cta, d->warp, &lanes, f, pc))
        return false;
    int lane = d->lane >= 0 ? d->lane : __builtin_ctz(lanes);
    if (d->frame > 0)
        return dbg_frame_at(d, lane, f, pc);
    interp_wait wt;
    if (interp_lane_wait(d->c, d->cta, d->warp, __builtin_ctz(lanes), &wt))
        *pc = dbg_shown_pc(d, *f, *pc, wt.state);
    return true;
}

static uint32_t cur_line(const dbg *d)
{
    uint32_t pc;
    int f;
    if (cur_pc(d, &f, &pc)) {
        const ir_instr *in = instr_at(d, f, pc);
        return in ? in->loc.line : 0;
    }
    return 0;
}

/* Lines first..last of the PTX (here: the `=>` line). */
static void list_ptx(dbg *d, uint32_t first, uint32_t last)
{
    if (first > d->nlines) {
        dbg_err("Line number %u out of range; %s has %u lines.", first,
                base_name(d->mod->path ? d->mod->path : ""), d->nlines);
        return;
    }
    if (last > d->nlines)
        last = d->nlines;
    uint32_t here = cur_line(d);
    for (uint32_t l = first; l <= last; l++) {
        size_t len = 0;
        const char *s = ir_source_line(d->mod, l, &len);
        printf("%s%u\t%.*s\n", l == here ? "=> " : "   ", l, (int)len, s ? s : "");
    }
    d->list_next = last + 1;
    d->list_file = -1;
}

/* The CUDA line of the selected warp (file -1: none or not at hand). */
static uint32_t cur_src(const dbg *d, int *file)
{
    int f;
    uint32_t pc, line;
    *file = -1;
    if (!d->source_view || !cur_pc(d, &f, &pc) || !dbg_src_at(d, f, pc, file, &line) || !dbg_src_nlines(d, *file)) {
        *file = -1;
        return 0;
    }
    return line;
}

/* list A,B | A, | ,B | N (around N) in file `file` (-1: the PTX). */
static void list_range(dbg *d, int file, const char *a, uint32_t here)
{
    char *end;
    bool comma = strchr(a, ',') != NULL;
    unsigned long first = 0, last = 0;
    const char *p = skip_ws(a);
    if (*p != ',') {
        first = strtoul(p, &end, 10);
        p = skip_ws(end);
    }
    if (comma) {
        p = skip_ws(p + 1);
        if (*p) {
            last = strtoul(p, &end, 10);
            p = skip_ws(end);
        }
    }
    if (*p || (!first && !last) || (first && last && last < first)) {
        dbg_err("Usage: list [FILE:]A,B | A, | ,B | LINE  (\"%s\")", a);
        return;
    }
    if (!comma) {   /* around a line */
        uint32_t maxl = file >= 0 ? dbg_src_nlines(d, file) : d->nlines;
        if (first > maxl) {
            dbg_err("Line number %lu out of range; %s has %u lines.", first,
                    file >= 0 ? dbg_src_name(d, file) : base_name(d->mod->path ? d->mod->path : ""), maxl);
            return;
        }
        first = first > 5 ? first - 5 : 1;
        last = first + 9;
    } else if (!last) {
        last = first + 9;
    } else if (!first) {
        first = last > 9 ? last - 9 : 1;
    }
    if (file >= 0)
        dbg_list_src(d, file, (uint32_t)first, (uint32_t)last, here);
    else
        list_ptx(d, (uint32_t)first, (uint32_t)last);
}

void dbg_cmd_list(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    args = skip_ws(args);
    int cf;
    uint32_t here = cur_src(d, &cf);
    if (!*args) {
        if (d->list_next) {
            if (d->list_file >= 0)
                dbg_list_src(d, d->list_file, d->list_next, d->list_next + 9, d->list_file == cf ? here : 0);
            else
                list_ptx(d, d->list_next, d->list_next + 9);
            return;
        }
        if (cf >= 0) {
            dbg_list_src(d, cf, here > 5 ? here - 5 : 1, (here > 5 ? here - 5 : 1) + 9, here);
            return;
        }
        uint32_t center = cur_line(d);
        if (!center)
            center = d->entry->ninstrs ? d->entry->instrs[0].loc.line : 1;
        uint32_t start = center > 5 ? center - 5 : 1;
        list_ptx(d, start, start + 9);
        return;
    }
    /* FILE:... names the PTX or one of its .file sources */
    const char *colon = strrchr(args, ':');
    if (colon && (isdigit((unsigned char)colon[1]) || colon[1] == ',')) {
        char *name = strndup(args, (size_t)(colon - args));
        const char *path = d->mod->path ? d->mod->path : "";
        int file = -2;
        if (name && (!strcmp(name, path) || !strcmp(name, base_name(path))))
            file = -1;
        else if (name)
            file = dbg_src_file_named(d, name);
        if (file == -2 || (file < 0 && name && strcmp(name, path) && strcmp(name, base_name(path)))) {
            dbg_err("No source file named %s.", name ? name : "?");
            free(name);
            return;
        }
        free(name);
        list_range(d, file, colon + 1, file >= 0 && file == cf ? here : 0);
        return;
    }
    if (isdigit((unsigned char)*args) || *args == ',') {
        /* numbers: in the file the last list showed, else the one we stand in */
        int file = d->list_next ? d->list_file : cf;
        list_range(d, file, args, file >= 0 && file == cf ? here : 0);
        return;
    }
    int f;
    uint32_t pc;
    if (dbg_parse_location(d, args, &f, &pc))
        return;
    int sf;
    uint32_t sl;
    if (d->source_view && dbg_src_at(d, f, pc, &sf, &sl) && dbg_src_nlines(d, sf)) {
        dbg_list_src(d, sf, sl > 5 ? sl - 5 : 1, (sl > 5 ? sl - 5 : 1) + 9, sf == cf ? here : 0);
        return;
    }
    uint32_t center = d->mod->funcs[f].instrs[pc].loc.line;
    list_ptx(d, center > 5 ? center - 5 : 1, (center > 5 ? center - 5 : 1) + 9);
}

static bool has_bp(const dbg *d, int func, uint32_t pc)
{
    for (size_t i = 0; i < d->nbps; i++)
        if (d->bps[i].enabled && d->bps[i].func == func && d->bps[i].pc == pc)
            return true;
    return false;
}

void dbg_cmd_disas(dbg *d, const char *fmt, const char *args)
{
    bool mixed = fmt && (!strcmp(fmt, "s") || !strcmp(fmt, "m"));
    if (fmt && *fmt && !mixed) {
        dbg_err("Bad format \"/%s\": disassemble takes /s (source lines above their instructions).", fmt);
        return;
    }
    args = skip_ws(args);
    uint32_t lanes, here = UINT32_MAX, lo, hi;
    int f = -1, hf = -1;
    (void)lanes;
    if (!cur_pc(d, &hf, &here))
        hf = -1;
    if (*args) {
        const ir_function *fn = ir_find_function(d->mod, args);
        if (!fn || fn->is_decl) {
            dbg_err("No function named \"%s\".", args);
            return;
        }
        f = (int)(fn - d->mod->funcs);
        lo = 0;
        hi = fn->ninstrs;
    } else {
        f = hf >= 0 ? hf : (int)(d->entry - d->mod->funcs);
        uint32_t at = hf >= 0 ? here : 0;
        lo = at > 8 ? at - 8 : 0;
        hi = at + 9;
    }
    const ir_function *fn = &d->mod->funcs[f];
    if (hi > fn->ninstrs)
        hi = fn->ninstrs;
    printf("Instructions of %s (pc, line):\n", fn->name);
    int last_file = -1;
    uint32_t last_line = 0;
    for (uint32_t pc = lo; pc < hi; pc++) {
        int sf;
        uint32_t sl;
        if (mixed && dbg_src_at(d, f, pc, &sf, &sl) && (sf != last_file || sl != last_line)) {
            size_t len = 0;
            const char *t = dbg_src_line(d, sf, sl, &len);
            printf("%s:%u\t%.*s\n", dbg_src_name(d, sf), sl, (int)len, t ? t : "");
            last_file = sf;
            last_line = sl;
        }
        char txt[512];
        ir_format_instr(d->mod, fn, &fn->instrs[pc], txt, sizeof txt);
        bool cur = f == hf && pc == here;
        printf("%s%s %4u  %-5u %s\n", cur ? "=>" : "  ", has_bp(d, f, pc) ? "*" : " ", pc, fn->instrs[pc].loc.line,
               txt);
    }
}

void dbg_info_line(dbg *d, const char *args)
{
    int f;
    uint32_t pc, lanes;
    args = skip_ws(args);
    if (*args) {
        if (dbg_parse_location(d, args, &f, &pc))
            return;
    } else if (!dbg_warp_next(d, d->cta, d->warp, &lanes, &f, &pc)) {
        dbg_err("The selected warp has no position (not started, or every thread exited).");
        return;
    }
    char where[256];
    dbg_loc_str(d, f, pc, where, sizeof where);
    printf("%s is pc %u of %s\n", where, pc, d->mod->funcs[f].name);
}

/* ---- info warps / registers ----------------------------------------------------------------- */

void dbg_info_warps(dbg *d, const char *args)
{
    (void)args;
    if (!need_resident(d))
        return;
    int ncta = interp_ncta(d->c);
    for (int t = 0; t < ncta; t++) {
        interp_cta_info ci;
        if (interp_cta_get(d->c, t, &ci))
            continue;
        char cs[64];
        cta_str(d, t, cs, sizeof cs);
        printf("%s%s:\n", cs, ci.done ? " (every thread exited)" : "");
        for (int w = 0; w < ci.nwarps; w++) {
            interp_warp_info wi;
            if (interp_warp_get(d->c, t, w, &wi))
                continue;
            uint32_t done = 0;
            bool first = true;
            for (int l = 0; l < wi.nlanes; l++) {
                if (done >> l & 1)
                    continue;
                char st[160];
                dbg_lane_state_str(d, t, w, l, st, sizeof st);
                uint32_t g = 0;
                for (int k = l; k < wi.nlanes; k++) {
                    if (done >> k & 1)
                        continue;
                    char sk[160];
                    dbg_lane_state_str(d, t, w, k, sk, sizeof sk);
                    bool exited = wi.state[k] == INTERP_T_EXITED;
                    if (!strcmp(sk, st) && (exited || (wi.func[k] == wi.func[l] && wi.pc[k] == wi.pc[l])))
                        g |= 1u << k;
                }
                done |= g;
                char ls[128], ws[32], where[256], pcs[32];
                dbg_lanes_str(g, ls, sizeof ls);
                snprintf(ws, sizeof ws, "warp %d", w);
                if (wi.state[l] == INTERP_T_EXITED) {
                    snprintf(pcs, sizeof pcs, "-");
                    snprintf(where, sizeof where, "-");
                } else {
                    uint32_t pc = dbg_shown_pc(d, wi.func[l], wi.pc[l], wi.state[l]);
                    snprintf(pcs, sizeof pcs, "pc %u", pc);
                    dbg_loc_str(d, wi.func[l], pc, where, sizeof where);
                }
                printf("%s %-8s lanes %-10s %-7s %-20s %s\n", first && t == d->cta && w == d->warp ? "*" : " ",
                       first ? ws : "", ls, pcs, where, st);
                first = false;
            }
        }
    }
}

void dbg_info_registers(dbg *d, const char *args)
{
    if (!need_resident(d))
        return;
    args = skip_ws(args);
    if (*args == '%') {
        for (const char *p = args; *p;) {
            char name[64];
            int lane;
            size_t k = dbg_scan_reg(p, name, sizeof name, &lane);
            if (!k) {
                dbg_err("\"%s\" is not a register.", p);
                return;
            }
            print_reg(d, name, lane, 0);
            p = skip_ws(p + k);
        }
        return;
    }
    int lane = dbg_ref_lane(d);
    if (*args) {
        char *end;
        long v = strtol(args, &end, 0);
        if (end == args || *skip_ws(end) || v < 0 || v > 31) {
            dbg_err("Usage: info registers [LANE | %%REG...]");
            return;
        }
        lane = (int)v;
    }
    interp_warp_info wi;
    if (interp_warp_get(d->c, d->cta, d->warp, &wi))
        return;
    if (lane >= wi.nlanes) {
        dbg_err("Lane %d is outside the warp (lanes 0-%d).", lane, wi.nlanes - 1);
        return;
    }
    int f;
    uint32_t fpc;
    if (!dbg_frame_at(d, lane, &f, &fpc) || f < 0)
        return;
    const ir_function *fn = &d->mod->funcs[f];
    char cs[64];
    cta_str(d, d->cta, cs, sizeof cs);
    printf("%s warp %d lane %d, in %s%s:\n", cs, d->warp, lane, fn->name, d->frame ? " (selected frame)" : "");
    int col = 0;
    for (uint32_t i = 0; i < fn->nregs; i++) {
        char val[DBG_VAL_MAX], cell[DBG_VAL_MAX + 64];
        if (!fmt_reg(d, lane, i, fn->regs[i].type, 0, val, sizeof val))
            continue;
        snprintf(cell, sizeof cell, "%s = %s", fn->regs[i].name, val);
        printf(col == 3 ? "  %s" : "  %-24s", cell);
        if (++col == 4) {
            putchar('\n');
            col = 0;
        }
    }
    if (col)
        putchar('\n');
}

/* ---- mbarriers ------------------------------------------------------------------------------ */

static void add_mb(dbg_mbar *v, size_t *n, size_t cap, int cta, uint32_t off)
{
    for (size_t i = 0; i < *n; i++)
        if (v[i].cta == cta && v[i].off == off)
            return;
    if (*n < cap)
        v[(*n)++] = (dbg_mbar){cta, off};
}

static int cmp_mb(const void *a, const void *b)
{
    const dbg_mbar *x = a, *y = b;
    if (x->cta != y->cta)
        return x->cta < y->cta ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

static void show_mbar(dbg *d, int cta, uint32_t off)
{
    interp_mbar mb;
    char note[96], cs[64];
    sym_note(d, DBG_SP_SHARED, off, note, sizeof note);
    cta_str(d, cta, cs, sizeof cs);
    if (!interp_mbar_get(d->c, cta, off, &mb)) {
        printf("%s smem 0x%x%s: outside the CTA's shared memory\n", cs, off, note);
        return;
    }
    if (!mb.initialised) {
        printf("%s smem 0x%x%s: not initialised\n", cs, off, note);
        return;
    }
    printf("%s smem 0x%x%s: phase parity %u, arrivals pending %u of %u, tx-count %d%s\n", cs, off, note, mb.phase,
           mb.pending, mb.expected, mb.tx,
           mb.tx > 0 ? " (bytes still expected)" : mb.tx < 0 ? " (bytes landed before their expect_tx)" : "");
    /* who waits on it */
    int ncta = interp_ncta(d->c);
    for (int t = 0; t < ncta; t++) {
        interp_cta_info ci;
        if (interp_cta_get(d->c, t, &ci))
            continue;
        for (int w = 0; w < ci.nwarps; w++) {
            uint32_t lanes[2] = {0, 0};
            interp_warp_info wi;
            if (interp_warp_get(d->c, t, w, &wi))
                continue;
            for (int l = 0; l < wi.nlanes; l++) {
                interp_wait wt;
                if (interp_lane_wait(d->c, t, w, l, &wt) && wt.state == INTERP_T_MBAR_POLL && wt.cta == cta &&
                    wt.addr == off)
                    lanes[wt.parity & 1] |= 1u << l;
            }
            for (int p = 0; p < 2; p++)
                if (lanes[p]) {
                    char ls[128], ts[64];
                    cta_str(d, t, ts, sizeof ts);
                    printf("    waited on by %s%swarp %d lanes %s for phase parity %d\n", ncta > 1 ? ts : "",
                           ncta > 1 ? " " : "", w, dbg_lanes_str(lanes[p], ls, sizeof ls), p);
                }
        }
    }
    int nops = interp_ninflight(d->c);
    for (int i = 0; i < nops; i++) {
        interp_inflight op;
        if (interp_inflight_get(d->c, i, &op) < 0 || !op.has_mbar || op.mbar != off || !(op.cta_mask >> cta & 1))
            continue;
        printf("    in flight: #%d %s, completes %u bytes on it\n", op.id, op.kind, op.bytes);
    }
}

void dbg_info_mbarriers(dbg *d, const char *args)
{
    if (!need_resident(d))
        return;
    args = skip_ws(args);
    if (*args) {
        int space, owner;
        uint64_t a;
        uint32_t off;
        const char *rest;
        if (dbg_parse_addr(d, args, DBG_SP_SHARED, &space, &a, &rest))
            return;
        if (*skip_ws(rest)) {
            dbg_err("Junk after the address: \"%s\".", rest);
            return;
        }
        int irsp = space == DBG_SP_SHARED ? IR_SPACE_SHARED_CTA : space == DBG_SP_GENERIC ? IR_SPACE_NONE : -1;
        if (irsp < 0 || !dbg_shared_of(d, d->cta, irsp, a, &owner, &off)) {
            dbg_err("An mbarrier lives in shared memory: 0x%" PRIx64 " (%s) is not a shared address.", a,
                    dbg_space_name(space));
            return;
        }
        show_mbar(d, owner, off);
        return;
    }
    size_t cap = d->nmbars + 256, n = 0;
    dbg_mbar *v = calloc(cap, sizeof *v);
    if (!v)
        return;
    for (size_t i = 0; i < d->nmbars; i++)
        add_mb(v, &n, cap, d->mbars[i].cta, d->mbars[i].off);
    int nops = interp_ninflight(d->c), ncta = interp_ncta(d->c);
    for (int i = 0; i < nops; i++) {
        interp_inflight op;
        if (interp_inflight_get(d->c, i, &op) < 0 || !op.has_mbar)
            continue;
        for (int t = 0; t < ncta; t++)
            if (op.cta_mask >> t & 1)
                add_mb(v, &n, cap, t, op.mbar);
    }
    for (int t = 0; t < ncta; t++) {
        interp_cta_info ci;
        if (interp_cta_get(d->c, t, &ci))
            continue;
        for (int w = 0; w < ci.nwarps; w++)
            for (int l = 0; l < 32; l++) {
                interp_wait wt;
                if (interp_lane_wait(d->c, t, w, l, &wt) && wt.state == INTERP_T_MBAR_POLL)
                    add_mb(v, &n, cap, wt.cta, (uint32_t)wt.addr);
            }
    }
    if (!n)
        printf("No mbarrier initialised, waited on or completed by a copy yet (info mbarriers ADDRESS decodes "
               "any shared word).\n");
    qsort(v, n, sizeof *v, cmp_mb);
    for (size_t i = 0; i < n; i++)
        show_mbar(d, v[i].cta, v[i].off);
    free(v);
}

/* ---- tensor maps ------------------------------------------------------------------------------ */

/* Decode and print a map; with svg, also draw it there (cli/tmap_svg.c). */
static void decode_print(const uint8_t map[128], const char *what, bool title, const char *svg)
{
    tma_map m;
    char why[512];
    if (tma_decode(map, &m, why, sizeof why)) {
        dbg_err("The 128 bytes at %s are not a valid tensor map: %s.", what, why);
        return;
    }
    if (title)
        printf("%s:\n", what);
    tma_print(&m, stdout);
    if (!svg)
        return;
    if (tmap_svg_file(&m, what, svg, why, sizeof why))
        dbg_err("info tmaps --svg: %s.", why);
    else
        printf("  picture of the box and its shared-memory layout: %s\n", svg);
}

/* info tmaps: a tensor map inside a by-value struct parameter. */
typedef struct tmap_in_struct {
    const char *map;        /* the map's name */
    const ir_symbol *ps;    /* the kernel parameter */
    size_t k;               /* its index */
} tmap_in_struct;

static void show_struct_tmap(const launch_param *f, const char *path, uint64_t off, void *arg)
{
    const tmap_in_struct *t = arg;
    if (f->kind != LAUNCH_P_TMAP || strcmp(f->ref, t->map))
        return;
    uint64_t at = t->ps->param_offset + off;
    printf("  kernel parameter %zu %s at byte %" PRIu64 " (%s): param 0x%" PRIx64 " (generic 0x%" PRIx64 ")\n",
           t->k, t->ps->name, off, path, at, (uint64_t)MEM_GENERIC_PARAM + at);
}

static void info_tmaps(dbg *d, const char *args, const char *svg);

void dbg_info_tmaps(dbg *d, const char *args)
{
    args = skip_ws(args);
    char *svg = NULL;
    if (!strncmp(args, "--svg", 5) && (!args[5] || isspace((unsigned char)args[5]))) {
        const char *f = skip_ws(args + 5);
        size_t n = strcspn(f, " \t");
        if (!n) {
            dbg_err("Usage: info tmaps --svg FILE.svg [ADDRESS]");
            return;
        }
        svg = strndup(f, n);
        args = skip_ws(f + n);
    }
    info_tmaps(d, args, svg);
    free(svg);
}

static void info_tmaps(dbg *d, const char *args, const char *svg)
{
    if (*args) {
        int space;
        uint64_t a;
        const char *rest;
        if (dbg_parse_addr(d, args, DBG_SP_GENERIC, &space, &a, &rest))
            return;
        if (*skip_ws(rest)) {
            dbg_err("Junk after the address: \"%s\".", rest);
            return;
        }
        uint8_t map[128];
        char why[256], what[96];
        if (!dbg_read(d, space, a, map, sizeof map, why, sizeof why)) {
            dbg_err("Cannot read a tensor map: %s.", why);
            return;
        }
        snprintf(what, sizeof what, "%s 0x%" PRIx64, dbg_space_name(space), a);
        decode_print(map, what, true, svg);
        return;
    }
    const launch_case *lc = d->lc;
    if (!lc->ntmaps) {
        printf("The launch encodes no tensor maps (info tmaps ADDRESS decodes 128 bytes anywhere).\n");
        return;
    }
    for (size_t i = 0; i < lc->ntmaps; i++) {
        const launch_tmap *t = &lc->tmaps[i];
        printf("tensor map %s: %s%s%s\n", t->name, t->status == TMA_SUCCESS ? "encoded (CUDA_SUCCESS)" :
               t->status == -2 ? "not encoded" : "encode failed (CUDA_ERROR_INVALID_VALUE)",
               t->why[0] ? ": " : "", t->why);
        /* where the kernel sees it */
        for (size_t k = 0; k < lc->nparams && k < d->entry->nparams; k++) {
            const launch_param *p = &lc->params[k];
            const ir_symbol *ps = &d->mod->syms[d->entry->params[k]];
            if (p->kind == LAUNCH_P_STRUCT) {
                char path[32];
                snprintf(path, sizeof path, "params[%zu]", k);
                launch_struct_fields(p, path, show_struct_tmap, &(tmap_in_struct){t->name, ps, k});
                continue;
            }
            if (p->kind != LAUNCH_P_TMAP || strcmp(p->ref, t->name))
                continue;
            printf("  kernel parameter %zu %s: param 0x%x (generic 0x%llx)\n", k, ps->name, ps->param_offset,
                   (unsigned long long)(MEM_GENERIC_PARAM + ps->param_offset));
        }
        for (size_t b = 0; b < lc->nbuffers; b++) {
            const launch_buffer *lb = &lc->buffers[b];
            for (size_t k = 0; lb->init == LAUNCH_INIT_TMAPS && k < lb->ntmaps; k++)
                if (!strcmp(lb->tmaps[k], t->name))
                    printf("  in buffer %s at global 0x%llx\n", lb->name, (unsigned long long)(lb->addr + 128 * k));
        }
        if (t->status != TMA_SUCCESS)
            continue;
        char *path = NULL;
        size_t n = svg ? strlen(svg) : 0;
        if (n > 4 && !strcmp(svg + n - 4, ".svg"))
            n -= 4;
        if (svg && lc->ntmaps > 1 && asprintf(&path, "%.*s.%s.svg", (int)n, svg, t->name) < 0)
            path = NULL;
        decode_print(t->map, t->name, false, lc->ntmaps > 1 ? path : svg);
        free(path);
    }
}

/* ---- async ------------------------------------------------------------------------------------- */

static const char *policy_name(interp_policy p)
{
    return p == INTERP_COMPLETE_EAGER ? "eager: copies land at issue"
           : p == INTERP_COMPLETE_RANDOM ? "random: copies land out of order, in chunks"
                                         : "deferred: copies land when no warp can run";
}

static void space_addr(const dbg *d, int irsp, uint64_t a, int cta, uint32_t mask, char *buf, size_t n)
{
    char note[96], ls[64];
    if (irsp == IR_SPACE_GLOBAL) {
        const mem_alloc *al = d->g ? mem_global_find(d->g, a) : NULL;
        if (al && al->name)
            snprintf(buf, n, "global 0x%" PRIx64 " <%s+%" PRIu64 ">", a, al->name, a - al->base);
        else
            snprintf(buf, n, "global 0x%" PRIx64, a);
        return;
    }
    sym_note(d, DBG_SP_SHARED, a, note, sizeof note);
    if (mask && interp_ncta(d->c) > 1)
        snprintf(buf, n, "smem 0x%" PRIx64 "%s of CTA ranks %s", a, note, dbg_lanes_str(mask, ls, sizeof ls));
    else if (cta >= 0 && interp_ncta(d->c) > 1)
        snprintf(buf, n, "smem 0x%" PRIx64 "%s of CTA rank %d", a, note, cta);
    else
        snprintf(buf, n, "smem 0x%" PRIx64 "%s", a, note);
}

void dbg_info_async(dbg *d, const char *args)
{
    (void)args;
    if (!d->c || d->state == DBG_IDLE) {
        printf("No asynchronous operations in flight (the kernel has not started).\n");
        return;
    }
    int n = interp_ninflight(d->c);
    if (!n) {
        printf("No asynchronous operations in flight.\n");
        return;
    }
    printf("%d asynchronous operation%s in flight (completion %s):\n", n, n == 1 ? "" : "s", policy_name(d->policy));
    for (int i = 0; i < n; i++) {
        interp_inflight op;
        if (interp_inflight_get(d->c, i, &op) < 0)
            continue;
        char src[160], dst[160], where[256];
        dbg_loc_str(d, op.func, op.pc, where, sizeof where);
        printf("  #%d %s, %u bytes", op.id, op.kind, op.bytes);
        if (op.dst_space != IR_SPACE_NONE) {
            space_addr(d, op.src_space, op.src, op.src_cta, 0, src, sizeof src);
            space_addr(d, op.dst_space, op.dst, op.dst_cta, op.cta_mask, dst, sizeof dst);
            if (op.map) {
                printf(": tensor at global 0x%" PRIx64 ", box at {", op.map->global_address);
                for (int k = 0; k < op.dim; k++)
                    printf("%s%d", k ? ", " : "", op.coords[k]);
                printf("} %s %s", op.src_space == IR_SPACE_GLOBAL ? "->" : "<-",
                       op.src_space == IR_SPACE_GLOBAL ? dst : src);
            } else {
                printf(": %s -> %s", src, dst);
            }
        }
        putchar('\n');
        if (op.has_mbar) {
            char note[96];
            sym_note(d, DBG_SP_SHARED, op.mbar, note, sizeof note);
            printf("     completes tx on mbarrier smem 0x%x%s\n", op.mbar, note);
        } else if (op.bulk_group) {
            printf("     tracked by bulk group %u of its thread (cp.async.bulk.wait_group)\n", op.group);
        }
        printf("     issued by CTA slot %d warp %d lane %d at %s\n", op.cta, op.warp, op.lane, where);
    }
}

/* ---- launch ----------------------------------------------------------------------------------- */

void dbg_info_launch(dbg *d, const char *args)
{
    (void)args;
    const launch_case *lc = d->lc;
    const interp_launch *l = &d->l;
    printf("case %s (%s)\n", lc->name, lc->origin ? lc->origin : "?");
    printf("kernel %s in %s\n", d->entry->name, d->mod->path ? d->mod->path : "?");
    printf("grid (%u,%u,%u), block (%u,%u,%u), cluster (%u,%u,%u), dynamic shared memory %u bytes\n", l->grid[0],
           l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->cluster[0] ? l->cluster[0] : 1,
           l->cluster[1] ? l->cluster[1] : 1, l->cluster[2] ? l->cluster[2] : 1, l->dyn_smem);
    printf("completion %s\n", policy_name(d->policy));
    for (size_t i = 0; i < lc->nbuffers; i++)
        printf("  buffer %-12s global 0x%" PRIx64 ", %" PRIu64 " bytes\n", lc->buffers[i].name, lc->buffers[i].addr,
               lc->buffers[i].bytes);
    for (size_t i = 0; i < d->nsyms; i++) {
        const dbg_sym *s = &d->syms[i];
        if (s->space == DBG_SP_PARAM)
            continue;
        printf("  variable %-10s %s 0x%" PRIx64 ", %" PRIu64 " bytes%s%s%s\n", s->shortname ? s->shortname : s->name,
               dbg_space_name(s->space), s->addr, s->size, s->shortname ? " (" : "", s->shortname ? s->name : "",
               s->shortname ? ")" : "");
    }
    const char *st = d->state == DBG_IDLE ? "not started" : d->state == DBG_STOPPED ? "stopped" : "finished";
    printf("state: %s, %" PRIu64 " warp instructions executed\n", st, d->c ? interp_clock(d->c) : 0);
}

/* ---- wgmma: info wgmma, info desc, print/matrix ----------------------------------------- */

void dbg_info_wgmma(dbg *d, const char *args)
{
    (void)args;
    if (!d->c || d->state == DBG_IDLE) {
        printf("No wgmma.mma_async in flight (the kernel has not started).\n");
        return;
    }
    size_t n = 1 << 16;
    char *buf = malloc(n);
    if (!buf)
        return;
    int k = interp_wgmma_describe(d->c, buf, n);
    if (!k)
        printf("No wgmma.mma_async issued and not yet waited for.\n");
    else
        printf("%d wgmma.mma_async issued and not yet waited for (completion %s):\n%s", k, policy_name(d->policy), buf);
    free(buf);
}

/* A register of the selected lane (%REG) or a number, as 64 bits. */
static bool dbg_value_arg(dbg *d, const char *args, uint64_t *v)
{
    if (*args == '%') {
        char name[64];
        int lane;
        size_t k = dbg_scan_reg(args, name, sizeof name, &lane);
        if (*skip_ws(args + k)) {
            dbg_err("Usage: %%REG, %%REG[LANE] or a number.");
            return false;
        }
        if (!need_resident(d))
            return false;
        int ref = lane >= 0 ? lane : dbg_ref_lane(d), func;
        uint32_t slot;
        if (reg_lookup(d, name, ref, &func, &slot) || !interp_reg_get(d->c, d->cta, d->warp, ref, slot, v)) {
            dbg_err("No register %s in lane %d's function.", name, ref);
            return false;
        }
        return true;
    }
    char *end;
    errno = 0;
    *v = strtoull(args, &end, 0);
    if (end == args || errno || *skip_ws(end)) {
        dbg_err("\"%s\" is neither a register nor a number.", args);
        return false;
    }
    return true;
}

void dbg_info_desc(dbg *d, const char *args)
{
    args = skip_ws(args);
    if (!*args) {
        dbg_err("Usage: info desc %%REG | NUMBER  (a wgmma shared-memory matrix descriptor)");
        return;
    }
    uint64_t v;
    if (!dbg_value_arg(d, args, &v))
        return;
    tc_desc t = tc_desc_decode(v);
    printf("descriptor 0x%016" PRIx64 ":\n", v);
    printf("  start address   0x%x (shared::cta)\n", t.start);
    printf("  leading  offset %u bytes (LBO)\n", t.lbo);
    printf("  stride   offset %u bytes (SBO)\n", t.sbo);
    printf("  swizzle         %s\n", t.swizzle == 128 ? "128B" : t.swizzle == 64 ? "64B" : t.swizzle == 32 ? "32B"
                                                          : "none (interleave)");
    printf("  base offset     %u\n", t.base);
    if (v & 0x3FFFC000C000C000ull & ~(7ull << 49))
        printf("  (bits outside the fields are set: 0x%016" PRIx64 ")\n", (uint64_t)(v & 0x3FFFC000C000C000ull & ~(7ull << 49)));
}

/* print/matrix [a|d] [LINE]: the fragment of a wgmma.mma_async as a matrix */
void dbg_print_matrix(dbg *d, const char *args)
{
    args = skip_ws(args);
    char which = 'd';
    if ((*args == 'a' || *args == 'd') && (!args[1] || args[1] == ' ' || args[1] == '\t')) {
        which = *args;
        args = skip_ws(args + 1);
    }
    if (!need_resident(d))
        return;
    interp_warp_info wi;
    if (interp_warp_get(d->c, d->cta, d->warp, &wi)) {
        dbg_err("No warp %d in CTA slot %d.", d->warp, d->cta);
        return;
    }
    int ref = dbg_ref_lane(d), func = wi.func[ref];
    long pc = -1;
    if (*args) {
        char *end;
        long line = strtol(args, &end, 10);
        if (end == args || *skip_ws(end)) {
            dbg_err("Usage: print/matrix [a|d] [LINE]");
            return;
        }
        for (uint32_t f = 0; f < d->mod->nfuncs && pc < 0; f++)
            for (uint32_t i = 0; i < d->mod->funcs[f].ninstrs; i++)
                if (d->mod->funcs[f].instrs[i].loc.line == (uint32_t)line &&
                    d->mod->funcs[f].instrs[i].op == IR_OP_WGMMA_MMA_ASYNC) {
                    func = (int)f;
                    pc = i;
                    break;
                }
    } else if (func >= 0) {
        const ir_function *fn = &d->mod->funcs[func];
        for (long i = (long)wi.pc[ref]; i >= 0 && pc < 0; i--)
            if ((uint32_t)i < fn->ninstrs && fn->instrs[i].op == IR_OP_WGMMA_MMA_ASYNC)
                pc = i;
        for (uint32_t i = wi.pc[ref]; i < fn->ninstrs && pc < 0; i++)
            if (fn->instrs[i].op == IR_OP_WGMMA_MMA_ASYNC)
                pc = i;
    }
    if (pc < 0 || func < 0) {
        dbg_err("No wgmma.mma_async %s.", *args ? "at that line" : "in the selected warp's function");
        return;
    }
    size_t n = 1 << 20;
    char *buf = malloc(n);
    if (!buf)
        return;
    char where[300];
    dbg_loc_str(d, func, (uint32_t)pc, where, sizeof where);
    if (interp_wgmma_matrix(d->c, d->cta, d->warp, func, (uint32_t)pc, which, buf, n))
        dbg_err("%s: %s", where, buf);
    else
        printf("%s\n%s", where, buf);
    free(buf);
}
