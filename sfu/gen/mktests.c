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
 * forms, whose differences are from hwref.h's r_ref32; "all16" (input i,
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
        snprintf(name, sizeof name, "b_%s.u32", r_fname[fn]);
        hwset s;
        if (hw_load(dir, name, &s)) return 1;
        uint32_t *z = malloc(4 * s.n);
        for (size_t i = 0; i < s.n; i++) z[i] = r_zz(s.y[i], r_ref32(fn, s.x[i]));
        emit(out, form[fn], "binades", z, s.n);
        free(z); free(s.x); free(s.y);
    }
    return 0;
}
