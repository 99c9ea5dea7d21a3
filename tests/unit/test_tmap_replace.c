/* test_tmap_replace.c — tensormap.replace, tensormap.cp_fenceproxy and
 * prefetch.tensormap run in the interpreter, and the swizzle patterns of the
 * 96B mode and of the 128B mode's atomicities.
 *
 * The encodings of new_val checked here (PTX ISA §9.7.9.28 tensormap.replace
 * and its Table 33 "Tensormap new_val validity"; "H100" = what an H100 wrote,
 * tests/hw/src/tmap_replace.cu, bytes in tests/hw/tmap_replace/):
 *   .global_address       the address (.b64)
 *   .rank                 rank - 1: "new_val must be ones less than the desired
 *                         tensor rank as this field uses zero-based numbering"
 *   .box_dim[ord]         the box size in elements, 1..256 (H100 stores - 1)
 *   .global_dim[ord]      the tensor size in elements (H100 stores - 1)
 *   .global_stride[ord]   bytes (.b64); ord i is the stride of dimension i + 1
 *                         (H100 stores >> 4, dropping the low 4 bits)
 *   .element_stride[ord]  1..8 (H100 stores - 1)
 *   .elemtype             0 .u8, 1 .u16, 2 .u32, 3 .s32, 4 .u64, 5 .s64, 6 .f16,
 *                         7 .f32, 8 .f32.ftz, 9 .f64, 10 .bf16, 11 .tf32,
 *                         12 .tf32.ftz, 13 .b4x16, 14 .b4x16_p64,
 *                         15 .b6x16_p32 / .b6p2x16 -- "The values of .elemtype
 *                         do not correspond to the values of the
 *                         CUtensorMapDataType enum used in the driver API"
 *   .interleave_layout    0 no interleave, 1 16B, 2 32B
 *   .swizzle_mode         0 no swizzling, 1 32B, 2 64B, 3 128B, 4 96B
 *   .swizzle_atomicity    0 16B, 1 32B, 2 32B + 8B flip, 3 64B
 *   .fill_mode            0 zero fill, 1 OOB-NaN fill
 * "x" cells of Table 33 (and ranges past the fields) are run-time errors that
 * name the field and the value.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tests/unit/interp_harness.h"
#include "tma/tma.h"
#include "tma/swizzle.h"

#define HWDIR "tests/hw/tmap_replace/"

static int hexbytes(const char *s, uint8_t *out, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

static void hexdiff(char *buf, size_t n, const uint8_t *got, const uint8_t *want, int from)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = from; i < 128 && k + 24 < n; i++)
        if (got[i] != want[i])
            k += (size_t)snprintf(buf + k, n - k, " [%d] %02x want %02x", i, got[i], want[i]);
}

/* PTX that stores `map` at [addr] (st.<space>.b64, 16 times). */
static size_t emit_map(char *p, size_t n, const uint8_t map[128], const char *space, const char *addr)
{
    size_t k = 0;
    for (int i = 0; i < 16; i++) {
        uint64_t v;
        memcpy(&v, map + 8 * i, 8);
        k += (size_t)snprintf(p + k, n - k, "  mov.b64 %%rd9, 0x%016llx;\n  st.%s.b64 [%s+%d], %%rd9;\n",
                              (unsigned long long)v, space, addr, 8 * i);
    }
    return k;
}

/* ---- the H100's bytes -------------------------------------------------------- */

typedef struct { char name[64]; uint8_t map[128]; } hw_line;

/* "name g|s HEX" lines of tmap_replace's output (the g lines). */
static int load_replace(hw_line *v, int max)
{
    FILE *f = fopen(HWDIR "replace.txt", "r");
    if (!f)
        return -1;
    char line[512], name[64], w, hex[300];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max)
        if (line[0] != '#' && sscanf(line, "%63s %c %299s", name, &w, hex) == 3 && w == 'g' &&
            !hexbytes(hex, v[n].map, 128)) {
            snprintf(v[n].name, sizeof v[n].name, "%s", name);
            n++;
        }
    fclose(f);
    return n;
}

typedef struct {
    int t, completed, nwords;
    uint8_t map[128];
    uint32_t words[512];
} use_case;

/* tmap_replace_use's output: cases, then the elemtype sequences. */
static int load_use(use_case *u, int max, hw_line *seq, int *nseq)
{
    FILE *f = fopen(HWDIR "use.txt", "r");
    if (!f)
        return -1;
    char line[1024];
    int n = 0;
    *nseq = 0;
    use_case *c = NULL;
    while (fgets(line, sizeof line, f)) {
        int t, st, off;
        char name[64], hex[300];
        if (sscanf(line, "case %d", &t) == 1 && n < max) {
            c = &u[n++];
            memset(c, 0, sizeof *c);
            c->t = t;
            char *s = strstr(line, ": status ");
            c->completed = s && sscanf(s, ": status %d", &st) == 1 && st == 1;
        } else if (c && sscanf(line, "  map %299s", hex) == 1) {
            hexbytes(hex, c->map, 128);
        } else if (c && sscanf(line, " %x:%n", (unsigned *)&t, &off) == 1 && strchr(line, ':')) {
            char *s = strchr(line, ':') + 1, *e;
            for (unsigned long x = strtoul(s, &e, 16); e != s && c->nwords < 512; x = strtoul(s, &e, 16)) {
                c->words[c->nwords++] = (uint32_t)x;
                s = e;
            }
        } else if (sscanf(line, "%63s g %299s", name, hex) == 2 && !strncmp(name, "elemtype", 8) && *nseq < 8) {
            snprintf(seq[*nseq].name, sizeof seq[0].name, "%s", name);
            hexbytes(hex, seq[*nseq].map, 128);
            ++*nseq;
        }
    }
    fclose(f);
    return n;
}

