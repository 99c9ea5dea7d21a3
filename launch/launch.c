/* launch.c — reading, setting up and checking ptxi-launch/1 launches.
 *
 * The reader walks the JSON object with jansson and turns it into a
 * launch_case, checking every key it knows for type and shape; a message
 * always starts with the key path ("tensor_maps[2].box_dim: ...") so a
 * malformed launch file is fixed without guessing.  Unknown keys are
 * ignored (FORMAT.md: the format may grow).  Cross references (a map's
 * buffer, a parameter's buffer or map, an expected buffer) are resolved at
 * read time, so a case that reads cleanly can always be set up, apart from
 * the input files themselves.
 *
 * Setup follows FORMAT.md's order: buffers are allocated in the order
 * listed (the same order the oracle used on the GPU, so device addresses
 * follow the same pattern), initialised, then the maps are encoded against
 * the buffers' addresses, then buffers that hold map images get them.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "launch/launch.h"
#include "interp/interp.h"
#include "launch/sha256.h"

typedef struct {
    char *buf;
    size_t len;
} errbuf;

static int fail(errbuf *e, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(errbuf *e, const char *path, const char *fmt, ...)
{
    if (!e->buf || !e->len)
        return -1;
    int n = 0;
    if (path && *path)
        n = snprintf(e->buf, e->len, "%s: ", path);
    if (n < 0 || (size_t)n >= e->len)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->buf + n, e->len - n, fmt, ap);
    va_end(ap);
    return -1;
}

/* "tensor_maps[2]" + "box_dim" -> "tensor_maps[2].box_dim" */
static const char *kp(char *dst, size_t n, const char *path, const char *key)
{
    snprintf(dst, n, "%s%s%s", path, *path ? "." : "", key);
    return dst;
}
static const char *ip(char *dst, size_t n, const char *path, size_t i)
{
    snprintf(dst, n, "%s[%zu]", path, i);
    return dst;
}

static const char *jtype(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number with a fraction";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "ptxi: out of memory\n");
        exit(3);
    }
    return d;
}

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "ptxi: out of memory\n");
        exit(3);
    }
    return p;
}

/* Join dir and a relative path (absolute paths stay). */
static char *resolve(const char *dir, const char *rel)
{
    if (rel[0] == '/' || !dir || !*dir || !strcmp(dir, "."))
        return xstrdup(rel);
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *p = xcalloc(n, 1);
    snprintf(p, n, "%s/%s", dir, rel);
    return p;
}

/* ---- typed getters --------------------------------------------------------
 * Each takes the parent object's path and the key; `required` decides
 * whether an absent key is an error or leaves the default. */

static int want_int(errbuf *e, const char *path, const json_t *v, long long lo, long long hi,
                    long long *out)
{
    if (!json_is_integer(v)) {
        if (hi == LLONG_MAX)
            return fail(e, path, "expected an integer, got %s", jtype(v));
        return fail(e, path, "expected an integer %lld..%lld, got %s", lo, hi, jtype(v));
    }
    long long x = json_integer_value(v);
    if (x < lo || x > hi) {
        if (hi == LLONG_MAX)
            return fail(e, path, "%lld is out of range (at least %lld)", x, lo);
        return fail(e, path, "%lld is out of range %lld..%lld", x, lo, hi);
    }
    *out = x;
    return 0;
}

static int get_int(errbuf *e, const json_t *o, const char *path, const char *key, bool required,
                   long long lo, long long hi, long long *out)
{
    char p[256];
    const json_t *v = json_object_get(o, key);
    if (!v) {
        if (required)
            return fail(e, path, "missing required key \"%s\"", key);
        return 0;
    }
    return want_int(e, kp(p, sizeof p, path, key), v, lo, hi, out);
}

static int get_str(errbuf *e, const json_t *o, const char *path, const char *key, bool required,
                   const char **out)
{
    char p[256];
    const json_t *v = json_object_get(o, key);
    if (!v) {
        if (required)
            return fail(e, path, "missing required key \"%s\"", key);
        return 0;
    }
    if (!json_is_string(v))
        return fail(e, kp(p, sizeof p, path, key), "expected a string, got %s", jtype(v));
    *out = json_string_value(v);
    return 0;
}

/* An array of exactly `n` integers in [lo, hi] (n < 0: 1..-n entries,
 * the rest left as they are). */
static int get_ints(errbuf *e, const json_t *o, const char *path, const char *key, bool required,
                    int n, const char *why_n, long long lo, long long hi, long long *out)
{
    char p[256], q[288];
    const json_t *v = json_object_get(o, key);
    if (!v) {
        if (required)
            return fail(e, path, "missing required key \"%s\"", key);
        return 0;
    }
    kp(p, sizeof p, path, key);
    if (!json_is_array(v))
        return fail(e, p, "expected an array, got %s", jtype(v));
    size_t len = json_array_size(v);
    if (n >= 0 && len != (size_t)n)
        return fail(e, p, "expected %d entr%s (%s), got %zu", n, n == 1 ? "y" : "ies", why_n, len);
    if (n < 0 && (len < 1 || len > (size_t)-n))
        return fail(e, p, "expected 1 to %d entries, got %zu", -n, len);
    for (size_t i = 0; i < len; i++)
        if (want_int(e, ip(q, sizeof q, p, i), json_array_get(v, i), lo, hi, &out[i]))
            return -1;
    return 0;
}

static int get_enum(errbuf *e, const json_t *o, const char *path, const char *key, bool required,
                    const char *kind, const char *choices, int *out)
{
    char p[256];
    const char *s = NULL;
    if (get_str(e, o, path, key, required, &s))
        return -1;
    if (!s)
        return 0;
    int v = tma_enum_value(kind, s);
    if (v < 0)
        return fail(e, kp(p, sizeof p, path, key), "unknown %s \"%s\" (one of %s)", key, s, choices);
    *out = v;
    return 0;
}

/* FORMAT.md: a key a reader does not know is an error naming its JSON path
 * (a typo such as "expects" must never turn into a silent pass); keys that
 * begin with "x-" are extensions or comments and are skipped.  `known` is
 * NULL-terminated. */
static int check_keys(errbuf *e, const json_t *o, const char *path, const char *const *known)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        if (!strncmp(key, "x-", 2))
            continue;
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = !strcmp(*k, key);
        if (ok)
            continue;
        char p[256], list[512];
        size_t at = 0;
        list[0] = 0;
        for (const char *const *k = known; *k && at + 1 < sizeof list; k++)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", k == known ? "" : ", ", *k);
        return fail(e, kp(p, sizeof p, path, key), "unknown key \"%s\" (known here: %s; keys beginning "
                    "\"x-\" are ignored)", key, list);
    }
    return 0;
}

/* ---- the launch object ----------------------------------------------------- */

static int find_buffer_index(const launch_case *c, const char *name)
{
    for (size_t i = 0; i < c->nbuffers; i++)
        if (c->buffers[i].name && !strcmp(c->buffers[i].name, name))
            return (int)i;
    return -1;
}
static int find_tmap_index(const launch_case *c, const char *name)
{
    for (size_t i = 0; i < c->ntmaps; i++)
        if (c->tmaps[i].name && !strcmp(c->tmaps[i].name, name))
            return (int)i;
    return -1;
}
const launch_buffer *launch_find_buffer(const launch_case *c, const char *name)
{
    int i = find_buffer_index(c, name);
    return i < 0 ? NULL : &c->buffers[i];
}
const launch_tmap *launch_find_tmap(const launch_case *c, const char *name)
{
    int i = find_tmap_index(c, name);
    return i < 0 ? NULL : &c->tmaps[i];
}

static int read_dim3(errbuf *e, const json_t *o, const char *key, bool required, uint32_t out[3])
{
    long long v[3] = {1, 1, 1};
    if (get_ints(e, o, "", key, required, -3, NULL, 1, UINT32_MAX, v))
        return -1;
    for (int i = 0; i < 3; i++)
        out[i] = (uint32_t)v[i];
    return 0;
}

/* A buffer's optional "dtype" (the --dump names) and "shape" (numpy order,
 * outermost first), which make diffs list elements by index and value. */
static int read_dtype_shape(errbuf *e, const json_t *b, const char *p, launch_buffer *lb)
{
    char q[160];
    const char *dt = NULL;
    if (get_str(e, b, p, "dtype", false, &dt))
        return -1;
    if (dt) {
        unsigned es = launch_dtype_size(dt);
        if (!es)
            return fail(e, kp(q, sizeof q, p, "dtype"),
                        "unknown dtype \"%s\" (u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64)", dt);
        if (lb->bytes % es)
            return fail(e, kp(q, sizeof q, p, "dtype"), "%llu bytes is not a whole number of %s elements",
                        (unsigned long long)lb->bytes, dt);
        snprintf(lb->dtype, sizeof lb->dtype, "%s", dt);
    }
    const json_t *sh = json_object_get(b, "shape");
    if (!sh)
        return 0;
    if (!dt)
        return fail(e, kp(q, sizeof q, p, "shape"), "a shape needs a \"dtype\" too");
    long long v[5];
    if (get_ints(e, b, p, "shape", true, -5, NULL, 1, LLONG_MAX, v))
        return -1;
    lb->ndim = (int)json_array_size(sh);
    uint64_t count = 1;
    for (int i = 0; i < lb->ndim; i++) {
        lb->shape[i] = (uint64_t)v[i];
        count *= lb->shape[i];
    }
    if (count * launch_dtype_size(dt) != lb->bytes)
        return fail(e, kp(q, sizeof q, p, "shape"), "%llu elements of %s are %llu bytes, the buffer has %llu",
                    (unsigned long long)count, dt, (unsigned long long)(count * launch_dtype_size(dt)),
                    (unsigned long long)lb->bytes);
    return 0;
}

