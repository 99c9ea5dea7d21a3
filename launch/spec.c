/* spec.c — launches described on the command line rather than in a launch
 * file: `--buffer NAME:BYTES[:fill=N|:hash32=S|:file=PATH][:align=N]`,
 * `--param TYPE:VALUE | ptr:BUF[+OFF] | struct:F,F,...`, and the
 * `--dump NAME[:DTYPE[:SHAPE]]=FILE` requests run after a launch.  The
 * public API takes the same forms (ptxi_launch_spec, ptxi_launch_option
 * "dump"), so `ptxi run` and a program describe launches alike.  Errors
 * are "--buffer SPEC: what" in `err`.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "launch/launch.h"
#include "launch/heatmap.h"

static void seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    /* messages were lines: drop the newline */
    size_t n = strlen(err);
    if (n && err[n - 1] == '\n')
        err[n - 1] = 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return -1;
    *out = strtoull(s, &end, 0);
    return (*end || errno) ? -1 : 0;
}

/* --buffer NAME:BYTES[:fill=N|:hash32=S|:file=PATH][:align=N] */
int launch_spec_buffer(launch_case *c, const char *spec, char *err, size_t errlen)
{
    char *s = strdup(spec), *save = NULL;
    char *name = strtok_r(s, ":", &save), *bytes = strtok_r(NULL, ":", &save);
    launch_buffer b = {0};
    uint64_t v;
    b.align = 256;
    if (!name || !bytes || parse_u64(bytes, &b.bytes)) {
        seterr(err, errlen, "--buffer %s: expected NAME:BYTES[:fill=N|:hash32=S|:file=PATH][:align=N]\n", spec);
        free(s);
        return -1;
    }
    for (char *t; (t = strtok_r(NULL, ":", &save));) {
        if (!strncmp(t, "fill=", 5) && !parse_u64(t + 5, &v) && v < 256) {
            b.init = LAUNCH_INIT_FILL;
            b.value = v;
        } else if (!strncmp(t, "hash32=", 7) && !parse_u64(t + 7, &v) && v <= UINT32_MAX) {
            b.init = LAUNCH_INIT_HASH32;
            b.value = v;
        } else if (!strncmp(t, "file=", 5) && t[5]) {
            b.init = LAUNCH_INIT_FILE;
            free(b.file);
            b.file = strdup(t + 5);   /* as given: relative to the working directory */
        } else if (!strncmp(t, "align=", 6) && !parse_u64(t + 6, &v) && v && !(v & (v - 1))) {
            b.align = v < 256 ? 256 : v;
        } else {
            seterr(err, errlen, "--buffer %s: \"%s\" is not fill=0..255, hash32=SEED, file=PATH or align=POW2\n",
                    spec, t);
            free(b.file);
            free(s);
            return -1;
        }
    }
    if (launch_find_buffer(c, name)) {
        seterr(err, errlen, "--buffer %s: duplicate buffer name \"%s\"\n", spec, name);
        free(b.file);
        free(s);
        return -1;
    }
    b.name = strdup(name);
    launch_buffer *nb = realloc(c->buffers, (c->nbuffers + 1) * sizeof *nb);
    if (!nb)
        return -1;
    c->buffers = nb;
    c->buffers[c->nbuffers++] = b;
    free(s);
    return 0;
}

/* One TYPE:VALUE | ptr:BUF[+OFF] | pad:N (`in_struct` only) of `spec`,
 * the whole option value, named in messages.  0, or -1 after a message. */
