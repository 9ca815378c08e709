/* The hosts table (hosts.h). These statements run a few times per command, so each is prepared
 * where it is used. */
#include "casedb/hosts.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/cdb_internal.h"
#include "casedb/pool.h"
#include "casedb/results.h"
#include "common/xalloc.h"

bool cdb_host_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 64 || name[0] == '.' || name[0] == '-' || strcmp(name, "local") == 0)
        return false;
    return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

static int hosts_select(struct cdb *db, const char *where, const char *key,
                        struct cdb_host_list *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *sql = xasprintf("SELECT h.name, h.url, h.added, h.last_pull, h.last_error, h.cursor,"
                          " (SELECT count(*) FROM runs WHERE origin = h.name) FROM hosts h %s"
                          " ORDER BY h.name",
                          where);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    free(sql);
    if (rc != SQLITE_OK)
        return cdb_fail(db, "listing hosts", err, errlen);
    if (key)
        cdb_bind_text(st, 1, key);
    out->pool = cdb_pool_new();
    size_t cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->n == cap) {
            cap = cap ? cap * 2 : 8;
            out->items = xrealloc(out->items, cap * sizeof *out->items);
        }
        struct cdb_host *h = &out->items[out->n++];
        h->name = cdb_pool_col(out->pool, st, 0);
        h->url = cdb_pool_col(out->pool, st, 1);
        h->added = cdb_pool_col(out->pool, st, 2);
        h->last_pull = cdb_pool_col(out->pool, st, 3);
        h->last_error = cdb_pool_col(out->pool, st, 4);
        h->cursor = cdb_pool_col(out->pool, st, 5);
        h->runs = sqlite3_column_int(st, 6);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cdb_host_list_free(out);
        return cdb_fail(db, "listing hosts", err, errlen);
    }
    return 0;
}

int cdb_hosts_list(struct cdb *db, struct cdb_host_list *out, char *err, size_t errlen)
{
    return hosts_select(db, "", NULL, out, err, errlen);
}

int cdb_host_find(struct cdb *db, const char *key, bool by_url, struct cdb_host_list *out,
                  char *err, size_t errlen)
{
    if (hosts_select(db, by_url ? "WHERE h.url = ?1" : "WHERE h.name = ?1", key, out, err,
                     errlen) != 0)
        return -1;
    return out->n > 0;
}

void cdb_host_list_free(struct cdb_host_list *l)
{
    free(l->items);
    cdb_pool_free(l->pool);
    memset(l, 0, sizeof *l);
}

static int exec_bound(struct cdb *db, const char *sql, const char *what, const char *a,
                      const char *b, const char *c, int *changes, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, what, err, errlen);
    cdb_bind_text(st, 1, a);
    if (sqlite3_bind_parameter_count(st) >= 2)
        cdb_bind_text(st, 2, b);
    if (sqlite3_bind_parameter_count(st) >= 3)
        cdb_bind_text(st, 3, c);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return cdb_fail(db, what, err, errlen);
    if (changes)
        *changes = sqlite3_changes(db->h);
    return 0;
}

int cdb_host_add(struct cdb *db, const char *name, const char *url, char *err, size_t errlen)
{
    struct cdb_host_list l;
    int found = cdb_host_find(db, name, false, &l, err, errlen);
    cdb_host_list_free(&l);
    if (found < 0)
        return -1;
    if (found) {
        snprintf(err, errlen, "a host named '%s' exists already (kladder hosts rm %s first)", name,
                 name);
        return -1;
    }
    found = cdb_host_find(db, url, true, &l, err, errlen);
    if (found > 0)
        snprintf(err, errlen,
                 "%s is already pulled as host '%s' (%d run%s); a second name would stay empty. "
                 "To call it '%s', use `kladder hosts rename %s %s`",
                 url, l.items[0].name, l.items[0].runs, l.items[0].runs == 1 ? "" : "s", name,
                 l.items[0].name, name);
    cdb_host_list_free(&l);
    if (found != 0)
        return -1;
    char now[21];
    cdb_now_iso(now);
    return cdb_host_ensure(db, name, url, now, err, errlen);
}