/* ---- one replace, four ways ---------------------------------------------------- */

/* Run `instr` (with %S for the state space, %A for the address) on copies of
 * `base`: .global at out+0, generic-global at out+128, .shared::cta and
 * generic-shared maps copied out with tensormap.cp_fenceproxy to out+256 and
 * out+384. */
static int run_four(th_run *r, const char *target, const uint8_t base[128], const char *instr)
{
    static char src[65536];
    size_t k = (size_t)snprintf(src, sizeof src,
                                ".version 8.8\n.target %s\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out)\n{\n"
                                "  .reg .b64 %%rd<12>;\n  .reg .b32 %%r<4>;\n"
                                "  .shared .align 128 .b8 smap[128];\n  .shared .align 128 .b8 smap2[128];\n"
                                "  ld.param.u64 %%rd1, [out];\n  add.u64 %%rd2, %%rd1, 128;\n"
                                "  add.u64 %%rd3, %%rd1, 256;\n  add.u64 %%rd4, %%rd1, 384;\n"
                                "  cvta.shared.u64 %%rd5, smap2;\n",
                                target);
    k += emit_map(src + k, sizeof src - k, base, "global", "%rd1");
    k += emit_map(src + k, sizeof src - k, base, "global", "%rd2");
    k += emit_map(src + k, sizeof src - k, base, "shared", "smap");
    k += emit_map(src + k, sizeof src - k, base, "shared", "smap2");
    static const char *const ss[4] = {".global", "", ".shared::cta", ""};
    static const char *const aa[4] = {"%rd1", "%rd2", "smap", "%rd5"};
    for (int w = 0; w < 4; w++) {
        for (const char *s = instr; *s; s++) {
            if (s[0] == '%' && s[1] == 'S') { k += (size_t)snprintf(src + k, sizeof src - k, "%s", ss[w]); s++; }
            else if (s[0] == '%' && s[1] == 'A') { k += (size_t)snprintf(src + k, sizeof src - k, "%s", aa[w]); s++; }
            else src[k++] = *s;
        }
        src[k++] = '\n';
    }
    k += (size_t)snprintf(src + k, sizeof src - k,
                          "  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
                          " [%%rd3], [smap], 128;\n"
                          "  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
                          " [%%rd4], [smap2], 128;\n  ret;\n}\n");
    return th_run_k(r, src, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
}

/* "field[ord]=value" -> the instruction, with %S and %A. */
static void case_instr(const char *name, char *out, size_t n)
{
    char field[32] = "";
    int ord = -1;
    const char *eq = strchr(name, '='), *br = strchr(name, '[');
    size_t fl = (size_t)((br && br < eq ? br : eq) - name);
    memcpy(field, name, fl < sizeof field ? fl : sizeof field - 1);
    if (br && br < eq)
        ord = atoi(br + 1);
    int b64 = !strcmp(field, "global_address") || !strcmp(field, "global_stride");
    char ordbuf[16] = "";
    if (ord >= 0)
        snprintf(ordbuf, sizeof ordbuf, "%d, ", ord);
    snprintf(out, n, "  tensormap.replace.tile.%s%%S.b1024.%s [%%A], %s%s;", field, b64 ? "b64" : "b32", ordbuf,
             eq + 1);
}

/* Table 33's .elemtype column, as TMA_DT_* (cuda.h order). */
static const int table33_elemtype[16] = {
    TMA_DT_UINT8, TMA_DT_UINT16, TMA_DT_UINT32, TMA_DT_INT32, TMA_DT_UINT64, TMA_DT_INT64, TMA_DT_FLOAT16,
    TMA_DT_FLOAT32, TMA_DT_FLOAT32_FTZ, TMA_DT_FLOAT64, TMA_DT_BFLOAT16, TMA_DT_TFLOAT32, TMA_DT_TFLOAT32_FTZ,
    TMA_DT_16U4_ALIGN8B, TMA_DT_16U4_ALIGN16B, TMA_DT_16U6_ALIGN16B,
};

/* The decoded field a case sets, and the value the manual says it gets;
 * returns 0 when the field lies past the map's rank (bytes only). */
static int decoded(const char *name, const tma_map *m, uint64_t *got, uint64_t *want)
{
    const char *eq = strchr(name, '='), *br = strchr(name, '[');
    uint64_t v = strtoull(eq + 1, NULL, 0);
    int ord = br && br < eq ? atoi(br + 1) : 0;
    *want = v;
    if (!strncmp(name, "global_address", 14)) *got = m->global_address;
    else if (!strncmp(name, "rank", 4)) { *got = m->rank; *want = v + 1; }
    else if (!strncmp(name, "box_dim", 7)) { if (ord >= m->rank) return 0; *got = m->box_dim[ord]; }
    else if (!strncmp(name, "global_dim", 10)) { if (ord >= m->rank) return 0; *got = m->global_dim[ord]; }
    else if (!strncmp(name, "global_stride", 13)) { if (ord + 1 >= m->rank) return 0; *got = m->global_strides[ord + 1]; }
    else if (!strncmp(name, "element_stride", 14)) { if (ord >= m->rank) return 0; *got = m->element_strides[ord]; }
    else if (!strncmp(name, "elemtype", 8)) { *got = m->data_type; *want = (uint64_t)table33_elemtype[v]; }
    else if (!strncmp(name, "interleave_layout", 17)) *got = m->interleave;
    else if (!strncmp(name, "swizzle_mode", 12)) *got = m->swizzle;  /* 0..3: same numbers as TMA_SWIZZLE_* */
    else if (!strncmp(name, "fill_mode", 9)) *got = m->oob_fill;
    else return 0;
    return 1;
}

/* Values the H100 took but truncated or wrapped; ptxi stops with an error
 * naming the field and the value.  (What the H100 stored is in the comment.) */
static const struct { const char *name, *msg; } refused[] = {
    {"box_dim[1]=0", ".box_dim[1]: new_val 0 is out of range 1..256"},          /* H100: 0xff, a 256 box */
    {"box_dim[1]=257", ".box_dim[1]: new_val 257 is out of range 1..256"},      /* H100: 0x00, a 1 box */
    {"global_dim[1]=0", ".global_dim[1]: new_val 0 is out of range"},           /* H100: 0xffffffff, 2^32 */
    {"global_stride[0]=4100", ".global_stride[0] (dimension 1): new_val 4100"}, /* H100: 4096 */
    {"global_stride[1]=0x1234", ".global_stride[1] (dimension 2): new_val 4660"}, /* H100: 4656 */
    {"global_stride[4]=512", ".global_stride: ord 4 is out of range 0..3"},    /* H100: wrote bits 224..255,
                                                                                  the strides' high nibbles */
    {"element_stride[1]=0", ".element_stride[1]: new_val 0 is out of range 1..8"}, /* H100: 8 */
    {"element_stride[1]=9", ".element_stride[1]: new_val 9 is out of range 1..8"}, /* H100: 1 */
};

static void test_h100_replaces(const hw_line *hw, int n)
{
    const uint8_t *base = hw[0].map;
    tma_map bm;
    char why[512];
    CHECK("h100/base map decodes", tma_decode(base, &bm, why, sizeof why) == 0);
    for (int i = 1; i < n; i++) {
        char instr[256], name[160];
        case_instr(hw[i].name, instr, sizeof instr);
        th_run r;
        run_four(&r, "sm_90a", base, instr);
        const char *msg = NULL;
        for (size_t j = 0; j < sizeof refused / sizeof refused[0]; j++)
            if (!strcmp(refused[j].name, hw[i].name))
                msg = refused[j].msg;
        snprintf(name, sizeof name, "h100/%s", hw[i].name);
        if (msg) {
            CHECK_MSG(name, &r, INTERP_FAULT, msg);
            th_free(&r);
            continue;
        }
        if (r.res.status) {
            CHECK_OK(name, &r);
            th_free(&r);
            continue;
        }
        static const char *const way[4] = {"global", "generic-global", "shared::cta", "generic-shared"};
        for (int w = 0; w < 4; w++) {
            char d[512], nm[200];
            hexdiff(d, sizeof d, r.host + 128 * w, hw[i].map, 0);
            snprintf(nm, sizeof nm, "%s/%s bytes == H100", name, way[w]);
            if (!d[0]) printf("PASS %s\n", nm);
            else { printf("FAIL %s:%s\n", nm, d); check_failures++; }
        }
        tma_map m;
        char nm[200];
        snprintf(nm, sizeof nm, "%s/decoded", name);
        if (tma_decode(r.host, &m, why, sizeof why)) {
            printf("FAIL %s: %s\n", nm, why);
            check_failures++;
        } else {
            uint64_t got, want;
            if (!decoded(hw[i].name, &m, &got, &want)) printf("PASS %s (field past the rank: bytes only)\n", nm);
            else if (got == want) printf("PASS %s\n", nm);
            else { printf("FAIL %s: field is %llu, want %llu\n", nm, (unsigned long long)got, (unsigned long long)want); check_failures++; }
        }
        th_free(&r);
    }
}

/* ---- Blackwell-only values (no hardware here: Table 33 and Table 14) ------------ */

/* Run `body` (instructions on the global map at %rd1) over a copy of `base`;
 * the map comes back in r->host[0..128). */
static int run_seq(th_run *r, const char *target, const uint8_t base[128], const char *body)
{
    static char src[32768];
    size_t k = (size_t)snprintf(src, sizeof src,
                                ".version 8.8\n.target %s\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out)\n{\n"
                                "  .reg .b64 %%rd<12>;\n  .reg .b32 %%r<4>;\n  ld.param.u64 %%rd1, [out];\n",
                                target);
    k += emit_map(src + k, sizeof src - k, base, "global", "%rd1");
    snprintf(src + k, sizeof src - k, "%s\n  ret;\n}\n", body);
    return th_run_k(r, src, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
}

#define R(f, v) "  tensormap.replace.tile." f ".global.b1024.b32 [%rd1], " v ";\n"

static void test_blackwell_fields(const uint8_t base[128])
{
    static const struct { const char *target, *body; int sw; const char *decode_err; } sw[] = {
        {"sm_100a", R("swizzle_mode", "3") R("swizzle_atomicity", "0"), TMA_SWIZZLE_128B, NULL},
        {"sm_100a", R("swizzle_mode", "3") R("swizzle_atomicity", "1"), TMA_SWIZZLE_128B_ATOM_32B, NULL},
        {"sm_100a", R("swizzle_mode", "3") R("swizzle_atomicity", "2"), TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B, NULL},
        {"sm_100a", R("swizzle_mode", "3") R("swizzle_atomicity", "3"), TMA_SWIZZLE_128B_ATOM_64B, NULL},
        /* atomicity first, mode later: the order does not matter */
        {"sm_100a", R("swizzle_atomicity", "3") R("swizzle_mode", "3"), TMA_SWIZZLE_128B_ATOM_64B, NULL},
        /* back to 16B atomicity */
        {"sm_100a", R("swizzle_mode", "3") R("swizzle_atomicity", "2") R("swizzle_atomicity", "0"),
         TMA_SWIZZLE_128B, NULL},
        {"sm_103a", R("swizzle_mode", "4"), TMA_SWIZZLE_96B, NULL},
        {"sm_103a", R("swizzle_mode", "4") R("swizzle_mode", "1"), TMA_SWIZZLE_32B, NULL},
        /* Table 14: only the 128B mode takes an atomicity other than 16B */
        {"sm_100a", R("swizzle_atomicity", "1"), -1, "swizzle atomicity 32B with swizzle mode 64B"},
        {"sm_103a", R("swizzle_mode", "4") R("swizzle_atomicity", "3"), -1,
         "swizzle atomicity 64B with swizzle mode 96B"},
        {"sm_100a", R("swizzle_mode", "1") R("swizzle_atomicity", "2"), -1,
         "swizzle atomicity 32B + 8B flip with swizzle mode 32B"},
    };
    char why[512], name[200];
    for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++) {
        th_run r;
        run_seq(&r, sw[i].target, base, sw[i].body);
        snprintf(name, sizeof name, "blackwell/swizzle case %zu runs", i);
        CHECK_OK(name, &r);
        tma_map m;
        int rc = r.res.status ? -1 : tma_decode(r.host, &m, why, sizeof why);
        snprintf(name, sizeof name, "blackwell/swizzle case %zu decodes as %s", i,
                 sw[i].decode_err ? sw[i].decode_err : tma_enum_name("swizzle", sw[i].sw));
        if (sw[i].decode_err)
            CHECK(name, rc && strstr(why, sw[i].decode_err) && strstr(why, "Table 14"));
        else
            CHECK(name, rc == 0 && m.swizzle == sw[i].sw);
        if (sw[i].decode_err && !(rc && strstr(why, sw[i].decode_err)))
            printf("# got: %s\n", why);
        /* only the swizzle bits moved (77..78, 83..85) */
        int other = 0;
        for (int b = 0; b < 1024; b++) {
            int sbit = (b >= 77 && b <= 78) || (b >= 83 && b <= 85);
            if (!sbit && ((r.host[b / 8] ^ base[b / 8]) >> (b % 8) & 1))
                other = 1;
        }
        snprintf(name, sizeof name, "blackwell/swizzle case %zu touches only the swizzle bits", i);
        CHECK(name, !r.res.status && !other);
        th_free(&r);
    }
    /* .elemtype 13..15: the sub-byte types */
    for (int v = 13; v <= 15; v++) {
        char body[128];
        snprintf(body, sizeof body, "  tensormap.replace.tile.elemtype.global.b1024.b32 [%%rd1], %d;\n", v);
        th_run r;
        run_seq(&r, "sm_100a", base, body);
        tma_map m;
        int rc = r.res.status ? -1 : tma_decode(r.host, &m, why, sizeof why);
        snprintf(name, sizeof name, "blackwell/elemtype=%d decodes as %s", v,
                 tma_enum_name("data_type", table33_elemtype[v]));
        CHECK(name, rc == 0 && m.data_type == table33_elemtype[v]);
        th_free(&r);
    }
    /* the printer names the 96B mode */
    th_run r;
    run_seq(&r, "sm_103a", base, R("swizzle_mode", "4"));
    tma_map m;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!r.res.status && !tma_decode(r.host, &m, why, sizeof why))
        tma_print(&m, f);
    fclose(f);
    CHECK("blackwell/ptxi tmap prints swizzle 96B", buf && strstr(buf, "swizzle 96B,"));
    free(buf);
    th_free(&r);
}

