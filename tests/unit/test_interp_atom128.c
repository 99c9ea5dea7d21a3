/* test_interp_atom128.c — .b128 registers (PTX ISA 8.3): mov.b128 packing,
 * ld/st.b128, and atom.cas.b128 / atom.exch.b128 on global, shared and
 * generic addresses, a contended 128-bit CAS loop across CTAs run on several
 * host threads, and the errors (misaligned address, an operation .b128 does
 * not have).  Expectations are worked out by hand from the ISA's semantics:
 *   atomic { d = *a; *a = cas ? (*a == b ? c : *a) : b; }
 * on 16 bytes, the low 64 bits of each operand first in memory (mov.b128
 * d, {lo, hi}).  The kernels `k` and `cnt` ran on an H100 too
 * (tests/hw/half_atom) and gave the same values. */
#include "tests/unit/interp_harness.h"

#undef TH_HEADER
#define TH_HEADER ".version 8.3\n.target sm_90a\n.address_size 64\n"   /* .b128: PTX ISA 8.3 */

#define A_LO 0x1111111111111111ull
#define A_HI 0x2222222222222222ull
#define C_LO 0x3333333333333333ull
#define C_HI 0x4444444444444444ull

/* out[] (u64 words):
 *  0,1   mov.b128 pack then unpack: A
 *  2,3   st.global.b128 of A (lo, hi)
 *  4,5   ld.global.b128 of words 2,3 unpacked: A
 *  6,7   memory after a successful cas {A} -> {C}: C
 *  8,9   that cas's result: A
 * 10,11  memory after a cas whose compare value differs in the high half only: C
 * 12,13  its result: C
 * 14,15  memory after a cas differing in the low half only: C
 * 16,17  atom.exch.b128 result: C
 * 18,19  memory after the exch: A
 * 20,21  shared: cas result (shared starts {A}): A
 * 22,23  shared after cas {A} -> {C}, then exch -> {lo 5, hi 6}: result of exch C
 * 24,25  shared memory read back: {5, 6}
 * 26,27  generic address of the shared slot: cas {5,6} -> {7,8}, result {5,6}
 * 28,29  shared read back: {7, 8}
 * 30     mov.b128 %rq, %rq copies both halves: hi of the copy = A_HI
 * 31     mov.b128 {4 x .b32}: C split in quarters, the lowest replaced by
 *        0x55555555, packed again: low word 0x3333333355555555
 */
