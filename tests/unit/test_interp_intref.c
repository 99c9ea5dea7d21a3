/* test_interp_intref.c — integer, bit, compare/select, int<->int conversion
 * and mov-packing semantics against a C reference (issue #3, point 3).
 *
 * The kernel is ops_int of tests/hw/ptx/ops_sm90a.ptx (source
 * tests/hw/src/ops.cu): every thread takes three 32-bit inputs x, y, z and
 * writes NI results, one per instruction form.  ref() below computes the
 * same NI words in plain C, written from the PTX ISA.  Two checks per result:
 *   1. ref == H100: on the inputs of tests/hw/ops (ops_int), the reference
 *      must reproduce the bytes the H100 wrote, so the reference itself is
 *      checked against silicon;
 *   2. ptxi == ref: on 4096 fresh inputs (random words mixed with edge
 *      values), ptxi must agree with the reference everywhere.
 * A FAIL names the instruction and the first disagreeing inputs.
 * Run from the repository root (it reads the files above).
 */
#include <stdbool.h>
#include <stdlib.h>
#include "tests/unit/interp_harness.h"

#define NI 200
#define NREF 195          /* results the kernel computes; the rest is filler */

typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;

/* instruction of each result, for messages (in kernel order) */
static const char *const names[NREF] = {
    "add.u32", "sub.u32", "mul.lo.u32", "mul.lo.s32", "mul.hi.s32", "mul.wide.u32 (lo)", "mul.wide.u32 (hi)",
    "mad.wide.s32 (lo)", "mad.wide.s32 (hi)", "mad.wide.u32 (lo)", "mad.wide.u32 (hi)", "mad.lo.u32", "mad.hi.u32",
    "mad.hi.s32", "mad.hi.sat.s32", "mul24.lo.u32", "mul24.hi.u32", "mul24.hi.s32", "mad24.lo.u32", "mad24.lo.s32",
    "mad24.hi.u32", "mad24.hi.s32", "mad24.hi.sat.s32", "sad.s32", "abs.s32", "neg.s32", "min.u32", "max.s32",
    "min.relu.s32", "max.relu.s32", "sub.cc/subc", "add.cc/addc.cc/addc", "sub.cc/subc.cc/subc", "mad.lo.cc/madc.hi",
    "mad.hi.cc/madc.lo.cc/addc", "add.u16", "sub.s16", "mul.lo.u16", "mul.hi.s16", "mul.hi.u16", "min.s16", "max.u16",
    "shl.b16", "shr.s16", "shr.u16", "div.u16", "rem.s16", "and.b16", "xor.b16", "mul.wide.u16", "mul.wide.s16",
    "not.b16", "cnot.b16", "mad.lo.u16", "add.u64 (lo)", "add.u64 (hi)", "sub.s64 (lo)", "sub.s64 (hi)",
    "mul.lo.u64 (lo)", "mul.lo.u64 (hi)", "mul.hi.u64 (lo)", "mul.hi.u64 (hi)", "mul.hi.s64 (lo)", "mul.hi.s64 (hi)",
    "div.u64 (lo)", "div.u64 (hi)", "rem.s64 (lo)", "rem.s64 (hi)", "rem.u64 (lo)", "rem.u64 (hi)", "min.s64 (lo)",
    "min.s64 (hi)", "max.u64 (lo)", "max.u64 (hi)", "shl.b64 (lo)", "shl.b64 (hi)", "shr.u64 (lo)", "shr.u64 (hi)",
    "shr.s64 (lo)", "shr.s64 (hi)", "abs.s64 (lo)", "abs.s64 (hi)", "neg.s64 (lo)", "neg.s64 (hi)", "not.b64 (lo)",
    "not.b64 (hi)", "brev.b64 (lo)", "brev.b64 (hi)", "mad.lo.u64 (lo)", "mad.lo.u64 (hi)", "mad.hi.s64 (lo)",
    "mad.hi.s64 (hi)", "popc.b64", "clz.b64", "bfind.u64", "bfind.s64", "bfind.shiftamt.u64", "bfe.u64 (lo)",
    "bfe.u64 (hi)", "bfe.s64 (lo)", "bfe.s64 (hi)", "bfi.b64 (lo)", "bfi.b64 (hi)", "and.b64 (lo)", "and.b64 (hi)",
    "or.b64 (lo)", "or.b64 (hi)", "add.cc/addc + mov.b64 pack (lo)", "add.cc/addc + mov.b64 pack (hi)", "and.b32",
    "or.b32", "xor.b32", "not.b32", "cnot.b32", "brev.b32", "clz.b32", "popc.b32", "bfind.u32", "bfind.shiftamt.s32",
    "prmt.b32.b4e", "prmt.b32.rc8", "prmt.b32.ecr", "shf.l.wrap.b32", "shf.r.clamp.b32", "lop3.b32 0xe8",
    "lop3.b32 0x1b", "dp4a.u32.u32", "dp4a.s32.s32", "dp4a.u32.s32", "dp2a.lo.u32.u32", "dp2a.hi.s32.s32",
    "dp2a.lo.s32.u32", "dp2a.hi.u32.s32", "lop3.or.b32 d|p", "setp.lt.s32", "setp.lo.u32", "setp.eq.and.u32 p|q",
    "setp.gt.or.s16 p|q", "setp.hs.xor.u64 p|q", "setp.ne.b64", "set.lt.u32.s32", "set.ls.u32.u32",
    "set.eq.s32.b32", "set.gt.f32.s32", "set.le.and.u32.s32", "set.hi.or.u32.u64", "slct.u32.s32", "slct.b32.f32",
    "slct.ftz.s32.f32", "slct.s64.s32 (lo)", "slct.s64.s32 (hi)", "selp.b64 (lo)", "selp.b64 (hi)", "cvt.u8.u32",
    "cvt.s8.u32", "cvt.u16.s32", "cvt.s16.u32", "cvt.sat.s8.s32", "cvt.sat.u8.s32", "cvt.sat.s16.s32",
    "cvt.sat.u16.u32", "cvt.sat.s8.u32", "cvt.sat.u32.s32", "cvt.sat.s32.u32", "cvt.s64.s32 (lo)",
    "cvt.s64.s32 (hi)", "cvt.u64.s16 (lo)", "cvt.u64.s16 (hi)", "cvt.s64.s8 (lo)", "cvt.s64.s8 (hi)",
    "cvt.sat.u32.s64", "cvt.sat.s32.s64", "cvt.sat.s32.u64", "cvt.sat.s64.u64 (lo)", "cvt.sat.s64.u64 (hi)",
    "cvt.sat.u64.s64 (lo)", "cvt.sat.u64.s64 (hi)", "cvt.sat.s8.s16", "cvt.u32.u16", "cvt.s32.s16",
    "cvt.pack.sat.u8.s32.b32", "cvt.pack.sat.s8.s32.b32", "cvt.pack.sat.u16.s32", "cvt.pack.sat.s16.s32",
    "mov.b32 {a,b}", "mov.b32 unpack/pack", "mov.b64 {a,b,c,d} (lo)", "mov.b64 {a,b,c,d} (hi)",
    "mov.b64 unpack/pack x4 (lo)", "mov.b64 unpack/pack x4 (hi)", "mov.b64 unpack x2", "szext.wrap.s32",
    "szext.clamp.u32", "fns.b32 (offset >= 0)", "fns.b32 (offset <= 0)",
};

