/* Migrations 2 to 10 (casedb/schema.c) from a database written at version 1, and migration 10
 * from one written at version 9 with seams and scores in their old columns. Migration 2
 * rebuilds runs and checks around integer ids. A database written
 * at version 1 must come through whole: every run in its order, every check with its key and
 * values, the per-run verdict counts computed from the old rows, the cascade from runs to checks
 * still in force, and SQLite's own integrity and foreign-key checks clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "casedb/results.h"
#include "casedb/hosts.h"
#include "casedb/results_query.h"
#include "casedb/schema.h"
#include "tests/unit/helpers/tmpdb.h"

/* Version 1 as it shipped, with results written by its own SQL: two machines, three runs (one
 * still running), checks sharing keys across runs, NULLs in the optional columns; and a case
 * index of one gap, two rungs and a case, which migration 7 rebuilds the rungs under. */
static const char v1_rows[] =
    "INSERT INTO gaps VALUES (1, 'g', 'Gap', 'G', 's', 's');"
    "INSERT INTO rungs VALUES (1, 'unit', 'Unit', 'U', 'r', 'r'), (8, 'model', 'Model', 'M', 'r', 'r');"
    "INSERT INTO rung_closes VALUES (1, 1), (8, 1);"
    "INSERT INTO cases (id, repo, arch, gap, rung, title_en, title_zh, summary_en, summary_zh,"
    " catch_en, catch_zh, verified) VALUES ('c-1', 'aiter', 'gfx1250', 1, 8, 't', 't', 's', 's', 'c',"
    " 'c', 1);"
    "INSERT INTO hosts (name, url, added) VALUES ('far', 'https://far.example/x.json', 't');"
    "INSERT INTO machines (id, host, backend, device, target, wave_size, kladder_version)"
    " VALUES ('m1', 'here', 'cpu', 'cpu', 'cpu-wave32', 32, '0.1.0'),"
    "        ('m2', 'far', 'cuda', 'NVIDIA H200', 'sm_90', 32, '0.1.0');"
    /* inserted out of time order on purpose: rowid order is what the oldest-first list keeps */
    "INSERT INTO runs (uuid, machine_id, host, origin, rung, suite, started, finished, verdict)"
    " VALUES ('bbbb0000-0000-4000-8000-000000000002', 'm2', 'far', 'far', 1, 's', '2026-11-02T00:00:00Z',"
    "          '2026-11-02T00:01:00Z', 'fail'),"
    "        ('aaaa0000-0000-4000-8000-000000000001', 'm1', 'here', NULL, 1, 's', '2026-11-01T00:00:00Z',"
    "          '2026-11-01T00:01:00Z', 'pass'),"
    "        ('cccc0000-0000-4000-8000-000000000003', 'm1', 'here', NULL, 5, 't', '2026-11-03T00:00:00Z',"
    "          NULL, 'running');"
    "INSERT INTO checks (run_uuid, seq, rung, suite, variant, check_name, shape, oracle, verdict,"
    " detail, first_bad, bad_count, max_err, time_median_us, time_min_us, time_max_us, repeats,"
    " limit_s) VALUES"
    " ('aaaa0000-0000-4000-8000-000000000001', 0, 1, 's', 'fixed', 'tail', 'M=64', 'reference', 'pass',"
    "  '', NULL, NULL, NULL, 10.0, 9.0, 11.0, 5, NULL),"
    " ('aaaa0000-0000-4000-8000-000000000001', 1, 1, 's', 'buggy', 'tail', 'M=64', 'reference', 'pass',"
    "  'missed', NULL, NULL, 0.0, 12.0, 11.0, 13.0, 5, 10.0),"
    " ('bbbb0000-0000-4000-8000-000000000002', 0, 1, 's', 'fixed', 'tail', 'M=64', 'reference', 'pass',"
    "  '', NULL, NULL, NULL, 20.0, 19.0, 21.0, 5, NULL),"
    " ('bbbb0000-0000-4000-8000-000000000002', 1, 1, 's', 'buggy', 'tail', 'M=64', 'reference', 'fail',"
    "  '7 of 64 differ', 57, 7, 3.5, 21.0, 20.0, 22.0, 5, NULL),"
    " ('bbbb0000-0000-4000-8000-000000000002', 2, 1, 's', 'buggy', 'hang', 'M=64', 'no-hang', 'hang',"
    "  'no progress', NULL, NULL, NULL, NULL, NULL, NULL, 1, 2.0),"
    " ('cccc0000-0000-4000-8000-000000000003', 0, 5, 't', 'fixed', 'repeat', 'N=8', 'bitwise-repeat',"
    "  'skip', 'no device', NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL);";

