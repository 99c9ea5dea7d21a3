// zoo3.cu — the third part of the bug zoo (zoo.cu explains the conventions:
// ZOO(name) makes `name` with BUG = true and its correct twin `name_ok`;
// `// BUG <name> <rule>` marks the line a report must name; several markers
// of one kernel are alternatives).  Bug kinds the first two parts lack or
// have once: a 3-stage ring with the 2-stage phase formula, one copy longer
// than its expect_tx, an arrive executed by every lane, a peer's barrier not
// fenced after init, a cluster left with an arrive and no wait, a remote
// arrive without mapa, tensor maps patched in global memory or copied to the
// stack, persistent TMA-store epilogues that wait too little, a bulk
// reduction's source reused, a multicast into a CTA that returned early,
// and races between the lanes of one warp (one of them: only the elected
// lane waits for the copy).
//
//   nvcc -arch=sm_90a -O3 -lineinfo -ptx zoo3.cu -o zoo3.ptx
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
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
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
__device__ __forceinline__ void bulk_load(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wait_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory");
}
__device__ __forceinline__ void wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
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
__device__ __forceinline__ void st_cluster(unsigned a, float v)
{
    asm volatile("st.shared::cluster.f32 [%0], %1;" :: "r"(a), "f"(v) : "memory");
}
__device__ __forceinline__ void arrive_cluster_addr(unsigned a)
{
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(a) : "memory");
}
__device__ __forceinline__ bool elect() { return (threadIdx.x & 31) == 0; }

#define ZOO(name)                                                                                   \
    extern "C" __global__ void name(const __grid_constant__ TensorMap tm,                          \
                                    const __grid_constant__ TensorMap tmo, float *dst, const float *out) \
    { k_##name<true>(&tm, &tmo, dst, out); }                                                 \
    extern "C" __global__ void name##_ok(const __grid_constant__ TensorMap tm,                     \
                                         const __grid_constant__ TensorMap tmo, float *dst, const float *out) \
    { k_##name<false>(&tm, &tmo, dst, out); }

// ---- 1-3: rings and byte counts ------------------------------------------------------------------

// 1. A 3-stage ring whose consumer computes the phase bit with the
//    2-stage formula (k / 2): the third stage is waited with parity 1,
//    which a fresh barrier reports complete at once, and later laps wait on
//    phases that completed long ago.
#define STAGES3 3
#define TILES3 6
struct Ring3 {
    alignas(128) float tile[STAGES3][TILE];
    alignas(8) unsigned long long full[STAGES3], empty[STAGES3];
};

template <bool BUG> __device__ __forceinline__ void k_ring3_wrong_parity(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring3 r;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES3; s++) {
            mbar_init(saddr(&r.full[s]), 1);
            mbar_init(saddr(&r.empty[s]), NCONS);
        }
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < TILES3; k++) {
                int s = k % STAGES3, ph = (k / STAGES3) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * (k % 4), 8 * (k / 4), saddr(&r.full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < TILES3; k++) {
            int s = k % STAGES3, ph = (k / (BUG ? 2 : STAGES3)) & 1;
            wait_parity(saddr(&r.full[s]), ph); // BUG ring3_wrong_parity stale-phase|deadlock
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG ring3_wrong_parity copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(ring3_wrong_parity)

// 2. One bulk copy of a 2 KiB stage whose expect_tx leaves out the last
//    512-byte box: the tx-count reaches zero while the copy is still
//    landing, the phase completes mid-copy, and the consumers read a
//    half-written stage.
template <bool BUG> __device__ __forceinline__ void k_tx_short_mid_copy(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float stage[4 * TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&full), (BUG ? 3 : 4) * TILE_BYTES); // BUG tx_short_mid_copy copy-not-waited
        bulk_load(saddr(stage), dst + 2048, 4 * TILE_BYTES, saddr(&full));
    }
    if (threadIdx.x >= 32) {
        wait_parity(saddr(&full), 0);
        for (int i = threadIdx.x - 32; i < 4 * TILE; i += NCONS)
            dst[i] = stage[i] * 2.0f; // BUG tx_short_mid_copy copy-not-waited
    }
}
ZOO(tx_short_mid_copy)

