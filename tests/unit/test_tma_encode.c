/* test_tma_encode.c — the tensor-map encoders against the H100 driver.
 *
 * For every suite under tests/conformance/ (or ../shared/conformance/, or
 * $PTXI_CONFORMANCE), every tensor map of every case in cases.jsonl is
 * encoded with the case's buffers allocated in order (mem_global_alloc,
 * realistic addresses) and its status compared with expect.encode:
 *     PASS encode/<case>/<map>
 *     FAIL encode/<case>/<map>: got X want Y (why)
 * Where driver_tensormaps.jsonl has the 128 bytes the real driver wrote, the
 * bytes must match too (the address field replaced by ours) and decode:
 *     PASS bytes/<case>/<map>, PASS decode/<case>/<map>
 * Then unit checks of the enum names, pack/decode round trips, and decode
 * refusing bytes that are not a map.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "tma/tma.h"
#include "tests/unit/check.h"

static const char *status_name(int rc)
{
    return rc == TMA_SUCCESS ? "CUDA_SUCCESS" : rc == TMA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
                                                                              : "LAUNCH_FILE_ERROR";
}

/* ---- driver_tensormaps.jsonl: case/map -> address, bytes -------------- */

typedef struct dmap { char key[160]; uint64_t addr; uint8_t bytes[128]; } dmap;
typedef struct dmaps { dmap *v; size_t n, cap; } dmaps;

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static void load_driver_maps(const char *path, dmaps *d)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_t *o = json_loads(line, 0, NULL);
        const char *c = json_string_value(json_object_get(o, "case"));
        const char *t = json_string_value(json_object_get(o, "tensor_map"));
        const char *a = json_string_value(json_object_get(o, "address"));
        const char *b = json_string_value(json_object_get(o, "bytes"));
        if (c && t && a && b && strlen(b) == 256) {
            if (d->n == d->cap) {
                d->cap = d->cap ? 2 * d->cap : 256;
                d->v = realloc(d->v, d->cap * sizeof *d->v);
            }
            dmap *m = &d->v[d->n++];
            snprintf(m->key, sizeof m->key, "%s/%s", c, t);
            m->addr = strtoull(a, NULL, 16);
            for (int i = 0; i < 128; i++)
                m->bytes[i] = (uint8_t)(hexval(b[2 * i]) << 4 | hexval(b[2 * i + 1]));
        }
        json_decref(o);
    }
    free(line);
    fclose(f);
}

static const dmap *find_driver_map(const dmaps *d, const char *key)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->v[i].key, key))
            return &d->v[i];
    return NULL;
}

/* ---- one case ------------------------------------------------------------ */

static void run_case(json_t *c, const dmaps *d)
{
    const char *cname = json_string_value(json_object_get(c, "name"));
    if (!cname)
        cname = "?";
    mem_global *g = mem_global_new();
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(c, "buffers"), i, b) {
        json_t *al = json_object_get(b, "align");
        mem_global_alloc(g, (uint64_t)json_integer_value(json_object_get(b, "bytes")),
                         al ? (uint64_t)json_integer_value(al) : 256, json_string_value(json_object_get(b, "name")));
    }
    json_t *expect = json_object_get(json_object_get(c, "expect"), "encode");
    json_t *tm;
    json_array_foreach(json_object_get(c, "tensor_maps"), i, tm) {
        const char *tname = json_string_value(json_object_get(tm, "name"));
        const char *want = NULL;
        size_t k;
        json_t *e;
        json_array_foreach(expect, k, e) {
            const char *en = json_string_value(json_object_get(e, "tensor_map"));
            if (en && tname && !strcmp(en, tname))
                want = json_string_value(json_object_get(e, "status"));
        }
        if (!want)
            continue;
        uint8_t map[128];
        tma_map dec;
        char why[512] = "";
        int rc = tma_encode_json(map, &dec, tm, g, why, sizeof why);
        const char *got = status_name(rc);
        if (!strcmp(got, want)) {
            printf("PASS encode/%s/%s\n", cname, tname);
        } else {
            printf("FAIL encode/%s/%s: got %s want %s (%s)\n", cname, tname, got, want, why[0] ? why : "no rule broken");
            check_failures++;
        }
        char key[160];
        snprintf(key, sizeof key, "%s/%s", cname, tname);
        const dmap *dm = find_driver_map(d, key);
        if (!dm || rc != TMA_SUCCESS)
            continue;
        /* The driver's address is its own allocation's; compare the rest and
         * check that the offsets within the 256-byte granule agree. */
        uint8_t want_bytes[128];
        memcpy(want_bytes, dm->bytes, 128);
        memcpy(want_bytes, map, 8);
        int diff = -1;
        for (int j = 0; j < 128 && diff < 0; j++)
            if (map[j] != want_bytes[j])
                diff = j;
        if (diff < 0 && (dec.global_address & 255) == (dm->addr & 255)) {
            printf("PASS bytes/%s\n", key);
        } else {
            printf("FAIL bytes/%s: byte %d is 0x%02x, driver wrote 0x%02x (address 0x%" PRIx64 " vs driver 0x%" PRIx64 ")\n",
                   key, diff, diff >= 0 ? map[diff] : 0, diff >= 0 ? want_bytes[diff] : 0, dec.global_address, dm->addr);
            check_failures++;
        }
        tma_map dd;
        if (tma_decode(dm->bytes, &dd, why, sizeof why) == 0 && dd.global_address == dm->addr) {
            printf("PASS decode/%s\n", key);
        } else {
            printf("FAIL decode/%s: %s\n", key, why);
            check_failures++;
        }
    }
    mem_global_free(g);
}

