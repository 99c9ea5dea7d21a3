/* tmap_svg.c — a picture of a tensor map: the box in the global tensor
 * (for an im2col map, the pixels one load gathers), and where each 16-byte
 * chunk of it lands in shared memory under the map's swizzle and
 * interleave (`ptxi tmap --svg`, `info tmaps --svg`).
 *
 * The placement is not recomputed here: the TMA engine itself performs a
 * load of the box.  The box is copied into a compact tensor of its own
 * size (same data type, box, traversal strides, swizzle and interleave;
 * the shared-memory layout does not depend on the global dims or strides)
 * whose every 16-byte chunk holds its own number, four times; after
 * tma_execute, each 16-byte chunk of shared memory names the global chunk
 * that landed there.  A chunk's colour is its column in the box row (hue)
 * and its row modulo 8 (lightness), so the XOR pattern of a swizzle shows
 * as the hues permuting row by row; every rectangle has a <title> (the
 * coordinates, shown on hover).  The colours are plain #rrggbb, so a
 * renderer's pixels can be checked (tests/scripts/tmap_svg.sh).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/tmap_svg.h"

#define CW 30          /* chunk cell, pixels */
#define CH 16
#define MAX_ROWS 512   /* rows drawn per panel */
#define MAX_BYTES (4u << 20)

static const char *const swz_names[] = {"none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B",
                                        "128B_atom_64B", "96B"};

/* The colour of global chunk (row, col) of a box with `ncol` chunks a row. */
void tmap_svg_color(uint32_t row, uint32_t col, uint32_t ncol, uint8_t rgb[3])
{
    double h = ncol ? (double)(col % ncol) / ncol : 0, l = 0.38 + 0.05 * (row % 8), s = 0.75;
    double q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
    for (int k = 0; k < 3; k++) {
        double t = h + (1 - k) / 3.0;
        t -= floor(t);
        double v = t < 1 / 6.0 ? p + (q - p) * 6 * t : t < 0.5 ? q : t < 2 / 3.0 ? p + (q - p) * (2 / 3.0 - t) * 6 : p;
        rgb[k] = (uint8_t)lround(v * 255);
    }
}

/* Every 16-byte chunk of a tensor of `total` bytes holds its number + 1,
 * four times; chunk_tag reads a chunk back: the global chunk's number, -1
 * for an untouched (zero) chunk, -2 for bytes of several chunks. */
static void tag_chunks(uint8_t *gh, uint64_t total)
{
    for (uint64_t o = 0; gh && o + 16 <= total; o += 16)
        for (int w = 0; w < 4; w++) {
            uint32_t tag = (uint32_t)(o / 16) + 1;
            memcpy(gh + o + 4 * w, &tag, 4);
        }
}

