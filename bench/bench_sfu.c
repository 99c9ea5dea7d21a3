/* bench_sfu.c — ns per call of each special-function-unit model (sfu/)
 * beside the host libm call of the same function (what ptxi computed before
 * the models: the exact function, rounded once).
 *
 * Inputs: 4096 f32 values per function from the range kernels use (e.g.
 * ex2 over [-30, 2), as softmax does; rcp over all finite normals), cycled
 * through; each figure is the best of several rounds, the model and libm
 * timed alternately so that a neighbour's load hits both alike.
 *
 *   bench_sfu [rounds]   (default 5)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sfu/sfu.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

enum { N = 4096, CALLS = 1 << 21 };
static uint32_t in[N], in2[N];
static volatile uint32_t sink;

static uint32_t m_rcp(uint32_t x) { return sfu_rcp(x, true); }
static uint32_t m_rsq(uint32_t x) { return sfu_rsqrt(x, true); }
static uint32_t m_sqrt(uint32_t x) { return sfu_sqrt(x, true); }
static uint32_t m_ex2(uint32_t x) { return sfu_ex2(x, true); }
static uint32_t m_lg2(uint32_t x) { return sfu_lg2(x, true); }
static uint32_t m_sin(uint32_t x) { return sfu_sin(x, true); }
static uint32_t m_cos(uint32_t x) { return sfu_cos(x, true); }
static uint32_t m_tanh(uint32_t x) { return sfu_tanh(x); }
static uint32_t m_div(uint32_t x) { return sfu_div_full(x, in2[x & (N - 1)], false); }
static uint32_t l_rcp(uint32_t x) { return f2u(1.0f / u2f(x)); }
static uint32_t l_rsq(uint32_t x) { return f2u(1.0f / sqrtf(u2f(x))); }
static uint32_t l_sqrt(uint32_t x) { return f2u(sqrtf(u2f(x))); }
static uint32_t l_ex2(uint32_t x) { return f2u(exp2f(u2f(x))); }
static uint32_t l_lg2(uint32_t x) { return f2u(log2f(u2f(x))); }
static uint32_t l_sin(uint32_t x) { return f2u(sinf(u2f(x))); }
static uint32_t l_cos(uint32_t x) { return f2u(cosf(u2f(x))); }
static uint32_t l_tanh(uint32_t x) { return f2u(tanhf(u2f(x))); }
static uint32_t l_div(uint32_t x) { return f2u(u2f(x) / u2f(in2[x & (N - 1)])); }

static double time_one(uint32_t (*f)(uint32_t))
{
    uint32_t acc = 0;
    double t = now();
    for (int i = 0; i < CALLS; i++)
        acc += f(in[i & (N - 1)]);
    t = now() - t;
    sink = acc;
    return t * 1e9 / CALLS;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    static const struct {
        const char *name;
        uint32_t (*model)(uint32_t), (*libm)(uint32_t);
        float lo, hi;
    } c[] = {
        {"rcp.approx.ftz.f32", m_rcp, l_rcp, -1e30f, 1e30f},
        {"rsqrt.approx.ftz.f32", m_rsq, l_rsq, 0, 1e30f},
        {"sqrt.approx.ftz.f32", m_sqrt, l_sqrt, 0, 1e30f},
        {"ex2.approx.ftz.f32", m_ex2, l_ex2, -30, 2},
        {"lg2.approx.ftz.f32", m_lg2, l_lg2, 0, 1e6f},
        {"sin.approx.ftz.f32", m_sin, l_sin, -10, 10},
        {"cos.approx.ftz.f32", m_cos, l_cos, -10, 10},
        {"tanh.approx.f32", m_tanh, l_tanh, -5, 5},
        {"div.full.f32", m_div, l_div, -1e6f, 1e6f},
    };
    uint64_t s = 12345;
    printf("%-22s %10s %10s %7s\n", "function", "model ns", "libm ns", "ratio");
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        for (int i = 0; i < N; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(s >> 11) * 0x1p-53;
            in[i] = f2u((float)(c[k].lo + (c[k].hi - c[k].lo) * u));
            in2[i] = f2u((float)(1 + 1000 * u));
        }
        double bm = 1e30, bl = 1e30;
        for (int r = 0; r < rounds; r++) {
            double a = time_one(c[k].model), b = time_one(c[k].libm);
            if (a < bm) bm = a;
            if (b < bl) bl = b;
        }
        printf("%-22s %10.2f %10.2f %7.2f\n", c[k].name, bm, bl, bm / bl);
    }
    return 0;
}
