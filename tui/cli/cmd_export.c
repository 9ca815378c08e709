/* kladder export [--since RUN_ID|TIME] [--all] [--out FILE] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "common/fileio.h"
#include "importers/results_json.h"
#include "tui/cli/cli.h"

static void print_help(void)
{
    printf("usage: kladder export [--since RUN_ID|TIME] [--all] [--out FILE]\n\n"
           "Writes the finished runs made here, their checks and machines as one versioned JSON\n"
           "document (format kladder-results, version 1) that `kladder pull` reads on another\n"
           "host. --since keeps runs recorded after RUN_ID, or finished at or after TIME\n"
           "(2026-11-29T08:51:17Z or 2026-11-29). --all also exports runs pulled from other\n"
           "hosts. --out writes FILE atomically (a reader never sees half a document); the\n"
           "default is standard output.\n");
}

int cmd_export(int argc, char **argv, const struct cli_global *g)
{
    struct imp_export_opts o = {0};
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            return 0;
        } else if (strcmp(a, "--all") == 0) {
            o.include_pulled = true;
        } else if ((strcmp(a, "--since") == 0 || strcmp(a, "--out") == 0) && !v) {
            return cli_usage_error("export", "%s expects a value", a);
        } else if (strcmp(a, "--since") == 0) {
            o.since = v, i++;
        } else if (strcmp(a, "--out") == 0) {
            out = v, i++;
        } else {
            return cli_unknown("export", a);
        }
    }
    struct cdb *db = cli_open_db(g);
    if (!db)
        return 2;
    char err[1024], *doc;
    size_t len;
    int rc = imp_results_export(db, &o, &doc, &len, err, sizeof err);
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
