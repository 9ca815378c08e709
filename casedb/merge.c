/* Idempotent merge of another host's results (merge.h). Statements are prepared once per merge
 * and reused for every row: 100,000 checks cost 100,000 steps, not 100,000 compilations. */
#include "casedb/merge.h"

#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "casedb/cdb_internal.h"
#include "casedb/check_keys.h"
#include "casedb/results_query.h"

enum {
    ST_MACHINE_GET,
    ST_MACHINE_PUT,
    ST_RUN_GET,
    ST_RUN_PUT,
    ST_CHECKS_GET,
    ST_CHECK_PUT,
    ST_HOST_GET,
    ST_HOST_PUT,
    ST_COUNT
};

static const char *const sql[ST_COUNT] = {
    [ST_MACHINE_GET] = "SELECT host, backend, device, target, wave_size, compute_units, mem_bytes,"
                       " driver_version, runtime_version, compiler_version, compute_partition,"
                       " memory_partition, kladder_version, kladder_commit FROM machines"
                       " WHERE id = ?1",
    [ST_MACHINE_PUT] = "INSERT INTO machines (id, host, backend, device, target, wave_size,"
                       " compute_units, mem_bytes, driver_version, runtime_version,"
                       " compiler_version, compute_partition, memory_partition, kladder_version,"
                       " kladder_commit) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
                       " ?13, ?14, ?15)",
    [ST_RUN_GET] = "SELECT machine_id, host, rung, suite, case_id, variant, argv, started, finished,"
                   " verdict, id FROM runs WHERE uuid = ?1",
    [ST_RUN_PUT] = "INSERT INTO runs (uuid, machine_id, host, origin, rung, suite, case_id, variant,"
                   " argv, started, finished, verdict, n_pass, n_fail, n_hang, n_error, n_skip,"
                   " n_cancelled) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
                   " ?14, ?15, ?16, ?17, ?18)",
    [ST_CHECKS_GET] = "SELECT c.seq, k.rung, k.suite, k.variant, k.check_name, k.shape, c.oracle,"
                      " c.verdict, c.detail, c.first_bad, c.bad_count, c.max_err, c.time_median_us,"
                      " c.time_min_us, c.time_max_us, c.repeats, c.limit_s"
                      " FROM checks c JOIN check_keys k ON k.id = c.key_id"
                      " WHERE c.run_id = ?1 ORDER BY c.seq",
    [ST_CHECK_PUT] = "INSERT INTO checks (run_id, seq, key_id, oracle, verdict, detail, first_bad,"
                     " bad_count, max_err, time_median_us, time_min_us, time_max_us, repeats,"
                     " limit_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
                     " ?14)",
    [ST_HOST_GET] = "SELECT 1 FROM hosts WHERE name = ?1",
    [ST_HOST_PUT] = "INSERT INTO hosts (name, url, added) VALUES (?1, ?2, ?3)",
};

struct merge {
    struct cdb *db;
    sqlite3_stmt *st[ST_COUNT];
    struct cdb_key_cache *keys;
    char *err;
    size_t errlen;
};

/* Strings live until the step returns, so SQLite need not copy them. */
static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static void bind_dbl(sqlite3_stmt *st, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_double(st, i, v);
}

static void bind_i64_or_null(sqlite3_stmt *st, int i, int64_t v)
{
    if (v < 0)
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_int64(st, i, v);
}

static sqlite3_stmt *ready(struct merge *m, int which)
{
    sqlite3_stmt *st = m->st[which];
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

static int fail(struct merge *m, const char *what)
{
    return cdb_fail(m->db, what, m->err, m->errlen);
}

static bool same_str(const char *a, const unsigned char *b)
{
    if (!a || !b)
        return !a && !b;
    return strcmp(a, (const char *)b) == 0;
}

/* NULL in the database is NAN in memory; equality is exact (doubles survive JSON both ways). */
static bool same_dbl(double a, sqlite3_stmt *st, int i)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return isnan(a);
    double b = sqlite3_column_double(st, i);
    return !isnan(a) && !(a < b) && !(a > b);
}

static bool same_i64(int64_t a, sqlite3_stmt *st, int i)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return a < 0;
    return a == sqlite3_column_int64(st, i);
}

#define TXT(st, i) sqlite3_column_text(st, i)

