// zoo4.cu — the fourth part of the bug zoo (zoo.cu explains the conventions:
// ZOO(name) makes `name` with BUG = true and its correct twin `name_ok`;
// `// BUG <name> <rule>` marks the line a report must name; several markers
// of one kernel are alternatives).  Pipeline bugs the first three parts
// lack: a release of the other stage's empty barrier, a persistent loop
// whose consumer restarts its ring state at every tile, an expect_tx for
// the in-bounds part of a box that runs past the tensor, an empty barrier
// counted per thread but released per warp, a multicast peer that arms
// for its own box only, a barrier invalidated inside the loop, a barrier
// placed inside a stage that a copy lands on, a CTA leaving with its own
// look-ahead load in flight, a producer that stops one k-block early, two
// producers each announcing the whole stage, a named barrier counting one
// warp of two, a DSMEM read between barrier.cluster.arrive and wait, a
// producer that starts with the consumer's phase, a consumer that waits
// with the producer's parity, a TMA load of a tile that a TMA store
// is still writing, a producer that waits on the full barrier instead of
// the empty one, a named barrier counting a warp that never joins, an
// epilogue staging buffer
// aliasing a stage that is refilled before the store has read it,
// consumers that also announce the stage's bytes, and barriers initialised
// inside the producer's branch.  Producers pick their lane with elect.sync.
// Two kernels are kept as non-bugs (no marker; the H100 runs them as their
// twins): a CTA leaving with its own look-ahead load in flight (9) and an
// elect.sync whose mask names exited lanes (18).
//
//   nvcc -arch=sm_90a -O3 -lineinfo -ptx zoo4.cu -o zoo4.ptx
//
// Every launch: 96 threads (warp 0 produces, warps 1-2 consume), grid 1
// (2 in a cluster of 2 for the cl_ kernels); tm and tmo are 64x64 FLOAT32
// maps (box 16x8 = 512 bytes) over `src` and `out`; dst is 16 KiB.
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

#define TILE 128                 // floats per box
#define TILE_BYTES 512u
#define NCONS 64                 // consumer threads (warps 1-2)

__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_inval(unsigned bar)
{
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void arrive_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t.reg .pred done;\n"
                 "WAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra WAIT_%=;\n}" :: "r"(bar), "r"(parity) : "memory");
}
__device__ __forceinline__ void tma_load(unsigned dst, const TensorMap *tm, int x, int y, unsigned bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" :: "r"(dst), "l"(tm), "r"(x), "r"(y), "r"(bar) : "memory");
}
__device__ __forceinline__ void tma_load_mc(unsigned dst, const TensorMap *tm, int x, int y, unsigned bar,
                                            unsigned short mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;" :: "r"(dst), "l"(tm), "r"(x), "r"(y), "r"(bar), "h"(mask)
                 : "memory");
}
__device__ __forceinline__ void tma_store(const TensorMap *tm, unsigned src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 :: "l"(tm), "r"(x), "r"(y), "r"(src) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void named_sync(unsigned id, unsigned count)
{
    asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(count) : "memory");
}
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_sync() { cluster_arrive(); cluster_wait(); }
__device__ __forceinline__ unsigned cta_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned mapa(unsigned a, unsigned rank)
{
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    return r;
}
__device__ __forceinline__ float ld_cluster(unsigned a)
{
    float v;
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(a) : "memory");
    return v;
}
// CUTLASS's elect_one_sync: one lane of the (converged) warp
__device__ __forceinline__ bool elect_sync()
{
    unsigned p;
    asm volatile("{\n\t.reg .pred e;\n\telect.sync _|e, 0xffffffff;\n\tselp.u32 %0, 1, 0, e;\n}" : "=r"(p));
    return p != 0;
}
__device__ __forceinline__ bool lane0() { return (threadIdx.x & 31) == 0; }

