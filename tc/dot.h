/* dot.h — one output element of a tensor-core MMA, as the H100 computes it.
 *
 * Every tensor-core instruction (mma.sync, mma.sp, wmma.mma, wgmma.mma_async)
 * reduces, per output element, to  d = c + sum_i a[i]*b[i]  over the
 * instruction's K, computed with the hardware's own (non-IEEE) alignment,
 * truncation and rounding.  The fragment code (tc/warp.c, tc/wgmma.c) gathers
 * the operands of one element and calls tc_dot; this file's implementation
 * (tc/dot.c) is the only place that knows the numerics.
 *
 * Operands are raw bit patterns: each a[i]/b[i] element right-aligned in a
 * uint32_t (f16/bf16 in the low 16 bits, tf32 as its f32 word, e4m3/e5m2 in
 * the low 8, s8/u8 in the low 8, s4/u4 in the low 4), except .b1, where a and
 * b are packed 32 elements per word, element i in bit i%32 of word i/32, and
 * .f64, where element i takes two words, a[2i] the low and a[2i+1] the high.
 * c and the result are right-aligned in a uint64_t (f16: low 16 bits, f32 and
 * s32: low 32, f64: all 64).  Negation (wgmma's imm-neg) is applied by the
 * caller on the sign bits.  A sparse form passes only the products that exist
 * (n = op->k / 2), so a NaN in B opposite a hole never reaches the sum;
 * it passes them in the order of the compressed A row (fp8 mma.sp splits its
 * two steps by that index: entries q with q % 4 in {0, 1} first).
 */
#ifndef PTXI_TC_DOT_H
#define PTXI_TC_DOT_H

#include <stdbool.h>
#include <stdint.h>

enum tc_type {
    TC_T_NONE, TC_T_F16, TC_T_BF16, TC_T_TF32, TC_T_F32, TC_T_F64,
    TC_T_E4M3, TC_T_E5M2, TC_T_S8, TC_T_U8, TC_T_S4, TC_T_U4, TC_T_B1, TC_T_S32
};

/* which instruction family: the numerics differ between them on sm_90 */
enum tc_family { TC_FAM_MMA, TC_FAM_MMA_SP, TC_FAM_WMMA, TC_FAM_WGMMA, TC_FAM_WGMMA_SP };

enum tc_bop { TC_BOP_NONE, TC_BOP_AND_POPC, TC_BOP_XOR_POPC };

struct tc_dot_op {
    uint8_t family;        /* enum tc_family */
    uint8_t atype, btype;  /* enum tc_type of the A and B elements */
    uint8_t ctype, dtype;  /* accumulator in and out: F16, F32, S32, F64 */
    uint8_t satfinite;     /* .satfinite */
    uint8_t bop;           /* .b1: enum tc_bop */
    uint8_t no_c;          /* no accumulator input (wgmma scale-d = 0) */
    uint16_t k;            /* the instruction's K (dense count of products) */
    uint16_t shape_m, shape_n;  /* the instruction's M and N (informational) */
};

/* bits of one element of type t (enum tc_type; 1 for .b1) */
unsigned tc_type_bits(int t);

/* d = c + sum of n products a[i]*b[i], as the H100 computes one element of
 * the instruction described by op.  n == op->k for dense forms. */
uint64_t tc_dot(const struct tc_dot_op *op, const uint32_t *a, const uint32_t *b,
                int n, uint64_t c);

/* The same, over operands decoded once (an MMA uses each row of A and each
 * column of B for many outputs).  tc_dot_fast(op) says whether op's family
 * and types have this path (one fused floating-point step over all n
 * products); tc_dot_decode fills v from raw elements as tc_dot takes them;
 * tc_dot_dv gives tc_dot's result, bit for bit, for the same operands. */
typedef struct tc_dvec {
    double val[64];    /* sig * 2^exp, exactly */
    int32_t sig[64];   /* signed significand, 0 for a zero */
    int16_t exp[64];   /* floating exponent (subnormals: the type's minimum;
                        * zeros: TC_DV_ZERO_EXP, far below any product's) */
    uint8_t n;
    uint8_t special;   /* an infinity or NaN is among them: tc_dot_dv takes the slow path */
    const uint32_t *raw;
} tc_dvec;
#define TC_DV_ZERO_EXP (-16384)
bool tc_dot_fast(const struct tc_dot_op *op);
void tc_dot_decode(const struct tc_dot_op *op, bool is_b, const uint32_t *x, int n, tc_dvec *v);
uint64_t tc_dot_dv(const struct tc_dot_op *op, const tc_dvec *a, const tc_dvec *b, uint64_t c);

#endif
