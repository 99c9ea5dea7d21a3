// txgran.cu — how an H100 credits a copy's bytes to its mbarrier: one
// thread arms the barrier with arrive.expect_tx(E), issues copies of S
// bytes in all (mode 0: one cp.async.bulk; mode 1: S / (boxw * 32) TMA
// boxes of boxw x 8 floats), polls the phase with test_wait (bounded),
// waits ~200 us for every byte to land and records:
//   out[0] bit 0: the phase completed while polling, bit 1: by the end
//   out[1], out[2]: the raw mbarrier word at the end
//   out[3]: (phase still open) an expect_tx of S - E then completes it
//   out[4]: (phase done) an arrive.expect_tx of S - E completes phase 1 at once
struct alignas(64) TensorMap { unsigned long long opaque[16]; };
__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ unsigned test_wait(unsigned bar, unsigned par)
{
    unsigned ok;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n}" : "=r"(ok) : "r"(bar), "r"(par) : "memory");
    return ok;
}
extern "C" __global__ void txgran(const __grid_constant__ TensorMap tm, const float *src, unsigned *out,
                                  unsigned E, unsigned S, unsigned mode, unsigned boxw)
{
    __shared__ alignas(128) float buf[4096];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x)
        return;
    unsigned b = saddr(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(E) : "memory");
    if (mode == 0) {
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(saddr(buf)), "l"(src), "r"(S), "r"(b) : "memory");
    } else {
        unsigned nb = S / (boxw * 32);
        for (unsigned k = 0; k < nb; k++) {
            int x = (int)((k * boxw) % 64), y = (int)(8 * ((k * boxw) / 64));
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" :: "r"(saddr(buf + k * boxw * 8)), "l"(&tm), "r"(x), "r"(y),
                         "r"(b) : "memory");
        }
    }
    unsigned done = 0;
    for (int i = 0; i < 20000 && !done; i++)
        done = test_wait(b, 0);
    long long t0 = clock64();
    while (clock64() - t0 < 400000)
        ;
    if (!done && test_wait(b, 0))
        done = 2;
    unsigned long long w;
    asm volatile("ld.shared.b64 %0, [%1];" : "=l"(w) : "r"(b) : "memory");
    unsigned d3 = 0, d4 = 0;
    if (!done) {
        asm volatile("mbarrier.expect_tx.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(S - E) : "memory");
        d3 = test_wait(b, 0);
    } else if (S > E) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(S - E) : "memory");
        d4 = test_wait(b, 1);
    }
    out[0] = done;
    out[1] = (unsigned)w;
    out[2] = (unsigned)(w >> 32);
    out[3] = d3;
    out[4] = d4;
}
