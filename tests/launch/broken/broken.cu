// broken.cu — TMA kernels with the bugs TMA users hit most, one per kernel.
// Each must stop with the right diagnostic at the right line, under every
// completion policy, and never hang (tests/scripts/broken_kernels.sh).
//
// Every kernel loads boxes of a 64x32 FLOAT32 tensor (map `tm`, box 16x8 =
// 512 bytes unless the launch file says otherwise) and copies them to `dst`.
// The waits are plain unbounded try_wait loops, as CUTLASS writes them: on
// hardware these kernels hang or read garbage.
//
//   nvcc -arch=sm_90a -O3 -ptx broken.cu -o broken.ptx
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

#define TILE_BYTES 512u

__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void arrive_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void tma_load_2d(unsigned dst, const TensorMap *tm, int x, int y, unsigned bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(tm), "r"(x), "r"(y), "r"(bar) : "memory");
}

__device__ __forceinline__ void tma_load_2d_multicast(unsigned dst, const TensorMap *tm, int x, int y, unsigned bar,
                                                      unsigned short mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;"
                 :: "r"(dst), "l"(tm), "r"(x), "r"(y), "r"(bar), "h"(mask) : "memory");
}

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t.reg .pred done;\n"
                 "WAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra WAIT_%=;\n}"
                 :: "r"(bar), "r"(parity) : "memory");
}

__device__ __forceinline__ void copy_out(const float *tile, float *dst, unsigned n)
{
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
        dst[i] = tile[i];
}

// 1. expect_tx announces 64 bytes more than the box holds: the phase waits
//    for bytes that never come (deadlock at the wait, 64 bytes outstanding).
extern "C" __global__ void expect_tx_too_many(const __grid_constant__ TensorMap tm, float *dst)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
        arrive_expect_tx(saddr(&bar), TILE_BYTES + 64);
        tma_load_2d(saddr(tile), &tm, 16, 8, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst, 128);
}

// 2. expect_tx counts elements instead of bytes: the copy completes more
//    bytes than announced (deadlock at the wait, tx-count negative).
extern "C" __global__ void expect_tx_too_few(const __grid_constant__ TensorMap tm, float *dst)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
        arrive_expect_tx(saddr(&bar), 128);   /* elements, not bytes */
        tma_load_2d(saddr(tile), &tm, 16, 8, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst, 128);
}

// 3. Waits on parity 1, i.e. for the phase *before* the first one, which
//    counts as complete at once: the tile is read while the copy is still
//    in flight (a race: the read gets whatever shared memory held).
extern "C" __global__ void wrong_parity(const __grid_constant__ TensorMap tm, float *dst)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
        arrive_expect_tx(saddr(&bar), TILE_BYTES);
        tma_load_2d(saddr(tile), &tm, 16, 8, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 1);
    copy_out(tile, dst, 128);
}

// 4. The consumers wait for `ntiles` phases but the producer loop stops one
//    short: the last wait is for a phase nobody starts (deadlock, parity 1).
extern "C" __global__ void wait_phase_never_started(const __grid_constant__ TensorMap tm, float *dst, int ntiles)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0)
        mbar_init(saddr(&bar), 1);
    __syncthreads();
    for (int t = 0; t < ntiles; t++) {
        if (threadIdx.x == 0 && t < ntiles - 1) {
            arrive_expect_tx(saddr(&bar), TILE_BYTES);
            tma_load_2d(saddr(tile), &tm, 16 * t, 8, saddr(&bar));
        }
        wait_parity(saddr(&bar), t & 1);
        copy_out(tile, dst + 128 * t, 128);
        __syncthreads();
    }
}

// 5. expect_tx without the arrive: the tx bytes land, but the one expected
//    arrival never happens (deadlock, 1 of 1 arrivals pending).
extern "C" __global__ void missing_arrive(const __grid_constant__ TensorMap tm, float *dst)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
        expect_tx(saddr(&bar), TILE_BYTES);
        tma_load_2d(saddr(tile), &tm, 16, 8, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst, 128);
}

