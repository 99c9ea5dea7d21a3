/* test_interp_uop.c — the pre-decoded fast path (interp/uop.c) computes
 * exactly what the general path (interp/exec.c) computes.
 *
 * One kernel applies every instruction form the fast path lowers (and a
 * few it must refuse) to per-thread inputs: edge values (0, -1, INT_MIN,
 * shift counts around the width, f32 infinities, NaNs, subnormals) paired
 * every way, then pseudo-random ones; predicated forms with data-dependent
 * guards, a divergent if/else and a divergent loop run the same forms on
 * partial masks; the block is not a multiple of 32.  It runs with the fast
 * path and with PTXI_NO_FASTPATH=1 (every instruction through ip_exec), and
 * with -j 2; the output bytes must be identical. */
#include <stdlib.h>
#include "tests/unit/interp_harness.h"

/* Instruction forms: result in %rx (b32), %qx (b64), %fx (f32), %hx (b16)
 * or %px (pred).  Inputs: %ra %rb %rc (b32), %qa %qb %qc (b64), %fa %fb
 * %fc (f32, same bits as %ra..), %ha (b16), %p %q (pred). */
static const char *const forms[] = {
    "add.s32 %rx, %ra, %rb", "add.u32 %rx, %ra, -5", "sub.s32 %rx, %ra, %rb", "sub.u32 %rx, 7, %rb",
    "mul.lo.s32 %rx, %ra, %rb", "mul.lo.u32 %rx, %ra, 1664525", "mul.wide.s32 %qx, %ra, %rb",
    "mul.wide.u32 %qx, %ra, %rb", "mul.wide.s16 %rx, %ha, %ha", "mad.lo.s32 %rx, %ra, %rb, %rc",
    "mad.lo.u32 %rx, %ra, 1664525, 1013904223", "mad.wide.s32 %qx, %ra, %rb, %qc",
    "mad.wide.u32 %qx, %ra, %rb, %qc", "mul.hi.s32 %rx, %ra, %rb", "mad.hi.u32 %rx, %ra, %rb, %rc",
    "min.s32 %rx, %ra, %rb", "min.u32 %rx, %ra, %rb", "max.s32 %rx, %ra, %rb", "max.u32 %rx, %ra, 9",
    "and.b32 %rx, %ra, %rb", "and.b32 %rx, %ra, 1020", "or.b32 %rx, %ra, %rb", "xor.b32 %rx, %ra, %rb",
    "xor.b32 %rx, %ra, -1", "not.b32 %rx, %ra", "shl.b32 %rx, %ra, %rb", "shl.b32 %rx, %ra, 2",
    "shl.b32 %rx, %ra, 40", "shr.u32 %rx, %ra, %rb", "shr.u32 %rx, %ra, 3", "shr.s32 %rx, %ra, %rb",
    "shr.s32 %rx, %ra, 31", "shr.s32 %rx, %ra, 77", "shr.b32 %rx, %ra, %rc",
    "add.s64 %qx, %qa, %qb", "sub.s64 %qx, %qa, %qb", "mul.lo.u64 %qx, %qa, %qb",
    "mad.lo.s64 %qx, %qa, %qb, %qc", "min.s64 %qx, %qa, %qb", "max.u64 %qx, %qa, %qb",
    "and.b64 %qx, %qa, %qb", "or.b64 %qx, %qa, 255", "xor.b64 %qx, %qa, %qb", "not.b64 %qx, %qa",
    "shl.b64 %qx, %qa, %rb", "shl.b64 %qx, %qa, 2", "shr.u64 %qx, %qa, %rb", "shr.s64 %qx, %qa, %rb",
    "shr.s64 %qx, %qa, 63", "add.s16 %hx, %ha, %ha", "mul.lo.u16 %hx, %ha, 3",
    "setp.eq.s32 %px, %ra, %rb", "setp.ne.u32 %px, %ra, 0", "setp.lt.s32 %px, %ra, %rb",
    "setp.le.s32 %px, %ra, %rb", "setp.gt.s32 %px, %ra, %rb", "setp.ge.s32 %px, %ra, %rb",
    "setp.lt.u32 %px, %ra, %rb", "setp.le.u32 %px, %ra, %rb", "setp.gt.u32 %px, %ra, %rb",
    "setp.ge.u32 %px, %ra, 3", "setp.lo.u32 %px, %ra, %rb", "setp.ls.u32 %px, %ra, %rb",
    "setp.hi.u32 %px, %ra, %rb", "setp.hs.u32 %px, %ra, %rb", "setp.lt.s64 %px, %qa, %qb",
    "setp.ge.u64 %px, %qa, %qb", "setp.eq.b64 %px, %qa, %qb", "setp.lt.s16 %px, %ha, 0",
    "setp.eq.f32 %px, %fa, %fb", "setp.ne.f32 %px, %fa, %fb", "setp.lt.f32 %px, %fa, %fb",
    "setp.le.f32 %px, %fa, %fb", "setp.gt.f32 %px, %fa, %fb", "setp.ge.f32 %px, %fa, 0f00000000",
    "setp.equ.f32 %px, %fa, %fb", "setp.neu.f32 %px, %fa, %fb", "setp.ltu.f32 %px, %fa, %fb",
    "setp.leu.f32 %px, %fa, %fb", "setp.gtu.f32 %px, %fa, %fb", "setp.geu.f32 %px, %fa, %fb",
    "setp.num.f32 %px, %fa, %fb", "setp.nan.f32 %px, %fa, %fb", "setp.lt.ftz.f32 %px, %fa, %fb",
    "setp.lt.and.s32 %px, %ra, %rb, %p", "selp.b32 %rx, %ra, %rb, %p", "selp.b64 %qx, %qa, 5, %q",
    "selp.f32 %fx, %fa, 0f3F800000, %p", "not.pred %px, %p", "and.pred %px, %p, %q",
    "or.pred %px, %p, %q", "xor.pred %px, %p, %q", "mov.pred %px, %q",
    "cvt.u32.u64 %rx, %qa", "cvt.s32.s64 %rx, %qa", "cvt.u64.u32 %qx, %ra", "cvt.s64.s32 %qx, %ra",
    "cvt.u16.u32 %hx, %ra", "cvt.s16.s32 %hx, %ra", "cvt.s32.s16 %rx, %ha", "cvt.u32.s16 %rx, %ha",
    "cvt.s64.s16 %qx, %ha", "cvt.u64.s32 %qx, %ra", "cvt.s8.s32 %rx, %ra", "cvt.u8.u32 %rx, %ra",
    "cvt.sat.s8.s32 %rx, %ra", "cvt.rn.f32.u32 %fx, %ra", "cvt.rn.f32.s32 %fx, %ra",
    "cvt.rn.f32.s16 %fx, %ha", "cvt.rn.f32.u16 %fx, %ha", "cvt.rz.f32.s32 %fx, %ra",
    "cvt.rn.f32.u64 %fx, %qa", "cvt.rzi.s32.f32 %rx, %fa",
    "add.f32 %fx, %fa, %fb", "add.rn.f32 %fx, %fa, 0f3F800000", "sub.f32 %fx, %fa, %fb",
    "sub.rn.f32 %fx, 0f00000001, %fb", "mul.f32 %fx, %fa, %fb", "mul.rn.f32 %fx, %fa, 0f358637BD",
    "fma.rn.f32 %fx, %fa, %fb, %fc", "fma.rn.f32 %fx, %fa, 0f3F7FF972, %fc", "add.ftz.f32 %fx, %fa, %fb",
    "mul.rz.f32 %fx, %fa, %fb", "add.sat.f32 %fx, %fa, %fb", "fma.rn.ftz.f32 %fx, %fa, %fb, %fc",
    "mov.u32 %rx, 1065354055", "mov.u32 %rx, -3", "mov.f32 %fx, 0f3E800000", "mov.b32 %rx, %fa",
    "mov.b32 %fx, %ra", "mov.b64 %qx, %qa", "mov.u64 %qx, -1", "mov.u16 %hx, %ha",
};
#define NFORMS (sizeof forms / sizeof forms[0])

