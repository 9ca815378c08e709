/* Reading results back (casedb/results_query.h) and merging another host's runs
 * (casedb/merge.h): filters, counts, one run by UUID prefix, hosts, comparison sides and the
 * comparison arithmetic. Local runs are written through casedb/results.h as the engine does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/merge.h"
#include "casedb/results.h"
#include "casedb/hosts.h"
#include "casedb/results_query.h"

static struct cdb *fresh(void)
{
    struct cdb *db;
    char err[512];
    assert_int_equal(cdb_open(":memory:", &db, err, sizeof err), 0);
    return db;
}

static struct cdb_machine machine(const char *host, const char *device)
{
    struct cdb_machine m = {.host = host, .backend = "cpu", .device = device,
                            .target = "cpu-wave32", .wave_size = 32, .compute_units = 2,
                            .kladder_version = "0.1.0"};
    cdb_machine_make_id(&m);
    return m;
}

static struct cdb_check check(const char *run, int seq, const char *name, enum cdb_verdict v,
                              double med, double lo, double hi)
{
    struct cdb_check c = {.run_uuid = run, .seq = seq, .rung = 1, .suite = "fence",
                          .variant = "fixed", .check = name, .shape = "M=64",
                          .oracle = "reference", .verdict = v, .detail = "", .first_bad = -1,
                          .bad_count = -1, .max_err = NAN, .time_median_us = med,
                          .time_min_us = lo, .time_max_us = hi, .repeats = 5, .limit_s = NAN};
    return c;
}

/* A local run (origin NULL) with checks, as `kladder run` records it. */
static void local_run(struct cdb *db, const struct cdb_machine *m, const char *uuid, int rung,
                      const char *started, const struct cdb_check *cs, size_t n,
                      enum cdb_verdict v)
{
    char err[512];
    assert_int_equal(cdb_machine_put(db, m, err, sizeof err), 0);
    struct cdb_run r = {.uuid = uuid, .machine_id = m->id, .host = m->host, .rung = rung,
                        .suite = "fence", .variant = "fixed", .started = started,
                        .verdict = CDB_RUNNING};
    assert_int_equal(cdb_run_put(db, &r, err, sizeof err), 0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(cdb_check_put(db, &cs[i], err, sizeof err), 0);
    assert_int_equal(cdb_run_finish(db, uuid, started, v, err, sizeof err), 0);
}

#define U1 "11111111-1111-4111-8111-111111111111"
#define U2 "11112222-2222-4222-8222-222222222222"
#define U3 "33333333-3333-4333-8333-333333333333"

static void test_runs_filters_and_counts(void **state)
{
    (void)state;
    struct cdb *db = fresh();
    struct cdb_machine m = machine("box", "cpu (x86_64)");
    struct cdb_check c1[] = {check(U1, 0, "a", CDB_PASS, 10, 9, 11),
                             check(U1, 1, "b", CDB_FAIL, 10, 9, 11),
                             check(U1, 2, "c", CDB_FAIL, NAN, NAN, NAN)};
    local_run(db, &m, U1, 1, "2026-11-01T10:00:00Z", c1, 3, CDB_FAIL);
    struct cdb_check c2[] = {check(U2, 0, "a", CDB_PASS, 12, 11, 13)};
    local_run(db, &m, U2, 4, "2026-11-01T11:00:00Z", c2, 1, CDB_PASS);
    char err[512];
    struct cdb_run_list l;
    assert_int_equal(cdb_runs_query(db, NULL, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.items[0].run.uuid, U2); /* newest first */
    assert_int_equal(l.items[1].counts[CDB_FAIL], 2);
    assert_int_equal(l.items[1].counts[CDB_PASS], 1);
    assert_int_equal(l.items[1].n_checks, 3);
    assert_null(l.items[1].origin);
    assert_string_equal(l.items[1].machine.device, "cpu (x86_64)");
    assert_string_equal(l.items[1].machine.id, m.id);
    cdb_run_list_free(&l);

    struct cdb_run_filter f;
    cdb_run_filter_init(&f);
    f.rung = 4;
    assert_int_equal(cdb_runs_query(db, &f, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 1);
    cdb_run_list_free(&l);
    cdb_run_filter_init(&f);
    f.verdict = CDB_FAIL;
    f.host = "local";
    assert_int_equal(cdb_runs_query(db, &f, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.items[0].run.uuid, U1);
    cdb_run_list_free(&l);
    /* the machine's own host name is no host filter: runs made here are "local" */
    cdb_run_filter_init(&f);
    f.host = "box";
    assert_int_equal(cdb_runs_query(db, &f, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 0);
    cdb_run_list_free(&l);
    cdb_run_filter_init(&f);
    f.host = "local";
    assert_int_equal(cdb_runs_query(db, &f, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 2);
    cdb_run_list_free(&l);
    cdb_run_filter_init(&f);
    f.host = "elsewhere";
    assert_int_equal(cdb_runs_query(db, &f, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 0);
    cdb_run_list_free(&l);
    cdb_run_filter_init(&f);
    f.after_uuid = U1;
    assert_int_equal(cdb_runs_query_oldest_first(db, &f, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.items[0].run.uuid, U2);
    cdb_run_list_free(&l);
    cdb_close(db);
}

/* A run's checks through one recorder (the engine's database reporter): each stored with its
 * count; a put that fails (a run not stored, a seq taken) stores nothing, and the next put, with
 * a check key the failed one had made inside its rolled-back savepoint, is stored whole. */
static void test_check_recorder(void **state)
{
    (void)state;
    struct cdb *db = fresh();
    struct cdb_machine m = machine("box", "cpu (x86_64)");
    char err[512];
    assert_int_equal(cdb_machine_put(db, &m, err, sizeof err), 0);
    const char *uuids[] = {U1, U2}, *started[] = {"2026-11-01T10:00:00Z", "2026-11-01T11:00:00Z"};
    for (int i = 0; i < 2; i++) { /* running, as the reporter leaves them between checks */
        struct cdb_run run = {.uuid = uuids[i], .machine_id = m.id, .host = m.host, .rung = 2,
                              .suite = "fence", .variant = "fixed", .started = started[i],
                              .verdict = CDB_RUNNING};
        assert_int_equal(cdb_run_put(db, &run, err, sizeof err), 0);
    }
    struct cdb_check_recorder *r = cdb_check_recorder_new(db);
    struct cdb_check a = check(U1, 0, "a", CDB_PASS, 10, 9, 11);
    struct cdb_check b = check(U2, 0, "b", CDB_FAIL, 10, 9, 11);
    struct cdb_check c = check(U1, 1, "c", CDB_FAIL, 10, 9, 11);
    assert_int_equal(cdb_check_record(r, &a, err, sizeof err), 0);
    assert_int_equal(cdb_check_record(r, &b, err, sizeof err), 0); /* another run between */
    assert_int_equal(cdb_check_record(r, &c, err, sizeof err), 0);
    struct cdb_check gone = check(U3, 0, "a", CDB_PASS, 10, 9, 11);
    assert_int_equal(cdb_check_record(r, &gone, err, sizeof err), -1);
    assert_non_null(strstr(err, "no run " U3 " is stored"));
    struct cdb_check taken = check(U1, 1, "new-key", CDB_FAIL, 10, 9, 11);
    assert_int_equal(cdb_check_record(r, &taken, err, sizeof err), -1);
    struct cdb_check next = check(U1, 2, "new-key", CDB_PASS, 10, 9, 11);
    assert_int_equal(cdb_check_record(r, &next, err, sizeof err), 0);
    cdb_check_recorder_free(r);

    struct cdb_run_list l;
    assert_int_equal(cdb_runs_query(db, NULL, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.items[1].run.uuid, U1);
    assert_int_equal(l.items[1].n_checks, 3);
    assert_int_equal(l.items[1].counts[CDB_PASS], 2);
    assert_int_equal(l.items[1].counts[CDB_FAIL], 1);
    assert_int_equal(l.items[0].n_checks, 1);
    assert_int_equal(l.items[0].counts[CDB_FAIL], 1);
    cdb_run_list_free(&l);
    struct cdb_check_recorder *none = cdb_check_recorder_new(NULL);
    assert_int_equal(cdb_check_record(none, &a, err, sizeof err), -1);
    cdb_check_recorder_free(none);
    cdb_close(db);
}

static void test_run_load_prefix(void **state)
{
    (void)state;
    struct cdb *db = fresh();
    struct cdb_machine m = machine("box", "cpu");
    struct cdb_check c1[] = {check(U1, 1, "b", CDB_FAIL, NAN, NAN, NAN),
                             check(U1, 0, "a", CDB_PASS, 10, 9, 11)};
    local_run(db, &m, U1, 1, "2026-11-01T10:00:00Z", c1, 2, CDB_FAIL);
    local_run(db, &m, U2, 1, "2026-11-01T11:00:00Z", NULL, 0, CDB_PASS);
    local_run(db, &m, U3, 1, "2026-11-01T12:00:00Z", NULL, 0, CDB_PASS);
    char err[512];
    struct cdb_run_detail d;
    assert_int_equal(cdb_run_load(db, "1111", &d, err, sizeof err), -1); /* U1 and U2 */
    assert_non_null(strstr(err, "more than one"));
    assert_int_equal(cdb_run_load(db, "11111111", &d, err, sizeof err), 1);
    assert_string_equal(d.info.run.uuid, U1);
    assert_int_equal(d.n_checks, 2);
    assert_int_equal(d.checks[0].seq, 0); /* ordered by seq */
    assert_true(isnan(d.checks[1].time_median_us)); /* n/a stays n/a, never 0 */
    assert_int_equal(d.checks[1].first_bad, -1);
    cdb_run_detail_free(&d);
    assert_int_equal(cdb_run_load(db, "3333", &d, err, sizeof err), 1);
    cdb_run_detail_free(&d);
    assert_int_equal(cdb_run_load(db, "4444", &d, err, sizeof err), 0);
    assert_int_equal(cdb_run_load(db, "zz'; --", &d, err, sizeof err), -1);
    assert_int_equal(cdb_run_exists(db, U3, err, sizeof err), 1);
    assert_int_equal(cdb_run_exists(db, "nope", err, sizeof err), 0);
    cdb_close(db);
}

static void test_hosts(void **state)
{
    (void)state;
    assert_true(cdb_host_name_valid("lab-1.gpu_2"));
    assert_false(cdb_host_name_valid("Lab"));
    assert_false(cdb_host_name_valid("-x"));
    assert_false(cdb_host_name_valid(".x"));
    assert_false(cdb_host_name_valid("local"));
    assert_false(cdb_host_name_valid(""));
    assert_false(cdb_host_name_valid("a b"));
    char long_name[70];
    memset(long_name, 'a', 65);
    long_name[65] = '\0';
    assert_false(cdb_host_name_valid(long_name));
    long_name[64] = '\0';
    assert_true(cdb_host_name_valid(long_name));

    struct cdb *db = fresh();
    char err[512];
    assert_int_equal(cdb_host_add(db, "lab", "https://lab.example/r.json", err, sizeof err), 0);
    assert_int_equal(cdb_host_add(db, "lab", "https://x.example/", err, sizeof err), -1);
    struct cdb_host_list hl;
    assert_int_equal(cdb_host_find(db, "https://lab.example/r.json", true, &hl, err, sizeof err), 1);
    assert_string_equal(hl.items[0].name, "lab");
    assert_null(hl.items[0].cursor);
    cdb_host_list_free(&hl);
    assert_int_equal(cdb_host_set_pulled(db, "lab", "2026-11-02T00:00:00Z", "2026-11-01T00:00:30Z",
                                         err, sizeof err),
                     0);
    assert_int_equal(cdb_host_set_pulled(db, "lab", "2026-11-03T00:00:00Z", NULL, err, sizeof err), 0);
    assert_int_equal(cdb_host_find(db, "lab", false, &hl, err, sizeof err), 1);
    assert_string_equal(hl.items[0].cursor, "2026-11-01T00:00:30Z"); /* NULL keeps it */
    assert_string_equal(hl.items[0].last_pull, "2026-11-03T00:00:00Z");
    cdb_host_list_free(&hl);
    assert_int_equal(cdb_host_reset_cursor(db, "lab", err, sizeof err), 0);
    assert_int_equal(cdb_host_find(db, "lab", false, &hl, err, sizeof err), 1);
    assert_null(hl.items[0].cursor);
    cdb_host_list_free(&hl);
    int purged;
    assert_int_equal(cdb_host_remove(db, "nope", false, &purged, err, sizeof err), 0);
    assert_int_equal(cdb_host_remove(db, "lab", false, &purged, err, sizeof err), 1);
    assert_int_equal(cdb_hosts_list(db, &hl, err, sizeof err), 0);
    assert_int_equal(hl.n, 0);
    cdb_host_list_free(&hl);
    cdb_close(db);
}

/* Merges one remote run with the given checks from host `origin`. */
static int merge_one(struct cdb *db, const char *origin, const struct cdb_machine *m,
                     const char *uuid, const char *started, const struct cdb_check *cs, size_t n,
                     struct cdb_merge_stats *st, char *err, size_t errlen)
{
    struct cdb_merge_run mr = {.run = {.uuid = uuid, .machine_id = m->id, .host = m->host,
                                       .rung = 1, .suite = "fence", .variant = "fixed",
                                       .started = started, .finished = started,
                                       .verdict = CDB_PASS},
                               .checks = cs, .n_checks = n};
    struct cdb_merge_input in = {.machines = m, .n_machines = 1, .runs = &mr, .n_runs = 1};
    struct cdb_merge_target t = {.origin = origin, .url = "file:///x.json",
                                 .when = "2026-11-02T00:00:00Z", .cursor = started};
    return cdb_merge(db, &t, &in, st, err, errlen);
}

static void test_merge_idempotent_and_conflict(void **state)
{
    (void)state;
    struct cdb *db = fresh();
    struct cdb_machine m = machine("remote", "NVIDIA H200");
    struct cdb_check cs[] = {check(U1, 0, "a", CDB_PASS, 10, 9, 11),
                             check(U1, 1, "b", CDB_PASS, NAN, NAN, NAN)};
    struct cdb_merge_stats st;
    char err[512];
    assert_int_equal(merge_one(db, "lab", &m, U1, "2026-11-01T10:00:00Z", cs, 2, &st, err,
                               sizeof err),
                     0);
    assert_int_equal(st.new_runs, 1);
    assert_int_equal(st.new_checks, 2);
    assert_int_equal(st.new_machines, 1);
    assert_int_equal(merge_one(db, "lab", &m, U1, "2026-11-01T10:00:00Z", cs, 2, &st, err,
                               sizeof err),
                     0);
    assert_int_equal(st.new_runs, 0);
    assert_int_equal(st.present_runs, 1);
    /* same UUID, one check differs: refused, and nothing of that merge lands */
    struct cdb_check changed[] = {cs[0], cs[1]};
    changed[1].time_median_us = 5;
    struct cdb_check other[] = {check(U2, 0, "a", CDB_PASS, 1, 1, 1)};
    (void)other;
    assert_int_equal(merge_one(db, "lab", &m, U1, "2026-11-01T10:00:00Z", changed, 2, &st, err,
                               sizeof err),
                     -1);
    assert_non_null(strstr(err, "check seq 1: time_us differs"));
    /* a machine id reused for other facts is refused */
    struct cdb_machine liar = m;
    liar.device = "something else";
    assert_int_equal(merge_one(db, "lab", &liar, U2, "2026-11-01T11:00:00Z", other, 1, &st, err,
                               sizeof err),
                     -1);
    assert_non_null(strstr(err, "different 'device'"));
    struct cdb_run_list l;
    assert_int_equal(cdb_runs_query(db, NULL, &l, err, sizeof err), 0);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.items[0].origin, "lab");
    cdb_run_list_free(&l);
    /* the host row was created by the merge, with the cursor */
    struct cdb_host_list hl;
    assert_int_equal(cdb_host_find(db, "lab", false, &hl, err, sizeof err), 1);
    assert_string_equal(hl.items[0].cursor, "2026-11-01T10:00:00Z");
    assert_int_equal(hl.items[0].runs, 1);
    cdb_host_list_free(&hl);
    int purged;
    assert_int_equal(cdb_host_remove(db, "lab", false, &purged, err, sizeof err), -1);
    assert_int_equal(cdb_host_remove(db, "lab", true, &purged, err, sizeof err), 1);
    assert_int_equal(purged, 1);
    cdb_close(db);
}

static void test_compare_sides(void **state)
{
    (void)state;
    struct cdb *db = fresh();
    char err[512];
    struct cdb_machine here = machine("here", "cpu");
    struct cdb_machine there = machine("there", "NVIDIA H200");
    struct cdb_check a_old[] = {check(U1, 0, "k1", CDB_PASS, 50, 50, 50)};
    struct cdb_check a_new[] = {check(U2, 0, "k1", CDB_PASS, 10, 9, 11),
                                check(U2, 1, "k2", CDB_PASS, 10, 9, 11)};
    local_run(db, &here, U1, 1, "2026-11-01T09:00:00Z", a_old, 1, CDB_PASS);
    local_run(db, &here, U2, 1, "2026-11-01T10:00:00Z", a_new, 2, CDB_PASS);
    struct cdb_check b[] = {check(U3, 0, "k1", CDB_FAIL, 20, 19, 21),
                            check(U3, 1, "k3", CDB_PASS, 1, 1, 1)};
    struct cdb_merge_stats st;
    assert_int_equal(merge_one(db, "lab", &there, U3, "2026-11-01T10:00:00Z", b, 2, &st, err,
                               sizeof err),
                     0);
    struct cdb_side sa, sb;
    assert_int_equal(cdb_side_resolve(db, "local", &sa, err, sizeof err), 0);
    assert_int_equal(sa.kind, CDB_SIDE_LOCAL);
    assert_int_equal(cdb_side_resolve(db, "lab", &sb, err, sizeof err), 0);
    assert_int_equal(sb.kind, CDB_SIDE_ORIGIN);
    struct cdb_side s;
    assert_int_equal(cdb_side_resolve(db, "there", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, CDB_SIDE_HOST);
    char prefix[9];
    memcpy(prefix, here.id, 8);
    prefix[8] = '\0';
    assert_int_equal(cdb_side_resolve(db, prefix, &s, err, sizeof err), 0);
    assert_int_equal(s.kind, CDB_SIDE_MACHINE);
    assert_string_equal(s.value, here.id);
    assert_int_equal(cdb_side_resolve(db, "nowhere", &s, err, sizeof err), -1);

    struct cdb_compare c;
    assert_int_equal(cdb_compare_load(db, &sa, &sb, -1, &c, err, sizeof err), 0);
    assert_int_equal(c.n, 3);
    assert_string_equal(c.rows[0].check, "k1");
    assert_true(fabs(c.rows[0].a.median_us - 10) < 1e-12); /* the newer local run wins */
    assert_true(fabs(c.rows[0].ratio - 2.0) < 1e-12);
    assert_true(c.rows[0].flagged);
    assert_true(c.rows[0].verdict_differs);
    assert_true(c.rows[1].a.present && !c.rows[1].b.present); /* k2 only here */
    assert_true(!c.rows[2].a.present && c.rows[2].b.present); /* k3 only there */
    assert_int_equal(c.rows[0].a.repeats, 5);
    assert_int_equal(c.rows[1].a.seq, 1); /* where Enter takes a person: the check itself */
    assert_int_equal(c.rows[2].b.seq, 1);
    assert_int_equal(c.summary.only_a, 1);
    assert_int_equal(c.summary.only_b, 1);
    assert_int_equal(c.summary.flagged, 1);
    assert_true(fabs(c.summary.geomean_ratio - 2.0) < 1e-12);
    cdb_compare_free(&c);
    assert_int_equal(cdb_compare_load(db, &sa, &sb, 3, &c, err, sizeof err), 0);
    assert_int_equal(c.n, 0);
    assert_true(isnan(c.summary.geomean_ratio));
    cdb_compare_free(&c);
    cdb_close(db);
}

static struct cdb_compare_cell cell(enum cdb_verdict v, double med, double lo, double hi,
                                    int repeats)
{
    return (struct cdb_compare_cell){.present = true, .verdict = v, .median_us = med,
                                     .min_us = lo, .max_us = hi, .repeats = repeats};
}

/* The arithmetic and the judgement on hand-made rows: a ratio is judged only with 3+ repeats
 * on both sides (a row timed once is never flagged, however far apart, and stays out of the
 * mean), and then flagged with parted spreads and more than 5% apart, or when it is 4x or more
 * either way whatever the spreads; a skip against a result is not a differing verdict. */
static void test_compare_math(void **state)
{
    (void)state;
    enum { N = 12 };
    struct cdb_compare_row rows[N];
    memset(rows, 0, sizeof rows);
    rows[0].a = cell(CDB_PASS, 10, 9, 11, 10); /* disjoint, 4x */
    rows[0].b = cell(CDB_PASS, 40, 39, 41, 10);
    rows[1].a = cell(CDB_PASS, 10, 9, 12, 5); /* touching: a.max == b.min */
    rows[1].b = cell(CDB_PASS, 13, 12, 14, 5);
    rows[2].a = cell(CDB_PASS, 10, NAN, NAN, 1); /* no spread, 9x: not judged */
    rows[2].b = cell(CDB_PASS, 90, NAN, NAN, 1);
    rows[3].a = cell(CDB_PASS, 0, 0, 0, 1); /* zero time: no ratio; skip against pass */
    rows[3].b = cell(CDB_SKIP, 5, 5, 5, 1);
    rows[4].a = cell(CDB_PASS, 40, 40, 40, 1); /* faster on B, 4x with one repeat each: not judged */
    rows[4].b = cell(CDB_PASS, 10, 10, 10, 1);
    rows[5].a = cell(CDB_PASS, 100, 99, 100, 10); /* spreads apart but only 3% */
    rows[5].b = cell(CDB_PASS, 103, 102.5, 104, 10);
    rows[6].a = cell(CDB_PASS, 10, 10, 10, 1); /* 2x on one repeat: not judged */
    rows[6].b = cell(CDB_PASS, 20, 20, 20, 1);
    rows[7].a = cell(CDB_PASS, 100, 98, 101, 3); /* 10% apart, 3 repeats each */
    rows[7].b = cell(CDB_PASS, 110, 108, 112, 3);
    rows[8].a = cell(CDB_PASS, 100, 98, 101, 2); /* the same with 2 repeats on A */
    rows[8].b = cell(CDB_PASS, 110, 108, 112, 3);
    rows[9].a = cell(CDB_PASS, 10, 10, 10, 5); /* verdicts differ, same time */
    rows[9].b = cell(CDB_FAIL, 10, 10, 10, 5);
    rows[10].a = cell(CDB_FAIL, 10, 10, 10, 5); /* fail against skip */
    rows[10].b = cell(CDB_SKIP, 10, 10, 10, 5);
    rows[11].a = cell(CDB_PASS, 10, 2, 50, 3); /* 4.5x, 3 repeats each, spreads overlap */
    rows[11].b = cell(CDB_PASS, 45, 5, 60, 3);
    struct cdb_compare c = {.rows = rows, .n = N};
    cdb_compare_finish(&c);
    const enum cdb_timing want_timing[N] = {
        CDB_TIMING_FLAGGED, CDB_TIMING_NOISE, CDB_TIMING_FEW,     CDB_TIMING_NONE,
        CDB_TIMING_FEW,     CDB_TIMING_NOISE, CDB_TIMING_FEW,     CDB_TIMING_FLAGGED,
        CDB_TIMING_FEW,     CDB_TIMING_NOISE, CDB_TIMING_NOISE,   CDB_TIMING_FLAGGED};
    for (int i = 0; i < N; i++) {
        assert_int_equal(rows[i].timing, want_timing[i]);
        assert_int_equal(rows[i].flagged, want_timing[i] == CDB_TIMING_FLAGGED);
    }
    assert_true(isnan(rows[3].ratio));
    assert_false(rows[3].verdict_differs);
    assert_true(rows[3].skipped_one);
    assert_true(rows[9].verdict_differs);
    assert_false(rows[9].skipped_one);
    assert_false(rows[10].verdict_differs);
    assert_true(rows[10].skipped_one);
    assert_true(fabs(rows[4].ratio - 0.25) < 1e-12);
    assert_int_equal(c.summary.with_ratio, 11);
    assert_int_equal(c.summary.judged, 7);
    assert_int_equal(c.summary.flagged, 3);
    assert_int_equal(c.summary.noise, 4);
    assert_int_equal(c.summary.few_repeats, 4);
    assert_int_equal(c.summary.differing_verdicts, 1);
    assert_int_equal(c.summary.skipped_one, 2);
    /* the mean of the judged rows only: the 9x, 0.25x, 2x and one 1.1x are timed too seldom */
    double want = pow(4.0 * 1.3 * 1.03 * 1.1 * 1.0 * 1.0 * 4.5, 1.0 / 7);
    assert_true(fabs(c.summary.geomean_ratio - want) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_filters_and_counts),
        cmocka_unit_test(test_check_recorder),
        cmocka_unit_test(test_run_load_prefix),
        cmocka_unit_test(test_hosts),
        cmocka_unit_test(test_merge_idempotent_and_conflict),
        cmocka_unit_test(test_compare_sides),
        cmocka_unit_test(test_compare_math),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
