/* test_tma_conformance.c — the TMA engine against the H100 conformance
 * corpus, without the interpreter.
 *
 * Each case of ../shared/conformance/<suite>/cases.jsonl (or
 * tests/conformance/<suite>/ when the lead has copied it) is a launch of one
 * kernel of ptx/tma_sm90.ptx.  The kernels are tiny, so this program
 * emulates each one directly in C from the case's params, exactly as the PTX
 * does it:
 *   load_tile / load_tile_gmap [map, dims, c0..c4, tx, smem_off, nbytes, dst, status]
 *   load_im2col   [map, dims, c0..c4, off0..off2 (u16), tx, smem_off, nbytes, dst, status]
 *   store_tile    [map, dims, c0..c4, smem_off, nbytes, src, status]
 *   reduce_tile   [map, op, dims, c0..c4, smem_off, nbytes, src, status]
 *   prefetch_tile_2d [map, c0, c1, status]; prefetch_im2col_4d [map, c0..c3, off0, off1, status]
 *   load_tile_2d_multicast [map, c0, c1, row_step, mask, issuers, slot, tx, nbytes, dst, status]
 * Loads: smem pre-filled with 0xA5 over `nbytes` from the destination (the
 * 1024-aligned start of dynamic smem + smem_off), one tma_execute, status 1
 * when the transaction count equals the expect_tx bytes (phase completes)
 * else 2, then `nbytes` copied to dst.  Stores/reductions: smem filled from
 * src, one tma_execute, status 1.  A case whose expect has `launch` (the H100
 * faulted) passes when the engine returns a fault.  Cases whose encode the
 * driver refused are encode-validation cases (tma/encode.c's tests): skipped.
 *
 * Tensor maps are filled straight from the JSON encoder arguments (the
 * engine only reads tma_map), so this test does not depend on encode.c.
 *
 * Output: "PASS suite/case" or "FAIL suite/case: first differing offset N:
 * got XX want YY (...)", and a summary line per suite on stderr.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "memory/mem.h"
#include "tma/tma.h"

/* Shared memory the kernels may use past the 1024-aligned start of dynamic
 * shared memory: the runtime places dyn_smem after the static mbarrier, and
 * the kernel rounds up to 1024, losing up to 1023 bytes of the allocation. */
#define SMEM_ALIGN_LOSS 1024u
#define SMEM_MAX (256u * 1024u)

static const char *suite_dir;
static char cur_case[256];
static int n_pass, n_fail, n_skip;

/* ---- enum names (the encoder's table lives in encode.c; keep our own so
 *      this test needs only the engine) ---- */
static int name_idx(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i])) return i;
    return -1;
}
static const char *const DT_NAMES[] = {"UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64",
    "FLOAT16", "FLOAT32", "FLOAT64", "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ",
    "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B"};
static const char *const IL_NAMES[] = {"NONE", "16B", "32B"};
static const char *const SW_NAMES[] = {"NONE", "32B", "64B", "128B", "128B_ATOM_32B",
    "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"};
static const char *const OOB_NAMES[] = {"NONE", "NAN_REQUEST_ZERO_FMA"};

static unsigned dt_bytes(int dt)
{
    static const unsigned b[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 1, 1, 1};
    return (dt >= 0 && dt < 16) ? b[dt] : 1;
}

/* ---- buffers ---- */
typedef struct buf { const char *name; uint64_t addr, bytes; } buf;
typedef struct kcase {
    json_t *j;
    mem_global *g;
    buf b[16];
    int nb;
    tma_map maps[4];
    const char *map_names[4];
    int nmaps;
} kcase;

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

static uint8_t *read_file(const char *rel, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", suite_dir, rel);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(sz > 0 ? (size_t)sz : 1);
    if (p && fread(p, 1, (size_t)sz, f) != (size_t)sz) { free(p); p = NULL; }
    fclose(f);
    *n = (size_t)sz;
    return p;
}

