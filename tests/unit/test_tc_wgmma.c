/* test_tc_wgmma.c — tc/wgmma.c on its own: descriptor fields, the D and A
 * fragment maps (each element in exactly one thread/register/slot), and one
 * MMA per layout (K-major and MN-major, every swizzle, A from registers)
 * against a plain matrix product of small integers placed in shared memory
 * by the layout formulas the header states.  The H100's word on the
 * layouts is tests/hw/tc_wgmma. */
#include <stdio.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tc/wgmma.h"

static void check_desc(void)
{
    uint64_t d = 0x40 | (uint64_t)0x41 << 16 | (uint64_t)0x80 << 32 | (uint64_t)5 << 49 | (uint64_t)2 << 62;
    tc_desc t = tc_desc_decode(d);
    if (t.start == 0x400 && t.lbo == 0x410 && t.sbo == 0x800 && t.base == 5 && t.swizzle == 64)
        printf("PASS desc fields\n");
    else {
        printf("FAIL desc fields: start 0x%x lbo %u sbo %u base %u swizzle %u\n", t.start, t.lbo, t.sbo, t.base,
               t.swizzle);
        check_failures++;
    }
}

static void check_maps(int dtype, unsigned n)
{
    tc_wg_form f;
    memset(&f, 0, sizeof f);
    f.dtype = (uint8_t)dtype;
    f.atype = TC_T_F16;
    f.n = (uint16_t)n;
    f.nd = (uint16_t)(dtype == TC_T_F16 ? n / 4 : n / 2);
    static uint8_t seen[128][128][2];
    memset(seen, 0, sizeof seen);
    int bad = 0;
    for (uint32_t r = 0; r < 64; r++)
        for (uint32_t c = 0; c < n; c++) {
            uint32_t t, reg, h;
            tc_wgmma_d_where(&f, r, c, &t, &reg, &h);
            if (t >= 128 || reg >= f.nd || h > 1 || seen[t][reg][h]++)
                bad++;
        }
    printf("%s D map .%s n%u: every element in its own thread/register%s\n", bad ? "FAIL" : "PASS",
           tc_type_name(dtype), n, bad ? " (collision or out of range)" : "");
    check_failures += bad != 0;
    /* A: 64 x 16 f16 in 4 registers of 2 elements */
    memset(seen, 0, sizeof seen);
    bad = 0;
    for (uint32_t r = 0; r < 64; r++)
        for (uint32_t k = 0; k < 16; k++) {
            uint32_t t, reg, bit;
            tc_wgmma_a_where(&f, r, k, &t, &reg, &bit);
            if (t >= 128 || reg >= 4 || (bit != 0 && bit != 16) || seen[t][reg][bit / 16]++)
                bad++;
        }
    if (dtype == TC_T_F32 && n == 8) {
        printf("%s A map f16: 64 x 16 in 4 registers a thread\n", bad ? "FAIL" : "PASS");
        check_failures += bad != 0;
    }
}

/* the byte address of element (r, k) as the header's formulas state */
static uint32_t ref_addr(const tc_desc *d, bool mn, uint32_t r, uint32_t k, unsigned eb)
{
    uint32_t a, w = d->swizzle;
    if (!mn) {
        uint32_t kb = k * eb;
        a = w ? d->start + (r % 8) * w + (r / 8) * d->sbo + kb
              : d->start + (r % 8) * 16 + (r / 8) * d->sbo + (kb / 16) * d->lbo + kb % 16;
    } else {
        uint32_t mb = r * eb;
        a = w ? d->start + (k % 8) * w + (k / 8) * d->sbo + (mb / w) * d->lbo + mb % w
              : d->start + (k % 8) * 16 + (k / 8) * d->lbo + (mb / 16) * d->sbo + mb % 16;
    }
    uint32_t m = w == 128 ? 7 : w == 64 ? 3 : w == 32 ? 1 : 0;
    return a ^ (((a >> 7) & m) << 4);
}