#define ZOO(name)                                                                                   \
    extern "C" __global__ void name(const __grid_constant__ TensorMap tm,                          \
                                    const __grid_constant__ TensorMap tmo, float *dst, const float *out) \
    { k_##name<true>(&tm, &tmo, dst, out); }                                                 \
    extern "C" __global__ void name##_ok(const __grid_constant__ TensorMap tm,                     \
                                         const __grid_constant__ TensorMap tmo, float *dst, const float *out) \
    { k_##name<false>(&tm, &tmo, dst, out); }

struct Ring {
    alignas(128) float tile[2][TILE];
    alignas(8) unsigned long long full[2], empty[2];
};

// the usual set-up: full counts the producer's arrive.expect_tx, empty one
// arrival per consumer thread
__device__ __forceinline__ void ring_init(Ring &r, unsigned empty_count)
{
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            mbar_init(saddr(&r.full[s]), 1);
            mbar_init(saddr(&r.empty[s]), empty_count);
        }
        fence_init();
    }
    __syncthreads();
}

// ---- 1-5: rings ----------------------------------------------------------------------------------

// 1. The consumer releases the other stage (empty[s ^ 1], an index slip
//    when the release was moved below the stage advance).  Its first
//    release goes to stage 1, which it has not used yet, so empty[1] runs
//    one phase ahead: the producer's wait for tile 3 (parity 0) races with
//    the release after tile 2, which completes empty[1]'s next phase.  If
//    that release comes first, the wait finds parity 0 pending again and
//    the kernel hangs.
template <bool BUG> __device__ __forceinline__ void k_rel_wrong_stage(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1); // BUG rel_wrong_stage deadlock|phase-overrun
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64];
            arrive(saddr(&r.empty[BUG ? s ^ 1 : s])); // BUG rel_wrong_stage phase-overrun|deadlock
        }
    }
}
ZOO(rel_wrong_stage)

// 2. A persistent kernel: two output tiles of three k-blocks each through a
//    2-stage ring.  The producer carries its ring position across tiles;
//    the consumer starts every tile at stage 0, phase 0 (its pipeline
//    state declared inside the tile loop).  On the second tile the consumer
//    waits on the stage the producer will fill only after a release that
//    the consumer never makes: both sides wait forever.
template <bool BUG> __device__ __forceinline__ void k_persist_state_reset(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    if (threadIdx.x < 32) {
        if (elect_sync()) {
            int it = 0;
            for (int tile = 0; tile < 2; tile++)
                for (int k = 0; k < 3; k++, it++) {
                    int s = it % 2, ph = (it / 2) & 1;
                    wait_parity(saddr(&r.empty[s]), ph ^ 1);
                    arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                    tma_load(saddr(r.tile[s]), tm, 16 * k, 8 * tile, saddr(&r.full[s]));
                }
        }
    } else {
        int t = threadIdx.x - 32, it = 0;
#pragma unroll 1
        for (int tile = 0; tile < 2; tile++) {
            float acc = 0.0f;
            if (BUG)
                it = 0;                                  // "fresh pipeline state for this tile"
#pragma unroll 1
            for (int k = 0; k < 3; k++, it++) {
                int s = it % 2, ph = (it / 2) & 1;
                wait_parity(saddr(&r.full[s]), ph); // BUG persist_state_reset deadlock
                acc += r.tile[s][t] + r.tile[s][t + 64];
                arrive(saddr(&r.empty[s]));
            }
            dst[tile * NCONS + t] = acc;
        }
    }
}
ZOO(persist_state_reset)

// 3. The last k-block of a row runs past the tensor (x = 56 of 64: half the
//    box is out of bounds).  The producer announces only the in-bounds
//    bytes, but the TMA credits the whole box (the out-of-bounds part is
//    filled with zeros): the phase completes before the box has landed.
template <bool BUG> __device__ __forceinline__ void k_tx_oob_partial(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    const int x = 56, width = 64;
    if (threadIdx.x < 32) {
        if (elect_sync()) {
            unsigned cols = width - x < 16 ? width - x : 16;
            arrive_expect_tx(saddr(&full), BUG ? cols * 8 * 4 : TILE_BYTES); // BUG tx_oob_partial copy-not-waited
            tma_load(saddr(tile), tm, x, 8, saddr(&full));
        }
    } else {
        int t = threadIdx.x - 32;
        wait_parity(saddr(&full), 0);
        dst[t] = tile[t] + tile[t + 64]; // BUG tx_oob_partial copy-not-waited
    }
}
ZOO(tx_oob_partial)

