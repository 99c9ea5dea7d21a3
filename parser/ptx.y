/* parser/ptx.y — the PTX module grammar (pure, reentrant Bison).
 *
 * Actions are one call into the IR builder (parser/build.c); the grammar
 * shows the language, the builder shows the IR.  An instruction mnemonic
 * arrives as one token ("ld.global.v4.u32"); the builder splits it against
 * opcodes.def/mods.def/types.def.  Error recovery resynchronises at ';' and
 * '}' so that one run reports every error of a file.
 */
%define api.pure full
%define api.prefix {ptx_yy}
%define api.value.type {ptx_tok}
%define api.location.type {ptx_loc}
%define parse.error custom
%locations
%param {struct lex_state *L}
%parse-param {ptx_builder *B}
%expect 0
%precedence PRAGMA_END
%precedence T_PRAGMA

%code requires {
#include "parser/parser.h"
}
%code provides {
int ptx_yyparse(struct lex_state *L, ptx_builder *B);
const char *ptx_token_name(int tok);
}
%code {
#include <string.h>
#include "lexer/lexer.h"
#define ptx_yylex(v, l, L) lex_next((L), (v), (l))
#define YYLLOC_DEFAULT(Cur, Rhs, N) do {                                   \
    if (N) { (Cur).line = YYRHSLOC(Rhs, 1).line; (Cur).col = YYRHSLOC(Rhs, 1).col; \
             (Cur).off = YYRHSLOC(Rhs, 1).off; (Cur).end = YYRHSLOC(Rhs, N).end; } \
    else { (Cur).line = YYRHSLOC(Rhs, 0).line; (Cur).col = YYRHSLOC(Rhs, 0).col;   \
           (Cur).off = (Cur).end = YYRHSLOC(Rhs, 0).end; } } while (0)
#define YYLOCATION_PRINT(f, l) ((void)0)
/* '-' before an integer literal: two's-complement negation, as PTX wraps
 * (-0x8000000000000000 is INT64_MIN, not signed overflow). */
static inline int64_t ptx_neg(int64_t v) { return (int64_t)(0u - (uint64_t)v); }
static void ptx_yyerror(ptx_loc *l, struct lex_state *L, ptx_builder *B, const char *msg)
{
    (void)L;
    /* Bison's own words when its stack (10000 levels) overflows */
    ptx_b_error(B, *l, strcmp(msg, "memory exhausted") == 0 ? "nesting too deep for the parser" : msg);
}
}

%token T_IDENT "identifier" T_DOTTED "instruction" T_SREG "special register"
%token T_INT "integer" T_FLOAT "floating-point constant" T_STRING "string" T_SINK "'_'"
%token T_VERSION ".version" T_TARGET ".target" T_ADDRSIZE ".address_size"
%token T_VISIBLE ".visible" T_EXTERN ".extern" T_WEAK ".weak" T_COMMON ".common"
%token T_ENTRY ".entry" T_FUNC ".func"
%token T_MAXNTID ".maxntid" T_REQNTID ".reqntid" T_MINNCTAPERSM ".minnctapersm"
%token T_MAXNCTAPERSM ".maxnctapersm" T_MAXNREG ".maxnreg"
%token T_REQNCTAPERCLUSTER ".reqnctapercluster" T_EXPLICITCLUSTER ".explicitcluster"
%token T_MAXCLUSTERRANK ".maxclusterrank" T_NORETURN ".noreturn" T_PRAGMA ".pragma"
%token T_SPACE "state space" T_ALIGN ".align" T_PTR ".ptr" T_TYPE "type"
%token T_VECDIR "vector width" T_CALLPROTOTYPE ".callprototype"
%token T_CALLTARGETS ".calltargets" T_BRANCHTARGETS ".branchtargets"
%token T_BADDIR "unknown directive"

%%

module: %empty | module item ;

item: T_VERSION T_FLOAT                 { ptx_b_version(B, &$2, @2); }
    | T_TARGET targets
    | T_ADDRSIZE T_INT                  { ptx_b_address_size(B, $2.i, @2); }
    | specs vlist ';'                   { ptx_b_spec_reset(B); }
    | specs func
    | func
    | T_PRAGMA strings ';'              { ptx_b_pragma(B, @1); }
    | error ';'                         { yyerrok; ptx_b_spec_reset(B); }
    | error '}'                         { yyerrok; ptx_b_func_end(B, 1, @2); }
    ;