static int read_buffers(errbuf *e, const json_t *o, launch_case *c)
{
    const json_t *arr = json_object_get(o, "buffers");
    if (!arr)
        return 0;
    if (!json_is_array(arr))
        return fail(e, "buffers", "expected an array, got %s", jtype(arr));
    c->nbuffers = json_array_size(arr);
    c->buffers = xcalloc(c->nbuffers, sizeof *c->buffers);
    for (size_t i = 0; i < c->nbuffers; i++) {
        char p[64], q[128];
        const json_t *b = json_array_get(arr, i);
        launch_buffer *lb = &c->buffers[i];
        ip(p, sizeof p, "buffers", i);
        lb->align = 256;
        if (!json_is_object(b))
            return fail(e, p, "expected an object, got %s", jtype(b));
        static const char *const bkeys[] = {"name", "bytes", "align", "init", "dtype", "shape", NULL};
        if (check_keys(e, b, p, bkeys))
            return -1;
        const char *name = NULL;
        long long bytes = 0, align = 256;
        if (get_str(e, b, p, "name", true, &name) ||
            get_int(e, b, p, "bytes", true, 0, 1LL << 40, &bytes) ||
            get_int(e, b, p, "align", false, 1, 1LL << 30, &align))
            return -1;
        if (align & (align - 1))
            return fail(e, kp(q, sizeof q, p, "align"), "%lld is not a power of two", align);
        if (find_buffer_index(c, name) >= 0)
            return fail(e, kp(q, sizeof q, p, "name"), "duplicate buffer name \"%s\"", name);
        lb->name = xstrdup(name);
        lb->bytes = (uint64_t)bytes;
        lb->align = (uint64_t)align < 256 ? 256 : (uint64_t)align;
        if (read_dtype_shape(e, b, p, lb))
            return -1;
        const json_t *init = json_object_get(b, "init");
        if (!init || json_is_null(init))
            continue;
        kp(q, sizeof q, p, "init");
        if (!json_is_object(init))
            return fail(e, q, "expected an object, got %s", jtype(init));
        static const char *const ikeys[] = {"fill", "hash32", "file", "tensor_maps", "and", "or", NULL};
        if (check_keys(e, init, q, ikeys))
            return -1;
        size_t nmask = (json_object_get(init, "and") != NULL) + (json_object_get(init, "or") != NULL);
        if (nmask && !json_object_get(init, "hash32"))
            return fail(e, q, "\"and\" and \"or\" go with \"hash32\"");
        if (json_object_size(init) - nmask > 1)
            return fail(e, q, "expected exactly one of the keys \"fill\", \"hash32\", \"file\", \"tensor_maps\"");
        long long v = 0;
        const char *file = NULL;
        if (json_object_get(init, "fill")) {
            if (get_int(e, init, q, "fill", true, 0, 255, &v))
                return -1;
            lb->init = LAUNCH_INIT_FILL;
            lb->value = (uint64_t)v;
        } else if (json_object_get(init, "hash32")) {
            long long am = UINT32_MAX, om = 0;
            if (get_int(e, init, q, "hash32", true, 0, UINT32_MAX, &v) ||
                get_int(e, init, q, "and", false, 0, UINT32_MAX, &am) ||
                get_int(e, init, q, "or", false, 0, UINT32_MAX, &om))
                return -1;
            lb->init = LAUNCH_INIT_HASH32;
            lb->value = (uint64_t)v;
            lb->hash_clear = ~(uint32_t)am;
            lb->hash_set = (uint32_t)om;
        } else if (json_object_get(init, "file")) {
            if (get_str(e, init, q, "file", true, &file))
                return -1;
            lb->init = LAUNCH_INIT_FILE;
            lb->file = resolve(c->dir, file);
        } else if (json_object_get(init, "tensor_maps")) {
            char r[160];
            const json_t *tm = json_object_get(init, "tensor_maps");
            kp(r, sizeof r, q, "tensor_maps");
            if (!json_is_array(tm))
                return fail(e, r, "expected an array of tensor map names, got %s", jtype(tm));
            lb->init = LAUNCH_INIT_TMAPS;
            lb->ntmaps = json_array_size(tm);
            lb->tmaps = xcalloc(lb->ntmaps, sizeof *lb->tmaps);
            for (size_t k = 0; k < lb->ntmaps; k++) {
                const json_t *s = json_array_get(tm, k);
                char t[192];
                if (!json_is_string(s))
                    return fail(e, ip(t, sizeof t, r, k), "expected a tensor map name, got %s", jtype(s));
                lb->tmaps[k] = xstrdup(json_string_value(s));
            }
            if (lb->bytes < 128 * lb->ntmaps)
                return fail(e, kp(r, sizeof r, p, "bytes"),
                            "%llu bytes cannot hold %zu tensor map%s (%zu bytes)",
                            (unsigned long long)lb->bytes, lb->ntmaps, lb->ntmaps == 1 ? "" : "s",
                            128 * lb->ntmaps);
        } else {
            return fail(e, q, "expected one of the keys \"fill\", \"hash32\", \"file\", \"tensor_maps\"");
        }
    }
    return 0;
}

static const char DT_CHOICES[] = "UINT8, UINT16, UINT32, INT32, UINT64, INT64, FLOAT16, FLOAT32, "
    "FLOAT64, BFLOAT16, FLOAT32_FTZ, TFLOAT32, TFLOAT32_FTZ, 16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B";

static int read_tmap(errbuf *e, const json_t *t, const char *p, launch_case *c, launch_tmap *m)
{
    char q[160];
    const char *name = NULL, *enc = NULL;
    long long v[5], rank = 0, x = 0;
    if (!json_is_object(t))
        return fail(e, p, "expected an object, got %s", jtype(t));
    static const char *const tkeys[] = {
        "name", "encode", "data_type", "rank", "global_address", "global_dim", "global_strides", "box_dim",
        "pixel_box_lower_corner", "pixel_box_upper_corner", "pixel_box_lower_corner_width",
        "pixel_box_upper_corner_width", "channels_per_pixel", "pixels_per_column", "mode",
        "element_strides", "interleave", "swizzle", "l2_promotion", "oob_fill", NULL};
    if (check_keys(e, t, p, tkeys))
        return -1;
    if (get_str(e, t, p, "name", true, &name))
        return -1;
    if (find_tmap_index(c, name) >= 0)
        return fail(e, kp(q, sizeof q, p, "name"), "duplicate tensor map name \"%s\"", name);
    m->name = xstrdup(name);
    m->status = -2;
    if (get_str(e, t, p, "encode", true, &enc))
        return -1;
    m->encode = tma_enum_value("encode", enc);
    if (m->encode < 0)
        return fail(e, kp(q, sizeof q, p, "encode"),
                    "unknown encoder \"%s\" (one of tiled, im2col, im2col_wide)", enc);
    if (get_enum(e, t, p, "data_type", true, "data_type", DT_CHOICES, &m->data_type) ||
        get_enum(e, t, p, "interleave", false, "interleave", "NONE, 16B, 32B", &m->interleave) ||
        get_enum(e, t, p, "swizzle", false, "swizzle",
                 "NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B", &m->swizzle) ||
        get_enum(e, t, p, "l2_promotion", false, "l2_promotion", "NONE, L2_64B, L2_128B, L2_256B",
                 &m->l2_promotion) ||
        get_enum(e, t, p, "oob_fill", false, "oob_fill", "NONE, NAN_REQUEST_ZERO_FMA", &m->oob_fill) ||
        get_int(e, t, p, "rank", true, 1, 5, &rank))
        return -1;
    m->rank = (uint32_t)rank;
    char rk[32];
    snprintf(rk, sizeof rk, "rank %lld", rank);

    /* global_address: {"buffer": name, "offset": k} or a plain address. */
    const json_t *ga = json_object_get(t, "global_address");
    kp(q, sizeof q, p, "global_address");
    if (!ga)
        return fail(e, p, "missing required key \"global_address\"");
    if (json_is_object(ga)) {
        const char *bn = NULL;
        long long off = 0;
        if (get_str(e, ga, q, "buffer", true, &bn) || get_int(e, ga, q, "offset", false, 0, LLONG_MAX, &off))
            return -1;
        if (find_buffer_index(c, bn) < 0) {
            char r[192];
            return fail(e, kp(r, sizeof r, q, "buffer"), "no buffer named \"%s\"", bn);
        }
        m->buffer = xstrdup(bn);
        m->offset = (uint64_t)off;
    } else if (json_is_integer(ga)) {
        m->offset = (uint64_t)json_integer_value(ga);
    } else {
        return fail(e, q, "expected {\"buffer\": NAME, \"offset\": BYTES} or an integer address, got %s",
                    jtype(ga));
    }

    if (get_ints(e, t, p, "global_dim", true, (int)rank, rk, 0, LLONG_MAX, v))
        return -1;
    for (int i = 0; i < rank; i++)
        m->global_dim[i] = (uint64_t)v[i];
    char rk1[48];
    snprintf(rk1, sizeof rk1, "rank - 1 = %lld", rank - 1);
    if (get_ints(e, t, p, "global_strides", rank > 1, (int)rank - 1, rk1, 0, LLONG_MAX, v))
        return -1;
    for (int i = 0; i + 1 < rank; i++)
        m->global_strides[i] = (uint64_t)v[i];
    for (int i = 0; i < 5; i++)
        v[i] = 1;
    if (get_ints(e, t, p, "element_strides", false, (int)rank, rk, 0, UINT32_MAX, v))
        return -1;
    for (int i = 0; i < rank; i++)
        m->element_strides[i] = (uint32_t)v[i];

    if (m->encode == TMA_MAP_TILED) {
        if (get_ints(e, t, p, "box_dim", true, (int)rank, rk, 0, UINT32_MAX, v))
            return -1;
        for (int i = 0; i < rank; i++)
            m->box_dim[i] = (uint32_t)v[i];
        return 0;
    }
    if (get_int(e, t, p, "channels_per_pixel", true, 0, UINT32_MAX, &x))
        return -1;
    m->channels_per_pixel = (uint32_t)x;
    if (get_int(e, t, p, "pixels_per_column", true, 0, UINT32_MAX, &x))
        return -1;
    m->pixels_per_column = (uint32_t)x;
    if (m->encode == TMA_MAP_IM2COL) {
        if (rank < 3)
            return fail(e, kp(q, sizeof q, p, "rank"), "im2col needs rank 3..5, got %lld", rank);
        char rk2[48];
        snprintf(rk2, sizeof rk2, "rank - 2 = %lld", rank - 2);
        if (get_ints(e, t, p, "pixel_box_lower_corner", true, (int)rank - 2, rk2, INT_MIN, INT_MAX, v))
            return -1;
        for (int i = 0; i < rank - 2; i++)
            m->lower[i] = (int)v[i];
        if (get_ints(e, t, p, "pixel_box_upper_corner", true, (int)rank - 2, rk2, INT_MIN, INT_MAX, v))
            return -1;
        for (int i = 0; i < rank - 2; i++)
            m->upper[i] = (int)v[i];
        return 0;
    }
    if (get_int(e, t, p, "pixel_box_lower_corner_width", true, INT_MIN, INT_MAX, &x))
        return -1;
    m->lower_w = (int)x;
    if (get_int(e, t, p, "pixel_box_upper_corner_width", true, INT_MIN, INT_MAX, &x))
        return -1;
    m->upper_w = (int)x;
    return get_enum(e, t, p, "mode", false, "mode", "W, W128", &m->mode);
}

