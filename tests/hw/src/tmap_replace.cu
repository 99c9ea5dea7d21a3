// tmap_replace.cu — what tensormap.replace writes, read back from an H100.
//
// The host encodes one base map with cuTensorMapEncodeTiled; each case
// applies ONE tensormap.replace (sm_90a forms) to a fresh copy of it, once
// in global memory and once in shared::cta memory (then copied out), and
// the 128 bytes come back.  Decoding them with ptxi's tma_decode (the
// driver's layout, tma/encode.c) shows how each field's new_val is encoded
// (value or value-1, bytes or 16-byte units, .elemtype numbering) and
// whether derived words (box byte count, alignment word) are rewritten.
// The answers are the table in tests/unit/test_tmap_replace.c.
//
//   nvcc -arch=sm_90a -O2 tmap_replace.cu -o tmap_replace -lcuda
//   ./tmap_replace > tmap_replace.out     (one line per case: name, g/s, hex)
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// X(name, asm text after "tensormap.replace.tile.", with SS for the space)
#define CASES(X)                                                                     \
    X("none", "")                                                                    \
    X("global_address=0x7f0012345680", "global_address" SS ".b1024.b64 [%0], 0x7f0012345680;") \
    X("rank=0", "rank" SS ".b1024.b32 [%0], 0;")                                     \
    X("rank=1", "rank" SS ".b1024.b32 [%0], 1;")                                     \
    X("rank=4", "rank" SS ".b1024.b32 [%0], 4;")                                     \
    X("box_dim[0]=32", "box_dim" SS ".b1024.b32 [%0], 0, 32;")                       \
    X("box_dim[1]=1", "box_dim" SS ".b1024.b32 [%0], 1, 1;")                         \
    X("box_dim[2]=256", "box_dim" SS ".b1024.b32 [%0], 2, 256;")                     \
    X("box_dim[3]=5", "box_dim" SS ".b1024.b32 [%0], 3, 5;")                         \
    X("box_dim[1]=0", "box_dim" SS ".b1024.b32 [%0], 1, 0;")                         \
    X("box_dim[1]=257", "box_dim" SS ".b1024.b32 [%0], 1, 257;")                     \
    X("global_dim[0]=1000", "global_dim" SS ".b1024.b32 [%0], 0, 1000;")             \
    X("global_dim[2]=1", "global_dim" SS ".b1024.b32 [%0], 2, 1;")                   \
    X("global_dim[4]=7", "global_dim" SS ".b1024.b32 [%0], 4, 7;")                   \
    X("global_dim[1]=0", "global_dim" SS ".b1024.b32 [%0], 1, 0;")                   \
    X("global_stride[0]=4096", "global_stride" SS ".b1024.b64 [%0], 0, 4096;")       \
    X("global_stride[1]=0x12340", "global_stride" SS ".b1024.b64 [%0], 1, 0x12340;") \
    X("global_stride[0]=4100", "global_stride" SS ".b1024.b64 [%0], 0, 4100;")       \
    X("global_stride[1]=0x1234", "global_stride" SS ".b1024.b64 [%0], 1, 0x1234;")   \
    X("global_stride[3]=512", "global_stride" SS ".b1024.b64 [%0], 3, 512;")         \
    X("global_stride[4]=512", "global_stride" SS ".b1024.b64 [%0], 4, 512;")         \
    X("global_stride[0]=0x1234500000", "global_stride" SS ".b1024.b64 [%0], 0, 0x1234500000;") \
    X("element_stride[0]=2", "element_stride" SS ".b1024.b32 [%0], 0, 2;")           \
    X("element_stride[1]=8", "element_stride" SS ".b1024.b32 [%0], 1, 8;")           \
    X("element_stride[2]=1", "element_stride" SS ".b1024.b32 [%0], 2, 1;")           \
    X("element_stride[1]=0", "element_stride" SS ".b1024.b32 [%0], 1, 0;")           \
    X("element_stride[1]=9", "element_stride" SS ".b1024.b32 [%0], 1, 9;")           \
    X("elemtype=0", "elemtype" SS ".b1024.b32 [%0], 0;")                             \
    X("elemtype=1", "elemtype" SS ".b1024.b32 [%0], 1;")                             \
    X("elemtype=2", "elemtype" SS ".b1024.b32 [%0], 2;")                             \
    X("elemtype=3", "elemtype" SS ".b1024.b32 [%0], 3;")                             \
    X("elemtype=4", "elemtype" SS ".b1024.b32 [%0], 4;")                             \
    X("elemtype=5", "elemtype" SS ".b1024.b32 [%0], 5;")                             \
    X("elemtype=6", "elemtype" SS ".b1024.b32 [%0], 6;")                             \
    X("elemtype=7", "elemtype" SS ".b1024.b32 [%0], 7;")                             \
    X("elemtype=8", "elemtype" SS ".b1024.b32 [%0], 8;")                             \
    X("elemtype=9", "elemtype" SS ".b1024.b32 [%0], 9;")                             \
    X("elemtype=10", "elemtype" SS ".b1024.b32 [%0], 10;")                           \
    X("elemtype=11", "elemtype" SS ".b1024.b32 [%0], 11;")                           \
    X("elemtype=12", "elemtype" SS ".b1024.b32 [%0], 12;")                           \
    X("interleave_layout=0", "interleave_layout" SS ".b1024.b32 [%0], 0;")           \
    X("interleave_layout=1", "interleave_layout" SS ".b1024.b32 [%0], 1;")           \
    X("interleave_layout=2", "interleave_layout" SS ".b1024.b32 [%0], 2;")           \
    X("swizzle_mode=0", "swizzle_mode" SS ".b1024.b32 [%0], 0;")                     \
    X("swizzle_mode=1", "swizzle_mode" SS ".b1024.b32 [%0], 1;")                     \
    X("swizzle_mode=2", "swizzle_mode" SS ".b1024.b32 [%0], 2;")                     \
    X("swizzle_mode=3", "swizzle_mode" SS ".b1024.b32 [%0], 3;")                     \
    X("fill_mode=0", "fill_mode" SS ".b1024.b32 [%0], 0;")                           \
    X("fill_mode=1", "fill_mode" SS ".b1024.b32 [%0], 1;")

