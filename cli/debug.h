/* debug.h — `ptxi debug` internals shared by its files:
 *   cmd_debug.c      session, REPL, run control, breakpoints (conditions,
 *                    ignore counts, commands), watchpoints, the command table
 *   debug_inspect.c  everything that looks at state: warps, registers,
 *                    memory, mbarriers, tensor maps, copies in flight, listing
 *   debug_expr.c     expressions (print, x, conditions) and display
 *   debug_stack.c    the call stack: bt, frame, up, down, info frame
 *   debug_focus.c    cuda-gdb's focus: cta, cuda block/thread/warp/lane
 *   debug_source.c   CUDA source lines from .file/.loc
 *   debug_complete.c tab completion at a terminal
 *
 * A session owns one launch case, its parsed module, and per run (`run`
 * restarts one) its global memory, parameter block and interpreter
 * context.  The selected warp (cta, warp) is what `step`, `print` and
 * `info registers` act on; a stop selects the warp that stopped.
 */
#ifndef PTXI_CLI_DEBUG_H
#define PTXI_CLI_DEBUG_H

#include <stdbool.h>
#include <stdint.h>
#include "launch/launch.h"
#include "interp/interp.h"

enum { DBG_IDLE = 0, DBG_STOPPED, DBG_FINISHED };   /* not started / paused mid-run / ended */

/* Spaces an address typed at the prompt can name. */
enum { DBG_SP_GENERIC = 0, DBG_SP_SHARED, DBG_SP_GLOBAL, DBG_SP_PARAM, DBG_SP_LOCAL };

#define DBG_WATCH_MAX 64   /* bytes a watchpoint compares */

typedef struct dbg_bp {
    int num;
    int func;
    uint32_t pc;
    bool enabled, temp;
    unsigned hits;
    unsigned ignore;       /* hits still to pass over (`ignore N COUNT`) */
    char *cond;            /* stop only where this expression holds (NULL: always) */
    char **cmds;           /* `commands N`: lines run when it stops */
    size_t ncmds;
} dbg_bp;

typedef struct dbg_watch {
    int num;
    int space;             /* DBG_SP_SHARED (offset in CTA slot `cta`) or DBG_SP_GLOBAL */
    uint64_t addr;
    uint32_t len;
    int cta;
    uint32_t ctaid[3];     /* the CTA `old` was read from (a new cluster reloads it) */
    bool have;             /* old holds the last value seen */
    uint8_t old[DBG_WATCH_MAX];
    unsigned hits;
    bool enabled;
    char fmt;              /* how values print: 'f' float, 'd', 'u', 'x', 0 = by the symbol's type */
    int type;              /* ir type the value is shown as (0: raw) */
} dbg_watch;

typedef struct dbg_mbar { int cta; uint32_t off; } dbg_mbar;   /* an mbarrier seen initialised */

typedef struct dbg_sym {
    const char *name;      /* PTX name */
    char *shortname;       /* "tile" for _ZZ10tma_tile2dE4tile, or NULL */
    int space;             /* DBG_SP_* */
    uint64_t addr, size;
    uint32_t index;        /* module symbol index */
} dbg_sym;

typedef struct dbg {
    launch_case *lc;
    ir_module *mod;
    const ir_function *entry;
    mem_global *g;
    uint8_t *params;
    uint32_t psize;
    interp_launch l;
    interp_ctx *c;
    interp_policy policy;
    uint64_t seed;
    uint64_t max_steps;        /* --max-steps (interp_launch.max_steps), default 4e9 */
    bool no_contract;          /* --no-contract (interp_launch.no_contract) */
    double timeout;            /* --timeout: seconds any one command may run; 0 = none */
    int state;
    int cta, warp;         /* selected warp */
    int lane;              /* selected lane, -1 = the first lane of the warp's next group */
    dbg_bp *bps;
    size_t nbps;
    dbg_watch *watches;
    size_t nwatches;
    int next_num;          /* breakpoints and watchpoints share numbers, as in gdb */
    dbg_mbar *mbars;
    size_t nmbars, capmbars;
    dbg_sym *syms;
    size_t nsyms;
    uint32_t nlines;       /* lines of the PTX source */
    uint32_t list_next;    /* first line of a plain `list`, 0 = around the selected warp */
    char xfmt, xsize;      /* last x/FMT */
    int xspace;
    uint64_t xnext;
    bool xhave;
    int verdict;           /* -1 no run finished, 0 PASS, 1 FAIL */
    int frame;             /* selected frame of the selected lane: 0 innermost (bt, up, down, frame) */
    struct dbg_display { int num; char fmt; char *expr; bool enabled; } *displays;
    size_t ndisplays;
    int next_display;
    struct dbg_hist { uint64_t u; double f; char kind; unsigned bits; } *hist;   /* $1, $2, ... */
    size_t nhist;
    int collect_num;       /* `commands N`: lines go to breakpoint N until `end` (0: none) */
    int stopped_bp;        /* number of the breakpoint the last stop reported, 0 none */
    int depth;             /* nesting of source/commands (a guard against loops) */
    bool quit;             /* a sourced file said quit */
    bool history_save;     /* `set history save on` */
    char *history_file;
    bool source_view;      /* list/step in CUDA source lines (when the PTX has .loc) */
    struct launch_trace *trace;   /* --trace FILE.json (launch/trace.c), or NULL */
    const char *trace_path;
    struct dbg_srcfiles *src;   /* CUDA source files named by .file, read when shown */
    int list_file;         /* -1: the last list showed PTX; else the .file it showed */
} dbg;

