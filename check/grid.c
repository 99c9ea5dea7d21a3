/* grid.c — global writes of every cluster, and the overlaps between them.
 *
 * See grid.h for the model.  The per-access work is cg_write: extend the
 * last record or append one (the log grows geometrically and is reused by
 * the next cluster), plus one multiply per 8-byte word for the hash.
 * Everything else runs once per cluster (sort, drop rewritten records,
 * merge neighbours) or once per launch (cg_find: one sort of all records
 * and a sweep in address order).
 */
#include <stdlib.h>
#include <string.h>
#include "check/grid.h"

/* a log this long is coalesced before it grows (then at twice what is left) */
#define CG_COMPACT ((size_t)1 << 16)

struct cg_log {
    cg_rec *log;               /* the current cluster's records */
    size_t nlog, caplog;
    uint32_t nsync;            /* its synchronising operations so far */
    uint32_t stamp;            /* cg_begin's count: the records' time order */
    size_t next_compact;       /* log size at which a full log is coalesced in place */
    bool lost;                 /* a record could not be kept: the cluster is not checked */
    cg_rec *done;              /* merged records of the finished clusters */
    size_t ndone, capdone;
    uint64_t dropped;          /* lowest cluster index not kept */
};

static void compact(cg_log *g);

/* A multiplier per 8-byte word of the address space: odd, so that a byte's
 * value survives the multiplication modulo 2^64. */
static inline uint64_t word_key(uint64_t w)
{
    uint64_t x = w * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return x | 1;
}

/* Sum over the bytes of (value + 1) << 8 * (address % 8), times the word's
 * key: bytes of one word written in several pieces sum to the same term as
 * the whole word (the +1 tells a written zero from no byte). */
uint64_t cg_hash(uint64_t a, const uint8_t *bytes, uint64_t n)
{
    uint64_t h = 0;
    while (n) {
        unsigned off = (unsigned)(a & 7), k = 8 - off;
        if (k > n)
            k = (unsigned)n;
        uint64_t v = 0;
        memcpy((uint8_t *)&v + off, bytes, k);   /* little-endian host, as memexec.c */
        uint64_t ones = (0x0101010101010101ull >> (8 * (8 - k))) << (8 * off);
        h += (v + ones) * word_key(a >> 3);
        a += k;
        bytes += k;
        n -= k;
    }
    return h;
}

cg_log *cg_log_new(void)
{
    cg_log *g = calloc(1, sizeof *g);
    if (g) {
        g->dropped = UINT64_MAX;
        g->next_compact = CG_COMPACT;
    }
    return g;
}

void cg_log_free(cg_log *g)
{
    if (!g)
        return;
    free(g->log);
    free(g->done);
    free(g);
}

void cg_sync(cg_log *g)
{
    if (g->nsync != UINT32_MAX)   /* a spin loop of 4 G acquires stays "synchronised" */
        g->nsync++;
}

static bool grow(cg_rec **v, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    cg_rec *n = realloc(*v, c * sizeof *n);
    if (!n)
        return false;
    *v = n;
    *cap = c;
    return true;
}

void cg_begin(cg_log *g) { g->stamp++; }

void cg_write(cg_log *g, int kind, int op, uint32_t site, int cta, int tid, uint64_t a, uint32_t n,
              const uint8_t *bytes)
{
    const uint32_t stamp = g->stamp;
    if (!n || g->lost)
        return;
    uint64_t h = bytes ? cg_hash(a, bytes, n) : 0;
    if (g->nlog) {
        cg_rec *r = &g->log[g->nlog - 1];
        if (r->hi == a && r->seq == stamp && r->site == site && r->cta == (uint16_t)cta && r->kind == kind &&
            r->op == op && r->sync == g->nsync) {
            r->hi += n;
            r->hash += h;
            if ((uint16_t)tid < r->tid0) r->tid0 = (uint16_t)tid;
            if ((uint16_t)tid > r->tid1) r->tid1 = (uint16_t)tid;
            return;
        }
    }
    if (g->nlog == g->caplog && g->nlog >= g->next_compact)
        compact(g);
    if (g->nlog >= CG_CAP || !grow(&g->log, &g->caplog, g->nlog + 1)) {
        g->lost = true;
        return;
    }
    g->log[g->nlog++] = (cg_rec){ .lo = a, .hi = a + n, .hash = h, .site = site, .seq = stamp, .sync = g->nsync,
                                  .cta = (uint16_t)cta, .tid0 = (uint16_t)tid, .tid1 = (uint16_t)tid,
                                  .kind = (uint8_t)kind, .op = (uint8_t)op };
}

