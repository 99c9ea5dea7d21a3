/* ir/diag.c — the one place diagnostics are formatted: `file:line:col:
 * error: message`, then the source line, then a caret under the column,
 * the way gcc and clang print them.  A caller may install its own emit
 * hook (tests capture messages that way).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"

#define IR_DIAG_MAX_SHOWN 100

/* The source line of `loc` and a caret under its column, appended to out
 * (stderr is unbuffered: the caller writes everything at once). */
static void diag_quote(const ir_diag *d, ir_loc loc, FILE *out)
{
    if (!d->src || loc.line == 0)
        return;
    const char *p = d->src, *end = d->src + d->src_len;
    for (uint32_t l = 1; l < loc.line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return;
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = (size_t)((nl ? nl : end) - p);
    if (n && p[n - 1] == '\r')
        n--;
    fwrite(p, 1, n, out);
    fputc('\n', out);
    /* Keep tabs so the caret lines up under the same column in a terminal. */
    for (uint32_t c = 1; c < loc.col && c - 1 < n; c++)
        fputc(p[c - 1] == '\t' ? '\t' : ' ', out);
    fputs("^\n", out);
}

/* "file:line:col: ", or "file: " for what concerns the whole file (line 0:
 * it cannot be opened or read) */
static void diag_where(FILE *out, const char *file, ir_loc loc)
{
    if (loc.line)
        fprintf(out, "%s:%u:%u: ", file, loc.line, loc.col);
    else
        fprintf(out, "%s: ", file);
}

void ir_diag_error(ir_diag *d, const char *file, ir_loc loc, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!d) {
        diag_where(stderr, file, loc);
        fprintf(stderr, "error: %s\n", msg);
        return;
    }
    d->nerrors++;
    if (d->emit) {
        d->emit(d, file, loc, "error", msg);
        return;
    }
    /* Like clang's -ferror-limit: a garbage input can make thousands of
     * errors, each quoting its line; the count still includes them all. */
    if (d->nerrors > IR_DIAG_MAX_SHOWN) {
        if (d->nerrors == IR_DIAG_MAX_SHOWN + 1)
            fprintf(stderr, "%s: note: more than %d errors; the rest are not shown\n", file,
                    IR_DIAG_MAX_SHOWN);
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) {
        diag_where(stderr, file, loc);
        fprintf(stderr, "error: %s\n", msg);
        return;
    }
    diag_where(out, file, loc);
    fprintf(out, "error: %s\n", msg);
    diag_quote(d, loc, out);
    fclose(out);
    fwrite(text, 1, len, stderr);
    free(text);
}
