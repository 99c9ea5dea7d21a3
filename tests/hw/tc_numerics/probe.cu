// Tensor-core numerics probe: seeded inputs (gen.h), one warp per tile,
// fragments loaded by the PTX ISA's layouts, every D element written back.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cstring>
#include "gen.h"
typedef unsigned long long u64;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)

struct Combo { const char *name; int akind, ckind, M, N, K; };
static const Combo combos[] = {
  {"mma_m16n8k16_f32_f16", 0, 5, 16, 8, 16},
  {"mma_m16n8k16_f16_f16", 0, 0, 16, 8, 16},
  {"mma_m16n8k16_f32_bf16", 1, 5, 16, 8, 16},
  {"mma_m16n8k8_f32_tf32", 2, 5, 16, 8, 8},
  {"mma_m16n8k32_f32_e4m3", 3, 5, 16, 8, 32},
  {"mma_m16n8k32_f32_e5m2", 4, 5, 16, 8, 32},
  {"mma_m16n8k32_f16_e4m3", 3, 0, 16, 8, 32},
  {"mma_m16n8k32_s32_s8_sat", 6, 9, 16, 8, 32},
  {"mma_m8n8k4_f64", 7, 7, 8, 8, 4},
  {"mma_m16n8k8_f32_f16", 0, 5, 16, 8, 8},
  {"mma_m16n8k16_f32_bf16_b", 1, 5, 16, 8, 16},
};
#define NCOMBO (int)(sizeof combos / sizeof combos[0])

__device__ unsigned p16(u64 lo, u64 hi) { return (unsigned)(lo & 0xffff) | ((unsigned)(hi & 0xffff) << 16); }
__device__ unsigned p8(u64 a, u64 b, u64 c, u64 d) { return (unsigned)(a & 0xff) | (unsigned)(b & 0xff) << 8 | (unsigned)(c & 0xff) << 16 | (unsigned)(d & 0xff) << 24; }