#define COUNT(n, s) +1
enum { NCASE = 0 CASES(COUNT) };
#define NAME(n, s) n,
static const char *names[] = {CASES(NAME)};

__device__ void apply_g(int c, void *p)
{
#define SS ".global"
#define GCASE(n, s) if (c == k++) { if (sizeof(s) > 1) asm volatile("tensormap.replace.tile." s ::"l"(p) : "memory"); return; }
    int k = 0;
    CASES(GCASE)
#undef SS
}

__device__ void apply_s(int c, uint32_t p)
{
#define SS ".shared::cta"
#define SCASE(n, s) if (c == k++) { if (sizeof(s) > 1) asm volatile("tensormap.replace.tile." s ::"r"(p) : "memory"); return; }
    int k = 0;
    CASES(SCASE)
#undef SS
}

// one block per case; thread 0 works
__global__ void k_global(uint8_t *maps) { if (threadIdx.x == 0) apply_g(blockIdx.x, maps + 128 * blockIdx.x); }

__global__ void k_shared(const uint8_t *base, uint8_t *out)
{
    __shared__ alignas(128) uint8_t sm[128];
    if (threadIdx.x == 0) {
        memcpy(sm, base, 128);
        apply_s(blockIdx.x, (uint32_t)__cvta_generic_to_shared(sm));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        memcpy(out + 128 * blockIdx.x, sm, 128);
    }
}

#define CK(x) do { int e_ = (int)(x); if (e_) { fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #x, e_); return 1; } } while (0)

int main()
{
    CK(cuInit(0));
    CK(cudaFree(0));
    void *buf;
    CK(cudaMalloc(&buf, 1 << 20));
    CUtensorMap base;
    cuuint64_t dim[3] = {64, 32, 8}, stride[2] = {256, 8192};
    cuuint32_t box[3] = {16, 8, 2}, es[3] = {1, 1, 1};
    CK(cuTensorMapEncodeTiled(&base, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, buf, dim, stride, box, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    printf("# base address 0x%llx\n", (unsigned long long)(uintptr_t)buf);
    uint8_t *gmaps, *smaps, *gbase;
    CK(cudaMalloc((void **)&gmaps, 128 * NCASE));
    CK(cudaMalloc((void **)&smaps, 128 * NCASE));
    CK(cudaMalloc((void **)&gbase, 128));
    for (int c = 0; c < NCASE; c++) CK(cudaMemcpy(gmaps + 128 * c, &base, 128, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(gbase, &base, 128, cudaMemcpyHostToDevice));
    k_global<<<NCASE, 32>>>(gmaps);
    CK(cudaDeviceSynchronize());
    k_shared<<<NCASE, 32>>>(gbase, smaps);
    CK(cudaDeviceSynchronize());
    static uint8_t g[128 * NCASE], s[128 * NCASE];
    CK(cudaMemcpy(g, gmaps, sizeof g, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(s, smaps, sizeof s, cudaMemcpyDeviceToHost));
    for (int c = 0; c < NCASE; c++)
        for (int w = 0; w < 2; w++) {
            const uint8_t *m = (w ? s : g) + 128 * c;
            printf("%s %c ", names[c], w ? 's' : 'g');
            for (int i = 0; i < 128; i++) printf("%02x", m[i]);
            printf("\n");
        }
    return 0;
}