/* One run of a warp's lanes is done: its record (or the extension of the
 * last one, the same instruction continuing it). */
static bool run_done(cg_log *g, uint32_t site, int cta, uint32_t stamp, uint64_t lo, uint64_t hi, uint64_t h, int t0,
                     int t1)
{
    cg_rec *r = g->nlog ? &g->log[g->nlog - 1] : NULL;
    if (r && r->hi == lo && r->seq == stamp && r->site == site && r->cta == (uint16_t)cta && r->kind == CG_PLAIN &&
        r->sync == g->nsync) {
        r->hi = hi;
        r->hash += h;
        r->tid1 = (uint16_t)t1;
        return true;
    }
    if (g->nlog == g->caplog && g->nlog >= g->next_compact)
        compact(g);
    if (g->nlog >= CG_CAP || !grow(&g->log, &g->caplog, g->nlog + 1)) {
        g->lost = true;
        return false;
    }
    g->log[g->nlog++] = (cg_rec){ .lo = lo, .hi = hi, .hash = h, .site = site, .seq = stamp, .sync = g->nsync,
                                  .cta = (uint16_t)cta, .tid0 = (uint16_t)t0, .tid1 = (uint16_t)t1,
                                  .kind = CG_PLAIN };
    return true;
}

void cg_write_warp(cg_log *g, uint32_t site, int cta, int tid0, uint32_t ex, const uint64_t *addr, uint64_t off,
                   const uint64_t *val, unsigned es)
{
    if (!ex || g->lost)
        return;
    const uint32_t stamp = ++g->stamp;
    if (ex == 0xffffffffu && (es == 4 || es == 8) && !((addr[0] + off) & 7)) {
        /* the common case: a whole warp storing 32 consecutive words or
         * half-words, 8 bytes (one key) at a time */
        const uint64_t a0 = addr[0] + off;
        bool line = true;
        for (int l = 1; l < 32; l++)
            line &= addr[l] + off == a0 + (uint64_t)es * (uint64_t)l;
        if (line) {
            uint64_t h = 0, w = a0 >> 3;
            if (es == 8)
                for (int l = 0; l < 32; l++)
                    h += (val[l] + 0x0101010101010101ull) * word_key(w + (uint64_t)l);
            else
                for (int l = 0; l < 32; l += 2)
                    h += (((val[l] & 0xffffffffu) | val[l + 1] << 32) + 0x0101010101010101ull) *
                         word_key(w + (uint64_t)(l / 2));
            run_done(g, site, cta, stamp, a0, a0 + 32 * (uint64_t)es, h, tid0, tid0 + 31);
            return;
        }
    }
    const uint64_t vmask = es >= 8 ? ~0ull : (1ull << (8 * es)) - 1;
    const uint64_t ones = 0x0101010101010101ull & vmask;
    /* the run of lanes [lo, hi) so far, its hash h; the bytes of its
     * current 8-byte word wd gathered in acc (plus their ones): one key per
     * word, as cg_hash's sum over the word's bytes */
    uint64_t lo = 0, hi = 0, h = 0, wd = 0, acc = 0;
    int t0 = 0, t1 = 0;
    bool open = false;
    for (uint32_t m = ex; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = addr[l] + off;
        if (open && a != hi) {
            if (!run_done(g, site, cta, stamp, lo, hi, h + acc * word_key(wd), t0, t1))
                return;
            open = false;
        }
        uint64_t w = a >> 3;   /* natural alignment: the element lies in one word */
        if (!open) {
            lo = a;
            h = acc = 0;
            wd = w;
            t0 = tid0 + l;
            open = true;
        } else if (w != wd) {
            h += acc * word_key(wd);
            acc = 0;
            wd = w;
        }
        acc += ((val[l] & vmask) + ones) << (8 * (unsigned)(a & 7));
        hi = a + es;
        t1 = tid0 + l;
    }
    run_done(g, site, cta, stamp, lo, hi, h + acc * word_key(wd), t0, t1);
}

