/* test_tma_blackwell_ptx.c — the Blackwell-only TMA forms run as PTX
 * instructions through the interpreter.
 *
 * An H100 cannot run these forms, so the conformance corpus has no bytes
 * for them, and tests/unit/test_tma_blackwell.c calls the engine directly.
 * Here each form is a `.target sm_100a` kernel (sm_103a for the 96B swizzle,
 * whose `.swizzle_mode 4` ptxas refuses for sm_100a), so the operand
 * decoding in front of the engine runs too: the {wHalo, wOffset} vector,
 * the five coordinates {col, row0..row3} of gather4/scatter4, .cta_group,
 * and maps changed in the kernel by tensormap.replace.  Each kernel runs
 * under --complete deferred, eager and random; shared memory is filled with
 * 0xA5 first and dumped to global memory afterwards, and every byte is
 * compared with expectations written out below.
 *
 *   - im2col::w / im2col::w::128, .3d and .4d (PTX ISA §5.5.5): the worked
 *     examples of §5.5.5.3 (wHalo) and §5.5.5.4 (wOffset), the pixel
 *     sequence written out by hand per example; the bytes must also equal
 *     what the engine produces for the map test_tma_blackwell.c builds (the
 *     PTX path goes through cuTensorMapEncodeIm2colWide's bytes and
 *     tma_decode instead).  wHalo/wOffset as registers and as immediates,
 *     with .L2::cache_hint, .cta_group::1, .shared::cluster and
 *     .multicast::cluster (the ctaMask follows the vector);
 *   - tile::gather4 loads (an out-of-bounds row and column among them) and a
 *     tile::scatter4 store (§5.5.3.4);
 *   - .cta_group::2: both CTAs of a pair load into their own shared memory
 *     and complete_tx on the even CTA's mbarrier (CUTLASS's 2-SM loads);
 *     an mbarrier outside the pair, or in the peer without ::2, faults;
 *   - sub-byte element types (.b4x16, .b4x16_p64, .b6x16_p32) set by
 *     tensormap.replace .elemtype in the kernel (no encoder here takes
 *     them), then loaded, and a .b6p2x16 store (§5.5.1.1.1);
 *   - the 96B swizzle set by tensormap.replace .swizzle_mode 4: a one-row
 *     box lands in §5.5.7's 96B pattern; a two-row box stops with "not
 *     supported"; 96B with .b4x16_p64 faults.
 * Every kernel is also given to ptxas (-arch = its .target) when
 * /usr/local/cuda/bin/ptxas (or $PTXAS) exists.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/interp_harness.h"
#include "tma/tma.h"

/* ---- kernel text ------------------------------------------------------------------ */

typedef struct sb { char s[65536]; size_t n; } sb;

static void sbf(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
    va_end(ap);
    if (k > 0) b->n += (size_t)k < sizeof b->s - b->n ? (size_t)k : sizeof b->s - b->n - 1;
}

/* Params (out, tmap, tensor, tmap2): %rd1 %rd2 %rd3 %rd4; buf at %r1, its
 * mbarriers bar[0..3] at %r2; smap: a map being edited by tensormap.replace. */
static void k_begin(sb *b, const char *target, uint32_t smem)
{
    b->n = 0;
    sbf(b, ".version 8.8\n.target %s\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u64 tmap, .param .u64 tensor, .param .u64 tmap2)\n{\n"
        "  .reg .b64 %%rd<32>;\n  .reg .b32 %%r<32>;\n  .reg .b16 %%rs<8>;\n  .reg .pred %%p<8>;\n"
        "  .shared .align 1024 .b8 buf[%u];\n  .shared .align 8 .b64 bar[4];\n"
        "  .shared .align 128 .b8 smap[128];\n"
        "  ld.param.u64 %%rd1, [out];\n  ld.param.u64 %%rd2, [tmap];\n"
        "  ld.param.u64 %%rd3, [tensor];\n  ld.param.u64 %%rd4, [tmap2];\n"
        "  mov.u32 %%r1, buf;\n  mov.u32 %%r2, bar;\n", target, smem);
}

/* buf[0, n) = 0xA5, made visible to the async proxy */
static void k_fill(sb *b, uint32_t n)
{
    sbf(b, "  mov.u32 %%r20, 0;\n"
        "FILL:\n  add.u32 %%r21, %%r1, %%r20;\n  st.shared.u32 [%%r21], 0xa5a5a5a5;\n"
        "  add.u32 %%r20, %%r20, 4;\n  setp.lt.u32 %%p7, %%r20, %u;\n  @%%p7 bra FILL;\n"
        "  fence.proxy.async.shared::cta;\n", n);
}

static void k_wait(sb *b, const char *lbl, const char *bar)
{
    sbf(b, "%s:\n  mbarrier.try_wait.parity.shared::cta.b64 %%p1, [%s], 0;\n  @!%%p1 bra %s;\n", lbl, bar, lbl);
}

/* out + %rd1-relative offset `off` (plus rank * per_rank when per_rank) = buf[0, n) */
static void k_dump(sb *b, uint32_t n, uint32_t off, uint32_t per_rank)
{
    if (per_rank)
        sbf(b, "  mov.u32 %%r23, %%cluster_ctarank;\n  mul.wide.u32 %%rd21, %%r23, %u;\n"
            "  add.u64 %%rd1, %%rd1, %%rd21;\n", per_rank);
    sbf(b, "  mov.u32 %%r20, 0;\n"
        "DUMP:\n  add.u32 %%r21, %%r1, %%r20;\n  ld.shared.u32 %%r22, [%%r21];\n"
        "  cvt.u64.u32 %%rd20, %%r20;\n  add.u64 %%rd20, %%rd20, %u;\n  add.u64 %%rd20, %%rd1, %%rd20;\n"
        "  st.global.u32 [%%rd20], %%r22;\n  add.u32 %%r20, %%r20, 4;\n  setp.lt.u32 %%p7, %%r20, %u;\n"
        "  @%%p7 bra DUMP;\n", off, n);
}

/* smap = the 128 bytes at [tmap] (global) */
static void k_map_to_smem(sb *b)
{
    sbf(b, "  mov.u32 %%r20, 0;\n  mov.u32 %%r21, smap;\n"
        "MAPCP:\n  cvt.u64.u32 %%rd20, %%r20;\n  add.u64 %%rd20, %%rd2, %%rd20;\n  ld.global.b64 %%rd21, [%%rd20];\n"
        "  add.u32 %%r22, %%r21, %%r20;\n  st.shared.b64 [%%r22], %%rd21;\n"
        "  add.u32 %%r20, %%r20, 8;\n  setp.lt.u32 %%p7, %%r20, 128;\n  @%%p7 bra MAPCP;\n");
}

/* [tmap2] (global) = smap, published to the tensormap proxy */
static void k_publish_map(sb *b)
{
    sbf(b, "  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
        "[%%rd4], [smap], 128;\n  fence.proxy.tensormap::generic.acquire.gpu [%%rd4], 128;\n");
}

static void k_end(sb *b) { sbf(b, "  ret;\n}\n"); }

/* ---- ptxas ------------------------------------------------------------------------ */

/* Is `src` legal PTX for its own .target?  One PASS/FAIL line; with no
 * ptxas on the machine, a PASS that says so. */
