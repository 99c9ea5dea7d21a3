// smem.cu — a shared-memory-heavy benchmark kernel (bench/run.sh): each
// lap every thread writes its slot, the block synchronises, and each
// thread reads four other threads' slots.  The happens-before checker
// (check/) looks at every one of these accesses, so this is where its cost
// shows (checked vs --check=none).
//   nvcc -arch=sm_90a -O3 -ptx smem.cu -o smem.ptx
extern "C" __global__ void smem_mix(unsigned *out, int iters)
{
    __shared__ unsigned buf[256];
    unsigned t = threadIdx.x, acc = t * 2654435761u;
    for (int i = 0; i < iters; i++) {
        buf[t] = acc;
        __syncthreads();
        acc += buf[(t + 1) & 255] ^ buf[(t + 17) & 255];
        acc = acc * 33u + (buf[(t + 100) & 255] >> 3) + buf[t ^ 128];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
