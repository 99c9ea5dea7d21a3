// zoo.cu — a bug zoo for the happens-before checker (check/), written the
// way CUTLASS- and Triton-style kernels are: warp-specialised producer /
// consumer rings with full and empty mbarriers and phase bits, multicast
// clusters, TMA-store epilogues.  Every kernel body is a template on BUG;
// the macro ZOO(name) makes two entries, `name` (BUG = true) and `name_ok`
// (its correct twin).  A line that carries the bug is marked
//     // BUG <name> <rule>
// and tests/scripts/bug_zoo.sh checks that `ptxi run` of `name` reports that
// rule and names that line (through the .loc line info of zoo.ptx) under
// deferred, eager and random:1..10, and that `name_ok` runs clean.  Several
// markers for one kernel are alternatives (a race seen from either side,
// or a hang where a copy completed at issue).
//
//   nvcc -arch=sm_90a -O3 -lineinfo -ptx zoo.cu -o zoo.ptx
//
// Every launch: grid 1 (2 for clusters), 96 threads (warp 0 produces,
// warps 1-2 consume), tensor map `tm` over a 64x64 FLOAT32 tensor (box
// 16x8 = 512 bytes), `tmo` the same shape over the output tensor `out`,
// dst a 16 KiB float buffer.
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

#define TILE 128                 // floats per box
#define TILE_BYTES 512u
#define STAGES 2
#define TILES 4
#define NCONS 64                 // consumer threads (warps 1-2)

__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void arrive_cluster(unsigned bar, unsigned rank)
{
    asm volatile("{\n\t.reg .b32 ra;\n\tmapa.shared::cluster.u32 ra, %0, %1;\n\t"
                 "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [ra];\n}" :: "r"(bar), "r"(rank) : "memory");
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
__device__ __forceinline__ bool try_wait_once(unsigned bar, unsigned parity)
{
    unsigned ok;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n}" : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
    return ok;
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
__device__ __forceinline__ void bulk_load(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ unsigned cta_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ float ld_remote(const float *p, unsigned rank)
{
    float v;
    asm volatile("{\n\t.reg .b32 ra;\n\tmapa.shared::cluster.u32 ra, %1, %2;\n\t"
                 "ld.shared::cluster.f32 %0, [ra];\n}" : "=f"(v) : "r"(saddr(p)), "r"(rank) : "memory");
    return v;
}
__device__ __forceinline__ void st_remote(float *p, unsigned rank, float v)
{
    asm volatile("{\n\t.reg .b32 ra;\n\tmapa.shared::cluster.u32 ra, %0, %1;\n\t"
                 "st.shared::cluster.f32 [ra], %2;\n}" :: "r"(saddr(p)), "r"(rank), "f"(v) : "memory");
}
__device__ __forceinline__ bool elect() { return (threadIdx.x & 31) == 0; }

// `out` is the tensor tmo stores into (for kernels that read it back).
#define ZOO(name)                                                                                   \
    extern "C" __global__ void name(const __grid_constant__ TensorMap tm,                          \
                                    const __grid_constant__ TensorMap tmo, float *dst, const float *out) \
    { k_##name<true>(&tm, &tmo, dst, out); }                                                 \
    extern "C" __global__ void name##_ok(const __grid_constant__ TensorMap tm,                     \
                                         const __grid_constant__ TensorMap tmo, float *dst, const float *out) \
    { k_##name<false>(&tm, &tmo, dst, out); }

// The shared state of a STAGES-deep ring.
struct Ring {
    alignas(128) float tile[STAGES][TILE];
    alignas(8) unsigned long long full[STAGES], empty[STAGES];
};

__device__ __forceinline__ void ring_init(Ring &r)
{
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(saddr(&r.full[s]), 1);
            mbar_init(saddr(&r.empty[s]), NCONS);
        }
        fence_init();
    }
    __syncthreads();
}

// ---- 1-6: the warp-specialised ring ------------------------------------------------------------

// 1. A consumer reads the stage without waiting on its full barrier.
template <bool BUG> __device__ __forceinline__ void k_ws_no_full_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < TILES; k++) {
                int s = k % STAGES, ph = (k / STAGES) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1   // a mainloop over K tiles: a run-time trip count in real kernels
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            if (!BUG)
                wait_parity(saddr(&r.full[s]), ph);
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG ws_no_full_wait copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(ws_no_full_wait)

// 2. The consumer waits on the other stage's full barrier.
template <bool BUG> __device__ __forceinline__ void k_ws_wrong_barrier(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < TILES; k++) {
                int s = k % STAGES, ph = (k / STAGES) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1   // a mainloop over K tiles: a run-time trip count in real kernels
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[BUG ? (s + 1) % STAGES : s]), ph); // BUG ws_wrong_barrier deadlock|stale-phase
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG ws_wrong_barrier copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(ws_wrong_barrier)

