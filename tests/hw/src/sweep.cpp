// sweep.cpp: the acct GPU sweeps (driver API).
//   sweep E cases_im2col.txt      cuTensorMapEncodeIm2col status + 128 bytes per line
//   sweep M cases_i2t.txt START   the same with im2col loads (txprobe_im2col.ptx,
//       kernel tx_probe_im2col; each line adds lower[3] upper[3] cpp ppc offsets)
//   sweep T cases_tile.txt START  tile loads (txprobe.ptx, mode 3): the byte count
//       a load credits to its mbarrier.  expect_tx = ptxi's count first; a
//       status of 1 there means exact (the phase completed and no byte came
//       after it); 4 (more came) scans up, 2 (never completed) scans down in
//       16-byte steps.  Then expect_tx at credit+16, +1, -1, -16, -32 (status,
//       bytes differing from the exact run's) and three snapshots of shared
//       memory taken the moment a half-count phase completed (mode 4).
// Output lines go to stdout, flushed per case. A launch error prints
// "FAULT <index> <name> <error>" and exits 3 (the context is poisoned); job.sh
// restarts from the next case.
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <vector>
#include <string>

static const CUtensorMapDataType DT[] = {CU_TENSOR_MAP_DATA_TYPE_UINT8, CU_TENSOR_MAP_DATA_TYPE_UINT16,
    CU_TENSOR_MAP_DATA_TYPE_UINT32, CU_TENSOR_MAP_DATA_TYPE_INT32, CU_TENSOR_MAP_DATA_TYPE_UINT64,
    CU_TENSOR_MAP_DATA_TYPE_INT64, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
    CU_TENSOR_MAP_DATA_TYPE_FLOAT64, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
    CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ};

static uint32_t h32(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

static const char *ename(CUresult r)
{
    const char *s = NULL;
    cuGetErrorName(r, &s);
    return s ? s : "?";
}

static void hex(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}


#define CK(x) do { CUresult r_ = (x); if (r_) { printf("ERR %s line %d: %s\n", #x, __LINE__, ename(r_)); fflush(stdout); exit(2); } } while (0)

static int encode_sweep(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) { printf("ERR open %s\n", file); return 2; }
    CUdeviceptr base;
    CK(cuMemAlloc(&base, 1 << 20));
    char name[64];
    int dt, rank, il, sw, l2, oob, cpp, ppc;
    unsigned long long off;
    while (fscanf(f, "%63s %d %d %d %d %d %d %llu", name, &dt, &rank, &il, &sw, &l2, &oob, &off) == 8) {
        cuuint64_t gd[5], gs[4];
        int lo[3], up[3];
        cuuint32_t es[5];
        for (int i = 0; i < 5; i++) { unsigned long long v; if (fscanf(f, "%llu", &v) != 1) return 2; gd[i] = v; }
        for (int i = 0; i < 4; i++) { unsigned long long v; if (fscanf(f, "%llu", &v) != 1) return 2; gs[i] = v; }
        for (int i = 0; i < 3; i++) if (fscanf(f, "%d", &lo[i]) != 1) return 2;
        for (int i = 0; i < 3; i++) if (fscanf(f, "%d", &up[i]) != 1) return 2;
        if (fscanf(f, "%d %d", &cpp, &ppc) != 2) return 2;
        for (int i = 0; i < 5; i++) { unsigned v; if (fscanf(f, "%u", &v) != 1) return 2; es[i] = v; }
        CUtensorMap tm;
        memset(&tm, 0, sizeof tm);
        CUresult r = cuTensorMapEncodeIm2col(&tm, DT[dt], rank, (void *)(base + off), gd, gs, lo, up, cpp, ppc, es,
                                             (CUtensorMapInterleave)il, (CUtensorMapSwizzle)sw,
                                             (CUtensorMapL2promotion)l2, (CUtensorMapFloatOOBfill)oob);
        printf("E %s %s ", name, r ? ename(r) : "CUDA_SUCCESS");
        if (!r) hex((const uint8_t *)&tm, 128); else printf("-");
        printf("\n");
        fflush(stdout);
    }
    fclose(f);
    return 0;
}

struct TCase {
    std::string name;
    int dt, rank, il, sw, l2, oob;
    unsigned long long off, tbytes, seed;
    cuuint64_t gd[5], gs[4];
    cuuint32_t box[5], es[5];
    int c[5];
    unsigned nbytes, e_ptxi, e_alt;
    int im2col, lo[3], up[3];
    unsigned cpp, ppc, offs;
};

static CUfunction fn;
static CUdeviceptr dstd, statd;

static CUfunction fn_im;

