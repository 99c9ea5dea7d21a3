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
static inline __attribute__((always_inline)) uint64_t encode_i(uint64_t mag, int scale, int neg, int dtype,
                                                                int keep, int rne)
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

static uint64_t encode(uint64_t mag, int scale, int neg, int dtype, int keep, int rne)
{
    return encode_i(mag, scale, neg, dtype, keep, rne);
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

/* ---- whole rows ------------------------------------------------------------ */

static bool single_type(int t) { return t == TC_T_F16 || t == TC_T_E4M3 || t == TC_T_E5M2; }

/* sig * 2^exp of a decoded element, exactly (0 for a zero or a special) */
static inline double dec_val(fnum d, int32_t *sg)
{
    *sg = d.cls == CL_FIN ? (d.neg ? -(int32_t)d.sig : (int32_t)d.sig) : 0;
    uint64_t pb = (uint64_t)(1023 + d.exp) << 52;   /* |exp| < 300 for every type here */
    double p2;
    memcpy(&p2, &pb, sizeof p2);
    return *sg ? (double)*sg * p2 : 0.0;
}

static inline __attribute__((always_inline)) void cols_impl(const fmt *f, int bt, const uint32_t *b,
                                                            uint32_t stride, int n, int k, tc_dcols *t)
{
    for (int c = 0; c < n; c++) {
        uint8_t sp = 0;
        for (int i = 0; i < k; i++) {
            fnum d = decode(f, in_bits(bt, b[(size_t)c * stride + i]));
            sp |= d.cls >= CL_INF;
            int32_t sg;
            double v = dec_val(d, &sg);
            t->e[i][c] = (int16_t)(sg ? d.exp : TC_DV_ZERO_EXP);
            if (t->single)
                t->vf[i][c] = (float)v;
            else
                t->vd[i][c] = v;
        }
        t->special[c] = sp;
    }
    for (int g = 0; g < (n + 7) / 8; g++) {
        unsigned m = 0;
        for (int j = 0; j < 8 && 8 * g + j < n; j++)
            m |= (unsigned)t->special[8 * g + j] << j;
        t->spec8[g] = (uint8_t)m;
    }
}

void tc_dot_cols(const struct tc_dot_op *op, const uint32_t *b, uint32_t stride, int n, int k, tc_dcols *t)
{
    t->single = single_type(op->atype) && single_type(op->btype);
    t->raw = b;
    t->stride = stride;
    t->n = (uint16_t)n;
    t->k = (uint16_t)k;
    if (op->btype == TC_T_F16 && t->single) {
        /* f16 on its bits: sig 2^exp is the f16 value times 2^10, a float
         * whose exponent field is the f16's plus 122 (subnormals: m 2^-14) */
        for (int c = 0; c < n; c++) {
            unsigned sp = 0;
            for (int i = 0; i < k; i++) {
                uint32_t x = b[(size_t)c * stride + i];
                uint32_t e = (x >> 10) & 31, m = x & 0x3ff, sg = (x & 0x8000) << 16;
                float v;
                int16_t ex;
                if (e == 31) {
                    sp = 1;
                    v = 0.0f;
                    ex = TC_DV_ZERO_EXP;
                } else if (e) {
                    uint32_t fb32 = sg | (e + 122) << 23 | m << 13;
                    memcpy(&v, &fb32, sizeof v);
                    ex = (int16_t)((int)e - 15);
                } else {
                    v = (float)m * 0x1p-14f;   /* a zero stays +0 */
                    v = sg && m ? -v : v;
                    ex = m ? -14 : TC_DV_ZERO_EXP;
                }
                t->vf[i][c] = v;
                t->e[i][c] = ex;
            }
            t->special[c] = (uint8_t)sp;
        }
        for (int g = 0; g < (n + 7) / 8; g++) {
            unsigned m = 0;
            for (int j = 0; j < 8 && 8 * g + j < n; j++)
                m |= (unsigned)t->special[8 * g + j] << j;
            t->spec8[g] = (uint8_t)m;
        }
    } else if (op->btype == TC_T_F16)
        cols_impl(&FMT_F16, TC_T_F16, b, stride, n, k, t);
    else
        cols_impl(type_fmt(op->btype), op->btype, b, stride, n, k, t);
}

/* |S| * 2^scale as an f32 D, cut toward zero to `keep` fraction bits
 * (encode's f32 RZ case, for |S| < 2^62, written without data-dependent
 * branches where the cut is) */
static inline __attribute__((always_inline)) uint32_t enc_f32_rz(uint64_t mag, int scale, int neg, int keep)
{
    if (!mag)
        return 0;
    int top = msb64(mag) + scale;
    int ex = top < -126 ? -126 : top;
    int sh = ex - keep - scale;
    uint64_t kept = sh <= 0 ? mag << (-sh) : sh > 63 ? 0 : mag >> sh;
    if (kept == 0) /* cut to nothing: +0, as encode */
        return 0;
    if (ex > 127)
        return (uint32_t)neg << 31 | 0x7f800000u;
    uint32_t field = (kept >> keep) ? (uint32_t)(ex + 127) : 0; /* 0: subnormal */
    return (uint32_t)neg << 31 | field << 23 | (uint32_t)(kept & (((uint64_t)1 << keep) - 1)) << (23 - keep);
}

/* GCC cannot see that the first pass writes every scale the second reads
 * (whole groups of 8, n rounded up), and warns where it passes them on */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
/* S[c] = sum over i < k of trunc(a[i] v[i][c] sc[c]), for c < n rounded up
 * to 8 (tc_dot_row's second pass; the sums cannot overflow, see there) */
static inline __attribute__((always_inline)) void prods_f_impl(const float *a, const tc_dcols *t, const float *sc,
                                                               int32_t *S, int n, int k)
{
#if defined(__SSE2__)
    __m128 av[TC_COLS_K];   /* each a[i] in every lane */
    for (int i = 0; i < k; i++)
        av[i] = _mm_set1_ps(a[i]);
#endif
    for (int c0 = 0; c0 < n; c0 += 8) {
#if defined(__SSE2__)
        for (int g = 0; g < 8; g += 4) {
            __m128 s = _mm_loadu_ps(&sc[c0 + g]);
            __m128i acc = _mm_setzero_si128();
            for (int i = 0; i < k; i++) {
                __m128 p = _mm_mul_ps(_mm_mul_ps(av[i], _mm_loadu_ps(&t->vf[i][c0 + g])), s);
                acc = _mm_add_epi32(acc, _mm_cvttps_epi32(p));
            }
            _mm_storeu_si128((__m128i *)&S[c0 + g], acc);
        }
#else
        for (int j = 0; j < 8; j++) {
            int32_t s = 0;
            for (int i = 0; i < k; i++)
                s += (int32_t)(a[i] * t->vf[i][c0 + j] * sc[c0 + j]);
            S[c0 + j] = s;
        }
#endif
    }
}
static void prods_f(const float *a, const tc_dcols *t, const float *sc, int32_t *S, int n, int k)
{
    if (k == 16)
        prods_f_impl(a, t, sc, S, n, 16);
    else
        prods_f_impl(a, t, sc, S, n, k);
}

#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(TC_NO_AVX2)
#include <immintrin.h>
/* The same 8 columns at a time in one AVX2 vector; chosen at run time, so
 * the binary still runs on CPUs without AVX2. */
__attribute__((target("avx2"))) static void prods_f_avx2(const float *a, const tc_dcols *t, const float *sc,
                                                         int32_t *S, int n, int k)
{
    for (int c0 = 0; c0 < n; c0 += 8) {
        __m256 s = _mm256_loadu_ps(&sc[c0]);
        __m256i acc = _mm256_setzero_si256();
        for (int i = 0; i < k; i++) {
            __m256 p = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(a[i]), _mm256_loadu_ps(&t->vf[i][c0])), s);
            acc = _mm256_add_epi32(acc, _mm256_cvttps_epi32(p));
        }
        _mm256_storeu_si256((__m256i *)&S[c0], acc);
    }
}
#define PRODS_F(a, t, sc, S, n, k) \
    (__builtin_cpu_supports("avx2") ? prods_f_avx2(a, t, sc, S, n, k) : prods_f(a, t, sc, S, n, k))
