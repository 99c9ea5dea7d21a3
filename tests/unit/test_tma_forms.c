/* test_tma_forms.c — instruction forms the conformance corpus does not run,
 * and the engine's shared-memory fault wording.
 *
 * The corpus kernels (tests/conformance/ptx/tma_sm90.ptx) load into
 * .shared::cluster without cache hints and copy bulk data without
 * multicast; the forms below are parsed by the front-end tests only.  Here
 * each runs in the interpreter against bytes computed in C:
 *   - cp.async.bulk.tensor into .shared::cta with .L2::cache_hint, and the
 *     same load into .shared::cluster: same bytes, same transaction count;
 *   - .multicast::cluster with .L2::cache_hint (ctaMask, then the policy);
 *   - tensor store / reduce / prefetch with .L2::cache_hint, and the
 *     non-tensor cp.async.bulk.prefetch.L2 (with and without a hint): the
 *     tensor afterwards, byte for byte;
 *   (the policies are CUTLASS's CacheHintSm90 constants: the interpreter
 *   does not run createpolicy);
 *   - non-tensor cp.async.bulk ... .multicast::cluster, and its ctaMask
 *     naming a CTA outside the cluster (the tensor form's fault is
 *     tests/launch/broken/ctamask_outside_cluster);
 *   - non-tensor cp.reduce.async.bulk shared::cta -> a peer CTA's
 *     shared::cluster, completing on the peer's mbarrier.
 * Engine (no interpreter):
 *   - .im2col_no_offs store (sm_90 PTX, no corpus case): an im2col load
 *     stored back through the same map lands every pixel where it came from;
 *   - "box needs N bytes of shared memory" says how the rows are laid out:
 *     padded to the swizzle span without interleave (tile_load_0162),
 *     packed with interleave (interleave/README.md), plain otherwise.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/unit/interp_harness.h"
#include "tma/tma.h"

/* ---- a launch with a tensor and its map in global memory ------------------------- */

/* The tensor: u32 [H=16][W=32], word (x, y) = 0x1000 + 32 y + x.  Map: tiled,
 * box 8 x 4, no swizzle.  Kernel params: (out, tmap, tensor). */
#define TW 32
#define TH 16
static uint32_t tword(int x, int y) { return 0x1000u + 32u * (uint32_t)y + (uint32_t)x; }

static uint64_t g_tensor, g_tmap;

static int run_map(th_run *r, const char *src, uint32_t cluster, interp_policy pol)
{
    const ir_function *fn = th_prepare(r, src, "k", 1 << 16);
    if (!fn)
        return -1;
    g_tensor = mem_global_alloc(r->g, TW * TH * 4, 256, "tensor");
    uint32_t *t = (uint32_t *)mem_global_host(r->g, g_tensor, TW * TH * 4);
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            t[y * TW + x] = tword(x, y);
    g_tmap = mem_global_alloc(r->g, 128, 128, "tmap");
    uint64_t gd[2] = {TW, TH}, gs[1] = {TW * 4};
    uint32_t box[2] = {8, 4}, es[2] = {1, 1};
    char why[256];
    if (tma_encode_tiled(mem_global_host(r->g, g_tmap, 128), TMA_DT_UINT32, 2, g_tensor, gd, gs, box, es,
                         TMA_INTERLEAVE_NONE, TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why)) {
        r->res.status = -1;
        snprintf(r->res.msg, sizeof r->res.msg, "encode: %s", why);
        return -1;
    }
    uint64_t v[2] = {g_tmap, g_tensor};
    return th_launch(r, fn, cluster, 1, cluster, 0, 1, pol, v, 2, 10000000);
}

static const uint32_t *tensor_host(const th_run *r)
{
    return (const uint32_t *)mem_global_host(r->g, g_tensor, TW * TH * 4);
}

/* out word w (from word `from`) holds the 8 x 4 box at (x0, y0)?  Else a
 * sentence in msg. */