static const char *basic = TH_HEADER
".visible .entry k(.param .u64 out)\n"
"{\n"
"  .reg .b64 %rd<40>;\n"
"  .reg .b32 %r<8>;\n"
"  .reg .b128 %rq<12>;\n"
"  .shared .align 16 .b8 sm[32];\n"
"  ld.param.u64 %rd1, [out];\n"
"  mov.b64 %rd2, 0x1111111111111111;\n"
"  mov.b64 %rd3, 0x2222222222222222;\n"
"  mov.b64 %rd4, 0x3333333333333333;\n"
"  mov.b64 %rd5, 0x4444444444444444;\n"
"  mov.b128 %rq1, {%rd2, %rd3};\n"          /* A */
"  mov.b128 %rq2, {%rd4, %rd5};\n"          /* C */
"  mov.b128 {%rd10, %rd11}, %rq1;\n"
"  st.global.u64 [%rd1+0], %rd10;\n"
"  st.global.u64 [%rd1+8], %rd11;\n"
"  st.global.b128 [%rd1+16], %rq1;\n"
"  ld.global.b128 %rq3, [%rd1+16];\n"
"  mov.b128 {%rd10, %rd11}, %rq3;\n"
"  st.global.u64 [%rd1+32], %rd10;\n"
"  st.global.u64 [%rd1+40], %rd11;\n"
/* words 6,7 hold A; cas A -> C succeeds */
"  st.global.b128 [%rd1+48], %rq1;\n"
"  atom.global.cas.b128 %rq4, [%rd1+48], %rq1, %rq2;\n"
"  st.global.b128 [%rd1+64], %rq4;\n"
/* words 10,11 hold C; compare {C_LO, A_HI}: fails, returns C */
"  st.global.b128 [%rd1+80], %rq2;\n"
"  mov.b128 %rq5, {%rd4, %rd3};\n"
"  atom.global.cas.b128 %rq4, [%rd1+80], %rq5, %rq1;\n"
"  st.global.b128 [%rd1+96], %rq4;\n"
/* words 14,15 hold C; compare {A_LO, C_HI}: fails */
"  st.global.b128 [%rd1+112], %rq2;\n"
"  mov.b128 %rq5, {%rd2, %rd5};\n"
"  atom.global.cas.b128 %rq4, [%rd1+112], %rq5, %rq1;\n"
/* words 18,19 hold C; exch with A returns C (stored at 16,17) */
"  st.global.b128 [%rd1+144], %rq2;\n"
"  atom.relaxed.gpu.global.exch.b128 %rq6, [%rd1+144], %rq1;\n"
"  st.global.b128 [%rd1+128], %rq6;\n"
/* shared */
"  mov.u64 %rd20, sm;\n"
"  st.shared.b128 [%rd20], %rq1;\n"
"  atom.shared.cas.b128 %rq7, [%rd20], %rq1, %rq2;\n"
"  st.global.b128 [%rd1+160], %rq7;\n"
"  mov.b64 %rd21, 5;\n"
"  mov.b64 %rd22, 6;\n"
"  mov.b128 %rq8, {%rd21, %rd22};\n"
"  atom.shared::cta.exch.b128 %rq7, [%rd20], %rq8;\n"
"  st.global.b128 [%rd1+176], %rq7;\n"
"  ld.shared.b128 %rq9, [%rd20];\n"
"  st.global.b128 [%rd1+192], %rq9;\n"
/* generic */
"  cvta.shared.u64 %rd23, %rd20;\n"
"  mov.b64 %rd24, 7;\n"
"  mov.b64 %rd25, 8;\n"
"  mov.b128 %rq10, {%rd24, %rd25};\n"
"  atom.acq_rel.cta.cas.b128 %rq7, [%rd23], %rq8, %rq10;\n"
"  st.global.b128 [%rd1+208], %rq7;\n"
"  ld.b128 %rq9, [%rd23];\n"
"  st.global.b128 [%rd1+224], %rq9;\n"
/* register copy, and the 4 x b32 form */
"  mov.b128 %rq11, %rq1;\n"
"  mov.b128 {%rd10, %rd11}, %rq11;\n"
"  st.global.u64 [%rd1+240], %rd11;\n"
"  mov.b128 {%r1, %r2, %r3, %r4}, %rq2;\n"
"  mov.b32 %r1, 0x55555555;\n"
"  mov.b128 %rq11, {%r1, %r2, %r3, %r4};\n"
"  mov.b128 {%rd10, %rd11}, %rq11;\n"
"  st.global.u64 [%rd1+248], %rd10;\n"
"  ret;\n"
"}\n";

/* 4 CTAs x 64 threads each add 2^62 + 1 to a 128-bit counter {lo, hi}
 * (zero at start) with a CAS loop, the carry out of lo going into hi: 256
 * additions make 2^70 + 256, i.e. hi 0x40, lo 0x100 (lo wrapped 64 times).
 * Word 2 counts the failed CAS attempts (nonzero: lanes contend). */
static const char *counter = TH_HEADER
".visible .entry cnt(.param .u64 out)\n"
"{\n"
"  .reg .b64 %rd<20>;\n"
"  .reg .b128 %rq<4>;\n"
"  .reg .pred %p<4>;\n"
"  ld.param.u64 %rd1, [out];\n"
"  mov.b64 %rd2, 0;\n"
"  mov.b64 %rd3, 0;\n"
"$L_loop:\n"
"  mov.b128 %rq1, {%rd2, %rd3};\n"           /* expected */
"  add.cc.u64 %rd4, %rd2, 0x4000000000000001;\n"
"  addc.u64 %rd5, %rd3, 0;\n"
"  mov.b128 %rq2, {%rd4, %rd5};\n"           /* expected + 2^62 + 1 */
"  atom.global.cas.b128 %rq3, [%rd1], %rq1, %rq2;\n"
"  mov.b128 {%rd7, %rd8}, %rq3;\n"
"  setp.ne.u64 %p2, %rd7, %rd2;\n"
"  setp.ne.or.u64 %p2, %rd8, %rd3, %p2;\n"
"  mov.b64 %rd2, %rd7;\n"
"  mov.b64 %rd3, %rd8;\n"
"  @%p2 atom.global.add.u64 %rd9, [%rd1+16], 1;\n"
"  @%p2 bra $L_loop;\n"
"  ret;\n"
"}\n";

static const char *misaligned = TH_HEADER
".visible .entry k(.param .u64 out)\n{\n  .reg .b64 %rd<4>;\n  .reg .b128 %rq<3>;\n"
"  ld.param.u64 %rd1, [out];\n  mov.b128 %rq1, {%rd1, %rd1};\n"
"  atom.global.exch.b128 %rq2, [%rd1+8], %rq1;\n  ret;\n}\n";

