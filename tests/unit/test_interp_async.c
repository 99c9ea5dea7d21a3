/* test_interp_async.c — mbarriers and bulk groups as kernels use them:
 * inval, remote (shared::cluster) arrive / expect_tx / complete_tx with
 * .release/.relaxed and .cta/.cluster, arrive_drop (and .expect_tx), the
 * state-token and parity waits, suspend-time hints, phase parity wrap,
 * pending_count, .noComplete, the arrival-count and tx-count limits, bulk
 * async-groups (commit_group, wait_group N, wait_group.read), the race
 * check between the generic proxy and copies in flight, and the deadlock
 * report.  mbarrier.c's word arithmetic itself is test_interp_mbar.c. */
#include "tests/unit/interp_harness.h"

/* .relaxed on mbarrier.arrive (the remote test) needs PTX ISA 8.6 (ptxas:
 * "Modifier '.relaxed' on 'mbarrier.arrive' requires PTX ISA .version 8.6") */
#undef TH_HEADER
#define TH_HEADER ".version 8.6\n.target sm_90a\n.address_size 64\n"

#define K(name, params, regs, body) TH_HEADER ".visible .entry " name "(.param .u64 out" params ")\n{\n" \
    "  .reg .pred %p<8>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<20>;\n  .reg .b64 %st<8>;\n" regs \
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n" \
    "  add.s64 %rd3, %rd1, %rd2;\n" body "}\n"
#define BAR "  .shared .align 8 .b64 bar;\n"

/* inval makes the barrier uninitialised; init again makes it usable */
static const char *inval_ok = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.inval.shared::cta.b64 [%r2];\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2];\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  selp.u32 %r3, 1, 0, %p1;\n"
"  st.global.u32 [%rd1], %r3;\n"
"  ret;\n");

static const char *inval_use = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.inval.shared::cta.b64 [%r2];\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  ret;\n");

/* Cluster of 2, thread 0 of each CTA.  Rank 0's barrier expects 2 arrivals:
 * its own (.relaxed.cta) and rank 1's remote one (.release.cluster through
 * mapa), and 32 tx bytes that rank 1 announces and completes remotely. */
static const char *remote = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mov.u32 %r10, %cluster_ctarank;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra SYNC;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 2;\n"
"SYNC:\n"
"  barrier.cluster.arrive.release;\n"
"  barrier.cluster.wait.acquire;\n"
"  @%p1 bra DONE;\n"
"  setp.ne.u32 %p2, %r10, 0;\n"
"  @%p2 bra REMOTE;\n"
"  mbarrier.arrive.relaxed.cta.shared::cta.b64 %st1, [%r2];\n"
"POLL:\n"
"  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p3, [%r2], 0;\n"
"  @!%p3 bra POLL;\n"
"  mbarrier.test_wait.shared::cta.b64 %p4, [%r2], %st1;\n"
"  selp.u32 %r3, 1, 0, %p4;\n"
"  st.global.u32 [%rd1], %r3;\n"
"  bra.uni DONE;\n"
"REMOTE:\n"
"  mapa.shared::cluster.u32 %r4, %r2, 0;\n"
"  mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%r4], 32;\n"
"  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r4];\n"
"  mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%r4], 32;\n"
"  mov.u32 %r5, 7;\n"
"  st.global.u32 [%rd1+4], %r5;\n"
"DONE:\n"
"  barrier.cluster.arrive.release;\n"
"  barrier.cluster.wait.acquire;\n"
"  ret;\n");

/* arrive_drop: count 2; thread 0 drops out in phase 0, so phase 1 needs
 * thread 1 alone.  Then arrive_drop.expect_tx on a fresh barrier. */
