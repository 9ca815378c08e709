#include "casedb/runs_reap.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/cdb_internal.h"
#include "casedb/results.h"
#include "common/xalloc.h"

/* The running runs with an owner (index runs_running). Read first, outside a transaction, so
 * that an open which finds nothing to mark never takes the write lock a running run needs. */
static int gone_runs(struct cdb *db, const struct kl_owner *here, sqlite3_int64 **ids, size_t *n,
                     char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT id, owner_host, owner_boot, owner_pid, owner_start,"
                           " owner_pid_ns FROM runs"
                           " WHERE verdict = 'running' AND owner_pid IS NOT NULL",
                           -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "looking for runs whose process is gone", err, errlen);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct kl_owner o = {.pid = sqlite3_column_int64(st, 3), .start = -1};
        const unsigned char *h = sqlite3_column_text(st, 1), *b = sqlite3_column_text(st, 2);
        snprintf(o.host, sizeof o.host, "%s", h ? (const char *)h : "");
        snprintf(o.boot_id, sizeof o.boot_id, "%s", b ? (const char *)b : "");
        if (sqlite3_column_type(st, 4) != SQLITE_NULL)
            o.start = sqlite3_column_int64(st, 4);
        const unsigned char *ns = sqlite3_column_text(st, 5);
        snprintf(o.pid_ns, sizeof o.pid_ns, "%s", ns ? (const char *)ns : "");
        if (kl_owner_state(&o, here) != KL_OWNER_GONE)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 8;
            *ids = xrealloc(*ids, cap * sizeof **ids);
        }
        (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return cdb_fail(db, "looking for runs whose process is gone", err, errlen);
    return 0;
}

int cdb_runs_reap(struct cdb *db, const struct kl_owner *here, int *marked, char *err,
                  size_t errlen)
{
    sqlite3_int64 *ids = NULL;
    size_t n = 0;
    int count = 0;
    if (gone_runs(db, here, &ids, &n, err, errlen) != 0) {
        free(ids);
        return -1;
    }
    int rc = 0;
    if (n > 0) {
        char now[21];
        cdb_now_iso(now);
        sqlite3_stmt *st = NULL;
        rc = cdb_tx_begin(db, err, errlen);
        /* "AND verdict = 'running'": another kladder may have marked it in the meantime */
        if (rc == 0 &&
            sqlite3_prepare_v2(db->h,
                               "UPDATE runs SET verdict = 'interrupted', finished = ?2"
                               " WHERE id = ?1 AND verdict = 'running'",
                               -1, &st, NULL) != SQLITE_OK)
            rc = cdb_fail(db, "marking a run interrupted", err, errlen);
        for (size_t i = 0; rc == 0 && i < n; i++) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, ids[i]);
            sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
            if (sqlite3_step(st) != SQLITE_DONE)
                rc = cdb_fail(db, "marking a run interrupted", err, errlen);
            else
                count += sqlite3_changes(db->h);
        }
        sqlite3_finalize(st);
        if (rc == 0)
            rc = cdb_tx_commit(db, err, errlen);
        else
            cdb_tx_rollback(db);
        if (rc != 0)
            count = 0;
    }
    free(ids);
    if (marked)
        *marked = count;
    return rc;
}
