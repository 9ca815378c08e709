#include "tui/cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "casedb/results.h"
#include "common/fileio.h"
#include "common/paths.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/api/faces.h"
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

int cli_unknown(const char *verb, const char *arg)
{
    char *shown = text_escape(arg, 60);
    int rc = arg[0] == '-' ? cli_usage_error(verb, "unknown option %s", shown)
                           : cli_usage_error(verb, "unexpected argument '%s'", shown);
    free(shown);
    return rc;
}

/* An existing database file that this user cannot write, or that nobody may write (no write
 * permission bit: chmod a-w says "leave it as it is" even to root, whom access() lets write). */
static bool file_read_only(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    return (st.st_mode & 0222) == 0 || (access(path, W_OK) != 0 && errno == EACCES);
}

/* Opens the read-only database at path; the index it holds is used as it is. */
static struct cdb *open_read_only(const char *path)
{
    char err[1024];
    struct cdb *db;
    int count = 0;
    if (cdb_open_reader(path, &db, err, sizeof err) != 0) {
        fprintf(stderr, "kladder: %s (the file is read-only)\n", err);
        return NULL;
    }
    if (cdb_case_count(db, &count, err, sizeof err) != 0 || count == 0) {
        if (count == 0)
            snprintf(err, sizeof err, "%s: the database holds no case index and is read-only",
                     path);
        fprintf(stderr, "kladder: %s\n", err);
        cdb_close(db);
        return NULL;
    }
    return db;
}

static struct cdb *open_db(const struct cli_global *g, const char *writer)
{
    char err[1024];
    if (g->db_path && !g->db_path[0]) {
        fprintf(stderr, "kladder: --db expects a file name, not an empty string\n");
        return NULL;
    }
    char *path = g->db_path ? xstrdup(g->db_path) : paths_default_db();
    if (file_read_only(path)) {
        struct cdb *db = NULL;
        if (writer)
            fprintf(stderr, "kladder %s: %s: the database file is read-only, and %s writes to it "
                            "(make it writable or give another --db)\n",
                    writer, path, writer);
        else
            db = open_read_only(path);
        free(path);
        return db;
    }
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

struct cdb *cli_open_db(const struct cli_global *g)
{
    return open_db(g, NULL);
}

struct cdb *cli_open_db_write(const struct cli_global *g, const char *verb)
{
    return open_db(g, verb);
}

bool cli_define_ok(const char *d)
{
    if (!(d[0] == '_' || (d[0] >= 'A' && d[0] <= 'Z') || (d[0] >= 'a' && d[0] <= 'z')))
        return false;
    for (const char *s = d; *s && *s != '='; s++)
        if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= 'a' && *s <= 'z')))
            return false;
    for (const char *s = d; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

const char *cli_word_backend(size_t i)
{
    for (size_t k = 0; eng_backends && eng_backends[k]; k++)
        if (k == i)
            return eng_backends[k]->name;
    return NULL;
}

const char *cli_word_schedule(size_t i)
{
    return i <= ENG_SCHED_PCT ? eng_schedule_name((enum eng_schedule)i) : NULL;
}

const char *cli_word_verdict(size_t i)
{
    return i < CDB_VERDICT_COUNT ? cdb_verdict_name((enum cdb_verdict)i) : NULL;
}

const char *cli_word_variant(size_t i)
{
    static const char *const variants[] = {"fixed", "buggy", "both"};
    return i < sizeof variants / sizeof variants[0] ? variants[i] : NULL;
}

/* The case index holds its text in English and Chinese (data/cases.json's _en and _zh fields) */
const char *cli_word_lang(size_t i)
{
    static const char *const langs[] = {"en", "zh"};
    return i < sizeof langs / sizeof langs[0] ? langs[i] : NULL;
}
