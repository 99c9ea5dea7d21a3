/* warp.h — the warp-level matrix instructions: mma.sync (dense) and the
 * fragment shuffles ldmatrix / stmatrix / movmatrix, on whole-warp register
 * images.
 *
 * The interpreter (interp/mma.c) gathers the registers of all 32 lanes into
 * arrays indexed [lane * nregs + i], calls in here, and scatters the result;
 * this room knows the fragment layouts (PTX ISA, "Matrix fragments for
 * mma.m16n8k*" and friends) and, through tc_dot, the numerics.
 */
#ifndef PTXI_TC_WARP_H
#define PTXI_TC_WARP_H

#include <stddef.h>
#include <stdint.h>
#include "ir/ir.h"

/* One mma.sync form, decoded once from the instruction. */
typedef struct tc_mma_form {
    uint8_t m, n, k;           /* shape (k up to 256) */
    uint16_t kk;
    uint8_t atype, btype, ctype, dtype;   /* enum tc_type */
    uint8_t satfinite, bop;
    uint8_t na, nb, nc, nd;    /* registers per thread of A, B, C, D */
    uint8_t aepr, bepr;        /* elements per 32-bit register (f64: 1 per register) */
} tc_mma_form;

/* Decodes an mma instruction; false (with a message in why) for a form ptxi
 * cannot run: the message names the form. */
bool tc_mma_decode(const ir_instr *in, tc_mma_form *f, char *why, size_t n);

/* D = A*B + C for the whole warp: a[lane * f->na + i] is register i of the
 * A fragment of that lane (zero-extended; f64: the double's bits), and so
 * for b, c; d receives f->nd registers per lane. */
void tc_mma_run(const tc_mma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                uint64_t *d);

/* ldmatrix / stmatrix .m8n8 .b16: rows[mat * 8 + r] are the 16-byte rows of
 * the nmat matrices (row r of matrix mat comes from / goes to the address of
 * lane mat * 8 + r); regs[lane * nmat + mat] the fragment registers.
 * tc_ldmatrix fills regs from rows, tc_stmatrix fills rows from regs. */
void tc_ldmatrix(int nmat, bool trans, const uint8_t rows[][16], uint32_t *regs);
void tc_stmatrix(int nmat, bool trans, const uint32_t *regs, uint8_t rows[][16]);

/* movmatrix.m8n8.trans.b16: out[lane] from in[lane] of all 32 lanes */
void tc_movmatrix(const uint32_t *in, uint32_t *out);

#endif
