/* internal.h — interp/'s private data structures, shared by its files.
 *
 *   launch.c    launch plan (symbol layout, module variables), CTA/warp
 *               creation, interp_run and the parallel cluster workers
 *   sched.c     the warp scheduler, step API, deadlock detection, accessors
 *   exec.c      instruction semantics (one switch over the opcode, lane loops)
 *   uop.c       the pre-decoded fast path: common ALU instructions and
 *               branches lowered once per launch, run for a whole warp
 *   memops.c    address resolution and checked loads/stores/atomics
 *   mbarrier.c  the mbarrier state machine in its 8 shared-memory bytes
 *   async.c     TMA / bulk operations in flight, bulk groups, landing
 *
 * Ownership: a plan (ip_plan) is built once per launch and shared read-only
 * by every worker; a context (interp_ctx) runs one cluster at a time; a
 * cluster owns its CTAs, a CTA its shared memory and warps, a warp its
 * register frames and local memory.  Nothing is allocated per instruction
 * (call frames are pooled per warp).
 */
#ifndef PTXI_INTERP_INTERNAL_H
#define PTXI_INTERP_INTERNAL_H

#include <stdarg.h>
#include "interp/interp.h"
#include "tma/tma.h"
#include "check/check.h"
#include "check/grid.h"
#include "tc/tc.h"

#define IP_WARP 32
#define IP_NBAR 16             /* named barriers per CTA */
#define IP_QUANTUM 64          /* instructions a warp runs before the next gets a turn */
#define IP_LOCAL_STACK 16384u  /* bytes of local memory per thread (frames + .local) */
#define IP_MAX_SMEM (228u * 1024u)

/* A pre-decoded instruction (uop.c).  At plan time every instruction of
 * the module whose semantics are a plain function of its register inputs
 * (integer add/mul/mad/logic/shift, setp, selp, mov, int<->int and
 * int->f32 cvt, f32 add/sub/mul/fma, bra), and scalar ld/st.global, is
 * lowered to one of these, with
 * its operands as register slots: an immediate becomes a constant slot
 * (slot >= the function's nregs) that ip_frame_push fills in every frame,
 * so a source is always `regs[slot * 32 + lane]`.  Everything else stays
 * IP_U_GENERIC and goes through ip_exec. */
typedef struct ip_uop {
    uint8_t kind;              /* IP_U_* (uop.c); 0 = generic */
    uint8_t sub;               /* per kind: comparison, signedness, ... */
    uint8_t bits;              /* width of the instruction type */
    uint8_t guard_neg;
    int32_t guard;             /* predicate slot, -1 = none */
    uint32_t d, a, b, c;       /* destination and source slots */
    uint64_t dmask;            /* value mask of the destination register */
    uint32_t target;           /* bra: instruction index */
    int64_t off;               /* ld/st: address offset */
    uint8_t sb, db;            /* cvt: source / destination widths */
    uint8_t ssg, dsg;          /* cvt: source / destination signed */
} ip_uop;

/* Where a symbol lives, decided at launch. */
enum { IP_LOC_NONE = 0, IP_LOC_GLOBAL, IP_LOC_SHARED, IP_LOC_KPARAM, IP_LOC_FRAME, IP_LOC_FUNC };

