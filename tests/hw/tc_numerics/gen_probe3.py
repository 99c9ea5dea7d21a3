#!/usr/bin/env python3
"""Writes probe3.cu: the second tensor-core numerics probe (the combinations
probe.cu and probe_wg.cu leave out).  Three parts:
  R  mma.sync run on raw per-lane registers drawn by gen.h's tcg_reg (no
     fragment layout in the probe: the test maps registers to elements with
     tc_mma_run, so the layouts of tc/warp.c are checked on the way);
  W  wmma through CUDA's nvcuda::wmma API from row-major A, column-major B,
     row-major C/D in global memory (element streams as in probe.cu);
  G  wgmma m64n8k32 on 8-bit types with differing A and B types.
Combination lists are shared with tests/unit/test_tc_numerics.c by name and
generator stream (gid)."""
import sys

# R: name, ptx types (d.a.b.c), M, N, K, akind, bkind, ckind, abits, cbits(d), modifiers
KIND = {'f16': 0, 'bf16': 1, 'tf32': 2, 'e4m3': 3, 'e5m2': 4, 'f32': 5, 's8': 6, 'f64': 7,
        'u8': 8, 's4': 11, 'u4': 12, 'b1': 13, 's32': 14}
BITS = {'f16': 16, 'bf16': 16, 'tf32': 32, 'e4m3': 8, 'e5m2': 8, 'f32': 32, 's8': 8, 'f64': 64,
        'u8': 8, 's4': 4, 'u4': 4, 'b1': 32, 's32': 32}
R = [
    # (M, N, K, d, a, b, c, mods)
    (16, 8, 8, 'f32', 'bf16', 'bf16', 'f32', ''),
    (16, 8, 4, 'f32', 'tf32', 'tf32', 'f32', ''),
    (16, 8, 8, 'f16', 'f16', 'f16', 'f16', ''),
    (16, 8, 32, 'f16', 'e5m2', 'e5m2', 'f16', ''),
    (16, 8, 32, 'f32', 'e4m3', 'e5m2', 'f32', ''),
    (16, 8, 32, 'f16', 'e5m2', 'e4m3', 'f16', ''),
    (16, 8, 16, 's32', 's8', 's8', 's32', ''),
    (16, 8, 16, 's32', 'u8', 's8', 's32', 'satfinite'),
    (16, 8, 32, 's32', 'u8', 'u8', 's32', ''),
    (16, 8, 32, 's32', 's8', 'u8', 's32', 'satfinite'),
    (16, 8, 32, 's32', 's4', 's4', 's32', ''),
    (16, 8, 32, 's32', 'u4', 's4', 's32', 'satfinite'),
    (16, 8, 64, 's32', 'u4', 'u4', 's32', 'satfinite'),
    (16, 8, 64, 's32', 's4', 'u4', 's32', ''),
    (16, 8, 128, 's32', 'b1', 'b1', 's32', 'and.popc'),
    (16, 8, 256, 's32', 'b1', 'b1', 's32', 'xor.popc'),
    (16, 8, 128, 's32', 'b1', 'b1', 's32', 'xor.popc'),
    (16, 8, 4, 'f64', 'f64', 'f64', 'f64', ''),
    (16, 8, 8, 'f64', 'f64', 'f64', 'f64', ''),
    (16, 8, 16, 'f64', 'f64', 'f64', 'f64', ''),
    # mma.sp with metadata 0x44444444 (every group of 4 keeps its elements 0
    # and 1; selector 0): the layouts of A (compressed) and B as dense
    (16, 8, 16, 'f32', 'f16', 'f16', 'f32', 'sp'),
    (16, 8, 32, 'f32', 'f16', 'f16', 'f32', 'sp'),
    (16, 8, 32, 'f16', 'f16', 'f16', 'f16', 'sp'),
    (16, 8, 32, 'f32', 'bf16', 'bf16', 'f32', 'sp'),
    (16, 8, 32, 's32', 's8', 's8', 's32', 'sp'),
    (16, 8, 64, 's32', 'u8', 's8', 's32', 'sp'),
    (16, 8, 64, 'f32', 'e4m3', 'e4m3', 'f32', 'sp'),
    (16, 8, 64, 'f32', 'e5m2', 'e4m3', 'f32', 'sp'),
    (16, 8, 8, 'f32', 'tf32', 'tf32', 'f32', 'sp'),
    (16, 8, 16, 'f32', 'tf32', 'tf32', 'f32', 'sp'),
    (16, 8, 64, 's32', 's4', 's4', 's32', 'sp'),
    (16, 8, 128, 's32', 'u4', 'u4', 's32', 'sp'),
    (16, 8, 32, 'f32', 'e5m2', 'e4m3', 'f32', ''),
    (16, 8, 32, 'f16', 'e4m3', 'e5m2', 'f16', ''),
    (16, 8, 64, 'f32', 'e4m3', 'e5m2', 'f32', 'sp'),
    (16, 8, 64, 'f32', 'e5m2', 'e5m2', 'f32', 'sp'),
]

