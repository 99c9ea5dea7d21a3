/* debug_source.c — CUDA (or Python) source lines in `ptxi debug`, from the
 * .file/.loc directives of PTX compiled with `nvcc -lineinfo` or by Triton
 * (ir/srcmap.c reads them).
 *
 * A source file is looked for where .file says, then beside the PTX file
 * under its own name (a .cu committed next to its .ptx, or a PTX moved
 * from the machine that compiled it); it is read once, when first shown.
 * Locations `k.cu:42` resolve to the first instruction (in PTX order) that
 * .loc attributes to that line, or to the next line that has one.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/debug.h"

struct dbg_srcfiles {
    uint32_t n;
    struct srcfile {
        bool tried;
        char *path;        /* where it was found, NULL if not at hand */
        char *text;
        size_t len;
        uint32_t nlines;
        uint32_t *start;   /* offset of each line (1-based) */
    } *f;
};

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

static struct srcfile *load(const dbg *d, uint32_t k)
{
    const ir_module *m = d->mod;
    if (k >= m->nfiles || !m->files[k])
        return NULL;
    struct dbg_srcfiles *s = d->src;
    if (!s || k >= s->n)
        return NULL;
    struct srcfile *f = &s->f[k];
    if (f->tried)
        return f->text ? f : NULL;
    f->tried = true;
    const char *want = m->files[k];
    char *cand[2] = {strdup(want), NULL};
    const char *ptx = m->path ? m->path : "";
    const char *slash = strrchr(ptx, '/');
    if (asprintf(&cand[1], "%.*s%s", slash ? (int)(slash - ptx + 1) : 0, ptx, base_name(want)) < 0)
        cand[1] = NULL;
    for (int i = 0; i < 2 && !f->text; i++) {
        if (!cand[i])
            continue;
        f->text = slurp(cand[i], &f->len);
        if (f->text) {
            f->path = cand[i];
            cand[i] = NULL;
        }
    }
    free(cand[0]);
    free(cand[1]);
    if (!f->text)
        return NULL;
    uint32_t n = 1;
    for (size_t i = 0; i < f->len; i++)
        n += f->text[i] == '\n';
    f->start = malloc((size_t)(n + 2) * sizeof *f->start);
    if (!f->start) {
        free(f->text);
        f->text = NULL;
        return NULL;
    }
    uint32_t l = 1;
    f->start[1] = 0;
    for (size_t i = 0; i < f->len; i++)
        if (f->text[i] == '\n')
            f->start[++l] = (uint32_t)(i + 1);
    if (f->len && f->text[f->len - 1] == '\n')
        l--;
    f->nlines = l;
    return f;
}

void dbg_source_init(dbg *d)
{
    d->src = calloc(1, sizeof *d->src);
    if (d->src && d->mod->nfiles) {
        d->src->f = calloc(d->mod->nfiles, sizeof *d->src->f);
        d->src->n = d->src->f ? d->mod->nfiles : 0;
    }
    d->source_view = d->mod->srclines != NULL;
}

void dbg_source_free(dbg *d)
{
    if (!d->src)
        return;
    for (uint32_t i = 0; i < d->src->n; i++) {
        free(d->src->f[i].path);
        free(d->src->f[i].text);
        free(d->src->f[i].start);
    }
    free(d->src->f);
    free(d->src);
    d->src = NULL;
}

bool dbg_src_at(const dbg *d, int func, uint32_t pc, int *file, uint32_t *line)
{
    const ir_module *m = d->mod;
    if (!m->srclines || func < 0 || (uint32_t)func >= m->nfuncs || pc >= m->funcs[func].ninstrs)
        return false;
    uint32_t pl = m->funcs[func].instrs[pc].loc.line;
    if (!pl || pl > m->nsrclines || !m->srclines[pl].line)
        return false;
    *file = m->srclines[pl].file;
    *line = m->srclines[pl].line;
    return true;
}