// 4. The empty barrier is initialised with one arrival per consumer
//    thread, but the consumers release it CUTLASS-style, one elected lane
//    per warp: 2 of 64 arrivals, and the producer never gets stage 0 back.
template <bool BUG> __device__ __forceinline__ void k_empty_count_per_thread(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            mbar_init(saddr(&r.full[s]), 1);
            mbar_init(saddr(&r.empty[s]), BUG ? NCONS : NCONS / 32); // BUG empty_count_per_thread deadlock
        }
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64];
            __syncwarp();
            if (lane0())
                arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(empty_count_per_thread)

// 5. The producer waits on the empty barrier with the consumer's parity
//    (ph instead of ph ^ 1): on a fresh barrier the phase of parity 0 has
//    not completed, so the first wait never returns (CUTLASS starts the
//    producer's pipeline state at phase 1 for this reason).
template <bool BUG> __device__ __forceinline__ void k_producer_start_phase(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), BUG ? ph : ph ^ 1); // BUG producer_start_phase deadlock
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64];
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(producer_start_phase)

// 6. The consumer waits on the full barrier with the producer's parity
//    (ph ^ 1, copied from the empty wait): the first lap's waits return at
//    once on fresh barriers, before any byte has landed.
template <bool BUG> __device__ __forceinline__ void k_full_wait_flipped(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s])); // BUG full_wait_flipped copy-over-access|copy-overlap
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), BUG ? ph ^ 1 : ph); // BUG full_wait_flipped stale-phase|deadlock
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG full_wait_flipped copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(full_wait_flipped)

// ---- 7-10: producers -----------------------------------------------------------------------------

// 7. The k loop's trip count is K / BK with K = 60: the producer stops
//    after three k-blocks while the consumers, who round up, wait for a
//    fourth that nobody will load.
template <bool BUG> __device__ __forceinline__ void k_producer_exit_early(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    const int K = 60, BK = 16;
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < (BUG ? K / BK : (K + BK - 1) / BK); k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES); // BUG producer_exit_early deadlock
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < (K + BK - 1) / BK; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph); // BUG producer_exit_early deadlock
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64];
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(producer_exit_early)

// 8. A and B come from two producer warps (warp 0 loads A, warp 1 loads
//    B; warp 2 consumes); the full barrier counts both arrivals, but each
//    producer announces the bytes of the whole stage (A + B): the phase
//    waits for twice the bytes that come.
template <bool BUG> __device__ __forceinline__ void k_dual_producer_tx(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float a[TILE], b[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 2);
        fence_init();
    }
    __syncthreads();
    unsigned w = threadIdx.x / 32;
    if (w < 2) {
        if (elect_sync()) {
            arrive_expect_tx(saddr(&full), BUG ? 2 * TILE_BYTES : TILE_BYTES); // BUG dual_producer_tx deadlock
            tma_load(saddr(w == 0 ? a : b), tm, 0, 8 * w, saddr(&full));
        }
    } else {
        int t = threadIdx.x - 64;
        wait_parity(saddr(&full), 0);
        for (int i = t; i < TILE; i += 32)
            dst[i] = a[i] * b[i];
    }
}
ZOO(dual_producer_tx)