/* ---- helpers ---------------------------------------------------------------------- */

static s64 sxt(u64 v, unsigned bits) { return bits >= 64 ? (s64)v : (s64)(v << (64 - bits)) >> (64 - bits); }
static u64 zxt(u64 v, unsigned bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }
static s64 clamp(s64 v, s64 lo, s64 hi) { return v < lo ? lo : v > hi ? hi : v; }
static u32 sat32(s64 v) { return (u32)clamp(v, INT32_MIN, INT32_MAX); }
static u32 brev32(u32 v) { u32 o = 0; for (int i = 0; i < 32; i++) o |= (v >> i & 1) << (31 - i); return o; }
static u64 brev64(u64 v) { return (u64)brev32((u32)v) << 32 | brev32((u32)(v >> 32)); }
static u32 clz64(u64 v) { return v ? (u32)__builtin_clzll(v) : 64; }
static u32 msb64(u64 v) { return v ? 63u - (u32)__builtin_clzll(v) : 0xffffffffu; }
static u64 mulhi_u64(u64 a, u64 b) { return (u64)(((unsigned __int128)a * b) >> 64); }
static u64 mulhi_s64(s64 a, s64 b) { return (u64)(((__int128)a * b) >> 64); }

static u64 bfe(u64 a, u32 pos, u32 len, unsigned bits, bool sg)
{
    u64 o = 0;
    u64 sbit = 0;
    if (sg && len)
        sbit = pos + len - 1 >= bits ? a >> (bits - 1) & 1 : a >> (pos + len - 1) & 1;
    for (unsigned i = 0; i < bits; i++) {
        u64 bit = i < len && pos + i < bits ? a >> (pos + i) & 1 : sbit;
        o |= bit << i;
    }
    return o;
}

