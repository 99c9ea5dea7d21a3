/* ir/arena.c — the module arena: every byte of a module's IR comes from
 * here and goes back in one ir_arena_free().  Chunks grow geometrically so
 * a 50 MB input costs a few dozen mallocs, not one per node.
 */
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"

typedef struct ir_chunk { struct ir_chunk *next; size_t size, used; } ir_chunk;
struct ir_arena { ir_chunk *head; size_t next_size; };

#define CHUNK_HDR ((sizeof(ir_chunk) + 15) & ~(size_t)15)

ir_arena *ir_arena_new(void)
{
    ir_arena *a = calloc(1, sizeof *a);
    if (a)
        a->next_size = 64 * 1024;
    return a;
}

void *ir_arena_alloc(ir_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    ir_chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t sz = a->next_size;
        while (sz < n)
            sz *= 2;
        if (a->next_size < 16u << 20)
            a->next_size *= 2;
        c = malloc(CHUNK_HDR + sz);
        if (!c)
            abort();
        c->size = sz;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = (char *)c + CHUNK_HDR + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *ir_arena_strdup(ir_arena *a, const char *s, size_t n)
{
    char *p = ir_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void ir_arena_free(ir_arena *a)
{
    if (!a)
        return;
    for (ir_chunk *c = a->head, *nx; c; c = nx) {
        nx = c->next;
        free(c);
    }
    free(a);
}
