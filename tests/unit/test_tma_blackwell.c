/* test_tma_blackwell.c — engine tests for the forms an H100 cannot run
 * (so the conformance corpus has no bytes for them): im2col::w and
 * im2col::w::128 with wHalo/wOffset (PTX ISA §5.5.5), tile::gather4 /
 * tile::scatter4 (§5.5.3.4), the sub-byte padded types (§5.5.1.1.1), the
 * 128B swizzle atomicity sub-modes (§5.5.7), plus reduction semantics that
 * the corpus's small exact inputs do not reach (atom.inc/dec wrap, f16
 * rounding).  Each test states the layout it expects; the tensor holds
 * self-describing values so a wrong row names itself.
 *
 * The expected layouts follow the ISA's worked examples; where the text is
 * silent (what follows the last W of the box in ::w mode) the test pins the
 * engine's documented choice (wrap to the box's lower W corner in the next
 * image), so a change there is deliberate.
 */
#include <stdlib.h>
#include <string.h>

#include "memory/mem.h"
#include "tma/tma.h"
#include "tests/unit/check.h"

static mem_global *G;
static uint8_t smem[1 << 18];

/* NHWC u32 tensor whose element (c, w, h, n) holds c | w<<8 | h<<16 | n<<24. */
static uint64_t nhwc_u32(tma_map *m, uint32_t C, uint32_t W, uint32_t H, uint32_t N)
{
    uint64_t bytes = (uint64_t)C * W * H * N * 4;
    uint64_t a = mem_global_alloc(G, bytes, 256, "t");
    uint32_t *h = (uint32_t *)mem_global_host(G, a, bytes);
    for (uint32_t n = 0; n < N; n++)
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++)
                for (uint32_t c = 0; c < C; c++)
                    h[(((uint64_t)n * H + y) * W + x) * C + c] = c | x << 8 | y << 16 | n << 24;
    memset(m, 0, sizeof *m);
    m->kind = TMA_MAP_IM2COL_WIDE; m->data_type = TMA_DT_UINT32; m->rank = 4;
    m->global_address = a;
    m->global_dim[0] = C; m->global_dim[1] = W; m->global_dim[2] = H; m->global_dim[3] = N;
    m->global_strides[0] = 4; m->global_strides[1] = C * 4; m->global_strides[2] = (uint64_t)C * W * 4;
    m->global_strides[3] = (uint64_t)C * W * H * 4;
    for (int i = 0; i < 4; i++) m->element_strides[i] = 1;
    return a;
}

static uint32_t px(uint32_t row, uint32_t cpp, uint32_t c) /* smem word of pixel row, channel c */
{
    uint32_t v;
    memcpy(&v, smem + ((size_t)row * cpp + c) * 4, 4);
    return v;
}

/* Check that smem rows hold the (w, h, n) sequence given (channel 0..cpp-1
 * from c0); w < 0 or w >= W means an OOB (zero) row. */
static int rows_are(const int *w, const int *n, int rows, int h, uint32_t cpp, uint32_t c0, int W,
                    char *msg, size_t mn)
{
    for (int r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cpp; c += cpp - 1) {
            uint32_t want = (w[r] < 0 || w[r] >= W) ? 0
                          : (c0 + c) | (uint32_t)w[r] << 8 | (uint32_t)h << 16 | (uint32_t)n[r] << 24;
            uint32_t got = px((uint32_t)r, cpp, c);
            if (got != want) {
                snprintf(msg, mn, "row %d channel %u: got 0x%08x want 0x%08x (w=%d n=%d)", r, c, got,
                         want, w[r], n[r]);
                return 0;
            }
        }
    return 1;
}

static tma_request req(const tma_map *m, int kind, int mode)
{
    tma_request r;
    memset(&r, 0, sizeof r);
    r.kind = kind; r.mode = mode; r.dim = m->rank; r.map = m;
    r.smem = smem; r.smem_size = sizeof smem; r.smem_off = 0;
    return r;
}

/* §5.5.5.3 im2col::w example: W=9, H=7, N=64, C=128 (u32 here, channel
 * start 0 — the ISA's 7 is not 16-byte aligned), pixels_per_column 128,
 * channels 64, corners 0/0, coordinates (c=0, w=2, h=3, n=0), wHalo 2:
 * 128 pixels walking W 2..8 of image 0, then W 0..8 of images 1, 2, ...,
 * followed by 2 halo pixels right of the last one (same image). */
