/* Reading results: runs, checks, machines and comparison rows (results_query.h). */
#include "casedb/results_query.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb_internal.h"
#include "casedb/check_facts.h"
#include "casedb/pool.h"
#include "common/text.h"
#include "common/xalloc.h"

static double col_double(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? (double)NAN : sqlite3_column_double(st, i);
}

static int64_t col_int64_or(sqlite3_stmt *st, int i, int64_t none)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? none : sqlite3_column_int64(st, i);
}

static enum cdb_verdict col_verdict(sqlite3_stmt *st, int i)
{
    int v = cdb_verdict_parse((const char *)sqlite3_column_text(st, i));
    return v < 0 ? CDB_ERROR : (enum cdb_verdict)v;
}

/* ---- the run filter, shared by every query over runs ------------------------------------ */

void cdb_run_filter_init(struct cdb_run_filter *f)
{
    memset(f, 0, sizeof *f);
    f->rung = -1;
    f->verdict = -1;
}

/* Parameters ?1..?7 of RUN_WHERE. A rung N > 0 keeps the runs of rung N and the runs of several
 * rungs (rung 0) that ran a check of it. */
#define RUN_WHERE                                                                               \
    " (?1 IS NULL OR r.origin = ?1) AND (?2 < 0 OR r.rung = ?2 OR (?2 > 0 AND r.rung = 0 AND"   \
    " EXISTS (SELECT 1 FROM checks c JOIN check_keys k ON k.id = c.key_id"                     \
    " WHERE c.run_id = r.id AND k.rung = ?2)))"                                                 \
    " AND (?3 IS NULL OR r.verdict = ?3) AND (?4 = 0 OR r.origin IS NULL)"                      \
    " AND (?5 = 0 OR r.verdict != 'running') AND (?6 IS NULL OR r.finished >= ?6)"              \
    " AND (?7 IS NULL OR r.id > (SELECT id FROM runs WHERE uuid = ?7)) "

static void bind_filter(sqlite3_stmt *st, const struct cdb_run_filter *f)
{
    struct cdb_run_filter any;
    if (!f) {
        cdb_run_filter_init(&any);
        f = &any;
    }
    bool local = f->local_only || (f->host && strcmp(f->host, "local") == 0);
    cdb_bind_text(st, 1, local ? NULL : f->host);
    sqlite3_bind_int(st, 2, f->rung);
    cdb_bind_text(st, 3, f->verdict >= 0 ? cdb_verdict_name((enum cdb_verdict)f->verdict) : NULL);
    sqlite3_bind_int(st, 4, local);
    sqlite3_bind_int(st, 5, f->finished_only);
    cdb_bind_text(st, 6, f->since_time);
    cdb_bind_text(st, 7, f->after_uuid);
}

/* ---- runs ------------------------------------------------------------------------------- */

#define RUN_COLUMNS                                                                             \
    "r.uuid, r.machine_id, r.host, r.origin, r.rung, r.suite, r.case_id, r.variant, r.argv,"    \
    " r.started, r.finished, r.verdict, m.host, m.backend, m.device, m.target, m.wave_size,"    \
    " m.compute_units, m.mem_bytes, m.driver_version, m.runtime_version, m.compiler_version,"   \
    " m.compute_partition, m.memory_partition, m.kladder_version, m.kladder_commit,"            \
    " r.n_pass, r.n_fail, r.n_hang, r.n_error, r.n_skip, r.n_cancelled," RUN_CAUGHT
/* Checks of the buggy variant that failed, then hung: read from the checks only for a run that
 * has such a verdict at all, so listing runs that all passed still reads no checks. */
#define RUN_CAUGHT_ONE(n_col, verdict)                                                          \
    " CASE WHEN r." n_col " = 0 THEN 0 ELSE (SELECT count(*) FROM checks c"                     \
    " JOIN check_keys k ON k.id = c.key_id WHERE c.run_id = r.id AND k.variant = 'buggy'"      \
    " AND c.verdict = '" verdict "') END"
#define RUN_CAUGHT RUN_CAUGHT_ONE("n_fail", "fail") "," RUN_CAUGHT_ONE("n_hang", "hang") ", r.n_doubt," \
    RUN_RUNGS
