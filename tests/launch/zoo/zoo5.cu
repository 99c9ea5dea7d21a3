// zoo5.cu — the fifth part of the bug zoo (zoo.cu explains the conventions:
// ZOO(name) makes `name` with BUG = true and its correct twin `name_ok`;
// `// BUG <name> <rule>` marks the line a report must name; several markers
// of one kernel are alternatives).  The memory-ordering, proxy, epilogue and
// tensor-core family: stmatrix epilogues stored by TMA without (or with a
// misplaced, or a .global-only) fence.proxy.async or without the named
// barrier, an epilogue buffer reused with no barrier after the issuer's
// wait, wgmma operands written by stmatrix or with the proxy fence made by
// another warp, wgmma accumulators read in flight, a missing wgmma.fence,
// an epilogue stmatrix over a stage a wgmma still reads, bulk reductions,
// bulk and TMA stores read or overwritten after only wait_group.read (by
// the same CTA's TMA load, by another warp, by a peer CTA of the cluster),
// a DSMEM bulk copy read without a wait, sm_80 cp.async pipelines (no
// wait, a wait_group one too lax, a refill with no barrier after the
// reads), a tensor map or a tile written by plain global stores and read
// by the TMA without the proxy fence.  After them, kernels `ok_*`: correct but unusual forms that must
// run clean (tests/scripts/bug_zoo5.sh checks them).
//
//   nvcc -arch=sm_90a -O3 -lineinfo -ptx zoo5.cu -o zoo5.ptx
//
// Every launch: 160 threads (warps 0-3: a consumer warpgroup, warp 4: the
// producer), grid 1 (2 in a cluster of 2 for the cl_ kernels); tm and tmo
// are 64x64 FLOAT32 maps (box 16x8 = 512 bytes) over `src` and `out`; dst is
// 16 KiB.
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

