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

/* ---- address windows (shared, local, param inside the generic space) ----
 *
 * The interpreter models the state spaces on top of these constants:
 *  - shared::cta address: 32-bit offset into the CTA's shared window.  The
 *    first MEM_SHARED_RESERVED bytes are reserved (sm_90 keeps 1 KiB per CTA
 *    for the system), so a null shared pointer always faults.  Static
 *    .shared variables follow, then dynamic shared memory (extern
 *    `dyn_smem[]`) starting at the next 1024-byte boundary.
 *  - shared::cluster address: the CTA rank + 1 in bits 24..31 above the
 *    shared::cta offset (MEM_SHARED_CLUSTER_ADDR); what mapa returns.  An
 *    address below 1 << 24 names the executing CTA's own window.
 *  - generic address: [MEM_GENERIC_SHARED, +4 GiB) is the shared window
 *    (generic = base + shared address, cluster form included),
 *    [MEM_GENERIC_LOCAL, +4 GiB) the executing thread's local memory,
 *    [MEM_GENERIC_PARAM, +4 GiB) the kernel parameter block (read-only);
 *    everything else is global.  All three windows lie below the global
 *    allocations (0x7f0000000000 up), like the GPU's shared/local windows.
 *  - .const and .global module variables are global allocations, so their
 *    const/global address is their device (and generic) address.
 */
#define MEM_SHARED_RESERVED 1024u
#define MEM_SHARED_RANK_SHIFT 24
#define MEM_SHARED_OFF_MASK ((1u << MEM_SHARED_RANK_SHIFT) - 1)
#define MEM_SHARED_CLUSTER_ADDR(rank, off) \
    ((((uint32_t)(rank) + 1u) << MEM_SHARED_RANK_SHIFT) | ((uint32_t)(off) & MEM_SHARED_OFF_MASK))
#define MEM_GENERIC_SHARED 0x00007e0000000000ull
#define MEM_GENERIC_LOCAL  0x00007d0000000000ull
#define MEM_GENERIC_PARAM  0x00007c0000000000ull
#define MEM_WINDOW_SIZE    (1ull << 32)

/* Which window a generic address falls in. */
typedef enum { MEM_WIN_GLOBAL = 0, MEM_WIN_SHARED, MEM_WIN_LOCAL, MEM_WIN_PARAM } mem_window;
static inline mem_window mem_generic_window(uint64_t a)
{
    if (a - MEM_GENERIC_SHARED < MEM_WINDOW_SIZE) return MEM_WIN_SHARED;
    if (a - MEM_GENERIC_LOCAL < MEM_WINDOW_SIZE) return MEM_WIN_LOCAL;
    if (a - MEM_GENERIC_PARAM < MEM_WINDOW_SIZE) return MEM_WIN_PARAM;
    return MEM_WIN_GLOBAL;
}
/* Printable name of a state space for messages ("global", "shared::cta", ...);
 * `space` is an ir_space value. */
const char *mem_space_name(int space);

#endif
