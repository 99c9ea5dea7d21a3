/* test_interp_fp.c — the float edge cases where the H100 makes a choice
 * IEEE 754 leaves open: NaN encodings (f64 keeps payloads, f32/f16/bf16
 * canonicalise), which NaN operand wins, NaN -> integer, .relu, fp8 and
 * tf32 rounding, div.full's scaling, testp.normal of zero.  Every
 * expectation is derived by hand below from the rule it checks; the rules
 * themselves were read off tests/hw/numeric and a device probe (see the
 * comments in interp/fp.c and interp/exec.c).
 *
 * Part 1 calls the helpers of interp/fp.c directly; part 2 runs one PTX
 * kernel through the interpreter for the handlers in exec.c. */
#include "tests/unit/interp_harness.h"
#include <math.h>
#include "interp/fp.h"
#include "sfu/sfu.h"

static void helpers(void)
{
    /* tf32 .rna: x + 0x1000, then clear the low 13 bits.  1 + 2^-11 is the
     * tie between 1 and 1 + 2^-10: away from zero. */
    CHECK_EQ_U64("tf32.rna tie goes away from zero", fp_f32_to_tf32_rna(0x3f801000u, 0), 0x3f802000u);
    CHECK_EQ_U64("tf32.rna below the tie truncates", fp_f32_to_tf32_rna(0x3f800fffu, 0), 0x3f800000u);
    /* NaN/Inf only get masked: 0x7f800001 loses its payload and is Inf */
    CHECK_EQ_U64("tf32.rna NaN loses low bits", fp_f32_to_tf32_rna(0x7f800001u, 0), 0x7f800000u);
    CHECK_EQ_U64("tf32.rna -NaN keeps high payload", fp_f32_to_tf32_rna(0xffc00001u, 0), 0xffc00000u);
    CHECK_EQ_U64("tf32.rna max float rounds to Inf", fp_f32_to_tf32_rna(0x7f7ff000u, 0), 0x7f800000u);
    /* .satfinite: an all-ones exponent steps down one tf32 ulp (0x2000) */
    CHECK_EQ_U64("tf32.rna.satfinite Inf -> max", fp_f32_to_tf32_rna(0x7f800000u, 1), 0x7f7fe000u);
    CHECK_EQ_U64("tf32.rna.satfinite -Inf -> -max", fp_f32_to_tf32_rna(0xff800000u, 1), 0xff7fe000u);

    /* e4m3: bias 7, 3 mantissa bits, max 448 = 1.75 * 2^8 = 0x7e, NaN 0x7f */
    CHECK_EQ_U64("e4m3 1.0", fp_f32_to_e4m3(0x3f800000u, 0), 0x38);
    CHECK_EQ_U64("e4m3 448", fp_f32_to_e4m3(0x43e00000u, 0), 0x7e);
    /* 464 is the tie between 448 (mantissa 110) and 480 (would be 0x7f):
     * even mantissa 448; anything larger saturates to 448 as well */
    CHECK_EQ_U64("e4m3 464 ties to 448", fp_f32_to_e4m3(0x43e80000u, 0), 0x7e);
    CHECK_EQ_U64("e4m3 1e30 saturates", fp_f32_to_e4m3(0x7149f2cau, 0), 0x7e);
    CHECK_EQ_U64("e4m3 -Inf saturates", fp_f32_to_e4m3(0xff800000u, 0), 0xfe);
    CHECK_EQ_U64("e4m3 NaN", fp_f32_to_e4m3(0x7fc00000u, 0), 0x7f);
    CHECK_EQ_U64("e4m3 -NaN is +0x7f", fp_f32_to_e4m3(0xffc00001u, 0), 0x7f);
    CHECK_EQ_U64("e4m3 -0 keeps sign", fp_f32_to_e4m3(0x80000000u, 0), 0x80);
    /* smallest subnormal 2^-9: 2^-10 is the tie with 0 (even: 0),
     * 0.75 * 2^-9 rounds up to 2^-9 */
    CHECK_EQ_U64("e4m3 2^-10 ties to 0", fp_f32_to_e4m3(0x3a800000u, 0), 0x00);
    CHECK_EQ_U64("e4m3 0.75*2^-9 -> min subnormal", fp_f32_to_e4m3(0x3ac00000u, 0), 0x01);
    CHECK_EQ_U64("e4m3.relu -1 -> +0", fp_f32_to_e4m3(0xbf800000u, 1), 0x00);
    CHECK_EQ_U64("e4m3.relu -0 -> +0", fp_f32_to_e4m3(0x80000000u, 1), 0x00);
    CHECK_EQ_U64("e4m3.relu NaN stays NaN", fp_f32_to_e4m3(0xffc00000u, 1), 0x7f);
    /* e5m2: bias 15, 2 mantissa bits, max finite 57344 = 1.75 * 2^15 = 0x7b */
    CHECK_EQ_U64("e5m2 1.0", fp_f32_to_e5m2(0x3f800000u, 0), 0x3c);
    CHECK_EQ_U64("e5m2 57344", fp_f32_to_e5m2(0x47600000u, 0), 0x7b);
    CHECK_EQ_U64("e5m2 61440 (tie with Inf) saturates", fp_f32_to_e5m2(0x47700000u, 0), 0x7b);
    CHECK_EQ_U64("e5m2 Inf saturates", fp_f32_to_e5m2(0x7f800000u, 0), 0x7b);
    CHECK_EQ_U64("e4m3 -> f16 1.0", fp_e4m3_to_f16(0x38), 0x3c00);
    CHECK_EQ_U64("e4m3 -> f16 min subnormal 2^-9", fp_e4m3_to_f16(0x01), 0x1800);
    CHECK_EQ_U64("e4m3 -> f16 NaN", fp_e4m3_to_f16(0xff), 0x7fff);
    CHECK_EQ_U64("e5m2 -> f16 is the top byte", fp_e5m2_to_f16(0xc1), 0xc100);

    /* div.full: |b| > 2^126 scales both by 1/4.  65504 / FLT_MAX:
     * b/4 = (2 - 2^-23) 2^125, 1/(b/4) = 2^-126 (1 + 2^-24 + ...) rounds up
     * to 0x00800001; 16376 * that = 0x077fe000 * (1 + 2^-23) -> 0x077fe002
     * (2 ulp above the true quotient, as the H100 writes it) */
    CHECK_EQ_U64("div.full 65504/FLT_MAX", sfu_div_full(0x477fe000u, 0x7f7fffffu, 0), 0x077fe002u);
    /* 2.5 / FLT_MAX: 0.625 * 0x00800001 = 1.25 * 2^-127 (1 + 2^-23):
     * subnormal 0x00500000 + 0.625 ulp -> 0x00500001 */
    CHECK_EQ_U64("div.full 2.5/FLT_MAX", sfu_div_full(0x40200000u, 0x7f7fffffu, 0), 0x00500001u);
    CHECK_EQ_U64("div.full FLT_MAX/FLT_MAX", sfu_div_full(0x7f7fffffu, 0x7f7fffffu, 0), 0x3f800000u);
    /* |b| < 2^-126 scales both by 2^24: 2^-149 / 2^-149 = 1, 0/2^-149 = 0 */
    CHECK_EQ_U64("div.full denorm/denorm", sfu_div_full(0x00000001u, 0x00000001u, 0), 0x3f800000u);
    CHECK_EQ_U64("div.full 0/denorm", sfu_div_full(0x00000000u, 0x00000001u, 0), 0);
    CHECK_EQ_U64("div.full (2^23-1)*2^-149 / 2^-149", sfu_div_full(0x007fffffu, 0x00000001u, 0), 0x4afffffeu);
    CHECK_EQ_U64("div.full.ftz 1/denorm = Inf", sfu_div_full(0x3f800000u, 0x00000001u, 1), 0x7f800000u);
    CHECK_EQ_U64("div.full 0/0 canonical NaN", sfu_div_full(0, 0, 0), 0x7fffffffu);

    /* NaN narrowing keeps sign and top payload, sets the quiet bit */
    CHECK_EQ_U64("f64 NaN -> f32 payload", fp_f64_nan_to_f32(0x7ff00000e0000000ull), 0x7fc00007u);
    CHECK_EQ_U64("f64 -NaN -> f32", fp_f64_nan_to_f32(0xffffffffffffffffull), 0xffffffffu);
    CHECK_EQ_U64("f64 NaN -> f16 payload", fp_f64_nan_to_f16(0x7ff4000000000000ull), 0x7f00);
    CHECK_EQ_U64("f64 NaN -> bf16 payload", fp_f64_nan_to_bf16(0x7ff4000000000000ull), 0x7fe0);
    CHECK_EQ_U64("f16 NaN -> f64 payload", fp_f16_nan_to_f64(0xffff), 0xfffffc0000000000ull);
    CHECK_EQ_U64("f32 sNaN -> f64 quieted", fp_f32_nan_to_f64(0x7f800001u), 0x7ff8000020000000ull);
}