static int read_tmaps(errbuf *e, const json_t *o, launch_case *c)
{
    const json_t *arr = json_object_get(o, "tensor_maps");
    if (!arr)
        return 0;
    if (!json_is_array(arr))
        return fail(e, "tensor_maps", "expected an array, got %s", jtype(arr));
    size_t n = json_array_size(arr);
    c->tmaps = xcalloc(n, sizeof *c->tmaps);
    for (size_t i = 0; i < n; i++) {
        char p[64];
        c->ntmaps = i + 1;   /* so launch_free sees the partly read map */
        if (read_tmap(e, json_array_get(arr, i), ip(p, sizeof p, "tensor_maps", i), c, &c->tmaps[i]))
            return -1;
    }
    return 0;
}

/* Buffers that hold map images name maps that are read only after them. */
static int check_buffer_tmaps(errbuf *e, const launch_case *c)
{
    for (size_t i = 0; i < c->nbuffers; i++)
        for (size_t k = 0; k < c->buffers[i].ntmaps; k++)
            if (find_tmap_index(c, c->buffers[i].tmaps[k]) < 0) {
                char p[128];
                snprintf(p, sizeof p, "buffers[%zu].init.tensor_maps[%zu]", i, k);
                return fail(e, p, "no tensor map named \"%s\"", c->buffers[i].tmaps[k]);
            }
    return 0;
}

static const struct {
    const char *key;
    int kind;
    uint32_t size;
    long long lo;
    unsigned long long hi;
} scalar_kinds[] = {
    {"u8", LAUNCH_P_U8, 1, 0, UINT8_MAX},     {"u16", LAUNCH_P_U16, 2, 0, UINT16_MAX},
    {"u32", LAUNCH_P_U32, 4, 0, UINT32_MAX},  {"u64", LAUNCH_P_U64, 8, 0, UINT64_MAX},
    {"s8", LAUNCH_P_S8, 1, INT8_MIN, INT8_MAX}, {"s16", LAUNCH_P_S16, 2, INT16_MIN, INT16_MAX},
    {"s32", LAUNCH_P_S32, 4, INT32_MIN, INT32_MAX}, {"s64", LAUNCH_P_S64, 8, INT64_MIN, INT64_MAX},
    {"f32", LAUNCH_P_F32, 4, 0, 0},           {"f64", LAUNCH_P_F64, 8, 0, 0},
    {"pointer", LAUNCH_P_POINTER, 8, 0, 0},   {"tensor_map", LAUNCH_P_TMAP, 128, 0, 0},
};
#define NSCALAR (sizeof scalar_kinds / sizeof scalar_kinds[0])

uint32_t launch_param_size(int kind)
{
    for (size_t i = 0; i < NSCALAR; i++)
        if (scalar_kinds[i].kind == kind)
            return scalar_kinds[i].size;
    return 0;
}
const char *launch_param_kind_name(int kind)
{
    if (kind == LAUNCH_P_STRUCT)
        return "struct";
    if (kind == LAUNCH_P_PAD)
        return "pad";
    for (size_t i = 0; i < NSCALAR; i++)
        if (scalar_kinds[i].kind == kind)
            return scalar_kinds[i].key;
    return "?";
}

void launch_param_free(launch_param *p)
{
    free(p->ref);
    p->ref = NULL;
    for (size_t i = 0; i < p->nfields; i++)
        launch_param_free(&p->fields[i]);
    free(p->fields);
    p->fields = NULL;
    p->nfields = 0;
}

/* A scalar value: JSON integer (or real for f32/f64), or a string holding
 * an integer in C syntax ("0x7f..."), for u64 values jansson cannot hold. */
static int scalar_value(errbuf *e, const char *p, const json_t *v, size_t k, uint64_t *bits)
{
    int kind = scalar_kinds[k].kind;
    if (kind == LAUNCH_P_F32 || kind == LAUNCH_P_F64) {
        if (!json_is_number(v))
            return fail(e, p, "expected a number, got %s", jtype(v));
        double d = json_number_value(v);
        if (kind == LAUNCH_P_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        } else {
            memcpy(bits, &d, 8);
        }
        return 0;
    }
    bool is_signed = kind >= LAUNCH_P_S8 && kind <= LAUNCH_P_S64;
    uint64_t u;
    int64_t s;
    if (json_is_integer(v)) {
        s = json_integer_value(v);
        u = (uint64_t)s;
        if (!is_signed && s < 0)
            return fail(e, p, "%lld is negative, but %s is unsigned", (long long)s, scalar_kinds[k].key);
    } else if (json_is_string(v)) {
        const char *str = json_string_value(v);
        char *end;
        errno = 0;
        if (is_signed) {
            s = strtoll(str, &end, 0);
            u = (uint64_t)s;
        } else {
            u = strtoull(str, &end, 0);
            s = (int64_t)u;
            if (str[strspn(str, " \t")] == '-')
                return fail(e, p, "\"%s\" is negative, but %s is unsigned", str, scalar_kinds[k].key);
        }
        if (!*str || *end || errno)
            return fail(e, p, "\"%s\" is not an integer", str);
    } else {
        return fail(e, p, "expected an integer, got %s", jtype(v));
    }
    if (is_signed ? (s < scalar_kinds[k].lo || (s > 0 && (uint64_t)s > scalar_kinds[k].hi))
                  : u > scalar_kinds[k].hi)
        return fail(e, p, "%s%llu does not fit in %s", is_signed && s < 0 ? "-" : "",
                    is_signed && s < 0 ? (unsigned long long)-(s + 1) + 1 : (unsigned long long)u,
                    scalar_kinds[k].key);
    *bits = u;
    return 0;
}

/* Pad bytes a struct may ask for: far more than any kernel's parameter
 * space (at most 32764 bytes), so only nonsense is refused here; the real
 * bound is the parameter's size, checked in launch_build_params. */
#define PAD_MAX 65536

/* One parameter object at `p` ("params[3]", or "params[3].struct[2]" for a
 * field of a struct, where `in_struct` allows {"pad": N}). */
