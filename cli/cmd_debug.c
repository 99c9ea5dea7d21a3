/* cli/cmd_debug.c — placeholder until this subcommand lands; it refuses clearly. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_debug(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxi debug: not available in this build yet\n");
    return 2;
}