def rname(r):
    M, N, K, d, a, b, c, mods = r
    ab = a if a == b else a + b
    n = f"mmar_m{M}n{N}k{K}_{d}_{ab}_{c}"
    if mods:
        n += '_' + mods.replace('.', '')
    return n

def nregs(M, N, K, a, b, c, d, sp=False):
    ab, bb = BITS[a], BITS[b]
    if a == 'b1':
        ab = bb = 1
    na = M * K * ab // 32 // 32 if a != 'f64' else M * K // 32
    if sp:
        na //= 2
    nb = K * N * bb // 32 // 32 if b != 'f64' else K * N // 32
    nc = M * N // 64 if c == 'f16' else M * N // 32
    nd = M * N // 64 if d == 'f16' else M * N // 32
    return na, nb, nc, nd

# W: name, M, N, K, a-type, c-type (d the same), b1 op
W = [
    (16, 16, 16, 'f16', 'f32', ''), (32, 8, 16, 'f16', 'f32', ''), (8, 32, 16, 'f16', 'f16', ''),
    (16, 16, 16, 'f16', 'f16', ''), (16, 16, 16, 'bf16', 'f32', ''), (32, 8, 16, 'bf16', 'f32', ''),
    (16, 16, 8, 'tf32', 'f32', ''), (8, 8, 4, 'f64', 'f64', ''), (16, 16, 16, 's8', 's32', ''),
    (8, 32, 16, 'u8', 's32', ''), (8, 8, 32, 'u4', 's32', ''), (8, 8, 32, 's4', 's32', ''),
    (8, 8, 128, 'b1', 's32', 'xor'), (8, 8, 128, 'b1', 's32', 'and'),
]

def wname(w):
    M, N, K, a, c, op = w
    return f"wmma_m{M}n{N}k{K}_{c}_{a}" + (f"_{op}" if op else '')

WT = {'f16': 'half', 'bf16': '__nv_bfloat16', 'tf32': 'wmma::precision::tf32', 'f64': 'double',
      's8': 'signed char', 'u8': 'unsigned char', 'u4': 'wmma::experimental::precision::u4',
      's4': 'wmma::experimental::precision::s4', 'b1': 'wmma::experimental::precision::b1'}
WS = {'f16': 'half', 'bf16': '__nv_bfloat16', 'tf32': 'float', 'f64': 'double', 's8': 'signed char',
      'u8': 'unsigned char', 'u4': 'void', 's4': 'void', 'b1': 'void'}
WC = {'f32': 'float', 'f16': 'half', 's32': 'int', 'f64': 'double'}

# G: wgmma m64n8k32, d, a, b, satfinite
G = [('f16', 'e5m2', 'e5m2', 0), ('f32', 'e4m3', 'e5m2', 0), ('f16', 'e5m2', 'e4m3', 0),
     ('s32', 'u8', 's8', 0), ('s32', 'u8', 'u8', 1), ('s32', 's8', 'u8', 1)]

# S: wgmma.sp m64n8kK with metadata 0x44444444 (selector 0): d, a (= b), K (dense)
S = [('f32', 'f16', 32), ('f16', 'f16', 32), ('f32', 'bf16', 32), ('f32', 'tf32', 16),
     ('f32', 'e4m3', 64), ('f16', 'e5m2', 64), ('s32', 's8', 64)]

def sname(x):
    d, a, K = x
    return f"wgmmasp_m64n8k{K}_{d}_{a}"

def gname(g):
    d, a, b, s = g
    return f"wgmma_m64n8k32_{d}_{a}{b}" + ("_sat" if s else '')