static buf *find_buf(kcase *k, const char *name)
{
    for (int i = 0; i < k->nb; i++)
        if (!strcmp(k->b[i].name, name)) return &k->b[i];
    return NULL;
}

static uint8_t *host_of(kcase *k, const char *name)
{
    buf *b = find_buf(k, name);
    return b ? mem_global_host(k->g, b->addr, b->bytes ? b->bytes : 1) : NULL;
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    printf("FAIL %s: ", cur_case);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    n_fail++;
    return 0;
}

static int setup_buffers(kcase *k)
{
    json_t *bs = json_object_get(k->j, "buffers");
    size_t i;
    json_t *b;
    json_array_foreach(bs, i, b) {
        if (k->nb == 16) return fail("too many buffers");
        buf *x = &k->b[k->nb++];
        x->name = json_string_value(json_object_get(b, "name"));
        x->bytes = (uint64_t)json_integer_value(json_object_get(b, "bytes"));
        json_t *al = json_object_get(b, "align");
        x->addr = mem_global_alloc(k->g, x->bytes, al ? (uint64_t)json_integer_value(al) : 256, x->name);
        if (!x->addr) return fail("cannot allocate buffer %s", x->name);
    }
    return 1;
}

static int init_buffers(kcase *k)
{
    json_t *bs = json_object_get(k->j, "buffers");
    size_t i;
    json_t *b;
    json_array_foreach(bs, i, b) {
        buf *x = &k->b[i];
        uint8_t *h = mem_global_host(k->g, x->addr, x->bytes ? x->bytes : 1);
        json_t *init = json_object_get(b, "init");
        if (!init || !h) continue;
        json_t *v;
        if ((v = json_object_get(init, "fill"))) {
            memset(h, (int)json_integer_value(v), x->bytes);
        } else if ((v = json_object_get(init, "hash32"))) {
            uint32_t seed = (uint32_t)json_integer_value(v);
            for (uint64_t o = 0; o < x->bytes; o += 4) {
                uint32_t w = hash32((uint32_t)(o / 4) * 0x9E3779B9u ^ seed);
                for (int j = 0; j < 4 && o + j < x->bytes; j++) h[o + j] = (uint8_t)(w >> (8 * j));
            }
        } else if ((v = json_object_get(init, "file"))) {
            size_t n;
            uint8_t *p = read_file(json_string_value(v), &n);
            if (!p || n != x->bytes) { free(p); return fail("init file %s unreadable or wrong size", json_string_value(v)); }
            memcpy(h, p, n);
            free(p);
        } else if ((v = json_object_get(init, "tensor_maps"))) {
            /* maps in global memory: our own layout is the decoded struct,
             * recognised by load_tile_gmap through the map table below */
            memset(h, 0, x->bytes);
        }
    }
    return 1;
}

static int ints(json_t *a, int64_t *out, int max)
{
    size_t i;
    json_t *v;
    int n = 0;
    json_array_foreach(a, i, v) if (n < max) out[n++] = json_integer_value(v);
    return n;
}

