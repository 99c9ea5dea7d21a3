/* test_tma_land.c — the order in which --complete=random lands a load
 * (tma/land.c) against what the H100 showed (tests/hw/tma_order/measured.txt).
 *
 * The GPU measurement: 15 warps poll 15 random 512-byte regions of a load's
 * destination and note when each 16-byte chunk first holds its data.  Here
 * the same 64 KiB load (a 2D FLOAT32 box of 256 rows x 256 bytes, as on the
 * GPU) is ordered by tma_land_order for 1200 seeds and sampled the same way
 * (15 random regions; a chunk "lands before" another when its unit comes
 * earlier in the landing order).  Checks:
 *   - every order is a permutation of the load's chunks, a seed always
 *     gives the same order, and a unit is the two chunks of one 32-byte
 *     global sector (the GPU never landed half a sector of these loads);
 *   - each kind of order is no more shuffled than the GPU ever was, at
 *     distances of 1, 4, 16 and 64 rows (the fraction of chunk pairs that
 *     land in reverse order; a margin of 0.08: the GPU's figure counts only
 *     pairs seen landing apart, a poll takes ~50 cycles), the most
 *     shuffled kind reaches 3/4 of the GPU's most shuffled configuration
 *     at each distance, the most orderly one is at most as shuffled as the
 *     GPU's most orderly one, and some seed swaps chunks at least 3/4 as
 *     far apart as the GPU's farthest swap;
 *   - with 128B swizzle, a unit's two chunks share one 32-byte block of
 *     shared memory; rows out of phase with the sectors (the GPU split
 *     sectors there: t2d_off16, t2d_row48) land chunk by chunk; a plain
 *     copy pairs chunks only within a sector of both memories. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "memory/mem.h"
#include "tma/tma.h"
#include "tests/unit/check.h"

#define NCH 4096            /* chunks of the 64 KiB box */
#define SEEDS 1200
static const int DIST[4] = {1, 4, 16, 64};

static uint32_t eng[NCH], out[NCH], uend[NCH], pos[NCH];
static uint64_t key[NCH];
static uint8_t seen[NCH];

/* GPU figures: per distance the least and most shuffled configuration of a
 * 256 x 256-byte box (t2d_*, mc2d_*), and the farthest swap (rows). */
static double hw_min[4] = {9, 9, 9, 9}, hw_max[4];
static int hw_far, hw_lines, hw_split_out_of_phase;

static void read_measured(void)
{
    FILE *f = fopen("tests/hw/tma_order/measured.txt", "r");
    if (!f) {
        printf("FAIL measured: cannot open tests/hw/tma_order/measured.txt\n");
        check_failures++;
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char rnd[16], name[128], v[4][16];
        int rows, rb, phase, runs, far, split, steps;
        if (line[0] == '#' || sscanf(line, "%15s %127s %d %d %d %d %15s %15s %15s %15s %d %d %d", rnd, name, &rows, &rb,
                                     &phase, &runs, v[0], v[1], v[2], v[3], &far, &split, &steps) != 13)
            continue;
        bool in_phase = rb && rb % 32 == 0 && phase == 0; /* rows on sectors in global and shared memory */
        if (in_phase && split) {
            printf("FAIL measured: %s %s split a 32-byte sector on the GPU (%d of %d steps); "
                   "ptxi's units assume it never does\n", rnd, name, split, steps);
            check_failures++;
        }
        if (rb && !in_phase)
            hw_split_out_of_phase += split;
        if (rows != 256 || rb != 256 || phase || runs < 100)
            continue;
        hw_lines++;
        for (int k = 0; k < 4; k++) {
            if (v[k][0] == '-')
                continue;
            double x = atof(v[k]);
            if (x < hw_min[k]) hw_min[k] = x;
            if (x > hw_max[k]) hw_max[k] = x;
        }
        if (far > hw_far) hw_far = far;
    }
    fclose(f);
}

static tma_map map2d(uint64_t ga, uint32_t box0, int sw)
{
    tma_map m;
    memset(&m, 0, sizeof m);
    m.kind = TMA_MAP_TILED; m.data_type = TMA_DT_FLOAT32; m.rank = 2;
    m.interleave = TMA_INTERLEAVE_NONE; m.swizzle = (uint8_t)sw;
    m.global_address = ga;
    m.global_dim[0] = 4096; m.global_dim[1] = 4096;
    m.global_strides[0] = 4; m.global_strides[1] = 16384;
    m.box_dim[0] = box0; m.box_dim[1] = 256;
    m.element_strides[0] = m.element_strides[1] = 1;
    return m;
}

