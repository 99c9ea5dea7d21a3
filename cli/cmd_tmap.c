/* cli/cmd_tmap.c — placeholder until this subcommand lands; it refuses clearly. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_tmap(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxi tmap: not available in this build yet\n");
    return 2;
}
