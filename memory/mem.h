/* mem.h — memory spaces (public face of memory/).
 *
 * Global memory is a set of allocations at realistic, aligned device
 * addresses (from 0x7f0000000000 up, 2 MiB guard gaps between them, like a
 * CUDA allocator), each backed by host memory.  Look-ups are a binary
 * search over the sorted table, which is fixed once the launch starts, so
 * concurrent readers need no lock.
 *
 * The shared/local/param spaces and generic addressing are modelled by the
 * interpreter (interp/) on top of these helpers and the window constants
 * below.
 */
#ifndef PTXI_MEM_H
#define PTXI_MEM_H

#include <stddef.h>
#include <stdint.h>

typedef struct mem_alloc {
    uint64_t base, size;
    uint8_t *host;
    const char *name;
} mem_alloc;

typedef struct mem_global mem_global;

mem_global *mem_global_new(void);
void mem_global_free(mem_global *g);
/* Allocate `bytes` (zeroed) aligned to `align` (power of two; at least 256
 * is used).  Returns the device address, 0 on failure. */
uint64_t mem_global_alloc(mem_global *g, uint64_t bytes, uint64_t align, const char *name);
/* Host pointer for [addr, addr+n) if it lies inside one allocation, else NULL. */
uint8_t *mem_global_host(const mem_global *g, uint64_t addr, uint64_t n);
/* The allocation containing addr, or NULL. */
const mem_alloc *mem_global_find(const mem_global *g, uint64_t addr);
/* The allocation named `name`, or NULL. */
const mem_alloc *mem_global_by_name(const mem_global *g, const char *name);
size_t mem_global_count(const mem_global *g);
const mem_alloc *mem_global_at(const mem_global *g, size_t i);

#endif
