/* kladder fleet submit|collect|status: the ladder on every node of a Slurm cluster
 * (docs/fleet.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "tui/cli/cli.h"
#include "tui/cli/fleet.h"
#include "tui/cli/opts.h"

int cmd_fleet(int argc, char **argv, const struct cli_global *g)
{
    if (argc < 2)
        return cli_usage_error("fleet", "expects submit, collect or status");
    const char *sub = argv[1];
    /* --help, and --options for the completions: submit's table answers, fleet's only one */
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        fleet_help();
        return 0;
    }
    if (cli_asks_table(argc, argv)) /* --options, --man-options (--help went above) */
        return fleet_submit(argc, argv, g);
    /* each subcommand parses what follows it */
    if (strcmp(sub, "submit") == 0)
        return fleet_submit(argc - 1, argv + 1, g);
    if (strcmp(sub, "collect") == 0)
        return fleet_collect(argc - 1, argv + 1, g);
    if (strcmp(sub, "status") == 0)
        return fleet_status(argc - 1, argv + 1, g);
    char *shown = text_escape(sub, 40); /* as typed, control characters escaped */
    int rc = cli_usage_error("fleet", "unknown subcommand '%s' (submit, collect or status)", shown);
    free(shown);
    return rc;
}
