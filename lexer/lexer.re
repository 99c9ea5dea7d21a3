/* lexer/lexer.re — the PTX scanner (re2c).
 *
 * Reentrant: all state is in lex_state.  The source is NUL-terminated, so
 * the sentinel method needs no bounds checks in the DFA.  A mnemonic with
 * its modifiers ("cp.async.bulk.tensor.2d.shared::cluster.global") is one
 * T_DOTTED token — an identifier immediately followed by `.word`s — while a
 * `.word` after white space is a directive keyword.  Special registers
 * ("%tid.x") are recognised here through ir_sreg_lookup; a register with a
 * selector ("%r1.x") is a T_IDENT whose v is the selector.  Debug info that
 * the IR does not model (.loc, .file lines, .section blocks) is skipped
 * here, quickly, because nvcc -G output is mostly that.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "lexer/lexer.h"
#include "parser/ptx.h"

void lex_init(lex_state *L, const char *src, size_t len, const char *path, ir_diag *diag)
{
    memset(L, 0, sizeof *L);
    L->src = L->cur = L->linestart = src;
    L->lim = src + len;
    L->line = 1;
    L->path = path;
    L->diag = diag;
}

static void lex_error(lex_state *L, const char *at, const char *msg)
{
    ir_loc l = { L->line, (uint16_t)(at - L->linestart + 1), 0 };
    ir_diag_error(L->diag, L->path, l, "%s", msg);
}

/* Skip to the end of the line (the newline itself is scanned normally). */
static void skip_line(lex_state *L)
{
    const char *nl = memchr(L->cur, '\n', (size_t)(L->lim - L->cur));
    L->cur = nl ? nl : L->lim;
}

/* Skip a `.section name { ... }` block, counting lines. */
static void skip_section(lex_state *L)
{
    const char *p = L->cur;
    int depth = 0;
    for (; p < L->lim; p++) {
        char c = *p;
        if (c == '\n') {
            L->line++;
            L->linestart = p + 1;
        } else if (c == '{') {
            depth++;
        } else if (c == '}') {
            if (--depth <= 0) {
                p++;
                break;
            }
        } else if (c == '"') {
            for (p++; p < L->lim && *p != '"' && *p != '\n'; p++)
                if (*p == '\\' && p + 1 < L->lim) p++;
        }
    }
    L->cur = p;
}

static int skip_block_comment(lex_state *L)
{
    for (const char *p = L->cur; p + 1 < L->lim; p++) {
        if (*p == '\n') {
            L->line++;
            L->linestart = p + 1;
        } else if (p[0] == '*' && p[1] == '/') {
            L->cur = p + 2;
            return 1;
        }
    }
    L->cur = L->lim;
    return 0;
}

static uint64_t hexval(const char *s, const char *e)
{
    uint64_t v = 0;
    for (; s < e; s++) {
        int c = *s, d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        v = v * 16 + (uint64_t)d;
    }
    return v;
}

/* The digits from s to the token's end (an optional 'U' suffix ignored)
 * in `base`, as 64 bits; a value that does not fit is reported. */
static uint64_t intval(lex_state *L, const char *s, unsigned base)
{
    uint64_t v = 0;
    int ovf = 0;
    for (const char *p = s; p < L->cur && *p != 'U'; p++) {
        unsigned d = *p <= '9' ? (unsigned)(*p - '0') : (unsigned)((*p | 0x20) - 'a' + 10);
        if (v > (UINT64_MAX - d) / base)
            ovf = 1;
        v = v * base + d;
    }
    if (ovf)
        lex_error(L, L->tok, "integer constant too large");
    return v;
}

static int vsel_code(const char *s, size_t n)
{
    if (n == 1)
        switch (*s) {
        case 'x': case 'r': return 1;
        case 'y': case 'g': return 2;
        case 'z': case 'b': return 3;
        case 'w': case 'a': return 4;
        }
    if (n == 2 && s[0] == 'b' && s[1] >= '0' && s[1] <= '3')
        return 5 + s[1] - '0';
    if (n == 2 && s[0] == 'h' && (s[1] == '0' || s[1] == '1'))
        return 9 + s[1] - '0';
    /* SIMD video selectors and masks: .h00-.h11, .b0-.b7 up to four digits
     * (.b3210, .b7654), encoded as ir_operand.xsel, shifted past vsel */
    if (n >= 2 && n <= 5 && (s[0] == 'h' || s[0] == 'b')) {
        unsigned x = (s[0] == 'b' ? 0x8000u : 0) | (unsigned)(n - 1) << 12;
        for (size_t i = 1; i < n; i++) {
            unsigned d = (unsigned)(s[i] - '0');
            if (d > (s[0] == 'h' ? 1u : 7u))
                return 0;
            x |= d << (3 * (n - 1 - i));
        }
        return (int)(x << 8);
    }
    return 0;
}

/* A special register written wrongly: "%ctaid" without its component,
 * "%ctaid.w", "%laneid.x".  Reports it and returns the register meant (the
 * .x component, or the scalar) so that no "undefined register" follows;
 * returns 0 when `name` (n bytes, no component) is no special register
 * (an ordinary register, "%r1.x" with a selector). `dot` is the component's
 * '.' or NULL. */