static void test_w_mode(void)
{
    tma_map m;
    nhwc_u32(&m, 128, 9, 7, 64);
    m.wide_mode = TMA_IM2COL_WIDE_W; m.channels_per_pixel = 64; m.pixels_per_column = 128;
    tma_request r = req(&m, TMA_LOAD, TMA_IM2COL_W);
    r.coords[0] = 0; r.coords[1] = 2; r.coords[2] = 3; r.coords[3] = 0; r.w_halo = 2;
    memset(smem, 0xA5, sizeof smem);
    uint32_t tx = 0;
    char why[256] = "", msg[256] = "";
    int rc = tma_execute(&r, G, &tx, why, sizeof why);
    CHECK("im2col_w/example_executes", rc == 0);
    CHECK_EQ_U64("im2col_w/tx_bytes", tx, (128 + 2) * 64 * 4);
    int w[130], n[130], cw = 2, cn = 0;
    for (int i = 0; i < 128; i++) { w[i] = cw; n[i] = cn; if (++cw > 8) { cw = 0; cn++; } }
    /* halo: right of the last pixel (w=8 of some image), same image: OOB */
    w[128] = w[127] + 1; n[128] = n[127]; w[129] = w[127] + 2; n[129] = n[127];
    int ok = rows_are(w, n, 130, 3, 64, 0, 9, msg, sizeof msg);
    if (!ok) printf("FAIL im2col_w/layout: %s\n", msg), check_failures++;
    else printf("PASS im2col_w/layout\n");
}

/* §5.5.5.3 im2col::w::128: 128 pixels as four groups of 32, each group
 * followed by wHalo halo pixels (the positions right of the group's last
 * pixel in the same image). */
static void test_w128_mode(void)
{
    tma_map m;
    nhwc_u32(&m, 128, 9, 7, 64);
    m.wide_mode = TMA_IM2COL_WIDE_W128; m.channels_per_pixel = 64; m.pixels_per_column = 5; /* ignored */
    tma_request r = req(&m, TMA_LOAD, TMA_IM2COL_W128);
    r.coords[1] = 2; r.coords[2] = 3; r.w_halo = 2;
    memset(smem, 0xA5, sizeof smem);
    uint32_t tx = 0;
    char why[256] = "", msg[256] = "";
    CHECK("im2col_w128/example_executes", tma_execute(&r, G, &tx, why, sizeof why) == 0);
    CHECK_EQ_U64("im2col_w128/tx_bytes", tx, (128 + 4 * 2) * 64 * 4);
    int w[136], n[136], k = 0, cw = 2, cn = 0;
    for (int g = 0; g < 4; g++) {
        for (int i = 0; i < 32; i++, k++) { w[k] = cw; n[k] = cn; if (++cw > 8) { cw = 0; cn++; } }
        int lw = w[k - 1], ln = n[k - 1];
        w[k] = lw + 1; n[k] = ln; k++;
        w[k] = lw + 2; n[k] = ln; k++;
    }
    /* a halo past the image's right edge is out of bounds (zero) */
    for (int i = 0; i < 136; i++) if (w[i] > 8) w[i] = 99;
    int ok = rows_are(w, n, 136, 3, 64, 0, 9, msg, sizeof msg);
    if (!ok) printf("FAIL im2col_w128/layout: %s\n", msg), check_failures++;
    else printf("PASS im2col_w128/layout\n");
}

/* §5.5.5.4 Example 1: W=67, lower -1, upper 0, traversal stride 2,
 * coordinates W=-1.  Buffer 1 (wHalo 1, wOffset 0): W = -1, 1, 3, ... (the
 * first is the left padding, zero) then one halo; buffer 2 (wHalo 0,
 * wOffset 1): W = 0, 2, 4, ... */
static void test_w_offset(void)
{
    tma_map m;
    nhwc_u32(&m, 16, 67, 9, 4);
    m.wide_mode = TMA_IM2COL_WIDE_W; m.channels_per_pixel = 16; m.pixels_per_column = 16;
    m.lower_corner[0] = -1; m.upper_corner[0] = 0; m.element_strides[1] = 2;
    char why[256] = "", msg[256] = "";
    for (int buf = 0; buf < 2; buf++) {
        tma_request r = req(&m, TMA_LOAD, TMA_IM2COL_W);
        r.coords[1] = -1; r.coords[2] = 2; r.w_halo = buf ? 0 : 1; r.w_offset = (uint16_t)buf;
        memset(smem, 0xA5, sizeof smem);
        int rc = tma_execute(&r, G, NULL, why, sizeof why);
        int w[17], n[17], rows = 16 + (buf ? 0 : 1);
        for (int i = 0; i < rows; i++) { w[i] = -1 + buf + 2 * i; n[i] = 0; }
        int ok = rc == 0 && rows_are(w, n, rows, 2, 16, 0, 67, msg, sizeof msg);
        if (!ok) printf("FAIL im2col_w/woffset_buffer%d: %s %s\n", buf + 1, why, msg), check_failures++;
        else printf("PASS im2col_w/woffset_buffer%d\n", buf + 1);
    }
}

