/* The suite list of a CI report (importers/ci_report.h), which both readers fill: a suite added
 * to, or made at the end on first sight of its name; and freeing a report. Apart from
 * ci_report.c, which calls the readers, so that the readers do not need it back. */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "importers/ci_report.h"

void ci_report_add(struct ci_report *r, const char *name, long n, long k, long f)
{
    struct ci_suite *s = NULL;
    for (size_t i = 0; i < r->nsuites && !s; i++)
        if (strcmp(r->suites[i].name, name) == 0)
            s = &r->suites[i];
    if (!s) {
        r->suites = xrealloc(r->suites, (r->nsuites + 1) * sizeof *r->suites);
        s = &r->suites[r->nsuites++];
        *s = (struct ci_suite){.name = xstrdup(name)};
    }
    s->tests += n;
    s->skipped += k;
    s->failed += f;
}

void ci_report_free(struct ci_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nsuites; i++)
        free(r->suites[i].name);
    free(r->suites);
    free(r->path);
    free(r);
}
