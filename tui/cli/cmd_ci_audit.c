/* kladder ci-audit REPORT... [--min-tests N] [--baseline FILE]...
 *
 * Fails a CI job whose test reports show that nothing (or less than before) ran; the rules are
 * in importers/ci_audit.h, the accepted report forms in importers/ci_report.h. */
#include <stdio.h>
#include <stdlib.h>

#include "common/xalloc.h"
#include "importers/ci_audit.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"REPORT... %o", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Reads test reports (JUnit XML, or a pytest console log with its summary line and\n"
           "exit status) and fails when zero tests executed, every test was skipped, fewer than\n"
           "N executed (default 1), pytest exited 5 (no tests collected) or 2-4, or a suite\n"
           "executed fewer tests than in the --baseline reports (an earlier good run).\n"
           "Exit 0 when the audit passes, 1 when it fails, 2 when a report cannot be read.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

static void free_all(struct ci_report **r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ci_report_free(r[i]);
    free(r);
}

/* The reports read so far, each read as its argument is reached: a report that cannot be read
 * stops the verb there. */
struct reports {
    struct ci_report **v;
    size_t n;
};

static int take_report(const struct cli_opt *opt, const char *path, void *ctx)
{
    (void)ctx;
    struct reports *r = opt->dest;
    char err[1024];
    if (!(r->v[r->n] = ci_report_read(path, err, sizeof err))) {
        fprintf(stderr, "kladder ci-audit: %s\n", err);
        return 2;
    }
    r->n++;
    return CLI_PARSED;
}

int cmd_ci_audit(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    struct reports reports = {xcalloc((size_t)argc, sizeof *reports.v), 0};
    struct reports base = {xcalloc((size_t)argc, sizeof *base.v), 0};
    struct ci_audit_opts o = {.min_tests = 1};
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_LONG_DOC("--min-tests", &o.min_tests, 1, 100000000, "N",
                         "fail when fewer than N tests executed (default 1)"),
        CLI_OPT_CALL_DOC("--baseline", &base, take_report, "FILE",
                         "a report of an earlier good run: fail a suite that executed fewer tests "
                         "now (repeatable)"),
    };
    /* a report may be named "-" or "-x": only "--..." is an option */
    const struct cli_parser p = {.verb = "ci-audit", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_CALL(NULL, &reports, take_report),
                                 .long_only = true};
    int status = cli_parse(&p, argc, argv, NULL);
    if (status == CLI_PARSED && reports.n == 0) {
        status = cli_usage_error("ci-audit", "give at least one REPORT");
    } else if (status == CLI_PARSED) {
        o.baseline = base.v;
        o.nbaseline = base.n;
        status = ci_audit(reports.v, reports.n, &o, stdout) ? 1 : 0;
    }
    free_all(reports.v, reports.n);
    free_all(base.v, base.n);
    return status;
}
