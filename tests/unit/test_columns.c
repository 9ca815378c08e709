/* tui/columns: columns give way in their declared order (shrink to min, then drop), the flex
 * column takes what is left, and at every width no column overlaps another or the edge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "tui/columns.h"

/* A table like the run view's: #, verdict, variant (gives second), check (flex, never gives),
 * shape (gives first), median. */
static void run_table(struct tui_col c[6])
{
    struct tui_col t[6] = {
        {.want = 2, .min = 2, .give = 0},
        {.want = 6, .min = 6, .give = 0},
        {.want = 14, .min = 8, .give = 2},
        {.want = 34, .min = 12, .give = 0, .flex = true},
        {.want = 28, .min = 10, .give = 1},
        {.want = 7, .min = 7, .give = 0},
    };
    memcpy(c, t, sizeof t);
}

static void test_everything_fits(void **state)
{
    (void)state;
    struct tui_col c[6];
    run_table(c);
    assert_int_equal(tui_columns_fit(c, 6, 200, 2), 6);
    assert_int_equal(c[2].w, 14); /* "baseline-fixed" whole */
    assert_int_equal(c[4].w, 28);
    /* the flex column takes the rest: 200 - (2+6+14+28+7) - 5 gaps of 2 */
    assert_int_equal(c[3].w, 200 - 57 - 10);
    assert_int_equal(c[5].x + c[5].w, 200);
    assert_int_equal(c[2].x, 2 + 2 + 6 + 2);
}

static void test_gives_way_in_order(void **state)
{
    (void)state;
    struct tui_col c[6];
    run_table(c);
    /* 80 columns less the margins: the shape gives way first, entirely, before the variant
     * loses a cell; the check, the flex column, takes what is left. */
    tui_columns_fit(c, 6, 78, 2);
    assert_int_equal(c[4].w, 0);
    assert_int_equal(c[2].w, 14);
    assert_int_equal(c[3].w, 78 - (2 + 6 + 14 + 7) - 4 * 2);
    /* Narrower: the shape at its min before it goes */
    run_table(c);
    tui_columns_fit(c, 6, 2 + 6 + 14 + 34 + 20 + 7 + 10, 2);
    assert_int_equal(c[4].w, 20);
    assert_int_equal(c[3].w, 34);
    /* Narrower still: the variant shrinks, the check keeps its want. */
    run_table(c);
    tui_columns_fit(c, 6, 2 + 6 + 10 + 34 + 7 + 8, 2);
    assert_int_equal(c[4].w, 0);
    assert_int_equal(c[2].w, 10);
    assert_int_equal(c[3].w, 34);
    /* When the variant is gone too, the check shrinks to its min before the median is cut. */
    run_table(c);
    tui_columns_fit(c, 6, 2 + 6 + 12 + 7 + 6, 2);
    assert_int_equal(c[2].w, 0);
    assert_int_equal(c[3].w, 12);
    assert_int_equal(c[5].w, 7);
}

/* A kept column gives in its turn down to its min and stays there: the next one in the order
 * gives next, where a plain column at its min would have been dropped. (The Runs list's start
 * time loses its year before the host goes.) */
static void test_kept_column_stays_at_min(void **state)
{
    (void)state;
    struct tui_col c[3] = {
        {.want = 17, .min = 12, .give = 1, .keep = true}, /* the time */
        {.want = 5, .min = 5, .give = 2},                 /* the host */
        {.want = 25, .min = 8, .flex = true},             /* the counts */
    };
    tui_columns_fit(c, 3, 17 + 5 + 25 + 4 - 5, 2);
    assert_int_equal(c[0].w, 12);
    assert_int_equal(c[1].w, 5);
    assert_int_equal(c[2].w, 25);
    /* narrower: the time stays at 12, the host goes */
    tui_columns_fit(c, 3, 12 + 25 + 2 + 3, 2);
    assert_int_equal(c[0].w, 12);
    assert_int_equal(c[1].w, 0);
    assert_int_equal(c[2].w, 25 + 3);
    /* the same without keep: the time is dropped before the host gives */
    c[0].keep = false;
    tui_columns_fit(c, 3, 17 + 5 + 25 + 4 - 8, 2);
    assert_int_equal(c[0].w, 0);
    assert_int_equal(c[1].w, 5);
}

static void test_never_overlaps(void **state)
{
    (void)state;
    for (int width = 0; width <= 160; width++) {
        struct tui_col c[6];
        run_table(c);
        int shown = tui_columns_fit(c, 6, width, 2);
        int end = 0, n = 0;
        for (int i = 0; i < 6; i++) {
            if (c[i].w == 0)
                continue;
            assert_true(c[i].w >= 1);
            if (n++)
                assert_true(c[i].x >= end + 2); /* the gap is kept */
            end = c[i].x + c[i].w;
            if (c[i].give > 0 && c[i].w < c[i].min)
                fail_msg("width %d: column %d cut below its min (%d < %d)", width, i, c[i].w,
                         c[i].min);
        }
        assert_int_equal(n, shown);
        if (end > width)
            fail_msg("width %d: the table ends at %d", width, end);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_everything_fits),
        cmocka_unit_test(test_gives_way_in_order),
        cmocka_unit_test(test_kept_column_stays_at_min),
        cmocka_unit_test(test_never_overlaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
