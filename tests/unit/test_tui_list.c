/* The generic list widget: selection and scrolling stay in range whatever the moves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "tui/views/list.h"

static void check(const struct tui_list *l)
{
    if (l->n == 0) {
        assert_int_equal(l->sel, 0);
        assert_int_equal(l->top, 0);
        return;
    }
    assert_true(l->sel < l->n);
    assert_true(l->sel >= l->top);
    assert_true(l->sel < l->top + (size_t)(l->height > 0 ? l->height : 1));
}

static void test_moves(void **state)
{
    (void)state;
    struct tui_list l = {0};
    tui_list_reset(&l, 100);
    tui_list_set_height(&l, 10);
    tui_list_move(&l, 1);
    assert_int_equal(l.sel, 1);
    tui_list_move(&l, -5);
    assert_int_equal(l.sel, 0);
    tui_list_move(&l, 15);
    assert_int_equal(l.sel, 15);
    assert_int_equal(l.top, 6);
    check(&l);
    tui_list_last(&l);
    assert_int_equal(l.sel, 99);
    assert_int_equal(l.top, 90);
    tui_list_move(&l, 1000);
    assert_int_equal(l.sel, 99);
    tui_list_first(&l);
    assert_int_equal(l.top, 0);
    tui_list_page(&l, 1);
    assert_int_equal(l.sel, 9);
    assert_int_equal(l.top, 9);
    check(&l);
    tui_list_page(&l, -1);
    assert_int_equal(l.sel, 0);
    check(&l);
    for (int i = 0; i < 50; i++)
        tui_list_page(&l, 1);
    assert_int_equal(l.sel, 99);
    check(&l);
}

static void test_shrink_and_empty(void **state)
{
    (void)state;
    struct tui_list l = {0};
    tui_list_reset(&l, 50);
    tui_list_set_height(&l, 10);
    tui_list_select(&l, 45);
    tui_list_set_count(&l, 5); /* a narrower filter */
    assert_int_equal(l.sel, 4);
    assert_int_equal(l.top, 0);
    tui_list_set_count(&l, 0);
    check(&l);
    tui_list_move(&l, 1);
    tui_list_page(&l, 1);
    tui_list_last(&l);
    check(&l);
    assert_int_equal(tui_list_row_at(&l, 0), -1);
    tui_list_set_height(&l, 0); /* a zero-height view must not crash the moves */
    tui_list_set_count(&l, 3);
    tui_list_move(&l, 2);
    assert_int_equal(l.sel, 2);
}

static void test_scroll_and_rows(void **state)
{
    (void)state;
    struct tui_list l = {0};
    tui_list_reset(&l, 30);
    tui_list_set_height(&l, 10);
    tui_list_scroll(&l, 3);
    assert_int_equal(l.top, 3);
    assert_int_equal(l.sel, 3);
    tui_list_scroll(&l, 100);
    assert_int_equal(l.top, 20);
    check(&l);
    tui_list_scroll(&l, -100);
    assert_int_equal(l.top, 0);
    assert_int_equal(l.sel, 9);
    assert_int_equal(tui_list_row_at(&l, 4), 4);
    assert_int_equal(tui_list_row_at(&l, 10), -1);
    assert_int_equal(tui_list_row_at(&l, -1), -1);
}

static bool is_multiple_of_7(size_t row, void *ctx)
{
    (void)ctx;
    return row % 7 == 0;
}

static bool never(size_t row, void *ctx)
{
    (void)row, (void)ctx;
    return false;
}

static void test_find(void **state)
{
    (void)state;
    struct tui_list l = {0};
    tui_list_reset(&l, 20);
    tui_list_set_height(&l, 5);
    assert_true(tui_list_find(&l, 1, is_multiple_of_7, NULL));
    assert_int_equal(l.sel, 7);
    assert_true(tui_list_find(&l, 1, is_multiple_of_7, NULL));
    assert_int_equal(l.sel, 14);
    assert_true(tui_list_find(&l, 1, is_multiple_of_7, NULL)); /* wraps */
    assert_int_equal(l.sel, 0);
    assert_true(tui_list_find(&l, -1, is_multiple_of_7, NULL)); /* wraps backwards */
    assert_int_equal(l.sel, 14);
    check(&l);
    assert_false(tui_list_find(&l, 1, never, NULL));
    assert_int_equal(l.sel, 14);
}

struct drawn {
    int lines;
    size_t first;
    int selected_line;
};

static void record(size_t row, int line, bool selected, void *ctx)
{
    struct drawn *d = ctx;
    if (d->lines++ == 0)
        d->first = row;
    if (selected)
        d->selected_line = line;
}

static void test_draw(void **state)
{
    (void)state;
    struct tui_list l = {0};
    tui_list_reset(&l, 12);
    tui_list_select(&l, 11);
    struct drawn d = {0, 0, -1};
    tui_list_draw(&l, 5, record, &d);
    assert_int_equal(d.lines, 5);
    assert_int_equal(d.first, 7);
    assert_int_equal(d.selected_line, 4);
    d = (struct drawn){0, 0, -1};
    tui_list_draw(&l, 40, record, &d); /* taller than the rows: all of them, from the top */
    assert_int_equal(d.lines, 12);
    assert_int_equal(d.first, 0);
    assert_int_equal(d.selected_line, 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves),         cmocka_unit_test(test_shrink_and_empty),
        cmocka_unit_test(test_scroll_and_rows), cmocka_unit_test(test_find),
        cmocka_unit_test(test_draw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
