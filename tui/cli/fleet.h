/* kladder fleet's subcommands, one file each job: fleet_submit.c (the scripts and sbatch),
 * fleet_collect.c (collect and status over the fleet folder), fleet_help.c (the help they
 * share); cmd_fleet.c dispatches. Each returns the exit status (cli.h). */
#ifndef KL_TUI_CLI_FLEET_H
#define KL_TUI_CLI_FLEET_H

#include "tui/global.h"

struct cli_parser;

/* The help of kladder fleet, with the options of submit's table p (the only subcommand that
 * takes options); a CLI_HELP callback of that table. */
void fleet_print_help(const struct cli_parser *p);
/* The same help from anywhere: submit's table, asked for --help. */
void fleet_help(void);
int fleet_submit(int argc, char **argv, const struct cli_global *g);
int fleet_collect(int argc, char **argv, const struct cli_global *g);
int fleet_status(int argc, char **argv, const struct cli_global *g);

#endif