/* A value of an expression (cli/debug_expr.c): an integer of `bits` bits
 * (kind 's' signed, 'u' unsigned, 'p' predicate) or a float (kind 'f': f
 * holds it, u its raw bits when it came from a register or memory, bits
 * its width). */
typedef struct dbg_value {
    char kind;
    unsigned bits;
    uint64_t u;
    double f;
} dbg_value;

/* Evaluate EXPR as lane `lane` of the selected warp sees it, in the selected
 * frame: numbers, %registers (%r5, %r5[LANE]), special registers (%tid.x,
 * %ctaid.y, %laneid, ...), $pc, $lane, $warp, $N/$ (value history),
 * variables and buffers (their address), the C operators (unary - ! ~,
 * * / %, + -, << >>, comparisons, & ^ |, && ||) and parentheses.
 * Returns 0, or -1 with a message in err. */
int dbg_eval(dbg *d, const char *expr, int lane, dbg_value *out, char *err, size_t errlen);
bool dbg_value_true(const dbg_value *v);
/* raw bits (at most 64) as a value of PTX type `type` (ir_type) */
dbg_value dbg_typed_value(uint64_t raw, int type);
/* v in gdb's format letter fmt (0 = by its kind). */
void dbg_value_str(const dbg_value *v, char fmt, char *buf, size_t n);
/* "%r5" at s, with an optional [LANE]; chars consumed (0 if none). */
size_t dbg_scan_reg(const char *s, char *name, size_t n, int *lane);
/* Register `name` of the function that frame d->frame of `lane` runs:
 * its slot and type; -1 if there is none. */
int dbg_reg_find(const dbg *d, const char *name, int lane, uint32_t *slot, int *type);
/* Read a register of `lane` in the selected frame (low 64 bits; hi gets the
 * high half of a .b128 in frame 0, else 0). */
bool dbg_reg_read(const dbg *d, int lane, uint32_t slot, uint64_t *lo, uint64_t *hi);
int dbg_sreg_value(const dbg *d, const char *name, int lane, uint64_t *v);
void dbg_fmt_value(char *buf, size_t n, uint64_t v, int type, unsigned bits, char fmt);
/* The function and pc of frame d->frame of `lane` (false if none). */
bool dbg_frame_at(const dbg *d, int lane, int *func, uint32_t *pc);

/* Messages: errors go to stderr after flushing stdout, so a transcript
 * (2>&1) keeps its order. */
void dbg_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* debug_inspect.c */
void dbg_syms_build(dbg *d);
void dbg_syms_free(dbg *d);
const dbg_sym *dbg_sym_find(const dbg *d, const char *name);
const dbg_sym *dbg_sym_at(const dbg *d, int space, uint64_t addr);
const char *dbg_space_name(int space);
bool dbg_resident(const dbg *d);
/* The lanes the warp runs next (its scheduler group) and where: runnable
 * lanes first, then pollers, then blocked lanes.  false if every lane has
 * exited or the warp is not resident. */
bool dbg_warp_next(const dbg *d, int cta, int warp, uint32_t *lanes, int *func, uint32_t *pc);
int dbg_ref_lane(const dbg *d);
char *dbg_lanes_str(uint32_t mask, char *buf, size_t n);
/* "file.ptx:57" */
void dbg_loc_str(const dbg *d, int func, uint32_t pc, char *buf, size_t n);
/* Print where warp (cta, warp) stands: "CTA (0,0,0) warp 1 lanes 0-31 at
 * tma_tile2d.ptx:59 (pc 21)" and the source line.  prefix may be NULL. */
