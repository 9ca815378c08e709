/* The results writer (writer.h), and the runner's calls of results.h on top of it. */
#include "casedb/writer.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "casedb/cdb.h"
#include "casedb/cdb_internal.h"
#include "casedb/check_facts.h"
#include "casedb/check_keys.h"
#include "common/xalloc.h"

enum { W_MACHINE, W_RUN, W_RUN_ID, W_CHECK, W_COUNT, W_FINISH, W_COUNT_OF };

/* W_COUNT adds (?2 = v) to each count column, so one statement serves every verdict. */
_Static_assert(CDB_PASS == 0 && CDB_FAIL == 1 && CDB_HANG == 2 && CDB_ERROR == 3 &&
                   CDB_SKIP == 4 && CDB_CANCELLED == 5,
               "runs.n_* columns follow enum cdb_verdict");

static const struct {
    const char *sql, *what;
} stmt[W_COUNT_OF] = {
    [W_MACHINE] = {"INSERT INTO machines (id, host, backend, device, target, wave_size,"
                   " compute_units, mem_bytes, driver_version, runtime_version, compiler_version,"
                   " compute_partition, memory_partition, kladder_version, kladder_commit)"
                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
                   " ON CONFLICT (id) DO NOTHING",
                   "storing a machine"},
    [W_RUN] = {"INSERT INTO runs (uuid, machine_id, host, origin, rung, suite, case_id, variant,"
               " argv, started, finished, verdict, n_pass, n_fail, n_hang, n_error, n_skip,"
               " n_cancelled, owner_host, owner_boot, owner_pid, owner_start, owner_pid_ns, n_doubt,"
               " exported_verdict, exported_by) VALUES"
               " (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,"
               " ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
               "storing a run"},
    [W_RUN_ID] = {"SELECT id FROM runs WHERE uuid = ?1", "looking up a run"},
    [W_CHECK] = {"INSERT INTO checks (run_id, seq, key_id, oracle, verdict, detail, first_bad,"
                 " bad_count, max_err, time_median_us, time_min_us, time_max_us, repeats,"
                 " limit_s, value_class, facts) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
                 " ?10, ?11, ?12, ?13, ?14, ?18, "
                 CDB_FACTS_JSON("?15", "?16", "?17", "?19", "?20", "?21", "?22", "?23") ")",
                 "storing a check"},
    [W_COUNT] = {"UPDATE runs SET n_pass = n_pass + (?2 = 0), n_fail = n_fail + (?2 = 1),"
                 " n_hang = n_hang + (?2 = 2), n_error = n_error + (?2 = 3),"
                 " n_skip = n_skip + (?2 = 4), n_cancelled = n_cancelled + (?2 = 5),"
                 " n_doubt = n_doubt + (?2 = 8)"
                 " WHERE id = ?1",
                 "counting a check"},
    [W_FINISH] = {"UPDATE runs SET finished = ?2, verdict = ?3 WHERE uuid = ?1",
                  "finishing a run"},
};

struct cdb_writer {
    struct cdb *db;
    sqlite3_stmt *st[W_COUNT_OF];
    struct cdb_key_cache *keys; /* made on the first check */
};

struct cdb_writer *cdb_writer_new(struct cdb *db)
{
    struct cdb_writer *w = xcalloc(1, sizeof *w);
    w->db = db;
    return w;
}

void cdb_writer_free(struct cdb_writer *w)
{
    if (!w)
        return;
    for (int i = 0; i < W_COUNT_OF; i++)
        sqlite3_finalize(w->st[i]);
    cdb_key_cache_free(w->keys);
    free(w);
}

/* Statement `which`, prepared when first asked for, reset and without bindings; NULL with err
 * set when SQLite refuses it. */
