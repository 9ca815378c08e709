/* The run view's seam neighbour (tui/views/run_seam.h): the passing check of the same run, rung,
 * suite and variant whose name differs from a failing rung 3 check's in one number only. Which
 * rung's checks are seams is its entry's word (seam_neighbours): the built-in ladder is
 * installed, as the program's top does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/tables/tables.h"
#include "tui/views/run_seam.h"

static void one_number_apart(void **state)
{
    (void)state;
    assert_true(tui_seam_one_number_apart("wave32-default", "wave64-default"));
    assert_true(tui_seam_one_number_apart("layout-scale_layout2-wave32", "layout-scale_layout1-wave32"));
    assert_true(tui_seam_one_number_apart("code-gfx1250-tile_k64", "code-gfx1250-tile_k128"));
    /* two numbers apart, the same name, other words, a number against a word */
    assert_false(tui_seam_one_number_apart("layout-scale_layout2-wave32", "layout-scale_layout1-wave64"));
    assert_false(tui_seam_one_number_apart("wave32-default", "wave32-default"));
    assert_false(tui_seam_one_number_apart("wave32-default", "wave32-M16-N512"));
    assert_false(tui_seam_one_number_apart("wave32-x", "waveN-x"));
    assert_false(tui_seam_one_number_apart("wave32", "wave32-x"));
}

#define CHECK(r, v, name, vd) {.rung = r, .suite = "s", .variant = v, .check = name, .verdict = vd}

static void neighbour(void **state)
{
    (void)state;
    const struct cdb_check c[] = {
        CHECK(3, "buggy", "wave32-default", CDB_FAIL),  /* 0 */
        CHECK(3, "fixed", "wave64-default", CDB_PASS),  /* 1: another variant */
        CHECK(3, "buggy", "wave64-M8-N512", CDB_PASS),  /* 2: another shape */
        CHECK(3, "buggy", "wave64-default", CDB_FAIL),  /* 3: fails too */
        CHECK(3, "buggy", "wave48-default", CDB_SKIP),  /* 4: not a pass */
        CHECK(3, "buggy", "wave64-default", CDB_PASS),  /* 5: the neighbour */
        CHECK(1, "buggy", "tail-K257-tile_k256", CDB_FAIL),
        CHECK(1, "buggy", "tail-K384-tile_k256", CDB_PASS),
    };
    size_t n = sizeof c / sizeof *c;
    assert_ptr_equal(tui_seam_neighbour(c, n, 0), &c[5]);
    assert_int_equal(tui_seam_lines(c, n, 0), 3);
    /* a passing check has none; rung 1's tails are not seams */
    assert_null(tui_seam_neighbour(c, n, 5));
    assert_null(tui_seam_neighbour(c, n, 6));
    assert_int_equal(tui_seam_lines(c, n, 6), 0);
    assert_null(tui_seam_neighbour(c, n, n));
    /* a recorded seam adds its three lines */
    struct cdb_check r = c[3];
    r.seam = "wave", r.seam_a = "kernel k assumes: wave 64", r.seam_b = "this run: wave 32";
    assert_int_equal(tui_seam_lines(&r, 1, 0), 3);
}

int main(void)
{
    eng_ladder_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_number_apart),
        cmocka_unit_test(neighbour),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
