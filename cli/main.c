/* main.c — the ptxi command line: dispatch to one subcommand per file.
 *
 *   ptxi COMMAND [ARGS]     ptxi help [COMMAND]     ptxi --version
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "launch/ptxi.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} cmds[] = {
    {"run", cmd_run, "run a kernel: ptxi run launch.json | ptxi run k.ptx --kernel NAME --grid X,Y,Z --block X,Y,Z ..."},
    {"test", cmd_test, "run launch-file suites: ptxi test DIR|FILE.jsonl... (closing line 'N passed, N failed')"},
    {"debug", cmd_debug, "step through a kernel: ptxi debug launch.json"},
    {"check", cmd_check, "parse and validate: ptxi check FILE.ptx... (- for standard input)"},
    {"print", cmd_print, "print the IR back as PTX: ptxi print FILE.ptx"},
    {"tmap", cmd_tmap, "encode/decode tensor maps: ptxi tmap ..."},
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: ptxi COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < NCMDS; i++)
        fprintf(f, "  %-6s %s\n", cmds[i].name, cmds[i].help);
    fprintf(f, "  %-6s %s\n", "help", "ptxi help COMMAND: the options of a command (the same as COMMAND --help)");
    fprintf(f, "\nptxi --version prints the version; man ptxi has the whole manual.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("ptxi %s\n", ptxi_version());
        return 0;
    }
    if (!strcmp(argv[1], "help")) {
        if (argc < 3) {
            usage(stdout);
            return 0;
        }
        for (size_t i = 0; i < NCMDS; i++)
            if (!strcmp(argv[2], cmds[i].name)) {
                char *av[] = {argv[2], (char *)"--help", NULL};
                return cmds[i].fn(2, av);
            }
        fprintf(stderr, "ptxi help: unknown command '%s'\n", argv[2]);
        usage(stderr);
        return 2;
    }
    for (size_t i = 0; i < NCMDS; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "ptxi: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
