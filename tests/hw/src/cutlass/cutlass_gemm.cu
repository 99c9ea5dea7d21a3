// cutlass_gemm.cu — one warp-specialised CUTLASS 3.x Hopper GEMM, built with
// CUTLASS's public CollectiveBuilder API and run once per case under
// capture.h: D (f16, row-major) = A (f16, row-major) * B (f16, column-major),
// f32 accumulation.  Kernel: KernelTmaWarpSpecializedCooperative (one
// producer warpgroup issuing TMA, two consumer warpgroups issuing wgmma), a
// multi-stage full/empty mbarrier pipeline, a 2x1x1 cluster (B multicast to
// both CTAs), the persistent tile scheduler (sm_count 2, so each CTA takes
// several tiles), and a TMA-store epilogue through stmatrix.
#include "capture.h"
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/util/packed_stride.hpp"
#include "cutlass/device_kernel.h"

using namespace cute;
using EA = cutlass::half_t;
using EB = cutlass::half_t;
using EC = cutlass::half_t;
using LA = cutlass::layout::RowMajor;
using LB = cutlass::layout::ColumnMajor;
using LC = cutlass::layout::RowMajor;
using TileShape = Shape<_128, _64, _64>;
using ClusterShape = Shape<_2, _1, _1>;

using Epi = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float, EC, LC, 8, EC, LC, 8,
    cutlass::epilogue::TmaWarpSpecializedCooperative>::CollectiveOp;

using Main = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, EA, LA, 8, EB, LB, 8, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epi::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;

using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Main, Epi>;

static int run_case(const char *name, int m, int n, int k, uint32_t seed, uint32_t andm, uint32_t orm, float alpha,
                    float beta)
{
    EA *A = (EA *)cap_alloc_hash("A", (uint64_t)m * k * 2, seed, andm, orm);
    EB *B = (EB *)cap_alloc_hash("B", (uint64_t)n * k * 2, seed + 1, andm, orm);
    EC *C = (EC *)cap_alloc_hash("C", (uint64_t)m * n * 2, seed + 2, andm, orm);
    EC *D = (EC *)cap_alloc_fill("D", (uint64_t)m * n * 2, 0);
    auto sA = cutlass::make_cute_packed_stride(typename Kernel::StrideA{}, {m, k, 1});
    auto sB = cutlass::make_cute_packed_stride(typename Kernel::StrideB{}, {n, k, 1});
    auto sC = cutlass::make_cute_packed_stride(typename Kernel::StrideC{}, {m, n, 1});
    auto sD = cutlass::make_cute_packed_stride(typename Kernel::StrideD{}, {m, n, 1});
    cutlass::KernelHardwareInfo hw;
    hw.device_id = 0;
    hw.sm_count = 2;
    typename Kernel::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                    {m, n, k, 1},
                                    {A, sA, B, sB},
                                    {{alpha, beta}, C, sC, D, sD},
                                    hw};
    if (!Kernel::can_implement(args)) {
        fprintf(stderr, "%s: can_implement refused\n", name);
        cap_reset();
        return 1;
    }
    size_t ws = Kernel::get_workspace_size(args);
    void *W = ws ? cap_alloc_fill("workspace", ws, 0) : nullptr;
    if (Kernel::initialize_workspace(args, W) != cutlass::Status::kSuccess) {
        fprintf(stderr, "%s: initialize_workspace failed\n", name);
        cap_reset();
        return 1;
    }
    typename Kernel::Params params = Kernel::to_underlying_arguments(args, W);
    dim3 grid = Kernel::get_grid_shape(params), block = Kernel::get_block_shape();
    dim3 cluster(size<0>(ClusterShape{}), size<1>(ClusterShape{}), size<2>(ClusterShape{}));
    printf("%s: workspace %zu, smem %d, grid %u,%u,%u block %u, params %zu bytes\n", name, ws,
           (int)Kernel::SharedStorageSize, grid.x, grid.y, grid.z, block.x, sizeof params);
    int r = cap_launch(name, (const void *)&cutlass::device_kernel<Kernel>, grid, block, cluster,
                       (int)Kernel::SharedStorageSize, params);
    cap_reset();
    return r;
}

int main(int argc, char **argv)
{
    if (argc > 1) cap_dir = argv[1];
    int bad = 0;
    // f16 in [2^-7, 2): 4 tiles of 128x64 on 2 persistent CTAs, 2 k-blocks each
    bad |= run_case("cutlass_ws_rand", 256, 128, 128, 201, 0xBFFFBFFFu, 0x20002000u, 1.0f, 0.0f);
    // edges: M, N, K not multiples of the tile (TMA clips loads and stores), beta != 0 reads C
    bad |= run_case("cutlass_ws_edge", 200, 120, 136, 202, 0xBFFFBFFFu, 0x20002000u, 1.5f, -0.5f);
    // every f16 exponent 0..15 (subnormals), alpha 1 beta 1
    bad |= run_case("cutlass_ws_wide", 256, 128, 192, 203, 0xBFFFBFFFu, 0u, 1.0f, 1.0f);
    // |x| in [2, 256): D overflows f16 to inf; large cancellations
    bad |= run_case("cutlass_ws_big", 256, 128, 128, 204, 0xDFFFDFFFu, 0x40004000u, 1.0f, 0.0f);
    return bad;
}