out = []
o = out.append
o("// probe3.cu: written by gen_probe3.py (do not edit by hand).")
o("#include <cstdio>\n#include <cstdlib>\n#include <cstdint>\n#include <cstring>\n#include <vector>")
o("#include <mma.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\nusing namespace nvcuda;")
o('#include "gen.h"\ntypedef unsigned long long u64;')
o('#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)')
o("""static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{ const unsigned char *s = (const unsigned char *)p; for (size_t i = 0; i < n; i++) { h ^= s[i]; h *= 0x100000001b3ull; } return h; }
/* <name>.bin: u32 units, u32 units kept whole, those units, a hash per 1024 units;
 * <name>.d: the first RAWN units raw (for fitting a model when a block differs) */
#define RAWN 16384
static void save(const char *dir, const char *name, const std::vector<u64> &D, int w)
{
    char path[512]; size_t n = D.size(), whole = n < 2048 ? n : 2048;
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    FILE *f = fopen(path, "wb"); uint32_t hdr[2] = { (uint32_t)n, (uint32_t)whole };
    fwrite(hdr, 4, 2, f);
    for (size_t i = 0; i < whole; i++) fwrite(&D[i], w, 1, f);
    for (size_t b = 0; b < (n + 1023) / 1024; b++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t i = b * 1024; i < n && i < (b + 1) * 1024; i++) h = fnv1a(h, &D[i], w);
        fwrite(&h, 8, 1, f);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.d", dir, name);
    f = fopen(path, "wb");
    const char *all = getenv("TCN_RAWALL"); /* names whose every unit is kept raw */
    size_t rawn = all && strstr(all, name) ? n : RAWN;
    for (size_t i = 0; i < n && i < rawn; i++) fwrite(&D[i], w, 1, f);
    fclose(f);
    printf("%s: %zu units\\n", name, n);
}""")

# ---- R kernels
for idx, r in enumerate(R):
    M, N, K, d, a, b, c, mods = r
    sp = mods == 'sp'
    na, nb, nc, nd = nregs(M, N, K, a, b, c, d, sp)
    ptx = ("mma.sp::ordered_metadata" if sp else "mma") + f".sync.aligned.m{M}n{N}k{K}.row.col" + (f".{mods}" if mods and mods not in ('satfinite', 'sp') else '')
    ptx += ".satfinite" if mods == 'satfinite' else ''
    ptx += f".{d}.{a}.{b}.{c}"
    f64 = a == 'f64'
    ops = []
    n = 0
    def grp(cnt):
        global n
        s = "{" + ",".join(f"%{n + i}" for i in range(cnt)) + "}"
        n += cnt
        return s
    s = ptx + " " + grp(nd) + ", " + grp(na) + ", " + grp(nb) + ", " + grp(nc) + (f", %{n}, 0x0;" if sp else ";")
    o(f"__global__ void r{idx}(const u64 *A, const u64 *B, const u64 *C, u64 *D)\n{{")
    o("    size_t base = (size_t)blockIdx.x * 32 + threadIdx.x;")
    if f64:
        o(f"    double a[{na}], b[{nb}], c[{nc}], d[{nd}];")
        for X, cnt in (('a', na), ('b', nb), ('c', nc)):
            o(f"    for (int i = 0; i < {cnt}; i++) {X}[i] = __longlong_as_double((long long){X.upper()}[base * {cnt} + i]);")
        cons_o, cons_i = '"=d"', '"d"'
    else:
        o(f"    unsigned a[{na}], b[{nb}], c[{nc}], d[{nd}];")
        for X, cnt in (('a', na), ('b', nb), ('c', nc)):
            o(f"    for (int i = 0; i < {cnt}; i++) {X}[i] = (unsigned){X.upper()}[base * {cnt} + i];")
        cons_o, cons_i = '"=r"', '"r"'
    outs = ", ".join(f"{cons_o}(d[{i}])" for i in range(nd))
    ins = ", ".join([f"{cons_i}(a[{i}])" for i in range(na)] + [f"{cons_i}(b[{i}])" for i in range(nb)]
                    + [f"{cons_i}(c[{i}])" for i in range(nc)] + (['"r"(0x44444444u)'] if sp else []))
    o(f'    asm volatile("{s}" : {outs} : {ins});')
    if f64:
        o(f"    for (int i = 0; i < {nd}; i++) D[base * {nd} + i] = (u64)__double_as_longlong(d[i]);")
    else:
        o(f"    for (int i = 0; i < {nd}; i++) D[base * {nd} + i] = d[i];")
    o("}")

