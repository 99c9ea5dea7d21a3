// wgmma numerics probe: m64n8kK, A from registers (the mma.sync-style A
// fragment of each warp, rows 16w..16w+15), B from shared memory through a
// no-swizzle K-major descriptor (core matrices of 8 rows x 16 bytes, the two
// K halves 128 bytes apart: LBO = SBO = 128, so either field reads them).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include "gen.h"
typedef unsigned long long u64;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
struct Combo { const char *name; int akind, ckind, K, esz; };
static const Combo combos[] = {
  {"wgmma_m64n8k16_f32_f16", 0, 5, 16, 2},
  {"wgmma_m64n8k16_f16_f16", 0, 0, 16, 2},
  {"wgmma_m64n8k16_f32_bf16", 1, 5, 16, 2},
  {"wgmma_m64n8k8_f32_tf32", 2, 5, 8, 4},
  {"wgmma_m64n8k32_f32_e4m3", 3, 5, 32, 1},
  {"wgmma_m64n8k32_f32_e5m2", 4, 5, 32, 1},
  {"wgmma_m64n8k32_f16_e4m3", 3, 0, 32, 1},
  {"wgmma_m64n8k32_s32_s8", 6, 9, 32, 1},
};
#define NC (int)(sizeof combos / sizeof combos[0])
__device__ unsigned p16(u64 lo, u64 hi) { return (unsigned)(lo & 0xffff) | ((unsigned)(hi & 0xffff) << 16); }
__device__ unsigned p8(u64 a, u64 b, u64 c, u64 d) { return (unsigned)(a & 0xff) | (unsigned)(b & 0xff) << 8 | (unsigned)(c & 0xff) << 16 | (unsigned)(d & 0xff) << 24; }

template <int C>
__global__ void kern(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = (C == 3) ? 8 : (C >= 4) ? 32 : 16, esz = (C == 3) ? 4 : (C >= 4) ? 1 : 2, epc = 16 / esz;
    __shared__ __align__(128) unsigned char sb[256];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * K, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
    u64 *d = D + (size_t)tile * 64 * 8;
    for (int i = tid; i < K * 8; i += 128) {
        int k = i / 8, n = i % 8, off = (k / epc) * 128 + n * 16 + (k % epc) * esz;
        u64 v = b[k * 8 + n];
        for (int e = 0; e < esz; e++) sb[off + e] = (unsigned char)(v >> (8 * e));
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);
    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);
    unsigned ar[4];
    int r0 = 16 * w + g;
#define AE(r, k) a[(r) * K + (k)]
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1);
        if (esz == 2) ar[i] = p16(AE(r, 2 * t + 8 * (i >> 1)), AE(r, 2 * t + 1 + 8 * (i >> 1)));
        else if (esz == 4) ar[i] = (unsigned)AE(r, t + 4 * (i >> 1));
        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = p8(AE(r, k0), AE(r, k0 + 1), AE(r, k0 + 2), AE(r, k0 + 3)); }
    }
    unsigned dr[4];
    if (C == 1 || C == 6) {
        for (int i = 0; i < 2; i++) dr[i] = p16(c[(r0 + 8 * i) * 8 + 2 * t], c[(r0 + 8 * i) * 8 + 2 * t + 1]);
    } else {
        for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    }
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#define ARGS4 "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc)
#define ARGS2 "+r"(dr[0]), "+r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc)
#define PRED "{ .reg .pred p; setp.ne.b32 p, 1, 0; "
    if (C == 0) asm volatile(PRED "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1, 0; }" : ARGS4);
    if (C == 1) asm volatile(PRED "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, %6, p, 1, 1, 0; }" : ARGS2);
    if (C == 2) asm volatile(PRED "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1, 0; }" : ARGS4);
    if (C == 3) asm volatile(PRED "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1; }" : ARGS4);
    if (C == 4) asm volatile(PRED "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1; }" : ARGS4);
    if (C == 5) asm volatile(PRED "wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e5m2 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1; }" : ARGS4);
    if (C == 6) asm volatile(PRED "wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e4m3 {%0,%1}, {%2,%3,%4,%5}, %6, p, 1, 1; }" : ARGS2);
    if (C == 7) asm volatile(PRED "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p; }" : ARGS4);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    if (C == 1 || C == 6) {
        for (int i = 0; i < 2; i++) { d[(r0 + 8 * i) * 8 + 2 * t] = dr[i] & 0xffff; d[(r0 + 8 * i) * 8 + 2 * t + 1] = dr[i] >> 16; }
    } else {
        for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
    }
}
typedef void (*KF)(const u64 *, const u64 *, const u64 *, u64 *);
static KF kfs[] = { kern<0>, kern<1>, kern<2>, kern<3>, kern<4>, kern<5>, kern<6>, kern<7> };
int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    int ntiles = 200;
    for (int c = 0; c < NC; c++) {
        const Combo &cb = combos[c];
        int cid = 100 + c; /* generator stream of this combination */
        size_t na = (size_t)ntiles * 64 * cb.K, nb = (size_t)ntiles * cb.K * 8, nc = (size_t)ntiles * 64 * 8;
        std::vector<u64> A(na), B(nb), Cm(nc), D(nc);
        for (int t = 0; t < ntiles; t++) {
            for (int i = 0; i < 64 * cb.K; i++) A[(size_t)t * 64 * cb.K + i] = tcg_elem(cb.akind, cid, t, 0, i);
            for (int i = 0; i < cb.K * 8; i++) B[(size_t)t * cb.K * 8 + i] = tcg_elem(cb.akind, cid, t, 1, i);
            for (int i = 0; i < 64 * 8; i++) {
                u64 v;
                if (cb.ckind == 9) { u64 r = tcg_rand(cid, t, 2, i); v = (u64)(uint32_t)(r >> 16); }
                else v = tcg_elem(cb.ckind, cid, t, 2, i);
                Cm[(size_t)t * 512 + i] = v;
            }
        }
        u64 *dA, *dB, *dC, *dD;
        CK(cudaMalloc(&dA, na * 8)); CK(cudaMalloc(&dB, nb * 8)); CK(cudaMalloc(&dC, nc * 8)); CK(cudaMalloc(&dD, nc * 8));
        CK(cudaMemcpy(dA, A.data(), na * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, B.data(), nb * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dC, Cm.data(), nc * 8, cudaMemcpyHostToDevice));
        CK(cudaMemset(dD, 0xA5, nc * 8));
        kfs[c]<<<ntiles, 128>>>(dA, dB, dC, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, nc * 8, cudaMemcpyDeviceToHost));
        char path[512]; snprintf(path, sizeof path, "%s/%s.d", dir, cb.name);
        FILE *f = fopen(path, "wb");
        for (size_t i = 0; i < nc; i++) { uint32_t w = (uint32_t)D[i]; fwrite(&w, 4, 1, f); }
        fclose(f);
        printf("%s: %d tiles, %zu outputs\n", cb.name, ntiles, nc);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }
    return 0;
}
