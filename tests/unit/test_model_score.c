/* Rung 8's model score (eng_model_compare, engine/rungs/rung8_model.h): agreement and the first
 * wrong step from the tokens, the logit error over finite pairs only, and every non-finite logit
 * counted, so a poisoned output is never scored as a small error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "engine/rungs/rung8_model.h"

static void compare_counts(void **state)
{
    (void)state;
    const int ref_t[4] = {3, 1, 4, 1};
    const float ref_l[4 * 2] = {0, 1, 2, 3, 4, 5, 6, 7};
    struct eng_model_score s;
    eng_model_compare(4, 2, ref_t, ref_l, ref_t, ref_l, &s);
    assert_int_equal(s.agree, 4);
    assert_int_equal(s.first_wrong, -1);
    assert_true(s.max_logit_err <= 0.0);
    assert_int_equal(s.nan_count, 0);

    const int t[4] = {3, 5, 4, 9};
    const float l[4 * 2] = {0, 1.5f, 2, 3, NAN, INFINITY, 6, 4};
    eng_model_compare(4, 2, ref_t, ref_l, t, l, &s);
    assert_int_equal(s.agree, 2);
    assert_int_equal(s.first_wrong, 1);
    assert_true(fabs(s.max_logit_err - 3.0) < 1e-12); /* 7 vs 4; the NaN and Inf are not errors */
    assert_int_equal(s.nan_count, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(compare_counts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