static int box_at(const th_run *r, unsigned from, int x0, int y0, char *msg, size_t n)
{
    for (int i = 0; i < 32; i++) {
        uint32_t want = tword(x0 + i % 8, y0 + i / 8), got = th_u32(r, from + (unsigned)i);
        if (got != want) {
            snprintf(msg, n, "out word %u: got 0x%x, want 0x%x (x %d, y %d)", from + (unsigned)i, got, want,
                     x0 + i % 8, y0 + i / 8);
            return 0;
        }
    }
    return 1;
}

#define CHECK_BOX(name, r, from, x0, y0) do { char m_[160]; \
    if (box_at(r, from, x0, y0, m_, sizeof m_)) printf("PASS %s\n", name); \
    else { printf("FAIL %s: %s\n", name, m_); check_failures++; } } while (0)

#define HDR(ver, target) ".version " ver "\n.target " target "\n.address_size 64\n" \
    ".visible .entry k(.param .u64 out, .param .u64 tmap, .param .u64 tensor)\n{\n" \
    "  .reg .b64 %rd<16>;\n  .reg .b32 %r<24>;\n  .reg .b16 %rs<4>;\n  .reg .pred %p<4>;\n" \
    "  .shared .align 128 .b8 buf[1024];\n  .shared .align 8 .b64 bar[2];\n" \
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [tmap];\n  ld.param.u64 %rd9, [tensor];\n" \
    "  mov.u32 %r1, buf;\n  mov.u32 %r2, bar;\n"

/* copy 128 bytes of smem at %rA to out + OFF (bytes) */
#define COPY128(rA, OFF) \
    "  mov.u32 %r10, 0;\n" \
    "C" #OFF ":\n  add.u32 %r11, " rA ", %r10;\n  ld.shared.u32 %r12, [%r11];\n" \
    "  cvt.u64.u32 %rd10, %r10;\n  add.u64 %rd10, %rd10, " #OFF ";\n  add.u64 %rd10, %rd1, %rd10;\n" \
    "  st.global.u32 [%rd10], %r12;\n  add.u32 %r10, %r10, 4;\n  setp.lt.u32 %p3, %r10, 128;\n  @%p3 bra C" #OFF ";\n"

/* .shared::cta destination + cache hint, and the .shared::cluster form of
 * the same load: each completes its own mbarrier with 128 bytes. */
static const char *load_forms = HDR("8.6", "sm_90a")
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.init.shared::cta.b64 [%r2+8], 1;\n"
"  mov.b64 %rd3, 0x12F0000000000000;\n"   /* CUTLASS CacheHintSm90::EVICT_FIRST */
"  mbarrier.arrive.expect_tx.shared::cta.b64 %rd4, [%r2], 128;\n"
"  cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd2, {8, 4}], [%r2], %rd3;\n"
"  add.u32 %r3, %r1, 512;\n  add.u32 %r4, %r2, 8;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 %rd4, [%r4], 128;\n"
"  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r3], [%rd2, {16, 8}], [%r4];\n"
"W1:\n  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n  @!%p1 bra W1;\n"
"W2:\n  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r4], 0;\n  @!%p1 bra W2;\n"
COPY128("%r1", 0)
COPY128("%r3", 256)
"  ret;\n}\n";

/* Cluster of 2: rank 0 multicasts the box to both CTAs (ctaMask 3, then a
 * cache policy); each waits on its own mbarrier and copies its buffer out. */
static const char *mcast_tensor = HDR("8.0", "sm_90a")
"  mov.u32 %r5, %cluster_ctarank;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  fence.mbarrier_init.release.cluster;\n"
"  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 %rd4, [%r2], 128;\n"
"  setp.ne.u32 %p2, %r5, 0;\n"
"  @%p2 bra WAIT;\n"
"  mov.b64 %rd3, 0x14F0000000000000;\n"   /* EVICT_LAST */
"  mov.u16 %rs1, 3;\n"
"  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%r1], [%rd2, {24, 12}], [%r2], %rs1, %rd3;\n"
"WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n  @!%p1 bra WAIT;\n"
"  mul.wide.u32 %rd11, %r5, 256;\n  add.u64 %rd1, %rd1, %rd11;\n"
COPY128("%r1", 0)
"  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n"
"  ret;\n}\n";