#else
#define PRODS_F(a, t, sc, S, n, k) prods_f(a, t, sc, S, n, k)
#endif

static void prods_d(const double *a, const tc_dcols *t, const double *sc, int32_t *S, int n, int k)
{
    for (int c0 = 0; c0 < n; c0 += 8) {
#if defined(__SSE2__)
        for (int g = 0; g < 8; g += 2) {
            __m128d s = _mm_loadu_pd(&sc[c0 + g]);
            __m128i acc = _mm_setzero_si128();
            for (int i = 0; i < k; i++) {
                __m128d p = _mm_mul_pd(_mm_mul_pd(_mm_set1_pd(a[i]), _mm_loadu_pd(&t->vd[i][c0 + g])), s);
                acc = _mm_add_epi32(acc, _mm_cvttpd_epi32(p));
            }
            S[c0 + g] = _mm_cvtsi128_si32(acc);
            S[c0 + g + 1] = _mm_cvtsi128_si32(_mm_srli_si128(acc, 4));
        }
#else
        for (int j = 0; j < 8; j++) {
            int32_t s = 0;
            for (int i = 0; i < k; i++)
                s += (int32_t)(a[i] * t->vd[i][c0 + j] * sc[c0 + j]);
            S[c0 + j] = s;
        }
#endif
    }
}

