/* Runs whose owner is gone (casedb/runs_reap.h, common/proc_owner.h). Each run below names an
 * owner that differs from a living one in one way; only the ones whose owner is certainly gone
 * are marked interrupted, their checks kept; the rest stay running. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "casedb/results.h"
#include "casedb/results_query.h"
#include "casedb/runs_latest.h"
#include "casedb/runs_reap.h"
#include "common/proc_owner.h"

static struct cdb *fresh(void)
{
    struct cdb *db;
    char err[512];
    assert_int_equal(cdb_open(":memory:", &db, err, sizeof err), 0);
    return db;
}

/* A running run of `rung` (0: several) owned by o (NULL: no owner), with a passed check in
 * each of check_rungs (0-terminated). */
static void run_with_checks(struct cdb *db, const char *uuid, const struct kl_owner *o, int rung,
                            const int *check_rungs)
{
    char err[512];
    struct cdb_machine m = {.host = "here", .backend = "cpu", .device = "cpu",
                            .target = "cpu-wave32", .wave_size = 32, .kladder_version = "t"};
    cdb_machine_make_id(&m);
    assert_int_equal(cdb_machine_put(db, &m, err, sizeof err), 0);
    struct cdb_run r = {.uuid = uuid, .machine_id = m.id, .host = "here", .rung = rung,
                        .suite = "s", .started = "2026-12-01T00:00:00Z", .verdict = CDB_RUNNING,
                        .owner = o};
    assert_int_equal(cdb_run_put(db, &r, err, sizeof err), 0);
    for (int i = 0; check_rungs[i]; i++) {
        struct cdb_check c = {.run_uuid = uuid, .seq = i, .rung = check_rungs[i], .suite = "s",
                              .variant = "fixed", .check = "tail", .shape = "n=1",
                              .oracle = "reference", .verdict = CDB_PASS, .detail = "",
                              .first_bad = -1, .bad_count = -1, .max_err = 0,
                              .time_median_us = 1, .time_min_us = 1, .time_max_us = 1,
                              .repeats = 1, .limit_s = 1};
        assert_int_equal(cdb_check_put(db, &c, err, sizeof err), 0);
    }
}

static void running_run(struct cdb *db, const char *uuid, const struct kl_owner *o)
{
    static const int one[] = {1, 0};
    run_with_checks(db, uuid, o, 1, one);
}

static void expect(struct cdb *db, const char *uuid, enum cdb_verdict v)
{
    struct cdb_run_detail d;
    char err[512];
    assert_int_equal(cdb_run_load(db, uuid, &d, err, sizeof err), 1);
    if (d.info.run.verdict != v)
        fail_msg("run %s: %s, expected %s", uuid, cdb_verdict_name(d.info.run.verdict),
                 cdb_verdict_name(v));
    assert_int_equal((int)d.n_checks, 1); /* its check is kept either way */
    if (v == CDB_INTERRUPTED)
        assert_non_null(d.info.run.finished);
    else
        assert_null(d.info.run.finished);
    cdb_run_detail_free(&d);
}

/* The pid of a process that has ended and been reaped. */
static int64_t dead_pid(void)
{
    pid_t p = fork();
    assert_true(p >= 0);
    if (p == 0)
        _exit(0);
    int st;
    assert_int_equal(waitpid(p, &st, 0), p);
    return p;
}

