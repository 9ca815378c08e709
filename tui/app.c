/* Placeholder until the interactive interface lands: keeps the binary linkable. */
#include <stdio.h>

#include "tui/cli.h"

int tui_main(const struct cli_global *g)
{
    (void)g;
    fprintf(stderr, "kladder: the interactive interface is not built yet\n");
    return 2;
}