static const uint32_t edges[] = {
    0, 1, 2, 3, 31, 32, 33, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x7f800000,
    0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x00000001, 0x807fffff, 0x3f800000, 0xbf800000,
    0x00800000, 0x7f7fffff, 0x4b000000, 0x4b800001, 0x0000ffff, 0xffff8000,
};
#define NEDGES (sizeof edges / sizeof edges[0])

enum { SLOT = 8, IN_BYTES = 48 };

static char *build_src(void)
{
    size_t cap = 1 << 20, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, "%s", TH_HEADER
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        "  .reg .b32 %ra, %rb, %rc, %rx, %rt, %ri, %rl;\n"
        "  .reg .b64 %qa, %qb, %qc, %qx, %po, %pi, %qt;\n"
        "  .reg .f32 %fa, %fb, %fc, %fx;\n"
        "  .reg .b16 %ha, %hx;\n"
        "  .reg .pred %p, %q, %px, %pd;\n"
        "  ld.param.u64 %po, [out];\n"
        "  ld.param.u64 %pi, [in];\n"
        "  mov.u32 %rt, %ctaid.x;\n"
        "  mov.u32 %rx, %ntid.x;\n"
        "  mov.u32 %ri, %tid.x;\n"
        "  mad.lo.s32 %rt, %rt, %rx, %ri;\n"        /* global thread index */
        "  mul.wide.u32 %qt, %rt, 48;\n"
        "  add.s64 %pi, %pi, %qt;\n"
        "  ld.global.u32 %ra, [%pi];\n"
        "  ld.global.u32 %rb, [%pi+4];\n"
        "  ld.global.u32 %rc, [%pi+8];\n"
        "  ld.global.u64 %qa, [%pi+16];\n"
        "  ld.global.u64 %qb, [%pi+24];\n"
        "  ld.global.u64 %qc, [%pi+32];\n"
        "  ld.global.u16 %ha, [%pi+40];\n"
        "  mov.b32 %fa, %ra;\n"
        "  mov.b32 %fb, %rb;\n"
        "  mov.b32 %fc, %rc;\n"
        "  and.b32 %rx, %rc, 1;\n"
        "  setp.ne.u32 %p, %rx, 0;\n"
        "  and.b32 %rx, %rc, 2;\n"
        "  setp.eq.u32 %q, %rx, 0;\n");
    /* each form 4 times: straight, guarded, in a divergent branch, in a
     * divergent loop (data-dependent trip count) */
    unsigned nout = 0;
    for (unsigned v = 0; v < 4; v++)
        for (unsigned k = 0; k < NFORMS; k++, nout++) {
            const char *f = forms[k];
            /* result register: the first operand */
            char rr[8];
            snprintf(rr, sizeof rr, "%.3s", strchr(f, '%'));
            n += (size_t)snprintf(s + n, cap - n, "  mov.u64 %%qx, 0;\n  mov.u32 %%rx, 0;\n  mov.f32 %%fx, 0f00000000;\n"
                                  "  mov.u16 %%hx, 0;\n  setp.ne.u32 %%px, %%rx, %%rx;\n");
            switch (v) {
            case 0: n += (size_t)snprintf(s + n, cap - n, "  %s;\n", f); break;
            case 1: n += (size_t)snprintf(s + n, cap - n, "  @%%p %s;\n  @!%%q %s;\n", f, f); break;
            case 2:
                n += (size_t)snprintf(s + n, cap - n,
                                      "  and.b32 %%rl, %%ri, 5;\n  setp.eq.u32 %%pd, %%rl, 1;\n"
                                      "  @%%pd bra T%u;\n  %s;\n  bra J%u;\nT%u:\n  %s;\n  add.s32 %%rl, %%rl, 1;\nJ%u:\n",
                                      nout, f, nout, nout, f, nout);
                break;
            default:
                n += (size_t)snprintf(s + n, cap - n,
                                      "  and.b32 %%rl, %%rc, 3;\nL%u:\n  %s;\n  sub.s32 %%rl, %%rl, 1;\n"
                                      "  setp.ge.s32 %%pd, %%rl, 0;\n  @%%pd bra L%u;\n",
                                      nout, f, nout);
                break;
            }
            /* store the result (pred via selp) at slot nout of this thread */
            unsigned off = nout * SLOT;
            if (!strcmp(rr, "%px"))
                n += (size_t)snprintf(s + n, cap - n, "  selp.u32 %%rx, 1, 0, %%px;\n");
            n += (size_t)snprintf(s + n, cap - n, "  mul.wide.u32 %%qt, %%rt, %u;\n  add.s64 %%qt, %%qt, %%po;\n",
                                  (unsigned)(NFORMS * 4 * SLOT));
            if (!strcmp(rr, "%rx") || !strcmp(rr, "%px"))
                n += (size_t)snprintf(s + n, cap - n, "  st.global.u32 [%%qt+%u], %%rx;\n", off);
            else if (!strcmp(rr, "%qx"))
                n += (size_t)snprintf(s + n, cap - n, "  st.global.u64 [%%qt+%u], %%qx;\n", off);
            else if (!strcmp(rr, "%fx"))
                n += (size_t)snprintf(s + n, cap - n, "  st.global.f32 [%%qt+%u], %%fx;\n", off);
            else
                n += (size_t)snprintf(s + n, cap - n, "  st.global.u16 [%%qt+%u], %%hx;\n", off);
        }
    snprintf(s + n, cap - n, "  ret;\n}\n");
    return s;
}

