// zoo2.cu — more of the bug zoo (zoo.cu explains the conventions: ZOO(name)
// makes `name` with BUG = true and its twin `name_ok`; `// BUG <name> <rule>`
// marks the line a report must name).  These kernels are the wgmma
// pipelines: a CUTLASS-style mainloop where a consumer warpgroup multiplies
// the stage a producer warp loaded with TMA.
//
//   nvcc -arch=sm_90a -O3 -lineinfo -ptx zoo2.cu -o zoo2.ptx
//
// Every launch: grid 1, 160 threads (warps 0-3: the consumer warpgroup,
// warp 4: the producer), tensor map `tm` over a 64x64 FLOAT32 tensor (box
// 16x8 = 512 bytes: one B tile of m64n16k16 f16), dst a 16 KiB buffer.
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

#define TILE_BYTES 512u
#define STAGES 2
#define TILES 4
#define NCONS 128                // the consumer warpgroup

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
// B (16x16 f16, K-major, no swizzle): core matrices of 8 rows x 16 bytes,
// 128 bytes apart along K, 256 along N
__device__ __forceinline__ unsigned long long desc_b(unsigned a)
{
    return (unsigned long long)((a & 0x3FFFF) >> 4) | (unsigned long long)(128 >> 4) << 16 |
           (unsigned long long)(256 >> 4) << 32;
}
// d += A (registers) * B (shared, through desc), one commit group
__device__ __forceinline__ void mma(float (&d)[8], const unsigned (&a)[4], unsigned long long desc)
{
    asm volatile("wgmma.fence.sync.aligned;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                 "{%8, %9, %10, %11}, %12, 1, 1, 1, 0;\n\t"
                 "wgmma.commit_group.sync.aligned;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc) : "memory");
}
// the same with A in shared memory too (desc_b's layout, 64 rows: 2 KiB)
__device__ __forceinline__ void mma_ss(float (&d)[8], unsigned long long da, unsigned long long db)
{
    asm volatile("wgmma.fence.sync.aligned;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                 "%8, %9, 1, 1, 1, 0, 0;\n\t"
                 "wgmma.commit_group.sync.aligned;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "l"(da), "l"(db) : "memory");
}
__device__ __forceinline__ void mma_wait(float (&d)[8])
{
    asm volatile("wgmma.wait_group.sync.aligned 0;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 :: "memory");
}

#define ZOO(name)                                                                                   \
    extern "C" __global__ void name(const __grid_constant__ TensorMap tm, float *dst)              \
    { k_##name<true>(&tm, dst); }                                                                   \
    extern "C" __global__ void name##_ok(const __grid_constant__ TensorMap tm, float *dst)         \
    { k_##name<false>(&tm, dst); }

struct Ring {
    alignas(128) unsigned char tile[STAGES][TILE_BYTES];
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

// (a template like the kernels below, so that bug_zoo.sh maps its lines as a body's)
template <bool BUG> __device__ __forceinline__ void produce(Ring &r, const TensorMap *tm)
{
    if (threadIdx.x == NCONS)
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.empty[s]), ph ^ 1);
            arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
            tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s])); // BUG wg_early_release wgmma-operand-overwritten
        }
}

__device__ __forceinline__ void epilogue(const float (&d)[8], float *dst)
{
    for (int i = 0; i < 8; i++)
        dst[threadIdx.x * 8 + i] = d[i];
}

// ---- 1-2: wgmma operand reads -----------------------------------------------------------------

// 1. The consumer releases the stage (arrives on its empty barrier) right
//    after issuing the wgmma, before the wgmma.wait_group that covers it: the
//    producer's next TMA may land in the tile the tensor core is still reading.
template <bool BUG> __device__ __forceinline__ void k_wg_early_release(const TensorMap *tm, float *dst)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
        unsigned a[4] = { 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u };
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            mma(d, a, desc_b(saddr(r.tile[s])));
            if (BUG)
                arrive(saddr(&r.empty[s]));
            mma_wait(d);
            if (!BUG)
                arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<BUG>(r, tm);
    }
}
ZOO(wg_early_release)