static int put_machine(struct merge *m, const struct cdb_machine *mc, struct cdb_merge_stats *s)
{
    sqlite3_stmt *st = ready(m, ST_MACHINE_GET);
    bind_str(st, 1, mc->id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *field = NULL;
        if (!same_str(mc->host, TXT(st, 0)))
            field = "host";
        else if (!same_str(mc->backend, TXT(st, 1)))
            field = "backend";
        else if (!same_str(mc->device, TXT(st, 2)))
            field = "device";
        else if (!same_str(mc->target, TXT(st, 3)))
            field = "target";
        else if (mc->wave_size != sqlite3_column_int(st, 4))
            field = "wave_size";
        else if (mc->compute_units != sqlite3_column_int(st, 5))
            field = "compute_units";
        else if (mc->mem_bytes != sqlite3_column_int64(st, 6))
            field = "mem_bytes";
        else if (!same_str(mc->driver_version, TXT(st, 7)))
            field = "driver_version";
        else if (!same_str(mc->runtime_version, TXT(st, 8)))
            field = "runtime_version";
        else if (!same_str(mc->compiler_version, TXT(st, 9)))
            field = "compiler_version";
        else if (!same_str(mc->compute_partition, TXT(st, 10)))
            field = "compute_partition";
        else if (!same_str(mc->memory_partition, TXT(st, 11)))
            field = "memory_partition";
        else if (!same_str(mc->kladder_version, TXT(st, 12)))
            field = "kladder_version";
        else if (!same_str(mc->kladder_commit, TXT(st, 13)))
            field = "kladder_commit";
        sqlite3_reset(st);
        if (field) {
            snprintf(m->err, m->errlen,
                     "machine %s is already stored with a different '%s'; not overwritten",
                     mc->id, field);
            return -1;
        }
        return 0;
    }
    if (rc != SQLITE_DONE)
        return fail(m, "looking up a machine");
    st = ready(m, ST_MACHINE_PUT);
    bind_str(st, 1, mc->id);
    bind_str(st, 2, mc->host);
    bind_str(st, 3, mc->backend);
    bind_str(st, 4, mc->device);
    bind_str(st, 5, mc->target);
    sqlite3_bind_int(st, 6, mc->wave_size);
    sqlite3_bind_int(st, 7, mc->compute_units);
    sqlite3_bind_int64(st, 8, mc->mem_bytes);
    bind_str(st, 9, mc->driver_version);
    bind_str(st, 10, mc->runtime_version);
    bind_str(st, 11, mc->compiler_version);
    bind_str(st, 12, mc->compute_partition);
    bind_str(st, 13, mc->memory_partition);
    bind_str(st, 14, mc->kladder_version);
    bind_str(st, 15, mc->kladder_commit);
    if (sqlite3_step(st) != SQLITE_DONE)
        return fail(m, "storing a machine");
    s->new_machines++;
    return 0;
}

/* Field of the first difference between a stored check row and c, or NULL. */
static const char *check_differs(sqlite3_stmt *st, const struct cdb_check *c)
{
    if (sqlite3_column_int(st, 0) != c->seq)
        return "seq";
    if (sqlite3_column_int(st, 1) != c->rung)
        return "rung";
    if (!same_str(c->suite, TXT(st, 2)))
        return "suite";
    if (!same_str(c->variant, TXT(st, 3)))
        return "variant";
    if (!same_str(c->check, TXT(st, 4)))
        return "check";
    if (!same_str(c->shape, TXT(st, 5)))
        return "shape";
    if (!same_str(c->oracle, TXT(st, 6)))
        return "oracle";
    if (!same_str(cdb_verdict_name(c->verdict), TXT(st, 7)))
        return "verdict";
    if (!same_str(c->detail, TXT(st, 8)))
        return "detail";
    if (!same_i64(c->first_bad, st, 9))
        return "first_bad";
    if (!same_i64(c->bad_count, st, 10))
        return "bad_count";
    if (!same_dbl(c->max_err, st, 11))
        return "max_err";
    if (!same_dbl(c->time_median_us, st, 12) || !same_dbl(c->time_min_us, st, 13) ||
        !same_dbl(c->time_max_us, st, 14))
        return "time_us";
    if (sqlite3_column_int(st, 15) != c->repeats)
        return "repeats";
    if (!same_dbl(c->limit_s, st, 16))
        return "limit_s";
    return NULL;
}

