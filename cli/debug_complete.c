/* debug_complete.c — tab completion at the `ptxi debug` prompt (libedit's
 * readline interface).
 *
 * What the word under the cursor can be depends on where it is: the first
 * word is a command; after `info` a subcommand, after `set` a setting;
 * a word starting with % is a register of the function the selected lane
 * runs (in the selected frame) or a special register; $ starts a
 * convenience variable; anything else is a label, a function, a variable,
 * a buffer or a source file (for `break k.cu:42`).  Candidates are
 * gathered once per completion into a list that readline's generator
 * walks (readline's C interface keeps that state in this file).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <editline/readline.h>
#include "cli/debug.h"

static dbg *cur;
static char **cand;
static size_t ncand, capcand, walk;

static void add(const char *s, const char *text)
{
    if (!s || strncmp(s, text, strlen(text)))
        return;
    for (size_t i = 0; i < ncand; i++)
        if (!strcmp(cand[i], s))
            return;
    if (ncand == capcand) {
        size_t cap = capcand ? capcand * 2 : 64;
        char **nc = realloc(cand, cap * sizeof *nc);
        if (!nc)
            return;
        cand = nc;
        capcand = cap;
    }
    char *c = strdup(s);
    if (c)
        cand[ncand++] = c;
}

static void clear(void)
{
    for (size_t i = 0; i < ncand; i++)
        free(cand[i]);
    ncand = 0;
    walk = 0;
}

static void add_registers(dbg *d, const char *text)
{
    static const char *const sregs[] = {"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x",
                                        "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid",
                                        "%warpid", "%cluster_ctarank"};
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
        add(sregs[i], text);
    int f = -1;
    uint32_t pc;
    if (!dbg_resident(d) || !dbg_frame_at(d, dbg_ref_lane(d), &f, &pc))
        f = (int)(d->entry - d->mod->funcs);
    const ir_function *fn = &d->mod->funcs[f];
    for (uint32_t i = 0; i < fn->nregs; i++)
        add(fn->regs[i].name, text);
}

static void add_names(dbg *d, const char *text)
{
    const ir_module *m = d->mod;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        if (!m->funcs[f].is_decl)
            add(m->funcs[f].name, text);
        for (uint32_t k = 0; k < m->funcs[f].nlabels; k++)
            add(m->funcs[f].labels[k].name, text);
    }
    for (size_t i = 0; i < d->nsyms; i++) {
        add(d->syms[i].name, text);
        add(d->syms[i].shortname, text);
    }
    for (size_t i = 0; i < d->lc->nbuffers; i++)
        add(d->lc->buffers[i].name, text);
    char buf[512];
    for (uint32_t k = 0; k < m->nfiles; k++)
        if (m->files[k]) {
            snprintf(buf, sizeof buf, "%s:", dbg_src_name(d, (int)k));
            add(buf, text);
        }
    const char *p = m->path ? strrchr(m->path, '/') : NULL;
    snprintf(buf, sizeof buf, "%s:", p ? p + 1 : m->path ? m->path : "");
    add(buf, text);
}

static char *gen(const char *text, int state)
{
    (void)text;
    (void)state;
    return walk < ncand ? strdup(cand[walk++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    dbg *d = cur;
    clear();
    rl_attempted_completion_over = 1;   /* never fall back to file names */
    const char *line = rl_line_buffer;
    int w0 = 0;
    while (line[w0] && isspace((unsigned char)line[w0]))
        w0++;
    size_t n0 = 0;
    while (isalpha((unsigned char)line[w0 + n0]) || line[w0 + n0] == '_')
        n0++;
    int words = 0;   /* words before the one being completed */
    for (int i = w0; i < start; i++)
        if (!isspace((unsigned char)line[i]) && (i == 0 || isspace((unsigned char)line[i - 1])))
            words++;
    bool is_info = n0 && n0 <= 4 && !strncmp(line + w0, "info", n0);
    bool is_set = n0 == 3 && !strncmp(line + w0, "set", 3);
    if (start <= w0) {
        for (size_t i = 0; dbg_cmd_name(i); i++)
            add(dbg_cmd_name(i), text);
    } else if (is_info && words == 1) {
        for (size_t i = 0; dbg_info_name(i); i++)
            add(dbg_info_name(i), text);
    } else if (is_info && words == 2 && strstr(line + w0 + n0, "cuda")) {
        static const char *const views[] = {"kernels", "blocks", "warps", "lanes", "threads"};
        for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
            add(views[i], text);
    } else if (is_set && words <= 2 && *text != '%') {
        const char *a = line + w0 + 3;
        while (isspace((unsigned char)*a))
            a++;
        if (words == 2 && !strncmp(a, "history", 7)) {
            add("save", text);
            add("filename", text);
        } else if (words == 2 && !strncmp(a, "source", 6)) {
            add("cuda", text);
            add("ptx", text);
        } else if (words == 1) {
            add("var", text);
            add("history", text);
            add("source", text);
        }
    } else if (*text == '%') {
        add_registers(d, text);
    } else if (*text == '$') {
        add("$pc", text);
        add("$lane", text);
        add("$warp", text);
    } else {
        add_names(d, text);
        static const char *const spaces[] = {"smem", "global", "param", "local", "generic"};
        for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
            add(spaces[i], text);
    }
    if (!ncand)
        return NULL;
    return rl_completion_matches(text, gen);
}

void dbg_complete_init(dbg *d)
{
    static char breaks[] = " \t\n\"'`@><=;|&{(,+-*/!~^)[]";
    cur = d;
    rl_attempted_completion_function = complete;
    rl_completer_word_break_characters = breaks;
}

void dbg_complete_done(void)
{
    clear();
    free(cand);
    cand = NULL;
    capcand = 0;
    cur = NULL;
}