static char path[64];

static bool same(double x, double y)
{
    return fabs(x - y) < 1e-12;
}

static int make_v1(void **state)
{
    (void)state;
    assert_int_equal(tmpdb_make("migrate", path, sizeof path), 0);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    for (const char *const *part = cdb_migrations[0]; *part; part++)
        assert_int_equal(sqlite3_exec(h, *part, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, v1_rows, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "PRAGMA user_version = 1;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    return 0;
}

static int drop_file(void **state)
{
    (void)state;
    tmpdb_remove(path);
    return 0;
}

static struct cdb *open_migrated(void)
{
    struct cdb *db;
    char err[512];
    int rc = cdb_open(path, &db, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
    return db;
}

static long long one_int(struct cdb *db, const char *sql)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(cdb_handle(db), sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void test_version_and_integrity(void **state)
{
    (void)state;
    struct cdb *db = open_migrated();
    assert_int_equal(one_int(db, "PRAGMA user_version"), (long long)cdb_migration_count);
    assert_int_equal(CDB_SCHEMA_VERSION, (int)cdb_migration_count);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(cdb_handle(db), "PRAGMA integrity_check", -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(cdb_handle(db), "PRAGMA foreign_key_check", -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE); /* no dangling reference */
    sqlite3_finalize(st);
    /* the run left running at version 1 has no owner: no later kladder judges it */
    assert_int_equal(one_int(db, "SELECT count(*) FROM runs WHERE verdict = 'running'"
                                 " AND owner_pid IS NULL"), 1);
    /* four distinct keys among six checks */
    assert_int_equal(one_int(db, "SELECT count(*) FROM check_keys"), 4);
    assert_int_equal(one_int(db, "SELECT count(*) FROM checks"), 6);
    cdb_close(db);
}

static void test_runs_keep_order_and_counts(void **state)
{
    (void)state;
    struct cdb *db = open_migrated();
    char err[512];
    struct cdb_run_list l;
    assert_int_equal(cdb_runs_query_oldest_first(db, NULL, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 3);
    assert_string_equal(l.items[0].run.uuid, "bbbb0000-0000-4000-8000-000000000002");
    assert_string_equal(l.items[1].run.uuid, "aaaa0000-0000-4000-8000-000000000001");
    assert_string_equal(l.items[2].run.uuid, "cccc0000-0000-4000-8000-000000000003");
    assert_string_equal(l.items[0].origin, "far");
    assert_null(l.items[1].origin);
    assert_int_equal(l.items[0].counts[CDB_PASS], 1);
    assert_int_equal(l.items[0].counts[CDB_FAIL], 1);
    assert_int_equal(l.items[0].counts[CDB_HANG], 1);
    assert_int_equal(l.items[0].n_checks, 3);
    assert_int_equal(l.items[1].counts[CDB_PASS], 2);
    assert_int_equal(l.items[2].counts[CDB_SKIP], 1);
    assert_int_equal(l.items[2].run.verdict, CDB_RUNNING);
    assert_null(l.items[2].run.finished);
    cdb_run_list_free(&l);
    cdb_close(db);
}

static void test_checks_keep_every_field(void **state)
{
    (void)state;
    struct cdb *db = open_migrated();
    char err[512];
    struct cdb_run_detail d;
    assert_int_equal(cdb_run_load(db, "bbbb", &d, err, sizeof err), 1);
    assert_int_equal(d.n_checks, 3);
    const struct cdb_check *c = &d.checks[1];
    assert_string_equal(c->run_uuid, "bbbb0000-0000-4000-8000-000000000002");
    assert_int_equal(c->seq, 1);
    assert_int_equal(c->rung, 1);
    assert_string_equal(c->suite, "s");
    assert_string_equal(c->variant, "buggy");
    assert_string_equal(c->check, "tail");
    assert_string_equal(c->shape, "M=64");
    assert_string_equal(c->oracle, "reference");
    assert_int_equal(c->verdict, CDB_FAIL);
    assert_string_equal(c->detail, "7 of 64 differ");
    assert_int_equal(c->first_bad, 57);
    assert_int_equal(c->bad_count, 7);
    assert_true(same(c->max_err, 3.5));
    assert_true(same(c->time_median_us, 21) && same(c->time_min_us, 20) && same(c->time_max_us, 22));
    assert_int_equal(c->repeats, 5);
    assert_true(isnan(c->limit_s));
    assert_int_equal(d.checks[2].verdict, CDB_HANG);
    assert_true(isnan(d.checks[2].time_median_us));
    assert_true(same(d.checks[2].limit_s, 2));
    cdb_run_detail_free(&d);
    cdb_close(db);
}

/* After the migration the tables behave as if created new: a run written with checks counts
 * them, removing a host's runs takes their checks, and a comparison matches by key. */
static void test_writes_after_migration(void **state)
{
    (void)state;
    struct cdb *db = open_migrated();
    char err[512];
    struct cdb_run r = {.uuid = "dddd0000-0000-4000-8000-000000000004", .machine_id = "m1",
                        .host = "here", .rung = 1, .suite = "s", .started = "2026-11-04T00:00:00Z",
                        .verdict = CDB_RUNNING};
    assert_int_equal(cdb_run_put(db, &r, err, sizeof err), 0);
    struct cdb_check c = {.run_uuid = r.uuid, .seq = 0, .rung = 1, .suite = "s",
                          .variant = "buggy", .check = "tail", .shape = "M=64",
                          .oracle = "reference", .verdict = CDB_FAIL, .detail = "x",
                          .first_bad = 3, .bad_count = 1, .max_err = 1, .time_median_us = 9,
                          .time_min_us = 8, .time_max_us = 10, .repeats = 5, .limit_s = NAN};
    assert_int_equal(cdb_check_put(db, &c, err, sizeof err), 0);
    assert_int_equal(cdb_run_finish(db, r.uuid, "2026-11-04T00:01:00Z", CDB_FAIL, err, sizeof err), 0);
    assert_int_equal(one_int(db, "SELECT count(*) FROM check_keys"), 4); /* key reused */
    assert_int_equal(
        one_int(db, "SELECT n_fail FROM runs WHERE uuid = 'dddd0000-0000-4000-8000-000000000004'"), 1);
    /* a check for a run that does not exist is refused and leaves nothing behind */
    struct cdb_check orphan = c;
    orphan.run_uuid = "eeee0000-0000-4000-8000-000000000005";
    orphan.check = "new-key";
    assert_int_not_equal(cdb_check_put(db, &orphan, err, sizeof err), 0);
    assert_int_equal(one_int(db, "SELECT count(*) FROM check_keys"), 4);

    struct cdb_side a = {.kind = CDB_SIDE_LOCAL}, b = {.kind = CDB_SIDE_ORIGIN};
    snprintf(b.value, sizeof b.value, "far");
    struct cdb_compare cmp;
    assert_int_equal(cdb_compare_load(db, &a, &b, -1, &cmp, err, sizeof err), 0);
    /* local's latest buggy tail is the new run's fail (9 us); far's is 21 us */
    int seen = 0;
    for (size_t i = 0; i < cmp.n; i++) {
        const struct cdb_compare_row *row = &cmp.rows[i];
        if (strcmp(row->check, "tail") == 0 && strcmp(row->variant, "buggy") == 0) {
            seen++;
            assert_true(row->a.present && row->b.present);
            assert_int_equal(row->a.verdict, CDB_FAIL);
            assert_true(same(row->a.median_us, 9) && same(row->b.median_us, 21));
            assert_string_equal(row->a.run_uuid, r.uuid);
        }
    }
    assert_int_equal(seen, 1);
    cdb_compare_free(&cmp);

    int purged = 0;
    assert_int_equal(cdb_host_remove(db, "far", true, &purged, err, sizeof err), 1);
    assert_int_equal(purged, 1);
    assert_int_equal(one_int(db, "SELECT count(*) FROM checks"), 4); /* far's 3 went with it */
    cdb_close(db);
}

/* Migration 5: checks recorded before it have no score; a rung 8 check written after it keeps
 * its score, baseline, samples and diverging step (in its facts since migration 10), and a comparison of two
 * sides sets the two scores side by side. */
static void test_scores_after_migration(void **state)
{
    (void)state;
    struct cdb *db = open_migrated();
    char err[512];
    assert_int_equal(one_int(db, "SELECT count(*) FROM checks WHERE facts IS NULL"), 6);
    struct cdb_run_detail d;
    assert_int_equal(cdb_run_load(db, "bbbb", &d, err, sizeof err), 1);
    for (size_t i = 0; i < d.n_checks; i++)
        assert_false(d.checks[i].score.set);
    cdb_run_detail_free(&d);
    const char *uuids[2] = {"dddd0000-0000-4000-8000-000000000004",
                            "eeee0000-0000-4000-8000-000000000005"};
    for (int i = 0; i < 2; i++) {
        struct cdb_run r = {.uuid = uuids[i], .machine_id = i ? "m2" : "m1",
                            .host = i ? "far" : "here", .rung = 8, .suite = "model",
                            .started = i ? "2026-11-05T00:00:00Z" : "2026-11-04T00:00:00Z",
                            .verdict = CDB_RUNNING};
        assert_int_equal(cdb_run_put(db, &r, err, sizeof err), 0);
        struct cdb_check c = {.run_uuid = r.uuid, .rung = 8, .suite = "model",
                              .variant = "buggy", .check = "model:swap:kv_gather_buggy",
                              .shape = "V=64,D=100,F=200,T=8", .oracle = "score",
                              .verdict = i ? CDB_FAIL : CDB_PASS, .detail = "x", .first_bad = -1,
                              .bad_count = -1, .max_err = NAN, .time_median_us = NAN,
                              .time_min_us = NAN, .time_max_us = NAN, .repeats = 1,
                              .limit_s = NAN,
                              .score = {.set = true, .value = i ? 0.625 : 1.0, .baseline = 1,
                                        .samples = 8, .diverge_step = i ? 5 : -1}};
        assert_int_equal(cdb_check_put(db, &c, err, sizeof err), 0);
        assert_int_equal(cdb_run_finish(db, r.uuid, i ? "2026-11-05T00:01:00Z"
                                                      : "2026-11-04T00:01:00Z",
                                        c.verdict, err, sizeof err), 0);
    }
    /* the second run is made "far": pulled from the host of that name */
    assert_int_equal(sqlite3_exec(cdb_handle(db), "UPDATE runs SET origin = 'far' WHERE uuid ="
                                  " 'eeee0000-0000-4000-8000-000000000005'", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(cdb_run_load(db, uuids[1], &d, err, sizeof err), 1);
    assert_true(d.checks[0].score.set && same(d.checks[0].score.value, 0.625));
    assert_true(same(d.checks[0].score.baseline, 1));
    assert_int_equal(d.checks[0].score.samples, 8);
    assert_int_equal(d.checks[0].score.diverge_step, 5);
    cdb_run_detail_free(&d);
    assert_int_equal(cdb_run_load(db, uuids[0], &d, err, sizeof err), 1);
    assert_int_equal(d.checks[0].score.diverge_step, -1);
    cdb_run_detail_free(&d);

    struct cdb_side a = {.kind = CDB_SIDE_LOCAL}, b = {.kind = CDB_SIDE_ORIGIN};
    snprintf(b.value, sizeof b.value, "far");
    struct cdb_compare cmp;
    assert_int_equal(cdb_compare_load(db, &a, &b, 8, &cmp, err, sizeof err), 0);
    assert_int_equal(cmp.n, 1);
    const struct cdb_compare_row *row = &cmp.rows[0];
    assert_true(row->scored && row->score_differs);
    assert_true(same(row->score_diff, -0.375) && same(row->score_ratio, 0.625));
    assert_int_equal(row->b.score.diverge_step, 5);
    assert_int_equal(cmp.summary.differing_scores, 1);
    cdb_compare_free(&cmp);
    cdb_close(db);
}

/* Migration 7: the ladder's length is not fixed at eight. The index's rungs and the case that
 * names one come through; a rung past 8 up to CDB_RUNG_MAX is kept, in the index and in the
 * results, and one past CDB_RUNG_MAX is refused by the table itself. */
static void test_rungs_past_eight(void **state)
{
    (void)state;
    struct cdb *db = open_migrated();
    char err[512];
    assert_int_equal(one_int(db, "SELECT count(*) FROM rungs"), 2);
    assert_int_equal(one_int(db, "SELECT rung FROM cases WHERE id = 'c-1'"), 8);
    assert_int_equal(one_int(db, "SELECT count(*) FROM rung_closes"), 2);
    sqlite3 *h = cdb_handle(db);
    char sql[256];
    snprintf(sql, sizeof sql, "INSERT INTO rungs VALUES (%d, 'top', 'Top', 'T', 'r', 'r')",
             CDB_RUNG_MAX);
    assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    snprintf(sql, sizeof sql, "INSERT INTO rungs VALUES (%d, 'past', 'Past', 'P', 'r', 'r')",
             CDB_RUNG_MAX + 1);
    assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_CONSTRAINT_CHECK);
    const int rungs[] = {9, CDB_RUNG_MAX, CDB_RUNG_MAX + 1};
    for (size_t i = 0; i < sizeof rungs / sizeof rungs[0]; i++) {
        int rung = rungs[i];
        char uuid[40];
        snprintf(uuid, sizeof uuid, "ffff0000-0000-4000-8000-%012d", rung);
        struct cdb_run r = {.uuid = uuid, .machine_id = "m1", .host = "here", .rung = rung,
                            .suite = "nine", .started = "2026-11-06T00:00:00Z",
                            .verdict = CDB_RUNNING};
        int rc = cdb_run_put(db, &r, err, sizeof err);
        if (rung <= CDB_RUNG_MAX) {
            assert_int_equal(rc, 0);
            assert_int_equal(cdb_run_finish(db, uuid, "2026-11-06T00:01:00Z", CDB_PASS, err,
                                            sizeof err), 0);
        } else {
            assert_int_not_equal(rc, 0);
            assert_non_null(strstr(err, "rung"));
        }
    }
    snprintf(sql, sizeof sql, "SELECT count(*) FROM runs WHERE rung = %d", CDB_RUNG_MAX);
    assert_int_equal(one_int(db, sql), 1);
    /* the runs kept their ids and the checks still belong to them */
    assert_int_equal(one_int(db, "SELECT count(*) FROM checks c JOIN runs r ON r.id = c.run_id"),
                     6);
    cdb_close(db);
}

/* Version 9 as it shipped: a rung 3 check with a seam, a rung 8 check with a score whose value
 * needs all 17 digits and no baseline, one with both, and one with neither. */
static const char v9_rows[] =
    "INSERT INTO machines (id, host, backend, device, target, wave_size, kladder_version)"
    " VALUES ('m1', 'here', 'cpu', 'cpu', 'cpu-wave32', 32, '0.1.0');"
    "INSERT INTO runs (id, uuid, machine_id, host, rung, suite, started, finished, verdict, n_fail)"
    " VALUES (1, '99990000-0000-4000-8000-000000000009', 'm1', 'here', 3, 's',"
    "         '2026-11-01T00:00:00Z', '2026-11-01T00:01:00Z', 'fail', 2);"
    "INSERT INTO check_keys (id, rung, suite, check_name, shape, variant) VALUES"
    " (1, 3, 's', 'wave32-default', 'M=64', 'buggy'), (2, 8, 'model', 'model:fixed', 'T=8', 'fixed'),"
    " (3, 8, 'model', 'model:both', 'T=8', 'buggy'), (4, 3, 's', 'plain', 'M=64', 'fixed');"
    "INSERT INTO checks (run_id, seq, key_id, oracle, verdict, detail, repeats, seam, seam_a,"
    " seam_b, score, score_baseline, score_samples, score_diverge_step) VALUES"
    " (1, 0, 1, 'wave', 'fail', 'd', 1, 'wave', 'kernel \"k\" assumes: wave 64', 'this run: wave 32',"
    "  NULL, NULL, NULL, NULL),"
    " (1, 1, 2, 'score', 'pass', 'd', 1, NULL, NULL, NULL, 0.30000000000000004, NULL, 8, NULL),"
    " (1, 2, 3, 'score', 'fail', 'd', 1, 'values', 'a', 'b', 0.625, 1.0, 16, 5),"
    " (1, 3, 4, 'reference', 'pass', 'd', 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL);";

static int make_v9(void **state)
{
    (void)state;
    assert_int_equal(tmpdb_make("migrate9", path, sizeof path), 0);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    for (size_t m = 0; m < 9; m++)
        for (const char *const *part = cdb_migrations[m]; *part; part++)
            assert_int_equal(sqlite3_exec(h, *part, NULL, NULL, NULL), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(h, v9_rows, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s", msg);
    assert_int_equal(sqlite3_exec(h, "PRAGMA user_version = 9;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    return 0;
}

/* Migration 10: the seam and score columns move into the one facts object and are gone; each
 * check reads back what it had, to the last bit, and a check that had neither has no facts. */
static void test_facts_from_v9(void **state)
{
    (void)state;
    struct cdb *db = open_migrated();
    char err[512];
    assert_int_equal(one_int(db, "PRAGMA user_version"), (long long)cdb_migration_count);
    assert_int_equal(one_int(db, "SELECT count(*) FROM pragma_table_info('checks') WHERE name"
                                 " LIKE 'seam%' OR name LIKE 'score%'"), 0);
    assert_int_equal(one_int(db, "SELECT count(*) FROM checks WHERE facts IS NULL"), 1);
    assert_int_equal(one_int(db, "SELECT count(*) FROM checks WHERE json_valid(facts)"), 3);
    /* members that were NULL are left out, not written as null */
    assert_int_equal(one_int(db, "SELECT count(*) FROM checks WHERE facts LIKE '%null%'"), 0);
    struct cdb_run_detail d;
    assert_int_equal(cdb_run_load(db, "9999", &d, err, sizeof err), 1);
    assert_int_equal(d.n_checks, 4);
    const struct cdb_check *c = d.checks;
    for (size_t i = 0; i < d.n_checks; i++) {
        switch (d.checks[i].seq) {
        case 0:
            c = &d.checks[i];
            assert_string_equal(c->seam, "wave");
            assert_string_equal(c->seam_a, "kernel \"k\" assumes: wave 64");
            assert_string_equal(c->seam_b, "this run: wave 32");
            assert_false(c->score.set);
            break;
        case 1:
            c = &d.checks[i];
            assert_null(c->seam);
            assert_true(c->score.set);
            double exact = 0.1 + 0.2; /* a merge compares bits */
            assert_memory_equal(&c->score.value, &exact, sizeof exact);
            assert_true(isnan(c->score.baseline));
            assert_int_equal(c->score.samples, 8);
            assert_int_equal(c->score.diverge_step, -1);
            break;
        case 2:
            c = &d.checks[i];
            assert_string_equal(c->seam, "values");
            assert_string_equal(c->seam_b, "b");
            assert_true(c->score.set && same(c->score.value, 0.625) && same(c->score.baseline, 1));
            assert_int_equal(c->score.samples, 16);
            assert_int_equal(c->score.diverge_step, 5);
            break;
        default:
            c = &d.checks[i];
            assert_null(c->seam);
            assert_false(c->score.set);
        }
    }
    cdb_run_detail_free(&d);
    /* a check written now lands in the facts too, and a facts value that is not JSON is refused */
    struct cdb_check w = {.run_uuid = "99990000-0000-4000-8000-000000000009", .seq = 4, .rung = 3,
                          .suite = "s", .variant = "fixed", .check = "new", .shape = "M=1",
                          .oracle = "wave", .verdict = CDB_PASS, .detail = "x", .first_bad = -1,
                          .bad_count = -1, .max_err = NAN, .time_median_us = NAN,
                          .time_min_us = NAN, .time_max_us = NAN, .repeats = 1, .limit_s = NAN,
                          .seam = "wave", .seam_a = "a", .seam_b = "b",
                          .score = {.set = false}};
    assert_int_equal(cdb_check_put(db, &w, err, sizeof err), 0);
    assert_int_equal(one_int(db, "SELECT count(*) FROM checks WHERE seq = 4 AND facts ="
                                 " '{\"seam\":{\"what\":\"wave\",\"a\":\"a\",\"b\":\"b\"}}'"), 1);
    assert_int_not_equal(sqlite3_exec(cdb_handle(db), "UPDATE checks SET facts = 'not json'"
                                      " WHERE seq = 4", NULL, NULL, NULL), SQLITE_OK);
    cdb_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_version_and_integrity, make_v1, drop_file),
        cmocka_unit_test_setup_teardown(test_runs_keep_order_and_counts, make_v1, drop_file),
        cmocka_unit_test_setup_teardown(test_checks_keep_every_field, make_v1, drop_file),
        cmocka_unit_test_setup_teardown(test_writes_after_migration, make_v1, drop_file),
        cmocka_unit_test_setup_teardown(test_scores_after_migration, make_v1, drop_file),
        cmocka_unit_test_setup_teardown(test_rungs_past_eight, make_v1, drop_file),
        cmocka_unit_test_setup_teardown(test_facts_from_v9, make_v9, drop_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
