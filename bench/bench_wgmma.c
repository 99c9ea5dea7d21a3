/* bench/bench_wgmma.c — end-to-end wgmma throughput: a PTX kernel whose
 * warpgroups run wgmma.mma_async m64n256k16 f16 -> f32 in a loop (fence,
 * mma, commit, wait, as CUTLASS issues them), timed as ptxi runs it (parse
 * excluded), in GFLOP/s (2*64*256*16 flops a wgmma), on one interpreter
 * thread; beside it a plain C loop of float fmas over the same shapes.
 * Usage: bench_wgmma [ITERATIONS [CTAS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tests/unit/interp_harness.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A (64x16) and B (256x16) f16, K-major interleave (core matrices of 8 rows
 * x 16 bytes): A at 0 (LBO 1024, SBO 128), B at 2048 (LBO 4096, SBO 128). */
static char *kernel_src(int iters)
{
    size_t n = 1 << 16, at = 0;
    char *s = malloc(n);
    at += (size_t)snprintf(s + at, n - at, "%s.shared .align 1024 .b8 tile[10240];\n"
        ".visible .entry wg(.param .u64 out)\n{\n"
        "  .reg .b32 %%r<16>; .reg .b64 %%rd<16>; .reg .pred %%p<4>; .reg .f32 %%f<128>;\n"
        "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, tile;\n  mov.u32 %%r3, %%r1;\n"
        "$Lfill:\n  mul.lo.u32 %%r4, %%r3, 0x9E3779B9;\n  and.b32 %%r4, %%r4, 0x8F008F00;\n"
        "  or.b32 %%r4, %%r4, 0x38003800;\n  shl.b32 %%r5, %%r3, 2;\n  add.u32 %%r5, %%r5, %%r2;\n"
        "  st.shared.u32 [%%r5], %%r4;\n  add.u32 %%r3, %%r3, 128;\n  setp.lt.u32 %%p1, %%r3, 2560;\n"
        "  @%%p1 bra $Lfill;\n  fence.proxy.async.shared::cta;\n  bar.sync 0;\n"
        "  shr.u32 %%r6, %%r2, 4;\n  cvt.u64.u32 %%rd5, %%r6;\n"
        "  or.b64 %%rd6, %%rd5, 0x0000000800400000;\n  add.u64 %%rd7, %%rd5, 128;\n"
        "  or.b64 %%rd7, %%rd7, 0x0000000801000000;\n", TH_HEADER);
    for (int i = 0; i < 128; i++)
        at += (size_t)snprintf(s + at, n - at, "  mov.f32 %%f%d, 0f00000000;\n", i);
    at += (size_t)snprintf(s + at, n - at, "  mov.u32 %%r7, 0;\n$Lloop:\n  wgmma.fence.sync.aligned;\n"
                           "  wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {");
    for (int i = 0; i < 128; i++)
        at += (size_t)snprintf(s + at, n - at, "%s%%f%d", i ? ", " : "", i);
    at += (size_t)snprintf(s + at, n - at, "}, %%rd6, %%rd7, 1, 1, 1, 0, 0;\n"
        "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n"
        "  add.u32 %%r7, %%r7, 1;\n  setp.lt.u32 %%p2, %%r7, %d;\n  @%%p2 bra $Lloop;\n"
        "  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r8, %%ctaid.x;\n  mad.lo.u32 %%r9, %%r8, 128, %%r1;\n"
        "  mul.wide.u32 %%rd2, %%r9, 4;\n  add.u64 %%rd2, %%rd2, %%rd1;\n  st.global.f32 [%%rd2], %%f0;\n"
        "  ret;\n}\n", iters);
    return s;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 64, ctas = argc > 2 ? atoi(argv[2]) : 4;
    char *src = kernel_src(iters);
    th_run r;
    const ir_function *fn = th_prepare(&r, src, "wg", 1 << 16);
    if (!fn) {
        printf("FAIL bench_wgmma: %s\n", r.res.msg);
        return 1;
    }
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now();
        int st = th_launch(&r, fn, (uint32_t)ctas, 128, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0, 0);
        double t = now() - t0;
        if (st) {
            printf("FAIL bench_wgmma: %s\n", r.res.msg);
            return 1;
        }
        if (t < best)
            best = t;
    }
    double flops = 2.0 * 64 * 256 * 16 * (double)iters * ctas;
    printf("wgmma m64n256k16 f16->f32, %d CTAs x %d wgmmas, one thread: %.3f s, %.3f GFLOP/s (bit-exact path)\n",
           ctas, iters, best, flops / best / 1e9);
    /* the same multiply-adds as a plain C loop of float fmas */
    static float a[64 * 16], b[256 * 16], d[64 * 256];
    for (int i = 0; i < 64 * 16; i++)
        a[i] = (float)(i % 7) * 0.5f;
    for (int i = 0; i < 256 * 16; i++)
        b[i] = (float)(i % 5) * 0.25f;
    int reps = iters * ctas;
    double t0 = now();
    for (int q = 0; q < reps; q++)
        for (int m = 0; m < 64; m++)
            for (int n = 0; n < 256; n++) {
                float s = d[m * 256 + n];
                for (int k = 0; k < 16; k++)
                    s = __builtin_fmaf(a[m * 16 + k], b[n * 16 + k], s);
                d[m * 256 + n] = s;
            }
    double tc = now() - t0;
    printf("plain C float fma loop, same shapes: %.3f s, %.3f GFLOP/s (checksum %g); ptxi/C = %.3f\n", tc,
           flops / tc / 1e9, (double)d[12345 % (64 * 256)], (flops / best) / (flops / tc));
    free(src);
    th_free(&r);
    (void)th_run_k;
    return check_failures;
}
