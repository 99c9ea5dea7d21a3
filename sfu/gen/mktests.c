/* mktests.c — writes the committed hardware suite the files of tests/hw/sfu/ from
 * the probe's results (the GPU's bits, never the model's):
 *
 *   mktests DIR OUTDIR   (DIR: the unpacked result of .dev/gpu/sfu/job.sh)
 *
 * A file is one ASCII header line
 *   ptxi-sfu/1 FORM INPUTS COUNT K
 * then COUNT Rice-coded (parameter K) zigzag differences.  INPUTS says how
 * the test regenerates the inputs: "binades" (hwref.h r_gen_binades(448, 99),
 * every sign and exponent), "range:LO:STRIDE" (LO + i*STRIDE) for f32
 * forms, whose differences are from hwref.h's r_ref32_suite; "all16" (input i,
 * i < 65536) for the 16-bit forms, differences from the previous output.
 * A zigzag value of 24 << K or more is written as 24 one bits and 32 raw bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwdata.h"

typedef struct { unsigned char *b; size_t nbit; } bits;   /* b: room for 56 bits per value */
static void put_bit(bits *w, int v)
{
    if (v) w->b[w->nbit / 8] |= (unsigned char)(1u << (w->nbit % 8));
    w->nbit++;
}
static void rice(bits *w, uint32_t z, int k)
{
    uint32_t qn = z >> k;
    if (qn >= 24) {
        for (int i = 0; i < 24; i++) put_bit(w, 1);
        for (int i = 0; i < 32; i++) put_bit(w, (z >> i) & 1);
        return;
    }
    for (uint32_t i = 0; i < qn; i++) put_bit(w, 1);
    put_bit(w, 0);
    for (int i = 0; i < k; i++) put_bit(w, (z >> i) & 1);
}
static size_t cost(const uint32_t *z, size_t n, int k)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += (z[i] >> k) >= 24 ? 56 : (z[i] >> k) + 1 + k;
    return c;
}
/* writes FORM's file from zigzag values z[0..n) */
static void emit(const char *outdir, const char *form, const char *inputs, const uint32_t *z, size_t n)
{
    int bk = 0;
    for (int k = 1; k < 20; k++) if (cost(z, n, k) < cost(z, n, bk)) bk = k;
    bits w = {calloc(7 * n + 16, 1), 0};
    for (size_t i = 0; i < n; i++) rice(&w, z[i], bk);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.bin", outdir, form);
    FILE *f = fopen(path, "wb");
    fprintf(f, "ptxi-sfu/1 %s %s %zu %d\n", form, inputs, n, bk);
    fwrite(w.b, 1, (w.nbit + 7) / 8, f);
    fclose(f);
    printf("%s: %zu inputs, %zu bytes\n", path, n, (w.nbit + 7) / 8);
    free(w.b);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: mktests DIR OUTDIR\n"); return 2; }
    const char *dir = argv[1], *out = argv[2];
    static const char *form[NF32] = {"rcp.approx.f32", "rcp.approx.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32",
                                     "sqrt.approx.f32", "sqrt.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.ftz.f32",
                                     "lg2.approx.f32", "lg2.approx.ftz.f32", "sin.approx.f32", "sin.approx.ftz.f32",
                                     "cos.approx.f32", "cos.approx.ftz.f32", "tanh.approx.f32"};
    for (int fn = 0; fn < NF32; fn++) {
        char name[64];
        if (fn == F_SINF || fn == F_COSF)   /* the same SASS as sin/cos (FMUL.RZ, MUFU): one file serves both */
            continue;
        snprintf(name, sizeof name, "b_%s.u32", r_fname[fn]);
        hwset s;
        if (hw_load(dir, name, &s)) return 1;
        uint32_t *z = malloc(4 * s.n);
        for (size_t i = 0; i < s.n; i++) z[i] = r_zz(s.y[i], r_ref32_suite(fn, s.x[i]));
        emit(out, form[fn], "binades", z, s.n);
        free(z); free(s.x); free(s.y);
    }
    /* every STRIDE-th input of the core ranges the probe measured whole */
    static const struct { const char *set, *file; int fn; uint32_t stride; } core[] = {
        {"c_rcp.ftz_1_2.u32", "rcp.approx.ftz.f32.core", F_RCPF, 61},
        {"c_rsqrt.ftz_1_4.u32", "rsqrt.approx.ftz.f32.core", F_RSQF, 122},
        {"c_sqrt.ftz_1_4.u32", "sqrt.approx.ftz.f32.core", F_SQRTF, 122},
        {"c_ex2.ftz_1_2.u32", "ex2.approx.ftz.f32.core", F_EX2F, 61},
        {"c_ex2.ftz_m1_m2.u32", "ex2.approx.ftz.f32.neg", F_EX2F, 61},
        {"c_lg2.ftz_05_2.u32", "lg2.approx.ftz.f32.core", F_LG2F, 122},
        {"c_sin.ftz_1_2.u32", "sin.approx.ftz.f32.core", F_SINF, 61},
        {"c_cos.ftz_1_2.u32", "cos.approx.ftz.f32.core", F_COSF, 61},
        {"c_tanh_05_1.u32", "tanh.approx.f32.core", F_TANH, 61},
    };
    for (size_t k = 0; k < sizeof core / sizeof core[0]; k++) {
        hwset s;
        if (hw_load(dir, core[k].set, &s)) return 1;
        size_t n = (s.n + core[k].stride - 1) / core[k].stride;
        uint32_t *z = malloc(4 * n);
        for (size_t i = 0; i < n; i++) {
            size_t j = i * core[k].stride;
            z[i] = r_zz(s.y[j], r_ref32_suite(core[k].fn, s.x[j]));
        }
        char inputs[64];
        snprintf(inputs, sizeof inputs, "range:%08x:%u", s.x[0], core[k].stride);
        emit(out, core[k].file, inputs, z, n);
        free(z); free(s.x); free(s.y);
    }
    /* the 16-bit forms: all 2^16 inputs, raw outputs from the probe */
    static const struct { const char *set, *file; } h16[] = {
        {"h_ex2_f16.u16", "ex2.approx.f16"}, {"h_ex2_ftz_bf16.u16", "ex2.approx.ftz.bf16"},
        {"h_tanh_f16.u16", "tanh.approx.f16"}, {"h_tanh_bf16.u16", "tanh.approx.bf16"},
    };
    for (size_t k = 0; k < sizeof h16 / sizeof h16[0]; k++) {
        char cmd[1200];
        uint16_t v[65536];
        uint32_t z[65536], prev = 0;
        snprintf(cmd, sizeof cmd, "xz -dc '%s/%s.xz'", dir, h16[k].set);
        FILE *p = popen(cmd, "r");
        if (!p || fread(v, 2, 65536, p) != 65536) { fprintf(stderr, "%s: short\n", h16[k].set); return 1; }
        pclose(p);
        for (int i = 0; i < 65536; i++) {
            z[i] = r_zz(v[i], prev);
            prev = v[i];
        }
        emit(out, h16[k].file, "all16", z, 65536);
    }
    return 0;
}