#define TILE 128                 // floats per box
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
__device__ __forceinline__ void bulk_reduce_add(float *dst, unsigned src, unsigned bytes)
{
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;"
                 :: "l"(dst), "r"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_s2s(unsigned dst, unsigned src, unsigned bytes, unsigned bar)
{
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(dst), "r"(src), "r"(bytes), "r"(bar) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
// CUTLASS's NamedBarrier: the epilogue warpgroup synchronises on its own id
__device__ __forceinline__ void ep_bar() { asm volatile("bar.sync 1, 128;" ::: "memory"); }
__device__ __forceinline__ void syncwarp() { asm volatile("bar.warp.sync -1;" ::: "memory"); }
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
// each lane gives one 16-byte row: lane l writes row l % 8 of matrix l / 8
__device__ __forceinline__ void stmatrix4(unsigned row, unsigned v0, unsigned v1, unsigned v2, unsigned v3)
{
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(row), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
}
// sm_80 cp.async (Triton's and CUTLASS's multistage loads where TMA is not used)
__device__ __forceinline__ void cp_async16(unsigned dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory"); }
__device__ __forceinline__ void ldmatrix4(unsigned row, unsigned (&v)[4])
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "r"(row) : "memory");
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
// the same without the wgmma.fence
__device__ __forceinline__ void mma_nofence(float (&d)[8], const unsigned (&a)[4], unsigned long long desc)
{
    asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                 "{%8, %9, %10, %11}, %12, 1, 1, 1, 0;\n\t"
                 "wgmma.commit_group.sync.aligned;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc) : "memory");
}
// A in shared memory too (desc_b's layout, 64 rows: 2 KiB)
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
    extern "C" __global__ void name(const __grid_constant__ TensorMap tm,                          \
                                    const __grid_constant__ TensorMap tmo, float *dst, float *out)  \
    { k_##name<true>(&tm, &tmo, dst, out); }                                                       \
    extern "C" __global__ void name##_ok(const __grid_constant__ TensorMap tm,                     \
                                         const __grid_constant__ TensorMap tmo, float *dst, float *out) \
    { k_##name<false>(&tm, &tmo, dst, out); }

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

__device__ __forceinline__ void epilogue(const float (&d)[8], float *dst)
{
    for (int i = 0; i < 8; i++)
        dst[threadIdx.x * 8 + i] = d[i];
}

// ---- 1-5: TMA-store epilogues of a warpgroup ------------------------------------------------------

// 1. The warpgroup writes its 64x16 output tile to shared memory with
//    stmatrix (each warp one 512-byte box), meets on the epilogue's named
//    barrier and one thread TMA-stores the four boxes, with no
//    fence.proxy.async between the stmatrix and the store.
template <bool BUG> __device__ __forceinline__ void k_ep_stmatrix_no_fence(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) unsigned char ep[4][TILE_BYTES];
    if (threadIdx.x < NCONS) {
        unsigned wp = threadIdx.x / 32, l = threadIdx.x & 31;
        stmatrix4(saddr(ep[wp]) + l * 16, l, l * 3u, l * 5u + wp, ~l); // BUG ep_stmatrix_no_fence missing-proxy-fence
        if (!BUG)
            fence_async();
        ep_bar();
        if (threadIdx.x == 0) {
            for (int i = 0; i < 4; i++)
                tma_store(tmo, saddr(ep[i]), 16 * i, 0); // BUG ep_stmatrix_no_fence missing-proxy-fence
            commit();
            wait_read0();
        }
    }
}
ZOO(ep_stmatrix_no_fence)

// 2. Triton-style epilogue with the fence in the wrong place: every thread
//    makes its fence.proxy.async *before* its st.shared of the tile, so the
//    fence orders nothing of the tile for the async proxy.
template <bool BUG> __device__ __forceinline__ void k_ep_fence_before_write(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float4 ep[4 * TILE / 4];
    if (threadIdx.x < NCONS) {
        float f = threadIdx.x;
        if (BUG)
            fence_async();
        ep[threadIdx.x] = make_float4(f, f + 0.25f, f + 0.5f, -f); // BUG ep_fence_before_write missing-proxy-fence
        if (!BUG)
            fence_async();
        ep_bar();
        if (threadIdx.x == 0) {
            for (int i = 0; i < 4; i++)
                tma_store(tmo, saddr(&ep[i * 32]), 16 * i, 8); // BUG ep_fence_before_write missing-proxy-fence
            commit();
            wait_read0();
        }
    }
}
ZOO(ep_fence_before_write)

// 3. Only the storing warp fences: warps 1-3 wrote their parts of the tile
//    through the generic proxy and none of them made a fence.proxy.async;
//    warp 0's fence (before the barrier) covers only warp 0's writes.
template <bool BUG> __device__ __forceinline__ void k_ep_fence_wrong_warp(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float4 ep[4 * TILE / 4];
    if (threadIdx.x < NCONS) {
        float f = threadIdx.x * 2.0f;
        ep[threadIdx.x] = make_float4(f, -f, f * f, 1.0f); // BUG ep_fence_wrong_warp missing-proxy-fence
        if (!BUG || threadIdx.x < 32)
            fence_async();
        ep_bar();
        if (threadIdx.x == 0) {
            for (int i = 0; i < 4; i++)
                tma_store(tmo, saddr(&ep[i * 32]), 16 * i, 16); // BUG ep_fence_wrong_warp missing-proxy-fence
            commit();
            wait_read0();
        }
    }
}
ZOO(ep_fence_wrong_warp)

// 4. The epilogue's named barrier is replaced by a __syncwarp: the storing
//    thread's warp is ordered, the other three warps' stmatrix are not, so
//    the TMA store may read their boxes before (or while) they are written.
template <bool BUG> __device__ __forceinline__ void k_ep_no_named_bar(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) unsigned char ep[4][TILE_BYTES];
    if (threadIdx.x < NCONS) {
        unsigned wp = threadIdx.x / 32, l = threadIdx.x & 31;
        stmatrix4(saddr(ep[wp]) + l * 16, l + 7u, l * 9u, wp, l ^ 0x5555u); // BUG ep_no_named_bar store-source-reused|store-source-unordered
        fence_async();
        if (BUG)
            syncwarp();
        else
            ep_bar();
        if (threadIdx.x == 0) {
            for (int i = 0; i < 4; i++)
                tma_store(tmo, saddr(ep[i]), 16 * i, 24); // BUG ep_no_named_bar store-source-unordered
            commit();
            wait_read0();
        }
    }
}
ZOO(ep_no_named_bar)

// 5. A persistent epilogue over two tiles: the storing thread waits for
//    the store's read (wait_group.read 0) before the buffer is refilled,
//    but the barrier after that wait is missing, so warps 1-3 refill their
//    parts while the store may still read them.
template <bool BUG> __device__ __forceinline__ void k_ep_reuse_no_bar_after_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float4 ep[4 * TILE / 4];
    if (threadIdx.x < NCONS) {
#pragma unroll 1
        for (int t = 0; t < 2; t++) {
            float f = threadIdx.x + 100.0f * t;
            ep[threadIdx.x] = make_float4(f, f, -f, t); // BUG ep_reuse_no_bar_after_wait store-source-reused|store-source-unordered
            fence_async();
            ep_bar();
            if (threadIdx.x == 0) {
                for (int i = 0; i < 4; i++)
                    tma_store(tmo, saddr(&ep[i * 32]), 16 * i, 32 + 8 * t); // BUG ep_reuse_no_bar_after_wait store-source-unordered
                commit();
                wait_read0();
            }
            if (!BUG)
                ep_bar();
        }
    }
}
ZOO(ep_reuse_no_bar_after_wait)