static bool weak(const cg_rec *r) { return r->kind == CG_PLAIN || r->kind == CG_ASYNC; }

static int by_lo_seq(const void *x, const void *y)
{
    const cg_rec *a = x, *b = y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void cg_cluster_drop(cg_log *g)
{
    g->next_compact = CG_COMPACT;
    g->nlog = 0;
    g->nsync = 0;
    g->lost = false;
}

/* Sort records by start (then time), drop a weak write the cluster itself
 * rewrote later (same start, at least as long: only the last bytes can
 * race) and merge neighbours of one CTA, instruction, kind and ordering
 * (the order bits at the cluster's end; mid-cluster, the sync count).
 * Returns the records left. */
static size_t coalesce(cg_rec *v, size_t n, bool by_order)
{
    if (n > 1)
        qsort(v, n, sizeof *v, by_lo_seq);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && weak(&v[i]) && weak(&v[i + 1]) && v[i + 1].lo == v[i].lo && v[i + 1].hi >= v[i].hi)
            continue;
        cg_rec *o = k ? &v[k - 1] : NULL;
        if (o && o->hi == v[i].lo && o->cta == v[i].cta && o->site == v[i].site && o->kind == v[i].kind &&
            o->op == v[i].op && (by_order ? o->order == v[i].order : o->sync == v[i].sync)) {
            o->hi = v[i].hi;
            o->hash += v[i].hash;
            if (v[i].tid0 < o->tid0) o->tid0 = v[i].tid0;
            if (v[i].tid1 > o->tid1) o->tid1 = v[i].tid1;
            continue;
        }
        v[k++] = v[i];
    }
    return k;
}

/* The log is full: coalesce it in place before growing it (a long cluster
 * writing contiguous memory stays small); the next time only once it has
 * doubled again. */
static void compact(cg_log *g)
{
    g->nlog = coalesce(g->log, g->nlog, false);
    g->next_compact = 2 * g->nlog > CG_COMPACT ? 2 * g->nlog : CG_COMPACT;
}

bool cg_cluster_end(cg_log *g, uint64_t cluster, uint64_t *total, uint64_t cap)
{
    size_t n = g->nlog, k = 0;
    bool ok = !g->lost;
    cg_rec *v = g->log;
    for (size_t i = 0; i < n && ok; i++) {
        v[i].cluster = cluster;
        v[i].order = (uint8_t)((v[i].sync ? CG_PRE : 0) | (v[i].sync < g->nsync ? CG_POST : 0));
    }
    if (ok)
        k = coalesce(v, n, true);
    if (ok) {
        uint64_t t = __atomic_add_fetch(total, k, __ATOMIC_RELAXED);
        ok = t <= cap && grow(&g->done, &g->capdone, g->ndone + k);
    }
    if (ok) {
        memcpy(g->done + g->ndone, v, k * sizeof *v);
        g->ndone += k;
    } else if (cluster < g->dropped) {
        g->dropped = cluster;
    }
    cg_cluster_drop(g);
    return ok;
}

uint64_t cg_first_dropped(const cg_log *g) { return g->dropped; }

/* ---- the end of the launch ------------------------------------------------------------------ */

static bool mem_agrees(const cg_rec *r, cg_mem_fn mem, void *arg)
{
    const uint8_t *p = mem ? mem(arg, r->lo, r->hi - r->lo) : NULL;
    return p && cg_hash(r->lo, p, r->hi - r->lo) == r->hash;
}

