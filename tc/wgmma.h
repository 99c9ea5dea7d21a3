/* wgmma.h — wgmma.mma_async: forms, shared-memory matrix descriptors,
 * fragment layouts and the execution of one warpgroup MMA.
 *
 * The front end decodes an instruction once (tc_wgmma_decode, driven by
 * shapes.def section 2) into a tc_wg_form; the interpreter keeps it per
 * instruction and, when the operation lands, gathers the 128 threads'
 * registers into a tc_wg_io and calls tc_wgmma_exec, which reads A and B
 * through their descriptors (or A from the fragment), computes every output
 * element with tc_dot and writes the D fragment back into io->d.
 *
 * Layouts (PTX ISA "Asynchronous Warpgroup Level Matrix" and CUTLASS
 * cute/arch/mma_sm90_desc.hpp, checked on the H100 by tests/hw/tc_wgmma):
 *   descriptor  start address bits 13..0, leading byte offset 29..16,
 *               stride byte offset 45..32 (each in 16-byte units), base
 *               offset 51..49, swizzle 63..62 (0 none, 1 128B, 2 64B, 3 32B);
 *   D fragment  thread t (warp w = t/32, lane l), f32/s32 register i: row
 *               16w + l/4 + 8((i>>1)&1), column 8(i>>2) + 2(l%4) + (i&1);
 *               f16: register i, half h: row 16w + l/4 + 8(i&1), column
 *               8(i>>1) + 2(l%4) + h;
 *   A fragment  4 registers of 4 bytes: register i byte j holds row
 *               16w + l/4 + 8(i&1), K byte 4(l%4) + 16(i>>1) + j.
 *   swizzle     the 128-byte line index at address bits 7.. minus the base
 *               offset selects the XOR (measured; tc/wgmma.c swz);
 *   .sp         nibble j of row r (indices i0 = bits 1..0, i1 = bits 3..2 of
 *               the kept pair among 4): 16-bit types from thread
 *               4(r%8) + 2 sel + j/4 of warp r/16, bits 16((r/8)&1) + 4(j%4);
 *               tf32 the same, one element, at 2j + i1/2; 8-bit from thread
 *               4(r%8) + ((r/8)&1) + 2(j/8), bits 4(j%8) (H100, tests/hw).
 */
#ifndef PTXI_TC_WGMMA_H
#define PTXI_TC_WGMMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ir/ir.h"
#include "tc/dot.h"

/* One decoded wgmma.mma_async form. */
typedef struct tc_wg_form {
    uint8_t atype, btype, dtype;  /* enum tc_type */
    uint8_t sparse;               /* .sp */
    uint8_t a_regs;               /* A from registers (else a descriptor) */
    uint8_t satfinite;
    uint8_t bop;                  /* enum tc_bop (b1) */
    uint8_t trans_a, trans_b;     /* imm-trans: 1 = MN-major */
    uint8_t sel;                  /* sparsity selector */
    int8_t neg_a, neg_b;          /* imm-scale-a/b: +1 or -1 */
    uint16_t n, k;                /* N and the logical K */
    uint16_t nd;                  /* D registers per thread */
    /* operand positions: D is 0; a, b, metadata (.sp), scale-d */
    uint8_t o_a, o_b, o_meta, o_scale;
} tc_wg_form;

/* Decode and check `in` (a wgmma.mma_async) against shapes.def.  Returns 0,
 * or -1 with the reason in why and the offending operand (-1 = the
 * mnemonic) in *opd. */
int tc_wgmma_decode(const ir_instr *in, tc_wg_form *f, int *opd, char *why, size_t n);

/* A shared-memory matrix descriptor, decoded. */
typedef struct tc_desc {
    uint32_t start;   /* shared address (bytes) */
    uint32_t lbo;     /* leading dimension byte offset */
    uint32_t sbo;     /* stride dimension byte offset */
    uint8_t base;     /* base offset */
    uint8_t swizzle;  /* 0 (none/interleave), 32, 64, 128 bytes */
} tc_desc;
tc_desc tc_desc_decode(uint64_t d);
/* "start 0x400 LBO 128 SBO 1024 swizzle 128B base 0" into buf; returns buf */
const char *tc_desc_describe(uint64_t d, char *buf, size_t n);

/* The shared bytes [*lo, *hi) an operand read through `desc` may touch
 * (widened: *lo and *hi only move outwards). */
void tc_wgmma_footprint(const tc_wg_form *f, uint64_t desc, bool is_a, uint32_t *lo, uint32_t *hi);

/* Scratch for one execution, allocated once per launch by the caller. */
typedef struct tc_wg_scratch {
    uint32_t a[64 * 64];    /* A elements [row][k] (b1: packed words) */
    uint32_t b[256 * 64];   /* B elements [n][k] */
    uint32_t meta[64 * 64]; /* logical K index of each stored A element (.sp) */
    tc_dcols cols;          /* the columns of B, decoded once (dense float forms) */
    uint32_t crow[256];     /* one row of C in, D out */
    uint32_t coff[256];     /* where column c of a row lives in the D fragment */
} tc_wg_scratch;

typedef struct tc_wg_io {
    const uint8_t *smem;    /* the CTA's shared memory */
    uint32_t smem_size;
    uint32_t smem_base;     /* shared address of smem[0] */
    uint64_t desc_a, desc_b;
    const uint32_t *a;      /* [128][4] A fragment (a_regs) */
    const uint32_t *meta;   /* [128] sparsity metadata (.sp) */
    uint32_t *d;            /* [nd][128]: C in, D out (register i of thread t at d[i * 128 + t],
                             * so that a warp's register is 32 consecutive words) */
    bool scale_d;           /* false: D = A*B (no C) */
    tc_wg_scratch *s;
} tc_wg_io;

/* Execute one wgmma.  Returns 0, or -1 with why (a descriptor addressing
 * shared memory outside the CTA's window, invalid metadata). */
int tc_wgmma_exec(const tc_wg_form *f, tc_wg_io *io, char *why, size_t n);

/* Where element (row, col) of the D fragment lives: thread (0..127) and
 * register, and for f16 D the half (0 low, 1 high). */
void tc_wgmma_d_where(const tc_wg_form *f, uint32_t row, uint32_t col, uint32_t *thread, uint32_t *reg,
                      uint32_t *half);
/* The A fragment's element (row, k): thread, register, and the bit offset
 * of the element inside the register. */
void tc_wgmma_a_where(const tc_wg_form *f, uint32_t row, uint32_t k, uint32_t *thread, uint32_t *reg,
                      uint32_t *bit);
const char *tc_type_name(int t);

#endif
