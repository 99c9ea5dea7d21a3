/* test_launch.c — launch files: hash32, buffer setup, parameter layout,
 * buffer comparison, .npy output (cli/launch.c, cli/npy.c).
 *
 * The CLI is not part of libptxi.a, so its two files are compiled into this
 * test directly.  The hash32 values were computed in Python from FORMAT.md's
 * definition; bulk_0000's expected dst (a copy of a hash32 seed-60 buffer
 * read back from the H100) checks the same function against hardware data.
 */
#include <jansson.h>
#include "tests/unit/check.h"
#include "launch/launch.c"
#include "launch/npy.c"
#include "launch/sha256.c"

static void test_hash32(void)
{
    CHECK_EQ_U64("hash32 seed 0 word 0", launch_hash32(0, 0), 0x0);
    CHECK_EQ_U64("hash32 seed 1 word 0", launch_hash32(0, 1), 0x688990c0);
    CHECK_EQ_U64("hash32 seed 1 word 1", launch_hash32(1, 1), 0xa4f7896c);
    CHECK_EQ_U64("hash32 seed 7 word 3", launch_hash32(3, 7), 0xf2c60681);
    CHECK_EQ_U64("hash32 seed 0xdeadbeef word 12345", launch_hash32(12345, 0xdeadbeef), 0x9fa6427c);
    CHECK_EQ_U64("hash32 seed 60 word 1023", launch_hash32(1023, 60), 0x38dd0536);
    uint8_t b[7];
    memset(b, 0xee, sizeof b);
    launch_fill_hash32(b, 6, 1);
    /* word 0 = 0x688990c0 little-endian, then the low 2 bytes of word 1 */
    static const uint8_t want[7] = {0xc0, 0x90, 0x89, 0x68, 0x6c, 0x89, 0xee};
    CHECK("hash32 partial trailing word", !memcmp(b, want, 7));
    /* "and"/"or" masks: word 3 of seed 7 is 0xf2c60681 */
    uint8_t m[16];
    launch_fill_hash32_masked(m, 16, 7, ~0xBFFFBFFFu, 0x20002000u);
    CHECK_EQ_U64("hash32 7 word 3 & 0xBFFFBFFF | 0x20002000",
                 (uint32_t)m[12] | m[13] << 8 | m[14] << 16 | (uint32_t)m[15] << 24, 0xB2C62681);
    /* Against hardware data: bulk_0000 copies a hash32(60) buffer. */
    uint64_t n = 0;
    uint8_t *hw = launch_slurp("tests/conformance/bulk/expected/bulk_0000.dst.bin", &n);
    if (hw) {
        uint8_t *mine = malloc(n);
        launch_fill_hash32(mine, n, 60);
        CHECK("hash32 seed 60 equals the H100's bulk_0000 dst", n == 4096 && !memcmp(mine, hw, n));
        free(mine);
        free(hw);
    }
}

static int parse(const char *text, launch_case *c, char *err, size_t n)
{
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    if (!o) {
        snprintf(err, n, "bad test JSON: %s", je.text);
        memset(c, 0, sizeof *c);
        return -1;
    }
    int r = launch_from_json(o, "tests/launch", "test", c, err, n);
    json_decref(o);
    return r;
}

static const char GOOD[] =
    "{\"format\":\"ptxi-launch/1\",\"name\":\"t\",\"ptx\":\"k.ptx\",\"kernel\":\"k\","
    "\"grid\":[2,1,1],\"block\":[64],\"dynamic_shared_bytes\":1024,"
    "\"buffers\":[{\"name\":\"a\",\"bytes\":10,\"init\":{\"fill\":165}},"
    "{\"name\":\"b\",\"bytes\":4096,\"align\":4096,\"init\":{\"hash32\":7}},"
    "{\"name\":\"c\",\"bytes\":8,\"init\":{\"file\":\"eight.bin\"}},"
    "{\"name\":\"z\",\"bytes\":3},"
    "{\"name\":\"g\",\"bytes\":128,\"init\":{\"tensor_maps\":[\"tm\"]}}],"
    "\"tensor_maps\":[{\"name\":\"tm\",\"encode\":\"tiled\",\"data_type\":\"FLOAT32\",\"rank\":2,"
    "\"global_address\":{\"buffer\":\"b\",\"offset\":0},\"global_dim\":[32,32],\"global_strides\":[128],"
    "\"box_dim\":[16,8],\"element_strides\":[1,1],\"interleave\":\"NONE\",\"swizzle\":\"NONE\","
    "\"l2_promotion\":\"NONE\",\"oob_fill\":\"NONE\",\"x-future_key\":1}],"
    "\"params\":[{\"pointer\":\"a\",\"offset\":4},{\"u16\":65535},{\"tensor_map\":\"tm\"},{\"s8\":-2},{\"f32\":1.5}],"
    "\"expect\":{\"encode\":[{\"tensor_map\":\"tm\",\"status\":\"CUDA_SUCCESS\"}],"
    "\"buffers\":[{\"name\":\"b\",\"file\":\"b.bin\",\"ignore\":[[0,4]]}]}}";