targets: T_IDENT                        { ptx_b_target(B, &$1, @1); }
       | targets ',' T_IDENT            { ptx_b_target(B, &$3, @3); }
       ;

/* a .pragma's string list: the builder collects it, ptx_b_pragma files it */
strings: T_STRING                       { ptx_b_pragma_str(B, &$1, 1); }
       | strings ',' T_STRING           { ptx_b_pragma_str(B, &$3, 0); }
       ;

specs: spec | specs spec ;
spec: T_VISIBLE                         { ptx_b_spec_linkage(B, 'v'); }
    | T_EXTERN                          { ptx_b_spec_linkage(B, 'e'); }
    | T_WEAK                            { ptx_b_spec_linkage(B, 'w'); }
    | T_COMMON                          { ptx_b_spec_linkage(B, 'c'); }
    | T_SPACE                           { ptx_b_spec_space(B, $1.v, @1); }
    | T_ALIGN T_INT                     { ptx_b_spec_align(B, $2.i, @2); }
    | T_TYPE                            { ptx_b_spec_type(B, $1.v, @1); }
    | T_VECDIR                          { ptx_b_spec_vec(B, $1.v); }
    | T_PTR                             { ptx_b_spec_ptr(B); }
    ;

vlist: vdecl | vlist ',' vdecl ;
vdecl: T_IDENT                          { ptx_b_var_begin(B, &$1, @1); }
       vsuffix                          { ptx_b_var_end(B, @1); }
     ;
vsuffix: dims_opt init_opt
       | '<' T_INT '>'                  { ptx_b_var_reg_range(B, $2.i, @2); }
       ;
dims_opt: %empty | dims_opt '[' T_INT ']' { ptx_b_var_dim(B, $3.i, @3); }
        | dims_opt '[' ']'              { ptx_b_var_dim_unsized(B, @2); }
        ;
init_opt: %empty | '=' ival | '=' '{' ilist '}' ;
ilist: ielem | ilist ',' ielem ;
ielem: ival | '{' ilist '}' ;
ival: T_INT                             { ptx_b_init_int(B, $1.i, @1); }
    | '-' T_INT                         { ptx_b_init_int(B, ptx_neg($2.i), @2); }
    | T_FLOAT                           { ptx_b_init_float(B, &$1, 0, @1); }
    | '-' T_FLOAT                       { ptx_b_init_float(B, &$2, 1, @2); }
    | T_IDENT                           { ptx_b_init_sym(B, &$1, 0, 0, @1); }
    | T_IDENT '+' T_INT                 { ptx_b_init_sym(B, &$1, $3.i, 0, @1); }
    | T_IDENT '(' T_IDENT ')'           { ptx_b_init_sym(B, &$3, 0, 1, @1); }
    | T_IDENT '(' T_IDENT ')' '+' T_INT { ptx_b_init_sym(B, &$3, $6.i, 1, @1); }
    ;

/* ---- functions --------------------------------------------------------- */

func: T_ENTRY                           { ptx_b_func_begin(B, 1, @1); }
      T_IDENT                           { ptx_b_func_name(B, &$3, @3); }
      params fdirs ftail
    | T_FUNC                            { ptx_b_func_begin(B, 0, @1); }
      rets T_IDENT                      { ptx_b_func_name(B, &$4, @4); }
      params fdirs ftail
    ;
rets: %empty | '(' ')' | '(' rlist ')' ;
rlist: rparam | rlist ',' rparam ;
rparam: specs T_IDENT                   { ptx_b_var_begin(B, &$2, @2); }
        dims_opt                        { ptx_b_func_param(B, NULL, 1, @2); }
      ;
params: %empty | '(' ')' | '(' plist ')' ;
plist: param | plist ',' param ;
param: specs T_IDENT                    { ptx_b_var_begin(B, &$2, @2); }
       dims_opt                         { ptx_b_func_param(B, NULL, 0, @2); }
     ;