/* The rungs a run of several rungs (rung 0) ran, as bits, from its checks; a run of one rung
 * reads none. */
#define RUN_RUNGS                                                                               \
    " CASE WHEN r.rung != 0 THEN 1 << r.rung ELSE (SELECT coalesce(sum(DISTINCT 1 << k.rung), 0)" \
    " FROM checks c JOIN check_keys k ON k.id = c.key_id WHERE c.run_id = r.id) END, r.exported_verdict," \
    RUN_EXEC_VERDICT
/* A `kladder exec` run's own verdict word, from its program check (seq 0); NULL for the
 * ladder's runs, which read no check for it. */
#define RUN_EXEC_VERDICT                                                                        \
    " CASE WHEN r.variant = 'exec' THEN (SELECT " CDB_FACT("c.", "exec.verdict")               \
    " FROM checks c WHERE c.run_id = r.id AND c.seq = 0) END"
#define RUN_FROM " FROM runs r JOIN machines m ON m.id = r.machine_id "

/* The machine columns host .. kladder_commit, in the order of the machines table, from column
 * `at` on (both readers of machines select them so). */
static void read_machine(struct cdb_pool *p, sqlite3_stmt *st, int at, struct cdb_machine *m)
{
    m->host = cdb_pool_col(p, st, at);
    m->backend = cdb_pool_col(p, st, at + 1);
    m->device = cdb_pool_col(p, st, at + 2);
    m->target = cdb_pool_col(p, st, at + 3);
    m->wave_size = sqlite3_column_int(st, at + 4);
    m->compute_units = sqlite3_column_int(st, at + 5);
    m->mem_bytes = sqlite3_column_int64(st, at + 6);
    m->driver_version = cdb_pool_col(p, st, at + 7);
    m->runtime_version = cdb_pool_col(p, st, at + 8);
    m->compiler_version = cdb_pool_col(p, st, at + 9);
    m->compute_partition = cdb_pool_col(p, st, at + 10);
    m->memory_partition = cdb_pool_col(p, st, at + 11);
    m->kladder_version = cdb_pool_col(p, st, at + 12);
    m->kladder_commit = cdb_pool_col(p, st, at + 13);
}

static void read_run(struct cdb_pool *p, sqlite3_stmt *st, struct cdb_run_info *ri)
{
    memset(ri, 0, sizeof *ri);
    struct cdb_run *r = &ri->run;
    r->uuid = cdb_pool_col(p, st, 0);
    r->machine_id = cdb_pool_col(p, st, 1);
    r->host = cdb_pool_col(p, st, 2);
    ri->origin = cdb_pool_col(p, st, 3);
    r->rung = sqlite3_column_int(st, 4);
    r->suite = cdb_pool_col(p, st, 5);
    r->case_id = cdb_pool_col(p, st, 6);
    r->variant = cdb_pool_col(p, st, 7);
    r->argv = cdb_pool_col(p, st, 8);
    r->started = cdb_pool_col(p, st, 9);
    r->finished = cdb_pool_col(p, st, 10);
    r->verdict = col_verdict(st, 11);
    struct cdb_machine *m = &ri->machine;
    snprintf(m->id, sizeof m->id, "%s", r->machine_id ? r->machine_id : "");
    read_machine(p, st, 12, m);
    /* counts stored with the run (migration 2), in the order of enum cdb_verdict */
    for (int v = CDB_PASS; v <= CDB_CANCELLED; v++) {
        ri->counts[v] = sqlite3_column_int(st, 26 + v);
        ri->n_checks += ri->counts[v];
    }
    ri->caught_fail = sqlite3_column_int(st, 26 + CDB_CANCELLED + 1);
    ri->caught_hang = sqlite3_column_int(st, 26 + CDB_CANCELLED + 2);
    ri->counts[CDB_DOUBT] = sqlite3_column_int(st, 26 + CDB_CANCELLED + 3); /* migration 6 */
    ri->rungs = (unsigned)sqlite3_column_int(st, 26 + CDB_CANCELLED + 4);
    ri->n_checks += ri->counts[CDB_DOUBT];
    r->exported_verdict = cdb_pool_col(p, st, 26 + CDB_CANCELLED + 5); /* migration 8 */
    ri->exec_verdict = cdb_pool_col(p, st, 26 + CDB_CANCELLED + 6);
}

