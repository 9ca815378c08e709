#define _XOPEN_SOURCE 700 /* realpath */
#include "casedb/cdb.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "casedb/cdb_internal.h"
#include "casedb/runs_reap.h"
#include "casedb/schema.h"
#include "common/text.h"
#include "common/xalloc.h"

struct sqlite3 *cdb_handle(struct cdb *db)
{
    return db->h;
}

long long cdb_outside_changes(struct cdb *db)
{
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_prepare_v2(db->h, "PRAGMA data_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static int user_version(struct cdb *db, int *v, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "reading the schema version", err, errlen);
    /* a failed read is an error, never version 0: a database SQLite cannot read (a WAL file
     * whose folder is read-only) would otherwise read as an empty one */
    if (sqlite3_step(st) != SQLITE_ROW) {
        cdb_fail(db, "reading the schema version", err, errlen);
        sqlite3_finalize(st);
        return -1;
    }
    *v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return 0;
}

/* Why a database that opened could not be read: a database in WAL mode (the mode kladder
 * writes) is read through a shared-memory file beside it, PATH-shm, which SQLite must create
 * when it is missing; in a folder this user cannot write, it cannot. */
static void unreadable(const char *path, char *err, size_t errlen)
{
    char *dir = xstrdup(path), *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    const char *folder = slash ? dir : ".";
    char shm[4096];
    snprintf(shm, sizeof shm, "%s-shm", path);
    if (access(folder, W_OK) != 0 && access(shm, F_OK) != 0) {
        char *abs = realpath(folder, NULL);
        char *shown = text_escape(path, 200), *shown_dir = text_escape(abs ? abs : folder, 200);
        free(abs);
        snprintf(err, errlen,
                 "%s: cannot read this database: it is in WAL mode, and SQLite must create %s-shm "
                 "beside it, in %s, which this user cannot write; make the folder writable, or "
                 "copy the database (with its -wal file) into one that is",
                 shown, shown, shown_dir);
        free(shown);
        free(shown_dir);
    }
    free(dir);
}

static int migrate(struct cdb *db, char *err, size_t errlen)
{
    int v;
    if (user_version(db, &v, err, errlen) != 0)
        return -1;
    if (v > (int)cdb_migration_count) {
        snprintf(err, errlen,
                 "%s: schema version %d is newer than this kladder understands (%zu); "
                 "use a newer kladder or another --db",
                 db->path, v, cdb_migration_count);
        return -1;
    }
    if (v == (int)cdb_migration_count)
        return 0;
    /* A migration may rebuild a table that others reference (SQLite's way to change a
     * constraint): with foreign keys on, dropping the old table would delete the rows that
     * refer to it. The pragma is a no-op inside a transaction, so it is set around them. */
    if (cdb_exec(db, "PRAGMA foreign_keys = OFF;", err, errlen) != 0)
        return -1;
    while (v < (int)cdb_migration_count) {
        char pragma[64];
        if (cdb_exec(db, "BEGIN IMMEDIATE;", err, errlen) != 0)
            return -1;
        /* Another kladder opening the same new database may have migrated it while this one
         * waited for the write lock: read the version again under the lock. */
        if (user_version(db, &v, err, errlen) != 0) {
            sqlite3_exec(db->h, "ROLLBACK;", NULL, NULL, NULL);
            return -1;
        }
        if (v >= (int)cdb_migration_count) {
            if (cdb_exec(db, "COMMIT;", err, errlen) != 0)
                return -1;
            break;
        }
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d;", v + 1);
        int rc = 0;
        for (const char *const *part = cdb_migrations[v]; *part && rc == 0; part++)
            rc = cdb_exec(db, *part, err, errlen);
        if (rc != 0 || cdb_exec(db, pragma, err, errlen) != 0) {
            sqlite3_exec(db->h, "ROLLBACK;", NULL, NULL, NULL);
            return -1;
        }
        if (cdb_exec(db, "COMMIT;", err, errlen) != 0)
            return -1;
        v++;
    }
    return cdb_exec(db, "PRAGMA foreign_keys = ON;", err, errlen);
}

int cdb_open(const char *path, struct cdb **out, char *err, size_t errlen)
{
    struct cdb *db = xcalloc(1, sizeof *db);
    db->path = xstrdup(path);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &db->h, flags, NULL) != SQLITE_OK) {
        cdb_fail(db, "cannot open the database", err, errlen);
        cdb_close(db);
        return -1;
    }
    sqlite3_extended_result_codes(db->h, 1);
    /* the TUI reads while a `kladder run` child writes, and runs side by side write one after
     * another: each write transaction waits for the lock (cdb.h) */
    sqlite3_busy_timeout(db->h, CDB_BUSY_TIMEOUT_MS);
    if (cdb_exec(db, "PRAGMA foreign_keys = ON;", err, errlen) != 0 ||
        (strcmp(path, ":memory:") != 0 &&
         cdb_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;", err, errlen) != 0) ||
        migrate(db, err, errlen) != 0) {
        cdb_close(db);
        return -1;
    }
    /* Runs left `running` by a process that is gone become `interrupted` (runs_reap.h). Not
     * being able to mark them now costs nothing but a stale `running` until the next open, so
     * it does not stop this one. */
    struct kl_owner here;
    kl_owner_self(&here);
    char reap_err[256];
    (void)cdb_runs_reap(db, &here, NULL, reap_err, sizeof reap_err);
    *out = db;
    return 0;
}

int cdb_open_reader(const char *path, struct cdb **out, char *err, size_t errlen)
{
    if (strcmp(path, ":memory:") == 0) {
        snprintf(err, errlen, "an in-memory database has no second connection");
        return -1;
    }
    struct cdb *db = xcalloc(1, sizeof *db);
    db->path = xstrdup(path);
    int v = -1;
    if (sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        cdb_fail(db, "cannot open the database for reading", err, errlen);
        cdb_close(db);
        return -1;
    }
    sqlite3_extended_result_codes(db->h, 1);
    sqlite3_busy_timeout(db->h, CDB_BUSY_TIMEOUT_MS);
    if (user_version(db, &v, err, errlen) != 0) {
        unreadable(path, err, errlen);
        cdb_close(db);
        return -1;
    }
    if (v != CDB_SCHEMA_VERSION) {
        if (v >= 0)
            snprintf(err, errlen, "%s: schema version %d, expected %d", path, v,
                     CDB_SCHEMA_VERSION);
        cdb_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

const char *cdb_path(const struct cdb *db)
{
    return db->path;
}

void cdb_interrupt(struct cdb *db)
{
    sqlite3_interrupt(db->h);
}

void cdb_close(struct cdb *db)
{
    if (!db)
        return;
    sqlite3_close_v2(db->h);
    free(db->path);
    free(db);
}

int cdb_case_count(struct cdb *db, int *count, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT count(*) FROM cases", -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "counting cases", err, errlen);
    *count = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    return 0;
}

char *cdb_meta_get(struct cdb *db, const char *key)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT value FROM meta WHERE key = ?1", -1, &st, NULL) !=
        SQLITE_OK)
        return NULL;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    char *v = sqlite3_step(st) == SQLITE_ROW ? cdb_col_strdup(st, 0) : NULL;
    sqlite3_finalize(st);
    return v;
}

int cdb_meta_set(struct cdb *db, const char *key, const char *value, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)", -1,
                           &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "storing a setting", err, errlen);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : cdb_fail(db, "storing a setting", err, errlen);
}