/* {"hash32": S, "and": A, "or": O} reaches the buffer; bad masks are refused
 * with their key path. */
static void test_hash32_masks(void)
{
    static const char T[] =
        "{\"format\":\"ptxi-launch/1\",\"name\":\"t\",\"ptx\":\"k.ptx\",\"kernel\":\"k\","
        "\"grid\":[1,1,1],\"block\":[32,1,1],\"buffers\":[{\"name\":\"h\",\"bytes\":16,"
        "\"init\":{\"hash32\":7,\"and\":3221225471,\"or\":536879104}}],\"params\":[]}";
    char err[1024] = "";
    launch_case c;
    int r = parse(T, &c, err, sizeof err);
    if (r)
        printf("    %s\n", err);
    CHECK("hash32 with and/or reads", r == 0);
    if (!r) {
        mem_global *g = mem_global_new();
        r = launch_setup(&c, g, err, sizeof err);
        CHECK("hash32 with and/or sets up", r == 0);
        if (!r) {
            const uint8_t *h = mem_global_host(g, c.buffers[0].addr, 16);
            CHECK_EQ_U64("masked word 3", (uint32_t)h[12] | h[13] << 8 | h[14] << 16 | (uint32_t)h[15] << 24,
                         0xB2C62681);
        }
        mem_global_free(g);
        launch_free(&c);
    }
    static const char BAD[] =
        "{\"format\":\"ptxi-launch/1\",\"name\":\"t\",\"ptx\":\"k.ptx\",\"kernel\":\"k\","
        "\"grid\":[1,1,1],\"block\":[32,1,1],\"buffers\":[{\"name\":\"h\",\"bytes\":16,"
        "\"init\":{\"hash32\":7,\"or\":4294967296}}],\"params\":[]}";
    err[0] = 0;
    r = parse(BAD, &c, err, sizeof err);
    CHECK("hash32 or beyond 32 bits is refused", r != 0 && strstr(err, "buffers[0].init.or"));
    if (r != 0 && !strstr(err, "buffers[0].init.or"))
        printf("    got: %s\n", err);
    launch_free(&c);
    static const char NOHASH[] =
        "{\"format\":\"ptxi-launch/1\",\"name\":\"t\",\"ptx\":\"k.ptx\",\"kernel\":\"k\","
        "\"grid\":[1,1,1],\"block\":[32,1,1],\"buffers\":[{\"name\":\"h\",\"bytes\":16,"
        "\"init\":{\"fill\":7,\"and\":1}}],\"params\":[]}";
    err[0] = 0;
    r = parse(NOHASH, &c, err, sizeof err);
    CHECK("and/or without hash32 is refused", r != 0 && strstr(err, "go with \"hash32\""));
    if (r != 0 && !strstr(err, "go with"))
        printf("    got: %s\n", err);
    launch_free(&c);
}

/* SHA-256 against FIPS 180-4's examples (one block, two blocks, empty),
 * and expect.buffers[].sha256 read, checked and refused when malformed. */