fdirs: %empty | fdirs fdir ;
fdir: T_MAXNTID ints3                   { ptx_b_func_dir(B, PTX_DIR_MAXNTID, NULL, -1, @2); }
    | T_REQNTID ints3                   { ptx_b_func_dir(B, PTX_DIR_REQNTID, NULL, -1, @2); }
    | T_REQNCTAPERCLUSTER ints3         { ptx_b_func_dir(B, PTX_DIR_REQNCTAPERCLUSTER, NULL, -1, @2); }
    | T_MINNCTAPERSM T_INT              { ptx_b_func_dir(B, PTX_DIR_MINNCTAPERSM, &$2.i, 1, @2); }
    | T_MAXNCTAPERSM T_INT              { ptx_b_func_dir(B, PTX_DIR_MAXNCTAPERSM, &$2.i, 1, @2); }
    | T_MAXNREG T_INT                   { ptx_b_func_dir(B, PTX_DIR_MAXNREG, &$2.i, 1, @2); }
    | T_MAXCLUSTERRANK T_INT            { ptx_b_func_dir(B, PTX_DIR_MAXCLUSTERRANK, &$2.i, 1, @2); }
    | T_EXPLICITCLUSTER                 { ptx_b_func_dir(B, PTX_DIR_EXPLICITCLUSTER, NULL, 0, @1); }
    | T_NORETURN                        { ptx_b_func_dir(B, PTX_DIR_NORETURN, NULL, 0, @1); }
    | T_PRAGMA strings ';'              { ptx_b_pragma(B, @1); } /* entry scope: .entry k() .pragma "nounroll"; { */
    ;
/* up to three integers; the builder collects them (ptx_b_func_dir with n=-1) */
ints3: int1 | int1 ',' int1 | int1 ',' int1 ',' int1 ;
int1: T_INT                             { ptx_b_func_dir(B, 0, &$1.i, 1, @1); } ;
/* ptxas ends a declaration at the ';' of a trailing .pragma
 * (`.func f() .pragma "x";`); a following .pragma still belongs to the
 * header (shift, by the precedence below) */
ftail: %empty %prec PRAGMA_END          { ptx_b_func_end_bare(B, @$); }
     | ';'                              { ptx_b_func_end_semi(B, @1); }
     | '{'                              { ptx_b_func_body(B, @1); }
       body '}'                         { ptx_b_func_end(B, 1, @4); }
     ;

/* ---- bodies -------------------------------------------------------------- */

body: %empty | body stmt ;
stmt: specs vlist ';'                   { ptx_b_spec_reset(B); }
    | T_IDENT ':'                       { ptx_b_label(B, &$1, @1); }
    | T_IDENT ':' T_CALLPROTOTYPE proto ';' { ptx_b_proto(B, &$1, @3, @$); }
    | T_IDENT ':' T_CALLTARGETS names ';'   { ptx_b_label(B, &$1, @1); }
    | T_IDENT ':' T_BRANCHTARGETS names ';' { ptx_b_label(B, &$1, @1); }
    | '{'                               { ptx_b_scope_open(B, @1); }
      body '}'                          { ptx_b_scope_close(B, @4); }
    | T_PRAGMA strings ';'              { ptx_b_pragma(B, @1); }
    | instr
    | error ';'                         { yyerrok; ptx_b_instr_abort(B); ptx_b_spec_reset(B); }
    ;
names: T_IDENT | names ',' T_IDENT ;
proto: prets T_SINK '(' pplist ')' | prets T_SINK '(' ')' ;
prets: %empty | '(' ')' | '(' pplist ')' ;
pplist: pparam | pplist ',' pparam ;
pparam: specs pname dims_opt            { ptx_b_spec_reset(B); } ;
pname: T_IDENT | T_SINK ;

instr: guard mnem opds_opt ';'          { ptx_b_instr_end(B, @4); }
     | mnem opds_opt ';'                { ptx_b_instr_end(B, @3); }
     ;
guard: '@' T_IDENT                      { ptx_b_guard(B, &$2, 0, @2); }
     | '@' '!' T_IDENT                  { ptx_b_guard(B, &$3, 1, @3); }
     ;