# ---- W kernels
for idx, w in enumerate(W):
    M, N, K, a, c, op = w
    o(f"__global__ void w{idx}(const void *A, const void *B, const void *C, void *D)\n{{")
    o(f"    size_t t = blockIdx.x;")
    bitsA = {'f16': 16, 'bf16': 16, 'tf32': 32, 'f64': 64, 's8': 8, 'u8': 8, 'u4': 4, 's4': 4, 'b1': 1}[a]
    cbits = 64 if c == 'f64' else (16 if c == 'f16' else 32)
    o(f"    wmma::fragment<wmma::matrix_a, {M}, {N}, {K}, {WT[a]}, wmma::row_major> fa;")
    o(f"    wmma::fragment<wmma::matrix_b, {M}, {N}, {K}, {WT[a]}, wmma::col_major> fb;")
    o(f"    wmma::fragment<wmma::accumulator, {M}, {N}, {K}, {WC[c]}> fc;")
    st = WS[a]
    if st == 'void':
        o(f"    wmma::load_matrix_sync(fa, (const char *)A + t * {M * K * bitsA // 8}, {K});")
        o(f"    wmma::load_matrix_sync(fb, (const char *)B + t * {N * K * bitsA // 8}, {K});")
    else:
        o(f"    wmma::load_matrix_sync(fa, (const {st} *)A + t * {M * K}, {K});")
        o(f"    wmma::load_matrix_sync(fb, (const {st} *)B + t * {N * K}, {K});")
    o(f"    wmma::load_matrix_sync(fc, (const {WC[c]} *)C + t * {M * N}, {N}, wmma::mem_row_major);")
    if a == 'b1':
        bop = 'wmma::experimental::bmmaBitOpXOR' if op == 'xor' else 'wmma::experimental::bmmaBitOpAND'
        o(f"    wmma::bmma_sync(fc, fa, fb, fc, {bop});")
    else:
        o("    wmma::mma_sync(fc, fa, fb, fc);")
    o(f"    wmma::store_matrix_sync(({WC[c]} *)D + t * {M * N}, fc, {N}, wmma::mem_row_major);")
    o("}")

# ---- G kernels
for idx, g in enumerate(G):
    d, a, b, s = g
    o(f"__global__ void g{idx}(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)\n{{")
    o("""    const int K = 32;
    __shared__ __align__(128) unsigned char sb[256];
    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const u64 *a = A + (size_t)tile * 64 * K, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;
    u64 *d = D + (size_t)tile * 64 * 8;
    for (int i = tid; i < K * 8; i += 128) {
        int k = i / 8, n = i % 8, off = (k / 16) * 128 + n * 16 + (k % 16);
        sb[off] = (unsigned char)b[k * 8 + n];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);
    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);
    unsigned ar[4], dr[4];
    int r0 = 16 * w + g;
    for (int i = 0; i < 4; i++) {
        int r = r0 + 8 * (i & 1), k0 = 4 * t + 16 * (i >> 1);
        ar[i] = 0;
        for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * K + k0 + e] & 0xff) << (8 * e);
    }""")
    if d == 'f16':
        o("    for (int i = 0; i < 2; i++) dr[i] = (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t] & 0xffff) | (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t + 1] & 0xffff) << 16;")
    else:
        o("    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];")
    o('    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");')
    sat = ".satfinite" if s else ""
    if d == 'f16':
        o(f'    asm volatile("{{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32.f16.{a}.{b} {{%0,%1}}, {{%2,%3,%4,%5}}, %6, p, 1, 1; }}" : "+r"(dr[0]), "+r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));')
    elif d == 'f32':
        o(f'    asm volatile("{{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32.f32.{a}.{b} {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, %8, p, 1, 1; }}" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));')
    else:
        o(f'    asm volatile("{{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n8k32{sat}.s32.{a}.{b} {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, %8, p; }}" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc));')
    o("""    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");""")
    if d == 'f16':
        o("    for (int i = 0; i < 2; i++) { d[(r0 + 8 * i) * 8 + 2 * t] = dr[i] & 0xffff; d[(r0 + 8 * i) * 8 + 2 * t + 1] = dr[i] >> 16; }")
    else:
        o("    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];")
    o("}")