static u64 bfi(u64 f, u64 b, u32 pos, u32 len, unsigned bits)
{
    for (u32 i = 0; i < len && pos + i < bits; i++)
        b = (b & ~(1ull << (pos + i))) | ((f >> i & 1) << (pos + i));
    return b;
}

static u32 prmt_mode(u32 a, u32 b, u32 c, int mode)
{
    uint8_t by[8];
    for (int i = 0; i < 4; i++) { by[i] = (uint8_t)(a >> 8 * i); by[4 + i] = (uint8_t)(b >> 8 * i); }
    u32 s = c & 3, r = 0;
    for (u32 i = 0; i < 4; i++) {
        u32 idx;
        switch (mode) {
        case 0: idx = (s - i) & 7; break;                 /* b4e: s, s-1, s-2, s-3 (mod 8) */
        case 1: idx = s; break;                           /* rc8 */
        default: idx = i < s ? i : s; break;              /* ecr */
        }
        r |= (u32)by[idx] << 8 * i;
    }
    return r;
}

static u32 lop3(u32 a, u32 b, u32 c, u32 lut)
{
    u32 o = 0;
    for (int i = 0; i < 32; i++)
        o |= (lut >> ((a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1)) & 1) << i;
    return o;
}

static u32 dp4a(u32 a, u32 b, u32 c, bool sa, bool sb)
{
    s64 acc = (sa || sb) ? (s32)c : (s64)c;
    for (int i = 0; i < 4; i++)
        acc += (sa ? (s64)(int8_t)(a >> 8 * i) : (s64)(uint8_t)(a >> 8 * i)) *
               (sb ? (s64)(int8_t)(b >> 8 * i) : (s64)(uint8_t)(b >> 8 * i));
    return (u32)acc;
}

static u32 dp2a(u32 a, u32 b, u32 c, bool sa, bool sb, int hi)
{
    s64 acc = (sa || sb) ? (s32)c : (s64)c;
    for (int i = 0; i < 2; i++) {
        u32 bb = b >> (16 * hi + 8 * i);
        acc += (sa ? (s64)(int16_t)(a >> 16 * i) : (s64)(uint16_t)(a >> 16 * i)) *
               (sb ? (s64)(int8_t)bb : (s64)(uint8_t)bb);
    }
    return (u32)acc;
}

static u32 fns(u32 mask, u32 base, s32 off)
{
    if (base > 31) return 0xffffffffu;
    if (off == 0) return mask >> base & 1 ? base : 0xffffffffu;
    int k = 0;
    if (off > 0) {
        for (u32 i = base; i < 32; i++) if (mask >> i & 1 && ++k == off) return i;
    } else {
        for (int i = (int)base; i >= 0; i--) if (mask >> i & 1 && --k == off) return (u32)i;
    }
    return 0xffffffffu;
}

