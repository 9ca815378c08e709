/* One pulled host's line (pull_report.h). */
#include "tui/cli/pull_report.h"

#include <stdio.h>

void pull_report_line(const struct imp_pull_result *r)
{
    if (r->ok)
        printf("%s: %zu new run%s, %zu check%s (%zu already present)\n", r->label, r->new_runs,
               r->new_runs == 1 ? "" : "s", r->new_checks, r->new_checks == 1 ? "" : "s",
               r->present_runs);
    else
        fprintf(stderr, "%s: error: %s\n", r->label, r->err);
}