static const char *conformance_dir(void)
{
    static const char *const dirs[] = {"tests/conformance", "../shared/conformance", "/work/shared/conformance"};
    const char *env = getenv("PTXI_CONFORMANCE");
    if (env)
        return env;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/encode_validation/cases.jsonl", dirs[i]);
        FILE *f = fopen(p, "r");
        if (f) {
            fclose(f);
            return dirs[i];
        }
    }
    return NULL;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void run_suites(void)
{
    const char *root = conformance_dir();
    if (!root) {
        printf("FAIL encode/suites: no conformance corpus (tests/conformance or ../shared/conformance)\n");
        check_failures++;
        return;
    }
    DIR *dir = opendir(root);
    char *names[256];
    size_t n = 0;
    struct dirent *de;
    while (dir && (de = readdir(dir)) && n < 256)
        if (de->d_name[0] != '.')
            names[n++] = strdup(de->d_name);
    if (dir)
        closedir(dir);
    qsort(names, n, sizeof names[0], by_name);
    for (size_t s = 0; s < n; s++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s/cases.jsonl", root, names[s]);
        FILE *f = fopen(p, "r");
        if (f) {
            dmaps d = {0};
            char dp[1024];
            snprintf(dp, sizeof dp, "%s/%s/driver_tensormaps.jsonl", root, names[s]);
            load_driver_maps(dp, &d);
            char *line = NULL;
            size_t cap = 0;
            int lineno = 0;
            while (getline(&line, &cap, f) > 0) {
                lineno++;
                json_error_t err;
                json_t *c = json_loads(line, 0, &err);
                if (!c) {
                    printf("FAIL encode/%s:%d: bad JSON: %s\n", names[s], lineno, err.text);
                    check_failures++;
                    continue;
                }
                run_case(c, &d);
                json_decref(c);
            }
            free(line);
            free(d.v);
            fclose(f);
        }
        free(names[s]);
    }
}

/* ---- unit checks --------------------------------------------------------- */

