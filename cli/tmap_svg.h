/* tmap_svg.h — pictures of a tensor map's box and its shared-memory
 * layout (cli/tmap_svg.c), placed by the TMA engine itself. */
#ifndef PTXI_CLI_TMAP_SVG_H
#define PTXI_CLI_TMAP_SVG_H

#include <stdint.h>
#include <stdio.h>
#include "tma/tma.h"

typedef struct tmap_layout {
    tma_map map;
    uint32_t row_bytes;    /* a box row in the compact global tensor (16-byte chunks: ncol) */
    uint32_t ncol, nrows;
    uint64_t box_bytes;
    uint32_t smem_bytes;   /* what the load touches from its 1024-aligned destination */
    uint32_t nchunks;      /* smem_bytes / 16 */
    int64_t *src;          /* per smem chunk: the global chunk (row * ncol + col) that landed,
                              -1 none, -2 bytes of several chunks */
    int64_t *dst;          /* per global chunk: the smem chunk it landed in, -1 none */
    /* im2col maps: "global rows" are the pixels the load gathered, in load
     * order; pix[r] is row r's pixel as an index into the compact tensor of
     * dims cdim (channels_per_pixel, then the map's W, H, D, N) */
    uint64_t *pix;
    uint64_t cdim[5];
} tmap_layout;

/* Load the box with the TMA engine and record where each chunk lands (an
 * im2col map: one load at the lowest coordinates the map accepts, offsets
 * 0).  Returns 0, or -1 with why. */
int tmap_svg_layout(const tma_map *m, tmap_layout *out, char *why, size_t whylen);
void tmap_layout_free(tmap_layout *l);
/* The fill colour of global chunk (row, col) in the pictures. */
void tmap_svg_color(uint32_t row, uint32_t col, uint32_t ncol, uint8_t rgb[3]);
int tmap_svg_write(const tmap_layout *l, const char *title, FILE *f);
/* Layout and picture into path; 0, or -1 with why. */
int tmap_svg_file(const tma_map *m, const char *title, const char *path, char *why, size_t whylen);

#endif
