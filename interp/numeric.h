/* numeric.h — bit-exact PTX numerics (prefix num_).
 *
 * Pure functions on bit patterns: f16/bf16 as uint16_t, f32 as uint32_t,
 * f64 as uint64_t, integers as uint64_t zero-extended from their width.
 * No globals, no allocation; every function is thread-safe.  The handlers
 * of interp/ call these once per lane, so the common cases (.rn f32
 * add/mul/fma, f16 <-> f32) are static inline below.
 *
 * How exactness is obtained
 *  - Conversions (every format pair, every rounding mode, int <-> float)
 *    go through one soft rounder (numeric.c: round_pack) working on an exact
 *    integer significand + exponent + sticky bit, so nothing rounds twice
 *    and no host rounding mode is consulted.
 *  - f32/f64 arithmetic with .rz/.rm/.rp sets the host rounding mode with
 *    fesetround() around the one operation and restores it (fenv is
 *    per-thread, so this is thread-safe); operands and results pass through
 *    volatile locals so the compiler cannot move the operation across the
 *    mode switch.  .rn never touches fenv.
 *  - f16/bf16 arithmetic is done in f32/f64 exactly (the f16 product and the
 *    f16 sum of two f16 values are exact in f64) and rounded once, as the
 *    GPU's HFMA2 does (fma rounds once).
 *
 * NaN results (what the H100 writes; tests/hw/numeric, and interp/fp.c,
 * which implements them today):
 *  f32 arithmetic -> 0x7FFFFFFF; f16/bf16 arithmetic, neg, abs -> 0x7FFF;
 *  f64 arithmetic keeps an operand NaN (quieted, sign and payload kept) and
 *  writes 0xFFF8000000000000 for an invalid operation; cvt out of or into
 *  f64 keeps the payload too, cvt.f32.bf16 is a plain shift, other cvts to
 *  f16/bf16/f32 write the canonical NaN; e4m3 -> 0x7F, e5m2 -> 0x7F.
 *  NUM_F64_QNAN below is not what the hardware writes.
 */
#ifndef PTXI_INTERP_NUMERIC_H
#define PTXI_INTERP_NUMERIC_H
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <math.h>

/* Rounding modes.  The float->int / float->integral forms use the same
 * values: .rni = NUM_RN, .rzi = NUM_RZ, .rmi = NUM_RM, .rpi = NUM_RP. */
typedef enum { NUM_RN = 0, NUM_RZ, NUM_RM, NUM_RP, NUM_RNA } num_rnd;

/* Modifier flags, OR-ed. */
enum {
    NUM_FTZ = 1u << 0,       /* .ftz: f32 subnormal inputs/outputs -> signed 0 */
    NUM_SAT = 1u << 1,       /* .sat: float clamp to [0,1], NaN -> +0; int: clamp */
    NUM_RELU = 1u << 2,      /* .relu: negative -> +0, NaN -> canonical NaN */
    NUM_SATFINITE = 1u << 3, /* .satfinite: overflow/inf -> max finite, NaN -> NaN */
    NUM_NANP = 1u << 4,      /* min/max .NaN: propagate NaN */
    NUM_XORSIGN = 1u << 5,   /* min/max .xorsign.abs (f16/bf16) */
};

/* Float formats (storage: f16/bf16/e* in the low bits, tf32 as f32 bits). */
typedef enum { NUM_F16 = 0, NUM_BF16, NUM_TF32, NUM_F32, NUM_F64, NUM_E4M3, NUM_E5M2,
               NUM_E2M3, NUM_E3M2, NUM_E2M1, NUM_UE8M0, NUM_FMT_COUNT } num_fmt;
/* Integer types for cvt. */
typedef enum { NUM_S8 = 0, NUM_S16, NUM_S32, NUM_S64, NUM_U8, NUM_U16, NUM_U32, NUM_U64 } num_ity;

static inline int num_ity_bits(num_ity t) { return 8 << (t & 3); }
static inline bool num_ity_signed(num_ity t) { return t < NUM_U8; }