static int read_param(errbuf *e, const json_t *v, const char *p, bool in_struct, launch_case *c,
                      launch_param *lp)
{
    char q[192];
    if (!json_is_object(v))
        return fail(e, p, "expected an object such as {\"u32\": 5}, got %s", jtype(v));
    const json_t *val;
    /* ptxi extension of ptxi-launch/1: {"struct": [field, ...]} */
    if ((val = json_object_get(v, "struct"))) {
        kp(q, sizeof q, p, "struct");
        if (!json_is_array(val))
            return fail(e, q, "expected an array of fields such as [{\"u32\": 5}, {\"pad\": 4}], got %s",
                        jtype(val));
        lp->kind = LAUNCH_P_STRUCT;
        lp->nfields = json_array_size(val);
        lp->fields = xcalloc(lp->nfields, sizeof *lp->fields);
        for (size_t i = 0; i < lp->nfields; i++) {
            char fp[224];
            ip(fp, sizeof fp, q, i);
            if (read_param(e, json_array_get(val, i), fp, true, c, &lp->fields[i]))
                return -1;
        }
        return 0;
    }
    if ((val = json_object_get(v, "pad"))) {
        kp(q, sizeof q, p, "pad");
        if (!in_struct)
            return fail(e, q, "padding is only allowed among the fields of a {\"struct\": [...]}");
        long long n;
        if (want_int(e, q, val, 0, PAD_MAX, &n))
            return -1;
        lp->kind = LAUNCH_P_PAD;
        lp->bits = (uint64_t)n;
        return 0;
    }
    size_t k = NSCALAR;
    for (size_t j = 0; j < NSCALAR && k == NSCALAR; j++)
        if (json_object_get(v, scalar_kinds[j].key))
            k = j;
    if (k == NSCALAR) {
        const char *first = json_object_iter_key(json_object_iter((json_t *)v));
        return fail(e, p, "unknown parameter kind%s%s%s (one of tensor_map, pointer, "
                    "u8, u16, u32, u64, s8, s16, s32, s64, f32, f64, struct%s)",
                    first ? " \"" : "", first ? first : "", first ? "\"" : "", in_struct ? ", pad" : "");
    }
    lp->kind = scalar_kinds[k].kind;
    const char *pkeys[] = {scalar_kinds[k].key, lp->kind == LAUNCH_P_POINTER ? "offset" : NULL, NULL};
    if (check_keys(e, v, p, pkeys))
        return -1;
    kp(q, sizeof q, p, scalar_kinds[k].key);
    val = json_object_get(v, scalar_kinds[k].key);
    if (lp->kind == LAUNCH_P_TMAP || lp->kind == LAUNCH_P_POINTER) {
        if (!json_is_string(val))
            return fail(e, q, "expected a %s name, got %s",
                        lp->kind == LAUNCH_P_TMAP ? "tensor map" : "buffer", jtype(val));
        const char *name = json_string_value(val);
        if (lp->kind == LAUNCH_P_TMAP && find_tmap_index(c, name) < 0)
            return fail(e, q, "no tensor map named \"%s\"", name);
        if (lp->kind == LAUNCH_P_POINTER && find_buffer_index(c, name) < 0)
            return fail(e, q, "no buffer named \"%s\"", name);
        lp->ref = xstrdup(name);
        if (lp->kind == LAUNCH_P_POINTER) {
            long long off = 0;
            if (get_int(e, v, p, "offset", false, LLONG_MIN, LLONG_MAX, &off))
                return -1;
            lp->offset = (uint64_t)off;
        }
        return 0;
    }
    return scalar_value(e, q, val, k, &lp->bits);
}

static int read_params(errbuf *e, const json_t *o, launch_case *c)
{
    const json_t *arr = json_object_get(o, "params");
    if (!arr)
        return 0;
    c->has_params = true;
    if (!json_is_array(arr))
        return fail(e, "params", "expected an array, got %s", jtype(arr));
    c->nparams = json_array_size(arr);
    c->params = xcalloc(c->nparams, sizeof *c->params);
    for (size_t i = 0; i < c->nparams; i++) {
        char p[64];
        ip(p, sizeof p, "params", i);
        if (read_param(e, json_array_get(arr, i), p, false, c, &c->params[i]))
            return -1;
    }
    return 0;
}

static int status_value(errbuf *e, const char *p, const json_t *v, int *out)
{
    if (!json_is_string(v))
        return fail(e, p, "expected \"CUDA_SUCCESS\" or \"CUDA_ERROR_INVALID_VALUE\", got %s", jtype(v));
    const char *s = json_string_value(v);
    if (!strcmp(s, "CUDA_SUCCESS"))
        *out = TMA_SUCCESS;
    else if (!strcmp(s, "CUDA_ERROR_INVALID_VALUE"))
        *out = TMA_ERROR_INVALID_VALUE;
    else
        return fail(e, p, "unknown status \"%s\" (CUDA_SUCCESS or CUDA_ERROR_INVALID_VALUE)", s);
    return 0;
}

/* expect.launch: how the launch must stop.  A string is a CUDA error name
 * ("CUDA_ERROR_ILLEGAL_ADDRESS": any fault, trap or launch error, the name
 * informative) or a kind of stop; an object {"stop": KIND, "message": SUB}
 * also asks for SUB in the report. */
static const struct { const char *name; int stop; } stop_kinds[] = {
    {"fault", INTERP_FAULT}, {"deadlock", INTERP_DEADLOCK}, {"trap", INTERP_TRAP},
    {"step_limit", INTERP_STEP_LIMIT}, {"launch_error", INTERP_LAUNCH_ERROR},
    {"unsupported", INTERP_UNSUPPORTED}, {"race", LAUNCH_STOP_RACE},
};

static int stop_kind(errbuf *e, const char *p, const json_t *v, launch_case *c)
{
    if (!json_is_string(v))
        return fail(e, p, "expected a kind of stop (fault, deadlock, race, trap, step_limit, launch_error, "
                    "unsupported) or a CUDA error name such as \"CUDA_ERROR_ILLEGAL_ADDRESS\", got %s", jtype(v));
    const char *s = json_string_value(v);
    c->expect_launch = xstrdup(s);
    if (!strncmp(s, "CUDA_ERROR_", 11)) {
        c->expect_stop = LAUNCH_STOP_ANY_FAULT;
        return 0;
    }
    for (size_t i = 0; i < sizeof stop_kinds / sizeof stop_kinds[0]; i++)
        if (!strcmp(s, stop_kinds[i].name)) {
            c->expect_stop = stop_kinds[i].stop;
            return 0;
        }
    return fail(e, p, "unknown kind of stop \"%s\" (one of fault, deadlock, race, trap, step_limit, "
                "launch_error, unsupported, or a CUDA_ERROR_* name)", s);
}

static int read_expect_launch(errbuf *e, const json_t *la, launch_case *c)
{
    if (!json_is_object(la))
        return stop_kind(e, "expect.launch", la, c);
    static const char *const lkeys[] = {"stop", "message", NULL};
    const char *msg = NULL;
    if (check_keys(e, la, "expect.launch", lkeys) || get_str(e, la, "expect.launch", "message", false, &msg))
        return -1;
    const json_t *st = json_object_get(la, "stop");
    if (!st)
        return fail(e, "expect.launch", "missing required key \"stop\"");
    if (stop_kind(e, "expect.launch.stop", st, c))
        return -1;
    if (msg)
        c->expect_message = xstrdup(msg);
    return 0;
}

