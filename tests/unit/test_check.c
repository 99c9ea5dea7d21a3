/* test_check.c — the happens-before checker (check/, fed by interp/hooks.c)
 * and the byte accounting it relies on, on small hand-written kernels:
 *   - an expect_tx that brings the tx-count back to zero with no arrival
 *     pending completes the phase;
 *   - a copy bringing more bytes than the phase still expects completes the
 *     phase in the middle of the copy, the rest counts into the next phase,
 *     and reading the unfinished bytes is a race naming the expect_tx;
 *   - one mbarrier.arrive executed by more lanes than the phase has
 *     pending faults at the arrive, naming the lane that overflows it;
 *   - plain shared-memory races between warps (and none across bar.sync),
 *     the same value written twice is benign;
 *   - a TMA-store-style bulk store from shared memory written with no
 *     fence.proxy.async, and a thread exiting with its store unread;
 *   - --check=none (interp_launch.no_check) turns all of it off;
 *   - a wgmma.mma_async's operand window (check/ directly): a generic write
 *     or a TMA landing in it before a wgmma.wait_group covering it is
 *     ordered, none after;
 *   - races between the lanes of one warp (check/ directly, and kernels):
 *     read after another lane's write, write after another lane's read, two
 *     lanes storing different values (one st.shared included), each ordered
 *     by bar.warp.sync or an acquire and not by shfl.sync; sub-word accesses
 *     of one granule by several lanes, loads by many lanes and a lane's own
 *     accesses never reported;
 *   - a copy that only lane 0 of the warp waited for, read by the other
 *     lanes with no __syncwarp after the wait; with bar.warp.sync the lanes
 *     that reach it first wait there for lane 0 (the scheduler converges
 *     the membermask's lanes at bar.warp.sync) and the run is clean;
 *   - bar.warp.sync with a partial membermask (check/ directly, and
 *     kernels): it orders the lanes of its mask with each other only, a
 *     chain of partial syncs through shared lanes orders (in the order they
 *     happened), one instruction whose lanes give different masks (a
 *     converged warp syncing its halves) is one sync per mask, a full sync
 *     orders every lane; an mbarrier wait made by one lane reaches the
 *     lanes that a partial sync joins to it;
 *   - bulk async-groups belong to the issuing thread: after lane 0's
 *     cp.async.bulk.wait_group(.read), another lane of its warp writing
 *     the store's shared source, or reading its global bytes, is a race
 *     until a __syncwarp (or a partial one with lane 0) orders it, also
 *     when that lane executed the wait_group itself. */
#include "tests/unit/interp_harness.h"
#include "check/check.h"

#define CK_EXPECT(name, got, want) do { int g_ = (got), w_ = (want); if (g_ == w_) printf("PASS %s\n", name); \
    else { printf("FAIL %s: conflict kind %d, want %d\n", name, g_, w_); check_failures++; } } while (0)

