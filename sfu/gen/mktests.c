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
 * forms, whose differences are from hwref.h's r_ref32_suite; "div:SEED"
 * (pairs of r_gen_div), differences from the quotient rounded once;
 * "f64:D" (hwref.h r_gen_f64, thinned as below), 64-bit differences from
 * r_pred64 (the .ftz forms: of the high words); "all16" (input i,
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
static void rice(bits *w, uint64_t z, int k, int raw)
{
    uint64_t qn = z >> k;
    if (qn >= 24) {
        for (int i = 0; i < 24; i++) put_bit(w, 1);
        for (int i = 0; i < raw; i++) put_bit(w, (z >> i) & 1);
        return;
    }
    for (uint64_t i = 0; i < qn; i++) put_bit(w, 1);
    put_bit(w, 0);
    for (int i = 0; i < k; i++) put_bit(w, (z >> i) & 1);
}
static size_t cost(const uint64_t *z, size_t n, int k, int raw)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += (z[i] >> k) >= 24 ? 24 + (size_t)raw : (z[i] >> k) + 1 + k;
    return c;
}
/* writes FORM's file from zigzag values z[0..n); an escape carries `raw` bits */
static void emit64(const char *outdir, const char *form, const char *inputs, const uint64_t *z, size_t n, int raw)
{
    int bk = 0;
    for (int k = 1; k < 20; k++) if (cost(z, n, k, raw) < cost(z, n, bk, raw)) bk = k;
    bits w = {calloc(11 * n + 16, 1), 0};
    for (size_t i = 0; i < n; i++) rice(&w, z[i], bk, raw);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.bin", outdir, form);
    FILE *f = fopen(path, "wb");
    fprintf(f, "ptxi-sfu/1 %s %s %zu %d\n", form, inputs, n, bk);
    fwrite(w.b, 1, (w.nbit + 7) / 8, f);
    fclose(f);
    printf("%s: %zu inputs, %zu bytes\n", path, n, (w.nbit + 7) / 8);
    free(w.b);
}
static void emit(const char *outdir, const char *form, const char *inputs, const uint32_t *z, size_t n)
{
    uint64_t *z64 = malloc(8 * n);
    for (size_t i = 0; i < n; i++) z64[i] = z[i];
    emit64(outdir, form, inputs, z64, n, 32);
    free(z64);
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
    /* divisions: the probe's 2^18 pairs (hwref.h r_gen_div, seed 4242),
     * differences from the quotient rounded once */
    static const struct { const char *set, *file; } dv[] = {
        {"v_div_full.u32", "div.full.f32"}, {"v_div_full_ftz.u32", "div.full.ftz.f32"},
        {"v_div_approx.u32", "div.approx.f32"}, {"v_div_approx_ftz.u32", "div.approx.ftz.f32"},
    };
    for (size_t k = 0; k < sizeof dv / sizeof dv[0]; k++) {
        size_t n = 1u << 18;
        uint32_t *a = malloc(4 * n), *b = malloc(4 * n), *z = malloc(4 * n);
        unsigned char *raw = malloc(4 * n);
        r_gen_div(a, b, n, 4242);
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "xz -dc '%s/%s.xz'", dir, dv[k].set);
        FILE *p = popen(cmd, "r");
        if (!p || fread(raw, 1, 4 * n, p) != 4 * n) { fprintf(stderr, "%s: short\n", dv[k].set); return 1; }
        pclose(p);
        for (size_t i = 0; i < n; i++) {
            uint32_t zz = raw[i] | (uint32_t)raw[n + i] << 8 | (uint32_t)raw[2 * n + i] << 16 | (uint32_t)raw[3 * n + i] << 24;
            float q = (float)((double)r_u2f(a[i]) / (double)r_u2f(b[i]));
            uint32_t ref = q != q ? 0x7fffffffu : r_f2u(q);
            z[i] = r_zz(r_unzz(zz, ref), ref);   /* the probe stored the same difference */
        }
        emit(out, dv[k].file, "div:4242", z, n);
        free(a); free(b); free(z); free(raw);
    }
    /* f64 forms: the probe's inputs (every 16th of the 2^21 high words of
     * [1, 4), all 2^16 random patterns); .ftz: differences of the high
     * words from that of 1/x, 1/sqrt(x); rsqrt.approx.f64: of the whole
     * double from 1/sqrt(x) (64-bit escapes) */
    static const char *d64[3][2] = {{"d_rcp_ftz_f64.u64", "rcp.approx.ftz.f64"},
                                    {"d_rsqrt_ftz_f64.u64", "rsqrt.approx.ftz.f64"},
                                    {"d_rsqrt_f64.u64", "rsqrt.approx.f64"}};
    for (int d = 0; d < 3; d++) {
        size_t n = (1u << 21) + (1u << 16), m = 0;
        unsigned char *raw = malloc(8 * n);
        uint64_t *z = malloc(8 * n);
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "xz -dc '%s/%s.xz'", dir, d64[d][0]);
        FILE *p = popen(cmd, "r");
        if (!p || fread(raw, 1, 8 * n, p) != 8 * n) { fprintf(stderr, "%s: short\n", d64[d][0]); return 1; }
        pclose(p);
        uint64_t s = 77 + (uint64_t)d;
        for (size_t i = 0; i < n; i++) {
            uint64_t in = r_gen_f64(d, (uint32_t)i, &s), zz = 0;
            for (int b = 0; b < 8; b++) zz |= (uint64_t)raw[b * n + i] << (8 * b);
            uint64_t ref = r_ref64(d, in), hw = ref + ((zz >> 1) ^ (0 - (zz & 1)));
            if (i < (1u << 21) && i % 16)
                continue;
            int64_t df = (int64_t)(hw - r_pred64(d, in));
            if (d < 2)
                df >>= 32;   /* both low words are 0 */
            z[m++] = ((uint64_t)df << 1) ^ (uint64_t)(df >> 63);
        }
        emit64(out, d64[d][1], d == 2 ? "f64:2" : d ? "f64:1" : "f64:0", z, m, 64);
        free(raw); free(z);
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
