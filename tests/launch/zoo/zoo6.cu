// zoo6.cu — the grid-wide part of the bug zoo: CTAs of different clusters
// writing the same global bytes (zoo.cu explains the conventions: ZOO(name)
// makes `name` with BUG = true and its correct twin `name_ok`; `// BUG
// <name> <rule>` marks the line a report must name).  The checker's state
// is per cluster, so these are found only by the grid-wide write check
// (interp/gridck.c) at the end of the launch.
//
//   nvcc -arch=sm_90a -O3 -lineinfo -ptx zoo6.cu -o zoo6.ptx
//
// Every launch: grid 4 (clusters of 1), 128 threads; tm and tmo are 64x64
// FLOAT32 maps (box 16x8 = 128 floats) over `src` and `out`; `flags` is a
// zeroed buffer of semaphores.
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

#define TILE 128                 // floats per box (and threads per CTA)

__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void tma_store(const TensorMap *tm, unsigned src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 :: "l"(tm), "r"(x), "r"(y), "r"(src) : "memory");
}
__device__ __forceinline__ void tma_reduce_add(const TensorMap *tm, unsigned src, int x, int y)
{
    asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                 :: "l"(tm), "r"(x), "r"(y), "r"(src) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ unsigned ld_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_release(unsigned *p, unsigned v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

#define ZOO(name)                                                                                   \
    extern "C" __global__ void name(const __grid_constant__ TensorMap tm,                          \
                                    const __grid_constant__ TensorMap tmo, const float *src,       \
                                    float *out, unsigned *flags)                                   \
    { k_##name<true>(&tm, &tmo, src, out, flags); }                                                \
    extern "C" __global__ void name##_ok(const __grid_constant__ TensorMap tm,                     \
                                         const __grid_constant__ TensorMap tmo, const float *src,  \
                                         float *out, unsigned *flags)                              \
    { k_##name<false>(&tm, &tmo, src, out, flags); }

// This CTA's share of a split-K sum for element t of a 16x8 tile: four of
// the sixteen K slices in `src`.
__device__ __forceinline__ float partial(const float *src, int t)
{
    float acc = 0.0f;
#pragma unroll 1
    for (int k = 4 * blockIdx.x; k < 4 * blockIdx.x + 4; k++)
        acc += src[k * TILE + t];
    return acc;
}

// 1. Split-K with the fixup left out: every CTA TMA-stores its partial sum
//    into the same output tile (the twin: each CTA its own tile).  On the
//    GPU the tile holds whichever CTA's partial landed last.
template <bool BUG> __device__ __forceinline__ void k_splitk_tma_same_tile(const TensorMap *tm, const TensorMap *tmo, const float *src, float *out, unsigned *flags)
{
    __shared__ alignas(128) float tile[TILE];
    int t = threadIdx.x;
    tile[t] = partial(src, t);
    fence_async();
    __syncthreads();
    if (t == 0) {
        tma_store(tmo, saddr(tile), BUG ? 0 : 16 * blockIdx.x, 0); // BUG splitk_tma_same_tile grid-write-race
        commit();
        wait_all();
    }
}
ZOO(splitk_tma_same_tile)

// 2. A grid index bug: CTA x writes rows [3x, 3x+4) instead of [4x, 4x+4),
//    so its last row is CTA x+1's first, with other values.
template <bool BUG> __device__ __forceinline__ void k_grid_index_overlap(const TensorMap *tm, const TensorMap *tmo, const float *src, float *out, unsigned *flags)
{
    const int rows = 4, row0 = blockIdx.x * (BUG ? rows - 1 : rows);
#pragma unroll 1
    for (int i = threadIdx.x; i < rows * 64; i += blockDim.x)
        out[row0 * 64 + i] = src[row0 * 64 + i] * (float)(blockIdx.x + 1); // BUG grid_index_overlap grid-write-race
}
ZOO(grid_index_overlap)

// 3. Every CTA's thread 0 stores a status word out[0]: the same constant in
//    the twin (benign, as racecheck treats same-value writes), the CTA's
//    index in the bug.
template <bool BUG> __device__ __forceinline__ void k_status_word(const TensorMap *tm, const TensorMap *tmo, const float *src, float *out, unsigned *flags)
{
    int t = threadIdx.x;
    out[64 + blockIdx.x * TILE + t] = src[t] + 1.0f;
    if (t == 0)
        out[0] = BUG ? (float)blockIdx.x : 1.0f; // BUG status_word grid-write-race
}
ZOO(status_word)

// 4. Serial split-K through a semaphore (CUTLASS's Semaphore: CTA k waits
//    until the flag reads k, accumulates into the tile, releases k + 1).
//    The bug skips the wait and keeps the release: nothing orders the
//    read-modify-writes of the tile.
template <bool BUG> __device__ __forceinline__ void k_serial_splitk(const TensorMap *tm, const TensorMap *tmo, const float *src, float *out, unsigned *flags)
{
    int t = threadIdx.x;
    float p = partial(src, t);
    if (!BUG && t == 0)
        while (ld_acquire(flags) != blockIdx.x)
            ;
    __syncthreads();
    out[t] = (blockIdx.x ? out[t] : 0.0f) + p; // BUG serial_splitk grid-write-race
    __threadfence();
    __syncthreads();
    if (t == 0)
        st_release(flags, blockIdx.x + 1);
}
ZOO(serial_splitk)

// 5. A counter zeroed by CTA 0 with a plain store while every CTA adds to
//    it atomically: an add that lands before the store is lost.  The twin
//    relies on the zeroed buffer.
template <bool BUG> __device__ __forceinline__ void k_atomic_after_init(const TensorMap *tm, const TensorMap *tmo, const float *src, float *out, unsigned *flags)
{
    if (threadIdx.x == 0) {
        if (BUG && blockIdx.x == 0)
            out[1] = 0.0f; // BUG atomic_after_init grid-write-race
        atomicAdd(&out[1], src[blockIdx.x]); // BUG atomic_after_init grid-write-race
    }
}
ZOO(atomic_after_init)

// 6. Split-K through TMA reductions: every CTA reduce-adds its partial into
//    the one tile (the twin: no race, the adds commute).  In the bug CTA 0
//    stores its partial instead, which may land after the others' adds.
template <bool BUG> __device__ __forceinline__ void k_reduce_vs_store(const TensorMap *tm, const TensorMap *tmo, const float *src, float *out, unsigned *flags)
{
    __shared__ alignas(128) float tile[TILE];
    int t = threadIdx.x;
    tile[t] = partial(src, t);
    fence_async();
    __syncthreads();
    if (t == 0) {
        if (BUG && blockIdx.x == 0)
            tma_store(tmo, saddr(tile), 0, 8); // BUG reduce_vs_store grid-write-race
        else
            tma_reduce_add(tmo, saddr(tile), 0, 8); // BUG reduce_vs_store grid-write-race
        commit();
        wait_all();
    }
}
ZOO(reduce_vs_store)

// 7. A tile scheduler that hands every output tile to two CTAs (tile =
//    blockIdx.x / 2).  The twin's CTAs compute the tile's full sum
//    redundantly, so both store the same bytes (benign, as racecheck treats
//    same-value writes); in the bug each sums its own K slices, and the
//    tile keeps whichever half-sum landed last.
template <bool BUG> __device__ __forceinline__ void k_tile_handed_twice(const TensorMap *tm, const TensorMap *tmo, const float *src, float *out, unsigned *flags)
{
    __shared__ alignas(128) float tile[TILE];
    int t = threadIdx.x, tile_id = blockIdx.x / 2;
    float acc = 0.0f;
#pragma unroll 1
    for (int k = BUG ? 4 * blockIdx.x : 8 * tile_id; k < (BUG ? 4 * blockIdx.x + 4 : 8 * tile_id + 8); k++)
        acc += src[k * TILE + t];
    tile[t] = acc;
    fence_async();
    __syncthreads();
    if (t == 0) {
        tma_store(tmo, saddr(tile), 16 * tile_id, 16); // BUG tile_handed_twice grid-write-race
        commit();
        wait_all();
    }
}
ZOO(tile_handed_twice)
