// ex2 verification: every input of ex2.approx.ftz.f32, ex2.approx.f32,
// ex2.approx.f16x2 and ex2.approx.ftz.bf16x2 (all 2^32 patterns each) on
// the H100 against ptxi's sfu/ model compiled on this machine's CPU.
// Prints counts, the first differences and a histogram by sign|exponent.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <omp.h>
extern "C" {
#include "sfu.h"
}
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int F> __global__ void k_f32(uint32_t *o, uint32_t base)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x, u = base + i, r;
    float x = __uint_as_float(u), f = 0;
    if (F == 0) { asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(f) : "f"(x)); r = __float_as_uint(f); }
    if (F == 1) { asm volatile("ex2.approx.f32 %0, %1;" : "=f"(f) : "f"(x)); r = __float_as_uint(f); }
    if (F == 2) asm volatile("ex2.approx.f16x2 %0, %1;" : "=r"(r) : "r"(u));
    if (F == 3) asm volatile("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r) : "r"(u));
    o[i] = r;
}

static uint32_t model(int f, uint32_t x)
{
    switch (f) {
    case 0: return sfu_ex2(x, true);
    case 1: return sfu_ex2(x, false);
    case 2: return (uint32_t)sfu_ex2_f16((uint16_t)x) | (uint32_t)sfu_ex2_f16((uint16_t)(x >> 16)) << 16;
    case 3: return (uint32_t)sfu_ex2_bf16((uint16_t)x) | (uint32_t)sfu_ex2_bf16((uint16_t)(x >> 16)) << 16;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const char *nm[] = {"ex2.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.f16x2 (all pairs)",
                               "ex2.approx.ftz.bf16x2 (all pairs)"};
    double limit = argc > 1 ? atof(argv[1]) : 100;
    const uint32_t CH = 1u << 28;
    uint32_t *d_o[2], *h[2];
    cudaStream_t st[2];
    for (int b = 0; b < 2; b++) {
        CK(cudaMalloc(&d_o[b], 4ull * CH));
        CK(cudaMallocHost(&h[b], 4ull * CH));
        CK(cudaStreamCreate(&st[b]));
    }
    double t0 = omp_get_wtime();
    for (int f = 0; f < 4; f++) {
        if (omp_get_wtime() - t0 > limit) { printf("%-40s skipped (time)\n", nm[f]); continue; }
        unsigned long long bad = 0;
        unsigned long long ex[512] = {0};
        uint32_t fx[32], fg[32], fm[32];
        int nf = 0;
        auto launch = [&](int c) {
            int b = c & 1;
            unsigned g = CH / 256;
            uint32_t base = (uint32_t)c * CH;
            switch (f) {
            case 0: k_f32<0><<<g, 256, 0, st[b]>>>(d_o[b], base); break;
            case 1: k_f32<1><<<g, 256, 0, st[b]>>>(d_o[b], base); break;
            case 2: k_f32<2><<<g, 256, 0, st[b]>>>(d_o[b], base); break;
            case 3: k_f32<3><<<g, 256, 0, st[b]>>>(d_o[b], base); break;
            }
            CK(cudaGetLastError());
            CK(cudaMemcpyAsync(h[b], d_o[b], 4ull * CH, cudaMemcpyDeviceToHost, st[b]));
        };
        launch(0);
        for (int c = 0; c < 16; c++) {
            if (c + 1 < 16) launch(c + 1);
            CK(cudaStreamSynchronize(st[c & 1]));
            uint32_t *hb = h[c & 1], base = (uint32_t)c * CH;
#pragma omp parallel for schedule(dynamic, 1 << 16) reduction(+ : bad)
            for (long i = 0; i < (long)CH; i++) {
                uint32_t x = base + (uint32_t)i, m = model(f, x);
                if (m != hb[i]) {
                    bad++;
#pragma omp atomic
                    ex[x >> 23]++;
#pragma omp critical
                    if (nf < 32) { fx[nf] = x; fg[nf] = hb[i]; fm[nf] = m; nf++; }
                }
            }
        }
        printf("%-40s %llu of 4294967296 differ  (%.1fs)\n", nm[f], bad, omp_get_wtime() - t0);
        for (int i = 0; i < nf; i++) printf("    x=%08x  H100 %08x  model %08x\n", fx[i], fg[i], fm[i]);
        if (bad) {
            printf("    by sign|exponent:");
            for (int e = 0; e < 512; e++) if (ex[e]) printf(" %03x:%llu", e, ex[e]);
            printf("\n");
        }
        fflush(stdout);
    }
    return 0;
}