static void check_ptxas(const char *name, const char *src)
{
    const char *ptxas = getenv("PTXAS") ? getenv("PTXAS") : "/usr/local/cuda/bin/ptxas";
    char n[200];
    snprintf(n, sizeof n, "ptxas/%s", name);
    if (access(ptxas, X_OK)) {
        printf("PASS %s: skipped (no ptxas at %s)\n", n, ptxas);
        return;
    }
    const char *t = strstr(src, ".target ");
    char arch[16] = "";
    if (t) sscanf(t + 8, "%15[a-z_0-9]", arch);
    char path[] = "/tmp/ptxi_bw_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, src, strlen(src)) != (ssize_t)strlen(src)) {
        printf("FAIL %s: cannot write a temporary file\n", n);
        check_failures++;
        if (fd >= 0) { close(fd); unlink(path); }
        return;
    }
    close(fd);
    char cmd[512], out[600] = "";
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s %s -o /dev/null 2>&1", ptxas, arch, path);
    FILE *p = popen(cmd, "r");
    size_t got = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[got] = 0;
    int rc = p ? pclose(p) : -1;
    unlink(path);
    if (rc == 0) printf("PASS %s: ptxas -arch=%s accepts it\n", n, arch);
    else {
        for (char *c = out; *c; c++) if (*c == '\n') *c = ' ';
        printf("FAIL %s: ptxas -arch=%s: %s\n", n, arch, out);
        check_failures++;
    }
}

/* ---- running a kernel ------------------------------------------------------------- */

#define OUT_BYTES (1u << 17)

/* Allocates the kernel's buffers in r->g; p[0..2] = tmap, tensor, tmap2. */
typedef int (*setup_fn)(th_run *r, const void *arg, uint64_t p[3], char *why, size_t n);

static int run_k(th_run *r, const char *src, uint32_t cluster, interp_policy pol, setup_fn setup,
                 const void *arg)
{
    const ir_function *fn = th_prepare(r, src, "k", OUT_BYTES);
    if (!fn)
        return -1;
    uint64_t v[3] = {0, 0, 0};
    if (setup(r, arg, v, r->res.msg, sizeof r->res.msg)) {
        r->res.status = -1;
        return -1;
    }
    return th_launch(r, fn, cluster, 1, cluster, 0, 1, pol, v, 3, 20000000);
}

static const interp_policy pols[] = {INTERP_COMPLETE_DEFERRED, INTERP_COMPLETE_EAGER, INTERP_COMPLETE_RANDOM};
static const char *const pol_names[] = {"deferred", "eager", "random"};

/* First differing byte of out[from, from+n) against want, as a sentence. */
static int bytes_are(const th_run *r, uint32_t from, const uint8_t *want, uint32_t n, uint32_t row_bytes,
                     char *msg, size_t mn)
{
    for (uint32_t i = 0; i < n; i++)
        if (r->host[from + i] != want[i]) {
            uint32_t w0 = i & ~3u, got = 0, exp = 0;
            memcpy(&got, r->host + from + w0, 4);
            memcpy(&exp, want + w0, 4);
            snprintf(msg, mn, "smem byte %u (row %u, byte %u): word 0x%08x, want 0x%08x", i,
                     row_bytes ? i / row_bytes : 0, row_bytes ? i % row_bytes : i, got, exp);
            return 0;
        }
    return 1;
}

#define CHECK_BYTES(name, r, from, want, n, row) do { char m_[200]; \
    if ((r)->res.status == 0 && bytes_are(r, from, want, n, row, m_, sizeof m_)) printf("PASS %s\n", name); \
    else { printf("FAIL %s: %s\n", name, (r)->res.status ? (r)->res.msg : m_); check_failures++; } } while (0)

/* ---- im2col::w and im2col::w::128 (PTX ISA §5.5.5) ----------------------------------- */

/* The tensor of test_tma_blackwell.c: NHWC (NWC for .3d) u32, element
 * (c, w, h, n) = c | w << 8 | h << 16 | n << 24, so a pixel names itself. */
static void fill_nhwc(uint32_t *t, uint32_t C, uint32_t W, uint32_t H, uint32_t N)
{
    for (uint32_t n = 0; n < N; n++)
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++)
                for (uint32_t c = 0; c < C; c++)
                    t[(((uint64_t)n * H + y) * W + x) * C + c] = c | x << 8 | y << 16 | n << 24;
}

/* `imgs` images from image n, `px` pixels each from W = w stepping by
 * `step`: one line of an example's hand-written pixel sequence. */
typedef struct { int imgs, px, w, n, step; } seg;

typedef struct {
    uint16_t halo, off;     /* the instruction's {wHalo, wOffset} */
    int imm;                /* as immediates (else .b16 registers) */
    const seg *want;        /* the rows it loads, pixels and halos in order */
    int nseg;
} wload;

typedef struct {
    const char *name;
    int rank;                          /* 3: NWC, 4: NHWC */
    uint32_t C, W, H, N;               /* H is 1 for rank 3 */
    int mode;                          /* TMA_IM2COL_WIDE_W / _W128 */
    uint32_t cpp, ppc;
    int lo, up;                        /* bounding box corners along W */
    uint32_t wstride;                  /* traversal stride along W */
    int32_t c, w, h, n;                /* the instruction's coordinates */
    const char *dst, *mods;            /* "shared::cta" / "shared::cluster"; extra qualifiers */
    int mcast;                         /* cluster of 2, rank 0 multicasts to both */
    int nload;
    wload load[3];
} wcase;

/* §5.5.5.3, im2col::w: "Tensor Size [0..3] = 128, 9, 7, 64 (C, W, H, N),
 * Pixels-per-column = 128, Channels-per-pixel = 64, Bounding Box Lower /
 * Upper Corner W = 0 / 0, Tensor Coordinates (7, 2, 3, 0), wHalo = 2":
 * "loads 128 pixels and the two halo pixels", W only, H kept at 3 (§5.5.5:
 * "elements are accessed across the W dimension only while keeping the H
 * and D dimension constant").  The box spans W 0..8, so from W 2 of image
 * 0 the walk takes W 2..8 (7 pixels), then W 0..8 of images 1..13 (117),
 * then W 0..3 of image 14 (4): 128.  "The halo pixels are always loaded in
 * the shared memory next to the main row pixels": W 4, 5 of image 14 (the
 * engine's documented reading: the strided positions right of the last
 * pixel, same image).  Channel start 0, not 7: 7 u32 is not 16-byte
 * aligned (§5.5.3.1), as in test_tma_blackwell.c. */
static const seg ex_w[] = {{1, 7, 2, 0, 1}, {13, 9, 0, 1, 1}, {1, 4, 0, 14, 1}, /* halo */ {1, 2, 4, 14, 1}};

/* §5.5.5.3, im2col::w::128, same tensor and coordinates: "loads 128
 * elements such that after every 32 elements, wHalo number of elements are
 * loaded".  Groups of 32 pixels, each followed by its 2 halo pixels (the
 * next W positions of the group's last pixel's image; W 9 is outside the
 * tensor: zeros). */
