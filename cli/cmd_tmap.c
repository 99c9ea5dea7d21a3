/* cmd_tmap.c — `ptxi tmap`: encode and decode tensor maps by hand.
 *
 *   ptxi tmap MAP.bin              decode a 128-byte map (e.g. dumped from a
 *                                  kernel's parameters) and print its fields
 *   ptxi tmap --hex HEX            the same from 256 hex digits (spaces ok)
 *   ptxi tmap FILE.json[l]         encode: a launch file (every entry of
 *                                  "tensor_maps", buffers allocated in order,
 *                                  status checked against expect.encode) or a
 *                                  single tensor_maps object
 *   ptxi tmap --json '{...}'       encode one inline tensor_maps object
 *   --bytes                        also print the encoded 128 bytes in hex
 *
 * Encoding prints the driver's status and, on failure, the rule broken.
 * Exit status: 0 when every map encoded (or failed exactly as a launch file
 * expected) or decoded, 1 otherwise, 2 for usage errors.
 */
#include <ctype.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cli/cli.h"
#include "cli/tmap_svg.h"
#include "tma/tma.h"

typedef struct topts {
    bool show_bytes;       /* --bytes */
    const char *svg;       /* --svg FILE: the box and its shared-memory layout */
    bool svg_each;         /* several maps: FILE.<map>.svg each */
} topts;

static void usage(FILE *f)
{
    fprintf(f, "usage: ptxi tmap [--bytes] [--svg FILE.svg] MAP.bin | --hex HEX | FILE.json | FILE.jsonl | --json '{...}'\n"
               "  decode a 128-byte tensor map, or encode launch-file tensor_maps objects\n"
               "  --svg FILE.svg: draw the box and where each 16-byte chunk lands in shared memory\n"
               "                  (tiled maps; several maps: FILE.<map>.svg each)\n");
}

static void print_hex(const uint8_t map[128])
{
    for (int i = 0; i < 128; i++)
        printf("%02x%s", map[i], i % 32 == 31 ? "\n" : i % 4 == 3 ? " " : "");
}

/* --svg: the picture of one map (FILE, or FILE.<name>.svg for several). */
static int svg_one(const tma_map *m, const char *name, const topts *o)
{
    char *path = NULL, why[512];
    size_t n = strlen(o->svg);
    if (n > 4 && !strcmp(o->svg + n - 4, ".svg"))
        n -= 4;
    if (o->svg_each ? asprintf(&path, "%.*s.%s.svg", (int)n, o->svg, name) < 0 : !(path = strdup(o->svg))) {
        fprintf(stderr, "ptxi tmap: out of memory\n");
        return 1;
    }
    int rc = tmap_svg_file(m, name, path, why, sizeof why);
    if (rc)
        fprintf(stderr, "ptxi tmap: --svg: %s\n", why);
    else
        printf("wrote %s\n", path);
    free(path);
    return rc ? 1 : 0;
}

static int decode_and_print(const uint8_t map[128], const char *what, const topts *opt)
{
    tma_map m;
    char why[512];
    if (tma_decode(map, &m, why, sizeof why)) {
        fprintf(stderr, "ptxi tmap: %s: %s\n", what, why);
        return 1;
    }
    tma_print(&m, stdout);
    return opt->svg ? svg_one(&m, what, opt) : 0;
}

