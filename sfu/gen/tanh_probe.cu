// tanh_probe.cu — every f32 input of tanh.approx.f32 on an H100, the data
// sfu/gen/tanh_fit.c derives sfu/tanh_tab.c from:
//
//   nvcc -O2 -arch=sm_90a -Xcompiler -fopenmp -o tanh_probe tanh_probe.cu -lgomp
//   ./tanh_probe OUTDIR && xz OUTDIR/*.d2      (2 s on an H100 and 16 cores)
//
// - outside the core [2^-8, 8) (both signs): compared against the known
//   rule (|x| <= 2^-8: x, |x| >= 8: +-1, NaN: 0x7fffffff); counts, examples
// - negative core against the negated positive core (oddness)
// - positive core: per binade the largest aligned group G over which the
//   output is constant, then y at step G as second differences (planes)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <omp.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void k(uint32_t *o, uint32_t base)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x, u = base + i;
    float x = __uint_as_float(u), r;
    asm volatile("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    o[i] = __float_as_uint(r);
}
static uint32_t rule(uint32_t x)
{
    uint32_t a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return 0x7fffffffu;
    if (a <= 0x3b800000u) return x;
    if (a >= 0x41000000u) return (x & 0x80000000u) | 0x3f800000u;
    return 0;
}
int main(int argc, char **argv)
{
    const char *dir = argv[1];
    const uint32_t LO = 0x3b800000u, HI = 0x41000000u, N = HI - LO;
    uint32_t *core = (uint32_t *)malloc(4ull * N);
    const uint32_t CH = 1u << 28;
    uint32_t *d_o[2], *h[2];
    cudaStream_t st[2];
    for (int b = 0; b < 2; b++) { CK(cudaMalloc(&d_o[b], 4ull * CH)); CK(cudaMallocHost(&h[b], 4ull * CH)); CK(cudaStreamCreate(&st[b])); }
    unsigned long long badrule = 0, badodd = 0, exr[512] = {0};
    uint32_t fx[40], fg[40]; int nf = 0;
    uint32_t ox[20], og[20], op[20]; int no = 0;
    double t0 = omp_get_wtime();
    auto launch = [&](int c) { int b = c & 1; k<<<CH / 256, 256, 0, st[b]>>>(d_o[b], (uint32_t)c * CH);
        CK(cudaMemcpyAsync(h[b], d_o[b], 4ull * CH, cudaMemcpyDeviceToHost, st[b])); };
    launch(0);
    for (int c = 0; c < 16; c++) {
        if (c + 1 < 16) launch(c + 1);
        CK(cudaStreamSynchronize(st[c & 1]));
        uint32_t *hb = h[c & 1], base = (uint32_t)c * CH;
#pragma omp parallel for schedule(dynamic, 1 << 16) reduction(+ : badrule, badodd)
        for (long i = 0; i < (long)CH; i++) {
            uint32_t x = base + (uint32_t)i, a = x & 0x7fffffffu, y = hb[i];
            if (a >= LO && a < HI) {
                if (!(x >> 31)) core[a - LO] = y;
                else if (y != (core[a - LO] ^ 0x80000000u)) {
                    badodd++;
#pragma omp critical
                    if (no < 20) { ox[no] = x; og[no] = y; op[no] = core[a - LO]; no++; }
                }
                continue;
            }
            if (y != rule(x)) {
                badrule++;
#pragma omp atomic
                exr[x >> 23]++;
#pragma omp critical
                if (nf < 40) { fx[nf] = x; fg[nf] = y; nf++; }
            }
        }
    }
    printf("evaluated 2^32 in %.1fs\n", omp_get_wtime() - t0);
    printf("outside core: %llu differ from rule\n", badrule);
    for (int i = 0; i < nf; i++) printf("  x=%08x H100 %08x rule %08x\n", fx[i], fg[i], rule(fx[i]));
    for (int e = 0; e < 512; e++) if (exr[e]) printf("  se %03x: %llu\n", e, exr[e]);
    printf("negative core: %llu not the negated positive\n", badodd);
    for (int i = 0; i < no; i++) printf("  x=%08x H100 %08x  +x gives %08x\n", ox[i], og[i], op[i]);
    // per binade constancy
    char path[512];
    snprintf(path, sizeof path, "%s/index.txt", dir);
    FILE *ix = fopen(path, "w");
    for (int b = 0; b < 11; b++) {
        uint32_t *y = core + ((uint32_t)b << 23);
        int G = 0;
        for (int g = 1; g <= 23; g++) {
            uint32_t m = (1u << g) - 1; long bad = 0;
#pragma omp parallel for reduction(+ : bad)
            for (long i = 0; i < (1l << 23); i++) if (y[i] != y[i & ~(long)m]) bad++;
            if (bad) break;
            G = g;
        }
        // count inputs that differ from their aligned group of 2^(G+1): how far from constancy
        uint32_t n = 1u << (23 - G);
        std::vector<uint32_t> d2(n);
        uint32_t p1 = 0, p0 = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v = y[i << G];
            uint32_t d1 = v - p0;
            d2[i] = d1 - p1;
            p1 = d1; p0 = v;
        }
        snprintf(path, sizeof path, "%s/b%02d.d2", dir, b);
        FILE *f = fopen(path, "wb");
        for (int pl = 0; pl < 4; pl++) for (uint32_t i = 0; i < n; i++) fputc((d2[i] >> (8 * pl)) & 255, f);
        fclose(f);
        uint64_t hsh = 1469598103934665603ull;
        for (uint32_t i = 0; i < n; i++) for (int q = 0; q < 4; q++) hsh = (hsh ^ ((y[i << G] >> (8 * q)) & 255)) * 1099511628211ull;
        fprintf(ix, "b%02d lo=%08x G=%d n=%u fnv=%016llx first=%08x last=%08x\n", b, LO + ((uint32_t)b << 23), G, n,
                (unsigned long long)hsh, y[0], y[(1u << 23) - 1]);
        printf("binade %d (x from %08x): constant over aligned groups of 2^%d\n", b, LO + ((uint32_t)b << 23), G);
        fflush(stdout);
    }
    fclose(ix);
    printf("done %.1fs\n", omp_get_wtime() - t0);
    return 0;
}