static int launch(const TCase &t, CUtensorMap *tm, uint32_t expect, uint32_t mode, uint64_t tmo, uint32_t *st,
                  std::vector<uint8_t> *dump, const char *what)
{
    CK(cuMemsetD8(statd, 0, 64));
    CK(cuMemsetD8(dstd, 0x5A, t.nbytes));
    int rank = t.rank;
    int c0 = t.c[0], c1 = t.c[1], c2 = t.c[2], c3 = t.c[3], c4 = t.c[4];
    uint32_t nb = t.nbytes;
    uint32_t offs = t.offs;
    void *args[] = {tm, &rank, &c0, &c1, &c2, &c3, &c4, &expect, &mode, &tmo, &nb, &dstd, &statd, &offs};
    CUresult r = cuLaunchKernel(t.im2col ? fn_im : fn, 1, 1, 1, 32, 1, 1, nb + 1024, 0, args, 0);
    if (!r) r = cuCtxSynchronize();
    if (r) {
        printf("FAULT %s %s %s expect=%u mode=%u\n", t.name.c_str(), ename(r), what, expect, mode);
        fflush(stdout);
        exit(3);
    }
    CK(cuMemcpyDtoH(st, statd, 64));
    if (dump) { dump->resize(nb); CK(cuMemcpyDtoH(dump->data(), dstd, nb)); }
    return 0;
}

