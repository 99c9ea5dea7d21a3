/* debug_stack.c — the call stack of the selected lane in `ptxi debug`:
 * bt/where, frame, up, down, info frame.
 *
 * A lane inside a .func call has one frame per active call
 * (interp_lane_frames): frame 0 is where it stands, frame k its k-th
 * caller, shown at the call instruction.  Selecting a frame (d->frame)
 * makes `print`, `info registers`, expressions and `list` read that
 * frame: the caller's registers live on in its frame while the callee
 * runs, exactly as a CUDA thread's caller-saved state would.  Any stop or
 * change of warp/lane selects frame 0 again.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/debug.h"

#define MAX_FRAMES 64

static const char *skip_ws(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* The lane whose stack we show, and its frames; 0 if none. */
static int lane_frames(const dbg *d, int *lane, interp_frame_info *fr)
{
    if (!dbg_resident(d)) {
        dbg_err("No stack: %s.", d->state == DBG_FINISHED ? "the kernel has exited" : "the kernel is not running");
        return 0;
    }
    *lane = dbg_ref_lane(d);
    int n = interp_lane_frames(d->c, d->cta, d->warp, *lane, fr, MAX_FRAMES);
    if (!n)
        dbg_err("No stack: lane %d of warp %d has exited.", *lane, d->warp);
    return n;
}

static void show_frame(const dbg *d, const interp_frame_info *fr, int k, bool source)
{
    char where[256];
    dbg_loc_str(d, fr[k].func, fr[k].pc, where, sizeof where);
    const ir_function *fn = &d->mod->funcs[fr[k].func];
    printf("#%-2d %s (pc %u) at %s%s\n", k, fn->name, fr[k].pc, where, k ? ", in the call" : "");
    if (source && fr[k].pc < fn->ninstrs)
        dbg_show_source_line(d, fn->instrs[fr[k].pc].loc.line, false);
}

void dbg_cmd_bt(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    (void)args;
    interp_frame_info fr[MAX_FRAMES];
    int lane, n = lane_frames(d, &lane, fr);
    for (int k = 0; k < n; k++) {
        printf("%s", k == d->frame ? "* " : "  ");
        show_frame(d, fr, k, false);
    }
}

static void select_frame(dbg *d, int k)
{
    interp_frame_info fr[MAX_FRAMES];
    int lane, n = lane_frames(d, &lane, fr);
    if (!n)
        return;
    if (k < 0) {
        dbg_err("Bottom (innermost) frame selected; you cannot go down.");
        return;
    }
    if (k >= n) {
        dbg_err("Initial frame selected; you cannot go up (lane %d has %d frame%s).", lane, n, n == 1 ? "" : "s");
        return;
    }
    d->frame = k;
    d->list_next = 0;
    show_frame(d, fr, k, true);
}

static int count_arg(const char *args, int dflt)
{
    args = skip_ws(args);
    if (!*args)
        return dflt;
    char *end;
    long v = strtol(args, &end, 0);
    if (end == args || *skip_ws(end) || v < 0 || v > 1000000) {
        dbg_err("\"%s\" is not a frame count.", args);
        return -1;
    }
    return (int)v;
}

void dbg_cmd_frame(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    int k = count_arg(args, d->frame);
    if (k >= 0)
        select_frame(d, k);
}

void dbg_cmd_up(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    int k = count_arg(args, 1);
    if (k >= 0)
        select_frame(d, d->frame + k);
}

void dbg_cmd_down(dbg *d, const char *fmt, const char *args)
{
    (void)fmt;
    int k = count_arg(args, 1);
    if (k >= 0)
        select_frame(d, d->frame - k);
}

void dbg_info_frame(dbg *d, const char *args)
{
    (void)args;
    interp_frame_info fr[MAX_FRAMES];
    int lane, n = lane_frames(d, &lane, fr);
    if (!n)
        return;
    int k = d->frame < n ? d->frame : n - 1;
    char where[256];
    dbg_loc_str(d, fr[k].func, fr[k].pc, where, sizeof where);
    printf("Stack level %d of lane %d (warp %d), frame of %s:\n", k, lane, d->warp, d->mod->funcs[fr[k].func].name);
    printf("  pc %u at %s\n", fr[k].pc, where);
    if (k + 1 < n) {
        dbg_loc_str(d, fr[k + 1].func, fr[k + 1].pc, where, sizeof where);
        printf("  called by frame %d: %s at %s (pc %u); returns to pc %u\n", k + 1, d->mod->funcs[fr[k + 1].func].name,
               where, fr[k + 1].pc, fr[k + 1].ret_pc);
    } else {
        printf("  the kernel's entry (outermost frame)\n");
    }
    if (k > 0) {
        dbg_loc_str(d, fr[k - 1].func, fr[k - 1].pc, where, sizeof where);
        printf("  calls frame %d: %s\n", k - 1, d->mod->funcs[fr[k - 1].func].name);
    }
    printf("  %u registers declared\n", d->mod->funcs[fr[k].func].nregs);
}

/* Frames of the reference lane (for finish): returns the count. */
int dbg_stack_depth(const dbg *d, int lane)
{
    interp_frame_info fr[MAX_FRAMES];
    return d->c ? interp_lane_frames(d->c, d->cta, d->warp, lane, fr, MAX_FRAMES) : 0;
}
