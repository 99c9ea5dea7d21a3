/* warp.h — the warp-level matrix instructions: mma.sync (dense and
 * sparse), wmma.load/store/mma and the fragment shuffles ldmatrix /
 * stmatrix / movmatrix, on whole-warp register images.
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
    uint8_t sparse;            /* mma.sp: A holds K/2 columns, metadata opd[4] */
    uint8_t sel;               /* mma.sp: the sparsity selector (opd[5]) */
    uint8_t sel_faults;        /* mma.sp: the selector names threads past the quad,
                                * which ptxas takes and the H100 faults on */
    uint8_t quadpair;          /* mma.m8n8k4 .f16: four 8x8x4 products, one per quad pair */
    uint8_t acol, bcol;        /* quadpair: A, B in .col layout (else .row) */
} tc_mma_form;

/* Decodes an mma instruction; false (with a message in why) for a form ptxi
 * cannot run: the message names the form. */
bool tc_mma_decode(const ir_instr *in, tc_mma_form *f, char *why, size_t n);

/* D = A*B + C for the whole warp: a[lane * f->na + i] is register i of the
 * A fragment of that lane (zero-extended; f64: the double's bits), and so
 * for b, c; d receives f->nd registers per lane. */
void tc_mma_run(const tc_mma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                uint64_t *d);

/* mma.sp: as tc_mma_run, with meta[lane] the metadata register of each lane
 * (f->sparse set; the A fragment holds the K/2 kept elements of each row). */
void tc_mma_sp_run(const tc_mma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                   const uint32_t *meta, uint64_t *d);

/* ---- wmma ----------------------------------------------------------------
 * One wmma instruction decoded once: which fragment (A, B, C, D), its
 * matrix's rows and columns, element type and registers, the layout in
 * memory, and for wmma.mma the form it runs (an mma form: m, n, k, types). */
enum tc_wmma_frag { TC_WF_A, TC_WF_B, TC_WF_C, TC_WF_D };
typedef struct tc_wmma_form {
    uint8_t op;                /* IR_OP_WMMA_LOAD / _STORE / _MMA */
    uint8_t frag;              /* load/store: enum tc_wmma_frag */
    uint8_t m, n, k;           /* the shape */
    uint8_t type;              /* load/store: enum tc_type of the elements */
    uint8_t bits;              /* load/store: element bits */
    uint8_t nregs;             /* load/store: registers per thread */
    uint8_t rows, cols;        /* load/store: the fragment's matrix */
    uint8_t colmajor;          /* load/store: .col */
    tc_mma_form mma;           /* wmma.mma: types, register counts, .satfinite, .popc */
} tc_wmma_form;

/* Decodes a wmma instruction against tc/shapes.def; false with the form
 * named in why for one that is not an sm_90 form. */
bool tc_wmma_decode(const ir_instr *in, tc_wmma_form *f, char *why, size_t n);

/* Where element j (0 .. 32/bits-1; f64: 0) of register reg of lane's
 * fragment sits in its matrix: *row, *col. */
void tc_wmma_elem(const tc_wmma_form *f, int lane, int reg, int j, int *row, int *col);

/* wmma.mma for the whole warp: registers as for tc_mma_run, with f's A, B,
 * C and D register counts (na, nb, nc, nd of f->mma). */
void tc_wmma_run(const tc_wmma_form *f, const uint64_t *a, const uint64_t *b, const uint64_t *c,
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
