/* interp.h — the PTX interpreter (public face of interp/).
 *
 * A launch (interp_launch) names a parsed module, an entry, the grid /
 * block / cluster shape, the parameter block and global memory.  Two ways
 * to run it:
 *
 *  - interp_run(): runs the whole grid (on `jobs` host threads, one cluster
 *    at a time per thread; clusters are independent, so results are the same
 *    for any `jobs`) and fills an interp_result;
 *  - the step API (interp_new / interp_step / interp_run_until / interp_free)
 *    for the debugger: one warp instruction (or one async landing) per step,
 *    breakpoints, and read access to every warp, register, shared memory,
 *    mbarrier and in-flight async operation.  interp_run is a loop over it
 *    (with a faster inner loop, interp/uop.c, executing the same
 *    instructions in the same order).
 *
 * Execution model (details in interp/exec.c and interp/sched.c):
 *  - a warp is 32 threads, each with its own PC (and call frame).  A warp
 *    step runs the *group* of its runnable threads that share the lowest
 *    (frame, PC) — deepest call frame first, then lowest instruction index.
 *    Divergent paths therefore reconverge at the first common instruction
 *    after them without post-dominator analysis (the lower path runs until
 *    it reaches the other path's PC).  Threads blocked at bar.sync or in an
 *    mbarrier wait are not runnable, so the warp runs its other threads
 *    (independent thread scheduling).
 *  - warps of the resident CTAs are scheduled round-robin, a few
 *    instructions per turn; execution is sequentially consistent, so fences
 *    are no-ops.
 *  - async (TMA / bulk) instructions become in-flight operations landed by
 *    the completion policy (eager, deferred, random[:seed]).
 *
 * Address encoding (memory/mem.h has the constants):
 *  - shared::cta addresses are 32-bit offsets into the CTA's window; the
 *    first 1 KiB is reserved (as on sm_90), so 0 is never valid;
 *  - shared::cluster addresses put (rank + 1) in bits 24..31:
 *    MEM_SHARED_CLUSTER_ADDR(rank, off); an address below 1<<24 names the
 *    executing CTA's own window;
 *  - generic addresses: shared at MEM_GENERIC_SHARED + shared32, local at
 *    MEM_GENERIC_LOCAL + offset, kernel params at MEM_GENERIC_PARAM +
 *    offset, anything else is global (.const/.global variables live in
 *    global memory, so their const/global address is their device address).
 */
#ifndef PTXI_INTERP_H
#define PTXI_INTERP_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include "ir/ir.h"
#include "memory/mem.h"

typedef enum {
    INTERP_COMPLETE_DEFERRED = 0,  /* land when nothing but pollers/waiters can run */
    INTERP_COMPLETE_EAGER,         /* land at issue */
    INTERP_COMPLETE_RANDOM         /* out of order, in chunks, at random points (seed) */
} interp_policy;

/* interp_result.status */
enum {
    INTERP_OK = 0,
    INTERP_FAULT,        /* memory/alignment violation, TMA fault, mbarrier misuse */
    INTERP_DEADLOCK,     /* every warp waits and nothing in flight can wake one */
    INTERP_UNSUPPORTED,  /* an instruction ptxi does not execute (mma, tex, ...) */
    INTERP_TRAP,         /* trap / brkpt executed */
    INTERP_LAUNCH_ERROR, /* bad launch: shape, shared memory size, params */
    INTERP_STEP_LIMIT,   /* interp_launch.max_steps exceeded */
    INTERP_INTERRUPTED   /* *interp_launch.stop became non-zero (time limit, Ctrl-C) */
};

/* Values of *interp_launch.stop. */
enum { INTERP_STOP_NONE = 0, INTERP_STOP_SIGNAL, INTERP_STOP_TIMEOUT, INTERP_STOP_REQUEST };

typedef struct interp_launch {
    const ir_module *mod;
    const ir_function *entry;
    uint32_t grid[3], block[3], cluster[3];  /* cluster {0,0,0} = {1,1,1}
                                                (or the entry's .reqnctapercluster) */
    uint32_t dyn_smem;                       /* bytes of dynamic shared memory */
    const uint8_t *params;                   /* built from the entry's .param layout */
    uint32_t params_size;
    mem_global *gmem;                        /* module variables are allocated here too */
    int jobs;                                /* host threads over clusters (0/1 = one) */
    interp_policy policy;
    uint64_t seed;                           /* for INTERP_COMPLETE_RANDOM */
    /* Optional (0 = default). */
    uint64_t max_steps;                      /* warp instructions in all; 0 = unlimited */
    bool no_check;                           /* --check=none: no happens-before checking
                                                (check/; on by default) */
    bool no_contract;                        /* --no-contract: every mul and add rounds
                                                on its own, as the PTX reads, instead of
                                                fusing the pairs ptxas fuses (contract/) */
    /* Polled between warp turns (every IP_QUANTUM instructions at most):
     * once non-zero (INTERP_STOP_*, which the message names), the run ends
     * with INTERP_INTERRUPTED.  Set it from a signal handler or a watchdog
     * thread; NULL = never. */
    const volatile int *stop;
    uint64_t *progress;                      /* clusters started so far, for a
                                                progress display; NULL = none */
    FILE *printf_out;                        /* device printf; NULL = stdout */
} interp_launch;