// 3. The consumer's phase bit never flips (the second lap waits on a phase
//    that completed long ago).
template <bool BUG> __device__ __forceinline__ void k_ws_stale_phase(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < TILES; k++) {
                int s = k % STAGES, ph = (k / STAGES) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1   // a mainloop over K tiles: a run-time trip count in real kernels
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = BUG ? 0 : (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph); // BUG ws_stale_phase deadlock|stale-phase
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG ws_stale_phase copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(ws_stale_phase)

// 4. One try_wait whose result is ignored (a bounded wait that falls through).
template <bool BUG> __device__ __forceinline__ void k_ws_ignored_try_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < TILES; k++) {
                int s = k % STAGES, ph = (k / STAGES) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1   // a mainloop over K tiles: a run-time trip count in real kernels
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            if (BUG)
                try_wait_once(saddr(&r.full[s]), ph); // BUG ws_ignored_try_wait wait-result-ignored
            else
                while (!try_wait_once(saddr(&r.full[s]), ph)) {}
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG ws_ignored_try_wait copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(ws_ignored_try_wait)

// 5. The producer refills a stage without waiting on its empty barrier.
template <bool BUG> __device__ __forceinline__ void k_ws_no_empty_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < TILES; k++) {
                int s = k % STAGES, ph = (k / STAGES) & 1;
                if (!BUG)
                    wait_parity(saddr(&r.empty[s]), ph ^ 1);
                // (re-arming a full barrier whose phase is still open: too many arrivals)
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES); // BUG ws_no_empty_wait fault
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s])); // BUG ws_no_empty_wait copy-over-access|copy-overlap
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1   // a mainloop over K tiles: a run-time trip count in real kernels
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph); // BUG ws_no_empty_wait deadlock
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG ws_no_empty_wait copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(ws_no_empty_wait)

// 6. The consumer releases the stage before it has read it.
template <bool BUG> __device__ __forceinline__ void k_ws_early_release(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < TILES; k++) {
                int s = k % STAGES, ph = (k / STAGES) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s])); // BUG ws_early_release copy-over-access
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1   // a mainloop over K tiles: a run-time trip count in real kernels
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            if (BUG)
                arrive(saddr(&r.empty[s]));
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG ws_early_release copy-not-waited
            if (!BUG)
                arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(ws_early_release)

// ---- 7-9: byte counts --------------------------------------------------------------------------

// 7. Two boxes per stage, expect_tx counts one: the phase completes when
//    the first box has landed, and the consumer reads the second mid-copy.
template <bool BUG> __device__ __forceinline__ void k_tx_counts_one_box(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[2 * TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&full), BUG ? TILE_BYTES : 2 * TILE_BYTES); // BUG tx_counts_one_box copy-not-waited
        tma_load(saddr(tile), tm, 0, 8, saddr(&full));
        tma_load(saddr(tile + TILE), tm, 16, 8, saddr(&full));
    }
    if (threadIdx.x >= 32) {
        int t = threadIdx.x - 32;
        wait_parity(saddr(&full), 0);
        for (int i = t; i < 2 * TILE; i += NCONS)
            dst[i] = tile[i];
    }
}
ZOO(tx_counts_one_box)

// 8. expect_tx counts the box in elements: the phase waits for bytes that
//    never come (a hang; the report names the expect_tx and the bytes).
template <bool BUG> __device__ __forceinline__ void k_tx_too_many(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&full), BUG ? TILE_BYTES + 4 * TILE : TILE_BYTES); // BUG tx_too_many deadlock
        tma_load(saddr(tile), tm, 0, 8, saddr(&full));
    }
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = tile[threadIdx.x];
}
ZOO(tx_too_many)