static void test_only_gone_owners_are_marked(void **state)
{
    (void)state;
    struct cdb *db = fresh();
    struct kl_owner here;
    kl_owner_self(&here);
    if (!here.boot_id[0] || here.start < 0 || !here.pid_ns[0])
        skip(); /* no /proc: nothing can be judged here */
    struct kl_owner alive = here, reused = here, rebooted = here, other_host = here,
                    dead = here, no_start = here, other_ns = here;
    reused.start = here.start + 1; /* our pid, but a process that started at another time */
    snprintf(rebooted.boot_id, sizeof rebooted.boot_id, "00000000-0000-4000-8000-000000000000");
    snprintf(other_host.host, sizeof other_host.host, "%s", "elsewhere.example");
    other_host.pid = dead_pid();
    dead.pid = dead_pid();
    no_start.start = -1; /* our pid with no start time recorded: cannot tell reuse */
    /* another container's process: its pid is dead here, but that says nothing about it */
    snprintf(other_ns.pid_ns, sizeof other_ns.pid_ns, "pid:[1]");
    other_ns.pid = dead_pid();
    running_run(db, "00000000-0000-4000-8000-000000000001", &alive);
    running_run(db, "00000000-0000-4000-8000-000000000002", &reused);
    running_run(db, "00000000-0000-4000-8000-000000000003", &rebooted);
    running_run(db, "00000000-0000-4000-8000-000000000004", &other_host);
    running_run(db, "00000000-0000-4000-8000-000000000005", &dead);
    running_run(db, "00000000-0000-4000-8000-000000000006", NULL);
    running_run(db, "00000000-0000-4000-8000-000000000007", &no_start);
    running_run(db, "00000000-0000-4000-8000-000000000008", &other_ns);
    char err[512];
    int marked = -1;
    assert_int_equal(cdb_runs_reap(db, &here, &marked, err, sizeof err), 0);
    assert_int_equal(marked, 3);
    expect(db, "00000000-0000-4000-8000-000000000001", CDB_RUNNING);
    expect(db, "00000000-0000-4000-8000-000000000002", CDB_INTERRUPTED);
    expect(db, "00000000-0000-4000-8000-000000000003", CDB_INTERRUPTED);
    expect(db, "00000000-0000-4000-8000-000000000004", CDB_RUNNING);
    expect(db, "00000000-0000-4000-8000-000000000005", CDB_INTERRUPTED);
    expect(db, "00000000-0000-4000-8000-000000000006", CDB_RUNNING);
    expect(db, "00000000-0000-4000-8000-000000000007", CDB_RUNNING);
    expect(db, "00000000-0000-4000-8000-000000000008", CDB_RUNNING);
    /* a second look marks nothing more, and a finished run is never touched */
    assert_int_equal(cdb_runs_reap(db, &here, &marked, err, sizeof err), 0);
    assert_int_equal(marked, 0);
    cdb_close(db);
}

static void test_interrupted_is_listed_and_filtered(void **state)
{
    (void)state;
    struct cdb *db = fresh();
    struct kl_owner here, dead;
    kl_owner_self(&here);
    if (!here.boot_id[0] || here.start < 0)
        skip();
    dead = here;
    dead.pid = dead_pid();
    running_run(db, "00000000-0000-4000-8000-000000000011", &dead);
    running_run(db, "00000000-0000-4000-8000-000000000012", &here);
    char err[512];
    assert_int_equal(cdb_runs_reap(db, &here, NULL, err, sizeof err), 0);
    struct cdb_run_filter f;
    cdb_run_filter_init(&f);
    f.verdict = CDB_INTERRUPTED;
    struct cdb_run_list l;
    assert_int_equal(cdb_runs_query(db, &f, &l, err, sizeof err), 0);
    assert_int_equal((int)l.n, 1);
    assert_string_equal(l.items[0].run.uuid, "00000000-0000-4000-8000-000000000011");
    assert_int_equal(l.items[0].counts[CDB_PASS], 1);
    cdb_run_list_free(&l);
    assert_string_equal(cdb_verdict_name(CDB_INTERRUPTED), "interrupted");
    assert_int_equal(cdb_verdict_parse("interrupted"), CDB_INTERRUPTED);
    cdb_close(db);
}

/* The dashboard's latest verdict per rung: a run of several rungs killed in rung 4 keeps rung 1's
 * pass and shows rung 4, which it did not finish, as interrupted rather than passed. */
static void test_dashboard_marks_the_unfinished_rung(void **state)
{
    (void)state;
    struct cdb *db = fresh();
    struct kl_owner here, dead;
    kl_owner_self(&here);
    if (!here.boot_id[0] || here.start < 0)
        skip();
    dead = here;
    dead.pid = dead_pid();
    static const int rungs[] = {1, 1, 4, 0};
    run_with_checks(db, "00000000-0000-4000-8000-000000000021", &dead, 0, rungs);
    char err[512];
    assert_int_equal(cdb_runs_reap(db, &here, NULL, err, sizeof err), 0);
    struct cdb_latest *l;
    size_t n;
    assert_int_equal(cdb_latest_verdicts(db, 10, 0, &l, &n, err, sizeof err), 0);
    int r1 = -1, r4 = -1;
    for (size_t i = 0; i < n; i++) {
        if (l[i].rung == 1)
            r1 = l[i].verdict;
        if (l[i].rung == 4)
            r4 = l[i].verdict;
    }
    free(l);
    assert_int_equal(r1, CDB_PASS);
    assert_int_equal(r4, CDB_INTERRUPTED);
    cdb_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_only_gone_owners_are_marked),
        cmocka_unit_test(test_interrupted_is_listed_and_filtered),
        cmocka_unit_test(test_dashboard_marks_the_unfinished_rung),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