typedef struct ip_plan {
    const interp_launch *l;
    interp_launch launch;      /* copy */
    const ir_module *mod;
    int entry;                 /* function index */
    uint8_t *symloc;           /* per symbol: IP_LOC_* */
    uint64_t *symaddr;         /* per symbol: address in its space / frame offset */
    uint32_t *frame_bytes;     /* per function: local frame size */
    uint64_t **regmask;        /* per function, per slot: value mask of the register */
    const ir_instr **xin;      /* per function: the instructions executed, the
                                * module's own or xown's copy (contract.c) */
    ir_instr **xown;           /* per function: the module's instructions with each
                                * contracted add an fma (contract/), NULL when the
                                * function has no pair or contraction is off */
    struct ctr_pair **pairs;   /* per function: those pairs, in order of the add */
    int *npairs;
    ip_uop **uops;             /* per function, per instruction (uop.c) */
    uint32_t *nconst;          /* per function: constant slots after its registers */
    uint64_t **konst;          /* per function: their values */
    uint8_t *wide;             /* per function: declares .b128 registers, whose high
                                * 64 bits live in a second bank of slots
                                * after the constants (ip_hi_slot) */
    bool fast;                 /* uops and bursts on (PTXI_NO_FASTPATH unset) */
    tc_wg_form **wgf;          /* per function, per instruction: decoded
                                * wgmma.mma_async forms (NULL: function has none) */
    uint8_t **wgacc;           /* per function, per instruction: accesses a register
                                * that a wgmma.mma_async uses (wgmma.c) */
    bool wg_any;               /* the module has wgmma.mma_async */
    bool gw_note;              /* the module has a TMA or bulk copy (cp.async.bulk{.tensor},
                                  cp.reduce.async.bulk{.tensor}, their prefetch): the checker notes generic
                                  global stores, which may write a tensor map or what a TMA load reads
                                  (ck_gwrite) */
    struct ip_tcw **tcw;       /* per function, per instruction: decoded warp-level
                                * matrix forms (mma.c; NULL: function has none) */
    uint32_t static_smem;      /* end of static shared variables */
    uint32_t dyn_base;         /* shared address of dyn_smem[] */
    uint32_t smem_size;        /* total shared window per CTA */
    uint32_t cluster[3];
    uint32_t ncluster[3];      /* clusters in the grid per dimension */
    uint64_t nclusters;
    uint32_t cta_per_cluster;
    uint32_t nthreads, nwarps; /* per CTA */
    char err[1024];            /* launch error, empty if none */
} ip_plan;

typedef struct ip_frame {
    int func;
    uint32_t seq;              /* larger = more recent (deeper) */
    uint32_t nregs;
    uint32_t local_base;       /* per-thread local offset of this frame */
    int parent;                /* frame index, -1 for the entry frame */
    uint32_t ret_pc;           /* in the parent */
    uint32_t call_pc;          /* the call instruction in the parent */
    uint32_t refs;             /* lanes referring to it; 0 = free */
    uint64_t *regs;            /* regs[slot * 32 + lane] */
    uint32_t cap;              /* allocated slots */
} ip_frame;

struct ip_cta;

typedef struct ip_warp {
    struct ip_cta *cta;
    int id;
    int nlanes;
    uint32_t valid;            /* lanes that exist */
    uint32_t exited;
    uint32_t polling;          /* last mbarrier wait failed; see sched.c */
    uint32_t converging;       /* parked at an .aligned instruction until the
                                  warp's lanes still behind arrive; sched.c */
    uint32_t conv_need;        /* the live lanes when they parked */
    uint32_t ccf;              /* carry flag per lane (add.cc / addc) */
    uint32_t pc[IP_WARP];
    uint16_t fr[IP_WARP];      /* frame index per lane */
    uint8_t st[IP_WARP];       /* INTERP_T_* */
    uint64_t wait[IP_WARP];    /* barrier id / mbarrier shared address */
    uint32_t wait_aux[IP_WARP];/* parity, or bar.red destination slot */
    int wait_cta[IP_WARP];     /* CTA (in cluster) owning the polled mbarrier */
    uint32_t bulk_seq[IP_WARP];/* bulk async-group sequence (committed groups) */
    uint32_t cbar_phase[IP_WARP]; /* barrier.cluster phase the lane arrived in, +1 */
    ip_frame *frames;
    int nframes, capframes;
    uint32_t frame_seq;
    uint8_t *local;            /* IP_WARP * IP_LOCAL_STACK, lazily allocated */
    bool break_skip;           /* resume over a breakpoint once */
    uint32_t wg_busy;          /* wgmma.mma_async issued and not yet waited for */
} ip_warp;

typedef struct ip_bar {
    uint32_t arrived, expected;   /* expected 0 = every non-exited thread */
    uint32_t red_popc, red_and, red_or;
    int red_op;                   /* 0 none, else IR_M_OP_POPC / IR_M_AND / IR_M_OR */
} ip_bar;

struct ip_wg;

typedef struct ip_cta {
    struct ip_cluster *cl;
    struct ip_wg *wg;          /* per warpgroup wgmma state (wgmma.c), NULL until used */
    struct ip_wg_dirty *wg_dirty; /* generic writes not yet fenced for the async proxy */
    int slot;                  /* index in the cluster = %cluster_ctarank */
    uint32_t ctaid[3];
    uint32_t cid[3];           /* %cluster_ctaid */
    uint8_t *smem;
    uint32_t smem_size;
    ip_warp *warps;
    int nwarps;
    uint32_t live;             /* threads not exited */
    ip_bar bar[IP_NBAR];
} ip_cta;