/* ---- bit casts ---- */
static inline float num_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t num_u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double num_f64(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t num_u64(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

#define NUM_F32_QNAN 0x7FFFFFFFu
#define NUM_F64_QNAN 0x7FFFFFFFFFFFFFFFull
#define NUM_F16_QNAN 0x7FFFu
#define NUM_BF16_QNAN 0x7FFFu

/* ======================= conversions ======================= */

/* cvt between float formats: src bits (format sf) -> dst bits (format df).
 * rnd: .rn/.rz/.rm/.rp/.rna (widening conversions are exact and ignore it).
 * flags: NUM_FTZ (f32 source or destination subnormals -> signed zero),
 * NUM_SAT (clamp [0,1]), NUM_RELU, NUM_SATFINITE.  NaN -> canonical NaN of
 * the destination.  Same-format with rnd .rni.. is num_cvt_rint(). */
uint64_t num_cvt_ff(uint64_t src, num_fmt sf, num_fmt df, num_rnd rnd, unsigned flags);
/* cvt.rXi.fT.fT: round to integral in the same format; .ftz, .sat. */
uint64_t num_cvt_rint(uint64_t src, num_fmt f, num_rnd rnd, unsigned flags);
/* cvt.rXi.{s,u}N.fT: saturates to the destination range; NaN -> 0.  Result
 * zero-extended from the destination width (so s8 -1 = 0xFF).  NUM_FTZ
 * affects only f32 sources (a subnormal rounds as zero). */
uint64_t num_cvt_fi(uint64_t src, num_fmt sf, num_ity dt, num_rnd rnd, unsigned flags);
/* cvt.rX.fT.{s,u}N: exact integer rounding (no fenv).  v holds the source
 * integer in its low bits (sign-extended or not: only the low width is used). */
uint64_t num_cvt_if(uint64_t v, num_ity st, num_fmt df, num_rnd rnd, unsigned flags);
/* cvt between integer types (.sat clamps to the destination range);
 * result zero-extended from the destination width. */
uint64_t num_cvt_ii(uint64_t v, num_ity st, num_ity dt, bool sat);
/* Packed: cvt.rn{.satfinite}{.relu}.{f16x2,bf16x2}.f32 d, a, b and
 * cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b: a goes to the upper
 * half, b to the lower half (PTX ISA, cvt). */
uint32_t num_cvt_pack2_f32(uint32_t a, uint32_t b, num_fmt df, num_rnd rnd, unsigned flags);
/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f16x2,bf16x2} (sf = NUM_F16/NUM_BF16). */
uint16_t num_cvt_x2_to_fp8(uint32_t src, num_fmt sf, num_fmt df, unsigned flags);
/* cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}: byte 1 -> upper f16, byte 0 -> lower. */
uint32_t num_cvt_fp8x2_to_f16x2(uint16_t src, num_fmt sf, unsigned flags);

/* Fast paths (exact, .rn, no flags). */
static inline uint32_t num_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0x1F) return m ? NUM_F32_QNAN : s | 0x7F800000u;   /* f16 NaN -> canonical */
    if (e) return s | ((e + 112) << 23) | (m << 13);
    if (!m) return s;
    float f = (float)m * 0x1p-24f;                       /* subnormal: exact */
    return s | num_u32(f);
}
static inline uint32_t num_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    return ((u & 0x7FFFFFFFu) > 0x7F800000u) ? NUM_F32_QNAN : u;
}
uint16_t num_f32_to_f16(uint32_t f, num_rnd rnd, unsigned flags);
uint16_t num_f32_to_bf16(uint32_t f, num_rnd rnd, unsigned flags);
static inline uint16_t num_f32_to_f16_rn(uint32_t f) { return num_f32_to_f16(f, NUM_RN, 0); }
static inline uint16_t num_f32_to_bf16_rn(uint32_t f)
{
    if ((f & 0x7FFFFFFFu) > 0x7F800000u) return NUM_BF16_QNAN;
    return (uint16_t)((f + 0x7FFFu + ((f >> 16) & 1)) >> 16);
}

/* ======================= f32 / f64 arithmetic ======================= */
/* flags: NUM_FTZ, NUM_SAT (f32 only). */
uint32_t num_f32_add(uint32_t a, uint32_t b, num_rnd rnd, unsigned flags);
uint32_t num_f32_sub(uint32_t a, uint32_t b, num_rnd rnd, unsigned flags);
uint32_t num_f32_mul(uint32_t a, uint32_t b, num_rnd rnd, unsigned flags);
uint32_t num_f32_fma(uint32_t a, uint32_t b, uint32_t c, num_rnd rnd, unsigned flags);
uint32_t num_f32_div(uint32_t a, uint32_t b, num_rnd rnd, unsigned flags);   /* div.rnd */
uint32_t num_f32_div_full(uint32_t a, uint32_t b, unsigned flags);            /* div.full (2 ulp): computed .rn */
uint32_t num_f32_div_approx(uint32_t a, uint32_t b, unsigned flags);          /* div.approx: a * rcp(b) */
uint32_t num_f32_rcp(uint32_t a, num_rnd rnd, unsigned flags);
uint32_t num_f32_sqrt(uint32_t a, num_rnd rnd, unsigned flags);
/* .approx forms: correctly rounded (rcp/sqrt/rsqrt) or libm (sin, cos, lg2,
 * ex2, tanh) — may differ from hardware in the last bits. */
