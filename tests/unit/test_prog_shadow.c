/* The written-byte bitmaps of `kladder exec` (engine/prog/prog_shadow.h), against a byte-per-
 * byte model: marks at every alignment, the first never-written byte of a range, and copies
 * between shadows and within one (overlapping both ways, at equal and unequal bit offsets). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/prog/prog_shadow.h"

#define N 200

/* every byte's state in sh agrees with the model */
static void agree(const unsigned char *sh, const bool *model)
{
    for (size_t i = 0; i < N; i++)
        assert_int_equal(prog_shadow_first_unwritten(sh, i, 1) == (size_t)-1, model[i]);
}

static size_t model_first(const bool *model, size_t off, size_t n)
{
    for (size_t i = off; i < off + n; i++)
        if (!model[i])
            return i;
    return (size_t)-1;
}

static void test_mark_and_first(void **state)
{
    (void)state;
    unsigned char *sh = prog_shadow_new(N);
    bool model[N] = {false};
    assert_non_null(sh);
    assert_int_equal(prog_shadow_first_unwritten(sh, 0, N), 0);
    const size_t marks[][2] = {{3, 1}, {5, 11}, {16, 8}, {30, 17}, {64, 64}, {150, 3}, {199, 1}};
    for (size_t k = 0; k < sizeof marks / sizeof *marks; k++) {
        prog_shadow_mark(sh, marks[k][0], marks[k][1]);
        for (size_t i = 0; i < marks[k][1]; i++)
            model[marks[k][0] + i] = true;
    }
    agree(sh, model);
    for (size_t off = 0; off < N; off += 7)
        for (size_t n = 1; off + n <= N; n += 5)
            assert_int_equal(prog_shadow_first_unwritten(sh, off, n), model_first(model, off, n));
    prog_shadow_free(sh, N);
}

/* a copy of src's [soff, soff+n) to dst's doff, both shadow and model (memmove semantics) */
static void copy_both(unsigned char *dsh, bool *dm, size_t doff, const unsigned char *ssh,
                      const bool *sm, size_t soff, size_t n)
{
    prog_shadow_copy(dsh, doff, ssh, soff, n);
    memmove(dm + doff, sm + soff, n * sizeof *dm);
}

static void test_copy(void **state)
{
    (void)state;
    const size_t cases[][3] = {{0, 0, 64}, {8, 16, 40}, {3, 11, 50}, {5, 2, 97}, {1, 0, 7},
                               {13, 40, 3}, {40, 13, 60}, {2, 9, 120}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        unsigned char *a = prog_shadow_new(N), *b = prog_shadow_new(N);
        bool ma[N] = {false}, mb[N] = {false};
        for (size_t i = 0; i < N; i++) /* a pattern with runs and single bytes */
            if (i % 3 == 0 || (i / 10) % 2) {
                prog_shadow_mark(a, i, 1);
                ma[i] = true;
            }
        prog_shadow_mark(b, 100, 50);
        for (size_t i = 100; i < 150; i++)
            mb[i] = true;
        size_t soff = cases[c][0], doff = cases[c][1], n = cases[c][2];
        copy_both(b, mb, doff, a, ma, soff, n); /* between shadows */
        agree(b, mb);
        copy_both(a, ma, doff, a, ma, soff, n); /* within one, overlapping */
        agree(a, ma);
        copy_both(a, ma, soff, a, ma, doff, n); /* and back the other way */
        agree(a, ma);
        prog_shadow_free(a, N);
        prog_shadow_free(b, N);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mark_and_first),
        cmocka_unit_test(test_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
