/* Idempotent merge of another host's results (merge.h): what is stored already is compared here;
 * what is new goes through the results writer (writer.h). The lookups, like the writer's
 * statements, are prepared once per merge and reused for every row: 100,000 checks cost 100,000
 * steps, not 100,000 compilations. */
#include "casedb/merge.h"

#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/cdb_internal.h"
#include "casedb/check_facts.h"
#include "casedb/hosts.h"
#include "casedb/writer.h"

enum { ST_MACHINE_GET, ST_RUN_GET, ST_CHECKS_GET, ST_RUN_DROP_CHECKS, ST_RUN_DROP, ST_RUN_MOVE,
       ST_COUNT };

static const char *const sql[ST_COUNT] = {
    [ST_MACHINE_GET] = "SELECT host, backend, device, target, wave_size, compute_units, mem_bytes,"
                       " driver_version, runtime_version, compiler_version, compute_partition,"
                       " memory_partition, kladder_version, kladder_commit FROM machines"
                       " WHERE id = ?1",
    [ST_RUN_GET] = "SELECT machine_id, host, rung, suite, case_id, variant, argv, started, finished,"
                   " verdict, id, origin, exported_by, exported_verdict FROM runs WHERE uuid = ?1",
    [ST_CHECKS_GET] = "SELECT c.seq, k.rung, k.suite, k.variant, k.check_name, k.shape, c.oracle,"
                      " c.verdict, c.detail, c.first_bad, c.bad_count, c.max_err, c.time_median_us,"
                      " c.time_min_us, c.time_max_us, c.repeats, c.limit_s, "
                      CDB_FACT("c.", "score.value") ", " CDB_FACT("c.", "score.baseline") ", "
                      CDB_FACT("c.", "score.samples") ", " CDB_FACT("c.", "score.diverge_step") ", "
                      CDB_FACT("c.", "exec")
                      " FROM checks c JOIN check_keys k ON k.id = c.key_id"
                      " WHERE c.run_id = ?1 ORDER BY c.seq",
    /* a relayed run replaced by its own host's (foreign keys are off during a merge, so its
     * checks go first, by hand) */
    [ST_RUN_DROP_CHECKS] = "DELETE FROM checks WHERE run_id = ?1",
    [ST_RUN_DROP] = "DELETE FROM runs WHERE id = ?1",
    [ST_RUN_MOVE] = "UPDATE runs SET origin = ?2, exported_by = ?3 WHERE id = ?1",
};

struct merge {
    struct cdb *db;
    sqlite3_stmt *st[ST_COUNT];
    struct cdb_writer *w;
    char *err;
    size_t errlen;
};

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

/* The first field in which the stored machine (ST_MACHINE_GET's row) differs from mc, or NULL. */
static const char *machine_differs(sqlite3_stmt *st, const struct cdb_machine *mc)
{
    if (!same_str(mc->host, TXT(st, 0)))
        return "host";
    if (!same_str(mc->backend, TXT(st, 1)))
        return "backend";
    if (!same_str(mc->device, TXT(st, 2)))
        return "device";
    if (!same_str(mc->target, TXT(st, 3)))
        return "target";
    if (mc->wave_size != sqlite3_column_int(st, 4))
        return "wave_size";
    if (mc->compute_units != sqlite3_column_int(st, 5))
        return "compute_units";
    if (mc->mem_bytes != sqlite3_column_int64(st, 6))
        return "mem_bytes";
    if (!same_str(mc->driver_version, TXT(st, 7)))
        return "driver_version";
    if (!same_str(mc->runtime_version, TXT(st, 8)))
        return "runtime_version";
    if (!same_str(mc->compiler_version, TXT(st, 9)))
        return "compiler_version";
    if (!same_str(mc->compute_partition, TXT(st, 10)))
        return "compute_partition";
    if (!same_str(mc->memory_partition, TXT(st, 11)))
        return "memory_partition";
    if (!same_str(mc->kladder_version, TXT(st, 12)))
        return "kladder_version";
    if (!same_str(mc->kladder_commit, TXT(st, 13)))
        return "kladder_commit";
    return NULL;
}

static int put_machine(struct merge *m, const struct cdb_machine *mc, struct cdb_merge_stats *s)
{
    bool added;
    if (cdb_writer_machine(m->w, mc, &added, m->err, m->errlen) != 0)
        return -1;
    if (added) {
        s->new_machines++;
        return 0;
    }
    sqlite3_stmt *st = ready(m, ST_MACHINE_GET);
    cdb_bind_text(st, 1, mc->id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW)
        return fail(m, "looking up a machine");
    const char *field = machine_differs(st, mc);
    sqlite3_reset(st);
    if (field) {
        snprintf(m->err, m->errlen,
                 "machine %s is already stored with a different '%s'; not overwritten", mc->id,
                 field);
        return -1;
    }
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
    const struct cdb_score *sc = &c->score;
    if (!same_dbl(sc->set ? sc->value : (double)NAN, st, 17) ||
        !same_dbl(sc->set ? sc->baseline : (double)NAN, st, 18) ||
        !same_i64(sc->set ? sc->samples : -1, st, 19) ||
        !same_i64(sc->set ? sc->diverge_step : -1, st, 20))
        return "score";
    if (!same_str(c->exec, TXT(st, 21)))
        return "exec";
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
    /* a run pulled before verdicts were re-derived (schema 8) holds its document's own word:
     * the same document read again is the same run, whatever this kladder makes of it */
    bool stored_as_exported = sqlite3_column_type(st, 13) == SQLITE_NULL &&
                              sqlite3_column_type(st, 11) != SQLITE_NULL && r->exported_verdict &&
                              same_str(r->exported_verdict, TXT(st, 9));
    if (!same_str(cdb_verdict_name(r->verdict), TXT(st, 9)) && !stored_as_exported)
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

static int insert_run(struct merge *m, const char *origin, const struct cdb_merge_run *mr,
                      struct cdb_merge_stats *s);

/* A stored run (and its checks) removed, to be replaced by its own host's copy. */
static int drop_run(struct merge *m, sqlite3_int64 id)
{
    sqlite3_stmt *st = ready(m, ST_RUN_DROP_CHECKS);
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_DONE)
        return fail(m, "replacing a relayed run");
    st = ready(m, ST_RUN_DROP);
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_DONE)
        return fail(m, "replacing a relayed run");
    return 0;
}

