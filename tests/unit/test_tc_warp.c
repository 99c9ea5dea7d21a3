/* test_tc_warp.c — wmma and mma.sp through real PTX kernels run by the
 * interpreter, against a plain matrix product computed here.  Inputs are
 * small integers, exact in every element type and in any order of
 * accumulation, so the numerics cannot hide a layout error: each kernel
 * loads A, B and C from strided global matrices (row- and column-major),
 * multiplies, and stores D strided; the test places and reads the elements
 * by the memory layout alone.  mma.sp takes its fragments from registers,
 * placed here by the PTX ISA's sparse layout and metadata (written out
 * independently of tc/warp.c).  Misuse faults with its place. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests/unit/interp_harness.h"

static int bits_of(const char *t)
{
    if (!strcmp(t, "f64")) return 64;
    if (!strcmp(t, "f32") || !strcmp(t, "tf32") || !strcmp(t, "s32")) return 32;
    if (!strcmp(t, "f16") || !strcmp(t, "bf16")) return 16;
    if (!strcmp(t, "s8") || !strcmp(t, "u8")) return 8;
    if (!strcmp(t, "s4") || !strcmp(t, "u4")) return 4;
    return 1;
}

/* the bits of the small integer v as type t */
static uint64_t enc(const char *t, long v)
{
    if (!strcmp(t, "f64")) { double d = (double)v; uint64_t u; memcpy(&u, &d, 8); return u; }
    if (!strcmp(t, "f32") || !strcmp(t, "tf32") || !strcmp(t, "bf16")) {
        float f = (float)v; uint32_t u; memcpy(&u, &f, 4);
        return t[0] == 'b' ? u >> 16 : u;
    }
    if (!strcmp(t, "f16")) {
        if (!v) return 0;
        uint32_t s = v < 0, a = (uint32_t)labs(v), e = 31 - (uint32_t)__builtin_clz(a);
        return s << 15 | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff);
    }
    return (uint64_t)v & (bits_of(t) == 64 ? ~0ull : (1ull << bits_of(t)) - 1);
}

static long dec(const char *t, uint64_t u)
{
    if (!strcmp(t, "f64")) { double d; memcpy(&d, &u, 8); return lrint(d); }
    if (!strcmp(t, "f32")) { uint32_t w = (uint32_t)u; float f; memcpy(&f, &w, 4); return lrintf(f); }
    if (!strcmp(t, "f16")) {
        uint32_t e = (u >> 10) & 31, m = (u & 0x3ff) | 0x400;
        long a = e ? (long)(e >= 25 ? m << (e - 25) : m >> (25 - e)) : 0;
        return (u >> 15) & 1 ? -a : a;
    }
    return (int32_t)(uint32_t)u;
}

/* element (r, c) of an R x C matrix, layout col (0 row-major), stride ld, into buf */
static void put(uint8_t *buf, const char *t, int col, int ld, int r, int c, uint64_t v)
{
    int b = bits_of(t);
    uint64_t e = col ? (uint64_t)c * (uint64_t)ld + (uint64_t)r : (uint64_t)r * (uint64_t)ld + (uint64_t)c;
    if (b < 8) {
        uint64_t bit = e * (uint64_t)b;
        buf[bit / 8] = (uint8_t)((buf[bit / 8] & ~(((1u << b) - 1) << (bit % 8))) | (v << (bit % 8)));
    } else {
        memcpy(buf + e * (uint64_t)b / 8, &v, (size_t)b / 8);
    }
}

static uint64_t get(const uint8_t *buf, const char *t, int col, int ld, int r, int c)
{
    int b = bits_of(t);
    uint64_t e = col ? (uint64_t)c * (uint64_t)ld + (uint64_t)r : (uint64_t)r * (uint64_t)ld + (uint64_t)c, v = 0;
    memcpy(&v, buf + e * (uint64_t)b / 8, (size_t)b / 8);
    return v;
}

static const char *regs(char *s, int n, const char *p, int from)
{
    int k = sprintf(s, "{");
    for (int i = 0; i < n; i++)
        k += sprintf(s + k, "%s%s%d", i ? "," : "", p, from + i);
    sprintf(s + k, "}");
    return s;
}