// ---- 6-9, 15: wgmma ---------------------------------------------------------------------------------

// (a template like the kernels, so that bug_zoo.sh maps its lines as a body's)
template <bool BUG> __device__ __forceinline__ void produce(Ring &r, const TensorMap *tm)
{
    if (threadIdx.x == NCONS)
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.empty[s]), ph ^ 1);
            arrive_expect_tx(saddr(&r.full[s]), TILE_BYTES);
            tma_load(saddr(r.tile[s]), tm, 16 * (k % 4), 8 * (k / 4), saddr(&r.full[s]));
        }
}

// 6. The warpgroup dequantises A into shared memory with st.shared and
//    makes no fence.proxy.async; the producer warp makes one for its own
//    scratch writes, and the __syncthreads after it orders that fence
//    after nothing of the warpgroup's: the wgmma may read stale A.
template <bool BUG> __device__ __forceinline__ void k_wg_a_fence_other_warp(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ Ring r;
    __shared__ alignas(128) unsigned amat[512];
    __shared__ float scratch[32];
    if (threadIdx.x < NCONS) {
        for (int i = threadIdx.x; i < 512; i += NCONS)
            amat[i] = 0x3c003c00u; // BUG wg_a_fence_other_warp missing-proxy-fence
        if (!BUG)
            fence_async();
    } else {
        scratch[threadIdx.x & 31] = 0.0f;
        fence_async();
    }
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            mma_ss(d, desc_b(saddr(amat)), desc_b(saddr(r.tile[s]))); // BUG wg_a_fence_other_warp missing-proxy-fence
            mma_wait(d);
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<BUG>(r, tm);
    }
}
ZOO(wg_a_fence_other_warp)

// 7. The mainloop logs a partial sum from the accumulators right after
//    issuing the wgmma, before the wgmma.wait_group: the registers still
//    belong to the tensor core (their value is undefined until the wait).
template <bool BUG> __device__ __forceinline__ void k_wg_acc_read_early(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
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
                out[2048 + k * NCONS + threadIdx.x] = d[0]; // BUG wg_acc_read_early wgmma-register-in-flight
            mma_wait(d);
            if (!BUG)
                out[2048 + k * NCONS + threadIdx.x] = d[0];
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<BUG>(r, tm);
    }
}
ZOO(wg_acc_read_early)

// 8. The accumulators are zeroed and the first wgmma issued with no
//    wgmma.fence before it (CUTLASS's warpgroup_arrive() left out): the
//    tensor core may read the registers before the zeroing is visible.
template <bool BUG> __device__ __forceinline__ void k_wg_no_wgmma_fence(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
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
            if (BUG)
                mma_nofence(d, a, desc_b(saddr(r.tile[s]))); // BUG wg_no_wgmma_fence wgmma-no-fence
            else
                mma(d, a, desc_b(saddr(r.tile[s])));
            mma_wait(d);
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<BUG>(r, tm);
    }
}
ZOO(wg_no_wgmma_fence)

// 9. A is written by the warpgroup with stmatrix (the ldmatrix/stmatrix
//    path of a mixed-input GEMM) and read by wgmma with no
//    fence.proxy.async between.
template <bool BUG> __device__ __forceinline__ void k_wg_stmatrix_operand(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ Ring r;
    __shared__ alignas(128) unsigned char amat[4][TILE_BYTES];
    if (threadIdx.x < NCONS) {
        unsigned wp = threadIdx.x / 32, l = threadIdx.x & 31;
        stmatrix4(saddr(amat[wp]) + l * 16, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u); // BUG wg_stmatrix_operand missing-proxy-fence
        if (!BUG)
            fence_async();
    }
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            mma_ss(d, desc_b(saddr(amat)), desc_b(saddr(r.tile[s]))); // BUG wg_stmatrix_operand missing-proxy-fence
            mma_wait(d);
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<BUG>(r, tm);
    }
}
ZOO(wg_stmatrix_operand)

// ---- 10-14: bulk and TMA stores, global memory, DSMEM ------------------------------------------

// 10. A split-K fix-up: thread 0 adds the partial tile into dst with a bulk
//     reduction and waits only for the source read (wait_group.read); after
//     the barrier, the producer warp reads the reduced values back with
//     plain loads, which may run before the reduction has written them.
template <bool BUG> __device__ __forceinline__ void k_red_read_other_warp(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float part[TILE];
    if (threadIdx.x < TILE)
        part[threadIdx.x] = threadIdx.x * 0.5f;
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        bulk_reduce_add(dst + 1024, saddr(part), TILE_BYTES);
        commit();
        if (BUG)
            wait_read0();
        else
            wait_all();
    }
    __syncthreads();
    if (threadIdx.x >= NCONS)
        out[3072 + threadIdx.x] = dst[1024 + (threadIdx.x & 31)] + 1.0f; // BUG red_read_other_warp global-store-race
}
ZOO(red_read_other_warp)

