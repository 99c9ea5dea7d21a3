/* check.h — the happens-before checker (public face of check/).
 *
 * ptxi's interpreter is sequentially consistent and lands asynchronous
 * copies when its completion policy says, so "the bytes were there when the
 * thread read them" proves nothing about the GPU.  This room decides
 * instead whether an access is *ordered* after what it depends on, as
 * ThreadSanitizer does, so a broken kernel is reported the same way under
 * every completion policy.
 *
 * Agents and clocks.  Every warp of a cluster is an agent (lanes of one
 * warp share its clock).  Each agent holds a vector clock over components:
 *   - one per agent (its own epoch, ticked at every release);
 *   - one per mbarrier: the number of its phases that the agent has seen
 *     complete (a successful test_wait/try_wait, or transitively through
 *     another synchronisation);
 *   - one per thread that issues bulk-group operations: how many of its
 *     bulk groups a cp.async.bulk.wait_group has proved complete.
 * A TMA load or bulk copy into shared memory is tagged with (the mbarrier's
 * component, the number of the phase completion that covers its bytes); a
 * TMA store or bulk store/reduce reading shared memory with (the issuing
 * thread's bulk component, its group + 1).  An access is ordered after the
 * copy iff the accessing agent's clock has reached that tag.
 *
 * Shadow state: one cell per 4-byte granule of every CTA's shared window,
 * holding the last writer and last reader (agent, lane, epoch, PTX site,
 * and which of the 4 bytes); an asynchronous operation is an agent of its
 * own kind (CK_ASYNC) whose "epoch" is its record index.
 *
 * Lanes of one warp.  Since Volta the lanes of a warp are scheduled
 * independently: only bar.warp.sync (__syncwarp), a CTA or cluster barrier,
 * an mbarrier wait or an acquiring access orders one lane's shared-memory
 * access before another lane's (the CUDA programming guide: shuffles and
 * votes do not order memory; the warp-collective .sync.aligned matrix
 * instructions are counted as ordering).  Each agent keeps a warp-sync
 * count n, ticked by every sync of its lanes, and `full`, n at the last
 * full one (ck_warp_sync, every ck_acquire); the interval of an access is
 * n at the access.  A cell remembers the interval of its last write and
 * of its reads and which lanes read since.  Partial syncs: bar.warp.sync
 * whose membermask leaves out live lanes (ck_warp_sync_mask) orders only
 * the lanes of the mask with each other.  Each lane l of the warp keeps,
 * once a partial sync occurs, a row K_l[x]: the last interval of lane x
 * ordered before l by partial syncs; a partial sync in interval i sets,
 * for every l of its mask, K_l = the join of its members' rows, with
 * K_l[x] = i for each member x (transitive: a chain of partial syncs
 * through other lanes orders too).  Lane x's access in interval i is
 * ordered before lane l's present iff x == l, or a full sync came after
 * it (i < full), or K_l[x] >= i.  So the check against the last writer
 * or the readers costs one compare (i >= full) when no partial sync
 * happened, the rows are read only where it would report, and kernels
 * without partial syncs never allocate them.  The readers of a cell since
 * the last full sync stay together while this lane is not ordered after
 * all of them, under the oldest one's interval (a later reader ordered
 * only after that interval may be missed: never a false report).  Two
 * lanes' accesses that are not ordered, one a write, to
 * the same bytes conflict (CK_LANE_*): a read after another lane's write,
 * a write after another lane's read, or two writes of different bytes,
 * which includes two lanes of one st.shared storing different values to
 * one address (compute-sanitizer's racecheck reports that as a
 * write-after-write hazard; stores of identical bytes are benign, as
 * between warps).  Loads never conflict with loads.  Where several lanes
 * wrote or read different bytes of one 4-byte granule in the interval,
 * the cell cannot tell the lanes apart and the lane check is skipped for it.
 * An mbarrier wait orders only the lanes that made it (ck_lane_observe):
 * an async copy's bytes read by another lane of the warp before the next
 * warp sync are CK_LANE_UNWAITED (the interpreter ticks a full warp sync
 * after a wait instruction, which orders plain accesses; for the copy's
 * bytes only a sync after that tick counts).  Bulk async-groups belong to the thread
 * that committed them, so a cp.async.bulk.wait_group orders the issuing
 * lane only (ck_bulk_observe): another lane of its warp writing the
 * store's shared source (CK_LANE_SOURCE_REUSED) or, after a wait without
 * .read, touching its global bytes (CK_LANE_GLOBAL_STORE) must be ordered
 * after that wait by a full sync or a chain of partial syncs with the
 * issuing lane, as above.  Such an observation stays per (warp,
 * component) from its interval until a full sync; a later observation
 * of the component before one joins it (its lanes added, the first
 * interval kept).
 *
 * Sync objects (named barriers, the cluster barrier, mbarriers) are vector
 * clocks owned by the state: ck_release joins an agent's clock into one and
 * ticks the agent; ck_acquire joins one into an agent's clock.
 *
 * The room knows nothing of the interpreter: sites are opaque 32-bit
 * numbers (interp/ packs function and instruction index), reports are
 * returned as ck_conflict values that interp/hooks.c turns into messages.
 * Nothing here allocates per access.
 */
