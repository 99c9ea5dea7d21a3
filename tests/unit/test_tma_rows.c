/* test_tma_rows.c — properties every TMA operation must have, over random
 * requests (every mode, data type, interleave, swizzle, traversal stride,
 * partly out-of-bounds boxes), not only over the shapes the conformance
 * corpus happens to hold:
 *   - no stack garbage reaches memory: the engine builds rows in stack
 *     temporaries, so each request runs twice, the stack below the call
 *     painted 0x00 and then 0xFF first; shared and global memory must come
 *     out the same (an unwritten temporary byte differs between the runs --
 *     the check MSan makes, without MSan);
 *   - a load writes nothing outside [smem_off, smem_off + footprint), the
 *     range the race checker guards (tma_smem_footprint);
 *   - a fault leaves shared memory as it was;
 * plus the cases that used to break them: an interleaved im2col load with
 * a channel traversal stride (rows of 6 bytes), an interleaved map of a
 * padded sub-byte type (16 elements a unit against one slice a unit), a
 * box row that is not a multiple of 16 bytes (tensormap.replace only).
 */
#include <stdlib.h>
#include <string.h>

#include "memory/mem.h"
#include "tma/tma.h"
#include "tests/unit/check.h"

#define SMEM (64u << 10)
static uint8_t smem_a[SMEM], smem_b[SMEM];

static uint64_t S = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { S ^= S << 13; S ^= S >> 7; S ^= S << 17; return S; }
static int rr(int a, int b) { return a + (int)(rnd() % (uint64_t)(b - a + 1)); }

/* Fill the stack below the caller with v, then run the request. */
static __attribute__((noinline)) void paint(uint8_t v)
{
    uint8_t a[24 << 10];
    memset(a, v, sizeof a);
    __asm__ volatile("" : : "r"(a) : "memory");
}

static __attribute__((noinline)) int exec_painted(uint8_t v, const tma_request *r, mem_global *g, uint32_t *tx,
                                                  char *why, size_t n)
{
    paint(v);
    return tma_execute(r, g, tx, why, n);
}

typedef struct rcase {
    tma_map m;
    tma_request r;
    uint64_t tensor, bytes;
} rcase;

