/* cli/cmd_check.c — `ptxi check FILE.ptx` (parse + validate, every error
 * reported as file:line:col with the line and a caret; exit 1 on any) and
 * `ptxi print FILE.ptx` (the IR printed back as PTX; --canonical prints
 * the round-trip dump instead).
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "ir/ir.h"

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

int cmd_check(int argc, char **argv)
{
    const char *path = file_arg(argc, argv, "check", NULL);
    if (!path)
        return 2;
    ir_diag d;
    memset(&d, 0, sizeof d);
    ir_module *m = ptx_parse_file(path, &d);
    if (!m) {
        if (d.nerrors > 1)
            fprintf(stderr, "%u errors\n", d.nerrors);
        return 1;
    }
    ir_module_free(m);
    return 0;
}

int cmd_print(int argc, char **argv)
{
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