static void check_enums(void)
{
    CHECK_EQ_U64("enum/data_type FLOAT16", tma_enum_value("data_type", "FLOAT16"), TMA_DT_FLOAT16);
    CHECK_EQ_U64("enum/data_type 16U6_ALIGN16B", tma_enum_value("data_type", "16U6_ALIGN16B"), TMA_DT_16U6_ALIGN16B);
    CHECK_EQ_U64("enum/data_type cuda.h spelling", tma_enum_value("data_type", "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"),
                 TMA_DT_BFLOAT16);
    CHECK_EQ_U64("enum/swizzle 128B_ATOM_32B", tma_enum_value("swizzle", "128B_ATOM_32B"), TMA_SWIZZLE_128B_ATOM_32B);
    CHECK_EQ_U64("enum/swizzle 128B_ATOM_32B_FLIP_8B", tma_enum_value("swizzle", "128B_ATOM_32B_FLIP_8B"),
                 TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B);
    CHECK_EQ_U64("enum/interleave 32B", tma_enum_value("interleave", "32B"), TMA_INTERLEAVE_32B);
    CHECK_EQ_U64("enum/l2_promotion L2_64B", tma_enum_value("l2_promotion", "L2_64B"), TMA_L2_64B);
    CHECK_EQ_U64("enum/oob_fill NAN_REQUEST_ZERO_FMA", tma_enum_value("oob_fill", "NAN_REQUEST_ZERO_FMA"),
                 TMA_OOB_FILL_NAN_REQUEST_ZERO_FMA);
    CHECK_EQ_U64("enum/mode W128", tma_enum_value("mode", "W128"), TMA_IM2COL_WIDE_W128);
    CHECK_EQ_U64("enum/encode im2col_wide", tma_enum_value("encode", "im2col_wide"), TMA_MAP_IM2COL_WIDE);
    CHECK("enum/unknown name", tma_enum_value("swizzle", "256B") == -1);
    CHECK("enum/unknown kind", tma_enum_value("colour", "NONE") == -1);
    CHECK("enum/name of TFLOAT32_FTZ", !strcmp(tma_enum_name("data_type", TMA_DT_TFLOAT32_FTZ), "TFLOAT32_FTZ"));
    CHECK("enum/name out of range", tma_enum_name("l2_promotion", 4) == NULL);
    CHECK_EQ_U64("dtype bits BFLOAT16", tma_dtype_bits(TMA_DT_BFLOAT16), 16);
    CHECK_EQ_U64("dtype bits 16U6", tma_dtype_bits(TMA_DT_16U6_ALIGN16B), 6);
    CHECK_EQ_U64("dtype bits INT64", tma_dtype_bits(TMA_DT_INT64), 64);
}

static int same_map(const tma_map *a, const tma_map *b)
{
    if (a->kind != b->kind || a->data_type != b->data_type || a->rank != b->rank || a->interleave != b->interleave ||
        a->swizzle != b->swizzle || a->l2_promotion != b->l2_promotion || a->oob_fill != b->oob_fill ||
        a->global_address != b->global_address || a->channels_per_pixel != b->channels_per_pixel ||
        a->pixels_per_column != b->pixels_per_column)
        return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->global_dim[i] != b->global_dim[i] || a->box_dim[i] != b->box_dim[i] ||
            a->element_strides[i] != b->element_strides[i] || (i && a->global_strides[i] != b->global_strides[i]))
            return 0;
    for (int i = 0; i < 3; i++)
        if (a->lower_corner[i] != b->lower_corner[i] || a->upper_corner[i] != b->upper_corner[i])
            return 0;
    return 1;
}