typedef struct ip_cluster {
    uint64_t index;            /* linear cluster index in the grid */
    uint32_t id[3];
    ip_cta *ctas;
    int ncta;
    uint64_t clock;            /* warp instructions executed in the cluster */
    uint32_t cbar_phase;       /* barrier.cluster */
    uint32_t cbar_arrived;
    uint32_t live;             /* threads not exited */
} ip_cluster;

/* An asynchronous (TMA / bulk) operation in flight. */
enum { IP_OP_TENSOR = 1, IP_OP_BULK_G2S, IP_OP_BULK_S2G, IP_OP_BULK_S2S, IP_OP_BULK_RED,
       IP_OP_PREFETCH, IP_OP_WGMMA };
typedef struct ip_op {
    int id;
    int kind;                  /* IP_OP_* */
    const ir_instr *in;        /* issuing instruction (for messages) */
    int func; uint32_t pc;
    int cta, warp, lane;       /* issuing thread (CTA slot in the cluster) */
    bool bulk_group;           /* completes through the issuing thread's bulk group */
    uint32_t group;            /* that thread's bulk_seq at issue */
    tma_map map;
    tma_request req;           /* smem/smem_size filled per destination at landing */
    uint16_t mcast;            /* destination CTA mask (bit = rank) */
    uint32_t smem_off;         /* destination/source shared offset */
    uint32_t foot;             /* tensor: shared bytes touched from smem_off */
    uint32_t mbar_off;         /* mbarrier offset (in each destination CTA) */
    bool has_mbar;
    bool pair;                 /* tensor load .cta_group::2: the mbarrier is in the CTA
                                  of each destination's pair with mbar_cta's parity */
    int mbar_cta;              /* CTA slot of the instruction's mbarrier operand */
    uint64_t gaddr;            /* bulk: global address */
    uint32_t bytes;            /* bulk: size */
    int src_cta;               /* bulk s2s: source CTA slot; dst CTA below */
    int dst_cta;
    uint32_t src_off;
    int redop;                 /* TMA_RED_* */
    int rtype;                 /* ir_type of a bulk reduction */
    uint32_t ck_rec;           /* checker's first record of it (hooks.c), UINT32_MAX none */
    int wg;                    /* wgmma: warpgroup in the CTA */
    uint32_t wg_seq;           /* wgmma: its index in the warpgroup's sequence */
    int piece;                 /* tensor load landing in pieces (random policy):
                                  1 + its slot in interp_ctx.pieces; 0 none */
} ip_op;

struct interp_ctx {
    ip_plan *plan;
    bool own_plan;
    interp_result res;
    bool finished;
    /* cluster range this context runs (interp_run workers share a counter) */
    uint64_t next_cluster;
    uint64_t *shared_next;     /* NULL = sequential */
    uint64_t *shared_stop;     /* workers: lowest cluster index that failed */
    uint64_t stop_at;          /* sequential: same, local */
    uint64_t err_cluster;      /* cluster index of res (when status != OK) */
    ip_cluster cl;
    bool have_cl;
    int cur_cta, cur_warp, quantum;
    /* async */
    ip_op *ops;
    int nops, capops, next_op_id;
    uint64_t rng;
    struct ip_piece {          /* a load landing in pieces: its chunks */
        bool used;
        uint32_t n, done, cap; /* chunks in all, landed so far, room */
        uint32_t *off;         /* shared offset of chunk k, in landing order */
        uint8_t *data;         /* chunk k's 16 bytes */
        uint32_t *uend;        /* units (land whole): unit u ends before chunk uend[u] */
        uint32_t nu, udone;    /* units in all, landed so far */
    } *pieces;
    int npieces;
    uint8_t *scratch;          /* a shared-memory window the pieced loads run into */
    uint32_t scratch_size;
    struct ip_landed {         /* the last complete_tx landings, for reports */
        uint64_t cluster;
        int id, kind, tkind;   /* op id, IP_OP_*, TMA_LOAD.. */
        int func; uint32_t pc; /* issuing instruction */
        int cta; uint32_t mbar_off, bytes, parity;
    } landed[16];
    unsigned nlanded;          /* total recorded; landed[n % 16] is the next slot */
    /* deadlock detection */
    uint64_t effects;          /* memory-visible actions so far */
    uint64_t idle_effects;     /* `effects` at the last all-waiting re-poll */
    bool idle_repolled;
    /* debugger */
    uint8_t **bp;              /* per function, per instruction: breakpoint set */
    int nbp;
    struct { uint64_t addr, len; bool used; } watch[16];
    bool watch_hit;
    bool fast;                 /* interp_run: no debugger, run warps in bursts */
    uint64_t steps;
    uint64_t thread_instrs;
    int xfunc;                 /* instruction being executed (messages) */
    uint32_t xpc;
    int ev_lanes_func;
    struct ck_state *ck;       /* happens-before checker (NULL: --check=none) */
    uint8_t **ck_waits;        /* per function, per instruction: does a try_wait/test_wait's
                                  result decide anything (hooks.c; 0 = not yet known) */
    struct ip_wg_buf *wgbuf;   /* wgmma landing scratch (wgmma.c), allocated once */
    /* grid-wide write check (gridck.c; NULL: --check=none) */
    struct cg_log *gw;
    uint64_t *gw_total;        /* records kept by every context of the launch */
    uint64_t gw_total_own;     /* that count for a context of its own (step API) */
    bool gw_defer;             /* interp_run checks at its end, over all its contexts */
};

