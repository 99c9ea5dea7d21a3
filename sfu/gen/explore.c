/* explore.c — tries one interpolator form on one core range of the probe's
 * data: explore DIR SET XBASE YBASE BITS M S DROP T
 *   the input's low BITS bits (x - XBASE) split into M index bits and j;
 *   y = out - YBASE; q = ((j >> DROP)^2) >> T; prints per-segment spread. */
#include <stdio.h>
#include <stdlib.h>
#include "hwdata.h"
#include "seg.h"

int main(int argc, char **argv)
{
    if (argc < 10) { fprintf(stderr, "usage\n"); return 2; }
    hwset s;
    if (hw_load(argv[1], argv[2], &s)) return 1;
    uint32_t xb = strtoul(argv[3], 0, 16), yb = strtoul(argv[4], 0, 16);
    int bits = atoi(argv[5]), m = atoi(argv[6]), sh = atoi(argv[7]), drop = atoi(argv[8]), t = atoi(argv[9]);
    int nseg = 1 << m, jb = bits - m;
    int64_t *y = malloc(8 * s.n), *j = malloc(8 * s.n), *q = malloc(8 * s.n), *Y = malloc(8 * s.n);
    int bad = 0;
    for (int g = 0; g < nseg; g++) {
        int n = 0;
        for (size_t i = 0; i < s.n; i++) {
            uint32_t d = s.x[i] - xb;
            if (d >> bits || (int)(d >> jb) != g) continue;
            int64_t jj = d & ((1u << jb) - 1);
            j[n] = jj;
            y[n] = (int64_t)(int32_t)(s.y[i] - yb);
            int64_t jd = jj >> drop;
            q[n] = (jd * jd) >> t;
            n++;
        }
        if (!n) continue;
        seg_fit f = seg_solve(y, j, q, n, sh, Y);
        int ok = f.spread < ((int64_t)1 << sh);
        bad += !ok;
        if (!ok || g < 4 || getenv("ALL"))
            printf("seg %3d n %6d spread %8lld %s c0 %lld c1 %lld c2 %lld\n", g, n, (long long)f.spread, ok ? "ok" : "BAD",
                   (long long)f.c0, (long long)f.c1, (long long)f.c2);
    }
    printf("%d of %d segments infeasible\n", bad, nseg);
    return 0;
}