static int read_expect(errbuf *e, const json_t *o, launch_case *c)
{
    c->expect_encode = xcalloc(c->ntmaps, sizeof *c->expect_encode);
    for (size_t i = 0; i < c->ntmaps; i++)
        c->expect_encode[i] = -1;
    const json_t *ex = json_object_get(o, "expect");
    if (!ex)
        return 0;
    if (!json_is_object(ex))
        return fail(e, "expect", "expected an object, got %s", jtype(ex));
    static const char *const ekeys[] = {"encode", "buffers", "launch", NULL};
    if (check_keys(e, ex, "expect", ekeys))
        return -1;

    const json_t *enc = json_object_get(ex, "encode");
    if (enc) {
        if (!json_is_array(enc))
            return fail(e, "expect.encode", "expected an array, got %s", jtype(enc));
        for (size_t i = 0; i < json_array_size(enc); i++) {
            char p[64], q[96];
            const json_t *x = json_array_get(enc, i);
            const char *tm = NULL;
            ip(p, sizeof p, "expect.encode", i);
            if (!json_is_object(x))
                return fail(e, p, "expected an object, got %s", jtype(x));
            static const char *const nkeys[] = {"tensor_map", "status", NULL};
            if (check_keys(e, x, p, nkeys))
                return -1;
            if (get_str(e, x, p, "tensor_map", true, &tm))
                return -1;
            int k = find_tmap_index(c, tm);
            if (k < 0)
                return fail(e, kp(q, sizeof q, p, "tensor_map"), "no tensor map named \"%s\"", tm);
            const json_t *st = json_object_get(x, "status");
            if (!st)
                return fail(e, p, "missing required key \"status\"");
            if (status_value(e, kp(q, sizeof q, p, "status"), st, &c->expect_encode[k]))
                return -1;
        }
    }

    const json_t *bufs = json_object_get(ex, "buffers");
    if (bufs) {
        if (!json_is_array(bufs))
            return fail(e, "expect.buffers", "expected an array, got %s", jtype(bufs));
        c->nexpect_bufs = json_array_size(bufs);
        c->expect_bufs = xcalloc(c->nexpect_bufs, sizeof *c->expect_bufs);
        for (size_t i = 0; i < c->nexpect_bufs; i++) {
            char p[64], q[96], r[128];
            const json_t *x = json_array_get(bufs, i);
            launch_expect_buf *eb = &c->expect_bufs[i];
            const char *name = NULL, *file = NULL;
            ip(p, sizeof p, "expect.buffers", i);
            if (!json_is_object(x))
                return fail(e, p, "expected an object, got %s", jtype(x));
            static const char *const xkeys[] = {"name", "file", "ignore", "atol", "rtol", "ulp", "sha256", NULL};
            if (check_keys(e, x, p, xkeys))
                return -1;
            if (get_str(e, x, p, "name", true, &name) || get_str(e, x, p, "file", false, &file))
                return -1;
            if (find_buffer_index(c, name) < 0)
                return fail(e, kp(q, sizeof q, p, "name"), "no buffer named \"%s\"", name);
            eb->name = xstrdup(name);
            const json_t *sh = json_object_get(x, "sha256");
            if (sh) {
                const char *hx = json_is_string(sh) ? json_string_value(sh) : NULL;
                kp(q, sizeof q, p, "sha256");
                if (!hx || strlen(hx) != 64 || strspn(hx, "0123456789abcdefABCDEF") != 64)
                    return fail(e, q, "expected 64 hexadecimal digits");
                for (int k = 0; k < 32; k++) {
                    unsigned v = 0;
                    sscanf(hx + 2 * k, "%2x", &v);
                    eb->sha256[k] = (uint8_t)v;
                }
                eb->has_sha256 = 1;
            }
            for (int t = 0; t < 2; t++) {
                const char *key = t ? "rtol" : "atol";
                const json_t *tv = json_object_get(x, key);
                if (!tv)
                    continue;
                if (!json_is_number(tv) || !(json_number_value(tv) >= 0))
                    return fail(e, kp(q, sizeof q, p, key), "expected a number >= 0, got %s", jtype(tv));
                *(t ? &eb->rtol : &eb->atol) = json_number_value(tv);
                eb->has_tol = true;
            }
            if (json_object_get(x, "ulp")) {
                long long u;
                if (get_int(e, x, p, "ulp", false, 0, LLONG_MAX, &u))
                    return -1;
                eb->ulp = (uint64_t)u;
                eb->has_tol = true;
            }
            if (eb->has_tol && !c->buffers[find_buffer_index(c, name)].dtype[0])
                return fail(e, p, "atol/rtol/ulp compare values: buffer \"%s\" needs a \"dtype\"", name);
            if (file) {
                eb->file = resolve(c->dir, file);
                eb->file_rel = xstrdup(file);
            }
            const json_t *ig = json_object_get(x, "ignore");
            if (!ig)
                continue;
            kp(q, sizeof q, p, "ignore");
            if (!json_is_array(ig))
                return fail(e, q, "expected an array of [offset, length] pairs, got %s", jtype(ig));
            eb->nignore = json_array_size(ig);
            eb->ignore = xcalloc(eb->nignore, sizeof *eb->ignore);
            for (size_t k = 0; k < eb->nignore; k++) {
                const json_t *pr = json_array_get(ig, k);
                long long v[2];
                ip(r, sizeof r, q, k);
                if (!json_is_array(pr) || json_array_size(pr) != 2)
                    return fail(e, r, "expected an [offset, length] pair");
                for (int j = 0; j < 2; j++) {
                    char s[160];
                    if (want_int(e, ip(s, sizeof s, r, (size_t)j), json_array_get(pr, (size_t)j), 0,
                                 LLONG_MAX, &v[j]))
                        return -1;
                }
                eb->ignore[k][0] = (uint64_t)v[0];
                eb->ignore[k][1] = (uint64_t)v[1];
            }
        }
    }

    const json_t *la = json_object_get(ex, "launch");
    if (la)
        return read_expect_launch(e, la, c);
    return 0;
}

int launch_from_json(const json_t *o, const char *dir, const char *origin, launch_case *c,
                     char *err, size_t errlen)
{
    errbuf e = {err, errlen};
    memset(c, 0, sizeof *c);
    c->dir = xstrdup(dir ? dir : ".");
    c->origin = xstrdup(origin ? origin : "");
    c->cluster[0] = c->cluster[1] = c->cluster[2] = 1;
    if (!json_is_object(o))
        return fail(&e, "", "expected a launch object {...}, got %s", jtype(o));
    static const char *const keys[] = {"format", "name", "description", "ptx", "kernel", "grid", "block",
                                       "cluster", "dynamic_shared_bytes", "buffers", "tensor_maps", "params",
                                       "expect", NULL};
    if (check_keys(&e, o, "", keys))
        return -1;
    const char *fmt = NULL, *name = NULL, *ptx = NULL, *kernel = NULL;
    long long smem = 0;
    if (get_str(&e, o, "", "format", false, &fmt))
        return -1;
    if (fmt && strcmp(fmt, "ptxi-launch/1"))
        return fail(&e, "format", "unsupported format \"%s\" (this ptxi reads ptxi-launch/1)", fmt);
    if (get_str(&e, o, "", "name", false, &name))
        return -1;
    c->name = xstrdup(name ? name : origin);
    if (get_str(&e, o, "", "ptx", false, &ptx) || get_str(&e, o, "", "kernel", ptx != NULL, &kernel))
        return -1;
    if (read_dim3(&e, o, "grid", ptx != NULL, c->grid) || read_dim3(&e, o, "block", ptx != NULL, c->block) ||
        read_dim3(&e, o, "cluster", false, c->cluster) ||
        get_int(&e, o, "", "dynamic_shared_bytes", false, 0, UINT32_MAX, &smem))
        return -1;
    c->dyn_smem = (uint32_t)smem;
    if (ptx)
        c->ptx = resolve(c->dir, ptx);
    if (kernel)
        c->kernel = xstrdup(kernel);
    if (read_buffers(&e, o, c) || read_tmaps(&e, o, c) || check_buffer_tmaps(&e, c) || read_params(&e, o, c) || read_expect(&e, o, c))
        return -1;
    /* An encode-only case stops before the launch; anything more needs one. */
    if (!ptx && (c->nexpect_bufs || c->expect_launch))
        return fail(&e, "", "missing required key \"ptx\" (the case expects %s after a launch)",
                    c->expect_launch ? "a fault" : "buffers");
    if (ptx && !json_object_get(o, "params"))
        return fail(&e, "", "missing required key \"params\" (use [] for a kernel without parameters)");
    return 0;
}

void launch_free(launch_case *c)
{
    if (!c)
        return;
    free(c->name); free(c->origin); free(c->dir); free(c->ptx); free(c->kernel);
    for (size_t i = 0; i < c->nbuffers; i++) {
        launch_buffer *b = &c->buffers[i];
        free(b->name);
        free(b->file);
        free(b->data);
        for (size_t k = 0; k < b->ntmaps; k++)
            free(b->tmaps[k]);
        free(b->tmaps);
    }
    free(c->buffers);
    for (size_t i = 0; i < c->ntmaps; i++) {
        free(c->tmaps[i].name);
        free(c->tmaps[i].buffer);
    }
    free(c->tmaps);
    for (size_t i = 0; i < c->nparams; i++)
        launch_param_free(&c->params[i]);
    free(c->params);
    free(c->expect_encode);
    for (size_t i = 0; i < c->nexpect_bufs; i++) {
        free(c->expect_bufs[i].name);
        free(c->expect_bufs[i].file);
        free(c->expect_bufs[i].file_rel);
        free(c->expect_bufs[i].ignore);
    }
    free(c->expect_bufs);
    free(c->expect_launch);
    free(c->expect_message);
    free(c->broken);
    memset(c, 0, sizeof *c);
}

void launch_free_all(launch_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        launch_free(&cases[i]);
    free(cases);
}

/* ---- files ------------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suf);

uint8_t *launch_load_data(const char *path, const char *want_dtype, uint64_t *len, char *err, size_t errlen)
{
    uint8_t *d = launch_slurp(path, len);
    if (!d) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    if (!ends_with(path, ".npy"))
        return d;
    const char *dt = NULL;
    uint64_t shape[5], off = 0;
    int nd = 0;
    char why[256];
    if (launch_read_npy(d, *len, &dt, shape, &nd, &off, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        free(d);
        return NULL;
    }
    /* bf16 travels as <u2 (numpy has no bfloat16) */
    if (want_dtype && *want_dtype && strcmp(dt, want_dtype) &&
        !(!strcmp(want_dtype, "bf16") && !strcmp(dt, "u16"))) {
        snprintf(err, errlen, "%s holds %s, the buffer's dtype is %s", path, dt, want_dtype);
        free(d);
        return NULL;
    }
    *len -= off;
    memmove(d, d + off, *len);
    return d;
}

