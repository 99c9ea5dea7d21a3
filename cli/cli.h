/* cli.h — subcommands of the ptxi command line, one file each (cmd_*.c). */
#ifndef PTXI_CLI_H
#define PTXI_CLI_H
int cmd_check(int argc, char **argv);  /* cmd_check.c: ptxi check FILE.ptx   */
int cmd_print(int argc, char **argv);  /* cmd_check.c: ptxi print FILE.ptx   */
int cmd_run(int argc, char **argv);    /* cmd_run.c:   ptxi run ...          */
int cmd_test(int argc, char **argv);   /* cmd_run.c:   ptxi test DIR|FILE... */
int cmd_debug(int argc, char **argv);  /* cmd_debug.c: ptxi debug launch.json */
int cmd_tmap(int argc, char **argv);   /* cmd_tmap.c:  ptxi tmap ...         */
#endif
