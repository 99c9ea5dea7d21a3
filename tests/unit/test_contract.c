/* test_contract.c — the mul + add contraction pass (contract/) and its
 * execution.
 *
 * Part 1: for each rule of contract.c, a few instructions where it decides
 * (pairs that must be fused and pairs that must not, with the flags of a
 * subtraction, a neg, div.full).  Each rule has a case that fails when the
 * rule is taken out.  What ptxas does for each case is in
 * tests/hw/contract/ (the same patterns on an H100).
 *
 * Part 2: execution.  A kernel computes fused forms from per-thread f32,
 * f64, f16x2 inputs; with contraction on every lane must equal the C
 * library's fma (one rounding), with --no-contract (interp_launch.
 * no_contract) the two roundings; both through the fast path (uop.c) and
 * with PTXI_NO_FASTPATH=1 (exec.c). */
#include <math.h>
#include <stdlib.h>
#include "tests/unit/interp_harness.h"
#include "contract/contract.h"

/* ---- part 1: the rules --------------------------------------------------- */

#define REGS ".reg .pred %p<4>; .reg .b32 %r<8>; .reg .f32 %f<24>; .reg .f64 %d<8>; .reg .b16 %h<8>; " \
             ".reg .b32 %x<8>; .reg .b64 %rd<4>;\n"

typedef struct {
    const char *name;
    const char *body;    /* instructions; inputs %f1..%f4, %d1..%d3, %h1..%h3, %x1..%x3, %p1 */
    const char *want;    /* the fused adds: "DEST/FLAGS<PRODUCT" each (CTR_* in hex), "" none */
} rule_case;