// 3. The empty barrier counts one arrival per consumer warp (CUTLASS's
//    elected release), but the release is executed by every lane: 32
//    arrivals on a phase expecting 2 (the GPU faults).
template <bool BUG> __device__ __forceinline__ void k_overarrive_lanes(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[2][TILE];
    __shared__ alignas(8) unsigned long long full[2], empty[2];
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            mbar_init(saddr(&full[s]), 1);
            mbar_init(saddr(&empty[s]), 2);       // one arrival per consumer warp
        }
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        if (elect())
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&full[s]), TILE_BYTES);
                tma_load(saddr(tile[s]), tm, 16 * k, 8, saddr(&full[s]));
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&full[s]), ph);
            dst[k * TILE + t] = tile[s][t] + tile[s][t + 64];
            __syncwarp();
            if (BUG || elect())
                arrive(saddr(&empty[s])); // BUG overarrive_lanes fault
        }
    }
}
ZOO(overarrive_lanes)

// ---- 4-7: clusters -------------------------------------------------------------------------------

// 4. Rank 0 multicasts into both CTAs; every CTA initialises its barrier
//    and the cluster synchronises, but without fence.mbarrier_init the
//    init is not made visible to the peer's multicast complete_tx.
template <bool BUG> __device__ __forceinline__ void k_cl_mc_init_no_fence(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    unsigned rank = cta_rank();
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        if (!BUG)
            fence_init();
        arrive_expect_tx(saddr(&full), TILE_BYTES);
    }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (rank == 0 && threadIdx.x == 0)
        tma_load_mc(saddr(tile), tm, 0, 8, saddr(&full), 3); // BUG cl_mc_init_no_fence mbarrier-init-unordered
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[rank * TILE + threadIdx.x] = tile[threadIdx.x];
    cluster_sync();
}
ZOO(cl_mc_init_no_fence)

// 5. A cluster reduction: each CTA adds its peer's partial sums (DSMEM).
//    The exit was meant to be a cluster barrier, but only its arrive half
//    is there: a CTA leaves while its peer may still read its partials.
template <bool BUG> __device__ __forceinline__ void k_cl_exit_arrive_only(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float part[96];
    unsigned rank = cta_rank();
    part[threadIdx.x] = rank * 1000 + threadIdx.x * 0.5f;
    cluster_sync();
    float peer = ld_cluster(mapa(saddr(&part[threadIdx.x]), rank ^ 1)); // BUG cl_exit_arrive_only cta-exited|cta-exit-peer-use
    dst[rank * 96 + threadIdx.x] = part[threadIdx.x] + peer;
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    if (!BUG)
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
ZOO(cl_exit_arrive_only)

// 6. Rank 1 fills rank 0's buffer through DSMEM and signals rank 0's
//    `ready` barrier, but passes its own shared::cta address to the
//    .shared::cluster arrive without mapa: the arrive lands on rank 1's
//    own barrier and rank 0 waits forever.
template <bool BUG> __device__ __forceinline__ void k_cl_arrive_no_mapa(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float buf[96];
    __shared__ alignas(8) unsigned long long ready;
    unsigned rank = cta_rank();
    if (threadIdx.x == 0) {
        mbar_init(saddr(&ready), 96);
        fence_init();
    }
    cluster_sync();
    if (rank == 1) {
        st_cluster(mapa(saddr(&buf[threadIdx.x]), 0), 2.0f * threadIdx.x);
        arrive_cluster_addr(BUG ? saddr(&ready) : mapa(saddr(&ready), 0)); // BUG cl_arrive_no_mapa deadlock
    } else {
        wait_parity(saddr(&ready), 0);
        dst[threadIdx.x] = buf[threadIdx.x];
    }
    cluster_sync();
}
ZOO(cl_arrive_no_mapa)

// 7. A tile scheduler gives the cluster one output tile: rank 1 has none
//    and returns at once, but rank 0 still multicasts the shared tile into
//    both CTAs (mask 0b11) - into a CTA that has left.
template <bool BUG> __device__ __forceinline__ void k_cl_mc_into_exited(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    unsigned rank = cta_rank();
    const unsigned ntiles = 1;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    cluster_sync();
    if (rank >= ntiles)
        return;                                   // no tile for this CTA
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load_mc(saddr(tile), tm, 0, 8, saddr(&full), BUG ? 3 : 1); // BUG cl_mc_into_exited cta-exited|cta-exit-peer-use
    }
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = tile[threadIdx.x];
}
ZOO(cl_mc_into_exited)