static const char *drop = K("k", "", BAR "  .shared .align 8 .b64 bar2;\n",
"  mov.u32 %r2, bar;\n"
"  mov.u32 %r6, bar2;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra S1;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 2;\n"
"  mbarrier.init.shared::cta.b64 [%r6], 1;\n"
"S1:\n"
"  bar.sync 0;\n"
"  @%p1 bra T1;\n"
"  mbarrier.arrive_drop.shared::cta.b64 %st1, [%r2];\n"
"  mbarrier.arrive_drop.expect_tx.shared::cta.b64 _, [%r6], 16;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p5, [%r6], 0;\n"
"  selp.u32 %r7, 1, 0, %p5;\n"
"  st.global.u32 [%rd1+8], %r7;\n"          /* 16 bytes outstanding: 0 */
"  mbarrier.complete_tx.shared::cta.b64 [%r6], 16;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p5, [%r6], 0;\n"
"  selp.u32 %r7, 1, 0, %p5;\n"
"  st.global.u32 [%rd1+12], %r7;\n"         /* now complete: 1 */
"  bar.sync 0;\n"
"  ret;\n"
"T1:\n"
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2];\n"
"  bar.sync 0;\n"
"  mbarrier.arrive.shared::cta.b64 %st2, [%r2];\n"   /* phase 1: one arrival suffices */
"  mbarrier.test_wait.shared::cta.b64 %p2, [%r2], %st2;\n"
"  selp.u32 %r3, 1, 0, %p2;\n"
"  st.global.u32 [%rd1], %r3;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p3, [%r2], 0;\n"   /* phase 2 (parity 0) open */
"  selp.u32 %r4, 1, 0, %p3;\n"
"  st.global.u32 [%rd1+4], %r4;\n"
"  ret;\n");

/* one thread, count 1: three phases; parity waits and state tokens */
static const char *phases = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 3;\n"
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2];\n"
"  mbarrier.pending_count.b64 %r3, %st1;\n"
"  st.global.u32 [%rd1], %r3;\n"                 /* ptxi: the count before this arrival, 3 */
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2], 2;\n"   /* completes phase 0 */
"  mbarrier.pending_count.b64 %r3, %st1;\n"
"  st.global.u32 [%rd1+4], %r3;\n"               /* 2 */
"  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], 1;\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0, 1000;\n"   /* suspend-time hint */
"  mbarrier.try_wait.shared::cta.b64 %p4, [%r2], %st1, 1000;\n"
"  selp.u32 %r4, 1, 0, %p1;\n  st.global.u32 [%rd1+8], %r4;\n"     /* 1 */
"  selp.u32 %r4, 1, 0, %p2;\n  st.global.u32 [%rd1+12], %r4;\n"    /* 0 */
"  selp.u32 %r4, 1, 0, %p3;\n  st.global.u32 [%rd1+16], %r4;\n"    /* 1 */
"  selp.u32 %r4, 1, 0, %p4;\n  st.global.u32 [%rd1+20], %r4;\n"    /* 1 */
"  mbarrier.arrive.shared::cta.b64 %st2, [%r2], 3;\n"   /* completes phase 1 */
"  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r2], 1;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], 0;\n"   /* phase 2, parity 0 again: open */
"  mbarrier.test_wait.shared::cta.b64 %p3, [%r2], %st2;\n"
"  selp.u32 %r4, 1, 0, %p1;\n  st.global.u32 [%rd1+24], %r4;\n"    /* 1 */
"  selp.u32 %r4, 1, 0, %p2;\n  st.global.u32 [%rd1+28], %r4;\n"    /* 0 */
"  selp.u32 %r4, 1, 0, %p3;\n  st.global.u32 [%rd1+32], %r4;\n"    /* 1 */
"  mbarrier.arrive.shared::cta.b64 %st3, [%r2];\n"
"  mbarrier.test_wait.shared::cta.b64 %p4, [%r2], %st3;\n"
"  selp.u32 %r4, 1, 0, %p4;\n  st.global.u32 [%rd1+36], %r4;\n"    /* 0 */
"  ret;\n");