typedef struct interp_result {
    int status;                  /* INTERP_OK, INTERP_FAULT, ... */
    char msg[4096];              /* who (cta/warp/lane), where (file:line + source), what;
                                    with INTERP_OK, empty or a note (the grid-wide
                                    write check stopped recording at its cap) */
    uint64_t steps;              /* warp instructions executed */
    uint64_t thread_instrs;      /* thread instructions executed: for each warp
                                    instruction, the lanes of the group that issued
                                    it, predicated-off lanes included (what Nsight
                                    calls thread_inst_executed) */
    uint64_t wall_ns;            /* interp_run: wall time of the execution (workers
                                    started to joined; no parse, no plan) */
} interp_result;

/* Run the launch to completion.  Returns res->status. */
int interp_run(const interp_launch *l, interp_result *res);

/* ---- step API ----------------------------------------------------------- */

typedef struct interp_ctx interp_ctx;

/* Creates the launch state (module variables allocated in l->gmem, first
 * wave of CTAs resident).  Never NULL except on out-of-memory; a launch
 * error is reported by the first interp_step (event INTERP_EV_ERROR). The
 * step API always runs on one host thread (l->jobs is ignored). */
interp_ctx *interp_new(const interp_launch *l);
void interp_free(interp_ctx *c);

typedef enum {
    INTERP_EV_NONE = 0,   /* one warp instruction executed, still running     */
    INTERP_EV_LANDED,     /* an async operation (or a chunk of it) landed      */
    INTERP_EV_BREAK,      /* a warp reached a breakpoint (not yet executed)    */
    INTERP_EV_WATCH,      /* a watched byte range was written                  */
    INTERP_EV_DONE,       /* every CTA exited: result status INTERP_OK         */
    INTERP_EV_ERROR       /* run stopped: interp_get_result() says why         */
} interp_event_kind;

typedef struct interp_event {
    int kind;          /* interp_event_kind */
    int cta;           /* resident CTA slot (interp_cta_info), -1 if none */
    int warp;          /* warp in the CTA, -1 if none */
    uint32_t lanes;    /* lanes that executed (or sit at the breakpoint) */
    int func;          /* function index of the instruction */
    uint32_t pc;       /* instruction index in that function */
    int op;            /* in-flight op id for INTERP_EV_LANDED, else -1 */
} interp_event;

/* One step: the scheduler's next warp executes one instruction (or an async
 * operation lands).  Returns ev->kind. */
int interp_step(interp_ctx *c, interp_event *ev);
/* Step one specific warp (resident CTA slot, warp index); if it has no
 * runnable thread, returns INTERP_EV_NONE with ev->lanes == 0. */
int interp_step_warp(interp_ctx *c, int cta, int warp, interp_event *ev);
/* Step until an event other than INTERP_EV_NONE (and INTERP_EV_LANDED if
 * stop_on_land is false), or max_steps (0 = no limit) steps.  Returns
 * ev->kind (INTERP_EV_NONE when the step budget ran out). */
int interp_run_until(interp_ctx *c, uint64_t max_steps, bool stop_on_land, interp_event *ev);
/* The result so far (status INTERP_OK while running). */
const interp_result *interp_get_result(const interp_ctx *c);
bool interp_finished(const interp_ctx *c);

/* Breakpoints: stop before any thread executes instruction `pc` of function
 * `func`.  Watchpoints: stop after a write touching [addr, addr+len) of the
 * given generic/global address (shared: generic shared window address). */
int interp_break_add(interp_ctx *c, int func, uint32_t pc);   /* returns id >= 0 */
int interp_watch_add(interp_ctx *c, uint64_t generic_addr, uint64_t len);
void interp_break_del(interp_ctx *c, int id);
void interp_watch_del(interp_ctx *c, int id);

/* ---- inspection (debugger) ------------------------------------------------ */

const interp_launch *interp_get_launch(const interp_ctx *c);
uint64_t interp_clock(const interp_ctx *c);            /* steps so far */

/* Resident CTAs: slots 0..interp_ncta()-1. */
int interp_ncta(const interp_ctx *c);
typedef struct interp_cta_info {
    uint32_t ctaid[3];
    uint32_t cluster_id[3];
    uint32_t cluster_rank;  /* %cluster_ctarank */
    int nwarps;
    bool done;              /* every thread exited */
    uint8_t *smem;          /* host view of the shared window (addresses 0..smem_size-1) */
    uint32_t smem_size;     /* includes the reserved first KiB */
    uint32_t dyn_smem_base; /* shared address of dyn_smem[] */
} interp_cta_info;
int interp_cta_get(const interp_ctx *c, int cta, interp_cta_info *out);