static int parse_param_one(const char *item, size_t len, const char *spec, bool in_struct, launch_param *p,
                           char *err, size_t errlen)
{
    char *it = strndup(item, len);
    const char *colon = strchr(it, ':');
    int rc = -1;
    memset(p, 0, sizeof *p);
    if (!colon)
        goto bad;
    size_t tl = (size_t)(colon - it);
    const char *val = colon + 1;
    static const char *const names[] = {"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f32", "f64"};
    if ((tl == 3 && !strncmp(it, "ptr", 3)) || (tl == 7 && !strncmp(it, "pointer", 7))) {
        p->kind = LAUNCH_P_POINTER;
        const char *plus = strchr(val, '+');
        size_t nl = plus ? (size_t)(plus - val) : strlen(val);
        if (!nl || (plus && parse_u64(plus + 1, &p->offset)))
            goto bad;
        p->ref = strndup(val, nl);
        rc = 0;
        goto done;
    }
    if (in_struct && tl == 3 && !strncmp(it, "pad", 3)) {
        p->kind = LAUNCH_P_PAD;
        if (parse_u64(val, &p->bits) || p->bits > 65536)
            goto bad;
        rc = 0;
        goto done;
    }
    for (int k = 0; k < 10; k++)
        if (strlen(names[k]) == tl && !strncmp(it, names[k], tl))
            p->kind = LAUNCH_P_U8 + k;
    if (!p->kind || !*val)
        goto bad;
    char *end;
    errno = 0;
    if (p->kind == LAUNCH_P_F32) {
        float f = strtof(val, &end);
        uint32_t u;
        memcpy(&u, &f, 4);
        p->bits = u;
    } else if (p->kind == LAUNCH_P_F64) {
        double d = strtod(val, &end);
        memcpy(&p->bits, &d, 8);
    } else if (p->kind >= LAUNCH_P_S8) {
        long long sv = strtoll(val, &end, 0);
        unsigned sz = launch_param_size(p->kind);
        if (sz < 8 && (sv < -(1LL << (8 * sz - 1)) || sv >= (1LL << (8 * sz - 1))))
            errno = ERANGE;
        p->bits = (uint64_t)sv;
    } else {
        unsigned long long u = strtoull(val, &end, 0);
        unsigned sz = launch_param_size(p->kind);
        if (*val == '-' || (sz < 8 && u >> (8 * sz)))
            errno = ERANGE;
        p->bits = u;
    }
    if (*end || errno) {
        seterr(err, errlen, "--param %s: \"%s\" is not a %.*s value\n", spec, val, (int)tl, it);
        goto done;
    }
    rc = 0;
    goto done;
bad:
    if (in_struct)
        seterr(err, errlen, "--param %s: struct field \"%s\": expected TYPE:VALUE (u8..u64, s8..s64, f32, f64), "
                "ptr:BUFFER[+OFFSET] or pad:BYTES\n", spec, it);
    else
        seterr(err, errlen, "--param %s: expected TYPE:VALUE (u8..u64, s8..s64, f32, f64), ptr:BUFFER[+OFFSET] "
                "or struct:FIELD,FIELD,...\n", spec);
done:
    free(it);
    return rc;
}

/* --param TYPE:VALUE | ptr:BUF[+OFF] | struct:FIELD,FIELD,...  A struct's
 * fields are the same forms plus pad:N, laid out as the launch file's
 * {"struct": [...]} (one level; nested structs need a launch file).
 * Buffer names are checked later (the --buffer options may come after). */
int launch_spec_param(launch_case *c, const char *spec, char *err, size_t errlen)
{
    launch_param p = {0};
    if (!strncmp(spec, "struct:", 7)) {
        p.kind = LAUNCH_P_STRUCT;
        for (const char *f = spec + 7; *f;) {
            const char *comma = strchr(f, ',');
            size_t len = comma ? (size_t)(comma - f) : strlen(f);
            launch_param *nf = realloc(p.fields, (p.nfields + 1) * sizeof *nf);
            if (!nf)
                return -1;
            p.fields = nf;
            if (parse_param_one(f, len, spec, true, &p.fields[p.nfields], err, errlen)) {
                launch_param_free(&p);
                return -1;
            }
            p.nfields++;
            f += len + (comma != NULL);
        }
    } else if (parse_param_one(spec, strlen(spec), spec, false, &p, err, errlen)) {
        return -1;
    }
    launch_param *np = realloc(c->params, (c->nparams + 1) * sizeof *np);
    if (!np)
        return -1;
    c->params = np;
    c->params[c->nparams++] = p;
    c->has_params = true;
    return 0;
}

/* The first pointer parameter (or struct field) naming no buffer, or NULL. */
const launch_param *launch_unknown_pointer(const launch_case *c, const launch_param *ps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (ps[i].kind == LAUNCH_P_POINTER && !launch_find_buffer(c, ps[i].ref))
            return &ps[i];
        const launch_param *q = launch_unknown_pointer(c, ps[i].fields, ps[i].nfields);
        if (q)
            return q;
    }
    return NULL;
}