static int64_t chunk_tag(const uint8_t *p, uint64_t total)
{
    uint32_t t[4];
    memcpy(t, p, 16);
    if (t[0] && t[0] == t[1] && t[1] == t[2] && t[2] == t[3] && (uint64_t)t[0] * 16 <= total)
        return (int64_t)t[0] - 1;
    return (t[0] | t[1] | t[2] | t[3]) ? -2 : -1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* An im2col / im2col::w map: one load of the map's column (pixels_per_column
 * pixels of channels_per_pixel channels) from a compact tensor of the map's
 * spatial dims whose 16-byte chunks hold their numbers, at the lowest base
 * coordinates the map accepts (0, else the bounding box's lower corner),
 * offsets 0.  The gathered pixels, in load order (the walk is W, then H,
 * D, N: ascending pixel index), are the picture's global rows; pixels that
 * fall outside the tensor (padding) are filled, not copied: they have no
 * global row, and their shared-memory chunks say so. */
static int im2col_layout(const tma_map *m, tmap_layout *out, char *why, size_t whylen)
{
    unsigned bits = tma_dtype_bits(m->data_type);
    int r = m->rank, nsp = r - 2;
    uint64_t row_bytes = ((uint64_t)m->channels_per_pixel * bits + 7) / 8;
    uint64_t stride = (row_bytes + 15) / 16 * 16;
    tma_map c = *m;
    c.global_dim[0] = m->channels_per_pixel;
    uint64_t img = stride;
    for (int i = 1; i < r - 1; i++)
        img *= m->global_dim[i];
    if (!img || img > MAX_BYTES) {
        snprintf(why, whylen, "an image of the map (%" PRIu64 " pixels of %" PRIu64 " bytes) is over the %u MiB "
                 "that --svg draws", stride ? img / stride : 0, stride, MAX_BYTES >> 20);
        return -1;
    }
    if (c.global_dim[r - 1] > MAX_BYTES / img)
        c.global_dim[r - 1] = MAX_BYTES / img;   /* enough images for any column */
    uint64_t total = stride;
    for (int i = 1; i < r; i++) {
        c.global_strides[i] = total;
        total *= c.global_dim[i];
    }
    mem_global *g = mem_global_new();
    uint8_t *smem = NULL;
    int rc = -1;
    if (!g) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    c.global_address = mem_global_alloc(g, total, 256, "tensor");
    uint8_t *gh = mem_global_host(g, c.global_address, total);
    tag_chunks(gh, total);
    tma_request rq;
    memset(&rq, 0, sizeof rq);
    rq.kind = TMA_LOAD;
    rq.mode = m->kind == TMA_MAP_IM2COL ? TMA_IM2COL : m->wide_mode == TMA_IM2COL_WIDE_W128 ? TMA_IM2COL_W128
                                                                                             : TMA_IM2COL_W;
    rq.dim = r;
    rq.map = &c;
    rq.n_im2col_off = m->kind == TMA_MAP_IM2COL ? nsp : 0;
    rq.smem_off = 1024;
    uint64_t room = 2048 + (uint64_t)(m->pixels_per_column ? m->pixels_per_column : 1) * (stride > 128 ? stride : 128);
    rq.smem_size = (uint32_t)room;
    smem = calloc(1, room);
    rq.smem = smem;
    uint32_t fp = 0;
    if (gh && smem) {
        fp = tma_smem_footprint(&rq);
        if (!fp) {   /* the base must lie in the bounding box: start at its lower corner */
            int nc = m->kind == TMA_MAP_IM2COL ? nsp : 1;
            for (int i = 0; i < nc; i++)
                rq.coords[1 + i] = m->lower_corner[i];
            fp = tma_smem_footprint(&rq);
        }
    }
    if (!gh || !smem || !fp) {
        if (gh && smem)
            tma_check(&rq, NULL, why, whylen);
        else
            snprintf(why, whylen, "out of memory");
        goto out;
    }
    if (tma_execute(&rq, g, NULL, why, whylen) != TMA_OK)
        goto out;
    uint32_t nchunks = (fp + 15) / 16, ncol = (uint32_t)(stride / 16);
    int64_t *src = calloc(nchunks ? nchunks : 1, sizeof *src);
    uint64_t *pix = malloc((nchunks ? nchunks : 1) * sizeof *pix);
    if (!src || !pix) {
        free(src);
        free(pix);
        snprintf(why, whylen, "out of memory");
        goto out;
    }
    uint32_t np = 0;
    for (uint32_t k = 0; k < nchunks; k++) {
        int64_t tg = chunk_tag(smem + 1024 + 16 * k, total);
        src[k] = tg;
        if (tg >= 0)
            pix[np++] = (uint64_t)tg / ncol;
    }
    qsort(pix, np, sizeof *pix, cmp_u64);
    uint32_t nrows = 0;
    for (uint32_t i = 0; i < np; i++)
        if (!nrows || pix[nrows - 1] != pix[i])
            pix[nrows++] = pix[i];
    uint64_t ng = (uint64_t)nrows * ncol;
    int64_t *dst = malloc((ng ? ng : 1) * sizeof *dst);
    if (!dst) {
        free(src);
        free(pix);
        snprintf(why, whylen, "out of memory");
        goto out;
    }
    for (uint64_t k = 0; k < ng; k++)
        dst[k] = -1;
    for (uint32_t k = 0; k < nchunks; k++) {
        if (src[k] < 0)
            continue;
        uint64_t p = (uint64_t)src[k] / ncol, col = (uint64_t)src[k] % ncol;
        uint64_t *at = bsearch(&p, pix, nrows, sizeof *pix, cmp_u64);
        src[k] = (int64_t)((uint64_t)(at - pix) * ncol + col);
        if (dst[src[k]] < 0)
            dst[src[k]] = k;
    }
    out->map = *m;
    out->row_bytes = (uint32_t)stride;
    out->ncol = ncol;
    out->nrows = nrows;
    out->box_bytes = ng * 16;
    out->smem_bytes = fp;
    out->nchunks = nchunks;
    out->src = src;
    out->dst = dst;
    out->pix = pix;
    for (int i = 0; i < r; i++)
        out->cdim[i] = c.global_dim[i];
    rc = 0;
out:
    free(smem);
    mem_global_free(g);
    return rc;
}

int tmap_svg_layout(const tma_map *m, tmap_layout *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    if (m->kind != TMA_MAP_TILED)
        return im2col_layout(m, out, why, whylen);
    unsigned bits = tma_dtype_bits(m->data_type);
    int r = m->rank;
    uint64_t row_bytes = ((uint64_t)m->box_dim[0] * bits + 7) / 8;
    uint32_t align = m->interleave == TMA_INTERLEAVE_32B ? 32 : 16;
    tma_map c = *m;
    uint64_t stride = (row_bytes + align - 1) / align * align, total = stride;
    for (int i = 0; i < r; i++)
        c.global_dim[i] = m->box_dim[i];
    for (int i = 1; i < r; i++) {
        c.global_strides[i] = total;
        total *= m->box_dim[i];
    }
    if (total > MAX_BYTES) {
        snprintf(why, whylen, "the box holds %" PRIu64 " bytes; --svg draws boxes up to %u MiB", total, MAX_BYTES >> 20);
        return -1;
    }
    mem_global *g = mem_global_new();
    if (!g) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    c.global_address = mem_global_alloc(g, total, 256, "box");
    uint8_t *gh = mem_global_host(g, c.global_address, total);
    tag_chunks(gh, total);
    tma_request rq;
    memset(&rq, 0, sizeof rq);
    rq.kind = TMA_LOAD;
    rq.mode = TMA_TILE;
    rq.dim = r;
    rq.map = &c;
    rq.smem_off = 1024;   /* 1024-aligned: the swizzle's phase starts at row 0 */
    /* room for every row padded to a 128-byte swizzle span */
    uint64_t room = 2048 + (total / stride) * (stride > 128 ? stride : 128);
    rq.smem_size = (uint32_t)room;
    uint8_t *smem = calloc(1, room);
    rq.smem = smem;
    uint32_t fp = smem ? tma_smem_footprint(&rq) : 0;
    int rc = -1;
    if (!gh || !smem || !fp) {
        if (!fp)
            tma_check(&rq, NULL, why, whylen);
        else
            snprintf(why, whylen, "out of memory");
        goto out;
    }
    rq.smem = smem;
    if (tma_execute(&rq, g, NULL, why, whylen) != TMA_OK) {
        tmap_layout_free(out);
        goto out;
    }
    out->row_bytes = (uint32_t)stride;
    out->box_bytes = total;
    out->ncol = (uint32_t)(stride / 16);
    out->nrows = (uint32_t)(total / stride);
    out->smem_bytes = fp;
    out->nchunks = (fp + 15) / 16;
    out->src = calloc(out->nchunks ? out->nchunks : 1, sizeof *out->src);
    if (!out->src) {
        snprintf(why, whylen, "out of memory");
        tmap_layout_free(out);
        goto out;
    }
    uint64_t ng = total / 16;
    out->dst = malloc((ng ? ng : 1) * sizeof *out->dst);
    if (!out->dst) {
        snprintf(why, whylen, "out of memory");
        tmap_layout_free(out);
        goto out;
    }
    for (uint64_t k = 0; k < ng; k++)
        out->dst[k] = -1;
    for (uint32_t k = 0; k < out->nchunks; k++) {
        int64_t tg = chunk_tag(smem + 1024 + 16 * k, total);
        out->src[k] = tg;
        if (tg >= 0 && out->dst[tg] < 0)
            out->dst[tg] = k;
    }
    out->map = *m;
    rc = 0;
out:
    free(smem);
    mem_global_free(g);
    return rc;
}

void tmap_layout_free(tmap_layout *l)
{
    free(l->src);
    free(l->dst);
    free(l->pix);
    l->src = NULL;
    l->dst = NULL;
    l->pix = NULL;
}

/* Global chunk gi's coordinates in words: "x 0-7, y 3" (box coordinates). */
static void chunk_coords(const tmap_layout *l, int64_t gi, char *buf, size_t n)
{
    const tma_map *m = &l->map;
    unsigned bits = tma_dtype_bits(m->data_type);
    uint64_t row = (uint64_t)gi / l->ncol, col = (uint64_t)gi % l->ncol;
    uint64_t e0 = col * 128 / bits, e1 = (col + 1) * 128 / bits - 1;
    if (l->pix) {   /* im2col: channels of pixel (w, h, d, n) */
        if (e1 >= m->channels_per_pixel)
            e1 = m->channels_per_pixel - 1;
        uint64_t p = row < l->nrows ? l->pix[row] : 0;
        int at = snprintf(buf, n, "c %" PRIu64 "-%" PRIu64 " of pixel", e0, e1);
        static const char *const sn[] = {"w", "h", "d"};
        for (int i = 1; i < m->rank && at > 0 && (size_t)at < n; i++) {
            at += snprintf(buf + at, n - (size_t)at, " %s %" PRIu64, i == m->rank - 1 ? "n" : sn[i - 1],
                           p % l->cdim[i]);
            p /= l->cdim[i];
        }
        return;
    }
    if (e1 >= m->box_dim[0])
        e1 = m->box_dim[0] - 1;
    int at = snprintf(buf, n, "x %" PRIu64 "-%" PRIu64, e0, e1);
    static const char dn[] = "xyzvw";
    for (int i = 1; i < m->rank && at > 0 && (size_t)at < n; i++) {
        at += snprintf(buf + at, n - (size_t)at, ", %c %" PRIu64, dn[i], row % m->box_dim[i]);
        row /= m->box_dim[i];
    }
}

int tmap_svg_write(const tmap_layout *l, const char *title, FILE *f)
{
    const tma_map *m = &l->map;
    uint32_t grows = l->nrows < MAX_ROWS ? l->nrows : MAX_ROWS;
    uint32_t srows = (l->smem_bytes + 127) / 128;
    uint32_t sdraw = srows < MAX_ROWS ? srows : MAX_ROWS;
    uint32_t gx = 70, gy = 110, gw = l->ncol * CW;
    uint32_t sx = gx + gw + 130, sy = gy;
    uint32_t width = sx + 8 * CW + 100, height = gy + (grows > sdraw ? grows : sdraw) * CH + 60;
    if (width < 1000)
        width = 1000;   /* room for the title line */
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
               "font-family=\"monospace\" font-size=\"11\">\n", width, height, width, height);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", width, height);
    char dims[160] = "", box[200] = "";
    int a = 0, b = 0;
    for (int i = 0; i < m->rank; i++) {
        a += snprintf(dims + a, sizeof dims - (size_t)a, "%s%" PRIu64, i ? "x" : "", m->global_dim[i]);
        if (!l->pix)
            b += snprintf(box + b, sizeof box - (size_t)b, "%s%u", i ? "x" : "", m->box_dim[i]);
    }
    if (l->pix) {
        b = snprintf(box, sizeof box, "%u pixels of %u channels (%u in the tensor), corners", m->pixels_per_column,
                     m->channels_per_pixel, l->nrows);
        int nc = m->kind == TMA_MAP_IM2COL ? m->rank - 2 : 1;
        for (int i = 0; i < nc && b > 0 && (size_t)b < sizeof box; i++)
            b += snprintf(box + b, sizeof box - (size_t)b, "%s%d", i ? "," : " [", m->lower_corner[i]);
        for (int i = 0; i < nc && b > 0 && (size_t)b < sizeof box; i++)
            b += snprintf(box + b, sizeof box - (size_t)b, "%s%d", i ? "," : "]..[", m->upper_corner[i]);
        if (b > 0 && (size_t)b < sizeof box)
            snprintf(box + b, sizeof box - (size_t)b, "]");
    }
    fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">%s: %s %u-D, %u-bit elements, global %s, %s %s, "
               "swizzle %s, interleave %s</text>\n",
            title, !l->pix ? "tiled" : m->kind == TMA_MAP_IM2COL ? "im2col" : "im2col::w", m->rank,
            tma_dtype_bits(m->data_type), dims, l->pix ? "column" : "box", box,
            m->swizzle < 8 ? swz_names[m->swizzle] : "?",
            m->interleave == TMA_INTERLEAVE_NONE ? "none" : m->interleave == TMA_INTERLEAVE_16B ? "16B" : "32B");
    fprintf(f, "<text x=\"10\" y=\"38\">colour = the chunk's 16-byte column in its box row (hue) and the row mod 8 "
               "(shade); hover a chunk for its coordinates</text>\n");
    /* the box inside the global tensor (dims 0 and 1), to scale */
    double gd0 = (double)m->global_dim[0], gd1 = m->rank > 1 ? (double)m->global_dim[1] : 1;
    double sc = 40.0 / (gd0 > gd1 ? gd0 : gd1);
    fprintf(f, "<g id=\"tensor\"><rect x=\"%u\" y=\"46\" width=\"%.1f\" height=\"%.1f\" fill=\"#eeeeee\" "
               "stroke=\"#888888\"><title>global tensor %s</title></rect>\n",
            width - 60, gd0 * sc, gd1 * sc, dims);
    fprintf(f, "<rect x=\"%u\" y=\"46\" width=\"%.1f\" height=\"%.1f\" fill=\"#cc4444\"><title>the box %s at "
               "coordinates 0</title></rect></g>\n",
            width - 60, fmin((l->pix ? m->channels_per_pixel : m->box_dim[0]) * sc, gd0 * sc),
            fmin((l->pix ? l->nrows : m->rank > 1 ? m->box_dim[1] : 1) * sc, gd1 * sc), box);
    if (l->pix)
        fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"13\">global: the pixels gathered, in load order, %u B "
                   "a row (base at the lowest coordinates, offsets 0)</text>\n", gx, gy - 40, l->row_bytes);
    else
        fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"13\">global: the box, %u B a row</text>\n", gx, gy - 40,
                l->row_bytes);
    fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"13\">shared memory, 128 B a row (from a 1024-aligned "
               "address)</text>\n", sx, sy - 40);
    for (uint32_t c = 0; c < l->ncol && c < 64; c++)
        fprintf(f, "<text x=\"%u\" y=\"%u\">%u</text>\n", gx + c * CW + 4, gy - 6, c * 16);
    for (uint32_t c = 0; c < 8; c++)
        fprintf(f, "<text x=\"%u\" y=\"%u\">%u</text>\n", sx + c * CW + 4, sy - 6, c * 16);
    fprintf(f, "<g id=\"global\">\n");
    for (uint32_t r = 0; r < grows; r++) {
        fprintf(f, "<text x=\"%u\" y=\"%u\">row %u</text>\n", gx - 60, gy + r * CH + 12, r);
        for (uint32_t c = 0; c < l->ncol; c++) {
            uint8_t rgb[3];
            char co[96];
            tmap_svg_color(r, c, l->ncol, rgb);
            chunk_coords(l, (int64_t)r * l->ncol + c, co, sizeof co);
            int64_t at = l->dst[(uint64_t)r * l->ncol + c];
            char lands[48] = "does not land (a traversal stride skips it)";
            if (at >= 0)
                snprintf(lands, sizeof lands, "lands at smem +0x%" PRIx64, (uint64_t)at * 16);
            fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"#%02x%02x%02x\" stroke=\"#ffffff\">"
                       "<title>global chunk row %u col %u: %s; %s</title></rect>\n",
                    gx + c * CW, gy + r * CH, CW, CH, rgb[0], rgb[1], rgb[2], r, c, co, lands);
        }
    }
    fprintf(f, "</g>\n<g id=\"smem\">\n");
    for (uint32_t r = 0; r < sdraw; r++) {
        fprintf(f, "<text x=\"%u\" y=\"%u\">+0x%x</text>\n", sx - 58, sy + r * CH + 12, r * 128);
        for (uint32_t c = 0; c < 8; c++) {
            uint32_t k = r * 8 + c;
            if (k >= l->nchunks)
                break;
            int64_t gi = l->src[k];
            if (gi < 0) {   /* untouched, or bytes of several chunks (sub-byte unpacking) */
                fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\" stroke=\"#dddddd\">"
                           "<title>smem +0x%x: %s</title></rect>\n",
                        sx + c * CW, sy + r * CH, CW, CH, gi == -1 ? "#f4f4f4" : "#bbbbbb", k * 16,
                        gi != -1 ? "bytes of several global chunks"
                        : l->pix ? "filled: a pixel outside the tensor (padding)" : "not written by the box");
                continue;
            }
            uint8_t rgb[3];
            char co[96];
            uint32_t grow = (uint32_t)(gi / l->ncol), gcol = (uint32_t)(gi % l->ncol);
            tmap_svg_color(grow, gcol, l->ncol, rgb);
            chunk_coords(l, gi, co, sizeof co);
            fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"#%02x%02x%02x\" stroke=\"#ffffff\">"
                       "<title>smem +0x%x: global chunk row %u col %u (%s)</title></rect>\n",
                    sx + c * CW, sy + r * CH, CW, CH, rgb[0], rgb[1], rgb[2], k * 16, grow, gcol, co);
        }
    }
    fprintf(f, "</g>\n");
    if (grows < l->nrows || sdraw < srows)
        fprintf(f, "<text x=\"10\" y=\"%u\">(first %u rows drawn)</text>\n", height - 10, MAX_ROWS);
    fprintf(f, "</svg>\n");
    return ferror(f) ? -1 : 0;
}

int tmap_svg_file(const tma_map *m, const char *title, const char *path, char *why, size_t whylen)
{
    tmap_layout l;
    if (tmap_svg_layout(m, &l, why, whylen))
        return -1;
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        tmap_layout_free(&l);
        return -1;
    }
    int rc = tmap_svg_write(&l, title, f);
    if (fclose(f) || rc) {
        snprintf(why, whylen, "%s: write error", path);
        rc = -1;
    }
    tmap_layout_free(&l);
    return rc;
}
