/* cli/cmd_run.c — placeholder until this subcommand lands; it refuses clearly. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_run(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxi run: not available in this build yet\n");
    return 2;
}
int cmd_test(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxi test: not available in this build yet\n");
    return 2;
}
