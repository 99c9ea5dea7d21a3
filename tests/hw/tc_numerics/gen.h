/* gen.h — seeded inputs of the tensor-core numerics probe, shared by the
 * GPU program (probe.cu, host side) and ptxi's test (tests/unit/test_tc_numerics.c).
 * Each combination c, tile t, operand o (0 A, 1 B, 2 C), element i draws from
 * splitmix64 seeded with a hash of (c, t, o, i): no state carried between
 * elements, so any element can be regenerated alone. */
#ifndef TCN_GEN_H
#define TCN_GEN_H
#include <stdint.h>
static inline uint64_t tcg_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint64_t tcg_rand(uint32_t c, uint32_t t, uint32_t o, uint32_t i)
{
    return tcg_mix(tcg_mix(tcg_mix((uint64_t)c * 1000003u + o) ^ t) ^ ((uint64_t)i << 20));
}
/* element kinds: 0 f16, 1 bf16, 2 tf32, 3 e4m3, 4 e5m2, 5 f32 (C), 6 s8, 7 f64 (64 bits), 8 u8 */
static inline uint64_t tcg_elem(int kind, uint32_t c, uint32_t t, uint32_t o, uint32_t i)
{
    uint64_t r = tcg_rand(c, t, o, i);
    unsigned mode = (unsigned)(r & 63), tilemode = (unsigned)(tcg_rand(c, t, 9, 0) & 7);
    uint64_t x = r >> 8;
    int eb, mb, bias;
    switch (kind) {
    case 0: eb = 5; mb = 10; bias = 15; break;
    case 1: eb = 8; mb = 7; bias = 127; break;
    case 2: eb = 8; mb = 23; bias = 127; break;
    case 3: eb = 4; mb = 3; bias = 7; break;
    case 4: eb = 5; mb = 2; bias = 15; break;
    case 5: eb = 8; mb = 23; bias = 127; break;
    case 6: case 8: {
        if (tilemode == 0) /* saturating tiles: extremes */
            return (x & 1) ? (kind == 6 ? 0x80 : 0xff) : (kind == 6 ? 0x7f : 0xfe);
        return x & 0xff;
    }
    default: eb = 11; mb = 52; bias = 1023; break;
    }
    uint64_t sign = (x >> 60) & 1, mant = x & ((1ull << mb) - 1);
    unsigned emax = (1u << eb) - 1;
    int e;
    if (tilemode == 7 && mode < 2 && kind != 7) { /* specials, in some tiles only */
        unsigned s = (unsigned)(x >> 40) % 4;
        if (s == 0) { e = emax; mant = (kind == 3) ? 7 : 0; if (kind == 3) mant = 7; } /* inf (e4m3: nan) */
        else if (s == 1) { e = emax; mant = (kind == 3) ? 7 : (1ull << (mb - 1)); } /* nan */
        else if (s == 2) { e = 0; mant = 0; } /* zero */
        else { e = emax - 1; mant = (1ull << mb) - 1; if (kind == 3) { e = emax; mant = 6; } } /* max */
    } else if (mode < 4) {
        e = 0; mant = mode < 2 ? 0 : mant; /* zeros, subnormals */
    } else if (mode < 10 || tilemode == 1) {
        e = 1 + (int)((x >> 52) % (emax - 1)); /* any finite exponent */
        if (kind == 5 || kind == 7) e = bias - 40 + (int)((x >> 52) % 80);
    } else if (tilemode == 2) {
        e = bias + (int)((x >> 52) % 3) - 1; /* narrow: heavy cancellation */
    } else {
        int span = eb >= 8 ? 20 : (eb == 5 ? 8 : 5);
        e = bias - span / 2 + (int)((x >> 52) % span);
    }
    if (kind == 3 && e == (int)emax && mant == 7 && !(tilemode == 7 && mode < 2)) mant = 6;
    if (e <= 0) e = 0;
    if (e >= (int)emax && kind != 3) e = emax - 1;
    if (kind == 3 && e > (int)emax) e = emax;
    uint64_t bits = (sign << (eb + mb)) | ((uint64_t)e << mb) | mant;
    return bits;
}
#endif
