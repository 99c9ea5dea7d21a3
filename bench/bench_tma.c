/* bench_tma.c — throughput of the TMA engine next to memcpy of the same bytes.
 *
 * Cases (each a load of one 8 KiB box into a shared-memory buffer through
 * tma_execute(), the call the interpreter makes when a cp.async.bulk.tensor
 * lands: plan, checks, bounds, swizzle and the smem writes all included):
 *   tile2d_f16_64x64_sw128   2D tile, 64x64 f16 box, 128B swizzle, from a
 *                            1024 x 4096 f16 tensor (2 KiB row pitch)
 *   tile2d_f16_64x64_nosw    same box, no swizzle: rows land contiguously
 *   im2col_f16_c64_p64       4D NHWC im2col, 64 channels x 64 pixels, 128B swizzle
 *
 * Fairness.  Successive operations slide the box by one row (tile: dim 1;
 * im2col: one W step), so each op reads 128 fresh bytes and re-reads the
 * rest, and over a cycle the engine touches `vary_max` + 63 rows of 128 B
 * (tile: ~512 KiB spread over the 8 MiB tensor; im2col: ~12 KiB).  The
 * memcpy baseline copies the same byte count as one contiguous memcpy into
 * the same smem buffer, its source sliding by the same 128 B per op over a
 * region of the same size (same fresh bytes per op, same working set).
 * "rows" is a second reference: memcpy of exactly the box's rows from the
 * same addresses (no swizzle, no checks) — the ceiling the layout allows.
 *
 * The three measurements alternate in short rounds and each reports its
 * best round, so a neighbour's burst on a shared machine hits all alike.
 * After timing, the engine's last box is compared with a reference built
 * here element by element (a fast wrong answer is a failure, exit 1).
 *
 *   bench_tma [seconds-per-case [rounds]]   (default 0.3 s, 6 rounds)
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
    int32_t vary_max;      /* coordinate 1 runs c[1] .. c[1] + vary_max - 1 */
    uint32_t mstep;        /* fresh bytes per op (one row / pixel) */
} bcase;

#define NROWS 64
#define ROWB 128

/* Global byte offset (from the tensor base) of row i of the box whose
 * coordinate 1 is c1, or -1 for an out-of-bounds row. */
static int64_t row_src(const bcase *bc, int32_t c1, int i)
{
    const tma_map *m = &bc->m;
    if (bc->mode == TMA_TILE)
        return (int64_t)bc->c[0] * 2 + (int64_t)(c1 + i) * (int64_t)m->global_strides[1];
    /* im2col pixel walk: W over [lower, dim-1+upper], wrapping into H */
    int64_t lo = m->lower_corner[0], hi = (int64_t)m->global_dim[1] - 1 + m->upper_corner[0];
    int64_t w = c1, h = bc->c[2], n = bc->c[3];
    for (int k = 0; k < i; k++)
        if (++w > hi) { w = lo; h++; }
    if (w < 0 || w >= (int64_t)m->global_dim[1] || h < 0 || h >= (int64_t)m->global_dim[2]) return -1;
    return (int64_t)bc->c[0] * 2 + w * (int64_t)m->global_strides[1] + h * (int64_t)m->global_strides[2] +
           n * (int64_t)m->global_strides[3];
}

/* The "rows" reference for im2col: the same pixel walk as row_src, one
 * memcpy (or zero fill) per pixel. */
static void rows_im2col(const bcase *bc, const uint8_t *host, uint8_t *smem, int32_t c1)
{
    const tma_map *m = &bc->m;
    int64_t lo = m->lower_corner[0], hi = (int64_t)m->global_dim[1] - 1 + m->upper_corner[0];
    int64_t w = c1, h = bc->c[2], W = (int64_t)m->global_dim[1], H = (int64_t)m->global_dim[2];
    const uint8_t *img = host + (size_t)bc->c[0] * 2 + (size_t)bc->c[3] * m->global_strides[3];
    for (int i = 0; i < NROWS; i++) {
        if (w < 0 || w >= W || h < 0 || h >= H) memset(smem + i * ROWB, 0, ROWB);
        else memcpy(smem + i * ROWB, img + w * (int64_t)m->global_strides[1] + h * (int64_t)m->global_strides[2], ROWB);
        if (++w > hi) { w = lo; h++; }
    }
}

/* The engine's box for coordinate 1 = c1, checked against the layout the
 * PTX ISA gives (128B swizzle: 16-byte chunk j of row r at j ^ (r & 7)). */
static int verify(const bcase *bc, const uint8_t *host, const uint8_t *smem, int32_t c1)
{
    int sw = bc->m.swizzle == TMA_SWIZZLE_128B;
    for (int i = 0; i < NROWS; i++) {
        int64_t s = row_src(bc, c1, i);
        for (int j = 0; j < ROWB; j++) {
            uint8_t want = s < 0 ? 0 : host[s + j];
            int pj = sw ? (((j >> 4) ^ (i & 7)) << 4) | (j & 15) : j;
            if (smem[i * ROWB + pj] != want) {
                printf("FAIL bench/%s: row %d byte %d: engine %02x, want %02x\n", bc->name, i, j,
                       smem[i * ROWB + pj], want);
                return 1;
            }
        }
    }
    return 0;
}

