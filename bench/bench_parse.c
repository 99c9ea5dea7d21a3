/* bench/bench_parse.c — front-end throughput: lexing alone and parse to
 * IR, in MB/s on one core, over the corpus files repeated until at least
 * 50 MB have gone through (each pass parses a file as its own module, so
 * no symbol clashes).  Usage: bench_parse FILE.ptx...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lexer/lexer.h"
#include "ir/ir.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_parse FILE.ptx...\n");
        return 2;
    }
    int n = argc - 1;
    char **buf = calloc((size_t)n, sizeof *buf);
    size_t *len = calloc((size_t)n, sizeof *len), total = 0;
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(argv[i + 1], "rb");
        if (!f) { perror(argv[i + 1]); return 1; }
        fseek(f, 0, SEEK_END);
        len[i] = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        buf[i] = malloc(len[i] + 1);
        if (fread(buf[i], 1, len[i], f) != len[i]) { perror("read"); return 1; }
        buf[i][len[i]] = 0;
        fclose(f);
        total += len[i];
    }
    const size_t target = 50u << 20;
    int reps = (int)((target + total - 1) / total);
    size_t bytes = 0, ntok = 0;
    double t0 = now();
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < n; i++) {
            lex_state L;
            ptx_tok v;
            ptx_loc l;
            lex_init(&L, buf[i], len[i], argv[i + 1], NULL);
            while (lex_next(&L, &v, &l))
                ntok++;
            bytes += len[i];
        }
    double tl = now() - t0;
    size_t pbytes = 0;
    t0 = now();
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < n; i++) {
            ir_diag d;
            memset(&d, 0, sizeof d);
            ir_module *m = ptx_parse(argv[i + 1], buf[i], len[i], &d);
            if (!m) { fprintf(stderr, "parse failed: %s\n", argv[i + 1]); return 1; }
            ir_module_free(m);
            pbytes += len[i];
        }
    double tp = now() - t0;
    printf("input: %d file(s), %.1f MB per pass, %d passes, %.1f MB total, %zu tokens\n", n,
           total / 1e6, reps, bytes / 1e6, ntok);
    printf("lex only:     %8.1f MB/s\n", bytes / 1e6 / tl);
    printf("parse to IR:  %8.1f MB/s\n", pbytes / 1e6 / tp);
    for (int i = 0; i < n; i++)
        free(buf[i]);
    free(buf);
    free(len);
    return 0;
}
