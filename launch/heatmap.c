/* heatmap.c — `--dump NAME:DTYPE:SHAPE=FILE.svg|FILE.png`: a buffer drawn
 * as a heat map, for the buffers people would rather look at than read.
 *
 * The buffer is read as DTYPE elements and laid out by SHAPE as numpy
 * would (outermost first): the last size is the columns, every leading
 * size multiplies the rows (a 1-D buffer is one row).  Values map linearly
 * from the finite minimum to the finite maximum onto a five-stop viridis
 * ramp; NaN and infinities are grey.  The SVG has one <rect> per element
 * with a <title> "[row, col] = value" (shown on hover) and a colour bar;
 * the PNG has one square of pixels per element, written with stored
 * (uncompressed) deflate blocks so no compression library is needed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "launch/heatmap.h"

#define MAX_CELLS (1u << 20)   /* a PNG pixel each at least */
#define MAX_SVG_CELLS 65536u   /* an SVG rect each */

static double half(uint16_t h)
{
    int e = h >> 10 & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h >> 15 ? -v : v;
}

/* Element i of a buffer of dtype `t` as a double; false for an unknown dtype. */
static bool value(const char *t, const uint8_t *d, uint64_t i, double *out)
{
    union { uint8_t b[8]; uint16_t u16; uint32_t u32; uint64_t u64; int16_t s16; int32_t s32; int64_t s64;
            float f; double g; } u;
    unsigned size = launch_heatmap_dtype_size(t);
    if (!size)
        return false;
    memcpy(u.b, d + i * size, size);
    if (!strcmp(t, "u8")) *out = u.b[0];
    else if (!strcmp(t, "s8")) *out = (int8_t)u.b[0];
    else if (!strcmp(t, "u16")) *out = u.u16;
    else if (!strcmp(t, "s16")) *out = u.s16;
    else if (!strcmp(t, "u32")) *out = u.u32;
    else if (!strcmp(t, "s32")) *out = u.s32;
    else if (!strcmp(t, "u64")) *out = (double)u.u64;
    else if (!strcmp(t, "s64")) *out = (double)u.s64;
    else if (!strcmp(t, "f16")) *out = half(u.u16);
    else if (!strcmp(t, "bf16")) {
        uint32_t w = (uint32_t)u.u16 << 16;
        float f;
        memcpy(&f, &w, 4);
        *out = f;
    } else if (!strcmp(t, "f32")) *out = u.f;
    else *out = u.g;
    return true;
}

unsigned launch_heatmap_dtype_size(const char *t)
{
    static const struct { const char *n; unsigned s; } k[] = {
        {"u8", 1}, {"s8", 1}, {"u16", 2}, {"s16", 2}, {"u32", 4}, {"s32", 4}, {"u64", 8}, {"s64", 8},
        {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strcmp(k[i].n, t))
            return k[i].s;
    return 0;
}

void launch_heatmap_color(double v, double lo, double hi, uint8_t rgb[3])
{
    static const uint8_t stops[5][3] = {
        {0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}};
    if (!isfinite(v)) {
        rgb[0] = rgb[1] = rgb[2] = 0x80;
        return;
    }
    double t = hi > lo ? (v - lo) / (hi - lo) : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    int k = t >= 1 ? 3 : (int)(t * 4);
    double f = t * 4 - k;
    for (int c = 0; c < 3; c++)
        rgb[c] = (uint8_t)lround(stops[k][c] + (stops[k + 1][c] - stops[k][c]) * f);
}

/* Rows and columns from the shape; false (err set) if it does not fit. */
static bool grid_of(const launch_heatmap_in *in, uint64_t *rows, uint64_t *cols, double *lo, double *hi, char *err,
                    size_t n)
{
    unsigned es = launch_heatmap_dtype_size(in->dtype);
    if (!es) {
        snprintf(err, n, "a heat map needs a numeric DTYPE (u8 ... f64), not \"%s\"", in->dtype);
        return false;
    }
    uint64_t count = in->bytes / es;
    uint64_t total = 1;
    for (int i = 0; i < in->ndim; i++)
        total *= in->shape[i];
    if (in->ndim && total != count) {
        snprintf(err, n, "the shape covers %" PRIu64 " elements; the buffer holds %" PRIu64, total, count);
        return false;
    }
    *cols = in->ndim ? in->shape[in->ndim - 1] : count;
    *rows = *cols ? count / *cols : 0;
    if (!count || count > MAX_CELLS) {
        snprintf(err, n, "%" PRIu64 " elements: a heat map draws 1 to %u", count, MAX_CELLS);
        return false;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (uint64_t i = 0; i < count; i++) {
        double v;
        value(in->dtype, in->data, i, &v);
        if (isfinite(v)) {
            *lo = v < *lo ? v : *lo;
            *hi = v > *hi ? v : *hi;
        }
    }
    if (*lo > *hi)
        *lo = *hi = 0;
    return true;
}

int launch_heatmap_write_svg(FILE *f, const launch_heatmap_in *in, char *err, size_t n)
{
    uint64_t rows, cols;
    double lo, hi;
    if (!grid_of(in, &rows, &cols, &lo, &hi, err, n))
        return -1;
    if (rows * cols > MAX_SVG_CELLS) {
        snprintf(err, n, "%" PRIu64 " elements: an SVG heat map draws up to %u (write a .png)", rows * cols,
                 MAX_SVG_CELLS);
        return -1;
    }
    unsigned cell = cols <= 32 ? 16 : cols <= 128 ? 8 : 4;
    uint64_t w = 80 + cols * cell + 120, h = 60 + rows * cell + 30;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%" PRIu64
               "\" height=\"%" PRIu64 "\" font-family=\"monospace\" font-size=\"11\">\n"
               "<rect x=\"0\" y=\"0\" width=\"%" PRIu64 "\" height=\"%" PRIu64 "\" fill=\"#ffffff\"/>\n", w,
            h < 200 ? 200 : h, w, h < 200 ? 200 : h);
    fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"13\">%s: %" PRIu64 " x %" PRIu64 " %s, %.9g .. %.9g</text>\n",
            in->title, rows, cols, in->dtype, lo, hi);
    fprintf(f, "<g id=\"cells\">\n");
    for (uint64_t r = 0; r < rows; r++)
        for (uint64_t c = 0; c < cols; c++) {
            double v;
            uint8_t rgb[3];
            value(in->dtype, in->data, r * cols + c, &v);
            launch_heatmap_color(v, lo, hi, rgb);
            fprintf(f, "<rect x=\"%" PRIu64 "\" y=\"%" PRIu64 "\" width=\"%u\" height=\"%u\" fill=\"#%02x%02x%02x\">"
                       "<title>[%" PRIu64 ", %" PRIu64 "] = %.9g</title></rect>\n",
                    60 + c * cell, 40 + r * cell, cell, cell, rgb[0], rgb[1], rgb[2], r, c, v);
        }
    fprintf(f, "</g>\n<g id=\"scale\">\n");
    uint64_t bx = 60 + cols * cell + 30;
    for (int k = 0; k < 64; k++) {
        uint8_t rgb[3];
        launch_heatmap_color(hi - (hi - lo) * k / 63.0, lo, hi, rgb);
        fprintf(f, "<rect x=\"%" PRIu64 "\" y=\"%d\" width=\"16\" height=\"2\" fill=\"#%02x%02x%02x\"/>\n", bx, 40 + 2 * k,
                rgb[0], rgb[1], rgb[2]);
    }
    fprintf(f, "<text x=\"%" PRIu64 "\" y=\"48\">%.4g</text>\n<text x=\"%" PRIu64 "\" y=\"168\">%.4g</text>\n</g>\n",
            bx + 20, hi, bx + 20, lo);
    fprintf(f, "</svg>\n");
    return ferror(f) ? -1 : 0;
}

