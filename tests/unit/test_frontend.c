/* tests/unit/test_frontend.c — the front end's tables, look-ups,
 * immediate decoding and the decoded fields the interpreter relies on. */
#include <stdlib.h>
#include <stdint.h>
#include "tests/unit/check.h"
#include "ir/ir.h"

static const char *SRC =
    ".version 8.5\n.target sm_90a\n.address_size 64\n"
    ".global .align 4 .u32 tab[4] = {1, 2, 3};\n"
    ".global .f32 one = 0f3F800000;\n"
    ".global .u64 ptr = generic(tab)+4;\n"
    ".extern .shared .align 128 .b8 dyn[];\n"
    ".func (.param .b32 r) f(.param .b32 a)\n{\n\t.reg .b32 %x;\n\tld.param.b32 %x, [a];\n"
    "\tst.param.b32 [r], %x;\n\tret;\n}\n"
    ".visible .entry k(.param .u8 p0, .param .align 128 .b8 tmap[128], .param .u64 p2)\n"
    ".maxntid 128, 1, 1\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f1;\n"
    "\t.shared .align 8 .u64 bar;\n"
    "\tmov.u32 %r1, %tid.x;\n"                                                   /* 0 */
    "\tsetp.lt.and.s32 %p0|%p1, %r1, -5, !%p1;\n"                               /* 1 */
    "\tcvt.rn.f32.s32 %f1, %r1;\n"                                               /* 2 */
    "\tadd.f32 %f1, %f1, 0f3F800000;\n"                                          /* 3 */
    "\tadd.f32 %f1, %f1, 1.5;\n"                                                 /* 4 */
    "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1, {%r3, %r4}], [%r5];\n" /* 5 */
    "\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], 16;\n" /* 6 */
    "\t{\n\t.reg .b32 %r1;\n\t.param .b32 param0;\n\t.param .b32 retval0;\n"
    "\tst.param.b32 [param0+0], %r1;\n"                                          /* 7 */
    "\tcall.uni (retval0), f, (param0);\n\t}\n"                                  /* 8 */
    "@!%p0 bra $L_end;\n"                                                        /* 9 */
    "\tmul.hi.u32 %r1, %r1, 0x10;\n"                                             /* 10 */
    "\tld.shared.v2.u32 {%r1, _}, [bar+8];\n"                                    /* 11 */
    "\tmov.b64 %rd2, 0d3FF0000000000000;\n"                                      /* 12 */
    "\tmov.u32 %r1, 017;\n"                                                      /* 13 */
    "\tcvta.to.global.u64 %rd2, %rd2;\n"                                         /* 14 */
    "$L_end:\n}\n";

static ir_module *parse_quiet(const char *src, ir_diag *d)
{
    memset(d, 0, sizeof *d);
    FILE *save = stderr;
    stderr = fopen("/dev/null", "w");
    ir_module *m = ptx_parse("t.ptx", src, strlen(src), d);
    fclose(stderr);
    stderr = save;
    return m;
}

/* The arena: blocks grow in place at the end, move otherwise; adopted and
 * sub-arena memory goes with it (LeakSanitizer checks under make asan). */
static void test_arena(void)
{
    ir_arena *a = ir_arena_new();
    char *p = ir_arena_alloc(a, 32);
    memset(p, 7, 32);
    char *q = ir_arena_extend(a, p, 32, 4096);
    CHECK("arena extends the last block in place", q == p && q[31] == 7);
    char *r = ir_arena_alloc(a, 16);
    char *q2 = ir_arena_extend(a, q, 4096, 8192);
    CHECK("arena moves a block that is not the last", q2 != q && q2[0] == 7 && q2[31] == 7 && r);
    char *big = ir_arena_extend(a, q2, 8192, (size_t)8 << 20); /* a huge-page chunk */
    CHECK("arena big block keeps its bytes", big[5] == 7 && ((uintptr_t)big & 15) == 0);
    big[((size_t)8 << 20) - 1] = 1;
    ir_arena_adopt(a, malloc(100));
    ir_arena *sub = ir_arena_sub(a);
    CHECK("sub-arena", ir_arena_alloc(sub, 64) != NULL);
    ir_arena_free(a);
}

/* Functions of very different sizes (the instruction array grows in place
 * in its own arena and is handed over per function), register ranges, and a
 * function large enough for huge-page chunks. */