/* gridck.c: the grid-wide write-write check (check/grid.h).  Called only
 * when c->gw (the checker is on).  Writes to global memory: a plain or
 * strong store, an atomic (CG_*), by (w, lane) at the instruction being
 * executed; ip_gw_op_write for an asynchronous store's bytes as they land. */
bool ip_gw_start(interp_ctx *c);
void ip_gw_free(interp_ctx *c);
static inline void ip_gw_begin(interp_ctx *c) { cg_begin(c->gw); }
static inline void ip_gw_sync(interp_ctx *c) { cg_sync(c->gw); }
void ip_gw_write(interp_ctx *c, const ip_warp *w, int lane, int kind, uint64_t a, uint32_t n, const uint8_t *bytes);
struct ip_op;
void ip_gw_op_write(interp_ctx *c, const struct ip_op *o, int kind, int op, uint64_t a, uint32_t n,
                    const uint8_t *bytes);
/* the cluster ran to its end: keep its records */
void ip_gw_cluster_end(interp_ctx *c);
/* The end of the launch, over contexts cs[0..n): a race between clusters
 * below the lowest failed cluster (`err_cluster`, UINT64_MAX none) is
 * written into *res (status, message) and its later cluster returned;
 * else UINT64_MAX.  *note gets a line when recording stopped at a cap. */
uint64_t ip_gw_finish(interp_ctx *const *cs, int n, uint64_t err_cluster, interp_result *res);

/* launch.c */
ip_plan *ip_plan_new(const interp_launch *l);
void ip_plan_free(ip_plan *p);
interp_ctx *ip_ctx_new(ip_plan *p);
bool ip_cluster_start(interp_ctx *c, uint64_t index);
void ip_cluster_free(interp_ctx *c);
ip_frame *ip_frame_push(interp_ctx *c, ip_warp *w, int func, int parent);
void ip_frame_release(ip_warp *w, int fi);
bool ip_local_ensure(interp_ctx *c, ip_warp *w);

/* sched.c */
int ip_error(interp_ctx *c, int status, const ip_warp *w, int lane, int func, uint32_t pc,
             const char *fmt, ...) __attribute__((format(printf, 7, 8)));
void ip_thread_exit(interp_ctx *c, ip_warp *w, int lane);
void ip_bar_check(interp_ctx *c, ip_cta *cta, int id);
void ip_cbar_check(interp_ctx *c);

/* exec.c: returns 0, or an interp status (error already recorded) */
int ip_exec(interp_ctx *c, ip_warp *w, uint32_t group);

/* uop.c */
/* Lower every function of the plan's module (p->uops, p->nconst, p->konst);
 * false on out of memory. */
bool ip_lower(ip_plan *p);
void ip_lower_free(ip_plan *p);
/* Execute the instruction of group `g` (all at one frame and PC) through
 * its uop, or ip_exec if it has none.  Returns 0 when every lane of g
 * went on to one same instruction of the same frame and nothing else in
 * the warp changed, 1 when the caller must look at the warp again
 * (divergent branch, generic instruction), -1 when the run stopped. */
