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

#include <stddef.h>
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
    bool cpasync;              /* an sm_80 cp.async (is_load too): comp is its warp's cp.async
                                  component (ck_cpa_comp), val its commit group + 1 */
    bool wgmma;                /* a wgmma.mma_async reading its A/B tiles: comp is its warpgroup's
                                  (ck_wg_comp), val its sequence number + 1; its reads need the
                                  same proxy fence as a TMA store's */
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
    uint32_t thread_tx;        /* of those, by mbarrier.complete_tx instructions (not copies) */
    uint32_t announced;        /* expect_tx bytes of the current phase, all of them */
    uint32_t arrivals;         /* arrivals in the current phase */
    uint32_t *pend, *done;     /* sync clocks (lazily allocated) */
    bool invalidated;          /* mbarrier.inval since its last init: by whom */
    uint32_t inval_agent, inval_lane, inval_site;
    bool last_any;             /* the last thread to arrive or expect_tx on it (any phase) */
    uint32_t last_agent, last_lane, last_site;
    int cta;                   /* where it is */
    uint32_t off;
} ck_mbar;

/* A state for one cluster: ncta CTAs of nwarps warps, smem bytes each. */
ck_state *ck_new(int ncta, int nwarps, uint32_t smem);
void ck_free(ck_state *s);
/* Forget everything (next cluster of the same shape). */
void ck_reset(ck_state *s);
/* on: every access takes the general path, not the fast ones that decide
 * the common cases (for tests, which check that both agree). */
void ck_set_general(ck_state *s, bool on);

int ck_nagents(const ck_state *s);
uint32_t *ck_clock(ck_state *s, uint32_t agent);

/* Access by (agent, lane) at `site` to [off, off+n) of CTA `cta`'s shared
 * memory.  flags: CK_WRITE; CK_SYNC for an atomic or an access with
 * memory-ordering semantics (checked against asynchronous operations
 * only, not recorded); CK_SAME for a write of the bytes already there (a
 * benign write-write overlap, as racecheck treats it).  Returns CK_OK or a
 * conflict kind (filled in *out); a plain access is recorded either way.
 * ck_access (below, inline) decides the common case itself and calls
 * ck_access_any, the general check, for everything else. */
enum { CK_WRITE = 1, CK_SYNC = 2, CK_SAME = 4 };
int ck_access_any(ck_state *s, uint32_t agent, uint32_t lane, uint32_t site, int cta, uint32_t off, uint32_t n,
                  unsigned flags, ck_conflict *out);

/* ---- the shadow cell and the inline access path ----------------------------
 * One cell per 4-byte granule of each CTA's shared memory. */
typedef struct ck_cell {
    /* the last writer: epoch (0 = none; CK_ASYNC: op index + 1), site,
     * agent, lane, bytes of the granule */
    uint32_t wep, wsite;
    uint16_t wag;
    uint8_t wlane, wmask;
    /* the last reader, the same (rmask bits 4..7: the reader read those
     * bytes before anything had written them); kept together, 12 bytes,
     * so that a bulk read records itself with one copy (check.c op_range) */
    uint32_t rep, rsite;
    uint16_t rag;
    uint8_t rlane, rmask;
    uint8_t init;              /* bytes ever written */
    uint8_t lflags;            /* CK_WAMBIG, CK_RAMBIG: the lane check is off for this cell */
    uint32_t wws, rws;         /* the agent's warp-sync interval at the write / the reads */
    uint32_t rlanes;           /* lanes of the reading agent that read in interval rws */
} ck_cell;
enum { CK_WAMBIG = 1, CK_RAMBIG = 2 };

/* An agent's warp-sync intervals (ck_warp_sync, ck_warp_sync_mask). */
typedef struct ck_wsync {
    uint32_t n;                /* syncs of the agent's lanes so far, full or partial: an access's
                                  interval number is n at the access */
    uint32_t full;             /* n at the last full sync (every lane ordered) */
} ck_wsync;

/* The state's first member: what the inline path reads. */
typedef struct ck_hot {
    ck_cell *shadow;           /* per CTA, ngran cells */
    uint32_t *clocks;          /* per agent, a row of `width` words: its vector clock */
    ck_wsync *wsync;           /* per agent */
    uint32_t width, ngran, smem;
    bool general;              /* ck_set_general */
} ck_hot;

/* A warp instruction's accesses to its own CTA's shared memory: what
 * ck_lane needs of the agent, looked up once for all its lanes
 * (ck_warp_begin).  Valid while the agent's clock and warp-sync count
 * stay as they are: no release, acquire, warp sync or CK_SYNC access by
 * the agent in between (a plain access changes neither). */