uint32_t num_f32_rcp_approx(uint32_t a, unsigned flags);
uint32_t num_f32_sqrt_approx(uint32_t a, unsigned flags);
uint32_t num_f32_rsqrt_approx(uint32_t a, unsigned flags);
uint32_t num_f32_sin_approx(uint32_t a, unsigned flags);
uint32_t num_f32_cos_approx(uint32_t a, unsigned flags);
uint32_t num_f32_lg2_approx(uint32_t a, unsigned flags);
uint32_t num_f32_ex2_approx(uint32_t a, unsigned flags);
uint32_t num_f32_tanh_approx(uint32_t a, unsigned flags);
/* min/max: NaN operand ignored, both NaN -> canonical; NUM_NANP propagates;
 * -0 < +0; NUM_FTZ flushes subnormal inputs. */
uint32_t num_f32_min(uint32_t a, uint32_t b, unsigned flags);
uint32_t num_f32_max(uint32_t a, uint32_t b, unsigned flags);
static inline uint32_t num_f32_abs(uint32_t a, unsigned flags)
{
    if ((flags & NUM_FTZ) && (a & 0x7F800000u) == 0) return 0;
    return a & 0x7FFFFFFFu;
}
static inline uint32_t num_f32_neg(uint32_t a, unsigned flags)
{
    if ((flags & NUM_FTZ) && (a & 0x7F800000u) == 0) return (a ^ 0x80000000u) & 0x80000000u;
    return a ^ 0x80000000u;
}
/* copysign.f32 d, a, b: magnitude of b, sign of a (PTX operand order). */
static inline uint32_t num_f32_copysign(uint32_t a, uint32_t b) { return (b & 0x7FFFFFFFu) | (a & 0x80000000u); }

uint64_t num_f64_add(uint64_t a, uint64_t b, num_rnd rnd, unsigned flags);
uint64_t num_f64_sub(uint64_t a, uint64_t b, num_rnd rnd, unsigned flags);
uint64_t num_f64_mul(uint64_t a, uint64_t b, num_rnd rnd, unsigned flags);
uint64_t num_f64_fma(uint64_t a, uint64_t b, uint64_t c, num_rnd rnd, unsigned flags);
uint64_t num_f64_div(uint64_t a, uint64_t b, num_rnd rnd, unsigned flags);
uint64_t num_f64_rcp(uint64_t a, num_rnd rnd, unsigned flags);
uint64_t num_f64_sqrt(uint64_t a, num_rnd rnd, unsigned flags);
uint64_t num_f64_rcp_approx(uint64_t a, unsigned flags);    /* rcp.approx.ftz.f64 */
uint64_t num_f64_rsqrt_approx(uint64_t a, unsigned flags);
uint64_t num_f64_min(uint64_t a, uint64_t b, unsigned flags);
uint64_t num_f64_max(uint64_t a, uint64_t b, unsigned flags);
static inline uint64_t num_f64_abs(uint64_t a) { return a & 0x7FFFFFFFFFFFFFFFull; }
static inline uint64_t num_f64_neg(uint64_t a) { return a ^ 0x8000000000000000ull; }
static inline uint64_t num_f64_copysign(uint64_t a, uint64_t b)
{ return (b & 0x7FFFFFFFFFFFFFFFull) | (a & 0x8000000000000000ull); }