/* ---- values out of range: run-time errors naming the field and the value ---- */

static void test_refusals(const uint8_t base[128])
{
    static const struct { const char *target, *body, *msg; } bad[] = {
        {"sm_100a", R("elemtype", "16"), ".elemtype: new_val 16 is out of range 0..15"},
        {"sm_90a", R("interleave_layout", "3"), ".interleave_layout: new_val 3 is out of range 0..2"},
        {"sm_103a", R("swizzle_mode", "5"), ".swizzle_mode: new_val 5 is out of range 0..4"},
        {"sm_100a", R("swizzle_atomicity", "4"), ".swizzle_atomicity: new_val 4 is out of range 0..3"},
        {"sm_90a", R("fill_mode", "2"), ".fill_mode: new_val 2 is out of range 0..1"},
        {"sm_90a", "  mov.u32 %r1, 5;\n  tensormap.replace.tile.rank.global.b1024.b32 [%rd1], %r1;\n",
         ".rank: new_val 5 is out of range 0..4"},
        {"sm_90a", "  mov.u32 %r1, 300;\n  tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 2, %r1;\n",
         ".box_dim[2]: new_val 300 is out of range 1..256"},
        {"sm_90a", "  mov.u64 %rd2, 0x1008;\n  tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd2;\n",
         ".global_address: new_val 0x1008 is not 16-byte aligned"},
        {"sm_90a", "  mov.u64 %rd2, 0x10000000000;\n"
                   "  tensormap.replace.tile.global_stride.global.b1024.b64 [%rd1], 1, %rd2;\n",
         ".global_stride[1] (dimension 2): new_val 1099511627776 bytes"},
        {"sm_90a", R("element_stride", "5, 0"), ".element_stride: ord 5 is out of range 0..4"},
    };
    char name[160];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        th_run r;
        run_seq(&r, bad[i].target, base, bad[i].body);
        snprintf(name, sizeof name, "refuse/%s", bad[i].msg);
        CHECK_MSG(name, &r, INTERP_FAULT, bad[i].msg);
        th_free(&r);
    }
    /* an im2col map is not a .tile map */
    uint8_t im[128];
    uint64_t gd[3] = {16, 8, 8}, gs[2] = {32, 256};
    int lo[1] = {0}, up[1] = {0};
    uint32_t es[3] = {1, 1, 1};
    char why[256];
    tma_encode_im2col(im, TMA_DT_FLOAT16, 3, 0x10000, gd, gs, lo, up, 16, 8, es, TMA_INTERLEAVE_NONE,
                      TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    th_run r;
    run_seq(&r, "sm_90a", im, R("fill_mode", "1"));
    CHECK_MSG("refuse/.tile replace on an im2col map", &r, INTERP_FAULT, "not 0 (tiled)");
    th_free(&r);
}

