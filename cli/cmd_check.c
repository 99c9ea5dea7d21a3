/* cli/cmd_check.c — placeholder until this subcommand lands; it refuses clearly. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_check(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxi check: not available in this build yet\n");
    return 2;
}
int cmd_print(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxi print: not available in this build yet\n");
    return 2;
}