// 9. The producer looks one k-block ahead and issues the load for k + 1
//    after each wait, so its last iteration loads a block past the loop
//    (still inside the tensor) that nobody waits for: the CTA exits with
//    that copy in flight into its shared memory.  Not counted as a bug (no
//    marker): the CuTe Hopper tutorial's mainloop (tests/hw/cutlass) does
//    the same, and on the H100 a CTA's exit waits for its own copies
//    (HARDWARE.md, exitprobe.cu); ptxi runs both clean.
template <bool BUG> __device__ __forceinline__ void k_exit_tma_inflight(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    const int KT = 3;
    if (threadIdx.x < 32) {
        if (elect_sync()) {
            arrive_expect_tx(saddr(&r.full[0]), TILE_BYTES);
            tma_load(saddr(r.tile[0]), tm, 0, 8, saddr(&r.full[0]));
            for (int k = 0; k < KT; k++) {
                int n = k + 1, s = n % 2, ph = (n / 2) & 1;
                if (!BUG && n == KT)
                    break;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * n, 8, saddr(&r.full[s]));
            }
        }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < KT; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64];
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(exit_tma_inflight)

// 10. The barriers are carved out of one shared buffer after the stages,
//     but the offset leaves out the last stage: full[] and empty[] sit in
//     the first bytes of stage 1, and the copy into stage 1 lands on them.
template <bool BUG> __device__ __forceinline__ void k_bar_in_stage(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) unsigned char smem[2 * TILE_BYTES + 32];
    float *tile0 = (float *)smem, *tile1 = (float *)(smem + TILE_BYTES);
    unsigned long long *full = (unsigned long long *)(smem + (BUG ? 1 : 2) * TILE_BYTES);
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full[0]), 1);
        mbar_init(saddr(&full[1]), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        if (elect_sync()) {
            arrive_expect_tx(saddr(&full[0]), TILE_BYTES);
            tma_load(saddr(tile0), tm, 0, 8, saddr(&full[0]));
            arrive_expect_tx(saddr(&full[1]), TILE_BYTES);
            tma_load(saddr(tile1), tm, 16, 8, saddr(&full[1])); // BUG bar_in_stage copy-over-mbarrier
        }
    } else {
        int t = threadIdx.x - 32;
        wait_parity(saddr(&full[0]), 0);
        wait_parity(saddr(&full[1]), 0);
        dst[t] = tile0[t] + tile1[t + 64];
    }
}
ZOO(bar_in_stage)

// ---- 11-12: barrier lifetime and epilogue --------------------------------------------------------

// 11. A persistent loop tears its barrier down (mbarrier.inval, so the
//     bytes can be reused) at the end of every tile instead of after the
//     loop: the second tile arms an invalidated barrier.
template <bool BUG> __device__ __forceinline__ void k_inval_in_loop(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
#pragma unroll 1
    for (int k = 0; k < 2; k++) {
        if (threadIdx.x < 32) {
            if (elect_sync()) {
                arrive_expect_tx(saddr(&full), TILE_BYTES); // BUG inval_in_loop mbarrier-invalidated
                tma_load(saddr(tile), tm, 16 * k, 8, saddr(&full));
            }
        } else {
            int t = threadIdx.x - 32;
            wait_parity(saddr(&full), k & 1); // BUG inval_in_loop mbarrier-invalidated|deadlock
            dst[k * NCONS + t] = tile[t] + tile[t + 64];
        }
        __syncthreads();
        if (BUG && threadIdx.x == 0)
            mbar_inval(saddr(&full)); // BUG inval_in_loop mbarrier-invalidated
    }
    if (!BUG && threadIdx.x == 0)
        mbar_inval(saddr(&full));
}
ZOO(inval_in_loop)

// 12. The epilogue writes the tile to `out` with a TMA store and then, for
//     a second pass, loads the same box back with a TMA load; it waited
//     only for the store's source to be read (wait_group.read), not for
//     the store to be complete in global memory.
template <bool BUG> __device__ __forceinline__ void k_store_then_reload(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE], back[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    tile[threadIdx.x] = threadIdx.x * 1.5f;
    if (threadIdx.x < TILE - 96)
        tile[96 + threadIdx.x] = threadIdx.x * 2.5f;
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        tma_store(tmo, saddr(tile), 0, 0);
        commit();
        if (BUG)
            wait_read0();
        else
            wait_all();
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load(saddr(back), tmo, 0, 0, saddr(&full)); // BUG store_then_reload global-store-race
    }
    wait_parity(saddr(&full), 0);
    dst[threadIdx.x] = back[threadIdx.x];
}
ZOO(store_then_reload)