/* ---- the tf32 bit: H100 sequences of .elemtype ------------------------------------ */

static void test_elemtype_sequences(const hw_line *seq, int nseq, const uint8_t base[128])
{
    static const struct { const char *name, *body; int dt; const char *err; } want[] = {
        {"elemtype=11;elemtype=7", R("elemtype", "11") R("elemtype", "7"), TMA_DT_TFLOAT32, NULL},
        {"elemtype=12;elemtype=8", R("elemtype", "12") R("elemtype", "8"), TMA_DT_TFLOAT32_FTZ, NULL},
        {"elemtype=11;elemtype=2", R("elemtype", "11") R("elemtype", "2"), -1, "tf32 bit (bit 80)"},
        {"elemtype=12", R("elemtype", "12"), TMA_DT_TFLOAT32_FTZ, NULL},
    };
    char why[512], name[200], d[512];
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const hw_line *h = NULL;
        for (int j = 0; j < nseq; j++)
            if (!strcmp(seq[j].name, want[i].name))
                h = &seq[j];
        th_run r;
        run_seq(&r, "sm_90a", base, want[i].body);
        snprintf(name, sizeof name, "tf32 bit/%s bytes == H100", want[i].name);
        if (!h || r.res.status) {
            printf("FAIL %s: %s\n", name, h ? r.res.msg : "no H100 line in " HWDIR "use.txt");
            check_failures++;
        } else {
            hexdiff(d, sizeof d, r.host, h->map, 0);
            if (!d[0]) printf("PASS %s\n", name);
            else { printf("FAIL %s:%s\n", name, d); check_failures++; }
        }
        tma_map m;
        int rc = r.res.status ? -1 : tma_decode(r.host, &m, why, sizeof why);
        snprintf(name, sizeof name, "tf32 bit/%s decodes as %s", want[i].name,
                 want[i].err ? want[i].err : tma_enum_name("data_type", want[i].dt));
        CHECK(name, want[i].err ? rc && strstr(why, want[i].err) : rc == 0 && m.data_type == want[i].dt);
        th_free(&r);
    }
}