#ifndef PTXI_CHECK_H
#define PTXI_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#define CK_ASYNC 0xffffu       /* agent id of an asynchronous operation */

typedef struct ck_state ck_state;

/* One side of a conflict. */
typedef struct ck_side {
    uint32_t agent;            /* warp agent, or CK_ASYNC */
    uint32_t lane;
    uint32_t site;             /* opaque instruction id */
    uint32_t op;               /* CK_ASYNC: op record index */
} ck_side;

enum {
    CK_OK = 0,
    CK_RACE_RW,                /* read of bytes another warp wrote, unordered */
    CK_RACE_WW,                /* write over another warp's unordered write */
    CK_RACE_WR,                /* write over another warp's unordered read */
    CK_COPY_UNWAITED,          /* access to an async copy's destination, not ordered after its completion */
    CK_SOURCE_REUSED,          /* write to a store's source before the wait_group.read covering it */
    CK_COPY_OVERLAP,           /* async write over bytes another async op writes/reads, unordered */
    CK_COPY_OVER_ACCESS,       /* async write over bytes a thread accessed, not ordered before the issue */
    CK_NO_PROXY_FENCE,         /* async read of generic writes without fence.proxy.async */
    CK_READ_BEFORE_COPY,       /* async write over bytes a thread read before anything wrote
                                  them: it read what this copy was to bring, without a wait */
    CK_GLOBAL_STORE,           /* global access to bytes an async store/reduce still writes */
    CK_LANE_RW,                /* read of bytes another lane of the same warp wrote, no warp sync between */
    CK_LANE_WW,                /* write over another lane's write (other bytes), no warp sync between */
    CK_LANE_WR,                /* write over bytes another lane of the same warp read, no warp sync between */
    CK_LANE_UNWAITED,          /* access by a lane to a copy's bytes that only other lanes of its warp waited
                                  for, with no warp sync after their wait (other.lane: a lane that waited) */
    CK_LANE_SOURCE_REUSED,     /* write to a store's source by a lane of the issuing warp that is not ordered
                                  after the issuing lane's wait_group.read (other.lane: the issuing lane) */
    CK_LANE_GLOBAL_STORE       /* ck_global: the same for a global access after the issuing lane's wait_group */
};

typedef struct ck_conflict {
    int kind;                  /* CK_* */
    uint32_t off;              /* first conflicting byte (shared offset) */
    ck_side other;
} ck_conflict;

/* Asynchronous operation record. */
typedef struct ck_op {
    uint32_t comp, val;        /* ordered iff clock[comp] >= val (comp 0: components ran
                                  out, always ordered) */
    uint32_t issued_val;       /* val as known at issue (a load landing in a later phase
                                  than the one it was issued in raises val) */
    uint32_t agent, lane, site;
    uint32_t epoch;            /* issuer's epoch at issue (released to the mbarrier at completion) */
    int id;                    /* interpreter's op id (#N in reports) */
    const char *what;          /* "TMA load", ... (a string literal) */
    int cta;                   /* destination (load) or source (store) CTA slot */
    uint32_t mbar_off;         /* load: its mbarrier */
    int mbar_cta;
    bool is_load;
    bool landed;
    bool wgmma;                /* a wgmma.mma_async reading its A/B tiles: comp is its warpgroup's
                                  (ck_wg_comp), val its sequence number + 1; no proxy-fence check
                                  at issue (interp/wgmma.c makes that one) */
} ck_op;

/* mbarrier record (one per initialised or used mbarrier). */
#define CK_MAX_TX 8
typedef struct ck_mbar {
    uint32_t comp;             /* clock component; 0 = none left */
    uint32_t completions;      /* phases completed since init */
    bool inited;
    uint32_t ninit;            /* mbarrier.init executed on it */
    uint32_t init_agent, init_lane, init_site, init_epoch, init_count;
    uint32_t init_fence_epoch; /* the init warp's epoch at its first fence.mbarrier_init (or
                                  barrier.cluster.arrive.release) after the init; 0 none */
    bool self_hit;             /* an arrive through a .shared::cluster address landed on the
                                  issuer's own CTA: the last one's site, lane, agent */
    uint32_t self_site, self_lane, self_agent;
    struct { uint32_t site, bytes; } hist[4]; /* completion k (k % 4, the last 4): its phase's
                                            first expect_tx and the bytes all of them announced */
    uint32_t ntx;              /* expect_tx of the current phase (first CK_MAX_TX kept) */
    struct { uint32_t site, bytes; } tx[CK_MAX_TX];
    uint32_t landed_bytes;     /* complete_tx bytes in the current phase */
    uint32_t arrivals;         /* arrivals in the current phase */
    uint32_t *pend, *done;     /* sync clocks (lazily allocated) */
    int cta;                   /* where it is */
    uint32_t off;
} ck_mbar;

