/* test_interp_sync.c — divergence, barriers, warp collectives, atomics,
 * local memory and calls, clusters, mbarriers, and the error reports
 * (fault, deadlock, unsupported). */
#include "tests/unit/interp_harness.h"

#define K(name, params, regs, body) TH_HEADER ".visible .entry " name "(.param .u64 out" params ")\n{\n" \
    "  .reg .pred %p<8>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<20>;\n" regs \
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n" \
    "  add.s64 %rd3, %rd1, %rd2;\n" body "}\n"

/* if/else on odd lanes, then activemask after the join: reconverged */
static const char *diverge = K("k", "", "",
"  and.b32 %r2, %r1, 1;\n"
"  setp.eq.u32 %p1, %r2, 1;\n"
"  @%p1 bra ODD;\n"
"  mov.u32 %r3, 100;\n"
"  bra.uni JOIN;\n"
"ODD:\n"
"  mov.u32 %r3, 200;\n"
"JOIN:\n"
"  activemask.b32 %r4;\n"
"  add.s32 %r3, %r3, %r1;\n"
"  st.global.u32 [%rd3], %r3;\n"
"  st.global.u32 [%rd1+256], %r4;\n"
"  ret;\n");

/* lane 0 diverges past a bar.sync the others already wait at (load_tile) */
static const char *bar_div = K("k", "", "  .shared .align 4 .u32 s;\n",
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra WAIT;\n"
"  bra.uni LEADER;\n"
"WAIT:\n"
"  bar.sync 0;\n"
"  ld.shared.u32 %r5, [s];\n"
"  st.global.u32 [%rd3], %r5;\n"
"  ret;\n"
"LEADER:\n"
"  mov.u32 %r6, 77;\n"
"  st.shared.u32 [s], %r6;\n"
"  bra.uni WAIT;\n");

static const char *warp_ops = K("k", "", "",
"  mov.u32 %r2, -1;\n"
"  shfl.sync.down.b32 %r3|%p1, %r1, 1, 31, %r2;\n"
"  st.global.u32 [%rd3], %r3;\n"                      /* out[lane] = lane+1 (31 keeps 31) */
"  setp.lt.u32 %p2, %r1, 5;\n"
"  vote.sync.ballot.b32 %r4, %p2, %r2;\n"
"  st.global.u32 [%rd1+128], %r4;\n"
"  and.b32 %r5, %r1, 3;\n"
"  match.any.sync.b32 %r6, %r5, %r2;\n"
"  st.global.u32 [%rd3+256], %r6;\n"
"  redux.sync.add.u32 %r7, %r1, %r2;\n"
"  st.global.u32 [%rd1+132], %r7;\n"
"  shfl.sync.idx.b32 %r8|%p3, %r1, 7, 31, %r2;\n"
"  st.global.u32 [%rd1+136], %r8;\n"
"  shfl.sync.bfly.b32 %r9|%p4, %r1, 1, 31, %r2;\n"
"  st.global.u32 [%rd3+512], %r9;\n"
"  ret;\n");

static const char *atomics = K("k", "", "  .shared .align 4 .u32 cnt;\n",
"  atom.global.add.u32 %r2, [%rd1], 1;\n"
"  atom.shared.add.u32 %r3, [cnt], 2;\n"
"  atom.global.max.s32 %r4, [%rd1+4], %r1;\n"
"  atom.global.inc.u32 %r5, [%rd1+8], 9;\n"
"  bar.sync 0;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra DONE;\n"
"  ld.shared.u32 %r6, [cnt];\n"
"  atom.global.add.u32 %r7, [%rd1+12], %r6;\n"
"  atom.global.cas.b32 %r8, [%rd1+16], 0, 5;\n"
"DONE:\n"
"  ret;\n");

