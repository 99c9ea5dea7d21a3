// async.cu — kernels for the completion-policy checks (tests/scripts/async_policies.sh).
//
// poll_bound: thread 0 issues a TMA load of a 16x8 FLOAT32 box; warp 0 polls
// the mbarrier with mbarrier.try_wait.parity in a loop bounded by %clock64
// (`bound` cycles), while warp 1 meanwhile runs `spin` iterations of
// unrelated arithmetic.  status[0] = 1 if the phase completed, 2 if the
// poll loop timed out.  The load is in flight while warp 1 works, so under
// every completion policy the copy must land before warp 0's loop can time
// out: ptxi counts a polling warp as waiting, however many instructions the
// other warps run meanwhile.
//
// poll_token_bulk: the same with a non-tensor bulk copy (512 bytes of `src`)
// and the state-token form: every thread arrives (thread 0 with expect_tx)
// and polls mbarrier.test_wait with its token, bounded by %clock64.
//
//   nvcc -arch=sm_90a -O3 -ptx async.cu -o async.ptx
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ bool try_wait_parity(unsigned bar, unsigned parity)
{
    unsigned ok;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
    return ok != 0;
}

extern "C" __global__ void poll_bound(const __grid_constant__ TensorMap tm, long long bound, int spin,
                                      float *dst, unsigned *status, unsigned *junk)
{
    __shared__ alignas(128) float tile[8][16];
    __shared__ alignas(8) unsigned long long bar;
    unsigned b = smem_addr(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"((unsigned)sizeof tile)
                     : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(smem_addr(&tile[0][0])), "l"(&tm), "r"(16), "r"(8), "r"(b) : "memory");
    }
    if (threadIdx.x >= 32) {
        // warp 1: unrelated work while the copy is in flight
        unsigned x = threadIdx.x;
        for (int i = 0; i < spin; i++)
            x = x * 1664525u + 1013904223u;
        junk[threadIdx.x - 32] = x;
        return;
    }
    long long t0 = clock64();
    bool done = false;
    while (!(done = try_wait_parity(b, 0)) && clock64() - t0 < bound)
        ;
    if (threadIdx.x == 0)
        status[0] = done ? 1 : 2;
    if (done)
        for (int i = threadIdx.x; i < 128; i += 32)
            dst[i] = (&tile[0][0])[i];
}

extern "C" __global__ void poll_token_bulk(const float *src, long long bound, int spin, float *dst, unsigned *status,
                                           unsigned *junk)
{
    __shared__ alignas(128) float tile[128];
    __shared__ alignas(8) unsigned long long bar;
    unsigned b = smem_addr(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(blockDim.x));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    unsigned long long token;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"
                     : "=l"(token) : "r"(b), "r"((unsigned)sizeof tile) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(smem_addr(tile)), "l"(src), "r"((unsigned)sizeof tile), "r"(b) : "memory");
    } else {
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(token) : "r"(b) : "memory");
    }
    if (threadIdx.x >= 32) {
        unsigned x = threadIdx.x;
        for (int i = 0; i < spin; i++)
            x = x * 1664525u + 1013904223u;
        junk[threadIdx.x - 32] = x;
        return;
    }
    long long t0 = clock64();
    unsigned done = 0;
    for (;;) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(b), "l"(token) : "memory");
        if (done || clock64() - t0 >= bound)
            break;
    }
    if (threadIdx.x == 0)
        status[0] = done ? 1 : 2;
    if (done)
        for (int i = threadIdx.x; i < 128; i += 32)
            dst[i] = tile[i];
}