static int runs_query(struct cdb *db, const struct cdb_run_filter *f, const char *order,
                      struct cdb_run_list *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *sql = xasprintf("SELECT " RUN_COLUMNS RUN_FROM "WHERE" RUN_WHERE "ORDER BY %s", order);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    free(sql);
    if (rc != SQLITE_OK)
        return cdb_fail(db, "listing runs", err, errlen);
    bind_filter(st, f);
    out->pool = cdb_pool_new();
    size_t cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->n == cap) {
            cap = cap ? cap * 2 : 32;
            out->items = xrealloc(out->items, cap * sizeof *out->items);
        }
        read_run(out->pool, st, &out->items[out->n++]);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cdb_run_list_free(out);
        return cdb_fail(db, "listing runs", err, errlen);
    }
    return 0;
}

int cdb_runs_query(struct cdb *db, const struct cdb_run_filter *f, struct cdb_run_list *out,
                   char *err, size_t errlen)
{
    return runs_query(db, f, "r.started DESC, r.id DESC", out, err, errlen);
}

int cdb_runs_query_oldest_first(struct cdb *db, const struct cdb_run_filter *f,
                                struct cdb_run_list *out, char *err, size_t errlen)
{
    return runs_query(db, f, "r.id", out, err, errlen);
}

void cdb_run_list_free(struct cdb_run_list *l)
{
    free(l->items);
    cdb_pool_free(l->pool);
    memset(l, 0, sizeof *l);
}

int cdb_run_exists(struct cdb *db, const char *uuid, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM runs WHERE uuid = ?1", -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "looking up a run", err, errlen);
    cdb_bind_text(st, 1, uuid);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return cdb_fail(db, "looking up a run", err, errlen);
    return rc == SQLITE_ROW;
}

#define CHECK_COLUMNS                                                                           \
    "r.uuid, c.seq, k.rung, k.suite, k.variant, k.check_name, k.shape, c.oracle, c.verdict,"    \
    " c.detail, c.first_bad, c.bad_count, c.max_err, c.time_median_us, c.time_min_us,"          \
    " c.time_max_us, c.repeats, c.limit_s, " CDB_FACT("c.", "seam.what") ","                     \
    " " CDB_FACT("c.", "seam.a") ", " CDB_FACT("c.", "seam.b") ", c.value_class, "                \
    CDB_FACT("c.", "score.value") ", " CDB_FACT("c.", "score.baseline") ", "                     \
    CDB_FACT("c.", "score.samples") ", " CDB_FACT("c.", "score.diverge_step") ", "               \
    CDB_FACT("c.", "exec")
/* CHECK_COLUMNS read from runs r and checks c joined with their key */
#define CHECK_KEY_JOIN " JOIN check_keys k ON k.id = c.key_id "

/* With p NULL the strings point into SQLite's row (valid until the next step). */
static void read_check(struct cdb_pool *p, sqlite3_stmt *st, struct cdb_check *c)
{
#define S(i) (p ? cdb_pool_col(p, st, i) : (const char *)sqlite3_column_text(st, i))
    c->run_uuid = S(0);
    c->seq = sqlite3_column_int(st, 1);
    c->rung = sqlite3_column_int(st, 2);
    c->suite = S(3);
    c->variant = S(4);
    c->check = S(5);
    c->shape = S(6);
    c->oracle = S(7);
    c->verdict = col_verdict(st, 8);
    c->detail = S(9);
    c->seam = S(18);
    c->seam_a = S(19);
    c->seam_b = S(20);
    c->value_class = S(21);
    c->exec = S(26);
#undef S
    c->first_bad = col_int64_or(st, 10, -1);
    c->bad_count = col_int64_or(st, 11, -1);
    c->max_err = col_double(st, 12);
    c->time_median_us = col_double(st, 13);
    c->time_min_us = col_double(st, 14);
    c->time_max_us = col_double(st, 15);
    c->repeats = sqlite3_column_int(st, 16);
    c->limit_s = col_double(st, 17);
    c->score.set = sqlite3_column_type(st, 22) != SQLITE_NULL;
    c->score.value = col_double(st, 22);
    c->score.baseline = col_double(st, 23);
    c->score.samples = col_int64_or(st, 24, -1);
    c->score.diverge_step = col_int64_or(st, 25, -1);
}

