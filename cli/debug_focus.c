/* debug_focus.c — cuda-gdb's focus in `ptxi debug`: `cta X,Y,Z [WARP]`
 * and `cuda [block X,Y,Z] [thread X,Y,Z]`, `cuda warp W`, `cuda lane L`.
 *
 * A CUDA engineer names a block and a thread; ptxi runs one cluster at a
 * time, so a CTA of a large grid is resident only while its cluster runs.
 * Focusing on a CTA that has not started runs the launch (breakpoints
 * passed over, watchpoints and faults still stop it) until it is resident
 * (dbg_run_to_cta, cmd_debug.c), then selects the warp and lane of the
 * thread; a CTA whose cluster already ran is refused with a hint.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/debug.h"

static const char *skip_ws(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* "2", "2,1", "(2,1,0)": up to three numbers; missing ones are 0. */
static int parse_triple(const char *s, uint32_t v[3], const char **rest)
{
    s = skip_ws(s);
    bool paren = *s == '(';
    s += paren;
    v[0] = v[1] = v[2] = 0;
    int n = 0;
    for (; n < 3; n++) {
        s = skip_ws(s);
        char *end;
        if (!isdigit((unsigned char)*s))
            break;
        v[n] = (uint32_t)strtoul(s, &end, 0);
        s = skip_ws(end);
        if (*s != ',') {
            n++;
            break;
        }
        s++;
    }
    if (paren) {
        if (*s != ')')
            return 0;
        s++;
    }
    *rest = skip_ws(s);
    return n;
}

/* Select thread `t` (x,y,z in the block) of CTA slot `slot`. */
static void focus(dbg *d, int slot, const uint32_t t[3])
{
    const uint32_t *b = d->l.block;
    if (t[0] >= b[0] || t[1] >= b[1] || t[2] >= b[2]) {
        dbg_err("Thread (%u,%u,%u) is outside the block (%u,%u,%u).", t[0], t[1], t[2], b[0], b[1], b[2]);
        return;
    }
    uint32_t lin = t[0] + b[0] * (t[1] + b[1] * t[2]);
    d->cta = slot;
    d->warp = (int)(lin / 32);
    d->lane = (int)(lin % 32);
    d->frame = 0;
    d->list_next = 0;
    interp_cta_info ci;
    interp_cta_get(d->c, slot, &ci);
    printf("[Switching focus to CUDA kernel %s, block (%u,%u,%u), thread (%u,%u,%u): warp %d lane %d]\n",
           d->entry->name, ci.ctaid[0], ci.ctaid[1], ci.ctaid[2], t[0], t[1], t[2], d->warp, d->lane);
    dbg_show_warp(d, d->cta, d->warp, NULL);
}

static void current_focus(dbg *d)
{
    interp_cta_info ci;
    if (!dbg_resident(d) || interp_cta_get(d->c, d->cta, &ci)) {
        dbg_err("Focus not set on any active CUDA kernel.");
        return;
    }
    int lane = dbg_ref_lane(d);
    uint32_t lin = (uint32_t)d->warp * 32 + (uint32_t)lane;
    const uint32_t *b = d->l.block;
    printf("kernel %s, block (%u,%u,%u), thread (%u,%u,%u), warp %d, lane %d\n", d->entry->name, ci.ctaid[0],
           ci.ctaid[1], ci.ctaid[2], lin % b[0], lin / b[0] % b[1], lin / b[0] / b[1], d->warp, lane);
}

/* cta X[,Y,Z] [WARP]: cuda-gdb focus on any CTA of the grid. */
void dbg_cmd_cta(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    uint32_t id[3], t[3] = {0, 0, 0};
    const char *rest;
    if (!*skip_ws(args)) {
        current_focus(d);
        return;
    }
    if (!dbg_check_running(d))
        return;
    if (!parse_triple(args, id, &rest) || (*rest && !isdigit((unsigned char)*rest))) {
        dbg_err("Usage: cta X[,Y[,Z]] [WARP]  (a CTA of the grid by its %%ctaid)");
        return;
    }
    long warp = 0;
    if (*rest) {
        char *end;
        warp = strtol(rest, &end, 0);
        if (*skip_ws(end) || warp < 0) {
            dbg_err("\"%s\" is not a warp number.", rest);
            return;
        }
    }
    int slot = dbg_run_to_cta(d, id);
    if (slot < 0)
        return;
    uint32_t lin = (uint32_t)warp * 32;
    const uint32_t *b = d->l.block;
    if (lin >= b[0] * b[1] * b[2]) {
        dbg_err("Warp %ld is outside the block (%u threads).", warp, b[0] * b[1] * b[2]);
        return;
    }
    t[0] = lin % b[0];
    t[1] = lin / b[0] % b[1];
    t[2] = lin / b[0] / b[1];
    focus(d, slot, t);
}

