/* check.c — happens-before state: vector clocks, shadow cells, records.
 *
 * See check.h for the model.  Layout, all allocated by ck_new for one
 * cluster shape and cleared by ck_reset between clusters:
 *   clocks     nagents rows of `width` words; only the first `used`
 *              components can be non-zero, so joins stop there;
 *   shadow     per CTA, one ck_cell per 4-byte granule of shared memory;
 *   mbar_ix    per CTA, one u16 per 8-byte slot: index into mbars (0 none);
 *   bars       per CTA 16 named barriers, plus the cluster barrier's
 *              pending and completed clocks, plus a clock per CTA for
 *              atomics and ordered (.volatile/.acquire/.release) accesses;
 *   bulk       per agent and lane, the bulk component and the group count
 *              that its outstanding stores need before the thread may exit.
 * The access check touches only the cells of the access and the two
 * clock words it compares: no allocation, no search.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "check/check.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* mbarrier and bulk-group components per cluster: plenty for real kernels
 * (CUTLASS uses a few dozen mbarriers per CTA); when they run out, new
 * records get component 0, which counts as always ordered (unchecked) */
#define CK_NDYN(ncta) (128u + 64u * (uint32_t)(ncta))

typedef struct ck_cell {
    /* the last writer: epoch (0 = none; CK_ASYNC: op index + 1), site,
     * agent, lane, bytes of the granule */
    uint32_t wep, wsite;
    uint16_t wag;
    uint8_t wlane, wmask;
    /* the last reader, the same (rmask bits 4..7: the reader read those
     * bytes before anything had written them); kept together, 12 bytes,
     * so that a bulk read records itself with one copy (op_range) */
    uint32_t rep, rsite;
    uint16_t rag;
    uint8_t rlane, rmask;
    uint8_t init;              /* bytes ever written */
    uint8_t lflags;            /* CK_WAMBIG, CK_RAMBIG: the lane check is off for this cell */
    uint32_t wws, rws;         /* the agent's warp-sync count at the write / the reads */
    uint32_t rlanes;           /* lanes of the reading agent that read in interval rws */
} ck_cell;
typedef struct ck_rdrec { uint32_t rep, rsite; uint16_t rag; uint8_t rlane, rmask; } ck_rdrec;
_Static_assert(offsetof(ck_cell, rsite) == offsetof(ck_cell, rep) + offsetof(ck_rdrec, rsite) &&
               offsetof(ck_cell, rag) == offsetof(ck_cell, rep) + offsetof(ck_rdrec, rag) &&
               offsetof(ck_cell, rlane) == offsetof(ck_cell, rep) + offsetof(ck_rdrec, rlane) &&
               offsetof(ck_cell, rmask) == offsetof(ck_cell, rep) + offsetof(ck_rdrec, rmask) &&
               sizeof(ck_rdrec) == 12, "ck_cell's reader fields must match ck_rdrec");

enum { CK_WAMBIG = 1, CK_RAMBIG = 2 };

struct ck_state {
    int ncta, nwarps;
    uint32_t nag, width, used;
    uint32_t smem, ngran;
    uint32_t *clocks;
    struct ck_wsync {
        uint32_t n;            /* syncs of the agent's lanes so far, full or partial: an access's
                                  interval number is n at the access */
        uint32_t full;         /* n at the last full sync (every lane ordered) */
    } *wsync;                  /* per agent */
    uint32_t *lk;              /* nag * 32 rows of 32: lk[agent][l][x] = the last interval of lane x
                                  ordered before lane l by partial syncs (allocated at the first one) */
    uint8_t *lk_used;          /* per agent: its lk rows are dirty */
    uint32_t *seen;            /* nag rows of `width`: direct observations (ck_seen) */
    uint32_t *seen_lanes;      /* and the lanes that made them */
    uint32_t *seen_site;       /* and the wait instruction */
    uint32_t *obs_ws, *obs_lanes, *obs_base, *obs_site; /* nag rows of `width`: ck_lane_observe */
    ck_cell *shadow;
    uint16_t *mbar_ix;
    ck_mbar *mbars;
    uint32_t nmbars, capmbars;
    uint32_t *bars;            /* ncta * 16 clocks */
    uint32_t *cbar;            /* 2 clocks: pending, done */
    uint32_t *memsync;         /* ncta clocks */
    uint32_t *remote;          /* ncta clocks */
    uint32_t *remote_site;     /* ncta * nag: last remote use's site, lane << 24 | ... */
    uint8_t *remote_lane;
    uint32_t *fenced;          /* per agent: epoch of its last fence.proxy.async (+1) */
    uint32_t *fence_snap;      /* per agent: its clock at that fence */
    uint16_t *bulk_comp;       /* nag * 32 */
    uint32_t *bulk_need, *bulk_op;
    ck_op *ops;
    uint32_t nops, capops;
    struct ck_tmap {
        uint64_t addr;
        uint32_t gen, agent, lane, site, epoch;
        uint32_t *acq;         /* per agent: the generation it acquired */
    } *tmaps;
    uint32_t ntmaps, captmaps;
    ck_greg *gregs;
    uint32_t ngregs, capgregs;
    uint16_t *bulk_wcomp;      /* nag * 32 */
    uint16_t *wg_comp;         /* ncta * warpgroups: ck_wg_comp */
    uint32_t nwg;
    uint32_t **pool;           /* sync clocks from ck_sync_new */
    uint32_t npool, cappool;
};