/* ---- a replaced map used by a load: cp_fenceproxy, prefetch.tensormap ---------- */

/* The map `base` is built in shared memory, its global address set to the
 * data (out + 0x1000: word i = 0x10000000 + i), `body` applied in shared
 * memory (on [smap]), published with tensormap.cp_fenceproxy to out + 0,
 * prefetched (generic global and generic shared addresses), and used by one
 * load of `dim` dimensions at coordinates 0 into shared memory at
 * buf + soff (pre-filled with 0xA5) whose mbarrier expects `expect` bytes.
 * buf (2048 bytes) comes back at out + 0x3000. */
static int run_load(th_run *r, const char *target, const uint8_t base[128], const char *body, int dim,
                    uint32_t expect, uint32_t soff)
{
    static char src[32768];
    static const char *const coords[] = {"", "{0}", "{0, 0}", "{0, 0, 0}", "{0, 0, 0, 0}", "{0, 0, 0, 0, 0}"};
    size_t k = (size_t)snprintf(src, sizeof src,
        ".version 8.8\n.target %s\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        "  .reg .b64 %%rd<16>;\n  .reg .b32 %%r<8>;\n  .reg .pred %%p<4>;\n"
        "  .shared .align 128 .b8 smap[128];\n  .shared .align 1024 .b8 buf[2048];\n"
        "  .shared .align 8 .b64 bar;\n"
        "  ld.param.u64 %%rd1, [out];\n  add.u64 %%rd2, %%rd1, 0x1000;\n"
        "  mov.u32 %%r1, 0;\n"
        "FILL:\n  mul.wide.u32 %%rd3, %%r1, 4;\n  add.u64 %%rd3, %%rd2, %%rd3;\n"
        "  add.u32 %%r2, %%r1, 0x10000000;\n  st.global.u32 [%%rd3], %%r2;\n"
        "  add.u32 %%r1, %%r1, 1;\n  setp.lt.u32 %%p1, %%r1, 2048;\n  @%%p1 bra FILL;\n"
        "  fence.proxy.async.global;\n"   /* the plain stores, then the TMA reads them */
        "  mov.u32 %%r1, 0;\n  mov.u32 %%r3, buf;\n"
        "PAD:\n  add.u32 %%r4, %%r3, %%r1;\n  st.shared.u32 [%%r4], 0xa5a5a5a5;\n"
        "  add.u32 %%r1, %%r1, 4;\n  setp.lt.u32 %%p1, %%r1, 2048;\n  @%%p1 bra PAD;\n",
        target);
    k += emit_map(src + k, sizeof src - k, base, "shared", "smap");
    k += (size_t)snprintf(src + k, sizeof src - k,
        "  tensormap.replace.tile.global_address.shared::cta.b1024.b64 [smap], %%rd2;\n%s"
        "  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%%rd1], [smap], 128;\n"
        "  fence.proxy.tensormap::generic.acquire.gpu [%%rd1], 128;\n"
        "  prefetch.tensormap [%%rd1];\n"
        "  cvta.shared.u64 %%rd4, smap;\n  prefetch.tensormap [%%rd4];\n"
        "  mbarrier.init.shared::cta.b64 [bar], 1;\n"
        "  fence.proxy.async.shared::cta;\n"
        "  mbarrier.arrive.expect_tx.shared::cta.b64 %%rd5, [bar], %u;\n"
        "  add.u32 %%r5, %%r3, %u;\n"
        "  cp.async.bulk.tensor.%dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%%r5], [%%rd1, %s], [bar];\n"
        "WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 %%p2, [bar], 0;\n  @!%%p2 bra WAIT;\n"
        "  add.u64 %%rd6, %%rd1, 0x3000;\n  mov.u32 %%r1, 0;\n"
        "OUT:\n  add.u32 %%r4, %%r3, %%r1;\n  ld.shared.u32 %%r6, [%%r4];\n"
        "  cvt.u64.u32 %%rd7, %%r1;\n  add.u64 %%rd7, %%rd6, %%rd7;\n  st.global.u32 [%%rd7], %%r6;\n"
        "  add.u32 %%r1, %%r1, 4;\n  setp.lt.u32 %%p1, %%r1, 2048;\n  @%%p1 bra OUT;\n"
        "  ret;\n}\n",
        body, expect, soff, dim, coords[dim]);
    return th_run_k(r, src, "k", 1, 1, 1, 0, 1, INTERP_COMPLETE_DEFERRED, NULL, 0);
}