/* Why a thread does not run. */
enum {
    INTERP_T_READY = 0,   /* runnable */
    INTERP_T_EXITED,      /* exited / returned from the entry */
    INTERP_T_BAR,         /* waiting at bar.sync / barrier.sync (wait_id = barrier number) */
    INTERP_T_CLUSTER_BAR, /* waiting at barrier.cluster.wait */
    INTERP_T_MBAR_POLL,   /* last try_wait/test_wait failed (wait_addr = mbarrier) */
    INTERP_T_BULK_WAIT,   /* cp.async.bulk.wait_group with groups pending */
    INTERP_T_INACTIVE     /* lane outside the block (partial last warp) */
};
typedef struct interp_warp_info {
    int nlanes;            /* threads of the block in this warp (<= 32) */
    uint32_t exited;       /* lane masks */
    uint32_t ready;
    uint32_t blocked;
    int func[32];          /* function index per lane */
    uint32_t pc[32];       /* instruction index per lane */
    uint8_t state[32];     /* INTERP_T_* */
    uint64_t wait_addr[32];/* barrier number, or shared address of the mbarrier */
    int depth[32];         /* call depth (0 = the entry) */
} interp_warp_info;
int interp_warp_get(const interp_ctx *c, int cta, int warp, interp_warp_info *out);

/* Register `slot` of the function `lane` currently executes (its frame). Returns
 * false if the slot is out of range.  Values are zero-extended raw bits. */
bool interp_reg_get(const interp_ctx *c, int cta, int warp, int lane, uint32_t slot, uint64_t *val);
bool interp_reg_set(interp_ctx *c, int cta, int warp, int lane, uint32_t slot, uint64_t val);
/* All 128 bits of a .b128 register: interp_reg_get/_set see only its low
 * 64 (its high half lives in another slot bank, interp/internal.h).  For a
 * narrower register *hi is 0, and setting it takes `lo` alone (hi ignored). */
bool interp_reg_get128(const interp_ctx *c, int cta, int warp, int lane, uint32_t slot, uint64_t *lo,
                       uint64_t *hi);
bool interp_reg_set128(interp_ctx *c, int cta, int warp, int lane, uint32_t slot, uint64_t lo, uint64_t hi);

/* Read memory as thread (cta, warp, lane) would through a generic address
 * (shared window: its CTA, local window: its local memory).  false if the
 * range is not mapped. */
bool interp_mem_read(const interp_ctx *c, int cta, int warp, int lane,
                     uint64_t generic_addr, void *buf, size_t n);

/* mbarrier state decoded from its 8 bytes (interp/mbarrier.c). */
typedef struct interp_mbar {
    bool initialised;
    uint32_t phase;          /* current phase parity (0/1) */
    uint32_t expected;       /* arrival count of each phase */
    uint32_t pending;        /* arrivals still expected in the current phase */
    int32_t tx;              /* outstanding transaction bytes (may be < 0 transiently) */
} interp_mbar;
void interp_mbar_decode(uint64_t word, interp_mbar *out);
/* The mbarrier at shared address `saddr` of CTA slot `cta`. */
bool interp_mbar_get(const interp_ctx *c, int cta, uint32_t saddr, interp_mbar *out);

/* In-flight async operations. */
int interp_ninflight(const interp_ctx *c);
/* One-line description of in-flight op i (kind, source line, destination,
 * mbarrier, bytes).  Returns the op's id, -1 if i is out of range. */
int interp_inflight_describe(const interp_ctx *c, int i, char *buf, size_t len);

/* "file:line: <source text>" of instruction pc of function func. */
int interp_where(const interp_ctx *c, int func, uint32_t pc, char *buf, size_t len);

/* When instruction pc of function func is an add that ptxas fuses with the
 * mul (or div.full) before it into one fma, and this launch does too (it
 * was not made with no_contract): that mul's instruction index; else -1. */
int64_t interp_contracted(const interp_ctx *c, int func, uint32_t pc);

/* ---- debugger views (interp/debug.c) ------------------------------------- */

/* In-flight op i as fields.  Spaces are IR_SPACE_*: a shared destination is
 * IR_SPACE_SHARED_CLUSTER with `dst` the offset in each CTA of cta_mask; a
 * shared source is IR_SPACE_SHARED_CTA at `src` of CTA slot src_cta.
 * Returns the op's id, -1 if i is out of range. */
