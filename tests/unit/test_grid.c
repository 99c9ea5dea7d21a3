/* test_grid.c — the grid-wide write-write check (check/grid.c, fed by
 * interp/gridck.c):
 *   - the hash: bytes hashed in pieces sum to the hash of the whole, a
 *     written zero differs from nothing written, other bytes differ;
 *   - a cluster's log: lanes of one instruction coalesce into one record,
 *     neighbours of one instruction merge at the cluster's end, a weak
 *     write rewritten by the cluster itself is dropped;
 *   - the conflict rules: same bytes over the same range are benign,
 *     different ranges agreeing with final memory are benign, plain vs
 *     atomic and reductions of different operations conflict, atomics and
 *     same-operation reductions do not, a release after one side's write
 *     with an acquire before the other's exempts the pair;
 *   - the sweep's choice: lowest later cluster, then earlier cluster, then
 *     address; many identical writes collapse without losing the race;
 *     clusters at or past the limit are ignored;
 *   - kernels: a status word stored by every CTA (same value clean,
 *     different values reported with both sides), identical for -j 1, 2, 3
 *     and through the step API; --check=none reports nothing; atomics and a
 *     semaphore-serialised read-modify-write are clean; an error inside a
 *     cluster wins over a race whose later cluster is not below it. */
#include "tests/unit/interp_harness.h"
#include "check/grid.h"

/* ---- check/grid.c directly ------------------------------------------------------------------ */

static uint8_t fake_mem[4096];
static const uint64_t FAKE_BASE = 0x1000;

static const uint8_t *fake(void *arg, uint64_t a, uint64_t n)
{
    (void)arg;
    return a >= FAKE_BASE && a + n <= FAKE_BASE + sizeof fake_mem ? fake_mem + (a - FAKE_BASE) : NULL;
}

/* cluster `cl` of log g: one instruction of `lanes` lanes writing 4-byte
 * value v (the same in every lane) from address a up */
static void put(cg_log *g, int kind, int op, uint32_t site, uint64_t a, int lanes, uint32_t v)
{
    cg_begin(g);
    for (int l = 0; l < lanes; l++)
        cg_write(g, kind, op, site, 0, l, a + 4 * (uint64_t)l, 4, (const uint8_t *)&v);
}

static bool find1(cg_log *g, uint64_t limit, cg_race *r, size_t *n)
{
    cg_log *v[1] = { g };
    return cg_find(v, 1, limit, fake, NULL, r, n);
}

static void unit_hash(void)
{
    uint8_t b[16];
    for (int i = 0; i < 16; i++)
        b[i] = (uint8_t)(i * 37 + 1);
    CHECK_EQ_U64("hash of 16 bytes = hash of 5 + hash of 11", cg_hash(0x1003, b, 16),
                 cg_hash(0x1003, b, 5) + cg_hash(0x1008, b + 5, 11));
    CHECK_EQ_U64("... = the sum over single bytes", cg_hash(0x1003, b, 16), ({
        uint64_t h = 0;
        for (int i = 0; i < 16; i++) h += cg_hash(0x1003 + (uint64_t)i, b + i, 1);
        h; }));
    uint8_t z[4] = { 0 };
    CHECK("a written zero is not nothing", cg_hash(0x1000, z, 4) != 0);
    uint8_t c[16];
    memcpy(c, b, 16);
    c[9] ^= 1;
    CHECK("one bit of other bytes changes the hash", cg_hash(0x1003, b, 16) != cg_hash(0x1003, c, 16));
    CHECK("the same bytes elsewhere hash differently", cg_hash(0x1003, b, 16) != cg_hash(0x1013, b, 16));
}

