/* kladder report RUN [--format md|html] [--out FILE]: a recorded run written up for an issue
 * tracker (tui/run_report.h says what is in it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "common/fileio.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"
#include "tui/run_report.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"RUN_ID %o", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Writes up one recorded run (a UUID or its first 4+ characters, see kladder results)\n"
           "to paste into an issue or attach to a bug: the case and its gap, the machine's\n"
           "fingerprint, the command that reproduces the run (for a suite of one's own, with a\n"
           "script that writes its manifest and kernel source into a new folder and reruns it\n"
           "there), each failing check (shape, value class, seam, first bad element, and the\n"
           "fixed variant's result beside it) and every check's timings with their spread. --format md (the default) is Markdown that renders\n"
           "on GitHub; html is one self-contained page with nothing to fetch, so it opens\n"
           "offline. --out writes FILE atomically instead of printing. In the TUI, y on a run\n"
           "copies the Markdown.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

static int take_format(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    enum tui_report_format *fmt = opt->dest;
    if (!strcmp(v, "md") || !strcmp(v, "markdown"))
        *fmt = TUI_REPORT_MD;
    else /* html: the parser took only the choices */
        *fmt = TUI_REPORT_HTML;
    return CLI_PARSED;
}

int cmd_report(int argc, char **argv, const struct cli_global *g)
{
    const char *id = NULL, *out_path = NULL;
    enum tui_report_format fmt = TUI_REPORT_MD;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_CALL_CHOICE_DOC("--format", &fmt, take_format,
                                CLI_WORDS("md", "html", "markdown"),
                         "md (default): Markdown that renders on GitHub; html: one "
                         "self-contained page that opens offline"),
        CLI_OPT_STRING_DOC("--out", &out_path, "FILE", "write FILE atomically instead of printing"),
    };
    const struct cli_parser p = {.verb = "report", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_STRING(NULL, &id)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc != CLI_PARSED)
        return rc;
    if (!id)
        return cli_usage_error("report", "which run? (kladder results lists them)");
    struct cdb *db = cli_open_db(g);
    if (!db)
        return 2;
    /* written to memory first, so --out replaces the file whole or not at all */
    char *doc = NULL, err[1024];
    size_t len = 0;
    FILE *mem = open_memstream(&doc, &len);
    if (!mem) {
        cdb_close(db);
        fprintf(stderr, "kladder report: out of memory\n");
        return 2;
    }
    rc = tui_run_report(db, id, fmt, mem, err, sizeof err);
    fclose(mem);
    cdb_close(db);
    if (rc != 0) {
        fprintf(stderr, "kladder report: %s\n", err);
        free(doc);
        return 2;
    }
    if (out_path) {
        rc = file_write_atomic(out_path, doc, len, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "kladder report: %s\n", err);
    } else if (fwrite(doc, 1, len, stdout) != len || fflush(stdout) != 0) {
        rc = -1;
        fprintf(stderr, "kladder report: cannot write the report to stdout\n");
    }
    free(doc);
    return rc == 0 ? 0 : 2;
}
