/* gridck.c — the interpreter's side of the grid-wide write-write check.
 *
 * check/grid.h keeps the records and finds the overlaps; this file feeds
 * it (every global write the interpreter makes while the checker is on:
 * st, atom/red, TMA and bulk stores and reductions as they land, and the
 * synchronising operations that may order clusters) and turns a race into
 * a report:
 *
 *   grid-write-race  two CTAs of different clusters write the same global
 *                    bytes (different values, or a plain store against an
 *                    atomic or reduction), and neither cluster made the
 *                    synchronising global operation that could order them
 *
 * Each context records the clusters it runs; the check itself runs once,
 * at the end of the launch, over the records of every context (interp_run
 * with -j N), or at the end of the single context of the step API, so the
 * report is the same for any -j: the pair whose later cluster has the
 * lowest index, then the earlier cluster, then the address.  An error
 * inside a cluster (the existing checker, a fault, a hang) at cluster E
 * wins over a grid race unless the race lies wholly below E; the clusters
 * from E on are not considered (with -j 1 they never run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interp/internal.h"
#include "memory/mem.h"

bool ip_gw_start(interp_ctx *c)
{
    if (!c->gw && !(c->gw = cg_log_new()))
        return false;
    if (!c->gw_total)
        c->gw_total = &c->gw_total_own;
    cg_cluster_drop(c->gw);    /* whatever an abandoned cluster left */
    return true;
}

void ip_gw_free(interp_ctx *c)
{
    cg_log_free(c->gw);
    c->gw = NULL;
}

void ip_gw_write(interp_ctx *c, const ip_warp *w, int lane, int kind, uint64_t a, uint32_t n, const uint8_t *bytes)
{
    cg_write(c->gw, kind, 0, ip_ck_site(c), w->cta->slot, w->id * 32 + lane, a, n, kind == CG_PLAIN ? bytes : NULL);
}

void ip_gw_op_write(interp_ctx *c, const ip_op *o, int kind, int op, uint64_t a, uint32_t n,
                    const uint8_t *bytes)
{
    cg_write(c->gw, kind, kind == CG_RED ? op : 0, (uint32_t)o->func << 20 | (o->pc & 0xfffff), o->cta,
             o->warp * 32 + o->lane, a, n, kind == CG_ASYNC ? bytes : NULL);
}

void ip_gw_cluster_end(interp_ctx *c)
{
    cg_cluster_end(c->gw, c->cl.index, c->gw_total, CG_CAP);
}

/* ---- the report ------------------------------------------------------------------------------ */

static const uint8_t *final_bytes(void *arg, uint64_t a, uint64_t n)
{
    return mem_global_host((const mem_global *)arg, a, n);
}

static const char *kind_words(const cg_rec *r)
{
    static const char *const red[] = { "reduction", "reduction .add", "reduction .min", "reduction .max",
                                       "reduction .inc", "reduction .dec", "reduction .and", "reduction .or",
                                       "reduction .xor" };
    switch (r->kind) {
    case CG_PLAIN: return "store";
    case CG_ASYNC: return "TMA/bulk store";
    case CG_SYNC: return "atomic or ordered store";
    default: return red[r->op < 9 ? r->op : 0];
    }
}

/* One side: *head gets "CTA (1,0,0) thread 5 at file:line (cu:line)",
 * *full the same with the source line, the kind and the bytes. */