/* Fast .rn paths (no flags). */
static inline uint32_t num_f32_nan_fix(float r) { return r != r ? NUM_F32_QNAN : num_u32(r); }
static inline uint32_t num_f32_add_rn(uint32_t a, uint32_t b) { return num_f32_nan_fix(num_f32(a) + num_f32(b)); }
static inline uint32_t num_f32_sub_rn(uint32_t a, uint32_t b) { return num_f32_nan_fix(num_f32(a) - num_f32(b)); }
static inline uint32_t num_f32_mul_rn(uint32_t a, uint32_t b) { return num_f32_nan_fix(num_f32(a) * num_f32(b)); }
static inline uint32_t num_f32_fma_rn(uint32_t a, uint32_t b, uint32_t c)
{ return num_f32_nan_fix(fmaf(num_f32(a), num_f32(b), num_f32(c))); }
static inline uint64_t num_f64_nan_fix(double r) { return r != r ? NUM_F64_QNAN : num_u64(r); }
static inline uint64_t num_f64_add_rn(uint64_t a, uint64_t b) { return num_f64_nan_fix(num_f64(a) + num_f64(b)); }
static inline uint64_t num_f64_mul_rn(uint64_t a, uint64_t b) { return num_f64_nan_fix(num_f64(a) * num_f64(b)); }
static inline uint64_t num_f64_fma_rn(uint64_t a, uint64_t b, uint64_t c)
{ return num_f64_nan_fix(fma(num_f64(a), num_f64(b), num_f64(c))); }

/* testp.op: */
typedef enum { NUM_TP_FINITE, NUM_TP_INFINITE, NUM_TP_NUMBER, NUM_TP_NOTANUMBER,
               NUM_TP_NORMAL, NUM_TP_SUBNORMAL } num_testp_op;
bool num_testp(uint64_t a, num_fmt f /* NUM_F32 or NUM_F64 */, num_testp_op op);

/* ======================= f16 / bf16 (scalar and x2) ======================= */
/* f = NUM_F16 or NUM_BF16.  rnd: NUM_RN (the only mode PTX allows for
 * these, except add/sub/mul .rz etc. on newer targets — honoured anyway).
 * flags: NUM_FTZ (f16 only), NUM_SAT, NUM_RELU (fma/min/max), NUM_NANP,
 * NUM_XORSIGN (min/max). */
uint16_t num_h_add(uint16_t a, uint16_t b, num_fmt f, num_rnd rnd, unsigned flags);
uint16_t num_h_sub(uint16_t a, uint16_t b, num_fmt f, num_rnd rnd, unsigned flags);
uint16_t num_h_mul(uint16_t a, uint16_t b, num_fmt f, num_rnd rnd, unsigned flags);
uint16_t num_h_fma(uint16_t a, uint16_t b, uint16_t c, num_fmt f, num_rnd rnd, unsigned flags);
uint16_t num_h_min(uint16_t a, uint16_t b, num_fmt f, unsigned flags);
uint16_t num_h_max(uint16_t a, uint16_t b, num_fmt f, unsigned flags);
uint16_t num_h_neg(uint16_t a, num_fmt f, unsigned flags);
uint16_t num_h_abs(uint16_t a, num_fmt f, unsigned flags);
uint16_t num_h_ex2_approx(uint16_t a, num_fmt f, unsigned flags);
uint16_t num_h_tanh_approx(uint16_t a, num_fmt f, unsigned flags);
/* x2: lane-wise on the two halves of a 32-bit register. */
uint32_t num_h2_add(uint32_t a, uint32_t b, num_fmt f, num_rnd rnd, unsigned flags);
uint32_t num_h2_sub(uint32_t a, uint32_t b, num_fmt f, num_rnd rnd, unsigned flags);
uint32_t num_h2_mul(uint32_t a, uint32_t b, num_fmt f, num_rnd rnd, unsigned flags);
uint32_t num_h2_fma(uint32_t a, uint32_t b, uint32_t c, num_fmt f, num_rnd rnd, unsigned flags);
uint32_t num_h2_min(uint32_t a, uint32_t b, num_fmt f, unsigned flags);
uint32_t num_h2_max(uint32_t a, uint32_t b, num_fmt f, unsigned flags);
uint32_t num_h2_neg(uint32_t a, num_fmt f, unsigned flags);
uint32_t num_h2_abs(uint32_t a, num_fmt f, unsigned flags);

/* ======================= integers ======================= */
/* Width-generic helpers: `bits` is 16, 32 or 64; inputs hold the value in
 * their low bits; results are zero-extended from `bits`. */
static inline uint64_t num_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static inline int64_t num_sext(uint64_t v, int bits)
{ return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits); }