/* Compares a stored run (its row is current in ST_RUN_GET) and its checks with mr. */
static const char *run_differs(struct merge *m, const struct cdb_merge_run *mr, char *which,
                               size_t whichlen)
{
    sqlite3_stmt *st = m->st[ST_RUN_GET];
    const struct cdb_run *r = &mr->run;
    if (!same_str(r->machine_id, TXT(st, 0)))
        return "machine_id";
    if (!same_str(r->host, TXT(st, 1)))
        return "host";
    if (sqlite3_column_int(st, 2) != r->rung)
        return "rung";
    if (!same_str(r->suite, TXT(st, 3)))
        return "suite";
    if (!same_str(r->case_id, TXT(st, 4)))
        return "case";
    if (!same_str(r->variant, TXT(st, 5)))
        return "variant";
    if (!same_str(r->argv, TXT(st, 6)))
        return "argv";
    if (!same_str(r->started, TXT(st, 7)))
        return "started";
    if (!same_str(r->finished, TXT(st, 8)))
        return "finished";
    if (!same_str(cdb_verdict_name(r->verdict), TXT(st, 9)))
        return "verdict";
    sqlite3_int64 run_id = sqlite3_column_int64(st, 10);
    st = ready(m, ST_CHECKS_GET);
    sqlite3_bind_int64(st, 1, run_id);
    size_t i = 0;
    const char *field = NULL;
    int rc;
    while (!field && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (i == mr->n_checks) {
            field = "checks (more are stored)";
            break;
        }
        field = check_differs(st, &mr->checks[i]);
        if (field)
            snprintf(which, whichlen, "check seq %d: ", mr->checks[i].seq);
        i++;
    }
    if (!field && i != mr->n_checks)
        field = "checks (fewer are stored)";
    sqlite3_reset(st);
    return field;
}

static int put_run(struct merge *m, const char *origin, const struct cdb_merge_run *mr,
                   struct cdb_merge_stats *s)
{
    const struct cdb_run *r = &mr->run;
    sqlite3_stmt *st = ready(m, ST_RUN_GET);
    bind_str(st, 1, r->uuid);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        char which[48] = "";
        const char *field = run_differs(m, mr, which, sizeof which);
        sqlite3_reset(m->st[ST_RUN_GET]);
        if (field) {
            snprintf(m->err, m->errlen,
                     "run %s is already stored with different content (%s%s differs); the "
                     "stored run is kept and nothing from this host was written",
                     r->uuid, which, field);
            return -1;
        }
        s->present_runs++;
        return 0;
    }
    if (rc != SQLITE_DONE)
        return fail(m, "looking up a run");
    st = ready(m, ST_RUN_PUT);
    bind_str(st, 1, r->uuid);
    bind_str(st, 2, r->machine_id);
    bind_str(st, 3, r->host);
    bind_str(st, 4, origin);
    sqlite3_bind_int(st, 5, r->rung);
    bind_str(st, 6, r->suite);
    bind_str(st, 7, r->case_id);
    bind_str(st, 8, r->variant);
    bind_str(st, 9, r->argv);
    bind_str(st, 10, r->started);
    bind_str(st, 11, r->finished);
    bind_str(st, 12, cdb_verdict_name(r->verdict));
    int counts[CDB_VERDICT_COUNT] = {0};
    for (size_t i = 0; i < mr->n_checks; i++)
        counts[mr->checks[i].verdict]++;
    for (int v = CDB_PASS; v <= CDB_CANCELLED; v++)
        sqlite3_bind_int(st, 13 + v, counts[v]);
    if (sqlite3_step(st) != SQLITE_DONE)
        return fail(m, "storing a run");
    sqlite3_int64 run_id = sqlite3_last_insert_rowid(m->db->h);
    for (size_t i = 0; i < mr->n_checks; i++) {
        const struct cdb_check *c = &mr->checks[i];
        sqlite3_int64 key_id;
        if (cdb_key_id(m->keys, c, &key_id, m->err, m->errlen) != 0)
            return -1;
        st = ready(m, ST_CHECK_PUT);
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_int(st, 2, c->seq);
        sqlite3_bind_int64(st, 3, key_id);
        bind_str(st, 4, c->oracle);
        bind_str(st, 5, cdb_verdict_name(c->verdict));
        bind_str(st, 6, c->detail);
        bind_i64_or_null(st, 7, c->first_bad);
        bind_i64_or_null(st, 8, c->bad_count);
        bind_dbl(st, 9, c->max_err);
        bind_dbl(st, 10, c->time_median_us);
        bind_dbl(st, 11, c->time_min_us);
        bind_dbl(st, 12, c->time_max_us);
        sqlite3_bind_int(st, 13, c->repeats);
        bind_dbl(st, 14, c->limit_s);
        if (sqlite3_step(st) != SQLITE_DONE)
            return fail(m, "storing a check");
    }
    s->new_runs++;
    s->new_checks += mr->n_checks;
    return 0;
}

static int ensure_host(struct merge *m, const struct cdb_merge_target *t)
{
    sqlite3_stmt *st = ready(m, ST_HOST_GET);
    bind_str(st, 1, t->origin);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        return 0;
    if (rc != SQLITE_DONE)
        return fail(m, "looking up a host");
    st = ready(m, ST_HOST_PUT);
    bind_str(st, 1, t->origin);
    bind_str(st, 2, t->url);
    bind_str(st, 3, t->when);
    return sqlite3_step(st) == SQLITE_DONE ? 0 : fail(m, "adding a host");
}