// 9. The full barrier is initialised for every consumer thread instead of
//    the one producer arrival (a hang at the first wait; the report names
//    the init and its count).
template <bool BUG> __device__ __forceinline__ void k_init_count_wrong(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), BUG ? NCONS : 1); // BUG init_count_wrong deadlock
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load(saddr(tile), tm, 0, 8, saddr(&full));
    }
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = tile[threadIdx.x];
}
ZOO(init_count_wrong)

// ---- 10-13: TMA-store epilogues ----------------------------------------------------------------

// 10. The epilogue writes the tile and stores it with no fence.proxy.async.
template <bool BUG> __device__ __forceinline__ void k_store_no_fence(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    if (threadIdx.x < TILE / 2) {
        tile[threadIdx.x] = threadIdx.x;
        tile[threadIdx.x + 64] = -1.0f * threadIdx.x;
    }
    if (!BUG)
        fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        tma_store(tmo, saddr(tile), 0, 0); // BUG store_no_fence missing-proxy-fence
        commit();
        wait_read0();
    }
}
ZOO(store_no_fence)

// 11. A persistent epilogue reuses the staging tile before the previous
//     store has read it.
template <bool BUG> __device__ __forceinline__ void k_store_reuse_early(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    for (int k = 0; k < 2; k++) {
        if (threadIdx.x < TILE / 2) {
            tile[threadIdx.x] = k + threadIdx.x; // BUG store_reuse_early store-source-reused
            tile[threadIdx.x + 64] = k - threadIdx.x;
        }
        fence_async();
        __syncthreads();
        if (threadIdx.x == 0) {
            tma_store(tmo, saddr(tile), 16 * k, 0);
            commit();
            if (!BUG)
                wait_read0();
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        wait_read0();
}
ZOO(store_reuse_early)

// 12. The thread that issued the store exits without waiting for its read.
template <bool BUG> __device__ __forceinline__ void k_store_exit_no_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    if (threadIdx.x < TILE / 2) {
        tile[threadIdx.x] = threadIdx.x;
        tile[threadIdx.x + 64] = 2.0f * threadIdx.x;
    }
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        tma_store(tmo, saddr(tile), 0, 0); // BUG store_exit_no_wait store-pending-at-exit
        commit();
        if (!BUG)
            wait_read0();
    }
}
ZOO(store_exit_no_wait)

// 13. A bulk copy (non-tensor) into shared memory, read without a wait.
template <bool BUG> __device__ __forceinline__ void k_bulk_no_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float buf[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        bulk_load(saddr(buf), dst + 2048, TILE_BYTES, saddr(&full));
    }
    if (!BUG)
        wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = buf[threadIdx.x]; // BUG bulk_no_wait copy-not-waited|copy-over-access
}
ZOO(bulk_no_wait)

// ---- 14-16: plain shared-memory races (racecheck's) --------------------------------------------

// 14. A block reduction that forgot the barrier between its two steps.
template <bool BUG> __device__ __forceinline__ void k_reduce_no_sync(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float part[96];
    part[threadIdx.x] = threadIdx.x * 0.5f; // BUG reduce_no_sync smem-race
    if (!BUG)
        __syncthreads();
    if (threadIdx.x < 32)
        dst[threadIdx.x] = part[threadIdx.x] + part[threadIdx.x + 32] + part[threadIdx.x + 64]; // BUG reduce_no_sync smem-race
}
ZOO(reduce_no_sync)

// 15. A transpose through shared memory that re-uses the buffer for the
//     next tile without a barrier after the reads (write-after-read).
template <bool BUG> __device__ __forceinline__ void k_transpose_war(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float buf[32][33];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int k = 0; k < 2; k++) {
        for (int j = warp; j < 32; j += 3)
            buf[j][lane] = k * 1024 + j * 32 + lane; // BUG transpose_war smem-race
        __syncthreads();
        for (int j = warp; j < 32; j += 3)
            dst[k * 1024 + j * 32 + lane] = buf[lane][j]; // BUG transpose_war smem-race
        if (!BUG)
            __syncthreads();
    }
}
ZOO(transpose_war)

// 16. Warp 2 reads what warp 0 wrote with no barrier between (the
//     __syncthreads was moved into a branch that not every warp takes).
template <bool BUG> __device__ __forceinline__ void k_flag_not_barrier(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float data[32];
    if (threadIdx.x < 32)
        data[threadIdx.x] = threadIdx.x + 0.25f; // BUG flag_not_barrier smem-race
    if (!BUG)
        __syncthreads();
    if (threadIdx.x >= 64)
        dst[threadIdx.x - 64] = data[threadIdx.x - 64]; // BUG flag_not_barrier smem-race
}
ZOO(flag_not_barrier)

