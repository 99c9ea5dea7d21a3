/* lexer/lexer.h — the reentrant re2c scanner for PTX.  All state lives in
 * lex_state; tokens come back as Bison token codes with a ptx_tok value
 * and a ptx_loc.  The scanner skips comments, `.loc`/`.file` lines and
 * `.section` debug blocks itself (debug info never reaches the grammar).
 * The source must be NUL-terminated (src[len] == 0).
 */
#ifndef PTXI_LEXER_H
#define PTXI_LEXER_H
#include <stddef.h>
#include "parser/parser.h"

typedef struct lex_state {
    const char *src, *cur, *lim, *tok, *mar, *linestart;
    uint32_t line;
    const char *path;
    ir_diag *diag;
} lex_state;

void lex_init(lex_state *L, const char *src, size_t len, const char *path, ir_diag *diag);
/* Next token code (0 at end of input), its value and location. */
int lex_next(lex_state *L, ptx_tok *val, ptx_loc *loc);
/* Printable name of a token code for messages. */
const char *lex_token_name(int tok);
#endif