template <int C>
__global__ void kern(const u64 *A, const u64 *B, const u64 *Cm, u64 *D, int ntiles)
{
    int tile = blockIdx.x;
    if (tile >= ntiles) return;
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    const int M = (C == 8) ? 8 : 16, N = 8;
    const int K = (C == 3 || C == 9) ? 8 : (C >= 4 && C <= 7) ? 32 : (C == 8) ? 4 : 16;
    const u64 *a = A + (size_t)tile * M * K, *b = B + (size_t)tile * K * N, *c = Cm + (size_t)tile * M * N;
    u64 *d = D + (size_t)tile * M * N;
#define AE(r, k) a[(r) * K + (k)]
#define BE(k, n) b[(k) * N + (n)]
#define CE(r, n) c[(r) * N + (n)]
#define DE(r, n) d[(r) * N + (n)]
    if (C == 0 || C == 2 || C == 10) {
        unsigned ar[4], br[2]; float cr[4], dr[4];
        for (int i = 0; i < 4; i++) ar[i] = p16(AE(g + 8 * (i & 1), 2 * t + 8 * (i >> 1)), AE(g + 8 * (i & 1), 2 * t + 1 + 8 * (i >> 1)));
        for (int i = 0; i < 2; i++) br[i] = p16(BE(2 * t + 8 * i, g), BE(2 * t + 1 + 8 * i, g));
        for (int i = 0; i < 4; i++) { unsigned w = (unsigned)CE(g + 8 * (i >> 1), 2 * t + (i & 1)); cr[i] = __uint_as_float(w); }
        if (C == 0)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%10,%11,%12,%13};"
                : "=f"(dr[0]), "=f"(dr[1]), "=f"(dr[2]), "=f"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "f"(cr[0]), "f"(cr[1]), "f"(cr[2]), "f"(cr[3]));
        else
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%10,%11,%12,%13};"
                : "=f"(dr[0]), "=f"(dr[1]), "=f"(dr[2]), "=f"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "f"(cr[0]), "f"(cr[1]), "f"(cr[2]), "f"(cr[3]));
        for (int i = 0; i < 4; i++) DE(g + 8 * (i >> 1), 2 * t + (i & 1)) = __float_as_uint(dr[i]);
    } else if (C == 1) {
        unsigned ar[4], br[2], cr[2], dr[2];
        for (int i = 0; i < 4; i++) ar[i] = p16(AE(g + 8 * (i & 1), 2 * t + 8 * (i >> 1)), AE(g + 8 * (i & 1), 2 * t + 1 + 8 * (i >> 1)));
        for (int i = 0; i < 2; i++) br[i] = p16(BE(2 * t + 8 * i, g), BE(2 * t + 1 + 8 * i, g));
        for (int i = 0; i < 2; i++) cr[i] = p16(CE(g + 8 * i, 2 * t), CE(g + 8 * i, 2 * t + 1));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1},{%2,%3,%4,%5},{%6,%7},{%8,%9};"
            : "=r"(dr[0]), "=r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "r"(cr[0]), "r"(cr[1]));
        for (int i = 0; i < 2; i++) { DE(g + 8 * i, 2 * t) = dr[i] & 0xffff; DE(g + 8 * i, 2 * t + 1) = dr[i] >> 16; }
    } else if (C == 3) {
        unsigned ar[4], br[2]; float cr[4], dr[4];
        for (int i = 0; i < 4; i++) ar[i] = (unsigned)AE(g + 8 * (i & 1), t + 4 * (i >> 1));
        for (int i = 0; i < 2; i++) br[i] = (unsigned)BE(t + 4 * i, g);
        for (int i = 0; i < 4; i++) cr[i] = __uint_as_float((unsigned)CE(g + 8 * (i >> 1), 2 * t + (i & 1)));
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%10,%11,%12,%13};"
            : "=f"(dr[0]), "=f"(dr[1]), "=f"(dr[2]), "=f"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "f"(cr[0]), "f"(cr[1]), "f"(cr[2]), "f"(cr[3]));
        for (int i = 0; i < 4; i++) DE(g + 8 * (i >> 1), 2 * t + (i & 1)) = __float_as_uint(dr[i]);
    } else if (C >= 4 && C <= 7) {
        unsigned ar[4], br[2];
        for (int i = 0; i < 4; i++) { int r = g + 8 * (i & 1), k0 = 4 * t + 16 * (i >> 1); ar[i] = p8(AE(r, k0), AE(r, k0 + 1), AE(r, k0 + 2), AE(r, k0 + 3)); }
        for (int i = 0; i < 2; i++) { int k0 = 4 * t + 16 * i; br[i] = p8(BE(k0, g), BE(k0 + 1, g), BE(k0 + 2, g), BE(k0 + 3, g)); }
        if (C == 6) {
            unsigned cr[2], dr[2];
            for (int i = 0; i < 2; i++) cr[i] = p16(CE(g + 8 * i, 2 * t), CE(g + 8 * i, 2 * t + 1));
            asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%0,%1},{%2,%3,%4,%5},{%6,%7},{%8,%9};"
                : "=r"(dr[0]), "=r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "r"(cr[0]), "r"(cr[1]));
            for (int i = 0; i < 2; i++) { DE(g + 8 * i, 2 * t) = dr[i] & 0xffff; DE(g + 8 * i, 2 * t + 1) = dr[i] >> 16; }
        } else {
            unsigned cr[4], dr[4];
            for (int i = 0; i < 4; i++) cr[i] = (unsigned)CE(g + 8 * (i >> 1), 2 * t + (i & 1));
            if (C == 4)
                asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%10,%11,%12,%13};"
                    : "=r"(dr[0]), "=r"(dr[1]), "=r"(dr[2]), "=r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "r"(cr[0]), "r"(cr[1]), "r"(cr[2]), "r"(cr[3]));
            else if (C == 5)
                asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%10,%11,%12,%13};"
                    : "=r"(dr[0]), "=r"(dr[1]), "=r"(dr[2]), "=r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "r"(cr[0]), "r"(cr[1]), "r"(cr[2]), "r"(cr[3]));
            else
                asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%10,%11,%12,%13};"
                    : "=r"(dr[0]), "=r"(dr[1]), "=r"(dr[2]), "=r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "r"(cr[0]), "r"(cr[1]), "r"(cr[2]), "r"(cr[3]));
            for (int i = 0; i < 4; i++) DE(g + 8 * (i >> 1), 2 * t + (i & 1)) = dr[i];
        }
    } else if (C == 8) {
        double ar = __longlong_as_double(AE(g, t)), br = __longlong_as_double(BE(t, g));
        double c0 = __longlong_as_double(CE(g, 2 * t)), c1 = __longlong_as_double(CE(g, 2 * t + 1)), d0, d1;
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1},{%2},{%3},{%4,%5};"
            : "=d"(d0), "=d"(d1) : "d"(ar), "d"(br), "d"(c0), "d"(c1));
        DE(g, 2 * t) = __double_as_longlong(d0); DE(g, 2 * t + 1) = __double_as_longlong(d1);
    } else if (C == 9) {
        unsigned ar[2], br; float cr[4], dr[4];
        for (int i = 0; i < 2; i++) ar[i] = p16(AE(g + 8 * i, 2 * t), AE(g + 8 * i, 2 * t + 1));
        br = p16(BE(2 * t, g), BE(2 * t + 1, g));
        for (int i = 0; i < 4; i++) cr[i] = __uint_as_float((unsigned)CE(g + 8 * (i >> 1), 2 * t + (i & 1)));
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3},{%4,%5},{%6},{%7,%8,%9,%10};"
            : "=f"(dr[0]), "=f"(dr[1]), "=f"(dr[2]), "=f"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(br), "f"(cr[0]), "f"(cr[1]), "f"(cr[2]), "f"(cr[3]));
        for (int i = 0; i < 4; i++) DE(g + 8 * (i >> 1), 2 * t + (i & 1)) = __float_as_uint(dr[i]);
    }
}