/* the warp form gives the records and hashes of lane-by-lane writes */
static void unit_warp(void)
{
    uint64_t total = 0, addr[32], val[32];
    for (int l = 0; l < 32; l++) {
        addr[l] = 0x1000 + 4 * (uint64_t)l + (l >= 20 ? 64 : 0);   /* a gap after lane 19 */
        val[l] = 0x1234567890ull * (uint64_t)(l + 1);
    }
    cg_log *a = cg_log_new(), *b = cg_log_new();
    cg_write_warp(a, 5, 1, 64, 0xfffffff7u, addr, 8, val, 4);      /* lane 3 off */
    cg_begin(b);
    for (int l = 0; l < 32; l++)
        if (l != 3)
            cg_write(b, CG_PLAIN, 0, 5, 1, 64 + l, addr[l] + 8, 4, (const uint8_t *)&val[l]);
    cg_cluster_end(a, 0, &total, CG_CAP);
    cg_cluster_end(b, 1, &total, CG_CAP);
    cg_race r;
    size_t n;
    cg_log *v[2] = { a, b };
    memset(fake_mem, 0, sizeof fake_mem);
    CHECK("warp and lane-by-lane records of the same bytes: no race", !cg_find(v, 2, UINT64_MAX, fake, NULL, &r, &n));
    CHECK_EQ_U64("... three runs each (lanes 0-2, 4-19, 20-31)", n, 6);
    val[7] ^= 1;
    cg_write_warp(a, 5, 1, 64, 0xfffffff7u, addr, 8, val, 4);
    cg_cluster_end(a, 2, &total, CG_CAP);
    CHECK("one lane's other value: a race", cg_find(v, 2, UINT64_MAX, fake, NULL, &r, &n));
    CHECK_EQ_U64("... at its run (lanes 4-19)", r.addr, 0x1000 + 16 + 8);
    cg_log_free(a);
    cg_log_free(b);

    /* a whole warp of consecutive words (the fast case) and of 8-byte
     * words, against lane-by-lane writes */
    for (unsigned es = 4; es <= 8; es += 4) {
        total = 0;
        a = cg_log_new();
        b = cg_log_new();
        for (int l = 0; l < 32; l++)
            addr[l] = 0x1000 + es * (uint64_t)l;
        cg_write_warp(a, 5, 0, 0, 0xffffffffu, addr, 0, val, es);
        cg_begin(b);
        for (int l = 0; l < 32; l++)
            cg_write(b, CG_PLAIN, 0, 6, 0, l, addr[l], es, (const uint8_t *)&val[l]);
        cg_cluster_end(a, 0, &total, CG_CAP);
        cg_cluster_end(b, 1, &total, CG_CAP);
        v[0] = a;
        v[1] = b;
        CHECK(es == 4 ? "a whole warp of consecutive 4-byte words: the lane-by-lane hash"
                      : "a whole warp of consecutive 8-byte words: the lane-by-lane hash",
              !cg_find(v, 2, UINT64_MAX, fake, NULL, &r, &n) && n == 2);
        cg_log_free(a);
        cg_log_free(b);
    }
}

