#include "tui/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "casedb/cdb.h"
#include "common/fileio.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "importers/case_index.h"

bool cli_parse_int(const char *verb, const char *opt, const char *text, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        fprintf(stderr, "kladder %s: %s expects a whole number from %d to %d, not '%s'\n",
                verb ? verb : "", opt, lo, hi, text);
        return false;
    }
    *out = (int)v;
    return true;
}

int cli_usage_error(const char *verb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "kladder%s%s: ", verb ? " " : "", verb ? verb : "");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see kladder --help)\n");
    va_end(ap);
    return 2;
}

struct cdb *cli_open_db(const struct cli_global *g)
{
    char err[1024];
    char *path = g->db_path ? xstrdup(g->db_path) : paths_default_db();
    if (!g->db_path) {
        char *dir = paths_data_dir();
        int rc = file_mkdirs(dir, err, sizeof err);
        free(dir);
        if (rc != 0) {
            fprintf(stderr, "kladder: %s\n", err);
            free(path);
            return NULL;
        }
    }
    struct cdb *db;
    if (cdb_open(path, &db, err, sizeof err) != 0) {
        fprintf(stderr, "kladder: %s\n", err);
        free(path);
        return NULL;
    }
    free(path);
    int rc;
    if (g->data_dir) {
        char *cases = xasprintf("%s/cases.json", g->data_dir);
        rc = imp_index_import(db, cases, err, sizeof err);
        free(cases);
    } else {
        rc = imp_index_ensure(db, err, sizeof err);
    }
    if (rc != 0) {
        fprintf(stderr, "kladder: %s\n", err);
        cdb_close(db);
        return NULL;
    }
    return db;
}
