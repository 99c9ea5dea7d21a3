/* fuzz/fuzz_parse.c — libFuzzer target for the front end: parse (lexer,
 * grammar, builder, validator) any bytes; when they parse, print the module
 * and its canonical dump, reparse the printed text and require the same
 * dump (the round-trip property the test suite checks on the corpus).
 *
 *   make fuzz                   # clang -fsanitize=fuzzer,address,undefined
 *   make fuzz-run FUZZ_SECONDS=300    # build/fuzz/: seeds, corpus, crash-*
 *
 * Without clang, fuzz/mutate.py drives `ptxi check` under an ASan build
 * instead.  Messages are swallowed (emit hook); only crashes, sanitizer
 * reports, hangs and round-trip mismatches count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"

static void quiet(ir_diag *d, const char *file, ir_loc loc, const char *sev, const char *msg)
{
    (void)d, (void)file, (void)loc, (void)sev, (void)msg;
}

static char *dump(const ir_module *m, int canonical, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    if (canonical)
        ir_dump_canonical(m, f);
    else
        ir_print_module(m, f);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    ir_diag d;
    memset(&d, 0, sizeof d);
    d.emit = quiet;
    ir_module *m = ptx_parse("fuzz.ptx", (const char *)data, size, &d);
    if (!m)
        return 0;
    size_t plen, c1len, c2len;
    char *printed = dump(m, 0, &plen);
    char *c1 = dump(m, 1, &c1len);
    /* every instruction formats (debugger disassembly, messages) */
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        for (uint32_t i = 0; i < m->funcs[fi].ninstrs; i++) {
            char line[512];
            ir_format_instr(m, &m->funcs[fi], &m->funcs[fi].instrs[i], line, sizeof line);
        }
    ir_module_free(m);
    memset(&d, 0, sizeof d);
    d.emit = quiet;
    ir_module *m2 = ptx_parse("printed.ptx", printed, plen, &d);
    if (!m2) {
        fprintf(stderr, "printed module does not reparse:\n%s\n", printed);
        abort();
    }
    char *c2 = dump(m2, 1, &c2len);
    if (c1len != c2len || memcmp(c1, c2, c1len) != 0) {
        fprintf(stderr, "print -> parse changed the IR:\n%s\n", printed);
        abort();
    }
    ir_module_free(m2);
    free(printed);
    free(c1);
    free(c2);
    return 0;
}