static void test_sha256(void)
{
    static const struct { const char *msg, *hex; } V[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof V / sizeof V[0]; i++) {
        uint8_t d[32];
        char h[65], what[96];
        sha256((const uint8_t *)V[i].msg, strlen(V[i].msg), d);
        sha256_hex(d, h);
        snprintf(what, sizeof what, "sha256 of a %zu-byte message", strlen(V[i].msg));
        CHECK(what, !strcmp(h, V[i].hex));
        if (strcmp(h, V[i].hex))
            printf("    got %s\n    want %s\n", h, V[i].hex);
    }
    static const char T[] =
        "{\"format\":\"ptxi-launch/1\",\"name\":\"t\",\"ptx\":\"k.ptx\",\"kernel\":\"k\","
        "\"grid\":[1,1,1],\"block\":[32,1,1],\"buffers\":[{\"name\":\"h\",\"bytes\":3}],\"params\":[],"
        "\"expect\":{\"buffers\":[{\"name\":\"h\","
        "\"sha256\":\"BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD\"}]}}";
    char err[1024] = "";
    launch_case c;
    int r = parse(T, &c, err, sizeof err);
    if (r)
        printf("    %s\n", err);
    CHECK("expect sha256 reads", r == 0 && c.nexpect_bufs == 1 && c.expect_bufs[0].has_sha256);
    if (!r) {
        char *txt = NULL;
        size_t tl = 0;
        FILE *f = open_memstream(&txt, &tl);
        CHECK("sha256 of \"abc\" matches", launch_check_sha256(&c.expect_bufs[0], (const uint8_t *)"abc", 3, f) == 0);
        CHECK("sha256 of \"abd\" does not", launch_check_sha256(&c.expect_bufs[0], (const uint8_t *)"abd", 3, f) == 1);
        fclose(f);
        CHECK("mismatch names the buffer and both digests",
              txt && strstr(txt, "buffer h: sha256 ") && strstr(txt, ", want ba7816bf"));
        free(txt);
    }
    launch_free(&c);
    static const char BAD[] =
        "{\"format\":\"ptxi-launch/1\",\"name\":\"t\",\"ptx\":\"k.ptx\",\"kernel\":\"k\","
        "\"grid\":[1,1,1],\"block\":[32,1,1],\"buffers\":[{\"name\":\"h\",\"bytes\":3}],\"params\":[],"
        "\"expect\":{\"buffers\":[{\"name\":\"h\",\"sha256\":\"ba78\"}]}}";
    err[0] = 0;
    r = parse(BAD, &c, err, sizeof err);
    CHECK("short sha256 refused at its key path", r != 0 && strstr(err, "expect.buffers[0].sha256: expected 64"));
    if (r && !strstr(err, "expect.buffers[0].sha256"))
        printf("    got: %s\n", err);
    launch_free(&c);
}

