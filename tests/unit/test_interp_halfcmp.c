/* test_interp_halfcmp.c — setp / set on .f16, .bf16, .f16x2 and .bf16x2
 * (PTX ISA 9.7.6.1-2 "Half Precision Comparison Instructions" and 9.7.7.1
 * set).  One kernel runs every case below in one thread: operands a, b (and
 * the predicate c) are moved into registers, the instruction runs, its
 * result is stored as one u32 word per case.  Every expectation is worked
 * out by hand in the comment beside it from the ISA's semantics:
 *
 *   setp .f16x2/.bf16x2  p = BoolOp(a.lo CmpOp b.lo, c), q = BoolOp(a.hi CmpOp
 *                        b.hi, c)  -- q is the high half, not !p; stored as
 *                        p | q << 1
 *   set  .f16x2/.bf16x2  per half: 1.0 (.f16x2 0x3c00, .bf16x2 0x3f80) or
 *                        0xffff (.u32/.s32) when true, 0 when false
 *   set  scalar          1.0 in .f16 (0x3c00), .bf16 (0x3f80), .f32; all
 *                        ones in .u16 (0xffff) / .u32 / .s32
 *   .ftz                 a subnormal f16 input counts as sign-preserving zero
 *   ordered compares are false with a NaN, the u-forms true; num / nan.
 *
 * f16 values: 1.0 0x3c00, 2.0 0x4000, 65504 0x7bff, +Inf 0x7c00, NaN 0x7e00,
 * min subnormal 2^-24 0x0001.  bf16: 1.0 0x3f80, 2.0 0x4000, NaN 0x7fc0,
 * min subnormal 2^-133 0x0001; 0x7c01 is a NaN in f16 but a finite bf16
 * (exponent 0xf8), which tells the two formats apart.
 *
 * The same kernel ran on an H100 (tests/hw/half_atom) and gave every
 * expected value below. */
#include "tests/unit/interp_harness.h"

enum { SETP2, SETP1, SET32, SET16, SET16_32 };

typedef struct {
    const char *name;
    int kind;        /* operands: SETP2/SET32 %r1,%r2; SETP1/SET16/SET16_32 %h1,%h2 */
    const char *op;  /* the instruction up to its operands */
    uint32_t a, b;
    int c;           /* value of %p3 (the BoolOp predicate) */
    uint32_t want;
} hc_case;

#define P2 " %p1|%p2, %r1, %r2"
#define P2C " %p1|%p2, %r1, %r2, %p3"
#define P2NC " %p1|%p2, %r1, %r2, !%p3"