static const seg ex_w128[] = {
    {1, 7, 2, 0, 1}, {2, 9, 0, 1, 1}, {1, 7, 0, 3, 1}, /* halo */ {1, 2, 7, 3, 1},
    {1, 2, 7, 3, 1}, {3, 9, 0, 4, 1}, {1, 3, 0, 7, 1}, /* halo */ {1, 2, 3, 7, 1},
    {1, 6, 3, 7, 1}, {2, 9, 0, 8, 1}, {1, 8, 0, 10, 1}, /* halo */ {1, 2, 8, 10, 1},
    {1, 1, 8, 10, 1}, {3, 9, 0, 11, 1}, {1, 4, 0, 14, 1}, /* halo */ {1, 2, 4, 14, 1},
};

/* §5.5.5.4 Example 1 (scaled as test_tma_blackwell.c scales it: C 16, 16
 * pixels, 4 images): W 67, lower corner -1, upper 0, traversal stride 2,
 * W coordinate -1.  Buffer 1 (wHalo 1, wOffset 0): W -1 (the left padding:
 * zeros), 1, 3, ..., 29, then one halo W 31; buffer 2 (wHalo 0, wOffset 1,
 * "W += wOffset"): W 0, 2, ..., 30. */
static const seg ex1_b1[] = {{1, 16, -1, 0, 2}, /* halo */ {1, 1, 31, 0, 2}};
static const seg ex1_b2[] = {{1, 16, 0, 0, 2}};

/* §5.5.5.4 Example 2 as .3d (NWC, C 16, 8 pixels): W 7, lower corner -1,
 * upper -1, traversal stride 3, W coordinate -1, wOffset 0, 1, 2 for three
 * buffers.  "Bounding Box Lower/Upper Corner W += wOffset; W += wOffset":
 * the box is W [-1 + o, 5 + o], three positions per image, then the next
 * image from the box's lower corner.  W 7 lies outside the tensor. */
static const seg ex2_b1[] = {{2, 3, -1, 0, 3}, {1, 2, -1, 2, 3}};
static const seg ex2_b2[] = {{2, 3, 0, 0, 3}, {1, 2, 0, 2, 3}};
static const seg ex2_b3[] = {{2, 3, 1, 0, 3}, {1, 2, 1, 2, 3}};

/* Example 2's map in im2col::w::128 mode (.3d), wOffset 2 and wHalo 1:
 * the box is W [1, 7], positions 1, 4, 7 per image; 32-pixel groups, each
 * followed by one halo, W + 3 of its last pixel. */
static const seg ex2_w128[] = {
    {10, 3, 1, 0, 3}, {1, 2, 1, 10, 3}, /* halo */ {1, 1, 7, 10, 3},
    {1, 1, 7, 10, 3}, {10, 3, 1, 11, 3}, {1, 1, 1, 21, 3}, /* halo */ {1, 1, 4, 21, 3},
    {1, 2, 4, 21, 3}, {10, 3, 1, 22, 3}, /* halo */ {1, 1, 10, 31, 3},
    {10, 3, 1, 32, 3}, {1, 2, 1, 42, 3}, /* halo */ {1, 1, 7, 42, 3},
};

#define SEGS(a) a, (int)(sizeof a / sizeof a[0])
static const wcase wcases[] = {
    {"im2col::w 4d (5.5.5.3 example, wHalo 2)", 4, 128, 9, 7, 64, TMA_IM2COL_WIDE_W, 64, 128, 0, 0, 1,
     0, 2, 3, 0, "shared::cta", "", 0, 1, {{2, 0, 0, SEGS(ex_w)}}},
    {"im2col::w::128 4d (5.5.5.3 example, wHalo 2)", 4, 128, 9, 7, 64, TMA_IM2COL_WIDE_W128, 64, 5, 0, 0, 1,
     0, 2, 3, 0, "shared::cta", ".L2::cache_hint", 0, 1, {{2, 0, 1, SEGS(ex_w128)}}},
    {"im2col::w 4d (5.5.5.4 example 1, wOffset 0/1)", 4, 16, 67, 9, 4, TMA_IM2COL_WIDE_W, 16, 16, -1, 0, 2,
     0, -1, 2, 0, "shared::cluster", "", 0, 2, {{1, 0, 0, SEGS(ex1_b1)}, {0, 1, 1, SEGS(ex1_b2)}}},
    {"im2col::w 3d (5.5.5.4 example 2, wOffset 0/1/2)", 3, 16, 7, 1, 8, TMA_IM2COL_WIDE_W, 16, 8, -1, -1, 3,
     0, -1, 0, 0, "shared::cta", ".cta_group::1", 0, 3,
     {{0, 0, 1, SEGS(ex2_b1)}, {0, 1, 0, SEGS(ex2_b2)}, {0, 2, 1, SEGS(ex2_b3)}}},
    {"im2col::w::128 3d (example 2's map, wHalo 1, wOffset 2)", 3, 16, 7, 1, 48, TMA_IM2COL_WIDE_W128, 16, 8,
     -1, -1, 3, 0, -1, 0, 0, "shared::cta", "", 0, 1, {{1, 2, 0, SEGS(ex2_w128)}}},
    {"im2col::w 4d .multicast::cluster (example 1, buffer 1)", 4, 16, 67, 9, 4, TMA_IM2COL_WIDE_W, 16, 16, -1, 0,
     2, 0, -1, 2, 0, "shared::cluster", "", 1, 1, {{1, 0, 0, SEGS(ex1_b1)}}},
};

static uint32_t wrows(const wload *l)
{
    uint32_t k = 0;
    for (int s = 0; s < l->nseg; s++) k += (uint32_t)(l->want[s].imgs * l->want[s].px);
    return k;
}

static uint32_t round128(uint32_t v) { return (v + 127) & ~127u; }

/* Shared-memory offset of load i: loads one after another, 128-aligned. */
static uint32_t woff(const wcase *k, int i)
{
    uint32_t off = 0;
    for (int j = 0; j < i; j++) off += round128(wrows(&k->load[j]) * k->cpp * 4);
    return off;
}

/* bytes the kernel dumps: every load's rows, then 128 bytes that stay 0xA5 */
static uint32_t wdump(const wcase *k) { return woff(k, k->nload) + 128; }

/* The expected dump, from the hand-written sequences alone. */
static void w_expected(const wcase *k, uint8_t *want)
{
    memset(want, 0xA5, wdump(k));
    for (int i = 0; i < k->nload; i++) {
        const wload *l = &k->load[i];
        uint32_t row = 0;
        for (int s = 0; s < l->nseg; s++)
            for (int im = 0; im < l->want[s].imgs; im++)
                for (int p = 0; p < l->want[s].px; p++, row++) {
                    int w = l->want[s].w + p * l->want[s].step, n = l->want[s].n + im;
                    for (uint32_t ch = 0; ch < k->cpp; ch++) {
                        uint32_t v = 0;
                        if (w >= 0 && w < (int)k->W && n < (int)k->N)
                            v = ch | (uint32_t)w << 8 | (uint32_t)k->h << 16 | (uint32_t)n << 24;
                        memcpy(want + woff(k, i) + (row * k->cpp + ch) * 4, &v, 4);
                    }
                }
    }
}