// 11. The tile is TMA-stored to `out`, then loaded back through the same
//     map by a TMA load of the same CTA (a fused two-pass epilogue) after
//     only wait_group.read: the load may read global memory the store has
//     not written yet.
template <bool BUG> __device__ __forceinline__ void k_store_then_tma_load(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float tile[TILE], back[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x < TILE)
        tile[threadIdx.x] = threadIdx.x * 4.0f;
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        tma_store(tmo, saddr(tile), 16, 40); // BUG store_then_tma_load global-store-race
        commit();
        if (BUG)
            wait_read0();
        else
            wait_all();
        mbar_init(saddr(&full), 1);
        fence_init();
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load(saddr(back), tmo, 16, 40, saddr(&full)); // BUG store_then_tma_load global-store-race
    }
    __syncthreads();
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = back[threadIdx.x];
}
ZOO(store_then_tma_load)

// 12. A row epilogue bulk-copies its smem row to dst, then patches the
//     row's first element with a plain store after only wait_group.read:
//     the bulk copy may still write that element afterwards.
template <bool BUG> __device__ __forceinline__ void k_bulk_store_patch(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float row[TILE];
    if (threadIdx.x < TILE)
        row[threadIdx.x] = threadIdx.x + 0.75f;
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        bulk_store(dst + 512, saddr(row), TILE_BYTES);
        commit();
        if (BUG)
            wait_read0();
        else
            wait_all();
        dst[512] = -1.0f; // BUG bulk_store_patch global-store-race
    }
}
ZOO(bulk_store_patch)

// 13. Rank 1 copies its tile into rank 0's shared memory with a DSMEM bulk
//     copy (cp.async.bulk.shared::cluster.shared::cta) completing on rank
//     0's barrier; rank 0 reads the tile after a cluster barrier without
//     waiting on that barrier (the cluster barrier does not wait for copies).
template <bool BUG> __device__ __forceinline__ void k_cl_bulk_dsmem_no_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float src[TILE], buf[TILE];
    __shared__ alignas(8) unsigned long long full;
    unsigned rank = cta_rank();
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    if (threadIdx.x < TILE)
        src[threadIdx.x] = threadIdx.x * 2.0f + rank;
    fence_async();
    cluster_sync();
    if (rank == 1 && threadIdx.x == 0)
        bulk_s2s(mapa(saddr(buf), 0), saddr(src), TILE_BYTES, mapa(saddr(&full), 0)); // BUG cl_bulk_dsmem_no_wait copy-not-waited
    if (rank == 0) {
        if (threadIdx.x == 0)
            arrive_expect_tx(saddr(&full), TILE_BYTES);
        if (!BUG)
            wait_parity(saddr(&full), 0);
        cluster_sync();
        if (threadIdx.x < TILE)
            dst[threadIdx.x] = buf[threadIdx.x]; // BUG cl_bulk_dsmem_no_wait copy-not-waited
    } else {
        cluster_sync();
    }
    cluster_sync();
}
ZOO(cl_bulk_dsmem_no_wait)

// 14. Rank 0 TMA-stores a tile of `out`; rank 1 reads that tile from
//     global memory after a cluster barrier, but rank 0 waited only with
//     wait_group.read before arriving: the store's global writes are not
//     ordered before rank 1's loads.
template <bool BUG> __device__ __forceinline__ void k_cl_store_peer_read(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float tile[TILE];
    unsigned rank = cta_rank();
    if (threadIdx.x < TILE)
        tile[threadIdx.x] = threadIdx.x * 3.0f + 1.0f;
    fence_async();
    __syncthreads();
    if (rank == 0 && threadIdx.x == 0) {
        tma_store(tmo, saddr(tile), 32, 48);
        commit();
        if (BUG)
            wait_read0();
        else
            wait_all();
    }
    cluster_sync();
    if (rank == 1 && threadIdx.x < 16)
        dst[256 + threadIdx.x] = out[48 * 64 + 32 + threadIdx.x]; // BUG cl_store_peer_read global-store-race
}
ZOO(cl_store_peer_read)

