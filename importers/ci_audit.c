/* The zero-test audit (importers/ci_audit.h). */
#include "importers/ci_audit.h"

#include <string.h>

static long executed(const struct ci_suite *s)
{
    return s->tests - s->skipped;
}

/* Executed tests of the suite called name over the reports, and whether any report has it. */
static long suite_executed(struct ci_report *const *r, size_t n, const char *name, int *present)
{
    long e = 0;
    *present = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < r[i]->nsuites; k++)
            if (strcmp(r[i]->suites[k].name, name) == 0) {
                e += executed(&r[i]->suites[k]);
                *present = 1;
            }
    return e;
}

static const char *pytest_status_meaning(int st)
{
    switch (st) {
    case 2: return "interrupted";
    case 3: return "internal error";
    case 4: return "usage error";
    case 5: return "no tests were collected";
    default: return NULL;
    }
}

size_t ci_audit(struct ci_report *const *reports, size_t n, const struct ci_audit_opts *o,
                FILE *out)
{
    size_t findings = 0;
    long tests = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ci_report *r = reports[i];
        long t = 0, k = 0, f = 0;
        for (size_t s = 0; s < r->nsuites; s++)
            t += r->suites[s].tests, k += r->suites[s].skipped, f += r->suites[s].failed;
        fprintf(out, "%s: %s, %zu suite%s, %ld test%s, %ld skipped, %ld failed: %ld executed",
                r->path, r->junit ? "JUnit XML" : "pytest log", r->nsuites,
                r->nsuites == 1 ? "" : "s", t, t == 1 ? "" : "s", k, f, t - k);
        if (r->exit_status >= 0)
            fprintf(out, "; exit status %d", r->exit_status);
        fputc('\n', out);
        tests += t, skipped += k;
        const char *why = r->junit ? NULL : pytest_status_meaning(r->exit_status);
        if (why) {
            fprintf(out, "FAIL %s: pytest exit status %d: %s\n", r->path, r->exit_status, why);
            findings++;
        }
    }
    long run = tests - skipped;
    if (tests == 0) {
        fprintf(out, "FAIL zero tests executed in %zu report%s\n", n, n == 1 ? "" : "s");
        findings++;
    } else if (run == 0) {
        fprintf(out, "FAIL every test was skipped (%ld skipped, none executed)\n", skipped);
        findings++;
    } else if (run < o->min_tests) {
        fprintf(out, "FAIL %ld test%s executed, fewer than --min-tests %ld\n", run,
                run == 1 ? "" : "s", o->min_tests);
        findings++;
    }
    /* Each suite of the baseline, once (a name may recur across its reports). */
    for (size_t b = 0; b < o->nbaseline; b++)
        for (size_t s = 0; s < o->baseline[b]->nsuites; s++) {
            const char *name = o->baseline[b]->suites[s].name;
            int seen = 0, present;
            for (size_t pb = 0; pb <= b && !seen; pb++)
                for (size_t ps = 0; ps < (pb == b ? s : o->baseline[pb]->nsuites); ps++)
                    if (strcmp(o->baseline[pb]->suites[ps].name, name) == 0)
                        seen = 1;
            if (seen)
                continue;
            long before = suite_executed(o->baseline, o->nbaseline, name, &present);
            long now = suite_executed(reports, n, name, &present);
            if (now < before) {
                fprintf(out, "FAIL suite %s shrank: %ld executed, the baseline had %ld%s\n",
                        name, now, before, present ? "" : " (the suite is missing)");
                findings++;
            }
        }
    if (findings)
        fprintf(out, "ci-audit: FAIL (%zu finding%s)\n", findings, findings == 1 ? "" : "s");
    else
        fprintf(out, "ci-audit: ok (%ld test%s executed)\n", run, run == 1 ? "" : "s");
    return findings;
}