static void side(const interp_ctx *c, const cg_rec *r, char *head, size_t hn, char *full, size_t fn)
{
    const ip_plan *p = c->plan;
    uint32_t ctaid[3];
    uint64_t i = r->cluster;
    uint32_t id[3] = { (uint32_t)(i % p->ncluster[0]), (uint32_t)(i / p->ncluster[0] % p->ncluster[1]),
                       (uint32_t)(i / p->ncluster[0] / p->ncluster[1]) };
    uint32_t cid[3] = { r->cta % p->cluster[0], r->cta / p->cluster[0] % p->cluster[1],
                        r->cta / p->cluster[0] / p->cluster[1] };
    for (int d = 0; d < 3; d++)
        ctaid[d] = id[d] * p->cluster[d] + cid[d];
    char who[48], where[512], at[512];
    if (r->tid0 == r->tid1)
        snprintf(who, sizeof who, "thread %u", r->tid0);
    else
        snprintf(who, sizeof who, "threads %u-%u", r->tid0, r->tid1);
    interp_where(c, (int)(r->site >> 20), r->site & 0xfffff, where, sizeof where);
    snprintf(at, sizeof at, "%s", where);
    char *cut = strstr(at, ": ");     /* file:line (cu:line): source */
    if (cut)
        *cut = 0;
    snprintf(head, hn, "CTA (%u,%u,%u) %s at %s", ctaid[0], ctaid[1], ctaid[2], who, at);
    snprintf(full, fn, "CTA (%u,%u,%u) %s (cluster %llu), %s of global 0x%llx..0x%llx, at %s", ctaid[0], ctaid[1],
             ctaid[2], who, (unsigned long long)r->cluster, kind_words(r), (unsigned long long)r->lo,
             (unsigned long long)r->hi, where);
}

static void race_report(const interp_ctx *c, const cg_race *k, const mem_global *g, interp_result *res)
{
    char ha[600], hb[600], fa[900], fb[900], buf[160] = "";
    side(c, &k->a, ha, sizeof ha, fa, sizeof fa);
    side(c, &k->b, hb, sizeof hb, fb, sizeof fb);
    const mem_alloc *al = mem_global_find(g, k->addr);
    if (al)
        snprintf(buf, sizeof buf, " (buffer %s + 0x%llx)", al->name ? al->name : "?",
                 (unsigned long long)(k->addr - al->base));
    bool wa = k->a.kind == CG_PLAIN || k->a.kind == CG_ASYNC, wb = k->b.kind == CG_PLAIN || k->b.kind == CG_ASYNC;
    const char *why = wa && wb ? "they write different bytes, so which stay depends on timing"
                      : wa || wb ? "a plain write against an atomic or reduction, which it may land before "
                                   "or after (an update lost)"
                                 : "reductions of different operations, whose result depends on their order";
    snprintf(res->msg, sizeof res->msg,
             "fault: data race [grid-write-race]: %s and %s both write global 0x%llx%s, different clusters, "
             "nothing orders them: %s; neither cluster synchronised through global memory (an atomic, an "
             "acquire/release/volatile access or a gpu-scope fence) after its write while the other did before "
             "its own\n  first side: %s\n  other side: %s",
             ha, hb, (unsigned long long)k->addr, buf, why, fa, fb);
    res->status = INTERP_FAULT;
}

uint64_t ip_gw_finish(interp_ctx *const *cs, int n, uint64_t err_cluster, interp_result *res)
{
    cg_log *logs[64], **lv = n <= 64 ? logs : malloc((size_t)n * sizeof *lv);
    if (!lv)
        return UINT64_MAX;
    int k = 0;
    uint64_t dropped = UINT64_MAX;
    const interp_ctx *any = NULL;
    for (int i = 0; i < n; i++)
        if (cs[i] && cs[i]->gw) {
            lv[k++] = cs[i]->gw;
            any = cs[i];
            uint64_t d = cg_first_dropped(cs[i]->gw);
            dropped = d < dropped ? d : dropped;
        }
    uint64_t found = UINT64_MAX;
    if (any) {
        uint64_t limit = dropped < err_cluster ? dropped : err_cluster;
        cg_race r;
        size_t checked;
        mem_global *g = any->plan->launch.gmem;
        if (cg_find(lv, k, limit, final_bytes, g, &r, &checked)) {
            found = r.b.cluster;
            race_report(any, &r, g, res);
        } else if (dropped < err_cluster && res->status == INTERP_OK) {
            snprintf(res->msg, sizeof res->msg,
                     "the grid-wide write check stopped recording at cluster %llu (over %u records): writes of "
                     "clusters from there on were not compared", (unsigned long long)dropped, CG_CAP);
        }
    }
    if (lv != logs)
        free(lv);
    return found;
}
