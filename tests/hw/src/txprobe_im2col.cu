// txprobe_im2col.cu: the transaction byte count a TMA tile load credits to its
// mbarrier, and the bytes it lands in shared memory (ptxi tests/hw/tx_interleave).
// One thread works; the others exit.  tx_probe_im2col: the same with one
// im2col load.  The mbarrier is initialised with
// count 1; arrive.expect_tx(expect), one load, then poll try_wait.parity 0
// until the phase completes or %globaltimer passes timeout_ns.
//   completed: mode 3 waits timeout_ns more (everything lands), copies
//     nbytes of shared memory from the destination (pre-filled with 0xA5)
//     to dst; mode 4 copies them at once (what had landed when the phase
//     completed) and then waits.  Then one plain arrive on the barrier and
//     a bounded poll of parity 1: the next phase completes at once unless
//     bytes of the load were counted into it.  status[0] = 1 (the load
//     credited exactly expect), 4 (the phase completed and more bytes came
//     after it: the load credits more than expect).
//   timed out: status[0] = 2 (the load credits fewer bytes than expect, or
//     the count never met zero), after waiting timeout_ns for the load to land.
#include <cuda.h>
#include <stdint.h>

__device__ __forceinline__ uint64_t gtime()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ void load(const CUtensorMap *tm, int rank, uint32_t d, uint32_t bar,
                                     int c0, int c1, int c2, int c3, int c4)
{
    if (rank == 2)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(bar) : "memory");
    else if (rank == 3)
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];"
                     :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(bar) : "memory");
    else if (rank == 4)
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6];"
                     :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar) : "memory");
    else
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                     :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(bar) : "memory");
}

__device__ __forceinline__ void load_im2col(const CUtensorMap *tm, int rank, uint32_t d, uint32_t bar,
                                            int c0, int c1, int c2, int c3, int c4, uint32_t offs)
{
    uint16_t o0 = offs & 0xff, o1 = (offs >> 8) & 0xff, o2 = (offs >> 16) & 0xff;
    if (rank == 3)
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                     :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(bar), "h"(o0) : "memory");
    else if (rank == 4)
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                     :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar), "h"(o0), "h"(o1) : "memory");
    else
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                     :: "r"(d), "l"(tm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(bar), "h"(o0), "h"(o1),
                        "h"(o2) : "memory");
}

__device__ __forceinline__ void spin(uint64_t ns)
{
    uint64_t t0 = gtime();
    while (gtime() - t0 < ns) { }
}

__device__ __forceinline__ bool wait_parity(uint32_t bar, uint32_t parity, uint64_t ns)
{
    uint64_t t0 = gtime();
    for (;;) {
        uint32_t ok;
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
        if (ok) return true;
        if (gtime() - t0 > ns) return false;
    }
}

__device__ __forceinline__ void copy_out(uint8_t *dst, const uint32_t *s32, uint32_t nbytes)
{
    for (uint32_t i = 0; i < nbytes / 4; i++)
        ((uint32_t *)dst)[i] = s32[i];
}

__device__ __forceinline__ void probe(const CUtensorMap *tm, int rank, int c0, int c1, int c2, int c3, int c4,
                                      uint32_t expect, uint32_t mode, uint64_t timeout_ns, uint32_t nbytes,
                                      uint8_t *dst, uint32_t *status, bool im2col, uint32_t offs)
{
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ __align__(8) uint64_t bar;
    uint32_t *s32 = (uint32_t *)smem;
    for (uint32_t i = 0; i < nbytes / 4; i++)
        s32[i] = 0xA5A5A5A5u;
    uint32_t d = (uint32_t)__cvta_generic_to_shared(smem);
    uint32_t b0 = (uint32_t)__cvta_generic_to_shared(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b0) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" :: "r"(b0), "r"(expect) : "memory");
    if (im2col)
        load_im2col(tm, rank, d, b0, c0, c1, c2, c3, c4, offs);
    else
        load(tm, rank, d, b0, c0, c1, c2, c3, c4);
    uint32_t st = wait_parity(b0, 0, timeout_ns) ? 1 : 2;
    if (st == 1) {
        if (mode == 4)
            copy_out(dst, s32, nbytes);
        spin(timeout_ns);
        if (mode != 4)
            copy_out(dst, s32, nbytes);
        asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" :: "r"(b0) : "memory");
        if (!wait_parity(b0, 1, timeout_ns))
            st = 4;
    } else {
        spin(timeout_ns); /* let the load land before the CTA exits */
    }
    status[0] = st;
}

extern "C" __global__ void tx_probe(const __grid_constant__ CUtensorMap tm, int rank, int c0, int c1, int c2,
                                    int c3, int c4, uint32_t expect, uint32_t mode, uint64_t timeout_ns,
                                    uint32_t nbytes, uint8_t *dst, uint32_t *status)
{
    if (threadIdx.x == 0)
        probe(&tm, rank, c0, c1, c2, c3, c4, expect, mode, timeout_ns, nbytes, dst, status, false, 0);
}

/* the same with one im2col load; offs = im2col offsets, 8 bits each, W first */
extern "C" __global__ void tx_probe_im2col(const __grid_constant__ CUtensorMap tm, int rank, int c0, int c1, int c2,
                                           int c3, int c4, uint32_t expect, uint32_t mode, uint64_t timeout_ns,
                                           uint32_t nbytes, uint8_t *dst, uint32_t *status, uint32_t offs)
{
    if (threadIdx.x == 0)
        probe(&tm, rank, c0, c1, c2, c3, c4, expect, mode, timeout_ns, nbytes, dst, status, true, offs);
}