uint8_t *launch_slurp(const char *path, uint64_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *p = malloc(cap);
    while (p) {
        size_t r = fread(p + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        uint8_t *q = realloc(p, cap * 2);
        if (!q) {
            free(p);
            p = NULL;
            break;
        }
        p = q;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(p);
        errno = EIO;
        return NULL;
    }
    *len = n;
    return p;
}

static char *dir_of(const char *path)
{
    const char *s = strrchr(path, '/');
    if (!s)
        return xstrdup(".");
    if (s == path)
        return xstrdup("/");
    char *d = xstrdup(path);
    d[s - path] = 0;
    return d;
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* A case that could not be read: it keeps its line's name (when the line
 * parses as JSON and has one) and the reason, and fails alone. */
static void broken_case(launch_case *c, const json_t *o, const char *dir, const char *origin, const char *why)
{
    launch_free(c);
    memset(c, 0, sizeof *c);
    const json_t *nm = o ? json_object_get(o, "name") : NULL;
    c->name = xstrdup(json_is_string(nm) ? json_string_value(nm) : origin);
    c->origin = xstrdup(origin);
    c->dir = xstrdup(dir);
    c->broken = xstrdup(why);
}

int launch_read_file_all(const char *path, launch_case **cases, size_t *n, char *err, size_t errlen)
{
    *cases = NULL;
    *n = 0;
    uint64_t len = 0;
    uint8_t *text = launch_slurp(path, &len);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    char *dir = dir_of(path);
    bool jsonl = ends_with(path, ".jsonl");
    size_t cap = 0;
    int rc = 0;
    uint64_t pos = 0;
    unsigned line = 1;
    while (pos < len) {
        /* .json: the whole file is one object; .jsonl: one per line. */
        uint64_t end = len;
        if (jsonl) {
            const uint8_t *nl = memchr(text + pos, '\n', len - pos);
            end = nl ? (uint64_t)(nl - text) : len;
        }
        size_t span = strspn((const char *)text + pos, " \t\r");
        if (jsonl && pos + span >= end) {   /* blank line */
            pos = end + 1;
            line++;
            continue;
        }
        json_error_t je;
        json_t *o = json_loadb((const char *)text + pos, end - pos, JSON_REJECT_DUPLICATES, &je);
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            launch_case *nc = realloc(*cases, cap * sizeof **cases);
            if (!nc) {
                if (o)
                    json_decref(o);
                snprintf(err, errlen, "%s: out of memory", path);
                rc = -1;
                break;
            }
            *cases = nc;
        }
        char origin[4200];
        if (jsonl)
            snprintf(origin, sizeof origin, "%s:%u", path, line);
        else
            snprintf(origin, sizeof origin, "%s", path);
        char why[1024], full[5400];
        if (!o) {
            memset(&(*cases)[*n], 0, sizeof **cases);
            snprintf(full, sizeof full, "%s:%d:%d: JSON error: %s", path, jsonl ? (int)line : je.line,
                     je.column, je.text);
            broken_case(&(*cases)[(*n)++], NULL, dir, origin, full);
        } else {
            int r = launch_from_json(o, dir, origin, &(*cases)[*n], why, sizeof why);
            if (r) {
                snprintf(full, sizeof full, "%s: %s", origin, why);
                broken_case(&(*cases)[*n], o, dir, origin, full);
            }
            (*n)++;
            json_decref(o);
        }
        if (!jsonl)
            break;
        pos = end + 1;
        line++;
    }
    free(dir);
    free(text);
    if (rc) {
        launch_free_all(*cases, *n);
        *cases = NULL;
        *n = 0;
    } else if (*n == 0) {
        snprintf(err, errlen, "%s: no launch object in the file", path);
        return -1;
    }
    return rc;
}

int launch_read_file(const char *path, launch_case **cases, size_t *n, char *err, size_t errlen)
{
    if (launch_read_file_all(path, cases, n, err, errlen))
        return -1;
    for (size_t i = 0; i < *n; i++)
        if ((*cases)[i].broken) {
            snprintf(err, errlen, "%s", (*cases)[i].broken);
            launch_free_all(*cases, *n);
            *cases = NULL;
            *n = 0;
            return -1;
        }
    return 0;
}

bool launch_file_is_launch(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* The format key is normally first; the first line is enough to tell. */
    char *nl = strchr(buf, '\n');
    if (nl && ends_with(path, ".jsonl"))
        *nl = 0;
    return strstr(buf, "\"ptxi-launch/") != NULL;
}

/* ---- setup ------------------------------------------------------------------ */