static int decode_hex(const char *s, const topts *opt)
{
    uint8_t map[128];
    int n = 0, hi = -1;
    for (; *s; s++) {
        if (isspace((unsigned char)*s) || *s == ',')
            continue;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hi < 0) {
            s++;
            continue;
        }
        int v = isdigit((unsigned char)*s) ? *s - '0' : isxdigit((unsigned char)*s) ? tolower(*s) - 'a' + 10 : -1;
        if (v < 0) {
            fprintf(stderr, "ptxi tmap: --hex: '%c' is not a hex digit\n", *s);
            return 2;
        }
        if (hi < 0) {
            hi = v;
        } else {
            if (n == 128) {
                fprintf(stderr, "ptxi tmap: --hex: more than 128 bytes\n");
                return 2;
            }
            map[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    if (n != 128 || hi >= 0) {
        fprintf(stderr, "ptxi tmap: --hex: got %d bytes%s, a tensor map is 128\n", n, hi >= 0 ? " and a half" : "");
        return 2;
    }
    return decode_and_print(map, "--hex", opt);
}

/* Encode one tensor_maps object; `want` is the expected status or NULL. */
static int encode_one(const json_t *tm, const mem_global *g, const char *label, const char *want, const topts *opt)
{
    uint8_t map[128];
    tma_map m;
    char why[512] = "";
    int rc = tma_encode_json(map, &m, tm, g, why, sizeof why);
    const char *name = json_string_value(json_object_get(tm, "name"));
    if (rc == TMA_ERROR_LAUNCH) {
        fprintf(stderr, "ptxi tmap: %s: %s\n", label, why);
        return 1;
    }
    const char *got = rc == TMA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_INVALID_VALUE";
    printf("%s%s%s: %s", label, name ? " " : "", name ? name : "", got);
    if (want)
        printf(" (expected %s)", want);
    if (rc != TMA_SUCCESS)
        printf(": %s", why);
    putchar('\n');
    if (rc == TMA_SUCCESS) {
        tma_print(&m, stdout);
        if (opt->show_bytes)
            print_hex(map);
        if (opt->svg && svg_one(&m, name ? name : label, opt))
            return 1;
    }
    return want ? strcmp(got, want) != 0 : rc != TMA_SUCCESS;
}

/* A launch object: allocate its buffers in order, encode every map. */
static int encode_launch(const json_t *o, const char *label, const topts *opt)
{
    mem_global *g = mem_global_new();
    size_t i;
    json_t *b, *tm;
    json_array_foreach(json_object_get(o, "buffers"), i, b) {
        json_t *al = json_object_get(b, "align");
        mem_global_alloc(g, (uint64_t)json_integer_value(json_object_get(b, "bytes")),
                         al ? (uint64_t)json_integer_value(al) : 256, json_string_value(json_object_get(b, "name")));
    }
    const char *cname = json_string_value(json_object_get(o, "name"));
    json_t *expect = json_object_get(json_object_get(o, "expect"), "encode");
    int bad = 0;
    topts each = *opt;
    if (json_array_size(json_object_get(o, "tensor_maps")) > 1)
        each.svg_each = true;   /* one picture per map */
    opt = &each;
    json_array_foreach(json_object_get(o, "tensor_maps"), i, tm) {
        const char *tname = json_string_value(json_object_get(tm, "name"));
        const char *want = NULL;
        size_t k;
        json_t *e;
        json_array_foreach(expect, k, e) {
            const char *en = json_string_value(json_object_get(e, "tensor_map"));
            if (en && tname && !strcmp(en, tname))
                want = json_string_value(json_object_get(e, "status"));
        }
        bad |= encode_one(tm, g, cname ? cname : label, want, opt);
    }
    mem_global_free(g);
    return bad;
}

/* A bare tensor_maps object: give its buffer a realistic address. */
static int encode_bare(const json_t *o, const char *label, const topts *opt)
{
    mem_global *g = mem_global_new();
    const char *buf = json_string_value(json_object_get(json_object_get(o, "global_address"), "buffer"));
    if (buf)
        mem_global_alloc(g, 1 << 20, 256, buf);
    int bad = encode_one(o, g, label, NULL, opt);
    mem_global_free(g);
    return bad;
}

static int encode_object(const json_t *o, const char *label, const topts *opt)
{
    if (!json_is_object(o)) {
        fprintf(stderr, "ptxi tmap: %s: not a JSON object\n", label);
        return 1;
    }
    if (json_object_get(o, "tensor_maps"))
        return encode_launch(o, label, opt);
    return encode_bare(o, label, opt);
}

static int encode_text(const char *text, const char *label, const topts *opt)
{
    json_error_t err;
    json_t *o = json_loads(text, 0, &err);
    if (!o) {
        fprintf(stderr, "ptxi tmap: %s:%d:%d: %s\n", label, err.line, err.column, err.text);
        return 1;
    }
    int rc = encode_object(o, label, opt);
    json_decref(o);
    return rc;
}

static int do_file(const char *path, const topts *opt0)
{
    topts each = *opt0;
    each.svg_each |= strstr(path, ".jsonl") != NULL;
    const topts *opt = &each;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ptxi tmap: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "ptxi tmap: out of memory reading %s\n", path);
        return 1;
    }
    buf[n] = '\0';
    size_t lead = 0;
    while (lead < n && isspace((unsigned char)buf[lead]))
        lead++;
    int rc;
    if (lead < n && buf[lead] == '{') {
        /* JSON: one object, or one per line (.jsonl) */
        rc = 0;
        int lineno = 0;
        const char *lbl = path;
        for (char *line = buf + lead, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            char *end = next;
            if (!strstr(path, ".jsonl")) {
                next = NULL;
                end = NULL;
            }
            if (end)
                *end = '\0';
            if (next)
                next++;
            lineno++;
            if (strspn(line, " \t\r") == strlen(line))
                continue;
            char label[1024];
            if (strstr(path, ".jsonl"))
                snprintf(label, sizeof label, "%s:%d", path, lineno), lbl = label;
            rc |= encode_text(line, lbl, opt);
        }
    } else if (n == 128) {
        rc = decode_and_print((const uint8_t *)buf, path, opt);
    } else {
        fprintf(stderr, "ptxi tmap: %s: %zu bytes, neither a 128-byte tensor map nor JSON\n", path, n);
        rc = 1;
    }
    free(buf);
    return rc;
}

int cmd_tmap(int argc, char **argv)
{
    topts o = {0};
    int done = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--svg") || !strncmp(a, "--svg=", 6)) {
            if (!a[5] && i + 1 >= argc) {
                fprintf(stderr, "ptxi tmap: --svg needs a file name\n");
                return 2;
            }
            o.svg = a[5] ? a + 6 : argv[++i];
        } else if (!strcmp(a, "--bytes")) {
            o.show_bytes = true;
        } else if (!strcmp(a, "--hex") || !strcmp(a, "--json")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ptxi tmap: %s needs an argument\n", a);
                return 2;
            }
            int r = !strcmp(a, "--hex") ? decode_hex(argv[++i], &o) : encode_text(argv[++i], "--json", &o);
            if (r == 2)
                return 2;
            rc |= r;
            done = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "ptxi tmap: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            rc |= do_file(a, &o);
            done = 1;
        }
    }
    if (!done) {
        usage(stderr);
        return 2;
    }
    return rc ? 1 : 0;
}