/* One row against every column, 8 columns a step: the exponent maximum of
 * each column's products (int16 lanes) and C's, the scale 2^(F - fr -
 * maxe) per column, then the truncated scaled products summed in int32
 * lanes (each |trunc| < 2^(F+2); at most 16 of them at F = 25, 32 at
 * F = 13: the sum stays below 2^31), and C's cut part and the rounding per
 * column.  single, dtype, dkeep, rne and kk (K, or 0: t->k) are constants
 * in each instance. */
static inline __attribute__((always_inline)) void row_impl(const struct tc_dot_op *op, const uint32_t *a,
                                                           const tc_dcols *t, const uint32_t *cin,
                                                           uint32_t *out, const int single, const int dtype,
                                                           const int dkeep, const int rne, const int kk)
{
    const int n = t->n, k = kk ? kk : t->k;
    const fmt *fa = type_fmt(op->atype), *fb = type_fmt(op->btype);
    const int fr = fa->mbits + fb->mbits;
    const bool fp8 = op->atype == TC_T_E4M3 || op->atype == TC_T_E5M2;
    const int F = fp8 ? 13 : 25, d0 = F - fr;
    const int ctype = op->ctype, cfr = ctype == TC_T_F16 ? 10 : 23;
    const unsigned cmb = ctype == TC_T_F16 ? 10 : 23, cemax = ctype == TC_T_F16 ? 31 : 255;
    const int cbias = ctype == TC_T_F16 ? 15 : 127;
    const unsigned csb = ctype == TC_T_F16 ? 15 : 31;
    /* C's part, in units of 2^(maxe - F): sig 2^(cexp - cfr - maxe + F) =
     * (sig << L) >> (L - sh) with L = max(F - cfr, 0) >= sh */
    const int L = F - cfr > 0 ? F - cfr : 0;
    const bool no_c = op->no_c;
    float af[TC_COLS_K];
    double ad[TC_COLS_K];
    int16_t ae[TC_COLS_K];
    bool sp = false;
    for (int i = 0; i < k; i++) {
        fnum d = decode(fa, in_bits(op->atype, a[i]));
        sp |= d.cls >= CL_INF;
        int32_t sg;
        double v = dec_val(d, &sg);
        ae[i] = (int16_t)(sg ? d.exp : TC_DV_ZERO_EXP);
        af[i] = (float)v;
        ad[i] = v;
    }
    if (!fp8 && k > 16)
        sp = true; /* beyond the int32 sums' bound (no such dense form exists): the general way */
    if (sp) { /* an infinity or NaN in the row: every output the general way */
        for (int c = 0; c < n; c++)
            out[c] = (uint32_t)tc_dot(op, a, t->raw + (size_t)c * t->stride, k, no_c ? 0 : cin[c]);
        return;
    }
#if defined(__SSE2__)
    __m128i aev[TC_COLS_K];   /* the row, each element in every lane */
    for (int i = 0; i < k; i++)
        aev[i] = _mm_set1_epi16(ae[i]);
#endif
    /* three passes over the row: maxe, C and the scales; the products;
     * C's part and the rounding */
    int32_t S_r[TC_COLS_N];
    int16_t me_r[TC_COLS_N];   /* maxe of each column */
    int32_t cs_r[TC_COLS_N];   /* C's signed significand (0: no C, or a zero) */
    int32_t cx_r[TC_COLS_N];   /* C's exponent */
    /* 2^(F - fr - maxe), float or double (one array: the instance uses one) */
    union { float f[TC_COLS_N]; double d[TC_COLS_N]; } sc_r;
    float *scf_r = sc_r.f;
    double *scd_r = sc_r.d;
    uint8_t slow_r[TC_COLS_N / 8]; /* columns for tc_dot: an infinity or NaN in B or C */
    for (int c0 = 0; c0 < n; c0 += 8) {
        const int w = n - c0 < 8 ? n - c0 : 8;
        int16_t *me16 = me_r + c0;
        int32_t *csig = cs_r + c0, *cex = cx_r + c0;
        unsigned slow = 0;
#if !defined(__SSE2__)
        float *scf = scf_r + c0;
        double *scd = scd_r + c0;
#endif
#if defined(__SSE2__)
        {
            __m128i m = _mm_set1_epi16(INT16_MIN);
            for (int i = 0; i < k; i++)
                m = _mm_max_epi16(m, _mm_add_epi16(aev[i], _mm_loadu_si128((const __m128i *)&t->e[i][c0])));
            /* C: exponent field, significand with its hidden bit, sign, in
             * two int32 vectors; a zero C (or none) counts as INT16_MIN */
            __m128i cemv = _mm_set1_epi32((int)cemax), cz = _mm_setzero_si128(), cmx[2];
            for (int h = 0; h < 2; h++) {
                __m128i cb = cz;
                if (!no_c) {
                    if (c0 + 4 * h + 4 <= n) {
                        cb = _mm_loadu_si128((const __m128i *)&cin[c0 + 4 * h]);
                    } else {
                        uint32_t part[4] = { 0, 0, 0, 0 };
                        for (int j = 0; j < 4 && c0 + 4 * h + j < n; j++)
                            part[j] = cin[c0 + 4 * h + j];
                        cb = _mm_loadu_si128((const __m128i *)part);
                    }
                }
                __m128i ce = _mm_and_si128(_mm_srli_epi32(cb, (int)cmb), cemv);
                __m128i hid = _mm_cmpeq_epi32(ce, cz);                 /* -1: exponent field 0 */
                __m128i sig = _mm_or_si128(_mm_and_si128(cb, _mm_set1_epi32((int)((1u << cmb) - 1))),
                                           _mm_andnot_si128(hid, _mm_set1_epi32((int)(1u << cmb))));
                __m128i cexp = _mm_sub_epi32(_mm_sub_epi32(ce, _mm_set1_epi32(cbias)), hid);
                __m128i nm = _mm_srai_epi32(_mm_slli_epi32(cb, (int)(31 - csb)), 31);
                slow |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(ce, cemv))) << (4 * h);
                _mm_storeu_si128((__m128i *)&csig[4 * h], _mm_sub_epi32(_mm_xor_si128(sig, nm), nm));
                _mm_storeu_si128((__m128i *)&cex[4 * h], cexp);
                __m128i zc = _mm_cmpeq_epi32(sig, cz);
                cmx[h] = _mm_or_si128(_mm_andnot_si128(zc, cexp), _mm_and_si128(zc, _mm_set1_epi32(INT16_MIN)));
            }
            m = _mm_max_epi16(m, _mm_packs_epi32(cmx[0], cmx[1]));
            _mm_storeu_si128((__m128i *)me16, m);
            __m128i x = _mm_sub_epi16(_mm_set1_epi16((int16_t)d0), m);
            if (single) {
                /* a product exists only if maxe >= its exponent (>= -28 for
                 * these types), so x stays in float's range unless every
                 * product is zero; then the scale does not matter */
                x = _mm_min_epi16(_mm_max_epi16(x, _mm_set1_epi16(-126)), _mm_set1_epi16(127));
                __m128i lo = _mm_srai_epi32(_mm_unpacklo_epi16(x, x), 16), hi = _mm_srai_epi32(_mm_unpackhi_epi16(x, x), 16);
                __m128i b127 = _mm_set1_epi32(127);
                _mm_storeu_ps(&scf_r[c0], _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(lo, b127), 23)));
                _mm_storeu_ps(&scf_r[c0 + 4], _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(hi, b127), 23)));
            } else {
                x = _mm_min_epi16(_mm_max_epi16(x, _mm_set1_epi16(-1022)), _mm_set1_epi16(1023));
                __m128i lo = _mm_srai_epi32(_mm_unpacklo_epi16(x, x), 16), hi = _mm_srai_epi32(_mm_unpackhi_epi16(x, x), 16);
                __m128i b = _mm_set1_epi32(1023);
                lo = _mm_add_epi32(lo, b);
                hi = _mm_add_epi32(hi, b);
                _mm_storeu_pd(&scd_r[c0], _mm_castsi128_pd(_mm_slli_epi64(_mm_unpacklo_epi32(lo, cz), 52)));
                _mm_storeu_pd(&scd_r[c0 + 2], _mm_castsi128_pd(_mm_slli_epi64(_mm_unpackhi_epi32(lo, cz), 52)));
                _mm_storeu_pd(&scd_r[c0 + 4], _mm_castsi128_pd(_mm_slli_epi64(_mm_unpacklo_epi32(hi, cz), 52)));
                _mm_storeu_pd(&scd_r[c0 + 6], _mm_castsi128_pd(_mm_slli_epi64(_mm_unpackhi_epi32(hi, cz), 52)));
            }
            slow = (slow | t->spec8[c0 / 8]) & ((1u << w) - 1);
        }