static void test_h100_loads(const use_case *u, int nu)
{
    /* tmap_replace_use.cu's cases: what was replaced, the load's rank */
    static const struct { int t; const char *body; int dim; uint32_t expect; } cs[] = {
        {0, "", 3, 512},
        {1, "  tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smap], 1, 4;\n", 3, 256},
        {2, "  tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smap], 1, 4;\n", 3, 512},
        {3, "  tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [smap], 1;\n", 3, 256},
        {5, "  tensormap.replace.tile.rank.shared::cta.b1024.b32 [smap], 1;\n", 2, 512},
        {6, "  tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [smap], 1, 2;\n", 3, 256},
        {8, "  tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [smap], 3;\n", 3, 512},
        {9, "  tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [smap], 0, 512;\n", 3, 512},
    };
    char name[200], d[512];
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        const use_case *h = NULL;
        for (int j = 0; j < nu; j++)
            if (u[j].t == cs[i].t)
                h = &u[j];
        if (!h) {
            printf("FAIL load/case %d: not in " HWDIR "use.txt\n", cs[i].t);
            check_failures++;
            continue;
        }
        th_run r;
        run_load(&r, "sm_90a", u[0].map, cs[i].body, cs[i].dim, cs[i].expect, 0);
        if (!h->completed) {
            /* the H100's phase never completed: the stale box byte count is
             * not what the load completes on the mbarrier */
            snprintf(name, sizeof name, "load/case %d: expecting the stale %u bytes never completes", cs[i].t,
                     cs[i].expect);
            CHECK(name, r.res.status != 0 && strstr(r.res.msg, "deadlock") &&
                            strstr(r.res.msg, "tx-count 256 bytes outstanding"));
            th_free(&r);
            continue;
        }
        snprintf(name, sizeof name, "load/case %d runs (expect_tx %u)", cs[i].t, cs[i].expect);
        CHECK_OK(name, &r);
        if (r.res.status) { th_free(&r); continue; }
        /* the published map: the H100's bytes but for the address */
        hexdiff(d, sizeof d, r.host, h->map, 8);
        snprintf(name, sizeof name, "load/case %d map bytes == H100 (from byte 8)", cs[i].t);
        if (!d[0]) printf("PASS %s\n", name);
        else { printf("FAIL %s:%s\n", name, d); check_failures++; }
        int bad = -1;
        for (int w = 0; w < 512 && bad < 0; w++) {
            uint32_t want = w < h->nwords ? h->words[w] : 0xa5a5a5a5u;
            if (th_u32(&r, 0x3000 / 4 + (unsigned)w) != want)
                bad = w;
        }
        snprintf(name, sizeof name, "load/case %d shared memory == H100", cs[i].t);
        if (bad < 0) printf("PASS %s\n", name);
        else {
            printf("FAIL %s: word %d (smem 0x%x) is %08x, H100 %08x\n", name, bad, 4 * bad,
                   th_u32(&r, 0x3000 / 4 + (unsigned)bad), bad < h->nwords ? h->words[bad] : 0xa5a5a5a5u);
            check_failures++;
        }
        th_free(&r);
    }
}