static void test_big_module(void)
{
    static const int sizes[] = { 0, 1, 100, 20000, 3 };
    size_t cap = 1 << 22, n = 0;
    char *src = malloc(cap);
    n += (size_t)snprintf(src + n, cap - n, ".version 8.5\n.target sm_90a\n.address_size 64\n");
    for (int f = 0; f < 5; f++) {
        n += (size_t)snprintf(src + n, cap - n, ".visible .entry k%d()\n{\n\t.reg .b32 %%r<12>;\n", f);
        for (int i = 0; i < sizes[f]; i++)
            n += (size_t)snprintf(src + n, cap - n, "\tadd.s32 %%r11, %%r%d, %d;\n", i % 11, i);
        n += (size_t)snprintf(src + n, cap - n, "}\n");
    }
    ir_diag d;
    ir_module *m = parse_quiet(src, &d);
    CHECK("big module parses", m != NULL && d.nerrors == 0);
    int ok = m != NULL, zero_sentinel = 1;
    for (int f = 0; ok && f < 5; f++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", f);
        const ir_function *k = ir_find_function(m, name);
        ok = k && k->ninstrs == (uint32_t)sizes[f];
        for (int i = 0; ok && i < sizes[f]; i++)
            ok = k->instrs[i].op == IR_OP_ADD && k->instrs[i].opd[2].u.imm == i &&
                 k->instrs[i].opd[1].u.reg == (uint32_t)(i % 11);
        const ir_instr zero = { 0 };
        if (ok)
            zero_sentinel &= memcmp(&k->instrs[k->ninstrs], &zero, sizeof zero) == 0;
        if (ok && f == 3)
            ok = k->nregs == 12 && strcmp(k->regs[11].name, "%r11") == 0 &&
                 strcmp(k->regs[0].name, "%r0") == 0;
    }
    CHECK("every function keeps its own instructions", ok);
    CHECK("instruction arrays end in a zeroed sentinel", zero_sentinel);
    ir_module_free(m);
    free(src);
}

/* A vector operand longer than any fixed buffer (tcgen05.ld .x128). */
static void test_wide_vector(void)
{
    char src[8192];
    size_t n = (size_t)snprintf(src, sizeof src, ".version 8.8\n.target sm_100a\n.address_size 64\n"
                                ".visible .entry k()\n{\n\t.reg .b32 %%r<200>;\n"
                                "\ttcgen05.ld.sync.aligned.16x64b.x128.b32 {");
    for (int i = 0; i < 128; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "%s%%r%d", i ? ", " : "", i);
    snprintf(src + n, sizeof src - n, "}, [%%r199];\n\tret;\n}\n");
    ir_diag d;
    ir_module *m = parse_quiet(src, &d);
    const ir_function *k = m ? ir_find_function(m, "k") : NULL;
    const ir_instr *in = k ? &k->instrs[0] : NULL;
    CHECK("128-element vector operand", in && in->op == IR_OP_TCGEN05_LD && in->opd[0].u.vec.n == 128 &&
          k->vecpool[in->opd[0].u.vec.first + 127].u.reg == 127 && in->opd[1].u.addr.base == 199);
    ir_module_free(m);
}

/* Modifiers of one class exclude each other; every error is counted. */
static void test_conflicts(void)
{
    const char *src = ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                      "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n\t.reg .pred %p;\n"
                      "\tadd.rn.rz.f32 %r1, %r2, %r3;\n"
                      "\tld.global.shared.u32 %r1, [%rd1];\n"
                      "\tld.mmio.relaxed.sys.global.u32 %r1, [%rd1];\n"      /* legal */
                      "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];\n"
                      "\tatom.global.add.min.u32 %r1, [%rd1], %r2;\n"
                      "\tbra !L;\nL:\n\tret;\n}\n";
    ir_diag d;
    ir_module *m = parse_quiet(src, &d);
    CHECK("conflicting modifiers: 4 errors, legal forms pass", m == NULL && d.nerrors == 4);
}

/* .pragma at module scope, between a kernel's header and its body, and in
 * the body: each kept, and printed back where it stood. */
