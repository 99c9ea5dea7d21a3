/* ir/arena.c — the module arena: every byte of a module's IR comes from
 * here and goes back in one ir_arena_free().  Chunks grow geometrically so
 * a 50 MB input costs a few dozen mallocs, not one per node.
 *
 * Memory, not parsing, is what a large parse spends its time on: a module
 * of 50 MB of PTX holds a few hundred MB of decoded instructions, and
 * faulting that in 4 KB at a time cost more than lexing and parsing
 * together.  So chunks of 2 MB and more are 2 MB-aligned and asked for
 * transparent huge pages (the kernel decides; "madvise" mode is common),
 * the builder grows its instruction array in place at the end of a
 * dedicated sub-arena (ir_arena_extend), and hands its other grown arrays
 * over (ir_arena_adopt) rather than copying them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "ir/ir.h"

typedef struct ir_chunk { struct ir_chunk *next; size_t size, used; } ir_chunk;
typedef struct ir_adopted { struct ir_adopted *next; void *p; ir_arena *sub; } ir_adopted;
struct ir_arena { ir_chunk *head; size_t next_size; ir_adopted *adopted; };

#define CHUNK_HDR ((sizeof(ir_chunk) + 15) & ~(size_t)15)
#define HUGE_PAGE ((size_t)2 << 20)

static char *chunk_data(ir_chunk *c)
{
    return (char *)c + CHUNK_HDR;
}

ir_arena *ir_arena_new(void)
{
    ir_arena *a = calloc(1, sizeof *a);
    if (!a)
        abort();
    a->next_size = 64 * 1024;
    return a;
}

static void advise_huge(void *p, size_t n)
{
#if defined(MADV_HUGEPAGE) && !defined(PTXI_NO_THP)
    uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

/* realloc() for the builder's growing arrays; blocks of several MB get
 * huge pages for the part not yet touched.  Aborts when out of memory. */
void *ir_big_realloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q)
        abort();
    if (n >= 2 * HUGE_PAGE)
        advise_huge(q, n);
    return q;
}

static ir_chunk *chunk_new(ir_arena *a, size_t n)
{
    size_t total = a->next_size;
    while (total - CHUNK_HDR < n)
        total *= 2;
    if (a->next_size < ((size_t)32 << 20))
        a->next_size *= 2;
    ir_chunk *c;
    if (total >= HUGE_PAGE) {
        c = aligned_alloc(HUGE_PAGE, total);
        if (c)
            advise_huge(c, total);
    } else {
        c = malloc(total);
    }
    if (!c)
        abort();
    c->size = total - CHUNK_HDR;
    c->used = 0;
    c->next = a->head;
    a->head = c;
    return c;
}

void *ir_arena_alloc_raw(ir_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    ir_chunk *c = a->head;
    if (!c || c->size - c->used < n)
        c = chunk_new(a, n);
    void *p = chunk_data(c) + c->used;
    c->used += n;
    return p;
}

void *ir_arena_alloc(ir_arena *a, size_t n)
{
    void *p = ir_arena_alloc_raw(a, n);
    memset(p, 0, n);
    return p;
}

/* Resize the block p of `old` bytes to n bytes.  When p is the arena's
 * most recent allocation and its chunk has room, that happens in place;
 * otherwise the block moves (its old bytes stay allocated until the arena
 * goes).  Contents up to min(old, n) are kept; growth is not zeroed. */
void *ir_arena_extend(ir_arena *a, void *p, size_t old, size_t n)
{
    size_t o16 = (old + 15) & ~(size_t)15, n16 = (n + 15) & ~(size_t)15;
    ir_chunk *c = a->head;
    if (p && c && (char *)p + o16 == chunk_data(c) + c->used &&
        c->used - o16 + n16 <= c->size) {
        c->used = c->used - o16 + n16;
        return p;
    }
    void *q = ir_arena_alloc_raw(a, n);
    if (p && old)
        memcpy(q, p, old < n ? old : n);
    return q;
}

/* A block from malloc() that the arena frees with everything else: the
 * builder hands its grown arrays (registers, vectors, ...) over this way
 * instead of copying them. */
void ir_arena_adopt(ir_arena *a, void *p)
{
    if (!p)
        return;
    ir_adopted *n = ir_arena_alloc_raw(a, sizeof *n);
    n->p = p;
    n->sub = NULL;
    n->next = a->adopted;
    a->adopted = n;
}

/* A second arena owned by `a` (freed with it), for one array that grows
 * in place with ir_arena_extend while `a` serves everything else. */
ir_arena *ir_arena_sub(ir_arena *a)
{
    ir_adopted *n = ir_arena_alloc_raw(a, sizeof *n);
    n->p = NULL;
    n->sub = ir_arena_new();
    n->next = a->adopted;
    a->adopted = n;
    return n->sub;
}

char *ir_arena_strdup(ir_arena *a, const char *s, size_t n)
{
    char *p = ir_arena_alloc_raw(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void ir_arena_free(ir_arena *a)
{
    if (!a)
        return;
    for (ir_adopted *d = a->adopted; d; d = d->next) {
        free(d->p);
        ir_arena_free(d->sub);
    }
    for (ir_chunk *c = a->head, *nx; c; c = nx) {
        nx = c->next;
        free(c);
    }
    free(a);
}