uint32_t launch_hash32(uint32_t w, uint32_t seed)
{
    uint32_t x = (w * 0x9E3779B9u) ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

void launch_fill_hash32(uint8_t *p, uint64_t bytes, uint32_t seed)
{
    launch_fill_hash32_masked(p, bytes, seed, 0, 0);
}

void launch_fill_hash32_masked(uint8_t *p, uint64_t bytes, uint32_t seed, uint32_t clear, uint32_t set)
{
    for (uint64_t off = 0; off < bytes; off += 4) {
        uint32_t h = (launch_hash32((uint32_t)(off / 4), seed) & ~clear) | set;
        for (uint64_t k = 0; k < 4 && off + k < bytes; k++)
            p[off + k] = (uint8_t)(h >> (8 * k));
    }
}

static int encode_map(launch_tmap *m, uint64_t addr)
{
    int dt = m->data_type;
    m->why[0] = 0;
    switch (m->encode) {
    case TMA_MAP_TILED:
        return tma_encode_tiled(m->map, dt, m->rank, addr, m->global_dim, m->global_strides, m->box_dim,
                                m->element_strides, m->interleave, m->swizzle, m->l2_promotion,
                                m->oob_fill, m->why, sizeof m->why);
    case TMA_MAP_IM2COL:
        return tma_encode_im2col(m->map, dt, m->rank, addr, m->global_dim, m->global_strides, m->lower,
                                 m->upper, m->channels_per_pixel, m->pixels_per_column,
                                 m->element_strides, m->interleave, m->swizzle, m->l2_promotion,
                                 m->oob_fill, m->why, sizeof m->why);
    default:
        return tma_encode_im2col_wide(m->map, dt, m->rank, addr, m->global_dim, m->global_strides,
                                      m->lower_w, m->upper_w, m->channels_per_pixel,
                                      m->pixels_per_column, m->element_strides, m->interleave,
                                      m->mode, m->swizzle, m->l2_promotion, m->oob_fill, m->why,
                                      sizeof m->why);
    }
}

int launch_setup(launch_case *c, mem_global *g, char *err, size_t errlen)
{
    errbuf e = {err, errlen};
    for (size_t i = 0; i < c->nbuffers; i++) {
        launch_buffer *b = &c->buffers[i];
        char p[64];
        ip(p, sizeof p, "buffers", i);
        b->addr = mem_global_alloc(g, b->bytes, b->align, b->name);
        uint8_t *h = b->addr ? mem_global_host(g, b->addr, b->bytes) : NULL;
        if (!b->addr || (!h && b->bytes))
            return fail(&e, p, "cannot allocate %llu bytes for buffer \"%s\"",
                        (unsigned long long)b->bytes, b->name);
        switch (b->init) {
        case LAUNCH_INIT_FILL:
            memset(h, (int)b->value, b->bytes);
            break;
        case LAUNCH_INIT_HASH32:
            launch_fill_hash32_masked(h, b->bytes, (uint32_t)b->value, b->hash_clear, b->hash_set);
            break;
        case LAUNCH_INIT_FILE: {
            uint64_t n = 0;
            char why[512];
            uint8_t *d = launch_load_data(b->file, b->dtype, &n, why, sizeof why);
            if (!d)
                return fail(&e, p, "init.file: %s", why);
            if (n != b->bytes) {
                free(d);
                return fail(&e, p, "init.file: %s holds %llu bytes but the buffer has %llu", b->file,
                            (unsigned long long)n, (unsigned long long)b->bytes);
            }
            memcpy(h, d, n);
            free(d);
            break;
        }
        case LAUNCH_INIT_DATA:
            if (b->bytes)
                memcpy(h, b->data, b->bytes);
            break;
        default:
            break;
        }
    }
    for (size_t i = 0; i < c->ntmaps; i++) {
        launch_tmap *m = &c->tmaps[i];
        uint64_t addr = m->offset;
        if (m->buffer) {
            const launch_buffer *b = launch_find_buffer(c, m->buffer);
            if (!b) {
                char p[64];
                return fail(&e, ip(p, sizeof p, "tensor_maps", i), "no buffer named \"%s\"", m->buffer);
            }
            addr = b->addr + m->offset;
        }
        memset(m->map, 0, sizeof m->map);
        m->status = encode_map(m, addr);
    }
    for (size_t i = 0; i < c->nbuffers; i++) {
        launch_buffer *b = &c->buffers[i];
        if (b->init != LAUNCH_INIT_TMAPS)
            continue;
        uint8_t *h = mem_global_host(g, b->addr, b->bytes);
        for (size_t k = 0; k < b->ntmaps; k++)
            memcpy(h + 128 * k, launch_find_tmap(c, b->tmaps[k])->map, 128);
    }
    return 0;
}

/* ---- parameters ----------------------------------------------------------- */

/* ".u32 (4 bytes)", ".b8[128] (128 bytes, .align 128)" */
static void describe_param(const ir_symbol *s, char *buf, size_t n)
{
    const char *ty = s->type < IR_T__COUNT && s->type ? ir_types[s->type].name : "?";
    char arr[32] = "";
    if (s->is_array || s->nelem != 1)
        snprintf(arr, sizeof arr, "[%llu]", (unsigned long long)s->nelem);
    char vec[8] = "";
    if (s->vec > 1)
        snprintf(vec, sizeof vec, ".v%u", s->vec);
    char al[32] = "";
    if (s->align)
        snprintf(al, sizeof al, ", .align %u", s->align);
    snprintf(buf, n, "%s.%s%s (%llu byte%s%s)", vec, ty, arr, (unsigned long long)s->size,
             s->size == 1 ? "" : "s", al);
}

/* Natural alignment of a parameter kind as a struct field: a scalar's own
 * size, 8 for a pointer, 64 for a tensor map (CUtensorMap is alignas(64)),
 * 1 for padding, the largest of its fields' for a nested struct. */
static uint64_t field_align(const launch_param *lp)
{
    switch (lp->kind) {
    case LAUNCH_P_PAD: return 1;
    case LAUNCH_P_TMAP: return 64;
    case LAUNCH_P_STRUCT: {
        uint64_t a = 1;
        for (size_t i = 0; i < lp->nfields; i++) {
            uint64_t fa = field_align(&lp->fields[i]);
            if (fa > a)
                a = fa;
        }
        return a;
    }
    default: return launch_param_size(lp->kind);
    }
}

/* The value bytes of a scalar, pointer or tensor-map parameter. */
static void param_bytes(const launch_case *c, const launch_param *lp, uint8_t *dst)
{
    if (lp->kind == LAUNCH_P_TMAP) {
        memcpy(dst, launch_find_tmap(c, lp->ref)->map, 128);
        return;
    }
    uint64_t v = lp->kind == LAUNCH_P_POINTER ? launch_find_buffer(c, lp->ref)->addr + lp->offset : lp->bits;
    for (uint32_t k = 0; k < launch_param_size(lp->kind); k++)
        dst[k] = (uint8_t)(v >> (8 * k));
}

/* Lay the fields of struct `lp` (at JSON path `path`) out into dst[0, cap)
 * as a C compiler lays out a struct: each field at the next multiple of its
 * natural alignment, a nested struct's size rounded up to its alignment.
 * *end is where the last field ends.  A field that would cross `cap` is an
 * error naming its path and its bytes in the parameter (`base`: where dst
 * is in it); `what` describes the kernel parameter.  With dst NULL nothing
 * is written; `visit` (if given) sees each scalar, pointer and tensor-map
 * field with its path and offset in the parameter. */
static int layout_struct(errbuf *e, const launch_case *c, const launch_param *lp, const char *path,
                         uint8_t *dst, uint64_t base, uint64_t cap, const char *what, uint64_t *end,
                         launch_field_fn *visit, void *arg)
{
    uint64_t off = 0;
    for (size_t i = 0; i < lp->nfields; i++) {
        const launch_param *f = &lp->fields[i];
        char fp[192];
        snprintf(fp, sizeof fp, "%s.struct[%zu]", path, i);
        uint64_t a = field_align(f);
        off = (off + a - 1) / a * a;
        uint64_t n;
        if (f->kind == LAUNCH_P_STRUCT) {
            if (off > cap)
                return fail(e, fp, "struct field starts at byte %llu, past the end of %s",
                            (unsigned long long)(base + off), what);
            if (layout_struct(e, c, f, fp, dst ? dst + off : NULL, base + off, cap - off, what, &n, visit, arg))
                return -1;
            n = (n + a - 1) / a * a;
        } else {
            n = f->kind == LAUNCH_P_PAD ? f->bits : launch_param_size(f->kind);
        }
        if (off + n > cap && !n)
            return fail(e, fp, "%s field starts at byte %llu, past the end of %s",
                        launch_param_kind_name(f->kind), (unsigned long long)(base + off), what);
        if (off + n > cap)
            return fail(e, fp, "%s field at bytes %llu..%llu does not fit in %s",
                        launch_param_kind_name(f->kind), (unsigned long long)(base + off),
                        (unsigned long long)(base + off + n - 1), what);
        if (f->kind != LAUNCH_P_STRUCT && f->kind != LAUNCH_P_PAD) {
            if (dst)
                param_bytes(c, f, dst + off);
            if (visit)
                visit(f, fp, base + off, arg);
        }
        off += n;
    }
    *end = off;
    return 0;
}

uint64_t launch_struct_fields(const launch_param *lp, const char *path, launch_field_fn *visit, void *arg)
{
    char err[8];
    errbuf e = {err, sizeof err};
    uint64_t end = 0;
    layout_struct(&e, NULL, lp, path, NULL, 0, UINT64_MAX, "", &end, visit, arg);
    return end;
}

int launch_build_params(const launch_case *c, const ir_module *m, const ir_function *fn,
                        uint8_t **out, uint32_t *size, char *err, size_t errlen)
{
    errbuf e = {err, errlen};
    *out = NULL;
    *size = 0;
    if (fn->nparams != c->nparams)
        return fail(&e, "params", "kernel %s has %u parameter%s but the launch gives %zu", fn->name,
                    fn->nparams, fn->nparams == 1 ? "" : "s", c->nparams);
    uint64_t total = fn->param_bytes;
    for (uint32_t i = 0; i < fn->nparams; i++) {
        const ir_symbol *s = &m->syms[fn->params[i]];
        if ((uint64_t)s->param_offset + s->size > total)
            total = (uint64_t)s->param_offset + s->size;
    }
    uint8_t *blk = xcalloc(total ? total : 1, 1);
    for (uint32_t i = 0; i < fn->nparams; i++) {
        const ir_symbol *s = &m->syms[fn->params[i]];
        const launch_param *lp = &c->params[i];
        char p[32], d[96];
        ip(p, sizeof p, "params", i);
        uint8_t *dst = blk + s->param_offset;
        if (lp->kind == LAUNCH_P_STRUCT) {
            /* shorter than the parameter: the rest stays zero */
            char what[1024];
            uint64_t end;
            describe_param(s, d, sizeof d);
            snprintf(what, sizeof what, "kernel %s's parameter %s, %s", fn->name, s->name, d);
            if (layout_struct(&e, c, lp, p, dst, 0, s->size, what, &end, NULL, NULL)) {
                free(blk);
                return -1;
            }
            continue;
        }
        uint32_t want = launch_param_size(lp->kind);
        if (s->size != want) {
            describe_param(s, d, sizeof d);
            free(blk);
            return fail(&e, p, "kernel %s's parameter %s is %s but the launch gives %s%s", fn->name,
                        s->name, d, launch_param_kind_name(lp->kind),
                        lp->kind == LAUNCH_P_TMAP ? " (128 bytes)" : "");
        }
        if (lp->kind == LAUNCH_P_POINTER) {
            uint64_t v = launch_find_buffer(c, lp->ref)->addr + lp->offset;
            /* `.ptr.align N` promises the pointee's alignment. */
            if (s->is_ptr && s->align > 1 && v % s->align) {
                describe_param(s, d, sizeof d);
                free(blk);
                return fail(&e, p, "pointer %s%+lld is not %u-byte aligned, as kernel %s's parameter %s "
                            "(.ptr.align %u) requires", lp->ref, (long long)lp->offset, s->align,
                            fn->name, s->name, s->align);
            }
        }
        param_bytes(c, lp, dst);
    }
    *out = blk;
    *size = (uint32_t)total;
    return 0;
}

/* ---- comparing ------------------------------------------------------------- */

static bool ignored(const launch_expect_buf *e, uint64_t off)
{
    for (size_t i = 0; i < e->nignore; i++)
        if (off - e->ignore[i][0] < e->ignore[i][1])
            return true;
    return false;
}

/* Where byte `off` of buffer `name` lies in the tensor of each map over
 * that buffer: "offset 1309 is element of tensor map tm (7, 5) [FLOAT32, dims
 * 64 x 32, innermost first]" — the coordinates a kernel writer indexes by. */
/* The coordinates of byte `off` of buffer `name` in the first tensor map
 * of the case over that buffer: the map, coord[] (innermost first) and
 * whether the byte is inside the tensor (not padding).  False if no map
 * describes the buffer there. */
static bool map_coords(const launch_case *c, const char *name, uint64_t off, const launch_tmap **mp,
                       uint64_t coord[5], bool *inside)
{
    for (size_t i = 0; i < c->ntmaps; i++) {
        const launch_tmap *m = &c->tmaps[i];
        if (!m->buffer || strcmp(m->buffer, name) || off < m->offset)
            continue;
        unsigned bits = tma_dtype_bits(m->data_type);
        uint64_t rel = off - m->offset;
        memset(coord, 0, 5 * sizeof *coord);
        *inside = true;
        bool ok = true;
        for (int d = (int)m->rank - 1; d >= 1; d--) {
            uint64_t st = m->global_strides[d - 1];
            if (!st) {
                ok = false;
                break;
            }
            coord[d] = rel / st;
            rel %= st;
            if (coord[d] >= m->global_dim[d])
                *inside = false;
        }
        if (!ok)
            return false;
        /* Sub-byte types: the first element that touches this byte. */
        coord[0] = bits >= 8 ? rel / (bits / 8) : rel * 8 / (bits ? bits : 8);
        if (coord[0] >= m->global_dim[0])
            *inside = false;
        if (m->interleave != TMA_INTERLEAVE_NONE)
            *inside = false;   /* interleaved layouts do not map linearly */
        *mp = m;
        return true;
    }
    return false;
}

static void tensor_coords(const launch_case *c, const char *name, uint64_t off, FILE *out)
{
    const launch_tmap *m;
    uint64_t coord[5];
    bool inside;
    if (!map_coords(c, name, off, &m, coord, &inside))
        return;
    const char *dt = tma_enum_name("data_type", m->data_type);
    fprintf(out, "    first difference: offset %llu is %s tensor map %s (", (unsigned long long)off,
            inside ? "element of" : "padding beside an element of", m->name);
    for (uint32_t d = 0; d < m->rank; d++)
        fprintf(out, "%s%llu", d ? ", " : "", (unsigned long long)coord[d]);
    fprintf(out, ") [%s, dims ", dt ? dt : "?");
    for (uint32_t d = 0; d < m->rank; d++)
        fprintf(out, "%s%llu", d ? " x " : "", (unsigned long long)m->global_dim[d]);
    fprintf(out, ", innermost first]\n");
}

/* numpy's index of element k: "[3,7]" with a shape, "[k]" without. */
static void np_index(const launch_buffer *b, uint64_t k, char *buf, size_t n)
{
    if (b->ndim <= 1) {
        snprintf(buf, n, "[%llu]", (unsigned long long)k);
        return;
    }
    uint64_t idx[5];
    for (int d = b->ndim - 1; d >= 0; d--) {
        idx[d] = k % b->shape[d];
        k /= b->shape[d];
    }
    size_t at = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < b->ndim && at < n; d++)
        at += (size_t)snprintf(buf + at, n - at, "%s%llu", d ? "," : "", (unsigned long long)idx[d]);
    if (at < n)
        snprintf(buf + at, n - at, "]");
}