enum { GRID = 3, BLOCK = 200, NT = GRID * BLOCK };

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Runs the kernel; returns the output bytes (malloc) or NULL. */
static uint8_t *run(const ir_module *m, const uint8_t *input, int jobs, bool fast, char *msg, size_t msglen)
{
    if (fast)
        unsetenv("PTXI_NO_FASTPATH");
    else
        setenv("PTXI_NO_FASTPATH", "1", 1);
    size_t obytes = (size_t)NT * NFORMS * 4 * SLOT;
    mem_global *g = mem_global_new();
    uint64_t out = mem_global_alloc(g, obytes, 256, "out");
    uint64_t in = mem_global_alloc(g, (size_t)NT * IN_BYTES, 256, "in");
    memcpy(mem_global_host(g, in, (size_t)NT * IN_BYTES), input, (size_t)NT * IN_BYTES);
    const ir_function *fn = ir_find_function(m, "k");
    uint8_t params[16];
    memcpy(params, &out, 8);
    memcpy(params + 8, &in, 8);
    interp_launch l;
    memset(&l, 0, sizeof l);
    l.mod = m;
    l.entry = fn;
    l.grid[0] = GRID; l.grid[1] = l.grid[2] = 1;
    l.block[0] = BLOCK; l.block[1] = l.block[2] = 1;
    l.params = params;
    l.params_size = fn->param_bytes;
    l.gmem = g;
    l.jobs = jobs;
    interp_result res;
    interp_run(&l, &res);
    uint8_t *o = NULL;
    if (res.status == INTERP_OK) {
        o = malloc(obytes);
        memcpy(o, mem_global_host(g, out, obytes), obytes);
    } else {
        snprintf(msg, msglen, "%s", res.msg);
    }
    mem_global_free(g);
    unsetenv("PTXI_NO_FASTPATH");
    return o;
}

