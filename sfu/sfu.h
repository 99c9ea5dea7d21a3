/* sfu.h — the H100's special-function unit (MUFU), bit for bit.
 *
 * The `.approx` functions of PTX do not round the exact result: the GPU
 * evaluates them in its special-function unit, a table-driven quadratic
 * interpolator (Oberman and Siu, ARITH 2005) after an argument reduction,
 * and ptxas wraps some of them in a few instructions for subnormals and
 * range limits.  This room models both, bit for bit: the reductions,
 * special values and ptxas's sequences in sfu.c, each function's
 * interpolator in its own file (rcp.c, rsq.c, ex2.c, lg2.c, sincos.c,
 * tanh.c) with its coefficient table (*_tab.c, derived from H100 outputs
 * by the generators in gen/).  Every f32 form agrees with the H100 on all
 * 2^32 inputs (tests/hw/src/sfu/verify.cu).
 *
 * Every entry takes and returns bit patterns.  `ftz` is the instruction's
 * .ftz.
 */
#ifndef PTXI_SFU_H
#define PTXI_SFU_H
#include <stdbool.h>
#include <stdint.h>

/* f32 forms: rcp/rsqrt/sqrt/ex2/lg2/sin/cos .approx(.ftz).f32, tanh.approx.f32 */
uint32_t sfu_rcp(uint32_t x, bool ftz);
uint32_t sfu_rsqrt(uint32_t x, bool ftz);
uint32_t sfu_sqrt(uint32_t x, bool ftz);
uint32_t sfu_ex2(uint32_t x, bool ftz);
uint32_t sfu_lg2(uint32_t x, bool ftz);
uint32_t sfu_sin(uint32_t x, bool ftz);
uint32_t sfu_cos(uint32_t x, bool ftz);
uint32_t sfu_tanh(uint32_t x);
/* div.approx(.ftz).f32 and div.full(.ftz).f32 (built on the reciprocal) */
uint32_t sfu_div_approx(uint32_t a, uint32_t b, bool ftz);
uint32_t sfu_div_full(uint32_t a, uint32_t b, bool ftz);
/* div.full(.ftz).f32 fused with the add after it: a / b + c with the
 * quotient's FMUL and the add one FFMA (contract/) */
uint32_t sfu_div_full_fma(uint32_t a, uint32_t b, uint32_t c, bool ftz);
uint32_t sfu_div_approx_fma(uint32_t a, uint32_t b, uint32_t c, bool ftz);
/* either division by an immediate b: an FMUL by ptxas's correctly rounded
 * reciprocal of the scaled b; _fma: with the add after it fused */
uint32_t sfu_div_imm(uint32_t a, uint32_t b, bool ftz, bool approx);
uint32_t sfu_div_imm_fma(uint32_t a, uint32_t b, uint32_t c, bool ftz, bool approx);
/* 16-bit forms (the x2 forms apply them to each half) */
uint16_t sfu_ex2_f16(uint16_t x);
uint16_t sfu_ex2_bf16(uint16_t x);   /* ex2.approx.ftz.bf16 */
uint16_t sfu_tanh_f16(uint16_t x);
uint16_t sfu_tanh_bf16(uint16_t x);
/* rcp.approx.ftz.f64, rsqrt.approx(.ftz).f64 */
uint64_t sfu_rcp_f64(uint64_t x);
uint64_t sfu_rsqrt_f64(uint64_t x, bool ftz);
#endif