static void test_pragmas(void)
{
    const char *src = ".version 8.5\n.target sm_90a\n.address_size 64\n"
                      ".pragma \"nounroll\";\n"
                      ".visible .entry k()\n.maxntid 32, 1, 1\n.pragma \"nounroll\";\n"
                      ".pragma \"a\", \"b\";\n{\n"
                      "\t.pragma \"first\";\n\t.reg .b32 %r<2>;\n"
                      "\tmov.u32 %r1, 0;\n"
                      "$L1:\n\t.pragma \"used_bytes_mask 15\";\n"
                      "\tadd.u32 %r1, %r1, 1;\n"
                      "\t.pragma \"last\";\n}\n";
    ir_diag d;
    ir_module *m = parse_quiet(src, &d);
    CHECK("pragmas parse", m != NULL);
    if (!m)
        return;
    CHECK("module pragma kept as an item", m->npragmas == 1 && m->nitems >= 1 &&
          m->items[0].kind == IR_ITEM_PRAGMA && strcmp(m->pragmas[0], "\"nounroll\"") == 0);
    const ir_function *k = ir_find_function(m, "k");
    CHECK("entry-scope pragmas kept", k && k->nhead_pragmas == 2 && k->npragmas == 5 &&
          strcmp(k->pragmas[0], "\"nounroll\"") == 0 && strcmp(k->pragmas[1], "\"a\", \"b\"") == 0);
    uint32_t at[3] = { 9, 9, 9 }, n = 0;
    for (uint32_t i = 0; k && i < k->nevents; i++)
        if (k->events[i].kind == IR_EV_PRAGMA && n < 3)
            at[n++] = k->events[i].instr;
    CHECK("body pragmas placed before their instructions", n == 3 && at[0] == 0 && at[1] == 1 && at[2] == 2);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ir_print_module(m, f);
    fclose(f);
    CHECK("printed: module pragma", strstr(text, "\n.pragma \"nounroll\";\n\n.visible .entry k") != NULL);
    CHECK("printed: entry-scope pragmas before the body",
          strstr(text, "\n.pragma \"nounroll\";\n.pragma \"a\", \"b\";\n{\n\t.pragma \"first\";") != NULL);
    CHECK("printed: body pragmas in place",
          strstr(text, "$L1:\n\t.pragma \"used_bytes_mask 15\";\n\tadd.u32") != NULL &&
          strstr(text, "\t.pragma \"last\";\n}") != NULL);
    free(text);
    ir_module_free(m);
}

/* Diagnostics about one operand point at it (ir_opd_locs): across lines,
 * at the coordinates' '{', at the ';' for a missing operand; without
 * locations, at the instruction. */
static struct { ir_loc loc; char msg[256]; } seen[8];
static unsigned nseen;
static void capture(ir_diag *d, const char *file, ir_loc loc, const char *sev, const char *msg)
{
    (void)d, (void)file, (void)sev;
    if (nseen < 8) {
        seen[nseen].loc = loc;
        snprintf(seen[nseen].msg, sizeof seen[nseen].msg, "%s", msg);
    }
    nseen++;
}

static void test_operand_locs(void)
{
    const char *src = ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                      "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
                      "\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1],\n" /* 8 */
                      "\t\t[%rd1, {%r2}],\n"                                                  /* 9 */
                      "\t\t[%r3];\n"                                                         /* 10 */
                      "\tadd.s32 %r1, %r2 ;\n"                                               /* 11 */
                      "\tadd.s32 %r1, %rd2, %r3;\n"                                          /* 12 */
                      "\tret;\n}\n";
    ir_diag d;
    memset(&d, 0, sizeof d);
    d.emit = capture;
    nseen = 0;
    ir_module *m = ptx_parse("locs.ptx", src, strlen(src), &d);
    CHECK("operand errors: 3", m == NULL && nseen == 3);
    CHECK("coordinate count at the '{' on the operand's own line",
          seen[0].loc.line == 9 && seen[0].loc.col == 10 && strstr(seen[0].msg, "2 tensor coordinates, got 1"));
    CHECK("missing operand at the ';'", seen[1].loc.line == 11 && seen[1].loc.col == 19);
    CHECK("register of the wrong width at that operand", seen[2].loc.line == 12 && seen[2].loc.col == 15 &&
          strstr(seen[2].msg, "('%rd2') is a .b64 register"));

    /* the validator alone, with no operand locations: the instruction's place */
    const char *good = ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                       "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n\tadd.s32 %r1, %r2, %rd1;\n}\n";
    memset(&d, 0, sizeof d);
    d.emit = capture;
    nseen = 0;
    m = ptx_parse("good.ptx", good, strlen(good), &d);
    CHECK("typed operands: ptxas's rule, caught at parse", m == NULL && nseen == 1 && seen[0].loc.col == 20);
    const char *ok = ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                     "\t.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2, %r3;\n}\n";
    memset(&d, 0, sizeof d);
    m = ptx_parse("ok.ptx", ok, strlen(ok), &d);
    const ir_function *k = m ? ir_find_function(m, "k") : NULL;
    if (k && k->ninstrs == 1) {
        ir_instr in = k->instrs[0];
        in.nopd = 2;
        memset(&d, 0, sizeof d);
        d.emit = capture;
        nseen = 0;
        int errs = ir_validate_instr(m, k, &in, NULL, &d);
        CHECK("no locations: at the instruction", errs == 1 && nseen == 1 && seen[0].loc.line == 7 &&
              seen[0].loc.col == 2);
    } else {
        CHECK("no locations: module parses", 0);
    }
    ir_module_free(m);
}

