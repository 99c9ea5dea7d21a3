/* global.c — global-memory allocations at device addresses.
 *
 * Addresses start at 0x7f0000000000 (where the CUDA driver places
 * cudaMalloc memory on Linux) and each allocation is followed by a 2 MiB
 * unmapped gap, so an off-by-a-few access past one buffer faults instead
 * of landing in the next.  The table stays sorted by base address.
 *
 * Host storage is page-aligned, like the device address (cudaMalloc gives
 * 256-byte alignment or better): a box row or a memcpy source then sits
 * on cache lines the way it does in device memory, not 16 bytes off as
 * calloc leaves it (bench_tma: 0.46x -> 0.57x of memcpy for the swizzled
 * 64x64 tile).  Buffers come from posix_memalign and are zeroed, except
 * huge ones, which are anonymous mappings (zero pages committed only when
 * touched, as calloc's large blocks are: a sparse multi-GiB tensor costs
 * nothing up front).  Not all large ones: bench_tma's 8 MiB tensor
 * mapped on its own (the kernel puts it on a 2 MiB boundary) ran the
 * engine 10-15% slower than from posix_memalign, a placement effect that
 * page offsets inside the mapping did not change.  host_free tells the two
 * apart by the size, which never changes.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "memory/mem.h"

#define MEM_GLOBAL_BASE 0x7f0000000000ull
#define MEM_GUARD (2ull << 20)
#define MEM_HOST_ALIGN 4096
#define MEM_HOST_MMAP (64ull << 20) /* from this size up: mmap */

static uint8_t *host_alloc(uint64_t bytes)
{
    if (bytes >= MEM_HOST_MMAP) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    void *p;
    if (posix_memalign(&p, MEM_HOST_ALIGN, bytes))
        return NULL;
    memset(p, 0, bytes);
    return p;
}

static void host_free(uint8_t *p, uint64_t bytes)
{
    if (bytes >= MEM_HOST_MMAP)
        munmap(p, bytes);
    else
        free(p);
}

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
        host_free(g->a[i].host, g->a[i].size ? g->a[i].size : 1);
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
    /* keep one byte for an empty buffer so host is always valid */
    uint8_t *host = host_alloc(bytes ? bytes : 1);
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