int ip_exec_fast(interp_ctx *c, ip_warp *w, uint32_t g);
/* Run the converged group g (every runnable lane of w, at one frame and
 * PC) through consecutive uops, at most `budget` of them; stops before an
 * instruction without one (or one that must go through ip_exec) and after
 * a divergent branch (*diverged = true).  Uops do not touch thread states,
 * so the group stays the warp's runnable lanes throughout.  Returns the
 * instructions executed; the caller counts them (steps, clock, quantum). */
uint32_t ip_run_uops(interp_ctx *c, ip_warp *w, uint32_t g, uint32_t budget, bool *diverged);

/* memops.c */
typedef struct ip_ptr {
    uint8_t *p;            /* host pointer, NULL on failure */
    int space;             /* IR_SPACE_* resolved */
    int cta;               /* shared: CTA slot in the cluster */
    uint32_t soff;         /* shared: offset in that CTA */
} ip_ptr;
/* Resolve [addr, addr+n) in `space` for thread (w, lane); on failure records
 * a fault (naming `what`) and returns p == NULL. */
ip_ptr ip_resolve(interp_ctx *c, ip_warp *w, int lane, int space, uint64_t addr, uint32_t n,
                  uint32_t align, const char *what);
/* "ld.global.v4.u32" for the instruction being executed (messages only);
 * ip_resolve uses it when `what` is NULL. */
const char *ip_instr_what(const interp_ctx *c, char *buf, size_t n);
/* Shared address (cta or cluster form) -> CTA slot + offset, no check. */
bool ip_shared_decode(const interp_ctx *c, const ip_cta *self, uint32_t saddr, int *cta,
                      uint32_t *off);
uint64_t ip_sym_addr(const interp_ctx *c, const ip_warp *w, int lane, uint32_t sym, int *space);
void ip_note_write(interp_ctx *c, uint64_t gaddr, uint64_t n);

/* mbarrier.c (word = the 8 shared bytes) */
int ip_mbar_init(uint64_t *word, uint32_t count, char *why, size_t n);
int ip_mbar_arrive(uint64_t *word, uint32_t count, bool drop, bool has_tx, uint32_t tx,
                   uint64_t *token, char *why, size_t n);
int ip_mbar_expect_tx(uint64_t *word, uint32_t tx, char *why, size_t n);
int ip_mbar_complete_tx(uint64_t *word, uint32_t tx, char *why, size_t n);
bool ip_mbar_test(uint64_t word, bool parity_form, uint64_t arg);
uint32_t ip_mbar_pending(uint64_t token);
/* "phase parity 0, 1 of 2 arrivals pending, tx-count 64 bytes outstanding"
 * (or why the phase cannot complete), for reports; returns buf */
const char *ip_mbar_describe(uint64_t word, char *buf, size_t n);

/* async.c */
/* issue one async instruction for the lanes of `exec`; 0 or a status */
int ip_async_issue(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec);
int ip_async_land(interp_ctx *c, int i);
/* free what the async proxy holds (ops, pieced loads) */
void ip_async_ctx_free(interp_ctx *c);
/* a cluster ends: ops in flight are dropped, their pieces with them */
void ip_async_reset(interp_ctx *c);
/* thread (cta, warp, lane) has operations in flight in its bulk groups
 * numbered below `upto` (groups count from 0; commit_group ends one) */
bool ip_async_groups_busy(const interp_ctx *c, int cta, int warp, int lane, uint32_t upto);
/* address operand k of `in` for lane l: value and space */
uint64_t ip_addr(interp_ctx *c, ip_warp *w, ip_frame *f, const ir_instr *in, int k, uint32_t l,
                 int *space);
uint64_t ip_opd(interp_ctx *c, ip_warp *w, ip_frame *f, const ir_instr *in, int k, uint32_t l);
/* A generic-proxy access by (w, lane) to [off, off+n) of CTA slot `cta`'s
 * shared memory races with an operation in flight that writes those bytes
 * (any access) or reads them (`write`): records the fault and returns its
 * status, else 0.  Call only when c->nops. */
/* The landings recorded on the mbarrier at `off` of CTA slot `cta` in this
 * cluster, as report lines ("\n" + indent before each); "" if none. */
void ip_async_landed_on(const interp_ctx *c, int cta, uint32_t off, const char *indent, char *buf, size_t n);
int ip_async_smem_race(interp_ctx *c, ip_warp *w, int lane, int cta, uint32_t off, uint32_t n, bool write,
                       const char *what);