/* A random request over a fresh tensor of hashed bytes. */
static void random_case(rcase *k, mem_global *g)
{
    static const int modes[] = {TMA_TILE, TMA_TILE, TMA_TILE, TMA_IM2COL, TMA_IM2COL, TMA_GATHER4,
                                TMA_IM2COL_W, TMA_IM2COL_W128, TMA_SCATTER4, TMA_IM2COL_NO_OFFS};
    tma_map *m = &k->m;
    memset(k, 0, sizeof *k);
    int mode = modes[rr(0, 9)];
    int im = mode == TMA_IM2COL || mode == TMA_IM2COL_W || mode == TMA_IM2COL_W128 || mode == TMA_IM2COL_NO_OFFS;
    m->kind = im ? (mode == TMA_IM2COL_W || mode == TMA_IM2COL_W128 ? TMA_MAP_IM2COL_WIDE : TMA_MAP_IM2COL)
                 : TMA_MAP_TILED;
    m->data_type = (uint8_t)rr(0, 15);
    m->rank = (uint8_t)(mode == TMA_GATHER4 || mode == TMA_SCATTER4 ? 2 : im ? rr(3, 5) : rr(1, 5));
    m->interleave = (uint8_t)(rr(0, 1) ? rr(1, 2) : 0);
    m->swizzle = (uint8_t)rr(0, 7);
    m->oob_fill = (uint8_t)rr(0, 1);
    unsigned bits = tma_dtype_bits(m->data_type);
    uint32_t per16 = bits == 4 ? 32 : bits == 6 ? 16 : 128 / bits; /* elements in 16 bytes */
    for (int i = 0; i < m->rank; i++) {
        m->global_dim[i] = (uint64_t)rr(1, i == 0 ? 64 : 6);
        m->box_dim[i] = (uint32_t)rr(1, i == 0 ? 64 : 6);
        m->element_strides[i] = (uint32_t)(rr(0, 2) ? 1 : rr(2, 8));
    }
    if (rr(0, 7)) /* mostly rows the encoders accept */
        m->box_dim[0] = per16 * (uint32_t)rr(1, 4) > 256 ? 256 : per16 * (uint32_t)rr(1, 4);
    if (mode == TMA_GATHER4 || mode == TMA_SCATTER4) m->box_dim[1] = 1;
    m->global_strides[0] = bits >= 8 ? bits / 8 : 1;
    uint64_t s = 16 * (uint64_t)rr(1, 8) * (uint64_t)rr(1, 4);
    for (int i = 1; i < m->rank; i++) {
        m->global_strides[i] = s;
        s *= m->global_dim[i] + (uint64_t)rr(0, 1);
    }
    for (int i = 0; i < 3; i++) {
        m->lower_corner[i] = rr(-2, 1);
        m->upper_corner[i] = rr(-1, 2);
    }
    m->channels_per_pixel = rr(0, 7) ? m->box_dim[0] : (uint32_t)rr(1, 64);
    m->pixels_per_column = (uint32_t)rr(1, 64);
    k->bytes = s + 16384; /* slices of dim 0 may reach past the strides */
    k->tensor = mem_global_alloc(g, k->bytes, 256, "t");
    uint8_t *h = mem_global_host(g, k->tensor, k->bytes);
    for (uint64_t i = 0; i < k->bytes; i++) h[i] = (uint8_t)(rnd() >> 32);
    m->global_address = k->tensor + 32 * (uint64_t)rr(0, 1);
    tma_request *r = &k->r;
    r->kind = rr(0, 3) == 0 ? TMA_STORE : rr(0, 4) == 0 ? TMA_REDUCE : TMA_LOAD;
    r->mode = mode;
    r->dim = m->rank;
    r->map = m;
    r->redop = rr(1, 8);
    for (int i = 0; i < 5; i++) r->coords[i] = rr(-8, 40);
    if (rr(0, 1)) r->coords[0] = (int32_t)per16 * rr(-2, 2);
    r->n_im2col_off = m->rank - 2;
    for (int i = 0; i < 3; i++) r->im2col_off[i] = (uint16_t)rr(0, 2);
    r->w_halo = (uint16_t)rr(0, 3);
    r->w_offset = (uint16_t)rr(0, 3);
    r->smem_size = rr(0, 3) ? SMEM : 128u * (uint32_t)rr(1, 64);
    r->smem_off = 128u * (uint32_t)rr(0, 8);
}

