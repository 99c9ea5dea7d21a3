/* grid.h — the grid-wide write-write check (public face of check/grid.c).
 *
 * The happens-before state (check.h) is per cluster: ptxi runs clusters
 * one at a time per interpreter context, so nothing there relates two
 * clusters.  On the GPU they run at once, and two CTAs of different
 * clusters that write the same global bytes (a tile handed out twice, a
 * split-K whose fixup is missing, a grid index off by one) leave
 * whichever bytes landed last.  This room records, per cluster, the global
 * bytes its writes cover and, once every cluster has run, finds overlaps
 * between the writes of different clusters.
 *
 * Recording.  One record per warp instruction and contiguous run of lanes
 * (each lane extends the last record when it continues it), per row of a
 * TMA store, per bulk store: [lo, hi), the CTA slot and threads, the
 * instruction (an opaque site), the kind, and for plain and asynchronous
 * stores a hash of the bytes written.  The hash is a sum over bytes of a
 * term keyed by the byte's address, so the hash of two adjacent records is
 * the sum of theirs: records merge without the bytes, and two clusters
 * that wrote the same bytes over the same range have equal hashes however
 * their warps split the work.
 *
 * Kinds and conflicts (both in different clusters, overlapping):
 *   plain / async store vs plain / async store: a race unless both wrote
 *       the same bytes (same range and hash; for different ranges, both
 *       still agree with global memory at the end of the launch);
 *   atomic (atom, red, st.relaxed/.release/.volatile) vs atomic, reduce
 *       vs atomic, reduce vs reduce of the same operation: never a race;
 *   anything else (a plain or async store against an atomic or reduce,
 *       reduces of different operations): a race.
 * Ordering: a cluster's synchronising global operations (atomics, red,
 * ld/st .acquire/.release/.relaxed/.volatile, fence.acq_rel/.sc at gpu or
 * sys scope) are counted; a write knows whether its cluster made one
 * before it (pre) and after it (post).  A pair is treated as possibly
 * ordered -- and not reported -- when one side's cluster synchronised
 * after its write and the other's before its write: a deliberate
 * under-approximation (a semaphore-serialised split-K or stream-K fixup
 * is never reported; two CTAs that merely both touched some flag around
 * their writes are not reported either).
 *
 * At the end of a cluster its records are sorted, a weak record rewritten
 * by a later one of the same cluster over the same start and at least its
 * length is dropped (the last write is what can race), and neighbours of
 * the same CTA, instruction, kind and ordering merge (the same is done
 * in place whenever a long cluster's log fills, before it grows).
 * Memory: one log reused by every cluster of a context (grown
 * geometrically) and the merged records; past CG_CAP records in all,
 * recording stops (said in the result, never silently).
 */
#ifndef PTXI_CHECK_GRID_H
#define PTXI_CHECK_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { CG_PLAIN = 1, CG_ASYNC, CG_SYNC, CG_RED };
enum { CG_PRE = 1, CG_POST = 2 };     /* cg_rec.order */

/* merged records kept for the whole launch, over all clusters */
#define CG_CAP (4u << 20)

typedef struct cg_rec {
    uint64_t lo, hi;          /* global bytes [lo, hi) */
    uint64_t hash;            /* CG_PLAIN / CG_ASYNC: cg_hash of the bytes; else 0 */
    uint64_t cluster;         /* cluster index (set at cluster end) */
    uint32_t site;            /* the writing instruction (opaque) */
    uint32_t seq;             /* while logging: the warp instruction's stamp; after: log order */
    uint32_t sync;            /* synchronising operations of the cluster before the write */
    uint16_t cta;             /* CTA slot in the cluster */
    uint16_t tid0, tid1;      /* threads (in the CTA) whose bytes the record holds */
    uint8_t kind;             /* CG_* */
    uint8_t op;               /* CG_RED: the reduction; CG_SYNC: 0 */
    uint8_t order;            /* CG_PRE | CG_POST (set at cluster end) */
} cg_rec;

/* The hash of n bytes written at global address a (n may be 0). */
uint64_t cg_hash(uint64_t a, const uint8_t *bytes, uint64_t n);

/* One context's recorder: the current cluster's log, and the merged
 * records of the clusters it finished. */
typedef struct cg_log cg_log;
cg_log *cg_log_new(void);
void cg_log_free(cg_log *g);
/* a synchronising global operation of the current cluster */
void cg_sync(cg_log *g);
/* A new warp instruction (or asynchronous operation): the writes after
 * it coalesce only with each other. */
void cg_begin(cg_log *g);
/* A write of [a, a+n) by thread tid of CTA slot cta at `site`; bytes: the
 * data (CG_PLAIN / CG_ASYNC) or NULL.  It extends the last record when it
 * continues it (same instruction, kind and writer's CTA, contiguous). */
void cg_write(cg_log *g, int kind, int op, uint32_t site, int cta, int tid, uint64_t a, uint32_t n,
              const uint8_t *bytes);
/* The same for the lanes `ex` of one warp instruction (a new one: no
 * cg_begin needed) each storing es (1, 2, 4 or 8) bytes: lane l the low
 * bytes of val[l] at addr[l] + off, thread tid0 + l; CG_PLAIN.  The
 * interpreter's fast path for st.global (one call per warp). */
void cg_write_warp(cg_log *g, uint32_t site, int cta, int tid0, uint32_t ex, const uint64_t *addr, uint64_t off,
                   const uint64_t *val, unsigned es);
/* The current cluster finished (index `cluster`): merge its records into
 * the finished ones.  `total` counts the records kept by every context of
 * the launch (shared, atomic): past `cap` (CG_CAP) the cluster is not kept
 * and false is returned. */
bool cg_cluster_end(cg_log *g, uint64_t cluster, uint64_t *total, uint64_t cap);
/* The current cluster is abandoned (an error): forget its log. */
void cg_cluster_drop(cg_log *g);
/* The lowest cluster index whose records were not kept (UINT64_MAX: none). */
uint64_t cg_first_dropped(const cg_log *g);

/* A race found at the end: the two records (a of the lower cluster) and
 * the first byte they both write. */
typedef struct cg_race {
    cg_rec a, b;
    uint64_t addr;
} cg_race;

/* Host bytes of global [a, a+n) at the end of the launch, or NULL. */
typedef const uint8_t *(*cg_mem_fn)(void *arg, uint64_t a, uint64_t n);

/* Over the finished records of logs[0..nlogs) of clusters below `limit`:
 * the conflicting pair of different clusters whose later cluster is
 * lowest, then whose earlier cluster is lowest, then whose first common
 * byte is lowest.  Returns true and fills *out when there is one.  mem
 * gives the final bytes (the same-bytes test for records of different
 * ranges); *checked gets the number of records examined. */
bool cg_find(cg_log *const *logs, int nlogs, uint64_t limit, cg_mem_fn mem, void *mem_arg, cg_race *out,
             size_t *checked);

/* The decision for one pair (exposed for the unit tests): true when a and
 * b, of different clusters and overlapping, conflict and nothing may
 * order them. */
bool cg_conflict(const cg_rec *a, const cg_rec *b, cg_mem_fn mem, void *mem_arg);

#endif