#else
        int16_t mx[8];
        for (int j = 0; j < 8; j++) {
            int16_t m = INT16_MIN;
            for (int i = 0; i < k; i++) {
                int16_t e = (int16_t)(ae[i] + t->e[i][c0 + j]);
                m = e > m ? e : m;
            }
            mx[j] = m;
        }
        for (int j = 0; j < 8; j++) {
            uint32_t cb = no_c || j >= w ? 0 : cin[c0 + j];
            unsigned ce = (cb >> cmb) & cemax;
            uint32_t cm = cb & ((1u << cmb) - 1);
            if (j < w && (ce == cemax || t->special[c0 + j]))
                slow |= 1u << j;
            int32_t sig = (int32_t)(cm | (ce ? 1u << cmb : 0u));
            int cexp = (ce ? (int)ce : 1) - cbias;
            csig[j] = (cb >> csb) & 1 ? -sig : sig;
            cex[j] = cexp;
            /* products' maximum (below TC_DV_ZERO_EXP / 2: none) and C's */
            int maxe = sig && cexp > mx[j] ? cexp : mx[j];
            me16[j] = (int16_t)maxe;
            int x = d0 - maxe;
            if (single) {
                /* a product exists only if maxe >= its exponent (>= -28 for
                 * these types), so x stays in float's range unless every
                 * product is zero; then the scale does not matter */
                x = x > 127 ? 0 : x < -126 ? -126 : x;
                uint32_t fb32 = (uint32_t)(127 + x) << 23;
                memcpy(&scf[j], &fb32, sizeof fb32);
            } else {
                x = x > 1023 ? 0 : x;
                uint64_t sbits = (uint64_t)(1023 + x) << 52;
                memcpy(&scd[j], &sbits, sizeof sbits);
            }
        }