static uint32_t *row(ck_state *s, uint32_t agent) { return s->clocks + (size_t)agent * s->width; }

ck_state *ck_new(int ncta, int nwarps, uint32_t smem)
{
    ck_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->ncta = ncta;
    s->nwarps = nwarps;
    s->nag = (uint32_t)(ncta * nwarps);
    s->width = s->nag + CK_NDYN(ncta);
    s->smem = smem;
    s->ngran = (smem + 3) / 4;
    size_t w = s->width;
    s->clocks = calloc((size_t)s->nag * w, 4);
    s->wsync = calloc(s->nag, sizeof *s->wsync);
    s->seen = calloc((size_t)s->nag * w, 4);
    s->seen_lanes = calloc((size_t)s->nag * w, 4);
    s->seen_site = calloc((size_t)s->nag * w, 4);
    s->obs_ws = calloc((size_t)s->nag * w, 4);
    s->obs_lanes = calloc((size_t)s->nag * w, 4);
    s->obs_base = calloc((size_t)s->nag * w, 4);
    s->obs_site = calloc((size_t)s->nag * w, 4);
    s->shadow = calloc((size_t)ncta * s->ngran, sizeof *s->shadow);
    s->mbar_ix = calloc((size_t)ncta * (smem / 8 + 1), 2);
    s->bars = calloc((size_t)ncta * 16 * w, 4);
    s->cbar = calloc(2 * w, 4);
    s->memsync = calloc((size_t)ncta * w, 4);
    s->remote = calloc((size_t)ncta * w, 4);
    s->remote_site = calloc((size_t)ncta * s->nag, 4);
    s->remote_lane = calloc((size_t)ncta * s->nag, 1);
    s->fenced = calloc(s->nag, 4);
    s->fence_snap = calloc((size_t)s->nag * w, 4);
    s->bulk_comp = calloc((size_t)s->nag * 32, 2);
    s->bulk_wcomp = calloc((size_t)s->nag * 32, 2);
    s->bulk_need = calloc((size_t)s->nag * 32, 4);
    s->bulk_op = calloc((size_t)s->nag * 32, 4);
    s->nwg = (uint32_t)ncta * (uint32_t)((nwarps + 3) / 4);
    s->wg_comp = calloc(s->nwg + 1, 2);
    if (!s->clocks || !s->wsync || !s->seen || !s->seen_lanes || !s->seen_site || !s->obs_ws || !s->obs_lanes || !s->obs_base || !s->obs_site || !s->shadow || !s->mbar_ix || !s->bars || !s->cbar || !s->memsync || !s->remote ||
        !s->remote_site || !s->remote_lane || !s->bulk_wcomp || !s->fenced || !s->fence_snap || !s->bulk_comp || !s->bulk_need || !s->bulk_op || !s->wg_comp) {
        ck_free(s);
        return NULL;
    }
    ck_reset(s);
    return s;
}

void ck_free(ck_state *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->npool; i++)
        free(s->pool[i]);
    free(s->pool);
    free(s->clocks);
    free(s->wsync);
    free(s->lk);
    free(s->lk_used);
    free(s->seen);
    free(s->seen_lanes);
    free(s->seen_site);
    free(s->obs_ws);
    free(s->obs_lanes);
    free(s->obs_base);
    free(s->obs_site);
    free(s->shadow);
    free(s->mbar_ix);
    free(s->mbars);
    free(s->bars);
    free(s->cbar);
    free(s->memsync);
    free(s->remote);
    free(s->remote_site);
    free(s->remote_lane);
    free(s->fenced);
    free(s->fence_snap);
    free(s->bulk_comp);
    free(s->bulk_wcomp);
    free(s->wg_comp);
    free(s->gregs);
    for (uint32_t i = 0; i < s->ntmaps; i++)
        free(s->tmaps[i].acq);
    free(s->tmaps);
    free(s->bulk_need);
    free(s->bulk_op);
    free(s->ops);
    free(s);
}