static void unit_log(void)
{
    uint64_t total = 0;
    cg_log *g = cg_log_new();
    cg_race r;
    size_t n;
    /* cluster 0: one instruction of 32 lanes, then the next 32 lanes (one
     * more instruction of the same site): one record after merging */
    put(g, CG_PLAIN, 0, 7, 0x1000, 32, 5);
    put(g, CG_PLAIN, 0, 7, 0x1080, 32, 5);
    CHECK("a cluster is kept", cg_cluster_end(g, 0, &total, CG_CAP));
    CHECK_EQ_U64("lanes and instructions of one site merge into one record", total, 1);
    /* cluster 1: the same bytes by another split (16 lanes of 8 bytes) */
    uint64_t v8 = 5ull | 5ull << 32;
    cg_begin(g);
    for (int l = 0; l < 32; l++)
        cg_write(g, CG_PLAIN, 0, 9, 0, l, 0x1000 + 8 * (uint64_t)l, 8, (const uint8_t *)&v8);
    cg_cluster_end(g, 1, &total, CG_CAP);
    CHECK("the same bytes over the same range, split otherwise: no race", !find1(g, UINT64_MAX, &r, &n));
    /* cluster 2: x then y over one word; cluster 3: y */
    put(g, CG_PLAIN, 0, 11, 0x1400, 1, 1);
    put(g, CG_PLAIN, 0, 12, 0x1400, 1, 2);
    cg_cluster_end(g, 2, &total, CG_CAP);
    put(g, CG_PLAIN, 0, 13, 0x1400, 1, 2);
    cg_cluster_end(g, 3, &total, CG_CAP);
    CHECK("a write its own cluster rewrote later does not race", !find1(g, UINT64_MAX, &r, &n));
    /* cluster 4: another value inside cluster 0's range */
    put(g, CG_PLAIN, 0, 14, 0x1010, 1, 6);
    memset(fake_mem, 0, sizeof fake_mem);
    cg_cluster_end(g, 4, &total, CG_CAP);
    bool f = find1(g, UINT64_MAX, &r, &n);
    CHECK("other bytes inside another cluster's range race", f);
    CHECK_EQ_U64("... reported at the later cluster 4", f ? r.b.cluster : 99, 4);
    CHECK_EQ_U64("... against the earlier cluster 0", f ? r.a.cluster : 99, 0);
    CHECK_EQ_U64("... at the first common byte", f ? r.addr : 0, 0x1010);
    CHECK_EQ_U64("... naming the sites", f ? (uint64_t)r.a.site << 32 | r.b.site : 0, (uint64_t)7 << 32 | 14);
    CHECK("the limit leaves cluster 4 out", !find1(g, 4, &r, &n));
    cg_log_free(g);

    /* different ranges that agree with final memory: benign */
    g = cg_log_new();
    total = 0;
    for (int i = 0; i < 64; i++) {
        uint32_t v = 5;
        memcpy(fake_mem + 4 * i, &v, 4);
    }
    put(g, CG_PLAIN, 0, 1, 0x1000, 32, 5);
    cg_cluster_end(g, 0, &total, CG_CAP);
    put(g, CG_PLAIN, 0, 2, 0x1040, 16, 5);
    cg_cluster_end(g, 1, &total, CG_CAP);
    CHECK("overlapping ranges with the same bytes (final memory agrees): no race", !find1(g, UINT64_MAX, &r, &n));
    cg_log_free(g);
}

static cg_rec rec(uint64_t cl, int kind, int op, uint64_t lo, uint64_t hi, uint64_t hash, int order)
{
    return (cg_rec){ .lo = lo, .hi = hi, .hash = hash, .cluster = cl, .kind = (uint8_t)kind, .op = (uint8_t)op,
                     .order = (uint8_t)order };
}

static void unit_rules(void)
{
    memset(fake_mem, 0xee, sizeof fake_mem);
    cg_rec p0 = rec(0, CG_PLAIN, 0, 0x1000, 0x1010, 1, 0), p1 = rec(1, CG_PLAIN, 0, 0x1000, 0x1010, 2, 0);
    cg_rec a0 = rec(0, CG_SYNC, 0, 0x1000, 0x1004, 0, 0), a1 = rec(1, CG_SYNC, 0, 0x1000, 0x1004, 0, 0);
    cg_rec r0 = rec(0, CG_RED, 1, 0x1000, 0x1010, 0, 0), r1 = rec(1, CG_RED, 1, 0x1000, 0x1010, 0, 0);
    cg_rec m1 = rec(1, CG_RED, 3, 0x1000, 0x1010, 0, 0), s1 = rec(1, CG_ASYNC, 0, 0x1000, 0x1010, 1, 0);
    CHECK("plain vs plain, different bytes: race", cg_conflict(&p0, &p1, fake, NULL));
    CHECK("plain vs TMA store, same bytes: none", !cg_conflict(&p0, &s1, fake, NULL));
    CHECK("atomic vs atomic: none", !cg_conflict(&a0, &a1, fake, NULL));
    CHECK("plain vs atomic: race", cg_conflict(&p0, &a1, fake, NULL));
    CHECK("reduction .add vs .add: none", !cg_conflict(&r0, &r1, fake, NULL));
    CHECK("reduction .add vs .max: race", cg_conflict(&r0, &m1, fake, NULL));
    CHECK("reduction vs atomic: none", !cg_conflict(&r0, &a1, fake, NULL));
    CHECK("reduction vs plain store: race", cg_conflict(&r0, &p1, fake, NULL));
    p0.order = CG_POST;
    p1.order = CG_PRE;
    CHECK("a release after one write, an acquire before the other: possibly ordered", !cg_conflict(&p0, &p1, fake, NULL));
    CHECK("... either way round", !cg_conflict(&p1, &p0, fake, NULL));
    p0.order = CG_PRE;
    CHECK("both synchronised only before their writes: race", cg_conflict(&p0, &p1, fake, NULL));
    p0.order = p1.order = CG_POST;
    CHECK("both synchronised only after their writes: race", cg_conflict(&p0, &p1, fake, NULL));
}

