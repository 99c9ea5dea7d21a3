/* test_launch_struct.c — by-value struct parameters ({"struct": [...]}, a
 * ptxi extension of ptxi-launch/1): fields at their natural alignment as a
 * C compiler lays them out, nested structs, explicit padding, tensor maps
 * at 64, a struct shorter than the parameter zero-padded, and the errors
 * (a field past the parameter's end named by its JSON path).  The expected
 * parameter bytes are written out by hand below, field by field.
 *
 * The CLI is not part of libptxi.a: cli/launch.c is compiled in. */
#include <jansson.h>
#include "tests/unit/check.h"
#include "launch/launch.c"

static const char PTX[] =
    ".version 8.0\n.target sm_90a\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_p0, .param .align 8 .b8 k_s[48], .param .align 64 .b8 k_t[192],"
    " .param .u32 k_p3)\n{\n  ret;\n}\n";

/* buffers a, b (for a map); params: pointer, the 48-byte struct, the
 * 192-byte struct with a tensor map, and a u32.  %s: the k_s struct. */
static const char LAUNCH[] =
    "{\"format\":\"ptxi-launch/1\",\"name\":\"t\",\"ptx\":\"k.ptx\",\"kernel\":\"k\",\"grid\":[1],\"block\":[1],"
    "\"buffers\":[{\"name\":\"a\",\"bytes\":64},{\"name\":\"b\",\"bytes\":4096}],"
    "\"tensor_maps\":[{\"name\":\"tm\",\"encode\":\"tiled\",\"data_type\":\"FLOAT32\",\"rank\":2,"
    "\"global_address\":{\"buffer\":\"b\",\"offset\":0},\"global_dim\":[32,32],\"global_strides\":[128],"
    "\"box_dim\":[16,8],\"element_strides\":[1,1],\"interleave\":\"NONE\",\"swizzle\":\"NONE\","
    "\"l2_promotion\":\"NONE\",\"oob_fill\":\"NONE\"}],"
    "\"params\":[{\"pointer\":\"a\"},{\"struct\":%s},"
    "{\"struct\":[{\"u32\":1},{\"tensor_map\":\"tm\"}]},{\"u32\":7}]}";

/* u8 at 0; u32 at 4 (aligned up from 1); u16 at 8; pointer a+16 at 16
 * (aligned up from 10); 3 pad bytes 24..26; s8 -1 at 27; a nested struct
 * {u16, u8} (alignment 2) at 28: u16 28..29, u8 30, its size rounded up
 * to 4; f64 1.5 (0x3ff8000000000000) at 32 (aligned up from 32); the end
 * at 40, and 40..47 stay zero. */
static const char GOOD_S[] =
    "[{\"u8\":1},{\"u32\":\"0x22222222\"},{\"u16\":13107},{\"pointer\":\"a\",\"offset\":16},{\"pad\":3},"
    "{\"s8\":-1},{\"struct\":[{\"u16\":17476},{\"u8\":85}]},{\"f64\":1.5}]";

/* launch_struct_fields' visits, as "path@offset" lines */
static void record_field(const launch_param *f, const char *path, uint64_t off, void *arg)
{
    char *out = arg;
    size_t n = strlen(out);
    snprintf(out + n, 1024 - n, "%s %s@%llu\n", launch_param_kind_name(f->kind), path, (unsigned long long)off);
}

static int build(const char *s_fields, launch_case *c, mem_global *g, ir_module *m, uint8_t **blk,
                 uint32_t *sz, char *err, size_t n)
{
    char text[4096];
    snprintf(text, sizeof text, LAUNCH, s_fields);
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    memset(c, 0, sizeof *c);
    if (!o) {
        snprintf(err, n, "bad test JSON: %s", je.text);
        return -1;
    }
    int r = launch_from_json(o, "tests/launch", "test", c, err, n);
    json_decref(o);
    if (r || launch_setup(c, g, err, n))
        return -1;
    return launch_build_params(c, m, ir_find_function(m, "k"), blk, sz, err, n);
}