mnem: T_IDENT                           { ptx_b_instr_begin(B, &$1, @1); }
    | T_DOTTED                          { ptx_b_instr_begin(B, &$1, @1); }
    ;
opds_opt: %empty | opds ;
/* each operand's place, for diagnostics about it */
opds: opd                               { ptx_b_opd_end(B, @1); }
    | opds ',' opd                      { ptx_b_opd_end(B, @3); }
    ;
opd: elem
   | T_IDENT '|' T_IDENT                { ptx_b_vec_begin(B); ptx_b_opd_name(B, &$1, 0, @1);
                                          ptx_b_opd_name(B, &$3, 0, @3); ptx_b_vec_end(B, 1); }
   | T_SINK '|' T_IDENT                 { ptx_b_vec_begin(B); ptx_b_opd_sink(B, @1);
                                          ptx_b_opd_name(B, &$3, 0, @3); ptx_b_vec_end(B, 1); }
   | '[' addr ']'
   | '{'                                { ptx_b_vec_begin(B); }
     elems '}'                          { ptx_b_vec_end(B, 0); }
   | '('                                { ptx_b_vec_begin(B); }
     elems_opt ')'                      { ptx_b_vec_end(B, 0); }
   ;
elems_opt: %empty | elems ;
elems: elem | elems ',' elem ;
elem: T_IDENT                           { ptx_b_opd_name(B, &$1, 0, @1); }
    | '!' T_IDENT                       { ptx_b_opd_name(B, &$2, 1, @2); }
    | T_SREG                            { ptx_b_opd_sreg(B, &$1, @1); }
    | T_INT                             { ptx_b_opd_int(B, $1.i, @1); }
    | '-' T_INT                         { ptx_b_opd_int(B, ptx_neg($2.i), @1); }
    | T_FLOAT                           { ptx_b_opd_float(B, &$1, 0, @1); }
    | '-' T_FLOAT                       { ptx_b_opd_float(B, &$2, 1, @1); }
    | T_SINK                            { ptx_b_opd_sink(B, @1); }
    ;
addr: T_IDENT                           { ptx_b_addr(B, &$1, 0, @1); }
    | T_IDENT '+' T_INT                 { ptx_b_addr(B, &$1, $3.i, @1); }
    | T_IDENT '+' '-' T_INT             { ptx_b_addr(B, &$1, ptx_neg($4.i), @1); }
    | T_IDENT '-' T_INT                 { ptx_b_addr(B, &$1, ptx_neg($3.i), @1); }
    | T_INT                             { ptx_b_addr(B, NULL, $1.i, @1); }
    | T_IDENT ','                       { ptx_b_addr(B, &$1, 0, @1); }
      '{'                               { ptx_b_vec_begin(B); }
      elems '}'                         { ptx_b_vec_end(B, 0); ptx_b_addr_attach_vec(B, @4); }
    ;

%%

const char *ptx_token_name(int tok)
{
    yysymbol_kind_t k = YYTRANSLATE(tok);
    return yysymbol_name(k);
}

/* Our own wording: "unexpected X, expected Y or Z" names at most three
 * expected tokens; an unknown directive is reported as such. */
static int yyreport_syntax_error(const yypcontext_t *ctx, struct lex_state *L, ptx_builder *B)
{
    char msg[512];
    yysymbol_kind_t tok = yypcontext_token(ctx);
    const ptx_loc *loc = yypcontext_location(ctx);
    yysymbol_kind_t exp[4];
    int n = yypcontext_expected_tokens(ctx, exp, 4);
    if (tok == YYSYMBOL_T_BADDIR) {
        snprintf(msg, sizeof msg, "unknown directive '%.*s'", (int)(loc->end - loc->off),
                 L->src + loc->off);
    } else {
        int k = snprintf(msg, sizeof msg, "syntax error: unexpected %s", yysymbol_name(tok));
        if (n > 0 && n < 4)
            for (int i = 0; i < n && k < (int)sizeof msg; i++)
                k += snprintf(msg + k, sizeof msg - (size_t)k, "%s%s",
                              i == 0 ? ", expected " : " or ", yysymbol_name(exp[i]));
    }
    ptx_b_error(B, *loc, msg);
    return 0;
}
