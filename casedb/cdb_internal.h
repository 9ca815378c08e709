/* Shared between casedb's own files; nothing outside casedb/ includes this. */
#ifndef KL_CASEDB_INTERNAL_H
#define KL_CASEDB_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>

struct cdb {
    sqlite3 *h;
    char *path;
    int tx_depth; /* cdb_tx_begin nesting: only the outermost level talks to SQLite */
};

/* Writes "PATH: WHAT: sqlite's message" into err (PATH: the database's) and returns -1. */
int cdb_fail(struct cdb *db, const char *what, char *err, size_t errlen);
/* Runs SQL without results; err gets "PATH: sqlite's message". */
int cdb_exec(struct cdb *db, const char *sql, char *err, size_t errlen);
/* Binds a copy of s, or NULL when s is. */
int cdb_bind_text(sqlite3_stmt *st, int i, const char *s);
/* Copies column i (NULL stays NULL). */
char *cdb_col_strdup(sqlite3_stmt *st, int i);

#endif
