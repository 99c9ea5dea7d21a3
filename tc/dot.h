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

/* tc_dot_fast(op): whether op's family and types are one fused
 * floating-point step over all n products (the row path below). */
#define TC_DV_ZERO_EXP (-16384)   /* a zero's exponent: far below any product's */
bool tc_dot_fast(const struct tc_dot_op *op);

/* A whole row of outputs at a time (wgmma: one row of A against all N
 * columns of B).  tc_dot_cols decodes n columns of B (column c's element i
 * at b[c * stride + i], k of them) once into t, laid out element-major so
 * that one step works on several columns; tc_dot_row then gives, for one
 * row a[0..k) of A, out[c] = tc_dot(op, a, column c, k, cin[c]) for every
 * column, bit for bit (C and D right-aligned as tc_dot takes them; cin is
 * ignored when op->no_c; out may be cin).  Only for ops where tc_dot_fast
 * holds, k <= TC_COLS_K and n <= TC_COLS_N (a K beyond 16 for 16-bit or
 * tf32 inputs takes tc_dot per output).  f16/e4m3/e5m2 products run in
 * single precision (exact: 22-bit significands, small exponents), bf16 and
 * tf32 in double; an infinity or NaN in the row, a column or C takes
 * tc_dot for the outputs it touches. */
#define TC_COLS_K 32
#define TC_COLS_N 256
typedef struct tc_dcols {
    float vf[TC_COLS_K][TC_COLS_N];    /* single mode: sig * 2^exp */
    double vd[TC_COLS_K][TC_COLS_N];   /* double mode */
    int16_t e[TC_COLS_K][TC_COLS_N];   /* exponents, TC_DV_ZERO_EXP for zeros */
    uint8_t special[TC_COLS_N];        /* column holds an infinity or NaN */
    uint8_t spec8[TC_COLS_N / 8];      /* the same, a bit per column of each 8 */
    const uint32_t *raw;
    uint32_t stride;
    uint16_t n, k;
    uint8_t single;                    /* products in float */
} tc_dcols;
void tc_dot_cols(const struct tc_dot_op *op, const uint32_t *b, uint32_t stride, int n, int k, tc_dcols *t);
void tc_dot_row(const struct tc_dot_op *op, const uint32_t *a, const tc_dcols *t, const uint32_t *cin,
                uint32_t *out);

#endif