/* --dump NAME[:DTYPE[:SHAPE]]=FILE, SHAPE like 64x32 (outermost first, as numpy). */
int launch_spec_dump(launch_dumps *o, const char *spec, char *err, size_t errlen)
{
    const char *eq = strchr(spec, '=');
    launch_dump d = {0};
    if (!eq || eq == spec || !eq[1]) {
        seterr(err, errlen, "--dump %s: expected NAME[:DTYPE[:SHAPE]]=FILE (FILE .npy, raw, or - to print)\n",
                spec);
        return -1;
    }
    char *lhs = strndup(spec, (size_t)(eq - spec)), *save = NULL;
    d.buffer = strdup(strtok_r(lhs, ":", &save));
    char *dt = strtok_r(NULL, ":", &save), *shape = strtok_r(NULL, ":", &save);
    d.dtype = strdup(dt ? dt : "u8");
    d.file = strdup(eq + 1);
    if (!launch_dtype_size(d.dtype)) {
        seterr(err, errlen, "--dump %s: unknown dtype \"%s\" (u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64)\n",
                spec, d.dtype);
        goto bad;
    }
    if (shape) {
        char *s2 = NULL;
        for (char *t = strtok_r(shape, "x,", &s2); t; t = strtok_r(NULL, "x,", &s2)) {
            if (d.ndim == 5 || parse_u64(t, &d.shape[d.ndim])) {
                seterr(err, errlen, "--dump %s: shape must be up to 5 sizes like 64x32\n", spec);
                goto bad;
            }
            d.ndim++;
        }
    }
    free(lhs);
    launch_dump *nd = realloc(o->dumps, (o->ndumps + 1) * sizeof *nd);
    if (!nd)
        return -1;
    o->dumps = nd;
    o->dumps[o->ndumps++] = d;
    return 0;
bad:
    free(lhs);
    free(d.buffer);
    free(d.dtype);
    free(d.file);
    return -1;
}

void launch_dumps_free(launch_dumps *o)
{
    for (size_t i = 0; i < o->ndumps; i++) {
        free(o->dumps[i].buffer);
        free(o->dumps[i].dtype);
        free(o->dumps[i].file);
    }
    free(o->dumps);
    o->dumps = NULL;
    o->ndumps = 0;
}

int launch_do_dumps(const launch_case *c, mem_global *g, const launch_dumps *o, launch_text *out)
{
    int bad = 0;
    for (size_t i = 0; i < o->ndumps; i++) {
        const launch_dump *d = &o->dumps[i];
        const launch_buffer *b = launch_find_buffer(c, d->buffer);
        if (!b) {
            launch_tprintf(out, "    --dump %s: no buffer named \"%s\" in %s\n", d->buffer, d->buffer, c->name);
            bad = 1;
            continue;
        }
        const uint8_t *h = mem_global_host(g, b->addr, b->bytes);
        if (!strcmp(d->file, "-")) {
            char *txt = NULL;
            size_t tl = 0;
            FILE *f = open_memstream(&txt, &tl);
            if (f) {
                launch_print_values(f, d->dtype, h, b->bytes);
                fclose(f);
                launch_tprintf(out, "%s (%llu bytes at 0x%llx):\n%s", b->name, (unsigned long long)b->bytes,
                          (unsigned long long)b->addr, txt);
                free(txt);
            }
            continue;
        }
        size_t fl = strlen(d->file);
        bool npy = fl > 4 && !strcmp(d->file + fl - 4, ".npy");
        bool svg = fl > 4 && !strcmp(d->file + fl - 4, ".svg"), png = fl > 4 && !strcmp(d->file + fl - 4, ".png");
        FILE *f = fopen(d->file, "wb");
        char err[256] = "";
        int r = -1;
        if (f) {
            launch_heatmap_in hm = {b->name, d->dtype, d->shape, d->ndim, h, b->bytes};
            if (npy)
                r = launch_write_npy(f, d->dtype, d->shape, d->ndim, h, b->bytes, err, sizeof err);
            else if (svg)
                r = launch_heatmap_write_svg(f, &hm, err, sizeof err);
            else if (png)
                r = launch_heatmap_write_png(f, &hm, err, sizeof err);
            else
                r = fwrite(h, 1, b->bytes, f) == b->bytes ? 0 : -1;
            if (fclose(f))
                r = -1;
        }
        if (r) {
            launch_tprintf(out, "    --dump %s: cannot write %s: %s\n", d->buffer, d->file, err[0] ? err : strerror(errno));
            bad = 1;
        }
    }
    return bad;
}

