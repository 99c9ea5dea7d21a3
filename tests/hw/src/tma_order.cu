// order.cu: the order in which a TMA load (cp.async.bulk.tensor tile, plain
// cp.async.bulk, multicast tile) writes its 16-byte chunks into shared memory
// on the GPU (ptxi tests/hw/tma_order).
//
// One CTA of 512 threads per run.  Every thread fills the 64 KiB destination
// with the sentinel 0xA5A5A5A5, thread 0 initialises an mbarrier (count 1),
// fence.proxy.async, __syncthreads.  Warp 0 lane 0 then reads %clock64 (t0),
// arrive.expect_tx(expect) and issues the load, and waits on the phase.
// Polling warps 1..npoll each watch one 512-byte region of the destination
// (lane i: the 16-byte chunk region*32+i) with ld.volatile.shared.v4 in a
// tight loop; each time the warp's state changes (ballot of lanes whose chunk
// differs from the sentinel in any word, ballot of lanes whose chunk differs
// in all four words, and, when expect < tx, the mbarrier phase seen by
// test_wait.parity 0 in the same iteration) lane 0 records the %clock64 of
// the iteration before and of this one with the state.  All times are %clock64
// of the one SM, so they compare with t0.
//
// Build: nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o tma_order tma_order.cu -lcuda
// Run:   tma_order PREFIX SECONDS [CONFIG]  (PREFIX_CONFIG.bin per configuration of
//        the table in main; tma_order_analyze.py PREFIX OUTDIR aggregates them)
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

#define SENT 0xA5A5A5A5u
#define MAXREC 96
#define MAXW 15
#define NTHR 512

struct Params {
    int kind;              // 0 tensor tile, 1 cp.async.bulk, 2 tensor tile multicast to a cluster of 2
    int rank;
    unsigned tx;           // bytes the load brings
    unsigned expect;       // expect_tx
    int npoll;             // polling warps (<= 15)
    const int *coords;     // 5 per CTA
    const unsigned long long *src; // per CTA (kind 1)
    const int *regions;    // MAXW per CTA
    unsigned *rec;         // per CTA per warp MAXREC*6
    unsigned *cnt;         // per CTA per warp
    unsigned long long *hdr; // per CTA 8
    unsigned long long deadline; // cycles
};

__device__ __forceinline__ unsigned long long clk()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    return t;
}

__device__ __forceinline__ bool try_wait(uint32_t bar, uint32_t parity)
{
    uint32_t ok;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
    return ok;
}

__device__ __forceinline__ bool test_wait(uint32_t bar, uint32_t parity)
{
    uint32_t ok;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
    return ok;
}

__device__ __forceinline__ void issue(const CUtensorMap *tm, const Params &p, uint32_t d, uint32_t bar, const int *c,
                                      unsigned long long src)
{
    if (p.kind == 1) {
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(d), "l"(src), "r"(p.tx), "r"(bar) : "memory");
    } else if (p.kind == 2) {
        uint16_t mask = 3;
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%2, %3}], [%4], %5;"
                     :: "r"(d), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(bar), "h"(mask) : "memory");
    } else if (p.rank == 2) {
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(d), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(bar) : "memory");
    } else if (p.rank == 3) {
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];"
                     :: "r"(d), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory");
    } else {
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                     :: "r"(d), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory");
    }
}