struct tma_map;
typedef struct interp_inflight {
    int id;
    const char *kind;        /* "TMA load", "TMA store", "bulk copy global->shared::cluster", ... */
    int cta, warp, lane;     /* issuing thread (CTA slot) */
    int func;                /* issuing instruction */
    uint32_t pc;
    int dst_space, src_space;
    uint64_t dst, src;
    int dst_cta, src_cta;    /* CTA slots, -1 = none / see cta_mask */
    uint32_t cta_mask;       /* shared destinations: CTA ranks written */
    uint32_t bytes;          /* bytes written (TMA loads: the tx-count they complete) */
    bool has_mbar;
    uint32_t mbar;           /* mbarrier offset in each destination CTA */
    bool bulk_group;
    uint32_t group;          /* issuing thread's bulk group */
    const struct tma_map *map; /* tensor ops: the decoded map, else NULL */
    int dim;
    int32_t coords[5];       /* tensor ops: the box's tensor coordinates */
} interp_inflight;
int interp_inflight_get(const interp_ctx *c, int i, interp_inflight *out);

/* Address of symbol `sym` (module symbol index) and its IR_SPACE_* (shared:
 * shared::cta offset; global/const: device address; entry param: offset in
 * the parameter block; .local and .func params: local offset of thread
 * (cta, warp, lane)'s frame).  false if the symbol has no address. */
bool interp_sym_addr(const interp_ctx *c, int cta, int warp, int lane, uint32_t sym, int *space, uint64_t *addr);
/* The address operand k of instruction pc of function func as thread
 * (cta, warp, lane) computes it now, and the space the instruction names
 * (IR_SPACE_NONE = generic).  false if the lane is not in that function. */
bool interp_instr_addr(const interp_ctx *c, int cta, int warp, int lane, int func, uint32_t pc, int k,
                       int *space, uint64_t *addr);
/* What a lane waits on: state INTERP_T_*; INTERP_T_BAR: addr = barrier
 * number; INTERP_T_MBAR_POLL: the mbarrier at offset addr of CTA slot cta,
 * waiting for the phase with parity `parity` to complete. */
typedef struct interp_wait {
    int state;
    int cta;
    uint64_t addr;
    uint32_t parity;
} interp_wait;
bool interp_lane_wait(const interp_ctx *c, int cta, int warp, int lane, interp_wait *out);

/* Call stack of a lane, innermost first: out[0] is the function the lane
 * runs and the pc it stands at; out[k] (k > 0) a caller and the pc of its
 * call instruction (ret_pc: where the callee returns to).  Returns the
 * number of frames filled (0 if the lane exited or does not exist). */
typedef struct interp_frame_info {
    int func;
    uint32_t pc;
    uint32_t ret_pc;
} interp_frame_info;
int interp_lane_frames(const interp_ctx *c, int cta, int warp, int lane, interp_frame_info *out, int max);
/* Register `slot` of a lane's frame `level` (0 = innermost, as
 * interp_reg_get; 1 = its caller, ...). */
bool interp_frame_reg_get(const interp_ctx *c, int cta, int warp, int lane, int level, uint32_t slot,
                          uint64_t *val);
/* Where CTA ctaid stands in the run: resident (*slot = its CTA slot), done
 * (its cluster ran already), later (not yet started), none (outside the grid). */
enum { INTERP_CTA_NONE = 0, INTERP_CTA_RESIDENT, INTERP_CTA_DONE, INTERP_CTA_LATER };
int interp_cta_where(const interp_ctx *c, const uint32_t ctaid[3], int *slot);
/* The instruction a lane in `state` (INTERP_T_*) waits at: the interpreter
 * parks a lane blocked at a barrier, or whose mbarrier wait failed, after
 * the instruction; this gives that instruction (the line users look for). */
uint32_t interp_wait_pc(const ir_module *m, int func, uint32_t pc, int state);
/* Bytes of each CTA's shared window (the reserved first KiB included). */
uint32_t interp_smem_size(const interp_ctx *c);

/* ---- wgmma (interp/wgmma.c) ---------------------------------------------- */

/* The wgmma.mma_async operations of the current cluster issued and not yet
 * covered by a wgmma.wait_group, one paragraph each into buf: warpgroup,
 * issuing line, shape and types, state (issued by which warps, in flight,
 * landed), the descriptors decoded and the registers it writes.  Returns
 * how many. */
int interp_wgmma_describe(const interp_ctx *c, char *buf, size_t n);
/* The fragment `which` ('d': accumulators, 'a': the A registers) of the
 * wgmma.mma_async at (func, pc), as the matrix it holds: read from the
 * registers of the warpgroup of warp `warp` of CTA slot `cta`, one text row
 * per matrix row.  Returns 0, or -1 with the reason in buf. */
int interp_wgmma_matrix(const interp_ctx *c, int cta, int warp, int func, uint32_t pc, char which, char *buf,
                        size_t n);

#endif
