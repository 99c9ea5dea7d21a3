// probe4.cu — two questions zoo4 left open (launched by host.cpp: modes
// zoo and raw, 96 threads, the zoo's parameters).
//   overrun_sleep / overrun_sleep_ok: zoo4's rel_wrong_stage (the consumers
//     release empty[s ^ 1]) with the producer sleeping 20 us before each
//     wait on an empty barrier, so that the consumers' release after tile 2
//     completes empty[1]'s next phase before the producer's wait for tile 3
//     (parity 0) runs: the hang that ptxi's [phase-overrun] predicts.  The
//     twin releases empty[s], with the same sleeps.
//   inval_word: what mbarrier.inval leaves in the barrier's 8 bytes, and
//     whether an arrive and a test_wait still work on it (raw: dst[0..7]).
struct alignas(64) TensorMap { unsigned long long opaque[16]; };
__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t.reg .pred done;\nW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra W_%=;\n}" :: "r"(bar), "r"(parity) : "memory");
}

template <bool BUG> __device__ void overrun(const TensorMap *tm, float *dst)
{
    __shared__ alignas(128) float tile[2][128];
    __shared__ alignas(8) unsigned long long full[2], empty[2];
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(saddr(&full[s])) : "memory");
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 64;" :: "r"(saddr(&empty[s])) : "memory");
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            __nanosleep(20000);
            wait_parity(saddr(&empty[s]), ph ^ 1);
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 512;" :: "r"(saddr(&full[s])) : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" :: "r"(saddr(tile[s])), "l"(tm), "r"(16 * k), "r"(8),
                         "r"(saddr(&full[s])) : "memory");
        }
    } else if (threadIdx.x >= 32) {
        int t = threadIdx.x - 32;
        for (int k = 0; k < 4; k++) {
            int s = k % 2, ph = (k / 2) & 1;
            wait_parity(saddr(&full[s]), ph);
            dst[k * 128 + t] = tile[s][t] + tile[s][t + 64];
            asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(saddr(&empty[BUG ? s ^ 1 : s])) : "memory");
        }
    }
}
extern "C" __global__ void overrun_sleep(const __grid_constant__ TensorMap tm, const __grid_constant__ TensorMap tmo,
                                         float *dst, const float *out) { overrun<true>(&tm, dst); }
extern "C" __global__ void overrun_sleep_ok(const __grid_constant__ TensorMap tm, const __grid_constant__ TensorMap tmo,
                                            float *dst, const float *out) { overrun<false>(&tm, dst); }

extern "C" __global__ void inval_word(const __grid_constant__ TensorMap tm, const __grid_constant__ TensorMap tmo,
                                      float *dst, const float *out)
{
    __shared__ alignas(8) unsigned long long bar;
    unsigned *d = (unsigned *)dst;
    if (threadIdx.x != 0)
        return;
    unsigned b = saddr(&bar), p;
    unsigned long long w;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 4;" :: "r"(b) : "memory");
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    asm volatile("ld.shared.b64 %0, [%1];" : "=l"(w) : "r"(b) : "memory");
    d[0] = (unsigned)w, d[1] = (unsigned)(w >> 32);
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    asm volatile("ld.shared.b64 %0, [%1];" : "=l"(w) : "r"(b) : "memory");
    d[2] = (unsigned)w, d[3] = (unsigned)(w >> 32);
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    asm volatile("ld.shared.b64 %0, [%1];" : "=l"(w) : "r"(b) : "memory");
    d[4] = (unsigned)w, d[5] = (unsigned)(w >> 32);
    asm volatile("{\n\t.reg .pred q;\n\tmbarrier.test_wait.parity.shared::cta.b64 q, [%1], 0;\n\tselp.u32 %0, 1, 0, q;\n}"
                 : "=r"(p) : "r"(b) : "memory");
    d[6] = p;
    asm volatile("{\n\t.reg .pred q;\n\tmbarrier.test_wait.parity.shared::cta.b64 q, [%1], 1;\n\tselp.u32 %0, 1, 0, q;\n}"
                 : "=r"(p) : "r"(b) : "memory");
    d[7] = p;
}