// 15. The epilogue staging buffer shares shared memory with the mainloop's
//     stages (CUTLASS's union SharedStorage); the warpgroup writes the
//     bias tile into it with stmatrix right after the last wgmma is issued,
//     before the wgmma.wait_group, while the tensor core still reads the
//     stage.
template <bool BUG> __device__ __forceinline__ void k_ep_stmatrix_over_operand(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ Ring r;
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
        unsigned a[4] = { 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u };
        unsigned wp = threadIdx.x / 32, l = threadIdx.x & 31;
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            mma(d, a, desc_b(saddr(r.tile[s])));
            if (k + 1 < TILES) {
                mma_wait(d);
                arrive(saddr(&r.empty[s]));
            }
        }
        if (!BUG)
            mma_wait(d);
        // the staging tile: 2 stages x 512 bytes = one 16-byte row per lane of the warpgroup
        if (wp < 2)
            stmatrix4(saddr(r.tile[wp]) + l * 16, l, wp, 0x3c00u, 0u); // BUG ep_stmatrix_over_operand wgmma-operand-overwritten
        if (BUG)
            mma_wait(d);
        epilogue(d, dst);
    } else {
        produce<BUG>(r, tm);
    }
}
ZOO(ep_stmatrix_over_operand)

// 16. The epilogue fences with fence.proxy.async.global (the store writes
//     global memory, so the author picked that space): it orders global
//     memory only, not the tile's shared-memory writes the TMA store reads.
template <bool BUG> __device__ __forceinline__ void k_ep_fence_global_space(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float4 ep[4 * TILE / 4];
    if (threadIdx.x < NCONS) {
        float f = threadIdx.x * 0.5f;
        ep[threadIdx.x] = make_float4(f, f + 1.0f, f + 2.0f, f + 3.0f); // BUG ep_fence_global_space missing-proxy-fence
        if (BUG)
            asm volatile("fence.proxy.async.global;" ::: "memory");
        else
            fence_async();
        ep_bar();
        if (threadIdx.x == 0) {
            for (int i = 0; i < 4; i++)
                tma_store(tmo, saddr(&ep[i * 32]), 16 * i, 48); // BUG ep_fence_global_space missing-proxy-fence
            commit();
            wait_read0();
        }
    }
}
ZOO(ep_fence_global_space)

// ---- 17-19: sm_80 cp.async pipelines ----------------------------------------------------------------

// 17. Every thread cp.asyncs 16 bytes of the tile and commits, but nobody
//     waits (cp.async.wait_group) before the barrier: the threads then read
//     each other's chunks, which may not have landed.
template <bool BUG> __device__ __forceinline__ void k_cpa_no_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float4 buf[NCONS];
    float4 *g = reinterpret_cast<float4 *>(out + 2048);
    if (threadIdx.x < NCONS)
        g[threadIdx.x] = make_float4(threadIdx.x, threadIdx.x + 0.5f, -1.0f * threadIdx.x, 7.0f);
    __syncthreads();
    if (threadIdx.x < NCONS) {
        cp_async16(saddr(&buf[threadIdx.x]), &g[threadIdx.x]); // BUG cpa_no_wait copy-not-waited
        cp_commit();
        if (!BUG)
            cp_wait<0>();
    }
    __syncthreads();
    if (threadIdx.x < NCONS)
        dst[threadIdx.x] = buf[(threadIdx.x + 32) % NCONS].y; // BUG cpa_no_wait copy-not-waited
}
ZOO(cpa_no_wait)

// 18. Three stages in three commit groups; the consumer needs stages 0 and
//     1, so it must wait until at most one group is pending (wait_group 1);
//     this one waits with the stage count minus one (wait_group 2), which
//     leaves stage 1 in flight.
template <bool BUG> __device__ __forceinline__ void k_cpa_wait_group_off(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float4 st[3][NCONS];
    float4 *g = reinterpret_cast<float4 *>(out + 2048);
    if (threadIdx.x < NCONS)
        for (int s = 0; s < 3; s++)
            g[s * NCONS + threadIdx.x] = make_float4(s, threadIdx.x, s * 100.0f + threadIdx.x, 1.0f);
    __syncthreads();
    if (threadIdx.x < NCONS) {
        for (int s = 0; s < 3; s++) {
            cp_async16(saddr(&st[s][threadIdx.x]), &g[s * NCONS + threadIdx.x]); // BUG cpa_wait_group_off copy-not-waited
            cp_commit();
        }
        if (BUG)
            cp_wait<2>();
        else
            cp_wait<1>();
    }
    __syncthreads();
    if (threadIdx.x < NCONS)
        dst[threadIdx.x] = st[0][(threadIdx.x + 32) % NCONS].z + st[1][(threadIdx.x + 64) % NCONS].z; // BUG cpa_wait_group_off copy-not-waited
    if (threadIdx.x < NCONS)
        cp_wait<0>();
    __syncthreads();
    if (threadIdx.x < NCONS)
        dst[NCONS + threadIdx.x] = st[2][(threadIdx.x + 96) % NCONS].z;
}
ZOO(cpa_wait_group_off)