static uint16_t f16_of(int v)   /* small integers, exactly */
{
    if (!v)
        return 0;
    uint16_t s = v < 0 ? 0x8000 : 0;
    unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
    while ((a >> e) > 1)
        e++;
    return (uint16_t)(s | (e + 15) << 10 | ((a << 10 >> e) & 0x3FF));
}

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static void check_mma(const char *name, unsigned sw, bool mn, bool aregs, unsigned n)
{
    static uint8_t smem[65536];
    static uint32_t areg[128 * 4], d[128 * 128];
    static tc_wg_scratch s;
    int A[64][16], B[256][16];
    memset(smem, 0, sizeof smem);
    uint32_t seed = 12345;
    for (int r = 0; r < 64; r++)
        for (int k = 0; k < 16; k++)
            A[r][k] = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 7 - 3;
    for (uint32_t r = 0; r < n; r++)
        for (int k = 0; k < 16; k++)
            B[r][k] = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 7 - 3;
    uint64_t swf = sw == 128 ? 1 : sw == 64 ? 2 : sw == 32 ? 3 : 0;
    /* A at 0, B at 16384; strides that keep the layout one-to-one */
    uint32_t w = sw ? sw : 16;
    uint32_t albo = mn ? (sw ? 8 * w * 2 : 1024) : (sw ? 0 : 1024), asbo = mn ? (sw ? 8 * w : 128) : (sw ? 8 * w : 128);
    uint32_t blbo = mn ? (sw ? 8 * w * 2 : 128 * (n / 8)) : (sw ? 0 : 128 * (n / 8)), bsbo = asbo;
    uint64_t da = (uint64_t)(albo >> 4) << 16 | (uint64_t)(asbo >> 4) << 32 | swf << 62;
    uint64_t db = (16384 >> 4) | (uint64_t)(blbo >> 4) << 16 | (uint64_t)(bsbo >> 4) << 32 | swf << 62;
    tc_desc ta = tc_desc_decode(da), tb = tc_desc_decode(db);
    tc_wg_form f;
    memset(&f, 0, sizeof f);
    f.atype = f.btype = TC_T_F16;
    f.dtype = TC_T_F32;
    f.n = (uint16_t)n;
    f.k = 16;
    f.nd = (uint16_t)(n / 2);
    f.trans_a = f.trans_b = mn;
    f.a_regs = aregs;
    f.neg_a = f.neg_b = 1;
    for (int r = 0; r < 64; r++)
        for (int k = 0; k < 16; k++) {
            uint16_t v = f16_of(A[r][k]);
            memcpy(smem + ref_addr(&ta, mn, (uint32_t)r, (uint32_t)k, 2), &v, 2);
            uint32_t t, reg, bit;
            tc_wgmma_a_where(&f, (uint32_t)r, (uint32_t)k, &t, &reg, &bit);
            areg[t * 4 + reg] = (areg[t * 4 + reg] & ~(0xFFFFu << bit)) | (uint32_t)v << bit;
        }
    for (uint32_t r = 0; r < n; r++)
        for (int k = 0; k < 16; k++) {
            uint16_t v = f16_of(B[r][k]);
            memcpy(smem + ref_addr(&tb, mn, r, (uint32_t)k, 2), &v, 2);
        }
    memset(d, 0, sizeof d);
    tc_wg_io io = { .smem = smem, .smem_size = sizeof smem, .smem_base = 0, .desc_a = da, .desc_b = db,
                    .a = areg, .d = d, .scale_d = true, .s = &s };
    char why[200];
    if (tc_wgmma_exec(&f, &io, why, sizeof why)) {
        printf("FAIL wgmma %s: %s\n", name, why);
        check_failures++;
        return;
    }
    int bad = 0;
    char first[200] = "";
    for (uint32_t r = 0; r < 64; r++)
        for (uint32_t c = 0; c < n; c++) {
            int want = 0;
            for (int k = 0; k < 16; k++)
                want += A[r][k] * B[c][k];
            uint32_t t, reg, h;
            tc_wgmma_d_where(&f, r, c, &t, &reg, &h);
            float got = f32_of(d[reg * 128 + t]);
            if (got != (float)want && !bad++)
                snprintf(first, sizeof first, " (D[%u][%u] = %g, want %d)", r, c, (double)got, want);
        }
    printf("%s wgmma %s: D = A x B^T%s\n", bad ? "FAIL" : "PASS", name, first);
    check_failures += bad != 0;
}

int main(void)
{
    check_desc();
    check_maps(TC_T_F32, 8);
    check_maps(TC_T_F32, 256);
    check_maps(TC_T_F16, 16);
    check_maps(TC_T_F16, 256);
    check_maps(TC_T_S32, 24);
    check_mma("K-major interleave n16", 0, false, false, 16);
    check_mma("K-major 32B n16", 32, false, false, 16);
    check_mma("K-major 64B n24", 64, false, false, 24);
    check_mma("K-major 128B n256", 128, false, false, 256);
    check_mma("MN-major interleave n64", 0, true, false, 64);
    check_mma("MN-major 32B n32", 32, true, false, 32);
    check_mma("MN-major 64B n64", 64, true, false, 64);
    check_mma("MN-major 128B n128", 128, true, false, 128);
    check_mma("A registers, B K-major 128B n8", 128, false, true, 8);
    return check_failures != 0;
}
