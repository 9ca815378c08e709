/* Placeholder until implemented. */
#include "tui/cli.h"

int cmd_show(int argc, char **argv, const struct cli_global *g)
{
    (void)argc, (void)argv, (void)g;
    return 2;
}
