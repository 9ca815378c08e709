/* tui/views/run_pair: a run's checks paired fixed beside buggy, one row per check, and what each
 * pair shows. The runs here are written for this test: a rung 4 run whose checks come buggy first and
 * with the baseline test's pair between, a check recorded on one side only, a false alarm, and a
 * user suite's variant that pairs with nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "tui/views/run_pair.h"

#define CHECK(v_, name_, shape_, verd_) \
    {.rung = 4, .suite = "s", .variant = (v_), .check = (name_), .shape = (shape_), .verdict = (verd_)}

static void test_pairs_by_name_shape_and_group(void **state)
{
    (void)state;
    const struct cdb_check k[] = {
        CHECK("buggy", "tail-k640", "K=640", CDB_FAIL),          /* 0: row 0 */
        CHECK("baseline-buggy", "tail-k640", "K=640", CDB_PASS), /* 1: row 1 */
        CHECK("fixed", "tail-k640", "K=640", CDB_PASS),          /* 2: row 0 */
        CHECK("baseline-fixed", "tail-k640", "K=640", CDB_PASS), /* 3: row 1 */
        CHECK("fixed", "tail-k640", "K=768", CDB_PASS),          /* 4: row 2, another shape */
        CHECK("buggy", "tail-k768", "K=768", CDB_HANG),          /* 5: row 3, another name */
        CHECK("user", "mine", "K=1", CDB_PASS),                  /* 6: row 4, pairs with none */
    };
    struct tui_pair_row rows[7];
    size_t n = tui_pair_rows(k, 7, rows);
    assert_int_equal(n, 5);
    assert_ptr_equal(rows[0].fixed, &k[2]);
    assert_ptr_equal(rows[0].buggy, &k[0]);
    assert_int_equal(rows[0].group_len, 0);
    assert_ptr_equal(rows[1].fixed, &k[3]);
    assert_ptr_equal(rows[1].buggy, &k[1]);
    assert_int_equal(rows[1].group_len, strlen("baseline"));
    assert_memory_equal(rows[1].group, "baseline", 8);
    assert_ptr_equal(rows[2].fixed, &k[4]);
    assert_null(rows[2].buggy);
    assert_null(rows[3].fixed);
    assert_ptr_equal(rows[3].buggy, &k[5]);
    assert_ptr_equal(rows[4].other, &k[6]);
    assert_null(rows[4].fixed);
    assert_null(rows[4].buggy);

    assert_int_equal(tui_pair_lesson(&rows[0]), TUI_PAIR_CAUGHT);
    assert_int_equal(tui_pair_lesson(&rows[1]), TUI_PAIR_NOT_CAUGHT);
    assert_int_equal(tui_pair_lesson(&rows[2]), TUI_PAIR_INCOMPLETE);
    assert_int_equal(tui_pair_lesson(&rows[3]), TUI_PAIR_INCOMPLETE);
    assert_int_equal(tui_pair_lesson(&rows[4]), TUI_PAIR_INCOMPLETE);

    assert_int_equal(tui_pair_row_of(rows, n, &k[2]), 0);
    assert_int_equal(tui_pair_row_of(rows, n, &k[3]), 1);
    assert_int_equal(tui_pair_row_of(rows, n, &k[5]), 3);
    assert_ptr_equal(tui_pair_main(&rows[0]), &k[0]);
    assert_ptr_equal(tui_pair_main(&rows[2]), &k[4]);
    assert_ptr_equal(tui_pair_main(&rows[4]), &k[6]);
}

/* A repeated check (the same name, shape and variant twice) starts a second row rather than
 * overwriting the first's side. */
static void test_a_side_is_never_overwritten(void **state)
{
    (void)state;
    const struct cdb_check k[] = {
        CHECK("fixed", "c", "M=1", CDB_PASS),
        CHECK("fixed", "c", "M=1", CDB_PASS),
        CHECK("buggy", "c", "M=1", CDB_FAIL),
        CHECK("buggy", "c", "M=1", CDB_PASS),
    };
    struct tui_pair_row rows[4];
    assert_int_equal(tui_pair_rows(k, 4, rows), 2);
    assert_ptr_equal(rows[0].fixed, &k[0]);
    assert_ptr_equal(rows[0].buggy, &k[2]);
    assert_ptr_equal(rows[1].fixed, &k[1]);
    assert_ptr_equal(rows[1].buggy, &k[3]);
}

/* A fixed variant that fails is a false alarm whatever the buggy one did; a buggy one that was
 * skipped or errored does not count as caught. */
static void test_lessons(void **state)
{
    (void)state;
    const struct cdb_check k[] = {
        CHECK("fixed", "a", "M=1", CDB_FAIL),  CHECK("buggy", "a", "M=1", CDB_FAIL),
        CHECK("fixed", "b", "M=1", CDB_HANG),  CHECK("buggy", "b", "M=1", CDB_PASS),
        CHECK("fixed", "c", "M=1", CDB_PASS),  CHECK("buggy", "c", "M=1", CDB_SKIP),
        CHECK("fixed", "d", "M=1", CDB_PASS),  CHECK("buggy", "d", "M=1", CDB_ERROR),
        CHECK("fixed", "e", "M=1", CDB_SKIP),  CHECK("buggy", "e", "M=1", CDB_FAIL),
    };
    struct tui_pair_row rows[10];
    assert_int_equal(tui_pair_rows(k, 10, rows), 5);
    assert_int_equal(tui_pair_lesson(&rows[0]), TUI_PAIR_FALSE_ALARM);
    assert_int_equal(tui_pair_lesson(&rows[1]), TUI_PAIR_FALSE_ALARM);
    assert_int_equal(tui_pair_lesson(&rows[2]), TUI_PAIR_INCOMPLETE);
    assert_int_equal(tui_pair_lesson(&rows[3]), TUI_PAIR_INCOMPLETE);
    assert_int_equal(tui_pair_lesson(&rows[4]), TUI_PAIR_INCOMPLETE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_by_name_shape_and_group),
        cmocka_unit_test(test_a_side_is_never_overwritten),
        cmocka_unit_test(test_lessons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