/* What the engine gives for the same loads on the map test_tma_blackwell.c
 * builds field by field (kind TMA_MAP_IM2COL_WIDE, wide_mode set), with no
 * encoder, decoder or interpreter in between. */
static int w_engine(const wcase *k, uint8_t *out, char *why, size_t wn)
{
    mem_global *g = mem_global_new();
    uint64_t bytes = (uint64_t)k->C * k->W * k->H * k->N * 4;
    uint64_t a = mem_global_alloc(g, bytes, 256, "t");
    fill_nhwc((uint32_t *)mem_global_host(g, a, bytes), k->C, k->W, k->H, k->N);
    tma_map m;
    memset(&m, 0, sizeof m);
    m.kind = TMA_MAP_IM2COL_WIDE; m.data_type = TMA_DT_UINT32; m.rank = (uint8_t)k->rank;
    m.global_address = a;
    uint32_t dims[4] = {k->C, k->W, k->rank == 4 ? k->H : k->N, k->N};
    uint64_t st = 4;
    for (int i = 0; i < k->rank; i++) {
        m.global_dim[i] = dims[i];
        m.global_strides[i] = i ? st : 4;
        st *= dims[i];
        m.element_strides[i] = 1;
    }
    m.element_strides[1] = k->wstride;
    m.wide_mode = (uint8_t)k->mode; m.channels_per_pixel = k->cpp; m.pixels_per_column = k->ppc;
    m.lower_corner[0] = k->lo; m.upper_corner[0] = k->up;
    static uint8_t smem[1 << 16];
    memset(smem, 0xA5, sizeof smem);
    int rc = 0;
    for (int i = 0; i < k->nload && !rc; i++) {
        tma_request r;
        memset(&r, 0, sizeof r);
        r.kind = TMA_LOAD; r.mode = k->mode == TMA_IM2COL_WIDE_W ? TMA_IM2COL_W : TMA_IM2COL_W128;
        r.dim = k->rank; r.map = &m;
        r.coords[0] = k->c; r.coords[1] = k->w;
        if (k->rank == 4) { r.coords[2] = k->h; r.coords[3] = k->n; }
        else r.coords[2] = k->n;
        r.w_halo = k->load[i].halo; r.w_offset = k->load[i].off;
        r.smem = smem; r.smem_size = sizeof smem; r.smem_off = woff(k, i);
        rc = tma_execute(&r, g, NULL, why, wn);
    }
    memcpy(out, smem, wdump(k));
    mem_global_free(g);
    return rc;
}

/* The tensor and cuTensorMapEncodeIm2colWide's map of it. */
static int w_setup(th_run *r, const void *arg, uint64_t p[3], char *why, size_t wn)
{
    const wcase *k = arg;
    uint64_t bytes = (uint64_t)k->C * k->W * k->H * k->N * 4;
    p[1] = mem_global_alloc(r->g, bytes, 256, "tensor");
    fill_nhwc((uint32_t *)mem_global_host(r->g, p[1], bytes), k->C, k->W, k->H, k->N);
    p[0] = mem_global_alloc(r->g, 128, 128, "tmap");
    uint64_t gd[4] = {k->C, k->W, k->rank == 4 ? k->H : k->N, k->N};
    uint64_t gs[3] = {k->C * 4, (uint64_t)k->C * k->W * 4, (uint64_t)k->C * k->W * k->H * 4};
    uint32_t es[4] = {1, k->wstride, 1, 1};
    return tma_encode_im2col_wide(mem_global_host(r->g, p[0], 128), TMA_DT_UINT32, (uint32_t)k->rank, p[1], gd, gs,
                                  k->lo, k->up, k->cpp, k->ppc, es, TMA_INTERLEAVE_NONE, k->mode, TMA_SWIZZLE_NONE,
                                  TMA_L2_NONE, TMA_OOB_FILL_NONE, why, wn);
}

static void w_kernel(const wcase *k, sb *b)
{
    uint32_t tx = 0;
    for (int i = 0; i < k->nload; i++) tx += wrows(&k->load[i]) * k->cpp * 4;
    const char *mode = k->mode == TMA_IM2COL_WIDE_W ? "im2col::w" : "im2col::w::128";
    k_begin(b, "sm_100a", wdump(k));
    k_fill(b, wdump(k));
    sbf(b, "  mbarrier.init.shared::cta.b64 [%%r2], 1;\n");
    if (k->mcast)
        sbf(b, "  mov.u32 %%r8, %%cluster_ctarank;\n  fence.mbarrier_init.release.cluster;\n"
            "  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n");
    sbf(b, "  mbarrier.arrive.expect_tx.shared::cta.b64 %%rd5, [%%r2], %u;\n", tx);
    if (k->mcast)
        sbf(b, "  setp.ne.u32 %%p2, %%r8, 0;\n  @%%p2 bra WAIT;\n  mov.u16 %%rs3, 3;\n");
    /* W and H in registers (the W coordinate negative in some), C and N immediates */
    sbf(b, "  mov.u32 %%r3, %d;\n  mov.u32 %%r4, %d;\n", k->w, k->h);
    char coords[64];
    if (k->rank == 4) snprintf(coords, sizeof coords, "{%d, %%r3, %%r4, %d}", k->c, k->n);
    else snprintf(coords, sizeof coords, "{%d, %%r3, %d}", k->c, k->n);
    sbf(b, "  mov.b64 %%rd6, 0x12F0000000000000;\n");   /* CUTLASS CacheHintSm90::EVICT_FIRST */
    for (int i = 0; i < k->nload; i++) {
        const wload *l = &k->load[i];
        char info[40];
        if (l->imm) snprintf(info, sizeof info, "{%u, %u}", l->halo, l->off);
        else {
            sbf(b, "  mov.u16 %%rs1, %u;\n  mov.u16 %%rs2, %u;\n", l->halo, l->off);
            snprintf(info, sizeof info, "{%%rs1, %%rs2}");
        }
        /* the prefetch form takes the same vector */
        if (i == 0)
            sbf(b, "  cp.async.bulk.prefetch.tensor.%dd.L2.global.%s [%%rd2, %s], %s;\n", k->rank, mode, coords, info);
        sbf(b, "  add.u32 %%r7, %%r1, %u;\n", woff(k, i));
        sbf(b, "  cp.async.bulk.tensor.%dd.%s.global.%s.mbarrier::complete_tx::bytes%s%s [%%r7], [%%rd2, %s], [%%r2], "
            "%s%s%s;\n", k->rank, k->dst, mode, k->mcast ? ".multicast::cluster" : "", k->mods, coords, info,
            k->mcast ? ", %rs3" : "", strstr(k->mods, "cache_hint") ? ", %rd6" : "");
    }
    k_wait(b, "WAIT", "%r2");
    k_dump(b, wdump(k), 0, k->mcast ? 0x8000 : 0);
    if (k->mcast)
        sbf(b, "  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n");
    k_end(b);
}

