// lineinfo.cu — kernels for the debugger's CUDA-source-line tests
// (tests/scripts/cli_debug_cuda.sh).  lineinfo.ptx is this file compiled
// with:  nvcc -lineinfo -arch=sm_90a -ptx -o lineinfo.ptx lineinfo.cu
// (the PTX is committed: the tests run without CUDA).
__device__ __noinline__ float twice(float x)
{
    float y = x + x;
    return y;
}

extern "C" __global__ void scale(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k = 0; k < n; k++)
        acc += twice(in[i]);
    out[i] = acc;
}

// Only one of the two arrivals the mbarrier expects: every thread waits
// forever (ptxi reports a deadlock naming this file's line).
extern "C" __global__ void stuck(int *out)
{
    __shared__ unsigned long long bar;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" ::"r"(addr));
    __syncthreads();
    if (threadIdx.x == 0)
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(addr));
    asm volatile("{\n .reg .pred p;\n WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
                 " @!p bra WAIT;\n}" ::"r"(addr));
    out[threadIdx.x] = 1;
}

// A store far past the end of `out`: a fault naming this file's line.
extern "C" __global__ void oob(int *out, int far)
{
    out[threadIdx.x + far] = 7;
}

// Reads the TMA destination without waiting on the mbarrier: a data race
// naming the line of the read.
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

extern "C" __global__ void racy(const __grid_constant__ TensorMap tm, float *dst)
{
    __shared__ alignas(128) float tile[8][16];
    __shared__ alignas(8) unsigned long long bar;
    unsigned bar_a = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned tile_a = (unsigned)__cvta_generic_to_shared(&tile[0][0]);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_a));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_a), "r"(512u) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(tile_a), "l"(&tm), "r"(0), "r"(0), "r"(bar_a) : "memory");
    }
    __syncthreads();
    dst[threadIdx.x] = (&tile[0][0])[threadIdx.x];
}
