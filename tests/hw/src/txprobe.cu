// txprobe.cu: the transaction byte count a TMA tile load credits to its
// mbarrier, and the bytes it lands in shared memory (ptxi tests/hw/tx_interleave).
// One thread works; the others exit.
//   mode 1: arrive.expect_tx(expect), one load, poll try_wait.parity until
//           the phase completes or %globaltimer passes timeout_ns; status[0] =
//           1 (completed) or 2 (timed out); when completed, nbytes of shared
//           memory from the destination (pre-filled with 0xA5) go to dst.
//   mode 2: as mode 1, but the dump waits timeout_ns more after the phase
//           completed (what lands after an early completion).
//   mode 0: the mbarrier's raw 64-bit word (ld.shared) after expect_tx(expect)
//           with one pending arrival, and again after the load has landed
//           (waited timeout_ns); a second barrier gets expect_tx(expect),
//           complete_tx(16), complete_tx(1) with the word read after each.
//           status[2..11] = the five words.
#include <cuda.h>
#include <stdint.h>

__device__ __forceinline__ uint64_t gtime()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ uint64_t ldbar(uint32_t a)
{
    uint64_t v;
    asm volatile("ld.volatile.shared.b64 %0, [%1];" : "=l"(v) : "r"(a) : "memory");
    return v;
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

extern "C" __global__ void tx_probe(const __grid_constant__ CUtensorMap tm, int rank, int c0, int c1, int c2,
                                    int c3, int c4, uint32_t expect, uint32_t mode, uint64_t timeout_ns,
                                    uint32_t nbytes, uint8_t *dst, uint32_t *status)
{
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ __align__(8) uint64_t bars[2];
    if (threadIdx.x)
        return;
    uint32_t *s32 = (uint32_t *)smem;
    for (uint32_t i = 0; i < nbytes / 4; i++)
        s32[i] = 0xA5A5A5A5u;
    uint32_t d = (uint32_t)__cvta_generic_to_shared(smem);
    uint32_t b0 = (uint32_t)__cvta_generic_to_shared(&bars[0]);
    uint32_t b1 = (uint32_t)__cvta_generic_to_shared(&bars[1]);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b0) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b1) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (mode == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b0), "r"(expect) : "memory");
        uint64_t w0 = ldbar(b0);
        load(&tm, rank, d, b0, c0, c1, c2, c3, c4);
        uint64_t t0 = gtime();
        while (gtime() - t0 < timeout_ns) { }
        uint64_t w1 = ldbar(b0);
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b1), "r"(expect) : "memory");
        uint64_t v0 = ldbar(b1);
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 16;" :: "r"(b1) : "memory");
        uint64_t v1 = ldbar(b1);
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 1;" :: "r"(b1) : "memory");
        uint64_t v2 = ldbar(b1);
        uint64_t w[5] = {w0, w1, v0, v1, v2};
        for (int i = 0; i < 5; i++) {
            status[2 + 2 * i] = (uint32_t)w[i];
            status[3 + 2 * i] = (uint32_t)(w[i] >> 32);
        }
        status[0] = 3;
        return;
    }
    asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" :: "r"(b0), "r"(expect) : "memory");
    load(&tm, rank, d, b0, c0, c1, c2, c3, c4);
    uint64_t t0 = gtime();
    uint32_t st = 2;
    for (;;) {
        uint32_t ok;
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok) : "r"(b0) : "memory");
        if (ok) { st = 1; break; }
        if (gtime() - t0 > timeout_ns) break;
    }
    if (st == 1 && mode == 2) {
        uint64_t t1 = gtime();
        while (gtime() - t1 < timeout_ns) { }
    }
    if (st == 2) { /* let the load land before the CTA exits */
        uint64_t t1 = gtime();
        while (gtime() - t1 < timeout_ns) { }
    }
    status[0] = st;
    if (st == 1)
        for (uint32_t i = 0; i < nbytes / 4; i++)
            ((uint32_t *)dst)[i] = s32[i];
    if (st == 1 && mode == 1) { /* an early completion: let the rest land before the CTA exits */
        uint64_t t1 = gtime();
        while (gtime() - t1 < timeout_ns) { }
    }
}