S_BODY = '    __shared__ __align__(128) unsigned char sb[1024];\n    int tile = blockIdx.x, tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;\n    const u64 *a = A + (size_t)tile * 64 * KC, *b = B + (size_t)tile * K * 8, *c = Cm + (size_t)tile * 64 * 8;\n    u64 *d = D + (size_t)tile * 64 * 8;\n    for (int i = tid; i < K * 8; i += 128) {\n        int k = i / 8, n = i % 8, off = (k / epc) * 128 + n * 16 + (k % epc) * esz;\n        u64 v = b[k * 8 + n];\n        for (int e = 0; e < esz; e++) sb[off + e] = (unsigned char)(v >> (8 * e));\n    }\n    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");\n    __syncthreads();\n    unsigned sa = (unsigned)__cvta_generic_to_shared(sb);\n    u64 desc = (u64)((sa & 0x3FFFF) >> 4) | ((u64)(128 >> 4) << 16) | ((u64)(128 >> 4) << 32);\n    unsigned ar[4], dr[4], meta = 0x44444444u;\n    int r0 = 16 * w + g;\n    for (int i = 0; i < 4; i++) {\n        int r = r0 + 8 * (i & 1);\n        if (esz == 2) ar[i] = (unsigned)(a[r * KC + 2 * t + 8 * (i >> 1)] & 0xffff) | (unsigned)(a[r * KC + 2 * t + 1 + 8 * (i >> 1)] & 0xffff) << 16;\n        else if (esz == 4) ar[i] = (unsigned)a[r * KC + t + 4 * (i >> 1)];\n        else { int k0 = 4 * t + 16 * (i >> 1); ar[i] = 0; for (int e = 0; e < 4; e++) ar[i] |= (unsigned)(a[r * KC + k0 + e] & 0xff) << (8 * e); }\n    }'
# ---- S kernels (wgmma.sp): B as probe_wg.cu lays it, A the compressed K/2
for idx, x in enumerate(S):
    d, a, K = x
    esz = {'f16': 2, 'bf16': 2, 'tf32': 4, 'e4m3': 1, 'e5m2': 1, 's8': 1}[a]
    o(f"__global__ void s{idx}(const u64 *A, const u64 *B, const u64 *Cm, u64 *D)\n{{")
    o(f"    const int K = {K}, KC = {K // 2}, esz = {esz}, epc = 16 / esz;")
    o(S_BODY)
    if d == 'f16':
        o("    for (int i = 0; i < 2; i++) dr[i] = (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t] & 0xffff) | (unsigned)(c[(r0 + 8 * i) * 8 + 2 * t + 1] & 0xffff) << 16;")
    else:
        o("    for (int i = 0; i < 4; i++) dr[i] = (unsigned)c[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];")
    o('    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");')
    imm = ", 1, 1, 0" if a in ('f16', 'bf16') else (", 1, 1" if a in ('tf32', 'e4m3', 'e5m2') else "")
    if d == 'f16':
        o(f'    asm volatile("{{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k{K}.f16.{a}.{a} {{%0,%1}}, {{%2,%3,%4,%5}}, %6, %7, 0, p{imm}; }}" : "+r"(dr[0]), "+r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));')
    else:
        o(f'    asm volatile("{{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sp.sync.aligned.m64n8k{K}.{d}.{a}.{a} {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, %8, %9, 0, p{imm}; }}" : "+r"(dr[0]), "+r"(dr[1]), "+r"(dr[2]), "+r"(dr[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "l"(desc), "r"(meta));')
    o('    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");')
    o('    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");')
    if d == 'f16':
        o("    for (int i = 0; i < 2; i++) { d[(r0 + 8 * i) * 8 + 2 * t] = dr[i] & 0xffff; d[(r0 + 8 * i) * 8 + 2 * t + 1] = dr[i] >> 16; }")
    else:
        o("    for (int i = 0; i < 4; i++) d[(r0 + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = dr[i];")
    o("}")

