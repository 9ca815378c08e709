/* Test reports a CI job leaves behind, read for one question: how many tests really ran.
 *
 * Two forms are read. JUnit XML (importers/ci_junit.c): <testsuites>, <testsuite> and
 * <testcase> elements, a testcase with a <skipped> child being skipped; it is parsed with expat
 * as a stream, so a report is never held whole, and hostile input is refused, not trusted: a
 * DOCTYPE (and with it every entity declaration, the billion-laughs bomb), nesting deeper than
 * CI_XML_MAX_DEPTH, files over CI_REPORT_MAX_BYTES, a count attribute that is not a whole number,
 * or a suite whose tests="N" disagrees with the testcases it holds. A pytest console log
 * (importers/ci_pytest.c): the final summary line ("=== 3 passed, 1 skipped in 0.2s ===",
 * "no tests ran in 0.01s") and an exit status line ("exit status 5", "exit code 5",
 * "Process completed with exit code 5."); pytest's 5 means no test was collected.
 *
 * Every string kept (suite names) is sanitised: no control character reaches a terminal. */
#ifndef KL_IMPORTERS_CI_REPORT_H
#define KL_IMPORTERS_CI_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CI_REPORT_MAX_BYTES ((size_t)256 << 20)
#define CI_XML_MAX_DEPTH 32

struct ci_suite {
    char *name;            /* innermost <testsuite name>, or the log's file name */
    long tests;            /* testcases (JUnit) or outcomes on the summary line (pytest) */
    long skipped;          /* of those, skipped (xfail counts as run: it executed) */
    long failed;           /* failures and errors */
};

struct ci_report {
    char *path;
    bool junit;            /* false: a pytest log */
    int exit_status;       /* from a log's exit line, -1 when it has none */
    size_t nsuites;
    struct ci_suite *suites; /* in file order; one entry per distinct name */
};

/* Reads one report, telling the forms apart by the first non-blank byte ('<' is XML).
 * Returns a report to free with ci_report_free, or NULL with "PATH: line N: what was expected"
 * in err. */
struct ci_report *ci_report_read(const char *path, char *err, size_t errlen);
void ci_report_free(struct ci_report *r);

/* The two readers behind it. They fill r->suites (and r->exit_status); 0, or -1 with a message
 * naming r->path. The XML reader streams f in chunks (at most CI_REPORT_MAX_BYTES in all); the
 * log reader takes text in memory (len bytes, NUL-terminated). */
int ci_junit_read(struct ci_report *r, FILE *f, char *err, size_t errlen);
int ci_pytest_parse(struct ci_report *r, const char *text, size_t len, char *err, size_t errlen);

/* Adds n tests (k skipped, f failed) to the suite called name, creating it at the end. */
void ci_report_add(struct ci_report *r, const char *name, long n, long k, long f);

#endif