static int run(const bcase *bc, mem_global *g, uint8_t *smem, double secs, int rounds)
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
    if (tma_execute(&r, g, &tx, why, sizeof why) || tx != NROWS * ROWB) {
        printf("FAIL bench/%s: engine fault: %s\n", bc->name, why);
        return 1;
    }
    const mem_alloc *al = mem_global_find(g, bc->m.global_address);
    const uint8_t *host = al->host + (bc->m.global_address - al->base);
    const uint8_t *msrc = host + (size_t)bc->c[0] * 2;  /* memcpy region: tx + vary_max * mstep */
    if ((size_t)bc->c[0] * 2 + tx + (size_t)bc->vary_max * bc->mstep > al->size) return 1;
    double best_e = 0, best_m = 0, best_r = 0, slice = secs / rounds;
    long e_it = 0, m_it = 0, r_it = 0;
    for (int round = 0; round < rounds; round++) {
        /* engine */
        long it = 0;
        double t0 = now(), t;
        do {
            for (int k = 0; k < 64; k++, e_it++) {
                r.coords[1] = bc->c[1] + (int32_t)(e_it % bc->vary_max);
                tma_execute(&r, g, &tx, why, sizeof why);
            }
            it += 64;
            t = now() - t0;
        } while (t < slice);
        if (tx * (double)it / t > best_e) best_e = tx * (double)it / t;
        sink ^= smem[it % tx];
        /* memcpy: one contiguous copy of the same byte count */
        it = 0;
        t0 = now();
        do {
            for (int k = 0; k < 64; k++, m_it++)
                memcpy(smem, msrc + (size_t)(m_it % bc->vary_max) * bc->mstep, tx);
            it += 64;
            t = now() - t0;
        } while (t < slice);
        if (tx * (double)it / t > best_m) best_m = tx * (double)it / t;
        sink ^= smem[it % tx];
        /* rows: the box's own rows, memcpy each (row offsets precomputed
         * outside the timed loop for the tile; im2col walks them here) */
        it = 0;
        t0 = now();
        do {
            for (int k = 0; k < 64; k++, r_it++) {
                int32_t c1 = bc->c[1] + (int32_t)(r_it % bc->vary_max);
                if (bc->mode == TMA_TILE) {
                    const uint8_t *s = host + row_src(bc, c1, 0);
                    size_t pitch = (size_t)bc->m.global_strides[1];
                    for (int i = 0; i < NROWS; i++) memcpy(smem + i * ROWB, s + i * pitch, ROWB);
                } else {
                    rows_im2col(bc, host, smem, c1);
                }
            }
            it += 64;
            t = now() - t0;
        } while (t < slice);
        if (tx * (double)it / t > best_r) best_r = tx * (double)it / t;
        sink ^= smem[it % tx];
    }
    /* the engine's answer for the last coordinate it ran */
    int32_t c1 = bc->c[1] + (int32_t)((e_it - 1) % bc->vary_max);
    r.coords[1] = c1;
    memset(smem, 0xAB, 2 * tx);
    tma_execute(&r, g, &tx, why, sizeof why);
    int bad = verify(bc, host, smem, c1);
    printf("%-24s bytes/op %5u  engine %7.2f GB/s  memcpy %7.2f GB/s  ratio %.3f   "
           "(rows %6.2f GB/s, engine/rows %.2f)\n",
           bc->name, tx, best_e / 1e9, best_m / 1e9, best_e / best_m, best_r / 1e9, best_e / best_r);
    return bad;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.3;
    int rounds = argc > 2 ? atoi(argv[2]) : 6;
    if (secs <= 0) secs = 0.3;
    if (rounds < 1) rounds = 1;
    mem_global *g = mem_global_new();
    /* 2D f16 tensor 4096 x 1024 (8 MiB) */
    uint64_t t2 = mem_global_alloc(g, 4096ull * 1024 * 2, 256, "t2d");
    uint8_t *h2 = mem_global_host(g, t2, 4096ull * 1024 * 2);
    for (size_t i = 0; i < 4096ull * 1024 * 2; i++) h2[i] = (uint8_t)(i * 131u + 7u);
    /* NHWC f16 tensor: C=64, W=32, H=32, N=8 (1 MiB) */
    uint64_t t4 = mem_global_alloc(g, 64ull * 32 * 32 * 8 * 2, 256, "t4d");
    uint8_t *h4 = mem_global_host(g, t4, 64ull * 32 * 32 * 8 * 2);
    for (size_t i = 0; i < 64ull * 32 * 32 * 8 * 2; i++) h4[i] = (uint8_t)(i * 61u + 3u);
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
        m->box_dim[0] = 64; m->box_dim[1] = 64;
        cs[i].mode = TMA_TILE; cs[i].dim = 2;
        cs[i].c[0] = 128; cs[i].c[1] = 0; cs[i].vary_max = 4096 - 64;
        cs[i].mstep = ROWB;
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
        /* filter base W = 0 .. 29, H = 3, N = 1: the 64 pixels run over
         * three W rows of the box [-1, 30], the W = -1 pixels OOB-filled */
        cs[2].c[0] = 0; cs[2].c[1] = 0; cs[2].c[2] = 3; cs[2].c[3] = 1; cs[2].vary_max = 30;
        cs[2].mstep = ROWB;
    }
    int bad = 0;
    for (int i = 0; i < 3; i++) bad |= run(&cs[i], g, smem, secs, rounds);
    free(smem);
    mem_global_free(g);
    return bad;
}