/* one CTA of 8 warps: warps 0-3 the consumer warpgroup, warp 4 a producer */
static void wgmma_window(void)
{
    ck_state *s = ck_new(1, 8, 4096);
    if (!s) {
        printf("FAIL wgmma window: ck_new\n");
        check_failures++;
        return;
    }
    ck_conflict k;
    uint32_t comp = ck_wg_comp(s, 0, 0);
    ck_op w = { .agent = 3, .site = 7, .id = 1, .what = "wgmma.mma_async", .cta = 0, .wgmma = true,
                .comp = comp, .val = 1 };
    /* the warpgroup's mma_async #0 reads [0x100, 0x300) */
    uint32_t op = ck_op_new(s, &w);
    CK_EXPECT("wgmma: its window is marked", ck_op_read(s, op, 0, 0x100, 0x200, &k), CK_OK);
    /* the consumer releases the stage (arrive on "empty") before its wait_group */
    uint32_t *empty = ck_sync_new(s);
    ck_release(s, 0, empty);
    ck_acquire(s, 4, empty);
    CK_EXPECT("wgmma: a producer's generic write released before the wait_group races",
              ck_access(s, 4, 0, 9, 0, 0x180, 4, CK_WRITE, &k), CK_SOURCE_REUSED);
    CK_EXPECT("... naming the wgmma", (int)k.other.op, (int)op);
    ck_op t = { .agent = 4, .site = 11, .id = 2, .what = "TMA load", .cta = 0, .is_load = true };
    uint32_t top = ck_op_new(s, &t);
    CK_EXPECT("wgmma: a TMA landing in the window before the wait_group overlaps it",
              ck_op_write(s, top, 0, 0x200, 0x80, &k), CK_COPY_OVERLAP);
    CK_EXPECT("... naming the wgmma", (int)k.other.op, (int)op);
    /* now the right order: wait_group (warp 0 observes #0 complete), then release */
    ck_observe(s, 0, comp, 1);
    ck_release(s, 0, empty);
    ck_acquire(s, 4, empty);
    CK_EXPECT("wgmma: a write after the wait_group, released after it, is ordered",
              ck_access(s, 4, 0, 9, 0, 0x280, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("wgmma: reads of the window after the wait are ordered",
              ck_access(s, 0, 0, 13, 0, 0x110, 16, 0, &k), CK_OK);
    /* another warp that never synchronised with the wait still races */
    CK_EXPECT("wgmma: a warp not ordered after the wait still races",
              ck_access(s, 5, 0, 9, 0, 0x120, 4, CK_WRITE, &k), CK_SOURCE_REUSED);
    /* a generic write not ordered before the issue of the next mma_async */
    ck_op w2 = w;
    w2.val = 2;
    w2.agent = 3;
    uint32_t op2 = ck_op_new(s, &w2);
    CK_EXPECT("wgmma: issued over a generic write no barrier ordered before it",
              ck_op_read(s, op2, 0, 0x100, 0x40, &k), CK_COPY_OVER_ACCESS);
    ck_free(s);
}

/* lanes of one warp (agent 0), check/ directly */
static void lanes(void)
{
    ck_state *s = ck_new(1, 2, 4096);
    if (!s) {
        printf("FAIL lanes: ck_new\n");
        check_failures++;
        return;
    }
    ck_conflict k;
    CK_EXPECT("lanes: lane 3 writes", ck_access(s, 0, 3, 1, 0, 0x100, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("lanes: lane 3 reads its own write", ck_access(s, 0, 3, 2, 0, 0x100, 4, 0, &k), CK_OK);
    CK_EXPECT("lanes: lane 4 reads lane 3's write, no warp sync", ck_access(s, 0, 4, 2, 0, 0x100, 4, 0, &k),
              CK_LANE_RW);
    CK_EXPECT("... naming lane 3 and its site", (int)(k.other.lane * 100 + k.other.site), 301);
    ck_warp_sync(s, 0);
    CK_EXPECT("lanes: after bar.warp.sync, ordered", ck_access(s, 0, 4, 2, 0, 0x100, 4, 0, &k), CK_OK);
    CK_EXPECT("lanes: many lanes load the same bytes", ck_access(s, 0, 9, 2, 0, 0x100, 4, 0, &k), CK_OK);
    CK_EXPECT("lanes: lane 4 writes what lanes 4 and 9 read", ck_access(s, 0, 4, 3, 0, 0x100, 4, CK_WRITE, &k),
              CK_LANE_WR);
    CK_EXPECT("... naming lane 9", (int)k.other.lane, 9);
    CK_EXPECT("lanes: the same bytes rewritten (CK_SAME) are benign",
              ck_access(s, 0, 9, 3, 0, 0x100, 4, CK_WRITE | CK_SAME, &k), CK_OK);
    ck_warp_sync(s, 0);
    /* one st.shared, two lanes, one address, different values */
    CK_EXPECT("lanes: lane 0 stores", ck_access(s, 0, 0, 5, 0, 0x200, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("lanes: lane 1 stores another value there", ck_access(s, 0, 1, 5, 0, 0x200, 4, CK_WRITE, &k),
              CK_LANE_WW);
    /* sub-word: lanes write and read their own halves of one granule */
    CK_EXPECT("lanes: lane 0 writes bytes 0-1", ck_access(s, 0, 0, 6, 0, 0x300, 2, CK_WRITE, &k), CK_OK);
    CK_EXPECT("lanes: lane 1 writes bytes 2-3", ck_access(s, 0, 1, 6, 0, 0x302, 2, CK_WRITE, &k), CK_OK);
    CK_EXPECT("lanes: lane 0 reads its own bytes back", ck_access(s, 0, 0, 7, 0, 0x300, 2, 0, &k), CK_OK);
    CK_EXPECT("lanes: lane 1 reads its own bytes back", ck_access(s, 0, 1, 7, 0, 0x302, 2, 0, &k), CK_OK);
    CK_EXPECT("lanes: lane 0 rewrites its own bytes after both read", ck_access(s, 0, 0, 8, 0, 0x300, 2, CK_WRITE, &k),
              CK_OK);
    /* an acquire (bar.sync, mbarrier wait) orders the lanes too */
    CK_EXPECT("lanes: lane 5 writes", ck_access(s, 0, 5, 9, 0, 0x400, 4, CK_WRITE, &k), CK_OK);
    ck_acquire(s, 0, NULL);
    CK_EXPECT("lanes: lane 6 reads after an acquire", ck_access(s, 0, 6, 10, 0, 0x400, 4, 0, &k), CK_OK);
    /* atomics and ordered accesses do not race */
    CK_EXPECT("lanes: lane 7 writes", ck_access(s, 0, 7, 11, 0, 0x500, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("lanes: lane 8's atomic on it", ck_access(s, 0, 8, 12, 0, 0x500, 4, CK_WRITE | CK_SYNC, &k), CK_OK);
    /* another warp is still checked as before */
    CK_EXPECT("lanes: warp 1 reads warp 0's write: smem race", ck_access(s, 1, 7, 13, 0, 0x500, 4, 0, &k),
              CK_RACE_RW);
    ck_free(s);
}

/* partial membermasks and bulk-group waits by one lane, check/ directly */
static void partial_syncs(void)
{
    ck_state *s = ck_new(1, 2, 4096);
    if (!s) {
        printf("FAIL partial syncs: ck_new\n");
        check_failures++;
        return;
    }
    ck_conflict k;
    /* lanes 0-15 meet, lanes 16-31 do not */
    CK_EXPECT("partial: lane 3 writes", ck_access(s, 0, 3, 1, 0, 0x100, 4, CK_WRITE, &k), CK_OK);
    ck_warp_sync_mask(s, 0, 0x0000ffffu);
    CK_EXPECT("partial: lane 5, in the mask with lane 3, reads its write", ck_access(s, 0, 5, 2, 0, 0x100, 4, 0, &k),
              CK_OK);
    CK_EXPECT("partial: lane 20, outside the mask, reads it", ck_access(s, 0, 20, 2, 0, 0x100, 4, 0, &k), CK_LANE_RW);
    CK_EXPECT("... naming lane 3", (int)k.other.lane, 3);
    CK_EXPECT("partial: lane 21 writes it (lane 3's write not ordered before)",
              ck_access(s, 0, 21, 3, 0, 0x100, 4, CK_WRITE, &k), CK_LANE_WW);
    ck_warp_sync(s, 0);
    CK_EXPECT("partial: after a full sync lane 22 reads it", ck_access(s, 0, 22, 2, 0, 0x100, 4, 0, &k), CK_OK);
    CK_EXPECT("partial: lane 5 reads a word", ck_access(s, 0, 5, 2, 0, 0x180, 4, 0, &k), CK_OK);
    ck_warp_sync_mask(s, 0, 0x0000ffffu);
    CK_EXPECT("partial: lane 6 (in the mask) writes what lane 5 read", ck_access(s, 0, 6, 3, 0, 0x180, 4, CK_WRITE, &k),
              CK_OK);
    ck_warp_sync(s, 0);
    /* sub-word: lane 0's half of a granule, then (ordered after it) lane 1's
     * other half; lane 0 reads its own half back */
    CK_EXPECT("sub-word: lane 0 writes bytes 0-1", ck_access(s, 0, 0, 8, 0, 0x140, 2, CK_WRITE, &k), CK_OK);
    ck_warp_sync(s, 0);
    CK_EXPECT("sub-word: after a full sync lane 1 writes bytes 2-3", ck_access(s, 0, 1, 8, 0, 0x142, 2, CK_WRITE, &k),
              CK_OK);
    CK_EXPECT("sub-word: lane 0 reads its own bytes back (not lane 1's)", ck_access(s, 0, 0, 9, 0, 0x140, 2, 0, &k),
              CK_OK);
    CK_EXPECT("sub-word: lane 0 writes bytes 0-1 of another word", ck_access(s, 0, 0, 8, 0, 0x148, 2, CK_WRITE, &k),
              CK_OK);
    ck_warp_sync_mask(s, 0, 0x00000003u);
    CK_EXPECT("sub-word: after a sync of lanes 0-1 lane 1 writes bytes 2-3",
              ck_access(s, 0, 1, 8, 0, 0x14a, 2, CK_WRITE, &k), CK_OK);
    CK_EXPECT("sub-word: lane 0 reads its own bytes back", ck_access(s, 0, 0, 9, 0, 0x148, 2, 0, &k), CK_OK);
    ck_warp_sync(s, 0);
    CK_EXPECT("partial: lane 5 reads another word", ck_access(s, 0, 5, 2, 0, 0x1c0, 4, 0, &k), CK_OK);
    ck_warp_sync_mask(s, 0, 0x0000ffffu);
    CK_EXPECT("partial: lane 20 (outside the mask) writes what lane 5 read",
              ck_access(s, 0, 20, 3, 0, 0x1c0, 4, CK_WRITE, &k), CK_LANE_WR);
    CK_EXPECT("... naming lane 5", (int)k.other.lane, 5);
    ck_warp_sync(s, 0);
    /* a chain: lane 2 -> {0-3} -> lane 3 -> {3-7} -> lane 6 */
    CK_EXPECT("chain: lane 2 writes", ck_access(s, 0, 2, 4, 0, 0x200, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("chain: lane 2 writes another word", ck_access(s, 0, 2, 4, 0, 0x204, 4, CK_WRITE, &k), CK_OK);
    ck_warp_sync_mask(s, 0, 0x0000000fu);
    ck_warp_sync_mask(s, 0, 0x000000f8u);
    CK_EXPECT("chain: lane 6 reads, joined to lane 2 through lane 3", ck_access(s, 0, 6, 5, 0, 0x200, 4, 0, &k), CK_OK);
    CK_EXPECT("chain: lane 9, in neither mask, reads", ck_access(s, 0, 9, 5, 0, 0x204, 4, 0, &k), CK_LANE_RW);
    ck_warp_sync(s, 0);
    CK_EXPECT("chain the other way: lane 2 writes", ck_access(s, 0, 2, 4, 0, 0x300, 4, CK_WRITE, &k), CK_OK);
    ck_warp_sync_mask(s, 0, 0x000000f8u);
    ck_warp_sync_mask(s, 0, 0x0000000fu);
    CK_EXPECT("chain: syncs in the other order do not join lane 6 to lane 2's write",
              ck_access(s, 0, 6, 5, 0, 0x300, 4, 0, &k), CK_LANE_RW);
    CK_EXPECT("chain: lane 1 (second sync) reads it", ck_access(s, 0, 1, 5, 0, 0x300, 4, 0, &k), CK_OK);
    ck_warp_sync(s, 0);
    /* readers across partial syncs: lane 1 and lane 17 read, lane 18 writes */
    CK_EXPECT("readers: lane 1 reads", ck_access(s, 0, 1, 6, 0, 0x400, 4, 0, &k), CK_OK);
    ck_warp_sync_mask(s, 0, 0xffff0000u);
    CK_EXPECT("readers: lane 17 reads", ck_access(s, 0, 17, 6, 0, 0x400, 4, 0, &k), CK_OK);
    ck_warp_sync_mask(s, 0, 0xffff0000u);
    CK_EXPECT("readers: lane 18 writes; lane 1's read, before the other half's syncs, is not ordered",
              ck_access(s, 0, 18, 7, 0, 0x400, 4, CK_WRITE, &k), CK_LANE_WR);
    CK_EXPECT("... naming lane 1", (int)k.other.lane, 1);
    ck_warp_sync(s, 0);
    CK_EXPECT("readers: lane 4 reads", ck_access(s, 0, 4, 6, 0, 0x480, 4, 0, &k), CK_OK);
    ck_warp_sync_mask(s, 0, 0x00000030u);
    CK_EXPECT("readers: lane 5 writes after a sync with lane 4", ck_access(s, 0, 5, 7, 0, 0x480, 4, CK_WRITE, &k),
              CK_OK);
    ck_warp_sync(s, 0);

    /* an mbarrier wait by lane 0 (ck_lane_observe, then the warp-sync tick
     * the interpreter makes after a wait) reaches lane 5 through a partial
     * sync with lane 0, not lane 6 */
    ck_mbar *m = ck_mbar_at(s, 0, 0x10);
    ck_op ld = { .agent = 1, .site = 20, .id = 1, .what = "bulk copy", .cta = 0, .is_load = true,
                 .comp = m->comp, .val = 1, .issued_val = 1, .mbar_off = 0x10 };
    uint32_t lop = ck_op_new(s, &ld);
    CK_EXPECT("wait: the copy lands in 0x800..0x820", ck_op_write(s, lop, 0, 0x800, 32, &k), CK_OK);
    ck_lane_observe(s, 0, 0, m->comp, 1, 21);
    ck_warp_sync(s, 0);
    CK_EXPECT("wait: lane 0 reads the copy", ck_access(s, 0, 0, 22, 0, 0x800, 4, 0, &k), CK_OK);
    CK_EXPECT("wait: lane 5 reads it, not ordered after lane 0's wait", ck_access(s, 0, 5, 22, 0, 0x804, 4, 0, &k),
              CK_LANE_UNWAITED);
    ck_warp_sync_mask(s, 0, 0x00000021u);
    CK_EXPECT("wait: after a sync of lanes 0 and 5, lane 5 reads it", ck_access(s, 0, 5, 22, 0, 0x808, 4, 0, &k),
              CK_OK);
    CK_EXPECT("wait: lane 6 (not in that mask) reads it", ck_access(s, 0, 6, 22, 0, 0x80c, 4, 0, &k),
              CK_LANE_UNWAITED);
    ck_warp_sync(s, 0);
    CK_EXPECT("wait: after a full sync lane 6 reads it", ck_access(s, 0, 6, 22, 0, 0x810, 4, 0, &k), CK_OK);

    /* a bulk store issued by lane 0 of warp 0 reads 0xa00..0xa40 */
    uint32_t bc = ck_bulk_comp(s, 0, 0);
    ck_op st = { .agent = 0, .lane = 0, .site = 30, .id = 2, .what = "bulk store", .cta = 0, .comp = bc, .val = 1,
                 .issued_val = 1 };
    uint32_t sop = ck_op_new(s, &st);
    CK_EXPECT("store: its source is marked", ck_op_read(s, sop, 0, 0xa00, 64, &k), CK_OK);
    CK_EXPECT("store: lane 9 writes the source before any wait", ck_access(s, 0, 9, 31, 0, 0xa10, 4, CK_WRITE, &k),
              CK_SOURCE_REUSED);
    ck_bulk_observe(s, 0, 0, bc, 1, 32);     /* lane 0: wait_group.read 0 */
    CK_EXPECT("store: lane 0 writes it after its wait", ck_access(s, 0, 0, 33, 0, 0xa00, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("store: lane 7 writes it after lane 0's wait, no warp sync",
              ck_access(s, 0, 7, 33, 0, 0xa04, 4, CK_WRITE, &k), CK_LANE_SOURCE_REUSED);
    CK_EXPECT("... naming lane 0", (int)k.other.lane, 0);
    ck_bulk_observe(s, 0, 7, ck_bulk_comp(s, 0, 7), 0, 34);  /* lane 7's own wait_group: no groups */
    CK_EXPECT("store: lane 7's own wait_group does not cover lane 0's group",
              ck_access(s, 0, 7, 33, 0, 0xa08, 4, CK_WRITE, &k), CK_LANE_SOURCE_REUSED);
    ck_warp_sync_mask(s, 0, 0x00000081u);
    CK_EXPECT("store: after a sync of lanes 0 and 7, lane 7 writes it",
              ck_access(s, 0, 7, 33, 0, 0xa0c, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("store: lane 8 (not in that mask) writes it", ck_access(s, 0, 8, 33, 0, 0xa14, 4, CK_WRITE, &k),
              CK_LANE_SOURCE_REUSED);
    ck_warp_sync(s, 0);
    CK_EXPECT("store: after a full sync lane 8 writes it", ck_access(s, 0, 8, 33, 0, 0xa18, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("store: warp 1 (never ordered after the wait) writes it",
              ck_access(s, 1, 8, 33, 0, 0xa1c, 4, CK_WRITE, &k), CK_SOURCE_REUSED);

    /* two waits of lane 0 with only a partial sync between: the first
     * still does not reach lanes outside that sync */
    ck_op st2 = st, st3 = st;
    st2.val = st2.issued_val = 2;
    st3.val = st3.issued_val = 3;
    uint32_t sop2 = ck_op_new(s, &st2), sop3 = ck_op_new(s, &st3);
    CK_EXPECT("two waits: store 2 reads 0xb00..0xb40", ck_op_read(s, sop2, 0, 0xb00, 64, &k), CK_OK);
    CK_EXPECT("two waits: store 3 reads 0xc00..0xc40", ck_op_read(s, sop3, 0, 0xc00, 64, &k), CK_OK);
    ck_bulk_observe(s, 0, 0, bc, 2, 32);
    ck_warp_sync_mask(s, 0, 0x00000003u);
    ck_bulk_observe(s, 0, 0, bc, 3, 32);
    CK_EXPECT("two waits: lane 1, synced with lane 0 after its first wait, writes store 2's source",
              ck_access(s, 0, 1, 35, 0, 0xb00, 4, CK_WRITE, &k), CK_OK);
    CK_EXPECT("two waits: lane 5 writes store 2's source", ck_access(s, 0, 5, 35, 0, 0xb04, 4, CK_WRITE, &k),
              CK_LANE_SOURCE_REUSED);
    CK_EXPECT("two waits: lane 5 writes store 3's source", ck_access(s, 0, 5, 35, 0, 0xc04, 4, CK_WRITE, &k),
              CK_LANE_SOURCE_REUSED);
    ck_warp_sync(s, 0);

    /* a bulk store to global [0x10000, 0x10080) of lane 0, waited without
     * .read: another lane reading it back */
    uint32_t wc = ck_bulk_wcomp(s, 0, 0), gop, waiter;
    ck_op gs = st;
    gs.comp = wc;
    gs.val = gs.issued_val = 1;
    gs.cta = -1;
    ck_greg g = { .lo = 0x10000, .hi = 0x10080, .base = 0x10000, .rank = 1, .stride = { 1 }, .b1 = { 0x80 } };
    g.op = ck_op_new(s, &gs);
    ck_greg_add(s, &g);
    CK_EXPECT("global: lane 3 reads the store's bytes before any wait",
              ck_global(s, 0, 3, 0x10010, 4, &gop, &waiter), CK_GLOBAL_STORE);
    ck_bulk_observe(s, 0, 0, wc, 1, 36);
    CK_EXPECT("global: lane 0 reads them after its wait", ck_global(s, 0, 0, 0x10010, 4, &gop, &waiter), CK_OK);
    CK_EXPECT("global: lane 3 reads them after lane 0's wait, no warp sync",
              ck_global(s, 0, 3, 0x10014, 4, &gop, &waiter), CK_LANE_GLOBAL_STORE);
    CK_EXPECT("... naming lane 0 and the store", (int)(waiter * 1000 + (gop == g.op)), 1);
    ck_warp_sync(s, 0);
    CK_EXPECT("global: after a full sync lane 3 reads them", ck_global(s, 0, 3, 0x10018, 4, &gop, &waiter), CK_OK);
    CK_EXPECT("global: and the region is gone", ck_gactive(s), false);
    ck_free(s);
}

/* tensormap.cp_fenceproxy needs PTX ISA 8.3 */
#undef TH_HEADER
#define TH_HEADER ".version 8.3\n.target sm_90a\n.address_size 64\n"

#define K(name, params, regs, body) TH_HEADER ".visible .entry " name "(.param .u64 out" params ")\n{\n" \
    "  .reg .pred %p<8>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<20>;\n  .reg .b64 %st<8>;\n" regs \
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n" \
    "  add.s64 %rd3, %rd1, %rd2;\n" body "}\n"
#define BAR "  .shared .align 8 .b64 bar;\n"

/* complete_tx before the expect_tx: the phase waits with tx -16; the
 * expect_tx of 16 brings it to zero and completes it */
static const char *tx_zero = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.complete_tx.shared::cta.b64 [%r2], 16;\n"
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2];\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  selp.u32 %r3, 1, 0, %p1;\n"
"  st.global.u32 [%rd1], %r3;\n"
"  mbarrier.expect_tx.shared::cta.b64 [%r2], 16;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  selp.u32 %r3, 1, 0, %p1;\n"
"  st.global.u32 [%rd1+4], %r3;\n"
"  ret;\n");

/* a 64-byte bulk copy on a phase that announced 32: the phase completes
 * with the first 32; the other 32 count into phase 1 (tx -32), which the
 * next arrive.expect_tx of 32 completes at once.  With `rd` set, the
 * thread reads the tile after its wait: a race on the unfinished half. */
static const char *tx_short = K("k", ", .param .u32 rd", BAR "  .shared .align 128 .b8 buf[128];\n",
"  ld.param.u32 %r9, [rd];\n"
"  mov.u32 %r2, bar;\n"
"  mov.u32 %r4, buf;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 32;\n"
"  add.s64 %rd4, %rd1, 1024;\n"
"  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd4], 64, [%r2];\n"
"W0:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  @!%p1 bra W0;\n"
"  setp.ne.u32 %p2, %r9, 0;\n"
"  @%p2 ld.shared.u32 %r5, [%r4+48];\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r2], 1;\n"
"  selp.u32 %r3, 1, 0, %p1;\n"
"  st.global.u32 [%rd1], %r3;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 32;\n"
"  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r2], 1;\n"
"  selp.u32 %r3, 1, 0, %p1;\n"
"  st.global.u32 [%rd1+4], %r3;\n"
"  ret;\n");

/* 32 lanes execute one arrive on a barrier of count 4 */
static const char *arrive_over = K("k", "", BAR,
"  mov.u32 %r2, bar;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra S;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 4;\n"
"S:\n"
"  bar.sync 0;\n"
"  mbarrier.arrive.shared::cta.b64 %st1, [%r2];\n"
"  ret;\n");

/* one warp: each lane stores s[lane] (or, with `coll`, s[lane / 2] = lane
 * or, with coll = 2, = 7), then `mode` 1 puts bar.warp.sync before the
 * read of the neighbour's s[lane ^ 1], mode 2 a shfl.sync, mode 0 nothing */
static const char *lane_k = K("k", ", .param .u32 mode, .param .u32 coll", "  .shared .align 4 .b32 s[32];\n",
"  ld.param.u32 %r9, [mode];\n"
"  ld.param.u32 %r10, [coll];\n"
"  mov.u32 %r2, s;\n"
"  shl.b32 %r3, %r1, 2;\n"
"  setp.ne.u32 %p3, %r10, 0;\n"
"  @%p3 bra C;\n"
"  add.u32 %r4, %r2, %r3;\n"
"  st.shared.u32 [%r4], %r1;\n"
"  setp.eq.u32 %p1, %r9, 1;\n"
"  @%p1 bar.warp.sync -1;\n"
"  setp.eq.u32 %p2, %r9, 2;\n"
"  @%p2 shfl.sync.idx.b32 %r8, %r1, 0, 31, -1;\n"
"  xor.b32 %r5, %r3, 4;\n"
"  add.u32 %r6, %r2, %r5;\n"
"  ld.shared.u32 %r7, [%r6];\n"
"  st.global.u32 [%rd3], %r7;\n"
"  ret;\n"
"C:\n"
"  shr.u32 %r11, %r3, 1;\n"
"  and.b32 %r11, %r11, -4;\n"
"  add.u32 %r4, %r2, %r11;\n"
"  setp.eq.u32 %p4, %r10, 2;\n"
"  selp.u32 %r12, 7, %r1, %p4;\n"
"  st.shared.u32 [%r4], %r12;\n"
"  ret;\n");

/* lane 0 arms a barrier, issues a 128-byte bulk copy and alone waits for
 * it; `sync` puts a bar.warp.sync before every lane reads the buffer */
static const char *one_waits = K("k", ", .param .u32 sync", BAR "  .shared .align 128 .b8 buf[128];\n",
"  ld.param.u32 %r9, [sync];\n"
"  mov.u32 %r2, bar;\n"
"  mov.u32 %r4, buf;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra R;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n"
"  add.s64 %rd4, %rd1, 1024;\n"
"  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd4], 128, [%r2];\n"
"W0:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;\n"
"  @!%p2 bra W0;\n"
"R:\n"
"  setp.ne.u32 %p3, %r9, 0;\n"
"  @%p3 bar.warp.sync -1;\n"
"  shl.b32 %r5, %r1, 2;\n"
"  add.u32 %r6, %r4, %r5;\n"
"  ld.shared.u32 %r7, [%r6];\n"
"  st.global.u32 [%rd3], %r7;\n"
"  ret;\n");

/* lanes 0-15 store s[lane]; with `full` 0 they meet at bar.warp.sync
 * 0xffff, lanes 16-31 not; with `full` 1 every lane meets at bar.warp.sync
 * -1.  Then lanes 16-31 read s[lane - 16]. */
static const char *half_k = K("k", ", .param .u32 full", "  .shared .align 4 .b32 s[32];\n",
"  ld.param.u32 %r9, [full];\n"
"  setp.ne.u32 %p2, %r9, 0;\n"
"  mov.u32 %r2, s;\n"
"  shl.b32 %r3, %r1, 2;\n"
"  add.u32 %r4, %r2, %r3;\n"
"  setp.lt.u32 %p1, %r1, 16;\n"
"  @!%p1 bra A;\n"
"  st.shared.u32 [%r4], %r1;\n"
"  @!%p2 bar.warp.sync 0xffff;\n"
"A:\n"
"  @%p2 bar.warp.sync -1;\n"
"  @%p1 bra DONE;\n"
"  ld.shared.u32 %r5, [%r4+-64];\n"
"  st.global.u32 [%rd3], %r5;\n"
"DONE:\n"
"  ret;\n");

/* lanes 0-15 store s[lane] and meet at bar.warp.sync 0xffff; then lanes
 * 8-23 meet at bar.warp.sync 0xffff00; then lanes 16 .. 16+n-1 read
 * s[lane - 16]: lanes 16-23 are joined to the writers through lanes 8-15,
 * lanes 24-31 are not */
static const char *chain_k = K("k", ", .param .u32 n", "  .shared .align 4 .b32 s[32];\n",
"  ld.param.u32 %r9, [n];\n"
"  mov.u32 %r2, s;\n"
"  shl.b32 %r3, %r1, 2;\n"
"  add.u32 %r4, %r2, %r3;\n"
"  setp.lt.u32 %p1, %r1, 16;\n"
"  @!%p1 bra A;\n"
"  st.shared.u32 [%r4], %r1;\n"
"  bar.warp.sync 0xffff;\n"
"A:\n"
"  setp.ge.u32 %p2, %r1, 8;\n"
"  setp.lt.u32 %p3, %r1, 24;\n"
"  and.pred %p4, %p2, %p3;\n"
"  @!%p4 bra B;\n"
"  bar.warp.sync 0xffff00;\n"
"B:\n"
"  add.u32 %r6, %r9, 16;\n"
"  setp.lt.u32 %p5, %r1, %r6;\n"
"  setp.ge.u32 %p6, %r1, 16;\n"
"  and.pred %p7, %p5, %p6;\n"
"  @!%p7 bra DONE;\n"
"  ld.shared.u32 %r5, [%r4+-64];\n"
"  st.global.u32 [%rd3], %r5;\n"
"DONE:\n"
"  ret;\n");

/* a converged warp: every lane stores s[lane], then one bar.warp.sync whose
 * membermask is the lane's half (0x0000ffff or 0xffff0000), then each lane
 * reads s[lane ^ x] */
static const char *halves_k = K("k", ", .param .u32 x", "  .shared .align 4 .b32 s[32];\n",
"  ld.param.u32 %r9, [x];\n"
"  mov.u32 %r2, s;\n"
"  shl.b32 %r3, %r1, 2;\n"
"  add.u32 %r4, %r2, %r3;\n"
"  st.shared.u32 [%r4], %r1;\n"
"  setp.lt.u32 %p1, %r1, 16;\n"
"  selp.b32 %r6, 0xffff, 0xffff0000, %p1;\n"
"  bar.warp.sync %r6;\n"
"  xor.b32 %r7, %r1, %r9;\n"
"  shl.b32 %r7, %r7, 2;\n"
"  add.u32 %r8, %r2, %r7;\n"
"  ld.shared.u32 %r5, [%r8];\n"
"  st.global.u32 [%rd3], %r5;\n"
"  ret;\n");

/* every lane writes t[lane]; lane 0 bulk-stores t, commits and waits for
 * the read (alone, or with `allwait` every lane executes the wait); `sync`
 * puts a bar.warp.sync after the wait; then every lane rewrites t[lane] */
static const char *store_lane_k = K("k", ", .param .u32 sync, .param .u32 allwait", "  .shared .align 128 .b8 t[128];\n",
"  ld.param.u32 %r9, [sync];\n"
"  ld.param.u32 %r10, [allwait];\n"
"  setp.ne.u32 %p3, %r9, 0;\n"
"  setp.ne.u32 %p2, %r10, 0;\n"
"  mov.u32 %r2, t;\n"
"  shl.b32 %r3, %r1, 2;\n"
"  add.u32 %r4, %r2, %r3;\n"
"  st.shared.u32 [%r4], %r1;\n"
"  fence.proxy.async.shared::cta;\n"
"  bar.warp.sync -1;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra A;\n"
"  add.s64 %rd4, %rd1, 256;\n"
"  cp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r2], 128;\n"
"  cp.async.bulk.commit_group;\n"
"  @!%p2 cp.async.bulk.wait_group.read 0;\n"
"A:\n"
"  @%p2 cp.async.bulk.wait_group.read 0;\n"
"  @%p3 bar.warp.sync -1;\n"
"  add.u32 %r5, %r1, 100;\n"
"  st.shared.u32 [%r4], %r5;\n"
"  ret;\n");

/* lane 0 bulk-stores t (every lane wrote t[lane]) to out + 256 and waits
 * for the whole store (wait_group 0); `sync` puts a bar.warp.sync after
 * that; then lane l reads out[64 + (l ^ 1)] back into out[l] */
static const char *readback_k = K("k", ", .param .u32 sync", "  .shared .align 128 .b8 t[128];\n",
"  ld.param.u32 %r9, [sync];\n"
"  setp.ne.u32 %p2, %r9, 0;\n"
"  mov.u32 %r2, t;\n"
"  shl.b32 %r3, %r1, 2;\n"
"  add.u32 %r4, %r2, %r3;\n"
"  st.shared.u32 [%r4], %r1;\n"
"  fence.proxy.async.shared::cta;\n"
"  bar.warp.sync -1;\n"
"  add.s64 %rd4, %rd1, 256;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra A;\n"
"  cp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r2], 128;\n"
"  cp.async.bulk.commit_group;\n"
"  cp.async.bulk.wait_group 0;\n"
"A:\n"
"  @%p2 bar.warp.sync -1;\n"
"  xor.b32 %r6, %r3, 4;\n"
"  cvt.u64.u32 %rd5, %r6;\n"
"  add.s64 %rd6, %rd4, %rd5;\n"
"  ld.global.u32 %r5, [%rd6];\n"
"  st.global.u32 [%rd3], %r5;\n"
"  ret;\n");

/* warp 1 reads what warp 0 wrote; `sync` puts a bar.sync between them;
 * `same` makes warp 1 write the value warp 0 wrote (benign) instead */
static const char *plain = K("k", ", .param .u32 sync, .param .u32 same", "  .shared .align 4 .b32 s[64];\n",
"  ld.param.u32 %r9, [sync];\n"
"  ld.param.u32 %r10, [same];\n"
"  mov.u32 %r2, s;\n"
"  and.b32 %r3, %r1, 31;\n"
"  shl.b32 %r3, %r3, 2;\n"
"  add.s32 %r4, %r2, %r3;\n"
"  setp.ge.u32 %p1, %r1, 32;\n"
"  @%p1 bra W1;\n"
"  st.shared.u32 [%r4], 7;\n"
"W1:\n"
"  setp.ne.u32 %p2, %r9, 0;\n"
"  @%p2 bar.sync 0;\n"
"  @!%p1 bra DONE;\n"
"  setp.ne.u32 %p3, %r10, 0;\n"
"  @%p3 st.shared.u32 [%r4], 7;\n"
"  @!%p3 ld.shared.u32 %r5, [%r4];\n"
"DONE:\n"
"  ret;\n");

/* a bulk store of a tile the thread wrote: `fence` puts fence.proxy.async
 * between; `wait` waits for the store's read before the thread exits */
static const char *store = K("k", ", .param .u32 fence, .param .u32 wait", "  .shared .align 128 .b8 t[64];\n",
"  ld.param.u32 %r9, [fence];\n"
"  ld.param.u32 %r10, [wait];\n"
"  mov.u32 %r2, t;\n"
"  st.shared.v4.u32 [%r2], {%r1, %r1, %r1, %r1};\n"
"  setp.ne.u32 %p1, %r9, 0;\n"
"  @%p1 fence.proxy.async.shared::cta;\n"
"  add.s64 %rd4, %rd1, 256;\n"
"  cp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r2], 16;\n"
"  cp.async.bulk.commit_group;\n"
"  setp.ne.u32 %p2, %r10, 0;\n"
"  @%p2 cp.async.bulk.wait_group.read 0;\n"
"  ret;\n");

/* the copy completes on bar2, the thread waits on bar: a deadlock whose
 * report shows where the bytes went */
static const char *other_bar = K("k", "", BAR "  .shared .align 8 .b64 bar2;\n  .shared .align 128 .b8 buf[128];\n",
"  mov.u32 %r2, bar;\n"
"  mov.u32 %r3, bar2;\n"
"  mov.u32 %r4, buf;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.init.shared::cta.b64 [%r3], 1;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 64;\n"
"  add.s64 %rd4, %rd1, 1024;\n"
"  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd4], 64, [%r3];\n"
"W0:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;\n"
"  @!%p1 bra W0;\n"
"  ret;\n");

/* warp 0 waits at a named barrier for 64 threads; warp 1 never comes */
static const char *bar_dead = K("k", "", "",
"  setp.ge.u32 %p1, %r1, 32;\n"
"  @%p1 bra OUT;\n"
"  bar.sync 1, 64;\n"
"  st.global.u32 [%rd3], 1;\n"
"OUT:\n"
"  ret;\n");

/* warp 0 fills s[] with cp.async and arrives (cp.async.mbarrier.arrive
 * .noinc) on a barrier of 32; warp 1 waits on it (if `wait`) and reads */
static const char *cpasync = K("k", ", .param .u32 wait", BAR "  .shared .align 16 .b8 s[512];\n",
"  ld.param.u32 %r9, [wait];\n"
"  mov.u32 %r2, bar;\n"
"  mov.u32 %r4, s;\n"
"  setp.ne.u32 %p1, %r1, 0;\n"
"  @%p1 bra S;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 32;\n"
"S:\n"
"  bar.sync 0;\n"
"  and.b32 %r5, %r1, 31;\n"
"  shl.b32 %r5, %r5, 4;\n"
"  add.s32 %r6, %r4, %r5;\n"
"  setp.ge.u32 %p2, %r1, 32;\n"
"  @%p2 bra CONS;\n"
"  cvt.u64.u32 %rd5, %r5;\n"
"  add.s64 %rd6, %rd1, %rd5;\n"
"  cp.async.cg.shared.global [%r6], [%rd6], 16;\n"
"  cp.async.mbarrier.arrive.noinc.shared.b64 [%r2];\n"
"  bra DONE;\n"
"CONS:\n"
"  setp.eq.u32 %p3, %r9, 0;\n"
"  @%p3 bra READ;\n"
"W:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], 0;\n"
"  @!%p4 bra W;\n"
"READ:\n"
"  ld.shared.u32 %r7, [%r6];\n"
"DONE:\n"
"  ret;\n");

/* a 256-byte bulk copy of nonzero words, waited for; the last word is
 * stored to out[0] */
static const char *pieces = K("k", "", BAR "  .shared .align 128 .b8 buf[256];\n",
"  mov.u32 %r2, bar;\n"
"  mov.u32 %r4, buf;\n"
"  add.s64 %rd4, %rd1, 1024;\n"
"  mov.u32 %r3, 0;\n"
"FILL:\n"
"  cvt.u64.u32 %rd5, %r3;\n"
"  add.s64 %rd6, %rd4, %rd5;\n"
"  st.global.u32 [%rd6], %r3;\n"
"  add.u32 %r3, %r3, 4;\n"
"  setp.lt.u32 %p1, %r3, 256;\n"
"  @%p1 bra FILL;\n"
"  mbarrier.init.shared::cta.b64 [%r2], 1;\n"
"  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 256;\n"
"  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd4], 256, [%r2];\n"
"W:\n"
"  mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r2], 0;\n"
"  @!%p5 bra W;\n"
"  ld.shared.u32 %r6, [%r4+252];\n"
"  st.global.u32 [%rd1], %r6;\n"
"  ret;\n");

/* tensormap.cp_fenceproxy (.sync.aligned) by lane 0 alone, or by the
 * whole warp (`all`) */
static const char *cpfp = K("k", ", .param .u32 all", "  .shared .align 128 .b8 sm[128];\n",
"  ld.param.u32 %r9, [all];\n"
"  add.s64 %rd4, %rd1, 1024;\n"
"  setp.eq.u32 %p1, %r9, 0;\n"
"  setp.ne.u32 %p2, %r1, 0;\n"
"  and.pred %p3, %p1, %p2;\n"
"  @%p3 bra DONE;\n"
"  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd4], [sm], 128;\n"
"DONE:\n"
"  ret;\n");

static int run_nc(th_run *r, const char *src, uint32_t block, interp_policy pol, const uint64_t *extra,
                  int nextra, bool no_check)
{
    /* th_run_k without the checker: the same launch, no_check set */
    const ir_function *fn = th_prepare(r, src, "k", 1 << 16);
    if (!fn)
        return -1;
    if (!no_check)
        return th_launch(r, fn, 1, block, 1, 0, 1, pol, extra, nextra, 50000000);
    uint8_t params[256];
    memset(params, 0, sizeof params);
    for (uint32_t i = 0; i < fn->nparams && i < 16; i++) {
        const ir_symbol *s = &r->mod->syms[fn->params[i]];
        uint64_t v = i == 0 ? r->out : (int)i - 1 < nextra ? extra[i - 1] : 0;
        memcpy(params + s->param_offset, &v, s->size < 8 ? s->size : 8);
    }
    interp_launch l;
    memset(&l, 0, sizeof l);
    l.mod = r->mod;
    l.entry = fn;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = block; l.block[1] = 1; l.block[2] = 1;
    l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
    l.params = params;
    l.params_size = fn->param_bytes;
    l.gmem = r->g;
    l.policy = pol;
    l.no_check = true;
    return interp_run(&l, &r->res);
}

int main(void)
{
    th_run r;
    char n[160];
    static const interp_policy pols[3] = { INTERP_COMPLETE_DEFERRED, INTERP_COMPLETE_EAGER, INTERP_COMPLETE_RANDOM };
    static const char *const pn[3] = { "deferred", "eager", "random" };

    th_run_k(&r, tx_zero, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_OK("complete_tx before expect_tx runs", &r);
    CHECK_EQ_U64("tx -16 with every arrival made: the phase waits", th_u32(&r, 0), 0);
    CHECK_EQ_U64("the expect_tx that brings tx to zero completes it", th_u32(&r, 1), 1);
    th_free(&r);

    for (int p = 0; p < 3; p++) {
        uint64_t rd = 0;
        th_run_k(&r, tx_short, "k", 1, 1, 1, 0, 1, pols[p], &rd, 1);
        snprintf(n, sizeof n, "a copy bigger than expect_tx runs (%s)", pn[p]);
        CHECK_OK(n, &r);
        snprintf(n, sizeof n, "its last 32 bytes count into phase 1, still open (%s)", pn[p]);
        CHECK_EQ_U64(n, th_u32(&r, 0), 0);
        snprintf(n, sizeof n, "an expect_tx of those 32 completes phase 1 (%s)", pn[p]);
        CHECK_EQ_U64(n, th_u32(&r, 1), 1);
        th_free(&r);
        rd = 1;
        th_run_k(&r, tx_short, "k", 1, 1, 1, 0, 1, pols[p], &rd, 1);
        snprintf(n, sizeof n, "reading the unfinished half after the wait is a race (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "data race [copy-not-waited]: ld.shared.u32 reads 4 byte(s) at shared 0x4b0");
        snprintf(n, sizeof n, "... naming the expect_tx that announced too few bytes (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "its expect_tx announcing 32 bytes");
        CHECK_MSG("... at its line", &r, INTERP_FAULT,
                  "expect_tx: test.ptx:20: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 32;");
        th_free(&r);
    }

    th_run_k(&r, arrive_over, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("32 lanes arriving on a phase of 4 fault", &r, INTERP_FAULT, "more threads arrive");
    CHECK_MSG("... naming the lane that overflows the phase", &r, INTERP_FAULT, "warp 0 lane 4 ");
    CHECK_MSG("... at the arrive", &r, INTERP_FAULT, "test.ptx:21: mbarrier.arrive.shared::cta.b64 %st1, [%r2];");
    th_free(&r);

    for (int p = 0; p < 3; p++) {
        th_run_k(&r, other_bar, "k", 1, 1, 1, 0, 1, pols[p], NULL, 0);
        snprintf(n, sizeof n, "a copy to another barrier: the deadlock names the expect_tx (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_DEADLOCK, "expect_tx of 64 bytes at test.ptx:22: mbarrier.arrive.expect_tx");
        snprintf(n, sizeof n, "... and the barrier the bytes went to (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_DEADLOCK, "not waited on: mbarrier at shared 0x408 (CTA rank 0), count 1: in its "
                  "current phase (after 0 completion(s)) 0 arrival(s), 0 expect_tx byte(s) announced, 64 byte(s) landed");
        th_free(&r);
    }

    th_run_k(&r, bar_dead, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
    CHECK_MSG("a warp stuck at bar.sync is reported at the bar.sync itself", &r, INTERP_DEADLOCK,
              "bar.sync at test.ptx:16: bar.sync 1, 64;\n      barrier 1: 32 of 64 threads arrived");
    th_free(&r);

    uint64_t wt = 1;
    th_run_k(&r, cpasync, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, &wt, 1);
    CHECK_OK("cp.async data read after a wait on its cp.async.mbarrier.arrive: no race", &r);
    th_free(&r);
    wt = 0;
    th_run_k(&r, cpasync, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, &wt, 1);
    CHECK_MSG("... and without the wait, a race", &r, INTERP_FAULT, "data race [smem-race]: ");
    th_free(&r);

    /* --complete=random lands bulk copies in 16-byte pieces (sometimes):
     * one copy, several landing events */
    int pieced = 0, whole_ok = 1;
    for (int seed = 1; seed <= 20; seed++) {
        const ir_function *fn = th_prepare(&r, pieces, "k", 1 << 16);
        if (fn) {
            uint8_t params[8];
            memcpy(params, &r.out, 8);
            interp_launch l;
            memset(&l, 0, sizeof l);
            l.mod = r.mod;
            l.entry = fn;
            l.grid[0] = l.grid[1] = l.grid[2] = 1;
            l.block[0] = l.block[1] = l.block[2] = 1;
            l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
            l.params = params;
            l.params_size = fn->param_bytes;
            l.gmem = r.g;
            l.policy = INTERP_COMPLETE_RANDOM;
            l.seed = (uint64_t)seed;
            interp_ctx *ic = interp_new(&l);
            interp_event ev;
            int landings = 0, k;
            while ((k = interp_step(ic, &ev)) != INTERP_EV_DONE && k != INTERP_EV_ERROR)
                landings += k == INTERP_EV_LANDED;
            whole_ok &= k == INTERP_EV_DONE && th_u32(&r, 0) == 252;
            pieced += landings > 1;
            interp_free(ic);
        }
        th_free(&r);
    }
    CHECK("random:1..20: every run ends with the whole copy landed", whole_ok);
    CHECK("random:1..20: some runs land the copy in several pieces", pieced > 0);

    uint64_t al = 0;
    th_run_k(&r, cpfp, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, &al, 1);
    CHECK_MSG("tensormap.cp_fenceproxy .sync.aligned by one lane of a warp", &r, INTERP_FAULT,
              "[aligned-partial-warp]: tensormap.cp_fenceproxy.sync.aligned executed by lanes 0x00000001 of the "
              "warp while lanes 0xfffffffe");
    th_free(&r);
    al = 1;
    th_run_k(&r, cpfp, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, &al, 1);
    CHECK_OK("... by the whole warp: clean", &r);
    th_free(&r);

    uint64_t a[2];
    a[0] = 0; a[1] = 0;
    th_run_k(&r, plain, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, a, 2);
    CHECK_MSG("a read of another warp's write with no barrier is a race", &r, INTERP_FAULT,
              "data race [smem-race]: ld.shared.u32 reads shared 0x400 of CTA rank 0, which another warp wrote");
    CHECK_MSG("... naming the write", &r, INTERP_FAULT, "other side: CTA (0,0,0) warp 0 lane 0 at test.ptx:23:");
    th_free(&r);
    a[0] = 1;
    th_run_k(&r, plain, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, a, 2);
    CHECK_OK("bar.sync between them: no race", &r);
    th_free(&r);
    a[0] = 0; a[1] = 1;
    th_run_k(&r, plain, "k", 1, 64, 1, 0, 1, INTERP_COMPLETE_DEFERRED, a, 2);
    CHECK_OK("the same value written by two warps is benign", &r);
    th_free(&r);
    a[0] = 0; a[1] = 0;
    run_nc(&r, plain, 64, INTERP_COMPLETE_DEFERRED, a, 2, true);
    CHECK_OK("--check=none: the race is not looked for", &r);
    th_free(&r);

    uint64_t fw[2] = { 0, 1 };
    th_run_k(&r, store, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, fw, 2);
    CHECK_MSG("a bulk store of bytes written with no fence.proxy.async", &r, INTERP_FAULT,
              "data race [missing-proxy-fence]");
    th_free(&r);
    fw[0] = 1; fw[1] = 0;
    for (int p = 0; p < 3; p++) {
        th_run_k(&r, store, "k", 1, 1, 1, 0, 1, pols[p], fw, 2);
        snprintf(n, sizeof n, "exiting with the store's read not waited for (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "[store-pending-at-exit]");
        th_free(&r);
    }
    fw[0] = 1; fw[1] = 1;
    th_run_k(&r, store, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, fw, 2);
    CHECK_OK("fenced, and waited for: clean", &r);
    th_free(&r);
    wgmma_window();
    lanes();
    partial_syncs();

    uint64_t lm[2] = { 0, 0 };
    for (int p = 0; p < 3; p++) {
        lm[0] = 0;
        th_run_k(&r, lane_k, "k", 1, 32, 1, 0, 1, pols[p], lm, 2);
        snprintf(n, sizeof n, "a lane reads its neighbour's store with no __syncwarp (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "data race [intra-warp-race]: ld.shared.u32 reads shared 0x404 of CTA rank "
                  "0, which lane 1 of the same warp wrote");
        CHECK_MSG("... naming the store", &r, INTERP_FAULT, "other side: CTA (0,0,0) warp 0 lane 1 at test.ptx:22: "
                  "st.shared.u32 [%r4], %r1; wrote it");
        th_free(&r);
    }
    lm[0] = 1;
    th_run_k(&r, lane_k, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, lm, 2);
    CHECK_OK("bar.warp.sync between them: clean", &r);
    CHECK_EQ_U64("... lane 0 read lane 1's value", th_u32(&r, 0), 1);
    th_free(&r);
    lm[0] = 2;
    th_run_k(&r, lane_k, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, lm, 2);
    CHECK_MSG("a shfl.sync does not order memory (CUDA programming guide)", &r, INTERP_FAULT,
              "[intra-warp-race]");
    th_free(&r);
    lm[0] = 0;
    run_nc(&r, lane_k, 32, INTERP_COMPLETE_DEFERRED, lm, 2, true);
    CHECK_OK("--check=none: not looked for", &r);
    th_free(&r);
    lm[1] = 1;
    th_run_k(&r, lane_k, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, lm, 2);
    CHECK_MSG("two lanes of one st.shared store different values to one address", &r, INTERP_FAULT,
              "st.shared.u32 writes shared 0x400 of CTA rank 0, which lane 0 of the same warp wrote a different "
              "value to in the same instruction");
    th_free(&r);
    lm[1] = 2;
    th_run_k(&r, lane_k, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_DEFERRED, lm, 2);
    CHECK_OK("... the same value from every lane is benign", &r);
    th_free(&r);

    uint64_t sy = 0;
    th_run_k(&r, one_waits, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_EAGER, &sy, 1);
    CHECK_MSG("a copy only lane 0 waited for, read by lane 1 (eager: it landed)", &r, INTERP_FAULT,
              "data race [copy-not-waited]: ld.shared.u32 reads 4 byte(s) at shared 0x484 of CTA rank 0 that an "
              "asynchronous copy writes: lane 0 of this warp waited for the copy's mbarrier phase, this lane did not");
    CHECK_MSG("... naming the wait", &r, INTERP_FAULT, "the wait: test.ptx:26: mbarrier.try_wait.parity");
    th_free(&r);
    for (int p = 0; p < 3; p += 2) {
        th_run_k(&r, one_waits, "k", 1, 32, 1, 0, 1, pols[p], &sy, 1);
        snprintf(n, sizeof n, "... (%s: the other lanes read before it landed)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "data race [copy-not-waited]: ld.shared.u32 reads 4 byte(s) at shared 0x4");
        th_free(&r);
    }
    sy = 1;
    for (int p = 0; p < 3; p++) {
        th_run_k(&r, one_waits, "k", 1, 32, 1, 0, 1, pols[p], &sy, 1);
        snprintf(n, sizeof n, "bar.warp.sync after lane 0's wait: the lanes meet there, clean (%s)", pn[p]);
        CHECK_OK(n, &r);
        th_free(&r);
    }

    /* partial membermasks, in kernels, under each policy */
    for (int p = 0; p < 3; p++) {
        uint64_t v = 0;
        th_run_k(&r, half_k, "k", 1, 32, 1, 0, 1, pols[p], &v, 1);
        snprintf(n, sizeof n, "lanes 16-31 read what lanes 0-15 wrote before __syncwarp(0xffff) (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "data race [intra-warp-race]: ld.shared.u32 reads shared 0x400 of CTA rank "
                  "0, which lane 0 of the same warp wrote");
        CHECK_MSG("... naming the store", &r, INTERP_FAULT, "other side: CTA (0,0,0) warp 0 lane 0 at test.ptx:22: "
                  "st.shared.u32 [%r4], %r1; wrote it");
        th_free(&r);
        v = 1;
        th_run_k(&r, half_k, "k", 1, 32, 1, 0, 1, pols[p], &v, 1);
        snprintf(n, sizeof n, "... with a full __syncwarp: clean (%s)", pn[p]);
        CHECK_OK(n, &r);
        snprintf(n, sizeof n, "... lane 31 read lane 15's value (%s)", pn[p]);
        CHECK_EQ_U64(n, th_u32(&r, 31), 15);
        th_free(&r);
        v = 8;
        th_run_k(&r, chain_k, "k", 1, 32, 1, 0, 1, pols[p], &v, 1);
        snprintf(n, sizeof n, "lanes 16-23, joined to the writers by a second partial sync through lanes 8-15, "
                 "read: clean (%s)", pn[p]);
        CHECK_OK(n, &r);
        th_free(&r);
        v = 16;
        th_run_k(&r, chain_k, "k", 1, 32, 1, 0, 1, pols[p], &v, 1);
        snprintf(n, sizeof n, "... lanes 24-31, in neither mask, read: a race (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "data race [intra-warp-race]: ld.shared.u32 reads shared 0x420 of CTA rank "
                  "0, which lane 8 of the same warp wrote");
        th_free(&r);
        v = 1;
        th_run_k(&r, halves_k, "k", 1, 32, 1, 0, 1, pols[p], &v, 1);
        snprintf(n, sizeof n, "one bar.warp.sync, each half its own mask, lanes read within their half: clean (%s)",
                 pn[p]);
        CHECK_OK(n, &r);
        snprintf(n, sizeof n, "... lane 16 read lane 17's value (%s)", pn[p]);
        CHECK_EQ_U64(n, th_u32(&r, 16), 17);
        th_free(&r);
        v = 16;
        th_run_k(&r, halves_k, "k", 1, 32, 1, 0, 1, pols[p], &v, 1);
        snprintf(n, sizeof n, "... lanes read across the halves: a race (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "data race [intra-warp-race]: ld.shared.u32 reads shared 0x440 of CTA rank "
                  "0, which lane 16 of the same warp wrote");
        th_free(&r);
    }

    /* a bulk store's group belongs to lane 0: the other lanes, under each policy */
    for (int p = 0; p < 3; p++) {
        for (uint64_t allw = 0; allw < 2; allw++) {
            uint64_t sa[2] = { 0, allw };
            th_run_k(&r, store_lane_k, "k", 1, 32, 1, 0, 1, pols[p], sa, 2);
            snprintf(n, sizeof n, "lane 1 rewrites a bulk store's source after lane 0's wait_group.read%s, no "
                     "__syncwarp (%s)", allw ? " (executed by every lane)" : "", pn[p]);
            CHECK_MSG(n, &r, INTERP_FAULT, "data race [store-source-reused]: st.shared.u32 writes 4 byte(s) at "
                      "shared 0x404 of CTA rank 0 that an asynchronous store reads");
            th_free(&r);
            sa[0] = 1;
            th_run_k(&r, store_lane_k, "k", 1, 32, 1, 0, 1, pols[p], sa, 2);
            snprintf(n, sizeof n, "... with a __syncwarp after the wait: clean (%s%s)", pn[p], allw ? ", every lane waits" : "");
            CHECK_OK(n, &r);
            th_free(&r);
        }
        uint64_t sy = 0;
        th_run_k(&r, readback_k, "k", 1, 32, 1, 0, 1, pols[p], &sy, 1);
        snprintf(n, sizeof n, "lane 1 reads back global bytes of lane 0's bulk store after lane 0's wait_group, no "
                 "__syncwarp (%s)", pn[p]);
        CHECK_MSG(n, &r, INTERP_FAULT, "data race [global-store-race]: ld.global.u32 reads global ");
        th_free(&r);
        sy = 1;
        th_run_k(&r, readback_k, "k", 1, 32, 1, 0, 1, pols[p], &sy, 1);
        snprintf(n, sizeof n, "... with a __syncwarp after the wait: clean (%s)", pn[p]);
        CHECK_OK(n, &r);
        snprintf(n, sizeof n, "... lane 1 read lane 0's word (%s)", pn[p]);
        CHECK_EQ_U64(n, th_u32(&r, 1), 0);
        th_free(&r);
    }
    th_run_k(&r, store_lane_k, "k", 1, 32, 1, 0, 1, INTERP_COMPLETE_EAGER, (const uint64_t[2]){ 0, 0 }, 2);
    CHECK_MSG("the lane report names lane 0 and its wait (eager)", &r, INTERP_FAULT,
              "lane 0 of this warp, its issuing thread, passed the cp.async.bulk.wait_group.read covering it (bulk "
              "group 0), this lane did not");
    CHECK_MSG("... at its line", &r, INTERP_FAULT, "the wait: test.ptx:30: @!%p2 cp.async.bulk.wait_group.read 0;");
    th_free(&r);
    CHECK_DONE();
}
