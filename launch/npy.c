/* npy.c — `--dump` output: NumPy .npy files and typed text listings.
 *
 * A .npy file (NumPy format 1.0) is the magic "\x93NUMPY", version 1.0, a
 * little-endian u16 header length, a Python dict literal naming dtype,
 * order and shape, padded with spaces to a multiple of 64 bytes and ended by
 * '\n', then the raw C-order data.  Buffers are already little-endian
 * device bytes, so the data is written as is.
 */
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <inttypes.h>
#include "launch/launch.h"

static const struct {
    const char *name, *descr;
    unsigned size;
} dtypes[] = {
    {"u8", "|u1", 1},  {"s8", "|i1", 1},  {"u16", "<u2", 2}, {"s16", "<i2", 2},
    {"u32", "<u4", 4}, {"s32", "<i4", 4}, {"u64", "<u8", 8}, {"s64", "<i8", 8},
    {"f16", "<f2", 2}, {"bf16", "<u2", 2}, {"f32", "<f4", 4}, {"f64", "<f8", 8},
};
#define NDT (sizeof dtypes / sizeof dtypes[0])

static int find(const char *dtype)
{
    for (size_t i = 0; i < NDT; i++)
        if (!strcmp(dtypes[i].name, dtype ? dtype : "u8"))
            return (int)i;
    return -1;
}

unsigned launch_dtype_size(const char *dtype)
{
    int i = find(dtype);
    return i < 0 ? 0 : dtypes[i].size;
}

int launch_write_npy(FILE *f, const char *dtype, const uint64_t *shape, int ndim, const uint8_t *data,
                     uint64_t bytes, char *err, size_t errlen)
{
    int t = find(dtype);
    if (t < 0) {
        snprintf(err, errlen, "unknown dtype \"%s\" (u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64)", dtype);
        return -1;
    }
    uint64_t es = dtypes[t].size, count = 1;
    char sh[256];
    int n = 0;
    if (ndim <= 0) {
        if (bytes % es) {
            snprintf(err, errlen, "%" PRIu64 " bytes is not a whole number of %s elements", bytes, dtypes[t].name);
            return -1;
        }
        count = bytes / es;
        n = snprintf(sh, sizeof sh, "(%" PRIu64 ",)", count);
    } else {
        n = snprintf(sh, sizeof sh, "(");
        for (int i = 0; i < ndim && n < (int)sizeof sh - 32; i++) {
            count *= shape[i];
            n += snprintf(sh + n, sizeof sh - n, "%" PRIu64 "%s", shape[i], ndim == 1 || i + 1 < ndim ? ", " : "");
        }
        snprintf(sh + n, sizeof sh - n, ")");
        if (count * es != bytes) {
            snprintf(err, errlen, "shape %s of %s holds %" PRIu64 " bytes, but the buffer has %" PRIu64, sh,
                     dtypes[t].name, count * es, bytes);
            return -1;
        }
    }
    char hdr[512];
    int h = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", dtypes[t].descr, sh);
    int total = 10 + h + 1;
    int pad = (64 - total % 64) % 64;
    unsigned hl = (unsigned)(h + pad + 1);
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc((int)(hl & 0xff), f);
    fputc((int)(hl >> 8), f);
    fwrite(hdr, 1, (size_t)h, f);
    for (int i = 0; i < pad; i++)
        fputc(' ', f);
    fputc('\n', f);
    fwrite(data, 1, bytes, f);
    return 0;
}

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

