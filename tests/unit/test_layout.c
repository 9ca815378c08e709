/* The layout function: over every terminal size the rectangles stay on screen, never overlap,
 * tile the screen without holes, and the too-small threshold is exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "tui/layout.h"

static int inside(const struct tui_rect *r, int rows, int cols)
{
    return r->y >= 0 && r->x >= 0 && r->h > 0 && r->w > 0 && r->y + r->h <= rows &&
           r->x + r->w <= cols;
}

static int overlap(const struct tui_rect *a, const struct tui_rect *b)
{
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static void check_size(int rows, int cols)
{
    struct tui_layout l;
    tui_layout_compute(rows, cols, &l);
    assert_false(l.too_small);
    const struct tui_rect *parts[] = {&l.header, &l.sidebar, &l.sep, &l.main, &l.status, &l.keybar};
    size_t n = sizeof parts / sizeof parts[0];
    long area = 0;
    for (size_t i = 0; i < n; i++) {
        if (!inside(parts[i], rows, cols))
            fail_msg("%dx%d: part %zu (%d,%d %dx%d) leaves the screen", cols, rows, i,
                     parts[i]->y, parts[i]->x, parts[i]->w, parts[i]->h);
        area += (long)parts[i]->h * parts[i]->w;
        for (size_t j = i + 1; j < n; j++)
            if (overlap(parts[i], parts[j]))
                fail_msg("%dx%d: parts %zu and %zu overlap", cols, rows, i, j);
    }
    /* No overlap and the same area as the screen: the parts tile it. */
    assert_int_equal(area, (long)rows * cols);
    assert_int_equal(l.body.h, l.sidebar.h);
    assert_int_equal(l.body.w, l.sidebar.w + l.sep.w + l.main.w);
    assert_true(l.sidebar.w >= 20 && l.sidebar.w <= 30);
    assert_true(l.main.w >= cols / 2);
    assert_int_equal(l.keybar.y, rows - 1);
    assert_int_equal(l.header.y, 0);
}

static void test_all_sizes(void **state)
{
    (void)state;
    for (int rows = TUI_MIN_ROWS; rows <= 120; rows++)
        for (int cols = TUI_MIN_COLS; cols <= 320; cols += (cols < 130 ? 1 : 7))
            check_size(rows, cols);
}

static void test_too_small(void **state)
{
    (void)state;
    struct tui_layout l;
    tui_layout_compute(TUI_MIN_ROWS, TUI_MIN_COLS - 1, &l);
    assert_true(l.too_small);
    tui_layout_compute(TUI_MIN_ROWS - 1, TUI_MIN_COLS, &l);
    assert_true(l.too_small);
    assert_int_equal(l.main.w, 0);
    assert_int_equal(l.screen.w, TUI_MIN_COLS);
    tui_layout_compute(12, 50, &l);
    assert_true(l.too_small);
    tui_layout_compute(-3, -7, &l); /* a confused terminal must not produce negative sizes */
    assert_true(l.too_small);
    assert_int_equal(l.screen.w, 0);
    assert_int_equal(l.screen.h, 0);
    tui_layout_compute(TUI_MIN_ROWS, TUI_MIN_COLS, &l);
    assert_false(l.too_small);
}

static void test_known_sizes(void **state)
{
    (void)state;
    struct tui_layout l;
    tui_layout_compute(24, 80, &l);
    assert_int_equal(l.sidebar.w, 20);
    assert_int_equal(l.main.x, 21);
    assert_int_equal(l.main.w, 59);
    assert_int_equal(l.body.h, 21);
    tui_layout_compute(60, 200, &l);
    assert_int_equal(l.sidebar.w, 30);
    assert_int_equal(l.status.y, 58);
}

static void test_contains(void **state)
{
    (void)state;
    struct tui_rect r = {.y = 2, .x = 3, .h = 2, .w = 4};
    assert_true(tui_rect_contains(&r, 2, 3));
    assert_true(tui_rect_contains(&r, 3, 6));
    assert_false(tui_rect_contains(&r, 4, 3));
    assert_false(tui_rect_contains(&r, 2, 7));
    assert_false(tui_rect_contains(&r, 1, 3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_sizes),
        cmocka_unit_test(test_too_small),
        cmocka_unit_test(test_known_sizes),
        cmocka_unit_test(test_contains),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