bool cg_conflict(const cg_rec *a, const cg_rec *b, cg_mem_fn mem, void *arg)
{
    bool wa = weak(a), wb = weak(b);
    if (!wa && !wb) {
        /* atomics with atomics or reductions, reductions of one operation */
        if (a->kind != CG_RED || b->kind != CG_RED || a->op == b->op)
            return false;
    } else if (wa && wb) {
        if (a->lo == b->lo && a->hi == b->hi) {
            if (a->hash == b->hash)
                return false;  /* the same bytes */
        } else if (mem_agrees(a, mem, arg) && mem_agrees(b, mem, arg)) {
            return false;      /* both left what memory holds now: the same bytes where they overlap */
        }
    }
    /* possibly ordered through global synchronisation (grid.h) */
    if (((a->order & CG_POST) && (b->order & CG_PRE)) || ((b->order & CG_POST) && (a->order & CG_PRE)))
        return false;
    return true;
}

/* identity of a record for the collapse of repeated writes: all but who */
static int by_ident(const void *x, const void *y)
{
    const cg_rec *a = *(const cg_rec *const *)x, *b = *(const cg_rec *const *)y;
#define CMP(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    CMP(lo);
    CMP(hi);
    CMP(kind);
    CMP(op);
    CMP(hash);
    CMP(order);
    CMP(cluster);
    CMP(cta);
    CMP(site);
    CMP(tid0);
    CMP(tid1);
    CMP(sync);
#undef CMP
    return 0;
}

static bool same_ident(const cg_rec *a, const cg_rec *b)
{
    return a->lo == b->lo && a->hi == b->hi && a->kind == b->kind && a->op == b->op && a->hash == b->hash &&
           a->order == b->order;
}

/* key order: later cluster, earlier cluster, address */
static bool key_less(uint64_t c1, uint64_t c0, uint64_t addr, const cg_race *best, bool have)
{
    if (!have)
        return true;
    if (c1 != best->b.cluster)
        return c1 < best->b.cluster;
    if (c0 != best->a.cluster)
        return c0 < best->a.cluster;
    return addr < best->addr;
}

bool cg_find(cg_log *const *logs, int nlogs, uint64_t limit, cg_mem_fn mem, void *mem_arg, cg_race *out,
             size_t *checked)
{
    size_t n = 0;
    for (int i = 0; i < nlogs; i++)
        if (logs[i])
            n += logs[i]->ndone;
    *checked = 0;
    if (!n)
        return false;
    const cg_rec **v = malloc(n * sizeof *v), **act = malloc(n * sizeof *act);
    if (!v || !act) {
        free(v);
        free(act);
        return false;
    }
    size_t m = 0;
    for (int i = 0; i < nlogs; i++)
        for (size_t j = 0; logs[i] && j < logs[i]->ndone; j++)
            if (logs[i]->done[j].cluster < limit)
                v[m++] = &logs[i]->done[j];
    *checked = m;
    qsort(v, m, sizeof *v, by_ident);
    /* repeated writes of the same bytes (every CTA storing one flag, one
     * counter's atomics): they never conflict with each other, and against
     * a third record the two lowest clusters of the group are the best
     * partners, so the rest go; the order stays by start address */
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        if (k >= 2 && same_ident(v[k - 1], v[i]) && same_ident(v[k - 2], v[i]) &&
            v[k - 2]->cluster != v[k - 1]->cluster)
            continue;
        if (k >= 1 && same_ident(v[k - 1], v[i]) && v[k - 1]->cluster == v[i]->cluster)
            continue;          /* the same cluster again: its first record speaks for it */
        v[k++] = v[i];
    }
    m = k;
    bool have = false;
    size_t na = 0;
    for (size_t i = 0; i < m; i++) {
        const cg_rec *r = v[i];
        size_t w = 0;
        for (size_t j = 0; j < na; j++)
            if (act[j]->hi > r->lo)
                act[w++] = act[j];
        na = w;
        for (size_t j = 0; j < na; j++) {
            const cg_rec *a = act[j];
            if (a->cluster == r->cluster)
                continue;
            const cg_rec *lo = a->cluster < r->cluster ? a : r, *hi = lo == a ? r : a;
            if (!key_less(hi->cluster, lo->cluster, r->lo, out, have) || !cg_conflict(lo, hi, mem, mem_arg))
                continue;
            out->a = *lo;
            out->b = *hi;
            out->addr = r->lo;
            have = true;
        }
        act[na++] = r;
    }
    free(v);
    free(act);
    return have;
}