static void test_random(void)
{
    int bad_garbage = 0, bad_outside = 0, bad_fault = 0, ran = 0;
    char first[512] = "";
    for (int it = 0; it < 6000; it++) {
        mem_global *ga = mem_global_new(), *gb = mem_global_new();
        uint64_t seed = S;
        rcase ka, kb;
        random_case(&ka, ga);
        S = seed;
        random_case(&kb, gb); /* the same case over its own memory */
        for (uint32_t i = 0; i < SMEM; i++) smem_a[i] = smem_b[i] = (uint8_t)(i * 7u + 1u);
        ka.r.smem = smem_a;
        kb.r.smem = smem_b;
        char why[512];
        uint32_t tx;
        int rc = exec_painted(0x00, &ka.r, ga, &tx, why, sizeof why);
        int rc2 = exec_painted(0xFF, &kb.r, gb, &tx, why, sizeof why);
        uint8_t *ha = mem_global_host(ga, ka.tensor, ka.bytes), *hb = mem_global_host(gb, kb.tensor, kb.bytes);
        char what[160] = "";
        if (rc != rc2 || memcmp(smem_a, smem_b, SMEM) || memcmp(ha, hb, ka.bytes)) {
            bad_garbage++;
            snprintf(what, sizeof what, "stack bytes reached memory");
        } else if (rc) {
            for (uint32_t i = 0; i < SMEM && !what[0]; i++)
                if (smem_a[i] != (uint8_t)(i * 7u + 1u)) {
                    bad_fault++;
                    snprintf(what, sizeof what, "fault %d left shared byte 0x%x written", rc, i);
                }
        } else if (ka.r.kind == TMA_LOAD) {
            ran++;
            uint32_t lo = ka.r.smem_off, hi = lo + tma_smem_footprint(&ka.r);
            for (uint32_t i = 0; i < SMEM && !what[0]; i++)
                if ((i < lo || i >= hi) && smem_a[i] != (uint8_t)(i * 7u + 1u)) {
                    bad_outside++;
                    snprintf(what, sizeof what, "load wrote shared byte 0x%x outside its footprint [0x%x, 0x%x)",
                             i, lo, hi);
                }
        }
        if (what[0] && !first[0])
            snprintf(first, sizeof first, "case %d (mode %d, kind %d, type %d, rank %d, interleave %d, swizzle %d, "
                     "box0 %u, es0 %u): %s", it, ka.r.mode, ka.r.kind, ka.m.data_type, ka.m.rank, ka.m.interleave,
                     ka.m.swizzle, ka.m.box_dim[0], ka.m.element_strides[0], what);
        mem_global_free(ga);
        mem_global_free(gb);
    }
    if (first[0]) printf("FAIL random requests: %s\n", first), check_failures++;
    CHECK("random requests: no stack byte reaches shared or global memory", !bad_garbage);
    CHECK("random requests: loads write only inside their footprint", !bad_outside);
    CHECK("random requests: a fault writes no shared memory", !bad_fault);
    CHECK("random requests: enough of them land (the generator is not all faults)", ran > 500);
}

/* tma_load_chunks, which the random completion policy lands loads by: for
 * every load that lands, its 16-byte chunks are distinct, inside shared
 * memory, count the transaction bytes, and together are exactly the bytes
 * the load writes (a byte is written when it comes out the same over
 * shared memory filled with 0x00 and with 0xFF). */
static uint32_t chunk_off[SMEM / 16];
static uint8_t chunk_seen[SMEM / 16];

static void test_chunks(void)
{
    int ran = 0, bad = 0;
    char first[400] = "";
    for (int it = 0; it < 4000; it++) {
        mem_global *g = mem_global_new();
        rcase k;
        random_case(&k, g);
        k.r.kind = TMA_LOAD;
        char why[512], what[200] = "";
        uint32_t tx = 0, tx2 = 0;
        memset(smem_a, 0x00, SMEM);
        memset(smem_b, 0xFF, SMEM);
        k.r.smem = smem_a;
        int rc = tma_execute(&k.r, g, &tx, why, sizeof why);
        k.r.smem = smem_b;
        int rc2 = tma_execute(&k.r, g, &tx2, why, sizeof why);
        uint32_t n = tma_load_chunks(&k.r, chunk_off, SMEM / 16);
        if (rc || rc2) {
            if (n) snprintf(what, sizeof what, "a faulting load has %u chunks", n);
        } else {
            ran++;
            memset(chunk_seen, 0, sizeof chunk_seen);
            if ((uint64_t)n * 16 != tx)
                snprintf(what, sizeof what, "%u chunks for a transaction count of %u bytes", n, tx);
            for (uint32_t j = 0; j < n && !what[0]; j++) {
                uint32_t o = chunk_off[j];
                if (o % 16 || o + 16 > k.r.smem_size || chunk_seen[o / 16]++)
                    snprintf(what, sizeof what, "chunk %u at 0x%x is misaligned, outside or repeated", j, o);
            }
            for (uint32_t i = 0; i < k.r.smem_size && !what[0]; i++)
                if ((smem_a[i] == smem_b[i]) != (chunk_seen[i / 16] != 0))
                    snprintf(what, sizeof what, "shared byte 0x%x is %s but %s a chunk", i,
                             smem_a[i] == smem_b[i] ? "written" : "not written",
                             chunk_seen[i / 16] ? "in" : "not in");
        }
        if (what[0] && !bad++)
            snprintf(first, sizeof first, "case %d (mode %d, type %d, rank %d, interleave %d, swizzle %d, box0 %u, "
                     "es0 %u, smem_off 0x%x): %s", it, k.r.mode, k.m.data_type, k.m.rank, k.m.interleave,
                     k.m.swizzle, k.m.box_dim[0], k.m.element_strides[0], k.r.smem_off, what);
        mem_global_free(g);
    }
    if (bad) printf("FAIL load chunks: %d cases, first %s\n", bad, first), check_failures++;
    CHECK("load chunks: the chunks of every landed load are the bytes it writes, tx = 16 x chunks", !bad);
    CHECK("load chunks: enough random loads land", ran > 500);
}