# ---- host
o("""static u64 *dev(const std::vector<u64> &v) { u64 *p; CK(cudaMalloc(&p, v.size() * 8 + 8)); CK(cudaMemcpy(p, v.data(), v.size() * 8, cudaMemcpyHostToDevice)); return p; }
static void *devb(const std::vector<unsigned char> &v) { void *p; CK(cudaMalloc(&p, v.size() + 8)); CK(cudaMemcpy(p, v.data(), v.size(), cudaMemcpyHostToDevice)); return p; }
/* packs element x of `bits` bits at element index i of a byte image */
static void put(std::vector<unsigned char> &m, size_t i, int bits, u64 x)
{
    if (bits >= 8) { for (int e = 0; e < bits / 8; e++) m[i * (bits / 8) + e] = (unsigned char)(x >> (8 * e)); return; }
    size_t bit = i * bits; m[bit / 8] |= (unsigned char)((x & ((1u << bits) - 1)) << (bit % 8));
}
int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    typedef void (*RK)(const u64 *, const u64 *, const u64 *, u64 *);
    typedef void (*WK)(const void *, const void *, const void *, void *);""")
o("    struct RC { const char *name; RK k; int ak, bk, ck, abits, bbits, cbits, na, nb, nc, nd, M, N, dw; } rc[] = {")
for idx, r in enumerate(R):
    M, N, K, d, a, b, c, mods = r
    na, nb, nc, nd = nregs(M, N, K, a, b, c, d, mods == 'sp')
    o(f'        {{"{rname(r)}", r{idx}, {KIND[a]}, {KIND[b]}, {KIND[c]}, {BITS[a]}, {BITS[b]}, {BITS[c]}, {na}, {nb}, {nc}, {nd}, {M}, {N}, {8 if d == "f64" else 4}}},')
o("    };")
o("""    for (int ci = 0; ci < (int)(sizeof rc / sizeof rc[0]); ci++) {
        const RC &r = rc[ci]; uint32_t gid = 200 + ci;
        int nt = (102400 + r.M * r.N - 1) / (r.M * r.N);
        std::vector<u64> A((size_t)nt * 32 * r.na), B((size_t)nt * 32 * r.nb), C((size_t)nt * 32 * r.nc), D((size_t)nt * 32 * r.nd);
        for (int t = 0; t < nt; t++) for (int l = 0; l < 32; l++) {
            for (int j = 0; j < r.na; j++) A[((size_t)t * 32 + l) * r.na + j] = tcg_reg(r.ak, r.abits, gid, t, 0, l, r.na, j);
            for (int j = 0; j < r.nb; j++) B[((size_t)t * 32 + l) * r.nb + j] = tcg_reg(r.bk, r.bbits, gid, t, 1, l, r.nb, j);
            for (int j = 0; j < r.nc; j++) C[((size_t)t * 32 + l) * r.nc + j] = tcg_reg(r.ck, r.cbits, gid, t, 2, l, r.nc, j);
        }
        u64 *dA = dev(A), *dB = dev(B), *dC = dev(C), *dD = dev(D);
        r.k<<<nt, 32>>>(dA, dB, dC, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, D.size() * 8, cudaMemcpyDeviceToHost));
        save(dir, r.name, D, r.dw);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }""")
o("    struct WC_ { const char *name; WK k; int ak, ck, abits, cbits, M, N, K, dw; } wc[] = {")
ABITS = {'f16': 16, 'bf16': 16, 'tf32': 32, 'f64': 64, 's8': 8, 'u8': 8, 'u4': 4, 's4': 4, 'b1': 32}
for idx, w in enumerate(W):
    M, N, K, a, c, op = w
    cb = 64 if c == 'f64' else (16 if c == 'f16' else 32)
    Ke = K // 32 if a == 'b1' else K   # b1: elements are 32-bit words
    o(f'        {{"{wname(w)}", w{idx}, {KIND[a]}, {KIND[c]}, {ABITS[a]}, {cb}, {M}, {N}, {Ke}, {8 if c == "f64" else 4}}},')
