/* debug_expr.c — expressions typed at the `ptxi debug` prompt: what
 * `print`, `x`, `display`, `break ... if` and `condition` evaluate.
 *
 * A recursive-descent evaluator over the text, with C's precedence:
 *
 *   or   := and  { "||" and }          shift := add { ("<<"|">>") add }
 *   and  := bor  { "&&" bor }          add   := mul { ("+"|"-") mul }
 *   bor  := bxor { "|" bxor }          mul   := unary { ("*"|"/"|"%") unary }
 *   bxor := band { "^" band }          unary := ("-"|"!"|"~") unary | primary
 *   band := eq   { "&" eq }            primary := NUMBER | %REG[LANE] | %sreg
 *   eq   := rel  { ("=="|"!=") rel }            | $pc | $lane | $warp | $N | $
 *   rel  := shift { ("<"|"<="|">"|">=") shift } | NAME | "(" or ")"
 *
 * It evaluates while it parses (no tree): a breakpoint condition is
 * evaluated only when a warp reaches the breakpoint, once per lane of the
 * group there, so re-reading the text costs nothing that matters.  Values
 * carry their PTX kind: a register's .s/.u/.f/.pred type decides signed or
 * unsigned arithmetic and whether it is a float; mixing a float with an
 * integer computes in double, as C does.  A variable or buffer name stands
 * for its address (x and watch take it from there).
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

typedef struct ev {
    dbg *d;
    const char *s;
    int lane;
    char *err;
    size_t errlen;
    bool failed;
} ev;

static void fail(ev *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(ev *e, const char *fmt, ...)
{
    if (e->failed)
        return;
    e->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err, e->errlen, fmt, ap);
    va_end(ap);
}

static void ws(ev *e)
{
    while (*e->s && isspace((unsigned char)*e->s))
        e->s++;
}

/* The next token is `op` (and not the start of a longer operator). */
static bool eat(ev *e, const char *op)
{
    ws(e);
    size_t n = strlen(op);
    if (strncmp(e->s, op, n))
        return false;
    char nx = e->s[n];
    if (n == 1 && (op[0] == '&' || op[0] == '|') && nx == op[0])
        return false;   /* & is not && */
    if (n == 1 && (op[0] == '<' || op[0] == '>') && (nx == '=' || nx == op[0]))
        return false;   /* < is not <= or << */
    if (n == 1 && (op[0] == '!' || op[0] == '=') && nx == '=')
        return false;
    e->s += n;
    return true;
}

static dbg_value int_val(uint64_t u, char kind, unsigned bits)
{
    dbg_value v = {kind, bits, u, 0};
    if (bits < 64)
        v.u &= (1ull << bits) - 1;
    return v;
}

static double as_double(const dbg_value *v)
{
    if (v->kind == 'f')
        return v->f;
    if (v->kind == 's') {
        int64_t x = v->bits < 64 && (v->u >> (v->bits - 1) & 1) ? (int64_t)(v->u | ~((1ull << v->bits) - 1)) : (int64_t)v->u;
        return (double)x;
    }
    return (double)v->u;
}

static int64_t as_signed(const dbg_value *v)
{
    if (v->kind == 'f')
        return (int64_t)v->f;
    if (v->bits < 64 && (v->kind == 's') && (v->u >> (v->bits - 1) & 1))
        return (int64_t)(v->u | ~((1ull << v->bits) - 1));
    return (int64_t)v->u;
}

bool dbg_value_true(const dbg_value *v)
{
    return v->kind == 'f' ? v->f != 0 : v->u != 0;
}

static dbg_value float_val(double f)
{
    dbg_value v = {'f', 64, 0, f};
    memcpy(&v.u, &f, 8);
    return v;
}