// ---- 17-22: clusters -----------------------------------------------------------------------------

// 17. Rank 0 multicasts into both CTAs before rank 1's barrier init is
//     ordered before it (no cluster barrier after the inits).
template <bool BUG> __device__ __forceinline__ void k_mc_before_peer_init(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    unsigned rank = cta_rank();
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
        arrive_expect_tx(saddr(&full), TILE_BYTES);
    }
    if (!BUG)
        cluster_sync();
    else
        __syncthreads();
    if (rank == 0 && threadIdx.x == 0)
        tma_load_mc(saddr(tile), tm, 0, 8, saddr(&full), 3); // BUG mc_before_peer_init mbarrier-init-unordered
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[rank * TILE + threadIdx.x] = tile[threadIdx.x];
    cluster_sync();
}
ZOO(mc_before_peer_init)

// 18. Rank 1 reads rank 0's shared memory (DSMEM); rank 0 leaves without
//     the final cluster barrier.
template <bool BUG> __device__ __forceinline__ void k_dsmem_exit_early(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float buf[96];
    unsigned rank = cta_rank();
    buf[threadIdx.x] = rank * 100 + threadIdx.x;
    cluster_sync();
    if (rank == 1)
        dst[threadIdx.x] = ld_remote(&buf[threadIdx.x], 0); // BUG dsmem_exit_early cta-exited|cta-exit-peer-use
    if (!BUG)
        cluster_sync();
}
ZOO(dsmem_exit_early)

// 19. Rank 1 writes into rank 0's buffer while rank 0 reads it, with no
//     cluster barrier between.
template <bool BUG> __device__ __forceinline__ void k_dsmem_race(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float buf[96];
    unsigned rank = cta_rank();
    buf[threadIdx.x] = 0.0f;
    cluster_sync();
    if (rank == 1)
        st_remote(&buf[threadIdx.x], 0, 1.0f + threadIdx.x); // BUG dsmem_race smem-race
    if (!BUG)
        cluster_sync();
    if (rank == 0)
        dst[threadIdx.x] = buf[threadIdx.x]; // BUG dsmem_race smem-race
    cluster_sync();
}
ZOO(dsmem_race)

// 20. A multicast ring: each CTA loads half of the tile for both; the
//     consumers release the stage only to their own CTA's producer, not to
//     the peer's, which overwrites their buffer.
struct Ring2 {
    alignas(128) float tile[STAGES][2 * TILE];
    alignas(8) unsigned long long full[STAGES], empty[STAGES];
};

template <bool BUG> __device__ __forceinline__ void k_mc_release_local_only(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring2 r;
    unsigned rank = cta_rank();
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(saddr(&r.full[s]), 1);
            mbar_init(saddr(&r.empty[s]), 2 * NCONS);   // consumers of both CTAs release each stage
        }
        fence_init();
    }
    cluster_sync();
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < TILES; k++) {
                int s = k % STAGES, ph = (k / STAGES) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), 2 * TILE_BYTES);   // both CTAs' boxes land here
                tma_load_mc(saddr(&r.tile[s][rank * TILE]), tm, 16 * k, 8 * rank, saddr(&r.full[s]), 3); // BUG mc_release_local_only copy-over-access|copy-overlap
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1   // a mainloop over K tiles: a run-time trip count in real kernels
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph); // BUG mc_release_local_only deadlock
            dst[rank * 1024 + k * TILE + t] = r.tile[s][t] + r.tile[s][t + 192]; // BUG mc_release_local_only copy-not-waited
            arrive(saddr(&r.empty[s]));
            if (BUG)
                arrive(saddr(&r.empty[s]));
            else
                arrive_cluster(saddr(&r.empty[s]), rank ^ 1);
        }
    }
    cluster_sync();
}
ZOO(mc_release_local_only)