static int setup_maps(kcase *k)
{
    json_t *ms = json_object_get(k->j, "tensor_maps");
    size_t i;
    json_t *t;
    json_array_foreach(ms, i, t) {
        if (k->nmaps == 4) return fail("too many maps");
        tma_map *m = &k->maps[k->nmaps];
        k->map_names[k->nmaps++] = json_string_value(json_object_get(t, "name"));
        memset(m, 0, sizeof *m);
        const char *enc = json_string_value(json_object_get(t, "encode"));
        m->kind = !strcmp(enc, "tiled") ? TMA_MAP_TILED : !strcmp(enc, "im2col") ? TMA_MAP_IM2COL
                                                                               : TMA_MAP_IM2COL_WIDE;
        m->data_type = (uint8_t)name_idx(json_string_value(json_object_get(t, "data_type")), DT_NAMES, 16);
        m->rank = (uint8_t)json_integer_value(json_object_get(t, "rank"));
        m->interleave = (uint8_t)name_idx(json_string_value(json_object_get(t, "interleave")), IL_NAMES, 3);
        m->swizzle = (uint8_t)name_idx(json_string_value(json_object_get(t, "swizzle")), SW_NAMES, 7);
        m->oob_fill = (uint8_t)name_idx(json_string_value(json_object_get(t, "oob_fill")), OOB_NAMES, 2);
        json_t *ga = json_object_get(t, "global_address");
        buf *b = find_buf(k, json_string_value(json_object_get(ga, "buffer")));
        if (!b) return fail("map names an unknown buffer");
        m->global_address = b->addr + (uint64_t)json_integer_value(json_object_get(ga, "offset"));
        int64_t v[5];
        int n = ints(json_object_get(t, "global_dim"), v, 5);
        for (int d = 0; d < n; d++) m->global_dim[d] = (uint64_t)v[d];
        n = ints(json_object_get(t, "global_strides"), v, 4);
        m->global_strides[0] = dt_bytes(m->data_type);
        for (int d = 0; d < n; d++) m->global_strides[d + 1] = (uint64_t)v[d];
        n = ints(json_object_get(t, "box_dim"), v, 5);
        for (int d = 0; d < n; d++) m->box_dim[d] = (uint32_t)v[d];
        n = ints(json_object_get(t, "element_strides"), v, 5);
        for (int d = 0; d < n; d++) m->element_strides[d] = (uint32_t)v[d];
        n = ints(json_object_get(t, "pixel_box_lower_corner"), v, 3);
        for (int d = 0; d < n; d++) m->lower_corner[d] = (int32_t)v[d];
        n = ints(json_object_get(t, "pixel_box_upper_corner"), v, 3);
        for (int d = 0; d < n; d++) m->upper_corner[d] = (int32_t)v[d];
        json_t *x;
        if ((x = json_object_get(t, "pixel_box_lower_corner_width"))) m->lower_corner[0] = (int32_t)json_integer_value(x);
        if ((x = json_object_get(t, "pixel_box_upper_corner_width"))) m->upper_corner[0] = (int32_t)json_integer_value(x);
        if ((x = json_object_get(t, "channels_per_pixel"))) m->channels_per_pixel = (uint32_t)json_integer_value(x);
        if ((x = json_object_get(t, "pixels_per_column"))) m->pixels_per_column = (uint32_t)json_integer_value(x);
        if ((x = json_object_get(t, "mode"))) m->wide_mode = !strcmp(json_string_value(x), "W128");
    }
    return 1;
}

static const tma_map *map_named(kcase *k, const char *name)
{
    for (int i = 0; i < k->nmaps; i++)
        if (!strcmp(k->map_names[i], name)) return &k->maps[i];
    return NULL;
}

/* param i as an integer, as a buffer, or as a map */
static int64_t P(kcase *k, int i)
{
    json_t *p = json_array_get(json_object_get(k->j, "params"), (size_t)i);
    const char *key;
    json_t *v;
    json_object_foreach(p, key, v) if (json_is_integer(v)) return json_integer_value(v);
    return 0;
}
static const char *Pbuf(kcase *k, int i)
{
    json_t *p = json_array_get(json_object_get(k->j, "params"), (size_t)i);
    json_t *v = json_object_get(p, "pointer");
    return v ? json_string_value(v) : NULL;
}
static const tma_map *Pmap(kcase *k, int i)
{
    json_t *p = json_array_get(json_object_get(k->j, "params"), (size_t)i);
    json_t *v = json_object_get(p, "tensor_map");
    if (v) return map_named(k, json_string_value(v));
    /* load_tile_gmap: pointer to a buffer initialised with maps */
    const char *bn = Pbuf(k, i);
    json_t *bs = json_object_get(k->j, "buffers");
    size_t j;
    json_t *b;
    json_array_foreach(bs, j, b) {
        if (strcmp(json_string_value(json_object_get(b, "name")), bn ? bn : "")) continue;
        json_t *tm = json_object_get(json_object_get(b, "init"), "tensor_maps");
        if (tm) return map_named(k, json_string_value(json_array_get(tm, 0)));
    }
    return NULL;
}