static void map_init(tma_map *m, int kind, int dt, int rank, int il, int sw)
{
    memset(m, 0, sizeof *m);
    m->kind = (uint8_t)kind; m->data_type = (uint8_t)dt; m->rank = (uint8_t)rank;
    m->interleave = (uint8_t)il; m->swizzle = (uint8_t)sw;
    for (int i = 0; i < 5; i++) m->element_strides[i] = 1;
}

/* A load (or another kind) of map m into smem_a at offset 0. */
static tma_request req_of(const tma_map *m, int kind, int mode)
{
    tma_request r;
    memset(&r, 0, sizeof r);
    r.kind = kind; r.mode = mode; r.dim = m->rank; r.map = m;
    r.n_im2col_off = m->rank - 2;
    r.smem = smem_a; r.smem_size = SMEM; r.smem_off = 0;
    return r;
}

/* Run load r over smem_a filled with 0xA5; check that it lands with want_tx. */
static void load_checked(const char *name, const tma_request *r, mem_global *g, uint32_t want_tx)
{
    char what[200], why[256];
    uint32_t tx = 0;
    memset(smem_a, 0xA5, SMEM);
    int rc = tma_execute(r, g, &tx, why, sizeof why);
    snprintf(what, sizeof what, "%s: loads", name);
    CHECK_EQ_U64(what, rc, TMA_OK);
    snprintf(what, sizeof what, "%s: tx %u", name, want_tx);
    CHECK_EQ_U64(what, tx, want_tx);
}

/* The old uninitialised-bytes case: an interleaved im2col map with a
 * channel traversal stride.  The H100 counts channels in slices there
 * (conformance/interleave, im_il16_es2): 16 slices stepped by 2, two
 * pixels of 8 slices fill the 16 slices the load moves. */
static void test_im2col_interleave(void)
{
    mem_global *g = mem_global_new();
    tma_map m;
    map_init(&m, TMA_MAP_IM2COL, TMA_DT_FLOAT16, 4, TMA_INTERLEAVE_16B, TMA_SWIZZLE_32B);
    uint64_t dims[4] = {16, 8, 4, 2}, strides[4] = {2, 32, 256, 1024};
    for (int i = 0; i < 4; i++) {
        m.global_dim[i] = dims[i];
        m.global_strides[i] = strides[i];
    }
    m.element_strides[0] = 2;
    m.channels_per_pixel = 16; m.pixels_per_column = 16;
    uint64_t bytes = 2048 + 16384;
    m.global_address = mem_global_alloc(g, bytes, 256, "t");
    uint8_t *h = mem_global_host(g, m.global_address, bytes);
    for (uint64_t i = 0; i < bytes; i += 16) memset(h + i, (int)(i / 16 % 251) + 1, 16); /* slice k: k+1 */
    tma_request r = req_of(&m, TMA_LOAD, TMA_IM2COL);
    load_checked("im2col interleaved, channel stride 2 (tx: pixels_per_column slices)", &r, g, 16 * 16);
    CHECK_EQ_U64("im2col interleaved, channel stride 2: footprint", tma_smem_footprint(&r), 256);
    /* logical chunk j: pixel j / 8 (W stride 32 B = 2 slices), slice 2 * (j % 8);
     * 32B swizzle: chunk j of line 1 (j = 8..15) sits at j ^ 1 */
    int ok = 1;
    for (int j = 0; j < 16 && ok; j++) {
        int slice = (j / 8) * 2 + 2 * (j % 8);
        int phys = j < 8 ? j : j ^ 1;
        ok = smem_a[phys * 16] == slice % 251 + 1 && smem_a[phys * 16 + 15] == slice % 251 + 1;
        if (!ok) printf("FAIL im2col interleaved: chunk %d holds %u, want slice %d\n", j, smem_a[phys * 16], slice);
    }
    CHECK("im2col interleaved, channel stride 2: slices 0 2 .. 14 of pixel 0, then of pixel 1", ok);
    CHECK("im2col interleaved, channel stride 2: nothing past 256 bytes", smem_a[256] == 0xA5 && smem_a[1023] == 0xA5);
    mem_global_free(g);
}

