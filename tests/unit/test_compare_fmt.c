/* tui/compare_fmt.c: ratios read as a magnitude and a direction, the bar is log-scaled on a
 * fixed scale, and row selection filters and sorts the way the CLI and the view promise. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui/compare_fmt.h"
#include "tui/name_cut.h"

/* "1.00× same" draws no bar, whichever side is a hair faster; the faster side's bar grows
 * from the middle in eighths too (▕, ▐), not always a whole block. */
static void test_bar_same_and_left(void **state)
{
    (void)state;
    assert_int_equal(cmp_bar_eighths(0.998, 16), 0);
    assert_int_equal(cmp_bar_eighths(1.004, 16), 0);
    assert_true(cmp_bar_eighths(1.006, 16) > 0);
    assert_true(cmp_bar_eighths(1 / 1.006, 16) < 0);
    char b[64];
    cmp_fmt_bar(-1, false, b, sizeof b);
    assert_string_equal(b, "▕");
    cmp_fmt_bar(-10, false, b, sizeof b);
    assert_string_equal(b, "▕█");
    cmp_fmt_bar(-13, false, b, sizeof b);
    assert_string_equal(b, "▐█");
    cmp_fmt_bar(10, false, b, sizeof b);
    assert_string_equal(b, "█▎");
    cmp_fmt_bar(-1, true, b, sizeof b);
    assert_string_equal(b, "#");
}

/* Names in families keep the part that tells them apart when cut. */
static void test_name_cut(void **state)
{
    (void)state;
    const char *v[] = {"baseline-fixed", "baseline-buggy", "fixed", "baseline-fixed"};
    size_t at[4];
    name_cut_points(v, 4, at);
    assert_int_equal(at[0], 9);
    assert_int_equal(at[2], 0);
    assert_int_equal(at[3], 9); /* a repeat is the same name, not a neighbour */
    char *t = name_cut(v[0], at[0], 9, false);
    assert_string_equal(t, "…ne-fixed");
    free(t);
    t = name_cut(v[1], at[1], 9, true);
    assert_string_equal(t, "~ne-buggy");
    free(t);
    t = name_cut(v[2], at[2], 9, false); /* fits */
    assert_string_equal(t, "fixed");
    free(t);
    /* six timing checks that differ only at their end */
    const char *c[] = {"timing:fence-acquire", "timing:fence-release", "timing:fence-seq"};
    name_cut_points(c, 3, at);
    t = name_cut(c[0], at[0], 10, false);
    assert_string_equal(t, "…e-acquire");
    free(t);
    t = name_cut(c[2], at[2], 10, false);
    assert_string_equal(t, "…fence-seq");
    free(t);
    /* differing in the middle: a window around the difference */
    const char *m[] = {"unit-test-M128-N4096-K1024", "unit-test-M64-N4096-K1024"};
    name_cut_points(m, 2, at);
    assert_int_equal(at[0], 11);
    t = name_cut(m[0], at[0], 12, false);
    assert_string_equal(t, "…-M128-N409…");
    free(t);
    /* differing at the start: the usual cut at the end */
    const char *h[] = {"aiter-4494-long-name", "flydsl-1199-long-name"};
    name_cut_points(h, 2, at);
    t = name_cut(h[0], at[0], 8, false);
    assert_string_equal(t, "aiter-4…");
    free(t);
}

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
    struct cdb_compare_summary s = {.geomean_ratio = 1.0 / 495, .with_ratio = 114, .judged = 54};
    cmp_fmt_speed(&s, "local", "h200", false, false, b, sizeof b);
    assert_string_equal(b, "B (h200) is 495× faster than A (local), geometric mean over 54 rows judged");
    s.geomean_ratio = 2.5;
    cmp_fmt_speed(&s, "local", "h200", false, false, b, sizeof b);
    assert_string_equal(b, "A (local) is 2.50× faster than B (h200), geometric mean over 54 rows judged");
    s.geomean_ratio = 0.998;
    cmp_fmt_speed(&s, "x", "y", false, false, b, sizeof b);
    assert_string_equal(b, "A (x) and B (y) run at the same speed, geometric mean over 54 rows judged");
    /* rows timed once make no headline, however far apart */
    s.judged = 0, s.geomean_ratio = NAN;
    cmp_fmt_speed(&s, "x", "y", false, false, b, sizeof b);
    assert_string_equal(b, "no row judged: none of the 114 rows timed on both sides has 3 repeats a side");
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
    r.timing = CDB_TIMING_FLAGGED, r.ratio = 1.0 / 450, r.a.repeats = 3;
    cmp_explain(&r, false, b, sizeof b);
    assert_string_equal(b, "! 4x or more apart: flagged whatever the spreads, 3 and 5 repeats");
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

/* Rung 8's scores: two sides part when they differ by more than 8% of the larger score; a row
 * scored on one side only is not judged; the marks and words follow, and a row whose scores
 * part stands out. */
static void test_scores(void **state)
{
    (void)state;
    struct cdb_compare_row rows[4];
    memset(rows, 0, sizeof rows);
    const double a[4] = {0.76, 0.76, 1.0, 0.0}, b[4] = {0.70, 0.69, 0.625, 0.0};
    for (int i = 0; i < 4; i++) {
        rows[i].a = (struct cdb_compare_cell){.present = true, .verdict = CDB_PASS,
                                              .median_us = NAN, .min_us = NAN, .max_us = NAN,
                                              .score = {.set = true, .value = a[i]}};
        rows[i].b = rows[i].a;
        rows[i].b.score.value = b[i];
    }
    rows[3].b.score.set = false; /* scored on one side only */
    struct cdb_compare c = {.rows = rows, .n = 4};
    cdb_compare_finish(&c);
    /* 0.76 -> 0.70 is 7.9% of 0.76: within; 0.69 is 9.2%: apart */
    assert_true(rows[0].scored && !rows[0].score_differs);
    assert_true(rows[1].scored && rows[1].score_differs);
    assert_true(rows[2].score_differs && fabs(rows[2].score_diff + 0.375) < 1e-12);
    assert_true(fabs(rows[2].score_ratio - 0.625) < 1e-12);
    assert_false(rows[3].scored);
    assert_int_equal(c.summary.scored, 3);
    assert_int_equal(c.summary.differing_scores, 2);
    assert_string_equal(cmp_score_mark(&rows[0]), "=");
    assert_string_equal(cmp_score_mark(&rows[1]), "!");
    assert_string_equal(cmp_score_mark(&rows[3]), "");
    assert_true(cmp_stands_out(&rows[1]) && !cmp_stands_out(&rows[0]));
    char buf[200];
    cmp_fmt_score(&rows[2], false, false, buf, sizeof buf);
    assert_string_equal(buf, "! score 1 → 0.625 (-0.375, 0.625×): apart by more than 8%");
    cmp_fmt_score(&rows[0], true, false, buf, sizeof buf);
    assert_string_equal(buf, "= score 0.76 -> 0.7 (-0.06, 0.921x): within 8%");
    /* the explanation of a row without times is its scores */
    cmp_explain(&rows[2], false, buf, sizeof buf);
    assert_non_null(strstr(buf, "score 1 → 0.625"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ratio_text),
        cmocka_unit_test(test_bar_same_and_left),
        cmocka_unit_test(test_name_cut),
        cmocka_unit_test(test_bar_is_log_scaled),
        cmocka_unit_test(test_speed_sentence),
        cmocka_unit_test(test_explain),
        cmocka_unit_test(test_select_and_sort),
        cmocka_unit_test(test_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