/* A form's .target and .version (ir/avail.def): the same kernel is legal
 * for one module header and not for another; the validator without a
 * module, or with a module lacking .target / .version, checks what it has. */
static void test_avail(void)
{
    CHECK("target versions: sm_90a 8.0, sm_100a 8.6, sm_120 8.7, unknown 0",
          ir_target_min_ptx("sm_90a") == 80 && ir_target_min_ptx("sm_100a") == 86 &&
          ir_target_min_ptx("sm_120") == 87 && ir_target_min_ptx("sm_101a") == 0 &&
          ir_target_min_ptx("") == 0);
    const char *body = ".address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
                       "\tcp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes"
                       " [%r1], [%rd1, {%r2, %r3, %r4, %r5, %r6}], [%r7];\n"   /* 8 */
                       "\tmov.u32 %r1, %cluster_ctarank;\n"                     /* 9 */
                       "\tret;\n}\n";
    char src[1024];
    ir_diag d;
    snprintf(src, sizeof src, ".version 8.6\n.target sm_100\n%s", body);
    ir_module *ok = parse_quiet(src, &d);
    CHECK("gather4 to .shared::cta: legal on sm_100 with PTX ISA 8.6", ok != NULL && d.nerrors == 0);
    snprintf(src, sizeof src, ".version 8.6\n.target sm_101a\n%s", body);
    ir_module *m = parse_quiet(src, &d);
    CHECK("a target ptxas 13 does not list (sm_101a): checked by its number", m != NULL && d.nerrors == 0);
    ir_module_free(m);

    snprintf(src, sizeof src, ".version 8.5\n.target sm_80\n%s", body);
    memset(&d, 0, sizeof d);
    d.emit = capture;
    nseen = 0;
    m = ptx_parse("avail.ptx", src, strlen(src), &d);
    CHECK("sm_80 / 8.5: refused, 4 errors", m == NULL && nseen == 4);
    CHECK("the instruction's own target", strstr(seen[0].msg, ": cp.async.bulk.tensor requires .target sm_90 or later "
                                                "(this module: sm_80)") && seen[0].loc.line == 8);
    CHECK("target and version in one message",
          strstr(seen[2].msg, ".tile::gather4 with destination .shared::cta requires .target sm_100 or later and "
                 "PTX ISA 8.6 (this module: sm_80, .version 8.5)") != NULL);
    CHECK("a special register: at the operand", seen[3].loc.line == 9 && seen[3].loc.col == 15 &&
          strstr(seen[3].msg, "mov.u32: %cluster_ctarank requires .target sm_90 or later") != NULL);

    const ir_function *k = ok ? ir_find_function(ok, "k") : NULL;
    if (k && k->ninstrs >= 1) {
        ir_module lacks = *ok;
        lacks.target[0] = 0;
        lacks.version_major = lacks.version_minor = 0;
        memset(&d, 0, sizeof d);
        d.emit = capture;
        nseen = 0;
        int e0 = ir_validate_instr(NULL, k, &k->instrs[0], NULL, &d);
        int e1 = ir_validate_instr(&lacks, k, &k->instrs[0], NULL, &d);
        snprintf(lacks.target, sizeof lacks.target, "sm_90a");
        int e2 = ir_validate_instr(&lacks, k, &k->instrs[0], NULL, &d);
        CHECK("no module, or no .target/.version: nothing to check", e0 == 0 && e1 == 0);
        CHECK("a .target without .version: the target alone", e2 == 1 && nseen == 1 &&
              strstr(seen[0].msg, "requires .target sm_100 or later (this module: sm_90a)") != NULL);
    } else {
        CHECK("avail: module parses", 0);
    }
    ir_module_free(ok);

    snprintf(src, sizeof src, ".version 8.5\n.target sm_100a\n.address_size 64\n");
    memset(&d, 0, sizeof d);
    d.emit = capture;
    nseen = 0;
    m = ptx_parse("pair.ptx", src, strlen(src), &d);
    CHECK(".target sm_100a under .version 8.5: at the target", m == NULL && nseen == 1 && seen[0].loc.line == 2 &&
          strstr(seen[0].msg, ".target sm_100a requires PTX ISA 8.6 or later (this module: .version 8.5)") != NULL);
}

