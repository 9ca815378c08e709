/* JUnit XML (`kladder run --junit FILE`), for CI systems: one testcase per check, one that
 * fails when a buggy variant escaped its rung and one that fails when no check executed. Written
 * atomically when the run ends. It tells the run's story: a testcase fails exactly where the
 * text report says UNEXPECTED, so a run that exits 0 has no failure here. A buggy check that did
 * not reach the bug passes ("not reached here"); a bug no check of its rung reached fails
 * buggy-variants-caught. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "engine/report/report.h"

struct junit {
    struct eng_reporter base;
    char *path;
};

void eng_xml_escaped(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* XML 1.0 forbids most control characters even as references. */
            if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
                fputc('?', f);
            else
                fputc(c, f);
        }
    }
}

static int junit_end(struct eng_reporter *rep, const struct eng_run_info *run,
                     const struct eng_summary *s, const struct eng_done *checks, size_t n)
{
    const char *path = ((struct junit *)rep)->path;
    char *tmp = xasprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "kladder run: cannot write %s\n", path);
        free(tmp);
        return -1;
    }
    int failures = 0, errors = 0, skipped = 0;
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        const struct eng_done *d = &checks[i];
        if (!d->met && (d->r.verdict == CDB_ERROR || d->r.verdict == CDB_CANCELLED))
            errors++;
        else if (!d->met || d->r.verdict == CDB_DOUBT)
            failures++;
        skipped += d->r.verdict == CDB_SKIP;
        if (!isnan(d->r.t_med_us))
            total += d->r.t_med_us / 1e6;
    }
    failures += s->escaped[0] != '\0' || s->inconclusive[0] != '\0';
    failures += s->none_executed[0] != '\0';
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    fprintf(f, "  <testsuite name=\"kladder\" tests=\"%zu\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" "
               "time=\"%.6f\" timestamp=\"",
            n + 2, failures, errors, skipped, total);
    eng_xml_escaped(f, run->started);
    fprintf(f, "\" hostname=\"");
    eng_xml_escaped(f, run->mach.m.host);
    fprintf(f, "\">\n");
    for (size_t i = 0; i < n; i++) {
        const struct eng_done *d = &checks[i];
        const struct eng_check_spec *sp = &d->p->spec;
        fprintf(f, "    <testcase classname=\"");
        eng_xml_escaped(f, eng_planned_suite(d->p));
        fprintf(f, ".%s\" name=\"rung%d.", d->p->label, sp->rung);
        eng_xml_escaped(f, sp->name);
        fprintf(f, "\" time=\"%.6f\">\n", isnan(d->r.t_med_us) ? 0.0 : d->r.t_med_us / 1e6);
        if (d->r.verdict == CDB_SKIP) {
            fprintf(f, "      <skipped message=\"");
            eng_xml_escaped(f, d->r.detail);
            fprintf(f, "\"/>\n");
        } else if (d->r.verdict == CDB_DOUBT) {
            /* JUnit has no word for doubt, and a skip reads as green to CI while the run
             * exits 3: a failure of its own type, saying what would settle it */
            fprintf(f, "      <failure type=\"doubt\" message=\"in doubt: ");
            eng_xml_escaped(f, d->r.detail);
            fprintf(f, "\">");
            eng_xml_escaped(f, d->r.detail);
            fprintf(f, "</failure>\n");
        } else if (d->r.verdict == CDB_CANCELLED) { /* not run: the run was interrupted */
            fprintf(f, "      <error message=\"cancelled\">");
            eng_xml_escaped(f, d->r.detail);
            fprintf(f, "</error>\n");
        } else if (!d->met) {
            fprintf(f, "      <%s message=\"%s (expected %s)\">", d->r.verdict == CDB_ERROR ? "error" : "failure",
                    cdb_verdict_name(d->r.verdict), d->p->expect_fail ? "fail" : "pass");
            eng_xml_escaped(f, d->r.detail);
            fprintf(f, "</%s>\n", d->r.verdict == CDB_ERROR ? "error" : "failure");
        }
        fprintf(f, "      <system-out>verdict: %s, expected: %s%s; ", cdb_verdict_name(d->r.verdict),
                d->p->expect_fail ? "fail" : "pass",
                d->p->expect_fail && d->r.verdict == CDB_PASS ? " (not reached here)" : "");
        eng_xml_escaped(f, d->r.shape);
        fprintf(f, "; ");
        eng_xml_escaped(f, d->r.detail);
        if (strcmp(sp->suite, eng_planned_suite(d->p)) != 0) { /* the manifest file, a detail */
            fprintf(f, "; suite file: ");
            eng_xml_escaped(f, sp->suite);
        }
        fprintf(f, "</system-out>\n    </testcase>\n");
    }
    fprintf(f, "    <testcase classname=\"kladder\" name=\"buggy-variants-caught\" time=\"0\">\n");
    if (s->escaped[0]) {
        fprintf(f, "      <failure message=\"buggy variant not caught\">");
        eng_xml_escaped(f, s->escaped);
        fprintf(f, "</failure>\n");
    } else if (s->inconclusive[0]) {
        /* not shown either way is not green */
        fprintf(f, "      <failure message=\"inconclusive: the checks that reach the bug were skipped\">");
        eng_xml_escaped(f, s->inconclusive);
        fprintf(f, "</failure>\n");
    }
    fprintf(f, "    </testcase>\n");
    /* A run whose every check was skipped must not read as green to whatever reads this file. */
    fprintf(f, "    <testcase classname=\"kladder\" name=\"checks-executed\" time=\"0\">\n");
    if (s->none_executed[0]) {
        fprintf(f, "      <failure message=\"no check executed\">");
        eng_xml_escaped(f, s->none_executed);
        fprintf(f, "</failure>\n");
    }
    fprintf(f, "    </testcase>\n  </testsuite>\n</testsuites>\n");
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "kladder run: cannot write %s\n", path);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

static void junit_free(struct eng_reporter *r)
{
    free(((struct junit *)r)->path);
    free(r);
}

struct eng_reporter *eng_report_junit(const char *path)
{
    struct junit *j = xcalloc(1, sizeof *j);
    j->path = xstrdup(path);
    j->base.end = junit_end;
    j->base.free = junit_free;
    return &j->base;
}
