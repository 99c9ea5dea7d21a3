/* hwdata.h — reads the H100 probe's results (probe.cu, run by job.sh on the
 * GPU machine): each dataset is an xz file of zigzag differences from the
 * references of hwref.h, stored plane by plane, possibly thinned to every
 * k-th element (pack.txt).  hw_load gives back inputs and the GPU's outputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwref.h"

typedef struct { size_t n; uint32_t *x, *y; } hwset;

static int hw_field(const char *info, const char *key, unsigned long long *v, int base)
{
    const char *p = strstr(info, key);
    if (!p) return 0;
    *v = strtoull(p + strlen(key), NULL, base);
    return 1;
}

/* dir holds manifest.txt, pack.txt and NAME.xz; returns 0 on success */
static int hw_load(const char *dir, const char *name, hwset *s)
{
    char path[1024], line[1024], info[1024] = "";
    unsigned long long stride = 0;
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    size_t nl = strlen(name);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, name, nl) && line[nl] == ' ') snprintf(info, sizeof info, "%s", line + nl + 1);
    fclose(f);
    snprintf(path, sizeof path, "%s/pack.txt", dir);
    f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, name, nl) && !strncmp(line + nl, " stride ", 8)) stride = strtoull(line + nl + 8, NULL, 10);
    fclose(f);
    if (!info[0] || !stride) { fprintf(stderr, "%s: not in manifest/pack\n", name); return -1; }
    unsigned long long bytes, fn, lo, st, list, fnv;
    bytes = strtoull(info, NULL, 10);
    if (!hw_field(info, " f=", &fn, 10) || !hw_field(info, "lo=", &lo, 16) || !hw_field(info, "stride=", &st, 10) ||
        !hw_field(info, "list=", &list, 10) || !hw_field(info, "fnv=", &fnv, 16)) {
        fprintf(stderr, "%s: not an f32 set\n", name);
        return -1;
    }
    size_t total = bytes / 4, n = (total + stride - 1) / stride;
    unsigned char *raw = malloc(4 * n);
    snprintf(path, sizeof path, "xz -dc '%s/%s.xz'", dir, name);
    FILE *p = popen(path, "r");
    size_t got = p ? fread(raw, 1, 4 * n, p) : 0;
    if (p) pclose(p);
    if (got != 4 * n) { fprintf(stderr, "%s: %zu bytes, expected %zu\n", name, got, 4 * n); free(raw); return -1; }
    uint32_t *all = NULL;
    if (list) {
        all = malloc(4 * (512 * 1024));
        r_gen_binades(all, 448, 99);
    }
    s->n = n;
    s->x = malloc(4 * n);
    s->y = malloc(4 * n);
    for (size_t i = 0; i < n; i++) {
        size_t k = i * stride;
        uint32_t z = raw[i] | (uint32_t)raw[n + i] << 8 | (uint32_t)raw[2 * n + i] << 16 | (uint32_t)raw[3 * n + i] << 24;
        s->x[i] = list ? all[k] : (uint32_t)(lo + k * st);
        s->y[i] = r_unzz(z, r_ref32((int)fn, s->x[i]));
    }
    free(all);
    free(raw);
    if (stride == 1) {
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < n; i++)
            for (int b = 0; b < 4; b++) h = (h ^ ((s->y[i] >> (8 * b)) & 255)) * 1099511628211ull;
        if (h != fnv) { fprintf(stderr, "%s: checksum differs: the reference is not the probe's\n", name); return -1; }
    }
    return 0;
}
