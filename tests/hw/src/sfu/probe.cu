// SFU probe: evaluates the H100's .approx functions over chosen inputs and
// writes raw arrays (outputs as zigzag differences from ref.h's references)
// into the directory argv[1]; manifest.txt lists them.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <string>
#include <omp.h>
#include "ref.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int F> __device__ __forceinline__ uint32_t ev(uint32_t u)
{
    float x = __uint_as_float(u), r = 0;
    if (F == F_RCP) asm volatile("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_RCPF) asm volatile("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_RSQ) asm volatile("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_RSQF) asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_SQRT) asm volatile("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_SQRTF) asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_EX2) asm volatile("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_EX2F) asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_LG2) asm volatile("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_LG2F) asm volatile("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_SIN) asm volatile("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_SINF) asm volatile("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_COS) asm volatile("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_COSF) asm volatile("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == F_TANH) asm volatile("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    return __float_as_uint(r);
}
template <int F> __global__ void k_range(uint32_t *o, uint32_t lo, uint32_t stride, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = ev<F>(lo + i * stride);
}
template <int F> __global__ void k_list(uint32_t *o, const uint32_t *in, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = ev<F>(in[i]);
}
#define VCAP 8192
template <int F, int G> __global__ void k_vdiff(uint64_t base, unsigned long long *cnt, uint32_t *rec)
{
    uint32_t u = (uint32_t)(base + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x);
    uint32_t a = ev<F>(u), b = ev<G>(u);
    if (a != b) {
        atomicAdd(&cnt[u >> 23], 1ull);
        unsigned long long k = atomicAdd(&cnt[512], 1ull);
        if (k < VCAP) { rec[3 * k] = u; rec[3 * k + 1] = a; rec[3 * k + 2] = b; }
    }
}
template <int D> __global__ void k_div(uint32_t *o, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]), r;
    if (D == 0) asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    if (D == 1) asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    if (D == 2) asm volatile("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    if (D == 3) asm volatile("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    o[i] = __float_as_uint(r);
}
/* 16-bit forms: H = 0 ex2.f16, 1 ex2.ftz.bf16, 2 tanh.f16, 3 tanh.bf16; x2 forms on packed words */
template <int H> __global__ void k_h(uint32_t *o, uint32_t *o2)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536) return;
    unsigned short x = (unsigned short)i, r = 0;
    uint32_t w = i | (((i * 40503u + 1234u) & 0xffffu) << 16), r2 = 0;
    if (H == 0) { asm volatile("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(x)); asm volatile("ex2.approx.f16x2 %0, %1;" : "=r"(r2) : "r"(w)); }
    if (H == 1) { asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(x)); asm volatile("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r2) : "r"(w)); }
    if (H == 2) { asm volatile("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(x)); asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(r2) : "r"(w)); }
    if (H == 3) { asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(x)); asm volatile("tanh.approx.bf16x2 %0, %1;" : "=r"(r2) : "r"(w)); }
    o[i] = r;
    o2[i] = r2;
}
/* f64: 0 rcp.approx.ftz, 1 rsqrt.approx.ftz, 2 rsqrt.approx */
template <int D> __global__ void k_d(uint64_t *o, const uint64_t *in, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = __longlong_as_double(in[i]), r;
    if (D == 0) asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    if (D == 1) asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    if (D == 2) asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(x));
    o[i] = __double_as_longlong(r);
}

static const char *dir;
static FILE *man;
static uint32_t *d_o, *d_i, *d_j;
static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *c = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
    return h;
}
static void put(const std::string &name, const void *p, size_t bytes, const char *info);
/* an array of n elements of es bytes, written plane by plane (byte 0 of every element, then byte 1, ...) */
static void put_planes(const std::string &name, const void *p, size_t es, size_t n, const char *info)
{
    std::vector<unsigned char> t(es * n);
    const unsigned char *c = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        for (size_t b = 0; b < es; b++) t[b * n + i] = c[i * es + b];
    std::string inf = std::string("planes") + std::to_string(es) + " " + info;
    put(name, t.data(), t.size(), inf.c_str());
}
static void put(const std::string &name, const void *p, size_t bytes, const char *info)
{
    std::string path = std::string(dir) + "/" + name;
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes) { perror(path.c_str()); exit(1); }
    fclose(f);
    fprintf(man, "%s %zu %s\n", name.c_str(), bytes, info);
    fflush(man);
}
#define DISPATCH(f, K, ...) switch (f) { \
    case 0: K<0><<<g, 256>>>(__VA_ARGS__); break; case 1: K<1><<<g, 256>>>(__VA_ARGS__); break; \
    case 2: K<2><<<g, 256>>>(__VA_ARGS__); break; case 3: K<3><<<g, 256>>>(__VA_ARGS__); break; \
    case 4: K<4><<<g, 256>>>(__VA_ARGS__); break; case 5: K<5><<<g, 256>>>(__VA_ARGS__); break; \
    case 6: K<6><<<g, 256>>>(__VA_ARGS__); break; case 7: K<7><<<g, 256>>>(__VA_ARGS__); break; \
    case 8: K<8><<<g, 256>>>(__VA_ARGS__); break; case 9: K<9><<<g, 256>>>(__VA_ARGS__); break; \
    case 10: K<10><<<g, 256>>>(__VA_ARGS__); break; case 11: K<11><<<g, 256>>>(__VA_ARGS__); break; \
    case 12: K<12><<<g, 256>>>(__VA_ARGS__); break; case 13: K<13><<<g, 256>>>(__VA_ARGS__); break; \
    case 14: K<14><<<g, 256>>>(__VA_ARGS__); break; }

