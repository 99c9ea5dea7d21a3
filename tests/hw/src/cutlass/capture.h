// capture.h — record one kernel launch of a CUDA program for ptxi-launch/1.
//
// Include this FIRST in a host program (before any CUTLASS header).  It
//   - routes cuTensorMapEncodeTiled through capture_encode_tiled, which
//     records the driver arguments and the 128 bytes of every map encoded
//     (CUTLASS calls the driver directly under
//     CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL, which this header defines);
//   - keeps a list of named device buffers with how they were filled;
//   - cap_launch(): writes every kernel argument's bytes, the launch shape
//     and the buffers' device ranges to DIR/meta.json, launches the kernel
//     (with a cluster attribute), and writes each buffer's bytes afterwards
//     to DIR/<buffer>.bin.
// tests/hw/src/cutlass/to_cases.py turns meta.json into launch cases: a
// pointer inside an argument becomes {"pointer": buf, "offset": n}, an
// encoded map inside one becomes {"tensor_map": ...}, the rest raw words.
#pragma once
#define CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL 1
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>

static inline CUresult cap_real_encode_tiled(CUtensorMap *m, CUtensorMapDataType dt, cuuint32_t rank, void *addr,
                                             const cuuint64_t *dim, const cuuint64_t *str, const cuuint32_t *box,
                                             const cuuint32_t *es, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                             CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob)
{
    return cuTensorMapEncodeTiled(m, dt, rank, addr, dim, str, box, es, il, sw, l2, oob);
}

struct cap_tmap {
    int dt, rank, il, sw, l2, oob, status;
    uint64_t addr, dim[5], str[5];
    uint32_t box[5], es[5];
    unsigned char bytes[128];
};
struct cap_buf {
    std::string name, init;  // init: the launch-file JSON object for the start state
    uint64_t addr, bytes;
};
static std::vector<cap_tmap> cap_tmaps;
static std::vector<cap_buf> cap_bufs;
static std::string cap_dir = ".";

static inline CUresult capture_encode_tiled(CUtensorMap *m, CUtensorMapDataType dt, cuuint32_t rank, void *addr,
                                            const cuuint64_t *dim, const cuuint64_t *str, const cuuint32_t *box,
                                            const cuuint32_t *es, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                            CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob)
{
    CUresult r = cap_real_encode_tiled(m, dt, rank, addr, dim, str, box, es, il, sw, l2, oob);
    cap_tmap t = {};
    t.dt = dt; t.rank = (int)rank; t.il = il; t.sw = sw; t.l2 = l2; t.oob = oob; t.status = r;
    t.addr = (uint64_t)(uintptr_t)addr;
    for (unsigned i = 0; i < rank && i < 5; i++) {
        t.dim[i] = dim[i]; t.box[i] = box[i]; t.es[i] = es[i];
        if (i + 1 < rank) t.str[i] = str[i];
    }
    memcpy(t.bytes, m, 128);
    cap_tmaps.push_back(t);
    return r;
}
#define cuTensorMapEncodeTiled capture_encode_tiled

#define CAP_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// hash32 of ptxi-launch/1 (tests/conformance/FORMAT.md), with the and/or masks.
static inline uint32_t cap_hash32(uint32_t w, uint32_t seed)
{
    uint32_t x = (w * 0x9E3779B9u) ^ seed;
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

// A device buffer filled with hash32(seed) & andm | orm, word by word.
static inline void *cap_alloc_hash(const char *name, uint64_t bytes, uint32_t seed, uint32_t andm, uint32_t orm)
{
    std::vector<unsigned char> h(bytes);
    for (uint64_t off = 0; off < bytes; off += 4) {
        uint32_t v = (cap_hash32((uint32_t)(off / 4), seed) & andm) | orm;
        for (uint64_t k = 0; k < 4 && off + k < bytes; k++) h[off + k] = (unsigned char)(v >> (8 * k));
    }
    void *d = nullptr;
    CAP_CHECK(cudaMalloc(&d, bytes));
    CAP_CHECK(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice));
    char init[160];
    snprintf(init, sizeof init, "{\"hash32\": %u, \"and\": %u, \"or\": %u}", seed, andm, orm);
    cap_bufs.push_back({name, init, (uint64_t)(uintptr_t)d, bytes});
    return d;
}

static inline void *cap_alloc_fill(const char *name, uint64_t bytes, int byte)
{
    void *d = nullptr;
    CAP_CHECK(cudaMalloc(&d, bytes ? bytes : 1));
    CAP_CHECK(cudaMemset(d, byte, bytes ? bytes : 1));
    char init[64];
    snprintf(init, sizeof init, "{\"fill\": %d}", byte);
    cap_bufs.push_back({name, init, (uint64_t)(uintptr_t)d, bytes});
    return d;
}

static inline std::string cap_hex(const void *p, size_t n)
{
    static const char *x = "0123456789abcdef";
    std::string s;
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) { s += x[b[i] >> 4]; s += x[b[i] & 15]; }
    return s;
}