void ck_reset(ck_state *s)
{
    size_t w = s->width, u = s->used ? s->used : s->nag;
    /* rows are only dirty up to `used` */
    for (uint32_t a = 0; a < s->nag; a++) {
        memset(row(s, a), 0, u * 4);
        memset(s->seen + (size_t)a * w, 0, u * 4);
        memset(s->seen_lanes + (size_t)a * w, 0, u * 4);
        memset(s->seen_site + (size_t)a * w, 0, u * 4);
        memset(s->obs_ws + (size_t)a * w, 0, u * 4);
    }
    for (uint32_t a = 0; a < s->nag; a++) {
        row(s, a)[a] = 1;        /* epochs start at 1: 0 marks "no access" */
        s->wsync[a].n = s->wsync[a].full = 1;
        if (s->lk && s->lk_used[a]) {
            memset(s->lk + (size_t)a * 32 * 32, 0, 32 * 32 * 4);
            s->lk_used[a] = 0;
        }
    }
    memset(s->shadow, 0, (size_t)s->ncta * s->ngran * sizeof *s->shadow);
    memset(s->mbar_ix, 0, (size_t)s->ncta * (s->smem / 8 + 1) * 2);
    memset(s->bars, 0, (size_t)s->ncta * 16 * w * 4);
    memset(s->cbar, 0, 2 * w * 4);
    memset(s->memsync, 0, (size_t)s->ncta * w * 4);
    memset(s->remote, 0, (size_t)s->ncta * w * 4);
    memset(s->remote_site, 0, (size_t)s->ncta * s->nag * 4);
    memset(s->fenced, 0, (size_t)s->nag * 4);
    memset(s->fence_snap, 0, (size_t)s->nag * w * 4);
    memset(s->bulk_comp, 0, (size_t)s->nag * 32 * 2);
    memset(s->bulk_wcomp, 0, (size_t)s->nag * 32 * 2);
    memset(s->wg_comp, 0, s->nwg * 2);
    s->ngregs = 0;
    for (uint32_t i = 0; i < s->ntmaps; i++)
        free(s->tmaps[i].acq);
    s->ntmaps = 0;
    memset(s->bulk_need, 0, (size_t)s->nag * 32 * 4);
    memset(s->bulk_op, 0, (size_t)s->nag * 32 * 4);
    for (uint32_t i = 0; i < s->npool; i++)
        free(s->pool[i]);
    s->npool = 0;
    s->nmbars = 1;               /* index 0 = none */
    s->nops = 0;
    s->used = s->nag;
}

int ck_nagents(const ck_state *s) { return (int)s->nag; }
uint32_t ck_width(const ck_state *s) { return s->width; }
uint32_t *ck_clock(ck_state *s, uint32_t agent) { return row(s, agent); }
uint32_t ck_epoch(ck_state *s, uint32_t agent) { return row(s, agent)[agent]; }

uint32_t *ck_sync_new(ck_state *s)
{
    if (s->npool == s->cappool) {
        uint32_t cap = s->cappool ? s->cappool * 2 : 64;
        uint32_t **n = realloc(s->pool, cap * sizeof *n);
        if (!n)
            return NULL;
        s->pool = n;
        s->cappool = cap;
    }
    uint32_t *v = calloc(s->width, 4);
    if (v)
        s->pool[s->npool++] = v;
    return v;
}

void ck_join(ck_state *s, uint32_t *dst, const uint32_t *src)
{
    for (uint32_t i = 0; i < s->used; i++)
        if (src[i] > dst[i])
            dst[i] = src[i];
}

void ck_clear(ck_state *s, uint32_t *sync) { memset(sync, 0, s->used * 4); }

void ck_release(ck_state *s, uint32_t agent, uint32_t *sync)
{
    uint32_t *r = row(s, agent);
    if (sync)
        ck_join(s, sync, r);
    r[agent]++;
}

void ck_warp_sync(ck_state *s, uint32_t agent)
{
    struct ck_wsync *w = &s->wsync[agent];
    w->full = ++w->n;
}

void ck_warp_sync_mask(ck_state *s, uint32_t agent, uint32_t mask)
{
    if (!s->lk) {
        s->lk = calloc((size_t)s->nag * 32 * 32, 4);
        s->lk_used = calloc(s->nag, 1);
        if (!s->lk || !s->lk_used) {
            free(s->lk);
            free(s->lk_used);
            s->lk = NULL;
            s->lk_used = NULL;
        }
    }
    if (!s->lk) {                /* no memory: order the whole warp, as before partial syncs were told apart */
        ck_warp_sync(s, agent);
        return;
    }
    struct ck_wsync *w = &s->wsync[agent];
    uint32_t *k = s->lk + (size_t)agent * 32 * 32, j[32];
    /* what any lane of the mask knows, and every lane of it up to now */
    memset(j, 0, sizeof j);
#ifdef __SSE2__
    {
        /* unsigned max of 4 words: SSE2 compares signed, so both sides
         * are biased by 2^31 for the compare */
        const __m128i bias = _mm_set1_epi32((int)0x80000000u);
        __m128i v[8];
        for (int i = 0; i < 8; i++)
            v[i] = _mm_setzero_si128();
        for (uint32_t m = mask; m; m &= m - 1) {
            const __m128i *kl = (const __m128i *)(const void *)(k + 32 * (uint32_t)__builtin_ctz(m));
            for (int i = 0; i < 8; i++) {
                __m128i a = _mm_loadu_si128(kl + i);
                __m128i gt = _mm_cmpgt_epi32(_mm_xor_si128(a, bias), _mm_xor_si128(v[i], bias));
                v[i] = _mm_or_si128(_mm_and_si128(gt, a), _mm_andnot_si128(gt, v[i]));
            }
        }
        for (int i = 0; i < 8; i++)
            _mm_storeu_si128((__m128i *)(void *)(j + 4 * i), v[i]);
    }
#else
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t *kl = k + 32 * (uint32_t)__builtin_ctz(m);
        for (int x = 0; x < 32; x++)
            if (kl[x] > j[x])
                j[x] = kl[x];
    }
#endif
    for (uint32_t m = mask; m; m &= m - 1)
        j[__builtin_ctz(m)] = w->n;
    for (uint32_t m = mask; m; m &= m - 1)
        memcpy(k + 32 * (uint32_t)__builtin_ctz(m), j, sizeof j);
    s->lk_used[agent] = 1;
    w->n++;
}

