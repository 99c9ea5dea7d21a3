// probe3.cu: written by gen_probe3.py (do not edit by hand).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;
#include "gen.h"
typedef unsigned long long u64;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{ const unsigned char *s = (const unsigned char *)p; for (size_t i = 0; i < n; i++) { h ^= s[i]; h *= 0x100000001b3ull; } return h; }
/* <name>.bin: u32 units, u32 units kept whole, those units, a hash per 1024 units;
 * <name>.d: the first RAWN units raw (for fitting a model when a block differs) */
#define RAWN 16384
static void save(const char *dir, const char *name, const std::vector<u64> &D, int w)
{
    char path[512]; size_t n = D.size(), whole = n < 2048 ? n : 2048;
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    FILE *f = fopen(path, "wb"); uint32_t hdr[2] = { (uint32_t)n, (uint32_t)whole };
    fwrite(hdr, 4, 2, f);
    for (size_t i = 0; i < whole; i++) fwrite(&D[i], w, 1, f);
    for (size_t b = 0; b < (n + 1023) / 1024; b++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t i = b * 1024; i < n && i < (b + 1) * 1024; i++) h = fnv1a(h, &D[i], w);
        fwrite(&h, 8, 1, f);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.d", dir, name);
    f = fopen(path, "wb");
    const char *all = getenv("TCN_RAWALL"); /* names whose every unit is kept raw */
    size_t rawn = all && strstr(all, name) ? n : RAWN;
    for (size_t i = 0; i < n && i < rawn; i++) fwrite(&D[i], w, 1, f);
    fclose(f);
    printf("%s: %zu units\n", name, n);
}
__global__ void r0(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r1(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r2(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[2], d[2];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 2; i++) c[i] = (unsigned)C[base * 2 + i];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[base * 2 + i] = d[i];
}
__global__ void r3(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[2], d[2];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 2; i++) c[i] = (unsigned)C[base * 2 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[base * 2 + i] = d[i];
}
__global__ void r4(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r5(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[2], d[2];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 2; i++) c[i] = (unsigned)C[base * 2 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[base * 2 + i] = d[i];
}
__global__ void r6(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r7(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r8(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r9(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r10(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r11(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r12(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r13(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r14(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k128.row.col.and.popc.s32.b1.b1.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r15(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k256.row.col.xor.popc.s32.b1.b1.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r16(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 1; i++) b[i] = (unsigned)B[base * 1 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k128.row.col.xor.popc.s32.b1.b1.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r17(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    double a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = __longlong_as_double((long long)A[base * 2 + i]);
    for (int i = 0; i < 1; i++) b[i] = __longlong_as_double((long long)B[base * 1 + i]);
    for (int i = 0; i < 4; i++) c[i] = __longlong_as_double((long long)C[base * 4 + i]);
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = (u64)__double_as_longlong(d[i]);
}
__global__ void r18(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    double a[4], b[2], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = __longlong_as_double((long long)A[base * 4 + i]);
    for (int i = 0; i < 2; i++) b[i] = __longlong_as_double((long long)B[base * 2 + i]);
    for (int i = 0; i < 4; i++) c[i] = __longlong_as_double((long long)C[base * 4 + i]);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = (u64)__double_as_longlong(d[i]);
}
__global__ void r19(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    double a[8], b[4], c[4], d[4];
    for (int i = 0; i < 8; i++) a[i] = __longlong_as_double((long long)A[base * 8 + i]);
    for (int i = 0; i < 4; i++) b[i] = __longlong_as_double((long long)B[base * 4 + i]);
    for (int i = 0; i < 4; i++) c[i] = __longlong_as_double((long long)C[base * 4 + i]);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19};" : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = (u64)__double_as_longlong(d[i]);
}
__global__ void r20(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[2], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r21(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r22(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[2], d[2];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 2; i++) c[i] = (unsigned)C[base * 2 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%10,%11}, %12, 0x0;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(0x44444444u));
    for (int i = 0; i < 2; i++) D[base * 2 + i] = d[i];
}
__global__ void r23(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r24(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[2], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r25(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r26(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r27(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r28(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[2], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r29(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r30(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[2], b[2], c[4], d[4];
    for (int i = 0; i < 2; i++) a[i] = (unsigned)A[base * 2 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r31(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.u4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r32(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r33(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[2], c[2], d[2];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 2; i++) b[i] = (unsigned)B[base * 2 + i];
    for (int i = 0; i < 2; i++) c[i] = (unsigned)C[base * 2 + i];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[base * 2 + i] = d[i];
}
__global__ void r34(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void r35(const u64 *A, const u64 *B, const u64 *C, u64 *D)
{
    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;
    unsigned a[4], b[4], c[4], d[4];
    for (int i = 0; i < 4; i++) a[i] = (unsigned)A[base * 4 + i];
    for (int i = 0; i < 4; i++) b[i] = (unsigned)B[base * 4 + i];
    for (int i = 0; i < 4; i++) c[i] = (unsigned)C[base * 4 + i];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(0x44444444u));
    for (int i = 0; i < 4; i++) D[base * 4 + i] = d[i];
}
__global__ void w0(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, (const half *)A + t * 256, 16);
    wmma::load_matrix_sync(fb, (const half *)B + t * 256, 16);
    wmma::load_matrix_sync(fc, (const float *)C + t * 256, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((float *)D + t * 256, fc, 16, wmma::mem_row_major);
}
__global__ void w1(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
    wmma::load_matrix_sync(fa, (const half *)A + t * 512, 16);
    wmma::load_matrix_sync(fb, (const half *)B + t * 128, 16);
    wmma::load_matrix_sync(fc, (const float *)C + t * 256, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((float *)D + t * 256, fc, 8, wmma::mem_row_major);
}
__global__ void w2(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, half> fc;
    wmma::load_matrix_sync(fa, (const half *)A + t * 128, 16);
    wmma::load_matrix_sync(fb, (const half *)B + t * 512, 16);
    wmma::load_matrix_sync(fc, (const half *)C + t * 256, 32, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((half *)D + t * 256, fc, 32, wmma::mem_row_major);
}
__global__ void w3(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> fc;
    wmma::load_matrix_sync(fa, (const half *)A + t * 256, 16);
    wmma::load_matrix_sync(fb, (const half *)B + t * 256, 16);
    wmma::load_matrix_sync(fc, (const half *)C + t * 256, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((half *)D + t * 256, fc, 16, wmma::mem_row_major);
}
__global__ void w4(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, (const __nv_bfloat16 *)A + t * 256, 16);
    wmma::load_matrix_sync(fb, (const __nv_bfloat16 *)B + t * 256, 16);
    wmma::load_matrix_sync(fc, (const float *)C + t * 256, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((float *)D + t * 256, fc, 16, wmma::mem_row_major);
}
__global__ void w5(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
    wmma::load_matrix_sync(fa, (const __nv_bfloat16 *)A + t * 512, 16);
    wmma::load_matrix_sync(fb, (const __nv_bfloat16 *)B + t * 128, 16);
    wmma::load_matrix_sync(fc, (const float *)C + t * 256, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((float *)D + t * 256, fc, 8, wmma::mem_row_major);
}
__global__ void w6(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fa, (const float *)A + t * 128, 8);
    wmma::load_matrix_sync(fb, (const float *)B + t * 128, 8);
    wmma::load_matrix_sync(fc, (const float *)C + t * 256, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((float *)D + t * 256, fc, 16, wmma::mem_row_major);
}
__global__ void w7(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fa, (const double *)A + t * 32, 4);
    wmma::load_matrix_sync(fb, (const double *)B + t * 32, 4);
    wmma::load_matrix_sync(fc, (const double *)C + t * 64, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((double *)D + t * 64, fc, 8, wmma::mem_row_major);
}
__global__ void w8(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::load_matrix_sync(fa, (const signed char *)A + t * 256, 16);
    wmma::load_matrix_sync(fb, (const signed char *)B + t * 256, 16);
    wmma::load_matrix_sync(fc, (const int *)C + t * 256, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((int *)D + t * 256, fc, 16, wmma::mem_row_major);
}
__global__ void w9(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 8, 32, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, unsigned char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, int> fc;
    wmma::load_matrix_sync(fa, (const unsigned char *)A + t * 128, 16);
    wmma::load_matrix_sync(fb, (const unsigned char *)B + t * 512, 16);
    wmma::load_matrix_sync(fc, (const int *)C + t * 256, 32, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((int *)D + t * 256, fc, 32, wmma::mem_row_major);
}
__global__ void w10(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::u4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::u4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fa, (const char *)A + t * 128, 32);
    wmma::load_matrix_sync(fb, (const char *)B + t * 128, 32);
    wmma::load_matrix_sync(fc, (const int *)C + t * 64, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((int *)D + t * 64, fc, 8, wmma::mem_row_major);
}
__global__ void w11(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fa, (const char *)A + t * 128, 32);
    wmma::load_matrix_sync(fb, (const char *)B + t * 128, 32);
    wmma::load_matrix_sync(fc, (const int *)C + t * 64, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((int *)D + t * 64, fc, 8, wmma::mem_row_major);
}
__global__ void w12(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::load_matrix_sync(fa, (const char *)A + t * 128, 128);
    wmma::load_matrix_sync(fb, (const char *)B + t * 128, 128);
    wmma::load_matrix_sync(fc, (const int *)C + t * 64, 8, wmma::mem_row_major);
    wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpXOR);
    wmma::store_matrix_sync((int *)D + t * 64, fc, 8, wmma::mem_row_major);
}
__global__ void w13(const void *A, const void *B, const void *C, void *D)
{
    size_t t = blockIdx.x;
    wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::load_matrix_sync(fa, (const char *)A + t * 128, 128);
    wmma::load_matrix_sync(fb, (const char *)B + t * 128, 128);
    wmma::load_matrix_sync(fc, (const int *)C + t * 64, 8, wmma::mem_row_major);
    wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpAND);
    wmma::store_matrix_sync((int *)D + t * 64, fc, 8, wmma::mem_row_major);
}
__global__ void g0(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32;
    __shared__ __align__(128) unsigned char sb[256];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * K, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
    u64 *d = D + (size_t)tile * 64 * 8;
    for (int i = tid; i < K * 8; i += 128) {
        int k = i / 8, n = i % 8, off = (k / 16) * 128 + n * 16 + (k % 16);
        sb[off] = (unsigned char)b[k * 8 + n];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);
    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);
    unsigned ar[4], dr[4];
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1), k0 = 4 * t + 16 * (i >> 1);
        ar[i] = 0;
        for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * K + k0 + e] & 0xff) << (8 * e);
    }
    for (int i = 0; i < 2; i++) dr[i] = (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t] & 0xffff) | (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t + 1] & 0xffff) << 16;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32.f16.e5m2.e5m2 {%0,%1}, {%2,%3,%4,%5}, %6, p, 1, 1; }" : "+r"(dr[0]), "+r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 2; i++) { d[(r0 + 8 * i) * 8 + 2 * t] = dr[i] & 0xffff; d[(r0 + 8 * i) * 8 + 2 * t + 1] = dr[i] >> 16; }
}
__global__ void g1(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32;
    __shared__ __align__(128) unsigned char sb[256];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * K, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
    u64 *d = D + (size_t)tile * 64 * 8;
    for (int i = tid; i < K * 8; i += 128) {
        int k = i / 8, n = i % 8, off = (k / 16) * 128 + n * 16 + (k % 16);
        sb[off] = (unsigned char)b[k * 8 + n];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);
    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);
    unsigned ar[4], dr[4];
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1), k0 = 4 * t + 16 * (i >> 1);
        ar[i] = 0;
        for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * K + k0 + e] & 0xff) << (8 * e);
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
__global__ void g2(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32;
    __shared__ __align__(128) unsigned char sb[256];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * K, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
    u64 *d = D + (size_t)tile * 64 * 8;
    for (int i = tid; i < K * 8; i += 128) {
        int k = i / 8, n = i % 8, off = (k / 16) * 128 + n * 16 + (k % 16);
        sb[off] = (unsigned char)b[k * 8 + n];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);
    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);
    unsigned ar[4], dr[4];
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1), k0 = 4 * t + 16 * (i >> 1);
        ar[i] = 0;
        for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * K + k0 + e] & 0xff) << (8 * e);
    }
    for (int i = 0; i < 2; i++) dr[i] = (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t] & 0xffff) | (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t + 1] & 0xffff) << 16;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32.f16.e5m2.e4m3 {%0,%1}, {%2,%3,%4,%5}, %6, p, 1, 1; }" : "+r"(dr[0]), "+r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 2; i++) { d[(r0 + 8 * i) * 8 + 2 * t] = dr[i] & 0xffff; d[(r0 + 8 * i) * 8 + 2 * t + 1] = dr[i] >> 16; }
}
__global__ void g3(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32;
    __shared__ __align__(128) unsigned char sb[256];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * K, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
    u64 *d = D + (size_t)tile * 64 * 8;
    for (int i = tid; i < K * 8; i += 128) {
        int k = i / 8, n = i % 8, off = (k / 16) * 128 + n * 16 + (k % 16);
        sb[off] = (unsigned char)b[k * 8 + n];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);
    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);
    unsigned ar[4], dr[4];
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1), k0 = 4 * t + 16 * (i >> 1);
        ar[i] = 0;
        for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * K + k0 + e] & 0xff) << (8 * e);
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32.s32.u8.s8 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
__global__ void g4(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32;
    __shared__ __align__(128) unsigned char sb[256];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * K, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
    u64 *d = D + (size_t)tile * 64 * 8;
    for (int i = tid; i < K * 8; i += 128) {
        int k = i / 8, n = i % 8, off = (k / 16) * 128 + n * 16 + (k % 16);
        sb[off] = (unsigned char)b[k * 8 + n];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);
    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);
    unsigned ar[4], dr[4];
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1), k0 = 4 * t + 16 * (i >> 1);
        ar[i] = 0;
        for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * K + k0 + e] & 0xff) << (8 * e);
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.u8.u8 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
__global__ void g5(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32;
    __shared__ __align__(128) unsigned char sb[256];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * K, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
    u64 *d = D + (size_t)tile * 64 * 8;
    for (int i = tid; i < K * 8; i += 128) {
        int k = i / 8, n = i % 8, off = (k / 16) * 128 + n * 16 + (k % 16);
        sb[off] = (unsigned char)b[k * 8 + n];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);
    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);
    unsigned ar[4], dr[4];
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1), k0 = 4 * t + 16 * (i >> 1);
        ar[i] = 0;
        for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * K + k0 + e] & 0xff) << (8 * e);
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.s8.u8 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
__global__ void s0(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32, KC = 16, esz = 2, epc = 16 / esz;
    __shared__ __align__(128) unsigned char sb[1024];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * KC, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
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
    unsigned ar[4], dr[4], meta = 0x44444444u;
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1);
        if (esz == 2) ar[i] = (unsigned)(a[r * KC + 2 * t + 8 * (i >> 1)] & 0xffff) | (unsigned)(a[r * KC + 2 * t + 1 + 8 * (i >> 1)] & 0xffff) << 16;
        else if (esz == 4) ar[i] = (unsigned)a[r * KC + t + 4 * (i >> 1)];
        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = 0; for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * KC + k0 + e] & 0xff) << (8 * e); }
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, %9, 0, p, 1, 1, 0; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
__global__ void s1(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32, KC = 16, esz = 2, epc = 16 / esz;
    __shared__ __align__(128) unsigned char sb[1024];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * KC, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
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
    unsigned ar[4], dr[4], meta = 0x44444444u;
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1);
        if (esz == 2) ar[i] = (unsigned)(a[r * KC + 2 * t + 8 * (i >> 1)] & 0xffff) | (unsigned)(a[r * KC + 2 * t + 1 + 8 * (i >> 1)] & 0xffff) << 16;
        else if (esz == 4) ar[i] = (unsigned)a[r * KC + t + 4 * (i >> 1)];
        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = 0; for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * KC + k0 + e] & 0xff) << (8 * e); }
    }
    for (int i = 0; i < 2; i++) dr[i] = (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t] & 0xffff) | (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t + 1] & 0xffff) << 16;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k32.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, %6, %7, 0, p, 1, 1, 0; }" : "+r"(dr[0]), "+r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 2; i++) { d[(r0 + 8 * i) * 8 + 2 * t] = dr[i] & 0xffff; d[(r0 + 8 * i) * 8 + 2 * t + 1] = dr[i] >> 16; }
}
__global__ void s2(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 32, KC = 16, esz = 2, epc = 16 / esz;
    __shared__ __align__(128) unsigned char sb[1024];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * KC, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
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
    unsigned ar[4], dr[4], meta = 0x44444444u;
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1);
        if (esz == 2) ar[i] = (unsigned)(a[r * KC + 2 * t + 8 * (i >> 1)] & 0xffff) | (unsigned)(a[r * KC + 2 * t + 1 + 8 * (i >> 1)] & 0xffff) << 16;
        else if (esz == 4) ar[i] = (unsigned)a[r * KC + t + 4 * (i >> 1)];
        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = 0; for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * KC + k0 + e] & 0xff) << (8 * e); }
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.bf16.bf16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, %9, 0, p, 1, 1, 0; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
__global__ void s3(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 16, KC = 8, esz = 4, epc = 16 / esz;
    __shared__ __align__(128) unsigned char sb[1024];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * KC, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
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
    unsigned ar[4], dr[4], meta = 0x44444444u;
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1);
        if (esz == 2) ar[i] = (unsigned)(a[r * KC + 2 * t + 8 * (i >> 1)] & 0xffff) | (unsigned)(a[r * KC + 2 * t + 1 + 8 * (i >> 1)] & 0xffff) << 16;
        else if (esz == 4) ar[i] = (unsigned)a[r * KC + t + 4 * (i >> 1)];
        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = 0; for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * KC + k0 + e] & 0xff) << (8 * e); }
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, %9, 0, p, 1, 1; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
__global__ void s4(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 64, KC = 32, esz = 1, epc = 16 / esz;
    __shared__ __align__(128) unsigned char sb[1024];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * KC, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
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
    unsigned ar[4], dr[4], meta = 0x44444444u;
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1);
        if (esz == 2) ar[i] = (unsigned)(a[r * KC + 2 * t + 8 * (i >> 1)] & 0xffff) | (unsigned)(a[r * KC + 2 * t + 1 + 8 * (i >> 1)] & 0xffff) << 16;
        else if (esz == 4) ar[i] = (unsigned)a[r * KC + t + 4 * (i >> 1)];
        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = 0; for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * KC + k0 + e] & 0xff) << (8 * e); }
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k64.f32.e4m3.e4m3 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, %9, 0, p, 1, 1; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
__global__ void s5(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 64, KC = 32, esz = 1, epc = 16 / esz;
    __shared__ __align__(128) unsigned char sb[1024];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * KC, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
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
    unsigned ar[4], dr[4], meta = 0x44444444u;
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1);
        if (esz == 2) ar[i] = (unsigned)(a[r * KC + 2 * t + 8 * (i >> 1)] & 0xffff) | (unsigned)(a[r * KC + 2 * t + 1 + 8 * (i >> 1)] & 0xffff) << 16;
        else if (esz == 4) ar[i] = (unsigned)a[r * KC + t + 4 * (i >> 1)];
        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = 0; for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * KC + k0 + e] & 0xff) << (8 * e); }
    }
    for (int i = 0; i < 2; i++) dr[i] = (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t] & 0xffff) | (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t + 1] & 0xffff) << 16;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k64.f16.e5m2.e5m2 {%0,%1}, {%2,%3,%4,%5}, %6, %7, 0, p, 1, 1; }" : "+r"(dr[0]), "+r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 2; i++) { d[(r0 + 8 * i) * 8 + 2 * t] = dr[i] & 0xffff; d[(r0 + 8 * i) * 8 + 2 * t + 1] = dr[i] >> 16; }
}
__global__ void s6(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)
{
    const int K = 64, KC = 32, esz = 1, epc = 16 / esz;
    __shared__ __align__(128) unsigned char sb[1024];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * KC, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
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
    unsigned ar[4], dr[4], meta = 0x44444444u;
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1);
        if (esz == 2) ar[i] = (unsigned)(a[r * KC + 2 * t + 8 * (i >> 1)] & 0xffff) | (unsigned)(a[r * KC + 2 * t + 1 + 8 * (i >> 1)] & 0xffff) << 16;
        else if (esz == 4) ar[i] = (unsigned)a[r * KC + t + 4 * (i >> 1)];
        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = 0; for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * KC + k0 + e] & 0xff) << (8 * e); }
    }
    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.s8.s8 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, %9, 0, p; }" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];
}
static u64 *dev(const std::vector<u64> &v) { u64 *p; CK(cudaMalloc(&p, v.size() * 8 + 8)); CK(cudaMemcpy(p, v.data(), v.size() * 8, cudaMemcpyHostToDevice)); return p; }
static void *devb(const std::vector<unsigned char> &v) { void *p; CK(cudaMalloc(&p, v.size() + 8)); CK(cudaMemcpy(p, v.data(), v.size(), cudaMemcpyHostToDevice)); return p; }
/* packs element x of `bits` bits at element index i of a byte image */
static void put(std::vector<unsigned char> &m, size_t i, int bits, u64 x)
{
    if (bits >= 8) { for (int e = 0; e < bits / 8; e++) m[i * (bits / 8) + e] = (unsigned char)(x >> (8 * e)); return; }
    size_t bit = i * bits; m[bit / 8] |= (unsigned char)((x & ((1u << bits) - 1)) << (bit % 8));
}
int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    typedef void (*RK)(const u64 *, const u64 *, const u64 *, u64 *);
    typedef void (*WK)(const void *, const void *, const void *, void *);
    struct RC { const char *name; RK k; int ak, bk, ck, abits, bbits, cbits, na, nb, nc, nd, M, N, dw; } rc[] = {
        {"mmar_m16n8k8_f32_bf16_f32", r0, 1, 1, 5, 16, 16, 32, 2, 1, 4, 4, 16, 8, 4},
        {"mmar_m16n8k4_f32_tf32_f32", r1, 2, 2, 5, 32, 32, 32, 2, 1, 4, 4, 16, 8, 4},
        {"mmar_m16n8k8_f16_f16_f16", r2, 0, 0, 0, 16, 16, 16, 2, 1, 2, 2, 16, 8, 4},
        {"mmar_m16n8k32_f16_e5m2_f16", r3, 4, 4, 0, 8, 8, 16, 4, 2, 2, 2, 16, 8, 4},
        {"mmar_m16n8k32_f32_e4m3e5m2_f32", r4, 3, 4, 5, 8, 8, 32, 4, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_f16_e5m2e4m3_f16", r5, 4, 3, 0, 8, 8, 16, 4, 2, 2, 2, 16, 8, 4},
        {"mmar_m16n8k16_s32_s8_s32", r6, 6, 6, 14, 8, 8, 32, 2, 1, 4, 4, 16, 8, 4},
        {"mmar_m16n8k16_s32_u8s8_s32_satfinite", r7, 8, 6, 14, 8, 8, 32, 2, 1, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_s32_u8_s32", r8, 8, 8, 14, 8, 8, 32, 4, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_s32_s8u8_s32_satfinite", r9, 6, 8, 14, 8, 8, 32, 4, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_s32_s4_s32", r10, 11, 11, 14, 4, 4, 32, 2, 1, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_s32_u4s4_s32_satfinite", r11, 12, 11, 14, 4, 4, 32, 2, 1, 4, 4, 16, 8, 4},
        {"mmar_m16n8k64_s32_u4_s32_satfinite", r12, 12, 12, 14, 4, 4, 32, 4, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k64_s32_s4u4_s32", r13, 11, 12, 14, 4, 4, 32, 4, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k128_s32_b1_s32_andpopc", r14, 13, 13, 14, 32, 32, 32, 2, 1, 4, 4, 16, 8, 4},
        {"mmar_m16n8k256_s32_b1_s32_xorpopc", r15, 13, 13, 14, 32, 32, 32, 4, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k128_s32_b1_s32_xorpopc", r16, 13, 13, 14, 32, 32, 32, 2, 1, 4, 4, 16, 8, 4},
        {"mmar_m16n8k4_f64_f64_f64", r17, 7, 7, 7, 64, 64, 64, 2, 1, 4, 4, 16, 8, 8},
        {"mmar_m16n8k8_f64_f64_f64", r18, 7, 7, 7, 64, 64, 64, 4, 2, 4, 4, 16, 8, 8},
        {"mmar_m16n8k16_f64_f64_f64", r19, 7, 7, 7, 64, 64, 64, 8, 4, 4, 4, 16, 8, 8},
        {"mmar_m16n8k16_f32_f16_f32_sp", r20, 0, 0, 5, 16, 16, 32, 2, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_f32_f16_f32_sp", r21, 0, 0, 5, 16, 16, 32, 4, 4, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_f16_f16_f16_sp", r22, 0, 0, 0, 16, 16, 16, 4, 4, 2, 2, 16, 8, 4},
        {"mmar_m16n8k32_f32_bf16_f32_sp", r23, 1, 1, 5, 16, 16, 32, 4, 4, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_s32_s8_s32_sp", r24, 6, 6, 14, 8, 8, 32, 2, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k64_s32_u8s8_s32_sp", r25, 8, 6, 14, 8, 8, 32, 4, 4, 4, 4, 16, 8, 4},
        {"mmar_m16n8k64_f32_e4m3_f32_sp", r26, 3, 3, 5, 8, 8, 32, 4, 4, 4, 4, 16, 8, 4},
        {"mmar_m16n8k64_f32_e5m2e4m3_f32_sp", r27, 4, 3, 5, 8, 8, 32, 4, 4, 4, 4, 16, 8, 4},
        {"mmar_m16n8k8_f32_tf32_f32_sp", r28, 2, 2, 5, 32, 32, 32, 2, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k16_f32_tf32_f32_sp", r29, 2, 2, 5, 32, 32, 32, 4, 4, 4, 4, 16, 8, 4},
        {"mmar_m16n8k64_s32_s4_s32_sp", r30, 11, 11, 14, 4, 4, 32, 2, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k128_s32_u4_s32_sp", r31, 12, 12, 14, 4, 4, 32, 4, 4, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_f32_e5m2e4m3_f32", r32, 4, 3, 5, 8, 8, 32, 4, 2, 4, 4, 16, 8, 4},
        {"mmar_m16n8k32_f16_e4m3e5m2_f16", r33, 3, 4, 0, 8, 8, 16, 4, 2, 2, 2, 16, 8, 4},
        {"mmar_m16n8k64_f32_e4m3e5m2_f32_sp", r34, 3, 4, 5, 8, 8, 32, 4, 4, 4, 4, 16, 8, 4},
        {"mmar_m16n8k64_f32_e5m2_f32_sp", r35, 4, 4, 5, 8, 8, 32, 4, 4, 4, 4, 16, 8, 4},
    };
    for (int ci = 0; ci < (int)(sizeof rc / sizeof rc[0]); ci++) {
        const RC &r = rc[ci]; uint32_t gid = 200 + ci;
        int nt = (102400 + r.M * r.N - 1) / (r.M * r.N);
        std::vector<u64> A((size_t)nt * 32 * r.na), B((size_t)nt * 32 * r.nb), C((size_t)nt * 32 * r.nc), D((size_t)nt * 32 * r.nd);
        for (int t = 0; t < nt; t++) for (int l = 0; l < 32; l++) {
            for (int j = 0; j < r.na; j++) A[((size_t)t * 32 + l) * r.na + j] = tcg_reg(r.ak, r.abits, gid, t, 0, l, r.na, j);
            for (int j = 0; j < r.nb; j++) B[((size_t)t * 32 + l) * r.nb + j] = tcg_reg(r.bk, r.bbits, gid, t, 1, l, r.nb, j);
            for (int j = 0; j < r.nc; j++) C[((size_t)t * 32 + l) * r.nc + j] = tcg_reg(r.ck, r.cbits, gid, t, 2, l, r.nc, j);
        }
        u64 *dA = dev(A), *dB = dev(B), *dC = dev(C), *dD = dev(D);
        r.k<<<nt, 32>>>(dA, dB, dC, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, D.size() * 8, cudaMemcpyDeviceToHost));
        save(dir, r.name, D, r.dw);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }
    struct WC_ { const char *name; WK k; int ak, ck, abits, cbits, M, N, K, dw; } wc[] = {
        {"wmma_m16n16k16_f32_f16", w0, 0, 5, 16, 32, 16, 16, 16, 4},
        {"wmma_m32n8k16_f32_f16", w1, 0, 5, 16, 32, 32, 8, 16, 4},
        {"wmma_m8n32k16_f16_f16", w2, 0, 0, 16, 16, 8, 32, 16, 4},
        {"wmma_m16n16k16_f16_f16", w3, 0, 0, 16, 16, 16, 16, 16, 4},
        {"wmma_m16n16k16_f32_bf16", w4, 1, 5, 16, 32, 16, 16, 16, 4},
        {"wmma_m32n8k16_f32_bf16", w5, 1, 5, 16, 32, 32, 8, 16, 4},
        {"wmma_m16n16k8_f32_tf32", w6, 2, 5, 32, 32, 16, 16, 8, 4},
        {"wmma_m8n8k4_f64_f64", w7, 7, 7, 64, 64, 8, 8, 4, 8},
        {"wmma_m16n16k16_s32_s8", w8, 6, 14, 8, 32, 16, 16, 16, 4},
        {"wmma_m8n32k16_s32_u8", w9, 8, 14, 8, 32, 8, 32, 16, 4},
        {"wmma_m8n8k32_s32_u4", w10, 12, 14, 4, 32, 8, 8, 32, 4},
        {"wmma_m8n8k32_s32_s4", w11, 11, 14, 4, 32, 8, 8, 32, 4},
        {"wmma_m8n8k128_s32_b1_xor", w12, 13, 14, 32, 32, 8, 8, 4, 4},
        {"wmma_m8n8k128_s32_b1_and", w13, 13, 14, 32, 32, 8, 8, 4, 4},
    };
    for (int ci = 0; ci < (int)(sizeof wc / sizeof wc[0]); ci++) {
        const WC_ &w = wc[ci]; uint32_t gid = 400 + ci;
        int nt = (102400 + w.M * w.N - 1) / (w.M * w.N);
        std::vector<unsigned char> A(((size_t)nt * w.M * w.K * w.abits + 7) / 8), B(((size_t)nt * w.N * w.K * w.abits + 7) / 8),
            C((size_t)nt * w.M * w.N * w.cbits / 8), D((size_t)nt * w.M * w.N * w.cbits / 8);
        for (int t = 0; t < nt; t++) {
            for (int i = 0; i < w.M * w.K; i++) put(A, (size_t)t * w.M * w.K + i, w.abits, tcg_elem(w.ak, gid, t, 0, i));
            for (int i = 0; i < w.N * w.K; i++) put(B, (size_t)t * w.N * w.K + i, w.abits, tcg_elem(w.ak, gid, t, 1, i));
            for (int i = 0; i < w.M * w.N; i++) put(C, (size_t)t * w.M * w.N + i, w.cbits, w.ck == 14 ? tcg_s32c(gid, t, i) : tcg_elem(w.ck, gid, t, 2, i));
        }
        void *dA = devb(A), *dB = devb(B), *dC = devb(C), *dD = devb(D);
        w.k<<<nt, 32>>>(dA, dB, dC, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, D.size(), cudaMemcpyDeviceToHost));
        std::vector<u64> out((size_t)nt * w.M * w.N);
        for (size_t i = 0; i < out.size(); i++) { u64 x = 0; memcpy(&x, &D[i * (w.cbits / 8)], w.cbits / 8); out[i] = x; }
        save(dir, w.name, out, w.dw);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }
    struct GC { const char *name; RK k; int ak, bk, ck; } gc[] = {
        {"wgmma_m64n8k32_f16_e5m2e5m2", g0, 4, 4, 0},
        {"wgmma_m64n8k32_f32_e4m3e5m2", g1, 3, 4, 5},
        {"wgmma_m64n8k32_f16_e5m2e4m3", g2, 4, 3, 0},
        {"wgmma_m64n8k32_s32_u8s8", g3, 8, 6, 14},
        {"wgmma_m64n8k32_s32_u8u8_sat", g4, 8, 8, 14},
        {"wgmma_m64n8k32_s32_s8u8_sat", g5, 6, 8, 14},
    };
    for (int ci = 0; ci < (int)(sizeof gc / sizeof gc[0]); ci++) {
        const GC &g = gc[ci]; uint32_t gid = 300 + ci; int nt = 200;
        std::vector<u64> A((size_t)nt * 64 * 32), B((size_t)nt * 32 * 8), C((size_t)nt * 512), D((size_t)nt * 512);
        for (int t = 0; t < nt; t++) {
            for (int i = 0; i < 64 * 32; i++) A[(size_t)t * 2048 + i] = tcg_elem(g.ak, gid, t, 0, i);
            for (int i = 0; i < 32 * 8; i++) B[(size_t)t * 256 + i] = tcg_elem(g.bk, gid, t, 1, i);
            for (int i = 0; i < 512; i++) C[(size_t)t * 512 + i] = g.ck == 14 ? tcg_s32c(gid, t, i) : tcg_elem(g.ck, gid, t, 2, i);
        }
        u64 *dA = dev(A), *dB = dev(B), *dC = dev(C), *dD = dev(D);
        g.k<<<nt, 128>>>(dA, dB, dC, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, D.size() * 8, cudaMemcpyDeviceToHost));
        for (auto &x : D) x &= 0xffffffffull;
        save(dir, g.name, D, 4);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }

    struct SC { const char *name; RK k; int ak, ck, K; } sc[] = {
        {"wgmmasp_m64n8k32_f32_f16", s0, 0, 5, 32},
        {"wgmmasp_m64n8k32_f16_f16", s1, 0, 0, 32},
        {"wgmmasp_m64n8k32_f32_bf16", s2, 1, 5, 32},
        {"wgmmasp_m64n8k16_f32_tf32", s3, 2, 5, 16},
        {"wgmmasp_m64n8k64_f32_e4m3", s4, 3, 5, 64},
        {"wgmmasp_m64n8k64_f16_e5m2", s5, 4, 0, 64},
        {"wgmmasp_m64n8k64_s32_s8", s6, 6, 14, 64},
    };
    for (int ci = 0; ci < (int)(sizeof sc / sizeof sc[0]); ci++) {
        const SC &g = sc[ci]; uint32_t gid = 500 + ci; int nt = 200, KC = g.K / 2;
        std::vector<u64> A((size_t)nt * 64 * KC), B((size_t)nt * g.K * 8), C((size_t)nt * 512), D((size_t)nt * 512);
        for (int t = 0; t < nt; t++) {
            for (int i = 0; i < 64 * KC; i++) A[(size_t)t * 64 * KC + i] = tcg_elem(g.ak, gid, t, 0, i);
            for (int i = 0; i < g.K * 8; i++) B[(size_t)t * g.K * 8 + i] = tcg_elem(g.ak, gid, t, 1, i);
            for (int i = 0; i < 512; i++) C[(size_t)t * 512 + i] = g.ck == 14 ? tcg_s32c(gid, t, i) : tcg_elem(g.ck, gid, t, 2, i);
        }
        u64 *dA = dev(A), *dB = dev(B), *dC = dev(C), *dD = dev(D);
        g.k<<<nt, 128>>>(dA, dB, dC, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, D.size() * 8, cudaMemcpyDeviceToHost));
        for (auto &x : D) x &= 0xffffffffull;
        save(dir, g.name, D, 4);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }
    return 0;
}