static const char *calls = TH_HEADER
".func (.param .b32 r) fib(.param .b32 n)\n"
"{\n"
"  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n"
"  ld.param.b32 %r1, [n];\n"
"  setp.lt.s32 %p1, %r1, 2;\n"
"  @%p1 bra BASE;\n"
"  sub.s32 %r2, %r1, 1;\n"
"  { .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r2; call.uni (r0), fib, (a0); ld.param.b32 %r3, [r0]; }\n"
"  sub.s32 %r2, %r1, 2;\n"
"  { .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r2; call.uni (r0), fib, (a0); ld.param.b32 %r4, [r0]; }\n"
"  add.s32 %r1, %r3, %r4;\n"
"BASE:\n"
"  st.param.b32 [r], %r1;\n"
"  ret;\n"
"}\n"
".visible .entry k(.param .u64 out)\n{\n"
"  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
"  .local .align 8 .b8 buf[64];\n"
"  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
"  and.b32 %r2, %r1, 7;\n"
"  { .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r2; call.uni (r0), fib, (a0); ld.param.b32 %r3, [r0]; }\n"
"  st.local.u32 [buf+4], %r3;\n"
"  mov.u64 %rd4, buf;\n"
"  cvta.local.u64 %rd5, %rd4;\n"
"  ld.u32 %r4, [%rd5+4];\n"            /* generic load through the local window */
"  st.global.u32 [%rd3], %r4;\n"
"  ret;\n}\n";

/* .reg parameters (as hand-written PTX and older compilers use): the body
 * names them as registers; recursion keeps each frame's copy apart.
 * sum(n) = n + sum(n-1), and a .f32 argument given as a 0f immediate. */
static const char *regcalls = TH_HEADER
".func (.reg .b32 r) sum(.reg .b32 n)\n"
"{\n"
"  .reg .b32 %t;\n  .reg .pred %p;\n"
"  mov.u32 r, 0;\n"
"  setp.eq.s32 %p, n, 0;\n"
"  @%p bra DONE;\n"
"  sub.s32 %t, n, 1;\n"
"  call.uni (r), sum, (%t);\n"
"  add.s32 r, r, n;\n"
"DONE:\n"
"  ret;\n"
"}\n"
".func (.reg .f32 y, .reg .b64 w) scale(.reg .f32 x, .reg .b64 v)\n"
"{\n"
"  mul.f32 y, x, 0f40000000;\n"
"  shl.b64 w, v, 1;\n"
"  ret;\n"
"}\n"
".visible .entry k(.param .u64 out)\n{\n"
"  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f<4>;\n"
"  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
"  call.uni (%r3), sum, (%r1);\n"
"  st.global.u32 [%rd3], %r3;\n"
"  mov.u64 %rd4, 0x100000001;\n"
"  call.uni (%f1, %rd5), scale, (0f3FC00000, %rd4);\n"   /* 1.5 */
"  st.global.f32 [%rd1+128], %f1;\n"
"  st.global.u64 [%rd1+136], %rd5;\n"
"  ret;\n}\n";

/* a cluster of 2: each CTA writes its rank into the peer's shared memory */
static const char *cluster = K("k", "", "  .shared .align 4 .u32 s;\n",
"  mov.u32 %r2, %cluster_ctarank;\n"
"  xor.b32 %r3, %r2, 1;\n"
"  mov.u32 %r4, s;\n"
"  mapa.shared::cluster.u32 %r5, %r4, %r3;\n"
"  add.s32 %r6, %r2, 10;\n"
"  st.shared::cluster.u32 [%r5], %r6;\n"
"  barrier.cluster.arrive.release.aligned;\n"
"  barrier.cluster.wait.acquire.aligned;\n"
"  ld.shared.u32 %r7, [s];\n"
"  getctarank.shared::cluster.u32 %r8, %r5;\n"
"  mul.wide.u32 %rd4, %r2, 8;\n"
"  add.s64 %rd5, %rd1, %rd4;\n"
"  st.global.u32 [%rd5], %r7;\n"
"  st.global.u32 [%rd5+4], %r8;\n"
"  ret;\n");