static const char *wrong_op = TH_HEADER
".visible .entry k(.param .u64 out)\n{\n  .reg .b64 %rd<4>;\n  .reg .b128 %rq<3>;\n"
"  ld.param.u64 %rd1, [out];\n  mov.b128 %rq1, {%rd1, %rd1};\n"
"  atom.global.add.b128 %rq2, [%rd1], %rq1;\n  ret;\n}\n";

int main(void)
{
    th_run r;
    th_run_k(&r, basic, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("b128 kernel runs", &r);
    static const struct { const char *name; unsigned w; uint64_t want; } ex[] = {
        {"mov.b128 pack/unpack lo", 0, A_LO}, {"mov.b128 pack/unpack hi", 1, A_HI},
        {"st.global.b128 lo first", 2, A_LO}, {"st.global.b128 hi second", 3, A_HI},
        {"ld.global.b128 lo", 4, A_LO}, {"ld.global.b128 hi", 5, A_HI},
        {"atom.cas.b128 success: memory lo", 6, C_LO}, {"atom.cas.b128 success: memory hi", 7, C_HI},
        {"atom.cas.b128 success: old lo", 8, A_LO}, {"atom.cas.b128 success: old hi", 9, A_HI},
        {"atom.cas.b128 hi differs: memory kept lo", 10, C_LO}, {"atom.cas.b128 hi differs: memory kept hi", 11, C_HI},
        {"atom.cas.b128 hi differs: old lo", 12, C_LO}, {"atom.cas.b128 hi differs: old hi", 13, C_HI},
        {"atom.cas.b128 lo differs: memory kept lo", 14, C_LO}, {"atom.cas.b128 lo differs: memory kept hi", 15, C_HI},
        {"atom.exch.b128 old lo", 16, C_LO}, {"atom.exch.b128 old hi", 17, C_HI},
        {"atom.exch.b128 memory lo", 18, A_LO}, {"atom.exch.b128 memory hi", 19, A_HI},
        {"atom.shared.cas.b128 old lo", 20, A_LO}, {"atom.shared.cas.b128 old hi", 21, A_HI},
        {"atom.shared.exch.b128 old lo (after cas)", 22, C_LO}, {"atom.shared.exch.b128 old hi", 23, C_HI},
        {"shared after exch lo", 24, 5}, {"shared after exch hi", 25, 6},
        {"generic atom.cas.b128 old lo", 26, 5}, {"generic atom.cas.b128 old hi", 27, 6},
        {"generic ld.b128 after cas lo", 28, 7}, {"generic ld.b128 after cas hi", 29, 8},
        {"mov.b128 register copy keeps hi", 30, A_HI},
        /* C_LO's quarters with the lowest replaced: 0x33333333_55555555 */
        {"mov.b128 4 x b32", 31, 0x3333333355555555ull},
    };
    for (size_t i = 0; r.res.status == 0 && i < sizeof ex / sizeof ex[0]; i++)
        CHECK_EQ_U64(ex[i].name, th_u64(&r, ex[i].w), ex[i].want);
    th_free(&r);

    for (int jobs = 1; jobs <= 4; jobs += 3) {
        char name[96];
        th_run_k(&r, counter, "cnt", 4, 64, 1, 0, jobs, INTERP_COMPLETE_DEFERRED, NULL, 0);
        snprintf(name, sizeof name, "b128 CAS counter runs (-j %d)", jobs);
        CHECK_OK(name, &r);
        snprintf(name, sizeof name, "b128 CAS counter lo = 0x100 (-j %d)", jobs);
        CHECK_EQ_U64(name, th_u64(&r, 0), 0x100);
        snprintf(name, sizeof name, "b128 CAS counter hi = 0x40, carries (-j %d)", jobs);
        CHECK_EQ_U64(name, th_u64(&r, 1), 0x40);
        snprintf(name, sizeof name, "b128 CAS counter saw contention (-j %d)", jobs);
        CHECK(name, th_u64(&r, 2) > 0);
        th_free(&r);
    }

    th_run_k(&r, misaligned, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("atom.exch.b128 needs 16-byte alignment", &r, INTERP_FAULT, "misaligned 16-byte access");
    th_free(&r);
    th_run_k(&r, wrong_op, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("atom.add.b128 is not supported", &r, INTERP_UNSUPPORTED, ".b128 is only for atom.cas and atom.exch");
    th_free(&r);
    CHECK_DONE();
}