/* hooks.c: the checker's feed (called only when c->ck).  A warp is agent
 * (CTA slot * warps per CTA + warp); an instruction's site is its function
 * << 20 | its index. */
static inline uint32_t ip_ck_agent(const interp_ctx *c, const ip_warp *w)
{
    return (uint32_t)(w->cta->slot * (int)c->plan->nwarps + w->id);
}
static inline uint32_t ip_ck_site(const interp_ctx *c) { return (uint32_t)c->xfunc << 20 | (c->xpc & 0xfffff); }
struct ck_conflict;
/* the report of a conflict found by ck_access for (w, lane) */
int ip_ck_report(interp_ctx *c, ip_warp *w, int lane, const struct ck_conflict *k, bool write, uint32_t n, int cta);
bool ip_ck_start(interp_ctx *c);
void ip_ck_free(interp_ctx *c);
/* flags: CK_WRITE, CK_SYNC (atomic or ordered access), CK_SAME (check/check.h) */
int ip_ck_access(interp_ctx *c, ip_warp *w, int lane, const ip_ptr *p, uint32_t n, unsigned flags);
void ip_ck_bar_arrive(interp_ctx *c, ip_warp *w, int id);
void ip_ck_bar_release(interp_ctx *c, ip_cta *t, int id);
void ip_ck_cbar_arrive(interp_ctx *c, ip_warp *w);
void ip_ck_cbar_release(interp_ctx *c);
void ip_ck_cbar_pass(interp_ctx *c, ip_warp *w);
int ip_ck_mbar(interp_ctx *c, ip_warp *w, int lane, int op, int cta, uint32_t off, uint64_t before, uint64_t after,
               uint32_t value);
int ip_ck_mbar_observed(interp_ctx *c, ip_warp *w, int lane, int cta, uint32_t off, bool parity);
/* The mbarrier at (cta, off) was invalidated (mbarrier.inval) and not
 * initialised since: true, with who did it in buf. */
bool ip_ck_mbar_invalidated(interp_ctx *c, int cta, uint32_t off, char *buf, size_t n);
void ip_ck_describe_missed(interp_ctx *c, ip_warp *w, int cta, uint32_t off, uint32_t parity, const char *ind,
                           char *buf, size_t n);
int ip_ck_wait_used(interp_ctx *c, ip_warp *w, int lane, const ir_instr *in);
void ip_ck_describe_mbar(interp_ctx *c, int cta, uint32_t off, const char *ind, char *buf, size_t n);
void ip_ck_deadlock_others(interp_ctx *c, const uint32_t (*seen)[2], int nseen, char *buf, size_t n);
int ip_ck_issue(interp_ctx *c, ip_warp *w, ip_op *o, const char *what);
/* sm_80 cp.async into shared memory, its commit groups, waits and mbarrier arrive-on */
int ip_ck_cpasync(interp_ctx *c, ip_warp *w, int lane, const ip_ptr *p, uint32_t n);
void ip_ck_cpasync_commit(interp_ctx *c, ip_warp *w);
void ip_ck_cpasync_wait(interp_ctx *c, ip_warp *w, int64_t n);
int ip_ck_cpasync_arrive(interp_ctx *c, ip_warp *w, int lane, int op, int cta, uint32_t off, uint64_t before,
                         uint64_t after);
int ip_ck_complete(interp_ctx *c, const ip_op *o, int d, int mc, uint64_t before, uint64_t after, uint32_t tx);
void ip_ck_bulk_waited(interp_ctx *c, ip_warp *w, int lane, uint32_t upto, bool read_only);
/* bar.warp.sync executed by `exec` with membermask mask[lane] */
void ip_ck_warp_sync_lanes(interp_ctx *c, ip_warp *w, const uint32_t *mask, uint32_t exec);
/* a generic global access, while asynchronous stores may be writing */
int ip_ck_global(interp_ctx *c, ip_warp *w, int lane, uint64_t a, uint32_t n, bool write);
static inline bool ip_ck_gactive(const interp_ctx *c) { return c->ck && ck_gactive(c->ck); }
void ip_ck_proxy_fence(interp_ctx *c, ip_warp *w);
void ip_ck_mbar_init_fence(interp_ctx *c, ip_warp *w);
static inline void ip_ck_warp_sync(interp_ctx *c, ip_warp *w)
{
    if (c->ck)
        ck_warp_sync(c->ck, ip_ck_agent(c, w));
}
/* bar.warp.sync with one membermask (c->ck set): a mask holding every
 * live lane of the warp orders the whole warp */
