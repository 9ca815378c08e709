/* A progress bar on stderr while a run goes (when stderr is a terminal). */
#include <stdio.h>
#include <stdlib.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "engine/report/report.h"

static void bar(int i, int total, const char *name)
{
    int width = 30, fill = total ? i * width / total : width;
    fprintf(stderr, "\r\033[K[");
    for (int k = 0; k < width; k++)
        fputc(k < fill ? '#' : '-', stderr);
    char *shown = text_fit(name ? name : "", 50, false, NULL); /* a manifest's name: sanitised */
    fprintf(stderr, "] %d/%d %s", i, total, shown);
    free(shown);
    if (!name)
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

static void pg_check_start(struct eng_reporter *r, const struct eng_run_info *run, size_t seq,
                           const struct eng_done *d)
{
    (void)r;
    bar((int)seq, (int)run->total, d->p->spec.name);
}

static int pg_end(struct eng_reporter *r, const struct eng_run_info *run,
                  const struct eng_summary *s, const struct eng_done *checks, size_t n)
{
    (void)r;
    (void)s;
    (void)checks;
    bar((int)n, (int)run->total, NULL);
    return 0;
}

static void pg_free(struct eng_reporter *r) { free(r); }

struct eng_reporter *eng_report_progress(void)
{
    struct eng_reporter *r = xcalloc(1, sizeof *r);
    r->check_start = pg_check_start;
    r->end = pg_end;
    r->free = pg_free;
    return r;
}