int cdb_run_load(struct cdb *db, const char *id, struct cdb_run_detail *out, char *err,
                 size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len = strlen(id);
    if (len < 4 || len > 36 || strspn(id, "0123456789abcdef-") != len) {
        char *shown = text_escape(id, 40);
        snprintf(err, errlen, "'%s' is not a run id (a UUID, or 4 or more of its first characters)",
                 shown);
        free(shown);
        return -1;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT " RUN_COLUMNS RUN_FROM
                           "WHERE r.uuid >= ?1 AND r.uuid < ?1 || 'g' LIMIT 2",
                           -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "loading a run", err, errlen);
    cdb_bind_text(st, 1, id);
    out->pool = cdb_pool_new();
    int found = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (found++ == 0)
            read_run(out->pool, st, &out->info);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cdb_run_detail_free(out);
        return cdb_fail(db, "loading a run", err, errlen);
    }
    if (found != 1) {
        cdb_run_detail_free(out);
        if (found == 0)
            return 0;
        snprintf(err, errlen, "run id '%s' matches more than one run; give more of it", id);
        return -1;
    }
    if (sqlite3_prepare_v2(db->h,
                           "SELECT " CHECK_COLUMNS " FROM runs r JOIN checks c ON c.run_id = r.id" CHECK_KEY_JOIN
                           "WHERE r.uuid = ?1 ORDER BY c.seq",
                           -1, &st, NULL) != SQLITE_OK) {
        cdb_run_detail_free(out);
        return cdb_fail(db, "loading a run's checks", err, errlen);
    }
    cdb_bind_text(st, 1, out->info.run.uuid);
    size_t cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->n_checks == cap) {
            cap = cap ? cap * 2 : 64;
            out->checks = xrealloc(out->checks, cap * sizeof *out->checks);
        }
        read_check(out->pool, st, &out->checks[out->n_checks++]);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cdb_run_detail_free(out);
        return cdb_fail(db, "loading a run's checks", err, errlen);
    }
    return 1;
}

void cdb_run_detail_free(struct cdb_run_detail *d)
{
    free(d->checks);
    cdb_pool_free(d->pool);
    memset(d, 0, sizeof *d);
}

int cdb_checks_each(struct cdb *db, const struct cdb_run_filter *f,
                    int (*fn)(void *ctx, const struct cdb_check *c), void *ctx, char *err,
                    size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT " CHECK_COLUMNS " FROM runs r JOIN checks c ON c.run_id = r.id" CHECK_KEY_JOIN
                           "WHERE" RUN_WHERE "ORDER BY r.id, c.seq",
                           -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "reading checks", err, errlen);
    bind_filter(st, f);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct cdb_check c;
        read_check(NULL, st, &c);
        stop = fn(ctx, &c);
    }
    if (!stop && rc != SQLITE_DONE) {
        sqlite3_finalize(st);
        return cdb_fail(db, "reading checks", err, errlen);
    }
    sqlite3_finalize(st);
    return stop;
}

/* ---- machines --------------------------------------------------------------------------- */

int cdb_machines_query(struct cdb *db, const struct cdb_run_filter *f,
                       struct cdb_machine_list *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    const char *sql =
        f ? "SELECT id, host, backend, device, target, wave_size, compute_units, mem_bytes,"
            " driver_version, runtime_version, compiler_version, compute_partition,"
            " memory_partition, kladder_version, kladder_commit FROM machines"
            " WHERE id IN (SELECT r.machine_id FROM runs r WHERE" RUN_WHERE ") ORDER BY host, id"
          : "SELECT id, host, backend, device, target, wave_size, compute_units, mem_bytes,"
            " driver_version, runtime_version, compiler_version, compute_partition,"
            " memory_partition, kladder_version, kladder_commit FROM machines ORDER BY host, id";
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "listing machines", err, errlen);
    if (f)
        bind_filter(st, f);
    out->pool = cdb_pool_new();
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->n == cap) {
            cap = cap ? cap * 2 : 8;
            out->items = xrealloc(out->items, cap * sizeof *out->items);
        }
        struct cdb_machine *m = &out->items[out->n++];
        memset(m, 0, sizeof *m);
        const char *id = (const char *)sqlite3_column_text(st, 0);
        snprintf(m->id, sizeof m->id, "%s", id ? id : "");
        read_machine(out->pool, st, 1, m);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cdb_machine_list_free(out);
        return cdb_fail(db, "listing machines", err, errlen);
    }
    return 0;
}

