/* dot.c — one output element of a tensor-core MMA, bit for bit as the H100
 * computes it (the contract is in dot.h).
 *
 * The floating-point forms are not a chain of IEEE operations.  Per fused
 * step the hardware
 *   1. forms every product exactly (significands multiplied, exponents added;
 *      a product's exponent is ea + eb with each significand in [0, 2), so
 *      the product's significand is in [0, 4));
 *   2. finds the largest exponent among the nonzero addends, C included;
 *   3. cuts every addend toward zero at F fraction bits below that exponent
 *      (F = 25 for f16/bf16/tf32, 13 for wgmma's fp8) and adds the cut
 *      values exactly;
 *   4. rounds the sum once to D: toward zero for an f32 D (to 13 fraction
 *      bits for wgmma fp8), to nearest even for an f16 D.
 * A NaN operand, or infinities of both signs, give the canonical NaN; an
 * infinity otherwise passes through; a finite sum beyond D's range becomes
 * an infinity.  Subnormal inputs and outputs are kept.
 * Sources: Khattak & Mikaitis (arXiv:2512.07004) and MMA-Sim (arXiv:2511.10909)
 * describe this model; tests/hw/tc_numerics holds what the H100 gave.
 *
 * The steps: one step over the instruction's K, except where the hardware
 * splits it: wmma tf32 m16n16k8 runs as two k4 steps, and mma.sync/mma.sp
 * on fp8 inputs, which sm_90 has no native unit for, runs as two f16 steps
 * from a zero accumulator and then an IEEE add of C (mma_fp8).  mma.sp's
 * other forms are one step over the products present (K/2).
 *
 * Integer forms are exact (wrapping, or clamped with .satfinite); f64 is a
 * chain of IEEE fmas in k order.
 */
#include "tc/dot.h"