/* ---- reporting ---- */

/* Describe a byte offset of a compared buffer in tensor terms. */
static void describe(kcase *k, const char *bname, uint64_t off, const tma_map *m, uint32_t pitch,
                     char *out, size_t n)
{
    if (m && !strcmp(bname, "tensor")) {
        unsigned es = dt_bytes(m->data_type);
        int64_t rem = (int64_t)off, c[5] = {0, 0, 0, 0, 0};
        for (int d = m->rank - 1; d >= 1; d--) {
            c[d] = rem / (int64_t)m->global_strides[d];
            rem -= c[d] * (int64_t)m->global_strides[d];
        }
        c[0] = rem / es;
        snprintf(out, n, "tensor element (%lld, %lld, %lld, %lld, %lld) byte %lld", (long long)c[0],
                 (long long)c[1], (long long)c[2], (long long)c[3], (long long)c[4], (long long)(rem % es));
    } else if (m && pitch) {
        snprintf(out, n, "smem row %llu, byte %llu of the row (pitch %u, before swizzle)",
                 (unsigned long long)(off / pitch), (unsigned long long)(off % pitch), pitch);
    } else {
        snprintf(out, n, "%s", bname);
    }
    (void)k;
}

static int compare(kcase *k, const tma_map *m, uint32_t pitch)
{
    json_t *eb = json_object_get(json_object_get(k->j, "expect"), "buffers");
    size_t i;
    json_t *e;
    json_array_foreach(eb, i, e) {
        const char *name = json_string_value(json_object_get(e, "name"));
        buf *b = find_buf(k, name);
        uint8_t *h = host_of(k, name);
        size_t n;
        uint8_t *want = read_file(json_string_value(json_object_get(e, "file")), &n);
        if (!b || !h || !want) { free(want); return fail("cannot read expected %s", name); }
        if (n != b->bytes) { free(want); return fail("expected %s has %zu bytes, buffer %llu", name, n, (unsigned long long)b->bytes); }
        json_t *ign = json_object_get(e, "ignore");
        for (size_t o = 0; o < n; o++) {
            if (h[o] == want[o]) continue;
            int ignored = 0;
            size_t j;
            json_t *r;
            json_array_foreach(ign, j, r) {
                uint64_t a = (uint64_t)json_integer_value(json_array_get(r, 0));
                uint64_t l = (uint64_t)json_integer_value(json_array_get(r, 1));
                if (o >= a && o < a + l) ignored = 1;
            }
            if (ignored) continue;
            char d[200];
            describe(k, name, o, m, pitch, d, sizeof d);
            fail("%s: first differing offset %zu: got %02X want %02X (%s)", name, o, h[o], want[o], d);
            free(want);
            return 0;
        }
        free(want);
    }
    printf("PASS %s\n", cur_case);
    n_pass++;
    return 1;
}

static int expect_fault(kcase *k, int rc, const char *why)
{
    json_t *l = json_object_get(json_object_get(k->j, "expect"), "launch");
    if (l) {
        if (rc) { printf("PASS %s\n", cur_case); n_pass++; return 1; }
        return fail("the H100 faulted (%s) but the engine did not", json_string_value(l));
    }
    if (rc) return fail("engine fault %d: %s", rc, why);
    return -1; /* go on comparing */
}

static uint32_t row_pitch(const tma_map *m, int im2col)
{
    uint32_t es = dt_bytes(m->data_type);
    uint32_t row = (im2col ? m->channels_per_pixel : m->box_dim[0]) * es;
    static const uint32_t span[] = {0, 32, 64, 128, 128, 128, 128};
    return m->swizzle ? span[m->swizzle] : row;
}