static int sreg_misuse(lex_state *L, const char *name, size_t n, const char *dot)
{
    char buf[48];
    if (n + 3 > sizeof buf)
        return 0;
    memcpy(buf, name, n);
    memcpy(buf + n, ".x", 3);
    char msg[160];
    int vec = ir_sreg_lookup(buf, n + 2);
    const char *end = dot ? dot + 1 : NULL;
    while (end && (*end == '_' || (*end >= 'a' && *end <= 'z') || (*end >= 'A' && *end <= 'Z') ||
                   (*end >= '0' && *end <= '9')))
        end++;
    if (vec && !dot) {
        snprintf(msg, sizeof msg, "special register '%.*s' needs a component (.x, .y or .z)",
                 (int)n, name);
        lex_error(L, name, msg);
        return vec;
    }
    if (vec) {
        snprintf(msg, sizeof msg, "special register '%.*s' has no component '%.*s' (expected .x, .y or .z)",
                 (int)n, name, (int)(end - dot), dot);
        lex_error(L, dot, msg);
        return vec;
    }
    int scalar = dot ? ir_sreg_lookup(name, n) : 0;
    if (scalar) {
        snprintf(msg, sizeof msg, "special register '%.*s' has no components", (int)n, name);
        lex_error(L, dot, msg);
    }
    return scalar;
}

#define TOK(t) do { loc->line = line0; loc->col = (uint32_t)(L->tok - ls0 + 1); \
    loc->off = (uint32_t)(L->tok - L->src); loc->end = (uint32_t)(L->cur - L->src); \
    val->s = L->tok; val->n = (uint32_t)(L->cur - L->tok); return (t); } while (0)