int main(void)
{
    CHECK("type lookup b32", ir_type_lookup("b32", 3) == IR_T_B32);
    CHECK("type lookup miss", ir_type_lookup("b33", 3) == IR_T_NONE);
    CHECK("mod lookup shared::cluster", ir_mod_lookup("shared::cluster", 15) == IR_M_SHARED_CLUSTER);
    CHECK("mod lookup complete_tx", ir_mod_lookup("mbarrier::complete_tx::bytes", 28) == IR_M_MBARRIER_COMPLETE_TX_BYTES);
    CHECK("mod lookup miss", ir_mod_lookup("bogus", 5) == IR_M_NONE);
    CHECK("op lookup add (index 0)", ir_op_lookup("add", 3) == IR_OP_ADD);
    CHECK("op lookup cp.async.bulk.tensor", ir_op_lookup("cp.async.bulk.tensor", 20) == IR_OP_CP_ASYNC_BULK_TENSOR);
    CHECK("sreg %cluster_ctaid.y", ir_sreg_lookup("%cluster_ctaid.y", 16) == IR_SR_CLUSTER_CTAID_Y);
    CHECK("sreg %envreg3", ir_sreg_lookup("%envreg3", 8) == IR_SR_ENVREG0 + 3);
    CHECK("sreg name", strcmp(ir_sreg_name(IR_SR_TID_X), "%tid.x") == 0);
    CHECK("op table names", strcmp(ir_ops[IR_OP_MBARRIER_TRY_WAIT].name, "mbarrier.try_wait") == 0);

    ir_diag d;
    memset(&d, 0, sizeof d);
    ir_module *m = ptx_parse("unit.ptx", SRC, strlen(SRC), &d);
    CHECK("parse ok", m != NULL && d.nerrors == 0);
    if (!m)
        CHECK_DONE();
    const ir_symbol *tab = ir_find_symbol(m, "tab", -1);
    CHECK("init bytes", tab && tab->size == 16 && tab->init && tab->init[4] == 2 && tab->init[12] == 0);
    const ir_symbol *one = ir_find_symbol(m, "one", -1);
    CHECK("float init", one && one->init && one->init[3] == 0x3f && one->init[2] == 0x80);
    const ir_symbol *ptr = ir_find_symbol(m, "ptr", -1);
    CHECK("generic reloc", ptr && ptr->ninit_relocs == 1 && ptr->init_relocs[0].generic && ptr->init_relocs[0].addend == 4);
    const ir_symbol *dyn = ir_find_symbol(m, "dyn", -1);
    CHECK("dynamic shared nelem 0", dyn && dyn->nelem == 0 && dyn->align == 128);
    const ir_function *k = ir_find_function(m, "k");
    CHECK("entry found", k && k->is_entry && k->maxntid[0] == 128);
    if (!k)
        CHECK_DONE();
    const ir_symbol *tm = &m->syms[k->params[1]], *p2 = &m->syms[k->params[2]];
    CHECK_EQ_U64("param align 128 offset", tm->param_offset, 128);
    CHECK_EQ_U64("param after tmap", p2->param_offset, 256);
    CHECK_EQ_U64("param bytes", k->param_bytes, 264);
    CHECK("local shared symbol", k->nlocals >= 1 && m->syms[k->locals[0]].owner == (int32_t)(k - m->funcs));
    const ir_instr *in = k->instrs;
    CHECK("sreg operand", in[0].opd[1].kind == IR_OPD_SREG && in[0].opd[1].u.sreg == IR_SR_TID_X);
    CHECK("setp decoded", in[1].cmp == IR_M_LT && in[1].boolop == IR_M_AND && in[1].types[0] == IR_T_S32);
    CHECK("setp pair", in[1].opd[0].kind == IR_OPD_VEC && in[1].opd[0].vsel == '|' && in[1].opd[0].u.vec.n == 2);
    CHECK("negative imm", in[1].opd[2].kind == IR_OPD_IMM && in[1].opd[2].u.imm == -5);
    CHECK("negated predicate operand", in[1].opd[3].kind == IR_OPD_REG && in[1].opd[3].neg);
    CHECK("cvt types in order", in[2].ntypes == 2 && in[2].types[0] == IR_T_F32 && in[2].types[1] == IR_T_S32 && in[2].rnd == IR_M_RN);
    CHECK_EQ_U64("0f bits", in[3].opd[2].u.imm, 0x3F800000);
    CHECK("0f value", in[3].opd[2].kind == IR_OPD_FIMM && in[3].opd[2].fimm == 1.0);
    CHECK("decimal float", in[4].opd[2].fimm == 1.5);
    const ir_instr *t = &in[5];
    CHECK("tma op", t->op == IR_OP_CP_ASYNC_BULK_TENSOR && t->dim == 2 && t->mode == IR_M_TILE);
    CHECK("tma spaces", t->space == IR_SPACE_SHARED_CLUSTER && t->space2 == IR_SPACE_GLOBAL);
    CHECK("tma coords", t->opd[1].kind == IR_OPD_ADDR && t->opd[1].u.addr.has_vec && t->opd[1].u.addr.vec_n == 2);
    CHECK("cp.reduce redop", in[6].redop == IR_M_OP_ADD && in[6].space == IR_SPACE_GLOBAL && in[6].space2 == IR_SPACE_SHARED_CTA);
    CHECK("shadowed register slot", in[7].opd[1].kind == IR_OPD_REG && in[7].opd[1].u.reg != in[0].opd[0].u.reg);
    CHECK("param sym offset", in[7].opd[0].u.addr.base_kind == IR_BASE_SYM);
    const ir_instr *c = &in[8];
    CHECK("call shape", c->op == IR_OP_CALL && c->nopd == 3 && c->opd[0].kind == IR_OPD_VEC &&
          c->opd[1].kind == IR_OPD_SYM && c->opd[2].kind == IR_OPD_VEC && c->opd[2].u.vec.n == 1);
    CHECK("call target fn", m->syms[c->opd[1].u.sym].kind == IR_SYM_FUNC && c->aux == 0);
    CHECK("guard", in[9].guard >= 0 && in[9].guard_neg);
    CHECK_EQ_U64("label at end -> ninstrs", in[9].opd[0].u.label, k->ninstrs);
    CHECK("mul.hi is not a comparison", in[10].cmp == 0 && ir_has(&in[10], IR_M_HI) && in[10].opd[2].u.imm == 16);
    CHECK("vector with sink", in[11].vec == 2 && k->vecpool[in[11].opd[0].u.vec.first + 1].kind == IR_OPD_SINK);
    CHECK("sym+off address", in[11].opd[1].u.addr.base_kind == IR_BASE_SYM && in[11].opd[1].u.addr.off == 8);
    CHECK_EQ_U64("0d bits", in[12].opd[1].u.imm, 0x3FF0000000000000ull);
    CHECK_EQ_U64("octal", in[13].opd[1].u.imm, 15);
    CHECK("cvta.to", in[14].space == IR_SPACE_GLOBAL && ir_has(&in[14], IR_M_TO));
    char buf[256];
    ir_format_instr(m, k, &in[5], buf, sizeof buf);
    CHECK("format tma", strstr(buf, "[%rd1, {%r3, %r4}]") != NULL);
    size_t ln;
    const char *line = ir_source_line(m, 2, &ln);
    CHECK("source line", ln == 14 && strncmp(line, ".target sm_90a", 14) == 0);
    ir_module_free(m);

    /* errors: all reported, module NULL */
    const char *bad = ".version 8.5\n.target sm_90a\n.entry e()\n{\n\tadd.s32 %r1;\n\tfoo;\n\tbra nowhere;\n}\n";
    memset(&d, 0, sizeof d);
    int errs = 0;
    d.emit = NULL;
    FILE *save = stderr;
    stderr = fopen("/dev/null", "w");
    m = ptx_parse("bad.ptx", bad, strlen(bad), &d);
    fclose(stderr);
    stderr = save;
    errs = (int)d.nerrors;
    CHECK("errors reported, NULL module", m == NULL && errs == 3);

    test_arena();
    test_big_module();
    test_wide_vector();
    test_conflicts();
    test_pragmas();
    test_operand_locs();
    test_avail();
    CHECK_DONE();
}