/* cuda [block X,Y,Z] [thread X,Y,Z] | cuda warp W | cuda lane L: cuda-gdb's focus command. */
void dbg_cmd_cuda(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    args = skip_ws(args);
    if (!*args || !strcmp(args, "kernel") || !strcmp(args, "block") || !strcmp(args, "thread")) {
        current_focus(d);
        return;
    }
    if (!dbg_check_running(d))
        return;
    bool have_block = false, have_thread = false;
    uint32_t id[3] = {0, 0, 0}, t[3] = {0, 0, 0};
    interp_cta_info ci;
    if (dbg_resident(d) && !interp_cta_get(d->c, d->cta, &ci))
        memcpy(id, ci.ctaid, sizeof id);
    const char *p = args;
    while (*p) {
        size_t n = strcspn(p, " \t(");
        const char *rest;
        if (n == 5 && !strncmp(p, "block", 5)) {
            if (!parse_triple(p + 5, id, &rest)) {
                dbg_err("cuda block: expected X[,Y,Z] after \"block\".");
                return;
            }
            have_block = true;
        } else if (n == 6 && !strncmp(p, "thread", 6)) {
            if (!parse_triple(p + 6, t, &rest)) {
                dbg_err("cuda thread: expected X[,Y,Z] after \"thread\".");
                return;
            }
            have_thread = true;
        } else if ((n == 4 && !strncmp(p, "warp", 4)) || (n == 4 && !strncmp(p, "lane", 4))) {
            char *end;
            long v = strtol(p + 4, &end, 0);
            if (end == p + 4 || v < 0) {
                dbg_err("cuda %.*s: expected a number.", (int)n, p);
                return;
            }
            if (!dbg_resident(d)) {
                dbg_err("No CTA is resident yet (`cuda block X,Y,Z` runs until one is).");
                return;
            }
            uint32_t lin = n == 4 && p[0] == 'w' ? (uint32_t)v * 32 : (uint32_t)d->warp * 32 + (uint32_t)v;
            if (p[0] == 'l' && v > 31) {
                dbg_err("cuda lane: 0..31.");
                return;
            }
            const uint32_t *b = d->l.block;
            t[0] = lin % b[0];
            t[1] = lin / b[0] % b[1];
            t[2] = lin / b[0] / b[1];
            have_thread = true;
            rest = skip_ws(end);
        } else {
            dbg_err("Usage: cuda [block X,Y,Z] [thread X,Y,Z] | cuda warp W | cuda lane L");
            return;
        }
        p = rest;
    }
    if (!have_thread && !have_block)
        return;
    int slot = d->cta;
    if (have_block || !dbg_resident(d)) {
        slot = dbg_run_to_cta(d, id);
        if (slot < 0)
            return;
    }
    focus(d, slot, t);
}


/* ---- info cuda kernels|blocks|warps|lanes|threads ---------------------------------- */

static void info_cuda_kernels(dbg *d)
{
    const char *st = d->state == DBG_IDLE ? "not started" : d->state == DBG_FINISHED ? "ended" : "running";
    printf("  Kernel Function  Grid        Block       Cluster  Status\n");
    printf("* 0      %-9s (%u,%u,%u) (%u,%u,%u) (%u,%u,%u) %s\n", d->entry->name, d->l.grid[0], d->l.grid[1],
           d->l.grid[2], d->l.block[0], d->l.block[1], d->l.block[2], d->l.cluster[0] ? d->l.cluster[0] : 1,
           d->l.cluster[1] ? d->l.cluster[1] : 1, d->l.cluster[2] ? d->l.cluster[2] : 1, st);
}

