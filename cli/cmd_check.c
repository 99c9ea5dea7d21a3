/* cli/cmd_check.c — `ptxi check FILE.ptx...` (parse + validate, every error
 * reported as file:line:col with the line and a caret; exit 1 on any) and
 * `ptxi print FILE.ptx` (the IR printed back as PTX; --canonical prints
 * the round-trip dump instead).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "ir/ir.h"
#include "contract/contract.h"

/* --contractions: every mul + add pair that ptxas fuses into one fma and
 * ptxi therefore rounds once (contract/), one line each. */
static int list_contractions(const ir_module *m, const char *path)
{
    int total = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_function *fn = &m->funcs[f];
        ctr_pair *v;
        int n = ctr_find(fn, &v);
        if (n < 0) {
            fprintf(stderr, "ptxi check: out of memory\n");
            return -1;
        }
        for (int i = 0; i < n; i++) {
            char ma[96], mm[96];
            ir_format_mnemonic(&fn->instrs[v[i].add], ma, sizeof ma);
            ir_format_mnemonic(&fn->instrs[v[i].mul], mm, sizeof mm);
            printf("%s:%u: %s: %s takes the %s of line %u: one fma, rounded once\n", path,
                   fn->instrs[v[i].add].loc.line, fn->name, ma, mm, fn->instrs[v[i].mul].loc.line);
        }
        total += n;
        free(v);
    }
    printf("%s: %d contracted pair%s\n", path, total, total == 1 ? "" : "s");
    return total;
}

static const char *file_arg(int argc, char **argv, const char *cmd, int *canon)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--canonical") == 0 && canon)
            *canon = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            return fprintf(stderr, "ptxi %s: unknown option %s\n", cmd, argv[i]), NULL;
        else
            path = argv[i];
    }
    if (!path)
        fprintf(stderr, "usage: ptxi %s%s FILE.ptx\n", cmd, canon ? " [--canonical]" : "");
    return path;
}

/* Standard input, for `-`. */
static char *read_stdin(size_t *len)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, stdin);
        n += r;
        if (r == 0)
            break;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
    }
    *len = n;
    return buf;
}

/* ptxi check FILE... : every file is checked and reported (`-` reads
 * standard input); with more than one, each gets a line "FILE: ok" or
 * "FILE: N errors" after its diagnostics, and a closing count. */
int cmd_check(int argc, char **argv)
{
    int nfiles = 0, nbad = 0, stdin_used = 0, contractions = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: ptxi check [--contractions] FILE.ptx... (- reads standard input)\n"
                   "parse and validate each module; every error as file:line:col with the line and a caret.\n"
                   "--contractions: also list each mul (or div.full) and add that ptxas fuses into one fma,\n"
                   "which ptxi therefore rounds once (`run --no-contract` does not).\n"
                   "Exit status 1 if any file has an error.\n");
            return 0;
        }
        if (!strcmp(argv[i], "--contractions")) {
            contractions = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "ptxi check: unknown option %s\n", argv[i]);
            return 2;
        }
        nfiles++;
    }
    if (!nfiles) {
        fprintf(stderr, "usage: ptxi check [--contractions] FILE.ptx... (- reads standard input)\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *path = argv[i];
        if (!strcmp(path, "--contractions"))
            continue;
        ir_diag d;
        memset(&d, 0, sizeof d);
        ir_module *m;
        if (!strcmp(path, "-")) {
            if (stdin_used++) {
                fprintf(stderr, "ptxi check: - given more than once\n");
                return 2;
            }
            size_t len = 0;
            char *src = read_stdin(&len);
            path = "<stdin>";
            m = src ? ptx_parse(path, src, len, &d) : NULL;
            if (!src) {
                fprintf(stderr, "ptxi check: <stdin>: out of memory\n");
                d.nerrors = 1;
            }
            free(src);
        } else {
            m = ptx_parse_file(path, &d);
        }
        if (!m) {
            nbad++;
            if (nfiles > 1)
                fprintf(stderr, "%s: %u error%s\n", path, d.nerrors ? d.nerrors : 1, d.nerrors == 1 ? "" : "s");
            else if (d.nerrors > 1)
                fprintf(stderr, "%u errors\n", d.nerrors);
        } else {
            if (nfiles > 1)
                printf("%s: ok\n", path);
            if (contractions && list_contractions(m, path) < 0)
                nbad++;
            ir_module_free(m);
        }
        fflush(stdout);
    }
    if (nfiles > 1)
        printf("%d file%s checked, %d with errors\n", nfiles, nfiles == 1 ? "" : "s", nbad);
    return nbad ? 1 : 0;
}

int cmd_print(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: ptxi print [--canonical] FILE.ptx\n"
                   "print the module back as PTX (--canonical: the round-trip dump of the IR)\n");
            return 0;
        }
    int canon = 0;
    const char *path = file_arg(argc, argv, "print", &canon);
    if (!path)
        return 2;
    ir_diag d;
    memset(&d, 0, sizeof d);
    ir_module *m = ptx_parse_file(path, &d);
    if (!m)
        return 1;
    if (canon)
        ir_dump_canonical(m, stdout);
    else
        ir_print_module(m, stdout);
    ir_module_free(m);
    return 0;
}
