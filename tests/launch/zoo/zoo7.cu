// zoo7.cu — the fifth part of the bug zoo (zoo.cu explains the conventions:
// ZOO(name) makes `name` with BUG = true and its correct twin `name_ok`;
// `// BUG <name> <rule>` marks the line a report must name).  Three more
// pipeline slips: a producer that arrives on the full barrier first and
// announces the stage's bytes afterwards (mbarrier.expect_tx after the
// last arrival), a cluster whose two CTAs compute different stage counts
// for one multicast ring, and ping-pong consumer warps that take the phase
// bit from the wrong counter.  Helpers as in zoo4.cu.
//
//   nvcc -arch=sm_90a -O3 -lineinfo -ptx zoo7.cu -o zoo7.ptx
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

// 1. The producer arrives on the stage's full barrier and only then
//    announces its bytes (mbarrier.expect_tx after a plain arrive, where
//    CUTLASS uses one arrive.expect_tx): if the copy has not started
//    landing when the arrive comes, the count is zero and the phase
//    completes before the tile is there.
template <bool BUG> __device__ __forceinline__ void k_expect_tx_after_arrive(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, NCONS);
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 4; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                if (!BUG)
                    arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s]));
                if (BUG) {
                    arrive(saddr(&r.full[s])); // BUG expect_tx_after_arrive expect-tx-late
                    expect_tx(saddr(&r.full[s]), TILE_BYTES);
                }
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            dst[k * TILE + t] = r.tile[s][t] + r.tile[s][t + 64]; // BUG expect_tx_after_arrive copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(expect_tx_after_arrive)

// 2. A multicast ring over a cluster of two: rank r loads box r of each
//    k-block into stage s of both CTAs (full[s] of each CTA expects both
//    boxes, 1024 bytes), and the consumers release the stage on both CTAs'
//    empty barriers (count 2 x 64).  Rank 1 computes 3 stages (its shared
//    memory budget came out larger): from k = 2 on, rank 0's box goes to
//    stage 0 of rank 1 and signals rank 1's full[0] while rank 1 waits on
//    full[2] for it.
template <bool BUG> __device__ __forceinline__ void k_cl_stage_mismatch(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[3][2 * TILE];
    __shared__ alignas(8) unsigned long long full[3], empty[3];
    unsigned rank = cta_rank();
    const int S = (BUG && rank == 1) ? 3 : 2; // BUG cl_stage_mismatch deadlock
    if (threadIdx.x == 0) {
        for (int s = 0; s < 3; s++) {
            mbar_init(saddr(&full[s]), 1);
            mbar_init(saddr(&empty[s]), 2 * NCONS);
        }
        fence_init();
    }
    cluster_sync();
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 4; k++) {
                int s = k % S, ph = (k / S) & 1;
                wait_parity(saddr(&empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&full[s]), 2 * TILE_BYTES);
                tma_load_mc(saddr(&tile[s][rank * TILE]), tm, 16 * k, 8 * rank, saddr(&full[s]), 3);
            }
    } else {
        int t = threadIdx.x - 32;
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            int s = k % S, ph = (k / S) & 1;
            wait_parity(saddr(&full[s]), ph); // BUG cl_stage_mismatch deadlock|copy-not-waited
            dst[rank * 1024 + k * 256 + t] = tile[s][t] + tile[s][t + 128];
            arrive(saddr(&empty[s]));
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(mapa(saddr(&empty[s]), rank ^ 1)) : "memory");
        }
    }
    cluster_sync();
}
ZOO(cl_stage_mismatch)

// 3. Ping-pong consumers: warp 1 takes the even k-blocks (stage 0), warp 2
//    the odd ones (stage 1), so each warp meets its stage's full barrier
//    once per lap j and waits with parity j & 1; the broken one takes the
//    phase bit as (j / 2) & 1 (the formula of a consumer that sees every
//    k-block), and its second lap waits on a phase it already consumed.
template <bool BUG> __device__ __forceinline__ void k_pingpong_parity(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ Ring r;
    ring_init(r, 32);
    if (threadIdx.x < 32) {
        if (elect_sync())
            for (int k = 0; k < 8; k++) {
                int s = k % 2, ph = (k / 2) & 1;
                wait_parity(saddr(&r.empty[s]), ph ^ 1);
                arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
                tma_load(saddr(r.tile[s]), tm, 16 * (k % 4), 8 * (k / 4), saddr(&r.full[s]));
            }
    } else {
        int w = threadIdx.x / 32 - 1, lane = threadIdx.x & 31;
#pragma unroll 1
        for (int j = 0; j < 4; j++) {
            int k = 2 * j + w, s = w, ph = BUG ? (j / 2) & 1 : j & 1;
            wait_parity(saddr(&r.full[s]), ph); // BUG pingpong_parity stale-phase|deadlock
            dst[k * 32 + lane] = r.tile[s][lane] + r.tile[s][lane + 96]; // BUG pingpong_parity copy-not-waited
            arrive(saddr(&r.empty[s]));
        }
    }
}
ZOO(pingpong_parity)