const char *dbg_src_name(const dbg *d, int file)
{
    const ir_module *m = d->mod;
    return (uint32_t)file < m->nfiles && m->files[file] ? base_name(m->files[file]) : "?";
}

const char *dbg_src_line(const dbg *d, int file, uint32_t line, size_t *len)
{
    struct srcfile *f = file >= 0 ? load(d, (uint32_t)file) : NULL;
    if (!f || !line || line > f->nlines)
        return NULL;
    const char *s = f->text + f->start[line];
    const char *nl = memchr(s, '\n', f->len - f->start[line]);
    *len = (size_t)((nl ? nl : f->text + f->len) - s);
    if (*len && s[*len - 1] == '\r')
        (*len)--;
    return s;
}

uint32_t dbg_src_nlines(const dbg *d, int file)
{
    struct srcfile *f = file >= 0 ? load(d, (uint32_t)file) : NULL;
    return f ? f->nlines : 0;
}

int dbg_src_file_named(const dbg *d, const char *name)
{
    const ir_module *m = d->mod;
    for (uint32_t k = 0; k < m->nfiles; k++)
        if (m->files[k] && (!strcmp(m->files[k], name) || !strcmp(base_name(m->files[k]), name)))
            return (int)k;
    return -1;
}

int dbg_src_to_pc(const dbg *d, int file, uint32_t line, int *func, uint32_t *pc)
{
    const ir_module *m = d->mod;
    uint32_t best = UINT32_MAX;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t f = 0; f < m->nfuncs; f++)
            for (uint32_t i = 0; i < m->funcs[f].ninstrs; i++) {
                int sf;
                uint32_t sl;
                if (!dbg_src_at(d, (int)f, i, &sf, &sl) || sf != file)
                    continue;
                if (pass == 0 && sl >= line && sl < best)
                    best = sl;
                if (pass == 1 && sl == best) {
                    *func = (int)f;
                    *pc = i;
                    return 0;
                }
            }
    return -1;
}

void dbg_show_src_line(const dbg *d, int file, uint32_t line, bool current)
{
    size_t len = 0;
    const char *s = dbg_src_line(d, file, line, &len);
    if (s)
        printf("%s%u\t%.*s\n", current ? "=> " : "", line, (int)len, s);
}

void dbg_list_src(dbg *d, int file, uint32_t first, uint32_t last, uint32_t here)
{
    uint32_t n = dbg_src_nlines(d, file);
    if (!n) {
        dbg_err("%s is not at hand (looked where .file says and beside the PTX); `set source ptx` lists PTX.",
                dbg_src_name(d, file));
        return;
    }
    if (first > n) {
        dbg_err("Line number %u out of range; %s has %u lines.", first, dbg_src_name(d, file), n);
        return;
    }
    if (last > n)
        last = n;
    for (uint32_t l = first; l <= last; l++) {
        size_t len = 0;
        const char *s = dbg_src_line(d, file, l, &len);
        printf("%s%u\t%.*s\n", l == here ? "=> " : "   ", l, (int)len, s ? s : "");
    }
    d->list_next = last + 1;
    d->list_file = file;
}

void dbg_info_cuda_source(dbg *d)
{
    const ir_module *m = d->mod;
    if (!m->srclines) {
        printf("No .loc directives: the PTX carries no CUDA source lines (compile with nvcc -lineinfo).\n");
        return;
    }
    for (uint32_t k = 0; k < m->nfiles; k++) {
        if (!m->files[k])
            continue;
        struct srcfile *f = load(d, k);
        if (f)
            printf(".file %u %s: read from %s (%u lines)\n", k, m->files[k], f->path, f->nlines);
        else
            printf(".file %u %s: not at hand (list shows PTX lines)\n", k, m->files[k]);
    }
    printf("Lines shown as %s (set source cuda|ptx).\n", d->source_view ? "CUDA source" : "PTX");
}