/* The lanes of `m` whose accesses in interval `iv` of agent's warp are not
 * ordered before lane `lane` now, where no full sync came after iv: all of
 * them if no sync at all came after it, else those that no chain of
 * partial syncs joins to this lane since. */
static uint32_t lanes_after(const ck_state *s, uint32_t agent, uint32_t lane, uint32_t m, uint32_t iv)
{
    if (iv >= s->wsync[agent].n || !s->lk)
        return m;
    const uint32_t *k = s->lk + ((size_t)agent * 32 + lane) * 32;
    uint32_t r = 0;
    for (; m; m &= m - 1)
        if (k[__builtin_ctz(m)] < iv)
            r |= m & -m;
    return r;
}

/* A lane's own observation of comp reaching v, in the current interval.
 * `tick`: the caller ticks a full warp sync right after the instruction
 * (an mbarrier wait), which orders plain accesses but not this
 * observation, so only a sync after that one counts. */
static void lane_observe(ck_state *s, uint32_t agent, uint32_t lane, uint32_t comp, uint32_t v, uint32_t site,
                         uint32_t tick)
{
    if (!comp)
        return;
    size_t i = (size_t)agent * s->width + comp;
    uint32_t *r = row(s, agent);
    const struct ck_wsync *w = &s->wsync[agent];
    if (s->obs_ws[i] != w->n && (!s->obs_ws[i] || w->full > s->obs_ws[i] + tick)) {
        /* the first lane of a new interval after a full sync ordered the
         * last observation before every lane: what every lane has now */
        s->obs_ws[i] = w->n;
        s->obs_base[i] = r[comp];
        s->obs_lanes[i] = 0;
    }
    /* (otherwise, partial syncs only since the last one: its lanes, base
     * and interval stay, this lane joins them) */
    s->obs_lanes[i] |= 1u << lane;
    s->obs_site[i] = site;
    if (r[comp] < v)
        r[comp] = v;
}

void ck_lane_observe(ck_state *s, uint32_t agent, uint32_t lane, uint32_t comp, uint32_t v, uint32_t site)
{
    lane_observe(s, agent, lane, comp, v, site, 1);
}

void ck_bulk_observe(ck_state *s, uint32_t agent, uint32_t lane, uint32_t comp, uint32_t v, uint32_t site)
{
    lane_observe(s, agent, lane, comp, v, site, 0);
}

uint32_t ck_lane_obs_site(ck_state *s, uint32_t agent, uint32_t comp)
{
    return s->obs_site[(size_t)agent * s->width + comp];
}

/* An async operation (op) ordered before agent at warp level: is it
 * ordered before this lane?  Not if the ordering came from other lanes'
 * wait (an mbarrier wait: ck_lane_observe; the issuing lane's bulk
 * wait_group: ck_bulk_observe) with no full warp sync after it and no
 * chain of partial syncs joining this lane to a lane that waited. */
static bool lane_unwaited(ck_state *s, uint32_t agent, uint32_t lane, uint32_t op, uint32_t *waiter)
{
    const ck_op *o = &s->ops[op];
    if (!o->comp || o->wgmma)
        return false;
    size_t i = (size_t)agent * s->width + o->comp;
    const uint32_t iv = s->obs_ws[i], lanes = s->obs_lanes[i];
    if (!iv || (lanes >> lane & 1) || o->val <= s->obs_base[i] || s->wsync[agent].full > iv + o->is_load)
        return false;
    uint32_t un = lanes_after(s, agent, lane, lanes, iv + o->is_load);
    if (un != lanes)
        return false;            /* a partial sync after the wait joined a lane that waited */
    *waiter = (uint32_t)__builtin_ctz(lanes);
    return true;
}

void ck_acquire(ck_state *s, uint32_t agent, const uint32_t *sync)
{
    ck_warp_sync(s, agent);      /* whatever orders the warp after others orders its lanes */
    if (sync)
        ck_join(s, row(s, agent), sync);
}

bool ck_covers(ck_state *s, uint32_t agent, const uint32_t *sync)
{
    const uint32_t *r = row(s, agent);
    for (uint32_t i = 0; i < s->used; i++)
        if (sync[i] > r[i])
            return false;
    return true;
}

void ck_observe(ck_state *s, uint32_t agent, uint32_t comp, uint32_t v)
{
    uint32_t *r = row(s, agent);
    if (comp && r[comp] < v)
        r[comp] = v;
}

uint32_t ck_seen(ck_state *s, uint32_t agent, uint32_t comp, uint32_t *lanes, uint32_t *site)
{
    size_t i = (size_t)agent * s->width + comp;
    *lanes = s->seen_lanes[i];
    *site = s->seen_site[i];
    return s->seen[i];
}

void ck_seen_set(ck_state *s, uint32_t agent, uint32_t comp, uint32_t v, uint32_t lanes, uint32_t site)
{
    size_t i = (size_t)agent * s->width + comp;
    s->seen_lanes[i] = s->seen[i] == v && s->seen_site[i] == site ? s->seen_lanes[i] | lanes : lanes;
    s->seen[i] = v;
    s->seen_site[i] = site;
}

bool ck_before(ck_state *s, uint32_t agent, uint32_t a2, uint32_t epoch)
{
    return a2 == agent || row(s, agent)[a2] >= epoch;
}