void dbg_show_warp(const dbg *d, int cta, int warp, const char *prefix);
void dbg_show_source_line(const dbg *d, uint32_t line, bool current);
/* What lane l of (cta, warp) is doing, in words ("ready", "waiting at barrier 0 (bar.sync)", ...). */
void dbg_lane_state_str(const dbg *d, int cta, int warp, int l, char *buf, size_t n);
/* The pc a stop report shows for a lane in `state` (a waiting lane: its wait instruction). */
uint32_t dbg_shown_pc(const dbg *d, int func, uint32_t pc, int state);
/* Location: LINE, FILE:LINE, FUNC, LABEL or *PC.  Returns 0 and func/pc of
 * the first instruction at or after it, or -1 (message printed). */
int dbg_parse_location(const dbg *d, const char *s, int *func, uint32_t *pc);
/* [SPACE] EXPR: an address typed by the user.  *rest gets the text after
 * the expression.  Returns 0, or -1 with a message printed. */
int dbg_parse_addr(const dbg *d, const char *s, int defspace, int *space, uint64_t *addr, const char **rest);
/* Read n bytes; false with `why` set when they are not mapped. */
bool dbg_read(const dbg *d, int space, uint64_t addr, void *buf, size_t n, char *why, size_t whylen);
bool dbg_shared_of(const dbg *d, int cta, int space, uint64_t a, int *owner, uint32_t *off);

void dbg_cmd_print(dbg *d, const char *fmt, const char *args);
void dbg_cmd_x(dbg *d, const char *fmt, const char *args);
void dbg_cmd_list(dbg *d, const char *fmt, const char *args);
void dbg_cmd_disas(dbg *d, const char *fmt, const char *args);
void dbg_cmd_set(dbg *d, const char *fmt, const char *args);
void dbg_info_warps(dbg *d, const char *args);
void dbg_info_registers(dbg *d, const char *args);
void dbg_info_mbarriers(dbg *d, const char *args);
void dbg_info_tmaps(dbg *d, const char *args);
void dbg_info_async(dbg *d, const char *args);
void dbg_info_wgmma(dbg *d, const char *args);
void dbg_info_desc(dbg *d, const char *args);
void dbg_print_matrix(dbg *d, const char *args);
void dbg_info_launch(dbg *d, const char *args);
void dbg_info_line(dbg *d, const char *args);
void dbg_info_cuda_source(dbg *d);

/* debug_expr.c: display */
void dbg_show_displays(dbg *d);
void dbg_cmd_display(dbg *d, const char *fmt, const char *args);
void dbg_cmd_undisplay(dbg *d, const char *fmt, const char *args);
void dbg_info_display(dbg *d, const char *args);
void dbg_displays_free(dbg *d);

/* debug_source.c: CUDA/Python source lines from .file/.loc */
void dbg_source_init(dbg *d);
void dbg_source_free(dbg *d);
/* The .file and line .loc gives instruction pc of func; false if none. */
bool dbg_src_at(const dbg *d, int func, uint32_t pc, int *file, uint32_t *line);
const char *dbg_src_name(const dbg *d, int file);   /* base name */
const char *dbg_src_line(const dbg *d, int file, uint32_t line, size_t *len);   /* NULL: not at hand */
uint32_t dbg_src_nlines(const dbg *d, int file);
int dbg_src_file_named(const dbg *d, const char *name);
int dbg_src_to_pc(const dbg *d, int file, uint32_t line, int *func, uint32_t *pc);
void dbg_show_src_line(const dbg *d, int file, uint32_t line, bool current);
void dbg_list_src(dbg *d, int file, uint32_t first, uint32_t last, uint32_t here);

/* debug_complete.c: tab completion (the names come from cmd_debug.c's tables) */
void dbg_complete_init(dbg *d);
void dbg_complete_done(void);
const char *dbg_cmd_name(size_t i);    /* NULL past the last */
const char *dbg_info_name(size_t i);

/* cmd_debug.c: run control the other files use */
bool dbg_check_running(dbg *d);   /* false (message printed) when nothing can run */
/* Run until CTA id is resident (breakpoints passed over); its slot, or -1
 * with a message (outside the grid, already ran, the run stopped). */
int dbg_run_to_cta(dbg *d, const uint32_t id[3]);

/* debug_focus.c */
void dbg_cmd_cta(dbg *d, const char *fmt, const char *args);
void dbg_cmd_cuda(dbg *d, const char *fmt, const char *args);
void dbg_info_cuda(dbg *d, const char *args);

/* debug_stack.c */
void dbg_cmd_bt(dbg *d, const char *fmt, const char *args);
void dbg_cmd_frame(dbg *d, const char *fmt, const char *args);
void dbg_cmd_up(dbg *d, const char *fmt, const char *args);
void dbg_cmd_down(dbg *d, const char *fmt, const char *args);
void dbg_info_frame(dbg *d, const char *args);
int dbg_stack_depth(const dbg *d, int lane);

#endif