static void check_round_trips(void)
{
    uint8_t map[128], again[128];
    tma_map m;
    char why[256];
    const uint64_t A = 0x7f0000200000ull;

    /* tiled, rank 5, large strides (bits above 2^36 use ptxi's guessed field) */
    uint64_t gd[5] = {64, 300, 7, 1u << 20, 3}, gs[4] = {128, 128 * 300, (1ull << 37) + 16, 1ull << 39};
    uint32_t box[5] = {64, 256, 7, 8, 2}, es[5] = {1, 2, 3, 8, 1};
    int rc = tma_encode_tiled(map, TMA_DT_FLOAT16, 5, A, gd, gs, box, es, TMA_INTERLEAVE_NONE, TMA_SWIZZLE_128B,
                              TMA_L2_256B, TMA_OOB_FILL_NAN_REQUEST_ZERO_FMA, why, sizeof why);
    CHECK_EQ_U64("roundtrip/tiled encodes", rc, TMA_SUCCESS);
    CHECK("roundtrip/tiled decodes", tma_decode(map, &m, why, sizeof why) == 0);
    CHECK("roundtrip/tiled fields", m.kind == TMA_MAP_TILED && m.rank == 5 && m.global_address == A &&
                                        m.global_dim[3] == (1u << 20) && m.global_strides[3] == (1ull << 37) + 16 &&
                                        m.global_strides[4] == 1ull << 39 && m.box_dim[1] == 256 &&
                                        m.element_strides[3] == 8 && m.swizzle == TMA_SWIZZLE_128B &&
                                        m.oob_fill == 1 && m.l2_promotion == TMA_L2_256B);
    tma_pack(&m, again);
    CHECK("roundtrip/tiled pack(decode(x)) == x", !memcmp(map, again, 128));
    /* box bytes: floor, elementStrides[0] included (driver maps). */
    CHECK_EQ_U64("roundtrip/tiled box bytes", tma_map_box_bytes(&m), 2u * 64 * 128 * 2 * 1 * 2);  /* 64/1, 256/2, 7/3, 8/8, 2/1 */

    /* im2col rank 5 with 5-bit corners at both ends of the range */
    uint64_t gd2[5] = {32, 40, 40, 40, 2}, gs2[4] = {64, 64 * 40, 64 * 1600, 64 * 64000};
    int lo[3] = {-16, 15, 0}, up[3] = {15, -16, -1};
    uint32_t es2[5] = {1, 1, 2, 1, 1};
    rc = tma_encode_im2col(map, TMA_DT_BFLOAT16, 5, A + 64, gd2, gs2, lo, up, 32, 1024, es2, TMA_INTERLEAVE_NONE,
                           TMA_SWIZZLE_64B, TMA_L2_128B, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK_EQ_U64("roundtrip/im2col encodes", rc, TMA_SUCCESS);
    CHECK("roundtrip/im2col decodes", tma_decode(map, &m, why, sizeof why) == 0);
    CHECK("roundtrip/im2col fields", m.kind == TMA_MAP_IM2COL && m.lower_corner[0] == -16 && m.lower_corner[1] == 15 &&
                                         m.upper_corner[1] == -16 && m.upper_corner[2] == -1 &&
                                         m.channels_per_pixel == 32 && m.pixels_per_column == 1024);
    tma_pack(&m, again);
    CHECK("roundtrip/im2col pack(decode(x)) == x", !memcmp(map, again, 128));

    /* im2col_wide: same bytes as im2col on sm_90, so it decodes as im2col */
    uint64_t gd3[3] = {16, 100, 2}, gs3[2] = {32, 3200};
    uint32_t es3[3] = {1, 1, 1};
    rc = tma_encode_im2col_wide(map, TMA_DT_FLOAT16, 3, A, gd3, gs3, -1, 0, 16, 64, es3, TMA_INTERLEAVE_NONE,
                                TMA_IM2COL_WIDE_W128, TMA_SWIZZLE_128B, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK_EQ_U64("roundtrip/im2col_wide encodes", rc, TMA_SUCCESS);
    CHECK("roundtrip/im2col_wide decodes as im2col",
          tma_decode(map, &m, why, sizeof why) == 0 && m.kind == TMA_MAP_IM2COL && m.lower_corner[0] == -1);

    /* hand-built map with an atomicity swizzle (ptxi extension bits) */
    memset(&m, 0, sizeof m);
    m.kind = TMA_MAP_TILED; m.data_type = TMA_DT_UINT8; m.rank = 2; m.swizzle = TMA_SWIZZLE_128B_ATOM_64B;
    m.global_address = A; m.global_dim[0] = 128; m.global_dim[1] = 4; m.global_strides[1] = 128;
    m.box_dim[0] = 128; m.box_dim[1] = 4; m.element_strides[0] = m.element_strides[1] = 1;
    tma_map back;
    tma_pack(&m, map);
    CHECK("roundtrip/atom swizzle survives", tma_decode(map, &back, why, sizeof why) == 0 && same_map(&m, &back));

    /* decode refuses what is not a map */
    uint8_t junk[128];
    uint32_t x = 12345;
    for (int i = 0; i < 128; i++) {
        x = x * 1103515245u + 12345u;
        junk[i] = (uint8_t)(x >> 16);
    }
    CHECK("decode/random bytes rejected", tma_decode(junk, &m, why, sizeof why) != 0 && strstr(why, "not a tensor map"));
    tma_pack(&back, map);
    map[100] = 1;   /* a reserved byte */
    CHECK("decode/reserved byte rejected", tma_decode(map, &m, why, sizeof why) != 0 && strstr(why, "byte 100"));
    memset(junk, 0, sizeof junk);
    CHECK("decode/all-zero rejected", tma_decode(junk, &m, why, sizeof why) != 0 && strstr(why, "all 128 bytes are zero"));
    /* a map filled in by tensormap.replace over zeroed bytes (Triton's
     * tl.make_tensor_descriptor; tests/hw/triton tma_dev) has no alignment
     * word: the H100 runs it */
    tma_pack(&back, map);
    memset(map + 72, 0, 4);    /* bits 576..607 */
    CHECK("decode/zero alignment word with an address accepted",
          back.global_address && tma_decode(map, &m, why, sizeof why) == 0 && m.global_address == back.global_address);
    memset(map, 0, 8);         /* ... but not without a global address */
    CHECK("decode/zero alignment word and address rejected",
          tma_decode(map, &m, why, sizeof why) != 0 && strstr(why, "alignment word"));
}

static void check_reasons(void)
{
    uint8_t map[128];
    char why[256];
    uint64_t gd[2] = {100, 10}, gs[1] = {208};
    uint32_t box[2] = {72, 4}, es[2] = {1, 1};
    int rc = tma_encode_tiled(map, TMA_DT_FLOAT16, 2, 0x7f0000000000ull, gd, gs, box, es, TMA_INTERLEAVE_NONE,
                              TMA_SWIZZLE_128B, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK("why/swizzle span", rc == TMA_ERROR_INVALID_VALUE && strstr(why, "144 bytes") && strstr(why, "128B swizzle"));
    gs[0] = 200;
    box[0] = 8;
    rc = tma_encode_tiled(map, TMA_DT_FLOAT16, 2, 0x7f0000000000ull, gd, gs, box, es, TMA_INTERLEAVE_NONE,
                          TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK("why/stride multiple of 16", rc == TMA_ERROR_INVALID_VALUE && strstr(why, "globalStrides[0] = 200"));
    gs[0] = 208;
    rc = tma_encode_tiled(map, TMA_DT_FLOAT16, 2, 0x7f0000000008ull, gd, gs, box, es, TMA_INTERLEAVE_NONE,
                          TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK("why/address alignment", rc == TMA_ERROR_INVALID_VALUE && strstr(why, "16-byte aligned"));
    rc = tma_encode_tiled(map, TMA_DT_UINT32, 2, 0x7f0000000000ull, gd, gs, box, es, TMA_INTERLEAVE_NONE,
                          TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NAN_REQUEST_ZERO_FMA, why, sizeof why);
    CHECK("why/oob fill on integers", rc == TMA_ERROR_INVALID_VALUE && strstr(why, "floating-point"));
    rc = tma_encode_tiled(NULL, TMA_DT_UINT32, 2, 0x7f0000000000ull, gd, gs, box, es, TMA_INTERLEAVE_NONE,
                          TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK("why/NULL map", rc == TMA_ERROR_INVALID_VALUE);
}

/* The im2col bounding box with interleave (tests/hw/im2col_box, H100
 * driver): corner i is checked against globalDim[i], not globalDim[i + 1].
 * i2b_010: rank 4, globalDim {128, 3, 9, 2}, lower {0, -77}, upper {-5, -22}:
 * 3 - 5 - 0 < 1 along W one up, but 128 - 5 and 3 - 22 + 77 hold pixels;
 * i2b_572: rank 3, globalDim {48, 64, 4}, lower -1, upper -63: 64 - 63 + 1
 * holds two, 48 - 63 + 1 none. */
static void check_im2col_interleave_box(void)
{
    uint8_t map[128];
    char why[256];
    uint64_t A = 0x7f0000000000ull;
    uint64_t gd4[4] = {128, 3, 9, 2}, gs4[3] = {2048, 6144, 55296};
    int lo4[2] = {0, -77}, up4[2] = {-5, -22};
    uint32_t es4[4] = {1, 1, 7, 6};
    int rc = tma_encode_im2col(map, TMA_DT_BFLOAT16, 4, A, gd4, gs4, lo4, up4, 128, 100, es4, TMA_INTERLEAVE_16B,
                               TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK_EQ_U64("im2col/interleaved box: W is dimension 0 (i2b_010 encodes)", rc, TMA_SUCCESS);
    rc = tma_encode_im2col(map, TMA_DT_BFLOAT16, 4, A, gd4, gs4, lo4, up4, 128, 100, es4, TMA_INTERLEAVE_NONE,
                           TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK_EQ_U64("im2col/box without interleave: W is dimension 1 (empty)", rc, TMA_ERROR_INVALID_VALUE);
    uint64_t gd3[3] = {48, 64, 4}, gs3[2] = {96, 6144};
    int lo3[1] = {-1}, up3[1] = {-63};
    uint32_t es3[3] = {1, 1, 1};
    rc = tma_encode_im2col(map, TMA_DT_UINT8, 3, A, gd3, gs3, lo3, up3, 16, 4, es3, TMA_INTERLEAVE_16B,
                           TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    CHECK_EQ_U64("im2col/interleaved box empty along dimension 0 (i2b_572 fails)", rc, TMA_ERROR_INVALID_VALUE);
    CHECK("im2col/interleaved box: the message names globalDim[0]", strstr(why, "globalDim[0]") != NULL);
}

int main(void)
{
    check_im2col_interleave_box();
    run_suites();
    check_enums();
    check_round_trips();
    check_reasons();
    CHECK_DONE();
}