/* mbarrier: 2 arrivals + 16 tx bytes; a complete_tx finishes the phase */
static const char *mbar = K("k", "", "  .shared .align 8 .b64 bar;\n  .reg .b64 %st<4>;\n",
"  mov.u32 %r2, bar;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra W;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 2;\n"
"W:\n"
"  bar.sync 0;\n"
"  setp.gt.u32 %p2, %r1, 1;\n"
"  @%p2 bra POLL;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 %st1, [%r2], 8;\n"
"  mbarrier.complete_tx.shared::cta.b64 [%r2], 8;\n"
"POLL:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;\n"
"  @!%p3 bra POLL;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p4, [%r2], 1;\n"
"  selp.u32 %r3, 1, 0, %p4;\n"          /* phase 1 not complete: 0 */
"  st.global.u32 [%rd3], %r3;\n"
"  ret;\n");

static const char *mbar_uninit = K("k", "", "  .shared .align 8 .b64 bar;\n",
"  mov.u32 %r2, bar;\n"
"  mbarrier.arrive.shared::cta.b64 _, [%r2];\n"
"  ret;\n");

static const char *mbar_txover = K("k", "", "  .shared .align 8 .b64 bar;\n",
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.expect_tx.shared::cta.b64 [%r2], 1048575;\n"
"  mbarrier.expect_tx.shared::cta.b64 [%r2], 1;\n"
"  ret;\n");

/* count 2, only one arrival: the poll can never succeed */
static const char *mbar_dead = K("k", "", "  .shared .align 8 .b64 bar;\n  .reg .b64 %st<2>;\n",
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 2;\n"
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2];\n"
"POLL:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;\n"
"  @!%p3 bra POLL;\n"
"  ret;\n");

static const char *bar_dead = K("k", "", "",
"  setp.lt.u32 %p1, %r1, 32;\n"
"  @%p1 bra A;\n"
"  bar.sync 2;\n"
"  ret;\n"
"A:\n"
"  bar.sync 1;\n"
"  ret;\n");

static const char *oob = K("k", "", "",
"  st.global.u32 [%rd1+65536], %r1;\n"
"  ret;\n");

static const char *misalign = K("k", "", "",
"  st.global.u32 [%rd1+2], %r1;\n"
"  ret;\n");

static const char *unsup = K("k", "", "",
"  vadd.u32.u32.u32 %r3, %r1, %r1;\n"
"  ret;\n");

static const char *trap = K("k", "", "",
"  trap;\n"
"  ret;\n");