/* ---- swizzle patterns ----------------------------------------------------------- */

/* PTX ISA §5.5.7 "Swizzling Modes": the tables of 16-byte chunks at the
 * destination, one row per 128-byte shared-memory line, "... Pattern
 * repeats ...".  Entry [line][position] = the chunk stored there. */
static const uint8_t tab_32b[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}};
static const uint8_t tab_64b[4][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4}};
static const uint8_t tab_96b[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}};
static const uint8_t tab_128b[8][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4},
    {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2}, {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0}};
/* 32-byte atomicity sub-mode: "0 1 | 2 3 | 4 5 | 6 7" / "2 3 | 0 1 | 6 7 | 4 5" / ... */
static const uint8_t tab_atom32[4][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 0, 1, 6, 7, 4, 5}, {4, 5, 6, 7, 0, 1, 2, 3}, {6, 7, 4, 5, 2, 3, 0, 1}};
/* 64-byte atomicity sub-mode: "0 1 2 3 | 4 5 6 7" / "4 5 6 7 | 0 1 2 3" */
static const uint8_t tab_atom64[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 6, 7, 0, 1, 2, 3}};

typedef struct { const char *name, *table_ref; int sw, period; const uint8_t (*tab)[8]; } sw_mode;
static const sw_mode modes[] = {
    {"32B", "32 byte swizzle mode table", TMA_SWIZZLE_32B, 2, tab_32b},
    {"64B", "64 byte swizzle mode table", TMA_SWIZZLE_64B, 4, tab_64b},
    {"96B", "96 byte swizzle mode table", TMA_SWIZZLE_96B, 2, tab_96b},
    {"128B", "128 byte swizzle mode, 16-byte atomicity table", TMA_SWIZZLE_128B, 8, tab_128b},
    {"128B_ATOM_32B", "32-byte atomicity sub-mode table", TMA_SWIZZLE_128B_ATOM_32B, 4, tab_atom32},
    {"128B_ATOM_32B_FLIP_8B", "32-byte atomicity table + \"flip of adjacent 8-bytes ... at every alternate "
     "shared memory line\"", TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B, 4, tab_atom32},
    {"128B_ATOM_64B", "64-byte atomicity sub-mode table", TMA_SWIZZLE_128B_ATOM_64B, 2, tab_atom64},
};

/* tma_swizzle_addr against each table, over two repeats of the pattern and
 * from a base on the pattern's boundary (base offset 0). */
static void test_swizzle_tables(void)
{
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        const sw_mode *s = &modes[k];
        int bad = 0;
        char what[160] = "";
        for (uint32_t base = 0; base <= 4096; base += 4096)
            for (int line = 0; line < 2 * s->period && !bad; line++)
                for (int pos = 0; pos < 8 && !bad; pos++) {
                    uint32_t logical = base + 128u * (uint32_t)line + 16u * s->tab[line % s->period][pos];
                    uint32_t want = base + 128u * (uint32_t)line + 16u * (uint32_t)pos;
                    int flip = tma_swizzle_flip8(logical, s->sw);
                    int want_flip = s->sw == TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B && (line & 1);
                    if (tma_swizzle_addr(logical, s->sw) != want || flip != want_flip) {
                        bad = 1;
                        snprintf(what, sizeof what, ": logical 0x%x -> 0x%x flip %d, want 0x%x flip %d", logical,
                                 tma_swizzle_addr(logical, s->sw), flip, want, want_flip);
                    }
                }
        char name[256];
        snprintf(name, sizeof name, "swizzle table/%s (PTX ISA 5.5.7 %s)", s->name, s->table_ref);
        if (!bad) printf("PASS %s\n", name);
        else { printf("FAIL %s%s\n", name, what); check_failures++; }
    }
    CHECK_EQ_U64("swizzle table/96B span is 96 bytes (Box-Size[0] <= 96B)", tma_swizzle_span(TMA_SWIZZLE_96B), 96);
}

/* Loads through the interpreter: 8 rows of 128 bytes with each 128B
 * atomicity (set by tensormap.replace .swizzle_atomicity), landing at a
 * 1024-aligned buffer; every chunk is checked against the table (Figures
 * 35-37 show the same layouts). */