/* outputs of f over inputs in[] (or lo + i*stride when in is NULL), stored zigzag vs reference */
static void f32set(const char *name, int f, const uint32_t *in, uint32_t lo, uint32_t stride, uint32_t n)
{
    std::vector<uint32_t> o(n), x(n);
    for (uint32_t i = 0; i < n; i++) x[i] = in ? in[i] : lo + i * stride;
    unsigned g = (n + 255) / 256;
    if (in) {
        CK(cudaMemcpy(d_i, in, 4ull * n, cudaMemcpyHostToDevice));
        DISPATCH(f, k_list, d_o, d_i, n);
    } else {
        DISPATCH(f, k_range, d_o, lo, stride, n);
    }
    CK(cudaGetLastError());
    CK(cudaMemcpy(o.data(), d_o, 4ull * n, cudaMemcpyDeviceToHost));
    uint64_t h = fnv(o.data(), 4ull * n);
#pragma omp parallel for schedule(dynamic, 65536)
    for (long i = 0; i < (long)n; i++) o[i] = r_zz(o[i], r_ref32(f, x[i]));
    char info[160];
    snprintf(info, sizeof info, "f32 %s f=%d lo=0x%08x stride=%u list=%d fnv=%016llx", r_fname[f], f, lo, stride, in != NULL,
             (unsigned long long)h);
    put_planes(name, o.data(), 4, n, info);
}