uint32_t *ck_bar(ck_state *s, int cta, int id) { return s->bars + ((size_t)cta * 16 + (size_t)id) * s->width; }
uint32_t *ck_cbar(ck_state *s, bool done) { return s->cbar + (done ? s->width : 0); }
uint32_t *ck_memsync(ck_state *s, int cta) { return s->memsync + (size_t)cta * s->width; }

static uint32_t new_comp(ck_state *s)
{
    if (s->used >= s->width)
        return 0;
    return s->used++;
}

ck_mbar *ck_mbar_at(ck_state *s, int cta, uint32_t off)
{
    uint16_t *ix = &s->mbar_ix[(size_t)cta * (s->smem / 8 + 1) + off / 8];
    if (*ix)
        return &s->mbars[*ix];
    if (s->nmbars >= 0xffff)
        return NULL;
    if (s->nmbars >= s->capmbars) {
        uint32_t cap = s->capmbars ? s->capmbars * 2 : 32;
        ck_mbar *n = realloc(s->mbars, cap * sizeof *n);
        if (!n)
            return NULL;
        s->mbars = n;
        s->capmbars = cap;
    }
    ck_mbar *m = &s->mbars[s->nmbars];
    memset(m, 0, sizeof *m);
    m->comp = new_comp(s);
    m->pend = ck_sync_new(s);
    m->done = ck_sync_new(s);
    if (!m->pend || !m->done)
        return NULL;
    m->cta = cta;
    m->off = off;
    *ix = (uint16_t)s->nmbars++;
    return m;
}

ck_mbar *ck_mbar_nth(ck_state *s, uint32_t i)
{
    return i + 1 < s->nmbars ? &s->mbars[i + 1] : NULL;
}

uint32_t ck_bulk_comp(ck_state *s, uint32_t agent, uint32_t lane)
{
    uint16_t *c = &s->bulk_comp[agent * 32 + lane];
    if (!*c)
        *c = (uint16_t)new_comp(s);
    return *c;
}

uint32_t ck_bulk_wcomp(ck_state *s, uint32_t agent, uint32_t lane)
{
    uint16_t *c = &s->bulk_wcomp[agent * 32 + lane];
    if (!*c)
        *c = (uint16_t)new_comp(s);
    return *c;
}

uint32_t ck_wg_comp(ck_state *s, int cta, int wg)
{
    uint32_t i = (uint32_t)cta * (uint32_t)((s->nwarps + 3) / 4) + (uint32_t)wg;
    if (i >= s->nwg)
        return 0;
    if (!s->wg_comp[i])
        s->wg_comp[i] = (uint16_t)new_comp(s);
    return s->wg_comp[i];
}

void ck_greg_add(ck_state *s, const ck_greg *g)
{
    if (s->ngregs == s->capgregs) {
        uint32_t cap = s->capgregs ? s->capgregs * 2 : 16;
        ck_greg *n = realloc(s->gregs, cap * sizeof *n);
        if (!n)
            return;
        s->gregs = n;
        s->capgregs = cap;
    }
    s->gregs[s->ngregs++] = *g;
}

bool ck_gactive(const ck_state *s) { return s->ngregs != 0; }

static struct ck_tmap *tmap_find(ck_state *s, uint64_t addr)
{
    for (uint32_t i = 0; i < s->ntmaps; i++)
        if (s->tmaps[i].addr == addr)
            return &s->tmaps[i];
    return NULL;
}

void ck_tmap_write(ck_state *s, uint64_t addr, uint32_t agent, uint32_t lane, uint32_t site)
{
    struct ck_tmap *t = tmap_find(s, addr);
    if (!t) {
        if (s->ntmaps == s->captmaps) {
            uint32_t cap = s->captmaps ? s->captmaps * 2 : 8;
            struct ck_tmap *n = realloc(s->tmaps, cap * sizeof *n);
            if (!n)
                return;
            s->tmaps = n;
            s->captmaps = cap;
        }
        t = &s->tmaps[s->ntmaps];
        memset(t, 0, sizeof *t);
        if (!(t->acq = calloc(s->nag, 4)))
            return;
        t->addr = addr;
        s->ntmaps++;
    }
    t->gen++;
    t->agent = agent, t->lane = lane, t->site = site, t->epoch = row(s, agent)[agent];
}

void ck_tmap_acquire(ck_state *s, uint64_t addr, uint32_t agent)
{
    struct ck_tmap *t = tmap_find(s, addr);
    if (t && (t->agent == agent || row(s, agent)[t->agent] >= t->epoch))
        t->acq[agent] = t->gen;
}

bool ck_tmap_use(ck_state *s, uint64_t addr, uint32_t agent, ck_side *w)
{
    struct ck_tmap *t = tmap_find(s, addr);
    if (!t || t->acq[agent] == t->gen)
        return false;
    w->agent = t->agent, w->lane = t->lane, w->site = t->site, w->op = 0;
    return true;
}

static bool greg_holds(const ck_greg *g, uint64_t a)
{
    if (a < g->lo || a >= g->hi)
        return false;
    uint64_t off = a - g->base;
    for (int d = g->rank - 1; d >= 1; d--) {
        int64_t i = (int64_t)(off / g->stride[d]);
        if (i < g->b0[d] || i >= g->b1[d])
            return false;
        off -= (uint64_t)i * g->stride[d];
    }
    int64_t i = (int64_t)(off / g->stride[0]);
    return i >= g->b0[0] && i < g->b1[0];
}

