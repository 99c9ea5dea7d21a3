/* parser/parser.h — the public face of the PTX parser: the token value and
 * location types shared by the re2c lexer and the Bison grammar, and the
 * IR-builder calls the grammar actions make (parser/build.c).
 *
 * ptx_parse()/ptx_parse_file() themselves are declared in ir/ir.h, the
 * contract the interpreter codes against.
 */
#ifndef PTXI_PARSER_H
#define PTXI_PARSER_H
#include <stdint.h>
#include "ir/ir.h"

/* Semantic value of a token.  Text is never copied: s/n point into the
 * module's copy of the source. */
typedef struct ptx_tok {
    const char *s;
    uint32_t n;
    int v;          /* directive payload: ir_space, ir_type, vector width, sreg, vsel */
    union {
        int64_t i;      /* integer value (T_INT) */
        uint64_t bits;  /* float immediate bits as written (T_FLOAT) */
    };
    double f;       /* float value */
} ptx_tok;

typedef struct ptx_loc {
    uint32_t line, col;   /* first character */
    uint32_t off, end;    /* byte range in the source */
} ptx_loc;

typedef struct ptx_builder ptx_builder;
struct lex_state;

/* ---- builder calls (one per grammar action) ---------------------------- */
void ptx_b_version(ptx_builder *b, const ptx_tok *t, ptx_loc l);
void ptx_b_target(ptx_builder *b, const ptx_tok *t, ptx_loc l);
void ptx_b_address_size(ptx_builder *b, int64_t v, ptx_loc l);
/* declaration specifiers: reset, then one call per written directive */
void ptx_b_spec_reset(ptx_builder *b);
void ptx_b_spec_linkage(ptx_builder *b, char linkage);
void ptx_b_spec_space(ptx_builder *b, int space, ptx_loc l);
void ptx_b_spec_align(ptx_builder *b, int64_t align, ptx_loc l);
void ptx_b_spec_type(ptx_builder *b, int type, ptx_loc l);
void ptx_b_spec_vec(ptx_builder *b, int vec);
void ptx_b_spec_ptr(ptx_builder *b);
/* variable declarator: begin, dims, initialiser elements, end */
void ptx_b_var_begin(ptx_builder *b, const ptx_tok *name, ptx_loc l);
void ptx_b_var_dim(ptx_builder *b, int64_t n, ptx_loc l);  /* [n], n read as unsigned */
void ptx_b_var_dim_unsized(ptx_builder *b, ptx_loc l);     /* [] */
void ptx_b_var_reg_range(ptx_builder *b, int64_t n, ptx_loc l);  /* %r<n> */
void ptx_b_init_int(ptx_builder *b, int64_t v, ptx_loc l);
void ptx_b_init_float(ptx_builder *b, const ptx_tok *t, int neg, ptx_loc l);
void ptx_b_init_sym(ptx_builder *b, const ptx_tok *name, int64_t addend, int generic, ptx_loc l);
void ptx_b_var_end(ptx_builder *b, ptx_loc l);
/* functions */
void ptx_b_func_begin(ptx_builder *b, int is_entry, ptx_loc l);
void ptx_b_func_param(ptx_builder *b, const ptx_tok *name, int is_ret, ptx_loc l);
void ptx_b_func_name(ptx_builder *b, const ptx_tok *name, ptx_loc l);
void ptx_b_func_dir(ptx_builder *b, int kind, const int64_t *v, int n, ptx_loc l);
void ptx_b_func_body(ptx_builder *b, ptx_loc l);
void ptx_b_func_end(ptx_builder *b, int has_body, ptx_loc l);
/* body */
void ptx_b_func_end_bare(ptx_builder *b, ptx_loc l);  /* header ended by its .pragma's ';' */
void ptx_b_func_end_semi(ptx_builder *b, ptx_loc semi); /* `header ;` */
void ptx_b_scope_open(ptx_builder *b, ptx_loc l);
void ptx_b_scope_close(ptx_builder *b, ptx_loc l);
void ptx_b_label(ptx_builder *b, const ptx_tok *name, ptx_loc l);
/* .pragma: each string of the list, then the directive (module scope,
 * between a function's header and body, or in a body: the builder knows) */
void ptx_b_pragma_str(ptx_builder *b, const ptx_tok *str, int first);
void ptx_b_pragma(ptx_builder *b, ptx_loc l);
void ptx_b_proto(ptx_builder *b, const ptx_tok *name, ptx_loc text, ptx_loc l);
/* instructions */
void ptx_b_guard(ptx_builder *b, const ptx_tok *reg, int neg, ptx_loc l);
void ptx_b_instr_begin(ptx_builder *b, const ptx_tok *mnem, ptx_loc l);
void ptx_b_opd_name(ptx_builder *b, const ptx_tok *t, int neg, ptx_loc l);
void ptx_b_opd_sreg(ptx_builder *b, const ptx_tok *t, ptx_loc l);
void ptx_b_opd_int(ptx_builder *b, int64_t v, ptx_loc l);
void ptx_b_opd_float(ptx_builder *b, const ptx_tok *t, int neg, ptx_loc l);
void ptx_b_opd_sink(ptx_builder *b, ptx_loc l);
void ptx_b_addr(ptx_builder *b, const ptx_tok *base, int64_t off, ptx_loc l);
void ptx_b_addr_attach_vec(ptx_builder *b, ptx_loc brace);  /* [tmap, {..}]: the '{' */
void ptx_b_vec_begin(ptx_builder *b);
void ptx_b_vec_end(ptx_builder *b, int pair);
void ptx_b_opd_end(ptx_builder *b, ptx_loc l);  /* an operand (vector, address) is complete */
void ptx_b_instr_end(ptx_builder *b, ptx_loc semi);   /* at its ';' */
void ptx_b_instr_abort(ptx_builder *b);
void ptx_b_error(ptx_builder *b, ptx_loc l, const char *msg);

enum { PTX_DIR_MAXNTID = 1, PTX_DIR_REQNTID, PTX_DIR_MINNCTAPERSM, PTX_DIR_MAXNREG,
       PTX_DIR_REQNCTAPERCLUSTER, PTX_DIR_EXPLICITCLUSTER, PTX_DIR_MAXCLUSTERRANK,
       PTX_DIR_NORETURN, PTX_DIR_MAXNCTAPERSM };

#endif