static int tile_sweep(const char *file, int start, int im2col)
{
    FILE *f = fopen(file, "r");
    if (!f) { printf("ERR open %s\n", file); return 2; }
    std::vector<TCase> cs;
    char name[64];
    for (;;) {
        TCase t;
        if (fscanf(f, "%63s %d %d %d %d %d %d %llu %llu %llu", name, &t.dt, &t.rank, &t.il, &t.sw, &t.l2, &t.oob,
                   &t.off, &t.tbytes, &t.seed) != 10) break;
        t.name = name;
        for (int i = 0; i < 5; i++) { unsigned long long v; if (fscanf(f, "%llu", &v) != 1) return 2; t.gd[i] = v; }
        for (int i = 0; i < 4; i++) { unsigned long long v; if (fscanf(f, "%llu", &v) != 1) return 2; t.gs[i] = v; }
        for (int i = 0; i < 5; i++) if (fscanf(f, "%u", &t.box[i]) != 1) return 2;
        for (int i = 0; i < 5; i++) if (fscanf(f, "%u", &t.es[i]) != 1) return 2;
        for (int i = 0; i < 5; i++) if (fscanf(f, "%d", &t.c[i]) != 1) return 2;
        if (fscanf(f, "%u %u %u", &t.nbytes, &t.e_ptxi, &t.e_alt) != 3) return 2;
        t.im2col = im2col;
        t.offs = 0;
        if (im2col) {
            for (int i = 0; i < 3; i++) if (fscanf(f, "%d", &t.lo[i]) != 1) return 2;
            for (int i = 0; i < 3; i++) if (fscanf(f, "%d", &t.up[i]) != 1) return 2;
            if (fscanf(f, "%u %u %u", &t.cpp, &t.ppc, &t.offs) != 3) return 2;
        }
        cs.push_back(t);
    }
    fclose(f);
    CUmodule mod;
    std::vector<char> ptx;
    {
        FILE *p = fopen(im2col ? "txprobe_im2col.ptx" : "txprobe.ptx", "rb");
        if (!p) { printf("ERR no txprobe.ptx\n"); return 2; }
        fseek(p, 0, SEEK_END); long n = ftell(p); fseek(p, 0, SEEK_SET);
        ptx.resize(n + 1); if (fread(ptx.data(), 1, n, p) != (size_t)n) return 2; ptx[n] = 0; fclose(p);
    }
    CK(cuModuleLoadData(&mod, ptx.data()));
    CK(cuModuleGetFunction(&fn, mod, "tx_probe"));
    if (im2col) {
        CK(cuModuleGetFunction(&fn_im, mod, "tx_probe_im2col"));
        CK(cuFuncSetAttribute(fn_im, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 200 * 1024));
    }
    CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 200 * 1024));
    CK(cuMemAlloc(&dstd, 256 * 1024));
    CK(cuMemAlloc(&statd, 64));
    for (size_t k = start; k < cs.size(); k++) {
        TCase &t = cs[k];
        printf("I %zu\n", k);
        fflush(stdout);
        CUdeviceptr buf;
        CK(cuMemAlloc(&buf, t.tbytes + 256));
        {
            std::vector<uint8_t> h(t.tbytes);
            for (size_t i = 0; i < t.tbytes; i++) {
                uint32_t w = h32((uint32_t)(i / 4) * 0x9E3779B9u ^ (uint32_t)t.seed);
                h[i] = (uint8_t)(w >> (8 * (i % 4)));
            }
            CK(cuMemcpyHtoD(buf, h.data(), t.tbytes));
        }
        CUtensorMap tm;
        memset(&tm, 0, sizeof tm);
        CUresult r = t.im2col
            ? cuTensorMapEncodeIm2col(&tm, DT[t.dt], t.rank, (void *)(buf + t.off), t.gd, t.gs, t.lo, t.up, t.cpp, t.ppc,
                                      t.es, (CUtensorMapInterleave)t.il, (CUtensorMapSwizzle)t.sw,
                                      (CUtensorMapL2promotion)t.l2, (CUtensorMapFloatOOBfill)t.oob)
            : cuTensorMapEncodeTiled(&tm, DT[t.dt], t.rank, (void *)(buf + t.off), t.gd, t.gs, t.box, t.es,
                                     (CUtensorMapInterleave)t.il, (CUtensorMapSwizzle)t.sw,
                                     (CUtensorMapL2promotion)t.l2, (CUtensorMapFloatOOBfill)t.oob);
        printf("T %s enc %s ", t.name.c_str(), r ? ename(r) : "CUDA_SUCCESS");
        if (!r) hex((const uint8_t *)&tm, 128); else printf("-");
        printf("\n");
        fflush(stdout);
        if (r) { cuMemFree(buf); continue; }
        uint32_t st[16];
        std::vector<uint8_t> d1, d2, dx;
        const uint64_t TMO = 200000;
        long long E = t.e_ptxi;
        launch(t, &tm, (uint32_t)E, 3, TMO, st, &d1, "exact1");
        uint32_t s1 = st[0];
        launch(t, &tm, (uint32_t)E, 3, TMO, st, &d2, "exact2");
        uint32_t s2 = st[0];
        printf("T %s exact %lld %u %u same=%d\n", t.name.c_str(), E, s1, s2, d1 == d2);
        printf("T %s data ", t.name.c_str());
        hex(d1.data(), d1.size());
        printf("\n");
        long long C = -1;
        if (s1 == 1 && s2 == 1) C = E;
        else if (s1 == 4 || s2 == 4) { // more credited: find the count that completes both phases
            for (long long e = E + 16; e < (1 << 20) && e <= E + 16 * 512; e += 16) {
                launch(t, &tm, (uint32_t)e, 3, TMO, st, NULL, "up");
                if (st[0] == 1) { C = e; break; }
                if (st[0] == 2) break;
            }
        } else if (s1 == 2 || s2 == 2) { // fewer: scan down
            for (long long e = E - 16; e >= 0 && e >= E - 16 * 512; e -= 16) {
                launch(t, &tm, (uint32_t)e, 3, TMO, st, NULL, "down");
                if (st[0] == 1) { C = e; break; }
            }
        }
        printf("T %s credit %lld\n", t.name.c_str(), C);
        if (C >= 0) {
            long long tries[] = {C + 16, C + 1, C - 1, C - 16, C - 32, (long long)t.e_alt};
            printf("T %s tries", t.name.c_str());
            for (long long e : tries) {
                if (e < 0 || e >= (1 << 20)) { printf(" %lld:-", e); continue; }
                launch(t, &tm, (uint32_t)e, 3, TMO, st, &dx, "try");
                size_t nd = 0;
                for (size_t i = 0; i < dx.size(); i++) nd += dx[i] != d1[i];
                printf(" %lld:%u:%zu", e, st[0], st[0] == 2 ? (size_t)0 : nd);
            }
            printf("\n");
        }
        if (C >= 64) { // completion at half the bytes: which chunks had landed (racy snapshot)
            uint32_t half = (uint32_t)(C / 2) & ~15u;
            for (int rep = 0; rep < 3; rep++) {
                launch(t, &tm, half, 4, TMO, st, &dx, "mid");
                std::string m;
                for (size_t i = 0; i + 16 <= dx.size(); i += 16) {
                    bool fin = !memcmp(&dx[i], &d1[i], 16), fill = true;
                    for (int j = 0; j < 16; j++) fill = fill && dx[i + j] == 0xA5;
                    m += fin && !fill ? 'L' : fin ? '=' : fill ? '.' : '?';
                }
                printf("T %s mid %u %u %s\n", t.name.c_str(), half, st[0], m.c_str());
            }
        }
        fflush(stdout);
        cuMemFree(buf);
    }
    printf("TDONE\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    if (argv[1][0] == 'E') return encode_sweep(argv[2]);
    return tile_sweep(argv[2], argc > 3 ? atoi(argv[3]) : 0, argv[1][0] == 'M');
}