/* Has the issuing lane's wait for op reached every lane of its warp (a
 * full sync since)?  Until then another lane may still be unordered. */
static bool waited_by_warp(const ck_state *s, uint32_t op)
{
    const ck_op *o = &s->ops[op];
    size_t i = (size_t)o->agent * s->width + o->comp;
    return !s->obs_ws[i] || o->val <= s->obs_base[i] || s->wsync[o->agent].full > s->obs_ws[i];
}

int ck_global(ck_state *s, uint32_t agent, uint32_t lane, uint64_t a, uint32_t n, uint32_t *op, uint32_t *waiter)
{
    for (uint32_t i = 0; i < s->ngregs; i++) {
        ck_greg *g = &s->gregs[i];
        const ck_op *o = &s->ops[g->op];
        if (ck_op_ordered(s, o->agent, g->op) && waited_by_warp(s, g->op)) {
            s->gregs[i--] = s->gregs[--s->ngregs];   /* its issuer has waited for it */
            continue;
        }
        if (greg_holds(g, a) || greg_holds(g, a + n - 1)) {
            *op = g->op;
            if (!ck_op_ordered(s, agent, g->op))
                return CK_GLOBAL_STORE;
            if (lane_unwaited(s, agent, lane, g->op, waiter))
                return CK_LANE_GLOBAL_STORE;
        }
    }
    return CK_OK;
}

uint32_t ck_bulk_need(ck_state *s, uint32_t agent, uint32_t lane, uint32_t *op)
{
    *op = s->bulk_op[agent * 32 + lane];
    return s->bulk_need[agent * 32 + lane];
}

void ck_set_bulk_need(ck_state *s, uint32_t agent, uint32_t lane, uint32_t need, uint32_t op)
{
    if (need >= s->bulk_need[agent * 32 + lane]) {
        s->bulk_need[agent * 32 + lane] = need;
        s->bulk_op[agent * 32 + lane] = op;
    }
}

void ck_proxy_fence(ck_state *s, uint32_t agent)
{
    uint32_t *r = row(s, agent);
    s->fenced[agent] = r[agent];
    memcpy(s->fence_snap + (size_t)agent * s->width, r, s->used * 4);
    r[agent]++;                  /* later writes are not covered */
}

void ck_note_remote(ck_state *s, uint32_t agent, uint32_t lane, uint32_t site, int cta)
{
    uint32_t *v = s->remote + (size_t)cta * s->width;
    uint32_t e = row(s, agent)[agent];
    if (v[agent] < e)
        v[agent] = e;
    s->remote_site[(size_t)cta * s->nag + agent] = site;
    s->remote_lane[(size_t)cta * s->nag + agent] = (uint8_t)lane;
}

int ck_remote_unordered(ck_state *s, const uint32_t *r, int cta, uint32_t *lane, uint32_t *site)
{
    const uint32_t *v = s->remote + (size_t)cta * s->width;
    for (uint32_t a = 0; a < s->nag; a++)
        if (v[a] > r[a]) {
            *site = s->remote_site[(size_t)cta * s->nag + a];
            *lane = s->remote_lane[(size_t)cta * s->nag + a];
            return (int)a;
        }
    return -1;
}

/* ---- operations -------------------------------------------------------------------- */

uint32_t ck_op_new(ck_state *s, const ck_op *init)
{
    if (s->nops == s->capops) {
        uint32_t cap = s->capops ? s->capops * 2 : 64;
        ck_op *n = realloc(s->ops, cap * sizeof *n);
        if (!n)
            return UINT32_MAX;
        s->ops = n;
        s->capops = cap;
    }
    s->ops[s->nops] = *init;
    return s->nops++;
}

ck_op *ck_op_get(ck_state *s, uint32_t i) { return i < s->nops ? &s->ops[i] : NULL; }

bool ck_op_ordered(ck_state *s, uint32_t agent, uint32_t i)
{
    const ck_op *o = &s->ops[i];
    return !o->comp || row(s, agent)[o->comp] >= o->val;
}

/* Was the access recorded in (ag, ep) ordered before agent's present? */
static bool hb(ck_state *s, uint32_t agent, uint32_t ag, uint32_t ep)
{
    if (!ep)
        return true;
    if (ag == CK_ASYNC)
        return ck_op_ordered(s, agent, ep - 1);
    return ag == agent || row(s, agent)[ag] >= ep;
}

static void side(ck_side *sd, uint32_t ag, uint32_t lane, uint32_t site, uint32_t ep)
{
    sd->agent = ag;
    sd->lane = lane;
    sd->site = site;
    sd->op = ag == CK_ASYNC ? ep - 1 : 0;
}

static int conflict(ck_conflict *out, int kind, uint32_t off, uint32_t ag, uint32_t lane, uint32_t site,
                    uint32_t ep)
{
    out->kind = kind;
    out->off = off;
    side(&out->other, ag, lane, site, ep);
    return kind;
}

/* hb() with the agent's clock row at hand (the access path) */
static inline bool hbr(ck_state *s, const uint32_t *r, uint32_t agent, uint32_t ag, uint32_t ep)
{
    if (ag == agent || !ep)
        return true;
    if (ag == CK_ASYNC)
        return ck_op_ordered(s, agent, ep - 1);
    return r[ag] >= ep;
}