void cdb_machine_list_free(struct cdb_machine_list *l)
{
    free(l->items);
    cdb_pool_free(l->pool);
    memset(l, 0, sizeof *l);
}

/* ---- comparison ------------------------------------------------------------------------- */

static int exists_one(struct cdb *db, const char *sql, const char *key, char *out, size_t outlen,
                      int *count, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "resolving a comparison side", err, errlen);
    cdb_bind_text(st, 1, key);
    int rc;
    *count = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if ((*count)++ == 0 && out) {
            const char *v = (const char *)sqlite3_column_text(st, 0);
            snprintf(out, outlen, "%s", v ? v : "");
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : cdb_fail(db, "resolving a comparison side", err, errlen);
}

int cdb_side_resolve(struct cdb *db, const char *spec, struct cdb_side *out, char *err,
                     size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (strcmp(spec, "local") == 0) {
        out->kind = CDB_SIDE_LOCAL;
        return 0;
    }
    if (strlen(spec) >= sizeof out->value) {
        snprintf(err, errlen, "'%.20s…' is too long for a host name or machine id", spec);
        return -1;
    }
    int n;
    if (exists_one(db, "SELECT name FROM hosts WHERE name = ?1", spec, NULL, 0, &n, err, errlen))
        return -1;
    if (n) {
        out->kind = CDB_SIDE_ORIGIN;
        snprintf(out->value, sizeof out->value, "%s", spec);
        return 0;
    }
    if (exists_one(db, "SELECT 1 FROM runs WHERE host = ?1 AND origin IS NOT NULL LIMIT 1", spec,
                   NULL, 0, &n, err,
                   errlen))
        return -1;
    if (n) {
        out->kind = CDB_SIDE_HOST;
        snprintf(out->value, sizeof out->value, "%s", spec);
        return 0;
    }
    size_t len = strlen(spec);
    if (len >= 4 && len <= 32 && strspn(spec, "0123456789abcdef") == len) {
        if (exists_one(db, "SELECT id FROM machines WHERE id >= ?1 AND id < ?1 || 'g' LIMIT 2",
                       spec, out->value, sizeof out->value, &n, err, errlen))
            return -1;
        if (n == 1) {
            out->kind = CDB_SIDE_MACHINE;
            return 0;
        }
        if (n > 1) {
            snprintf(err, errlen, "machine id prefix '%s' matches more than one machine", spec);
            return -1;
        }
    }
    char *safe = xstrdup(spec);
    for (char *c = safe; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    snprintf(err, errlen,
             "'%.80s' is not 'local', a host of `kladder hosts list`, a host that produced pulled runs, "
             "or a machine id",
             safe);
    free(safe);
    return -1;
}

/* Which runs belong to a side: parameters ?1 (enum cdb_side_kind) and ?2 (its value). */
#define SIDE_WHERE                                                                              \
    " r.verdict != 'running' AND CASE ?1 WHEN 0 THEN r.origin IS NULL WHEN 1 THEN r.origin = ?2" \
    " WHEN 2 THEN r.host = ?2 AND r.origin IS NOT NULL ELSE r.machine_id = ?2 END "

/* Fills cells[key id] with each key's latest check on one side: runs newest started first, and
 * within a run its later checks first, so the first check seen for a key is the one kept.
 * Walking runs in that order and each run's checks by its primary key needs no sort of the
 * checks, and matching by integer key id needs no string comparison. */
static int side_load(struct cdb *db, const struct cdb_side *s, struct cdb_pool *p,
                     struct cdb_compare_cell *cells, sqlite3_int64 max_key, char *err,
                     size_t errlen)
{
    sqlite3_stmt *runs = NULL, *checks = NULL;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT r.id, r.uuid FROM runs r WHERE" SIDE_WHERE
                           "ORDER BY r.started DESC, r.id DESC",
                           -1, &runs, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db->h,
                           "SELECT key_id, verdict, time_median_us, time_min_us, time_max_us,"
                           " repeats, seq, " CDB_FACT("", "score.value") ", "
                           CDB_FACT("", "score.baseline") ", " CDB_FACT("", "score.samples") ", "
                           CDB_FACT("", "score.diverge_step")
                           " FROM checks WHERE run_id = ?1 ORDER BY seq DESC",
                           -1, &checks, NULL) != SQLITE_OK) {
        sqlite3_finalize(runs);
        return cdb_fail(db, "loading a comparison", err, errlen);
    }
    sqlite3_bind_int(runs, 1, (int)s->kind);
    cdb_bind_text(runs, 2, s->value);
    int rc = SQLITE_DONE, crc;
    while ((rc = sqlite3_step(runs)) == SQLITE_ROW) {
        const char *uuid = NULL;
        sqlite3_reset(checks);
        sqlite3_bind_int64(checks, 1, sqlite3_column_int64(runs, 0));
        while ((crc = sqlite3_step(checks)) == SQLITE_ROW) {
            sqlite3_int64 key = sqlite3_column_int64(checks, 0);
            if (key < 1 || key > max_key || cells[key].present)
                continue;
            struct cdb_compare_cell *c = &cells[key];
            if (!uuid)
                uuid = cdb_pool_col(p, runs, 1);
            c->present = true;
            c->verdict = col_verdict(checks, 1);
            c->median_us = col_double(checks, 2);
            c->min_us = col_double(checks, 3);
            c->max_us = col_double(checks, 4);
            c->repeats = sqlite3_column_int(checks, 5);
            c->seq = sqlite3_column_int(checks, 6);
            c->run_uuid = uuid;
            c->score.set = sqlite3_column_type(checks, 7) != SQLITE_NULL;
            c->score.value = col_double(checks, 7);
            c->score.baseline = col_double(checks, 8);
            c->score.samples = col_int64_or(checks, 9, -1);
            c->score.diverge_step = col_int64_or(checks, 10, -1);
        }
        if (crc != SQLITE_DONE) {
            rc = crc;
            break;
        }
    }
    sqlite3_finalize(checks);
    sqlite3_finalize(runs);
    return rc == SQLITE_DONE ? 0 : cdb_fail(db, "loading a comparison", err, errlen);
}