typedef struct ck_warp {
    ck_state *s;
    ck_cell *cells;            /* the CTA's shadow */
    const uint32_t *r;         /* the agent's clock row */
    uint32_t agent, site, ep;
    uint32_t ws, wf;           /* the agent's interval now and at its last full sync */
    int cta;
    uint32_t smem;             /* 0 under ck_set_general: every access to ck_access_any */
    uint32_t async_ok;         /* an async writer's epoch found ordered (ck_warp_async_ok), 0 none */
} ck_warp;

static inline void ck_warp_begin(ck_state *s, uint32_t agent, uint32_t site, int cta, ck_warp *x)
{
    const ck_hot *h = (const ck_hot *)s;
    x->s = s;
    x->cells = h->shadow + (size_t)cta * h->ngran;
    x->r = h->clocks + (size_t)agent * h->width;
    x->agent = agent, x->site = site, x->ep = x->r[agent];
    x->ws = h->wsync[agent].n, x->wf = h->wsync[agent].full;
    x->cta = cta;
    x->smem = h->general ? 0 : h->smem;
    x->async_ok = 0;
}

/* Is the asynchronous write of op record wep - 1 ordered before every
 * lane of x's agent (ordered at warp level, and no lane of it ordered
 * only through another lane's wait, ck_lane_observe)?  check.c; false
 * leaves the cell to ck_access_any. */
bool ck_async_ordered(ck_state *s, uint32_t agent, uint32_t op);

static inline bool ck_warp_async_ok(ck_warp *x, uint32_t wep)
{
    if (wep == x->async_ok)
        return true;
    if (!ck_async_ordered(x->s, x->agent, wep - 1))
        return false;
    x->async_ok = wep;          /* the cells of one copy come in runs */
    return true;
}

/* Can ck_lane record a plain access to cell c without ck_access_any: its
 * last write is ordered before the agent (by one clock comparison, or an
 * asynchronous copy ordered before every lane) or is the agent's own and
 * no lane check applies to it (the same lane, a full warp sync since, or
 * the check off for the cell); for a write, the same of its last read
 * (not an asynchronous one).  Where a partial warp sync
 * (ck_warp_sync_mask) came after the agent's own access, ck_access_any
 * decides.  Nothing is changed. */
static inline __attribute__((always_inline)) bool ck_cell_plain(ck_warp *x, const ck_cell *c, uint8_t mask,
                                                               uint32_t lane, bool write)
{
    const uint32_t *r = x->r, agent = x->agent, ws = x->ws, wf = x->wf;
    if (c->wmask & mask) {
        if (c->wag != agent) {
            if (c->wag == CK_ASYNC) {
                if (c->wep && !ck_warp_async_ok(x, c->wep))
                    return false;
            } else if (r[c->wag] < c->wep) {
                return false;
            }
        } else if (c->wws >= wf && c->wlane != lane && !(c->lflags & CK_WAMBIG)) {
            return false;
        }
    }
    if (write) {
        if ((c->rmask & mask) && c->rep) {
            if (c->rag != agent) {
                if (c->rag == CK_ASYNC || r[c->rag] < c->rep)
                    return false;
            } else if (c->rws >= wf && (c->rlanes & ~(1u << lane)) && !(c->lflags & CK_RAMBIG)) {
                return false;
            }
        }
        /* the lane-ambiguity rule below, where it would ask which lanes
         * partial syncs joined */
        if (c->wep && c->wag == agent && c->wlane != lane && (c->wmask & ~mask & 0xf) && c->wep != x->ep &&
            c->wws >= wf && c->wws != ws)
            return false;
    } else if (c->rag == CK_ASYNC && c->rep) {
        return false;            /* an async reader stays until it is ordered: ck_access_any decides */
    } else if (c->rag == agent && c->rep && c->rws >= wf && c->rws != ws) {
        return false;
    }
    return true;
}

/* What ck_access_any records of a plain access to cell c that
 * ck_cell_plain accepted (so an interval of the agent at or after its
 * last full sync is the current one). */
