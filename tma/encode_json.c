/* encode_json.c — encode a launch-file "tensor_maps" object (FORMAT.md).
 *
 * The object carries the driver's arguments in snake case and its enum
 * names without their CU_TENSOR_MAP_..._ prefix; this file only reads and
 * type-checks them and calls the encoder that "encode" names, so the
 * launcher (cli/), `ptxi tmap` and the conformance test all encode the same
 * way.  Malformed objects (a missing key, a string where a number belongs,
 * an unknown enum name or buffer) are launch-file errors (TMA_ERROR_LAUNCH),
 * kept apart from what the driver itself would reject.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>
#include "tma/tma.h"

static int bad(char *why, size_t n, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return TMA_ERROR_LAUNCH;
}

/* Integer key `k` into *v, range-checked.  Missing: error unless `optional`. */
static int get_int(const json_t *o, const char *k, long long lo, long long hi, long long *v, int optional,
                   const char *name, char *why, size_t n)
{
    json_t *j = json_object_get(o, k);
    if (!j) {
        if (optional)
            return 0;
        return bad(why, n, "tensor map '%s': missing key \"%s\"", name, k);
    }
    if (!json_is_integer(j))
        return bad(why, n, "tensor map '%s': \"%s\" must be an integer", name, k);
    long long x = json_integer_value(j);
    if (x < lo || x > hi)
        return bad(why, n, "tensor map '%s': \"%s\" = %lld is out of range [%lld, %lld]", name, k, x, lo, hi);
    *v = x;
    return 0;
}

/* Integer array `k` with exactly `want` entries into v[] (at most 5). */
static int get_array(const json_t *o, const char *k, size_t want, long long lo, long long hi, long long *v,
                     const char *name, char *why, size_t n)
{
    json_t *a = json_object_get(o, k);
    if (!a)
        return bad(why, n, "tensor map '%s': missing key \"%s\"", name, k);
    if (!json_is_array(a))
        return bad(why, n, "tensor map '%s': \"%s\" must be an array", name, k);
    if (json_array_size(a) != want)
        return bad(why, n, "tensor map '%s': \"%s\" has %zu entries, rank needs %zu", name, k,
                   json_array_size(a), want);
    for (size_t i = 0; i < want; i++) {
        json_t *e = json_array_get(a, i);
        if (!json_is_integer(e))
            return bad(why, n, "tensor map '%s': \"%s\"[%zu] must be an integer", name, k, i);
        long long x = json_integer_value(e);
        if (x < lo || x > hi)
            return bad(why, n, "tensor map '%s': \"%s\"[%zu] = %lld is out of range", name, k, i, x);
        v[i] = x;
    }
    return 0;
}

static int get_enum(const json_t *o, const char *k, int dflt, int *v, const char *name, char *why, size_t n)
{
    json_t *j = json_object_get(o, k);
    if (!j) {
        if (dflt < 0)
            return bad(why, n, "tensor map '%s': missing key \"%s\"", name, k);
        *v = dflt;
        return 0;
    }
    if (json_is_integer(j)) {   /* a raw enum value, passed on as the driver would get it */
        *v = (int)json_integer_value(j);
        return 0;
    }
    if (!json_is_string(j))
        return bad(why, n, "tensor map '%s': \"%s\" must be a name", name, k);
    *v = tma_enum_value(k, json_string_value(j));
    if (*v < 0)
        return bad(why, n, "tensor map '%s': \"%s\" has unknown value \"%s\"", name, k, json_string_value(j));
    return 0;
}

static int get_address(const json_t *o, const mem_global *g, uint64_t *addr, const char *name, char *why, size_t n)
{
    json_t *a = json_object_get(o, "global_address");
    if (!a)
        return bad(why, n, "tensor map '%s': missing key \"global_address\"", name);
    if (json_is_integer(a)) {
        *addr = (uint64_t)json_integer_value(a);
        return 0;
    }
    json_t *b = json_object_get(a, "buffer");
    if (!json_is_object(a) || !json_is_string(b))
        return bad(why, n, "tensor map '%s': \"global_address\" must be {\"buffer\": NAME, \"offset\": K}", name);
    const mem_alloc *m = g ? mem_global_by_name(g, json_string_value(b)) : NULL;
    if (!m)
        return bad(why, n, "tensor map '%s': \"global_address\" names unknown buffer '%s'", name,
                   json_string_value(b));
    long long off = 0;
    if (get_int(a, "offset", INT64_MIN, INT64_MAX, &off, 1, name, why, n))
        return TMA_ERROR_LAUNCH;
    *addr = m->base + (uint64_t)off;
    return 0;
}