// 21. The barrier is re-initialised for the next tile while the copy of
//     the current one is still counted on it.
template <bool BUG> __device__ __forceinline__ void k_reinit_live(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    for (int k = 0; k < 2; k++) {
        if (threadIdx.x == 0) {
            arrive_expect_tx(saddr(&full), TILE_BYTES);
            tma_load(saddr(tile), tm, 16 * k, 8, saddr(&full));
            if (BUG && k == 0)
                mbar_init(saddr(&full), 1); // BUG reinit_live mbarrier-reinit-live|deadlock
        }
        wait_parity(saddr(&full), k & 1);
        if (threadIdx.x < TILE)
            dst[k * TILE + threadIdx.x] = tile[threadIdx.x];
        __syncthreads();
    }
}
ZOO(reinit_live)

// 22. The second stage's address is computed with the wrong stride and
//     overlaps the first: two copies in flight write the same bytes.
template <bool BUG> __device__ __forceinline__ void k_stage_overlap(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[2 * TILE];
    __shared__ alignas(8) unsigned long long full[2];
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full[0]), 1);
        mbar_init(saddr(&full[1]), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            arrive_expect_tx(saddr(&full[s]), TILE_BYTES);
            tma_load(saddr(tile + s * (BUG ? 32 : TILE)), tm, 16 * s, 8, saddr(&full[s])); // BUG stage_overlap copy-overlap
        }
    }
    for (int s = 0; s < 2; s++) {
        wait_parity(saddr(&full[s]), 0);
        if (threadIdx.x < TILE)
            dst[s * TILE + threadIdx.x] = tile[s * TILE + threadIdx.x];
    }
}
ZOO(stage_overlap)

// 23. The tensor map is passed by value without __grid_constant__: nvcc
//     copies it to the thread's stack, and the TMA reads it from local
//     memory (the GPU faults with an illegal address).
template <bool BUG> __device__ __forceinline__ void k_tmap_by_value(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load(saddr(tile), tm, 0, 8, saddr(&full)); // BUG tmap_by_value tensormap-not-global
    }
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = tile[threadIdx.x];
}
extern "C" __global__ void tmap_by_value(TensorMap tm, const __grid_constant__ TensorMap tmo, float *dst,
                                         const float *out)
{
    k_tmap_by_value<true>(&tm, &tmo, dst, out);
}
extern "C" __global__ void tmap_by_value_ok(const __grid_constant__ TensorMap tm,
                                            const __grid_constant__ TensorMap tmo, float *dst, const float *out)
{
    k_tmap_by_value<false>(&tm, &tmo, dst, out);
}

// 24. A split-K style epilogue: the tile is TMA-stored to the output, then
//     read back from global memory to be combined, with only the .read wait
//     (which frees the source, not the destination) in between.
template <bool BUG> __device__ __forceinline__ void k_store_read_back(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    if (threadIdx.x < TILE / 2) {
        tile[threadIdx.x] = threadIdx.x;
        tile[threadIdx.x + 64] = 3.0f * threadIdx.x;
    }
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        tma_store(tmo, saddr(tile), 0, 0);
        commit();
        if (BUG)
            wait_read0();
        else
            asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x < 16)
        dst[threadIdx.x] = out[threadIdx.x] * 2.0f; // BUG store_read_back global-store-race
}
ZOO(store_read_back)

// 25. A grouped-GEMM style device-side descriptor: thread 0 copies the map
//     to shared memory, points it at another box size with
//     tensormap.replace, warp 0 publishes it to global memory with
//     tensormap.cp_fenceproxy, and thread 0 loads through it without the
//     fence.proxy.tensormap::generic.acquire that makes the new map visible
//     to the TMA unit.
template <bool BUG> __device__ __forceinline__ void k_tmap_no_acquire(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(128) TensorMap smap;
    __shared__ alignas(8) unsigned long long full;
    TensorMap *gmap = (TensorMap *)(dst + 2048);          // a 128-byte slot in global memory
    if (threadIdx.x == 0) {
        smap = *tm;
        asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, 4;" :: "r"(saddr(&smap)) : "memory");
    }
    if (threadIdx.x < 32) {          // .sync.aligned: the whole warp executes it
        __syncwarp();
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                     :: "l"(gmap), "r"(saddr(&smap)) : "memory");
        if (!BUG)
            asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(gmap) : "memory");
    }
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
        arrive_expect_tx(saddr(&full), TILE_BYTES / 2);
        tma_load(saddr(tile), gmap, 0, 8, saddr(&full)); // BUG tmap_no_acquire tensormap-no-acquire
    }
    __syncthreads();
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE / 2)
        dst[threadIdx.x] = tile[threadIdx.x];
}
ZOO(tmap_no_acquire)
