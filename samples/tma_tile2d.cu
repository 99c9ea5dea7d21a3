// tma_tile2d.cu — a TMA 2D tile load, the smallest complete example.
//
// Thread 0 initialises an mbarrier, tells it to expect the tile's bytes and
// issues cp.async.bulk.tensor.2d for the box at tensor coordinates (x, y);
// every thread then waits on the barrier's phase 0 and copies the tile from
// shared memory to `dst`.  The tensor map (16x8 FLOAT32 boxes over a 64x32
// FLOAT32 tensor) comes from the launch file, encoded as the CUDA driver
// would (cuTensorMapEncodeTiled).  Built with:
//   nvcc -arch=sm_90a -O3 -ptx tma_tile2d.cu -o tma_tile2d.ptx
struct alignas(64) TensorMap { unsigned long long opaque[16]; };

#define BOX_W 16
#define BOX_H 8

extern "C" __global__ void tma_tile2d(const __grid_constant__ TensorMap tm, int x, int y, float *dst)
{
    __shared__ alignas(128) float tile[BOX_H][BOX_W];
    __shared__ alignas(8) unsigned long long bar;
    unsigned bar_a = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned tile_a = (unsigned)__cvta_generic_to_shared(&tile[0][0]);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar_a));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(bar_a), "r"((unsigned)sizeof tile) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(tile_a), "l"(&tm), "r"(x), "r"(y), "r"(bar_a) : "memory");
    }
    __syncthreads();
    asm volatile("{\n\t.reg .pred done;\n"
                 "WAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n\t"
                 "@!done bra WAIT_%=;\n}"
                 :: "r"(bar_a) : "memory");
    for (int i = threadIdx.x; i < BOX_W * BOX_H; i += blockDim.x)
        dst[i] = (&tile[0][0])[i];
}