#endif
        slow_r[c0 / 8] = (uint8_t)slow;
    }
    /* the products: val_a val_b is exact (at most 22 significant bits),
     * the power-of-two scale is exact (a result below float's normal
     * range is below 1 and truncates to 0 either way), and the
     * conversion truncates toward zero */
    if (single)
        PRODS_F(af, t, scf_r, S_r, n, k);
    else
        prods_d(ad, t, scd_r, S_r, n, k);
    for (int c0 = 0; c0 < n; c0 += 8) {
        const int w = n - c0 < 8 ? n - c0 : 8;
        const int16_t *me16 = me_r + c0;
        const int32_t *csig = cs_r + c0, *cex = cx_r + c0, *S = S_r + c0;
        const unsigned slow = slow_r[c0 / 8];
        uint32_t res[8];
        unsigned scal = 0xff; /* columns still to finish one by one below */
#if defined(__SSE2__)
        if (dtype == TC_T_F32) {
            /* C's part and the rounding, 4 columns a step.  C's part is
             * trunc(csig 2^(cexp - cfr + F - maxe)) in float (exact: |csig|
             * < 2^24, a power-of-two scale; the exponent clamped where the
             * result is below 1 or C is zero); the sum v in int32 (a lane
             * that overflows, or is INT32_MIN, is finished below).  Then
             * |v| cut toward zero below its top dkeep+1 bits (or at the
             * subnormal step), as an exact float, times 2^(maxe - F) in two
             * exact steps: the float product rounds only on overflow, to
             * infinity, as the H100.  A cut to nothing is +0. */
            const __m128i me8 = _mm_loadu_si128((const __m128i *)me16);
            const __m128i cex8 = _mm_packs_epi32(_mm_loadu_si128((const __m128i *)&cex[0]),
                                                 _mm_loadu_si128((const __m128i *)&cex[4]));
            __m128i e2 = _mm_subs_epi16(_mm_adds_epi16(cex8, _mm_set1_epi16((int16_t)(F - cfr))), me8);
            e2 = _mm_min_epi16(_mm_max_epi16(e2, _mm_set1_epi16(-126)), _mm_set1_epi16(127));
            __m128i sc8 = _mm_sub_epi16(me8, _mm_set1_epi16((int16_t)F));
            __m128i scc = _mm_min_epi16(_mm_max_epi16(sc8, _mm_set1_epi16(-252)), _mm_set1_epi16(252));
            const __m128i b127 = _mm_set1_epi32(127), zero = _mm_setzero_si128();
            const __m128i imin = _mm_set1_epi32(INT32_MIN);
            scal = 0;
            for (int g = 0; g < 8; g += 4) {
#define TC_WIDEN(x) (g ? _mm_srai_epi32(_mm_unpackhi_epi16(x, x), 16) : _mm_srai_epi32(_mm_unpacklo_epi16(x, x), 16))
#define TC_POW2F(e) _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(e, b127), 23))
                __m128i Sv = _mm_loadu_si128((const __m128i *)&S[g]);
                __m128i cs = _mm_loadu_si128((const __m128i *)&csig[g]);
                __m128i tt = _mm_cvttps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(cs), TC_POW2F(TC_WIDEN(e2))));
                __m128i v = _mm_add_epi32(Sv, tt);
                __m128i bad = _mm_or_si128(_mm_and_si128(_mm_xor_si128(Sv, v), _mm_xor_si128(tt, v)),
                                           _mm_cmpeq_epi32(v, imin));
                scal |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(bad)) << g;
                __m128i ng = _mm_srai_epi32(v, 31);
                __m128i av = _mm_sub_epi32(_mm_xor_si128(v, ng), ng);       /* |v| < 2^31 */
                /* E: the top bit of |v|, from an exact conversion (at 2^24
                 * and above, the low 8 bits cleared: at most 23 bits remain
                 * below bit 30, so nothing rounds up) */
                __m128i wide = _mm_cmpgt_epi32(av, _mm_set1_epi32(0xffffff));
                __m128i av8 = _mm_andnot_si128(_mm_and_si128(wide, _mm_set1_epi32(0xff)), av);
                __m128i E = _mm_sub_epi32(_mm_srli_epi32(_mm_castps_si128(_mm_cvtepi32_ps(av8)), 23), b127);
                __m128i scale = TC_WIDEN(sc8);
                __m128i top = _mm_add_epi32(E, scale), lo = _mm_set1_epi32(-126);
                __m128i under = _mm_cmpgt_epi32(lo, top);
                __m128i ex = _mm_or_si128(_mm_and_si128(under, lo), _mm_andnot_si128(under, top));
                __m128i drop = _mm_sub_epi32(_mm_sub_epi32(ex, _mm_set1_epi32(dkeep)), scale);
                __m128i dneg = _mm_cmpgt_epi32(zero, drop), dbig = _mm_cmpgt_epi32(drop, _mm_set1_epi32(31));
                drop = _mm_andnot_si128(dneg, drop);
                drop = _mm_or_si128(_mm_and_si128(dbig, _mm_set1_epi32(31)), _mm_andnot_si128(dbig, drop));
                /* 2^drop as an integer (2^31 gives INT32_MIN: the mask keeps
                 * only bit 31, which |v| never has) */
                __m128i kept = _mm_and_si128(av, _mm_sub_epi32(zero, _mm_cvttps_epi32(TC_POW2F(drop))));
                __m128i sc2 = TC_WIDEN(scc), s1 = _mm_srai_epi32(sc2, 1), s2 = _mm_sub_epi32(sc2, s1);
                __m128 r = _mm_mul_ps(_mm_mul_ps(_mm_cvtepi32_ps(kept), TC_POW2F(s1)), TC_POW2F(s2));
                __m128i sgn = _mm_andnot_si128(_mm_cmpeq_epi32(kept, zero), _mm_and_si128(ng, imin));
                _mm_storeu_si128((__m128i *)&res[g], _mm_or_si128(_mm_castps_si128(r), sgn));
