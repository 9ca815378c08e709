/* kladder fleet's help, shared by its subcommands (fleet.h). */
#include <stdio.h>

#include "tui/cli/fleet.h"
#include "tui/cli/opts.h"

void fleet_print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {
        "submit {--out} ({--nodes} | {--partition}) ({--suite} | {--case}) %o", "collect DIR",
        "status JOB|DIR", NULL};
    cli_print_usage(stdout, p, forms);
    printf(
        "\n"
        "Runs the ladder on every node of a Slurm cluster through sbatch: a job array of one\n"
        "task per target, each running `kladder run` into a private database and exporting\n"
        "it to DIR (a folder every node can write) as LABEL.json; a collect job, started\n"
        "once every task has ended, pulls each export into this database under its label.\n\n"
        "options of submit:\n");
    cli_print_help(stdout, p);
    printf(
        "\n"
        "collect pulls every DIR/LABEL.json (each in one transaction: a rerun adds nothing\n"
        "twice, an export that is not whole lands nothing) and reports each task that left\n"
        "no export with its Slurm state and the tail of its log; exit status 1 then.\n"
        "status shows each task's state from squeue, or sacct once squeue has forgotten it;\n"
        "their errors are shown as they print them.\n");
}