static void compare(const char *name, const uint8_t *want, const uint8_t *got)
{
    size_t obytes = (size_t)NT * NFORMS * 4 * SLOT;
    for (size_t i = 0; i < obytes; i++)
        if (want[i] != got[i]) {
            size_t slot = i / SLOT, th = slot / (NFORMS * 4), k = slot % (NFORMS * 4);
            uint64_t a = 0, b = 0;
            memcpy(&a, want + slot * SLOT, SLOT);
            memcpy(&b, got + slot * SLOT, SLOT);
            printf("FAIL %s: thread %zu, '%s' (%s): general path 0x%llx, this run 0x%llx\n", name, th,
                   forms[k % NFORMS], (const char *[]){ "straight", "guarded", "if/else", "loop" }[k / NFORMS],
                   (unsigned long long)a, (unsigned long long)b);
            check_failures++;
            return;
        }
    printf("PASS %s\n", name);
}

int main(void)
{
    (void)th_run_k;   /* the harness's helpers for single-run tests */
    (void)th_free;
    char *src = build_src();
    ir_diag d;
    memset(&d, 0, sizeof d);
    d.emit = th_diag_quiet;
    ir_module *m = ptx_parse("uop.ptx", src, strlen(src), &d);
    CHECK("uop/parse", m != NULL);
    if (!m) {
        free(src);
        CHECK_DONE();
    }
    uint8_t *input = calloc(NT, IN_BYTES);
    for (unsigned t = 0; t < NT; t++) {
        uint32_t v[3];
        uint64_t q[3];
        for (int k = 0; k < 3; k++) {
            v[k] = (uint32_t)next();
            q[k] = next();
        }
        if (t < NEDGES * NEDGES) {
            v[0] = edges[t % NEDGES];
            v[1] = edges[t / NEDGES];
            q[0] = (uint64_t)(int64_t)(int32_t)v[0] << (t & 1 ? 32 : 0) | v[1];
            q[1] = t & 2 ? (uint64_t)v[1] : (uint64_t)(int64_t)(int32_t)v[1];
        }
        memcpy(input + (size_t)t * IN_BYTES, v, 12);
        memcpy(input + (size_t)t * IN_BYTES + 16, q, 24);
        uint16_t h = (uint16_t)v[0];
        memcpy(input + (size_t)t * IN_BYTES + 40, &h, 2);
    }
    char msg[4096] = "";
    uint8_t *gen = run(m, input, 1, false, msg, sizeof msg);
    CHECK("uop/general_path_runs", gen != NULL);
    if (!gen)
        printf("# %s\n", msg);
    uint8_t *fast = run(m, input, 1, true, msg, sizeof msg);
    CHECK("uop/fast_path_runs", fast != NULL);
    if (!fast)
        printf("# %s\n", msg);
    uint8_t *fast2 = run(m, input, 2, true, msg, sizeof msg);
    if (gen && fast)
        compare("uop/fast_equals_general", gen, fast);
    if (gen && fast2)
        compare("uop/fast_j2_equals_general", gen, fast2);
    free(gen);
    free(fast);
    free(fast2);
    free(input);
    ir_module_free(m);
    free(src);
    CHECK_DONE();
}