static float asf(u32 u) { float f; memcpy(&f, &u, 4); return f; }

/* ---- the reference: ops_int, result by result ------------------------------------------ */

static void ref(u32 x, u32 y, u32 z, u32 *r)
{
    u64 X = (u64)y << 32 | x, Y = (u64)z << 32 | y, Z = (u64)x << 32 | z;
    s32 sx = (s32)x, sy = (s32)y, sz = (s32)z;
    uint16_t hx = (uint16_t)x, hy = (uint16_t)y, hz = (uint16_t)z;
    int k = 0;
#define P(v) (r[k++] = (u32)(v))
#define P64(v) do { u64 v_ = (u64)(v); r[k++] = (u32)v_; r[k++] = (u32)(v_ >> 32); } while (0)
    P(x + y); P(x - y); P(x * y); P(x * y); P((u64)((s64)sx * sy) >> 32);
    P64((u64)x * y); P64((u64)((s64)sx * sy) + Z); P64((u64)x * y + Z);
    P(x * y + z); P(((u64)x * y >> 32) + z); P((u32)((u64)((s64)sx * sy) >> 32) + z);
    P(sat32((s64)((s64)sx * sy >> 32) + sz));
    {   u64 ux = x & 0xffffff, uy = y & 0xffffff;
        s64 tx = sxt(x, 24), ty = sxt(y, 24);
        P(ux * uy); P((ux * uy) >> 16); P((u64)(tx * ty) >> 16);
        P(ux * uy + z); P((u64)(tx * ty) + z); P(((ux * uy) >> 16) + z); P(((u64)(tx * ty) >> 16) + z);
        P(sat32((s64)(s32)(u32)((u64)(tx * ty) >> 16) + sz)); }
    P((u32)(sx > sy ? (s64)sx - sy : (s64)sy - sx) + z);
    P(sx < 0 ? 0u - x : x); P(0u - x); P(x < y ? x : y); P(sx > sy ? sx : sy);
    P((sx < sy ? sx : sy) < 0 ? 0 : (sx < sy ? sx : sy)); P((sx > sy ? sx : sy) < 0 ? 0 : (sx > sy ? sx : sy));
    {   u32 b1 = x < y; P(z - x - b1); }
    {   u32 c1 = (u64)x + y > 0xffffffffu; u32 c2 = (u64)z + y + c1 > 0xffffffffu; P(c2); }
    {   u32 b1 = x < y; u32 b2 = (u64)x + b1 > z; P(5u - b2); }
    {   u64 p = (u64)x * y; u32 c = (u64)(u32)p + z > 0xffffffffu; P((u32)(p >> 32) + c); }
    {   u64 p = (u64)x * y; u32 c1 = (u64)(u32)(p >> 32) + z > 0xffffffffu;
        u32 c2 = (u64)(u32)((u64)x * z) + y + c1 > 0xffffffffu; P(c2); }
    P((uint16_t)(hx + hy)); P((uint16_t)(hx - hy)); P((uint16_t)(hx * hy));
    P((uint16_t)(((s32)(int16_t)hx * (int16_t)hy) >> 16)); P((uint16_t)(((u32)hx * hy) >> 16));
    P((uint16_t)((int16_t)hx < (int16_t)hy ? hx : hy)); P(hx > hy ? hx : hy);
    P(y >= 16 ? 0 : (uint16_t)(hx << y)); P((uint16_t)((int16_t)hx >> (y >= 16 ? 15 : y)));
    P(y >= 16 ? 0 : hx >> y);
    P(hy ? hx / hy : 0xffff);
    P(hy == 0 ? 0xffff : (int16_t)hy == -1 ? 0 : (uint16_t)((int16_t)hx % (int16_t)hy));
    P(hx & hy); P(hx ^ hy); P((u32)hx * hy); P((s32)(int16_t)hx * (int16_t)hy);
    P((uint16_t)~hx); P((hx & hz) == 0); P((uint16_t)(hx * hy + hz));
    P64(X + Y); P64(X - Y); P64(X * Y); P64(mulhi_u64(X, Y)); P64(mulhi_s64((s64)X, (s64)Y));
    P64(Y ? X / Y : ~0ull);
    P64(Y == 0 ? ~0ull : (s64)Y == -1 ? 0 : (u64)((s64)X % (s64)Y));
    P64(Y ? X % Y : ~0ull);
    P64((s64)X < (s64)Y ? X : Y); P64(X > Y ? X : Y);
    P64(y >= 64 ? 0 : X << y); P64(y >= 64 ? 0 : X >> y); P64((u64)((s64)X >> (y >= 64 ? 63 : y)));
    P64((s64)X < 0 ? 0 - X : X); P64(0 - X); P64(~X); P64(brev64(X));
    P64(X * Y + Z); P64(mulhi_s64((s64)X, (s64)Y) + Z);
    P(__builtin_popcountll(X)); P(clz64(Z >> (x & 63))); P(msb64(Z >> (y & 63)));
    P(msb64((s64)X < 0 ? ~X : X));
    P(Y ? 63 - msb64(Y) : 0xffffffffu);
    P64(bfe(X, y & 0xff, z & 0xff, 64, false)); P64(bfe(X, y & 0x7f, z & 0x7f, 64, true));
    P64(bfi(Y, X, z & 0xff, z >> 8 & 0xff, 64));
    P64(X & Y); P64(X | Y);
    {   u32 c = (u64)x + z > 0xffffffffu; P64((u64)(y + x + c) << 32 | (u32)(x + z)); }
    P(x & y); P(x | y); P(x ^ y); P(~x); P((x & y) == 0);
    P(brev32(x)); P(x ? (u32)__builtin_clz(x) : 32); P(__builtin_popcount(x)); P(msb64(x));
    P(msb64(sx < 0 ? ~x : x) == 0xffffffffu ? 0xffffffffu : 31 - msb64(sx < 0 ? ~x : x));
    P(prmt_mode(x, y, z, 0)); P(prmt_mode(x, y, z, 1)); P(prmt_mode(x, y, z, 2));
    {   u64 v = (u64)y << 32 | x; P((u32)((v << (z & 31)) >> 32)); P((u32)(v >> (z > 32 ? 32 : z))); }
    P(lop3(x, y, z, 0xe8)); P(lop3(x, y, z, 0x1b));
    P(dp4a(x, y, z, false, false)); P(dp4a(x, y, z, true, true)); P(dp4a(x, y, z, false, true));
    P(dp2a(x, y, z, false, false, 0)); P(dp2a(x, y, z, true, true, 1)); P(dp2a(x, y, z, true, false, 0));
    P(dp2a(x, y, z, false, true, 1));
    {   u32 d = x ^ y ^ z; P(d + ((d != 0) || (z != 0))); }
    P(sx < sy); P(x < y);
    {   bool s = sz >= 0, a = (x & 3) == (y & 3); P(2 * (a && s) + (!a && s)); }
    {   bool s = sz >= 0, a = (int16_t)hx > (int16_t)hy; P(2 * (a || !s) + (!a || !s)); }
    {   bool s = sz >= 0, a = X >= Y; P(2 * (a != s) + (!a != s)); }
    P((X & 0xf0f) != (Y & 0xf0f));
    P(sx < sy ? ~0u : 0); P(x <= y ? ~0u : 0); P(x == y ? ~0u : 0); P(sx > sy ? 0x3f800000u : 0);
    P(sx <= sy && sz >= 0 ? ~0u : 0); P(X > Y || sz < 0 ? ~0u : 0);
    P(sz >= 0 ? x : y);
    P(asf(z) >= 0.0f ? x : y);                                   /* NaN selects b */
    P(((z & 0x7f800000u) == 0 ? 0.0f : asf(z)) >= 0.0f ? x : y);  /* .ftz: subnormal c is 0 */
    P64(sz >= 0 ? X : Y); P64(z & 1 ? X : Y);
    P(x & 0xff); P((u32)sxt(x, 8)); P(x & 0xffff); P((u32)sxt(x, 16));
    P((u32)clamp(sx, -128, 127)); P(clamp(sx, 0, 255)); P((u32)clamp(sx, -32768, 32767)); P(x > 0xffff ? 0xffff : x);
    P(x > 127 ? 127 : x); P(sx < 0 ? 0 : x); P(x > 0x7fffffffu ? 0x7fffffffu : x);
    P64((s64)sx); P64((u64)sxt(hx, 16)); P64((u64)sxt(x, 8));
    P(clamp((s64)X, 0, 0xffffffffll)); P((u32)clamp((s64)X, INT32_MIN, INT32_MAX)); P(X > 0x7fffffffu ? 0x7fffffffu : X);
    P64(X > (u64)INT64_MAX ? (u64)INT64_MAX : X); P64((s64)X < 0 ? 0 : X);
    P((uint16_t)clamp((int16_t)hx, -128, 127)); P(hx); P((s32)(int16_t)hx);
    P((u32)z << 16 | (u32)clamp(sx, 0, 255) << 8 | (u32)clamp(sy, 0, 255));
    P((u32)z << 16 | ((u32)clamp(sx, -128, 127) & 0xff) << 8 | ((u32)clamp(sy, -128, 127) & 0xff));
    P((u32)clamp(sx, 0, 65535) << 16 | (u32)clamp(sy, 0, 65535));
    P(((u32)clamp(sx, -32768, 32767) & 0xffff) << 16 | ((u32)clamp(sy, -32768, 32767) & 0xffff));
    P((u32)hz << 16 | hx); P(x << 16 | x >> 16);
    P64((u64)(uint16_t)(x >> 16) << 48 | (u64)hz << 32 | (u64)hy << 16 | hx);
    P64((X & 0xffff) << 48 | (X >> 16 & 0xffff) << 32 | (X >> 32 & 0xffff) << 16 | X >> 48);
    P(x + y);
    {   u32 n = y & 31; P(n ? (u32)sxt(x, n) : 0); }
    {   u32 n = y > 32 ? 32 : y; P(n ? (u32)zxt(x, n) : 0); }
    P(fns(x, y & 31, (s32)(z % 33))); P(fns(x, y & 31, -(s32)(z % 33)));
#undef P
#undef P64
    if (k != NREF) { printf("FAIL intref/reference: %d results, want %d\n", k, NREF); exit(1); }
}