static const char *fp_src = TH_HEADER
".visible .entry fp(.param .u64 out)\n"
"{\n"
"  .reg .b64 %rd<40>;\n"
"  .reg .b32 %r<40>;\n"
"  .reg .b16 %h<20>;\n"
"  .reg .pred %p<4>;\n"
"  ld.param.u64 %rd1, [out];\n"
"  mov.b64 %rd2, 0x7ff8000000000aaa;\n"   /* qNaN A */
"  mov.b64 %rd3, 0x7ff0000000000bbb;\n"   /* sNaN B */
"  mov.b64 %rd4, 0xfff8000000000ccc;\n"   /* -qNaN C */
"  mov.b64 %rd5, 0x3ff0000000000000;\n"   /* 1.0 */
"  mov.b64 %rd6, 0x7ff0000000000000;\n"   /* +Inf */
"  mov.b64 %rd7, 0;\n"
"  mov.b64 %rd8, 0x8000000000000000;\n"   /* -0 */
"  add.rn.f64 %rd10, %rd2, %rd3;\n"       /* 0: b wins, quieted */
"  st.global.u64 [%rd1+0], %rd10;\n"
"  sub.rn.f64 %rd10, %rd5, %rd4;\n"       /* 1: b's sign not flipped */
"  st.global.u64 [%rd1+8], %rd10;\n"
"  div.rn.f64 %rd10, %rd2, %rd3;\n"       /* 2: div: a wins */
"  st.global.u64 [%rd1+16], %rd10;\n"
"  fma.rn.f64 %rd10, %rd2, %rd5, %rd4;\n" /* 3: fma: b, c, a -> c */
"  st.global.u64 [%rd1+24], %rd10;\n"
"  mul.rn.f64 %rd10, %rd6, %rd7;\n"       /* 4: Inf * 0 -> default NaN */
"  st.global.u64 [%rd1+32], %rd10;\n"
"  min.f64 %rd10, %rd3, %rd5;\n"          /* 5: sNaN ignored */
"  st.global.u64 [%rd1+40], %rd10;\n"
"  min.f64 %rd10, %rd2, %rd3;\n"          /* 6: two NaNs: b, quieted */
"  st.global.u64 [%rd1+48], %rd10;\n"
"  min.f64 %rd10, %rd7, %rd8;\n"          /* 7: -0 < +0 */
"  st.global.u64 [%rd1+56], %rd10;\n"
"  max.f64 %rd10, %rd8, %rd7;\n"          /* 8 */
"  st.global.u64 [%rd1+64], %rd10;\n"
"  neg.f64 %rd10, %rd3;\n"                /* 9: DADD: quieted, sign kept */
"  st.global.u64 [%rd1+72], %rd10;\n"
"  mov.b64 %rd11, 0xfff0000020000000;\n"
"  cvt.rn.f32.f64 %r1, %rd11;\n"          /* 10: payload >> 29 */
"  cvt.u64.u32 %rd10, %r1;\n"
"  st.global.u64 [%rd1+80], %rd10;\n"
"  mov.b32 %r2, 0x7fc00000;\n"            /* f32 NaN */
"  cvt.rzi.s64.f32 %rd10, %r2;\n"         /* 11: NaN -> 64-bit: sign bit */
"  st.global.u64 [%rd1+88], %rd10;\n"
"  cvt.rzi.u64.f32 %rd10, %r2;\n"         /* 12 */
"  st.global.u64 [%rd1+96], %rd10;\n"
"  cvt.rzi.s32.f32 %r3, %r2;\n"           /* 13: NaN -> 32-bit from f32: 0 */
"  cvt.u64.u32 %rd10, %r3;\n"
"  st.global.u64 [%rd1+104], %rd10;\n"
"  cvt.rzi.s32.f64 %r3, %rd2;\n"          /* 14: from f64: sign bit */
"  cvt.u64.u32 %rd10, %r3;\n"
"  st.global.u64 [%rd1+112], %rd10;\n"
"  cvt.rzi.u8.f64 %h1, %rd2;\n"           /* 15 */
"  cvt.u64.u16 %rd10, %h1;\n"
"  st.global.u64 [%rd1+120], %rd10;\n"
"  mov.b16 %h2, 0xffff;\n"                /* f16 / bf16 NaN */
"  cvt.f32.bf16 %r4, %h2;\n"              /* 16: a shift */
"  cvt.u64.u32 %rd10, %r4;\n"
"  st.global.u64 [%rd1+128], %rd10;\n"
"  cvt.f32.f16 %r4, %h2;\n"               /* 17: canonical */
"  cvt.u64.u32 %rd10, %r4;\n"
"  st.global.u64 [%rd1+136], %rd10;\n"
"  cvt.f64.f16 %rd10, %h2;\n"             /* 18: payload kept */
"  st.global.u64 [%rd1+144], %rd10;\n"
"  mov.b32 %r5, 0xbf800000;\n"            /* -1 */
"  cvt.rn.relu.f16.f32 %h3, %r5;\n"       /* 19 lo: -1 -> +0 */
"  mov.b32 %r6, 0x80000000;\n"
"  cvt.rn.relu.f16.f32 %h4, %r6;\n"       /* 19 hi: -0 -> +0 */
"  mov.b32 %r7, {%h3, %h4};\n"
"  cvt.rn.relu.f16.f32 %h5, %r2;\n"       /* 20 lo: NaN -> 0x7fff */
"  mov.b16 %h6, 0x3f80;\n"                /* bf16 1.0 */
"  max.NaN.bf16 %h7, %h6, %h2;\n"         /* 20 hi: 0x7fff */
"  mov.b32 %r8, {%h5, %h7};\n"
"  mov.b64 %rd10, {%r7, %r8};\n"
"  st.global.u64 [%rd1+152], %rd10;\n"
"  mov.b16 %h8, 0x3c00;\n"                /* f16 1.0 */
"  min.f16 %h9, %h2, %h8;\n"              /* 21 lo: NaN ignored -> 0x3c00 */
"  neg.f16 %h10, %h2;\n"                  /* 21 hi: canonical NaN */
"  mov.b32 %r9, {%h9, %h10};\n"
"  mov.b32 %r10, 0x7fc00001;\n"
"  neg.f32 %r11, %r10;\n"                 /* 22 lo: FADD: canonical */
"  mov.b32 %r12, 0xffc00000;\n"
"  abs.f32 %r13, %r12;\n"                 /* 22 hi */
"  mov.b64 %rd10, {%r11, %r13};\n"
"  st.global.u64 [%rd1+168], %rd10;\n"
"  cvt.u64.u32 %rd10, %r9;\n"
"  st.global.u64 [%rd1+160], %rd10;\n"
"  mov.b32 %r14, 0x7f800001;\n"
"  cvt.rna.tf32.f32 %r15, %r14;\n"        /* 23 lo */
"  mov.b32 %r16, 0x3f800000;\n"
"  mov.b32 %r17, 0xff800000;\n"
"  cvt.rn.satfinite.e4m3x2.f32 %h11, %r16, %r17;\n"        /* 23 hi bits 0-15 */
"  cvt.u32.u16 %r18, %h11;\n"
"  mov.b64 %rd10, {%r15, %r18};\n"
"  st.global.u64 [%rd1+184], %rd10;\n"
"  mov.b32 %r19, 0xc0000000;\n"           /* -2 */
"  mov.b32 %r20, 0x40400000;\n"           /* 3 */
"  cvt.rn.satfinite.relu.e5m2x2.f32 %h12, %r19, %r20;\n"   /* 24 */
"  cvt.u64.u16 %rd10, %h12;\n"
"  st.global.u64 [%rd1+192], %rd10;\n"
"  mov.b16 %h13, 0x38ff;\n"
"  cvt.rn.f16x2.e4m3x2 %r21, %h13;\n"     /* 25 */
"  cvt.u64.u32 %rd10, %r21;\n"
"  st.global.u64 [%rd1+200], %rd10;\n"
"  mov.b32 %r22, 0x477fe000;\n"           /* 65504 */
"  mov.b32 %r23, 0x7f7fffff;\n"
"  div.full.f32 %r24, %r22, %r23;\n"      /* 26 */
"  cvt.u64.u32 %rd10, %r24;\n"
"  st.global.u64 [%rd1+208], %rd10;\n"
"  mov.b32 %r25, 0;\n"
"  testp.normal.f32 %p1, %r25;\n"         /* 27: zero counts as normal */
"  testp.normal.f64 %p2, %rd8;\n"         /* 28 */
"  selp.u64 %rd10, 1, 0, %p1;\n"
"  st.global.u64 [%rd1+216], %rd10;\n"
"  selp.u64 %rd10, 1, 0, %p2;\n"
"  st.global.u64 [%rd1+224], %rd10;\n"
"  mov.b64 %rd12, 0x3ff8000000000000;\n"  /* 1.5 */
"  rcp.approx.ftz.f64 %rd10, %rd12;\n"    /* 29: high word only */
"  st.global.u64 [%rd1+232], %rd10;\n"
"  rcp.approx.ftz.f64 %rd10, %rd2;\n"     /* 30 */
"  st.global.u64 [%rd1+240], %rd10;\n"
"  mov.b32 %r26, 0x7f800000;\n"
"  mov.b32 %r27, 0x4788b800;\n"           /* 70000 */
"  cvt.rn.satfinite.f16x2.f32 %r28, %r26, %r27;\n"        /* 31 */
"  cvt.u64.u32 %rd10, %r28;\n"
"  st.global.u64 [%rd1+248], %rd10;\n"
"  mov.b64 %rd13, 0xbff0000000000000;\n"
"  sqrt.rn.f64 %rd10, %rd13;\n"           /* 32: default NaN */
"  st.global.u64 [%rd1+256], %rd10;\n"
"  cvt.rn.f32.f64 %r29, %rd3;\n"          /* 33: sNaN, payload only in low bits */
"  cvt.u64.u32 %rd10, %r29;\n"
"  st.global.u64 [%rd1+264], %rd10;\n"
"  ret;\n"
"}\n";

