// txhost.cpp — runs txgran for E = step, 2*step, ..., S (one process per
// mode/boxw/S) and prints one line per E:
//   tx MODE BOXW S E done=D word=HI:LO open_then_fix=X next_phase_at_once=Y
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char *ename(CUresult r) { const char *s = "?"; cuGetErrorName(r, &s); return s; }
#define CK(x) do { CUresult r_ = (x); if (r_) { printf("tx SETUP %s %s\n", #x, ename(r_)); fflush(stdout); exit(2); } } while (0)
int main(int argc, char **argv)
{
    if (argc < 6) return 2;
    unsigned mode = atoi(argv[2]), boxw = atoi(argv[3]), S = atoi(argv[4]), step = atoi(argv[5]);
    unsigned reps = argc > 6 ? atoi(argv[6]) : 1;
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    CUmodule mod; CK(cuModuleLoad(&mod, argv[1]));
    CUfunction fn; CK(cuModuleGetFunction(&fn, mod, "txgran"));
    CUdeviceptr src, out;
    CK(cuMemAlloc(&src, 16384)); CK(cuMemAlloc(&out, 64));
    CK(cuMemsetD8(src, 0x3f, 16384));
    CUtensorMap m;
    cuuint64_t dims[2] = {64, 64}, strides[1] = {256};
    cuuint32_t box[2] = {boxw ? boxw : 16, 8}, es[2] = {1, 1};
    CK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)src, dims, strides, box, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    for (unsigned E = step; E <= S; E += step)
    for (unsigned rep = 0; rep < reps; rep++) {
        CK(cuMemsetD8(out, 0xff, 64));
        void *params[] = {&m, &src, &out, &E, &S, &mode, &boxw};
        CUresult r = cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, 0, params, NULL);
        if (!r) r = cuCtxSynchronize();
        if (r) { printf("tx %u %u %u %u FAULT %s\n", mode, boxw, S, E, ename(r)); return 1; }
        unsigned h[5];
        CK(cuMemcpyDtoH(h, out, 20));
        printf("tx %u %u %u %u done=%u word=%08x:%08x open_then_fix=%u next_phase_at_once=%u\n", mode, boxw, S, E,
               h[0], h[2], h[1], h[3], h[4]);
    }
    return 0;
}