static void test_im2col_w(void)
{
    static sb b;
    static uint8_t want[1 << 16], eng[1 << 16];
    char name[300], why[512];
    for (size_t ci = 0; ci < sizeof wcases / sizeof wcases[0]; ci++) {
        const wcase *k = &wcases[ci];
        w_kernel(k, &b);
        check_ptxas(k->name, b.s);
        w_expected(k, want);
        uint32_t n = wdump(k), row = k->cpp * 4;
        /* the hand-written sequence and the engine's map agree (no PTX yet) */
        int rc = w_engine(k, eng, why, sizeof why);
        snprintf(name, sizeof name, "%s: the engine, on the map built as test_tma_blackwell.c builds it, gives "
                 "the ISA sequence", k->name);
        if (rc == 0 && !memcmp(eng, want, n)) printf("PASS %s\n", name);
        else {
            uint32_t i = 0;
            while (i < n && eng[i] == want[i]) i++;
            printf("FAIL %s: rc %d %s; first difference at byte %u (row %u)\n", name, rc, why, i, i / row);
            check_failures++;
        }
        for (int p = 0; p < 3; p++) {
            th_run r;
            run_k(&r, b.s, k->mcast ? 2 : 1, pols[p], w_setup, k);
            snprintf(name, sizeof name, "%s/%s: runs", k->name, pol_names[p]);
            CHECK_OK(name, &r);
            for (int rank = 0; rank < (k->mcast ? 2 : 1); rank++) {
                snprintf(name, sizeof name, "%s/%s: %sshared memory is the ISA sequence", k->name, pol_names[p],
                         rank ? "rank 1's " : k->mcast ? "rank 0's " : "");
                CHECK_BYTES(name, &r, (uint32_t)rank * 0x8000, want, n, row);
                snprintf(name, sizeof name, "%s/%s: %s... and what the engine gives for the same map", k->name,
                         pol_names[p], rank ? "rank 1: " : "");
                CHECK_BYTES(name, &r, (uint32_t)rank * 0x8000, eng, n, row);
            }
            th_free(&r);
        }
    }
}

/* ---- tile::gather4 / tile::scatter4 (PTX ISA §5.5.3.4) ------------------------------ */

/* u16 tensor [12][64], element (x, y) = y << 8 | x; tiled map, box 16 x 1
 * (32-byte rows), no swizzle. */
#define GW 64
#define GH 12
static uint16_t gval(int x, int y) { return (uint16_t)(y << 8 | x); }

static int g_setup(th_run *r, const void *arg, uint64_t p[3], char *why, size_t wn)
{
    (void)arg;
    p[1] = mem_global_alloc(r->g, GW * GH * 2, 256, "tensor");
    uint16_t *t = (uint16_t *)mem_global_host(r->g, p[1], GW * GH * 2);
    for (int y = 0; y < GH; y++)
        for (int x = 0; x < GW; x++) t[y * GW + x] = gval(x, y);
    p[0] = mem_global_alloc(r->g, 128, 128, "tmap");
    uint64_t gd[2] = {GW, GH}, gs[1] = {GW * 2};
    uint32_t box[2] = {16, 1}, es[2] = {1, 1};
    return tma_encode_tiled(mem_global_host(r->g, p[0], 128), TMA_DT_UINT16, 2, p[1], gd, gs, box, es,
                            TMA_INTERLEAVE_NONE, TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, wn);
}

/* gather4 {16, 2, 5, 0, 9} into buf (coordinates in registers but one),
 * gather4 {32, -1, 12, 7, 11} into buf + 128 (rows -1 and 12 are outside
 * the tensor: zeros), gather4 {56, 1, 3, 6, 8} into buf + 256 (columns
 * 64..71 outside: zeros), .shared::cluster and .L2::cache_hint forms among
 * them; then scatter4 of buf to rows {11, 10, 3, 4} at column 16. */
static const char *gather_kernel(sb *b)
{
    k_begin(b, "sm_100a", 512);
    k_fill(b, 512);
    sbf(b, "  mbarrier.init.shared::cta.b64 [%%r2], 1;\n"
        "  mbarrier.arrive.expect_tx.shared::cta.b64 %%rd5, [%%r2], 384;\n"
        "  mov.u32 %%r3, 16;\n  mov.u32 %%r4, 2;\n  mov.u32 %%r5, 5;\n  mov.u32 %%r6, 0;\n"
        "  cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes.cta_group::1 "
        "[%%r1], [%%rd2, {%%r3, %%r4, %%r5, %%r6, 9}], [%%r2];\n"
        "  add.u32 %%r7, %%r1, 128;\n  mov.u32 %%r3, 32;\n  mov.u32 %%r4, -1;\n  mov.u32 %%r5, 12;\n"
        "  cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes "
        "[%%r7], [%%rd2, {%%r3, %%r4, %%r5, 7, 11}], [%%r2];\n"
        "  add.u32 %%r7, %%r1, 256;\n  mov.b64 %%rd6, 0x14F0000000000000;\n"  /* CUTLASS EVICT_LAST */
        "  cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes.L2::cache_hint "
        "[%%r7], [%%rd2, {56, 1, 3, 6, 8}], [%%r2], %%rd6;\n");
    k_wait(b, "WAIT", "%r2");
    k_dump(b, 512, 0, 0);
    sbf(b, "  mov.u32 %%r8, 3;\n  mov.u32 %%r9, 4;\n"
        "  cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%%rd2, {16, 11, 10, %%r8, %%r9}], "
        "[%%r1];\n  cp.async.bulk.commit_group;\n  cp.async.bulk.wait_group 0;\n");
    k_end(b);
    return b->s;
}

/* 4 rows (x0.., y[i]) of 16 elements, one after another; outside = 0 */
static void gather_rows(uint8_t *want, int x0, const int y[4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 16; j++) {
            int x = x0 + j;
            uint16_t v = (x >= 0 && x < GW && y[i] >= 0 && y[i] < GH) ? gval(x, y[i]) : 0;
            memcpy(want + 32 * i + 2 * j, &v, 2);
        }
}