// ---- 13-15: named barriers and clusters ----------------------------------------------------------

// 13. The two consumer warps exchange partial sums through shared memory
//     and synchronise on named barrier 1 with a thread count of 32 (one
//     warp): each warp completes the barrier on its own, and reads the
//     other warp's slot with nothing ordering the write before it.
template <bool BUG> __device__ __forceinline__ void k_named_bar_short(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float part[NCONS];
    if (threadIdx.x >= 32) {
        int t = threadIdx.x - 32;
        part[t] = out[t] + t * 0.25f; // BUG named_bar_short smem-race
        named_sync(1, BUG ? 32 : NCONS);
        dst[t] = part[t] + part[t ^ 32]; // BUG named_bar_short smem-race
    }
}
ZOO(named_bar_short)

// 14. A cluster exchange split into barrier.cluster.arrive / wait to
//     overlap local work with the barrier, but the read of the peer's
//     partials (DSMEM) was moved above the wait.
template <bool BUG> __device__ __forceinline__ void k_cl_read_before_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float part[96];
    unsigned rank = cta_rank();
    part[threadIdx.x] = rank * 100 + threadIdx.x * 0.5f; // BUG cl_read_before_wait smem-race
    cluster_arrive();
    float mine = part[threadIdx.x] * 2.0f;
    float peer = 0.0f;
    if (BUG)
        peer = ld_cluster(mapa(saddr(&part[threadIdx.x]), rank ^ 1)); // BUG cl_read_before_wait smem-race
    cluster_wait();
    if (!BUG)
        peer = ld_cluster(mapa(saddr(&part[threadIdx.x]), rank ^ 1));
    dst[rank * 96 + threadIdx.x] = mine + peer;
    cluster_sync();
}
ZOO(cl_read_before_wait)

// 15. Each CTA of a pair loads one half of a 2-box tile and multicasts it
//     into both (mask 0b11), so each full barrier receives 1024 bytes; a
//     CTA arms its barrier for the box it issues itself (512): its phase
//     completes while the peer's half is still landing.
template <bool BUG> __device__ __forceinline__ void k_cl_mc_tx_own_box(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[2 * TILE];
    __shared__ alignas(8) unsigned long long full;
    unsigned rank = cta_rank();
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
        arrive_expect_tx(saddr(&full), BUG ? TILE_BYTES : 2 * TILE_BYTES); // BUG cl_mc_tx_own_box copy-not-waited
    }
    cluster_sync();
    if (threadIdx.x < 32 && elect_sync())
        tma_load_mc(saddr(&tile[rank * TILE]), tm, 0, 8 * rank, saddr(&full), 3);
    wait_parity(saddr(&full), 0);
    for (int i = threadIdx.x; i < 2 * TILE; i += 96)
        dst[rank * 256 + i] = tile[i] * 3.0f; // BUG cl_mc_tx_own_box copy-not-waited
    cluster_sync();
}
ZOO(cl_mc_tx_own_box)

// ---- 16-18: more ring and barrier slips ------------------------------------------------------------

// 16. The producer waits on the full barrier where it meant the empty one
//     (full[s] for empty[s], a copy-paste slip): its own previous load's
//     completion lets it through, and it refills a stage the consumers may
//     still be reading.
template <bool BUG> __device__ __forceinline__ void k_prod_waits_full(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(BUG ? &r.full[s] : &r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES); // BUG prod_waits_full phase-overrun|deadlock
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s])); // BUG prod_waits_full copy-over-access|copy-overlap|phase-overrun
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph); // BUG prod_waits_full deadlock|phase-overrun
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG prod_waits_full copy-not-waited|copy-over-access
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(prod_waits_full)

// 17. The consumer warps synchronise on named barrier 1 with a thread
//     count of 96 (the whole CTA), but warp 0, the producer, never joins
//     barrier 1: the consumers wait there forever.
template <bool BUG> __device__ __forceinline__ void k_named_bar_long(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float part[NCONS];
    if (threadIdx.x >= 32) {
        int t = threadIdx.x - 32;
        part[t] = out[t] + t * 0.25f;
        named_sync(1, BUG ? 96 : NCONS); // BUG named_bar_long deadlock
        dst[t] = part[t] + part[t ^ 32];
    }
}
ZOO(named_bar_long)