o("    };")
o("""    for (int ci = 0; ci < (int)(sizeof wc / sizeof wc[0]); ci++) {
        const WC_ &w = wc[ci]; uint32_t gid = 400 + ci;
        int nt = (102400 + w.M * w.N - 1) / (w.M * w.N);
        std::vector<unsigned char> A(((size_t)nt * w.M * w.K * w.abits + 7) / 8), B(((size_t)nt * w.N * w.K * w.abits + 7) / 8),
            C((size_t)nt * w.M * w.N * w.cbits / 8), D((size_t)nt * w.M * w.N * w.cbits / 8);
        for (int t = 0; t < nt; t++) {
            for (int i = 0; i < w.M * w.K; i++) put(A, (size_t)t * w.M * w.K + i, w.abits, tcg_elem(w.ak, gid, t, 0, i));
            for (int i = 0; i < w.N * w.K; i++) put(B, (size_t)t * w.N * w.K + i, w.abits, tcg_elem(w.ak, gid, t, 1, i));
            for (int i = 0; i < w.M * w.N; i++) put(C, (size_t)t * w.M * w.N + i, w.cbits, w.ck == 14 ? tcg_s32c(gid, t, i) : tcg_elem(w.ck, gid, t, 2, i));
        }
        void *dA = devb(A), *dB = devb(B), *dC = devb(C), *dD = devb(D);
        w.k<<<nt, 32>>>(dA, dB, dC, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, D.size(), cudaMemcpyDeviceToHost));
        std::vector<u64> out((size_t)nt * w.M * w.N);
        for (size_t i = 0; i < out.size(); i++) { u64 x = 0; memcpy(&x, &D[i * (w.cbits / 8)], w.cbits / 8); out[i] = x; }
        save(dir, w.name, out, w.dw);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }""")
o("    struct GC { const char *name; RK k; int ak, bk, ck; } gc[] = {")
for idx, g in enumerate(G):
    d, a, b, s = g
    o(f'        {{"{gname(g)}", g{idx}, {KIND[a]}, {KIND[b]}, {KIND[d] if d != "f32" else 5}}},')
o("    };")
o("""    for (int ci = 0; ci < (int)(sizeof gc / sizeof gc[0]); ci++) {
        const GC &g = gc[ci]; uint32_t gid = 300 + ci; int nt = 200;
        std::vector<u64> A((size_t)nt * 64 * 32), B((size_t)nt * 32 * 8), C((size_t)nt * 512), D((size_t)nt * 512);
        for (int t = 0; t < nt; t++) {
            for (int i = 0; i < 64 * 32; i++) A[(size_t)t * 2048 + i] = tcg_elem(g.ak, gid, t, 0, i);
            for (int i = 0; i < 32 * 8; i++) B[(size_t)t * 256 + i] = tcg_elem(g.bk, gid, t, 1, i);
            for (int i = 0; i < 512; i++) C[(size_t)t * 512 + i] = g.ck == 14 ? tcg_s32c(gid, t, i) : tcg_elem(g.ck, gid, t, 2, i);
        }
        u64 *dA = dev(A), *dB = dev(B), *dC = dev(C), *dD = dev(D);
        g.k<<<nt, 128>>>(dA, dB, dC, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D.data(), dD, D.size() * 8, cudaMemcpyDeviceToHost));
        for (auto &x : D) x &= 0xffffffffull;
        save(dir, g.name, D, 4);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }
""")
o("    struct SC { const char *name; RK k; int ak, ck, K; } sc[] = {")
for idx, x in enumerate(S):
    d, a, K = x
    o(f'        {{"{sname(x)}", s{idx}, {KIND[a]}, {KIND[d] if d != "f32" else 5}, {K}}},')
o("    };")
o('    for (int ci = 0; ci < (int)(sizeof sc / sizeof sc[0]); ci++) {\n        const SC &g = sc[ci]; uint32_t gid = 500 + ci; int nt = 200, KC = g.K / 2;\n        std::vector<u64> A((size_t)nt * 64 * KC), B((size_t)nt * g.K * 8), C((size_t)nt * 512), D((size_t)nt * 512);\n        for (int t = 0; t < nt; t++) {\n            for (int i = 0; i < 64 * KC; i++) A[(size_t)t * 64 * KC + i] = tcg_elem(g.ak, gid, t, 0, i);\n            for (int i = 0; i < g.K * 8; i++) B[(size_t)t * g.K * 8 + i] = tcg_elem(g.ak, gid, t, 1, i);\n            for (int i = 0; i < 512; i++) C[(size_t)t * 512 + i] = g.ck == 14 ? tcg_s32c(gid, t, i) : tcg_elem(g.ck, gid, t, 2, i);\n        }\n        u64 *dA = dev(A), *dB = dev(B), *dC = dev(C), *dD = dev(D);\n        g.k<<<nt, 128>>>(dA, dB, dC, dD);\n        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());\n        CK(cudaMemcpy(D.data(), dD, D.size() * 8, cudaMemcpyDeviceToHost));\n        for (auto &x : D) x &= 0xffffffffull;\n        save(dir, g.name, D, 4);\n        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);\n    }')
o("""    return 0;
}""")
sys.stdout.write("\n".join(out) + "\n")
