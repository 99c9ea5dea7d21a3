// tmap_replace_use.cu — does the TMA use what tensormap.replace leaves?
//
// tensormap.replace writes only the field's bits (tmap_replace.cu): the map's
// box byte count (bits 512..543) and smem alignment word (576..607) keep the
// values the driver computed.  Here a replaced map (modified in shared::cta,
// published with tensormap.cp_fenceproxy + fence.proxy.tensormap::generic)
// feeds one cp.async.bulk.tensor load whose mbarrier expects `expect` bytes:
// if the phase completes with the NEW box's byte count, the hardware counts
// the transaction from the fields, not from the stale word.  Shared memory
// (pre-filled with 0xA5) comes back too.  A second kernel replays sequences
// of .elemtype replacements to see the tf32 bit (bit 80) being cleared.
//
//   nvcc -gencode arch=compute_90a,code=sm_90a -O2 tmap_replace_use.cu -o tmap_replace_use -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SMEM 2048

__device__ void modify(int t, uint32_t m)
{
    switch (t) {
    case 1: case 2: asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, 4;" ::"r"(m) : "memory"); break;
    case 3: case 4: asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 1;" ::"r"(m) : "memory"); break;
    case 5: asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 1;" ::"r"(m) : "memory"); break;
    case 6: case 7: asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, 2;" ::"r"(m) : "memory"); break;
    case 8: asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;" ::"r"(m) : "memory"); break;
    case 9: asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, 512;" ::"r"(m) : "memory"); break;
    default: break;
    }
}

__global__ void k_use(const __grid_constant__ CUtensorMap base, uint8_t *gmap, int t, uint32_t expect, uint8_t *dump,
                      uint32_t *status)
{
    __shared__ alignas(1024) uint8_t buf[SMEM];
    __shared__ alignas(128) uint8_t smap[128];
    __shared__ alignas(8) uint64_t bar;
    uint32_t sm = (uint32_t)__cvta_generic_to_shared(smap), sb = (uint32_t)__cvta_generic_to_shared(buf),
             sbar = (uint32_t)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        for (int i = 0; i < SMEM; i++) buf[i] = 0xA5;
        memcpy(smap, &base, 128);
        modify(t, sm);
    }
    __syncwarp();
    asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                 ::"l"(gmap), "r"(sm) : "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sbar), "r"(expect) : "memory");
        if (t == 5)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {0, 0}], [%2];"
                         ::"r"(sb), "l"(gmap), "r"(sbar) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {0, 0, 0}], [%2];"
                         ::"r"(sb), "l"(gmap), "r"(sbar) : "memory");
        long long t0 = clock64();
        uint32_t done = 0;
        while (!done && clock64() - t0 < 200000000ll)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(sbar) : "memory");
        *status = done ? 1 : 2;
        for (int i = 0; i < SMEM; i++) dump[i] = buf[i];
    }
}

__global__ void k_seq(uint8_t *maps)
{
    uint8_t *p = maps + 128 * blockIdx.x;
    if (threadIdx.x) return;
    switch (blockIdx.x) {
    case 0: asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 11;" ::"l"(p) : "memory");
            asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 7;" ::"l"(p) : "memory"); break;
    case 1: asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 12;" ::"l"(p) : "memory");
            asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 8;" ::"l"(p) : "memory"); break;
    case 2: asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 11;" ::"l"(p) : "memory");
            asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 2;" ::"l"(p) : "memory"); break;
    case 3: asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 12;" ::"l"(p) : "memory"); break;
    }
}

#define CK(x) do { int e_ = (int)(x); if (e_) { fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #x, e_); return 1; } } while (0)

int main()
{
    CK(cuInit(0));
    CK(cudaFree(0));
    uint32_t *data;
    CK(cudaMalloc((void **)&data, 64 * 64 * 4 * 4));
    static uint32_t h[64 * 64 * 4];
    for (int i = 0; i < 64 * 64 * 4; i++) h[i] = 0x10000000u + i;
    CK(cudaMemcpy(data, h, sizeof h, cudaMemcpyHostToDevice));
    CUtensorMap base;
    cuuint64_t dim[3] = {64, 64, 4}, stride[2] = {256, 16384};
    cuuint32_t box[3] = {16, 8, 1}, es[3] = {1, 1, 1};
    CK(cuTensorMapEncodeTiled(&base, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, data, dim, stride, box, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    printf("# data 0x%llx\n", (unsigned long long)(uintptr_t)data);
    uint8_t *gmap, *dump;
    uint32_t *status;
    CK(cudaMalloc((void **)&gmap, 128));
    CK(cudaMalloc((void **)&dump, SMEM));
    CK(cudaMalloc((void **)&status, 4));
    struct { int t; uint32_t expect; const char *what; } cases[] = {
        {0, 512, "unchanged, expect 512"},
        {1, 256, "box_dim[1]=4, expect 256 (new box)"},
        {2, 512, "box_dim[1]=4, expect 512 (stale word)"},
        {3, 256, "elemtype=1 (u16), expect 256 (new box)"},
        {4, 512, "elemtype=1 (u16), expect 512 (stale word)"},
        {5, 512, "rank=1 (3->2, dim 2 fields left), 2d load, expect 512"},
        {6, 256, "element_stride[1]=2, expect 256 (new box)"},
        {7, 512, "element_stride[1]=2, expect 512 (stale word)"},
        {8, 512, "swizzle_mode=3 (128B, alignment word stale), expect 512"},
        {9, 512, "global_stride[0]=512, expect 512"},
    };
    static uint8_t out[SMEM];
    for (auto &c : cases) {
        CK(cudaMemset(status, 0, 4));
        k_use<<<1, 32>>>(base, gmap, c.t, c.expect, dump, status);
        CK(cudaDeviceSynchronize());
        uint32_t st;
        uint8_t m[128];
        CK(cudaMemcpy(&st, status, 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(out, dump, SMEM, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(m, gmap, 128, cudaMemcpyDeviceToHost));
        printf("case %d %s: status %u (%s)\n  map ", c.t, c.what, st, st == 1 ? "phase completed" : "NOT completed");
        for (int i = 0; i < 128; i++) printf("%02x", m[i]);
        printf("\n  smem");
        int last = SMEM - 1;
        while (last > 0 && out[last] == 0xA5) last--;
        for (int i = 0; i <= last; i += 4) {
            uint32_t w;
            memcpy(&w, out + i, 4);
            if (i % 64 == 0) printf("\n   %04x:", i);
            printf(" %08x", w);
        }
        printf("\n");
    }
    uint8_t *maps;
    CK(cudaMalloc((void **)&maps, 128 * 4));
    for (int i = 0; i < 4; i++) CK(cudaMemcpy(maps + 128 * i, &base, 128, cudaMemcpyHostToDevice));
    k_seq<<<4, 32>>>(maps);
    CK(cudaDeviceSynchronize());
    static uint8_t s[128 * 4];
    CK(cudaMemcpy(s, maps, sizeof s, cudaMemcpyDeviceToHost));
    const char *sn[] = {"elemtype=11;elemtype=7", "elemtype=12;elemtype=8", "elemtype=11;elemtype=2", "elemtype=12"};
    for (int i = 0; i < 4; i++) {
        printf("%s g ", sn[i]);
        for (int j = 0; j < 128; j++) printf("%02x", s[128 * i + j]);
        printf("\n");
    }
    return 0;
}
