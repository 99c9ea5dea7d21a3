/* global.c — global-memory allocations at device addresses.
 *
 * Addresses start at 0x7f0000000000 (where the CUDA driver places
 * cudaMalloc memory on Linux) and each allocation is followed by a 2 MiB
 * unmapped gap, so an off-by-a-few access past one buffer faults instead
 * of landing in the next.  The table stays sorted by base address.
 */
#include <stdlib.h>
#include <string.h>
#include "memory/mem.h"

#define MEM_GLOBAL_BASE 0x7f0000000000ull
#define MEM_GUARD (2ull << 20)

struct mem_global {
    mem_alloc *a;
    size_t n, cap;
    uint64_t next;
};

mem_global *mem_global_new(void)
{
    mem_global *g = calloc(1, sizeof *g);
    if (g)
        g->next = MEM_GLOBAL_BASE;
    return g;
}

void mem_global_free(mem_global *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) {
        free(g->a[i].host);
        free((char *)g->a[i].name);
    }
    free(g->a);
    free(g);
}

uint64_t mem_global_alloc(mem_global *g, uint64_t bytes, uint64_t align, const char *name)
{
    if (align < 256)
        align = 256;
    if (align & (align - 1))
        return 0;
    if (bytes > (1ull << 40))
        return 0;
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 16;
        mem_alloc *na = realloc(g->a, cap * sizeof *na);
        if (!na)
            return 0;
        g->a = na;
        g->cap = cap;
    }
    uint64_t base = (g->next + align - 1) & ~(align - 1);
    /* calloc(0) may return NULL; keep one byte so host is always valid. */
    uint8_t *host = calloc(1, bytes ? bytes : 1);
    if (!host)
        return 0;
    mem_alloc *m = &g->a[g->n++];
    m->base = base;
    m->size = bytes;
    m->host = host;
    m->name = name ? strdup(name) : NULL;
    g->next = base + ((bytes + 255) & ~255ull) + MEM_GUARD;
    return base;
}

const mem_alloc *mem_global_find(const mem_global *g, uint64_t addr)
{
    size_t lo = 0, hi = g->n;
    while (lo < hi) {   /* last allocation with base <= addr */
        size_t mid = (lo + hi) / 2;
        if (g->a[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const mem_alloc *m = &g->a[lo - 1];
    return addr - m->base < m->size ? m : NULL;
}

uint8_t *mem_global_host(const mem_global *g, uint64_t addr, uint64_t n)
{
    const mem_alloc *m = mem_global_find(g, addr);
    if (!m)
        return NULL;
    uint64_t off = addr - m->base;
    if (n > m->size - off)
        return NULL;
    return m->host + off;
}

const mem_alloc *mem_global_by_name(const mem_global *g, const char *name)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->a[i].name && !strcmp(g->a[i].name, name))
            return &g->a[i];
    return NULL;
}

size_t mem_global_count(const mem_global *g) { return g->n; }
const mem_alloc *mem_global_at(const mem_global *g, size_t i) { return i < g->n ? &g->a[i] : NULL; }
