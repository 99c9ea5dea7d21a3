/* fp.h — the interpreter's float rounding helpers (interp-private).
 *
 * Every conversion goes through one exact rounder: the value is held as a
 * long double (64-bit significand on x86-64, so every f64 and every 64-bit
 * integer is exact), then rounded once to the target format's significand
 * and exponent range under the PTX rounding mode.  Rounding once from the
 * exact value avoids the double-rounding errors of going f64 -> f32 -> f16.
 * The rounders take no NaN; the helpers at the end of this header give the
 * NaN encodings (and the other choices) the H100 makes.
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

/* ---- what the H100 writes where IEEE leaves a choice ----------------------
 * Read off tests/hw/numeric (probe_f64, probe_cvt, probe_f32) and a wider
 * device probe of the same ops; fp.c says which case showed what. */

/* f64 NaNs are not canonicalised: an operand NaN comes back quieted with its
 * sign and payload; an invalid operation (inf - inf, 0 * inf, 0 / 0,
 * sqrt(-1)) gives the x86-style default NaN below. */
#define FP_F64_DEFAULT_NAN 0xfff8000000000000ull
static inline int fp_f64_isnan(uint64_t a) { return (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static inline uint64_t fp_f64_quiet(uint64_t a) { return a | 0x0008000000000000ull; }
/* NaN conversions that keep sign and payload (quieted), f64 <-> narrower. */
uint32_t fp_f64_nan_to_f32(uint64_t a);
uint16_t fp_f64_nan_to_f16(uint64_t a);
uint16_t fp_f64_nan_to_bf16(uint64_t a);
uint64_t fp_f32_nan_to_f64(uint32_t a);
uint64_t fp_f16_nan_to_f64(uint16_t h);
uint64_t fp_bf16_nan_to_f64(uint16_t h);

/* cvt.rna{.satfinite}.tf32.f32: integer rounding of the bit pattern (the
 * H100 runs it as IADD + LOP, so NaN and Inf only lose their low bits). */
uint32_t fp_f32_to_tf32_rna(uint32_t a, int satfinite);
/* cvt.rn.satfinite{.relu}.{e4m3,e5m2}.f32, one element: round to nearest
 * even, clamp to the largest finite value (Inf too), NaN -> 0x7f. */
uint8_t fp_f32_to_e4m3(uint32_t a, int relu);
uint8_t fp_f32_to_e5m2(uint32_t a, int relu);
/* e4m3 / e5m2 -> f16 (exact; NaN -> 0x7fff) */
uint16_t fp_e4m3_to_f16(uint8_t v);
uint16_t fp_e5m2_to_f16(uint8_t v);
#endif