static const char *nocomplete = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 2;\n"
"  mbarrier.arrive.noComplete.shared::cta.b64 %st1, [%r2], 1;\n"
"  mov.u32 %r3, 5;\n"
"  st.global.u32 [%rd1], %r3;\n"
"  mbarrier.arrive.noComplete.shared::cta.b64 %st1, [%r2], 1;\n"
"  ret;\n");

/* the arrival-count limit: 2^20-1 arrivals in one instruction */
static const char *count_max = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1048575;\n"
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2], 1048575;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  selp.u32 %r3, 1, 0, %p1;\n"
"  st.global.u32 [%rd1], %r3;\n"
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2], 1048576;\n"
"  ret;\n");

static const char *init_too_big = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1048576;\n"
"  ret;\n");

/* tx-count range [-(2^20-1), 2^20-1]: both ends reachable, one past faults */
static const char *tx_range = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.expect_tx.shared::cta.b64 [%r2], 1048575;\n"
"  mbarrier.complete_tx.shared::cta.b64 [%r2], 1048575;\n"
"  mbarrier.complete_tx.shared::cta.b64 [%r2], 1048575;\n"
"  mov.u32 %r3, 9;\n"
"  st.global.u32 [%rd1], %r3;\n"
"  mbarrier.complete_tx.shared::cta.b64 [%r2], 1;\n"
"  ret;\n");

/* Bulk async-groups.  Thread 0 stores buf[0..128) to out+1024 (group 0),
 * buf[128..256) to out+2048 (group 1), and 16 bytes to out+3072 without
 * committing them.  out[0]: out+1024 after wait_group 1; out[2]: out+2048
 * after wait_group.read 0.  out[1] / out[3] read out+2048 before and
 * out+3072 after the waits that do not cover them: the policy decides. */
static const char *groups = K("k", "", "  .shared .align 128 .b8 buf[256];\n",
"  mov.u32 %r2, buf;\n"
"  mov.u32 %r3, 0;\n"
"FILL:\n"
"  add.s32 %r4, %r2, %r3;\n"
"  add.s32 %r5, %r3, 1000;\n"
"  st.shared.u32 [%r4], %r5;\n"
"  add.s32 %r3, %r3, 4;\n"
"  setp.lt.u32 %p1, %r3, 256;\n"
"  @%p1 bra FILL;\n"
"  fence.proxy.async.shared::cta;\n"
"  add.s64 %rd4, %rd1, 1024;\n"
"  add.s64 %rd5, %rd1, 2048;\n"
"  add.s64 %rd6, %rd1, 3072;\n"
"  add.s32 %r6, %r2, 128;\n"
"  cp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r2], 128;\n"
"  cp.async.bulk.commit_group;\n"
"  cp.async.bulk.global.shared::cta.bulk_group [%rd5], [%r6], 128;\n"
"  cp.async.bulk.commit_group;\n"
"  cp.async.bulk.global.shared::cta.bulk_group [%rd6], [%r2], 16;\n"
"  cp.async.bulk.wait_group 1;\n"
"  ld.global.u32 %r7, [%rd4+4];\n"
"  st.global.u32 [%rd1], %r7;\n"
"  ld.global.u32 %r7, [%rd5+4];\n"
"  st.global.u32 [%rd1+4], %r7;\n"
"  cp.async.bulk.wait_group.read 0;\n"
"  ld.global.u32 %r7, [%rd5+4];\n"
"  st.global.u32 [%rd1+8], %r7;\n"
"  ld.global.u32 %r7, [%rd6+4];\n"
"  st.global.u32 [%rd1+12], %r7;\n"
/* the uncommitted copy reads buf: the thread may not exit before it has */
"  cp.async.bulk.commit_group;\n"
"  cp.async.bulk.wait_group.read 0;\n"
"  ret;\n");

/* A bulk load into buf[0..128): reading buf[128..] meanwhile is fine,
 * reading buf[0..] before the wait is a race (caught under `deferred`). */
