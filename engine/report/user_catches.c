/* Which rungs caught a user's own suite's buggy variant, and whether its plain unit test does
 * (report.h: eng_user_suite_catches), for the text and the JSON reports alike. */
#include <string.h>

#include "common/xalloc.h"
#include "engine/report/report.h"

/* Whether check d stopped the buggy variant: a failure, a hang, or a crash it caused. */
static bool catches(const struct eng_done *d)
{
    return d->r.verdict == CDB_FAIL || d->r.verdict == CDB_HANG || d->crashed;
}

size_t eng_user_suite_catches(const struct eng_done *checks, size_t n, struct eng_user_catch **out)
{
    size_t nu = 0;
    *out = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct eng_planned *p = checks[i].p;
        if (p->reproducer || p->control || p->sanitizer[0] || strcmp(p->spec.variant, "buggy"))
            continue;
        const char *suite = eng_planned_suite(p);
        struct eng_user_catch *u = NULL;
        for (size_t k = 0; k < nu && !u; k++)
            if (!strcmp((*out)[k].suite, suite))
                u = &(*out)[k];
        if (!u) {
            *out = xrealloc(*out, (nu + 1) * sizeof **out);
            u = &(*out)[nu++];
            memset(u, 0, sizeof *u);
            u->suite = suite;
        }
        if (p->spec.baseline) {
            u->base++;
            u->base_caught += catches(&checks[i]);
            continue;
        }
        int r = p->spec.rung;
        if (r < 0 || r >= ENG_RUNG_SLOTS)
            continue;
        u->checks[r]++;
        u->caught[r] += catches(&checks[i]);
        u->skipped[r] += checks[i].r.verdict == CDB_SKIP;
    }
    return nu;
}

