/* The text report on stdout: a header when the run starts, every check with its verdict and
 * what was expected of it, and the run's verdict at the end; of an interrupted run, the checks
 * that ran and "cancelled", nothing more. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "engine/report/report.h"

static void text_start(struct eng_reporter *r, const struct eng_run_info *run)
{
    (void)r;
    const struct eng_machine *m = &run->mach;
    printf("kladder run %s: %zu checks on %s (%s, %s, wave %d)%s%s\n", run->uuid, run->total,
           m->backend, m->info.name, m->target, run->wave, run->emulated ? ", schedule " : "",
           run->emulated ? eng_schedule_name(run->schedule) : "");
    if (run->emulated)
        printf("the cpu backend emulates a GPU: it is slow, and checks beyond its reach are "
               "skipped with the reason\n");
    fflush(stdout);
}

/* One rung's share of a user suite's checks: "rung 1 (2 of 3 checks)", with the skipped ones
 * when some could not run here ("rung 2 (0 of 4 checks, 3 skipped here)"). */
static size_t rung_share(char *buf, size_t len, size_t size, const struct eng_user_catch *u, int r)
{
    if (len >= size)
        return len;
    int w = snprintf(buf + len, size - len, "%srung %d (%d of %d checks", len ? ", " : "", r,
                     u->caught[r], u->checks[r]);
    len += w > 0 ? (size_t)w : 0;
    if (u->skipped[r] && len < size) {
        w = snprintf(buf + len, size - len, ", %d skipped here", u->skipped[r]);
        len += w > 0 ? (size_t)w : 0;
    }
    if (len < size) {
        w = snprintf(buf + len, size - len, ")");
        len += w > 0 ? (size_t)w : 0;
    }
    return len;
}

/* For each user's own suite of the run (not a reproducer: it states no expectation of its
 * buggy variant), the rungs that caught it, those that did not, and whether the plain unit
 * test already does: "my-op: the bug is caught by rung 1 (2 of 3 checks); not by rung 5 (0 of
 * 5 checks); the plain unit test catches it too (1 of 1 shapes)". An answer, not a verdict. */
static void user_suite_lines(const struct eng_done *checks, size_t n)
{
    struct eng_user_catch *u;
    size_t nu = eng_user_suite_catches(checks, n, &u);
    for (size_t i = 0; i < nu; i++) {
        char caught[400] = "", missed[400] = "";
        size_t lc = 0, lm = 0;
        for (int r = 0; r < ENG_RUNG_SLOTS; r++) {
            if (u[i].caught[r])
                lc = rung_share(caught, lc, sizeof caught, &u[i], r);
            else if (u[i].checks[r])
                lm = rung_share(missed, lm, sizeof missed, &u[i], r);
        }
        int skipped = 0;
        for (int r = 0; r < ENG_RUNG_SLOTS; r++)
            skipped += u[i].skipped[r];
        if (!caught[0] && !missed[0]) {
            /* no rung's check of it ran (skipped here, or none planned): no answer, not "no
             * rung catches it" */
            printf("%s: no rung's check of the bug ran here", u[i].suite);
            if (skipped)
                printf(" (%d skipped)", skipped);
            printf(", so this run cannot say which rung catches it");
        } else
        printf("%s: the bug %s%s", u[i].suite, caught[0] ? "is caught by " : "is caught by no rung",
               caught);
        if (caught[0] && missed[0])
            printf("; not by %s", missed);
        else if (missed[0])
            printf(" (%s)", missed);
        if (u[i].base)
            printf("; the plain unit test %s (%d of %d shapes)", u[i].base_caught ? "catches it too" :
                   "does not catch it", u[i].base_caught, u[i].base);
        printf("\n");
    }
    free(u);
}

/* Why some failures were judged against the reference alone, once per reason instead of in
 * every finding: what a user does about it is one edit of the reference, not one per check. */
static void arbiter_lines(const struct eng_done *checks, size_t n)
{
    struct eng_arbiter_note *a;
    size_t na = eng_no_arbiter_notes(checks, n, &a);
    for (size_t i = 0; i < na; i++) {
        char *why = text_sanitize(a[i].why, false);
        printf("judged against the reference alone (%d check%s): nothing wider told the kernel's "
               "error from the reference's own rounding, because %s\n", a[i].checks,
               a[i].checks == 1 ? "" : "s", why);
        free(why);
    }
    free(a);
}