int cdb_host_ensure(struct cdb *db, const char *name, const char *url, const char *added,
                    char *err, size_t errlen)
{
    /* only a name conflict is ignored: a missing URL is still refused by NOT NULL */
    return exec_bound(db,
                      "INSERT INTO hosts (name, url, added) VALUES (?1, ?2, ?3)"
                      " ON CONFLICT (name) DO NOTHING",
                      "adding a host", name, url, added, NULL, err, errlen);
}

int cdb_host_remove(struct cdb *db, const char *name, bool purge, int *purged, char *err,
                    size_t errlen)
{
    struct cdb_host_list l;
    *purged = 0;
    int found = cdb_host_find(db, name, false, &l, err, errlen);
    int runs = found > 0 ? l.items[0].runs : 0;
    cdb_host_list_free(&l);
    if (found <= 0)
        return found;
    if (runs > 0 && !purge) {
        snprintf(err, errlen,
                 "host '%s' has %d pulled run%s; add --purge to remove them with it", name, runs,
                 runs == 1 ? "" : "s");
        return -1;
    }
    if (cdb_tx_begin(db, err, errlen) != 0)
        return -1;
    if (exec_bound(db, "DELETE FROM runs WHERE origin = ?1", "removing a host's runs", name, NULL,
                   NULL, purged, err, errlen) != 0 ||
        exec_bound(db, "DELETE FROM hosts WHERE name = ?1", "removing a host", name, NULL, NULL,
                   NULL, err, errlen) != 0 ||
        cdb_tx_commit(db, err, errlen) != 0) {
        cdb_tx_rollback(db);
        return -1;
    }
    return 1;
}

int cdb_host_rename(struct cdb *db, const char *old, const char *new_name, char *err,
                    size_t errlen)
{
    struct cdb_host_list l;
    int found = cdb_host_find(db, new_name, false, &l, err, errlen);
    cdb_host_list_free(&l);
    if (found < 0)
        return -1;
    if (found) {
        snprintf(err, errlen, "a host named '%s' exists already", new_name);
        return -1;
    }
    found = cdb_host_find(db, old, false, &l, err, errlen);
    cdb_host_list_free(&l);
    if (found <= 0)
        return found;
    /* runs.origin references hosts(name) without ON UPDATE: the new row comes first, the runs
     * move to it, then the old row goes */
    if (cdb_tx_begin(db, err, errlen) != 0)
        return -1;
    if (exec_bound(db,
                   "INSERT INTO hosts (name, url, added, last_pull, last_error, cursor)"
                   " SELECT ?2, url, added, last_pull, last_error, cursor FROM hosts"
                   " WHERE name = ?1",
                   "renaming a host", old, new_name, NULL, NULL, err, errlen) != 0 ||
        exec_bound(db, "UPDATE runs SET origin = ?2 WHERE origin = ?1", "renaming a host", old,
                   new_name, NULL, NULL, err, errlen) != 0 ||
        exec_bound(db, "DELETE FROM hosts WHERE name = ?1", "renaming a host", old, NULL, NULL,
                   NULL, err, errlen) != 0 ||
        cdb_tx_commit(db, err, errlen) != 0) {
        cdb_tx_rollback(db);
        return -1;
    }
    return 1;
}

int cdb_host_set_pulled(struct cdb *db, const char *name, const char *when, const char *cursor,
                        char *err, size_t errlen)
{
    return exec_bound(db,
                      "UPDATE hosts SET last_pull = ?2, last_error = NULL,"
                      " cursor = coalesce(?3, cursor) WHERE name = ?1",
                      "recording a pull", name, when, cursor, NULL, err, errlen);
}

int cdb_host_reset_cursor(struct cdb *db, const char *name, char *err, size_t errlen)
{
    return exec_bound(db, "UPDATE hosts SET cursor = NULL WHERE name = ?1", "resetting a cursor",
                      name, NULL, NULL, NULL, err, errlen);
}