uint64_t num_mul_hi(uint64_t a, uint64_t b, int bits, bool is_signed);
uint64_t num_mul_lo(uint64_t a, uint64_t b, int bits);
/* mul.wide: 16->32 or 32->64 bits. */
uint64_t num_mul_wide(uint64_t a, uint64_t b, int bits, bool is_signed);
/* mul24.{hi,lo}: 24x24 -> 48-bit product, lo = bits 0..31, hi = 16..47. */
uint32_t num_mul24(uint32_t a, uint32_t b, bool hi, bool is_signed);
/* mad.hi with optional .sat (s32 only: clamp the sum to s32). */
uint64_t num_mad_hi(uint64_t a, uint64_t b, uint64_t c, int bits, bool is_signed, bool sat);
/* add/sub with carry: cin 0/1; *cout gets the carry-out (add) or borrow-out
 * (sub: PTX sub.cc/subc, d = a - (b + CC.CF)). */
uint64_t num_addc(uint64_t a, uint64_t b, unsigned cin, int bits, unsigned *cout);
uint64_t num_subc(uint64_t a, uint64_t b, unsigned bin, int bits, unsigned *bout);
/* add.sat.s32 / sub.sat.s32. */
uint32_t num_add_sat_s32(uint32_t a, uint32_t b);
uint32_t num_sub_sat_s32(uint32_t a, uint32_t b);
/* div / rem: x/0 and INT_MIN/-1 as the H100 does (see numeric.c). */
uint64_t num_div(uint64_t a, uint64_t b, int bits, bool is_signed);
uint64_t num_rem(uint64_t a, uint64_t b, int bits, bool is_signed);
/* sad: c + |a - b|. */
uint64_t num_sad(uint64_t a, uint64_t b, uint64_t c, int bits, bool is_signed);
uint64_t num_min_int(uint64_t a, uint64_t b, int bits, bool is_signed);
uint64_t num_max_int(uint64_t a, uint64_t b, int bits, bool is_signed);
/* shl/shr: shift amounts >= width give 0 (shl, shr.u) or sign fill (shr.s). */
uint64_t num_shl(uint64_t a, uint32_t n, int bits);
uint64_t num_shr(uint64_t a, uint32_t n, int bits, bool is_signed);
/* bfe: pos, len = low 8 bits of b, c (bits 32 or 64). */
uint64_t num_bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, bool is_signed);
/* bfi.bN d, a(f), b, c(pos), d(len): insert a into b. */
uint64_t num_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits);
/* bfind: bit position of the most significant non-sign bit, 0xFFFFFFFF if none. */
uint32_t num_bfind(uint64_t a, int bits, bool is_signed, bool shiftamt);
uint64_t num_brev(uint64_t a, int bits);
uint32_t num_clz(uint64_t a, int bits);
uint32_t num_popc(uint64_t a);
/* fns.b32 d, mask, base, offset. */
uint32_t num_fns(uint32_t mask, uint32_t base, int32_t offset);
/* bmsk.{clamp,wrap}.b32 d, a(pos), b(len). */
uint32_t num_bmsk(uint32_t a, uint32_t b, bool wrap);
/* szext.{clamp,wrap}.{s32,u32} d, a, b(width). */
uint32_t num_szext(uint32_t a, uint32_t b, bool wrap, bool is_signed);
typedef enum { NUM_PRMT_DEFAULT, NUM_PRMT_F4E, NUM_PRMT_B4E, NUM_PRMT_RC8,
               NUM_PRMT_ECL, NUM_PRMT_ECR, NUM_PRMT_RC16 } num_prmt_mode;
uint32_t num_prmt(uint32_t a, uint32_t b, uint32_t c, num_prmt_mode mode);
/* shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: funnel shift of b:a by c. */
uint32_t num_shf(uint32_t a, uint32_t b, uint32_t c, bool right, bool wrap);
static inline uint32_t num_lop3(uint32_t a, uint32_t b, uint32_t c, uint8_t lut)
{
    uint32_t r = 0;
    if (lut & 0x01) r |= ~a & ~b & ~c;
    if (lut & 0x02) r |= ~a & ~b & c;
    if (lut & 0x04) r |= ~a & b & ~c;
    if (lut & 0x08) r |= ~a & b & c;
    if (lut & 0x10) r |= a & ~b & ~c;
    if (lut & 0x20) r |= a & ~b & c;
    if (lut & 0x40) r |= a & b & ~c;
    if (lut & 0x80) r |= a & b & c;
    return r;
}
/* dp4a.atype.btype d, a, b, c; dp2a.{lo,hi}.atype.btype (a: 16-bit pairs,
 * b: bytes 0-1 (lo) or 2-3 (hi)). */
uint32_t num_dp4a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed);
uint32_t num_dp2a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed, bool hi);

#endif