int main(int argc, char **argv)
{
    dir = argv[1];
    man = fopen((std::string(dir) + "/manifest.txt").c_str(), "w");
    const uint32_t MAXN = 1u << 24;
    CK(cudaMalloc(&d_o, 8ull * MAXN));
    CK(cudaMalloc(&d_i, 8ull * MAXN));
    CK(cudaMalloc(&d_j, 8ull * MAXN));
    double t0 = omp_get_wtime();
    /* exhaustive variant comparisons: non-ftz vs ftz, all 2^32 inputs */
    {
        unsigned long long *cnt;
        uint32_t *rec;
        CK(cudaMalloc(&cnt, 8 * 513));
        CK(cudaMalloc(&rec, 12 * VCAP));
        std::vector<unsigned long long> hc(513);
        std::vector<uint32_t> hr(3 * VCAP);
        for (int p = 0; p < 7; p++) {
            CK(cudaMemset(cnt, 0, 8 * 513));
            for (uint64_t base = 0; base < (1ull << 32); base += 1ull << 30) {
                unsigned g = (1u << 30) / 256;
                switch (p) {
                case 0: k_vdiff<F_RCP, F_RCPF><<<g, 256>>>(base, cnt, rec); break;
                case 1: k_vdiff<F_RSQ, F_RSQF><<<g, 256>>>(base, cnt, rec); break;
                case 2: k_vdiff<F_SQRT, F_SQRTF><<<g, 256>>>(base, cnt, rec); break;
                case 3: k_vdiff<F_EX2, F_EX2F><<<g, 256>>>(base, cnt, rec); break;
                case 4: k_vdiff<F_LG2, F_LG2F><<<g, 256>>>(base, cnt, rec); break;
                case 5: k_vdiff<F_SIN, F_SINF><<<g, 256>>>(base, cnt, rec); break;
                case 6: k_vdiff<F_COS, F_COSF><<<g, 256>>>(base, cnt, rec); break;
                }
                CK(cudaGetLastError());
            }
            CK(cudaMemcpy(hc.data(), cnt, 8 * 513, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hr.data(), rec, 12 * VCAP, cudaMemcpyDeviceToHost));
            static const char *pn[7] = {"rcp", "rsqrt", "sqrt", "ex2", "lg2", "sin", "cos"};
            std::string nm = std::string("vdiff_") + pn[p] + ".txt";
            std::string txt;
            char line[200];
            snprintf(line, sizeof line, "# %s vs %s.ftz over 2^32: %llu differ\n# per sign|exponent field (input bits >> 23): count\n", pn[p], pn[p], hc[512]);
            txt += line;
            for (int i = 0; i < 512; i++) if (hc[i]) { snprintf(line, sizeof line, "E %03x %llu\n", i, hc[i]); txt += line; }
            unsigned long long m = hc[512] < VCAP ? hc[512] : VCAP;
            for (unsigned long long k = 0; k < m; k++) { snprintf(line, sizeof line, "D %08x %08x %08x\n", hr[3 * k], hr[3 * k + 1], hr[3 * k + 2]); txt += line; }
            put(nm, txt.data(), txt.size(), "text");
        }
    }
    fprintf(stderr, "vdiff done %.1fs\n", omp_get_wtime() - t0);
    /* 16-bit forms, exhaustive */
    {
        std::vector<uint32_t> a(65536), b(65536);
        static const char *hn[4] = {"ex2_f16", "ex2_ftz_bf16", "tanh_f16", "tanh_bf16"};
        for (int hf = 0; hf < 4; hf++) {
            switch (hf) {
            case 0: k_h<0><<<256, 256>>>(d_o, d_j); break;
            case 1: k_h<1><<<256, 256>>>(d_o, d_j); break;
            case 2: k_h<2><<<256, 256>>>(d_o, d_j); break;
            case 3: k_h<3><<<256, 256>>>(d_o, d_j); break;
            }
            CK(cudaGetLastError());
            CK(cudaMemcpy(a.data(), d_o, 4 * 65536, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(b.data(), d_j, 4 * 65536, cudaMemcpyDeviceToHost));
            std::vector<uint16_t> s(65536);
            for (int i = 0; i < 65536; i++) s[i] = (uint16_t)a[i];
            put(std::string("h_") + hn[hf] + ".u16", s.data(), 2 * 65536, "raw u16 out for input i");
            put(std::string("h_") + hn[hf] + "x2.u32", b.data(), 4 * 65536, "raw u32 out for input i|((i*40503+1234)&0xffff)<<16");
        }
    }
    /* f64 */
    {
        static const char *dn[3] = {"rcp_ftz_f64", "rsqrt_ftz_f64", "rsqrt_f64"};
        uint32_t n = (1u << 21) + (1u << 16);
        std::vector<uint64_t> in(n), o(n);
        for (int d = 0; d < 3; d++) {
            uint64_t s = 77 + d;
            for (uint32_t i = 0; i < n; i++)
                in[i] = i < (1u << 21) ? (0x3ff0000000000000ull + ((uint64_t)i << 32) + (d == 2 && (i & 1) ? (r_splitmix(&s) & 0xffffffffull) : 0))
                                       : r_splitmix(&s);
            CK(cudaMemcpy(d_i, in.data(), 8ull * n, cudaMemcpyHostToDevice));
            unsigned g = (n + 255) / 256;
            if (d == 0) k_d<0><<<g, 256>>>((uint64_t *)d_o, (uint64_t *)d_i, n);
            if (d == 1) k_d<1><<<g, 256>>>((uint64_t *)d_o, (uint64_t *)d_i, n);
            if (d == 2) k_d<2><<<g, 256>>>((uint64_t *)d_o, (uint64_t *)d_i, n);
            CK(cudaGetLastError());
            CK(cudaMemcpy(o.data(), d_o, 8ull * n, cudaMemcpyDeviceToHost));
            uint64_t h = fnv(o.data(), 8ull * n);
            for (uint32_t i = 0; i < n; i++) {
                double x = r_u2d(in[i]), r = d == 0 ? 1.0 / x : 1.0 / sqrt(x);
                uint64_t ref = r != r ? 0x7fffffff00000000ull : r_d2u(r);
                if (d < 2) ref &= 0xffffffff00000000ull;   /* the ftz forms write only a high word */
                int64_t df = (int64_t)(o[i] - ref);
                o[i] = ((uint64_t)df << 1) ^ (uint64_t)(df >> 63);
            }
            char info[160];
            snprintf(info, sizeof info, "f64 zigzag vs 1/x or 1/sqrt(x) in double (ftz forms: its high word, low word 0); inputs: i<2^21: 0x3ff00000_00000000+(i<<32) (rsqrt non-ftz: odd i random low word, seed %d), then splitmix(seed) fnv=%016llx", 77 + d, (unsigned long long)h);
            put_planes(std::string("d_") + dn[d] + ".u64", o.data(), 8, n, info);
        }
    }
    /* division pairs */
    {
        uint32_t n = 1u << 18;
        std::vector<uint32_t> a(n), b(n), o(n);
        r_gen_div(a.data(), b.data(), n, 4242);
        CK(cudaMemcpy(d_i, a.data(), 4ull * n, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_j, b.data(), 4ull * n, cudaMemcpyHostToDevice));
        static const char *vn[4] = {"div_full", "div_full_ftz", "div_approx", "div_approx_ftz"};
        for (int v = 0; v < 4; v++) {
            unsigned g = (n + 255) / 256;
            if (v == 0) k_div<0><<<g, 256>>>(d_o, d_i, d_j, n);
            if (v == 1) k_div<1><<<g, 256>>>(d_o, d_i, d_j, n);
            if (v == 2) k_div<2><<<g, 256>>>(d_o, d_i, d_j, n);
            if (v == 3) k_div<3><<<g, 256>>>(d_o, d_i, d_j, n);
            CK(cudaGetLastError());
            CK(cudaMemcpy(o.data(), d_o, 4ull * n, cudaMemcpyDeviceToHost));
            uint64_t h = fnv(o.data(), 4ull * n);
            for (uint32_t i = 0; i < n; i++) {
                float r = (float)((double)r_u2f(a[i]) / (double)r_u2f(b[i]));
                o[i] = r_zz(o[i], r != r ? 0x7fffffffu : r_f2u(r));
            }
            char info[120];
            snprintf(info, sizeof info, "div pairs r_gen_div(seed 4242) zigzag vs (float)(a/b) fnv=%016llx", (unsigned long long)h);
            put_planes(std::string("v_") + vn[v] + ".u32", o.data(), 4, n, info);
        }
    }
    fprintf(stderr, "small sets done %.1fs\n", omp_get_wtime() - t0);
    /* per-binade samples for every f32 variant */
    {
        std::vector<uint32_t> in(512 * 1024);
        size_t n = r_gen_binades(in.data(), 448, 99);
        for (int f = 0; f < NF32; f++) {
            std::string nm = std::string("b_") + r_fname[f] + ".u32";
            f32set(nm.c_str(), f, in.data(), 0, 0, (uint32_t)n);
        }
    }
    fprintf(stderr, "binades done %.1fs\n", omp_get_wtime() - t0);
    /* core ranges */
    f32set("c_rcp.ftz_1_2.u32", F_RCPF, NULL, 0x3f800000u, 1, 1u << 23);
    f32set("c_ex2.ftz_1_2.u32", F_EX2F, NULL, 0x3f800000u, 1, 1u << 23);
    f32set("c_ex2.ftz_m1_m2.u32", F_EX2F, NULL, 0xbf800000u, 1, 1u << 23);
    f32set("c_rsqrt.ftz_1_4.u32", F_RSQF, NULL, 0x3f800000u, 1, 1u << 24);
    f32set("c_sqrt.ftz_1_4.u32", F_SQRTF, NULL, 0x3f800000u, 1, 1u << 24);
    f32set("c_lg2.ftz_05_2.u32", F_LG2F, NULL, 0x3f000000u, 1, 1u << 24);
    f32set("c_ex2.ftz_05_1.u32", F_EX2F, NULL, 0x3f000000u, 1, 1u << 23);
    f32set("c_tanh_05_1.u32", F_TANH, NULL, 0x3f000000u, 1, 1u << 23);
    f32set("c_tanh_1_2.u32", F_TANH, NULL, 0x3f800000u, 1, 1u << 23);
    f32set("c_sin.ftz_1_2.u32", F_SINF, NULL, 0x3f800000u, 1, 1u << 23);
    f32set("c_cos.ftz_1_2.u32", F_COSF, NULL, 0x3f800000u, 1, 1u << 23);
    f32set("c_sin.ftz_05_1.u32", F_SINF, NULL, 0x3f000000u, 1, 1u << 23);
    fprintf(stderr, "all done %.1fs\n", omp_get_wtime() - t0);
    fclose(man);
    return 0;
}