static sqlite3_stmt *ready(struct cdb_writer *w, int which, char *err, size_t errlen)
{
    sqlite3_stmt *st = w->st[which];
    if (!st) {
        if (sqlite3_prepare_v3(w->db->h, stmt[which].sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &w->st[which], NULL) != SQLITE_OK) {
            cdb_fail(w->db, stmt[which].what, err, errlen);
            return NULL;
        }
        return w->st[which];
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

/* Steps a statement that returns no row. */
static int done(struct cdb_writer *w, int which, char *err, size_t errlen)
{
    if (sqlite3_step(w->st[which]) != SQLITE_DONE)
        return cdb_fail(w->db, stmt[which].what, err, errlen);
    return 0;
}

/* The strings outlive the step (writer.h), so SQLite need not copy them. */
static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static const char *nz(const char *s)
{
    return s ? s : "";
}

static void bind_dbl(sqlite3_stmt *st, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_double(st, i, v);
}

static void bind_count(sqlite3_stmt *st, int i, int64_t v)
{
    if (v < 0)
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_int64(st, i, v);
}

int cdb_writer_machine(struct cdb_writer *w, const struct cdb_machine *m, bool *added, char *err,
                       size_t errlen)
{
    sqlite3_stmt *st = ready(w, W_MACHINE, err, errlen);
    if (!st)
        return -1;
    bind_str(st, 1, m->id);
    bind_str(st, 2, nz(m->host));
    bind_str(st, 3, nz(m->backend));
    bind_str(st, 4, nz(m->device));
    bind_str(st, 5, nz(m->target));
    sqlite3_bind_int(st, 6, m->wave_size);
    sqlite3_bind_int(st, 7, m->compute_units);
    sqlite3_bind_int64(st, 8, m->mem_bytes);
    bind_str(st, 9, m->driver_version);
    bind_str(st, 10, m->runtime_version);
    bind_str(st, 11, m->compiler_version);
    bind_str(st, 12, m->compute_partition);
    bind_str(st, 13, m->memory_partition);
    bind_str(st, 14, nz(m->kladder_version));
    bind_str(st, 15, m->kladder_commit);
    if (done(w, W_MACHINE, err, errlen) != 0)
        return -1;
    *added = sqlite3_changes(w->db->h) > 0;
    return 0;
}

int cdb_writer_run(struct cdb_writer *w, const struct cdb_run *r, const char *origin,
                   const int *counts, sqlite3_int64 *id, char *err, size_t errlen)
{
    sqlite3_stmt *st = ready(w, W_RUN, err, errlen);
    if (!st)
        return -1;
    bind_str(st, 1, r->uuid);
    bind_str(st, 2, r->machine_id);
    bind_str(st, 3, nz(r->host));
    bind_str(st, 4, origin);
    sqlite3_bind_int(st, 5, r->rung);
    bind_str(st, 6, r->suite);
    bind_str(st, 7, r->case_id);
    bind_str(st, 8, r->variant);
    bind_str(st, 9, r->argv);
    bind_str(st, 10, r->started);
    bind_str(st, 11, r->finished);
    bind_str(st, 12, cdb_verdict_name(r->verdict));
    for (int v = CDB_PASS; v <= CDB_CANCELLED; v++)
        sqlite3_bind_int(st, 13 + v, counts ? counts[v] : 0);
    if (r->owner) {
        bind_str(st, 19, r->owner->host);
        bind_str(st, 20, r->owner->boot_id);
        sqlite3_bind_int64(st, 21, r->owner->pid);
        bind_count(st, 22, r->owner->start);
        bind_str(st, 23, r->owner->pid_ns[0] ? r->owner->pid_ns : NULL);
    }
    sqlite3_bind_int(st, 24, counts ? counts[CDB_DOUBT] : 0);
    bind_str(st, 25, r->exported_verdict);
    bind_str(st, 26, r->exported_by);
    if (done(w, W_RUN, err, errlen) != 0)
        return -1;
    *id = sqlite3_last_insert_rowid(w->db->h);
    return 0;
}

/* The row id of the run with this uuid: 1 found, 0 not stored, -1 error. */
static int cdb_writer_run_id(struct cdb_writer *w, const char *uuid, sqlite3_int64 *id, char *err,
                             size_t errlen)
{
    sqlite3_stmt *st = ready(w, W_RUN_ID, err, errlen);
    if (!st)
        return -1;
    bind_str(st, 1, uuid);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    else if (rc != SQLITE_DONE)
        return cdb_fail(w->db, stmt[W_RUN_ID].what, err, errlen);
    sqlite3_reset(st);
    return rc == SQLITE_ROW;
}

int cdb_writer_check(struct cdb_writer *w, sqlite3_int64 run_id, const struct cdb_check *c,
                     char *err, size_t errlen)
{
    sqlite3_int64 key_id;
    if (!w->keys && !(w->keys = cdb_key_cache_new(w->db, err, errlen)))
        return -1;
    if (cdb_key_id(w->keys, c, &key_id, err, errlen) != 0)
        return -1;
    sqlite3_stmt *st = ready(w, W_CHECK, err, errlen);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int(st, 2, c->seq);
    sqlite3_bind_int64(st, 3, key_id);
    bind_str(st, 4, nz(c->oracle));
    bind_str(st, 5, cdb_verdict_name(c->verdict));
    bind_str(st, 6, nz(c->detail));
    bind_count(st, 7, c->first_bad);
    bind_count(st, 8, c->bad_count);
    bind_dbl(st, 9, c->max_err);
    bind_dbl(st, 10, c->time_median_us);
    bind_dbl(st, 11, c->time_min_us);
    bind_dbl(st, 12, c->time_max_us);
    sqlite3_bind_int(st, 13, c->repeats);
    bind_dbl(st, 14, c->limit_s);
    /* a seam is all three or nothing */
    bool seam = c->seam && c->seam_a && c->seam_b;
    for (int i = 0; i < 3; i++) {
        const char *v = i == 0 ? c->seam : i == 1 ? c->seam_a : c->seam_b;
        if (seam)
            bind_str(st, 15 + i, v);
        else
            sqlite3_bind_null(st, 15 + i);
    }
    bind_str(st, 18, c->value_class && *c->value_class ? c->value_class : NULL);
    /* a score is all its columns or none: unset leaves all four NULL */
    const struct cdb_score *sc = &c->score;
    if (sc->set && isfinite(sc->value)) {
        sqlite3_bind_double(st, 19, sc->value);
        bind_dbl(st, 20, isfinite(sc->baseline) ? sc->baseline : (double)NAN);
        bind_count(st, 21, sc->samples);
        bind_count(st, 22, sc->diverge_step);
    }
    bind_str(st, 23, c->exec);
    return done(w, W_CHECK, err, errlen);
}

/* Adds one to run run_id's count of verdict v (CDB_RUNNING counts nowhere). */
static int cdb_writer_count(struct cdb_writer *w, sqlite3_int64 run_id, enum cdb_verdict v,
                            char *err, size_t errlen)
{
    sqlite3_stmt *st = ready(w, W_COUNT, err, errlen);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int(st, 2, (int)v);
    return done(w, W_COUNT, err, errlen);
}

/* Sets finished and verdict of the run with this uuid; a uuid not stored changes nothing. */
static int cdb_writer_finish(struct cdb_writer *w, const char *uuid, const char *finished,
                             enum cdb_verdict v, char *err, size_t errlen)
{
    sqlite3_stmt *st = ready(w, W_FINISH, err, errlen);
    if (!st)
        return -1;
    bind_str(st, 1, uuid);
    bind_str(st, 2, finished);
    bind_str(st, 3, cdb_verdict_name(v));
    return done(w, W_FINISH, err, errlen);
}

/* ---- the runner's calls (results.h): one writer per call, each a unit (cdb.h) ---------- */

int cdb_machine_put(struct cdb *db, const struct cdb_machine *m, char *err, size_t errlen)
{
    int unit = cdb_unit_begin(db, err, errlen);
    if (unit < 0)
        return -1;
    struct cdb_writer *w = cdb_writer_new(db);
    bool added;
    int rc = cdb_writer_machine(w, m, &added, err, errlen);
    cdb_writer_free(w);
    if (rc != 0) {
        cdb_unit_rollback(db, unit);
        return -1;
    }
    return cdb_unit_commit(db, unit, err, errlen);
}

int cdb_run_put(struct cdb *db, const struct cdb_run *r, char *err, size_t errlen)
{
    int unit = cdb_unit_begin(db, err, errlen);
    if (unit < 0)
        return -1;
    struct cdb_writer *w = cdb_writer_new(db);
    sqlite3_int64 id;
    int rc = cdb_writer_run(w, r, NULL, NULL, &id, err, errlen);
    cdb_writer_free(w);
    if (rc != 0) {
        cdb_unit_rollback(db, unit);
        return -1;
    }
    return cdb_unit_commit(db, unit, err, errlen);
}

int cdb_run_finish(struct cdb *db, const char *uuid, const char *finished,
                   enum cdb_verdict verdict, char *err, size_t errlen)
{
    int unit = cdb_unit_begin(db, err, errlen);
    if (unit < 0)
        return -1;
    struct cdb_writer *w = cdb_writer_new(db);
    int rc = cdb_writer_finish(w, uuid, finished, verdict, err, errlen);
    cdb_writer_free(w);
    if (rc != 0) {
        cdb_unit_rollback(db, unit);
        return -1;
    }
    return cdb_unit_commit(db, unit, err, errlen);
}

/* The check, its key and its run's count change together or not at all, the run looked up in
 * the same transaction: a unit (cdb.h), which takes the write lock before it reads. After a
 * failure the writer's key ids may name rows that were rolled back: the caller frees it. */
static int check_put(struct cdb_writer *w, const struct cdb_check *c, char *err, size_t errlen)
{
    int unit = cdb_unit_begin(w->db, err, errlen);
    if (unit < 0)
        return -1;
    sqlite3_int64 run_id = 0;
    int found = cdb_writer_run_id(w, c->run_uuid, &run_id, err, errlen);
    if (found == 0)
        snprintf(err, errlen, "%s: storing a check: no run %s is stored", w->db->path,
                 nz(c->run_uuid));
    if (found != 1 || cdb_writer_check(w, run_id, c, err, errlen) != 0 ||
        cdb_writer_count(w, run_id, c->verdict, err, errlen) != 0) {
        /* statements still holding the transaction would keep a rollback from ending it */
        for (int i = 0; i < W_COUNT_OF; i++)
            if (w->st[i])
                sqlite3_reset(w->st[i]);
        cdb_unit_rollback(w->db, unit);
        return -1;
    }
    return cdb_unit_commit(w->db, unit, err, errlen);
}

int cdb_check_put(struct cdb *db, const struct cdb_check *c, char *err, size_t errlen)
{
    struct cdb_writer *w = cdb_writer_new(db);
    int rc = check_put(w, c, err, errlen);
    cdb_writer_free(w); /* its key ids must not outlive a rollback */
    return rc;
}

struct cdb_check_recorder {
    struct cdb *db;
    struct cdb_writer *w; /* NULL after a failure: made again for the next check */
};

struct cdb_check_recorder *cdb_check_recorder_new(struct cdb *db)
{
    struct cdb_check_recorder *r = xcalloc(1, sizeof *r);
    r->db = db;
    return r;
}

int cdb_check_record(struct cdb_check_recorder *r, const struct cdb_check *c, char *err,
                     size_t errlen)
{
    if (!r->db) {
        snprintf(err, errlen, "storing a check: no database");
        return -1;
    }
    if (!r->w)
        r->w = cdb_writer_new(r->db);
    if (check_put(r->w, c, err, errlen) == 0)
        return 0;
    cdb_writer_free(r->w); /* its key ids must not outlive a rollback */
    r->w = NULL;
    return -1;
}

void cdb_check_recorder_free(struct cdb_check_recorder *r)
{
    if (!r)
        return;
    cdb_writer_free(r->w);
    free(r);
}

int cdb_check_doubt(struct cdb *db, const char *uuid, int seq, const char *detail, char *err,
                    size_t errlen)
{
    static const char *const sql[2] = {
        "UPDATE checks SET verdict = 'doubt', detail = ?3 WHERE verdict = 'fail' AND seq = ?2"
        " AND run_id = (SELECT id FROM runs WHERE uuid = ?1)",
        "UPDATE runs SET n_fail = n_fail - 1, n_doubt = n_doubt + 1 WHERE uuid = ?1"};
    int unit = cdb_unit_begin(db, err, errlen);
    if (unit < 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(db->h, sql[i], -1, &st, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_text(st, 1, uuid, -1, SQLITE_STATIC);
            sqlite3_bind_int(st, 2, seq);
            if (i == 0)
                sqlite3_bind_text(st, 3, detail ? detail : "", -1, SQLITE_STATIC);
            rc = sqlite3_step(st);
        }
        /* the run's counts change only when the check was stored as failing */
        bool changed = rc == SQLITE_DONE && sqlite3_changes(db->h) > 0;
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            cdb_fail(db, "putting a check in doubt", err, errlen);
            cdb_unit_rollback(db, unit);
            return -1;
        }
        if (!changed)
            break;
    }
    return cdb_unit_commit(db, unit, err, errlen);
}