// 19. A two-stage cp.async ring: the refill of a stage is issued at the top
//     of the next iteration, but the __syncthreads after the stage's reads
//     is missing, so a fast warp's cp.async overwrites a stage that slower
//     warps are still reading.
template <bool BUG> __device__ __forceinline__ void k_cpa_refill_no_sync(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float4 st[2][NCONS];
    float4 *g = reinterpret_cast<float4 *>(out + 2048);
    if (threadIdx.x < NCONS)
        for (int k = 0; k < 4; k++)
            g[k * NCONS + threadIdx.x] = make_float4(k, threadIdx.x, k * 10.0f + threadIdx.x, 2.0f);
    __syncthreads();
    if (threadIdx.x < NCONS) {
        float acc = 0.0f;
        cp_async16(saddr(&st[0][threadIdx.x]), &g[threadIdx.x]);
        cp_commit();
#pragma unroll 1
        for (int k = 0; k < 4; k++) {
            if (k + 1 < 4)
                cp_async16(saddr(&st[(k + 1) % 2][threadIdx.x]), &g[(k + 1) * NCONS + threadIdx.x]); // BUG cpa_refill_no_sync copy-over-access
            cp_commit();
            cp_wait<1>();
            ep_bar();
            acc += st[k % 2][(threadIdx.x + 32) % NCONS].z; // BUG cpa_refill_no_sync copy-not-waited
            if (!BUG)
                ep_bar();
        }
        dst[threadIdx.x] = acc;
    }
}
ZOO(cpa_refill_no_sync)

// 20. A tile scheduler hands both CTAs of the cluster the same output tile
//     (its cluster-rank term dropped): both TMA-store their partial tile to
//     the same box of `out`, unordered, and the bytes that stay depend on
//     which store lands last.
template <bool BUG> __device__ __forceinline__ void k_cl_store_same_tile(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float tile[TILE];
    unsigned rank = cta_rank();
    if (threadIdx.x < TILE)
        tile[threadIdx.x] = threadIdx.x + 1000.0f * rank;
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        int x = BUG ? 0 : 16 * (int)rank;
        tma_store(tmo, saddr(tile), x, 56); // BUG cl_store_same_tile global-store-race
        commit();
        wait_all();
    }
    cluster_sync();
}
ZOO(cl_store_same_tile)

// 21. Rank 0's full wait for its TMA store is there, but after the cluster
//     barrier instead of before it: rank 1's reads after the barrier are not
//     ordered after the store's writes (whenever rank 0's wait runs).
template <bool BUG> __device__ __forceinline__ void k_cl_store_wait_late(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float tile[TILE];
    unsigned rank = cta_rank();
    if (threadIdx.x < TILE)
        tile[threadIdx.x] = threadIdx.x * 5.0f + 3.0f;
    fence_async();
    __syncthreads();
    if (rank == 0 && threadIdx.x == 0) {
        tma_store(tmo, saddr(tile), 48, 16);
        commit();
        if (!BUG)
            wait_all();
    }
    cluster_sync();
    if (BUG && rank == 0 && threadIdx.x == 0)
        wait_all();
    if (rank == 1 && threadIdx.x >= NCONS && threadIdx.x < NCONS + 16)
        dst[512 + threadIdx.x] = out[16 * 64 + 48 + threadIdx.x - NCONS]; // BUG cl_store_wait_late global-store-race
    cluster_sync();
}
ZOO(cl_store_wait_late)

// 22. A register-A (RS) wgmma mainloop: the warpgroup loads the A fragment
//     of each stage with ldmatrix, but skips the wait on the stage's full
//     barrier for it (only B goes through the tensor core's smem path), so
//     ldmatrix may read the stage before the TMA has filled it.
template <bool BUG> __device__ __forceinline__ void k_wg_ldmatrix_no_wait(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ Ring r;
    __shared__ alignas(128) unsigned char bmat[TILE_BYTES];
    for (int i = threadIdx.x; i < TILE_BYTES / 4; i += blockDim.x)
        reinterpret_cast<unsigned *>(bmat)[i] = 0x3c003c00u;
    fence_async();
    ring_init(r);
    if (threadIdx.x < NCONS) {
        float d[8] = {};
        unsigned l = threadIdx.x & 31;
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            unsigned a[4];
            if (!BUG)
                wait_parity(saddr(&r.full[s]), ph);
            ldmatrix4(saddr(r.tile[s]) + l * 16, a); // BUG wg_ldmatrix_no_wait copy-not-waited
            if (BUG)
                wait_parity(saddr(&r.full[s]), ph);
            mma(d, a, desc_b(saddr(bmat)));
            mma_wait(d);
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<BUG>(r, tm);
    }
}
ZOO(wg_ldmatrix_no_wait)