int main(void)
{
    th_run r;

    th_run_k(&r, diverge, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("divergence runs", &r);
    CHECK_EQ_U64("even lane takes the if path", th_u32(&r, 4), 104);
    CHECK_EQ_U64("odd lane takes the else path", th_u32(&r, 5), 205);
    CHECK_EQ_U64("activemask after the join: reconverged", th_u32(&r, 64), 0xffffffffu);
    th_free(&r);

    th_run_k(&r, bar_div, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("bar.sync in divergent code", &r);
    CHECK_EQ_U64("lane 1 sees lane 0's store after bar.sync", th_u32(&r, 1), 77);
    CHECK_EQ_U64("warp 1 sees it too", th_u32(&r, 63), 77);
    th_free(&r);

    th_run_k(&r, warp_ops, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("warp collectives run", &r);
    CHECK_EQ_U64("shfl.down lane 3", th_u32(&r, 3), 4);
    CHECK_EQ_U64("shfl.down lane 31 clamps", th_u32(&r, 31), 31);
    CHECK_EQ_U64("vote.ballot", th_u32(&r, 32), 0x1f);
    CHECK_EQ_U64("redux.add", th_u32(&r, 33), 496);
    CHECK_EQ_U64("shfl.idx", th_u32(&r, 34), 7);
    CHECK_EQ_U64("match.any lane 2", th_u32(&r, 66), 0x44444444u);
    CHECK_EQ_U64("shfl.bfly lane 6", th_u32(&r, 128 + 6), 7);
    th_free(&r);

    for (int jobs = 1; jobs <= 4; jobs += 3) {
        th_run_k(&r, atomics, "k", 8, 64, 1, 0, jobs, INTERP_COMPLETE_DEFERRED, NULL, 0);
        char n[64];
        snprintf(n, sizeof n, "atomics -j%d run", jobs);
        CHECK_OK(n, &r);
        snprintf(n, sizeof n, "atom.add.u32 -j%d", jobs);
        CHECK_EQ_U64(n, th_u32(&r, 0), 512);
        snprintf(n, sizeof n, "atom.max.s32 -j%d", jobs);
        CHECK_EQ_U64(n, th_u32(&r, 1), 63);
        snprintf(n, sizeof n, "atom.inc.u32 wraps -j%d", jobs);
        CHECK_EQ_U64(n, th_u32(&r, 2), 512 % 10);
        snprintf(n, sizeof n, "atom.shared.add -j%d", jobs);
        CHECK_EQ_U64(n, th_u32(&r, 3), 8 * 128);
        snprintf(n, sizeof n, "atom.cas -j%d", jobs);
        CHECK_EQ_U64(n, th_u32(&r, 4), 5);
        th_free(&r);
    }

    th_run_k(&r, calls, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("recursive calls with params", &r);
    CHECK_EQ_U64("fib(7) via .local and generic", th_u32(&r, 7), 13);
    CHECK_EQ_U64("fib(5)", th_u32(&r, 13), 5);
    th_free(&r);

    th_run_k(&r, regcalls, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK(".reg parameters", &r);
    CHECK_EQ_U64("sum(9) through recursive .reg params", th_u32(&r, 9), 45);
    CHECK_EQ_U64("sum(31)", th_u32(&r, 31), 496);
    CHECK_EQ_U64(".reg .f32 param from a 0f immediate", th_u32(&r, 32), 0x40400000u);
    CHECK_EQ_U64(".reg .b64 param and return", th_u64(&r, 17), 0x200000002ull);
    th_free(&r);

    th_run_k(&r, cluster, "k", 2, 32, 2, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("cluster mapa + barrier.cluster", &r);
    CHECK_EQ_U64("rank 0 got rank 1's value", th_u32(&r, 0), 11);
    CHECK_EQ_U64("rank 1 got rank 0's value", th_u32(&r, 2), 10);
    CHECK_EQ_U64("getctarank of the mapped address", th_u32(&r, 1), 1);
    th_free(&r);

    th_run_k(&r, mbar, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("mbarrier phase with tx completes", &r);
    CHECK_EQ_U64("next phase not complete", th_u32(&r, 40), 0);
    th_free(&r);

    th_run_k(&r, mbar_uninit, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("arrive on uninitialised mbarrier", &r, INTERP_FAULT, "not initialised");
    CHECK_MSG("misuse names the source line", &r, INTERP_FAULT, "test.ptx:");
    th_free(&r);

    th_run_k(&r, mbar_txover, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("tx-count overflow", &r, INTERP_FAULT, "tx-count overflow");
    th_free(&r);

    th_run_k(&r, mbar_dead, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("poll that can never succeed is a deadlock", &r, INTERP_DEADLOCK, "mbarrier at shared");
    CHECK_MSG("deadlock report: pending arrivals", &r, INTERP_DEADLOCK, "1 of 2 arrivals pending");
    CHECK_MSG("deadlock report: the wait's line", &r, INTERP_DEADLOCK, "mbarrier.try_wait");
    th_free(&r);

    th_run_k(&r, bar_dead, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("bar.sync on different barriers deadlocks", &r, INTERP_DEADLOCK, "barrier 1: 32 of 64");
    th_free(&r);

    th_run_k(&r, oob, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("out-of-bounds store faults", &r, INTERP_FAULT, "past the end of buffer 'out'");
    CHECK_MSG("fault names the thread", &r, INTERP_FAULT, "warp 0 lane 0");
    th_free(&r);

    th_run_k(&r, misalign, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("misaligned store faults", &r, INTERP_FAULT, "misaligned 4-byte access");
    th_free(&r);

    th_run_k(&r, unsup, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    if (r.res.status == -1)
        printf("PASS unsupported (tex did not parse here; skipped)\n");
    else
        CHECK_MSG("unsupported instruction stops the run", &r, INTERP_UNSUPPORTED, "vadd");
    th_free(&r);

    th_run_k(&r, trap, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("trap", &r, INTERP_TRAP, "trap executed");
    th_free(&r);
    CHECK_DONE();
}
