/* The reporters a run's options ask for (engine/report/report.h). */
#include "engine/report/report.h"

#include <stdlib.h>

#include "common/xalloc.h"

struct eng_reporter **eng_reporters_open(const struct eng_run_opts *o, char *err, size_t errlen)
{
    struct eng_reporter **r = xcalloc(7, sizeof *r);
    size_t n = 0;
    /* the database first: a run it could not record ends unmet in every report after it
     * (engine/reporter.h) */
    if (o->db)
        r[n++] = eng_report_db(o->db);
    r[n++] = o->json ? eng_report_json() : eng_report_text();
    if (o->progress)
        r[n++] = eng_report_progress();
    if (o->junit)
        r[n++] = eng_report_junit(o->junit);
    if (o->events_fd >= 0 && !(r[n++] = eng_report_events(o->events_fd, err, errlen))) {
        for (size_t i = 0; i + 1 < n; i++)
            r[i]->free(r[i]);
        free(r);
        return NULL;
    }
    return r;
}