/* A state for one cluster: ncta CTAs of nwarps warps, smem bytes each. */
ck_state *ck_new(int ncta, int nwarps, uint32_t smem);
void ck_free(ck_state *s);
/* Forget everything (next cluster of the same shape). */
void ck_reset(ck_state *s);

int ck_nagents(const ck_state *s);
uint32_t *ck_clock(ck_state *s, uint32_t agent);

/* Access by (agent, lane) at `site` to [off, off+n) of CTA `cta`'s shared
 * memory.  flags: CK_WRITE; CK_SYNC for an atomic or an access with
 * memory-ordering semantics (checked against asynchronous operations
 * only, not recorded); CK_SAME for a write of the bytes already there (a
 * benign write-write overlap, as racecheck treats it).  Returns CK_OK or a
 * conflict kind (filled in *out); a plain access is recorded either way. */
enum { CK_WRITE = 1, CK_SYNC = 2, CK_SAME = 4 };
int ck_access(ck_state *s, uint32_t agent, uint32_t lane, uint32_t site, int cta, uint32_t off, uint32_t n,
              unsigned flags, ck_conflict *out);

/* Synchronisation.  A sync clock is an array of ck_width() words from
 * ck_sync_new (owned by the state, freed with it). */
uint32_t ck_width(const ck_state *s);
uint32_t *ck_sync_new(ck_state *s);
void ck_release(ck_state *s, uint32_t agent, uint32_t *sync);
void ck_acquire(ck_state *s, uint32_t agent, const uint32_t *sync);
void ck_join(ck_state *s, uint32_t *dst, const uint32_t *src);
void ck_clear(ck_state *s, uint32_t *sync);
/* Named barrier `id` of CTA `cta` (pending arrivals); the cluster barrier;
 * the CTA's clock for atomics and .volatile/.acquire/.release accesses. */
uint32_t *ck_bar(ck_state *s, int cta, int id);
uint32_t *ck_cbar(ck_state *s, bool done);
uint32_t *ck_memsync(ck_state *s, int cta);
/* A point that orders the lanes of agent's warp (bar.warp.sync, a
 * .sync.aligned warp-collective instruction); ck_acquire is one too. */
void ck_warp_sync(ck_state *s, uint32_t agent);
/* bar.warp.sync with a membermask that leaves out live lanes of the warp:
 * it orders the lanes of `mask` with each other only (the first one
 * allocates the lane table; without memory it counts as ck_warp_sync). */
void ck_warp_sync_mask(ck_state *s, uint32_t agent, uint32_t mask);
/* A direct observation by (agent, lane) of mbarrier component comp
 * reaching v (a successful test_wait/try_wait), made before the warp's
 * lanes are synchronised: it orders this lane only.  The caller ticks the
 * warp-sync count once after the instruction (ck_warp_sync), so plain
 * accesses between lanes stay ordered by the wait; a copy's bytes read by
 * a lane that did not wait, before any later warp sync, are
 * CK_LANE_UNWAITED.  `site` is the wait's. */
void ck_lane_observe(ck_state *s, uint32_t agent, uint32_t lane, uint32_t comp, uint32_t v, uint32_t site);
/* The same for a thread's cp.async.bulk.wait_group: (agent, lane)'s own
 * bulk component comp reached v.  No warp sync follows: a store's source
 * written, or its global bytes accessed, by another lane of the warp
 * before a warp sync after this wait are CK_LANE_SOURCE_REUSED and
 * CK_LANE_GLOBAL_STORE. */
void ck_bulk_observe(ck_state *s, uint32_t agent, uint32_t lane, uint32_t comp, uint32_t v, uint32_t site);
/* The site of the last lane observation recorded on comp by agent. */
uint32_t ck_lane_obs_site(ck_state *s, uint32_t agent, uint32_t comp);
/* Does agent's clock dominate `sync` (every component)? */
bool ck_covers(ck_state *s, uint32_t agent, const uint32_t *sync);
/* Raise one component of agent's clock to at least v. */
void ck_observe(ck_state *s, uint32_t agent, uint32_t comp, uint32_t v);
/* What agent last observed of component comp by a wait of its own (not
 * through another agent), which lanes observed it and at which site;
 * ck_seen_set records an observation by `lanes` (added to them if v and
 * the site are the same). */