/* ---- the kernels ---- */

static uint8_t smem_store[SMEM_MAX + 4096];

static int run_load(kcase *k, int im2col)
{
    const tma_map *m = Pmap(k, 0);
    if (!m) return fail("no tensor map");
    tma_request r;
    memset(&r, 0, sizeof r);
    r.kind = TMA_LOAD;
    r.mode = im2col ? TMA_IM2COL : TMA_TILE;
    r.dim = (int)P(k, 1);
    for (int i = 0; i < 5; i++) r.coords[i] = (int32_t)P(k, 2 + i);
    int o = 7;
    if (im2col) {
        for (int i = 0; i < 3; i++) r.im2col_off[i] = (uint16_t)P(k, 7 + i);
        r.n_im2col_off = r.dim - 2;
        o = 10;
    }
    uint32_t expect_tx = (uint32_t)P(k, o), smem_off = (uint32_t)P(k, o + 1), nbytes = (uint32_t)P(k, o + 2);
    const char *dst = Pbuf(k, o + 3), *status = Pbuf(k, o + 4);
    uint32_t dyn = (uint32_t)json_integer_value(json_object_get(k->j, "dynamic_shared_bytes"));
    r.map = m;
    r.smem = smem_store;
    r.smem_size = dyn > SMEM_ALIGN_LOSS ? dyn - SMEM_ALIGN_LOSS : 0;
    if (r.smem_size > SMEM_MAX) return fail("smem too large");
    r.smem_off = smem_off;
    memset(smem_store, 0x5A, sizeof smem_store);
    if (smem_off + nbytes > sizeof smem_store) return fail("dump beyond smem");
    memset(smem_store + smem_off, 0xA5, nbytes);
    uint32_t tx = 0;
    char why[512] = "";
    int rc = tma_execute(&r, k->g, &tx, why, sizeof why);
    int f = expect_fault(k, rc, why);
    if (f >= 0) return f;
    uint8_t *d = host_of(k, dst), *s = host_of(k, status);
    if (!d || !s) return fail("missing dst/status");
    memcpy(d, smem_store + smem_off, nbytes);
    if (getenv("TMA_DUMP")) { /* debugging aid: our dst bytes */
        FILE *df = fopen(getenv("TMA_DUMP"), "wb");
        if (df) { fwrite(d, 1, nbytes, df); fclose(df); }
    }
    uint32_t st = tx == expect_tx ? 1 : 2;
    memcpy(s, &st, 4);
    if (st != 1) fail("transaction count %u, kernel expected %u (phase would not complete)", tx, expect_tx);
    else return compare(k, m, row_pitch(m, im2col));
    return 0;
}

static int run_store(kcase *k, int reduce)
{
    const tma_map *m = Pmap(k, 0);
    if (!m) return fail("no tensor map");
    tma_request r;
    memset(&r, 0, sizeof r);
    int b = reduce ? 2 : 1;
    r.kind = reduce ? TMA_REDUCE : TMA_STORE;
    r.mode = TMA_TILE;
    r.redop = reduce ? (int)P(k, 1) + 1 : 0;
    r.dim = (int)P(k, b);
    for (int i = 0; i < 5; i++) r.coords[i] = (int32_t)P(k, b + 1 + i);
    uint32_t smem_off = (uint32_t)P(k, b + 6), nbytes = (uint32_t)P(k, b + 7);
    const char *src = Pbuf(k, b + 8), *status = Pbuf(k, b + 9);
    uint32_t dyn = (uint32_t)json_integer_value(json_object_get(k->j, "dynamic_shared_bytes"));
    r.map = m;
    r.smem = smem_store;
    r.smem_size = dyn; /* no static smem in store_tile/reduce_tile: dyn_smem is 1024-aligned */
    r.smem_off = smem_off;
    memset(smem_store, 0x5A, sizeof smem_store);
    uint8_t *sh = host_of(k, src), *s = host_of(k, status);
    if (!sh || !s || smem_off + nbytes > sizeof smem_store) return fail("missing src/status");
    memcpy(smem_store + smem_off, sh, nbytes);
    char why[512] = "";
    int rc = tma_execute(&r, k->g, NULL, why, sizeof why);
    int f = expect_fault(k, rc, why);
    if (f >= 0) return f;
    uint32_t st = 1;
    memcpy(s, &st, 4);
    return compare(k, m, 0);
}