/* A typed buffer: elements compared by value (tolerances), listed by index. */
static uint64_t compare_typed(const launch_case *c, const launch_expect_buf *e, const launch_buffer *b,
                              const uint8_t *got, uint64_t n, const uint8_t *want, uint64_t wn, FILE *out)
{
    unsigned es = launch_dtype_size(b->dtype);
    int kind = launch_dtype_kind(b->dtype);
    uint64_t ndiff = 0, first = 0, last = 0, nel = (n < wn ? n : wn) / es;
    double max_abs = 0, max_rel = 0;
    if (n != wn)
        fprintf(out, "    buffer %s has %llu bytes but %s holds %llu\n", e->name, (unsigned long long)n,
                e->file ? e->file : "the expected file", (unsigned long long)wn);
    for (uint64_t k = 0; k < nel; k++) {
        if (!memcmp(got + k * es, want + k * es, es) || ignored(e, k * es))
            continue;
        double g = launch_elem_value(b->dtype, got, k), w = launch_elem_value(b->dtype, want, k);
        if (kind == 'f' && isnan(g) && isnan(w))
            continue;   /* NaN == NaN, payloads aside (numpy's equal_nan) */
        double ad = fabs(g - w);
        if (e->has_tol) {
            if (ad <= e->atol + e->rtol * fabs(w))
                continue;
            if (kind == 'f' && e->ulp && launch_elem_ulps(b->dtype, got, want, k) <= e->ulp)
                continue;
        }
        if (!ndiff)
            first = k;
        last = k;
        if (isfinite(ad) && ad > max_abs)
            max_abs = ad;
        if (isfinite(ad) && w != 0 && ad / fabs(w) > max_rel)
            max_rel = ad / fabs(w);
        if (ndiff < 8) {
            char idx[96], gs[64], ws[64];
            np_index(b, k, idx, sizeof idx);
            launch_format_elem(gs, sizeof gs, b->dtype, got, k);
            launch_format_elem(ws, sizeof ws, b->dtype, want, k);
            fprintf(out, "    %s%s: got %s, want %s", e->name, idx, gs, ws);
            if (kind == 'f')
                fprintf(out, " (%llu ulp)", (unsigned long long)launch_elem_ulps(b->dtype, got, want, k));
            const launch_tmap *m;
            uint64_t coord[5];
            bool inside;
            if (map_coords(c, e->name, k * es, &m, coord, &inside)) {
                fprintf(out, " [tensor map %s (", m->name);
                for (uint32_t d = 0; d < m->rank; d++)
                    fprintf(out, "%s%llu", d ? ", " : "", (unsigned long long)coord[d]);
                fprintf(out, ")%s]", inside ? "" : ", padding");
            }
            fputc('\n', out);
        }
        ndiff++;
    }
    if (ndiff) {
        char fi[96], la[96];
        np_index(b, first, fi, sizeof fi);
        np_index(b, last, la, sizeof la);
        fprintf(out, "    %llu of %llu %s elements differ", (unsigned long long)ndiff, (unsigned long long)nel,
                b->dtype);
        if (e->has_tol)
            fprintf(out, " beyond atol %g, rtol %g, ulp %llu", e->atol, e->rtol, (unsigned long long)e->ulp);
        fprintf(out, "; max abs error %g, max rel error %g; first %s%s, last %s%s\n", max_abs, max_rel, e->name, fi,
                e->name, la);
    }
    return ndiff + (n != wn);
}

int launch_check_sha256(const launch_expect_buf *e, const uint8_t *got, uint64_t n, FILE *out)
{
    if (!e->has_sha256)
        return 0;
    uint8_t d[32];
    sha256(got, n, d);
    if (!memcmp(d, e->sha256, 32))
        return 0;
    char gh[65], wh[65];
    sha256_hex(d, gh);
    sha256_hex(e->sha256, wh);
    fprintf(out, "    buffer %s: sha256 %s, want %s\n", e->name, gh, wh);
    return 1;
}

uint64_t launch_compare(const launch_case *c, const launch_expect_buf *e, const uint8_t *got, uint64_t n,
                        const uint8_t *want, uint64_t wn, FILE *out)
{
    const launch_buffer *tb = launch_find_buffer(c, e->name);
    if (tb && tb->dtype[0] && launch_dtype_size(tb->dtype))
        return compare_typed(c, e, tb, got, n, want, wn, out);
    uint64_t ndiff = 0, first = UINT64_MAX;
    if (n != wn) {
        fprintf(out, "    buffer %s has %llu bytes but %s holds %llu\n", e->name, (unsigned long long)n,
                e->file ? e->file : "the expected file", (unsigned long long)wn);
        ndiff++;
    }
    uint64_t m = n < wn ? n : wn;
    for (uint64_t off = 0; off < m; off++) {
        if (got[off] == want[off] || ignored(e, off))
            continue;
        if (first == UINT64_MAX)
            first = off;
        if (ndiff < 8 + (n != wn))
            fprintf(out, "    %s+0x%llx (%llu): got 0x%02x, want 0x%02x\n", e->name, (unsigned long long)off,
                    (unsigned long long)off, got[off], want[off]);
        ndiff++;
    }
    if (first != UINT64_MAX) {
        if (ndiff > 8 + (n != wn))
            fprintf(out, "    ... %llu differing bytes in all\n", (unsigned long long)ndiff - (n != wn));
        tensor_coords(c, e->name, first, out);
    }
    return ndiff;
}

int launch_add_json(launch_case *c, const char *section, const char *json, char *err, size_t errlen)
{
    errbuf e = {err, errlen};
    json_error_t je;
    json_t *o = json_loads(json, JSON_REJECT_DUPLICATES, &je);
    if (!o)
        return fail(&e, section, "JSON error at column %d: %s", je.column, je.text);
    char p[64];
    int r = -1;
    if (!strcmp(section, "tensor_maps")) {
        launch_tmap *nt = realloc(c->tmaps, (c->ntmaps + 1) * sizeof *nt);
        int *ne = realloc(c->expect_encode, (c->ntmaps + 1) * sizeof *ne);
        if (nt)
            c->tmaps = nt;
        if (ne)
            c->expect_encode = ne;
        if (nt && ne) {
            memset(&c->tmaps[c->ntmaps], 0, sizeof *nt);
            c->expect_encode[c->ntmaps] = -1;
            ip(p, sizeof p, "tensor_maps", c->ntmaps);
            c->ntmaps++;   /* so launch_free sees a partly read map */
            r = read_tmap(&e, o, p, c, &c->tmaps[c->ntmaps - 1]);
            if (r) {
                launch_tmap *m = &c->tmaps[--c->ntmaps];
                free(m->name);
                free(m->buffer);
            }
        } else {
            fail(&e, section, "out of memory");
        }
    } else if (!strcmp(section, "params")) {
        launch_param *np = realloc(c->params, (c->nparams + 1) * sizeof *np);
        if (np) {
            c->params = np;
            memset(&c->params[c->nparams], 0, sizeof *np);
            ip(p, sizeof p, "params", c->nparams);
            r = read_param(&e, o, p, false, c, &c->params[c->nparams]);
            if (r)
                launch_param_free(&c->params[c->nparams]);
            else
                c->nparams++;
            c->has_params = true;
        } else {
            fail(&e, section, "out of memory");
        }
    } else {
        fail(&e, section, "not a section that can be added to");
    }
    json_decref(o);
    return r;
}