/* A register's raw bits as a value of its PTX type. */
static dbg_value reg_val(uint64_t raw, int type)
{
    const ir_typeinfo *t = &ir_types[type];
    unsigned bits = t->bits > 64 ? 64 : t->bits ? t->bits : 64;
    if (t->kind == 'p')
        return int_val(raw & 1, 'u', 1);
    if (t->kind == 'f' && (bits == 16 || bits == 32 || bits == 64)) {
        dbg_value v = {'f', bits, raw, 0};
        if (bits == 16) {   /* f16 / bf16: through the formatter that knows both */
            char b[64];
            dbg_fmt_value(b, sizeof b, raw, type, bits, 'f');
            v.f = strtod(b, NULL);
        } else if (bits == 32) {
            float x;
            uint32_t u = (uint32_t)raw;
            memcpy(&x, &u, 4);
            v.f = x;
        } else if (bits == 64) {
            memcpy(&v.f, &raw, 8);
        }
        return v;
    }
    return int_val(raw, t->kind == 's' ? 's' : 'u', bits);
}

dbg_value dbg_typed_value(uint64_t raw, int type)
{
    return reg_val(raw, type);
}

static dbg_value parse_or(ev *e);

static dbg_value primary_reg(ev *e)
{
    char name[64];
    int lane;
    size_t k = dbg_scan_reg(e->s, name, sizeof name, &lane);
    e->s += k;
    if (lane < 0)
        lane = e->lane;
    if (lane < 0 || lane > 31) {
        fail(e, "lane %d is not 0..31", lane);
        return int_val(0, 'u', 64);
    }
    if (!dbg_resident(e->d)) {
        fail(e, "%s: the kernel is not running (no CTA is resident)", name);
        return int_val(0, 'u', 64);
    }
    uint64_t v;
    if (dbg_sreg_value(e->d, name, lane, &v) == 0)
        return int_val(v, 'u', 32);
    uint32_t slot;
    int type;
    uint64_t hi;
    if (dbg_reg_find(e->d, name, lane, &slot, &type) || !dbg_reg_read(e->d, lane, slot, &v, &hi)) {
        fail(e, "no register %s in the function lane %d runs", name, lane);
        return int_val(0, 'u', 64);
    }
    return reg_val(v, type);
}

static dbg_value primary_dollar(ev *e)
{
    dbg *d = e->d;
    const char *p = e->s + 1;
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_')
        n++;
    e->s = p + n;
    if (n == 0 || isdigit((unsigned char)p[0])) {   /* $ (last) or $N */
        size_t k = n ? (size_t)strtoul(p, NULL, 10) : d->nhist;
        if (!k || k > d->nhist) {
            fail(e, "history has no value $%.*s (it holds %zu)", (int)n, p, d->nhist);
            return int_val(0, 'u', 64);
        }
        const struct dbg_hist *h = &d->hist[k - 1];
        dbg_value v = {h->kind, h->bits, h->u, h->f};
        return v;
    }
    if (n == 2 && !strncmp(p, "pc", 2)) {
        int f;
        uint32_t pc;
        if (!dbg_frame_at(d, e->lane, &f, &pc)) {
            fail(e, "$pc: lane %d has no position (not running, or exited)", e->lane);
            return int_val(0, 'u', 32);
        }
        return int_val(pc, 'u', 32);
    }
    if (n == 4 && !strncmp(p, "lane", 4))
        return int_val((uint64_t)e->lane, 'u', 32);
    if (n == 4 && !strncmp(p, "warp", 4))
        return int_val((uint64_t)d->warp, 'u', 32);
    fail(e, "unknown convenience variable $%.*s ($pc, $lane, $warp, $N)", (int)n, p);
    return int_val(0, 'u', 64);
}