static int run_prefetch(kcase *k, int im2col)
{
    const tma_map *m = Pmap(k, 0);
    if (!m) return fail("no tensor map");
    tma_request r;
    memset(&r, 0, sizeof r);
    r.kind = TMA_PREFETCH;
    r.mode = im2col ? TMA_IM2COL : TMA_TILE;
    r.map = m;
    r.dim = m->rank;
    int nc = im2col ? 4 : 2;
    for (int i = 0; i < nc; i++) r.coords[i] = (int32_t)P(k, 1 + i);
    if (im2col) { r.im2col_off[0] = (uint16_t)P(k, 5); r.im2col_off[1] = (uint16_t)P(k, 6); r.n_im2col_off = 2; }
    char why[512] = "";
    int rc = tma_check(&r, NULL, why, sizeof why);
    int f = expect_fault(k, rc, why);
    if (f >= 0) return f;
    uint8_t *s = host_of(k, Pbuf(k, nc + 1 + (im2col ? 2 : 0)));
    if (!s) return fail("missing status");
    uint32_t st = 1;
    memcpy(s, &st, 4);
    return compare(k, m, 0);
}

/* load_tile_2d_multicast: CTA rank < issuers loads (c0, c1 + rank*step) into
 * slot rank*slot_stride of every CTA in the mask; each CTA expects tx bytes
 * on its own barrier and dumps nbytes to dst + rank*nbytes. */
static int run_multicast(kcase *k)
{
    const tma_map *m = Pmap(k, 0);
    if (!m) return fail("no tensor map");
    int64_t c0 = P(k, 1), c1 = P(k, 2), step = P(k, 3);
    uint32_t mask = (uint32_t)P(k, 4), issuers = (uint32_t)P(k, 5), slot = (uint32_t)P(k, 6);
    uint32_t expect_tx = (uint32_t)P(k, 7), nbytes = (uint32_t)P(k, 8);
    uint8_t *d = host_of(k, Pbuf(k, 9)), *s = host_of(k, Pbuf(k, 10));
    json_t *cl = json_object_get(k->j, "cluster");
    uint32_t ncta = (uint32_t)json_integer_value(json_array_get(cl, 0));
    uint32_t dyn = (uint32_t)json_integer_value(json_object_get(k->j, "dynamic_shared_bytes"));
    uint32_t win = dyn - SMEM_ALIGN_LOSS;
    if (!d || !s || ncta > 16 || win * ncta > sizeof smem_store) return fail("bad multicast case");
    memset(smem_store, 0xA5, sizeof smem_store);
    uint32_t got[16] = {0};
    for (uint32_t src = 0; src < ncta && src < issuers; src++) {
        for (uint32_t cta = 0; cta < ncta; cta++) {
            if (!(mask >> cta & 1)) continue;
            tma_request r;
            memset(&r, 0, sizeof r);
            r.kind = TMA_LOAD; r.mode = TMA_TILE; r.dim = 2; r.map = m;
            r.coords[0] = (int32_t)c0; r.coords[1] = (int32_t)(c1 + src * step);
            r.smem = smem_store + (size_t)cta * win; r.smem_size = win; r.smem_off = src * slot;
            uint32_t tx = 0;
            char why[512] = "";
            int rc = tma_execute(&r, k->g, &tx, why, sizeof why);
            if (rc) return fail("engine fault %d: %s", rc, why);
            got[cta] += tx;
        }
    }
    for (uint32_t cta = 0; cta < ncta; cta++) {
        memcpy(d + (size_t)cta * nbytes, smem_store + (size_t)cta * win, nbytes);
        uint32_t st = got[cta] == expect_tx ? 1 : 2;
        memcpy(s + 4 * cta, &st, 4);
    }
    return compare(k, m, row_pitch(m, 0));
}