/* Store the words 0xB000 + i to the box at (8, 4), add them to the box at
 * (16, 8), both with a cache policy; prefetches with and without one. */
static const char *store_forms = HDR("8.0", "sm_90a")
"  mov.u32 %r10, 0;\n"
"F:\n  add.u32 %r11, %r1, %r10;\n  shr.u32 %r12, %r10, 2;\n  add.u32 %r12, %r12, 0xb000;\n"
"  st.shared.u32 [%r11], %r12;\n  add.u32 %r10, %r10, 4;\n  setp.lt.u32 %p3, %r10, 128;\n  @%p3 bra F;\n"
"  fence.proxy.async.shared::cta;\n"
"  mov.b64 %rd3, 0x12F0000000000000;\n"   /* CUTLASS CacheHintSm90::EVICT_FIRST */
"  cp.async.bulk.prefetch.tensor.2d.L2.global.tile.L2::cache_hint [%rd2, {0, 0}], %rd3;\n"
"  cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd2, {24, 12}];\n"
"  cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd9], 256, %rd3;\n"
"  cp.async.bulk.prefetch.L2.global [%rd9], 512;\n"
"  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint [%rd2, {8, 4}], [%r1], %rd3;\n"
"  cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group.L2::cache_hint [%rd2, {16, 8}], [%r1], %rd3;\n"
"  cp.async.bulk.commit_group;\n"
"  cp.async.bulk.wait_group 0;\n"
"  ret;\n}\n";

/* Cluster of 2: rank 0 multicasts the tensor's first 64 bytes (non-tensor
 * bulk copy, ctaMask 3) into both CTAs' buf + 64 (buf filled with 0xA5). */
static const char *mcast_bulk = HDR("8.0", "sm_90a")
"  mov.u32 %r5, %cluster_ctarank;\n"
"  mov.u32 %r10, 0;\n"
"F:\n  add.u32 %r11, %r1, %r10;\n  st.shared.u32 [%r11], 0xa5a5a5a5;\n"
"  add.u32 %r10, %r10, 4;\n  setp.lt.u32 %p3, %r10, 128;\n  @%p3 bra F;\n"
"  fence.proxy.async.shared::cta;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  fence.mbarrier_init.release.cluster;\n"
"  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 %rd4, [%r2], 64;\n"
"  add.u32 %r3, %r1, 64;\n"
"  setp.ne.u32 %p2, %r5, 0;\n"
"  @%p2 bra WAIT;\n"
"  mov.u16 %rs1, 3;\n"
"  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3], [%rd9], 64, [%r2], %rs1;\n"
"WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n  @!%p1 bra WAIT;\n"
"  mul.wide.u32 %rd11, %r5, 256;\n  add.u64 %rd1, %rd1, %rd11;\n"
COPY128("%r1", 0)
"  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n"
"  ret;\n}\n";

/* The same copy with ctaMask 0x5 in a cluster of 2: a fault at the copy. */
static const char *mcast_bulk_bad = HDR("8.0", "sm_90a")
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mov.u16 %rs1, 5;\n"
"  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd9], 64, [%r2], %rs1;\n"
"  ret;\n}\n";

/* Cluster of 2: rank 1's buf holds 100 + i, rank 0's 3 i (16 words); rank 0
 * adds its words into rank 1's (cp.reduce.async.bulk shared::cta ->
 * shared::cluster), completing 64 bytes on rank 1's mbarrier; rank 1 waits
 * and copies its buf out. */