int cdb_compare_load(struct cdb *db, const struct cdb_side *a, const struct cdb_side *b, int rung,
                     struct cdb_compare *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->pool = cdb_pool_new();
    struct cdb_compare_cell *ca = NULL, *cb = NULL;
    sqlite3_stmt *st = NULL;
    sqlite3_int64 max_key = 0;
    int rc = sqlite3_prepare_v2(db->h, "SELECT coalesce(max(id), 0) FROM check_keys", -1, &st,
                                NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        max_key = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        cdb_fail(db, "loading a comparison", err, errlen);
        goto fail;
    }
    ca = xcalloc((size_t)max_key + 1, sizeof *ca);
    cb = xcalloc((size_t)max_key + 1, sizeof *cb);
    if (side_load(db, a, out->pool, ca, max_key, err, errlen) != 0 ||
        side_load(db, b, out->pool, cb, max_key, err, errlen) != 0)
        goto fail;
    /* the unique index on the key's columns hands the keys over already in row order */
    if (sqlite3_prepare_v2(db->h,
                           "SELECT id, rung, suite, check_name, shape, variant FROM check_keys"
                           " WHERE ?1 < 0 OR rung = ?1"
                           " ORDER BY rung, suite, check_name, shape, variant",
                           -1, &st, NULL) != SQLITE_OK) {
        cdb_fail(db, "loading a comparison", err, errlen);
        goto fail;
    }
    sqlite3_bind_int(st, 1, rung);
    size_t cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        sqlite3_int64 key = sqlite3_column_int64(st, 0);
        if (key < 1 || key > max_key || (!ca[key].present && !cb[key].present))
            continue;
        if (out->n == cap) {
            cap = cap ? cap * 2 : 64;
            out->rows = xrealloc(out->rows, cap * sizeof *out->rows);
        }
        struct cdb_compare_row *r = &out->rows[out->n++];
        memset(r, 0, sizeof *r);
        r->rung = sqlite3_column_int(st, 1);
        r->suite = cdb_pool_col(out->pool, st, 2);
        r->check = cdb_pool_col(out->pool, st, 3);
        r->shape = cdb_pool_col(out->pool, st, 4);
        r->variant = cdb_pool_col(out->pool, st, 5);
        r->a = ca[key];
        r->b = cb[key];
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        cdb_fail(db, "loading a comparison", err, errlen);
        goto fail;
    }
    free(ca), free(cb);
    cdb_compare_finish(out);
    return 0;
