/* contract.h — which multiply/add pairs ptxas fuses into one fused
 * multiply-add, so that ptxi rounds them once as the GPU does.
 *
 * PTX ISA ("Floating-point instructions", mul/add/sub): a mul, add or sub
 * on f32/f64 (and the half forms) WITHOUT an explicit rounding modifier
 * may be optimised aggressively by the code generator, in particular
 * contracted into a fused multiply-add; `.rn` (or any rounding modifier)
 * forbids it.  ptxas does it by default (`--fmad=true`), and the H100 then
 * computes a*b+c with one rounding where the PTX read as two.  The rules
 * below are the ones ptxas 13.0 follows for sm_90a, read off its SASS
 * (tests/hw/contract/README.md has the survey and the counts).
 *
 * ctr_find() runs once per function when a launch is planned (interp/
 * launch.c): it returns the pairs, and ctr_fused_instr() builds, for each
 * pair, the instruction the interpreter executes in place of the add: an
 * `fma.rn` of the mul's operands and the add's other operand, with the
 * sign flips and the division form in `aux` (CTR_*).  The mul itself still
 * runs (the debugger shows its rounded product in its register; nothing
 * else reads it), so the fused add costs what an fma costs and nothing is
 * decided while the kernel runs.
 */
#ifndef PTXI_CONTRACT_H
#define PTXI_CONTRACT_H

#include <stdint.h>
#include "ir/ir.h"

/* ir_instr.aux of a fused add (the interpreter's private field; an fma
 * from the PTX has 0 there). */
enum {
    CTR_FUSED = 1u << 0,     /* this fma is a contracted mul + add */
    CTR_NEG_PROD = 1u << 1,  /* the product enters negated (c - a*b) */
    CTR_NEG_C = 1u << 2,     /* the addend enters negated (a*b - c) */
    CTR_DIV_FULL = 1u << 3,  /* the product is div.full.f32's a * rcp(b):
                                opd[1] = a, opd[2] = b (sfu_div_full_fma) */
    CTR_DIV_APPROX = 1u << 4, /* the same for div.approx.f32 (sfu_div_approx_fma) */
};

typedef struct ctr_pair {
    uint32_t mul;       /* instruction index of the mul (or div.full/.approx); one
                           mul may be fused into several adds */
    uint32_t add;       /* instruction index of the add/sub that absorbs it */
    uint8_t prod_opd;   /* operand of the add (1 or 2) that carries the product */
    uint32_t flags;     /* CTR_* (CTR_FUSED always) */
} ctr_pair;

/* The pairs of `fn` that ptxas contracts, in order of the add, into a
 * malloc'd array (*out; NULL when none).  Returns the count, or -1 when
 * out of memory. */
int ctr_find(const ir_function *fn, ctr_pair **out);

/* The instruction executed in place of p->add: `fma.rn[.ftz][.sat].T d,
 * a, b, c` with a, b the mul's operands and c the add's other operand,
 * aux = p->flags, guard and location the add's. */
void ctr_fused_instr(const ir_function *fn, const ctr_pair *p, ir_instr *out);

#endif