static int text_end(struct eng_reporter *rep, const struct eng_run_info *run,
                    const struct eng_summary *s, const struct eng_done *checks, size_t n)
{
    (void)rep;
    size_t ran = 0;
    for (size_t i = 0; i < n; i++) {
        const struct eng_done *d = &checks[i];
        /* what an interruption stopped is not a finding: the last line says it once */
        if (d->r.verdict == CDB_CANCELLED)
            continue;
        ran++;
        char t[32] = "";
        if (!isnan(d->r.t_med_us))
            snprintf(t, sizeof t, "%10.1f us", d->r.t_med_us);
        /* a value too long for its column is cut with an ellipsis, never silently: a shape
         * "first_slot=3727246" must not read as "first_slot=3" */
        char *label = text_fit_pad(d->p->label, 15, false);
        char *name = text_fit_pad(d->p->spec.name, 34, false);
        char *shape = text_fit_pad(d->r.shape, 32, false);
        printf("%-6s %s r%d %s %s %s%s\n", cdb_verdict_name(d->r.verdict), label,
               d->p->spec.rung, name, shape, t,
               d->p->control && !d->met
                   ? "  (FALSE ALARM: a control suite's variants are all correct)"
               : d->p->expect_fail && (d->r.verdict == CDB_FAIL || d->r.verdict == CDB_HANG ||
                                       d->crashed)
                   ? "  (expected)"
               : d->met && d->p->spec.baseline && d->r.verdict != CDB_PASS &&
                       d->r.verdict != CDB_SKIP && d->r.verdict != CDB_DOUBT
                   ? "  (the plain unit test catches it)"
               : d->r.verdict == CDB_DOUBT ? "  (IN DOUBT: the oracle, not the kernel; not a catch)"
                   : d->p->expect_fail && d->r.verdict == CDB_PASS ? "  (not reached here)"
                   : d->met                                       ? ""
                                                                  : "  (UNEXPECTED)");
        free(label);
        free(name);
        free(shape);
        /* a suite that declares the schedule its rare race needs runs it there, not under the
         * run's schedule of the header line */
        if (d->p->pct_added)
            printf("       under the pct schedule with seed %llu, which rung %d adds on this backend\n",
                   (unsigned long long)d->p->spec.seed, d->p->spec.rung);
        else if (run->emulated && !d->p->spec.baseline && d->p->spec.schedule != run->schedule)
            printf("       under the %s schedule, the suite's own for rung %d\n",
                   eng_schedule_name(d->p->spec.schedule), d->p->spec.rung);
        if (d->p->confidence > 0 && d->r.verdict == CDB_PASS && d->r.repeats > 0)
            printf("       %d repeats equal to the first run: rules out a failure rate of %.3g or "
                   "more per run at %g%% confidence\n",
                   d->r.repeats, eng_plan_rate_ruled_out(d->r.repeats, d->p->confidence),
                   d->p->confidence * 100);
        /* a pass says how: a score how close it came, a sampled pass that it judged part of
         * the output */
        if (d->r.detail[0] && (d->r.verdict != CDB_PASS || d->p->spec.e2e || d->p->spec.model ||
                               strstr(d->r.oracle, "(sampled)") ||
                               strstr(d->r.detail, ENG_RACE_PARTIAL))) {
            /* a compiler's log keeps its lines, each indented under the check's */
            char *detail = text_sanitize(d->r.detail, true);
            size_t len = strlen(detail);
            while (len && detail[len - 1] == '\n')
                detail[--len] = '\0';
            for (char *line = detail, *nl; line; line = nl ? nl + 1 : NULL) {
                nl = strchr(line, '\n');
                if (nl)
                    *nl = '\0';
                printf("       %s\n", line);
            }
            free(detail);
        }
    }
    if (s->verdict == CDB_CANCELLED) {
        printf("\ncancelled: the run was interrupted after %zu of %zu checks; nothing is "
               "judged\n", ran, run->total);
        fflush(stdout);
        return 0;
    }
    /* a defect of the variant the run vouches for is what a reader must see first */
    if (s->defect[0]) {
        char *defect = text_sanitize(s->defect, false);
        printf("\nDEFECT: %s\n", defect);
        free(defect);
    }
    if (s->executed == 0 && s->is_inconclusive) /* counts of nothing would read as failures */
        printf("\nINCONCLUSIVE: no check could run here, so nothing was tested, neither pass nor "
               "fail (exit 1); %d skipped\n", s->skipped);
    else
    printf("%s%s: baseline %d/%d passed, fixed %d/%d passed, buggy caught by %d of %d checks%s%s; "
           "%d skipped\n", s->defect[0] ? "" : "\n",
           s->met ? "expectation met" : s->in_doubt ? "IN DOUBT (not a pass)"
           : s->is_inconclusive ? "INCONCLUSIVE" : "EXPECTATION NOT MET",
           s->base_ok, s->base_total,
           s->fixed_ok, s->fixed_total, s->buggy_caught, s->buggy_total,
           s->escaped[0] ? "; not caught: " : "", s->escaped, s->skipped);
    user_suite_lines(checks, n);
    arbiter_lines(checks, n);
    if (s->doubts)
        printf("in doubt: %d checks: an oracle could not vouch either way (the reference breaks its "
               "own bound, only rows past the contract's domain differ, or the fixed and the buggy variant "
               "fail a check the same way on values alone); none counts as a catch "
               "or a failure, and each check's detail says what would settle it%s\n", s->doubts,
               s->in_doubt ? "; the run's verdict is doubt (exit 3)" : "");
    if (s->false_alarms)
        printf("control suite: %d of %d checks failed although every variant is correct: false "
               "alarms of the harness (check the tolerance, the inputs, the device)\n",
               s->false_alarms, s->control_checks);
    else if (s->control_checks)
        printf("control suite: no false alarm in %d checks: the harness judged every correct "
               "variant correct\n",
               s->control_checks);
    if (s->none_executed[0])
        printf("no check executed (every one was skipped; nothing was tested): %s\n",
               s->none_executed);
    if (run->worker_exit[0])
        printf("%s\n", run->worker_exit);
    /* last, so that the line a script or a person reads first says what the run proved */
    if (s->inconclusive[0])
        printf("inconclusive (the checks that reach the bug were skipped here, so the run proves "
               "nothing about it; exit 1): %s\n",
               s->inconclusive);
    fflush(stdout);
    return 0;
}

static void text_free(struct eng_reporter *r) { free(r); }

struct eng_reporter *eng_report_text(void)
{
    struct eng_reporter *r = xcalloc(1, sizeof *r);
    r->start = text_start;
    r->end = text_end;
    r->free = text_free;
    return r;
}