void launch_print_values(FILE *f, const char *dtype, const uint8_t *d, uint64_t bytes)
{
    int t = find(dtype);
    unsigned es = t < 0 ? 1 : dtypes[t].size;
    unsigned per = es == 1 ? 16 : 8;
    for (uint64_t off = 0; off + es <= bytes; off += es) {
        if ((off / es) % per == 0)
            fprintf(f, "%s%08" PRIx64 ":", off ? "\n" : "", off);
        uint64_t u = 0;
        for (unsigned k = 0; k < es; k++)
            u |= (uint64_t)d[off + k] << (8 * k);
        const char *n = t < 0 ? "u8" : dtypes[t].name;
        if (!strcmp(n, "u8"))
            fprintf(f, " %02" PRIx64, u);
        else if (n[0] == 'u')
            fprintf(f, " %" PRIu64, u);
        else if (n[0] == 's')
            fprintf(f, " %" PRId64, (int64_t)(u << (64 - 8 * es)) >> (64 - 8 * es));
        else if (!strcmp(n, "f16"))
            fprintf(f, " %g", half_to_double((uint16_t)u));
        else if (!strcmp(n, "bf16")) {
            uint32_t w = (uint32_t)u << 16;
            float x;
            memcpy(&x, &w, 4);
            fprintf(f, " %g", x);
        } else if (!strcmp(n, "f32")) {
            uint32_t w = (uint32_t)u;
            float x;
            memcpy(&x, &w, 4);
            fprintf(f, " %.9g", x);
        } else {
            double x;
            memcpy(&x, &u, 8);
            fprintf(f, " %.17g", x);
        }
    }
    if (bytes)
        fputc('\n', f);
}

/* ---- typed values: diffs and tolerances -------------------------------------- */

int launch_dtype_kind(const char *dtype)
{
    int t = find(dtype);
    if (t < 0)
        return 0;
    return dtypes[t].name[0] == 'f' || !strcmp(dtypes[t].name, "bf16") ? 'f' : dtypes[t].name[0];
}

/* Element `i` of `d` as raw bits (little-endian). */
static uint64_t elem_bits(const uint8_t *d, uint64_t i, unsigned es)
{
    uint64_t u = 0;
    for (unsigned k = 0; k < es; k++)
        u |= (uint64_t)d[i * es + k] << (8 * k);
    return u;
}

double launch_elem_value(const char *dtype, const uint8_t *d, uint64_t i)
{
    int t = find(dtype);
    unsigned es = t < 0 ? 1 : dtypes[t].size;
    const char *n = t < 0 ? "u8" : dtypes[t].name;
    uint64_t u = elem_bits(d, i, es);
    if (n[0] == 'u')
        return (double)u;
    if (n[0] == 's')
        return (double)((int64_t)(u << (64 - 8 * es)) >> (64 - 8 * es));
    if (!strcmp(n, "f16"))
        return half_to_double((uint16_t)u);
    if (!strcmp(n, "bf16") || !strcmp(n, "f32")) {
        uint32_t w = !strcmp(n, "bf16") ? (uint32_t)u << 16 : (uint32_t)u;
        float x;
        memcpy(&x, &w, 4);
        return x;
    }
    double x;
    memcpy(&x, &u, 8);
    return x;
}

/* Distance in units in the last place between two floats of `es` bytes
 * (bf16 when `bf` is set): the difference of their positions on the
 * ordered line of representable values (+0 and -0 the same place). */
uint64_t launch_elem_ulps(const char *dtype, const uint8_t *a, const uint8_t *b, uint64_t i)
{
    int t = find(dtype);
    unsigned es = t < 0 ? 1 : dtypes[t].size;
    unsigned bits = 8 * es;
    uint64_t sign = 1ull << (bits - 1), x = elem_bits(a, i, es), y = elem_bits(b, i, es);
    /* map sign-magnitude to an ordered integer */
    int64_t ox = x & sign ? -(int64_t)(x & (sign - 1)) : (int64_t)x;
    int64_t oy = y & sign ? -(int64_t)(y & (sign - 1)) : (int64_t)y;
    return ox > oy ? (uint64_t)(ox - oy) : (uint64_t)(oy - ox);
}