static void info_cuda_blocks(dbg *d)
{
    int n = interp_ncta(d->c);
    printf("  BlockIdx   Slot  Warps  State\n");
    for (int t = 0; t < n; t++) {
        interp_cta_info ci;
        if (interp_cta_get(d->c, t, &ci))
            continue;
        printf("%s (%u,%u,%u) %-5d %-6d %s\n", t == d->cta ? "*" : " ", ci.ctaid[0], ci.ctaid[1], ci.ctaid[2], t,
               ci.nwarps, ci.done ? "exited" : "running");
    }
    uint64_t total = (uint64_t)d->l.grid[0] * d->l.grid[1] * d->l.grid[2];
    printf("(%d of %llu CTAs resident; CTAs run cluster by cluster: `cta X,Y,Z` runs to any of them)\n", n,
           (unsigned long long)total);
}

/* Threads of the focused CTA (or of the selected warp only) in runs of
 * consecutive threads at the same place in the same state, as cuda-gdb. */
static void info_cuda_threads(dbg *d, bool warp_only)
{
    interp_cta_info ci;
    if (interp_cta_get(d->c, d->cta, &ci))
        return;
    const uint32_t *b = d->l.block;
    printf("  BlockIdx   ThreadIdx From -> To       Warp Lanes  Count  PC    Location             State\n");
    int w0 = warp_only ? d->warp : 0, w1 = warp_only ? d->warp + 1 : ci.nwarps;
    for (int w = w0; w < w1; w++) {
        interp_warp_info wi;
        if (interp_warp_get(d->c, d->cta, w, &wi))
            continue;
        for (int l = 0; l < wi.nlanes;) {
            char st[160], sk[160];
            dbg_lane_state_str(d, d->cta, w, l, st, sizeof st);
            int e = l + 1;
            for (; e < wi.nlanes; e++) {
                dbg_lane_state_str(d, d->cta, w, e, sk, sizeof sk);
                bool same = !strcmp(sk, st) && (wi.state[e] == INTERP_T_EXITED ||
                                                 (wi.func[e] == wi.func[l] && wi.pc[e] == wi.pc[l]));
                if (!same)
                    break;
            }
            uint32_t t0 = (uint32_t)w * 32 + (uint32_t)l, t1 = (uint32_t)w * 32 + (uint32_t)e - 1;
            char where[256] = "-", pcs[16] = "-";
            if (wi.state[l] != INTERP_T_EXITED) {
                uint32_t pc = dbg_shown_pc(d, wi.func[l], wi.pc[l], wi.state[l]);
                dbg_loc_str(d, wi.func[l], pc, where, sizeof where);
                snprintf(pcs, sizeof pcs, "%u", pc);
            }
            bool sel = w == d->warp && dbg_ref_lane(d) >= l && dbg_ref_lane(d) < e;
            printf("%s (%u,%u,%u) (%u,%u,%u) -> (%u,%u,%u) %-4d %2d-%-2d %6d  %-5s %-20s %s\n", sel ? "*" : " ",
                   ci.ctaid[0], ci.ctaid[1], ci.ctaid[2], t0 % b[0], t0 / b[0] % b[1], t0 / b[0] / b[1], t1 % b[0],
                   t1 / b[0] % b[1], t1 / b[0] / b[1], w, l, e - 1, e - l, pcs, where, st);
            l = e;
        }
    }
}

void dbg_info_cuda(dbg *d, const char *args)
{
    args = skip_ws(args);
    size_t n = strcspn(args, " \t");
    static const char *const subs[] = {"kernels", "blocks", "warps", "lanes", "threads"};
    int k = -1;
    for (int i = 0; i < 5 && n; i++)
        if (!strncmp(subs[i], args, n))
            k = k < 0 ? i : -2;
    if (k < 0) {
        dbg_err("Usage: info cuda kernels|blocks|warps|lanes|threads%s", k == -2 ? " (ambiguous)" : "");
        return;
    }
    if (k == 0) {
        info_cuda_kernels(d);
        return;
    }
    if (!dbg_resident(d)) {
        dbg_err("No CTA is resident (%s).", d->state == DBG_FINISHED ? "the kernel has exited" : "use `run` first");
        return;
    }
    if (k == 1)
        info_cuda_blocks(d);
    else if (k == 2)
        dbg_info_warps(d, "");
    else
        info_cuda_threads(d, k == 3);
}
