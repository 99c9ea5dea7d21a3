/* test_sfu_ptx.c — every special-function-unit form through the
 * interpreter: one PTX kernel runs each form on 256 inputs (edge cases and
 * seeded random bit patterns) and each result must be what sfu/ computes
 * for that form, so the routing of exec.c (.ftz, .approx, the x2 halves,
 * the f64 high word) is checked for every instruction; tests/hw/sfu holds
 * the hardware's bits for sfu/ itself (test_sfu_hw.c). */
#include "tests/unit/interp_harness.h"
#include "sfu/sfu.h"

#define NIN 256
/* per input 28 words: 19 f32-form results, the f16|bf16 ex2 pair, 4 x2 words,
 * the f16|bf16 tanh pair, 3 unused; then 3 f64 results per input */

static const char *src = TH_HEADER
    ".visible .entry sfu(.param .u64 out, .param .u64 in, .param .u64 in64)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .f32 %f<32>; .reg .b64 %rd<12>; .reg .f64 %d<6>; .reg .b16 %h<12>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in]; ld.param.u64 %rd3, [in64];\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mad.lo.u32 %r1, %r2, 32, %r1;\n"
    "  mul.wide.u32 %rd4, %r1, 4; add.u64 %rd5, %rd2, %rd4; ld.global.f32 %f1, [%rd5];\n"
    "  ld.global.f32 %f2, [%rd5+1024];\n"
    "  rcp.approx.f32 %f3, %f1; rcp.approx.ftz.f32 %f4, %f1;\n"
    "  rsqrt.approx.f32 %f5, %f1; rsqrt.approx.ftz.f32 %f6, %f1;\n"
    "  sqrt.approx.f32 %f7, %f1; sqrt.approx.ftz.f32 %f8, %f1;\n"
    "  ex2.approx.f32 %f9, %f1; ex2.approx.ftz.f32 %f10, %f1;\n"
    "  lg2.approx.f32 %f11, %f1; lg2.approx.ftz.f32 %f12, %f1;\n"
    "  sin.approx.f32 %f13, %f1; sin.approx.ftz.f32 %f14, %f1;\n"
    "  cos.approx.f32 %f15, %f1; cos.approx.ftz.f32 %f16, %f1;\n"
    "  tanh.approx.f32 %f17, %f1;\n"
    "  div.approx.f32 %f18, %f1, %f2; div.approx.ftz.f32 %f19, %f1, %f2;\n"
    "  div.full.f32 %f20, %f1, %f2; div.full.ftz.f32 %f21, %f1, %f2;\n"
    "  mov.b32 %r3, %f1;\n"
    "  ex2.approx.f16x2 %r4, %r3; ex2.approx.ftz.bf16x2 %r5, %r3;\n"
    "  tanh.approx.f16x2 %r6, %r3; tanh.approx.bf16x2 %r7, %r3;\n"
    "  mov.b32 {%h1, %h2}, %r3;\n"
    "  ex2.approx.f16 %h3, %h1; ex2.approx.ftz.bf16 %h4, %h1; tanh.approx.f16 %h5, %h1; tanh.approx.bf16 %h6, %h1;\n"
    "  mov.b32 %f22, {%h3, %h4}; mov.b32 %f23, {%h5, %h6};\n"
    "  mul.wide.u32 %rd6, %r1, 112; add.u64 %rd7, %rd1, %rd6;\n"
    "  st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6}; st.global.v4.f32 [%rd7+16], {%f7, %f8, %f9, %f10};\n"
    "  st.global.v4.f32 [%rd7+32], {%f11, %f12, %f13, %f14}; st.global.v4.f32 [%rd7+48], {%f15, %f16, %f17, %f18};\n"
    "  st.global.v4.f32 [%rd7+64], {%f19, %f20, %f21, %f22}; st.global.v4.b32 [%rd7+80], {%r4, %r5, %r6, %r7};\n"
    "  mov.b32 %r4, %f23; st.global.b32 [%rd7+96], %r4;\n"
    "  mul.wide.u32 %rd8, %r1, 8; add.u64 %rd9, %rd3, %rd8; ld.global.f64 %d1, [%rd9];\n"
    "  rcp.approx.ftz.f64 %d2, %d1; rsqrt.approx.ftz.f64 %d3, %d1; rsqrt.approx.f64 %d4, %d1;\n"
    "  mul.wide.u32 %rd10, %r1, 24; add.u64 %rd11, %rd1, %rd10; add.u64 %rd11, %rd11, 28672;\n"
    "  st.global.f64 [%rd11], %d2; st.global.f64 [%rd11+8], %d3; st.global.f64 [%rd11+16], %d4;\n"
    "  ret;\n"
    "}\n";

static uint32_t h2(uint16_t (*f)(uint16_t), uint32_t w) { return f((uint16_t)w) | (uint32_t)f((uint16_t)(w >> 16)) << 16; }