/* A stored run filed under the host pulled now, its own. */
static int move_run(struct merge *m, sqlite3_int64 id, const char *origin, const char *by,
                    struct cdb_merge_stats *s)
{
    sqlite3_stmt *st = ready(m, ST_RUN_MOVE);
    sqlite3_bind_int64(st, 1, id);
    cdb_bind_text(st, 2, origin);
    cdb_bind_text(st, 3, by);
    if (sqlite3_step(st) != SQLITE_DONE)
        return fail(m, "moving a relayed run to its own host");
    s->present_runs++;
    return 0;
}

static int put_run(struct merge *m, const char *origin, const struct cdb_merge_run *mr,
                   struct cdb_merge_stats *s)
{
    const struct cdb_run *r = &mr->run;
    sqlite3_stmt *st = ready(m, ST_RUN_GET);
    cdb_bind_text(st, 1, r->uuid);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        /* who it belongs to and who relayed it, read before run_differs walks the statement on */
        const unsigned char *o = TXT(st, 11), *by = TXT(st, 12), *made_by = TXT(st, 1);
        bool was_local = o == NULL;
        bool stored_relayed = by && made_by && strcmp((const char *)by, (const char *)made_by);
        bool incoming_relayed = r->exported_by && strcmp(r->exported_by, r->host) != 0;
        sqlite3_int64 stored_id = sqlite3_column_int64(st, 10);
        char was[80];
        snprintf(was, sizeof was, "%s", o ? (const char *)o : "");
        char which[48] = "";
        const char *field = run_differs(m, mr, which, sizeof which);
        sqlite3_reset(m->st[ST_RUN_GET]);
        bool elsewhere = was_local || strcmp(was, origin) != 0;
        /* A run another host relayed (exported with its pulled runs) never moves or blocks one
         * stored already: the copy kept is the one first pulled, or the run's own host's. */
        if (incoming_relayed && elsewhere) {
            s->present_runs++;
            return 0;
        }
        /* The run's own host takes back a run first pulled through a relay: the same content
         * moves under it, other content is replaced by its own. */
        if (elsewhere && !was_local && stored_relayed && !incoming_relayed) {
            if (!field)
                return move_run(m, stored_id, origin, r->exported_by, s);
            if (drop_run(m, stored_id) != 0)
                return -1;
            return insert_run(m, origin, mr, s);
        }
        /* a run belongs to the host it was first pulled under, or to this machine: the same
         * results under a second name would leave that name empty and the runs where they are */
        if (was_local) {
            snprintf(m->err, m->errlen,
                     "run %s was made here (a local run); pulling it back under '%s' would hide "
                     "it from 'local'; nothing from this host was written",
                     r->uuid, origin);
            return -1;
        }
        if (field) {
            snprintf(m->err, m->errlen,
                     "run %s is already stored with different content (%s%s differs); the "
                     "stored run is kept and nothing from this host was written",
                     r->uuid, which, field);
            return -1;
        }
        if (strcmp(was, origin) != 0) {
            snprintf(m->err, m->errlen,
                     "run %s was pulled already as host '%s'; these results belong to that host "
                     "(rename it with `kladder hosts rename %s %s`); nothing from this host was "
                     "written",
                     r->uuid, was, was, origin);
            return -1;
        }
        s->present_runs++;
        return 0;
    }
    if (rc != SQLITE_DONE)
        return fail(m, "looking up a run");
    return insert_run(m, origin, mr, s);
}

static int insert_run(struct merge *m, const char *origin, const struct cdb_merge_run *mr,
                      struct cdb_merge_stats *s)
{
    const struct cdb_run *r = &mr->run;
    int counts[CDB_VERDICT_COUNT] = {0};
    for (size_t i = 0; i < mr->n_checks; i++)
        counts[mr->checks[i].verdict]++;
    sqlite3_int64 run_id;
    if (cdb_writer_run(m->w, r, origin, counts, &run_id, m->err, m->errlen) != 0)
        return -1;
    for (size_t i = 0; i < mr->n_checks; i++)
        if (cdb_writer_check(m->w, run_id, &mr->checks[i], m->err, m->errlen) != 0)
            return -1;
    s->new_runs++;
    s->new_checks += mr->n_checks;
    return 0;
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
    m.w = cdb_writer_new(db);
    if (cdb_host_ensure(db, t->origin, t->url, t->when, err, errlen) != 0)
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
    cdb_writer_free(m.w);
    m.w = NULL;
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
    cdb_writer_free(m.w);
    sqlite3_exec(db->h,
                 "PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000; PRAGMA threads = 0;"
                 " PRAGMA wal_autocheckpoint = 1000;",
                 NULL, NULL, NULL);
    sqlite3_free(index_sql);
    return rc;
}