// 6. The destination is 64 bytes into a 1024-aligned buffer: a TMA
//    destination must be 128-byte aligned (fault at the copy).
extern "C" __global__ void misaligned_smem(const __grid_constant__ TensorMap tm, float *dst, unsigned off)
{
    extern __shared__ __align__(1024) unsigned char dyn[];
    __shared__ alignas(8) unsigned long long bar;
    float *tile = (float *)(dyn + off);
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
        arrive_expect_tx(saddr(&bar), TILE_BYTES);
        tma_load_2d(saddr(tile), &tm, 16, 8, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst, 128);
}

// 7. The launch gives 4 KiB of dynamic shared memory but the map's box is
//    64x32 FLOAT32 = 8 KiB (fault at the copy: box exceeds shared memory).
extern "C" __global__ void box_exceeds_smem(const __grid_constant__ TensorMap tm, float *dst)
{
    extern __shared__ __align__(1024) unsigned char dyn[];
    __shared__ alignas(8) unsigned long long bar;
    float *tile = (float *)dyn;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
        arrive_expect_tx(saddr(&bar), 64 * 32 * 4);
        tma_load_2d(saddr(tile), &tm, 0, 0, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst, 64 * 32);
}

// 8. Multicast to CTAs 0..2 from a cluster of 2 (fault at the copy).
extern "C" __global__ void __cluster_dims__(2, 1, 1) ctamask_outside_cluster(const __grid_constant__ TensorMap tm,
                                                                             float *dst, unsigned mask)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
        arrive_expect_tx(saddr(&bar), TILE_BYTES);
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (threadIdx.x == 0 && rank == 0)
        tma_load_2d_multicast(saddr(tile), &tm, 16, 8, saddr(&bar), (unsigned short)mask);
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst + 128 * rank, 128);
}

// 9. One phase announces the whole 2 MiB tensor set: the tx-count's range
//    is +-(2^20-1) (fault at the arrive).
extern "C" __global__ void tx_overflow(const __grid_constant__ TensorMap tm, float *dst, unsigned ntiles)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
        arrive_expect_tx(saddr(&bar), ntiles * TILE_BYTES);
#pragma unroll 1
        for (unsigned t = 0; t < ntiles; t++)
            tma_load_2d(saddr(tile), &tm, 16, 8, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst, 128);
}

// 10. The producer forgot arrive.expect_tx altogether: every landing copy
//     lowers the tx-count, and 2048 copies of 512 bytes (2^20 bytes) take it
//     below -(2^20-1) (with --check=none: fault at the copy whose landing
//     underflows).  The happens-before checker stops earlier, at the second
//     copy: it writes the tile while the first, never waited for, may too.
extern "C" __global__ void tx_underflow(const __grid_constant__ TensorMap tm, float *dst, unsigned ntiles)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&bar), 1);
#pragma unroll 1
        for (unsigned t = 0; t < ntiles; t++)
            tma_load_2d(saddr(tile), &tm, 16, 8, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst, 128);
}

// 11. Warp 1 initialises the barrier but nothing orders that before warp
//     0's arrive (no __syncthreads): arrive on an uninitialised mbarrier.
extern "C" __global__ void arrive_uninit(const __grid_constant__ TensorMap tm, float *dst)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 32)
        mbar_init(saddr(&bar), 1);
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&bar), TILE_BYTES);
        tma_load_2d(saddr(tile), &tm, 16, 8, saddr(&bar));
    }
    __syncthreads();
    wait_parity(saddr(&bar), 0);
    copy_out(tile, dst, 128);
}

// 12. A TMA store reads the tile asynchronously; the kernel overwrites the
//     tile before cp.async.bulk.wait_group.read says the read is done.
extern "C" __global__ void store_overwrite_before_wait(const __grid_constant__ TensorMap tm, float *src)
{
    __shared__ alignas(128) float tile[128];
    copy_out(src, tile, 128);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(&tm), "r"(16), "r"(8), "r"(saddr(tile)) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        for (int i = 0; i < 128; i++)
            tile[i] = 0.0f;                    /* too early: the store may still read it */
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}