static void test_atomicity_loads(void)
{
    uint8_t map[128];
    uint64_t gd[2] = {32, 8}, gs[1] = {128};
    uint32_t box[2] = {32, 8}, es[2] = {1, 1};
    char why[256];
    tma_encode_tiled(map, TMA_DT_FLOAT32, 2, 0x10000, gd, gs, box, es, TMA_INTERLEAVE_NONE, TMA_SWIZZLE_128B,
                     TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    for (size_t k = 3; k < sizeof modes / sizeof modes[0]; k++) {
        const sw_mode *s = &modes[k];
        char body[160];
        snprintf(body, sizeof body, "  tensormap.replace.tile.swizzle_atomicity.shared::cta.b1024.b32 [smap], %d;\n",
                 s->sw == TMA_SWIZZLE_128B ? 0 : s->sw - TMA_SWIZZLE_128B);
        th_run r;
        run_load(&r, "sm_100a", map, body, 2, 1024, 0);
        char name[256], what[160] = "";
        int bad = r.res.status != 0;
        if (bad) snprintf(what, sizeof what, ": %.150s", r.res.msg);
        for (int line = 0; line < 8 && !bad; line++)
            for (int pos = 0; pos < 8 && !bad; pos++) {
                int chunk = s->tab[line % s->period][pos];
                int flip = s->sw == TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B && (line & 1);
                for (int j = 0; j < 4 && !bad; j++) {
                    int jj = flip ? j ^ 2 : j;   /* 8-byte halves trade places */
                    uint32_t want = 0x10000000u + 32u * (uint32_t)line + 4u * (uint32_t)chunk + (uint32_t)jj;
                    uint32_t got = th_u32(&r, 0x3000 / 4 + 32u * (uint32_t)line + 4u * (uint32_t)pos + (uint32_t)j);
                    if (got != want) {
                        bad = 1;
                        snprintf(what, sizeof what, ": line %d chunk position %d word %d is %08x, want %08x", line,
                                 pos, j, got, want);
                    }
                }
            }
        snprintf(name, sizeof name, "swizzle load/%s via .swizzle_atomicity (PTX ISA 5.5.7 %s)", s->name,
                 s->table_ref);
        if (!bad) printf("PASS %s\n", name);
        else { printf("FAIL %s%s\n", name, what); check_failures++; }
        th_free(&r);
    }
}

/* The 96B mode: a 96-byte row (6 chunks) at lines 0, 1, 2 of the pattern
 * (base offset (dstMem / 128) % 2, repeating on 256-byte boundaries). */
static void test_96b_loads(void)
{
    uint8_t map[128];
    uint64_t gd[2] = {24, 4}, gs[1] = {96};
    uint32_t box[2] = {24, 1}, es[2] = {1, 1};
    char why[256], name[200], what[160];
    tma_encode_tiled(map, TMA_DT_FLOAT32, 2, 0x10000, gd, gs, box, es, TMA_INTERLEAVE_NONE, TMA_SWIZZLE_NONE,
                     TMA_L2_NONE, TMA_OOB_FILL_NONE, why, sizeof why);
    const char *body = "  tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [smap], 4;\n";
    for (uint32_t line = 0; line < 3; line++) {
        th_run r;
        run_load(&r, "sm_103a", map, body, 2, 96, 128 * line);
        int bad = r.res.status != 0;
        snprintf(what, sizeof what, ": %.150s", r.res.msg);
        for (int pos = 0; pos < 8 && !bad; pos++) {
            int chunk = tab_96b[line % 2][pos];
            for (int j = 0; j < 4 && !bad; j++) {
                uint32_t want = chunk < 6 ? 0x10000000u + 4u * (uint32_t)chunk + (uint32_t)j : 0xa5a5a5a5u;
                uint32_t got = th_u32(&r, 0x3000 / 4 + 32u * line + 4u * (uint32_t)pos + (uint32_t)j);
                if (got != want) {
                    bad = 1;
                    snprintf(what, sizeof what, ": chunk position %d word %d is %08x, want %08x", pos, j, got, want);
                }
            }
        }
        snprintf(name, sizeof name, "swizzle load/96B row at line %u (PTX ISA 5.5.7 96 byte swizzle mode table, "
                 "base offset (dstMem / 128) %% 2)", line);
        if (!bad) printf("PASS %s\n", name);
        else { printf("FAIL %s%s\n", name, what); check_failures++; }
        th_free(&r);
    }
    /* two rows: their placement is Figure 31's alone */
    th_run r;
    run_load(&r, "sm_103a", map,
             "  tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [smap], 4;\n"
             "  tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smap], 1, 2;\n", 2, 192, 0);
    CHECK_MSG("swizzle load/96B with 2 rows: not supported", &r, INTERP_UNSUPPORTED, "not supported: 96B swizzle");
    th_free(&r);
    /* Box-Size[0] <= 96B */
    run_load(&r, "sm_103a", map,
             "  tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [smap], 4;\n"
             "  tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smap], 0, 32;\n", 2, 128, 0);
    CHECK_MSG("swizzle load/96B with a 128-byte row faults", &r, INTERP_FAULT, "exceeds the 96-byte swizzle span");
    th_free(&r);
}

int main(void)
{
    static hw_line hw[64];
    int n = load_replace(hw, 64);
    if (n < 40 || strcmp(hw[0].name, "none")) {
        printf("FAIL h100: cannot read " HWDIR "replace.txt (run from the repository root)\n");
        check_failures++;
    } else {
        test_h100_replaces(hw, n);
        test_blackwell_fields(hw[0].map);
    }
    static use_case u[16];
    static hw_line seq[8];
    int nseq = 0, nu = load_use(u, 16, seq, &nseq);
    if (nu < 8) {
        printf("FAIL h100: cannot read " HWDIR "use.txt (run from the repository root)\n");
        check_failures++;
    } else {
        test_h100_loads(u, nu);
        test_elemtype_sequences(seq, nseq, u[0].map);
        test_refusals(u[0].map);
    }
    test_swizzle_tables();
    test_atomicity_loads();
    test_96b_loads();
    return check_failures ? 1 : 0;
}