/* one wmma: A (M x K) and B (K x N) in layouts la, lb; C and D in ld_ layout */
static void check_wmma(int M, int N, int K, const char *at, const char *ct, const char *dt, int na, int nb,
                       int la, int lb, int lc, int ld_, const char *extra)
{
    char name[160], src[4096], ra[200], rb[200], rc[200], rd[200];
    int nc = (M == 8 && N == 8) || !strcmp(ct, "f64") ? 2 : !strcmp(ct, "f16") ? M * N / 64 : M * N / 32;
    int nd = (M == 8 && N == 8) || !strcmp(dt, "f64") ? 2 : !strcmp(dt, "f16") ? M * N / 64 : M * N / 32;
    bool f16 = !strcmp(at, "f16");
    const char *ap = !strcmp(at, "f64") ? "%fd" : "%r", *cp = !strcmp(ct, "f64") ? "%fd" : "%r";
    char types[64];
    if (f16) snprintf(types, sizeof types, "%s.%s", dt, ct);
    else snprintf(types, sizeof types, "%s.%s.%s.%s", dt, at, at, ct);
    bool popc = strstr(extra, "popc") != NULL;
    /* strides: the leading dimension plus a pad of 16 bytes' worth of elements */
    int ab = bits_of(at), pad = ab >= 128 ? 1 : 128 / ab;
    int lda = (la ? M : K) + pad, ldb = (lb ? K : N) + pad, ldc = (lc ? M : N) + 4, ldd = (ld_ ? M : N) + 4;
    snprintf(name, sizeof name, "wmma m%dn%dk%d %s %s->%s %s.%s C %s D %s%s", M, N, K, at, ct, dt,
             la ? "col" : "row", lb ? "col" : "row", lc ? "col" : "row", ld_ ? "col" : "row", extra);
    snprintf(src, sizeof src,
             ".version 8.0\n.target sm_90a\n.address_size 64\n"
             ".visible .entry k(.param .u64 out, .param .u64 pa, .param .u64 pb, .param .u64 pc)\n{\n"
             ".reg .b32 %%r<80>;\n.reg .b64 %%rd<8>;\n.reg .f64 %%fd<80>;\n"
             "ld.param.u64 %%rd0, [out];\nld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [pc];\n"
             "mov.u32 %%r79, %d;\n"
             "wmma.load.a.sync.aligned.%s.m%dn%dk%d.global.%s %s, [%%rd1], %d;\n"
             "wmma.load.b.sync.aligned.%s.m%dn%dk%d.%s %s, [%%rd2], %%r79;\n"
             "wmma.load.c.sync.aligned.%s.m%dn%dk%d.%s %s, [%%rd3], %d;\n"
             "wmma.mma%s.sync.aligned.%s.%s.m%dn%dk%d%s.%s %s, %s, %s, %s;\n"
             "wmma.store.d.sync.aligned.%s.m%dn%dk%d.global.%s [%%rd0], %s, %d;\nret;\n}\n",
             ldb,
             la ? "col" : "row", M, N, K, at, regs(ra, na, ap, 0), lda,
             lb ? "col" : "row", M, N, K, at, regs(rb, nb, ap, 20), 
             lc ? "col" : "row", M, N, K, ct, regs(rc, nc, cp, 40), ldc,
             popc ? extra : "", la ? "col" : "row", lb ? "col" : "row", M, N, K,
             !strcmp(at, "f64") ? ".rn" : "", types, regs(rd, nd, cp, 60), ra, rb, rc,
             ld_ ? "col" : "row", M, N, K, dt, rd, ldd);
    if (!popc && *extra) {  /* .satfinite goes after the types */
        char *p = strstr(src, types);
        memmove(p + strlen(types) + strlen(extra), p + strlen(types), strlen(p + strlen(types)) + 1);
        memcpy(p + strlen(types), extra, strlen(extra));
    }
    th_run r;
    const ir_function *fn = th_prepare(&r, src, "k", 64 * 1024);
    if (!fn) {
        printf("FAIL %s: %s\n", name, r.res.msg);
        check_failures++;
        return;
    }
    uint64_t pa = mem_global_alloc(r.g, 64 * 1024, 256, "a"), pb = mem_global_alloc(r.g, 64 * 1024, 256, "b"),
             pc = mem_global_alloc(r.g, 64 * 1024, 256, "c");
    uint8_t *A = mem_global_host(r.g, pa, 64 * 1024), *B = mem_global_host(r.g, pb, 64 * 1024),
            *C = mem_global_host(r.g, pc, 64 * 1024);
    memset(r.host, 0xa5, 64 * 1024);
    static long a[32][128], b[128][32], want[32][32];
    bool u = at[0] == 'u', bin = ab == 1;
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            a[i][k] = bin ? (i * 7 + k * 3 + k / 5) % 3 == 0 : (i * 3 + k * 5 + i * k) % 7 - (u ? 0 : 3);
            if (ab == 4) a[i][k] = u ? (i + 3 * k) % 16 : (i + 3 * k) % 16 - 8;
            put(A, at, la, lda, i, k, enc(at, a[i][k]));
        }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            b[k][j] = bin ? (k * 5 + j * 11 + j / 3) % 4 == 1 : (k + 2 * j + k * j) % 5 - (u ? 0 : 2);
            if (ab == 4) b[k][j] = u ? (2 * k + j) % 16 : (2 * k + j) % 16 - 8;
            put(B, at, lb, ldb, k, j, enc(at, b[k][j]));
        }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long cv = i - 2 * j, s = cv;
            put(C, ct, lc, ldc, i, j, enc(ct, cv));
            for (int k = 0; k < K; k++)
                s += bin ? (!strcmp(extra, ".xor.popc") ? (a[i][k] ^ b[k][j]) : (a[i][k] & b[k][j])) : a[i][k] * b[k][j];
            want[i][j] = s;
        }
    uint64_t extra3[3] = { pa, pb, pc };
    int st = th_launch(&r, fn, 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, extra3, 3, 1000000);
    int bad = 0;
    char first[200] = "";
    for (int i = 0; i < M && !st; i++)
        for (int j = 0; j < N; j++) {
            long got = dec(dt, get(r.host, dt, ld_, ldd, i, j));
            if (got != want[i][j] && !bad++)
                snprintf(first, sizeof first, "D[%d][%d] = %ld, want %ld", i, j, got, want[i][j]);
        }
    /* the padding between rows/columns stays untouched */
    int lines = ld_ ? N : M, len = ld_ ? M : N, db = bits_of(dt) / 8;
    for (int l = 0; l < lines && !st; l++)
        for (int p = len * db; p < ldd * db; p++)
            if (r.host[l * ldd * db + p] != 0xa5 && !bad++)
                snprintf(first, sizeof first, "padding byte %d of line %d written", p, l);
    if (st) {
        printf("FAIL %s: status %d: %s\n", name, st, r.res.msg);
        check_failures++;
    } else if (bad) {
        printf("FAIL %s: %d wrong, first %s\n", name, bad, first);
        check_failures++;
    } else {
        printf("PASS %s\n", name);
    }
    th_free(&r);
}