static inline __attribute__((always_inline)) void ck_cell_record(const ck_warp *x, ck_cell *c, uint8_t mask,
                                                                uint32_t lane, bool write)
{
    const uint32_t agent = x->agent, ws = x->ws, wf = x->wf, ep = x->ep, lbit = 1u << lane;
    if (write) {
        c->init |= mask;
        if (c->wep && c->wag == agent && c->wlane != lane && (c->wmask & ~mask & 0xf) &&
            (c->wep == ep || c->wws >= wf)) {
            /* the granule keeps bytes another lane wrote: two unordered
             * lanes' bytes, or (same epoch) bytes the merged record below
             * would put under this lane's name */
            c->lflags |= CK_WAMBIG;
        } else if (!(c->wep && c->wag == agent && c->wws >= wf)) {
            c->lflags &= (uint8_t)~CK_WAMBIG;
        }
        if (c->wep == ep && c->wag == agent)
            mask |= c->wmask;            /* same agent, same epoch: one access */
        c->wag = (uint16_t)agent, c->wlane = (uint8_t)lane, c->wsite = x->site, c->wep = ep, c->wmask = mask;
        c->wws = ws;
        return;
    }
    const uint8_t rmask = (uint8_t)(mask | (mask & ~c->init) << 4);
    if (c->rag == agent && c->rep) {
        if (c->rws >= wf) {
            if ((c->rlanes & ~lbit) && (c->rmask & 0xf) != mask)
                c->lflags |= CK_RAMBIG;  /* lanes read different bytes of the granule */
            c->rlanes |= lbit;
        } else {
            c->rws = ws, c->rlanes = lbit;
            c->lflags &= (uint8_t)~CK_RAMBIG;
        }
        if (c->rep == ep) {
            c->rmask |= rmask;
            return;
        }
    } else {
        c->rws = ws, c->rlanes = lbit;
        c->lflags &= (uint8_t)~CK_RAMBIG;
    }
    c->rag = (uint16_t)agent, c->rlane = (uint8_t)lane, c->rsite = x->site, c->rep = ep, c->rmask = rmask;
}

/* ck_access for lane `lane` of x's warp instruction (x's CTA).  The common
 * access is decided here without ck_access_any's generality: a plain load
 * or store (no CK_SYNC, no CK_SAME) of one granule or part of one, or of
 * 2 to 4 whole granules (v2/v4), each cell accepted by ck_cell_plain.
 * Anything else (a conflict included) goes to ck_access_any before
 * anything is changed here, and that decides and records from scratch;
 * what is recorded here is what ck_access_any records (the cells are
 * independent of each other, and tests/unit/test_check.c runs random
 * histories through both and compares verdicts and cells). */
static inline __attribute__((always_inline)) int ck_lane(ck_warp *x, uint32_t lane, uint32_t off, uint32_t n,
                                                          unsigned flags, ck_conflict *out)
{
    if ((flags & ~(unsigned)CK_WRITE) || off + n > x->smem || !n)
        goto any;
    const bool write = flags & CK_WRITE;
    ck_cell *c = x->cells + off / 4;
    if ((off & 3) + n <= 4) {
        const uint8_t mask = (uint8_t)((0xfu >> (4 - n)) << (off & 3));
        if (!ck_cell_plain(x, c, mask, lane, write))
            goto any;
        ck_cell_record(x, c, mask, lane, write);
        return CK_OK;
    }
    if ((off & 3) || (n & 3) || n > 16)
        goto any;
    for (uint32_t i = 0; i < n / 4; i++)
        if (!ck_cell_plain(x, c + i, 0xf, lane, write))
            goto any;
    for (uint32_t i = 0; i < n / 4; i++)
        ck_cell_record(x, c + i, 0xf, lane, write);
    return CK_OK;
any:
    return ck_access_any(x->s, x->agent, lane, x->site, x->cta, off, n, flags, out);
}

/* One access, on its own. */
static inline int ck_access(ck_state *s, uint32_t agent, uint32_t lane, uint32_t site, int cta, uint32_t off,
                            uint32_t n, unsigned flags, ck_conflict *out)
{
    ck_warp x;
    ck_warp_begin(s, agent, site, cta, &x);
    return ck_lane(&x, lane, off, n, flags, out);
}

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
 * the site are the same); `parity`: the wait named its phase by parity
 * (try_wait.parity / test_wait.parity), so it is overrun if a later
 * completion can come before it (ck_overrun). */
uint32_t ck_seen(ck_state *s, uint32_t agent, uint32_t comp, uint32_t *lanes, uint32_t *site);
void ck_seen_set(ck_state *s, uint32_t agent, uint32_t comp, uint32_t v, uint32_t lanes, uint32_t site,
                 bool parity);
/* Completion n + 1 of mbarrier component comp is about to happen, with
 * `pend` the clock of its arrivals: an agent whose parity wait observed
 * completion n (its latest) and is not ordered before those arrivals, so
 * that on the GPU the next phase may complete before that wait runs and the
 * wait then finds its parity pending again (a hang, or a phase too late).
 * Returns the agent (its lanes and wait site in *lanes, *site) or -1. */