// ---- 8-9: tensor maps ------------------------------------------------------------------------------

// 8. A device-side descriptor patched in place in global memory: warp 0
//    copies the map into a global slot, lane 0 changes its box with
//    tensormap.replace on the global copy and loads through it without the
//    fence.proxy.tensormap::generic.acquire that orders the generic-proxy
//    writes before the TMA unit reads the map.
template <bool BUG> __device__ __forceinline__ void k_tmap_replace_global(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    TensorMap *gmap = (TensorMap *)(dst + 2048);          // a 128-byte slot in global memory
    unsigned lane = threadIdx.x & 31;
    if (threadIdx.x < 32) {
        if (lane < 16)
            gmap->opaque[lane] = tm->opaque[lane];
        __syncwarp();
        if (lane == 0) {
            asm volatile("tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 1, 4;" :: "l"(gmap) : "memory");
            if (!BUG)
                asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(gmap) : "memory");
            mbar_init(saddr(&full), 1);
            fence_init();
            arrive_expect_tx(saddr(&full), TILE_BYTES / 2);
            tma_load(saddr(tile), gmap, 0, 8, saddr(&full)); // BUG tmap_replace_global tensormap-no-acquire
        }
    }
    __syncthreads();
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE / 2)
        dst[threadIdx.x] = tile[threadIdx.x];
}
ZOO(tmap_replace_global)

// 9. The kernel copies its __grid_constant__ map into a local variable
//    (`auto map = params.map;`) and hands the TMA the local copy's
//    address: the map is read from the thread's stack (local memory),
//    which the TMA unit cannot read (the GPU faults).
template <bool BUG> __device__ __forceinline__ void k_tmap_local_copy(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        TensorMap local = *tm;
        const TensorMap *use = BUG ? &local : tm;
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load(saddr(tile), use, 0, 8, saddr(&full)); // BUG tmap_local_copy tensormap-not-global
    }
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = tile[threadIdx.x];
}
ZOO(tmap_local_copy)

// ---- 10-12: store epilogues ---------------------------------------------------------------------------