static void test_gather_scatter(void)
{
    static sb b;
    gather_kernel(&b);
    check_ptxas("gather4 / scatter4", b.s);
    /* §5.5.3.4: "four rows in the source 2D tensor are combined to form
     * single 2D destination tensor": row i of the box is tensor row
     * row_i, columns col .. col + 15 */
    uint8_t want[512];
    memset(want, 0xA5, sizeof want);
    static const int y1[4] = {2, 5, 0, 9}, y2[4] = {-1, 12, 7, 11}, y3[4] = {1, 3, 6, 8};
    gather_rows(want, 16, y1);
    gather_rows(want + 128, 32, y2);
    gather_rows(want + 256, 56, y3);
    char name[200];
    for (int p = 0; p < 3; p++) {
        th_run r;
        run_k(&r, b.s, 1, pols[p], g_setup, NULL);
        snprintf(name, sizeof name, "gather4/%s: runs", pol_names[p]);
        CHECK_OK(name, &r);
        snprintf(name, sizeof name, "gather4/%s: rows {2, 5, 0, 9} at column 16", pol_names[p]);
        CHECK_BYTES(name, &r, 0, want, 128, 32);
        snprintf(name, sizeof name, "gather4/%s: rows {-1, 12, 7, 11} at column 32 (two outside: zeros)",
                 pol_names[p]);
        CHECK_BYTES(name, &r, 128, want + 128, 128, 32);
        snprintf(name, sizeof name, "gather4/%s: rows {1, 3, 6, 8} at column 56 (columns 64.. outside: zeros)",
                 pol_names[p]);
        CHECK_BYTES(name, &r, 256, want + 256, 128, 32);
        snprintf(name, sizeof name, "gather4/%s: nothing past the boxes", pol_names[p]);
        CHECK_BYTES(name, &r, 384, want + 384, 128, 0);
        /* §5.5.3.4: scatter4 "single 2D source tensor is divided into four
         * rows in the destination": rows 11, 10, 3, 4, columns 16..31, get
         * what the first gather read (rows 2, 5, 0, 9); nothing else moves */
        if (!r.res.status) {
            const uint16_t *t = (const uint16_t *)mem_global_host(r.g, mem_global_by_name(r.g, "tensor")->base,
                                                                  GW * GH * 2);
            static const int to[4] = {11, 10, 3, 4};
            int bad = -1;
            uint16_t exp = 0;
            for (int i = 0; i < GW * GH && bad < 0; i++) {
                int x = i % GW, y = i / GW;
                exp = gval(x, y);
                for (int k = 0; k < 4; k++)
                    if (y == to[k] && x >= 16 && x < 32) exp = gval(x, y1[k]);
                if (t[i] != exp) bad = i;
            }
            snprintf(name, sizeof name, "scatter4/%s: rows {11, 10, 3, 4} at column 16 hold the gathered rows, "
                     "nothing else changed", pol_names[p]);
            if (bad < 0) printf("PASS %s\n", name);
            else {
                printf("FAIL %s: element (%d, %d) is 0x%04x, want 0x%04x\n", name, bad % GW, bad / GW, t[bad], exp);
                check_failures++;
            }
        }
        th_free(&r);
    }
}

/* ---- .cta_group::2 --------------------------------------------------------------------
 *
 * Cluster of 2 (one CTA pair).  Each CTA gathers rows {rank, rank + 2,
 * rank + 4, rank + 6} at column 0 into its own buf (.shared::cta
 * destination) and tile-loads row 8 + rank at column 16 into buf + 128
 * (.shared::cluster destination), both .cta_group::2 with the mbarrier of
 * rank 0 (mapa), which expects the bytes of all four (CUTLASS's
 * SM100_TMA_2SM_LOAD: "Executed by both CTAs. Set peer bit to 0 so that the
 * transaction bytes will update CTA0's barrier").  Rank 1 learns that
 * its bytes landed from rank 0 through the cluster barrier. */
static const char *pair_kernel(sb *b, const char *group, int target_rank)
{
    k_begin(b, "sm_100a", 256);
    k_fill(b, 256);
    sbf(b, "  mov.u32 %%r8, %%cluster_ctarank;\n"
        "  mbarrier.init.shared::cta.b64 [%%r2], 1;\n"
        "  setp.eq.u32 %%p2, %%r8, 0;\n"
        "  @%%p2 mbarrier.arrive.expect_tx.shared::cta.b64 %%rd5, [%%r2], 320;\n"
        "  fence.mbarrier_init.release.cluster;\n"
        "  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n"
        "  mapa.shared::cluster.u32 %%r6, %%r2, %d;\n"
        "  add.u32 %%r3, %%r8, 2;\n  add.u32 %%r4, %%r8, 4;\n  add.u32 %%r5, %%r8, 6;\n"
        "  cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes%s "
        "[%%r1], [%%rd2, {0, %%r8, %%r3, %%r4, %%r5}], [%%r6];\n"
        "  add.u32 %%r7, %%r1, 128;\n  add.u32 %%r9, %%r8, 8;\n"
        "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes%s "
        "[%%r7], [%%rd2, {16, %%r9}], [%%r6];\n"
        "  @!%%p2 bra SYNC;\n", target_rank, group, group);
    k_wait(b, "WAIT", "%r2");
    sbf(b, "SYNC:\n  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n");
    k_dump(b, 256, 0, 256);
    k_end(b);
    return b->s;
}

static void test_cta_group(void)
{
    static sb b2, b1, b0;
    char name[200];
    pair_kernel(&b2, ".cta_group::2", 0);
    pair_kernel(&b1, ".cta_group::1", 0);
    pair_kernel(&b0, "", 0);
    check_ptxas(".cta_group::2 pair", b2.s);
    check_ptxas(".cta_group::1 with the peer's mbarrier", b1.s);
    check_ptxas("no .cta_group with the peer's mbarrier", b0.s);
    for (int p = 0; p < 3; p++) {
        th_run r;
        run_k(&r, b2.s, 2, pols[p], g_setup, NULL);
        snprintf(name, sizeof name, ".cta_group::2/%s: both CTAs complete on rank 0's mbarrier", pol_names[p]);
        CHECK_OK(name, &r);
        for (int rank = 0; rank < 2; rank++) {
            uint8_t want[256];
            memset(want, 0xA5, sizeof want);
            int ys[4] = {rank, rank + 2, rank + 4, rank + 6};
            gather_rows(want, 0, ys);
            for (int j = 0; j < 16; j++) {
                uint16_t v = gval(16 + j, 8 + rank);
                memcpy(want + 128 + 2 * j, &v, 2);
            }
            snprintf(name, sizeof name, ".cta_group::2/%s: rank %d's gather4 and tile boxes in its own shared "
                     "memory", pol_names[p], rank);
            CHECK_BYTES(name, &r, 256u * (unsigned)rank, want, 256, 32);
        }
        th_free(&r);
        /* without ::2 the mbarrier must be in the destination CTA */
        run_k(&r, b1.s, 2, pols[p], g_setup, NULL);
        snprintf(name, sizeof name, ".cta_group::1/%s: the peer's mbarrier faults", pol_names[p]);
        CHECK_MSG(name, &r, INTERP_FAULT, "names another CTA");
        th_free(&r);
        run_k(&r, b0.s, 2, pols[p], g_setup, NULL);
        snprintf(name, sizeof name, "no .cta_group/%s: the peer's mbarrier faults", pol_names[p]);
        CHECK_MSG(name, &r, INTERP_FAULT, "names another CTA");
        th_free(&r);
    }
    /* cluster of 4: rank 2's pair is {2, 3}; rank 0's mbarrier is outside it */
    static sb b4;
    k_begin(&b4, "sm_100a", 256);
    sbf(&b4, "  mov.u32 %%r8, %%cluster_ctarank;\n  mbarrier.init.shared::cta.b64 [%%r2], 1;\n"
        "  fence.mbarrier_init.release.cluster;\n  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n"
        "  setp.ne.u32 %%p2, %%r8, 2;\n  @%%p2 bra DONE;\n"
        "  mapa.shared::cluster.u32 %%r6, %%r2, 0;\n"
        "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 "
        "[%%r1], [%%rd2, {0, 0}], [%%r6];\n"
        "DONE:\n  barrier.cluster.arrive.release;\n  barrier.cluster.wait.acquire;\n");
    k_end(&b4);
    check_ptxas(".cta_group::2 outside the pair", b4.s);
    for (int p = 0; p < 3; p++) {
        th_run r;
        run_k(&r, b4.s, 4, pols[p], g_setup, NULL);
        snprintf(name, sizeof name, ".cta_group::2/%s: an mbarrier outside the CTA pair faults", pol_names[p]);
        CHECK_MSG(name, &r, INTERP_FAULT, "with .cta_group::2 the mbarrier must be in the destination CTA "
                  "(rank 2) or its peer (rank 3), not rank 0");
        th_free(&r);
    }
}