static void wmma_all(void)
{
    static const struct { int m, n, k; const char *at; int na, nb; } f[] = {
        { 16, 16, 16, "f16", 8, 8 }, { 32, 8, 16, "f16", 8, 8 }, { 8, 32, 16, "f16", 8, 8 },
        { 16, 16, 16, "bf16", 4, 4 }, { 32, 8, 16, "bf16", 8, 2 }, { 8, 32, 16, "bf16", 2, 8 },
        { 16, 16, 8, "tf32", 4, 4 }, { 8, 8, 4, "f64", 1, 1 },
        { 16, 16, 16, "s8", 2, 2 }, { 32, 8, 16, "u8", 4, 1 }, { 8, 32, 16, "s8", 1, 4 },
    };
    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {
        const char *acc = !strcmp(f[i].at, "f64") ? "f64" : f[i].at[1] == '8' ? "s32" : "f32";
        for (int lay = 0; lay < 4; lay++)
            check_wmma(f[i].m, f[i].n, f[i].k, f[i].at, acc, acc, f[i].na, f[i].nb, lay & 1, lay >> 1, lay & 1,
                       !(lay >> 1), "");
        if (!strcmp(f[i].at, "f16")) {
            check_wmma(f[i].m, f[i].n, f[i].k, "f16", "f16", "f16", 8, 8, 0, 1, 0, 0, "");
            check_wmma(f[i].m, f[i].n, f[i].k, "f16", "f16", "f32", 8, 8, 1, 0, 1, 0, "");
            check_wmma(f[i].m, f[i].n, f[i].k, "f16", "f32", "f16", 8, 8, 0, 0, 0, 1, "");
        }
    }
    check_wmma(16, 16, 16, "s8", "s32", "s32", 2, 2, 0, 1, 0, 0, ".satfinite");
    check_wmma(8, 8, 32, "s4", "s32", "s32", 1, 1, 0, 1, 0, 0, "");
    check_wmma(8, 8, 32, "u4", "s32", "s32", 1, 1, 0, 1, 1, 1, "");
    check_wmma(8, 8, 128, "b1", "s32", "s32", 1, 1, 0, 1, 0, 1, ".xor.popc");
    check_wmma(8, 8, 128, "b1", "s32", "s32", 1, 1, 0, 1, 1, 0, ".and.popc");
}

