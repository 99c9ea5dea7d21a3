/* test_sfu_sincos.c — MUFU.SIN / MUFU.COS (sfu/sincos.c) against its own
 * specification written out plainly (the squarer as its list of partial
 * products), and a few H100 outputs that show the unit's structure
 * (tests/hw/sfu and test_sfu_hw.c hold the GPU's bits for 800k inputs). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tests/unit/check.h"

uint32_t sfu_sincos_core(uint32_t x, bool cos);
extern const int32_t sfu_sincos_tab[64][3];

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* the 17-bit j squared by an array that drops the folded partial products
 * (j_a 2^2a, and j_a j_b 2^(a+b+1) for a < b) of weight below 2^19 */
static uint64_t spec_square(uint64_t j)
{
    uint64_t s = 0;
    for (int a = 0; a < 17; a++)
        for (int b = a; b < 17; b++) {
            int w = a == b ? 2 * a : a + b + 1;
            if ((j >> a & 1) && (j >> b & 1) && w >= 19)
                s += (uint64_t)1 << w;
        }
    return s >> 19;
}

/* the unit on the revolution count k 2^-25 (k < 2^25), by the spec */
static uint32_t spec(uint32_t k, bool cos)
{
    unsigned q = (k >> 23) + cos;
    uint32_t f = k & 0x7fffffu;
    if (q & 1)
        f = 0x7fffffu - f;
    const int32_t *row = sfu_sincos_tab[f >> 17];
    uint64_t j = f & 0x1ffffu;
    int64_t v = (int64_t)row[0] * 4096 + row[1] * (int64_t)j + row[2] * (int64_t)spec_square(j);
    double d = (double)v * 0x1p-37;
    float r = (float)d;
    if ((double)r > d)   /* toward zero */
        r = nextafterf(r, 0.0f);
    return f2u(q & 2 ? -r : r);
}

static uint32_t rev(uint32_t k) { return f2u((float)k * 0x1p-25f); }   /* exact for k < 2^24 */

int main(void)
{
    /* every 61st revolution fraction of [0, 1), both functions */
    unsigned bad = 0, n = 0;
    uint32_t first = 0;
    for (uint32_t i = 1; i < 1u << 25; i += 61, n++) {
        uint32_t x = f2u((float)i * 0x1p-25f), k = (uint32_t)(u2f(x) * 0x1p25f);   /* above 1/2, k is even */
        for (int c = 0; c < 2; c++)
            if (sfu_sincos_core(x, c) != spec(k, c)) {
                if (!bad++)
                    first = k | (uint32_t)c << 31;
            }
    }
    if (bad)
        printf("first difference: %s of %u 2^-25 revolutions: %08x, spec %08x\n", first >> 31 ? "cos" : "sin",
               first & 0x7fffffffu, sfu_sincos_core(rev(first & 0x7fffffffu), first >> 31), spec(first & 0x7fffffffu, first >> 31));
    printf("%u of %u fractions differ from the spec\n", bad, 2 * n);
    CHECK("sincos: the core equals its specification (squarer as partial products)", bad == 0);

    /* H100: below 2^-15 revolutions SIN is j 25737 2^-37 (first row's C1
     * alone), truncated to f32 */
    bool lin = true;
    for (uint32_t j = 1; j < 1024; j++) {
        double d = j * 25737.0 * 0x1p-37;
        float r = (float)d;
        lin &= sfu_sincos_core(rev(j), false) == f2u((double)r > d ? nextafterf(r, 0.0f) : r);
    }
    CHECK("sincos: sin of j 2^-25 revolutions, j < 1024, is j 25737 2^-37 truncated (H100)", lin);
    CHECK_EQ_U64("sincos: sin of 1023 2^-25 revolutions (H100)", sfu_sincos_core(rev(1023), false), 0x3948dfbbu);
    /* H100: odd quadrants read the ones' complement, so cos of the last step
     * before a quarter is +0 and cos of a quarter -0 */
    CHECK_EQ_U64("sincos: cos(1/4 - 2^-25) is +0 (H100)", sfu_sincos_core(rev((1u << 23) - 1), true), 0);
    CHECK_EQ_U64("sincos: cos(1/4) is -0 (H100)", sfu_sincos_core(rev(1u << 23), true), 0x80000000u);
    CHECK_EQ_U64("sincos: cos(1/4 + 2^-25) (H100)", sfu_sincos_core(rev((1u << 23) + 1), true), 0xb4491200u);
    CHECK_EQ_U64("sincos: sin(1/4) is 1 (H100)", sfu_sincos_core(rev(1u << 23), false), 0x3f800000u);
    /* sign: sin is odd, cos even; whole revolutions and bits below 2^-25 vanish */
    CHECK_EQ_U64("sincos: sin(-x) = -sin(x)", sfu_sincos_core(rev(12345) | 0x80000000u, false),
                 sfu_sincos_core(rev(12345), false) | 0x80000000u);
    CHECK_EQ_U64("sincos: cos(-x) = cos(x)", sfu_sincos_core(rev(12345) | 0x80000000u, true), sfu_sincos_core(rev(12345), true));
    CHECK_EQ_U64("sincos: sin(3 + x) = sin(x)", sfu_sincos_core(f2u(3.0f + u2f(rev(1u << 20))), false),
                 sfu_sincos_core(rev(1u << 20), false));
    CHECK_EQ_U64("sincos: bits below 2^-25 are dropped", sfu_sincos_core(f2u(u2f(rev(1000)) + 0x1p-26f), false),
                 sfu_sincos_core(rev(1000), false));
    CHECK_EQ_U64("sincos: sin(2^30) is +0", sfu_sincos_core(0x4e800000u, false), 0);
    CHECK_EQ_U64("sincos: cos(Inf) is the canonical NaN", sfu_sincos_core(0x7f800000u, true), 0x7fffffffu);
    CHECK_DONE();
}