static const hc_case cases[] = {
    /* ---- setp.f16x2: low half -> p, high half -> q -------------------------- */
    {"setp.lt.f16x2 {1,2}<{2,1}: lo only", SETP2, "setp.lt.f16x2" P2, 0x40003c00, 0x3c004000, 0, 1},
    {"setp.gt.f16x2 {1,2}>{2,1}: hi only", SETP2, "setp.gt.f16x2" P2, 0x40003c00, 0x3c004000, 0, 2},
    /* both halves true: q is not the complement of p */
    {"setp.lt.f16x2 both true", SETP2, "setp.lt.f16x2" P2, 0x3c003c00, 0x40004000, 0, 3},
    {"setp.ge.f16x2 both false", SETP2, "setp.ge.f16x2" P2, 0x3c003c00, 0x40004000, 0, 0},
    /* a = {NaN, 1}, b = {1, 1} */
    {"setp.eq.f16x2 NaN lo", SETP2, "setp.eq.f16x2" P2, 0x3c007e00, 0x3c003c00, 0, 2},
    {"setp.equ.f16x2 NaN lo", SETP2, "setp.equ.f16x2" P2, 0x3c007e00, 0x3c003c00, 0, 3},
    {"setp.ne.f16x2 NaN lo", SETP2, "setp.ne.f16x2" P2, 0x3c007e00, 0x3c003c00, 0, 0},
    {"setp.neu.f16x2 NaN lo", SETP2, "setp.neu.f16x2" P2, 0x3c007e00, 0x3c003c00, 0, 1},
    {"setp.nan.f16x2", SETP2, "setp.nan.f16x2" P2, 0x3c007e00, 0x3c003c00, 0, 1},
    {"setp.num.f16x2", SETP2, "setp.num.f16x2" P2, 0x3c007e00, 0x3c003c00, 0, 2},
    {"setp.ltu.f16x2 -NaN hi", SETP2, "setp.ltu.f16x2" P2, 0xfe004000, 0x3c003c00, 0, 2},
    /* {+0, -0} vs {-0, +0}: equal, neither less */
    {"setp.eq.f16x2 +0 == -0", SETP2, "setp.eq.f16x2" P2, 0x80000000, 0x00008000, 0, 3},
    {"setp.lt.f16x2 +0 < -0 false", SETP2, "setp.lt.f16x2" P2, 0x80000000, 0x00008000, 0, 0},
    /* {+Inf, -Inf} vs {65504, -65504} */
    {"setp.gt.f16x2 Inf", SETP2, "setp.gt.f16x2" P2, 0xfc007c00, 0xfbff7bff, 0, 1},
    {"setp.le.f16x2 -Inf", SETP2, "setp.le.f16x2" P2, 0xfc007c00, 0xfbff7bff, 0, 2},
    /* {2^-24, -2^-24} vs {0, 0}: .ftz makes both zeros */
    {"setp.gt.f16x2 subnormal kept", SETP2, "setp.gt.f16x2" P2, 0x80010001, 0, 0, 1},
    {"setp.gt.ftz.f16x2 subnormal flushed", SETP2, "setp.gt.ftz.f16x2" P2, 0x80010001, 0, 0, 0},
    {"setp.lt.f16x2 -subnormal kept", SETP2, "setp.lt.f16x2" P2, 0x80010001, 0, 0, 2},
    {"setp.lt.ftz.f16x2 -subnormal flushed", SETP2, "setp.lt.ftz.f16x2" P2, 0x80010001, 0, 0, 0},
    {"setp.eq.f16x2 subnormal != 0", SETP2, "setp.eq.f16x2" P2, 0x80010001, 0, 0, 0},
    {"setp.eq.ftz.f16x2 subnormal == 0", SETP2, "setp.eq.ftz.f16x2" P2, 0x80010001, 0, 0, 3},
    /* BoolOp applies c to each half */
    {"setp.lt.and.f16x2 c=0", SETP2, "setp.lt.and.f16x2" P2C, 0x3c003c00, 0x40004000, 0, 0},
    {"setp.lt.and.f16x2 c=1", SETP2, "setp.lt.and.f16x2" P2C, 0x3c003c00, 0x40004000, 1, 3},
    {"setp.lt.or.f16x2 c=0", SETP2, "setp.lt.or.f16x2" P2C, 0x40003c00, 0x3c004000, 0, 1},
    {"setp.lt.or.f16x2 c=1", SETP2, "setp.lt.or.f16x2" P2C, 0x40003c00, 0x3c004000, 1, 3},
    {"setp.lt.xor.f16x2 c=1", SETP2, "setp.lt.xor.f16x2" P2C, 0x40003c00, 0x3c004000, 1, 2},
    {"setp.lt.xor.f16x2 !c, c=1", SETP2, "setp.lt.xor.f16x2" P2NC, 0x40003c00, 0x3c004000, 1, 1},
    {"setp.eq.and.ftz.f16x2 c=1", SETP2, "setp.eq.and.ftz.f16x2" P2C, 0x80010001, 0, 1, 3},

    /* ---- setp.bf16x2 ------------------------------------------------------------ */
    {"setp.lt.bf16x2 {1,2}<{2,1}", SETP2, "setp.lt.bf16x2" P2, 0x40003f80, 0x3f804000, 0, 1},
    {"setp.lt.bf16x2 both true", SETP2, "setp.lt.bf16x2" P2, 0x3f803f80, 0x40004000, 0, 3},
    {"setp.eq.bf16x2 NaN lo", SETP2, "setp.eq.bf16x2" P2, 0x3f807fc0, 0x3f803f80, 0, 2},
    {"setp.equ.bf16x2 NaN lo", SETP2, "setp.equ.bf16x2" P2, 0x3f807fc0, 0x3f803f80, 0, 3},
    /* bf16 subnormals compare as themselves (no .ftz form) */
    {"setp.gt.bf16x2 subnormal", SETP2, "setp.gt.bf16x2" P2, 0x80010001, 0, 0, 1},
    {"setp.ne.bf16x2 subnormals != 0", SETP2, "setp.ne.bf16x2" P2, 0x80010001, 0, 0, 3},
    /* {0x7c01, 0x7f81}: finite bf16 in the low half, NaN in the high one */
    {"setp.num.bf16x2 0x7c01 is finite", SETP2, "setp.num.bf16x2" P2, 0x7f817c01, 0, 0, 1},
    {"setp.num.f16x2 0x7c01 is NaN", SETP2, "setp.num.f16x2" P2, 0x7f817c01, 0, 0, 0},
    {"setp.ge.and.bf16x2 c=1", SETP2, "setp.ge.and.bf16x2" P2C, 0x40003f80, 0x3f804000, 1, 2},

    /* ---- setp scalar .f16 / .bf16 ---------------------------------------------- */
    {"setp.lt.f16", SETP1, "setp.lt.f16 %p1, %h1, %h2", 0x3c00, 0x4000, 0, 1},
    {"setp.eq.f16 subnormal vs -0", SETP1, "setp.eq.f16 %p1, %h1, %h2", 0x0001, 0x8000, 0, 0},
    {"setp.eq.ftz.f16 subnormal vs -0", SETP1, "setp.eq.ftz.f16 %p1, %h1, %h2", 0x0001, 0x8000, 0, 1},
    {"setp.lt.ftz.f16 -subnormal vs 0", SETP1, "setp.lt.ftz.f16 %p1, %h1, %h2", 0x8001, 0x0000, 0, 0},
    {"setp.nan.f16", SETP1, "setp.nan.f16 %p1, %h1, %h2", 0x7e00, 0x3c00, 0, 1},
    {"setp.ge.f16 NaN", SETP1, "setp.ge.f16 %p1, %h1, %h2", 0x7e00, 0x3c00, 0, 0},
    {"setp.neu.bf16 NaN", SETP1, "setp.neu.bf16 %p1, %h1, %h2", 0x7fc0, 0x7fc0, 0, 1},
    {"setp.ne.bf16 NaN", SETP1, "setp.ne.bf16 %p1, %h1, %h2", 0x7fc0, 0x7fc0, 0, 0},
    {"setp.gt.and.bf16 c=0", SETP1, "setp.gt.and.bf16 %p1, %h1, %h2, %p3", 0x4000, 0x3f80, 0, 0},
    {"setp.gt.and.bf16 c=1", SETP1, "setp.gt.and.bf16 %p1, %h1, %h2, %p3", 0x4000, 0x3f80, 1, 1},
    {"setp.num.bf16 0x7c01", SETP1, "setp.num.bf16 %p1, %h1, %h2", 0x7c01, 0, 0, 1},
    {"setp.num.f16 0x7c01", SETP1, "setp.num.f16 %p1, %h1, %h2", 0x7c01, 0, 0, 0},

    /* ---- set with packed sources --------------------------------------------- */
    {"set.lt.f16x2.f16x2", SET32, "set.lt.f16x2.f16x2 %r3, %r1, %r2", 0x40003c00, 0x3c004000, 0, 0x00003c00},
    {"set.lt.u32.f16x2", SET32, "set.lt.u32.f16x2 %r3, %r1, %r2", 0x40003c00, 0x3c004000, 0, 0x0000ffff},
    {"set.gt.s32.f16x2", SET32, "set.gt.s32.f16x2 %r3, %r1, %r2", 0x40003c00, 0x3c004000, 0, 0xffff0000},
    {"set.lt.bf16x2.bf16x2", SET32, "set.lt.bf16x2.bf16x2 %r3, %r1, %r2", 0x3f803f80, 0x40004000, 0, 0x3f803f80},
    {"set.equ.u32.bf16x2 NaN", SET32, "set.equ.u32.bf16x2 %r3, %r1, %r2", 0x3f807fc0, 0x3f803f80, 0, 0xffffffff},
    {"set.eq.u32.bf16x2 NaN", SET32, "set.eq.u32.bf16x2 %r3, %r1, %r2", 0x3f807fc0, 0x3f803f80, 0, 0xffff0000},
    {"set.lt.and.f16x2.f16x2 subnormal", SET32, "set.lt.and.f16x2.f16x2 %r3, %r1, %r2, %p3",
     0x80010001, 0, 1, 0x3c000000},
    {"set.lt.and.ftz.f16x2.f16x2 flushed", SET32, "set.lt.and.ftz.f16x2.f16x2 %r3, %r1, %r2, %p3",
     0x80010001, 0, 1, 0},
    {"set.gt.or.u32.f16x2 c=1", SET32, "set.gt.or.u32.f16x2 %r3, %r1, %r2, %p3", 0x3c003c00, 0x40004000, 1,
     0xffffffff},
    {"set.gt.xor.bf16x2.bf16x2 c=1", SET32, "set.gt.xor.bf16x2.bf16x2 %r3, %r1, %r2, %p3", 0x40003f80,
     0x3f804000, 1, 0x00003f80},

    /* ---- set with scalar half sources or destinations ----------------------------- */
    {"set.lt.f16.f16", SET16, "set.lt.f16.f16 %h3, %h1, %h2", 0x3c00, 0x4000, 0, 0x3c00},
    {"set.gt.f16.f16 false", SET16, "set.gt.f16.f16 %h3, %h1, %h2", 0x3c00, 0x4000, 0, 0},
    {"set.lt.bf16.f16", SET16, "set.lt.bf16.f16 %h3, %h1, %h2", 0x3c00, 0x4000, 0, 0x3f80},
    {"set.lt.u16.f16", SET16, "set.lt.u16.f16 %h3, %h1, %h2", 0x3c00, 0x4000, 0, 0xffff},
    {"set.lt.bf16.bf16", SET16, "set.lt.bf16.bf16 %h3, %h1, %h2", 0x3f80, 0x4000, 0, 0x3f80},
    {"set.lt.and.f16.f16 subnormal", SET16, "set.lt.and.f16.f16 %h3, %h1, %h2, %p3", 0x8001, 0, 1, 0x3c00},
    {"set.lt.and.ftz.f16.f16 flushed", SET16, "set.lt.and.ftz.f16.f16 %h3, %h1, %h2, %p3", 0x8001, 0, 1, 0},
    {"set.lt.u32.f16", SET16_32, "set.lt.u32.f16 %r3, %h1, %h2", 0x3c00, 0x4000, 0, 0xffffffff},
    {"set.nan.and.s32.bf16 c=1", SET16_32, "set.nan.and.s32.bf16 %r3, %h1, %h2, %p3", 0x7fc0, 0x3f80, 1,
     0xffffffff},
    {"set.nan.and.s32.bf16 c=0", SET16_32, "set.nan.and.s32.bf16 %r3, %h1, %h2, %p3", 0x7fc0, 0x3f80, 0, 0},
    /* .f16 destination from a .f32 source: 1.0f < 2.0f */
    {"set.lt.f16.f32", SET32, "set.lt.f16.f32 %h3, %r1, %r2", 0x3f800000, 0x40000000, 0, 0x3c00},
};
#define NCASES (sizeof cases / sizeof cases[0])