int ck_access(ck_state *s, uint32_t agent, uint32_t lane, uint32_t site, int cta, uint32_t off, uint32_t n,
              unsigned flags, ck_conflict *out)
{
    if (!n || (uint64_t)off + n > s->smem)
        return CK_OK;
    const bool write = flags & CK_WRITE, sync = flags & CK_SYNC, same = flags & CK_SAME;
    const uint32_t *r = row(s, agent);
    /* ws: this access's interval; wf: the last full sync's (an earlier
     * interval of the agent at or after wf: only partial syncs since) */
    const uint32_t ep = r[agent], ws = s->wsync[agent].n, wf = s->wsync[agent].full, lbit = 1u << lane;
    ck_cell *c = s->shadow + (size_t)cta * s->ngran + off / 4;
    int rc = CK_OK;
    const uint32_t g0 = off / 4, end = (off + n - 1) / 4;
    const uint8_t first = (uint8_t)(0xfu << (off & 3) & 0xf), last = (uint8_t)(0xfu >> (3 - ((off + n - 1) & 3)));
    for (uint32_t g = g0; g <= end; g++, c++) {
        uint8_t mask = (g == g0 ? first : 0xf) & (g == end ? last : 0xf);
        if (rc == CK_OK && (c->wmask & mask)) {
            if (c->wag != agent) {
                uint32_t waiter;
                if ((!sync || c->wag == CK_ASYNC) && !(same && c->wag != CK_ASYNC) &&
                    !hbr(s, r, agent, c->wag, c->wep))
                    rc = conflict(out, c->wag == CK_ASYNC ? CK_COPY_UNWAITED : write ? CK_RACE_WW : CK_RACE_RW,
                                  g * 4 + (uint32_t)__builtin_ctz(c->wmask & mask), c->wag, c->wlane, c->wsite,
                                  c->wep);
                else if (c->wag == CK_ASYNC && c->wep && lane_unwaited(s, agent, lane, c->wep - 1, &waiter)) {
                    rc = conflict(out, CK_LANE_UNWAITED, g * 4 + (uint32_t)__builtin_ctz(c->wmask & mask), c->wag,
                                  c->wlane, c->wsite, c->wep);
                    out->other.lane = waiter;   /* op: the copy; lane: one that waited */
                }
            } else if (c->wws >= wf && c->wlane != lane && !sync && !same && !(c->lflags & CK_WAMBIG) &&
                       (c->wws == ws || lanes_after(s, agent, lane, 1u << c->wlane, c->wws))) {
                /* another lane of this warp wrote it, with no warp sync since that orders this lane */
                rc = conflict(out, write ? CK_LANE_WW : CK_LANE_RW, g * 4 + (uint32_t)__builtin_ctz(c->wmask & mask),
                              agent, c->wlane, c->wsite, c->wep);
            }
        }
        if (write) {
            uint32_t waiter;
            if (rc == CK_OK && (c->rmask & mask) && c->rag != agent && (!sync || c->rag == CK_ASYNC) &&
                !hbr(s, r, agent, c->rag, c->rep))
                rc = conflict(out, c->rag == CK_ASYNC ? CK_SOURCE_REUSED : CK_RACE_WR,
                              g * 4 + (uint32_t)__builtin_ctz(c->rmask & mask), c->rag, c->rlane, c->rsite, c->rep);
            else if (rc == CK_OK && (c->rmask & mask) && c->rag == CK_ASYNC && c->rep &&
                     lane_unwaited(s, agent, lane, c->rep - 1, &waiter)) {
                /* a store's source: its issuing lane waited, this lane is not ordered after that */
                rc = conflict(out, CK_LANE_SOURCE_REUSED, g * 4 + (uint32_t)__builtin_ctz(c->rmask & mask), c->rag,
                              c->rlane, c->rsite, c->rep);
                out->other.lane = waiter;
            }
            uint32_t un;
            if (rc == CK_OK && (c->rmask & mask) && c->rep && c->rag == agent && c->rws >= wf &&
                (c->rlanes & ~lbit) && !sync && !same && !(c->lflags & CK_RAMBIG) &&
                (un = c->rws == ws ? c->rlanes & ~lbit : lanes_after(s, agent, lane, c->rlanes & ~lbit, c->rws)))
                rc = conflict(out, CK_LANE_WR, g * 4 + (uint32_t)__builtin_ctz(c->rmask & mask), agent,
                              (uint32_t)__builtin_ctz(un), c->rsite, c->rep);
            c->init |= mask;
            if (sync)
                continue;
            if (c->wep && c->wag == agent && c->wlane != lane && (c->wmask & ~mask & 0xf) &&
                (c->wep == ep || (c->wws >= wf && (c->wws == ws ||
                                                   lanes_after(s, agent, lane, 1u << c->wlane, c->wws))))) {
                /* the granule keeps bytes another lane wrote: two unordered
                 * lanes' bytes, or (same epoch) bytes the merged record
                 * below would put under this lane's name */
                c->lflags |= CK_WAMBIG;
            } else if (!(c->wep && c->wag == agent && c->wws >= wf)) {
                c->lflags &= (uint8_t)~CK_WAMBIG;
            }
            if (c->wep == ep && c->wag == agent)
                mask |= c->wmask;    /* same agent, same epoch: one access */
            c->wag = (uint16_t)agent, c->wlane = (uint8_t)lane, c->wsite = site, c->wep = ep, c->wmask = mask;
            c->wws = ws;
            continue;
        }
        if (sync)
            continue;
        if (c->rep && c->rag == agent) {
            if (c->rws >= wf && (c->rws == ws || lanes_after(s, agent, lane, c->rlanes & ~lbit, c->rws))) {
                /* readers this lane is not ordered after stay (rws: the oldest one's interval) */
                if ((c->rlanes & ~lbit) && (c->rmask & 0xf) != mask)
                    c->lflags |= CK_RAMBIG;  /* lanes read different bytes of the granule */
                c->rlanes |= lbit;
            } else {
                c->rws = ws, c->rlanes = lbit;
                c->lflags &= (uint8_t)~CK_RAMBIG;
            }
            if (c->rep == ep) {
                c->rmask |= (uint8_t)(mask | (mask & ~c->init) << 4);
                continue;
            }
        } else if (c->rag == CK_ASYNC && c->rep && !hbr(s, r, agent, c->rag, c->rep)) {
            /* an async reader (a store's source) stays until it is ordered */
            continue;
        } else {
            c->rws = ws, c->rlanes = lbit;
            c->lflags &= (uint8_t)~CK_RAMBIG;
        }
        c->rag = (uint16_t)agent, c->rlane = (uint8_t)lane, c->rsite = site, c->rep = ep;
        c->rmask = (uint8_t)(mask | (mask & ~c->init) << 4);
    }
    return rc;
}