#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* An operand decoded: value = sig * 2^(exp - frac), with exp the floating
 * exponent (clamped to the type's minimum for subnormals) and sig an integer
 * of at most frac+1 bits. */
typedef struct { int64_t sig; int exp; uint8_t neg, cls; } fnum;
enum { CL_ZERO, CL_FIN, CL_INF, CL_NAN };

typedef struct { uint8_t ebits, mbits; int bias; uint8_t ieee_inf; } fmt;

static const fmt FMT_F16 = { 5, 10, 15, 1 }, FMT_BF16 = { 8, 7, 127, 1 },
                 FMT_TF32 = { 8, 10, 127, 1 }, FMT_F32 = { 8, 23, 127, 1 },
                 FMT_E4M3 = { 4, 3, 7, 0 }, FMT_E5M2 = { 5, 2, 15, 1 };

static const fmt *type_fmt(int t)
{
    switch (t) {
    case TC_T_F16: return &FMT_F16;
    case TC_T_BF16: return &FMT_BF16;
    case TC_T_TF32: return &FMT_TF32;
    case TC_T_F32: return &FMT_F32;
    case TC_T_E4M3: return &FMT_E4M3;
    case TC_T_E5M2: return &FMT_E5M2;
    default: return NULL;
    }
}

static inline __attribute__((always_inline)) fnum decode(const fmt *f, uint32_t bits)
{
    fnum r;
    unsigned emax = (1u << f->ebits) - 1;
    r.neg = (bits >> (f->ebits + f->mbits)) & 1;
    unsigned e = (bits >> f->mbits) & emax;
    uint32_t m = bits & ((1u << f->mbits) - 1);
    if (f->ieee_inf && e == emax) {
        r.cls = m ? CL_NAN : CL_INF;
        r.sig = 0; r.exp = 0;
        return r;
    }
    if (!f->ieee_inf && e == emax && m == (1u << f->mbits) - 1) { /* e4m3: S.1111.111 */
        r.cls = CL_NAN; r.sig = 0; r.exp = 0;
        return r;
    }
    if (e == 0) {
        r.cls = m ? CL_FIN : CL_ZERO;
        r.sig = m;
        r.exp = 1 - f->bias;
    } else {
        r.cls = CL_FIN;
        r.sig = (int64_t)m | ((int64_t)1 << f->mbits);
        r.exp = (int)e - f->bias;
    }
    return r;
}

/* the operand's bits as the hardware reads them */
static uint32_t in_bits(int t, uint32_t x)
{
    return t == TC_T_TF32 ? (x >> 13) : x; /* tf32: the low 13 bits are ignored */
}

static int msb64(uint64_t x) { return 63 - __builtin_clzll(x); }

/* |S| * 2^scale, rounded to the format (f32 or f16 or f32 with 13 fraction
 * bits), RZ or RNE; returns the bits. */
static uint64_t encode(uint64_t mag, int scale, int neg, int dtype, int keep, int rne)
{
    const fmt *f = dtype == TC_T_F16 ? &FMT_F16 : &FMT_F32;
    int emin = 1 - f->bias;
    uint64_t sgn = (uint64_t)neg << (f->ebits + f->mbits);
    uint64_t inf = sgn | ((uint64_t)((1u << f->ebits) - 1) << f->mbits);
    if (mag == 0)
        return 0; /* an exact zero sum is +0 */
    int top = msb64(mag) + scale;          /* the value's exponent */
    int ex = top < emin ? emin : top;
    int q = ex - keep;                      /* weight of the last kept bit */
    int sh = q - scale;                     /* bits of mag below it */
    uint64_t kept;
    if (sh <= 0) {
        kept = mag << -sh;
    } else if (sh >= 64) {
        kept = 0;
        if (rne && sh == 64 && (mag >> 63))
            kept = (mag != ((uint64_t)1 << 63)) ? 1 : 0;
    } else {
        kept = mag >> sh;
        if (rne) {
            uint64_t rem = mag & (((uint64_t)1 << sh) - 1), half = (uint64_t)1 << (sh - 1);
            if (rem > half || (rem == half && (kept & 1)))
                kept++;
        }
    }
    /* kept * 2^q with q = ex - keep: renormalise after a carry */
    if (kept >> (keep + 1)) { kept >>= 1; ex++; }
    if (kept == 0) /* cut to nothing: the H100 writes +0 (Triton matmuls over subnormals) */
        return 0;
    if (ex > f->bias)
        return inf;
    if (!(kept >> keep)) /* subnormal */
        ex = emin - 1;
    else if (ex == emin - 1)
        ex = emin;
    uint64_t frac = (kept & (((uint64_t)1 << keep) - 1)) << (f->mbits - keep);
    return sgn | ((uint64_t)(ex + f->bias) << f->mbits) | frac;
}

/* One fused floating-point step over n products and c.  Inlined into
 * fused_fixed per common format pair so that decoding folds to constants. */
static inline __attribute__((always_inline)) uint64_t fused_step(const fmt *fa, const fmt *fb, int atype, int btype,
                           const uint32_t *a, const uint32_t *b, int n,
                           int ctype, uint64_t c, int has_c, int dtype, int F, int dkeep, int rne)
{
    int64_t prod[64];           /* signed exact products; 0 = none */
    int pe[64];                 /* their exponents */
    int nanr = 0, pinf = 0, ninf = 0;
    int have = 0, maxe = -100000;
    int fr = fa->mbits + fb->mbits;
    for (int i = 0; i < n; i++) {
        fnum x = decode(fa, in_bits(atype, a[i]));
        fnum y = decode(fb, in_bits(btype, b[i]));
        prod[i] = 0;
        pe[i] = -100000;
        if (x.cls != CL_FIN || y.cls != CL_FIN) { /* a zero, an infinity or a NaN */
            int ca = x.cls, cb = y.cls;
            if (ca == CL_NAN || cb == CL_NAN) { nanr = 1; continue; }
            if (ca == CL_INF || cb == CL_INF) {
                if (ca == CL_ZERO || cb == CL_ZERO) { nanr = 1; continue; }
                if (x.neg ^ y.neg) ninf = 1; else pinf = 1;
                continue;
            }
            if (ca == CL_ZERO || cb == CL_ZERO)
                continue;
        }
        int64_t m = x.sig * y.sig;
        prod[i] = (x.neg ^ y.neg) ? -m : m;
        pe[i] = x.exp + y.exp;
        if (pe[i] > maxe) maxe = pe[i];
        have = 1;
    }
    fnum cv = { 0, 0, 0, CL_ZERO };
    if (has_c) {
        cv = decode(ctype == TC_T_F16 ? &FMT_F16 : &FMT_F32, (uint32_t)c);
        if (cv.cls == CL_NAN) nanr = 1;
        else if (cv.cls == CL_INF) { if (cv.neg) ninf = 1; else pinf = 1; }
        else if (cv.cls == CL_FIN) { if (cv.exp > maxe) maxe = cv.exp; have = 1; }
    }
    uint64_t dnan = dtype == TC_T_F16 ? 0x7fff : 0x7fffffff;
    if (nanr || (pinf && ninf))
        return dnan;
    if (pinf || ninf)
        return encode(0, 0, 0, dtype, dkeep, rne) |
               (dtype == TC_T_F16 ? (ninf ? 0xfc00u : 0x7c00u) : (ninf ? 0xff800000u : 0x7f800000u));
    if (!have)
        return 0;
    /* sum of the cut addends, in units of 2^(maxe - F): each cut toward
     * zero, so shift the magnitude */
    int64_t S = 0;
    for (int i = 0; i < n; i++) {
        int64_t m = prod[i];
        if (!m)
            continue;
        int sh = F + pe[i] - maxe - fr;
        int64_t mag = m < 0 ? -m : m;
        int64_t t = sh >= 0 ? (mag << sh) : (-sh >= 63 ? 0 : (mag >> -sh));
        S += m < 0 ? -t : t;
    }
    if (cv.cls == CL_FIN) {
        int cfr = ctype == TC_T_F16 ? 10 : 23;
        int sh = F + cv.exp - maxe - cfr;
        int64_t t = sh >= 0 ? (cv.sig << sh) : (-sh >= 63 ? 0 : (cv.sig >> -sh));
        S += cv.neg ? -t : t;
    }
    int neg = S < 0;
    uint64_t mag = neg ? (uint64_t)(-S) : (uint64_t)S;
    return encode(mag, maxe - F, neg, dtype, dkeep, rne);
}

/* fused_step with both formats known at compile time (the hot forms) */
#define FUSED_FIXED(NAME, FA, FB, TA, TB)                                                    \
    static uint64_t NAME(const uint32_t *a, const uint32_t *b, int n, int ctype, uint64_t c, \
                         int has_c, int dtype, int F, int dkeep, int rne)                    \
    {                                                                                        \
        return fused_step(FA, FB, TA, TB, a, b, n, ctype, c, has_c, dtype, F, dkeep, rne);   \
    }
FUSED_FIXED(fused_f16, &FMT_F16, &FMT_F16, TC_T_F16, TC_T_F16)
FUSED_FIXED(fused_bf16, &FMT_BF16, &FMT_BF16, TC_T_BF16, TC_T_BF16)
FUSED_FIXED(fused_tf32, &FMT_TF32, &FMT_TF32, TC_T_TF32, TC_T_TF32)

static uint64_t fused_any(const fmt *fa, const fmt *fb, int atype, int btype,
                          const uint32_t *a, const uint32_t *b, int n,
                          int ctype, uint64_t c, int has_c, int dtype, int F, int dkeep, int rne)
{
    if (atype == btype) {
        if (atype == TC_T_F16)
            return fused_f16(a, b, n, ctype, c, has_c, dtype, F, dkeep, rne);
        if (atype == TC_T_BF16)
            return fused_bf16(a, b, n, ctype, c, has_c, dtype, F, dkeep, rne);
        if (atype == TC_T_TF32)
            return fused_tf32(a, b, n, ctype, c, has_c, dtype, F, dkeep, rne);
    }
    return fused_step(fa, fb, atype, btype, a, b, n, ctype, c, has_c, dtype, F, dkeep, rne);
}

/* IEEE additions rounded to nearest, as FADD and HADD2 do (NaN results are
 * the canonical NaN). */
static uint32_t add_f32_rn(uint32_t x, uint32_t y)
{
    float fx, fy, r;
    memcpy(&fx, &x, 4);
    memcpy(&fy, &y, 4);
    r = fx + fy;
    uint32_t u;
    memcpy(&u, &r, 4);
    return isnan(r) ? 0x7fffffffu : u;
}

static uint16_t add_f16_rn(uint16_t x, uint16_t y)
{
    /* both are exact in double; the sum of two f16 is exact in double too,
     * so one rounding to f16 happens in encode() */
    const fmt *f = &FMT_F16;
    fnum p = decode(f, x), q = decode(f, y);
    if (p.cls == CL_NAN || q.cls == CL_NAN || (p.cls == CL_INF && q.cls == CL_INF && p.neg != q.neg))
        return 0x7fff;
    if (p.cls == CL_INF) return x;
    if (q.cls == CL_INF) return y;
    if (p.cls == CL_ZERO && q.cls == CL_ZERO)
        return (uint16_t)(p.neg && q.neg ? 0x8000 : 0);
    /* both as integers in units of 2^-24 */
    int64_t px = p.cls == CL_ZERO ? 0 : p.sig << (p.exp + 14);
    int64_t qx = q.cls == CL_ZERO ? 0 : q.sig << (q.exp + 14);
    int64_t s = (p.neg ? -px : px) + (q.neg ? -qx : qx);
    if (s == 0)
        return 0;
    int neg = s < 0;
    return (uint16_t)encode(neg ? (uint64_t)-s : (uint64_t)s, -24, neg, TC_T_F16, 10, 1);
}

static uint64_t int_dot(const struct tc_dot_op *op, const uint32_t *a, const uint32_t *b,
                        int n, uint64_t c)
{
    int64_t s = op->no_c ? 0 : (int64_t)(int32_t)(uint32_t)c;
    if (op->atype == TC_T_B1) {
        for (int w = 0; w < (n + 31) / 32; w++) {
            uint32_t x = op->bop == TC_BOP_XOR_POPC ? (a[w] ^ b[w]) : (a[w] & b[w]);
            if (n - w * 32 < 32)
                x &= (1u << (n - w * 32)) - 1;
            s += __builtin_popcount(x);
        }
    } else {
        int abits = (op->atype == TC_T_S4 || op->atype == TC_T_U4) ? 4 : 8;
        int bbits = (op->btype == TC_T_S4 || op->btype == TC_T_U4) ? 4 : 8;
        int as = op->atype == TC_T_S8 || op->atype == TC_T_S4;
        int bs = op->btype == TC_T_S8 || op->btype == TC_T_S4;
        for (int i = 0; i < n; i++) {
            int64_t x = a[i] & ((1u << abits) - 1), y = b[i] & ((1u << bbits) - 1);
            if (as && (x >> (abits - 1))) x -= (int64_t)1 << abits;
            if (bs && (y >> (bbits - 1))) y -= (int64_t)1 << bbits;
            s += x * y;
        }
    }
    if (op->satfinite) {
        if (s > INT32_MAX) s = INT32_MAX;
        if (s < INT32_MIN) s = INT32_MIN;
    }
    return (uint32_t)(int32_t)(uint32_t)(uint64_t)s;
}

static uint64_t f64_dot(const struct tc_dot_op *op, const uint32_t *a, const uint32_t *b,
                        int n, uint64_t c)
{
    /* f64 elements arrive as two words each: a[2i] low, a[2i+1] high */
    double s;
    uint64_t cb = op->no_c ? 0 : c;
    memcpy(&s, &cb, 8);
    for (int i = 0; i < n; i++) {
        uint64_t x = (uint64_t)a[2 * i] | (uint64_t)a[2 * i + 1] << 32;
        uint64_t y = (uint64_t)b[2 * i] | (uint64_t)b[2 * i + 1] << 32;
        double dx, dy;
        memcpy(&dx, &x, 8);
        memcpy(&dy, &y, 8);
        s = fma(dx, dy, s);
    }
    uint64_t r;
    memcpy(&r, &s, 8);
    return r;
}

/* an fp8 element as the f16 F2FP.F16.E4M3/E5M2.UNPACK_B makes of it (exact;
 * an e4m3 subnormal becomes a normal f16, which moves its exponent) */
static uint32_t fp8_to_f16(int t, uint32_t x)
{
    x &= 0xff;
    if (t == TC_T_E5M2)
        return x << 8;
    uint32_t s = (x & 0x80) << 8, e = (x >> 3) & 15, m = x & 7;
    if (e == 15 && m == 7)
        return s | 0x7fff;
    if (e == 0) {
        if (m == 0)
            return s;
        int sh = 0; /* m * 2^-9: normalise */
        while (!(m & 8)) { m <<= 1; sh++; }
        return s | ((uint32_t)(15 - 6 - sh) << 10) | ((m & 7) << 7);
    }
    return s | ((e - 7 + 15) << 10) | (m << 7);
}

/* mma.sync and mma.sp on fp8 inputs: sm_90 has no fp8 unit for them, and
 * ptxas lowers them (SASS read from nvcc 13.0's output) to F2FP conversions
 * to f16 (exact), two HMMA.16816 (mma.sp: HMMA.SP.16832) steps with a zero
 * accumulator first — one over the products whose k % 4 is 0 or 1 (mma.sp:
 * the compressed index, the low halves of the A registers), then one over
 * the rest taking the first D as C — and a final FADD (f32 D) or HADD2 (f16
 * D) of C, rounded to nearest.  The f16 steps align to the f16 exponents:
 * an e4m3 subnormal counts with its true exponent (H100: mixed e4m3 x e5m2
 * differed in 2 of 200,000 outputs until this was so). */
static uint64_t mma_fp8(const struct tc_dot_op *op, const uint32_t *a, const uint32_t *b, int n,
                        uint64_t c, int dkeep, int rne)
{
    uint32_t a0[32], b0[32], a1[32], b1[32];
    int n0 = 0, n1 = 0;
    for (int k = 0; k < n && k < 64; k++) {
        uint32_t x = fp8_to_f16(op->atype, a[k]), y = fp8_to_f16(op->btype, b[k]);
        if ((k & 2) == 0) { a0[n0] = x; b0[n0++] = y; }
        else { a1[n1] = x; b1[n1++] = y; }
    }
    int dt = op->dtype;
    uint64_t t = fused_f16(a0, b0, n0, dt, 0, 0, dt, 25, dkeep, rne);
    t = fused_f16(a1, b1, n1, dt, t, 1, dt, 25, dkeep, rne);
    if (op->no_c)
        return t;
    if (dt == TC_T_F16)
        return add_f16_rn((uint16_t)c, (uint16_t)t);
    return add_f32_rn((uint32_t)c, (uint32_t)t);
}

uint64_t tc_dot(const struct tc_dot_op *op, const uint32_t *a, const uint32_t *b,
                int n, uint64_t c)
{
    switch (op->atype) {
    case TC_T_S8: case TC_T_U8: case TC_T_S4: case TC_T_U4: case TC_T_B1:
        return int_dot(op, a, b, n, c);
    case TC_T_F64:
        return f64_dot(op, a, b, n, c);
    default:
        break;
    }
    const fmt *fa = type_fmt(op->atype), *fb = type_fmt(op->btype);
    if (!fa || !fb || n <= 0 || n > 64)
        return 0;
    int fp8 = op->atype == TC_T_E4M3 || op->atype == TC_T_E5M2;
    int wg = op->family == TC_FAM_WGMMA || op->family == TC_FAM_WGMMA_SP;
    int rne = op->dtype == TC_T_F16;
    int F = 25, dkeep = op->dtype == TC_T_F16 ? 10 : 23;
    if (fp8 && wg) {
        F = 13;
        if (op->dtype != TC_T_F16)
            dkeep = 13;
    }
    if (fp8 && !wg)
        return mma_fp8(op, a, b, n, c, dkeep, rne);
    int step = n;
    if (op->family == TC_FAM_WMMA && op->atype == TC_T_TF32 && op->k == 8)
        step = 4;
    uint64_t acc = c;
    int has_c = !op->no_c, ctype = op->ctype;
    for (int i = 0; i < n; i += step) {
        int m = n - i < step ? n - i : step;
        acc = fused_any(fa, fb, op->atype, op->btype, a + i, b + i, m, ctype, acc, has_c,
                         op->dtype, F, dkeep, rne);
        has_c = 1;
        ctype = op->dtype;
    }
    return acc;
}

/* ---- decoded operands ------------------------------------------------------ */

bool tc_dot_fast(const struct tc_dot_op *op)
{
    if (!type_fmt(op->atype) || !type_fmt(op->btype) || op->atype == TC_T_F32)
        return false;
    bool fp8 = op->atype == TC_T_E4M3 || op->atype == TC_T_E5M2;
    bool wg = op->family == TC_FAM_WGMMA || op->family == TC_FAM_WGMMA_SP;
    if (fp8 && !wg)
        return false;   /* mma.sync on fp8: ptxas's lowering, split in steps */
    if (op->family == TC_FAM_WMMA && op->atype == TC_T_TF32 && op->k == 8)
        return false;   /* two k4 steps */
    return op->ctype == TC_T_F32 || op->ctype == TC_T_F16;
}

void tc_dot_decode(const struct tc_dot_op *op, bool is_b, const uint32_t *x, int n, tc_dvec *v)
{
    int t = is_b ? op->btype : op->atype;
    const fmt *f = type_fmt(t);
    v->n = (uint8_t)n;
    v->special = 0;
    v->raw = x;
    for (int i = 0; i < n; i++) {
        fnum d = decode(f, in_bits(t, x[i]));
        if (d.cls >= CL_INF)
            v->special = 1;
        v->sig[i] = d.cls == CL_FIN ? (d.neg ? -(int32_t)d.sig : (int32_t)d.sig) : 0;
        v->exp[i] = (int16_t)(v->sig[i] ? d.exp : TC_DV_ZERO_EXP);
        uint64_t pb = (uint64_t)(1023 + d.exp) << 52;   /* 2^exp (|exp| < 300 for every type here) */
        double p2;
        memcpy(&p2, &pb, sizeof p2);
        v->val[i] = v->sig[i] ? (double)v->sig[i] * p2 : 0.0;
    }
}

/* tc_dot_dv's two loops; the 16-element forms (f16, bf16) have a
 * constant trip count, which lets the compiler use vector instructions */
static inline int dv_maxe(const int16_t *ea, const int16_t *eb, int n)
{
    int16_t m = INT16_MIN;
    for (int i = 0; i < n; i++) {
        int16_t e = (int16_t)(ea[i] + eb[i]);
        m = e > m ? e : m;
    }
    return m;
}
static inline int dv_maxe16(const int16_t *ea, const int16_t *eb) { return dv_maxe(ea, eb, 16); }
/* sum of trunc(va[i] vb[i] sc): integers below 2^28 each, so every partial
 * sum is exact in a double, in any order */
static inline int64_t dv_sum(const double *va, const double *vb, double sc, int n)
{
    double s = 0;
    int i = 0;
#if defined(__SSE2__)
    __m128d vs = _mm_set1_pd(sc), acc = _mm_setzero_pd(), acc2 = _mm_setzero_pd();
    for (; i + 4 <= n; i += 4) {
        __m128d p = _mm_mul_pd(_mm_mul_pd(_mm_loadu_pd(va + i), _mm_loadu_pd(vb + i)), vs);
        __m128d p2 = _mm_mul_pd(_mm_mul_pd(_mm_loadu_pd(va + i + 2), _mm_loadu_pd(vb + i + 2)), vs);
        acc = _mm_add_pd(acc, _mm_cvtepi32_pd(_mm_cvttpd_epi32(p)));
        acc2 = _mm_add_pd(acc2, _mm_cvtepi32_pd(_mm_cvttpd_epi32(p2)));
    }
    for (; i + 2 <= n; i += 2) {
        __m128d p = _mm_mul_pd(_mm_mul_pd(_mm_loadu_pd(va + i), _mm_loadu_pd(vb + i)), vs);
        acc = _mm_add_pd(acc, _mm_cvtepi32_pd(_mm_cvttpd_epi32(p)));
    }
    acc = _mm_add_pd(acc, acc2);
    s = _mm_cvtsd_f64(acc) + _mm_cvtsd_f64(_mm_unpackhi_pd(acc, acc));
#endif
    for (; i < n; i++)
        s += (double)(int32_t)(va[i] * vb[i] * sc);
    return (int64_t)s;
}
static inline int64_t dv_sum16(const double *va, const double *vb, double sc) { return dv_sum(va, vb, sc, 16); }

uint64_t tc_dot_dv(const struct tc_dot_op *op, const tc_dvec *a, const tc_dvec *b, uint64_t c)
{
    if (a->special || b->special)
        return tc_dot(op, a->raw, b->raw, a->n, c);
    const fmt *fa = type_fmt(op->atype), *fb = type_fmt(op->btype);
    int n = a->n, fr = fa->mbits + fb->mbits;
    bool fp8 = op->atype == TC_T_E4M3 || op->atype == TC_T_E5M2;
    int F = fp8 ? 13 : 25, rne = op->dtype == TC_T_F16;
    int dkeep = op->dtype == TC_T_F16 ? 10 : (fp8 ? 13 : 23);
    /* the largest exponent of a nonzero product (a zero's TC_DV_ZERO_EXP
     * keeps it out; two of them still fit in 16 bits) */
    int maxe = n == 16 ? dv_maxe16(a->exp, b->exp) : dv_maxe(a->exp, b->exp, n);
    if (maxe < TC_DV_ZERO_EXP / 2)
        maxe = -100000;
    fnum cv = { 0, 0, 0, CL_ZERO };
    if (!op->no_c) {
        cv = decode(op->ctype == TC_T_F16 ? &FMT_F16 : &FMT_F32, (uint32_t)c);
        if (cv.cls >= CL_INF) /* an infinite or NaN C: the general path */
            return tc_dot(op, a->raw, b->raw, n, c);
        if (cv.cls == CL_FIN && cv.exp > maxe)
            maxe = cv.exp;
    }
    if (maxe == -100000)
        return 0;
    /* each product cut toward zero at F bits below maxe: in units of
     * 2^(maxe - F), product i is sig_a sig_b 2^(e_i + F - fr - maxe); in
     * doubles, val_a val_b is exact (at most 22 significant bits), the
     * power-of-two scale is exact, and the truncating conversion cuts
     * toward zero (|t| < 2^28) */
    int d0 = F - fr;
    uint64_t sbits = (uint64_t)(1023 + d0 - maxe) << 52;
    double sc;
    memcpy(&sc, &sbits, sizeof sc);
    int64_t S = n == 16 ? dv_sum16(a->val, b->val, sc) : dv_sum(a->val, b->val, sc, n);
    if (cv.cls == CL_FIN) {
        int cfr = op->ctype == TC_T_F16 ? 10 : 23;
        int sh = F + cv.exp - maxe - cfr;
        int64_t t = sh >= 0 ? (cv.sig << sh) : (-sh >= 63 ? 0 : (cv.sig >> -sh));
        S += cv.neg ? -t : t;
    }
    int neg = S < 0;
    return encode(neg ? (uint64_t)-S : (uint64_t)S, maxe - F, neg, op->dtype, dkeep, rne);
}

/* bits of one element of a tensor-core type (tc_type) */
unsigned tc_type_bits(int t)
{
    switch (t) {
    case TC_T_F16: case TC_T_BF16: return 16;
    case TC_T_TF32: case TC_T_F32: case TC_T_S32: return 32;
    case TC_T_F64: return 64;
    case TC_T_E4M3: case TC_T_E5M2: case TC_T_S8: case TC_T_U8: return 8;
    case TC_T_S4: case TC_T_U4: return 4;
    case TC_T_B1: return 1;
    default: return 0;
    }
}