/* A bulk merge builds the check-key index once, sorted, instead of updating it row by row
 * (about a third of the insert cost with schema 1's five-text-column index; with migration 2's
 * integer key the difference is within the noise of the development machine). Only worth it when the merge brings at least as many
 * checks as half of those stored: rebuilding covers the whole table. The index's own SQL is
 * read from the schema, so the rebuilt index is the one the migrations made. Returns the SQL to
 * run after the inserts (sqlite3_malloc'd), or NULL when the index was left alone. */
static char *bulk_index_begin(struct cdb *db, size_t incoming)
{
    if (incoming < 10000)
        return NULL;
    sqlite3_stmt *st;
    char *create = NULL;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT (SELECT count(*) FROM checks),"
                           " (SELECT sql FROM sqlite_master WHERE type = 'index'"
                           "  AND name = 'checks_by_key')",
                           -1, &st, NULL) != SQLITE_OK)
        return NULL;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 1) == SQLITE_TEXT &&
        (sqlite3_int64)incoming * 2 >= sqlite3_column_int64(st, 0))
        create = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 1));
    sqlite3_finalize(st);
    if (create && sqlite3_exec(db->h, "DROP INDEX checks_by_key", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_free(create);
        return NULL;
    }
    return create;
}

int cdb_merge(struct cdb *db, const struct cdb_merge_target *t, const struct cdb_merge_input *in,
              struct cdb_merge_stats *stats, char *err, size_t errlen)
{
    char *index_sql = NULL;
    struct merge m = {.db = db, .err = err, .errlen = errlen};
    struct cdb_merge_stats s = {0};
    int rc = -1;
    for (int i = 0; i < ST_COUNT; i++)
        if (sqlite3_prepare_v3(db->h, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &m.st[i], NULL) !=
            SQLITE_OK) {
            fail(&m, "preparing the merge");
            goto out;
        }
    /* A large merge touches index pages all over the file; a bigger page cache keeps them in
     * memory until the commit instead of spilling them to the WAL again and again. */
    sqlite3_exec(db->h, "PRAGMA cache_size = -131072;", NULL, NULL, NULL);
    /* Every reference was resolved before we got here (the parser checks that each check's run
     * and each run's machine are in the document, and they are inserted first), so the per-row
     * foreign-key probes would only repeat that; they cost about a fifth of a large merge.
     * The pragma is a no-op inside an outer transaction, where the probes simply stay on. */
    sqlite3_exec(db->h, "PRAGMA foreign_keys = OFF;", NULL, NULL, NULL);
    /* The index rebuild may sort on a helper thread, and the merge's commit leaves the copy of
     * its pages into the database file to the next checkpoint (at the latest, when the
     * connection closes): a pull of several hosts then copies the shared index pages once.
     * Measured on 2 cores with two hosts of 50,000 checks: 1.05 s -> 0.91 s (bench/RESULTS.md). */
    sqlite3_exec(db->h, "PRAGMA threads = 2; PRAGMA wal_autocheckpoint = 0;", NULL, NULL, NULL);
    if (cdb_tx_begin(db, err, errlen) != 0)
        goto out;
    if (!(m.keys = cdb_key_cache_new(db, err, errlen)) || ensure_host(&m, t) != 0)
        goto rollback;
    size_t incoming = 0;
    for (size_t i = 0; i < in->n_runs; i++)
        incoming += in->runs[i].n_checks;
    index_sql = bulk_index_begin(db, incoming);
    for (size_t i = 0; i < in->n_machines; i++)
        if (put_machine(&m, &in->machines[i], &s) != 0)
            goto rollback;
    for (size_t i = 0; i < in->n_runs; i++)
        if (put_run(&m, t->origin, &in->runs[i], &s) != 0)
            goto rollback;
    for (int i = 0; i < ST_COUNT; i++) {
        sqlite3_finalize(m.st[i]);
        m.st[i] = NULL;
    }
    cdb_key_cache_free(m.keys);
    m.keys = NULL;
    if (index_sql && cdb_exec(db, index_sql, err, errlen) != 0)
        goto rollback;
    if (cdb_host_set_pulled(db, t->origin, t->when, t->cursor, err, errlen) != 0 ||
        cdb_tx_commit(db, err, errlen) != 0)
        goto rollback;
    *stats = s;
    rc = 0;
    goto out;
rollback:
    cdb_tx_rollback(db);
out:
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(m.st[i]);
    cdb_key_cache_free(m.keys);
    sqlite3_exec(db->h,
                 "PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000; PRAGMA threads = 0;"
                 " PRAGMA wal_autocheckpoint = 1000;",
                 NULL, NULL, NULL);
    sqlite3_free(index_sql);
    return rc;
}