/* §5.5.3.4: gather4 with rows (2, 5, 0, 9) at column 16 of a 2D u8
 * tensor: four 32-byte rows, one after another in smem; scatter4 writes
 * them back to four other rows. */
static void test_gather_scatter(void)
{
    tma_map m;
    memset(&m, 0, sizeof m);
    uint64_t a = mem_global_alloc(G, 64 * 12, 256, "g");
    uint8_t *h = mem_global_host(G, a, 64 * 12);
    for (int y = 0; y < 12; y++) for (int x = 0; x < 64; x++) h[y * 64 + x] = (uint8_t)(y * 16 + (x & 15));
    m.kind = TMA_MAP_TILED; m.data_type = TMA_DT_UINT8; m.rank = 2; m.global_address = a;
    m.global_dim[0] = 64; m.global_dim[1] = 12; m.global_strides[0] = 1; m.global_strides[1] = 64;
    m.box_dim[0] = 32; m.box_dim[1] = 1; m.element_strides[0] = m.element_strides[1] = 1;
    tma_request r = req(&m, TMA_LOAD, TMA_GATHER4);
    int rows[4] = {2, 5, 0, 9};
    r.coords[0] = 16;
    for (int i = 0; i < 4; i++) r.coords[1 + i] = rows[i];
    memset(smem, 0xA5, 256);
    uint32_t tx = 0;
    char why[256] = "";
    CHECK("gather4/executes", tma_execute(&r, G, &tx, why, sizeof why) == 0);
    CHECK_EQ_U64("gather4/tx_bytes", tx, 4 * 32);
    int ok = 1;
    for (int i = 0; i < 4; i++) ok &= !memcmp(smem + 32 * i, h + rows[i] * 64 + 16, 32);
    CHECK("gather4/rows_in_order", ok);
    CHECK("gather4/nothing_past_box", smem[128] == 0xA5);
    /* scatter4 back to rows 11, 10, 3, 4 */
    tma_request s = req(&m, TMA_STORE, TMA_SCATTER4);
    int to[4] = {11, 10, 3, 4};
    uint8_t before[64 * 12];
    memcpy(before, h, sizeof before);
    s.coords[0] = 16;
    for (int i = 0; i < 4; i++) s.coords[1 + i] = to[i];
    CHECK("scatter4/executes", tma_execute(&s, G, NULL, why, sizeof why) == 0);
    ok = 1;
    for (int i = 0; i < 4; i++) ok &= !memcmp(h + to[i] * 64 + 16, before + rows[i] * 64 + 16, 32);
    CHECK("scatter4/rows_written", ok);
    CHECK("scatter4/rest_untouched", !memcmp(h + 11 * 64, before + 11 * 64, 16) && h[11 * 64 + 48] == before[11 * 64 + 48]);
    /* box_dim[1] must be 1 */
    m.box_dim[1] = 2;
    CHECK("gather4/box_dim1_not_1_faults", tma_check(&r, NULL, why, sizeof why) == TMA_FAULT_ILLEGAL_INSTRUCTION);
}

/* §5.5.1.1.1: .b4x16_p64 (16U4_ALIGN16B): each 8 bytes of packed nibbles
 * land in a 16-byte slot, the upper 8 bytes padding; .b6x16_p32
 * (16U6_ALIGN16B): 12 bytes land in a 16-byte slot; a store of
 * .b6p2x16 packs 16 one-byte elements (low 6 bits) into 12 bytes. */
