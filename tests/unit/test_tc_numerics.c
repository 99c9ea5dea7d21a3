/* test_tc_numerics.c — tc_dot against what the H100 computed.
 *
 * tests/hw/tc_numerics/probe.cu ran each instruction below on the H100 over
 * seeded inputs (gen.h, shared with this test, regenerates any element from
 * its indices) and wrote every D element.  Each <name>.bin holds the number
 * of outputs and of outputs kept whole, the first outputs whole, then a
 * 64-bit FNV-1a hash of every block of 1024 outputs (the whole set is too
 * large to keep in git; a failing block is named and can be regenerated on
 * a GPU with probe.cu).  The test recomputes every output with tc_dot and
 * compares: each output kept whole, each block hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tc/dot.h"
#include "tests/hw/tc_numerics/gen.h"

struct combo {
    const char *name;
    int akind, ckind, M, N, K;    /* gen.h element kinds; ckind 9: raw s32 */
    int gid;                      /* gen.h stream: the probe's combination number */
    uint8_t at, ct, dt, fam, sat;
};

static const struct combo combos[] = {
    {"mma_m16n8k16_f32_f16", 0, 5, 16, 8, 16, 0, TC_T_F16, TC_T_F32, TC_T_F32, TC_FAM_MMA, 0},
    {"mma_m16n8k16_f16_f16", 0, 0, 16, 8, 16, 1, TC_T_F16, TC_T_F16, TC_T_F16, TC_FAM_MMA, 0},
    {"mma_m16n8k16_f32_bf16", 1, 5, 16, 8, 16, 2, TC_T_BF16, TC_T_F32, TC_T_F32, TC_FAM_MMA, 0},
    {"mma_m16n8k8_f32_tf32", 2, 5, 16, 8, 8, 3, TC_T_TF32, TC_T_F32, TC_T_F32, TC_FAM_MMA, 0},
    {"mma_m16n8k32_f32_e4m3", 3, 5, 16, 8, 32, 4, TC_T_E4M3, TC_T_F32, TC_T_F32, TC_FAM_MMA, 0},
    {"mma_m16n8k32_f32_e5m2", 4, 5, 16, 8, 32, 5, TC_T_E5M2, TC_T_F32, TC_T_F32, TC_FAM_MMA, 0},
    {"mma_m16n8k32_f16_e4m3", 3, 0, 16, 8, 32, 6, TC_T_E4M3, TC_T_F16, TC_T_F16, TC_FAM_MMA, 0},
    {"mma_m16n8k32_s32_s8_sat", 6, 9, 16, 8, 32, 7, TC_T_S8, TC_T_S32, TC_T_S32, TC_FAM_MMA, 1},
    {"mma_m8n8k4_f64", 7, 7, 8, 8, 4, 8, TC_T_F64, TC_T_F64, TC_T_F64, TC_FAM_MMA, 0},
    {"mma_m16n8k8_f32_f16", 0, 5, 16, 8, 8, 9, TC_T_F16, TC_T_F32, TC_T_F32, TC_FAM_MMA, 0},
    {"mma_m16n8k16_f32_bf16_b", 1, 5, 16, 8, 16, 10, TC_T_BF16, TC_T_F32, TC_T_F32, TC_FAM_MMA, 0},
    /* wgmma (probe_wg.cu): A from registers, B through a descriptor */
    {"wgmma_m64n8k16_f32_f16", 0, 5, 64, 8, 16, 100, TC_T_F16, TC_T_F32, TC_T_F32, TC_FAM_WGMMA, 0},
    {"wgmma_m64n8k16_f16_f16", 0, 0, 64, 8, 16, 101, TC_T_F16, TC_T_F16, TC_T_F16, TC_FAM_WGMMA, 0},
    {"wgmma_m64n8k16_f32_bf16", 1, 5, 64, 8, 16, 102, TC_T_BF16, TC_T_F32, TC_T_F32, TC_FAM_WGMMA, 0},
    {"wgmma_m64n8k8_f32_tf32", 2, 5, 64, 8, 8, 103, TC_T_TF32, TC_T_F32, TC_T_F32, TC_FAM_WGMMA, 0},
    {"wgmma_m64n8k32_f32_e4m3", 3, 5, 64, 8, 32, 104, TC_T_E4M3, TC_T_F32, TC_T_F32, TC_FAM_WGMMA, 0},
    {"wgmma_m64n8k32_f32_e5m2", 4, 5, 64, 8, 32, 105, TC_T_E5M2, TC_T_F32, TC_T_F32, TC_FAM_WGMMA, 0},
    {"wgmma_m64n8k32_f16_e4m3", 3, 0, 64, 8, 32, 106, TC_T_E4M3, TC_T_F16, TC_T_F16, TC_FAM_WGMMA, 0},
    {"wgmma_m64n8k32_s32_s8", 6, 10, 64, 8, 32, 107, TC_T_S8, TC_T_S32, TC_T_S32, TC_FAM_WGMMA, 0},
};

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* the C operand of element i of tile t (probe.cu draws it the same way) */
static uint64_t c_elem(const struct combo *cb, int c, int t, int i)
{
    if (cb->ckind == 10) /* probe_wg.cu's s32 accumulators */
        return (uint32_t)(tcg_rand((uint32_t)c, (uint32_t)t, 2, (uint32_t)i) >> 16);
    if (cb->ckind != 9)
        return tcg_elem(cb->ckind, c, t, 2, i);
    uint64_t r = tcg_rand(c, t, 2, i);
    uint32_t lo = (uint32_t)((r >> 8) & 0x1ff);
    return (r & 3) == 0 ? 0x7fffff00u + lo : (r & 3) == 1 ? 0x80000000u + lo : (uint32_t)(r >> 16);
}