static void unit_sweep(void)
{
    uint64_t total = 0;
    cg_log *g[2] = { cg_log_new(), cg_log_new() };
    cg_race r;
    size_t n;
    memset(fake_mem, 0, sizeof fake_mem);
    /* 200 clusters store 1 to one flag, cluster 57 stores 2; clusters
     * alternate between two logs (two contexts) */
    for (uint64_t c = 0; c < 200; c++) {
        put(g[c & 1], CG_PLAIN, 0, 3, 0x1800, 1, c == 57 ? 2 : 1);
        cg_cluster_end(g[c & 1], c, &total, CG_CAP);
    }
    bool f = cg_find(g, 2, UINT64_MAX, fake, NULL, &r, &n);
    CHECK("one different value among 200 identical ones is found", f);
    CHECK_EQ_U64("... as the pair (0, 57)", f ? r.a.cluster << 32 | r.b.cluster : 0, 57);
    CHECK("... the identical writes collapsed (a few records examined)", n == 200);
    cg_log_free(g[0]);
    cg_log_free(g[1]);

    /* races (1,3) at 0x1000 and (0,2) at 0x1100 and (1,2) at 0x1080: (0,2) wins */
    cg_log *h = cg_log_new();
    total = 0;
    put(h, CG_PLAIN, 0, 1, 0x1100, 1, 1);
    cg_cluster_end(h, 0, &total, CG_CAP);
    put(h, CG_PLAIN, 0, 1, 0x1000, 1, 1);
    put(h, CG_PLAIN, 0, 1, 0x1080, 1, 1);
    cg_cluster_end(h, 1, &total, CG_CAP);
    put(h, CG_PLAIN, 0, 1, 0x1100, 1, 2);
    put(h, CG_PLAIN, 0, 1, 0x1080, 1, 2);
    cg_cluster_end(h, 2, &total, CG_CAP);
    put(h, CG_PLAIN, 0, 1, 0x1000, 1, 2);
    cg_cluster_end(h, 3, &total, CG_CAP);
    f = find1(h, UINT64_MAX, &r, &n);
    CHECK_EQ_U64("lowest later cluster, then lowest earlier cluster: (0, 2)",
                 f ? r.a.cluster << 32 | r.b.cluster : 0, 2);
    CHECK_EQ_U64("... at its address", f ? r.addr : 0, 0x1100);
    cg_log_free(h);
}

/* ---- kernels -------------------------------------------------------------------------------- */

/* every CTA's thread 0 stores to out[0]: %ctaid.x (bug) or 7 (same value);
 * each thread also its own word out[64 + 64 * ctaid + tid] */
static const char *status_word = TH_HEADER
    ".visible .entry k(.param .u64 out, .param .u32 same)\n"
    "{\n"
    "  .reg .u64 %rd<4>; .reg .u32 %r<6>; .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r4, [same];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.u32 %r5, %r2, 64, %r1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3+256], %r2;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "  setp.ne.u32 %p2, %r4, 0;\n"
    "  selp.u32 %r3, 7, %r2, %p2;\n"
    "  st.global.u32 [%rd1], %r3;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* CTA `which` traps; every other CTA stores its index to out[0] */
static const char *trap_and_race = TH_HEADER
    ".visible .entry k(.param .u64 out, .param .u32 which)\n"
    "{\n"
    "  .reg .u64 %rd<2>; .reg .u32 %r<6>; .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r4, [which];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  setp.eq.u32 %p1, %r2, %r4;\n"
    "  @%p1 trap;\n"
    "  st.global.u32 [%rd1], %r2;\n"
    "  ret;\n"
    "}\n";