static const rule_case cases[] = {
    /* the core: add/sub after a mul of the same type, no rounding modifier */
    {"mul_add", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", "%f11/1<%f10"},
    {"add_product_second", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f3, %f10;", "%f11/1<%f10"},
    {"mul_imm_add_imm", "mul.f32 %f10, %f1, 0f3FB8AA3B; add.f32 %f11, %f10, 0f3F800000;", "%f11/1<%f10"},
    /* subtraction and neg: sign flips */
    {"mul_sub", "mul.f32 %f10, %f1, %f2; sub.f32 %f11, %f10, %f3;", "%f11/5<%f10"},
    {"sub_product", "mul.f32 %f10, %f1, %f2; sub.f32 %f11, %f3, %f10;", "%f11/3<%f10"},
    {"neg_add", "mul.f32 %f10, %f1, %f2; neg.f32 %f12, %f10; add.f32 %f11, %f12, %f3;", "%f11/3<%f10"},
    {"neg_sub", "mul.f32 %f10, %f1, %f2; neg.f32 %f12, %f10; sub.f32 %f11, %f3, %f12;", "%f11/1<%f10"},
    /* rounding modifiers forbid it */
    {"mul_rn", "mul.rn.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", ""},
    {"add_rn", "mul.f32 %f10, %f1, %f2; add.rn.f32 %f11, %f10, %f3;", ""},
    {"mul_rz", "mul.rz.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", ""},
    {"sub_rn", "mul.f32 %f10, %f1, %f2; sub.rn.f32 %f11, %f10, %f3;", ""},
    /* every use of the product an add: each is fused; any other use: none */
    {"product_two_adds", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; add.f32 %f12, %f10, %f4;",
     "%f11/1<%f10 %f12/1<%f10"},
    {"product_add_and_sub", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; sub.f32 %f12, %f4, %f10;",
     "%f11/1<%f10 %f12/3<%f10"},
    {"product_stored", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; st.global.f32 [%rd1], %f10;", ""},
    {"product_to_ex2", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; ex2.approx.f32 %f12, %f10;", ""},
    {"product_to_add_rn", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; add.rn.f32 %f12, %f10, %f4;", ""},
    {"product_twice", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f10;", ""},
    {"product_twice_via_mov", "mul.f32 %f10, %f1, %f2; mov.f32 %f12, %f10; add.f32 %f11, %f12, %f10;", ""},
    {"neg_stored", "mul.f32 %f10, %f1, %f2; neg.f32 %f12, %f10; add.f32 %f11, %f12, %f3; "
                   "st.global.f32 [%rd1], %f12;", ""},
    {"through_mov", "mul.f32 %f10, %f1, %f2; mov.f32 %f12, %f10; add.f32 %f11, %f12, %f3;", "%f11/1<%f10"},
    {"through_b32_mov", "mul.f32 %f10, %f1, %f2; mov.b32 %r3, %f10; mov.b32 %f12, %r3; add.f32 %f11, %f12, %f3;",
     "%f11/1<%f10"},
    {"mov_stored", "mul.f32 %f10, %f1, %f2; mov.f32 %f12, %f10; add.f32 %f11, %f12, %f3; "
                   "st.global.f32 [%rd1], %f12;", ""},
    {"through_abs", "mul.f32 %f10, %f1, %f2; abs.f32 %f12, %f10; add.f32 %f11, %f12, %f3;", ""},
    {"fma_then_add", "fma.rn.f32 %f10, %f1, %f2, %f3; add.f32 %f11, %f10, %f4;", ""},
    {"mul_then_fma", "mul.f32 %f10, %f1, %f2; fma.rn.f32 %f11, %f10, %f3, %f4;", ""},
    {"add_then_mul", "add.f32 %f10, %f1, %f2; mul.f32 %f11, %f10, %f3;", ""},
    /* one straight run of code; the mul not predicated, its sources kept */
    {"cond_block", "mul.f32 %f10, %f1, %f2; @%p1 bra $L1; mov.f32 %f3, %f4; $L1: add.f32 %f11, %f10, %f3;", ""},
    {"after_cond_branch", "mul.f32 %f10, %f1, %f2; @%p1 bra $L1; add.f32 %f11, %f10, %f3; $L1: ret;", ""},
    {"used_after_run", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; @%p1 bra $L1; "
                       "add.f32 %f12, %f10, %f4; $L1: ret;", ""},
    {"bra_uni_next", "mul.f32 %f10, %f1, %f2; bra.uni $L1; $L1: add.f32 %f11, %f10, %f3;", "%f11/1<%f10"},
    {"bra_uni_far", "mul.f32 %f10, %f1, %f2; bra.uni $L2; $L1: add.f32 %f12, %f4, %f4; ret; "
                    "$L2: add.f32 %f11, %f10, %f3;", "%f11/1<%f10"},
    {"bra_uni_far_two_preds", "mul.f32 %f10, %f1, %f2; @%p1 bra $L2; bra.uni $L2; $L1: ret; "
                              "$L2: add.f32 %f11, %f10, %f3;", ""},
    {"label_only", "mul.f32 %f10, %f1, %f2; $L1: add.f32 %f11, %f10, %f3;", "%f11/1<%f10"},
    {"loop_head", "mul.f32 %f10, %f1, %f2; $L1: add.f32 %f11, %f10, %f3; @%p1 bra $L1;", ""},
    {"predicated_mul", "mov.f32 %f10, %f4; @%p1 mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", ""},
    {"predicated_add", "mul.f32 %f10, %f1, %f2; @%p1 add.f32 %f11, %f10, %f3;", "%f11/1<%f10"},
    {"source_rewritten", "mul.f32 %f10, %f1, %f2; mov.f32 %f1, %f4; add.f32 %f11, %f10, %f3;", ""},
    {"source_is_product", "mov.f32 %f5, %f4; mul.f32 %f5, %f5, %f2; add.f32 %f11, %f5, %f3;", ""},
    {"far_in_block", "mul.f32 %f10, %f1, %f2; add.u32 %r2, %r1, 1; bar.sync 0; add.f32 %f11, %f10, %f3;",
     "%f11/1<%f10"},
    /* a register written again: each value on its own */
    {"register_reused", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; mul.f32 %f10, %f4, %f2; "
                        "add.f32 %f12, %f10, %f1;", "%f11/1<%f10 %f12/1<%f10"},
    {"add_into_product", "mul.f32 %f10, %f1, %f2; add.f32 %f10, %f10, %f3;", "%f10/1<%f10"},
    {"reused_then_stored", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; mul.f32 %f10, %f4, %f2; "
                           "st.global.f32 [%rd1], %f10;", "%f11/1<%f10"},
    /* .ftz agrees; .sat on the add stays, on the mul forbids */
    {"ftz_both", "mul.ftz.f32 %f10, %f1, %f2; add.ftz.f32 %f11, %f10, %f3;", "%f11/1<%f10"},
    {"ftz_mul_only", "mul.ftz.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", ""},
    {"ftz_add_only", "mul.f32 %f10, %f1, %f2; add.ftz.f32 %f11, %f10, %f3;", ""},
    {"sat_add", "mul.f32 %f10, %f1, %f2; add.sat.f32 %f11, %f10, %f3;", "%f11/1<%f10"},
    {"sat_mul", "mul.sat.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", ""},
    /* two products: the first operand's is fused, the other rounds */
    {"chain2", "mul.f32 %f10, %f1, %f2; mul.f32 %f12, %f3, %f4; add.f32 %f11, %f10, %f12;", "%f11/1<%f10"},
    {"chain2_rev", "mul.f32 %f10, %f1, %f2; mul.f32 %f12, %f3, %f4; add.f32 %f11, %f12, %f10;", "%f11/1<%f12"},
    {"chain2_first_stored", "mul.f32 %f10, %f1, %f2; mul.f32 %f12, %f3, %f4; add.f32 %f11, %f10, %f12; "
                            "st.global.f32 [%rd1], %f10;", "%f11/1<%f12"},
    /* types */
    {"f64", "mul.f64 %d4, %d1, %d2; add.f64 %d5, %d4, %d3;", "%d5/1<%d4"},
    {"f64_sub", "mul.f64 %d4, %d1, %d2; sub.f64 %d5, %d3, %d4;", "%d5/3<%d4"},
    {"f16", "mul.f16 %h4, %h1, %h2; add.f16 %h5, %h4, %h3;", "%h5/1<%h4"},
    {"f16x2", "mul.f16x2 %x4, %x1, %x2; add.f16x2 %x5, %x4, %x3;", "%x5/1<%x4"},
    {"bf16", "mul.bf16 %h4, %h1, %h2; add.bf16 %h5, %h4, %h3;", "%h5/1<%h4"},
    {"bf16x2", "mul.bf16x2 %x4, %x1, %x2; add.bf16x2 %x5, %x4, %x3;", "%x5/1<%x4"},
    {"f16_rn", "mul.rn.f16 %h4, %h1, %h2; add.f16 %h5, %h4, %h3;", ""},
    {"mixed_types", "mul.f32 %f10, %f1, %f2; cvt.f64.f32 %d4, %f10; add.f64 %d5, %d4, %d3;", ""},
    {"f16x2_product_f32_add", "mul.f16x2 %x4, %x1, %x2; add.f32 %x5, %x4, %x3;", ""},
    {"integer", "mul.lo.s32 %r3, %r1, %r2; add.s32 %r4, %r3, %r1;", ""},
    /* div.full and div.approx are an FMUL by the reciprocal: fused like one */
    {"div_full", "div.full.f32 %f10, %f1, %f2; add.f32 %f11, %f3, %f10;", "%f11/9<%f10"},
    {"div_full_sub", "div.full.f32 %f10, %f1, %f2; sub.f32 %f11, %f10, %f3;", "%f11/d<%f10"},
    {"div_full_two_uses", "div.full.f32 %f10, %f1, %f2; add.f32 %f11, %f3, %f10; sub.f32 %f12, %f4, %f10;",
     "%f11/9<%f10 %f12/b<%f10"},
    {"div_full_stored", "div.full.f32 %f10, %f1, %f2; add.f32 %f11, %f3, %f10; st.global.f32 [%rd1], %f10;", ""},
    {"div_full_ftz_add", "div.full.ftz.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", ""},
    {"div_approx", "div.approx.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", "%f11/11<%f10"},
    {"div_approx_ftz", "div.approx.ftz.f32 %f10, %f1, %f2; add.ftz.f32 %f11, %f10, %f3;", "%f11/11<%f10"},
    {"div_full_sat", "div.full.f32 %f10, %f1, %f2; add.sat.f32 %f11, %f10, %f3;", "%f11/9<%f10"},
    {"div_rn", "div.rn.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;", ""},
};

static void rule_tests(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rule_case *c = &cases[i];
        char src[4096], name[96];
        snprintf(src, sizeof src, TH_HEADER ".visible .entry k(.param .u64 o)\n{\n%s"
                 "ld.param.u64 %%rd1, [o];\nmov.u32 %%r1, %%tid.x;\nsetp.lt.u32 %%p1, %%r1, 3;\n%s\nret;\n}\n",
                 REGS, c->body);
        snprintf(name, sizeof name, "contract_rule_%s", c->name);
        th_run r;
        const ir_function *fn = th_prepare(&r, src, "k", 64);
        if (!fn) {
            printf("FAIL %s: %s\n", name, r.res.msg);
            check_failures++;
            th_free(&r);
            continue;
        }
        ctr_pair *v = NULL;
        int n = ctr_find(fn, &v);
        char got[128] = "", want[128] = "";
        if (n < 0)
            snprintf(got, sizeof got, "out of memory");
        for (int k = 0; k < n; k++) {
            const ir_operand *d = &fn->instrs[v[k].add].opd[0], *pd = &fn->instrs[v[k].mul].opd[0];
            size_t len = strlen(got);
            snprintf(got + len, sizeof got - len, "%s%s/%x<%s", len ? " " : "", fn->regs[d->u.reg].name, v[k].flags,
                     fn->regs[pd->u.reg].name);
        }
        snprintf(want, sizeof want, "%s", c->want);
        if (!strcmp(got, want))
            printf("PASS %s\n", name);
        else {
            printf("FAIL %s: fused pairs [%s], want [%s] (DEST/FLAGS<PRODUCT; flags: 1 fused, 2 -product, "
                   "4 -addend, 8 div.full, 10 div.approx)\n",
                   name, got, want);
            check_failures++;
        }
        free(v);
        th_free(&r);
    }
}

/* ---- part 2: execution --------------------------------------------------- */

/* Thread t: a, b, c from hashes of t (f32 with random sign and mantissa,
 * magnitude [0.5, 8)); out[8 t + k], k: 0 a*b+c, 1 c-a*b, 2 a*b-c,
 * 3 -(a*b)+c (neg), 4 the product stored (not fused), 5 its add, 6..7
 * the f64 a*b+c of a + t 2^-40, b, c widened. */
static const char exec_src[] = TH_HEADER
    ".visible .entry k(.param .u64 o)\n{\n"
    ".reg .pred %p<4>; .reg .b32 %r<16>; .reg .f32 %f<24>; .reg .f64 %d<8>; .reg .b32 %x<8>; .reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [o];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd2, %r1, 32;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    /* three hashes -> %f1..%f3 */
    "mul.lo.u32 %r2, %r1, 0x9E3779B1;\n"
    "xor.b32 %r3, %r2, 0x5bd1e995;\n"
    "mul.lo.u32 %r3, %r3, 0x2C1B3C6D;\n"
    "shr.u32 %r4, %r3, 13;\n"
    "xor.b32 %r3, %r3, %r4;\n"
    "mul.lo.u32 %r5, %r3, 0x297A2D39;\n"
    "shr.u32 %r4, %r5, 11;\n"
    "xor.b32 %r5, %r5, %r4;\n"
    "mul.lo.u32 %r6, %r5, 0x85EBCA77;\n"
    "shr.u32 %r4, %r6, 15;\n"
    "xor.b32 %r6, %r6, %r4;\n"
    "and.b32 %r7, %r3, 0x81FFFFFF;\n or.b32 %r7, %r7, 0x3F000000;\n mov.b32 %f1, %r7;\n"
    "and.b32 %r8, %r5, 0x81FFFFFF;\n or.b32 %r8, %r8, 0x3F000000;\n mov.b32 %f2, %r8;\n"
    "and.b32 %r9, %r6, 0x81FFFFFF;\n or.b32 %r9, %r9, 0x3F000000;\n mov.b32 %f3, %r9;\n"
    "mul.f32 %f10, %f1, %f2;\n add.f32 %f11, %f10, %f3;\n st.global.f32 [%rd3], %f11;\n"
    "mul.f32 %f12, %f1, %f2;\n sub.f32 %f13, %f3, %f12;\n st.global.f32 [%rd3+4], %f13;\n"
    "mul.f32 %f14, %f1, %f2;\n sub.f32 %f15, %f14, %f3;\n st.global.f32 [%rd3+8], %f15;\n"
    "mul.f32 %f16, %f1, %f2;\n neg.f32 %f17, %f16;\n add.f32 %f18, %f17, %f3;\n st.global.f32 [%rd3+12], %f18;\n"
    "mul.f32 %f19, %f1, %f2;\n add.f32 %f20, %f19, %f3;\n st.global.f32 [%rd3+16], %f19;\n"
    "st.global.f32 [%rd3+20], %f20;\n"
    "cvt.f64.f32 %d1, %f1;\n cvt.f64.f32 %d2, %f2;\n cvt.f64.f32 %d3, %f3;\n"
    "cvt.rn.f64.u32 %d4, %r1;\n fma.rn.f64 %d1, %d4, 0d3D70000000000000, %d1;\n"
    "mul.f64 %d5, %d1, %d2;\n add.f64 %d6, %d5, %d3;\n st.global.f64 [%rd3+24], %d6;\n"
    "ret;\n}\n";

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static float hin(uint32_t h) { return u2f((h & 0x81FFFFFFu) | 0x3F000000u); }

static void exec_tests(void)
{
    for (int mode = 0; mode < 4; mode++) {
        bool off = mode & 1, generic = mode & 2;
        if (generic)
            setenv("PTXI_NO_FASTPATH", "1", 1);
        else
            unsetenv("PTXI_NO_FASTPATH");
        th_run r;
        const ir_function *fn = th_prepare(&r, exec_src, "k", 256 * 32);
        char name[96];
        snprintf(name, sizeof name, "contract_exec_%s_%s", off ? "literal" : "fused", generic ? "generic" : "fast");
        if (!fn) {
            printf("FAIL %s: %s\n", name, r.res.msg);
            check_failures++;
            continue;
        }
        uint8_t params[8];
        memcpy(params, &r.out, 8);
        interp_launch l;
        memset(&l, 0, sizeof l);
        l.mod = r.mod;
        l.entry = fn;
        l.grid[0] = l.grid[1] = l.grid[2] = 1;
        l.block[0] = 256; l.block[1] = l.block[2] = 1;
        l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
        l.params = params;
        l.params_size = 8;
        l.gmem = r.g;
        l.jobs = 1;
        l.max_steps = 1000000;
        l.no_contract = off;
        interp_run(&l, &r.res);
        int bad = 0, differ = 0;
        char first[200] = "";
        for (uint32_t t = 0; t < 256 && r.res.status == 0; t++) {
            uint32_t h1 = t * 0x9E3779B1u, h3 = (h1 ^ 0x5bd1e995u) * 0x2C1B3C6Du;
            h3 ^= h3 >> 13;
            uint32_t h5 = h3 * 0x297A2D39u;
            h5 ^= h5 >> 11;
            uint32_t h6 = h5 * 0x85EBCA77u;
            h6 ^= h6 >> 15;
            volatile float a = hin(h3), b = hin(h5), c = hin(h6), p = a * b;
            float want[6] = {
                off ? p + c : fmaf(a, b, c), off ? c - p : fmaf(-a, b, c), off ? p - c : fmaf(a, b, -c),
                off ? -p + c : fmaf(-a, b, c), p, p + c,   /* the stored product: two uses, not fused */
            };
            differ += f2u(fmaf(a, b, c)) != f2u(p + c);
            for (int k = 0; k < 6; k++)
                if (th_u32(&r, t * 8 + k) != f2u(want[k]) && !bad++)
                    snprintf(first, sizeof first, "thread %u slot %d: got 0x%08x, want 0x%08x", t, k,
                             th_u32(&r, t * 8 + k), f2u(want[k]));
            volatile double da = fma((double)t, 0x1p-40, (double)a), db = b, dc = c, dp = da * db;
            double dw = off ? dp + dc : fma(da, db, dc);
            uint64_t dwu;
            memcpy(&dwu, &dw, 8);
            if (th_u64(&r, t * 4 + 3) != dwu && !bad++)
                snprintf(first, sizeof first, "thread %u f64: got 0x%016llx, want 0x%016llx", t,
                         (unsigned long long)th_u64(&r, t * 4 + 3), (unsigned long long)dwu);
        }
        if (r.res.status)
            printf("FAIL %s: status %d: %s\n", name, r.res.status, r.res.msg), check_failures++;
        else if (bad)
            printf("FAIL %s: %d values differ, first %s\n", name, bad, first), check_failures++;
        else if (differ < 20)   /* the inputs must tell one rounding from two */
            printf("FAIL %s: only %d of 256 inputs tell fma from mul + add\n", name, differ), check_failures++;
        else
            printf("PASS %s (%d of 256 lanes differ between fused and literal)\n", name, differ);
        th_free(&r);
    }
    unsetenv("PTXI_NO_FASTPATH");
}

int main(void)
{
    (void)th_run_k;
    rule_tests();
    exec_tests();
    CHECK_DONE();
}