// 18. Only half of the producer warp stays (lanes 16-31 leave early), and
//     the remaining lanes pick their leader with elect.sync over the full
//     mask 0xffffffff, which names lanes that have exited.  Not counted as
//     a bug (no marker): on the H100 the exited lanes do not hold the
//     elect.sync up (as the ISA says of match.sync: it waits for the
//     non-exited threads of the mask), and ptxi runs it clean.
template <bool BUG> __device__ __forceinline__ void k_elect_after_exit(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        if (BUG && threadIdx.x >= 16)
            return;
        if (BUG ? elect_sync() : lane0()) {
            arrive_expect_tx(saddr(&full), TILE_BYTES);
            tma_load(saddr(tile), tm, 0, 8, saddr(&full));
        }
    } else {
        int t = threadIdx.x - 32;
        wait_parity(saddr(&full), 0);
        dst[t] = tile[t] + tile[t + 64];
    }
}
ZOO(elect_after_exit)

// 19. A persistent kernel reuses its stage as the epilogue's staging
//     buffer (CUTLASS's smem union of mainloop and epilogue): the consumer
//     scales the tile in place, stores it with a TMA store and releases the
//     stage, but without cp.async.bulk.wait_group.read first: the next
//     tile's load lands in the buffer the store may still be reading.
template <bool BUG> __device__ __forceinline__ void k_epi_alias_store(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float buf[TILE];
    __shared__ alignas(8) unsigned long long full, empty;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        mbar_init(saddr(&empty), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 2; k++) {
                wait_parity(saddr(&empty), (k & 1) ^ 1);
                arrive_expect_tx(saddr(&full), TILE_BYTES);
                tma_load(saddr(buf), tm, 16 * k, 8, saddr(&full)); // BUG epi_alias_store copy-overlap|store-source-reused
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 2; k++) {
            wait_parity(saddr(&full), k & 1);
            buf[t] *= 2.0f;
            buf[t + 64] *= 2.0f;
            fence_async();
            named_sync(1, NCONS);
            if (t == 0) {
                tma_store(tmo, saddr(buf), 16 * k, 0);
                commit();
                if (!BUG)
                    wait_read0();
                arrive(saddr(&empty));
            }
        }
        if (t == 0)
            wait_all();
    }
}
ZOO(epi_alias_store)

// 20. The consumer warps, when they release a stage, also arm its full
//     barrier for the next lap (mbarrier.expect_tx from one lane per warp),
//     while the producer announces the same bytes with its own
//     arrive.expect_tx: the second lap waits for three times the bytes.
template <bool BUG> __device__ __forceinline__ void k_consumer_expect_tx(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64];
            if (BUG && k + 2 < 4 && lane0())
                expect_tx(saddr(&r.full[s]), TILE_BYTES); // BUG consumer_expect_tx deadlock
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(consumer_expect_tx)

// 21. The producer warp initialises the ring's barriers at the top of its
//     own branch (after the role split), so nothing orders the inits
//     before the consumers' first waits: a consumer may poll a barrier
//     that does not exist yet.
template <bool BUG> __device__ __forceinline__ void k_init_in_producer(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    if (!BUG)
        ring_init(r, NCONS);
    if (threadIdx.x < 32) {
        if (elect_sync()) {
            if (BUG) {
                for (int s = 0; s < 2; s++) {
                    mbar_init(saddr(&r.full[s]), 1);
                    mbar_init(saddr(&r.empty[s]), NCONS);
                }
                fence_init();
            }
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
        }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph); // BUG init_in_producer mbarrier-init-unordered|fault
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64];
            arrive(saddr(&r.empty[s])); // BUG init_in_producer mbarrier-init-unordered|fault
        }
    }
}
ZOO(init_in_producer)
