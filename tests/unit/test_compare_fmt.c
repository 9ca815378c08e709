/* tui/compare_fmt.c: ratios read as a magnitude and a direction, the bar is log-scaled on a
 * fixed scale, and row selection filters and sorts the way the CLI and the view promise. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tui/compare_fmt.h"

static void test_ratio_text(void **state)
{
    (void)state;
    char b[64];
    cmp_fmt_ratio(1.0 / 450, false, false, b, sizeof b);
    assert_string_equal(b, "450× faster");
    cmp_fmt_ratio(0.002, true, false, b, sizeof b); /* what used to read 0.00x */
    assert_string_equal(b, "500x faster");
    cmp_fmt_ratio(1.3, false, false, b, sizeof b);
    assert_string_equal(b, "1.30× slower");
    cmp_fmt_ratio(12.34, false, false, b, sizeof b);
    assert_string_equal(b, "12.3× slower");
    cmp_fmt_ratio(1.0 / 19514, false, false, b, sizeof b); /* fits a 12-cell column */
    assert_string_equal(b, "20k× faster");
    cmp_fmt_ratio(9999.4, false, false, b, sizeof b);
    assert_string_equal(b, "9999× slower");
    cmp_fmt_ratio(2.5e6, false, false, b, sizeof b);
    assert_string_equal(b, "2M× slower");
    cmp_fmt_ratio(1.004, false, false, b, sizeof b); /* the word follows the printed number */
    assert_string_equal(b, "1.00× same");
    cmp_fmt_ratio(1 / 1.3, false, true, b, sizeof b);
    assert_string_equal(b, "1.30× 更快");
    cmp_fmt_ratio(NAN, false, false, b, sizeof b);
    assert_string_equal(b, "n/a");
}

static void test_bar_is_log_scaled(void **state)
{
    (void)state;
    /* 10 cells a half, 4 decades: 10x is a quarter of it, 10^4x all of it, beyond is clamped */
    assert_int_equal(cmp_bar_eighths(10, 10), 20);
    assert_int_equal(cmp_bar_eighths(1e4, 10), 80);
    assert_int_equal(cmp_bar_eighths(1e6, 10), 80);
    assert_int_equal(cmp_bar_eighths(0.01, 10), -40);
    assert_int_equal(cmp_bar_eighths(1, 10), 0);
    assert_int_equal(cmp_bar_eighths(1.01, 10), 1); /* any difference shows a sliver */
    assert_int_equal(cmp_bar_eighths(NAN, 10), 0);
    /* 450x and 500x are told apart, unlike a bar scaled to the largest ratio */
    assert_true(cmp_bar_eighths(1.0 / 450, 10) > cmp_bar_eighths(1.0 / 500, 10));
}

static void test_speed_sentence(void **state)
{
    (void)state;
    char b[256];
    struct cdb_compare_summary s = {.geomean_ratio = 1.0 / 495, .with_ratio = 54};
    cmp_fmt_speed(&s, "local", "h200", false, false, b, sizeof b);
    assert_string_equal(b, "B (h200) is 495× faster than A (local), geometric mean over 54 checks");
    s.geomean_ratio = 2.5;
    cmp_fmt_speed(&s, "local", "h200", false, false, b, sizeof b);
    assert_string_equal(b, "A (local) is 2.50× faster than B (h200), geometric mean over 54 checks");
    s.geomean_ratio = 0.998;
    cmp_fmt_speed(&s, "x", "y", false, false, b, sizeof b);
    assert_string_equal(b, "A (x) and B (y) run at the same speed, geometric mean over 54 checks");
    s.with_ratio = 0;
    cmp_fmt_speed(&s, "x", "y", false, false, b, sizeof b);
    assert_string_equal(b, "no check has times on both sides");
}