/* The issuer's view of earlier accesses to a range an operation writes or
 * reads: as if the issuing agent made the access at issue. */
static int op_range(ck_state *s, uint32_t op, int cta, uint32_t off, uint32_t n, bool write, ck_conflict *out)
{
    const ck_op *o = &s->ops[op];
    if (!n || (uint64_t)off + n > s->smem)
        return CK_OK;
    uint32_t agent = o->agent;
    const uint32_t *fsnap = s->fence_snap + (size_t)agent * s->width;
    ck_cell *base = s->shadow + (size_t)cta * s->ngran;
    int rc = CK_OK;
    /* a large operation's cells mostly share their last writer and reader:
     * the (agent, epoch) pair last found in order need not be looked up
     * again (nothing here changes the clocks) */
    uint32_t ok_wag = UINT32_MAX, ok_wep = 0, ok_rag = UINT32_MAX, ok_rep = 0;
    /* the operation's own fields, read once (the cell stores below could
     * alias them as far as the compiler knows) */
    const uint8_t lane = (uint8_t)o->lane;
    const uint32_t site = o->site, ep = op + 1;
    const bool wg = o->wgmma;
    const ck_rdrec rd = { .rep = ep, .rsite = site, .rag = CK_ASYNC, .rlane = lane, .rmask = 0xf };
    for (uint32_t g = off / 4, end = (off + n - 1) / 4; g <= end; g++) {
        ck_cell *c = &base[g];
        uint32_t at = g * 4 > off ? g * 4 : off;
        if (rc == CK_OK && c->wep && (c->wag != ok_wag || c->wep != ok_wep)) {
            if (!hb(s, agent, c->wag, c->wep))
                rc = conflict(out, c->wag == CK_ASYNC ? CK_COPY_OVERLAP : CK_COPY_OVER_ACCESS, at, c->wag,
                              c->wlane, c->wsite, c->wep);
            else if (!write && !wg && c->wag != CK_ASYNC && s->fenced[c->wag] < c->wep && fsnap[c->wag] < c->wep)
                rc = conflict(out, CK_NO_PROXY_FENCE, at, c->wag, c->wlane, c->wsite, c->wep);
            else
                ok_wag = c->wag, ok_wep = c->wep;
        }
        if (rc == CK_OK && write && c->rep && c->rag != CK_ASYNC && (c->rmask & 0xf0))
            rc = conflict(out, CK_READ_BEFORE_COPY, at, c->rag, c->rlane, c->rsite, c->rep);
        if (rc == CK_OK && write && c->rep && (c->rag != ok_rag || c->rep != ok_rep)) {
            if (!hb(s, agent, c->rag, c->rep))
                rc = conflict(out, c->rag == CK_ASYNC ? CK_COPY_OVERLAP : CK_COPY_OVER_ACCESS, at, c->rag,
                              c->rlane, c->rsite, c->rep);
            else
                ok_rag = c->rag, ok_rep = c->rep;
        }
        if (write) {
            c->wag = CK_ASYNC, c->wlane = lane, c->wsite = site, c->wep = ep, c->wmask = 0xf;
            c->rep = 0;
            c->init = 0xf;
        } else {
            memcpy((char *)c + offsetof(ck_cell, rep), &rd, sizeof rd);
        }
    }
    return rc;
}

int ck_op_write(ck_state *s, uint32_t op, int cta, uint32_t off, uint32_t n, ck_conflict *out)
{
    return op_range(s, op, cta, off, n, true, out);
}

int ck_op_read(ck_state *s, uint32_t op, int cta, uint32_t off, uint32_t n, ck_conflict *out)
{
    return op_range(s, op, cta, off, n, false, out);
}