int ck_overrun(ck_state *s, uint32_t comp, uint32_t n, const uint32_t *pend, uint32_t *lanes, uint32_t *site);
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
/* fence.proxy.async.global (or with no state space): agent's generic
 * global writes so far are visible to the async proxy (ck_gread_async) */
void ck_proxy_fence_global(ck_state *s, uint32_t agent);
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
    bool red;                  /* a reduction (reductions of one region do not race each other) */
    int src_cta;               /* the shared bytes it stores (src_len 0: none, a load's region) */
    uint32_t src_off, src_len;
} ck_greg;
void ck_greg_add(ck_state *s, const ck_greg *g);
/* Every lane of agent's warp has exited (regions need not wait for it). */
void ck_agent_gone(ck_state *s, uint32_t agent);
/* any region live? (the global access path's test) */
bool ck_gactive(const ck_state *s);
/* A global access by (agent, lane) to [a, a+n): the op of a live region
 * it touches and is not ordered after (CK_OK if none): CK_GLOBAL_STORE, or
 * CK_LANE_GLOBAL_STORE where only the issuing lane of this warp waited for
 * it (*waiter: that lane) and nothing since orders this lane; regions that
 * every running warp is ordered after (the issuing thread's wait with a
 * full warp sync after it, and every other warp synchronised since) are
 * dropped. */
int ck_global(ck_state *s, uint32_t agent, uint32_t lane, uint64_t a, uint32_t n, uint32_t *op, uint32_t *waiter);
/* The same for an asynchronous access to global memory (a TMA load or bulk
 * copy issued by agent reading region r, or a store or reduction writing
 * it; r.op unused): any byte of r that a live region writes, unordered
 * (reductions against reductions excepted, and a store of the same shared
 * bytes to the same box: the same data stored twice, as when several lanes
 * issue one store): CK_GLOBAL_STORE and that region's op. */
int ck_global_box(ck_state *s, uint32_t agent, const ck_greg *r, uint32_t *op);
/* An asynchronous read of global region g (a TMA load or bulk copy issued
 * by `issuer`) over bytes a generic store wrote (as far as ck_gwrite's
 * table remembers): CK_RACE_RW when that store is not ordered before the
 * issue, CK_NO_PROXY_FENCE when no global proxy fence lies on the path
 * from it to the issue; *w the store.  CK_OK otherwise. */
int ck_gread_async(ck_state *s, uint32_t issuer, const ck_greg *g, ck_side *w);
/* Tensor maps written in global memory during the run (tensormap.replace
 * on a global map, tensormap.cp_fenceproxy): a TMA that uses one must be
 * preceded, in its own warp, by fence.proxy.tensormap::generic.acquire on
 * it, after (in happens-before) the write.  ck_tmap_use returns true when
 * that acquire is missing, with the write's side in *w. */
void ck_tmap_write(ck_state *s, uint64_t addr, uint32_t agent, uint32_t lane, uint32_t site);
/* A generic store to global [a, a+n) (kernels with TMA or bulk copies): the
 * last writer of each 64-byte line is kept in a small direct-mapped table
 * (a line evicted by another is forgotten); a map acquired or used by a TMA
 * whose lines a store wrote since counts as written there (ck_tmap_write),
 * and a TMA load or bulk copy reading them is checked (ck_gread_async). */
void ck_gwrite(ck_state *s, uint32_t agent, uint32_t lane, uint32_t site, uint64_t a, uint32_t n);
void ck_tmap_acquire(ck_state *s, uint64_t addr, uint32_t agent);
bool ck_tmap_use(ck_state *s, uint64_t addr, uint32_t agent, ck_side *w);
/* The component of CTA cta's warpgroup wg: how many of its wgmma.mma_async
 * a wgmma.wait_group has proved complete (0 = none left). */
uint32_t ck_wg_comp(ck_state *s, int cta, int wg);
/* sm_80 cp.async of agent's warp: its component (created on first use; 0
 * = none left) and its count of committed groups (cp.async.commit_group;
 * wait_all commits too).  A copy belongs to group *commits; a wait_group N
 * observes groups below *commits - N. */
uint32_t ck_cpa_comp(ck_state *s, uint32_t agent);
uint32_t *ck_cpa_commits(ck_state *s, uint32_t agent);
/* the bulk write component of (agent, lane) (0 = none left) */
uint32_t ck_bulk_wcomp(ck_state *s, uint32_t agent, uint32_t lane);

#endif