/* ---- tensormap.replace: sub-byte element types, the 96B swizzle ---------------------- */

/* A tiled map of a [4][256]-byte tensor (byte i = i * 7 + 1): UINT8, box
 * {128, 2}, no swizzle (the kernel replaces the fields). */
static int r_setup(th_run *r, const void *arg, uint64_t p[3], char *why, size_t wn)
{
    const uint32_t *shape = arg;   /* {dim0, dim1, stride1, box0, box1, elem} */
    p[1] = mem_global_alloc(r->g, 4096, 256, "tensor");
    uint8_t *t = mem_global_host(r->g, p[1], 4096);
    for (int i = 0; i < 4096; i++) t[i] = (uint8_t)(i * 7 + 1);
    p[0] = mem_global_alloc(r->g, 128, 128, "tmap");
    p[2] = mem_global_alloc(r->g, 128, 128, "tmap2");
    uint64_t gd[2] = {shape[0], shape[1]}, gs[1] = {shape[2]};
    uint32_t box[2] = {shape[3], shape[4]}, es[2] = {1, 1};
    return tma_encode_tiled(mem_global_host(r->g, p[0], 128), (int)shape[5], 2, p[1], gd, gs, box, es,
                            TMA_INTERLEAVE_NONE, TMA_SWIZZLE_NONE, TMA_L2_NONE, TMA_OOB_FILL_NONE, why, wn);
}

/* Copy the map to smap, apply `edits`, publish it at [tmap2], load a
 * `dim`-d box at `coords` into buf + soff expecting `tx` bytes, dump buf. */
static const char *replace_kernel(sb *b, const char *target, const char *edits, const char *coords, uint32_t soff,
                                  uint32_t tx)
{
    k_begin(b, target, 512);
    k_fill(b, 512);
    k_map_to_smem(b);
    sbf(b, "%s", edits);
    k_publish_map(b);
    sbf(b, "  mbarrier.init.shared::cta.b64 [%%r2], 1;\n"
        "  mbarrier.arrive.expect_tx.shared::cta.b64 %%rd5, [%%r2], %u;\n"
        "  add.u32 %%r7, %%r1, %u;\n"
        "  cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%%r7], [%%rd4, %s], "
        "[%%r2];\n", tx, soff, coords);
    k_wait(b, "WAIT", "%r2");
    k_dump(b, 512, 0, 0);
    k_end(b);
    return b->s;
}

#define REPL(field, args) "  tensormap.replace.tile." field ".shared::cta.b1024.b32 [smap], " args ";\n"

static void test_subbyte(void)
{
    /* §5.5.1.1.1 and Table 33 (.elemtype 13 .b4x16, 14 .b4x16_p64, 15
     * .b6x16_p32): a box of 128 elements x 2 rows at (128, 1) of a tensor
     * whose rows are 256 bytes apart.
     *   .b4x16: 16 nibbles packed in 8 bytes, "copied as is": each row is
     *     64 bytes of global memory from byte 64, packed in shared memory;
     *   .b4x16_p64: each 8 bytes of packed nibbles land in a 16-byte slot,
     *     8 bytes of padding after them;
     *   .b6x16_p32: each 12 bytes (16 6-bit elements) land in a 16-byte
     *     slot, 4 bytes of padding after them.
     * "the padded region that gets added is un-initialized": its bytes are
     * not checked. */
    static const struct {
        const char *name;
        int elemtype;
        uint32_t gdim0;          /* elements per row (256 bytes) */
        uint32_t gunit, sunit;   /* bytes per 16 elements: global, shared */
    } ts[] = {
        {".b4x16", 13, 512, 8, 8},
        {".b4x16_p64", 14, 512, 8, 16},
        {".b6x16_p32", 15, 256, 12, 16},   /* 256 elements: 192 bytes of the 256 */
    };
    static const uint32_t shape[6] = {256, 4, 256, 128, 2, TMA_DT_UINT8};
    static sb b;
    char name[200], edits[400];
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        snprintf(edits, sizeof edits, REPL("elemtype", "%d") REPL("global_dim", "0, %u"), ts[i].elemtype,
                 ts[i].gdim0);
        uint32_t row = 8 * ts[i].sunit;   /* 128 elements = 8 units */
        replace_kernel(&b, "sm_100a", edits, "{128, 1}", 0, 2 * row);
        snprintf(name, sizeof name, "elemtype %s via tensormap.replace", ts[i].name);
        check_ptxas(name, b.s);
        for (int p = 0; p < 3; p++) {
            th_run r;
            run_k(&r, b.s, 1, pols[p], r_setup, shape);
            snprintf(name, sizeof name, "tensormap.replace .elemtype %s/%s: load of the box runs (%u bytes)",
                     ts[i].name, pol_names[p], 2 * row);
            CHECK_OK(name, &r);
            if (!r.res.status) {
                const uint8_t *t = mem_global_host(r.g, mem_global_by_name(r.g, "tensor")->base, 4096);
                int bad = -1;
                uint8_t exp = 0;
                for (uint32_t k = 0; k < 512 && bad < 0; k++) {
                    uint32_t rr = k / row, u = k % row / ts[i].sunit, j = k % ts[i].sunit;
                    if (rr >= 2) exp = 0xA5;
                    else if (j < ts[i].gunit) exp = t[(1 + rr) * 256 + 128 / 16 * ts[i].gunit + u * ts[i].gunit + j];
                    else continue;   /* padding */
                    if (r.host[k] != exp) bad = (int)k;
                }
                snprintf(name, sizeof name, "tensormap.replace .elemtype %s/%s: rows 1, 2 from element 128, %u of "
                         "every %u bytes data", ts[i].name, pol_names[p], ts[i].gunit, ts[i].sunit);
                if (bad < 0) printf("PASS %s\n", name);
                else {
                    printf("FAIL %s: smem byte %d is 0x%02x, want 0x%02x\n", name, bad, r.host[bad], exp);
                    check_failures++;
                }
            }
            th_free(&r);
        }
    }
}

/* §5.5.1.1.1 .b6p2x16 (.elemtype 15 in a store: "sixteen elements, each
 * containing 6-bits of data at the LSB and 2-bits of padding at the MSB,
 * are copied from shared memory into the global memory by discarding the
 * 2-bits of padding data and packing the 6-bits data contiguously"): a
 * 128 x 2 box of one-byte elements, byte i of buf = 0xC0 | ((5 i + i / 128)
 * & 63) (padding bits set), stored at (0, 2) through a map whose .elemtype
 * and .global_dim[0] (256) the kernel replaced: rows 2 and 3 of the tensor
 * get 96 bytes each, element e of a row in bits 6e .. 6e + 5 (LSB first,
 * as test_tma_blackwell.c's engine test packs them); nothing else moves. */