void launch_format_elem(char *buf, size_t n, const char *dtype, const uint8_t *d, uint64_t i)
{
    int t = find(dtype);
    unsigned es = t < 0 ? 1 : dtypes[t].size;
    const char *nm = t < 0 ? "u8" : dtypes[t].name;
    double v = launch_elem_value(dtype, d, i);
    if (nm[0] == 'u' || nm[0] == 's')
        snprintf(buf, n, "%.0f", v);
    else if (isnan(v))
        snprintf(buf, n, "nan (0x%0*llx)", (int)es * 2, (unsigned long long)elem_bits(d, i, es));
    else
        snprintf(buf, n, es == 8 ? "%.17g" : es == 4 ? "%.9g" : "%.5g", v);
    /* keep a float looking like one: 820 -> 820.0 */
    if ((nm[0] == 'f' || nm[0] == 'b') && !isnan(v) && !isinf(v) && !strpbrk(buf, ".eE") && strlen(buf) + 2 < n)
        strcat(buf, ".0");
}

/* ---- reading .npy ------------------------------------------------------------- */

/* The value of `key` in a .npy header dict ("'descr': '<f4'"). */
static const char *hdr_value(const char *h, const char *key)
{
    const char *k = strstr(h, key);
    if (!k)
        return NULL;
    k = strchr(k + strlen(key), ':');
    if (!k)
        return NULL;
    k++;
    while (*k == ' ')
        k++;
    return k;
}

int launch_read_npy(const uint8_t *file, uint64_t len, const char **dtype, uint64_t *shape, int *ndim,
                    uint64_t *data_off, char *err, size_t errlen)
{
    if (len < 10 || memcmp(file, "\x93NUMPY", 6)) {
        snprintf(err, errlen, "not a .npy file (no \\x93NUMPY magic)");
        return -1;
    }
    unsigned major = file[6];
    uint64_t hl, start;
    if (major == 1) {
        hl = (uint64_t)file[8] | (uint64_t)file[9] << 8;
        start = 10;
    } else if ((major == 2 || major == 3) && len >= 12) {
        hl = (uint64_t)file[8] | (uint64_t)file[9] << 8 | (uint64_t)file[10] << 16 | (uint64_t)file[11] << 24;
        start = 12;
    } else {
        snprintf(err, errlen, ".npy format version %u.%u is not read", major, file[7]);
        return -1;
    }
    if (start + hl > len || hl > 65536) {
        snprintf(err, errlen, ".npy header is cut short");
        return -1;
    }
    char h[65537];
    memcpy(h, file + start, hl);
    h[hl] = 0;
    const char *descr = hdr_value(h, "'descr'"), *fo = hdr_value(h, "'fortran_order'"),
               *sh = hdr_value(h, "'shape'");
    if (!descr || !fo || !sh || *descr != '\'' || *sh != '(') {
        snprintf(err, errlen, ".npy header lacks descr, fortran_order or shape");
        return -1;
    }
    if (!strncmp(fo, "True", 4)) {
        snprintf(err, errlen, ".npy in Fortran order is not read (save it in C order)");
        return -1;
    }
    int t = -1;
    for (size_t i = 0; i < NDT; i++)
        if (!strncmp(descr + 1, dtypes[i].descr, strlen(dtypes[i].descr)) &&
            descr[1 + strlen(dtypes[i].descr)] == '\'' && strcmp(dtypes[i].name, "bf16")) {
            t = (int)i;
            break;
        }
    if (t < 0) {
        const char *q = strchr(descr + 1, '\'');
        snprintf(err, errlen, ".npy dtype %.*s is not one ptxi reads (u1 i1 u2 i2 u4 i4 u8 i8 f2 f4 f8, little-endian)",
                 q ? (int)(q - descr + 1) : 8, descr);
        return -1;
    }
    *dtype = dtypes[t].name;
    int nd = 0;
    uint64_t count = 1;
    const char *p = sh + 1;
    while (*p && *p != ')') {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            break;
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || nd == 5) {
            snprintf(err, errlen, ".npy shape is not up to 5 sizes");
            return -1;
        }
        shape[nd++] = v;
        count *= v;
        p = end;
    }
    *ndim = nd;
    *data_off = start + hl;
    if (len - *data_off != count * dtypes[t].size) {
        snprintf(err, errlen, ".npy shape holds %llu bytes of data, the file %llu",
                 (unsigned long long)(count * dtypes[t].size), (unsigned long long)(len - *data_off));
        return -1;
    }
    return 0;
}
