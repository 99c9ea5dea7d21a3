/* fp.h — the interpreter's float rounding helpers (interp-private).
 *
 * Every conversion goes through one exact rounder: the value is held as a
 * long double (64-bit significand on x86-64, so every f64 and every 64-bit
 * integer is exact), then rounded once to the target format's significand
 * and exponent range under the PTX rounding mode.  Rounding once from the
 * exact value avoids the double-rounding errors of going f64 -> f32 -> f16.
 * NaN handling is left to the callers (the GPU writes canonical NaNs).
 * (interp/numeric.h, when present, is the numerics engineer's fuller set.)
 */
#ifndef PTXI_INTERP_FP_H
#define PTXI_INTERP_FP_H
#include <stdint.h>

enum { FP_RN = 0, FP_RZ, FP_RM, FP_RP, FP_RNA };

/* Round |v| to a format with `mb` fraction bits and `eb` exponent bits;
 * returns its bit pattern.  Not for NaN. */
uint64_t fp_round(long double v, int mb, int eb, int mode);
float fp_f16_to_f32(uint16_t h);
uint16_t fp_f32_to_f16(float f, int mode);
uint16_t fp_f32_to_bf16(float f, int mode);
uint16_t fp_f64_to_f16(double d, int mode);
uint16_t fp_f64_to_bf16(double d, int mode);
uint32_t fp_f64_to_f32_bits(double d, int mode);
uint32_t fp_f32_to_tf32(float f, int mode);
/* 64-bit integer -> float type dt (an ir_type: f16, bf16, f32, f64) */
uint64_t fp_s64_to_float(int64_t v, int dt, int mode);
uint64_t fp_u64_to_float(uint64_t v, int dt, int mode);
#endif
