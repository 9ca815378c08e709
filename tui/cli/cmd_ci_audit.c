/* kladder ci-audit REPORT... [--min-tests N] [--baseline FILE]...
 *
 * Fails a CI job whose test reports show that nothing (or less than before) ran; the rules are
 * in importers/ci_audit.h, the accepted report forms in importers/ci_report.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "importers/ci_audit.h"
#include "tui/cli/cli.h"

static void print_help(void)
{
    printf("usage: kladder ci-audit REPORT... [--min-tests N] [--baseline FILE]...\n\n"
           "Reads test reports (JUnit XML, or a pytest console log with its summary line and\n"
           "exit status) and fails when zero tests executed, every test was skipped, fewer than\n"
           "N executed (default 1), pytest exited 5 (no tests collected) or 2-4, or a suite\n"
           "executed fewer tests than in the --baseline reports (an earlier good run).\n"
           "Exit 0 when the audit passes, 1 when it fails, 2 when a report cannot be read.\n");
}

static void free_all(struct ci_report **r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ci_report_free(r[i]);
    free(r);
}

int cmd_ci_audit(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    struct ci_report **reports = xcalloc((size_t)argc, sizeof *reports);
    struct ci_report **base = xcalloc((size_t)argc, sizeof *base);
    size_t nrep = 0, nbase = 0;
    struct ci_audit_opts o = {.min_tests = 1};
    int status = 2;
    char err[1024];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            status = 0;
            goto done;
        } else if ((strcmp(a, "--min-tests") == 0 || strcmp(a, "--baseline") == 0) && !v) {
            status = cli_usage_error("ci-audit", "%s expects a value", a);
            goto done;
        } else if (strcmp(a, "--min-tests") == 0) {
            int m;
            if (!cli_parse_int("ci-audit", a, v, 1, 100000000, &m))
                goto done;
            o.min_tests = m, i++;
        } else if (strcmp(a, "--baseline") == 0) {
            if (!(base[nbase] = ci_report_read(v, err, sizeof err))) {
                fprintf(stderr, "kladder ci-audit: %s\n", err);
                goto done;
            }
            nbase++, i++;
        } else if (a[0] == '-' && a[1] == '-') {
            status = cli_usage_error("ci-audit", "unknown option '%s'", a);
            goto done;
        } else {
            if (!(reports[nrep] = ci_report_read(a, err, sizeof err))) {
                fprintf(stderr, "kladder ci-audit: %s\n", err);
                goto done;
            }
            nrep++;
        }
    }
    if (nrep == 0) {
        status = cli_usage_error("ci-audit", "give at least one REPORT");
        goto done;
    }
    o.baseline = base;
    o.nbaseline = nbase;
    status = ci_audit(reports, nrep, &o, stdout) ? 1 : 0;
done:
    free_all(reports, nrep);
    free_all(base, nbase);
    return status;
}