template <class T> static inline void cap_arg(std::vector<std::string> &out, std::vector<void *> &ptrs, T const &a)
{
    out.push_back(cap_hex(&a, sizeof(T)));
    ptrs.push_back((void *)&a);
}

// Launch `kernel` once with the given arguments (each passed by value, as
// the kernel declares them) and record everything.
template <class... Args>
static int cap_launch(const char *case_name, const void *kernel, dim3 grid, dim3 block, dim3 cluster, int smem,
                      Args const &...args)
{
    std::vector<std::string> hex;
    std::vector<void *> ptrs;
    (cap_arg(hex, ptrs, args), ...);
    const char *kname = "?";
    if (cudaFuncGetName(&kname, kernel) != cudaSuccess) kname = "?";
    if (smem > 48 * 1024)
        CAP_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid; cfg.blockDim = block; cfg.dynamicSmemBytes = (size_t)smem; cfg.stream = 0;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cluster.x; at[0].val.clusterDim.y = cluster.y; at[0].val.clusterDim.z = cluster.z;
    cfg.attrs = at; cfg.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelExC(&cfg, kernel, ptrs.data());
    cudaError_t e2 = cudaDeviceSynchronize();
    std::string dir = cap_dir + "/" + case_name;
    std::string cmd = "mkdir -p '" + dir + "'";
    if (system(cmd.c_str()) != 0) { fprintf(stderr, "cannot create %s\n", dir.c_str()); exit(1); }
    FILE *f = fopen((dir + "/meta.json").c_str(), "w");
    if (!f) { perror("meta.json"); exit(1); }
    fprintf(f, "{\"case\": \"%s\", \"kernel\": \"%s\", \"grid\": [%u,%u,%u], \"block\": [%u,%u,%u], "
               "\"cluster\": [%u,%u,%u], \"smem\": %d, \"launch\": \"%s\", \"sync\": \"%s\",\n",
            case_name, kname, grid.x, grid.y, grid.z, block.x, block.y, block.z, cluster.x, cluster.y, cluster.z,
            smem, cudaGetErrorName(e), cudaGetErrorName(e2));
    fprintf(f, " \"args\": [");
    for (size_t i = 0; i < hex.size(); i++) fprintf(f, "%s\"%s\"", i ? ", " : "", hex[i].c_str());
    fprintf(f, "],\n \"buffers\": [");
    for (size_t i = 0; i < cap_bufs.size(); i++)
        fprintf(f, "%s{\"name\": \"%s\", \"addr\": %llu, \"bytes\": %llu, \"init\": %s}", i ? ",\n  " : "",
                cap_bufs[i].name.c_str(), (unsigned long long)cap_bufs[i].addr,
                (unsigned long long)cap_bufs[i].bytes, cap_bufs[i].init.c_str());
    fprintf(f, "],\n \"tensor_maps\": [");
    for (size_t i = 0; i < cap_tmaps.size(); i++) {
        const cap_tmap &t = cap_tmaps[i];
        fprintf(f, "%s{\"data_type\": %d, \"rank\": %d, \"addr\": %llu, \"dim\": [", i ? ",\n  " : "", t.dt, t.rank,
                (unsigned long long)t.addr);
        for (int k = 0; k < t.rank; k++) fprintf(f, "%s%llu", k ? "," : "", (unsigned long long)t.dim[k]);
        fprintf(f, "], \"strides\": [");
        for (int k = 0; k + 1 < t.rank; k++) fprintf(f, "%s%llu", k ? "," : "", (unsigned long long)t.str[k]);
        fprintf(f, "], \"box\": [");
        for (int k = 0; k < t.rank; k++) fprintf(f, "%s%u", k ? "," : "", t.box[k]);
        fprintf(f, "], \"element_strides\": [");
        for (int k = 0; k < t.rank; k++) fprintf(f, "%s%u", k ? "," : "", t.es[k]);
        fprintf(f, "], \"interleave\": %d, \"swizzle\": %d, \"l2\": %d, \"oob\": %d, \"status\": %d, \"bytes\": \"%s\"}",
                t.il, t.sw, t.l2, t.oob, t.status, cap_hex(t.bytes, 128).c_str());
    }
    fprintf(f, "]}\n");
    fclose(f);
    for (const cap_buf &b : cap_bufs) {
        std::vector<unsigned char> h(b.bytes);
        if (b.bytes) CAP_CHECK(cudaMemcpy(h.data(), (void *)(uintptr_t)b.addr, b.bytes, cudaMemcpyDeviceToHost));
        FILE *o = fopen((dir + "/" + b.name + ".bin").c_str(), "wb");
        if (!o || fwrite(h.data(), 1, h.size(), o) != h.size()) { perror(b.name.c_str()); exit(1); }
        fclose(o);
    }
    printf("%s: launch %s, sync %s\n", case_name, cudaGetErrorName(e), cudaGetErrorName(e2));
    return e == cudaSuccess && e2 == cudaSuccess ? 0 : 1;
}

// Forget buffers and maps (between cases of one program).
static inline void cap_reset()
{
    for (const cap_buf &b : cap_bufs) cudaFree((void *)(uintptr_t)b.addr);
    cap_bufs.clear();
    cap_tmaps.clear();
}