static tma_request req2d(const tma_map *m, int c0, int c1)
{
    static uint8_t smem[65536];
    tma_request r;
    memset(&r, 0, sizeof r);
    r.kind = TMA_LOAD; r.mode = TMA_TILE; r.dim = 2; r.map = m;
    r.coords[0] = c0; r.coords[1] = c1;
    r.smem = smem; r.smem_size = sizeof smem; r.smem_off = 0;
    return r;
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

int main(void)
{
    read_measured();
    CHECK("measured: tests/hw/tma_order/measured.txt has at least 4 configurations of the 256 x 256-byte box",
          hw_lines >= 4);
    mem_global *g = mem_global_new();
    uint64_t ga = mem_global_alloc(g, 64u << 20, 256, "t");
    tma_map m = map2d(ga, 64, TMA_SWIZZLE_NONE);
    tma_request r = req2d(&m, 64, 256);
    uint32_t n = tma_load_chunks(&r, eng, NCH), per_row = 0;
    int lead = tma_load_sectors(&r, &per_row);
    CHECK_EQ_U64("2D 256 x 256 B: 4096 chunks", n, NCH);
    CHECK("2D 256 x 256 B: rows of 16 chunks, each starting on a 32-byte sector", per_row == 16 && lead == 0);

    long inv[4][4] = {{0}}, tot[4][4] = {{0}};
    int far = 0, bad_perm = 0, bad_unit = 0, bad_repeat = 0, kinds[4] = {0};
    uint64_t rs = 12345;
    for (int seed = 1; seed <= SEEDS; seed++) {
        int kind = 0;
        uint32_t nu = tma_land_order(eng, n, per_row, lead, (uint64_t)seed * 0x9E3779B97F4A7C15ull, out, uend, key,
                                     &kind);
        kinds[kind]++;
        memset(seen, 0, sizeof seen);
        for (uint32_t k = 0; k < n; k++)
            if (out[k] % 16 || out[k] / 16 >= NCH || seen[out[k] / 16]++)
                bad_perm++;
        uint32_t st = 0;
        for (uint32_t u = 0; u < nu; u++) {
            uint32_t len = uend[u] - st;
            if (len != 2 || out[st] % 32 || out[st + 1] != out[st] + 16)
                bad_unit++;
            for (uint32_t k = st; k < uend[u]; k++)
                pos[out[k] / 16] = u;
            st = uend[u];
        }
        if (st != n)
            bad_unit++;
        if (seed % 50 == 0) {
            static uint32_t out2[NCH], uend2[NCH];
            uint32_t nu2 = tma_land_order(eng, n, per_row, lead, (uint64_t)seed * 0x9E3779B97F4A7C15ull, out2, uend2,
                                          key, NULL);
            if (nu2 != nu || memcmp(out, out2, sizeof out) || memcmp(uend, uend2, nu * sizeof *uend))
                bad_repeat++;
        }
        for (uint32_t a = 0; a < NCH; a += 16)
            for (uint32_t b = a + 16; b < NCH; b += 16)
                if (pos[b] < pos[a] && (int)((b - a) / 16) > far)
                    far = (int)((b - a) / 16);
        /* 15 random 512-byte regions, as the polling warps saw them */
        uint32_t reg[15];
        for (int w = 0; w < 15; w++) {
            for (;;) {
                uint32_t v = (uint32_t)(lcg(&rs) % (NCH / 32)), dup = 0;
                for (int q = 0; q < w; q++) dup |= reg[q] == v;
                if (!dup) { reg[w] = v; break; }
            }
        }
        for (int i = 0; i < 15 * 32; i++)
            for (int j = 0; j < 15 * 32; j++) {
                uint32_t a = reg[i / 32] * 32 + (uint32_t)i % 32, b = reg[j / 32] * 32 + (uint32_t)j % 32;
                if (b <= a)
                    continue;
                uint32_t d = (b - a) * 16 / 256;
                for (int k = 0; k < 4; k++)
                    if (d == (uint32_t)DIST[k]) {
                        tot[kind][k]++;
                        inv[kind][k] += pos[b] < pos[a];
                    }
            }
    }
    CHECK("random order: every order is a permutation of the load's chunks", !bad_perm);
    CHECK("random order: every unit is the two chunks of one 32-byte sector, all land", !bad_unit);
    CHECK("random order: a seed gives the same order again", !bad_repeat);
    CHECK("random order: all four kinds of order are drawn", kinds[0] && kinds[1] && kinds[2] && kinds[3]);

    char what[300];
    double most[4] = {0}, least[4] = {9, 9, 9, 9};
    int over = 0;
    for (int kd = 0; kd < 4; kd++)
        for (int k = 0; k < 4; k++) {
            if (!tot[kd][k])
                continue;
            double f = (double)inv[kd][k] / (double)tot[kd][k];
            if (f > most[k]) most[k] = f;
            if (f < least[k]) least[k] = f;
            if (f > hw_max[k] + 0.08 && !over++)
                snprintf(what, sizeof what, "kind %d reverses %.3f of the pairs %d rows apart, the GPU at most %.3f",
                         kd, f, DIST[k], hw_max[k]);
        }
    if (over) printf("FAIL %s\n", what), check_failures++;
    CHECK("random order: no kind is more shuffled than the GPU was (distances 1, 4, 16, 64 rows)", !over);
    for (int k = 0; k < 4; k++) {
        snprintf(what, sizeof what,
                 "random order: at %d rows the most shuffled kind (%.3f) reaches 3/4 of the GPU's most shuffled (%.3f)",
                 DIST[k], most[k], hw_max[k]);
        CHECK(what, most[k] >= 0.75 * hw_max[k]);
    }
    snprintf(what, sizeof what, "random order: the most orderly kind (%.3f at 1 row) is as orderly as the GPU's most "
             "orderly run (%.3f)", least[0], hw_min[0]);
    CHECK(what, least[0] <= hw_min[0]);
    snprintf(what, sizeof what, "random order: chunks %d rows apart swap (the GPU: %d rows)", far, hw_far);
    CHECK(what, far * 4 >= hw_far * 3);

    /* 128B swizzle: the pair of a sector shares a 32-byte block of smem */
    tma_map ms = map2d(ga, 32, TMA_SWIZZLE_128B);
    tma_request rsw = req2d(&ms, 32, 0);
    n = tma_load_chunks(&rsw, eng, NCH);
    lead = tma_load_sectors(&rsw, &per_row);
    int bad_sw = 0;
    for (int seed = 1; seed <= 40; seed++) {
        uint32_t nu = tma_land_order(eng, n, per_row, lead, (uint64_t)seed, out, uend, key, NULL), st = 0;
        for (uint32_t u = 0; u < nu; st = uend[u++])
            if (uend[u] - st != 2 || out[st] / 32 != out[st + 1] / 32 || out[st] == out[st + 1])
                bad_sw++;
    }
    CHECK("128B swizzle: 2048 chunks, rows of 8 on sectors", n == 2048 && per_row == 8 && lead == 0);
    CHECK("128B swizzle: each unit is one 32-byte block of shared memory", !bad_sw);

    /* rows out of phase with the sectors (16 bytes into one, or 48 bytes
     * apart in shared memory): the GPU split sectors there */
    CHECK("measured: the GPU split sectors of rows out of phase (t2d_off16, t2d_row48)", hw_split_out_of_phase > 0);
    tma_request r16 = req2d(&m, 68, 0);
    CHECK("rows 16 bytes into a sector: every chunk its own unit", tma_load_sectors(&r16, &per_row) == -1);
    tma_map m48 = map2d(ga, 12, TMA_SWIZZLE_NONE);
    tma_request r48 = req2d(&m48, 0, 0);
    CHECK("rows of 48 bytes: every chunk its own unit", tma_load_sectors(&r48, &per_row) == -1 && per_row == 3);
    /* a row stride that is 16 mod 32: rows in different phases */
    tma_map modd = m;
    modd.global_strides[1] = 16400;
    tma_request rodd = req2d(&modd, 0, 0);
    CHECK("rows in different phases of 32 bytes: every chunk its own unit", tma_load_sectors(&rodd, &per_row) == -1);
    /* a plain copy 16 bytes into a sector in both memories: lead 1 */
    for (uint32_t k = 0; k < 64; k++) eng[k] = 1040 + 16 * k;
    uint32_t nu = tma_land_order(eng, 64, 64, 1, 11, out, uend, key, NULL), st = 0;
    int bad1 = 0;
    for (uint32_t u = 0; u < nu; st = uend[u++]) {
        uint32_t len = uend[u] - st;
        if (len == 1 ? out[st] != 1040 && out[st] != 1040 + 63 * 16 : (len != 2 || out[st] % 32 || out[st + 1] != out[st] + 16))
            bad1++;
    }
    CHECK("plain copy, lead 1: the first and last chunk alone, the rest in sector pairs", !bad1 && nu == 33);
    /* a plain copy whose source and destination differ in phase */
    for (uint32_t k = 0; k < 64; k++) eng[k] = 1024 + 16 * k;
    nu = tma_land_order(eng, 64, 64, -1, 3, out, uend, key, NULL);
    CHECK("plain copy, lead -1: 64 units of one chunk", nu == 64 && uend[0] == 1 && uend[63] == 64);
    mem_global_free(g);
    CHECK_DONE();
}