static void test_subbyte(void)
{
    char why[256] = "";
    for (int t = 0; t < 2; t++) {
        int dt = t ? TMA_DT_16U6_ALIGN16B : TMA_DT_16U4_ALIGN16B;
        uint32_t gunit = t ? 12 : 8;
        tma_map m;
        memset(&m, 0, sizeof m);
        uint64_t a = mem_global_alloc(G, 4096, 256, "s");
        uint8_t *h = mem_global_host(G, a, 4096);
        for (int i = 0; i < 4096; i++) h[i] = (uint8_t)(i * 7 + 1);
        m.kind = TMA_MAP_TILED; m.data_type = (uint8_t)dt; m.rank = 2; m.global_address = a;
        m.global_dim[0] = 256; m.global_dim[1] = 4; m.global_strides[1] = 512;
        m.box_dim[0] = 128; m.box_dim[1] = 2; m.element_strides[0] = m.element_strides[1] = 1;
        tma_request r = req(&m, TMA_LOAD, TMA_TILE);
        r.coords[0] = 128; r.coords[1] = 1;
        memset(smem, 0xA5, 512);
        uint32_t tx = 0;
        int rc = tma_execute(&r, G, &tx, why, sizeof why);
        char name[64];
        snprintf(name, sizeof name, "subbyte/%s_load", t ? "b6x16_p32" : "b4x16_p64");
        int ok = rc == 0 && tx == 2 * 8 * 16;
        for (int row = 0; row < 2 && ok; row++)
            for (int u = 0; u < 8 && ok; u++) {
                const uint8_t *src = h + (1 + row) * 512 + (128 / 16) * gunit + u * gunit;
                const uint8_t *dst = smem + row * 128 + u * 16;
                ok = !memcmp(dst, src, gunit);
            }
        if (ok) printf("PASS %s\n", name);
        else printf("FAIL %s: rc %d tx %u (%s)\n", name, rc, tx, why), check_failures++;
    }
    /* .b6p2x16 store: elements 0..15 = 1..16 pack into 12 bytes, LSB first */
    tma_map m;
    memset(&m, 0, sizeof m);
    uint64_t a = mem_global_alloc(G, 1024, 256, "p");
    uint8_t *h = mem_global_host(G, a, 1024);
    m.kind = TMA_MAP_TILED; m.data_type = TMA_DT_16U6_ALIGN16B; m.rank = 1; m.global_address = a;
    m.global_dim[0] = 128; m.box_dim[0] = 128; m.element_strides[0] = 1;
    tma_request s = req(&m, TMA_STORE, TMA_TILE);
    for (int i = 0; i < 128; i++) smem[i] = (uint8_t)(0xC0 | ((i % 16) + 1)); /* pad bits set: dropped */
    int rc = tma_execute(&s, G, NULL, why, sizeof why);
    uint8_t want[12] = {0};
    for (int i = 0; i < 16; i++)
        for (int b = 0; b < 6; b++)
            if (((i + 1) >> b) & 1) want[(i * 6 + b) / 8] |= (uint8_t)(1u << ((i * 6 + b) % 8));
    CHECK("subbyte/b6p2x16_store_packs", rc == 0 && !memcmp(h, want, 12) && !memcmp(h + 12, want, 12));
}

/* §5.5.7 128B swizzle atomicity sub-modes, 8 rows of 128 bytes at a
 * 1024-aligned address: row r (one 128-byte line) gets 32-byte units
 * permuted by u ^ (r & 3) (32B atom), 64-byte halves by h ^ (r & 1) (64B
 * atom), and the 32B+8B-flip form also swaps the 8-byte halves of every
 * 16-byte chunk on odd lines. */
static void test_atom_swizzles(void)
{
    tma_map m;
    memset(&m, 0, sizeof m);
    uint64_t a = mem_global_alloc(G, 1024, 256, "w");
    uint8_t *h = mem_global_host(G, a, 1024);
    for (int i = 0; i < 1024; i++) h[i] = (uint8_t)i ^ (uint8_t)(i >> 8);
    m.kind = TMA_MAP_TILED; m.data_type = TMA_DT_UINT8; m.rank = 2; m.global_address = a;
    m.global_dim[0] = 128; m.global_dim[1] = 8; m.global_strides[1] = 128;
    m.box_dim[0] = 128; m.box_dim[1] = 8; m.element_strides[0] = m.element_strides[1] = 1;
    static const struct { int sw; const char *name; } modes[] = {
        {TMA_SWIZZLE_128B, "128B"}, {TMA_SWIZZLE_128B_ATOM_32B, "128B_ATOM_32B"},
        {TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B, "128B_ATOM_32B_FLIP_8B"}, {TMA_SWIZZLE_128B_ATOM_64B, "128B_ATOM_64B"}};
    char why[256] = "";
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        m.swizzle = (uint8_t)modes[k].sw;
        tma_request r = req(&m, TMA_LOAD, TMA_TILE);
        r.smem_off = 1024;
        int rc = tma_execute(&r, G, NULL, why, sizeof why);
        int ok = rc == 0;
        for (int row = 0; row < 8 && ok; row++)
            for (int b = 0; b < 128 && ok; b++) {
                int d;
                switch (modes[k].sw) {
                case TMA_SWIZZLE_128B: d = b ^ ((row & 7) << 4); break;
                case TMA_SWIZZLE_128B_ATOM_64B: d = b ^ ((row & 1) << 6); break;
                default:
                    d = b ^ ((row & 3) << 5);
                    if (modes[k].sw == TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B && (row & 1)) d ^= 8;
                }
                ok = smem[1024 + row * 128 + d] == h[row * 128 + b];
            }
        char name[64];
        snprintf(name, sizeof name, "swizzle/%s_layout", modes[k].name);
        CHECK(name, ok);
    }
    /* phase from the address: 128B swizzle at smem 128 starts at pattern row 1 */
    m.swizzle = TMA_SWIZZLE_128B;
    m.box_dim[1] = 1;
    tma_request r = req(&m, TMA_LOAD, TMA_TILE);
    r.smem_off = 128;
    CHECK("swizzle/128B_phase_from_address",
          tma_execute(&r, G, NULL, why, sizeof why) == 0 && smem[128 + 16] == h[0] && smem[128] == h[16]);
    r.smem_off = 64;
    CHECK("swizzle/smem_not_128_aligned_faults", tma_check(&r, NULL, why, sizeof why) == TMA_FAULT_MISALIGNED);
}