int tma_encode_json(uint8_t map[128], tma_map *out, const struct json_t *tm, const mem_global *g,
                    char *why, size_t whylen)
{
    const json_t *o = tm;
    char *w = why;
    size_t n = whylen;
    if (!json_is_object(o))
        return bad(w, n, "tensor map entry must be an object");
    json_t *jn = json_object_get(o, "name");
    const char *name = json_is_string(jn) ? json_string_value(jn) : "?";
    int kind = 0, dt = 0, il = 0, sw = 0, l2 = 0, oob = 0, mode = 0;
    long long rank = 0;
    uint64_t addr = 0;
    if (get_enum(o, "encode", -1, &kind, name, w, n) || get_enum(o, "data_type", -1, &dt, name, w, n) ||
        get_enum(o, "interleave", TMA_INTERLEAVE_NONE, &il, name, w, n) ||
        get_enum(o, "swizzle", TMA_SWIZZLE_NONE, &sw, name, w, n) ||
        get_enum(o, "l2_promotion", TMA_L2_NONE, &l2, name, w, n) ||
        get_enum(o, "oob_fill", TMA_OOB_FILL_NONE, &oob, name, w, n) ||
        get_int(o, "rank", 0, 0xffffffffLL, &rank, 0, name, w, n) || get_address(o, g, &addr, name, w, n))
        return TMA_ERROR_LAUNCH;
    if (kind == TMA_MAP_IM2COL_WIDE && get_enum(o, "mode", -1, &mode, name, w, n))
        return TMA_ERROR_LAUNCH;
    /* The driver reads `rank` entries of each array; a rank outside 1..5 is
     * the encoder's to reject, so pass it on with empty arrays. */
    size_t r = rank >= 1 && rank <= 5 ? (size_t)rank : 0;
    long long gd[5] = {0}, gs[5] = {0}, es[5] = {0}, box[5] = {0}, lo[5] = {0}, up[5] = {0};
    if (r && (get_array(o, "global_dim", r, 0, INT64_MAX, gd, name, w, n) ||
              get_array(o, "global_strides", r - 1, 0, INT64_MAX, gs, name, w, n) ||
              get_array(o, "element_strides", r, 0, 0xffffffffLL, es, name, w, n)))
        return TMA_ERROR_LAUNCH;
    uint64_t gd_u[5], gs_u[5];
    uint32_t es_u[5], box_u[5];
    int lo_i[5], up_i[5];
    for (int i = 0; i < 5; i++) {
        gd_u[i] = (uint64_t)gd[i];
        gs_u[i] = (uint64_t)gs[i];
        es_u[i] = (uint32_t)es[i];
    }
    int rc;
    if (kind == TMA_MAP_TILED) {
        if (r && get_array(o, "box_dim", r, 0, 0xffffffffLL, box, name, w, n))
            return TMA_ERROR_LAUNCH;
        for (int i = 0; i < 5; i++)
            box_u[i] = (uint32_t)box[i];
        rc = tma_encode_tiled(map, dt, (uint32_t)rank, addr, gd_u, gs_u, box_u, es_u, il, sw, l2, oob, w, n);
    } else {
        long long cpp = 0, ppc = 0;
        if (get_int(o, "channels_per_pixel", 0, 0xffffffffLL, &cpp, 0, name, w, n) ||
            get_int(o, "pixels_per_column", 0, 0xffffffffLL, &ppc, 0, name, w, n))
            return TMA_ERROR_LAUNCH;
        if (kind == TMA_MAP_IM2COL) {
            size_t nc = r >= 3 ? r - 2 : 0;
            if (r && (get_array(o, "pixel_box_lower_corner", nc, INT32_MIN, INT32_MAX, lo, name, w, n) ||
                      get_array(o, "pixel_box_upper_corner", nc, INT32_MIN, INT32_MAX, up, name, w, n)))
                return TMA_ERROR_LAUNCH;
            for (int i = 0; i < 5; i++) {
                lo_i[i] = (int)lo[i];
                up_i[i] = (int)up[i];
            }
            rc = tma_encode_im2col(map, dt, (uint32_t)rank, addr, gd_u, gs_u, lo_i, up_i, (uint32_t)cpp,
                                   (uint32_t)ppc, es_u, il, sw, l2, oob, w, n);
        } else {
            long long low = 0, upw = 0;
            if (get_int(o, "pixel_box_lower_corner_width", INT32_MIN, INT32_MAX, &low, 0, name, w, n) ||
                get_int(o, "pixel_box_upper_corner_width", INT32_MIN, INT32_MAX, &upw, 0, name, w, n))
                return TMA_ERROR_LAUNCH;
            rc = tma_encode_im2col_wide(map, dt, (uint32_t)rank, addr, gd_u, gs_u, (int)low, (int)upw,
                                        (uint32_t)cpp, (uint32_t)ppc, es_u, il, mode, sw, l2, oob, w, n);
        }
    }
    if (rc == TMA_SUCCESS && out) {
        char dwhy[256];
        if (tma_decode(map, out, dwhy, sizeof dwhy))
            return bad(w, n, "tensor map '%s': internal error, encoded map does not decode: %s", name, dwhy);
        /* What the bytes cannot hold on this driver: the wide kind and mode. */
        if (kind == TMA_MAP_IM2COL_WIDE) {
            out->kind = TMA_MAP_IM2COL_WIDE;
            out->wide_mode = (uint8_t)mode;
        }
    }
    return rc;
}