static void test_read_and_setup(void)
{
    char err[1024] = "";
    launch_case c;
    int r = parse(GOOD, &c, err, sizeof err);
    if (r)
        printf("    %s\n", err);
    CHECK("good launch object reads", r == 0);
    if (r) {
        launch_free(&c);
        return;
    }
    CHECK_EQ_U64("grid[0]", c.grid[0], 2);
    CHECK_EQ_U64("block[1] defaults to 1", c.block[1], 1);
    CHECK_EQ_U64("cluster defaults to 1", c.cluster[0] * c.cluster[1] * c.cluster[2], 1);
    CHECK_EQ_U64("buffer count", c.nbuffers, 5);
    CHECK("ptx path relative to the launch file", !strcmp(c.ptx, "tests/launch/k.ptx"));
    CHECK_EQ_U64("align default 256", c.buffers[0].align, 256);
    CHECK_EQ_U64("expect encode", c.expect_encode[0], TMA_SUCCESS);
    CHECK_EQ_U64("ignore range", c.expect_bufs[0].ignore[0][1], 4);

    mem_global *g = mem_global_new();
    r = launch_setup(&c, g, err, sizeof err);
    if (r)
        printf("    %s\n", err);
    CHECK("setup", r == 0);
    if (!r) {
        const uint8_t *a = mem_global_host(g, c.buffers[0].addr, 10);
        const uint8_t *b = mem_global_host(g, c.buffers[1].addr, 4096);
        const uint8_t *cc = mem_global_host(g, c.buffers[2].addr, 8);
        const uint8_t *z = mem_global_host(g, c.buffers[3].addr, 3);
        const uint8_t *gm = mem_global_host(g, c.buffers[4].addr, 128);
        CHECK("fill 165", a[0] == 165 && a[9] == 165);
        CHECK_EQ_U64("hash32 7 word 3", (uint32_t)b[12] | b[13] << 8 | b[14] << 16 | (uint32_t)b[15] << 24,
                     0xf2c60681);
        CHECK("buffers allocated in order", c.buffers[0].addr < c.buffers[1].addr &&
              c.buffers[1].addr < c.buffers[2].addr);
        CHECK_EQ_U64("align 4096 honoured", c.buffers[1].addr % 4096, 0);
        CHECK("file init", !memcmp(cc, "ptxi-8b\n", 8));
        CHECK("absent init is zero", z[0] == 0 && z[1] == 0 && z[2] == 0);
        CHECK_EQ_U64("tiled map encodes", c.tmaps[0].status, TMA_SUCCESS);
        CHECK("tensor_maps init holds the encoded map", !memcmp(gm, c.tmaps[0].map, 128));
    }

    /* Parameter block: .u64 ptr, .u16, .align 64 .b8[128], .s8, .f32 */
    static ir_symbol syms[6];
    static uint32_t idx[5] = {1, 2, 3, 4, 5};
    memset(syms, 0, sizeof syms);
    struct { const char *n; int ty; uint64_t nel, size; uint32_t align, off; } P[5] = {
        {"k_param_0", IR_T_U64, 1, 8, 0, 0},    {"k_param_1", IR_T_U16, 1, 2, 0, 8},
        {"k_param_2", IR_T_B8, 128, 128, 64, 64}, {"k_param_3", IR_T_S8, 1, 1, 0, 192},
        {"k_param_4", IR_T_F32, 1, 4, 0, 196},
    };
    for (int i = 0; i < 5; i++) {
        ir_symbol *s = &syms[i + 1];
        s->name = P[i].n; s->kind = IR_SYM_PARAM; s->space = IR_SPACE_PARAM; s->type = (uint8_t)P[i].ty;
        s->vec = 1; s->nelem = P[i].nel; s->size = P[i].size; s->align = P[i].align;
        s->param_offset = P[i].off; s->is_array = P[i].nel > 1;
    }
    ir_function fn;
    memset(&fn, 0, sizeof fn);
    fn.name = "k"; fn.is_entry = true; fn.nparams = 5; fn.params = idx; fn.param_bytes = 200;
    ir_module m;
    memset(&m, 0, sizeof m);
    m.syms = syms; m.nsyms = 6; m.funcs = &fn; m.nfuncs = 1;
    uint8_t *blk = NULL;
    uint32_t sz = 0;
    r = launch_build_params(&c, &m, &fn, &blk, &sz, err, sizeof err);
    if (r)
        printf("    %s\n", err);
    CHECK("param block builds", r == 0);
    if (!r) {
        uint64_t p0 = 0;
        memcpy(&p0, blk, 8);
        CHECK_EQ_U64("param block size", sz, 200);
        CHECK_EQ_U64("pointer param = buffer address + offset", p0, c.buffers[0].addr + 4);
        CHECK("u16 param at offset 8", blk[8] == 0xff && blk[9] == 0xff && blk[10] == 0);
        CHECK("tensor map param at offset 64", !memcmp(blk + 64, c.tmaps[0].map, 128));
        CHECK_EQ_U64("s8 param at 192", blk[192], 0xfe);
        CHECK("f32 param at 196", blk[196] == 0 && blk[197] == 0 && blk[198] == 0xc0 && blk[199] == 0x3f);
    }
    free(blk);

    /* Mismatches name the parameter. */
    syms[2].type = IR_T_U32; syms[2].size = 4;
    r = launch_build_params(&c, &m, &fn, &blk, &sz, err, sizeof err);
    CHECK("size mismatch names the parameter",
          r && !strcmp(err, "params[1]: kernel k's parameter k_param_1 is .u32 (4 bytes) but the launch gives u16"));
    if (!r || strcmp(err, "params[1]: kernel k's parameter k_param_1 is .u32 (4 bytes) but the launch gives u16"))
        printf("    got: %s\n", err);
    syms[2].type = IR_T_U16; syms[2].size = 2;
    syms[3].nelem = 64; syms[3].size = 64;
    r = launch_build_params(&c, &m, &fn, &blk, &sz, err, sizeof err);
    CHECK("tensor map into a too-small array",
          r && !strcmp(err, "params[2]: kernel k's parameter k_param_2 is .b8[64] (64 bytes, .align 64) "
                            "but the launch gives tensor_map (128 bytes)"));
    syms[3].nelem = 128; syms[3].size = 128;
    fn.nparams = 4;
    r = launch_build_params(&c, &m, &fn, &blk, &sz, err, sizeof err);
    CHECK("parameter count", r && !strcmp(err, "params: kernel k has 4 parameters but the launch gives 5"));
    fn.nparams = 5;
    syms[1].is_ptr = 1; syms[1].align = 8;
    r = launch_build_params(&c, &m, &fn, &blk, &sz, err, sizeof err);
    CHECK("pointer alignment (.ptr.align)",
          r && !strcmp(err, "params[0]: pointer a+4 is not 8-byte aligned, as kernel k's parameter k_param_0 "
                            "(.ptr.align 8) requires"));
    if (!r)
        free(blk);

    /* Comparison speaks in tensor coordinates of the map over buffer b. */
    if (c.buffers[1].addr) {
        uint8_t *got = calloc(1, 4096), *want = calloc(1, 4096);
        got[2] = 1;                    /* ignored range [0,4) */
        got[128 * 3 + 4 * 5 + 1] = 9;  /* row 3, column 5 of FLOAT32 [32 x 32] */
        char *txt = NULL;
        size_t tl = 0;
        FILE *f = open_memstream(&txt, &tl);
        uint64_t nd = launch_compare(&c, &c.expect_bufs[0], got, 4096, want, 4096, f);
        fclose(f);
        CHECK_EQ_U64("compare counts differing bytes outside ignore", nd, 1);
        CHECK("diff prints offset with got/want", strstr(txt, "b+0x195 (405): got 0x09, want 0x00") != NULL);
        CHECK("diff prints tensor coordinates", strstr(txt, "offset 405 is element of tensor map tm (5, 3) [FLOAT32, dims 32 x 32, innermost first]") != NULL);
        if (!strstr(txt, "(5, 3)"))
            printf("    got: %s\n", txt);
        free(txt);
        f = open_memstream(&txt, &tl);
        nd = launch_compare(&c, &c.expect_bufs[0], got, 4096, want, 100, f);
        fclose(f);
        CHECK("size mismatch is a difference", nd >= 1 && strstr(txt, "has 4096 bytes but") != NULL);
        free(txt);
        free(got);
        free(want);
    }
    mem_global_free(g);
    launch_free(&c);
}