/* atom.inc/dec semantics for cp.reduce .inc/.dec on u32, and f16 add with
 * round-to-nearest-even. */
static void test_reduce_semantics(void)
{
    tma_map m;
    memset(&m, 0, sizeof m);
    uint64_t a = mem_global_alloc(G, 64, 256, "r");
    uint8_t *h = mem_global_host(G, a, 64);
    m.kind = TMA_MAP_TILED; m.data_type = TMA_DT_UINT32; m.rank = 1; m.global_address = a;
    m.global_dim[0] = 4; m.box_dim[0] = 4; m.element_strides[0] = 1;
    uint32_t g[4] = {5, 9, 0, 3}, s[4] = {9, 9, 7, 2}, out[4];
    char why[256] = "";
    memcpy(h, g, 16); memcpy(smem, s, 16);
    tma_request r = req(&m, TMA_REDUCE, TMA_TILE);
    r.redop = TMA_RED_INC;
    tma_execute(&r, G, NULL, why, sizeof why);
    memcpy(out, h, 16);
    /* inc: old >= src ? 0 : old + 1 */
    CHECK("reduce/inc_wraps", out[0] == 6 && out[1] == 0 && out[2] == 1 && out[3] == 0);
    memcpy(h, g, 16);
    r.redop = TMA_RED_DEC;
    tma_execute(&r, G, NULL, why, sizeof why);
    memcpy(out, h, 16);
    /* dec: (old == 0 || old > src) ? src : old - 1 */
    CHECK("reduce/dec_wraps", out[0] == 4 && out[1] == 8 && out[2] == 7 && out[3] == 2);
    m.data_type = TMA_DT_FLOAT16;
    m.box_dim[0] = 8; m.global_dim[0] = 8;
    uint16_t hg[8] = {0x3C00, 0x3C00, 0x7BFF, 0x0001}, hs[8] = {0x1000, 0x1400, 0x5000, 0x8001};
    memcpy(h, hg, 16); memcpy(smem, hs, 16);
    r = req(&m, TMA_REDUCE, TMA_TILE);
    r.redop = TMA_RED_ADD;
    tma_execute(&r, G, NULL, why, sizeof why);
    uint16_t ho[8];
    memcpy(ho, h, 16);
    /* 1 + 2^-11 ties to even (1.0); 1 + 2^-10 = 0x3C01; 65504 + 32 rounds to inf;
     * 2^-24 + -2^-24 = +0 */
    CHECK("reduce/f16_add_rne", ho[0] == 0x3C00 && ho[1] == 0x3C01 && ho[2] == 0x7C00 && ho[3] == 0x0000);
    m.data_type = TMA_DT_INT64;
    r.redop = TMA_RED_ADD;
    CHECK("reduce/add_s64_illegal", tma_check(&r, NULL, why, sizeof why) == TMA_FAULT_ILLEGAL_INSTRUCTION);
}

int main(void)
{
    G = mem_global_new();
    test_w_mode();
    test_w128_mode();
    test_w_offset();
    test_gather_scatter();
    test_subbyte();
    test_atom_swizzles();
    test_reduce_semantics();
    mem_global_free(G);
    CHECK_DONE();
}
