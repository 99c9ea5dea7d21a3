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