/* every CTA adds to out[0] atomically; then a semaphore-serialised
 * read-modify-write of out[1] (CTA k waits until out[2] == k) */
static const char *atomics_and_semaphore = TH_HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .u64 %rd<2>; .reg .u32 %r<8>; .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  red.global.add.u32 [%rd1], 1;\n"
    "SPIN:\n"
    "  ld.acquire.gpu.global.u32 %r3, [%rd1+8];\n"
    "  setp.ne.u32 %p1, %r3, %r2;\n"
    "  @%p1 bra SPIN;\n"
    "  ld.global.u32 %r4, [%rd1+4];\n"
    "  add.u32 %r4, %r4, %r2;\n"
    "  st.global.u32 [%rd1+4], %r4;\n"
    "  add.u32 %r5, %r2, 1;\n"
    "  st.release.gpu.global.u32 [%rd1+8], %r5;\n"
    "  ret;\n"
    "}\n";

static void kernels(void)
{
    th_run r;
    char msg[3][4096];
    uint64_t same = 0;
    for (int j = 1; j <= 3; j++) {
        th_run_k(&r, status_word, "k", 5, 64, 1, 0, j, INTERP_COMPLETE_DEFERRED, &same, 1);
        char n[96];
        snprintf(n, sizeof n, "status word of different values: grid-write-race (-j %d)", j);
        CHECK_MSG(n, &r, INTERP_FAULT, "data race [grid-write-race]: CTA (0,0,0) thread 0 at test.ptx:19");
        snprintf(n, sizeof n, "... against CTA 1 at the same line, out + 0 (-j %d)", j);
        CHECK_MSG(n, &r, INTERP_FAULT, "and CTA (1,0,0) thread 0 at test.ptx:19 both write global");
        memcpy(msg[j - 1], r.res.msg, sizeof msg[0]);
        th_free(&r);
    }
    CHECK("-j 1, -j 2 and -j 3 give the same report", !strcmp(msg[0], msg[1]) && !strcmp(msg[0], msg[2]));
    CHECK("... naming the buffer", strstr(msg[0], "(buffer out + 0x0)") != NULL);

    /* the step API (one context, the debugger's): the same report */
    {
        const ir_function *fn = th_prepare(&r, status_word, "k", 1 << 12);
        uint8_t params[16] = { 0 };
        memcpy(params, &r.out, 8);
        interp_launch l;
        memset(&l, 0, sizeof l);
        l.mod = r.mod;
        l.entry = fn;
        l.grid[0] = 5; l.grid[1] = l.grid[2] = 1;
        l.block[0] = 64; l.block[1] = l.block[2] = 1;
        l.params = params;
        l.params_size = fn->param_bytes;
        l.gmem = r.g;
        interp_ctx *c = interp_new(&l);
        interp_event ev;
        interp_run_until(c, 0, false, &ev);
        const interp_result *res = interp_get_result(c);
        CHECK("the step API reports the same race", res->status == INTERP_FAULT && !strcmp(res->msg, msg[0]));
        interp_free(c);
        th_free(&r);
    }

    same = 1;
    th_run_k(&r, status_word, "k", 5, 64, 1, 0, 2, INTERP_COMPLETE_DEFERRED, &same, 1);
    CHECK_OK("status word of one value from every CTA: clean", &r);
    th_free(&r);
    same = 0;
    th_no_check = true;
    th_run_k(&r, status_word, "k", 5, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, &same, 1);
    CHECK_OK("--check=none: not checked", &r);
    th_no_check = false;
    th_free(&r);

    /* -j 1 only: under -j 2 this kernel (a cluster spinning on a flag the
     * previous cluster sets, on another host thread) sometimes never sees
     * the flag change (README, Known differences) */
    for (int j = 1; j <= 1; j++) {
        th_run_k(&r, atomics_and_semaphore, "k", 6, 32, 1, 0, j, INTERP_COMPLETE_DEFERRED, NULL, 0);
        CHECK_OK(j == 1 ? "atomics and a semaphore-ordered read-modify-write: clean (-j 1)"
                        : "atomics and a semaphore-ordered read-modify-write: clean (-j 2)", &r);
        CHECK_EQ_U64("... the counter (a red by every thread)", th_u32(&r, 0), 6 * 32);
        CHECK_EQ_U64("... the serialised sum", th_u32(&r, 1), 15);
        th_free(&r);
    }

    /* the trap in cluster `which`; the race of clusters 0 and 1 (or 0 and 2) */
    for (int j = 1; j <= 2; j++) {
        uint64_t which = 2;
        th_run_k(&r, trap_and_race, "k", 4, 32, 1, 0, j, INTERP_COMPLETE_DEFERRED, &which, 1);
        CHECK_MSG(j == 1 ? "a race of clusters 0 and 1 wins over a trap in cluster 2 (-j 1)"
                         : "a race of clusters 0 and 1 wins over a trap in cluster 2 (-j 2)", &r, INTERP_FAULT,
                  "CTA (0,0,0) thread 31 at test.ptx:12 and CTA (1,0,0) thread 31 at test.ptx:12 both write");
        th_free(&r);
        which = 1;
        th_run_k(&r, trap_and_race, "k", 4, 32, 1, 0, j, INTERP_COMPLETE_DEFERRED, &which, 1);
        CHECK_MSG(j == 1 ? "a trap in cluster 1 wins over the race of clusters 0 and 2 (-j 1)"
                         : "a trap in cluster 1 wins over the race of clusters 0 and 2 (-j 2)", &r, INTERP_TRAP,
                  "CTA (1,0,0)");
        th_free(&r);
    }
}

