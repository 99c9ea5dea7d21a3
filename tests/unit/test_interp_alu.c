/* test_interp_alu.c — integer, bit, float and conversion semantics, one
 * hand-computed expectation per instruction (PTX ISA chapter 9.7). */
#include "tests/unit/interp_harness.h"

static const char *alu_src = TH_HEADER
".visible .entry alu(.param .u64 out)\n"
"{\n"
"  .reg .b32 %r<40>;\n"
"  .reg .b64 %rd<10>;\n"
"  .reg .f32 %f<10>;\n"
"  .reg .b16 %h<4>;\n"
"  ld.param.u64 %rd1, [out];\n"
"  mov.u32 %r1, 0x7fffffff;\n"
"  add.s32 %r2, %r1, 1;\n"            /* 0 */
"  st.global.u32 [%rd1+0], %r2;\n"
"  add.sat.s32 %r2, %r1, 1;\n"        /* 1 */
"  st.global.u32 [%rd1+4], %r2;\n"
"  mov.u32 %r3, 0xffffffff;\n"
"  mul.hi.u32 %r2, %r3, %r3;\n"       /* 2 */
"  st.global.u32 [%rd1+8], %r2;\n"
"  mov.u32 %r4, 7;\n"
"  mov.u32 %r5, 0;\n"
"  div.u32 %r2, %r4, %r5;\n"          /* 3: x/0 */
"  st.global.u32 [%rd1+12], %r2;\n"
"  mov.u32 %r6, -7;\n"
"  div.s32 %r2, %r6, 2;\n"            /* 4 */
"  st.global.u32 [%rd1+16], %r2;\n"
"  rem.s32 %r2, %r6, 2;\n"            /* 5 */
"  st.global.u32 [%rd1+20], %r2;\n"
"  mov.u32 %r7, 1;\n"
"  shl.b32 %r2, %r7, 40;\n"           /* 6: shift >= width */
"  st.global.u32 [%rd1+24], %r2;\n"
"  mov.u32 %r8, -8;\n"
"  shr.s32 %r2, %r8, 40;\n"           /* 7 */
"  st.global.u32 [%rd1+28], %r2;\n"
"  shl.b32 %r2, %r7, %r3;\n"          /* 8: 'negative' shift amount */
"  st.global.u32 [%rd1+32], %r2;\n"
"  mov.u32 %r9, 0xf0f0;\n"
"  bfe.u32 %r2, %r9, 4, 8;\n"         /* 9 */
"  st.global.u32 [%rd1+36], %r2;\n"
"  mov.u32 %r10, 0x80;\n"
"  bfe.s32 %r2, %r10, 4, 4;\n"        /* 10 */
"  st.global.u32 [%rd1+40], %r2;\n"
"  mov.u32 %r11, 0xff;\n"
"  bfi.b32 %r2, %r11, 0, 8, 4;\n"     /* 11 */
"  st.global.u32 [%rd1+44], %r2;\n"
"  brev.b32 %r2, %r7;\n"              /* 12 */
"  st.global.u32 [%rd1+48], %r2;\n"
"  clz.b32 %r2, %r7;\n"               /* 13 */
"  st.global.u32 [%rd1+52], %r2;\n"
"  mov.u32 %r12, 0xff00ff;\n"
"  popc.b32 %r2, %r12;\n"             /* 14 */
"  st.global.u32 [%rd1+56], %r2;\n"
"  mov.u32 %r13, 0x33221100;\n"
"  mov.u32 %r14, 0x77665544;\n"
"  prmt.b32 %r2, %r13, %r14, 0x5140;\n" /* 15 */
"  st.global.u32 [%rd1+60], %r2;\n"
"  mov.u32 %r15, 0xf0;\n"
"  mov.u32 %r16, 0xcc;\n"
"  mov.u32 %r17, 0xaa;\n"
"  lop3.b32 %r2, %r15, %r16, %r17, 0x80;\n" /* 16 */
"  st.global.u32 [%rd1+64], %r2;\n"
"  mov.u32 %r18, 0x100;\n"
"  bfind.u32 %r2, %r18;\n"            /* 17 */
"  st.global.u32 [%rd1+68], %r2;\n"
"  bfind.u32 %r2, %r5;\n"             /* 18 */
"  st.global.u32 [%rd1+72], %r2;\n"
"  mov.u32 %r19, 0x80000000;\n"
"  shf.l.wrap.b32 %r2, %r19, %r7, 1;\n" /* 19 */
"  st.global.u32 [%rd1+76], %r2;\n"
"  min.s32 %r2, %r3, %r7;\n"          /* 20 */
"  st.global.u32 [%rd1+80], %r2;\n"
"  max.u32 %r2, %r3, %r7;\n"          /* 21 */
"  st.global.u32 [%rd1+84], %r2;\n"
"  mov.f32 %f1, 0f3F800000;\n"
"  mov.f32 %f2, 0f30800000;\n"        /* 2^-30 */
"  add.rz.f32 %f3, %f1, %f2;\n"       /* 22 */
"  st.global.f32 [%rd1+88], %f3;\n"
"  add.rp.f32 %f3, %f1, %f2;\n"       /* 23 */
"  st.global.f32 [%rd1+92], %f3;\n"
"  mov.f32 %f4, 0f7FC00001;\n"
"  add.f32 %f3, %f4, %f1;\n"          /* 24: NaN -> canonical */
"  st.global.f32 [%rd1+96], %f3;\n"
"  mov.f32 %f5, 0f00000001;\n"
"  mov.f32 %f6, 0f40000000;\n"
"  mul.ftz.f32 %f3, %f5, %f6;\n"      /* 25: subnormal flushed */
"  st.global.f32 [%rd1+100], %f3;\n"
"  mov.f32 %f7, 0f3F400000;\n"
"  mov.f32 %f8, 0f3F000000;\n"
"  add.sat.f32 %f3, %f7, %f8;\n"      /* 26 */
"  st.global.f32 [%rd1+104], %f3;\n"
"  cvt.rn.f16.f32 %h1, %f1;\n"        /* 27 */
"  st.global.u16 [%rd1+108], %h1;\n"
"  cvt.rn.bf16.f32 %h1, %f1;\n"       /* 27.5 */
"  st.global.u16 [%rd1+110], %h1;\n"
"  mov.f32 %f9, 0fC02CCCCD;\n"        /* -2.7 */
"  cvt.rzi.s32.f32 %r2, %f9;\n"       /* 28 */
"  st.global.u32 [%rd1+112], %r2;\n"
"  mov.f32 %f9, 0f40200000;\n"        /* 2.5 */
"  cvt.rni.s32.f32 %r2, %f9;\n"       /* 29 */
"  st.global.u32 [%rd1+116], %r2;\n"
"  cvt.rzi.s32.f32 %r2, %f4;\n"       /* 30: NaN -> 0 */
"  st.global.u32 [%rd1+120], %r2;\n"
"  mov.f32 %f9, 0f4F32D05E;\n"        /* 3e9 */
"  cvt.rzi.s32.f32 %r2, %f9;\n"       /* 31: saturates */
"  st.global.u32 [%rd1+124], %r2;\n"
"  mov.u32 %r20, 16777217;\n"
"  cvt.rn.f32.s32 %f3, %r20;\n"       /* 32 */
"  st.global.f32 [%rd1+128], %f3;\n"
"  mov.u32 %r21, 300;\n"
"  cvt.sat.u8.s32 %r2, %r21;\n"       /* 33 */
"  st.global.u32 [%rd1+132], %r2;\n"
"  mul.wide.s32 %rd2, %r8, 3;\n"      /* 34,35: -24 */
"  st.global.u64 [%rd1+136], %rd2;\n"
"  mov.b64 %rd3, {%r13, %r14};\n"     /* 36,37: pack */
"  st.global.u64 [%rd1+144], %rd3;\n"
"  mov.b64 {%r22, %r23}, %rd3;\n"
"  st.global.u32 [%rd1+152], %r23;\n" /* 38 */
"  setp.lt.s32 %p1, %r8, 0;\n"
"  selp.u32 %r2, 11, 22, %p1;\n"      /* 39 */
"  st.global.u32 [%rd1+156], %r2;\n"
"  cvt.rn.f16.f32 %h1, %f4;\n"        /* 40: NaN -> 0x7fff */
"  st.global.u16 [%rd1+160], %h1;\n"
"  mov.f32 %f9, 0f3F801000;\n"        /* 1 + 2^-11 + 2^-19..: rounding to f16 */
"  cvt.rz.f16.f32 %h2, %f9;\n"
"  st.global.u16 [%rd1+162], %h2;\n"  /* 40.5: 0x3c00 */
"  dp4a.u32.u32 %r2, %r13, %r7, 5;\n" /* 41: 0x00*1 + 5 = 5 (b=1: only byte 0) */
"  st.global.u32 [%rd1+164], %r2;\n"
"  mov.b32 %r2, 0f3F800000;\n"       /* 42: a 0f literal on .b32 is bits */
"  st.global.u32 [%rd1+168], %r2;\n"
"  mov.b64 %rd4, 0dC000000000000000;\n" /* 22 (u64): 0d on .b64 is bits */
"  st.global.u64 [%rd1+176], %rd4;\n"
"  ret;\n"
"}\n";

