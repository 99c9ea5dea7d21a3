// probe.cu — item 5 of issue 10 on the H100: what a single mbarrier.arrive
// executed by more lanes than the phase has pending does, and what an
// expect_tx smaller than the copy does (phase completes early?).
struct alignas(64) TensorMap { unsigned long long opaque[16]; };
__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// 32 lanes arrive on a barrier of count `count`; out[0] = phase-0 complete?,
// out[1] = pending count from the last token
extern "C" __global__ void arrive_overflow(unsigned *out, unsigned count)
{
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(saddr(&bar)), "r"(count) : "memory");
    __syncthreads();
    unsigned long long tok;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(tok) : "r"(saddr(&bar)) : "memory");
    __syncwarp();
    unsigned done, pend;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done) : "r"(saddr(&bar)) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pend) : "l"(tok));
    out[threadIdx.x * 2] = done;
    out[threadIdx.x * 2 + 1] = pend;
}

// expect_tx of `announce` bytes, a 2-box copy (2 x 512 bytes) into tile;
// the consumer waits parity 0 and copies the tile at once (out[0..255]),
// then waits 20000 cycles and copies it again (out[256..511]); out[512] =
// phase-1 complete after the second copy?  tile starts at -1.
// arg: announce | mode << 16; mode bit 0: only warp 1 waits (warp 0, whose
// lane 0 issues, does not); bit 1: the copies are issued before the
// arrive.expect_tx.
extern "C" __global__ void tx_short(const __grid_constant__ TensorMap tm, float *out, unsigned arg)
{
    unsigned announce = arg & 0xffff, mode = arg >> 16;
    __shared__ alignas(128) float tile[256];
    __shared__ alignas(8) unsigned long long bar;
    for (int i = threadIdx.x; i < 256; i += blockDim.x) tile[i] = -1.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(saddr(&bar)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        if (!(mode & 2))
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(saddr(&bar)), "r"(announce) : "memory");
        for (int b = 0; b < 2; b++)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" :: "r"(saddr(tile + 128 * b)), "l"(&tm), "r"(16 * b), "r"(8), "r"(saddr(&bar)) : "memory");
        if (mode & 2)
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(saddr(&bar)), "r"(announce) : "memory");
    }
    if ((mode & 1) && threadIdx.x < 32)
        return;
    asm volatile("{\n\t.reg .pred done;\nW%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n\t@!done bra W%=;\n}" :: "r"(saddr(&bar)) : "memory");
    int t = threadIdx.x - 32;        // warp 1 copies (warp 0 may have left)
    if (t >= 0) {
        for (int i = t; i < 256; i += 32) out[i] = tile[i];
        long long t0 = clock64();
        while (clock64() - t0 < 20000) {}
        for (int i = t; i < 256; i += 32) out[256 + i] = tile[i];
    }
    if (threadIdx.x == 32) {
        unsigned d;
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], 1;\n\tselp.u32 %0, 1, 0, p;\n}" : "=r"(d) : "r"(saddr(&bar)) : "memory");
        out[512] = d;
    }
}
