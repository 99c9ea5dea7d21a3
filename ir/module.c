/* ir/module.c — small helpers over a finished module: freeing it, finding
 * functions and symbols by name, and quoting source lines for messages.
 */
#include <string.h>
#include <stdlib.h>
#include "ir/ir.h"

void ir_module_free(ir_module *m)
{
    if (!m)
        return;
    ir_arena *a = m->arena;
    ir_arena_free(a); /* the module itself lives in its arena */
}

const ir_function *ir_find_function(const ir_module *m, const char *name)
{
    const ir_function *decl = NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0) {
            if (!m->funcs[i].is_decl)
                return &m->funcs[i];
            decl = &m->funcs[i];
        }
    return decl;
}

const ir_symbol *ir_find_symbol(const ir_module *m, const char *name, int32_t owner)
{
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].owner == owner && strcmp(m->syms[i].name, name) == 0)
            return &m->syms[i];
    if (owner >= 0)
        return ir_find_symbol(m, name, -1);
    return NULL;
}

const char *ir_source_line(const ir_module *m, uint32_t line, size_t *len)
{
    const char *p = m->src, *end = m->src + m->src_len;
    if (!p || line == 0) {
        *len = 0;
        return "";
    }
    for (uint32_t l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            *len = 0;
            return "";
        }
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *len = (size_t)((nl ? nl : end) - p);
    if (*len && p[*len - 1] == '\r')
        (*len)--;
    return p;
}