static void kernel(void)
{
    th_run r;
    th_run_k(&r, fp_src, "fp", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("fp kernel runs", &r);
    if (r.res.status != 0) {
        th_free(&r);
        return;
    }
    CHECK_EQ_U64("add.f64 two NaNs: b, quieted", th_u64(&r, 0), 0x7ff8000000000bbbull);
    CHECK_EQ_U64("sub.f64 NaN b keeps its sign", th_u64(&r, 1), 0xfff8000000000cccull);
    CHECK_EQ_U64("div.f64 two NaNs: a", th_u64(&r, 2), 0x7ff8000000000aaaull);
    CHECK_EQ_U64("fma.f64 NaN a and c: c", th_u64(&r, 3), 0xfff8000000000cccull);
    CHECK_EQ_U64("mul.f64 Inf*0: default NaN", th_u64(&r, 4), 0xfff8000000000000ull);
    CHECK_EQ_U64("min.f64 ignores sNaN", th_u64(&r, 5), 0x3ff0000000000000ull);
    CHECK_EQ_U64("min.f64 two NaNs: b quieted", th_u64(&r, 6), 0x7ff8000000000bbbull);
    CHECK_EQ_U64("min.f64 +0,-0", th_u64(&r, 7), 0x8000000000000000ull);
    CHECK_EQ_U64("max.f64 -0,+0", th_u64(&r, 8), 0);
    CHECK_EQ_U64("neg.f64 sNaN quieted, sign kept", th_u64(&r, 9), 0x7ff8000000000bbbull);
    CHECK_EQ_U64("cvt.f32.f64 NaN payload", th_u64(&r, 10), 0xffc00001u);
    CHECK_EQ_U64("cvt.rzi.s64.f32 NaN", th_u64(&r, 11), 0x8000000000000000ull);
    CHECK_EQ_U64("cvt.rzi.u64.f32 NaN", th_u64(&r, 12), 0x8000000000000000ull);
    CHECK_EQ_U64("cvt.rzi.s32.f32 NaN", th_u64(&r, 13), 0);
    CHECK_EQ_U64("cvt.rzi.s32.f64 NaN", th_u64(&r, 14), 0x80000000u);
    CHECK_EQ_U64("cvt.rzi.u8.f64 NaN", th_u64(&r, 15), 0x80);
    CHECK_EQ_U64("cvt.f32.bf16 NaN is a shift", th_u64(&r, 16), 0xffff0000u);
    CHECK_EQ_U64("cvt.f32.f16 NaN canonical", th_u64(&r, 17), 0x7fffffffu);
    CHECK_EQ_U64("cvt.f64.f16 NaN payload", th_u64(&r, 18), 0xfffffc0000000000ull);
    CHECK_EQ_U64("cvt.relu.f16.f32 -1, -0 -> +0", th_u64(&r, 19) & 0xffffffffu, 0);
    CHECK_EQ_U64("cvt.relu NaN / max.NaN.bf16", th_u64(&r, 19) >> 32, 0x7fff7fffu);
    CHECK_EQ_U64("min.f16 NaN ignored / neg.f16 NaN", th_u64(&r, 20), 0x7fff3c00u);
    CHECK_EQ_U64("neg.f32 / abs.f32 NaN canonical", th_u64(&r, 21), 0x7fffffff7fffffffull);
    CHECK_EQ_U64("cvt.rna.tf32 NaN / e4m3x2 (1,-Inf)", th_u64(&r, 23), 0x000038fe7f800000ull);
    CHECK_EQ_U64("cvt.relu.e5m2x2 (-2, 3)", th_u64(&r, 24), 0x0042);
    CHECK_EQ_U64("cvt.f16x2.e4m3x2", th_u64(&r, 25), 0x3c007fffu);
    CHECK_EQ_U64("div.full.f32 65504/FLT_MAX", th_u64(&r, 26), 0x077fe002u);
    CHECK_EQ_U64("testp.normal.f32 of +0", th_u64(&r, 27), 1);
    CHECK_EQ_U64("testp.normal.f64 of -0", th_u64(&r, 28), 1);
    /* 1/1.5 = 0x3fe5555555555555: high word 0x3fe55555, low word 0 */
    CHECK_EQ_U64("rcp.approx.ftz.f64 high word only", th_u64(&r, 29), 0x3fe5555500000000ull);
    CHECK_EQ_U64("rcp.approx.ftz.f64 NaN", th_u64(&r, 30), 0x7fffffff00000000ull);
    /* Inf and 70000 (> 65504 + half ulp) both clamp to 0x7bff */
    CHECK_EQ_U64("cvt.satfinite.f16x2.f32", th_u64(&r, 31), 0x7bff7bffu);
    CHECK_EQ_U64("sqrt.f64(-1): default NaN", th_u64(&r, 32), 0xfff8000000000000ull);
    /* 0x7ff0000000000bbb: payload 0xbbb is below bit 29 -> 0x7fc00000 */
    CHECK_EQ_U64("cvt.f32.f64 sNaN with low payload", th_u64(&r, 33), 0x7fc00000u);
    th_free(&r);
}

/* fp_f64_to_f16/_bf16/_f32_bits and fp_f32_to_f16/_bf16 round to nearest
 * on the double's bits (fp.c round_f64_rn): the same bits as fp_round on
 * random doubles of every exponent that matters, and on the values around
 * each format's rounding boundaries (ties, the subnormal edge, overflow) */
static void fast_rn(void)
{
    uint64_t x = 0x2545f4914f6cdd1dull;
    long bad[3] = { 0, 0, 0 }, n = 0;
    double first[3] = { 0, 0, 0 };
    static const int mb[3] = { 10, 7, 23 }, eb[3] = { 5, 8, 8 };
    for (long i = 0; i < 600000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        double d;
        if (i % 3 == 0) {
            /* random bits in an exponent band of -160..+140 */
            uint64_t e = 1023 - 160 + (x >> 40) % 300;
            uint64_t u = (x & (1ull << 63)) | e << 52 | (x & ((1ull << 52) - 1));
            memcpy(&d, &u, 8);
        } else {
            /* a value of a format's grid, plus or minus a small multiple of
             * a quarter ulp (ties included), at a random exponent */
            int f = (int)(x % 3), bias = (1 << (eb[f] - 1)) - 1;
            int e = (int)((x >> 8) % (unsigned)(2 * bias + 2 * mb[f] + 4)) - bias - mb[f] - 2;
            double ulp = ldexp(1.0, (e < 1 - bias ? 1 - bias : e) - mb[f]);
            double g = ldexp(1.0 + (double)((x >> 20) & ((1u << mb[f]) - 1)) / (1u << mb[f]), e);
            d = g + ulp * 0.25 * (double)((int)((x >> 50) % 9) - 4);
            if (x >> 63)
                d = -d;
        }
        n++;
        uint64_t got[3] = { fp_f64_to_f16(d, FP_RN), fp_f64_to_bf16(d, FP_RN), fp_f64_to_f32_bits(d, FP_RN) };
        for (int f = 0; f < 3; f++)
            if (got[f] != fp_round(d, mb[f], eb[f], FP_RN) && !bad[f]++)
                first[f] = d;
        float fl = (float)d;
        if (fp_f32_to_f16(fl, FP_RN) != fp_round(fl, 10, 5, FP_RN) && !bad[0]++)
            first[0] = fl;
        if (fp_f32_to_bf16(fl, FP_RN) != fp_round(fl, 7, 8, FP_RN) && !bad[1]++)
            first[1] = fl;
    }
    static const char *const nm[3] = { "f16", "bf16", "f32" };
    for (int f = 0; f < 3; f++) {
        if (bad[f]) {
            printf("FAIL fp round-to-nearest fast path to %s: %ld of %ld values differ from fp_round, first %a\n",
                   nm[f], bad[f], n, first[f]);
            check_failures++;
        } else {
            printf("PASS fp round-to-nearest fast path to %s (%ld values)\n", nm[f], n);
        }
    }
}

int main(void)
{
    fast_rn();
    helpers();
    kernel();
    CHECK_DONE();
}