static dbg_value primary(ev *e)
{
    ws(e);
    const char *s = e->s;
    if (eat(e, "(")) {
        dbg_value v = parse_or(e);
        if (!eat(e, ")"))
            fail(e, "missing ')' at \"%s\"", *e->s ? e->s : "end of expression");
        return v;
    }
    if (*s == '%')
        return primary_reg(e);
    if (*s == '$')
        return primary_dollar(e);
    if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
        char *end;
        errno = 0;
        uint64_t u = strtoull(s, &end, 0);
        if (*end == '.' || *end == 'e' || *end == 'E') {
            if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
                fail(e, "\"%.*s\" is not a number", (int)(end - s + 1), s);
                return int_val(0, 'u', 64);
            }
            double f = strtod(s, &end);
            e->s = end;
            return float_val(f);
        }
        if (errno || isalpha((unsigned char)*end) || *end == '_') {
            fail(e, "\"%.*s\" is not a number", (int)strcspn(s, " \t()+-*/%<>=!&|^~"), s);
            return int_val(0, 'u', 64);
        }
        e->s = end;
        return int_val(u, u >> 63 ? 'u' : 's', 64);
    }
    if (isalpha((unsigned char)*s) || *s == '_') {
        size_t n = 0;
        while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.' || s[n] == '$')
            n++;
        char *name = strndup(s, n);
        e->s = s + n;
        const dbg_sym *sym = name ? dbg_sym_find(e->d, name) : NULL;
        const launch_buffer *b = sym || !name ? NULL : launch_find_buffer(e->d->lc, name);
        dbg_value v = int_val(0, 'u', 64);
        if (sym)
            v.u = sym->addr;
        else if (b)
            v.u = b->addr;
        else
            fail(e, "no register, variable or buffer named \"%s\"", name ? name : "?");
        free(name);
        return v;
    }
    fail(e, "expected a value at \"%s\"", *s ? s : "end of expression");
    return int_val(0, 'u', 64);
}

static dbg_value unary(ev *e)
{
    if (eat(e, "-")) {
        dbg_value v = unary(e);
        if (v.kind == 'f')
            return float_val(-v.f);
        return int_val(0 - v.u, 's', v.bits < 32 ? 32 : v.bits);
    }
    if (eat(e, "!")) {
        dbg_value v = unary(e);
        return int_val(!dbg_value_true(&v), 's', 32);
    }
    if (eat(e, "~")) {
        dbg_value v = unary(e);
        if (v.kind == 'f') {
            fail(e, "~ needs an integer");
            return v;
        }
        return int_val(~v.u, v.kind, v.bits);
    }
    if (eat(e, "+"))
        return unary(e);
    return primary(e);
}

/* The type a binary operator computes in: float if either side is, else
 * the wider width, unsigned if either side is (C's usual conversions). */
static dbg_value arith(ev *e, dbg_value a, dbg_value b, char op)
{
    if (e->failed)
        return a;
    if (a.kind == 'f' || b.kind == 'f') {
        double x = as_double(&a), y = as_double(&b);
        switch (op) {
        case '+': return float_val(x + y);
        case '-': return float_val(x - y);
        case '*': return float_val(x * y);
        case '/': return float_val(x / y);
        case '<': return int_val(x < y, 's', 32);
        case 'l': return int_val(x <= y, 's', 32);
        case '>': return int_val(x > y, 's', 32);
        case 'g': return int_val(x >= y, 's', 32);
        case '=': return int_val(x == y, 's', 32);
        case '!': return int_val(x != y, 's', 32);
        default:
            fail(e, "operator %c needs integers", op == 'L' ? '<' : op == 'R' ? '>' : op);
            return a;
        }
    }
    unsigned bits = a.bits > b.bits ? a.bits : b.bits;
    if (bits < 32)
        bits = 32;
    bool sgn = a.kind == 's' && b.kind == 's';
    char k = sgn ? 's' : 'u';
    int64_t sx = as_signed(&a), sy = as_signed(&b);
    uint64_t ux = sgn ? (uint64_t)sx : a.u, uy = sgn ? (uint64_t)sy : b.u;
    switch (op) {
    case '+': return int_val(ux + uy, k, bits);
    case '-': return int_val(ux - uy, k, bits);
    case '*': return int_val(ux * uy, k, bits);
    case '/':
    case '%':
        if (!uy) {
            fail(e, "division by zero");
            return a;
        }
        if (sgn)
            return int_val((uint64_t)(op == '/' ? sx / sy : sx % sy), k, bits);
        return int_val(op == '/' ? ux / uy : ux % uy, k, bits);
    case 'L': return int_val(uy >= 64 ? 0 : ux << uy, k, bits);
    case 'R': return int_val(uy >= 64 ? 0 : sgn ? (uint64_t)(sx >> uy) : ux >> uy, k, bits);
    case '&': return int_val(ux & uy, k, bits);
    case '|': return int_val(ux | uy, k, bits);
    case '^': return int_val(ux ^ uy, k, bits);
    case '<': return int_val(sgn ? sx < sy : ux < uy, 's', 32);
    case 'l': return int_val(sgn ? sx <= sy : ux <= uy, 's', 32);
    case '>': return int_val(sgn ? sx > sy : ux > uy, 's', 32);
    case 'g': return int_val(sgn ? sx >= sy : ux >= uy, 's', 32);
    case '=': return int_val(ux == uy, 's', 32);
    case '!': return int_val(ux != uy, 's', 32);
    }
    return a;
}