/* mma.sp.m16n8k16 .f32.f16.f16.f32 with selector sel: fragments placed by
 * the PTX ISA's figures ("Sparse mma.m16n8k16 .f16"): the kept halves of
 * row g / g+8 in registers 0 / 1 of lane 4g + t at columns 2t, 2t+1 of the
 * compressed 16 x 8 A; metadata of both rows in the thread t == sel of the
 * quad (row g in bits 15:0, row g+8 in 31:16, 4 bits a chunk of four). */
static void check_mma_sp(int sel, bool ordered)
{
    char name[96], src[2048];
    snprintf(name, sizeof name, "mma%s m16n8k16 f16 sel %d", ordered ? ".sp::ordered_metadata" : ".sp", sel);
    snprintf(src, sizeof src,
             ".version 8.0\n.target sm_90a\n.address_size 64\n"
             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
             ".reg .b32 %%r<40>;\n.reg .b64 %%rd<8>;\n"
             "ld.param.u64 %%rd0, [out];\nld.param.u64 %%rd1, [in];\nmov.u32 %%r30, %%laneid;\n"
             "mul.wide.u32 %%rd2, %%r30, 48;\nadd.s64 %%rd1, %%rd1, %%rd2;\n"
             "ld.global.v4.b32 {%%r0, %%r1, %%r2, %%r3}, [%%rd1];\nld.global.v4.b32 {%%r4, %%r5, %%r6, %%r7}, [%%rd1+16];\n"
             "ld.global.b32 %%r8, [%%rd1+32];\n"
             "mma%s.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%r10,%%r11,%%r12,%%r13}, {%%r0,%%r1}, {%%r2,%%r3}, "
             "{%%r4,%%r5,%%r6,%%r7}, %%r8, %d;\n"
             "mul.wide.u32 %%rd2, %%r30, 16;\nadd.s64 %%rd0, %%rd0, %%rd2;\n"
             "st.global.v4.b32 [%%rd0], {%%r10,%%r11,%%r12,%%r13};\nret;\n}\n",
             ordered ? ".sp::ordered_metadata" : ".sp", sel);
    th_run r;
    const ir_function *fn = th_prepare(&r, src, "k", 4096);
    if (!fn) {
        printf("FAIL %s: %s\n", name, r.res.msg);
        check_failures++;
        return;
    }
    uint64_t pin = mem_global_alloc(r.g, 32 * 48, 256, "in");
    uint32_t *in = (uint32_t *)mem_global_host(r.g, pin, 32 * 48);
    static const int pairs[6][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 } };
    long A[16][16] = { { 0 } }, B[16][8], C[16][8];
    uint16_t kept[16][8];
    uint32_t meta[8] = { 0 };  /* rows g, g + 8 of quad g */
    for (int row = 0; row < 16; row++)
        for (int ch = 0; ch < 4; ch++) {
            const int *p = pairs[(row * 5 + ch * 3) % 6];
            for (int s = 0; s < 2; s++) {
                long v = (row + 2 * ch + 3 * s) % 7 - 3;
                if (!v) v = 4;
                A[row][4 * ch + p[s]] = v;
                kept[row][2 * ch + s] = (uint16_t)enc("f16", v);
                meta[row % 8] |= (uint32_t)p[s] << (16 * (row / 8) + 4 * ch + 2 * s);
            }
        }
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 8; j++)
            B[k][j] = (k * 3 + j) % 5 - 2;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++)
            C[i][j] = i - j;
    for (int lane = 0; lane < 32; lane++) {
        int g = lane / 4, t = lane % 4;
        uint32_t *q = in + lane * 12;
        for (int i = 0; i < 2; i++)
            q[i] = kept[g + 8 * i][2 * t] | (uint32_t)kept[g + 8 * i][2 * t + 1] << 16;
        for (int i = 0; i < 2; i++)
            q[2 + i] = (uint32_t)enc("f16", B[2 * t + 8 * i][g]) | (uint32_t)enc("f16", B[2 * t + 8 * i + 1][g]) << 16;
        for (int i = 0; i < 4; i++)
            q[4 + i] = (uint32_t)enc("f32", C[g + 8 * (i / 2)][2 * t + i % 2]);
        q[8] = t == sel ? meta[g] : 0xdeadbeefu;  /* only the selected thread's counts */
    }
    uint64_t ex[1] = { pin };
    int st = th_launch(&r, fn, 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, ex, 1, 1000000);
    int bad = 0;
    char first[160] = "";
    for (int lane = 0; lane < 32 && !st; lane++)
        for (int i = 0; i < 4; i++) {
            int row = lane / 4 + 8 * (i / 2), col = 2 * (lane % 4) + i % 2;
            long want = C[row][col];
            for (int k = 0; k < 16; k++)
                want += A[row][k] * B[k][col];
            long got = dec("f32", th_u32(&r, (unsigned)(lane * 4 + i)));
            if (got != want && !bad++)
                snprintf(first, sizeof first, "D[%d][%d] = %ld, want %ld", row, col, got, want);
        }
    if (st || bad) {
        printf("FAIL %s: %s%s\n", name, st ? r.res.msg : "", first);
        check_failures++;
    } else {
        printf("PASS %s\n", name);
    }
    th_free(&r);
}