static inline void ip_ck_warp_sync_mask(interp_ctx *c, ip_warp *w, uint32_t mask)
{
    uint32_t live = w->valid & ~w->exited;
    if ((mask & live) == live)
        ck_warp_sync(c->ck, ip_ck_agent(c, w));
    else
        ck_warp_sync_mask(c->ck, ip_ck_agent(c, w), mask & w->valid);
}
/* tensor maps written in global memory, their acquire fences, their use by a TMA */
void ip_ck_tmap_write(interp_ctx *c, ip_warp *w, int lane, uint64_t a);
void ip_ck_tmap_acquire(interp_ctx *c, ip_warp *w, uint64_t a);
int ip_ck_tmap_use(interp_ctx *c, ip_warp *w, int lane, uint64_t a);
int ip_ck_exit(interp_ctx *c, ip_warp *w, int lane);
int ip_ck_wgmma_issue(interp_ctx *c, ip_warp *w, ip_op *o, const uint32_t win[2][2]);
void ip_ck_wgmma_waited(interp_ctx *c, ip_warp *w, uint32_t upto);
/* wgmma.c: wgmma.fence / mma_async / commit_group / wait_group for the
 * lanes of exec (returns 0, 1 when it moved the PCs itself, or a status);
 * landing of an IP_OP_WGMMA; plan-time decoding; per-CTA state. */
int ip_wgmma_exec(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t group, uint32_t exec);
int ip_wgmma_land(interp_ctx *c, const ip_op *o);
bool ip_warp_mma_plan(ip_plan *p);
void ip_warp_mma_plan_free(ip_plan *p);
bool ip_wgmma_plan(ip_plan *p);
void ip_wgmma_plan_free(ip_plan *p);
void ip_wgmma_cta_free(ip_cta *t);
void ip_wgmma_ctx_free(interp_ctx *c);
/* the register check: instruction `in` executed by warp w touches a register
 * of a wgmma in flight (or writes one without a wgmma.fence after): reports
 * and returns the status, else 0.  Call only when w->wg_busy. */
/* a generic-proxy write by (w, lane) to [off, off+n) of CTA slot cta: noted
 * for the fence.proxy.async rule, and a fault if an mma_async may still
 * read it; fence.proxy.async by w forgets the noted writes */
int ip_wgmma_smem_write(interp_ctx *c, ip_warp *w, int lane, int cta, uint32_t off, uint32_t n, const char *what);
void ip_wgmma_proxy_fence(interp_ctx *c, ip_warp *w);
int ip_wgmma_reg_check(interp_ctx *c, ip_warp *w, const ir_instr *in, ip_frame *f, uint32_t exec);

static inline ip_frame *ip_lane_frame(ip_warp *w, int lane) { return &w->frames[w->fr[lane]]; }
static inline const ir_function *ip_func(const interp_ctx *c, int f) { return &c->plan->mod->funcs[f]; }
/* element i of a register or vector operand of fn (NULL past its end) */
static inline const ir_operand *ip_vec_elem(const ir_function *fn, const ir_operand *o, unsigned i)
{
    if (o->kind == IR_OPD_VEC)
        return i < o->u.vec.n ? &fn->vecpool[o->u.vec.first + i] : NULL;
    return i == 0 ? o : NULL;
}
/* A register slot holds 64 bits; the high half of .b128 register `r` of a
 * frame of function `f` is slot ip_hi_slot(c, f, r) (only where
 * plan->wide[f]): registers, constants, then one high half per register. */
static inline uint32_t ip_hi_slot(const interp_ctx *c, int f, uint32_t r)
{
    return c->plan->mod->funcs[f].nregs + (c->plan->nconst ? c->plan->nconst[f] : 0) + r;
}
/* The high half of register slot `reg` in `lane` of frame `f`, or NULL when
 * the function declares no .b128 register (or `reg` is a constant slot). */
static inline uint64_t *ip_hi_ref(const interp_ctx *c, ip_frame *f, uint32_t reg, uint32_t lane)
{
    if (!c->plan->wide[f->func] || reg >= f->nregs)
        return NULL;
    return &f->regs[(size_t)ip_hi_slot(c, f->func, reg) * IP_WARP + lane];
}

#endif