int main(void)
{
    ir_diag d = {0};
    ir_module *m = ptx_parse("k.ptx", PTX, strlen(PTX), &d);
    CHECK("struct test PTX parses", m != NULL);
    if (!m)
        CHECK_DONE();
    char err[1024] = "";
    launch_case c;
    mem_global *g = mem_global_new();
    uint8_t *blk = NULL;
    uint32_t sz = 0;
    int r = build(GOOD_S, &c, g, m, &blk, &sz, err, sizeof err);
    if (r)
        printf("    %s\n", err);
    CHECK("struct params build", r == 0);
    if (!r) {
        /* k_p0 at 0, k_s at 8 (align 8), k_t at 64 (align 64), k_p3 at 256 */
        uint64_t a = launch_find_buffer(&c, "a")->addr + 16;
        uint8_t want[48] = {
            0x01, 0, 0, 0, 0x22, 0x22, 0x22, 0x22, 0x33, 0x33, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x44, 0x44, 0x55, 0,
            0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0,
        };
        for (int k = 0; k < 8; k++)
            want[16 + k] = (uint8_t)(a >> (8 * k));
        CHECK_EQ_U64("param block size", sz, 260);
        CHECK("struct bytes: fields at their natural alignment", !memcmp(blk + 8, want, 48));
        for (int k = 0; k < 48; k++)
            if (blk[8 + k] != want[k])
                printf("    byte %d: got 0x%02x want 0x%02x\n", k, blk[8 + k], want[k]);
        uint32_t one = 0, seven = 0;
        memcpy(&one, blk + 64, 4);
        memcpy(&seven, blk + 256, 4);
        CHECK_EQ_U64("struct with a map: u32 at 0", one, 1);
        CHECK("struct with a map: the map at 64 (alignas(64))", !memcmp(blk + 64 + 64, c.tmaps[0].map, 128));
        CHECK("struct with a map: 4..63 are zero", blk[64 + 4] == 0 && blk[64 + 63] == 0);
        CHECK_EQ_U64("u32 after the structs", seven, 7);
        /* what `ptxi debug`'s info tmaps reports: the same offsets as the
         * bytes above (pad and the nested struct itself are not visited) */
        char got[1024] = "";
        uint64_t end = launch_struct_fields(&c.params[1], "params[1]", record_field, got);
        const char *want_s = "u8 params[1].struct[0]@0\nu32 params[1].struct[1]@4\nu16 params[1].struct[2]@8\n"
                             "pointer params[1].struct[3]@16\ns8 params[1].struct[5]@27\n"
                             "u16 params[1].struct[6].struct[0]@28\nu8 params[1].struct[6].struct[1]@30\n"
                             "f64 params[1].struct[7]@32\n";
        CHECK("struct fields walked at the offsets they are laid out at", !strcmp(got, want_s) && end == 40);
        if (strcmp(got, want_s) || end != 40)
            printf("    got (end %llu):\n%s    want (end 40):\n%s", (unsigned long long)end, got, want_s);
        got[0] = 0;
        launch_struct_fields(&c.params[2], "params[2]", record_field, got);
        CHECK("struct fields walked: the map at 64",
              !strcmp(got, "u32 params[2].struct[0]@0\ntensor_map params[2].struct[1]@64\n"));
        if (strcmp(got, "u32 params[2].struct[0]@0\ntensor_map params[2].struct[1]@64\n"))
            printf("    got:\n%s", got);
    }
    free(blk);
    blk = NULL;
    launch_free(&c);
    mem_global_free(g);

    static const struct { const char *name, *fields, *want; } bad[] = {
        {"a field past the end is named by its path",
         "[{\"u64\":1},{\"u64\":2},{\"u64\":3},{\"u64\":4},{\"u64\":5},{\"u64\":6},{\"u8\":7}]",
         "params[1].struct[6]: u8 field at bytes 48..48 does not fit in kernel k's parameter k_s, "
         ".b8[48] (48 bytes, .align 8)"},
        {"padding past the end",
         "[{\"u32\":1},{\"pad\":45}]",
         "params[1].struct[1]: pad field at bytes 4..48 does not fit in kernel k's parameter k_s, "
         ".b8[48] (48 bytes, .align 8)"},
        {"a nested field past the end names the nested path",
         "[{\"pad\":40},{\"struct\":[{\"u32\":1},{\"u32\":2},{\"u8\":3}]}]",
         "params[1].struct[1].struct[2]: u8 field at bytes 48..48 does not fit in kernel k's parameter k_s, "
         ".b8[48] (48 bytes, .align 8)"},
        /* {u64, u8} at 32 is 16 bytes as a nested C struct (9 rounded up to
         * its alignment 8), so the next u8 goes at 48, not 41 */
        {"a nested struct's size is rounded up to its alignment",
         "[{\"pad\":31},{\"struct\":[{\"u64\":1},{\"u8\":2}]},{\"u8\":3}]",
         "params[1].struct[2]: u8 field at bytes 48..48 does not fit in kernel k's parameter k_s, "
         ".b8[48] (48 bytes, .align 8)"},
        {"the struct key wants an array", "{\"u8\":1}",
         "params[1].struct: expected an array of fields such as [{\"u32\": 5}, {\"pad\": 4}], got an object"},
        {"pad wants a count", "[{\"pad\":-1}]", "params[1].struct[0].pad: -1 is out of range 0..65536"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        g = mem_global_new();
        r = build(bad[i].fields, &c, g, m, &blk, &sz, err, sizeof err);
        CHECK(bad[i].name, r && !strcmp(err, bad[i].want));
        if (!r || strcmp(err, bad[i].want))
            printf("    got:  %s\n    want: %s\n", r ? err : "(no error)", bad[i].want);
        free(blk);
        blk = NULL;
        launch_free(&c);
        mem_global_free(g);
    }
    /* exactly full: six u64 fill the 48 bytes */
    g = mem_global_new();
    r = build("[{\"u64\":1},{\"u64\":2},{\"u64\":3},{\"u64\":4},{\"u64\":5},{\"u64\":\"0xffffffffffffffff\"}]",
              &c, g, m, &blk, &sz, err, sizeof err);
    CHECK("a struct filling the parameter exactly", r == 0 && blk[8 + 47] == 0xff && blk[8 + 8] == 2);
    free(blk);
    launch_free(&c);
    mem_global_free(g);
    ir_module_free(m);
    CHECK_DONE();
}