int main(void)
{
    static const uint32_t edge[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x00000001u,
                                    0x807fffffu, 0x00800000u, 0x3f800000u, 0xbf800000u, 0x40490fdbu, 0x7f7fffffu,
                                    0xc2fc0000u, 0xc3000000u, 0x42fe0000u, 0x43000000u, 0x3c003c00u, 0x7bff7c00u,
                                    0x3f7fffffu, 0x3effffffu, 0x4b000001u, 0xcb800001u, 0x3fc90fdbu};
    uint32_t in[2 * NIN];
    uint64_t in64[NIN], s = 2026;
    for (int i = 0; i < 2 * NIN; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        in[i] = i < (int)(sizeof edge / sizeof edge[0]) ? edge[i] : (uint32_t)(s >> 32);
        if (i >= NIN / 2 && i < NIN && (i & 1)) in[i] = (in[i] & 0x807fffffu) | ((120u + (uint32_t)(s >> 20) % 16) << 23);
    }
    for (int i = 0; i < NIN; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        in64[i] = i < 8 ? (uint64_t)edge[i] << 32 : s;
    }
    th_run r;
    (void)th_run_k;
    const ir_function *fn = th_prepare(&r, src, "sfu", NIN * 112 + NIN * 24);
    if (!fn) { printf("FAIL sfu kernel: %s\n", r.res.msg); return 1; }
    uint64_t din = mem_global_alloc(r.g, sizeof in, 256, "in"), d64 = mem_global_alloc(r.g, sizeof in64, 256, "in64");
    memcpy(mem_global_host(r.g, din, sizeof in), in, sizeof in);
    memcpy(mem_global_host(r.g, d64, sizeof in64), in64, sizeof in64);
    uint64_t extra[2] = {din, d64};
    th_launch(&r, fn, NIN / 32, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, extra, 2, 10000000);
    CHECK_OK("sfu kernel runs", &r);
    static const char *names[] = {"rcp.approx.f32", "rcp.approx.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32",
                                  "sqrt.approx.f32", "sqrt.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.ftz.f32",
                                  "lg2.approx.f32", "lg2.approx.ftz.f32", "sin.approx.f32", "sin.approx.ftz.f32",
                                  "cos.approx.f32", "cos.approx.ftz.f32", "tanh.approx.f32", "div.approx.f32",
                                  "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32", "ex2.approx.f16|ftz.bf16",
                                  "ex2.approx.f16x2", "ex2.approx.ftz.bf16x2", "tanh.approx.f16x2", "tanh.approx.bf16x2",
                                  "tanh.approx.f16|bf16", "rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64", "rsqrt.approx.f64"};
    int bad[28] = {0};
    uint64_t first[28][3];
    for (int i = 0; i < NIN; i++) {
        uint32_t x = in[i], y = in[NIN + i];
        uint64_t want[28] = {sfu_rcp(x, 0), sfu_rcp(x, 1), sfu_rsqrt(x, 0), sfu_rsqrt(x, 1), sfu_sqrt(x, 0), sfu_sqrt(x, 1),
                             sfu_ex2(x, 0), sfu_ex2(x, 1), sfu_lg2(x, 0), sfu_lg2(x, 1), sfu_sin(x, 0), sfu_sin(x, 1),
                             sfu_cos(x, 0), sfu_cos(x, 1), sfu_tanh(x), sfu_div_approx(x, y, 0), sfu_div_approx(x, y, 1),
                             sfu_div_full(x, y, 0), sfu_div_full(x, y, 1),
                             sfu_ex2_f16((uint16_t)x) | (uint32_t)sfu_ex2_bf16((uint16_t)x) << 16,
                             h2(sfu_ex2_f16, x), h2(sfu_ex2_bf16, x), h2(sfu_tanh_f16, x), h2(sfu_tanh_bf16, x),
                             sfu_tanh_f16((uint16_t)x) | (uint32_t)sfu_tanh_bf16((uint16_t)x) << 16,
                             sfu_rcp_f64(in64[i]), sfu_rsqrt_f64(in64[i], 1), sfu_rsqrt_f64(in64[i], 0)};
        static const int slot[28] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 19, 0, 1, 2};
        for (int k = 0; k < 28; k++) {
            uint64_t got;
            if (k >= 25) got = th_u64(&r, (NIN * 112 + i * 24) / 8 + slot[k]);
            else if (k == 24) got = th_u32(&r, i * 28 + 24);
            else got = th_u32(&r, i * 28 + slot[k]);
            if (got != want[k] && !bad[k]++) {
                first[k][0] = k >= 25 ? in64[i] : x;
                first[k][1] = got;
                first[k][2] = want[k];
            }
        }
    }
    for (int k = 0; k < 28; k++) {
        char name[200];
        snprintf(name, sizeof name, "ptx %s on %d inputs is sfu/'s result", names[k], NIN);
        if (bad[k])
            printf("# %s: input 0x%" PRIx64 " gave 0x%" PRIx64 ", sfu/ 0x%" PRIx64 " (%d differ)\n", names[k], first[k][0],
                   first[k][1], first[k][2], bad[k]);
        CHECK(name, bad[k] == 0);
    }
    th_free(&r);
    CHECK_DONE();
}
