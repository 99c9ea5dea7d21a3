// host6.cpp — each kernel of zoo6.cu (grid 4, 128 threads) launched RUNS
// times on fresh buffers; prints NAME RUNS DISTINCT <out hash: count>... so
// that a race shows as more than one distinct result (or as one: latent).
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <map>
static const char *ename(CUresult r) { const char *s = "?"; cuGetErrorName(r, &s); return s; }
static const char *name = "?";
#define CK(x) do { CUresult r_ = (x); if (r_) { printf("%s SETUP %s %s\n", name, #x, ename(r_)); fflush(stdout); exit(2); } } while (0)
static unsigned h32(unsigned x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x; }
static unsigned long long fnv(const unsigned char *p, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}
static CUtensorMap tmap(CUdeviceptr base)
{
    CUtensorMap m;
    cuuint64_t dims[2] = {64, 64}, strides[1] = {256};
    cuuint32_t box[2] = {16, 8}, es[2] = {1, 1};
    CK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dims, strides, box, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    return m;
}
int main(int argc, char **argv)
{
    if (argc < 4) return 2;
    name = argv[2];
    int runs = atoi(argv[3]);
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    CUmodule mod; CK(cuModuleLoad(&mod, argv[1]));
    CUfunction fn; CK(cuModuleGetFunction(&fn, mod, name));
    CUdeviceptr src, out, flags;
    CK(cuMemAlloc(&src, 16384)); CK(cuMemAlloc(&out, 16384)); CK(cuMemAlloc(&flags, 256));
    unsigned hs[4096];
    for (int i = 0; i < 4096; i++) hs[i] = h32((unsigned)i * 0x9E3779B9u ^ 7u);
    CK(cuMemcpyHtoD(src, hs, 16384));
    CUtensorMap tm = tmap(src), tmo = tmap(out);
    void *params[5] = { &tm, &tmo, &src, &out, &flags };
    std::map<unsigned long long, int> seen;
    static unsigned char ho[16384];
    for (int k = 0; k < runs; k++) {
        CK(cuMemsetD8(out, 0, 16384)); CK(cuMemsetD8(flags, 0, 256));
        CK(cuLaunchKernel(fn, 4, 1, 1, 128, 1, 1, 0, 0, params, NULL));
        CUresult r = cuCtxSynchronize();
        if (r) { printf("%s FAULT %s\n", name, ename(r)); return 1; }
        CK(cuMemcpyDtoH(ho, out, 16384));
        seen[fnv(ho, 16384)]++;
    }
    printf("%s runs=%d distinct=%zu", name, runs, seen.size());
    for (auto &p : seen) printf(" %016llx:%d", p.first, p.second);
    printf("\n");
    return 0;
}