fail:
    free(ca), free(cb);
    cdb_compare_free(out);
    return -1;
}

static bool known(double v)
{
    return isfinite(v);
}

/* Judges a row's timing (see enum cdb_timing). One repeat says nothing about run-to-run noise,
 * and two runs of the same binary on the same GPU differ by a few percent with tight spreads,
 * so parted spreads alone are not enough: the difference must also exceed CDB_CMP_NOISE. */
static enum cdb_timing judge(const struct cdb_compare_row *r)
{
    double m = r->ratio >= 1 ? r->ratio : 1 / r->ratio;
    if (r->a.repeats < CDB_CMP_MIN_REPEATS || r->b.repeats < CDB_CMP_MIN_REPEATS ||
        !known(r->a.min_us) || !known(r->a.max_us) || !known(r->b.min_us) || !known(r->b.max_us))
        return CDB_TIMING_FEW;
    if (m >= CDB_CMP_LARGE)
        return CDB_TIMING_FLAGGED;
    bool apart = r->a.max_us < r->b.min_us || r->b.max_us < r->a.min_us;
    return apart && m > 1 + CDB_CMP_NOISE ? CDB_TIMING_FLAGGED : CDB_TIMING_NOISE;
}

void cdb_compare_finish(struct cdb_compare *c)
{
    struct cdb_compare_summary *s = &c->summary;
    memset(s, 0, sizeof *s);
    double log_sum = 0;
    for (size_t i = 0; i < c->n; i++) {
        struct cdb_compare_row *r = &c->rows[i];
        r->ratio = NAN;
        r->timing = CDB_TIMING_NONE;
        r->flagged = r->verdict_differs = r->skipped_one = r->scored = r->score_differs = false;
        r->score_diff = r->score_ratio = NAN;
        if (r->a.present && !r->b.present) {
            s->only_a++;
            continue;
        }
        if (!r->a.present) {
            s->only_b++;
            continue;
        }
        s->both++;
        /* a skip is "not judged here", not a verdict that disagrees */
        if ((r->a.verdict == CDB_SKIP) != (r->b.verdict == CDB_SKIP)) {
            r->skipped_one = true;
            s->skipped_one++;
        } else if (r->a.verdict != r->b.verdict) {
            r->verdict_differs = true;
            s->differing_verdicts++;
        }
        if (r->a.score.set && r->b.score.set) {
            double sa = r->a.score.value, sb = r->b.score.value;
            r->scored = true;
            r->score_diff = sb - sa;
            r->score_ratio = fabs(sa) > 0 ? sb / sa : (double)NAN;
            r->score_differs = fabs(sb - sa) > CDB_CMP_SCORE_TOL * fmax(fabs(sa), fabs(sb));
            s->scored++;
            s->differing_scores += r->score_differs;
        }
        if (known(r->a.median_us) && known(r->b.median_us) && r->a.median_us > 0 &&
            r->b.median_us > 0) {
            r->ratio = r->b.median_us / r->a.median_us;
            s->with_ratio++;
            r->timing = judge(r);
            if (r->timing != CDB_TIMING_FEW) {
                s->judged++;
                log_sum += log(r->ratio);
            }
            r->flagged = r->timing == CDB_TIMING_FLAGGED;
            s->flagged += r->timing == CDB_TIMING_FLAGGED;
            s->noise += r->timing == CDB_TIMING_NOISE;
            s->few_repeats += r->timing == CDB_TIMING_FEW;
        }
    }
    s->geomean_ratio = s->judged ? exp(log_sum / s->judged) : (double)NAN;
}

void cdb_compare_free(struct cdb_compare *c)
{
    free(c->rows);
    cdb_pool_free(c->pool);
    memset(c, 0, sizeof *c);
}
