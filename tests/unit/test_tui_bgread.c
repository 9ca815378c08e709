/* Background reads (tui/bgread.h): a result comes back through the pipe, an error comes back
 * with its message, an endless read is cancelled within moments (SQLite interrupts it), and an
 * in-memory database is refused so the caller reads on its own connection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "tests/unit/helpers/tmpdb.h"
#include "tui/bgread.h"

static char path[64];

static int make_db(void **state)
{
    (void)state;
    assert_int_equal(tmpdb_make("bgread", path, sizeof path), 0);
    struct cdb *db;
    char err[512];
    assert_int_equal(cdb_open(path, &db, err, sizeof err), 0); /* creates and migrates */
    cdb_close(db);
    return 0;
}

static int drop_db(void **state)
{
    (void)state;
    tmpdb_remove(path);
    return 0;
}

struct job {
    const char *sql;
};

/* Runs the job's query and returns its one integer, malloc'd. */
static void *run_sql(struct cdb *db, void *arg, char *err, size_t errlen)
{
    const struct job *j = arg;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(cdb_handle(db), j->sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(cdb_handle(db)));
        return NULL;
    }
    long long *v = NULL;
    if (sqlite3_step(st) == SQLITE_ROW) {
        v = malloc(sizeof *v);
        *v = sqlite3_column_int64(st, 0);
    } else {
        snprintf(err, errlen, "%s", sqlite3_errmsg(cdb_handle(db)));
    }
    sqlite3_finalize(st);
    return v;
}

static bool readable_within(int fd, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, ms) == 1;
}

static void test_result_comes_back(void **state)
{
    (void)state;
    char err[512] = "";
    struct job j = {"SELECT count(*) + 41 FROM check_keys WHERE 1"};
    struct tui_bgread *r = tui_bgread_start(path, run_sql, &j, sizeof j, free, err, sizeof err);
    assert_non_null(r);
    assert_true(readable_within(tui_bgread_fd(r), 5000));
    long long *v = tui_bgread_take(r, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(*v, 41);
    free(v);
}

static void test_error_comes_back(void **state)
{
    (void)state;
    char err[512] = "";
    struct job j = {"SELECT count(*) FROM no_such_table"};
    struct tui_bgread *r = tui_bgread_start(path, run_sql, &j, sizeof j, free, err, sizeof err);
    assert_non_null(r);
    assert_null(tui_bgread_take(r, err, sizeof err));
    assert_non_null(strstr(err, "no_such_table"));
}

static void test_missing_database(void **state)
{
    (void)state;
    char err[512] = "";
    struct job j = {"SELECT 1"};
    struct tui_bgread *r = tui_bgread_start("/nonexistent/dir/kl.db", run_sql, &j, sizeof j, free,
                                            err, sizeof err);
    assert_non_null(r); /* the worker opens it, so the failure arrives as the result */
    assert_null(tui_bgread_take(r, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/dir/kl.db"));
}

static void test_cancel_stops_an_endless_read(void **state)
{
    (void)state;
    char err[512] = "";
    struct job j = {"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
                    " SELECT count(*) FROM n"};
    struct tui_bgread *r = tui_bgread_start(path, run_sql, &j, sizeof j, free, err, sizeof err);
    assert_non_null(r);
    assert_false(readable_within(tui_bgread_fd(r), 200)); /* still counting */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tui_bgread_cancel(r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    assert_true(s < 2.0);
}

static void test_memory_database_is_refused(void **state)
{
    (void)state;
    char err[512] = "";
    struct job j = {"SELECT 1"};
    assert_null(tui_bgread_start(":memory:", run_sql, &j, sizeof j, free, err, sizeof err));
    assert_true(err[0] != '\0');
    tui_bgread_cancel(NULL); /* a no-op */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_result_comes_back),
        cmocka_unit_test(test_error_comes_back),
        cmocka_unit_test(test_missing_database),
        cmocka_unit_test(test_cancel_stops_an_endless_read),
        cmocka_unit_test(test_memory_database_is_refused),
    };
    return cmocka_run_group_tests(tests, make_db, drop_db);
}