static void run_case(json_t *j)
{
    snprintf(cur_case, sizeof cur_case, "%s/%s", strrchr(suite_dir, '/') ? strrchr(suite_dir, '/') + 1 : suite_dir,
             json_string_value(json_object_get(j, "name")));
    json_t *enc = json_object_get(json_object_get(j, "expect"), "encode");
    size_t i;
    json_t *e;
    json_array_foreach(enc, i, e)
        if (strcmp(json_string_value(json_object_get(e, "status")), "CUDA_SUCCESS")) { n_skip++; return; }
    kcase k;
    memset(&k, 0, sizeof k);
    k.j = j;
    k.g = mem_global_new();
    if (!setup_buffers(&k) || !init_buffers(&k) || !setup_maps(&k)) { mem_global_free(k.g); return; }
    const char *kern = json_string_value(json_object_get(j, "kernel"));
    if (!strcmp(kern, "load_tile") || !strcmp(kern, "load_tile_gmap")) run_load(&k, 0);
    else if (!strcmp(kern, "load_im2col")) run_load(&k, 1);
    else if (!strcmp(kern, "store_tile")) run_store(&k, 0);
    else if (!strcmp(kern, "reduce_tile")) run_store(&k, 1);
    else if (!strcmp(kern, "prefetch_tile_2d")) run_prefetch(&k, 0);
    else if (!strcmp(kern, "prefetch_im2col_4d")) run_prefetch(&k, 1);
    else if (!strcmp(kern, "load_tile_2d_multicast")) run_multicast(&k);
    else n_skip++;
    mem_global_free(k.g);
}

static int run_suite(const char *name)
{
    static const char *roots[] = {"tests/conformance", "../shared/conformance", "/work/shared/conformance"};
    static char dir[1024];
    const char *env = getenv("PTXI_CONFORMANCE");
    struct stat st;
    dir[0] = 0;
    if (env) snprintf(dir, sizeof dir, "%s/%s", env, name);
    for (size_t i = 0; !dir[0] || stat(dir, &st); i++) {
        if (i == sizeof roots / sizeof roots[0]) { fprintf(stderr, "suite %s not found\n", name); return 0; }
        snprintf(dir, sizeof dir, "%s/%s", roots[i], name);
    }
    suite_dir = dir;
    char path[1100];
    snprintf(path, sizeof path, "%s/cases.jsonl", dir);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int p0 = n_pass, f0 = n_fail, s0 = n_skip;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t err;
        json_t *j = json_loads(line, 0, &err);
        if (!j) { printf("FAIL %s: cases.jsonl: %s\n", name, err.text); n_fail++; continue; }
        run_case(j);
        json_decref(j);
    }
    free(line);
    fclose(f);
    fprintf(stderr, "%-14s %4d passed, %3d failed, %3d skipped (encode-only)\n", name, n_pass - p0,
            n_fail - f0, n_skip - s0);
    return 1;
}

int main(int argc, char **argv)
{
    static const char *suites[] = {"tile_load", "im2col_load", "tile_store", "reduce", "random_tile",
                                   "random_im2col", "global_map", "multicast", "prefetch"};
    if (argc > 1)
        for (int i = 1; i < argc; i++) run_suite(argv[i]);
    else
        for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) run_suite(suites[i]);
    return n_fail ? 1 : 0;
}