__global__ void __launch_bounds__(NTHR, 1) probe(const __grid_constant__ CUtensorMap tm, Params p)
{
    extern __shared__ __align__(1024) unsigned char sraw[];
    __shared__ __align__(8) unsigned long long bar;
    unsigned char *dst = (unsigned char *)(((uintptr_t)sraw + 1023) & ~(uintptr_t)1023);
    uint32_t sdst = (uint32_t)__cvta_generic_to_shared(dst);
    uint32_t sbar = (uint32_t)__cvta_generic_to_shared(&bar);
    uint32_t crank = 0;
    if (p.kind == 2)
        asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
    int cta = blockIdx.x;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (unsigned i = threadIdx.x; i < p.tx / 16; i += NTHR)
        ((uint4 *)dst)[i] = make_uint4(SENT, SENT, SENT, SENT);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sbar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (p.kind == 2) {
        asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
    bool shortx = p.expect < p.tx;
    if (warp == 0) {
        if (lane == 0) {
            unsigned long long t0 = clk(), t1 = 0, td = 0, td1 = 0, st = 0;
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sbar), "r"(p.expect) : "memory");
            if (p.kind != 2 || crank == 0)
                issue(&tm, p, sdst, sbar, p.coords + 5 * (p.kind == 2 ? cta / 2 * 2 : cta), p.src[cta]);
            t1 = clk();
            for (;;) {
                if (try_wait(sbar, 0)) { td = clk(); st |= 1; break; }
                if (clk() - t0 > p.deadline) break;
            }
            if (shortx && (st & 1)) {
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sbar), "r"(p.tx - p.expect) : "memory");
                for (;;) {
                    if (try_wait(sbar, 1)) { td1 = clk(); st |= 2; break; }
                    if (clk() - t0 > 2 * p.deadline) break;
                }
            }
            uint32_t smid;
            asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
            unsigned long long *h = p.hdr + 8 * cta;
            h[0] = t0; h[1] = t1; h[2] = td; h[3] = td1; h[4] = st; h[5] = smid; h[6] = crank;
        }
    } else if (warp <= p.npoll) {
        int region = p.regions[cta * MAXW + warp - 1];
        uint32_t a = sdst + (uint32_t)(region * 32 + lane) * 16;
        unsigned *rec = p.rec + ((size_t)cta * MAXW + warp - 1) * MAXREC * 6;
        unsigned pany = 0, pfull = 0, pph = 0, n = 0;
        unsigned long long start = clk(), tprev = start;
        for (;;) {
            uint32_t x, y, z, w;
            asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
            unsigned m = (x != SENT) | (y != SENT) << 1 | (z != SENT) << 2 | (w != SENT) << 3;
            unsigned any = __ballot_sync(~0u, m != 0), full = __ballot_sync(~0u, m == 15);
            unsigned ph = 0;
            if (shortx) {
                unsigned ok = 0;
                if (lane == 0) ok = test_wait(sbar, 0);
                ph = __shfl_sync(~0u, ok, 0);
            }
            unsigned long long tnow = clk();
            if (any != pany || full != pfull || ph != pph) {
                if (lane == 0 && n < MAXREC) {
                    unsigned *r = rec + 6 * n;
                    r[0] = (unsigned)tprev; r[1] = (unsigned)tnow; r[2] = any; r[3] = full; r[4] = ph;
                    r[5] = (unsigned)(tnow >> 32);
                }
                n++;
                pany = any; pfull = full; pph = ph;
            }
            if (full == ~0u && (!shortx || ph))
                break;
            if (tnow - start > p.deadline) { n |= 0x80000000u; break; }
            tprev = tnow;
        }
        if (lane == 0)
            p.cnt[cta * MAXW + warp - 1] = n;
    }
    __syncthreads();
    if (p.kind == 2) {
        asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
}

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Cfg {
    const char *name;
    int kind, rank;
    unsigned tx, expect;
    int grid, npoll, cold, launches;
    // tensor map
    int dt; cuuint64_t gd[5]; cuuint64_t gs[4]; cuuint32_t box[5]; int sw;
    int xoff; // added to coordinate 0 (elements): rows that start 16 bytes into a 32-byte sector
};

static uint64_t rs = 88172645463325252ull;
static uint64_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }

int main(int argc, char **argv)
{
    const char *pre = argc > 1 ? argv[1] : "res";
    double budget = argc > 2 ? atof(argv[2]) : 60;
    const char *only = argc > 3 ? argv[3] : NULL;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int nsm = prop.multiProcessorCount;
    printf("device %s sms %d\n", prop.name, nsm);
    // 64 MiB source of distinct words (never the sentinel), a 256 MiB flush buffer
    size_t SRC = 64u << 20;
    unsigned *src;
    CK(cudaMalloc(&src, SRC + 4096));
    {
        std::vector<unsigned> h(SRC / 4);
        for (size_t i = 0; i < h.size(); i++) {
            unsigned v = (unsigned)(i * 2654435761u) ^ 0x5a17u;
            h[i] = v == SENT ? 1 : v;
        }
        CK(cudaMemcpy(src, h.data(), SRC, cudaMemcpyHostToDevice));
    }
    void *flush;
    size_t FL = 256u << 20;
    CK(cudaMalloc(&flush, FL));
    CK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536 + 1024));

    const int U32 = CU_TENSOR_MAP_DATA_TYPE_UINT32;
    std::vector<Cfg> cfgs = {
        // name kind rank tx expect grid npoll cold launches dt gd gs box sw xoff
        {"t2d_warm", 0, 2, 65536, 65536, 0, 15, 0, 40, U32, {4096, 4096}, {16384}, {64, 256}, 0, 0},
        {"t2d_cold", 0, 2, 65536, 65536, 0, 15, 1, 40, U32, {4096, 4096}, {16384}, {64, 256}, 0, 0},
        {"t2d_off16_warm", 0, 2, 65536, 65536, 0, 15, 0, 30, U32, {4096, 4096}, {16384}, {64, 256}, 0, 4},
        {"t2d_off16_cold", 0, 2, 65536, 65536, 0, 15, 1, 30, U32, {4096, 4096}, {16384}, {64, 256}, 0, 4},
        {"t2d_row48_cold", 0, 2, 12288, 12288, 0, 15, 1, 30, U32, {4096, 4096}, {16384}, {12, 256}, 0, 0},
        {"t2d_row48_off16_cold", 0, 2, 12288, 12288, 0, 15, 1, 30, U32, {4096, 4096}, {16384}, {12, 256}, 0, 4},
        {"t2d_sw128_cold", 0, 2, 32768, 32768, 0, 15, 1, 30, U32, {4096, 4096}, {16384}, {32, 256}, 3, 0},
        {"t5d_cold", 0, 5, 65536, 65536, 0, 15, 1, 30, U32, {64, 16, 16, 16, 64}, {256, 4096, 65536, 1048576}, {16, 4, 4, 4, 16}, 0, 0},
        {"bulk_warm", 1, 1, 65536, 65536, 0, 15, 0, 30, U32, {0}, {0}, {0}, 0, 0},
        {"bulk_cold", 1, 1, 65536, 65536, 0, 15, 1, 30, U32, {0}, {0}, {0}, 0, 0},
        {"mc2d_cold", 2, 2, 65536, 65536, 0, 15, 1, 30, U32, {4096, 4096}, {16384}, {64, 256}, 0, 0},
        {"t2d_half_cold", 0, 2, 65536, 32768, 0, 15, 1, 30, U32, {4096, 4096}, {16384}, {64, 256}, 0, 0},
    };
    struct timespec ts0;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    int maxg = nsm;
    int *dco, *dreg;
    unsigned long long *dsrc, *dhdr;
    unsigned *drec, *dcnt;
    CK(cudaMalloc(&dco, 5 * sizeof(int) * maxg));
    CK(cudaMalloc(&dreg, MAXW * sizeof(int) * maxg));
    CK(cudaMalloc(&dsrc, sizeof(unsigned long long) * maxg));
    CK(cudaMalloc(&dhdr, 8 * sizeof(unsigned long long) * maxg));
    CK(cudaMalloc(&drec, (size_t)maxg * MAXW * MAXREC * 6 * 4));
    CK(cudaMalloc(&dcnt, (size_t)maxg * MAXW * 4));
    std::vector<int> hco(5 * maxg), hreg(MAXW * maxg);
    std::vector<unsigned long long> hsrc(maxg), hhdr(8 * maxg);
    std::vector<unsigned> hrec((size_t)maxg * MAXW * MAXREC * 6), hcnt(maxg * MAXW);
    int ci = 0;
    for (Cfg &c : cfgs) {
        ci++;
        if (only && strcmp(c.name, only)) continue;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double el = ts.tv_sec - ts0.tv_sec + 1e-9 * (ts.tv_nsec - ts0.tv_nsec);
        if (el > budget) { printf("skip %s (budget)\n", c.name); continue; }
        int grid = c.grid ? c.grid : (c.kind == 2 ? nsm / 2 * 2 : nsm);
        CUtensorMap tm;
        memset(&tm, 0, sizeof tm);
        if (c.kind != 1) {
            cuuint32_t es[5] = {1, 1, 1, 1, 1};
            CUresult r = cuTensorMapEncodeTiled(&tm, (CUtensorMapDataType)c.dt, c.rank, src, c.gd, c.gs, c.box, es,
                                                CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)c.sw,
                                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
            if (r) { printf("encode %s failed %d\n", c.name, (int)r); continue; }
        }
        char fn[512];
        snprintf(fn, sizeof fn, "%s_%s.bin", pre, c.name);
        FILE *f = fopen(fn, "wb");
        unsigned nreg = c.tx / 512;
        int hd[8] = {c.kind, c.rank, (int)c.tx, (int)c.expect, grid, c.npoll, c.cold,
                      (c.xoff * 4) << 16 | (c.kind == 1 ? 0 : (int)c.box[0] * 4) | (c.sw ? 1 << 15 : 0)};
        fwrite(hd, 4, 8, f);
        Params p;
        p.kind = c.kind; p.rank = c.rank; p.tx = c.tx; p.expect = c.expect; p.npoll = c.npoll;
        p.coords = dco; p.src = dsrc; p.regions = dreg; p.rec = drec; p.cnt = dcnt; p.hdr = dhdr;
        p.deadline = 4000000ull;
        int done = 0, fails = 0;
        for (int L = 0; L < c.launches; L++) {
            for (int k = 0; k < grid; k++) {
                int *co = &hco[5 * k];
                if (c.kind == 1) {
                    co[0] = co[1] = co[2] = co[3] = co[4] = 0;
                    hsrc[k] = (unsigned long long)src + (rnd() % (SRC / 65536 - 1)) * 65536 + (rnd() % 256) * 16;
                } else {
                    for (int d = 0; d < c.rank; d++) {
                        uint64_t span = c.gd[d] - c.box[d];
                        co[d] = (int)(rnd() % (span / c.box[d])) * c.box[d] + (d == 0 ? c.xoff : 0);
                    }
                    for (int d = c.rank; d < 5; d++) co[d] = 0;
                    hsrc[k] = 0;
                }
                // regions: a random distinct set, and each 8 launches sweep all
                int *rg = &hreg[MAXW * k];
                for (int w = 0; w < MAXW; w++) {
                    for (;;) {
                        int v = (int)(rnd() % nreg), dup = 0;
                        for (int u = 0; u < w; u++) dup |= rg[u] == v;
                        if (!dup) { rg[w] = v; break; }
                    }
                }
            }
            CK(cudaMemcpy(dco, hco.data(), 5 * 4 * grid, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dreg, hreg.data(), MAXW * 4 * grid, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dsrc, hsrc.data(), 8 * grid, cudaMemcpyHostToDevice));
            for (int rep = 0; rep < (c.cold ? 1 : 2); rep++) {
                if (c.cold) CK(cudaMemset(flush, rep + L, FL));
                CK(cudaMemset(dcnt, 0, 4 * MAXW * grid));
                cudaLaunchConfig_t lc = {};
                lc.gridDim = dim3(grid);
                lc.blockDim = dim3(NTHR);
                lc.dynamicSmemBytes = 65536 + 1024;
                cudaLaunchAttribute at[1];
                at[0].id = cudaLaunchAttributeClusterDimension;
                at[0].val.clusterDim.x = 2; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
                lc.attrs = at;
                lc.numAttrs = c.kind == 2 ? 1 : 0;
                CK(cudaLaunchKernelEx(&lc, probe, tm, p));
                CK(cudaDeviceSynchronize());
            }
            CK(cudaMemcpy(hhdr.data(), dhdr, 8 * 8 * grid, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hcnt.data(), dcnt, 4 * MAXW * grid, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hrec.data(), drec, (size_t)grid * MAXW * MAXREC * 6 * 4, cudaMemcpyDeviceToHost));
            // per CTA: 'C' launch cta smid crank status t1-t0 td-t0 td1-t0 co0..4 ; per warp: 'W' region n, recs
            for (int k = 0; k < grid; k++) {
                unsigned long long *h = &hhdr[8 * k];
                if ((h[4] & 1) == 0) fails++;
                int cr[16] = {L, k, (int)h[5], (int)h[6], (int)h[4], (int)(h[1] - h[0]), (int)(h[2] ? (long long)(h[2] - h[0]) : -1LL),
                              (int)(h[3] ? (long long)(h[3] - h[0]) : -1LL), hco[5 * k], hco[5 * k + 1], hco[5 * k + 2], hco[5 * k + 3],
                              hco[5 * k + 4], (int)(hsrc[k] ? hsrc[k] - (unsigned long long)src : 0), 0, 0};
                fwrite(cr, 4, 16, f);
                for (int w = 0; w < c.npoll; w++) {
                    unsigned n = hcnt[k * MAXW + w];
                    unsigned nn = (n & 0x7fffffff) < MAXREC ? (n & 0x7fffffff) : MAXREC;
                    int wh[4] = {hreg[MAXW * k + w], (int)n, (int)nn, 0};
                    fwrite(wh, 4, 4, f);
                    for (unsigned j = 0; j < nn; j++) {
                        unsigned *r = &hrec[(((size_t)k * MAXW + w) * MAXREC + j) * 6];
                        unsigned long long tn = ((unsigned long long)r[5] << 32) | r[1];
                        long long dn = (long long)(tn - h[0]);
                        long long dp = dn - (long long)(unsigned)(r[1] - r[0]);
                        int rr[5] = {(int)dp, (int)dn, (int)r[2], (int)r[3], (int)r[4]};
                        fwrite(rr, 4, 5, f);
                    }
                }
            }
            done++;
        }
        fclose(f);
        clock_gettime(CLOCK_MONOTONIC, &ts);
        el = ts.tv_sec - ts0.tv_sec + 1e-9 * (ts.tv_nsec - ts0.tv_nsec);
        printf("cfg %s launches %d grid %d fails %d at %.1fs\n", c.name, done, grid, fails, el);
        fflush(stdout);
    }
    return 0;
}