static dbg_value parse_mul(ev *e)
{
    dbg_value v = unary(e);
    for (;;) {
        char op = eat(e, "*") ? '*' : eat(e, "/") ? '/' : eat(e, "%") ? '%' : 0;
        if (!op || e->failed)
            return v;
        v = arith(e, v, unary(e), op);
    }
}

static dbg_value parse_add(ev *e)
{
    dbg_value v = parse_mul(e);
    for (;;) {
        char op = eat(e, "+") ? '+' : eat(e, "-") ? '-' : 0;
        if (!op || e->failed)
            return v;
        v = arith(e, v, parse_mul(e), op);
    }
}

static dbg_value parse_shift(ev *e)
{
    dbg_value v = parse_add(e);
    for (;;) {
        char op = eat(e, "<<") ? 'L' : eat(e, ">>") ? 'R' : 0;
        if (!op || e->failed)
            return v;
        v = arith(e, v, parse_add(e), op);
    }
}

static dbg_value parse_rel(ev *e)
{
    dbg_value v = parse_shift(e);
    for (;;) {
        char op = eat(e, "<=") ? 'l' : eat(e, ">=") ? 'g' : eat(e, "<") ? '<' : eat(e, ">") ? '>' : 0;
        if (!op || e->failed)
            return v;
        v = arith(e, v, parse_shift(e), op);
    }
}

static dbg_value parse_eq(ev *e)
{
    dbg_value v = parse_rel(e);
    for (;;) {
        char op = eat(e, "==") ? '=' : eat(e, "!=") ? '!' : 0;
        if (!op || e->failed)
            return v;
        v = arith(e, v, parse_rel(e), op);
    }
}

/* One level of the bitwise chain: & (level 0), ^ (1), | (2). */
static dbg_value parse_bit(ev *e, int level)
{
    static const char *const ops = "&^|";
    dbg_value v = level ? parse_bit(e, level - 1) : parse_eq(e);
    char o[2] = {ops[level], 0};
    while (!e->failed && eat(e, o))
        v = arith(e, v, level ? parse_bit(e, level - 1) : parse_eq(e), o[0]);
    return v;
}

static dbg_value parse_and(ev *e)
{
    dbg_value v = parse_bit(e, 2);
    while (!e->failed && eat(e, "&&")) {
        dbg_value r = parse_bit(e, 2);
        v = int_val(dbg_value_true(&v) && dbg_value_true(&r), 's', 32);
    }
    return v;
}

static dbg_value parse_or(ev *e)
{
    dbg_value v = parse_and(e);
    while (!e->failed && eat(e, "||")) {
        dbg_value r = parse_and(e);
        v = int_val(dbg_value_true(&v) || dbg_value_true(&r), 's', 32);
    }
    return v;
}

int dbg_eval(dbg *d, const char *expr, int lane, dbg_value *out, char *err, size_t errlen)
{
    ev e = {d, expr, lane, err, errlen, false};
    ws(&e);
    if (!*e.s) {
        snprintf(err, errlen, "an expression is required");
        return -1;
    }
    *out = parse_or(&e);
    ws(&e);
    if (!e.failed && *e.s)
        fail(&e, "junk at \"%s\"", e.s);
    return e.failed ? -1 : 0;
}

void dbg_value_str(const dbg_value *v, char fmt, char *buf, size_t n)
{
    if (v->kind == 'f') {
        if (!fmt || fmt == 'f') {
            snprintf(buf, n, "%.9g", v->f);
            return;
        }
        /* /x /t /o on a float show its bits, as for a register */
        if (fmt == 'x' || fmt == 't' || fmt == 'o') {
            dbg_fmt_value(buf, n, v->u, 0, v->bits, fmt);
            return;
        }
        dbg_fmt_value(buf, n, (uint64_t)(int64_t)v->f, 0, 64, fmt);
        return;
    }
    if (!fmt)
        fmt = v->kind == 's' ? 'd' : 'u';
    dbg_fmt_value(buf, n, v->u, 0, v->bits, fmt);
}

