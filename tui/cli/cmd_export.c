/* kladder export [--since RUN_ID|TIME] [--all] [--out FILE] */
#include <stdio.h>
#include <stdlib.h>

#include "casedb/cdb.h"
#include "common/fileio.h"
#include "importers/results_json.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static void print_help(const struct cli_parser *p)
{
    cli_print_usage(stdout, p, NULL);
    printf("\n"
           "Writes the finished runs made here, their checks and machines as one versioned JSON\n"
           "document (format kladder-results, version 1) that `kladder pull` reads on another\n"
           "host. --since keeps runs recorded after RUN_ID (or its first 4+ characters, as\n"
           "`kladder results` takes it), or finished at or after TIME (2026-11-29T08:51:17Z\n"
           "or 2026-11-29). --all also exports runs pulled from other\n"
           "hosts. --out writes FILE atomically (a reader never sees half a document); the\n"
           "default is standard output.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

int cmd_export(int argc, char **argv, const struct cli_global *g)
{
    struct imp_export_opts o = {0};
    const char *out = NULL;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_FLAG_DOC("--all", &o.include_pulled, "also export runs pulled from other hosts"),
        CLI_OPT_STRING_DOC("--since", &o.since, "RUN_ID|TIME",
                           "runs recorded after RUN_ID (4+ characters), or finished at or after "
                           "TIME (2026-11-29T08:51:17Z or 2026-11-29)"),
        CLI_OPT_STRING_DOC("--out", &out, "FILE",
                           "write FILE atomically (default: standard output)"),
    };
    const struct cli_parser p = {.verb = "export", .opts = opts, .nopts = CLI_COUNT(opts)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc != CLI_PARSED)
        return rc;
    struct cdb *db = cli_open_db(g);
    if (!db)
        return 2;
    char err[1024], *doc;
    size_t len;
    rc = imp_results_export(db, &o, &doc, &len, err, sizeof err);
    cdb_close(db);
    if (rc != 0) {
        fprintf(stderr, "kladder export: %s\n", err);
        return 2;
    }
    if (out) {
        rc = file_write_atomic(out, doc, len, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "kladder export: %s\n", err);
    } else if (fwrite(doc, 1, len, stdout) != len || fflush(stdout) != 0) {
        fprintf(stderr, "kladder export: writing to standard output failed\n");
        rc = -1;
    }
    free(doc);
    return rc == 0 ? 0 : 2;
}
