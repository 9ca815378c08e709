/* The small helpers every file of casedb/ uses on a connection: the error message of a failed
 * statement, SQL without results, text binds and column copies (cdb_internal.h), and the
 * nested transactions (cdb.h). Kept apart from opening and closing (cdb.c) so that what
 * cdb_open calls (runs_reap.c) can use them without the two files needing each other. */
#include "casedb/cdb.h"

#include <sqlite3.h>
#include <stdio.h>

#include "casedb/cdb_internal.h"
#include "common/xalloc.h"

int cdb_fail(struct cdb *db, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s%s%s: %s", db && db->path ? db->path : "", db && db->path ? ": " : "",
             what, db && db->h ? sqlite3_errmsg(db->h) : "no database");
    return -1;
}

int cdb_exec(struct cdb *db, const char *sql, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", db->path, msg ? msg : "unknown error");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int cdb_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
}

char *cdb_col_strdup(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? xstrdup((const char *)s) : NULL;
}

int cdb_tx_begin(struct cdb *db, char *err, size_t errlen)
{
    if (db->tx_depth++ > 0)
        return 0;
    if (cdb_exec(db, "BEGIN IMMEDIATE;", err, errlen) != 0) {
        db->tx_depth = 0;
        return -1;
    }
    return 0;
}

int cdb_tx_commit(struct cdb *db, char *err, size_t errlen)
{
    if (db->tx_depth == 0 || --db->tx_depth > 0)
        return 0;
    if (cdb_exec(db, "COMMIT;", err, errlen) == 0)
        return 0;
    /* a COMMIT that fails may leave the transaction open: nothing of it is kept */
    if (!sqlite3_get_autocommit(db->h))
        sqlite3_exec(db->h, "ROLLBACK;", NULL, NULL, NULL);
    return -1;
}

void cdb_tx_rollback(struct cdb *db)
{
    if (db->tx_depth == 0)
        return;
    db->tx_depth = 0;
    sqlite3_exec(db->h, "ROLLBACK;", NULL, NULL, NULL);
}

int cdb_unit_begin(struct cdb *db, char *err, size_t errlen)
{
    /* a transaction open on this connection (the caller's, IMMEDIATE by cdb_tx_begin) holds
     * the write lock already */
    if (!sqlite3_get_autocommit(db->h))
        return cdb_exec(db, "SAVEPOINT cdb_unit;", err, errlen) == 0 ? 0 : -1;
    return cdb_tx_begin(db, err, errlen) == 0 ? 1 : -1;
}

int cdb_unit_commit(struct cdb *db, int unit, char *err, size_t errlen)
{
    if (unit == 1)
        return cdb_tx_commit(db, err, errlen);
    if (cdb_exec(db, "RELEASE cdb_unit;", err, errlen) == 0)
        return 0;
    cdb_unit_rollback(db, unit);
    return -1;
}

void cdb_unit_rollback(struct cdb *db, int unit)
{
    if (unit == 1)
        cdb_tx_rollback(db);
    else if (unit == 0)
        sqlite3_exec(db->h, "ROLLBACK TO cdb_unit; RELEASE cdb_unit;", NULL, NULL, NULL);
}