static void test_npy(void)
{
    uint8_t d[16] = {0};
    char *txt = NULL, err[256];
    size_t tl = 0;
    FILE *f = open_memstream(&txt, &tl);
    int r = launch_write_npy(f, "f32", (const uint64_t[]){2, 2}, 2, d, 16, err, sizeof err);
    fclose(f);
    CHECK("npy 2x2 f32 writes", r == 0);
    CHECK_EQ_U64("npy header is padded to 64 bytes", (tl - 16) % 64, 0);
    CHECK("npy magic and header",
          tl > 64 && !memcmp(txt, "\x93NUMPY\x01\x00", 8) && strstr(txt + 10, "'descr': '<f4'") &&
          strstr(txt + 10, "'shape': (2, 2)") && txt[tl - 17] == '\n' &&
          (size_t)((uint8_t)txt[8] | (uint8_t)txt[9] << 8) + 10 == tl - 16);
    free(txt);
    f = open_memstream(&txt, &tl);
    r = launch_write_npy(f, "f32", (const uint64_t[]){3}, 1, d, 16, err, sizeof err);
    fclose(f);
    free(txt);
    CHECK("npy shape that does not cover the buffer is refused", r != 0);
    CHECK_EQ_U64("dtype size bf16", launch_dtype_size("bf16"), 2);
}

/* The real thing: samples/tma_tile2d.json against the parsed PTX
 * (.param .align 64 .b8 [128], .u32, .u32, .u64). */
static void test_params_from_ptx(void)
{
    launch_case *cs = NULL;
    size_t n = 0;
    char err[1024];
    int r = launch_read_file("samples/tma_tile2d.json", &cs, &n, err, sizeof err);
    CHECK("sample launch file reads", r == 0 && n == 1);
    if (r) {
        printf("    %s\n", err);
        return;
    }
    ir_diag d = {0};
    ir_module *m = ptx_parse_file(cs[0].ptx, &d);
    CHECK("sample PTX parses", m != NULL);
    mem_global *g = mem_global_new();
    if (m && !launch_setup(&cs[0], g, err, sizeof err)) {
        const ir_function *fn = ir_find_function(m, "tma_tile2d");
        uint8_t *blk = NULL;
        uint32_t sz = 0;
        r = fn ? launch_build_params(&cs[0], m, fn, &blk, &sz, err, sizeof err) : -1;
        CHECK("sample param block builds", r == 0);
        if (!r) {
            uint64_t dst = 0;
            uint32_t x = 0, y = 0;
            memcpy(&x, blk + 128, 4);
            memcpy(&y, blk + 132, 4);
            memcpy(&dst, blk + 136, 8);
            CHECK_EQ_U64("sample param block is 144 bytes", sz, 144);
            CHECK("sample tensor map at offset 0", !memcmp(blk, cs[0].tmaps[0].map, 128));
            CHECK("sample x, y at 128, 132", x == 16 && y == 8);
            CHECK_EQ_U64("sample dst pointer at 136", dst, launch_find_buffer(&cs[0], "dst")->addr);
        }
        free(blk);
    }
    mem_global_free(g);
    if (m)
        ir_module_free(m);
    launch_free_all(cs, n);
}

int main(void)
{
    test_hash32();
    test_hash32_masks();
    test_sha256();
    test_read_and_setup();
    test_npy();
    test_params_from_ptx();
    CHECK_DONE();
}
