/* The JSON report on stdout (`kladder run --json`) and the JSON forms of a check and a machine
 * that the event stream shares (engine/report/report.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/report/report.h"
#include "importers/machine_json.h"

const char *eng_schedule_name(enum eng_schedule s)
{
    return s == ENG_SCHED_ADVERSARIAL ? "adversarial" : s == ENG_SCHED_RANDOM ? "random" : s == ENG_SCHED_PCT ? "pct" : "default";
}



const char *eng_summary_verdict_name(const struct eng_summary *s)
{
    return s->is_inconclusive ? "inconclusive" : cdb_verdict_name(s->verdict);
}

cJSON *eng_report_check_json(const struct eng_done *d)
{
    const struct eng_check_spec *s = &d->p->spec;
    cJSON *c = cJSON_CreateObject();
    cJSON_AddNumberToObject(c, "rung", s->rung);
    cJSON_AddStringToObject(c, "suite", eng_planned_suite(d->p));
    if (strcmp(s->suite, eng_planned_suite(d->p)) != 0) /* the manifest file it was given by */
        cJSON_AddStringToObject(c, "suite_file", s->suite);
    cJSON_AddStringToObject(c, "variant", d->p->label);
    cJSON_AddStringToObject(c, "check", s->name);
    cJSON_AddStringToObject(c, "shape", d->r.shape);
    cJSON_AddStringToObject(c, "verdict", cdb_verdict_name(d->r.verdict));
    cJSON_AddStringToObject(c, "expected", d->p->expect_fail ? "fail" : "pass");
    cJSON_AddBoolToObject(c, "expectation_met", d->met);
    cJSON_AddStringToObject(c, "detail", d->r.detail);
    cJSON_AddStringToObject(c, "oracle", d->r.oracle);
    if (d->r.defect[0]) /* what the kernel was shown to do wrong, apart from its values */
        cJSON_AddStringToObject(c, "defect", d->r.defect);
    cJSON_AddStringToObject(c, "mode", eng_mode_name(s->mode));
    if (s->lag) { /* a lag copy (engine/plan.h): the build's KL_LAG seed and its mode */
        cJSON_AddNumberToObject(c, "lag", eng_lag_seed(s->lag));
        cJSON_AddStringToObject(c, "lag_mode", eng_lag_is_ahead(s->lag) ? "ahead" : "behind");
    }
    cJSON *t = cJSON_AddObjectToObject(c, "time_us");
    eng_json_add_number(t, "median", d->r.t_med_us);
    eng_json_add_number(t, "min", d->r.t_min_us);
    eng_json_add_number(t, "max", d->r.t_max_us);
    if (d->r.first_bad >= 0)
        cJSON_AddNumberToObject(c, "first_bad", (double)d->r.first_bad);
    else
        cJSON_AddNullToObject(c, "first_bad");
    if (d->r.bad_count >= 0)
        cJSON_AddNumberToObject(c, "bad_count", (double)d->r.bad_count);
    else
        cJSON_AddNullToObject(c, "bad_count");
    eng_json_add_number(c, "max_err", d->r.max_err);
    cJSON_AddNumberToObject(c, "repeats", d->r.repeats);
    if (d->r.score.set)
        eng_json_add_score(c, &d->r.score);
    /* what N equal repeats prove: a per-run failure rate this high or higher is ruled out */
    if (d->p->confidence > 0 && d->r.verdict == CDB_PASS && d->r.repeats > 0) {
        cJSON *ro = cJSON_AddObjectToObject(c, "rules_out");
        cJSON_AddNumberToObject(ro, "rate", eng_plan_rate_ruled_out(d->r.repeats, d->p->confidence));
        cJSON_AddNumberToObject(ro, "confidence", d->p->confidence);
    }
    cJSON_AddNumberToObject(c, "limit_s", d->limit_s);
    cJSON_AddNumberToObject(c, "elapsed_s", round(d->elapsed_s * 1000) / 1000);
    return c;
}

