/* test_srcmap.c — ir/srcmap.c: the CUDA (or Python) line in force at each
 * PTX line, from .file and .loc as nvcc -lineinfo and Triton write them:
 * .file with and without its mtime/size, .loc with a column and with
 * nvcc's `function_name ... inlined_at` tail, .loc 0 (no line), a new
 * function forgetting the previous one's line, a module without .loc, and
 * malformed directives that must not crash. */
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "check.h"

static const char *src =
    ".version 8.0\n"                                   /* 1 */
    ".target sm_90a\n"                                 /* 2 */
    ".address_size 64\n"                               /* 3 */
    ".visible .entry k(.param .u64 p)\n"               /* 4 */
    "{\n"                                              /* 5 */
    "\t.reg .b32 %r<4>;\n"                             /* 6 */
    "\tmov.u32 %r1, 0;\n"                              /* 7: before any .loc */
    "\t.loc\t1 42 7\n"                                 /* 8 */
    "\tmov.u32 %r2, 1;\n"                              /* 9: k.cu:42 */
    "\t.loc\t2 7 3, function_name $L__info_string0, inlined_at 1 43 9\n" /* 10 */
    "\tadd.s32 %r3, %r1, %r2;\n"                       /* 11: inc.h:7 */
    "\t.loc\t1 0 0\n"                                  /* 12 */
    "\tret;\n"                                         /* 13: no line */
    "}\n"                                              /* 14 */
    ".visible .entry j()\n"                            /* 15 */
    "{\n"                                              /* 16 */
    "\tret;\n"                                         /* 17: a new function: none */
    "}\n"                                              /* 18 */
    "\t.file\t1 \"/home/u/k.cu\"\n"                    /* 19 */
    "\t.file\t2 \"/home/u/inc.h\", 1700000000, 512\n"; /* 20 */

int main(void)
{
    ir_diag d;
    memset(&d, 0, sizeof d);
    ir_module *m = ptx_parse("t.ptx", src, strlen(src), &d);
    CHECK("srcmap/parses", m != NULL);
    if (!m)
        CHECK_DONE();
    const char *f = NULL;
    uint32_t l = 0;
    CHECK("srcmap/before_any_loc", !ir_src_of(m, 7, &f, &l));
    CHECK("srcmap/loc_line", ir_src_of(m, 9, &f, &l) && l == 42 && !strcmp(f, "/home/u/k.cu"));
    CHECK("srcmap/loc_inlined_at", ir_src_of(m, 11, &f, &l) && l == 7 && !strcmp(f, "/home/u/inc.h"));
    CHECK("srcmap/loc_zero_is_none", !ir_src_of(m, 13, &f, &l));
    CHECK("srcmap/new_function_forgets", !ir_src_of(m, 17, &f, &l));
    CHECK("srcmap/out_of_range", !ir_src_of(m, 0, &f, &l) && !ir_src_of(m, 9999, &f, &l));
    CHECK_EQ_U64("srcmap/files", m->nfiles, 3);
    ir_module_free(m);

    const char *plain = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
    m = ptx_parse("p.ptx", plain, strlen(plain), &d);
    CHECK("srcmap/no_loc_no_map", m && !m->srclines && !ir_src_of(m, 6, &f, &l));
    if (m)
        ir_module_free(m);

    /* malformed: a .loc naming an undeclared file, huge numbers, an unterminated path */
    const char *odd = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                      "\t.loc\t9 5 1\n\tret;\n\t.loc\t99999999 99999999999 1\n}\n.file 3 \"unterminated\n"
                      ".file 70000 \"big\"\n";
    m = ptx_parse("o.ptx", odd, strlen(odd), &d);
    CHECK("srcmap/odd_parses", m != NULL);
    CHECK("srcmap/undeclared_file", m && ir_src_of(m, 7, &f, &l) && l == 5 && !strcmp(f, "?"));
    if (m)
        ir_module_free(m);
    CHECK_DONE();
}