static char src[64 * 1024];

static void build(void)
{
    size_t n = (size_t)snprintf(src, sizeof src, TH_HEADER
        ".visible .entry hc(.param .u64 out)\n{\n"
        "  .reg .b64 %%rd<4>;\n  .reg .b32 %%r<8>;\n  .reg .b16 %%h<4>;\n  .reg .pred %%p<4>;\n"
        "  ld.param.u64 %%rd1, [out];\n  mov.b32 %%r3, 0;\n  mov.b16 %%h3, 0;\n");
    for (size_t i = 0; i < NCASES; i++) {
        const hc_case *k = &cases[i];
        n += (size_t)snprintf(src + n, sizeof src - n,
            "  // %s\n  mov.b32 %%r1, 0x%08x;\n  mov.b32 %%r2, 0x%08x;\n  cvt.u16.u32 %%h1, %%r1;\n"
            "  cvt.u16.u32 %%h2, %%r2;\n  mov.b32 %%r5, %d;\n  setp.ne.u32 %%p3, %%r5, 0;\n"
            "  setp.ne.u32 %%p1, %%r5, %%r5;\n  setp.ne.u32 %%p2, %%r5, %%r5;\n"
            "  mov.b32 %%r3, 0xdeadbeef;\n  mov.b16 %%h3, 0xbeef;\n  %s;\n",
            k->name, k->a, k->b, k->c, k->op);
        if (k->kind == SETP2 || k->kind == SETP1)
            n += (size_t)snprintf(src + n, sizeof src - n,
                "  selp.u32 %%r6, 1, 0, %%p1;\n  selp.u32 %%r7, 2, 0, %%p2;\n  or.b32 %%r3, %%r6, %%r7;\n");
        else if (k->kind == SET16 || strstr(k->op, "%h3"))
            n += (size_t)snprintf(src + n, sizeof src - n, "  cvt.u32.u16 %%r3, %%h3;\n");
        n += (size_t)snprintf(src + n, sizeof src - n, "  st.global.u32 [%%rd1+%zu], %%r3;\n", 4 * i);
    }
    snprintf(src + n, sizeof src - n, "  ret;\n}\n");
}