/* past the cap, clusters are not kept, the first one dropped is known,
 * and the sweep stops below it */
static void unit_cap(void)
{
    uint64_t total = 0;
    cg_log *g = cg_log_new();
    cg_race r;
    size_t n;
    bool kept[4];
    for (uint64_t c = 0; c < 4; c++) {
        put(g, CG_PLAIN, 0, 1, 0x1000 + 0x100 * c, 1, 1);
        put(g, CG_PLAIN, 0, 2, 0x1080 + 0x100 * c, 1, 1);
        if (c == 3)
            put(g, CG_PLAIN, 0, 2, 0x1000, 1, 2);   /* races with cluster 0 */
        kept[c] = cg_cluster_end(g, c, &total, 6);
    }
    CHECK("clusters within the cap are kept", kept[0] && kept[1] && kept[2]);
    CHECK("the cluster past it is not", !kept[3]);
    CHECK_EQ_U64("... and is the first dropped", cg_first_dropped(g), 3);
    CHECK("its race is not found below the limit", !find1(g, cg_first_dropped(g), &r, &n));
    cg_log_free(g);
}

/* a long cluster writing 300000 contiguous words one instruction each:
 * its log is coalesced as it fills, and one record is left */
static void unit_compact(void)
{
    uint64_t total = 0;
    cg_log *g = cg_log_new();
    for (uint32_t i = 0; i < 300000; i++) {
        cg_begin(g);
        cg_write(g, CG_PLAIN, 0, 4, 0, 0, 0x100000 + 4 * (uint64_t)i, 4, (const uint8_t *)&i);
    }
    CHECK("a long cluster's log is kept", cg_cluster_end(g, 0, &total, CG_CAP));
    CHECK_EQ_U64("... as one record after compaction", total, 1);
    cg_race r;
    size_t n;
    cg_log *h = cg_log_new();
    cg_begin(h);
    for (uint32_t i = 0; i < 300000; i++)
        cg_write(h, CG_PLAIN, 0, 5, 0, 0, 0x100000 + 4 * (uint64_t)i, 4, (const uint8_t *)&i);
    cg_cluster_end(h, 1, &total, CG_CAP);
    cg_log *w[2] = { g, h };
    CHECK("... whose hash is the bytes' (no race with the same bytes written at once)",
          !cg_find(w, 2, UINT64_MAX, fake, NULL, &r, &n) && n == 2);
    cg_log_free(g);
    cg_log_free(h);
}

int main(void)
{
    unit_compact();
    unit_cap();
    unit_warp();
    unit_hash();
    unit_log();
    unit_rules();
    unit_sweep();
    kernels();
    CHECK_DONE();
}