int lex_next(lex_state *L, ptx_tok *val, ptx_loc *loc)
{
    const char *YYMARKER;
    uint32_t line0;
    const char *ls0;
    (void)YYMARKER;
    for (;;) {
        L->tok = L->cur;
        line0 = L->line;
        ls0 = L->linestart;
        /*!re2c
        re2c:define:YYCTYPE = char;
        re2c:define:YYCURSOR = L->cur;
        re2c:define:YYMARKER = YYMARKER;
        re2c:yyfill:enable = 0;
        re2c:flags:tags = 0;

        ident  = [a-zA-Z][a-zA-Z0-9_$]* | [_$%][a-zA-Z0-9_$]+;
        word   = [a-zA-Z0-9_]+ ("::" [a-zA-Z0-9_]+)*;
        dirw   = [a-zA-Z_][a-zA-Z0-9_]*;

        "\x00" { if (L->cur - 1 >= L->lim) { L->cur = L->lim; L->tok = L->lim; TOK(0); }
                 lex_error(L, L->tok, "invalid character (NUL) in source"); continue; }
        "\n"   { L->line++; L->linestart = L->cur; continue; }
        [ \t\r\v\f]+ { continue; }
        "//" [^\n\x00]* { continue; }
        "/*"   { if (!skip_block_comment(L)) lex_error(L, L->tok, "unterminated comment"); continue; }

        ".loc" [ \t] { skip_line(L); continue; }
        ".file" [ \t] { skip_line(L); continue; }
        ".section" [ \t] { skip_section(L); continue; }

        ".version"      { TOK(T_VERSION); }
        ".target"       { TOK(T_TARGET); }
        ".address_size" { TOK(T_ADDRSIZE); }
        ".visible"      { TOK(T_VISIBLE); }
        ".extern"       { TOK(T_EXTERN); }
        ".weak"         { TOK(T_WEAK); }
        ".common"       { TOK(T_COMMON); }
        ".entry"        { TOK(T_ENTRY); }
        ".func"         { TOK(T_FUNC); }
        ".maxntid"      { TOK(T_MAXNTID); }
        ".reqntid"      { TOK(T_REQNTID); }
        ".minnctapersm" { TOK(T_MINNCTAPERSM); }
        ".maxnctapersm" { TOK(T_MAXNCTAPERSM); }
        ".maxnreg"      { TOK(T_MAXNREG); }
        ".reqnctapercluster" { TOK(T_REQNCTAPERCLUSTER); }
        ".explicitcluster"   { TOK(T_EXPLICITCLUSTER); }
        ".maxclusterrank"    { TOK(T_MAXCLUSTERRANK); }
        ".noreturn"     { TOK(T_NORETURN); }
        ".pragma"       { TOK(T_PRAGMA); }
        ".align"        { TOK(T_ALIGN); }
        ".ptr"          { TOK(T_PTR); }
        ".callprototype" { TOK(T_CALLPROTOTYPE); }
        ".calltargets"  { TOK(T_CALLTARGETS); }
        ".branchtargets" { TOK(T_BRANCHTARGETS); }
        ".reg"          { val->v = IR_SPACE_REG; TOK(T_SPACE); }
        ".sreg"         { val->v = IR_SPACE_SREG; TOK(T_SPACE); }
        ".global"       { val->v = IR_SPACE_GLOBAL; TOK(T_SPACE); }
        ".shared"       { val->v = IR_SPACE_SHARED_CTA; TOK(T_SPACE); }
        ".shared::cta"  { val->v = IR_SPACE_SHARED_CTA; TOK(T_SPACE); }
        ".shared::cluster" { val->v = IR_SPACE_SHARED_CLUSTER; TOK(T_SPACE); }
        ".local"        { val->v = IR_SPACE_LOCAL; TOK(T_SPACE); }
        ".const"        { val->v = IR_SPACE_CONST; TOK(T_SPACE); }
        ".param"        { val->v = IR_SPACE_PARAM; TOK(T_SPACE); }
        ".tex"          { val->v = IR_SPACE_TEX; TOK(T_SPACE); }
        ".v2"           { val->v = 2; TOK(T_VECDIR); }
        ".v4"           { val->v = 4; TOK(T_VECDIR); }
        ".v8"           { val->v = 8; TOK(T_VECDIR); }
        "." dirw        { int t = ir_type_lookup(L->tok + 1, (size_t)(L->cur - L->tok - 1));
                          if (t) { val->v = t; TOK(T_TYPE); }
                          TOK(T_BADDIR); }

        [a-zA-Z][a-zA-Z0-9_$]* ("." word)+ { TOK(T_DOTTED); }
        "_"             { TOK(T_SINK); }
        "%" [a-zA-Z0-9_$]+ "." [a-zA-Z_][a-zA-Z0-9_]* {
                          size_t n = (size_t)(L->cur - L->tok);
                          int s = ir_sreg_lookup(L->tok, n);
                          if (s) { val->v = s; TOK(T_SREG); }
                          const char *dot = memchr(L->tok, '.', n);
                          if ((s = sreg_misuse(L, L->tok, (size_t)(dot - L->tok), dot)) != 0) {
                              val->v = s; TOK(T_SREG); }
                          int sel = vsel_code(dot + 1, (size_t)(L->cur - dot - 1));
                          if (!sel) {
                              lex_error(L, dot, "unknown special register or register selector");
                              sel = 1;
                          }
                          val->v = sel;
                          loc->line = line0; loc->col = (uint32_t)(L->tok - ls0 + 1);
                          loc->off = (uint32_t)(L->tok - L->src); loc->end = (uint32_t)(L->cur - L->src);
                          val->s = L->tok; val->n = (uint32_t)(dot - L->tok);
                          return T_IDENT; }
        "%" [a-zA-Z0-9_$]+ {
                          int s = ir_sreg_lookup(L->tok, (size_t)(L->cur - L->tok));
                          if (s) { val->v = s; TOK(T_SREG); }
                          if ((L->tok[1] == 't' || L->tok[1] == 'n' || L->tok[1] == 'c') && /* %tid %ctaid ... */
                              (s = sreg_misuse(L, L->tok, (size_t)(L->cur - L->tok), NULL)) != 0) {
                              val->v = s; TOK(T_SREG); }
                          val->v = 0; TOK(T_IDENT); }
        ident           { val->v = 0; TOK(T_IDENT); }

        "0" [fF] [0-9a-fA-F]{8} { uint32_t b = (uint32_t)hexval(L->tok + 2, L->cur); float f;
                          memcpy(&f, &b, 4); val->f = f; val->bits = b; val->v = 'f'; TOK(T_FLOAT); }
        "0" [dD] [0-9a-fA-F]{16} { uint64_t b = hexval(L->tok + 2, L->cur); double d;
                          memcpy(&d, &b, 8); val->f = d; val->bits = b; val->v = 'd'; TOK(T_FLOAT); }
        "0" [xX] [0-9a-fA-F]+ "U"? { val->i = (int64_t)intval(L, L->tok + 2, 16); TOK(T_INT); }
        "0" [bB] [01]+ "U"? { val->i = (int64_t)intval(L, L->tok + 2, 2); TOK(T_INT); }
        "0" [0-7]+ "U"? { val->i = (int64_t)intval(L, L->tok + 1, 8); TOK(T_INT); }
        [0-9]+ "U"?     { val->i = (int64_t)intval(L, L->tok, 10); TOK(T_INT); }
        ([0-9]+ "." [0-9]* | "." [0-9]+) ([eE] [+-]? [0-9]+)? | [0-9]+ [eE] [+-]? [0-9]+ {
                          char buf[64]; size_t n = (size_t)(L->cur - L->tok);
                          if (n >= sizeof buf) n = sizeof buf - 1;
                          memcpy(buf, L->tok, n); buf[n] = 0;
                          val->f = strtod(buf, NULL); memcpy(&val->bits, &val->f, 8);
                          val->v = 0; TOK(T_FLOAT); }

        ["] ([^"\\\n\x00] | "\\" [^\n\x00])* ["] { TOK(T_STRING); }
        ["]             { lex_error(L, L->tok, "unterminated string"); skip_line(L); continue; }

        [;,:{}()<>+!@=|[\]-] { TOK((unsigned char)L->tok[0]); }
        *               { lex_error(L, L->tok, "invalid character in PTX source"); continue; }
        */
    }
}

const char *lex_token_name(int tok)
{
    return ptx_token_name(tok);
}