// 2. The consumer rescales the tile in place while the wgmma that reads it
//    is still in flight (the store belongs after the wgmma.wait_group).
template <bool BUG> __device__ __forceinline__ void k_wg_tile_overwrite(const TensorMap *tm, float *dst)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
        unsigned a[4] = { 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u };
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            mma(d, a, desc_b(saddr(r.tile[s])));
            if (BUG)
                reinterpret_cast<unsigned *>(r.tile[s])[threadIdx.x] = 0; // BUG wg_tile_overwrite wgmma-operand-overwritten
            mma_wait(d);
            if (!BUG)
                reinterpret_cast<unsigned *>(r.tile[s])[threadIdx.x] = 0;
            // the generic write, then the producer's TMA (async proxy) over it
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<BUG>(r, tm);
    }
}
ZOO(wg_tile_overwrite)

// 3. A CUTLASS-style mainloop that keeps one wgmma in flight (wait_group 1)
//    must release the stage of the *previous* k-tile after that wait; this
//    one releases the current stage, whose wgmma is still the one in flight.
template <bool BUG> __device__ __forceinline__ void k_wg_release_wrong_stage(const TensorMap *tm, float *dst)
{
    __shared__ Ring r;
    __shared__ alignas(128) unsigned amat[512];   // A: 64x16 f16, every element 1.0
    for (int i = threadIdx.x; i < 512; i += blockDim.x)
        amat[i] = 0x3c003c00u;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            mma_ss(d, desc_b(saddr(amat)), desc_b(saddr(r.tile[s])));
            asm volatile("wgmma.wait_group.sync.aligned 1;"
                         : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                           "+f"(d[7]) :: "memory");
            if (BUG)
                arrive(saddr(&r.empty[s]));
            else if (k > 0)
                arrive(saddr(&r.empty[(k - 1) % STAGES]));
        }
        mma_wait(d);
        epilogue(d, dst);
    } else if (threadIdx.x == NCONS) {
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.empty[s]), ph ^ 1);
            arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
            tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s])); // BUG wg_release_wrong_stage wgmma-operand-overwritten
        }
    }
}
ZOO(wg_release_wrong_stage)

// 4. The consumer warpgroup issues its wgmma on the stage without waiting on
//    the stage's full barrier: the tensor core may read the tile before (or
//    while) the TMA lands.
template <bool BUG> __device__ __forceinline__ void k_wg_no_full_wait(const TensorMap *tm, float *dst)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
        unsigned a[4] = { 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u };
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            if (!BUG)
                wait_parity(saddr(&r.full[s]), ph);
            mma(d, a, desc_b(saddr(r.tile[s]))); // BUG wg_no_full_wait copy-not-waited
            mma_wait(d);
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else if (threadIdx.x == NCONS) {
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.empty[s]), ph ^ 1);
            arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
            tma_load(saddr(r.tile[s]), tm, 16 * k, 8, saddr(&r.full[s])); // BUG wg_no_full_wait wgmma-operand-overwritten
        }
    }
}
ZOO(wg_no_full_wait)

// 5. The warpgroup fills A in shared memory with st.shared (a dequantised
//    operand) and the wgmma reads it through the async proxy with no
//    fence.proxy.async between: the tensor core may see stale bytes.
template <bool BUG> __device__ __forceinline__ void k_wg_no_proxy_fence(const TensorMap *tm, float *dst)
{
    __shared__ Ring r;
    __shared__ alignas(128) unsigned amat[512];
    for (int i = threadIdx.x; i < 512; i += blockDim.x)
        amat[i] = 0x3c003c00u; // BUG wg_no_proxy_fence missing-proxy-fence
    if (!BUG)
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            mma_ss(d, desc_b(saddr(amat)), desc_b(saddr(r.tile[s]))); // BUG wg_no_proxy_fence missing-proxy-fence
            mma_wait(d);
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<false>(r, tm);
    }
}
ZOO(wg_no_proxy_fence)
