/* heatmap.h — a buffer drawn as a heat map (launch/heatmap.c), for
 * `--dump NAME:DTYPE:SHAPE=FILE.svg|.png`. */
#ifndef PTXI_LAUNCH_HEATMAP_H
#define PTXI_LAUNCH_HEATMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct launch_heatmap_in {
    const char *title;
    const char *dtype;        /* u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64 */
    const uint64_t *shape;    /* outermost first; ndim 0: one row */
    int ndim;
    const uint8_t *data;
    uint64_t bytes;
} launch_heatmap_in;

unsigned launch_heatmap_dtype_size(const char *dtype);   /* 0: not a dtype */
/* The colour of v on the ramp from lo to hi (NaN, infinities: grey). */
void launch_heatmap_color(double v, double lo, double hi, uint8_t rgb[3]);
/* 0, or -1 with a message in err. */
int launch_heatmap_write_svg(FILE *f, const launch_heatmap_in *in, char *err, size_t n);
int launch_heatmap_write_png(FILE *f, const launch_heatmap_in *in, char *err, size_t n);

#endif
