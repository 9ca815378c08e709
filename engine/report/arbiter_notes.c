/* Why checks of a run were judged against the reference alone (report.h:
 * eng_no_arbiter_notes): each reason once, with how many checks it concerns, for the text and
 * the JSON reports alike. */
#include <string.h>

#include "common/xalloc.h"
#include "engine/report/report.h"

size_t eng_no_arbiter_notes(const struct eng_done *checks, size_t n, struct eng_arbiter_note **out)
{
    size_t nn = 0;
    *out = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *why = checks[i].r.no_arbiter;
        if (!why[0])
            continue;
        size_t k = 0;
        while (k < nn && strcmp((*out)[k].why, why))
            k++;
        if (k == nn) {
            *out = xrealloc(*out, (nn + 1) * sizeof **out);
            (*out)[nn++] = (struct eng_arbiter_note){.why = why, .checks = 0};
        }
        (*out)[k].checks++;
    }
    return nn;
}