// 10. A persistent kernel's epilogue double-buffers its staging tile and
//    waits with wait_group.read 2 (the number of buffers) where 1 is
//    needed: the store issued two tiles ago may still be reading the
//    buffer the next tile writes.
template <bool BUG> __device__ __forceinline__ void k_persist_wait_too_few(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float stg[2][TILE];
#pragma unroll 1
    for (int k = 0; k < 8; k++) {                 // the persistent tile loop
        float *b = stg[k % 2];
        if (threadIdx.x < TILE / 2) {
            b[threadIdx.x] = k * 256 + threadIdx.x; // BUG persist_wait_too_few store-source-reused
            b[threadIdx.x + 64] = k * 256 - threadIdx.x;
        }
        fence_async();
        __syncthreads();
        if (threadIdx.x == 0) {
            tma_store(tmo, saddr(b), 16 * (k % 4), 8 * (k / 4));
            commit();
            if (BUG)
                wait_read<2>();
            else
                wait_read<1>();
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        wait_all();
}
ZOO(persist_wait_too_few)

// 11. The store's wait is placed before its commit: wait_group.read 0
//     covers committed groups only, so the store just issued is not waited
//     for, and the tile is overwritten for the next store while it is read.
template <bool BUG> __device__ __forceinline__ void k_wait_before_commit(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
#pragma unroll 1
    for (int k = 0; k < 2; k++) {
        if (threadIdx.x < TILE / 2) {
            tile[threadIdx.x] = k + 0.5f * threadIdx.x; // BUG wait_before_commit store-source-reused
            tile[threadIdx.x + 64] = k - 0.5f * threadIdx.x;
        }
        fence_async();
        __syncthreads();
        if (threadIdx.x == 0) {
            tma_store(tmo, saddr(tile), 16 * k, 0);
            if (BUG) {
                wait_read<0>();
                commit();
            } else {
                commit();
                wait_read<0>();
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        wait_all();
}
ZOO(wait_before_commit)

// 12. A split-K partial tile is added into global memory with a bulk
//     reduction (cp.reduce.async.bulk .add.f32); the next K slice's
//     partials overwrite the source before the reduction has read it.
template <bool BUG> __device__ __forceinline__ void k_reduce_src_reuse(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float part[TILE];
#pragma unroll 1
    for (int k = 0; k < 2; k++) {
        if (threadIdx.x < TILE / 2) {
            part[threadIdx.x] = k + threadIdx.x; // BUG reduce_src_reuse store-source-reused
            part[threadIdx.x + 64] = k * threadIdx.x;
        }
        fence_async();
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;"
                         :: "l"(dst + 1024), "r"(saddr(part)), "r"(TILE_BYTES) : "memory");
            commit();
            if (!BUG)
                wait_read<0>();
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        wait_all();
}
ZOO(reduce_src_reuse)

// ---- 13-16: races between the lanes of one warp ----------------------------------------------------

// 13. A warp-synchronous tree reduction through shared memory written for
//     pre-Volta lockstep: no __syncwarp between the steps, so a lane reads
//     its partner's partial sum with nothing ordering it after the write.
template <bool BUG> __device__ __forceinline__ void k_warp_reduce_no_syncwarp(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float red[3][32];
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    red[w][lane] = 0.25f * threadIdx.x + w;
    if (!BUG)
        __syncwarp();
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        if (lane < off)
            red[w][lane] += red[w][lane + off]; // BUG warp_reduce_no_syncwarp intra-warp-race
        if (!BUG)
            __syncwarp();
    }
    if (lane == 0)
        dst[w] = red[w][0];
}
ZOO(warp_reduce_no_syncwarp)

// 14. Lane 0 publishes a per-tile value in a per-warp shared slot that the
//     other lanes read; the next tile overwrites the slot with no
//     __syncwarp after the reads (write-after-read inside the warp).
template <bool BUG> __device__ __forceinline__ void k_warp_slot_war(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float slot[3];
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
#pragma unroll 1
    for (int k = 0; k < 4; k++) {
        if (lane == 0)
            slot[w] = out[k] + k * 3.0f + w; // BUG warp_slot_war intra-warp-race
        __syncwarp();
        dst[k * 96 + threadIdx.x] = slot[w] * lane; // BUG warp_slot_war intra-warp-race
        if (!BUG)
            __syncwarp();
    }
}
ZOO(warp_slot_war)

// 15. A bucket table in shared memory: lanes whose keys collide store
//     their lane index into one slot with one st.shared (which lane wins
//     is unspecified); the twin keeps the largest with atomicMax.
template <bool BUG> __device__ __forceinline__ void k_warp_same_store(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ int bucket[3][16];
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane < 16)
        bucket[w][lane] = -1;
    __syncwarp();
    unsigned key = lane >> 1;                 // two lanes per bucket
    if (BUG)
        bucket[w][key] = lane; // BUG warp_same_store intra-warp-race
    else
        atomicMax(&bucket[w][key], (int)lane);
    __syncwarp();
    if (lane < 16)
        ((int *)dst)[w * 16 + lane] = bucket[w][lane];
}
ZOO(warp_same_store)

// 16. Only the elected lane of each consumer warp waits on the full
//     barrier; the other lanes read the stage with no __syncwarp after
//     that wait, so nothing orders their reads after the copy.
template <bool BUG> __device__ __forceinline__ void k_warp_one_lane_waits(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
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
        tma_load(saddr(tile), tm, 0, 8, saddr(&full));
    }
    __syncthreads();
    if (threadIdx.x >= 32) {
        if (elect())
            wait_parity(saddr(&full), 0);
        if (!BUG)
            __syncwarp();
        int t = threadIdx.x - 32;
        dst[t] = tile[t] + tile[t + 64]; // BUG warp_one_lane_waits copy-not-waited
    }
}
ZOO(warp_one_lane_waits)