/* D element i of combination c, computed by the model */
static long dv_disagree; /* tc_dot_row results differing from tc_dot's */

static uint64_t model(const struct combo *cb, long i)
{
    int c = cb->gid;
    int per = cb->M * cb->N, t = (int)(i / per), e = (int)(i % per);
    int r = e / cb->N, n = e % cb->N, k = cb->K, wide = cb->at == TC_T_F64;
    uint32_t a[64], b[64];
    for (int j = 0; j < k; j++) {
        uint64_t x = tcg_elem(cb->akind, c, t, 0, r * k + j);
        uint64_t y = tcg_elem(cb->akind, c, t, 1, j * cb->N + n);
        if (wide) {
            a[2 * j] = (uint32_t)x; a[2 * j + 1] = (uint32_t)(x >> 32);
            b[2 * j] = (uint32_t)y; b[2 * j + 1] = (uint32_t)(y >> 32);
        } else {
            a[j] = (uint32_t)x;
            b[j] = (uint32_t)y;
        }
    }
    struct tc_dot_op op = { .family = cb->fam, .atype = cb->at, .btype = cb->at, .ctype = cb->ct,
                            .dtype = cb->dt, .satfinite = cb->sat, .k = (uint16_t)k,
                            .shape_m = (uint16_t)cb->M, .shape_n = (uint16_t)cb->N };
    uint64_t cv = c_elem(cb, c, t, e), d = tc_dot(&op, a, b, k, cv);
    if (tc_dot_fast(&op) && k <= TC_COLS_K) { /* wgmma's row path must agree bit for bit */
        static tc_dcols cols;
        uint32_t cin = (uint32_t)cv, out;
        tc_dot_cols(&op, b, (uint32_t)k, 1, k, &cols);
        tc_dot_row(&op, a, &cols, &cin, &out);
        if (out != (uint32_t)d)
            dv_disagree++;
    }
    return d;
}

static void check_combo(int c, const char *dir)
{
    const struct combo *cb = &combos[c];
    char path[512], name[128];
    snprintf(name, sizeof name, "tc_numerics/%s", cb->name);
    snprintf(path, sizeof path, "%s/%s.bin", dir, cb->name);
    FILE *f = fopen(path, "rb");
    uint32_t hdr[2];
    if (!f || fread(hdr, 4, 2, f) != 2) {
        printf("FAIL %s: cannot read %s\n", name, path);
        check_failures++;
        if (f) fclose(f);
        return;
    }
    int w = cb->at == TC_T_F64 ? 8 : 4;
    long total = hdr[0], whole = hdr[1], nblocks = (total + 1023) / 1024;
    unsigned char *kept = malloc((size_t)whole * w);
    uint64_t *hashes = malloc((size_t)nblocks * 8);
    int ok = fread(kept, w, (size_t)whole, f) == (size_t)whole &&
             fread(hashes, 8, (size_t)nblocks, f) == (size_t)nblocks;
    fclose(f);
    if (!ok) {
        printf("FAIL %s: %s is truncated\n", name, path);
        check_failures++;
        free(kept); free(hashes);
        return;
    }
    long bad = 0, badblocks = 0, first = -1;
    dv_disagree = 0;
    uint64_t fgot = 0, fwant = 0;
    for (long blk = 0; blk < nblocks; blk++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (long i = blk * 1024; i < total && i < (blk + 1) * 1024; i++) {
            uint64_t d = model(cb, i);
            h = fnv1a(h, &d, (size_t)w); /* little-endian, as the GPU wrote it */
            if (i < whole) {
                uint64_t g = 0;
                memcpy(&g, kept + i * w, (size_t)w);
                if (g != d) {
                    if (first < 0) { first = i; fgot = d; fwant = g; }
                    bad++;
                }
            }
        }
        if (h != hashes[blk]) {
            if (first < 0 && badblocks == 0) first = -2 - blk;
            badblocks++;
        }
    }
    free(kept); free(hashes);
    if (dv_disagree) {
        printf("FAIL %s: tc_dot_row differs from tc_dot on %ld outputs\n", name, dv_disagree);
        check_failures++;
    }
    if (bad == 0 && badblocks == 0) {
        printf("PASS %s (%ld inner products)\n", name, total);
        return;
    }
    check_failures++;
    if (first >= 0)
        printf("FAIL %s: %ld of the first %ld outputs differ, %ld of %ld blocks; first: output %ld "
               "(tile %ld) model 0x%" PRIx64 ", H100 0x%" PRIx64 "\n", name, bad, whole, badblocks,
               nblocks, first, first / (cb->M * cb->N), fgot, fwant);
    else
        printf("FAIL %s: %ld of %ld blocks of 1024 outputs differ from the H100's hashes, first block %ld "
               "(outputs %ld..)\n", name, badblocks, nblocks, -2 - first, (-2 - first) * 1024);
}

int main(void)
{
    const char *dir = "tests/hw/tc_numerics";
    for (int c = 0; c < (int)(sizeof combos / sizeof combos[0]); c++)
        check_combo(c, dir);
    CHECK_DONE();
}
