/* tui/compare_matrix.c: three hosts and more as rows of checks, every host judged against the
 * baseline. The rows are the union of the pairs' keys, each host's cell is its own pair's, a
 * row stands out as often as hosts stand out on it, and selection filters and sorts by the
 * host that differs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/xalloc.h"
#include "tui/compare_matrix.h"

/* A timed cell: median t with a tight spread and `repeats` repeats. */
static struct cdb_compare_cell cell(double t, int repeats, enum cdb_verdict v)
{
    return (struct cdb_compare_cell){.present = true, .verdict = v, .median_us = t,
                                     .min_us = t * 0.99, .max_us = t * 1.01, .repeats = repeats};
}

/* A comparison of the baseline against one host over checks named in check[] (NULL-ended),
 * base[i] the baseline's time (0: not run there), host[i] the host's (0: not run). */
static struct cdb_compare pair(const char *const *check, const double *base, const double *host,
                               const enum cdb_verdict *verdict)
{
    size_t n = 0;
    while (check[n])
        n++;
    struct cdb_compare c = {.rows = xcalloc(n, sizeof *c.rows), .n = n};
    for (size_t i = 0; i < n; i++) {
        struct cdb_compare_row *r = &c.rows[i];
        *r = (struct cdb_compare_row){.rung = 1, .suite = "s", .check = check[i], .shape = "",
                                      .variant = "fixed"};
        if (base[i] > 0)
            r->a = cell(base[i], 10, CDB_PASS);
        if (host[i] > 0)
            r->b = cell(host[i], 10, verdict ? verdict[i] : CDB_PASS);
    }
    cdb_compare_finish(&c);
    return c;
}

static void test_union_and_cells(void **state)
{
    (void)state;
    /* host 1 ran a, b; host 2 ran a, c (and the baseline ran a, b, c) */
    const char *const k1[] = {"a", "b", NULL}, *const k2[] = {"a", "c", NULL};
    const double b1[] = {100, 50}, h1[] = {101, 50.5};
    const double b2[] = {100, 20}, h2[] = {1000, 20};
    struct cdb_compare *p = xcalloc(2, sizeof *p);
    p[0] = pair(k1, b1, h1, NULL);
    p[1] = pair(k2, b2, h2, NULL);
    struct cmp_matrix m;
    cmp_matrix_build(&m, p, 3);
    assert_int_equal(m.n, 3); /* a, b, c */
    assert_string_equal(m.rows[0].check, "a");
    assert_string_equal(m.rows[2].check, "c");
    /* a: host 2 is 10x slower and stands out; host 1 is within noise */
    const struct cmp_matrix_row *a = &m.rows[0];
    assert_non_null(a->base);
    assert_true(fabs(a->base->median_us - 100) < 1e-9);
    assert_true(fabs(cmp_matrix_vs(a, 2)->ratio - 10) < 1e-9);
    assert_false(cmp_matrix_vs(a, 1)->flagged);
    assert_true(cmp_matrix_vs(a, 2)->flagged);
    assert_int_equal(a->standing_out, 1);
    /* b: host 2 never ran it */
    const struct cmp_matrix_row *b = &m.rows[1];
    assert_null(cmp_matrix_vs(b, 2));
    assert_null(cmp_matrix_cell(b, 2));
    assert_non_null(cmp_matrix_cell(b, 1));
    assert_int_equal(b->standing_out, 0);
    cmp_matrix_free(&m);
}

static void test_select_by_host(void **state)
{
    (void)state;
    const char *const k[] = {"fast", "slow-on-1", "slow-on-2", "fail-on-2", NULL};
    const double base[] = {100, 100, 100, 100};
    const double h1[] = {100, 300, 100, 100}, h2[] = {100, 100, 500, 100};
    const enum cdb_verdict v1[] = {CDB_PASS, CDB_PASS, CDB_PASS, CDB_PASS};
    const enum cdb_verdict v2[] = {CDB_PASS, CDB_PASS, CDB_PASS, CDB_FAIL};
    struct cdb_compare *p = xcalloc(2, sizeof *p);
    p[0] = pair(k, base, h1, v1);
    p[1] = pair(k, base, h2, v2);
    struct cmp_matrix m;
    cmp_matrix_build(&m, p, 3);
    size_t idx[4];
    struct cmp_matrix_select sel = {.differs_host = -1};
    assert_int_equal(cmp_matrix_select_rows(&m, &sel, idx), 4);
    sel.only_flagged = true; /* some host stands out: all but "fast" */
    assert_int_equal(cmp_matrix_select_rows(&m, &sel, idx), 3);
    sel.differs_host = 2; /* host 2: slow-on-2 and fail-on-2, in key order */
    assert_int_equal(cmp_matrix_select_rows(&m, &sel, idx), 2);
    assert_string_equal(m.rows[idx[0]].check, "fail-on-2");
    assert_string_equal(m.rows[idx[1]].check, "slow-on-2");
    sel = (struct cmp_matrix_select){.differs_host = -1, .sort = CMP_MATRIX_RATIO, .sort_host = 1};
    assert_int_equal(cmp_matrix_select_rows(&m, &sel, idx), 4);
    assert_string_equal(m.rows[idx[0]].check, "slow-on-1"); /* host 1's slowest first */
    sel.text = "FAIL"; /* case-insensitive */
    assert_int_equal(cmp_matrix_select_rows(&m, &sel, idx), 1);
    cmp_matrix_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_union_and_cells),
        cmocka_unit_test(test_select_by_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