typedef void (*KF)(const u64 *, const u64 *, const u64 *, u64 *, int);
static KF kfs[] = { kern<0>, kern<1>, kern<2>, kern<3>, kern<4>, kern<5>, kern<6>, kern<7>, kern<8>, kern<9>, kern<10> };

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    int outputs = argc > 2 ? atoi(argv[2]) : 102400;
    for (int c = 0; c < NCOMBO; c++) {
        const Combo &cb = combos[c];
        int ntiles = (outputs + cb.M * cb.N - 1) / (cb.M * cb.N);
        size_t na = (size_t)ntiles * cb.M * cb.K, nb = (size_t)ntiles * cb.K * cb.N, nc = (size_t)ntiles * cb.M * cb.N;
        std::vector<u64> A(na), B(nb), Cm(nc), D(nc);
        int bkind = cb.akind;
        for (int t = 0; t < ntiles; t++) {
            for (int i = 0; i < cb.M * cb.K; i++) A[(size_t)t * cb.M * cb.K + i] = tcg_elem(cb.akind, c, t, 0, i);
            for (int i = 0; i < cb.K * cb.N; i++) B[(size_t)t * cb.K * cb.N + i] = tcg_elem(bkind, c, t, 1, i);
            for (int i = 0; i < cb.M * cb.N; i++) {
                u64 v;
                if (cb.ckind == 9) { u64 r = tcg_rand(c, t, 2, i); v = (r & 3) == 0 ? (u64)(uint32_t)(0x7fffff00u + (uint32_t)((r >> 8) & 0x1ff)) : (r & 3) == 1 ? (u64)(uint32_t)(0x80000000u + (uint32_t)((r >> 8) & 0x1ff)) : (u64)(uint32_t)(r >> 16); }
                else v = tcg_elem(cb.ckind, c, t, 2, i);
                Cm[(size_t)t * cb.M * cb.N + i] = v;
            }
        }
        u64 *dA, *dB, *dC, *dD;
        CK(cudaMalloc(&dA, na * 8)); CK(cudaMalloc(&dB, nb * 8)); CK(cudaMalloc(&dC, nc * 8)); CK(cudaMalloc(&dD, nc * 8));
        CK(cudaMemcpy(dA, A.data(), na * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, B.data(), nb * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dC, Cm.data(), nc * 8, cudaMemcpyHostToDevice));
        CK(cudaMemset(dD, 0xA5, nc * 8));
        kfs[c]<<<ntiles, 32>>>(dA, dB, dC, dD, ntiles);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, nc * 8, cudaMemcpyDeviceToHost));
        char path[512];
        snprintf(path, sizeof path, "%s/%s.d", dir, cb.name);
        FILE *f = fopen(path, "wb");
        int wide = cb.ckind == 7;
        for (size_t i = 0; i < nc; i++) { if (wide) fwrite(&D[i], 8, 1, f); else { uint32_t w = (uint32_t)D[i]; fwrite(&w, 4, 1, f); } }
        fclose(f);
        printf("%s: %d tiles, %zu outputs\n", cb.name, ntiles, nc);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }
    return 0;
}