static const char *reduce_dsmem = HDR("8.0", "sm_90a")
"  mov.u32 %r5, %cluster_ctarank;\n"
"  mov.u32 %r10, 0;\n"
"F:\n  add.u32 %r11, %r1, %r10;\n  shr.u32 %r12, %r10, 2;\n"
"  mul.lo.u32 %r13, %r12, 3;\n  add.u32 %r14, %r12, 100;\n"
"  setp.eq.u32 %p2, %r5, 0;\n  selp.u32 %r12, %r13, %r14, %p2;\n"
"  st.shared.u32 [%r11], %r12;\n  add.u32 %r10, %r10, 4;\n  setp.lt.u32 %p3, %r10, 128;\n  @%p3 bra F;\n"
"  fence.proxy.async.shared::cta;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  fence.mbarrier_init.release.cluster;\n"
"  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n"
"  setp.ne.u32 %p2, %r5, 0;\n"
"  @%p2 bra PEER;\n"
"  mapa.shared::cluster.u32 %r6, %r1, 1;\n"
"  mapa.shared::cluster.u32 %r7, %r2, 1;\n"
"  cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r6], [%r1], 64, [%r7];\n"
"  bra.uni DONE;\n"
"PEER:\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 %rd4, [%r2], 64;\n"
"WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n  @!%p1 bra WAIT;\n"
COPY128("%r1", 0)
"DONE:\n"
"  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n"
"  ret;\n}\n";

static const interp_policy pols[] = {INTERP_COMPLETE_DEFERRED, INTERP_COMPLETE_EAGER, INTERP_COMPLETE_RANDOM};
static const char *const pol_names[] = {"deferred", "eager", "random"};

