/* hwref.h — deterministic CPU references and input generators, shared by
 * the GPU probe (probe.cu) and the fitter: pure double arithmetic (build
 * with -ffp-contract=off) so both machines compute the same bits. */
#include <stdint.h>
#include <string.h>
#include <math.h>

static inline float r_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t r_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double r_u2d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t r_d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

static inline uint64_t r_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* 2^f for f in [-1, 2] */
static double r_exp2_small(double f)
{
    double y = f * 0.69314718055994530942, s = 1, t = 1;
    for (int k = 1; k < 28; k++) {
        t = t * y / k;
        s = s + t;
    }
    return s;
}
static double r_exp2(double x)
{
    if (x != x) return x;
    if (x > 1100) return INFINITY;
    if (x < -1100) return 0;
    double n = floor(x);
    return ldexp(r_exp2_small(x - n), (int)n);
}
static double r_log2(double x)
{
    if (x != x || x < 0) return NAN;
    if (x == 0) return -INFINITY;
    if (isinf(x)) return INFINITY;
    int e;
    double m = frexp(x, &e);   /* [0.5,1) */
    m *= 2;
    e -= 1;
    if (m > 1.41421356237309504880) {
        m *= 0.5;
        e += 1;
    }
    double s = (m - 1) / (m + 1), s2 = s * s, t = s, sum = 0;
    for (int k = 0; k < 30; k++) {
        sum = sum + t / (2 * k + 1);
        t = t * s2;
    }
    return e + 2 * sum / 0.69314718055994530942;
}
/* sin and cos of 2*pi*t */
static void r_sincos2pi(double t, double *sn, double *cs)
{
    double f = t - floor(t);          /* exact for |t| < 2^52 */
    double q = floor(f * 4 + 0.5);    /* 0..4 */
    double r = f - q * 0.25;          /* [-1/8, 1/8] */
    double y = r * 6.28318530717958647693, y2 = y * y;
    double s = y, c = 1, ts = y, tc = 1;
    for (int k = 1; k < 14; k++) {
        ts = -ts * y2 / ((2 * k) * (2 * k + 1));
        tc = -tc * y2 / ((2 * k - 1) * (2 * k));
        s = s + ts;
        c = c + tc;
    }
    int qi = (int)q & 3;
    double S = qi == 0 ? s : qi == 1 ? c : qi == 2 ? -s : -c;
    double C = qi == 0 ? c : qi == 1 ? -s : qi == 2 ? -c : s;
    *sn = S;
    *cs = C;
}
static double r_tanh(double x)
{
    if (x != x) return x;
    double a = fabs(x), r;
    if (a < 0.125) {
        double x2 = a * a;
        r = a * (1 + x2 * (-1.0 / 3 + x2 * (2.0 / 15 + x2 * (-17.0 / 315 + x2 * (62.0 / 2835 + x2 * (-1382.0 / 155925))))));
    } else if (a > 40) {
        r = 1;
    } else {
        double e = r_exp2(2 * a * 1.44269504088896340736);
        r = (e - 1) / (e + 1);
    }
    return x < 0 ? -r : r;
}
/* x * (float)(1/(2 pi)) rounded toward zero to f32 (the FMUL.RZ before MUFU.SIN/COS) */
static float r_mul_rz_inv2pi(float x)
{
    double p = (double)x * (double)r_u2f(0x3e22f983u);  /* exact: 24x24 bits */
    float f = (float)p;
    if (fabs((double)f) > fabs(p))
        f = r_u2f(r_f2u(f) - 1);
    return f;
}

enum { F_RCP, F_RCPF, F_RSQ, F_RSQF, F_SQRT, F_SQRTF, F_EX2, F_EX2F, F_LG2, F_LG2F, F_SIN, F_SINF, F_COS, F_COSF,
       F_TANH, NF32 };
static const char *const r_fname[NF32] = {"rcp", "rcp.ftz", "rsqrt", "rsqrt.ftz", "sqrt", "sqrt.ftz", "ex2", "ex2.ftz",
                                          "lg2", "lg2.ftz", "sin", "sin.ftz", "cos", "cos.ftz", "tanh"};

/* the reference an output is stored against (as a zigzag difference of bits) */
static uint32_t r_ref32(int f, uint32_t u)
{
    float x = r_u2f(u);
    double r;
    switch (f) {
    case F_RCP: case F_RCPF: r = 1.0 / (double)x; break;
    case F_RSQ: case F_RSQF: r = 1.0 / sqrt((double)x); break;
    case F_SQRT: case F_SQRTF: r = sqrt((double)x); break;
    case F_EX2: case F_EX2F: r = r_exp2(x); break;
    case F_LG2: case F_LG2F: r = r_log2(x); break;
    case F_SIN: case F_SINF: case F_COS: case F_COSF: {
        float t = r_mul_rz_inv2pi(x);
        double s, c;
        if (isinf(t) || t != t) return 0x7fffffffu;
        r_sincos2pi(t, &s, &c);
        r = (f == F_SIN || f == F_SINF) ? s : c;
        break;
    }
    default: r = r_tanh(x); break;
    }
    if (r != r) return 0x7fffffffu;
    return r_f2u((float)r);
}
/* the predictor the committed suite (tests/hw/sfu) stores differences
 * from: r_ref32, except that sin/cos take the argument in revolutions as the
 * H100's unit reads it, in fixed point with 25 fraction bits (toward zero) */
static uint32_t r_ref32_suite(int f, uint32_t u)
{
    if (f < F_SIN || f > F_COSF)
        return r_ref32(f, u);
    float t = r_mul_rz_inv2pi(r_u2f(u));
    double s, c, tq = fabs((double)t) >= 0x1p52 ? t : trunc((double)t * 0x1p25) * 0x1p-25;
    if (isinf(t) || t != t) return 0x7fffffffu;
    r_sincos2pi(tq, &s, &c);
    double r = (f == F_SIN || f == F_SINF) ? s : c;
    return r_f2u((float)r);
}
static inline uint32_t r_zz(uint32_t hw, uint32_t ref) { int32_t d = (int32_t)(hw - ref); return ((uint32_t)d << 1) ^ (uint32_t)(d >> 31); }
static inline uint32_t r_unzz(uint32_t z, uint32_t ref) { int32_t d = (int32_t)((z >> 1) ^ (0u - (z & 1))); return ref + (uint32_t)d; }

/* per-binade sample: for each sign and exponent field, the first and last 32
 * mantissas and `rnd` random ones; n = 512 * (64 + rnd) */
static size_t r_gen_binades(uint32_t *o, int rnd, uint64_t seed)
{
    size_t n = 0;
    uint64_t s = seed;
    for (uint32_t se = 0; se < 512; se++) {
        uint32_t b = se << 23;
        for (uint32_t i = 0; i < 32; i++) o[n++] = b + i;
        for (uint32_t i = 0; i < 32; i++) o[n++] = b + 0x7fffe0u + i;
        for (int i = 0; i < rnd; i++) o[n++] = b + (uint32_t)(r_splitmix(&s) & 0x7fffffu);
    }
    return n;
}
/* division operand pairs: a from a moderate range, b any bits; half the
 * b's in [2^-130, 2^130] */
static void r_gen_div(uint32_t *a, uint32_t *b, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = r_splitmix(&s);
        a[i] = (uint32_t)r;
        if (i & 1) a[i] = (a[i] & 0x807fffffu) | ((uint32_t)(100 + (r >> 40) % 56) << 23);
        b[i] = (uint32_t)(r >> 32);
        if (i & 2) b[i] = (b[i] & 0x807fffffu) | ((uint32_t)((r >> 48) % 256) << 23);
    }
}