// 23. A grouped-GEMM prologue copies the kernel's map into a per-group
//     slot in global memory with plain stores (a struct copy) and loads
//     through the copy without fence.proxy.tensormap::generic.acquire: the
//     TMA unit may read the slot's old bytes.
template <bool BUG> __device__ __forceinline__ void k_tmap_st_copy_no_acquire(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float tile[TILE];
    __shared__ alignas(8) unsigned long long full;
    TensorMap *gmap = reinterpret_cast<TensorMap *>(dst + 3072);   // a 128-byte slot in global memory
    unsigned lane = threadIdx.x & 31;
    if (threadIdx.x < 32) {
        if (lane < 16)
            gmap->opaque[lane] = tm->opaque[lane]; // BUG tmap_st_copy_no_acquire tensormap-no-acquire
        syncwarp();
        if (lane == 0) {
            if (!BUG)
                asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(gmap) : "memory");
            mbar_init(saddr(&full), 1);
            fence_init();
            arrive_expect_tx(saddr(&full), TILE_BYTES);
            tma_load(saddr(tile), gmap, 0, 24, saddr(&full)); // BUG tmap_st_copy_no_acquire tensormap-no-acquire
        }
    }
    __syncthreads();
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = tile[threadIdx.x];
}
ZOO(tmap_st_copy_no_acquire)

// 24. A two-pass kernel writes a tile of `out` with plain stores, meets at
//     __syncthreads and TMA-loads the tile back: a generic-proxy write read
//     by the async proxy needs fence.proxy.async (.global, or no space)
//     between them, which this one lacks.
template <bool BUG> __device__ __forceinline__ void k_gmem_st_then_tma_load(const TensorMap *tm, const TensorMap *tmo, float *dst, float *out)
{
    __shared__ alignas(128) float back[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x < TILE)
        out[(threadIdx.x / 16) * 64 + 16 + threadIdx.x % 16] = threadIdx.x * 7.0f; // BUG gmem_st_then_tma_load missing-proxy-fence
    if (!BUG)
        asm volatile("fence.proxy.async.global;" ::: "memory");
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load(saddr(back), tmo, 16, 0, saddr(&full)); // BUG gmem_st_then_tma_load missing-proxy-fence
    }
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = back[threadIdx.x] + 1.0f;
}
ZOO(gmem_st_then_tma_load)

// ---- correct but unusual: each must run clean ------------------------------------------------------

#define OK(name)                                                                                    \
    extern "C" __global__ void name(const __grid_constant__ TensorMap tm,                          \
                                    const __grid_constant__ TensorMap tmo, float *dst, float *out)

// The proxy fence made once, by the storing thread, after the named
// barrier: the stmatrix writes of all four warps precede it in
// happens-before, so it orders them for the async proxy (the PTX memory
// model: a proxy fence anywhere on the causality path).
OK(ok_fence_after_bar)
{
    __shared__ alignas(128) unsigned char ep[4][TILE_BYTES];
    if (threadIdx.x < NCONS) {
        unsigned wp = threadIdx.x / 32, l = threadIdx.x & 31;
        stmatrix4(saddr(ep[wp]) + l * 16, l, l + wp, 3u, l << 8);
        ep_bar();
        if (threadIdx.x == 0) {
            fence_async();
            for (int i = 0; i < 4; i++)
                tma_store(&tmo, saddr(ep[i]), 16 * i, 56);
            commit();
            wait_read0();
        }
    }
}

// The proxy fence made by a third warp: warps 0-3 write the tile, the
// block meets, warp 4 (which wrote nothing) makes the fence, the block
// meets again and thread 0 stores.  The fence lies on the happens-before
// path from every write to the store, which is what the memory model asks.
OK(ok_fence_third_warp)
{
    __shared__ alignas(128) float4 ep[4 * TILE / 4];
    if (threadIdx.x < NCONS)
        ep[threadIdx.x] = make_float4(threadIdx.x, 1.0f, 2.0f, 3.0f);
    __syncthreads();
    if (threadIdx.x >= NCONS)
        fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int i = 0; i < 4; i++)
            tma_store(&tmo, saddr(&ep[i * 32]), 16 * i, 0);
        commit();
        wait_read0();
    }
}