/* Padded sub-byte types through an interleaved tile map (only
 * tensormap.replace makes one): a unit is a slice, as for any type, so a
 * row is box_dim[0] / es0 slices and stays inside its footprint. */
static void test_subbyte_interleave(void)
{
    mem_global *g = mem_global_new();
    tma_map m;
    map_init(&m, TMA_MAP_TILED, TMA_DT_16U4_ALIGN16B, 3, TMA_INTERLEAVE_32B, TMA_SWIZZLE_NONE);
    m.global_dim[0] = 64; m.global_dim[1] = 2; m.global_dim[2] = 2;
    m.global_strides[0] = 1; m.global_strides[1] = 2048; m.global_strides[2] = 4096;
    m.box_dim[0] = 32; m.box_dim[1] = 1; m.box_dim[2] = 2;
    m.element_strides[0] = 2;
    m.global_address = mem_global_alloc(g, 8192 + 4096, 256, "t");
    tma_request r = req_of(&m, TMA_LOAD, TMA_TILE);
    load_checked("interleaved 16U4_ALIGN16B tile (tx: 2 rows x 16 slices x 32 B)", &r, g, 1024);
    CHECK("interleaved 16U4_ALIGN16B tile: nothing past the 1024-byte footprint",
          tma_smem_footprint(&r) == 1024 && smem_a[1024] == 0xA5 && smem_a[4095] == 0xA5);
    mem_global_free(g);
}

/* A row that is not a multiple of 16 bytes: every copy moves 16-byte
 * chunks, and no hardware data says what such a box does. */
static void test_row_not_16(void)
{
    mem_global *g = mem_global_new();
    tma_map m;
    map_init(&m, TMA_MAP_TILED, TMA_DT_FLOAT16, 2, TMA_INTERLEAVE_NONE, TMA_SWIZZLE_32B);
    m.global_dim[0] = 64; m.global_dim[1] = 4;
    m.global_strides[0] = 2; m.global_strides[1] = 128;
    m.box_dim[0] = 3; m.box_dim[1] = 2;
    m.global_address = mem_global_alloc(g, 512, 256, "t");
    tma_request r = req_of(&m, TMA_LOAD, TMA_TILE);
    char why[256];
    int rc = tma_execute(&r, g, NULL, why, sizeof why);
    CHECK_EQ_U64("a 6-byte box row is not supported", rc, TMA_UNSUPPORTED);
    CHECK("a 6-byte box row: the message says why", strstr(why, "not a multiple of 16") != NULL);
    r.kind = TMA_PREFETCH;
    CHECK_EQ_U64("a 6-byte box row: a prefetch still runs", tma_execute(&r, g, NULL, why, sizeof why), TMA_OK);
    mem_global_free(g);
}

int main(void)
{
    test_random();
    test_chunks();
    test_im2col_interleave();
    test_subbyte_interleave();
    test_row_not_16();
    CHECK_DONE();
}