/* ---- PNG: stored deflate, CRC-32, Adler-32 ---------------------------------------- */

static uint32_t crc32_of(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = crc >> 1 ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void chunk(FILE *f, const char *type, const uint8_t *d, uint32_t n)
{
    uint8_t hdr[8];
    be32(hdr, n);
    memcpy(hdr + 4, type, 4);
    fwrite(hdr, 1, 8, f);
    if (n)
        fwrite(d, 1, n, f);
    uint32_t crc = crc32_of(crc32_of(0, (const uint8_t *)type, 4), d, n);
    uint8_t c[4];
    be32(c, crc);
    fwrite(c, 1, 4, f);
}

int launch_heatmap_write_png(FILE *f, const launch_heatmap_in *in, char *err, size_t n)
{
    uint64_t rows, cols;
    double lo, hi;
    if (!grid_of(in, &rows, &cols, &lo, &hi, err, n))
        return -1;
    unsigned scale = cols >= 512 ? 1 : (unsigned)(512 / cols);
    if (scale > 16)
        scale = 16;
    if (rows * scale > 16384)
        scale = 1;
    uint64_t w = cols * scale, h = rows * scale, stride = 1 + w * 3, raw = stride * h;
    if (raw > (256u << 20)) {
        snprintf(err, n, "the picture would be %" PRIu64 " x %" PRIu64 " pixels: too large", w, h);
        return -1;
    }
    uint8_t *img = malloc(raw);
    uint64_t nblocks = (raw + 65534) / 65535;
    uint8_t *z = malloc(2 + raw + 5 * nblocks + 4);
    if (!img || !z) {
        free(img);
        free(z);
        snprintf(err, n, "out of memory");
        return -1;
    }
    for (uint64_t y = 0; y < h; y++) {
        uint8_t *row = img + y * stride;
        row[0] = 0;   /* filter: none */
        for (uint64_t x = 0; x < w; x++) {
            double v;
            value(in->dtype, in->data, (y / scale) * cols + x / scale, &v);
            launch_heatmap_color(v, lo, hi, row + 1 + 3 * x);
        }
    }
    /* zlib stream of stored blocks */
    uint64_t at = 0;
    z[at++] = 0x78;
    z[at++] = 0x01;
    uint32_t a = 1, b = 0;
    for (uint64_t off = 0; off < raw; off += 65535) {
        uint32_t len = raw - off < 65535 ? (uint32_t)(raw - off) : 65535;
        z[at++] = off + len >= raw;   /* BFINAL, BTYPE 00 */
        z[at++] = (uint8_t)len;
        z[at++] = (uint8_t)(len >> 8);
        z[at++] = (uint8_t)~len;
        z[at++] = (uint8_t)(~len >> 8);
        memcpy(z + at, img + off, len);
        at += len;
        for (uint32_t i = 0; i < len; i++) {
            a = (a + img[off + i]) % 65521;
            b = (b + a) % 65521;
        }
    }
    be32(z + at, b << 16 | a);
    at += 4;
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    fwrite(sig, 1, 8, f);
    uint8_t ihdr[13];
    be32(ihdr, (uint32_t)w);
    be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;    /* bit depth */
    ihdr[9] = 2;    /* RGB */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    chunk(f, "IHDR", ihdr, 13);
    for (uint64_t off = 0; off < at; off += 1u << 30)
        chunk(f, "IDAT", z + off, (uint32_t)(at - off < (1u << 30) ? at - off : 1u << 30));
    chunk(f, "IEND", NULL, 0);
    free(img);
    free(z);
    return ferror(f) ? -1 : 0;
}