static void test_interp_forms(void)
{
    char name[160];
    th_run r;
    for (int p = 0; p < 3; p++) {
        const char *pn = pol_names[p];
        run_map(&r, load_forms, 1, pols[p]);
        snprintf(name, sizeof name, "%s: load into .shared::cta with .L2::cache_hint runs", pn);
        CHECK_OK(name, &r);
        snprintf(name, sizeof name, "%s: ... its box (8, 4) landed", pn);
        CHECK_BOX(name, &r, 0, 8, 4);
        snprintf(name, sizeof name, "%s: ... and the .shared::cluster load's box (16, 8)", pn);
        CHECK_BOX(name, &r, 64, 16, 8);
        th_free(&r);

        run_map(&r, mcast_tensor, 2, pols[p]);
        snprintf(name, sizeof name, "%s: tensor .multicast::cluster with .L2::cache_hint runs", pn);
        CHECK_OK(name, &r);
        snprintf(name, sizeof name, "%s: ... rank 0 got the box (24, 12)", pn);
        CHECK_BOX(name, &r, 0, 24, 12);
        snprintf(name, sizeof name, "%s: ... rank 1 got it too", pn);
        CHECK_BOX(name, &r, 64, 24, 12);
        th_free(&r);

        run_map(&r, store_forms, 1, pols[p]);
        snprintf(name, sizeof name, "%s: store / reduce / prefetches with .L2::cache_hint run", pn);
        CHECK_OK(name, &r);
        if (!r.res.status) {
            const uint32_t *t = tensor_host(&r);
            int bad = -1;
            uint32_t want = 0;
            for (int i = 0; i < TW * TH && bad < 0; i++) {
                int x = i % TW, y = i / TW;
                want = tword(x, y);
                if (x >= 8 && x < 16 && y >= 4 && y < 8)
                    want = 0xb000u + (uint32_t)((y - 4) * 8 + x - 8);
                else if (x >= 16 && x < 24 && y >= 8 && y < 12)
                    want += 0xb000u + (uint32_t)((y - 8) * 8 + x - 16);
                if (t[i] != want)
                    bad = i;
            }
            snprintf(name, sizeof name, "%s: ... the tensor: stored box, added box, nothing else", pn);
            if (bad < 0) printf("PASS %s\n", name);
            else {
                printf("FAIL %s: word (%d, %d) is 0x%x, want 0x%x\n", name, bad % TW, bad / TW, t[bad], want);
                check_failures++;
            }
        }
        th_free(&r);

        run_map(&r, mcast_bulk, 2, pols[p]);
        snprintf(name, sizeof name, "%s: bulk copy .multicast::cluster runs", pn);
        CHECK_OK(name, &r);
        for (unsigned rank = 0; rank < 2; rank++) {
            int bad = -1;
            for (unsigned i = 0; i < 32 && bad < 0; i++) {
                uint32_t want = i < 16 ? 0xa5a5a5a5u : tword((int)i - 16, 0);
                if (th_u32(&r, rank * 64 + i) != want)
                    bad = (int)i;
            }
            snprintf(name, sizeof name, "%s: ... rank %u has the 64 bytes at buf + 64, its fill before", pn, rank);
            if (bad < 0) printf("PASS %s\n", name);
            else {
                printf("FAIL %s: word %d is 0x%x\n", name, bad, th_u32(&r, rank * 64 + (unsigned)bad));
                check_failures++;
            }
        }
        th_free(&r);

        run_map(&r, mcast_bulk_bad, 2, pols[p]);
        snprintf(name, sizeof name, "%s: bulk copy ctaMask naming a CTA outside the cluster faults there", pn);
        CHECK_MSG(name, &r, INTERP_FAULT, "multicast ctaMask 0x5 names CTAs outside the cluster of 2");
        snprintf(name, sizeof name, "%s: ... at the copy", pn);
        CHECK_MSG(name, &r, INTERP_FAULT, "at test.ptx:19: cp.async.bulk.shared::cluster.global");
        th_free(&r);

        run_map(&r, reduce_dsmem, 2, pols[p]);
        snprintf(name, sizeof name, "%s: cp.reduce.async.bulk shared::cta -> peer shared::cluster runs", pn);
        CHECK_OK(name, &r);
        int bad = -1;
        for (unsigned i = 0; i < 32 && bad < 0; i++) {
            uint32_t want = i < 16 ? 100 + 4 * i : 100 + i;   /* 64 bytes reduced, the rest as filled */
            if (th_u32(&r, i) != want)
                bad = (int)i;
        }
        snprintf(name, sizeof name, "%s: ... rank 1's words are 100 + i + 3 i over 64 bytes", pn);
        if (bad < 0) printf("PASS %s\n", name);
        else {
            printf("FAIL %s: word %d is %u\n", name, bad, th_u32(&r, (unsigned)bad));
            check_failures++;
        }
        th_free(&r);
    }
}

/* ---- engine: .im2col_no_offs store ------------------------------------------------ */

static uint8_t smem[1 << 16];

/* NHWC u32 [N=2][H=6][W=8][C=4], word = c | w << 8 | h << 16 | n << 24 | 1 << 31,
 * corners W/H [-1, 1].  16 pixels from (w=5, h=-1, n=0) along W then H, through
 * the bounding box [lower, dim - 1 + upper] = [-1, 8]: pixels outside the
 * tensor load as zeros, and a store leaves them out. */