int main(void)
{
    build();
    th_run r;
    th_run_k(&r, src, "hc", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("half compares kernel runs", &r);
    if (r.res.status == 0)
        for (size_t i = 0; i < NCASES; i++)
            CHECK_EQ_U64(cases[i].name, th_u32(&r, (unsigned)i), cases[i].want);
    th_free(&r);

    /* the scalar-pair setp.f16 keeps the complement in q (only the packed
     * forms give each half its own predicate) */
    static const char *pair = TH_HEADER
        ".visible .entry k(.param .u64 out)\n{\n  .reg .b64 %rd<2>;\n  .reg .b32 %r<4>;\n"
        "  .reg .b16 %h<3>;\n  .reg .pred %p<3>;\n  ld.param.u64 %rd1, [out];\n"
        "  mov.b16 %h1, 0x3c00;\n  mov.b16 %h2, 0x4000;\n  setp.lt.f16 %p1|%p2, %h1, %h2;\n"
        "  selp.u32 %r1, 1, 0, %p1;\n  selp.u32 %r2, 2, 0, %p2;\n  or.b32 %r3, %r1, %r2;\n"
        "  st.global.u32 [%rd1], %r3;\n  ret;\n}\n";
    th_run_k(&r, pair, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("setp.f16 p|q kernel runs", &r);
    CHECK_EQ_U64("setp.lt.f16 p|q: q = !p", th_u32(&r, 0), 1);
    th_free(&r);
    CHECK_DONE();
}
