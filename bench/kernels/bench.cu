// bench.cu — kernels for `make bench` (compiled once with nvcc -ptx; the
// .ptx is committed so ptxi needs no CUDA).
//  alu_loop: ALU-bound, integer and float arithmetic in registers.
//  mem_copy: memory-bound grid-stride copy with a little arithmetic.
#include <stdint.h>
extern "C" __global__ void alu_loop(uint32_t *out, int iters)
{
    uint32_t a = threadIdx.x, b = blockIdx.x * 7 + 1;
    float x = threadIdx.x * 0.5f, y = 1.0001f;
    for (int i = 0; i < iters; i++) {
        a = a * 1664525u + 1013904223u;
        b ^= a >> 3;
        b += (a & 0xff) << 2;
        x = fmaf(x, y, 0.25f);
        y = y * 0.9999f + (float)(a & 1) * 1e-6f;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a ^ b ^ __float_as_uint(x) ^ __float_as_uint(y);
}
extern "C" __global__ void mem_copy(const uint32_t *in, uint32_t *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = in[i] * 3u + 1u;
}
