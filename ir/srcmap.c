/* srcmap.c — the high-level source lines of a PTX module, from the .file
 * and .loc directives that `nvcc -lineinfo` (CUDA C++) and Triton (Python)
 * emit.
 *
 * The lexer skips both directives (they do not change what a kernel
 * does); this pass reads them back from the module's source text once,
 * after parsing, and keeps one entry per PTX line: the .loc in force on
 * that line (the last one above it in the same function).  `.file N
 * "path" [, mtime, size]` names file N; `.loc FILE LINE COL [, ...]` says
 * the instructions that follow come from LINE of FILE (line 0: no
 * line, as nvcc writes for compiler-made code).  A function's first
 * instructions before any .loc have none.  Only the run-time reports
 * (interp_where) and the debugger read the map: the per-instruction path
 * never does.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"

static const char *skip_blank(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

static bool word_at(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - p) > n && !memcmp(p, w, n) && (p[n] == ' ' || p[n] == '\t');
}

static uint32_t number(const char **pp, const char *end)
{
    const char *p = skip_blank(*pp, end);
    uint64_t v = 0;
    while (p < end && isdigit((unsigned char)*p) && v < UINT32_MAX)
        v = v * 10 + (uint64_t)(*p++ - '0');
    *pp = p;
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* `.file N "path"`: file N's path into *files (grown as needed). */
static void add_file(ir_module *m, const char *p, const char *end, const char ***files, uint32_t *nfiles)
{
    uint32_t k = number(&p, end);
    p = skip_blank(p, end);
    if (p >= end || *p != '"' || k > 65535)
        return;
    const char *q = ++p;
    while (q < end && *q != '"')
        q++;
    if (q >= end)
        return;
    if (k >= *nfiles) {
        const char **nf = realloc(*files, (k + 1) * sizeof *nf);
        if (!nf)
            return;
        memset(nf + *nfiles, 0, (k + 1 - *nfiles) * sizeof *nf);
        *files = nf;
        *nfiles = k + 1;
    }
    (*files)[k] = ir_arena_strdup(m->arena, p, (size_t)(q - p));
}

void ir_srcmap_build(ir_module *m)
{
    if (!m->src || !memmem(m->src, m->src_len, ".loc", 4))
        return;
    uint32_t nlines = 1;
    for (size_t i = 0; i < m->src_len; i++)
        nlines += m->src[i] == '\n';
    ir_srcline *map = ir_arena_alloc(m->arena, (size_t)(nlines + 1) * sizeof *map);
    const char **files = NULL;
    uint32_t nfiles = 0;
    ir_srcline cur = {0, 0};
    const char *p = m->src, *end = m->src + m->src_len;
    for (uint32_t line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *t = skip_blank(p, le);
        if (word_at(t, le, ".loc")) {
            const char *q = t + 4;
            uint32_t f = number(&q, le);
            uint32_t l = number(&q, le);
            cur = f <= 65535 && l ? (ir_srcline){l, (uint16_t)f} : (ir_srcline){0, 0};
        } else if (word_at(t, le, ".file")) {
            add_file(m, t + 5, le, &files, &nfiles);
        } else if (memmem(t, (size_t)(le - t), ".entry", 6) || (word_at(t, le, ".func") ||
                   memmem(t, (size_t)(le - t), " .func ", 7))) {
            cur = (ir_srcline){0, 0};   /* a new function: no .loc in force */
        }
        map[line] = cur;
        p = nl ? nl + 1 : end;
    }
    m->srclines = map;
    m->nsrclines = nlines;
    if (nfiles) {
        m->files = ir_arena_alloc(m->arena, nfiles * sizeof *m->files);
        memcpy(m->files, files, nfiles * sizeof *files);
        m->nfiles = nfiles;
    }
    free(files);
}

bool ir_src_of(const ir_module *m, uint32_t ptx_line, const char **file, uint32_t *line)
{
    if (!m->srclines || ptx_line == 0 || ptx_line > m->nsrclines)
        return false;
    ir_srcline s = m->srclines[ptx_line];
    if (!s.line)
        return false;
    *line = s.line;
    *file = s.file < m->nfiles && m->files[s.file] ? m->files[s.file] : "?";
    return true;
}