#undef TC_WIDEN
#undef TC_POW2F
            }
        }
#endif
        if (w == 8 && !(slow | scal)) { /* every column from the vectors: store them whole */
            memcpy(&out[c0], res, sizeof res);
            continue;
        }
        for (int j = 0; j < w; j++) {
            const int col = c0 + j;
            if (slow >> j & 1) {
                out[col] = (uint32_t)tc_dot(op, a, t->raw + (size_t)col * t->stride, k, no_c ? 0 : cin[col]);
                continue;
            }
            if (!(scal >> j & 1)) {
                out[col] = res[j];
                continue;
            }
            const int me = me16[j];
            int sh = F + cex[j] - me - cfr, rs = L - sh;
            int64_t cs = csig[j], cm = cs < 0 ? -cs : cs;
            int64_t tt = rs > 62 || rs < 0 ? 0 : (cm << L) >> rs; /* rs < 0: a zero C */
            int64_t v = (int64_t)S[j] + (cs < 0 ? -tt : tt);
            int neg = v < 0;
            uint64_t mag = neg ? (uint64_t)-v : (uint64_t)v;
            if (dtype == TC_T_F32)
                out[col] = enc_f32_rz(mag, me - F, neg, dkeep);
            else
                out[col] = (uint32_t)encode_i(mag, me - F, neg, dtype, dkeep, rne);
        }
    }
}

void tc_dot_row(const struct tc_dot_op *op, const uint32_t *a, const tc_dcols *t, const uint32_t *cin,
                uint32_t *out)
{
    bool fp8 = op->atype == TC_T_E4M3 || op->atype == TC_T_E5M2;
    /* one instance per D, kind of product and K (f16 at K = 16 unrolled) */
    if (op->dtype == TC_T_F16) {
        if (t->single && t->k == 16)
            row_impl(op, a, t, cin, out, 1, TC_T_F16, 10, 1, 16);
        else if (t->single)
            row_impl(op, a, t, cin, out, 1, TC_T_F16, 10, 1, 0);
        else
            row_impl(op, a, t, cin, out, 0, TC_T_F16, 10, 1, 0);
    } else if (fp8) {
        row_impl(op, a, t, cin, out, 1, TC_T_F32, 13, 0, 0);
    } else if (t->single && t->k == 16) {
        row_impl(op, a, t, cin, out, 1, TC_T_F32, 23, 0, 16);
    } else if (t->single) {
        row_impl(op, a, t, cin, out, 1, TC_T_F32, 23, 0, 0);
    } else {
        row_impl(op, a, t, cin, out, 0, TC_T_F32, 23, 0, 0);
    }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

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