/* ---- driving it -------------------------------------------------------------------------- */

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) { free(b); b = NULL; }
    if (b) b[len] = 0;
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* compare `got` (n threads x NI words) with ref() on inputs a, b, c; one line per result */
static void compare(const char *what, const u32 *a, const u32 *b, const u32 *c, const u32 *got, size_t n)
{
    for (int k = 0; k < NREF; k++) {
        size_t bad = 0, first = 0;
        u32 want1 = 0;
        for (size_t i = 0; i < n; i++) {
            u32 r[NREF];
            ref(a[i], b[i], c[i], r);
            if (r[k] != got[i * NI + k]) {
                if (!bad++) { first = i; want1 = r[k]; }
            }
        }
        char name[160];
        snprintf(name, sizeof name, "intref/%s/%s", what, names[k]);
        if (!bad)
            printf("PASS %s\n", name);
        else {
            printf("FAIL %s: %zu of %zu differ; first x=0x%08x y=0x%08x z=0x%08x: got 0x%08x, want 0x%08x\n", name,
                   bad, n, a[first], b[first], c[first], got[first * NI + k], want1);
            check_failures++;
        }
    }
}

static u32 rnd32(u64 *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return (u32)(*s >> 11);
}

int main(void)
{
    (void)th_run_k;
    /* 1. the reference against the H100 */
    size_t na, nb, nc, ne;
    u32 *a = (u32 *)slurp("tests/hw/ops/inputs/int_a.bin", &na), *b = (u32 *)slurp("tests/hw/ops/inputs/int_b.bin", &nb);
    u32 *c = (u32 *)slurp("tests/hw/ops/inputs/int_c.bin", &nc), *e = (u32 *)slurp("tests/hw/ops/expected/ops_int.out.bin", &ne);
    if (!a || !b || !c || !e || na != nb || na != nc || ne != na * NI) {
        printf("FAIL intref/h100: cannot read tests/hw/ops inputs and expected/ops_int.out.bin (run from the repository root)\n");
        return 1;
    }
    compare("h100", a, b, c, e, na / 4);

    /* 2. ptxi against the reference on fresh inputs */
    size_t ns;
    char *src = (char *)slurp("tests/hw/ptx/ops_sm90a.ptx", &ns);
    if (!src) { printf("FAIL intref/ptxi: cannot read tests/hw/ptx/ops_sm90a.ptx\n"); return 1; }
    enum { N = 4096 };
    static const u32 edge[] = { 0, 1, 2, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
                                0x10000, 0x7fffff, 0x800000, 0xffffff, 0x1000000, 0x7fffffff, 0x80000000,
                                0x80000001, 0xfffffffe, 0xffffffff, 0xff800000, 0x7f800000, 0x7fc00000, 0x807fffff };
    enum { NE = sizeof edge / sizeof edge[0] };
    static u32 in[3][N];
    u64 s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 3; j++) {
            u32 v = rnd32(&s);
            switch (rnd32(&s) % 4) {      /* mix: random, edge, small, edge +- small */
            case 0: break;
            case 1: v = edge[v % NE]; break;
            case 2: v %= 70; break;
            default: v = edge[v % NE] + (rnd32(&s) % 5) - 2; break;
            }
            in[j][i] = v;
        }
    th_run r;
    memset(&r, 0, sizeof r);
    ir_diag d;
    memset(&d, 0, sizeof d);
    d.emit = th_diag_quiet;
    r.mod = ptx_parse("ops_sm90a.ptx", src, ns, &d);
    const ir_function *fn = r.mod ? ir_find_function(r.mod, "ops_int") : NULL;
    if (!fn) { printf("FAIL intref/ptxi: ops_int does not parse\n"); return 1; }
    r.g = mem_global_new();
    u64 da[3], dout = mem_global_alloc(r.g, (u64)N * NI * 4, 256, "out");
    for (int j = 0; j < 3; j++) {
        da[j] = mem_global_alloc(r.g, N * 4, 256, "in");
        memcpy(mem_global_host(r.g, da[j], N * 4), in[j], N * 4);
    }
    uint8_t params[64] = { 0 };
    u64 pv[5] = { da[0], da[1], da[2], dout, N };
    for (u32 i = 0; i < fn->nparams && i < 5; i++) {
        const ir_symbol *ps = &r.mod->syms[fn->params[i]];
        memcpy(params + ps->param_offset, &pv[i], ps->size < 8 ? ps->size : 8);
    }
    interp_launch l;
    memset(&l, 0, sizeof l);
    l.mod = r.mod; l.entry = fn;
    l.grid[0] = N / 128; l.grid[1] = l.grid[2] = 1;
    l.block[0] = 128; l.block[1] = l.block[2] = 1;
    l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
    l.params = params; l.params_size = fn->param_bytes;
    l.gmem = r.g; l.jobs = 2; l.policy = INTERP_COMPLETE_DEFERRED; l.seed = 1; l.max_steps = 100000000;
    interp_run(&l, &r.res);
    CHECK_OK("intref/ptxi runs ops_int", &r);
    if (r.res.status == 0)
        compare("ptxi", in[0], in[1], in[2], (const u32 *)mem_global_host(r.g, dout, (u64)N * NI * 4), N);
    th_free(&r);
    free(src); free(a); free(b); free(c); free(e);
    CHECK_DONE();
}
