/* swizzle.h — shared-memory swizzle patterns of the TMA (folder-private).
 *
 * PTX ISA §5.5.7: a swizzle permutes 16-byte chunks inside each 128-byte
 * shared-memory line, the permutation chosen by the line's index inside the
 * pattern's repeat (256 B for 32B, 512 B for 64B, 1024 B for 128B).  The
 * phase comes from the absolute shared address ("swizzle base offset =
 * (dstMem / 128) % N"), so an operation that starts off the repeat
 * boundary sees a shifted pattern.  In address bits (CUTLASS Swizzle<B,4,3>):
 *   32B  : bit 4      ^= bit 7
 *   64B  : bits 4..5  ^= bits 7..8
 *   128B : bits 4..6  ^= bits 7..9
 *   128B with 32-byte atomicity : bits 5..6 ^= bits 7..8 (32-byte units stay whole)
 *   128B with 64-byte atomicity : bit 6     ^= bit 7
 *   128B_ATOM_32B_FLIP_8B       : as 32-byte atomicity, and on every odd
 *                                 128-byte line the two 8-byte halves of each
 *                                 16-byte chunk trade places.
 *   96B  : bit 4 ^= bit 7, as 32B: §5.5.7's 96B table is the 32B table
 *          (line 0: chunks 0..7, line 1: 1 0 3 2 5 4 7 6), repeating every
 *          256 bytes, base offset (dstMem / 128) % 2; the span (box row
 *          width) is 96 bytes ("Box-Size[0] must be less than or equal to
 *          96B").  How rows after the first are placed is shown only in
 *          Figure 31 (an image), so the engine runs 1-row boxes only.
 * The 32/64-byte atomicity forms are Blackwell-only (the sm_90 driver never
 * encodes them, conformance README), 96B is sm_103a-only; their bit formulas
 * are read off the ISA tables and are not hardware-verified.
 */
#ifndef PTXI_TMA_SWIZZLE_H
#define PTXI_TMA_SWIZZLE_H

#include <stdint.h>
#include "tma/tma.h"

/* Span of the swizzle in bytes: the smem width one box row occupies
 * (0 for no swizzle). */
static inline uint32_t tma_swizzle_span(int sw)
{
    switch (sw) {
    case TMA_SWIZZLE_32B: return 32;
    case TMA_SWIZZLE_64B: return 64;
    case TMA_SWIZZLE_128B:
    case TMA_SWIZZLE_128B_ATOM_32B:
    case TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B:
    case TMA_SWIZZLE_128B_ATOM_64B: return 128;
    case TMA_SWIZZLE_96B: return 96;
    default: return 0;
    }
}

/* Physical shared address of the 16-byte chunk at logical address a
 * (a is 16-byte aligned). */
static inline uint32_t tma_swizzle_addr(uint32_t a, int sw)
{
    switch (sw) {
    case TMA_SWIZZLE_32B:
    case TMA_SWIZZLE_96B: return a ^ (((a >> 7) & 1u) << 4);
    case TMA_SWIZZLE_64B: return a ^ (((a >> 7) & 3u) << 4);
    case TMA_SWIZZLE_128B: return a ^ (((a >> 7) & 7u) << 4);
    case TMA_SWIZZLE_128B_ATOM_32B:
    case TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B: return a ^ (((a >> 7) & 3u) << 5);
    case TMA_SWIZZLE_128B_ATOM_64B: return a ^ (((a >> 7) & 1u) << 6);
    default: return a;
    }
}

/* Whether the chunk at logical address a has its 8-byte halves flipped. */
static inline int tma_swizzle_flip8(uint32_t a, int sw)
{
    return sw == TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B && ((a >> 7) & 1u);
}

#endif