static void test_im2col_no_offs(void)
{
    mem_global *g = mem_global_new();
    const uint32_t C = 4, W = 8, H = 6, N = 2, n_el = C * W * H * N;
    uint64_t a = mem_global_alloc(g, n_el * 4, 256, "a"), b = mem_global_alloc(g, n_el * 4, 256, "b");
    uint32_t *ha = (uint32_t *)mem_global_host(g, a, n_el * 4), *hb = (uint32_t *)mem_global_host(g, b, n_el * 4);
    for (uint32_t n = 0; n < N; n++)
        for (uint32_t h = 0; h < H; h++)
            for (uint32_t w = 0; w < W; w++)
                for (uint32_t c = 0; c < C; c++)
                    ha[((n * H + h) * W + w) * C + c] = c | w << 8 | h << 16 | n << 24 | 1u << 31;
    memset(hb, 0, n_el * 4);
    uint8_t raw[128];
    uint64_t gd[4] = {C, W, H, N}, gs[3] = {C * 4, C * W * 4, C * W * H * 4};
    int lo[2] = {-1, -1}, up[2] = {1, 1};
    uint32_t es[4] = {1, 1, 1, 1};
    char why[512];
    tma_map ma, mb;
    int rc = tma_encode_im2col(raw, TMA_DT_UINT32, 4, a, gd, gs, lo, up, C, 16, es, TMA_INTERLEAVE_NONE,
                               TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    rc = rc ? rc : tma_decode(raw, &ma, why, sizeof why);
    rc = rc ? rc : tma_encode_im2col(raw, TMA_DT_UINT32, 4, b, gd, gs, lo, up, C, 16, es, TMA_INTERLEAVE_NONE,
                                     TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    rc = rc ? rc : tma_decode(raw, &mb, why, sizeof why);
    CHECK("im2col_no_offs: maps encode", rc == 0);
    if (rc) { printf("# %s\n", why); mem_global_free(g); return; }
    tma_request r;
    memset(&r, 0, sizeof r);
    r.kind = TMA_LOAD; r.mode = TMA_IM2COL; r.dim = 4; r.map = &ma;
    r.coords[0] = 0; r.coords[1] = 5; r.coords[2] = -1; r.coords[3] = 0;
    r.smem = smem; r.smem_size = sizeof smem;
    uint32_t tx = 0;
    rc = tma_execute(&r, g, &tx, why, sizeof why);
    CHECK("im2col_no_offs: the im2col load runs", rc == 0 && tx == 16 * C * 4);
    r.kind = TMA_STORE; r.mode = TMA_IM2COL_NO_OFFS; r.map = &mb;
    rc = rc ? rc : tma_execute(&r, g, NULL, why, sizeof why);
    CHECK("im2col_no_offs: the store runs", rc == 0);
    /* the pixel walk: w from 5 to 8 (the box's upper W), then w = -1.. of the next h */
    int in[N][H][W];
    memset(in, 0, sizeof in);
    int w = 5, h = -1, n = 0;
    for (int p = 0; p < 16; p++) {
        if (w >= 0 && w < (int)W && h >= 0 && h < (int)H)
            in[n][h][w] = 1;
        if (++w > (int)W - 1 + up[0]) {
            w = lo[0];
            if (++h > (int)H - 1 + up[1]) { h = lo[1]; n++; }
        }
    }
    int bad = -1, moved = 0;
    for (uint32_t i = 0; i < n_el && bad < 0; i++) {
        uint32_t pw = i / C % W, ph = i / C / W % H, pn = i / C / W / H;
        uint32_t want = in[pn][ph][pw] ? ha[i] : 0;
        moved += want != 0;
        if (hb[i] != want)
            bad = (int)i;
    }
    snprintf(why, sizeof why, "im2col_no_offs: the store puts each of the load's %d in-tensor pixels back, "
             "nothing else", moved / (int)C);
    int want_px = 0;
    for (int i = 0; i < (int)(N * H * W); i++) want_px += ((int *)in)[i];
    if (bad < 0 && want_px > 0 && moved == want_px * (int)C) printf("PASS %s\n", why);
    else {
        printf("FAIL %s: word %d is 0x%x, want 0x%x (%d words moved)\n", why, bad, bad < 0 ? 0 : hb[bad],
               bad < 0 ? 0 : ha[bad], moved);
        check_failures++;
    }
    mem_global_free(g);
}

/* ---- engine: the words of the "box exceeds shared memory" fault ------------------- */

static int smem_fault(int dt, uint32_t rank, const uint64_t *gd, const uint64_t *gs, const uint32_t *box, int il,
                      int sw, char *why, size_t n)
{
    mem_global *g = mem_global_new();
    uint64_t a = mem_global_alloc(g, gs[rank - 2] * gd[rank - 1], 256, "t");
    uint32_t es[5] = {1, 1, 1, 1, 1};
    uint8_t raw[128];
    tma_map m;
    int rc = tma_encode_tiled(raw, dt, rank, a, gd, gs, box, es, il, sw, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, n);
    rc = rc ? -1 : tma_decode(raw, &m, why, n) ? -1 : 0;
    if (!rc) {
        tma_request r;
        memset(&r, 0, sizeof r);
        r.kind = TMA_LOAD; r.mode = TMA_TILE; r.dim = (int)rank; r.map = &m;
        r.smem = smem; r.smem_size = 1024; r.smem_off = 0;
        rc = tma_check(&r, NULL, why, n);
    }
    mem_global_free(g);
    return rc;
}

static void test_fault_words(void)
{
    char why[512], name[200];
    static const struct {
        const char *what;
        int dt, il, sw;
        uint32_t rank;
        uint64_t gd[3], gs[2];
        uint32_t box[3];
        const char *has, *lacks;
    } cs[] = {
        /* tile_load_0162's layout: one 16-byte row per 64 bytes */
        {"64B swizzle, 16-byte rows", TMA_DT_UINT8, TMA_INTERLEAVE_NONE, TMA_SWIZZLE_64B, 2, {64, 40, 0}, {64, 0},
         {16, 32, 0}, "needs 2048 bytes of shared memory from offset 0x0 (32 rows x 64-byte pitch: each 16-byte "
         "row padded to the 64-byte swizzle span)", NULL},
        {"128B swizzle, 128-byte rows", TMA_DT_FLOAT16, TMA_INTERLEAVE_NONE, TMA_SWIZZLE_128B, 2, {64, 40, 0},
         {128, 0}, {64, 16, 0}, "needs 2048 bytes of shared memory from offset 0x0 (16 rows x 128-byte pitch)",
         "padded"},
        {"no swizzle", TMA_DT_FLOAT32, TMA_INTERLEAVE_NONE, TMA_SWIZZLE_NONE, 2, {64, 80, 0}, {256, 0},
         {8, 64, 0}, "needs 2048 bytes of shared memory from offset 0x0 (64 rows x 32-byte pitch)", "padded"},
        /* interleave/il_win_over's map: rows packed, 32 slices of 32 bytes */
        {"interleave 32B, 32B swizzle", TMA_DT_UINT8, TMA_INTERLEAVE_32B, TMA_SWIZZLE_32B, 3, {32, 6, 5},
         {32, 192}, {32, 4, 3}, "needs 3072 bytes of shared memory from offset 0x0 (3 rows of 32 32-byte slices, "
         "packed: with interleave 32B box_dim[0] counts slices and dimension 1 spans one position)", "padded"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        int rc = smem_fault(cs[i].dt, cs[i].rank, cs[i].gd, cs[i].gs, cs[i].box, cs[i].il, cs[i].sw, why, sizeof why);
        snprintf(name, sizeof name, "smem fault words/%s", cs[i].what);
        if (rc == TMA_FAULT_ILLEGAL_ADDRESS && strstr(why, cs[i].has) && !(cs[i].lacks && strstr(why, cs[i].lacks)))
            printf("PASS %s\n", name);
        else {
            printf("FAIL %s: rc %d: %s\n    want: %s%s%s\n", name, rc, why, cs[i].has,
                   cs[i].lacks ? ", without " : "", cs[i].lacks ? cs[i].lacks : "");
            check_failures++;
        }
    }
}

int main(void)
{
    (void)th_run_k;   /* the harness's runner: this file needs buffers of its own (run_map) */
    test_interp_forms();
    test_im2col_no_offs();
    test_fault_words();
    CHECK_DONE();
}
