/* The probability helper: P(N) = 1 - (1 - p)^N must stay accurate for the tiny rates of real
 * races, and the N for 50% / 95% must be the smallest whole number that reaches it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "tui/views/prob.h"

/* Exact equality without -Wfloat-equal: these values are whole or exact by construction. */
static int same(double a, double b)
{
    return !(a < b) && !(a > b);
}

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.17g, want %.17g (relative tolerance %g)", got, want, rel);
}

static void test_rate(void **state)
{
    (void)state;
    assert_close(tui_prob_rate(2, 30), 2.0 / 30.0, 1e-15);
    assert_true(same(tui_prob_rate(1, 0), 0.0));
    assert_true(same(tui_prob_rate(0, 10), 0.0));
    assert_true(same(tui_prob_rate(5, 2), 1.0));
}

static void test_tiny_rate_keeps_digits(void **state)
{
    (void)state;
    double p = tui_prob_rate(7, 292889600);
    double got = tui_prob_catch(p, 1000);
    /* 1000 p = 2.38998e-5, minus the second-order term N(N-1)p^2/2. */
    assert_close(got, 2.38995049e-5, 1e-8);
    assert_true(got > 2.38e-5 && got < 2.40e-5);
    assert_close(tui_prob_catch(p, 1), p, 1e-12);
}

static void test_known_values(void **state)
{
    (void)state;
    double p = 2.0 / 30.0;
    assert_close(tui_prob_catch(p, 1), p, 1e-15);
    assert_close(tui_prob_catch(p, 10), 1 - pow(28.0 / 30.0, 10), 1e-12);
    assert_close(tui_prob_catch(1e-5, 1e6), 1 - exp(-10.0 * (1 + 5e-6)), 1e-6);
    assert_true(same(tui_prob_catch(0, 1e9), 0.0));
    assert_true(same(tui_prob_catch(1, 1), 1.0));
    assert_true(same(tui_prob_catch(0.5, 0), 0.0));
}

static void test_calls_for(void **state)
{
    (void)state;
    double p = 2.0 / 30.0;
    double n50 = tui_prob_calls_for(p, 0.5), n95 = tui_prob_calls_for(p, 0.95);
    assert_true(same(n50, 11) && same(n95, 44));
    assert_true(tui_prob_catch(p, n50) >= 0.5 && tui_prob_catch(p, n50 - 1) < 0.5);
    assert_true(tui_prob_catch(p, n95) >= 0.95 && tui_prob_catch(p, n95 - 1) < 0.95);

    p = 1.0 / 100000.0;
    assert_true(same(tui_prob_calls_for(p, 0.5), 69315));
    assert_true(same(tui_prob_calls_for(p, 0.95), 299572));

    p = tui_prob_rate(7, 292889600);
    double n = tui_prob_calls_for(p, 0.5);
    assert_true(tui_prob_catch(p, n) >= 0.5 && tui_prob_catch(p, n - 1) < 0.5);
    assert_close(n, log(2.0) / p, 1e-6);

    assert_true(isinf(tui_prob_calls_for(0, 0.5)));
    assert_true(same(tui_prob_calls_for(1, 0.95), 1));
}

static void test_format_pct(void **state)
{
    (void)state;
    char b[32];
    tui_prob_format_pct(2.0 / 30.0, b, sizeof b);
    assert_string_equal(b, "6.7%");
    tui_prob_format_pct(2.38995049e-5, b, sizeof b);
    assert_string_equal(b, "0.0024%");
    tui_prob_format_pct(1 - exp(-10.0), b, sizeof b);
    assert_string_equal(b, "99.995%");
    tui_prob_format_pct(1.0, b, sizeof b);
    assert_string_equal(b, "100%");
    tui_prob_format_pct(0.0, b, sizeof b);
    assert_string_equal(b, "0%");
    tui_prob_format_pct(1 - 1e-13, b, sizeof b);
    assert_true(strncmp(b, "100", 3) != 0);
}

static void test_format_count(void **state)
{
    (void)state;
    char b[32];
    tui_prob_format_count(292889600, b, sizeof b);
    assert_string_equal(b, "292,889,600");
    tui_prob_format_count(1, b, sizeof b);
    assert_string_equal(b, "1");
    tui_prob_format_count(1000, b, sizeof b);
    assert_string_equal(b, "1,000");
    tui_prob_format_count(100, b, sizeof b);
    assert_string_equal(b, "100");
    tui_prob_format_count(HUGE_VAL, b, sizeof b);
    assert_string_equal(b, "never");
    tui_prob_format_count(1234567, b, 6); /* truncated, still terminated */
    assert_int_equal(strlen(b), 5);
    /* the helper's largest N and what a rare race needs: words or digits, never "1e+15" */
    char w[64];
    tui_prob_format_count(1e15, w, sizeof w);
    assert_string_equal(w, "1,000,000,000,000,000");
    tui_prob_format_count(1.234e18, w, sizeof w);
    assert_string_equal(w, "1,230,000,000,000,000,000");
    tui_prob_format_count(999999999999999.0, w, sizeof w);
    assert_string_equal(w, "999,999,999,999,999");
    tui_prob_format_count(3e27, w, sizeof w);
    assert_string_equal(w, "about 10^27");
    for (double n = 1; n < 1e30; n *= 7.3) {
        tui_prob_format_count(n, w, sizeof w);
        if (strchr(w, 'e'))
            fail_msg("%g printed as %s", n, w);
    }
}

static void test_step(void **state)
{
    (void)state;
    assert_true(same(tui_prob_step(1, +1), 2));
    assert_true(same(tui_prob_step(2, +1), 5));
    assert_true(same(tui_prob_step(5, +1), 10));
    assert_true(same(tui_prob_step(1000, +1), 2000));
    assert_true(same(tui_prob_step(1000, -1), 500));
    assert_true(same(tui_prob_step(1, -1), 1));
    assert_true(same(tui_prob_step(TUI_PROB_N_MAX, +1), TUI_PROB_N_MAX));
    assert_true(same(tui_prob_step(3, -1), 2)); /* off-series values snap to the series */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate),         cmocka_unit_test(test_tiny_rate_keeps_digits),
        cmocka_unit_test(test_known_values), cmocka_unit_test(test_calls_for),
        cmocka_unit_test(test_format_pct),   cmocka_unit_test(test_format_count),
        cmocka_unit_test(test_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