int main(void)
{
    th_run r;
    /* the kernel uses %p1 — declare it */
    static char src[16384];
    snprintf(src, sizeof src, "%s", alu_src);
    char *p = strstr(src, "  .reg .b16 %h<4>;\n");
    if (p) memmove(p + 20, p, strlen(p) + 1), memcpy(p, "  .reg .pred %p<2>;\n", 20);
    th_run_k(&r, src, "alu", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("alu runs", &r);
    if (r.res.status != 0) { th_free(&r); CHECK_DONE(); }
    CHECK_EQ_U64("add.s32 wraps", th_u32(&r, 0), 0x80000000u);
    CHECK_EQ_U64("add.sat.s32 saturates", th_u32(&r, 1), 0x7fffffffu);
    CHECK_EQ_U64("mul.hi.u32", th_u32(&r, 2), 0xfffffffeu);
    CHECK_EQ_U64("div.u32 by zero", th_u32(&r, 3), 0xffffffffu);
    CHECK_EQ_U64("div.s32 truncates", th_u32(&r, 4), 0xfffffffdu);
    CHECK_EQ_U64("rem.s32 sign of dividend", th_u32(&r, 5), 0xffffffffu);
    CHECK_EQ_U64("shl.b32 by 40", th_u32(&r, 6), 0);
    CHECK_EQ_U64("shr.s32 by 40 fills sign", th_u32(&r, 7), 0xffffffffu);
    CHECK_EQ_U64("shl.b32 by -1 (unsigned amount)", th_u32(&r, 8), 0);
    CHECK_EQ_U64("bfe.u32", th_u32(&r, 9), 0x0f);
    CHECK_EQ_U64("bfe.s32 sign-extends", th_u32(&r, 10), 0xfffffff8u);
    CHECK_EQ_U64("bfi.b32", th_u32(&r, 11), 0xf00);
    CHECK_EQ_U64("brev.b32", th_u32(&r, 12), 0x80000000u);
    CHECK_EQ_U64("clz.b32", th_u32(&r, 13), 31);
    CHECK_EQ_U64("popc.b32", th_u32(&r, 14), 16);
    CHECK_EQ_U64("prmt.b32", th_u32(&r, 15), 0x55114400u);
    CHECK_EQ_U64("lop3.b32 and3", th_u32(&r, 16), 0x80);
    CHECK_EQ_U64("bfind.u32", th_u32(&r, 17), 8);
    CHECK_EQ_U64("bfind.u32 of 0", th_u32(&r, 18), 0xffffffffu);
    CHECK_EQ_U64("shf.l.wrap", th_u32(&r, 19), 3);
    CHECK_EQ_U64("min.s32", th_u32(&r, 20), 0xffffffffu);
    CHECK_EQ_U64("max.u32", th_u32(&r, 21), 0xffffffffu);
    CHECK_EQ_U64("add.rz.f32", th_u32(&r, 22), 0x3f800000u);
    CHECK_EQ_U64("add.rp.f32", th_u32(&r, 23), 0x3f800001u);
    CHECK_EQ_U64("add.f32 NaN is canonical", th_u32(&r, 24), 0x7fffffffu);
    CHECK_EQ_U64("mul.ftz.f32 flushes subnormal", th_u32(&r, 25), 0);
    CHECK_EQ_U64("add.sat.f32 clamps", th_u32(&r, 26), 0x3f800000u);
    CHECK_EQ_U64("cvt.rn.f16.f32 / bf16", th_u32(&r, 27), 0x3f803c00u);
    CHECK_EQ_U64("cvt.rzi.s32.f32", th_u32(&r, 28), 0xfffffffeu);
    CHECK_EQ_U64("cvt.rni.s32.f32 ties to even", th_u32(&r, 29), 2);
    CHECK_EQ_U64("cvt.s32.f32 NaN -> 0", th_u32(&r, 30), 0);
    CHECK_EQ_U64("cvt.s32.f32 saturates", th_u32(&r, 31), 0x7fffffffu);
    CHECK_EQ_U64("cvt.rn.f32.s32 rounds", th_u32(&r, 32), 0x4b800000u);
    CHECK_EQ_U64("cvt.sat.u8.s32", th_u32(&r, 33), 255);
    CHECK_EQ_U64("mul.wide.s32", th_u64(&r, 17), (uint64_t)-24);
    CHECK_EQ_U64("mov.b64 pack", th_u64(&r, 18), 0x7766554433221100ull);
    CHECK_EQ_U64("mov.b64 unpack", th_u32(&r, 38), 0x77665544u);
    CHECK_EQ_U64("setp + selp", th_u32(&r, 39), 11);
    CHECK_EQ_U64("cvt f16 NaN / rz", th_u32(&r, 40), 0x3c007fffu);
    CHECK_EQ_U64("dp4a.u32", th_u32(&r, 41), 5);
    CHECK_EQ_U64("mov.b32 0f literal is a bit pattern", th_u32(&r, 42), 0x3f800000u);
    CHECK_EQ_U64("mov.b64 0d literal is a bit pattern", th_u64(&r, 22), 0xc000000000000000ull);
    th_free(&r);
    CHECK_DONE();
}