// Both wgmma operands come only from TMA (async proxy to async proxy): no
// proxy fence is needed; A is loaded once before the mainloop.
OK(ok_wgmma_tma_only)
{
    __shared__ Ring r;
    __shared__ alignas(128) unsigned char amat[4][TILE_BYTES];
    __shared__ alignas(8) unsigned long long afull;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&afull), 1);
        fence_init();
    }
    ring_init(r);
    if (threadIdx.x == NCONS) {
        arrive_expect_tx(saddr(&afull), 4 * TILE_BYTES);
        for (int i = 0; i < 4; i++)
            tma_load(saddr(amat[i]), &tm, 16 * i, 16, saddr(&afull));
    }
    if (threadIdx.x < NCONS) {
        float d[8] = {};
        wait_parity(saddr(&afull), 0);
#pragma unroll 1
        for (int k = 0; k < TILES; k++) {
            int s = k % STAGES, ph = (k / STAGES) & 1;
            wait_parity(saddr(&r.full[s]), ph);
            mma_ss(d, desc_b(saddr(amat)), desc_b(saddr(r.tile[s])));
            mma_wait(d);
            arrive(saddr(&r.empty[s]));
        }
        epilogue(d, dst);
    } else {
        produce<false>(r, &tm);
    }
}

// A persistent epilogue that reuses one staging buffer: the issuing thread
// waits with wait_group.read 0, then the whole block meets at bar.sync
// before anyone writes the buffer again; the last tile waits at exit.
OK(ok_ep_reuse_after_read)
{
    __shared__ alignas(128) float ep[TILE];
#pragma unroll 1
    for (int t = 0; t < 3; t++) {
        if (threadIdx.x < TILE)
            ep[threadIdx.x] = threadIdx.x + 10.0f * t;
        fence_async();
        __syncthreads();
        if (threadIdx.x == 0) {
            tma_store(&tmo, saddr(ep), 16 * t, 0);
            commit();
            wait_read0();
        }
        __syncthreads();
    }
}

// A store, a full wait (wait_group 0: the writes are done), then a TMA load
// of the same tile and a plain read of it from another warp after a barrier.
OK(ok_store_full_wait_reload)
{
    __shared__ alignas(128) float tile[TILE], back[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x < TILE)
        tile[threadIdx.x] = 1.5f * threadIdx.x;
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0) {
        tma_store(&tmo, saddr(tile), 48, 8);
        commit();
        wait_all();
        mbar_init(saddr(&full), 1);
        fence_init();
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load(saddr(back), &tmo, 48, 8, saddr(&full));
    }
    __syncthreads();
    if (threadIdx.x >= NCONS)
        dst[threadIdx.x] = out[8 * 64 + 48 + (threadIdx.x & 15)];
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[1024 + threadIdx.x] = back[threadIdx.x];
}

// Split-K: two warps add their partial tiles into the same 512 bytes of dst
// with bulk reductions, unordered with each other (reductions are atomic),
// each waiting for its own before the block reads the sum.
OK(ok_splitk_two_warps)
{
    __shared__ alignas(128) float part[2][TILE];
    if (threadIdx.x < TILE) {
        part[0][threadIdx.x] = threadIdx.x;
        part[1][threadIdx.x] = 0.5f * threadIdx.x;
    }
    fence_async();
    __syncthreads();
    if (threadIdx.x == 0 || threadIdx.x == 32) {
        bulk_reduce_add(dst + 256, saddr(part[threadIdx.x / 32]), TILE_BYTES);
        commit();
        wait_all();
    }
    __syncthreads();
    if (threadIdx.x < TILE)
        out[threadIdx.x] = dst[256 + threadIdx.x];
}

// CUTLASS's epilogue issues its TMA store from more than one lane of the
// storing warp: the same shared bytes to the same box, twice.
OK(ok_store_two_lanes)
{
    __shared__ alignas(128) float tile[TILE];
    if (threadIdx.x < TILE)
        tile[threadIdx.x] = 2.0f * threadIdx.x;
    fence_async();
    __syncthreads();
    if (threadIdx.x < 2) {
        tma_store(&tmo, saddr(tile), 32, 32);
        commit();
        wait_all();
    }
}

// Plain stores of a tile of `out`, __syncthreads, then the loading thread
// makes the fence.proxy.async.global itself before its TMA load: the fence
// lies on the path from every store to the load.
OK(ok_gfence_by_loader)
{
    __shared__ alignas(128) float back[TILE];
    __shared__ alignas(8) unsigned long long full;
    if (threadIdx.x < TILE)
        out[(threadIdx.x / 16) * 64 + 32 + threadIdx.x % 16] = threadIdx.x * 3.0f;
    if (threadIdx.x == 0) {
        mbar_init(saddr(&full), 1);
        fence_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("fence.proxy.async.global;" ::: "memory");
        arrive_expect_tx(saddr(&full), TILE_BYTES);
        tma_load(saddr(back), &tmo, 32, 0, saddr(&full));
    }
    wait_parity(saddr(&full), 0);
    if (threadIdx.x < TILE)
        dst[threadIdx.x] = back[threadIdx.x];
}
