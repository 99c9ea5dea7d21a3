/* test_sfu_hw.c — the special-function unit (sfu/) against the H100's bits.
 *
 * tests/hw/sfu/FORM.bin hold the GPU's outputs (written by sfu/gen/mktests.c
 * from a probe run on an H100, format described there) for inputs this test
 * regenerates: every sign and exponent of f32 with 512 mantissas each
 * (first and last 32 and 448 from a seeded generator) and core ranges, and
 * every input of the 16-bit forms.  A form reconstructed bit for bit must
 * give every value; a form still computed from the exact function (see
 * sfu/sfu.c) may differ on at most the share the README states, and the
 * count is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/check.h"
#include "sfu/sfu.h"
#include "sfu/gen/hwref.h"

static uint32_t t_rcp(uint32_t x) { return sfu_rcp(x, false); }
static uint32_t t_rcpf(uint32_t x) { return sfu_rcp(x, true); }
static uint32_t t_rsq(uint32_t x) { return sfu_rsqrt(x, false); }
static uint32_t t_rsqf(uint32_t x) { return sfu_rsqrt(x, true); }
static uint32_t t_sqrt(uint32_t x) { return sfu_sqrt(x, false); }
static uint32_t t_sqrtf(uint32_t x) { return sfu_sqrt(x, true); }
static uint32_t t_ex2(uint32_t x) { return sfu_ex2(x, false); }
static uint32_t t_ex2f(uint32_t x) { return sfu_ex2(x, true); }
static uint32_t t_lg2(uint32_t x) { return sfu_lg2(x, false); }
static uint32_t t_lg2f(uint32_t x) { return sfu_lg2(x, true); }
static uint32_t t_sin(uint32_t x) { return sfu_sin(x, false); }
static uint32_t t_sinf(uint32_t x) { return sfu_sin(x, true); }
static uint32_t t_cos(uint32_t x) { return sfu_cos(x, false); }
static uint32_t t_cosf(uint32_t x) { return sfu_cos(x, true); }
static uint32_t t_tanh(uint32_t x) { return sfu_tanh(x); }
static uint32_t t_ex2h(uint32_t x) { return sfu_ex2_f16((uint16_t)x); }
static uint32_t t_ex2b(uint32_t x) { return sfu_ex2_bf16((uint16_t)x); }
static uint32_t t_tanhh(uint32_t x) { return sfu_tanh_f16((uint16_t)x); }
static uint32_t t_tanhb(uint32_t x) { return sfu_tanh_bf16((uint16_t)x); }

/* max_bad: differences allowed per million inputs (0: exact); the others
 * are the rates of the current model, so a change that makes a form worse
 * fails here (README, "Known differences from the H100") */
static const struct form {
    const char *file, *name;
    int ref;   /* hwref.h function of the stored differences, -1: previous output */
    uint32_t (*f)(uint32_t);
    double max_bad;
} forms[] = {
    {"rcp.approx.f32", "rcp.approx.f32", F_RCP, t_rcp, 8000},
    {"rcp.approx.ftz.f32", "rcp.approx.ftz.f32", F_RCPF, t_rcpf, 7900},
    {"rcp.approx.ftz.f32.core", "rcp.approx.ftz.f32 [1,2)", F_RCPF, t_rcpf, 9500},
    {"rsqrt.approx.f32", "rsqrt.approx.f32", F_RSQ, t_rsq, 6400},
    {"rsqrt.approx.ftz.f32", "rsqrt.approx.ftz.f32", F_RSQF, t_rsqf, 6300},
    {"rsqrt.approx.ftz.f32.core", "rsqrt.approx.ftz.f32 [1,4)", F_RSQF, t_rsqf, 14500},
    {"sqrt.approx.f32", "sqrt.approx.f32", F_SQRT, t_sqrt, 2600},
    {"sqrt.approx.ftz.f32", "sqrt.approx.ftz.f32", F_SQRTF, t_sqrtf, 2500},
    {"sqrt.approx.ftz.f32.core", "sqrt.approx.ftz.f32 [1,4)", F_SQRTF, t_sqrtf, 4800},
    {"ex2.approx.f32", "ex2.approx.f32", F_EX2, t_ex2, 2600},
    {"ex2.approx.ftz.f32", "ex2.approx.ftz.f32", F_EX2F, t_ex2f, 2600},
    {"ex2.approx.ftz.f32.core", "ex2.approx.ftz.f32 [1,2)", F_EX2F, t_ex2f, 16400},
    {"ex2.approx.ftz.f32.neg", "ex2.approx.ftz.f32 (-2,-1]", F_EX2F, t_ex2f, 16400},
    {"lg2.approx.f32", "lg2.approx.f32", F_LG2, t_lg2, 1200},
    {"lg2.approx.ftz.f32", "lg2.approx.ftz.f32", F_LG2F, t_lg2f, 1200},
    {"lg2.approx.ftz.f32.core", "lg2.approx.ftz.f32 [0.5,2)", F_LG2F, t_lg2f, 112000},
    /* sin/cos: the same SASS with and without .ftz (FMUL.RZ, MUFU): one file each */
    {"sin.approx.f32", "sin.approx.f32", F_SIN, t_sin, 155200},
    {"sin.approx.f32", "sin.approx.ftz.f32", F_SIN, t_sinf, 155200},
    {"sin.approx.ftz.f32.core", "sin.approx.ftz.f32 [1,2)", F_SINF, t_sinf, 605200},
    {"cos.approx.f32", "cos.approx.f32", F_COS, t_cos, 124200},
    {"cos.approx.f32", "cos.approx.ftz.f32", F_COS, t_cosf, 124200},
    {"cos.approx.ftz.f32.core", "cos.approx.ftz.f32 [1,2)", F_COSF, t_cosf, 971200},
    {"tanh.approx.f32", "tanh.approx.f32", F_TANH, t_tanh, 55500},
    {"tanh.approx.f32.core", "tanh.approx.f32 [0.5,1)", F_TANH, t_tanh, 988600},
    {"ex2.approx.f16", "ex2.approx.f16", -1, t_ex2h, 0},
    {"ex2.approx.ftz.bf16", "ex2.approx.ftz.bf16", -1, t_ex2b, 0},
    {"tanh.approx.f16", "tanh.approx.f16", -1, t_tanhh, 116200},
    {"tanh.approx.bf16", "tanh.approx.bf16", -1, t_tanhb, 14500},
};