/* ---- display: expressions shown at every stop ------------------------------------------ */

static void show_display(dbg *d, const struct dbg_display *ds)
{
    dbg_value v;
    char err[256], buf[160];
    printf("%d: ", ds->num);
    if (ds->fmt)
        printf("/%c ", ds->fmt);
    if (dbg_eval(d, ds->expr, dbg_ref_lane(d), &v, err, sizeof err)) {
        printf("%s = <%s>\n", ds->expr, err);
        return;
    }
    dbg_value_str(&v, ds->fmt, buf, sizeof buf);
    printf("%s = %s\n", ds->expr, buf);
}

void dbg_show_displays(dbg *d)
{
    if (!dbg_resident(d))
        return;
    for (size_t i = 0; i < d->ndisplays; i++)
        if (d->displays[i].enabled)
            show_display(d, &d->displays[i]);
}

void dbg_cmd_display(dbg *d, const char *fmt, const char *args)
{
    while (*args && isspace((unsigned char)*args))
        args++;
    if (!*args) {
        dbg_show_displays(d);
        return;
    }
    char f = fmt && *fmt ? fmt[strlen(fmt) - 1] : 0;
    if (fmt && *fmt && (strlen(fmt) != 1 || !strchr("xduotfc", f))) {
        dbg_err("Bad format \"/%s\": display takes /x /d /u /o /t /f or /c.", fmt);
        return;
    }
    struct dbg_display *nd = realloc(d->displays, (d->ndisplays + 1) * sizeof *nd);
    if (!nd)
        return;
    d->displays = nd;
    struct dbg_display *ds = &d->displays[d->ndisplays++];
    ds->num = ++d->next_display;
    ds->fmt = f;
    ds->expr = strdup(args);
    ds->enabled = true;
    if (dbg_resident(d))
        show_display(d, ds);
}

void dbg_cmd_undisplay(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    while (*args && isspace((unsigned char)*args))
        args++;
    if (!*args) {
        for (size_t i = 0; i < d->ndisplays; i++)
            free(d->displays[i].expr);
        d->ndisplays = 0;
        return;
    }
    for (const char *p = args; *p;) {
        char *end;
        long n = strtol(p, &end, 10);
        if (end == p) {
            dbg_err("\"%s\" is not a display number (info display lists them).", p);
            return;
        }
        size_t i = 0;
        while (i < d->ndisplays && d->displays[i].num != n)
            i++;
        if (i == d->ndisplays) {
            dbg_err("No display number %ld.", n);
            return;
        }
        free(d->displays[i].expr);
        memmove(&d->displays[i], &d->displays[i + 1], (d->ndisplays - i - 1) * sizeof *d->displays);
        d->ndisplays--;
        p = end;
        while (*p && (isspace((unsigned char)*p) || *p == ','))
            p++;
    }
}

void dbg_info_display(dbg *d, const char *args)
{
    (void)args;
    if (!d->ndisplays) {
        printf("There are no auto-display expressions now.\n");
        return;
    }
    printf("Auto-display expressions now in effect:\nNum Enb Expression\n");
    for (size_t i = 0; i < d->ndisplays; i++) {
        const struct dbg_display *ds = &d->displays[i];
        char f[4] = "";
        if (ds->fmt)
            snprintf(f, sizeof f, "/%c ", ds->fmt);
        printf("%-3d %-3s %s%s\n", ds->num, ds->enabled ? "y" : "n", f, ds->expr);
    }
}

void dbg_displays_free(dbg *d)
{
    for (size_t i = 0; i < d->ndisplays; i++)
        free(d->displays[i].expr);
    free(d->displays);
    d->displays = NULL;
    d->ndisplays = 0;
    free(d->hist);
    d->hist = NULL;
    d->nhist = 0;
}
