/* The event stream (`kladder run --events FD`): one JSON line per event — start, check-start,
 * check-done, end — flushed as it happens, for the interface's live run view. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "engine/report/report.h"
#include "importers/machine_json.h"

struct events {
    struct eng_reporter base;
    FILE *f;
};

static void emit(struct eng_reporter *r, cJSON *ev)
{
    FILE *f = ((struct events *)r)->f;
    char *t = cJSON_PrintUnformatted(ev);
    fprintf(f, "%s\n", t);
    fflush(f);
    free(t);
    cJSON_Delete(ev);
}

static void ev_start(struct eng_reporter *r, const struct eng_run_info *run)
{
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "event", "start");
    cJSON_AddStringToObject(ev, "run_id", run->uuid);
    cJSON_AddNumberToObject(ev, "total", (double)run->total);
    cJSON_AddItemToObject(ev, "machine", imp_machine_json(&run->mach.m));
    cJSON_AddStringToObject(ev, "schedule", eng_schedule_name(run->schedule));
    emit(r, ev);
}

static void ev_check_start(struct eng_reporter *r, const struct eng_run_info *run, size_t seq,
                           const struct eng_done *d)
{
    (void)run;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "event", "check-start");
    cJSON_AddNumberToObject(ev, "seq", (double)seq);
    cJSON_AddNumberToObject(ev, "rung", d->p->spec.rung);
    cJSON_AddStringToObject(ev, "suite", eng_planned_suite(d->p));
    cJSON_AddStringToObject(ev, "variant", d->p->label);
    cJSON_AddStringToObject(ev, "check", d->p->spec.name);
    /* the time limit after setup, for the interface's countdown of the check running now */
    cJSON_AddNumberToObject(ev, "limit_s", d->p->spec.timeout_s);
    emit(r, ev);
}

static void ev_check_done(struct eng_reporter *r, const struct eng_run_info *run, size_t seq,
                          const struct eng_done *d)
{
    (void)run;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "event", "check-done");
    cJSON_AddNumberToObject(ev, "seq", (double)seq);
    cJSON_AddItemToObject(ev, "check", eng_report_check_json(d));
    emit(r, ev);
}

static int ev_end(struct eng_reporter *r, const struct eng_run_info *run,
                  const struct eng_summary *s, const struct eng_done *checks, size_t n)
{
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "event", "end");
    cJSON_AddStringToObject(ev, "run_id", run->uuid);
    cJSON_AddStringToObject(ev, "verdict", eng_summary_verdict_name(s));
    cJSON_AddBoolToObject(ev, "expectation_met", s->met);
    /* a user's own suite states no expectation of its bug, so a run can meet every expectation
     * while no rung caught it: the text report says so, and a face must not say otherwise */
    struct eng_user_catch *u;
    size_t nu = eng_user_suite_catches(checks, n, &u);
    cJSON *missed = cJSON_AddArrayToObject(ev, "bug_caught_by_no_rung");
    for (size_t i = 0; i < nu; i++) {
        int caught = 0, ran = 0;
        for (int k = 0; k < ENG_RUNG_SLOTS; k++)
            caught += u[i].caught[k], ran += u[i].checks[k];
        if (ran && !caught)
            cJSON_AddItemToArray(missed, cJSON_CreateString(u[i].suite));
    }
    free(u);
    emit(r, ev);
    return 0;
}

static void ev_free(struct eng_reporter *r)
{
    fclose(((struct events *)r)->f);
    free(r);
}

struct eng_reporter *eng_report_events(int fd, char *err, size_t errlen)
{
    FILE *f = fdopen(dup(fd), "w");
    if (!f) {
        snprintf(err, errlen, "--events %d is not a writable descriptor", fd);
        return NULL;
    }
    struct events *e = xcalloc(1, sizeof *e);
    e->f = f;
    e->base.start = ev_start;
    e->base.check_start = ev_check_start;
    e->base.check_done = ev_check_done;
    e->base.end = ev_end;
    e->base.free = ev_free;
    return &e->base;
}