typedef struct { const unsigned char *b; size_t nbit, pos; } rd;
static int get_bit(rd *r)
{
    if (r->pos >= r->nbit) return -1;
    int v = (r->b[r->pos / 8] >> (r->pos % 8)) & 1;
    r->pos++;
    return v;
}
/* one Rice-coded value; -1 past the end */
static int64_t get_rice(rd *r, int k)
{
    uint32_t q = 0, z = 0;
    int b = 0;
    while (q < 24 && (b = get_bit(r)) == 1) q++;
    if (b < 0) return -1;
    if (q == 24) {
        for (int i = 0; i < 32; i++) { if ((b = get_bit(r)) < 0) return -1; z |= (uint32_t)b << i; }
        return z;
    }
    for (int i = 0; i < k; i++) { if ((b = get_bit(r)) < 0) return -1; z |= (uint32_t)b << i; }
    return ((int64_t)q << k) | z;
}

static void run_form(const struct form *fm, uint32_t *binades)
{
    char path[256], name[300], form[64], inputs[64];
    snprintf(path, sizeof path, "tests/hw/sfu/%s.bin", fm->file);
    FILE *f = fopen(path, "rb");
    if (!f) { printf("FAIL %s: cannot open %s\n", fm->file, path); check_failures++; return; }
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)sz + 1);
    size_t got = fread(buf, 1, (size_t)sz, f);
    fclose(f);
    buf[got] = 0;
    size_t count = 0;
    int k = 0, hl = 0;
    if (sscanf((char *)buf, "ptxi-sfu/1 %63s %63s %zu %d%n", form, inputs, &count, &k, &hl) != 4 || buf[hl] != '\n' ||
        strcmp(form, fm->file) || k < 0 || k > 24) {
        printf("FAIL %s: %s: bad header\n", fm->file, path);
        check_failures++;
        free(buf);
        return;
    }
    rd r = {buf + hl + 1, 8 * (got - (size_t)hl - 1), 0};
    unsigned long long lo = 0, stride = 0;
    bool all16 = !strcmp(inputs, "all16"), bin = !strcmp(inputs, "binades");
    if (!all16 && !bin && sscanf(inputs, "range:%llx:%llu", &lo, &stride) != 2) {
        printf("FAIL %s: unknown inputs '%s'\n", fm->file, inputs);
        check_failures++;
        free(buf);
        return;
    }
    size_t bad = 0, shown = 0;
    uint32_t prev = 0;
    for (size_t i = 0; i < count; i++) {
        int64_t z = get_rice(&r, k);
        if (z < 0) {
            printf("FAIL %s: %s ends after %zu of %zu values\n", fm->file, path, i, count);
            check_failures++;
            free(buf);
            return;
        }
        uint32_t x = all16 ? (uint32_t)i : bin ? binades[i] : (uint32_t)(lo + i * stride);
        uint32_t want = r_unzz((uint32_t)z, fm->ref < 0 ? prev : r_ref32_suite(fm->ref, x));
        prev = want;
        uint32_t got_ = fm->f(x);
        if (got_ != want) {
            bad++;
            if (fm->max_bad == 0 && shown++ < 5)
                printf("# %s(0x%08x): ptxi 0x%08x, H100 0x%08x\n", fm->name, x, got_, want);
        }
    }
    double ppm = count ? 1e6 * (double)bad / (double)count : 0;
    snprintf(name, sizeof name, "%s: %zu of %zu inputs differ from the H100 (%.1f per million, allowed %.0f)", fm->name,
             bad, count, ppm, fm->max_bad);
    CHECK(name, ppm <= fm->max_bad);
    free(buf);
}

int main(void)
{
    uint32_t *binades = malloc(4 * 512 * 512);
    r_gen_binades(binades, 448, 99);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        run_form(&forms[i], binades);
    free(binades);
    CHECK_DONE();
}