/* a wmma reached by half the warp, a load outside global memory, a stride
 * too small: each a fault naming the instruction's line */
static void check_faults(void)
{
    static const struct { const char *name, *body, *want; } c[] = {
        { "wmma diverged", "mov.u32 %r30, %laneid;\nsetp.lt.u32 %p0, %r30, 16;\n@%p0 bra DONE;\n"
          "wmma.load.c.sync.aligned.row.m16n16k16.f32 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, [%rd0];\nDONE:\nret;\n",
          "test.ptx:13" },
        { "wmma out of bounds", "add.s64 %rd0, %rd0, 4096;\n"
          "wmma.store.d.sync.aligned.row.m16n16k16.f32 [%rd0], {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7};\nret;\n",
          "test.ptx:11" },
        { "wmma stride too small", "wmma.load.a.sync.aligned.col.m16n16k16.f16 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, [%rd0], 8;\nret;\n",
          "stride 8" },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        char src[1024];
        snprintf(src, sizeof src, ".version 8.0\n.target sm_90a\n.address_size 64\n"
                 ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %%r<40>;\n.reg .b64 %%rd<8>;\n.reg .pred %%p<2>;\n"
                 "ld.param.u64 %%rd0, [out];\n%s}\n", c[i].body);
        th_run r;
        const ir_function *fn = th_prepare(&r, src, "k", 4096);
        int st = fn ? th_launch(&r, fn, 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0, 100000) : -1;
        char all[sizeof r.res.msg];
        snprintf(all, sizeof all, "%s", r.res.msg);
        if (st != 0 && (strstr(all, c[i].want) || strstr(r.res.msg, c[i].want)))
            printf("PASS %s\n", c[i].name);
        else {
            printf("FAIL %s: status %d, message '%s' (want '%s')\n", c[i].name, st, r.res.msg, c[i].want);
            check_failures++;
        }
        if (fn) th_free(&r);
    }
}

int main(void)
{
    wmma_all();
    for (int sel = 0; sel < 4; sel++)
        check_mma_sp(sel, sel != 1);
    check_faults();
    CHECK_DONE();
}