static int json_end(struct eng_reporter *r, const struct eng_run_info *run,
                    const struct eng_summary *s, const struct eng_done *checks, size_t n)
{
    (void)r;
    cJSON *rep = cJSON_CreateObject();
    cJSON_AddStringToObject(rep, "run_id", run->uuid);
    cJSON_AddStringToObject(rep, "verdict", eng_summary_verdict_name(s));
    cJSON_AddBoolToObject(rep, "expectation_met", s->met);
    if (run->suite) /* the manifest's name, as its checks say it */
        cJSON_AddStringToObject(rep, "suite", run->suite);
    if (s->control_checks) {
        cJSON_AddNumberToObject(rep, "control_checks", s->control_checks);
        cJSON_AddNumberToObject(rep, "false_alarms", s->false_alarms);
    }
    cJSON_AddNumberToObject(rep, "doubts", s->doubts);
    if (s->defect[0])
        cJSON_AddStringToObject(rep, "defect", s->defect);
    if (s->escaped[0])
        cJSON_AddStringToObject(rep, "buggy_not_caught", s->escaped);
    if (s->inconclusive[0])
        cJSON_AddStringToObject(rep, "inconclusive", s->inconclusive);
    if (s->none_executed[0])
        cJSON_AddStringToObject(rep, "none_executed", s->none_executed);
    cJSON_AddNumberToObject(rep, "executed", s->executed);
    if (run->worker_exit[0])
        cJSON_AddStringToObject(rep, "worker_exit", run->worker_exit);
    cJSON_AddStringToObject(rep, "started", run->started);
    cJSON_AddStringToObject(rep, "finished", run->finished);
    cJSON_AddStringToObject(rep, "schedule", eng_schedule_name(run->schedule));
    cJSON_AddItemToObject(rep, "machine", imp_machine_json(&run->mach.m));
    /* a user's own suite: which rungs caught the bug, and whether its unit test already does
     * (reported, not an unmet expectation: such a suite declares nothing of either) */
    struct eng_user_catch *u;
    size_t nu = eng_user_suite_catches(checks, n, &u);
    if (nu) {
        cJSON *us = cJSON_AddArrayToObject(rep, "user_suites");
        for (size_t i = 0; i < nu; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "suite", u[i].suite);
            cJSON *by = cJSON_AddArrayToObject(o, "caught_by");
            for (int k = 0; k < ENG_RUNG_SLOTS; k++) {
                if (!u[i].checks[k])
                    continue;
                cJSON *rc = cJSON_CreateObject();
                cJSON_AddNumberToObject(rc, "rung", k);
                cJSON_AddNumberToObject(rc, "caught", u[i].caught[k]);
                cJSON_AddNumberToObject(rc, "checks", u[i].checks[k]);
                cJSON_AddNumberToObject(rc, "skipped", u[i].skipped[k]);
                cJSON_AddItemToArray(by, rc);
            }
            if (u[i].base) {
                cJSON *b = cJSON_AddObjectToObject(o, "unit_test");
                cJSON_AddBoolToObject(b, "catches", u[i].base_caught > 0);
                cJSON_AddNumberToObject(b, "caught", u[i].base_caught);
                cJSON_AddNumberToObject(b, "shapes", u[i].base);
            }
            cJSON_AddItemToArray(us, o);
        }
    }
    free(u);
    /* why some checks were judged against the reference alone, each reason once */
    struct eng_arbiter_note *a;
    size_t na = eng_no_arbiter_notes(checks, n, &a);
    if (na) {
        cJSON *arr = cJSON_AddArrayToObject(rep, "no_arbiter");
        for (size_t i = 0; i < na; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "why", a[i].why);
            cJSON_AddNumberToObject(o, "checks", a[i].checks);
            cJSON_AddItemToArray(arr, o);
        }
    }
    free(a);
    cJSON *arr = cJSON_AddArrayToObject(rep, "checks");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, eng_report_check_json(&checks[i]));
    char *t = cJSON_Print(rep);
    printf("%s\n", t);
    fflush(stdout);
    free(t);
    cJSON_Delete(rep);
    return 0;
}

static void json_free(struct eng_reporter *r) { free(r); }

struct eng_reporter *eng_report_json(void)
{
    struct eng_reporter *r = xcalloc(1, sizeof *r);
    r->end = json_end;
    r->free = json_free;
    return r;
}