/* The status line's reason for a row's mark. */
static void test_explain(void **state)
{
    (void)state;
    char b[200];
    struct cdb_compare_row r = {.ratio = 2.0, .timing = CDB_TIMING_FEW};
    r.a.repeats = 1, r.b.repeats = 5;
    cmp_explain(&r, false, b, sizeof b);
    assert_string_equal(b, "? not judged: A has 1 repeat, B 5 (3 needed on each side)");
    r.timing = CDB_TIMING_FLAGGED, r.ratio = 1.0 / 450;
    cmp_explain(&r, false, b, sizeof b);
    assert_string_equal(b, "! 4x or more apart: flagged whatever the repeats");
    r.ratio = 1.2, r.a.repeats = 20, r.b.repeats = 10;
    cmp_explain(&r, false, b, sizeof b);
    assert_string_equal(b, "! spreads apart and beyond 5%, 20 and 10 repeats");
    r.timing = CDB_TIMING_NOISE;
    r.a.min_us = 10, r.a.max_us = 11, r.b.min_us = 10.5, r.b.max_us = 12;
    cmp_explain(&r, false, b, sizeof b);
    assert_string_equal(b, "~ within noise: the spreads overlap");
    r.b.min_us = 11.2;
    cmp_explain(&r, false, b, sizeof b);
    assert_string_equal(b, "~ within noise: less than 5% apart");
    r.timing = CDB_TIMING_NONE;
    cmp_explain(&r, true, b, sizeof b);
    assert_string_equal(b, "两方没有都测得时间");
}

static struct cdb_compare_row row(const char *check, double ratio, bool a, bool b, bool flagged,
                                  enum cdb_verdict va, enum cdb_verdict vb)
{
    struct cdb_compare_row r = {.suite = "s", .check = check, .shape = "", .variant = "fixed",
                                .ratio = ratio, .flagged = flagged};
    r.a.present = a, r.b.present = b;
    r.a.verdict = va, r.b.verdict = vb;
    r.a.median_us = r.b.median_us = NAN;
    r.verdict_differs = a && b && va != vb;
    return r;
}

static void test_select_and_sort(void **state)
{
    (void)state;
    struct cdb_compare_row rows[5] = {
        row("alpha", 1.0, true, true, false, CDB_PASS, CDB_PASS),
        row("beta", 10.0, true, true, true, CDB_PASS, CDB_PASS),
        row("gamma", NAN, true, false, false, CDB_PASS, CDB_PASS),
        row("delta", 0.5, true, true, false, CDB_PASS, CDB_FAIL),
        row("Fence-epsilon", 2.0, true, true, false, CDB_SKIP, CDB_SKIP),
    };
    struct cdb_compare c = {.rows = rows, .n = 5};
    size_t idx[5];
    struct cmp_select sel;
    cmp_select_init(&sel);
    assert_int_equal(cmp_select_rows(&c, &sel, idx), 5);
    sel.sort = CMP_SORT_RATIO; /* largest B/A first, no ratio last */
    assert_int_equal(cmp_select_rows(&c, &sel, idx), 5);
    const size_t by_ratio[5] = {1, 4, 0, 3, 2};
    assert_memory_equal(idx, by_ratio, sizeof by_ratio);
    sel.only_both = true;
    assert_int_equal(cmp_select_rows(&c, &sel, idx), 4);
    sel.only_flagged = true; /* ! or ≠ */
    assert_int_equal(cmp_select_rows(&c, &sel, idx), 2);
    assert_int_equal(idx[0], 1);
    assert_int_equal(idx[1], 3);
    cmp_select_init(&sel);
    sel.verdict = CDB_FAIL;
    assert_int_equal(cmp_select_rows(&c, &sel, idx), 1);
    assert_int_equal(idx[0], 3);
    cmp_select_init(&sel);
    sel.text = "fence"; /* case-insensitive */
    assert_int_equal(cmp_select_rows(&c, &sel, idx), 1);
    assert_int_equal(idx[0], 4);
    assert_int_equal(cmp_sort_parse("ratio"), CMP_SORT_RATIO);
    assert_int_equal(cmp_sort_parse("speed"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ratio_text),
        cmocka_unit_test(test_bar_is_log_scaled),
        cmocka_unit_test(test_speed_sentence),
        cmocka_unit_test(test_explain),
        cmocka_unit_test(test_select_and_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
