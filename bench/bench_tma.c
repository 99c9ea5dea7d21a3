/* bench_tma.c — throughput of the TMA engine next to memcpy of the same bytes.
 *
 * Cases (each a load of one box into a shared-memory buffer, repeated over
 * a tensor much larger than the box so rows come from different places):
 *   tile2d_f16_64x64_sw128   2D tile, 64x64 f16 box, 128B swizzle (8 KiB)
 *   tile2d_f16_64x64_nosw    same box, no swizzle: rows land contiguously
 *   im2col_f16_c64_p64       4D NHWC im2col, 64 channels x 64 pixels, 128B swizzle
 * Each line: name, bytes per op, engine bytes/s, memcpy bytes/s of the same
 * byte count (one contiguous copy), and engine / memcpy.
 *   bench_tma [seconds-per-case]   (default 0.3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memory/mem.h"
#include "tma/tma.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile uint8_t sink;

typedef struct bcase {
    const char *name;
    tma_map m;
    int mode, dim;
    int32_t c[5];
    int ncoords_vary;      /* vary coordinate 1 across iterations */
    int32_t vary_max;
} bcase;

static void run(const bcase *bc, mem_global *g, uint8_t *smem, double secs)
{
    tma_request r;
    memset(&r, 0, sizeof r);
    r.kind = TMA_LOAD;
    r.mode = bc->mode;
    r.dim = bc->dim;
    r.map = &bc->m;
    r.smem = smem;
    r.smem_size = 256 * 1024;
    r.smem_off = 0;
    if (bc->mode == TMA_IM2COL) r.n_im2col_off = bc->dim - 2;
    memcpy(r.coords, bc->c, sizeof r.coords);
    uint32_t tx = 0;
    char why[256];
    if (tma_execute(&r, g, &tx, why, sizeof why)) {
        printf("%s: engine fault: %s\n", bc->name, why);
        return;
    }
    /* engine */
    long iters = 0;
    double t0 = now(), t;
    do {
        for (int k = 0; k < 64; k++) {
            r.coords[1] = bc->c[1] + (int32_t)((iters + k) % (uint32_t)bc->vary_max);
            tma_execute(&r, g, &tx, why, sizeof why);
        }
        iters += 64;
        t = now() - t0;
    } while (t < secs);
    double eng = (double)tx * iters / t;
    sink ^= smem[iters % tx];
    /* memcpy of the same bytes from the same tensor */
    const mem_alloc *al = mem_global_find(g, bc->m.global_address);
    size_t span = al->size - tx;
    long mit = 0;
    t0 = now();
    do {
        for (int k = 0; k < 64; k++)
            memcpy(smem, al->host + ((size_t)(mit + k) * 4096u) % span, tx);
        mit += 64;
        t = now() - t0;
    } while (t < secs);
    double mc = (double)tx * mit / t;
    sink ^= smem[mit % tx];
    printf("%-26s bytes/op %6u  engine %8.3f GB/s  memcpy %8.3f GB/s  ratio %.3f\n", bc->name, tx,
           eng / 1e9, mc / 1e9, eng / mc);
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.3;
    mem_global *g = mem_global_new();
    /* 2D f16 tensor 4096 x 1024 (8 MiB) */
    uint64_t t2 = mem_global_alloc(g, 4096ull * 1024 * 2, 256, "t2d");
    uint8_t *h2 = mem_global_host(g, t2, 4096ull * 1024 * 2);
    for (size_t i = 0; i < 4096ull * 1024 * 2; i++) h2[i] = (uint8_t)(i * 131u + 7u);
    /* NHWC f16 tensor: C=64, W=32, H=32, N=8 (1 MiB) */
    uint64_t t4 = mem_global_alloc(g, 64ull * 32 * 32 * 8 * 2, 256, "t4d");
    uint8_t *smem = aligned_alloc(1024, 256 * 1024);
    if (!g || !t2 || !t4 || !smem) return 1;

    bcase cs[3];
    memset(cs, 0, sizeof cs);
    for (int i = 0; i < 2; i++) {
        tma_map *m = &cs[i].m;
        m->kind = TMA_MAP_TILED; m->data_type = TMA_DT_FLOAT16; m->rank = 2;
        m->swizzle = i == 0 ? TMA_SWIZZLE_128B : TMA_SWIZZLE_NONE;
        m->global_address = t2;
        m->global_dim[0] = 1024; m->global_dim[1] = 4096;
        m->global_strides[0] = 2; m->global_strides[1] = 2048;
        m->element_strides[0] = m->element_strides[1] = 1;
        m->box_dim[0] = i == 0 ? 64 : 64; m->box_dim[1] = 64;
        cs[i].mode = TMA_TILE; cs[i].dim = 2;
        cs[i].c[0] = 128; cs[i].c[1] = 0; cs[i].vary_max = 4096 - 64;
    }
    cs[0].name = "tile2d_f16_64x64_sw128";
    cs[1].name = "tile2d_f16_64x64_nosw";
    {
        tma_map *m = &cs[2].m;
        m->kind = TMA_MAP_IM2COL; m->data_type = TMA_DT_FLOAT16; m->rank = 4;
        m->swizzle = TMA_SWIZZLE_128B; m->global_address = t4;
        m->global_dim[0] = 64; m->global_dim[1] = 32; m->global_dim[2] = 32; m->global_dim[3] = 8;
        m->global_strides[0] = 2; m->global_strides[1] = 128; m->global_strides[2] = 128 * 32;
        m->global_strides[3] = 128 * 32 * 32;
        for (int d = 0; d < 4; d++) m->element_strides[d] = 1;
        m->lower_corner[0] = m->lower_corner[1] = -1;
        m->upper_corner[0] = m->upper_corner[1] = -1;
        m->channels_per_pixel = 64; m->pixels_per_column = 64;
        cs[2].name = "im2col_f16_c64_p64";
        cs[2].mode = TMA_IM2COL; cs[2].dim = 4;
        cs[2].c[0] = 0; cs[2].c[1] = 0; cs[2].c[2] = 3; cs[2].c[3] = 1; cs[2].vary_max = 30;
    }
    for (int i = 0; i < 3; i++) run(&cs[i], g, smem, secs);
    free(smem);
    mem_global_free(g);
    return 0;
}
