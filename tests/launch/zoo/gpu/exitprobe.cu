// exitprobe.cu — does a CTA's exit wait for its own TMA loads in flight?
// (zoo4's exit_tma_inflight question.)  Every CTA first fills a 16 KiB
// region of its shared memory with a pattern of its own, waits ~20 us and
// counts the words that changed (atomicAdd into dst[0]); then thread 0
// loads 32 boxes (16 KiB) into the region and, with wait == 0, the CTA
// exits without waiting for them.  If the GPU gave the region to a new
// CTA while those bytes still land, the new CTA counts changed words.
// Launched by host.cpp mode "exit" (grid of many waves, 128 threads).
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

extern "C" __global__ void exit_inflight(const __grid_constant__ TensorMap tm, unsigned *dst, unsigned wait)
{
    __shared__ alignas(128) float region[32 * 128];
    __shared__ alignas(8) unsigned long long full;
    const unsigned pat = 0x7f000000u | (blockIdx.x & 0xffffff);
    for (int i = threadIdx.x; i < 32 * 128; i += blockDim.x)
        region[i] = __uint_as_float(pat);
    __syncthreads();
    long long t0 = clock64();
    while (clock64() - t0 < 40000)
        ;
    unsigned bad = 0;
    for (int i = threadIdx.x; i < 32 * 128; i += blockDim.x)
        bad += __float_as_uint(region[i]) != pat;
    if (bad)
        atomicAdd(&dst[0], bad);
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(&dst[1], 1u);
        unsigned bar = (unsigned)__cvta_generic_to_shared(&full);
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(16384) : "memory");
        for (int b = 0; b < 32; b++) {
            unsigned d = (unsigned)__cvta_generic_to_shared(&region[b * 128]);
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" :: "r"(d), "l"(&tm), "r"(16 * (b % 4)), "r"(8 * (b / 4)),
                         "r"(bar) : "memory");
        }
        if (wait)
            asm volatile("{\n\t.reg .pred p;\nW:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t"
                         "@!p bra W;\n}" :: "r"(bar) : "memory");
    }
}
