// zoo_warp.cu — the bug zoo's lane-level ordering cases (zoo.cu explains
// the conventions: ZOO(name) makes `name` with BUG = true and its correct
// twin `name_ok`; `// BUG <name> <rule>` marks the line a report must name;
// several markers of one kernel are alternatives, such as the two sides of
// a race).  What they test: __syncwarp(mask) with a partial mask orders
// only the lanes of its mask with each other; and a bulk async-group
// belongs to the thread that committed it, so its wait_group orders that
// thread only: another lane of the warp touching the store's source (or,
// after a wait_group without .read, its global destination) must be
// ordered after the issuing lane's wait by a __syncwarp or a barrier.
//
//   nvcc -arch=sm_90a -O3 -lineinfo -ptx zoo_warp.cu -o zoo_warp.ptx
//
// Every launch: 96 threads, grid 1; tm and tmo are 64x64 FLOAT32 maps (box
// 16x8 = 512 bytes) over `src` and `out`; dst is 16 KiB.
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

#define TILE 128                 // floats per box
#define TILE_BYTES 512u

__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void tma_store(const TensorMap *tm, unsigned src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 :: "l"(tm), "r"(x), "r"(y), "r"(src) : "memory");
}
__device__ __forceinline__ void bulk_store(void *dst, unsigned src, unsigned bytes)
{
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 :: "l"(dst), "r"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

#define ZOO(name)                                                                                   \
    extern "C" __global__ void name(const __grid_constant__ TensorMap tm,                          \
                                    const __grid_constant__ TensorMap tmo, float *dst, const float *out) \
    { k_##name<true>(&tm, &tmo, dst, out); }                                                 \
    extern "C" __global__ void name##_ok(const __grid_constant__ TensorMap tm,                     \
                                         const __grid_constant__ TensorMap tmo, float *dst, const float *out) \
    { k_##name<false>(&tm, &tmo, dst, out); }

// 1. Lanes 0-15 of each warp stage a row in shared memory and meet at
//    __syncwarp(0x0000ffff); lanes 16-31, which are not in that mask, then
//    read the row.  A membermask orders only its own lanes: nothing orders
//    the readers after the writes.  Twin: every lane meets at __syncwarp().
template <bool BUG> __device__ __forceinline__ void k_warp_half_mask(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float row[3][16];
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane < 16) {
        row[w][lane] = out[w * 16 + lane] * 2.0f + (float)lane; // BUG warp_half_mask intra-warp-race
        if (BUG)
            __syncwarp(0x0000ffffu);
    }
    if (!BUG)
        __syncwarp();
    if (lane >= 16)
        dst[w * 16 + lane - 16] = row[w][lane - 16] * (float)lane; // BUG warp_half_mask intra-warp-race
}
ZOO(warp_half_mask)

// 2. Each half of a warp reduces its 16 values with a tree in shared
//    memory, every step ordered by a __syncwarp on its own half's mask
//    (correct: the halves never touch each other's slots).  Then lane 0
//    adds the two halves' totals: it reads the upper half's, which only
//    the upper half's syncs ordered.  Twin: a __syncwarp() before that.
template <bool BUG> __device__ __forceinline__ void k_warp_halves_combine(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ float red[3][32];
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    red[w][lane] = out[threadIdx.x] + 1.0f;
    __syncwarp(half);
#pragma unroll 1
    for (unsigned off = 8; off > 0; off >>= 1) {
        float v = 0.0f;
        if ((lane & 15) < off)
            v = red[w][lane + off];
        __syncwarp(half);
        if ((lane & 15) < off)
            red[w][lane] += v; // BUG warp_halves_combine intra-warp-race
        __syncwarp(half);
    }
    if (!BUG)
        __syncwarp();
    if (lane == 0)
        dst[w] = red[w][0] + red[w][16]; // BUG warp_halves_combine intra-warp-race
}
ZOO(warp_halves_combine)

// 3. A persistent TMA-store epilogue in one warp: every lane writes its
//    part of the staging tile, the elected lane stores it, commits and
//    waits for the read (wait_group.read), and the loop goes round to
//    write the next tile.  The bulk group is the elected lane's: its wait
//    orders that lane only, and the other lanes overwrite the source with
//    nothing ordering them after it.  Twin: a __syncwarp() after the wait.
template <bool BUG> __device__ __forceinline__ void k_warp_store_src_lane(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    unsigned lane = threadIdx.x & 31;
    if (threadIdx.x >= 32)
        return;
#pragma unroll 1
    for (int k = 0; k < 4; k++) {
        for (unsigned i = lane; i < TILE; i += 32)
            tile[i] = k * 1000.0f + (float)i; // BUG warp_store_src_lane store-source-reused
        fence_async();
        __syncwarp();
        if (lane == 0) {
            tma_store(tmo, saddr(tile), 0, k * 8);
            commit();
            wait_read0();
        }
        if (!BUG)
            __syncwarp();
    }
}
ZOO(warp_store_src_lane)

// 4. The same epilogue written with the wait outside the elected branch:
//    every lane executes cp.async.bulk.wait_group.read, but a lane waits
//    only for groups it committed itself (none, for lanes 1-31), so the
//    wait still orders lane 0 alone.  Twin: a __syncwarp() after it.
template <bool BUG> __device__ __forceinline__ void k_warp_store_wait_all(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    unsigned lane = threadIdx.x & 31;
    if (threadIdx.x >= 32)
        return;
#pragma unroll 1
    for (int k = 0; k < 4; k++) {
        for (unsigned i = lane; i < TILE; i += 32)
            tile[i] = k * 100.0f - (float)i; // BUG warp_store_wait_all store-source-reused
        fence_async();
        __syncwarp();
        if (lane == 0) {
            tma_store(tmo, saddr(tile), 16, k * 8);
            commit();
        }
        wait_read0();
        if (!BUG)
            __syncwarp();
    }
}
ZOO(warp_store_wait_all)

// 5. The elected lane writes a tile to global memory with a bulk store and
//    waits for the whole store (wait_group 0, not .read); then the other
//    lanes read the tile back from global memory.  That wait orders the
//    elected lane only.  Twin: a __syncwarp() after the wait.
template <bool BUG> __device__ __forceinline__ void k_warp_store_readback(const TensorMap *tm, const TensorMap *tmo, float *dst, const float *out)
{
    __shared__ alignas(128) float tile[TILE];
    unsigned lane = threadIdx.x & 31;
    if (threadIdx.x >= 32)
        return;
    for (unsigned i = lane; i < TILE; i += 32)
        tile[i] = 3.0f * (float)i + 1.0f;
    fence_async();
    __syncwarp();
    if (lane == 0) {
        bulk_store(dst + 1024, saddr(tile), TILE_BYTES);
        commit();
        wait_all();
    }
    if (!BUG)
        __syncwarp();
    float v = dst[1024 + (lane ^ 1)]; // BUG warp_store_readback global-store-race
    dst[lane] = v * 2.0f;
}
ZOO(warp_store_readback)
