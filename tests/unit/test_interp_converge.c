/* test_interp_converge.c — .aligned instructions wait for the lanes of
 * their warp that are still behind (sched.c, "Aligned instructions").
 *
 * Lane 0 of warp 0 polls an mbarrier inside an if, as CuTe's mainloop does
 * (`if (warp_idx == 0 && elect_one) { consumer_wait; issue TMA }`), while
 * lanes 1..31 go straight to the join, where an .aligned instruction
 * (setmaxnreg here; wgmma in CuTe) comes first.  Warp 1 completes the
 * mbarrier's phase after a loop.  Lanes 1..31 must wait at the .aligned
 * instruction, as ptxas's convergence barrier at the join makes them wait on
 * the GPU, so the activemask right after it shows the whole warp.  If lane 0
 * exits instead, the others would wait for ever: a fault names the lanes. */
#include "tests/unit/interp_harness.h"

#define KC(name, lane0_tail) TH_HEADER ".visible .entry " name "(.param .u64 out)\n{\n" \
    "  .reg .pred %p<8>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<20>;\n" \
    "  .shared .align 8 .b64 mb;\n" \
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n" \
    "  add.s64 %rd3, %rd1, %rd2;\n  mov.u32 %r10, mb;\n" \
    "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra INITED;\n" \
    "  mbarrier.init.shared::cta.b64 [%r10], 1;\n" \
    "INITED:\n  bar.sync 0;\n" \
    "  setp.lt.u32 %p2, %r1, 32;\n  @%p2 bra W0;\n" \
    "  mov.u32 %r5, 0;\n" \
    "SPIN:\n  add.u32 %r5, %r5, 1;\n  setp.lt.u32 %p3, %r5, 200;\n  @%p3 bra SPIN;\n" \
    "  setp.eq.u32 %p3, %r1, 32;\n" \
    "  @%p3 mbarrier.arrive.shared::cta.b64 %rd9, [%r10];\n" \
    "  ret;\n" \
    "W0:\n  setp.ne.u32 %p4, %r1, 0;\n  @%p4 bra JOIN;\n" \
    "WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r10], 0;\n  @!%p5 bra WAIT;\n" \
    lane0_tail \
    "JOIN:\n  setmaxnreg.inc.sync.aligned.u32 232;\n  activemask.b32 %r4;\n" \
    "  st.global.u32 [%rd3], %r4;\n  ret;\n}\n"

/* lane 0 rejoins after its wait (parity 0: the phase warp 1 completes) */
static const char *rejoin = KC("k", "  mov.u32 %r30, 0;\n");
/* lane 0 leaves the kernel after its wait: the others wait for it at the
 * .aligned instruction for ever (the H100 hangs; tests/launch/zoo): reported */
static const char *leaves = KC("k", "  st.global.u32 [%rd3], %r1;\n  ret;\n");

static void run(const char *what, const char *src, uint32_t want0, uint32_t want1, int jobs, interp_policy pol)
{
    th_run r;
    char name[160];
    th_run_k(&r, src, "k", 1, 64, 1, 0, jobs, pol, NULL, 0);
    snprintf(name, sizeof name, "%s: runs (-j %d, policy %d)", what, jobs, (int)pol);
    CHECK_OK(name, &r);
    if (r.res.status == 0) {
        uint32_t v[32];
        memcpy(v, r.host, sizeof v);
        bool ok = v[0] == want0;
        for (int i = 1; i < 32; i++)
            ok &= v[i] == want1;
        snprintf(name, sizeof name, "%s: activemask after the .aligned instruction (-j %d, policy %d)", what,
                 jobs, (int)pol);
        CHECK(name, ok);
        if (!ok)
            printf("    lane 0 stored 0x%08x (want 0x%08x), lane 1 0x%08x (want 0x%08x)\n", v[0], want0, v[1],
                   want1);
    }
    th_free(&r);
}

int main(void)
{
    static const interp_policy pols[] = {INTERP_COMPLETE_EAGER, INTERP_COMPLETE_DEFERRED, INTERP_COMPLETE_RANDOM};
    for (int p = 0; p < 3; p++)
        for (int j = 1; j <= 2; j++) {
            run("lane 0 polls in an if, then rejoins", rejoin, 0xffffffffu, 0xffffffffu, j, pols[p]);
            {
                th_run r;
                char name[160];
                th_run_k(&r, leaves, "k", 1, 64, 1, 0, j, pols[p], NULL, 0);
                snprintf(name, sizeof name, "lane 0 polls in an if, then exits: reported (-j %d, policy %d)", j,
                         (int)pols[p]);
                CHECK_MSG(name, &r, INTERP_FAULT,
                          "[aligned-partial-warp]: setmaxnreg.sync.aligned executed by lanes 0xfffffffe of the "
                          "warp while lanes 0x00000001 exited without executing it");
                th_free(&r);
            }
        }
    /* a wait that never completes: the report names the parked lanes */
    static const char *never = KC("k", "  mov.u32 %r30, 0;\n");
    char *src = strdup(never);
    char *at = strstr(src, "  @%p3 mbarrier.arrive");
    memset(at, ' ', strlen("  @%p3 mbarrier.arrive.shared::cta.b64 %rd9, [%r10];"));
    th_run r;
    th_run_k(&r, src, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK("a lane that never rejoins: deadlock",
          r.res.status == INTERP_DEADLOCK &&
              strstr(r.res.msg, "lanes 0xfffffffe: waiting for the rest of its warp at an .aligned instruction"));
    if (r.res.status != INTERP_DEADLOCK || !strstr(r.res.msg, ".aligned"))
        printf("    status %d: %s\n", r.res.status, r.res.msg);
    th_free(&r);
    free(src);
    CHECK_DONE();
}