static void test_b6p2x16_store(void)
{
    static const uint32_t shape[6] = {256, 4, 256, 128, 2, TMA_DT_UINT8};
    static sb b;
    k_begin(&b, "sm_100a", 512);
    sbf(&b, "  mov.u32 %%r20, 0;\n"
        "SFILL:\n  mul.lo.u32 %%r21, %%r20, 5;\n  shr.u32 %%r22, %%r20, 7;\n  add.u32 %%r21, %%r21, %%r22;\n"
        "  and.b32 %%r21, %%r21, 63;\n  or.b32 %%r21, %%r21, 0xc0;\n  add.u32 %%r23, %%r1, %%r20;\n"
        "  st.shared.u8 [%%r23], %%r21;\n  add.u32 %%r20, %%r20, 1;\n  setp.lt.u32 %%p7, %%r20, 256;\n"
        "  @%%p7 bra SFILL;\n  fence.proxy.async.shared::cta;\n");
    k_map_to_smem(&b);
    sbf(&b, REPL("elemtype", "15") REPL("global_dim", "0, 256"));
    k_publish_map(&b);
    sbf(&b, "  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%%rd4, {0, 2}], [%%r1];\n"
        "  cp.async.bulk.commit_group;\n  cp.async.bulk.wait_group.read 0;\n  cp.async.bulk.wait_group 0;\n");
    k_end(&b);
    check_ptxas("elemtype .b6p2x16 store via tensormap.replace", b.s);
    uint8_t want[4096];
    for (int i = 0; i < 4096; i++) want[i] = (uint8_t)(i * 7 + 1);
    for (int row = 0; row < 2; row++) {
        uint8_t *g = want + (2 + row) * 256;
        memset(g, 0, 96);
        for (int e = 0; e < 128; e++) {
            int i = row * 128 + e, v = (5 * i + i / 128) & 63;
            for (int bit = 0; bit < 6; bit++)
                if (v >> bit & 1) g[(6 * e + bit) / 8] |= (uint8_t)(1u << ((6 * e + bit) % 8));
        }
    }
    char name[200];
    for (int p = 0; p < 3; p++) {
        th_run r;
        run_k(&r, b.s, 1, pols[p], r_setup, shape);
        snprintf(name, sizeof name, "tensormap.replace .elemtype .b6p2x16/%s: store runs", pol_names[p]);
        CHECK_OK(name, &r);
        if (!r.res.status) {
            const uint8_t *t = mem_global_host(r.g, mem_global_by_name(r.g, "tensor")->base, 4096);
            int bad = -1;
            for (int i = 0; i < 4096 && bad < 0; i++)
                if (t[i] != want[i]) bad = i;
            snprintf(name, sizeof name, "tensormap.replace .elemtype .b6p2x16/%s: rows 2, 3 get 96 packed bytes "
                     "each, nothing else changes", pol_names[p]);
            if (bad < 0) printf("PASS %s\n", name);
            else {
                printf("FAIL %s: tensor byte %d (row %d, byte %d) is 0x%02x, want 0x%02x\n", name, bad, bad / 256,
                       bad % 256, t[bad], want[bad]);
                check_failures++;
            }
        }
        th_free(&r);
    }
}

static void test_96b(void)
{
    /* §5.5.7 "96 byte swizzle mode": the 16-byte chunks of 128-byte line 0
     * of the pattern in order, of line 1 as 1 0 3 2 5 4 (7 6), the pattern
     * repeating; "swizzle base offset" (dstMem / 128) % 2.  A u32 box of
     * 24 x 1 (96 bytes, "Box-Size[0] <= 96B"): at buf + 128 (line 1) row 2
     * of the tensor lands pairwise swapped; positions 6 and 7 (chunks 7, 6:
     * beyond the row) keep their fill.  .swizzle_mode 4 is sm_103a's:
     * ptxas refuses it for sm_100a ("expected to be in range [0..3]"). */
    static const uint32_t shape[6] = {24, 4, 96, 24, 1, TMA_DT_UINT32};
    static sb b;
    char name[200];
    replace_kernel(&b, "sm_103a", REPL("swizzle_mode", "4"), "{0, 2}", 128, 96);
    check_ptxas("96B swizzle, one row", b.s);
    for (int p = 0; p < 3; p++) {
        th_run r;
        run_k(&r, b.s, 1, pols[p], r_setup, shape);
        snprintf(name, sizeof name, "96B swizzle/%s: one-row box loads", pol_names[p]);
        CHECK_OK(name, &r);
        uint8_t want[512];
        memset(want, 0xA5, sizeof want);
        if (!r.res.status) {
            const uint8_t *t = mem_global_host(r.g, mem_global_by_name(r.g, "tensor")->base, 4096);
            for (int pos = 0; pos < 6; pos++)
                memcpy(want + 128 + 16 * pos, t + 2 * 96 + 16 * (pos ^ 1), 16);
        }
        snprintf(name, sizeof name, "96B swizzle/%s: line 1 holds chunks 1 0 3 2 5 4, the rest untouched",
                 pol_names[p]);
        CHECK_BYTES(name, &r, 0, want, 512, 128);
        th_free(&r);
    }
    replace_kernel(&b, "sm_103a", REPL("swizzle_mode", "4") REPL("box_dim", "1, 2"), "{0, 1}", 0, 192);
    check_ptxas("96B swizzle, two rows", b.s);
    for (int p = 0; p < 3; p++) {
        th_run r;
        run_k(&r, b.s, 1, pols[p], r_setup, shape);
        snprintf(name, sizeof name, "96B swizzle/%s: a two-row box stops with 'not supported'", pol_names[p]);
        CHECK_MSG(name, &r, INTERP_UNSUPPORTED, "not supported: 96B swizzle with a 2-row box");
        snprintf(name, sizeof name, "96B swizzle/%s: ... said once, at the start, naming the instruction",
                 pol_names[p]);
        CHECK(name, !strncmp(r.res.msg, "not supported: 96B swizzle", 26) &&
                    !strstr(r.res.msg + 1, "not supported: not supported") &&
                    strstr(r.res.msg, "at test.ptx:") && strstr(r.res.msg, "cp.async.bulk.tensor.2d"));
        th_free(&r);
    }
    /* 96B with a padded sub-byte type is illegal (tma/engine.c, §5.5.7) */
    static const uint32_t shape8[6] = {256, 4, 256, 64, 1, TMA_DT_UINT8};   /* 64 elements: 64 bytes <= 96 */
    replace_kernel(&b, "sm_103a", REPL("elemtype", "14") REPL("global_dim", "0, 512") REPL("swizzle_mode", "4"),
                   "{0, 1}", 0, 128);
    check_ptxas("96B swizzle with .b4x16_p64", b.s);
    for (int p = 0; p < 3; p++) {
        th_run r;
        run_k(&r, b.s, 1, pols[p], r_setup, shape8);
        snprintf(name, sizeof name, "96B swizzle/%s: with .b4x16_p64 faults", pol_names[p]);
        CHECK_MSG(name, &r, INTERP_FAULT, "96B swizzle with a padded sub-byte type");
        th_free(&r);
    }
}

int main(void)
{
    (void)th_run_k;   /* this file's kernels need buffers of their own (run_k) */
    test_im2col_w();
    test_gather_scatter();
    test_cta_group();
    test_subbyte();
    test_b6p2x16_store();
    test_96b();
    CHECK_DONE();
}