static const char *race_load = K("k", ", .param .u32 racy", "  .shared .align 128 .b8 buf[256];\n" BAR,
"  ld.param.u32 %r9, [racy];\n"
"  mov.u32 %r2, bar;\n"
"  mov.u32 %r3, buf;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  add.s64 %rd4, %rd1, 4096;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n"
"  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd4], 128, [%r2];\n"
"  ld.shared.u32 %r4, [%r3+128];\n"
"  setp.eq.u32 %p2, %r9, 0;\n"
"  @%p2 bra WAIT;\n"
"  ld.shared.u32 %r4, [%r3+124];\n"
"WAIT:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  @!%p1 bra WAIT;\n"
"  ld.shared.u32 %r4, [%r3+124];\n"
"  st.global.u32 [%rd1], %r4;\n"
"  ret;\n");

/* A bulk store reads buf[0..64): reading it meanwhile is fine, writing
 * buf[64..] too; an atomic on buf[0..] before wait_group.read is a race. */
static const char *race_store = K("k", ", .param .u32 racy", "  .shared .align 128 .b8 buf[256];\n",
"  ld.param.u32 %r9, [racy];\n"
"  mov.u32 %r3, buf;\n"
"  add.s64 %rd4, %rd1, 4096;\n"
"  cp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r3], 64;\n"
"  cp.async.bulk.commit_group;\n"
"  ld.shared.u32 %r4, [%r3];\n"
"  st.shared.u32 [%r3+64], %r4;\n"
"  setp.eq.u32 %p2, %r9, 0;\n"
"  @%p2 bra WAIT;\n"
"  atom.shared.add.u32 %r5, [%r3+60], 1;\n"
"WAIT:\n"
"  cp.async.bulk.wait_group.read 0;\n"
"  atom.shared.add.u32 %r5, [%r3+60], 1;\n"
"  ret;\n");

/* expect_tx announces 16 bytes nothing will complete */
static const char *dead_tx = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 16;\n"
"POLL:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;\n"
"  @!%p3 bra POLL;\n"
"  ret;\n");

static const interp_policy all_pol[] = { INTERP_COMPLETE_DEFERRED, INTERP_COMPLETE_EAGER, INTERP_COMPLETE_RANDOM };
static const char *const pol_name[] = { "deferred", "eager", "random" };