uint32_t ck_seen(ck_state *s, uint32_t agent, uint32_t comp, uint32_t *lanes, uint32_t *site);
void ck_seen_set(ck_state *s, uint32_t agent, uint32_t comp, uint32_t v, uint32_t lanes, uint32_t site);
/* Is (agent2, epoch) ordered before agent's present? */
bool ck_before(ck_state *s, uint32_t agent, uint32_t agent2, uint32_t epoch);
uint32_t ck_epoch(ck_state *s, uint32_t agent);

/* mbarriers, bulk components, proxy fences. */
ck_mbar *ck_mbar_at(ck_state *s, int cta, uint32_t off);     /* created on first use */
ck_mbar *ck_mbar_nth(ck_state *s, uint32_t i);               /* i-th record, NULL past the last */
uint32_t ck_bulk_comp(ck_state *s, uint32_t agent, uint32_t lane); /* created on first use; 0 = none */
uint32_t ck_bulk_need(ck_state *s, uint32_t agent, uint32_t lane, uint32_t *op);
void ck_set_bulk_need(ck_state *s, uint32_t agent, uint32_t lane, uint32_t need, uint32_t op);
void ck_proxy_fence(ck_state *s, uint32_t agent);
/* Remote-use bookkeeping: agent touched CTA cta's shared memory from another CTA. */
void ck_note_remote(ck_state *s, uint32_t agent, uint32_t lane, uint32_t site, int cta);
/* The remote users of cta not ordered before `clock`: first one found (its
 * last use: lane and site), or -1. */
int ck_remote_unordered(ck_state *s, const uint32_t *clock, int cta, uint32_t *lane, uint32_t *site);

/* Async operations: a record, then the shared ranges it writes or reads.
 * ck_op_write / ck_op_read check the range against earlier accesses (as if
 * the issuing agent made them at issue) and mark it; they return CK_OK or
 * the first conflict. */
uint32_t ck_op_new(ck_state *s, const ck_op *init);
ck_op *ck_op_get(ck_state *s, uint32_t i);
int ck_op_write(ck_state *s, uint32_t op, int cta, uint32_t off, uint32_t n, ck_conflict *out);
int ck_op_read(ck_state *s, uint32_t op, int cta, uint32_t off, uint32_t n, ck_conflict *out);
/* Is op i ordered before agent's present? */
bool ck_op_ordered(ck_state *s, uint32_t agent, uint32_t i);

/* Global memory an asynchronous store or reduction writes: a box of a
 * tensor (rank 1 with stride[0] 1 for a bulk copy), element d-index in
 * [b0[d], b1[d]), byte address base + sum(index[d] * stride[d]).  Its op
 * record's tag is the issuing thread's bulk write component: ordered after
 * a cp.async.bulk.wait_group without .read that covers it. */
typedef struct ck_greg {
    uint64_t lo, hi;           /* bounding byte range */
    uint64_t base;
    int rank;
    uint64_t stride[5];
    int64_t b0[5], b1[5];
    uint32_t op;
} ck_greg;
void ck_greg_add(ck_state *s, const ck_greg *g);
/* any region live? (the global access path's test) */
bool ck_gactive(const ck_state *s);
/* A global access by (agent, lane) to [a, a+n): the op of a live region
 * it touches and is not ordered after (CK_OK if none): CK_GLOBAL_STORE, or
 * CK_LANE_GLOBAL_STORE where only the issuing lane of this warp waited for
 * it (*waiter: that lane) and nothing since orders this lane; regions whose
 * issuing thread has waited for them, with a full warp sync after that
 * wait, are dropped. */
int ck_global(ck_state *s, uint32_t agent, uint32_t lane, uint64_t a, uint32_t n, uint32_t *op, uint32_t *waiter);
/* Tensor maps written in global memory during the run (tensormap.replace
 * on a global map, tensormap.cp_fenceproxy): a TMA that uses one must be
 * preceded, in its own warp, by fence.proxy.tensormap::generic.acquire on
 * it, after (in happens-before) the write.  ck_tmap_use returns true when
 * that acquire is missing, with the write's side in *w. */
void ck_tmap_write(ck_state *s, uint64_t addr, uint32_t agent, uint32_t lane, uint32_t site);
void ck_tmap_acquire(ck_state *s, uint64_t addr, uint32_t agent);
bool ck_tmap_use(ck_state *s, uint64_t addr, uint32_t agent, ck_side *w);
/* The component of CTA cta's warpgroup wg: how many of its wgmma.mma_async
 * a wgmma.wait_group has proved complete (0 = none left). */
uint32_t ck_wg_comp(ck_state *s, int cta, int wg);
/* the bulk write component of (agent, lane) (0 = none left) */
uint32_t ck_bulk_wcomp(ck_state *s, uint32_t agent, uint32_t lane);

#endif