int main(void)
{
    th_run r;
    char n[160];
    th_run_k(&r, inval_ok, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("init, inval, init again", &r);
    CHECK_EQ_U64("re-initialised barrier completes its phase", th_u32(&r, 0), 1);
    th_free(&r);
    th_run_k(&r, inval_use, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("wait on an invalidated barrier faults", &r, INTERP_FAULT, "not initialised");
    CHECK_MSG("... at the wait", &r, INTERP_FAULT, "test.ptx:18: mbarrier.try_wait");
    th_free(&r);

    th_run_k(&r, remote, "k", 2, 32, 2, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("remote arrive / expect_tx / complete_tx through mapa", &r);
    CHECK_EQ_U64("rank 0's phase completed with rank 1's arrival", th_u32(&r, 0), 1);
    CHECK_EQ_U64("rank 1 ran", th_u32(&r, 1), 7);
    th_free(&r);

    th_run_k(&r, drop, "k", 1, 2, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("arrive_drop", &r);
    CHECK_EQ_U64("after arrive_drop one arrival completes the next phase", th_u32(&r, 0), 1);
    CHECK_EQ_U64("the phase after that is open", th_u32(&r, 1), 0);
    CHECK_EQ_U64("arrive_drop.expect_tx leaves 16 bytes outstanding", th_u32(&r, 2), 0);
    CHECK_EQ_U64("complete_tx of them completes the phase", th_u32(&r, 3), 1);
    th_free(&r);

    th_run_k(&r, phases, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("three phases", &r);
    CHECK_EQ_U64("pending_count of the first token", th_u32(&r, 0), 3);
    CHECK_EQ_U64("pending_count of the second token", th_u32(&r, 1), 2);
    CHECK_EQ_U64("parity 0 complete after phase 0", th_u32(&r, 2), 1);
    CHECK_EQ_U64("parity 1 (phase 1) still open", th_u32(&r, 3), 0);
    CHECK_EQ_U64("try_wait.parity with a suspend-time hint", th_u32(&r, 4), 1);
    CHECK_EQ_U64("try_wait with a token and a hint", th_u32(&r, 5), 1);
    CHECK_EQ_U64("parity 1 complete after phase 1", th_u32(&r, 6), 1);
    CHECK_EQ_U64("parity 0 now names phase 2: open", th_u32(&r, 7), 0);
    CHECK_EQ_U64("token of phase 1 complete", th_u32(&r, 8), 1);
    CHECK_EQ_U64("token of phase 2 open", th_u32(&r, 9), 0);
    th_free(&r);

    th_run_k(&r, nocomplete, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_EQ_U64("arrive.noComplete that leaves the phase open runs", th_u32(&r, 0), 5);
    CHECK_MSG("arrive.noComplete that completes the phase faults", &r, INTERP_FAULT, "noComplete completed the phase");
    CHECK_MSG("... at the second arrive", &r, INTERP_FAULT, "test.ptx:20: mbarrier.arrive.noComplete");
    th_free(&r);

    th_run_k(&r, count_max, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_EQ_U64("2^20-1 arrivals at once complete a phase of 2^20-1", th_u32(&r, 0), 1);
    CHECK_MSG("an arrival count of 2^20 faults", &r, INTERP_FAULT, "arrival count 1048576 (must be 1..1048575)");
    th_free(&r);
    th_run_k(&r, init_too_big, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("init with 2^20 faults", &r, INTERP_FAULT, "count 1048576 (must be 1..1048575)");
    th_free(&r);

    th_run_k(&r, tx_range, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_EQ_U64("tx-count reaches +(2^20-1) and -(2^20-1)", th_u32(&r, 0), 9);
    CHECK_MSG("one byte below -(2^20-1) faults", &r, INTERP_FAULT, "tx-count underflow: -1048575 - 1");
    CHECK_MSG("... at that complete_tx", &r, INTERP_FAULT, "test.ptx:22: mbarrier.complete_tx.shared::cta.b64 [%r2], 1;");
    th_free(&r);

    /* `groups` reads stores' destinations before any wait covers them, on
     * purpose (to see when ptxi lands them): the checker would report the
     * first such read as [global-store-race] */
    th_no_check = true;
    for (int p = 0; p < 3; p++) {
        th_run_k(&r, groups, "k", 1, 1, 1, 0, 1, all_pol[p], NULL, 0);
        snprintf(n, sizeof n, "bulk groups run (%s)", pol_name[p]);
        CHECK_OK(n, &r);
        snprintf(n, sizeof n, "wait_group 1: the older group has landed (%s)", pol_name[p]);
        CHECK_EQ_U64(n, th_u32(&r, 0), 1004);
        snprintf(n, sizeof n, "wait_group.read 0: every committed group has (%s)", pol_name[p]);
        CHECK_EQ_U64(n, th_u32(&r, 2), 1132);
        if (all_pol[p] == INTERP_COMPLETE_DEFERRED) {
            CHECK_EQ_U64("deferred: wait_group 1 leaves the newest group in flight", th_u32(&r, 1), 0);
            CHECK_EQ_U64("deferred: wait_group 0 does not wait for uncommitted copies", th_u32(&r, 3), 0);
        } else if (all_pol[p] == INTERP_COMPLETE_EAGER) {
            CHECK_EQ_U64("eager: every copy landed at issue", th_u32(&r, 1) + th_u32(&r, 3), 1132 + 1004);
        }
        th_free(&r);
    }
    th_no_check = false;
    th_run_k(&r, groups, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_EAGER, NULL, 0);
    CHECK_MSG("with the checker, the read of group 1's destination after wait_group 1 is a race", &r,
              INTERP_FAULT, "data race [global-store-race]: ld.global.u32 reads global");
    th_free(&r);

    uint64_t safe = 0, racy = 1;
    for (int p = 0; p < 3; p++) {
        th_run_k(&r, race_load, "k", 1, 1, 1, 0, 1, all_pol[p], &safe, 1);
        snprintf(n, sizeof n, "reading beside a load in flight is no race (%s)", pol_name[p]);
        CHECK_OK(n, &r);
        snprintf(n, sizeof n, "the loaded bytes after the wait (%s)", pol_name[p]);
        CHECK_EQ_U64(n, th_u32(&r, 0), 0);   /* out+4096.. is zero */
        th_free(&r);
        th_run_k(&r, race_store, "k", 1, 1, 1, 0, 1, all_pol[p], &safe, 1);
        snprintf(n, sizeof n, "reading a store's source, writing beside it: no race (%s)", pol_name[p]);
        CHECK_OK(n, &r);
        th_free(&r);
    }
    for (int p = 0; p < 3; p++) {
        /* the checker (check/) reports it under every policy alike: eager
         * lands the copy at issue, but no wait has observed it */
        th_run_k(&r, race_load, "k", 1, 1, 1, 0, 1, all_pol[p], &racy, 1);
        snprintf(n, sizeof n, "reading a load's destination before the wait is a race (%s)", pol_name[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "reads 4 byte(s) at shared 0x47c of CTA rank 0 that an asynchronous copy writes");
        CHECK_MSG("... a data race", &r, INTERP_FAULT, "fault: data race [copy-not-waited]: ld");
        CHECK_MSG("... naming the mbarrier and the completion that covers the bytes", &r, INTERP_FAULT,
                  "completes on the mbarrier at shared 0x500 of CTA rank 0, in that barrier's completion #1 (the phase "
                  "with parity 0); this thread has observed 0 of its completions");
        CHECK_MSG("... and the copy", &r, INTERP_FAULT, "other side: bulk copy global->shared::cluster #1 issued from "
                  "CTA (0,0,0) warp 0 lane 0 at test.ptx:22:");
        CHECK_MSG("... at the read", &r, INTERP_FAULT, "test.ptx:26: ld.shared.u32 %r4, [%r3+124];");
        th_free(&r);
    }
    th_run_k(&r, race_store, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, &racy, 1);
    CHECK_MSG("writing a store's source before wait_group.read is a race", &r, INTERP_FAULT,
              "writes 4 byte(s) at shared 0x43c of CTA rank 0 that an asynchronous store reads");
    CHECK_MSG("... a data race", &r, INTERP_FAULT, "fault: data race [store-source-reused]: atom");
    CHECK_MSG("... at the atomic", &r, INTERP_FAULT, "test.ptx:24: atom.shared.add.u32");
    th_free(&r);

    for (int p = 0; p < 3; p++) {
        th_run_k(&r, dead_tx, "k", 1, 1, 1, 0, 1, all_pol[p], NULL, 0);
        snprintf(n, sizeof n, "bytes never completed: deadlock report (%s)", pol_name[p]);
        CHECK_MSG(n, &r, INTERP_DEADLOCK,
                  "CTA (0,0,0) warp 0 lanes 0x00000001: mbarrier wait at test.ptx:19: "
                  "mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;\n"
                  "      mbarrier at shared 0x400 (CTA rank 0): initialised, phase parity 0, 0 of 1 arrivals "
                  "pending, tx-count 16 bytes outstanding; waits for the phase with parity 0 to complete\n");
        snprintf(n, sizeof n, "bytes never completed: the report names the expect_tx (%s)", pol_name[p]);
        CHECK_MSG(n, &r, INTERP_DEADLOCK,
                  "      expect_tx of 16 bytes at test.ptx:17: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 16;\n"
                  "      bytes announced in this phase: 16; bytes the copies brought: 0 (expect_tx announces more");
        CHECK_MSG("... and nothing in flight", &r, INTERP_DEADLOCK, "\n  no asynchronous operation in flight");
        th_free(&r);
    }
    CHECK_DONE();
}
