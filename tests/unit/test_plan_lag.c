/* Lag copies (engine/plan.h, eng_plan_add_lag): which runs get them (auto: a GPU backend, not
 * an emulating one; explicit seeds anywhere; never a prebuilt code object), what a copy is (the
 * rung check renamed NAME-lagS, built with KL_LAG=S, repeats capped for rung 5, expectation
 * kept; baselines never copied), and that the seed survives the trip to a worker as JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/check.h"
#include "engine/manifest.h"
#include "engine/plan.h"
#include "engine/tables/tables.h"

/* Plans rung `rung` of the built-in suite with po; returns the count, *lagged the lag copies. */
static size_t plan_of(const char *suite, int rung, const struct eng_plan_opts *po,
                      struct eng_planned **plan, size_t *lagged)
{
    char err[512];
    struct eng_manifest *m = eng_manifest_load(suite, NULL, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    size_t n = 0;
    *plan = NULL;
    if (eng_plan_rung(m, suite, rung, po, plan, &n, err, sizeof err) != 0)
        fail_msg("%s", err);
    eng_manifest_free(m);
    *lagged = 0;
    for (size_t i = 0; i < n; i++)
        *lagged += (*plan)[i].spec.lag != 0;
    return n;
}

static void test_auto_by_backend(void **state)
{
    (void)state;
    struct eng_plan_opts po = {.backend = "cpu", .wave = 32, .fixed = true, .buggy = true,
                               .baseline = true, .timeout_s = 5, .lag_auto = true};
    struct eng_planned *plan;
    size_t lagged, n = plan_of("aiter-6344", 5, &po, &plan, &lagged);
    assert_int_equal(lagged, 0); /* the cpu schedule holds waves back by itself */
    size_t pct = 0; /* what rung 5 adds on the cpu instead: one-launch copies under pct */
    for (size_t i = 0; i < n; i++)
        pct += plan[i].pct_added;
    assert_true(pct > 0);
    size_t plain = n - pct;
    eng_planned_free(plan, n);

    po.backend = "cuda";
    n = plan_of("aiter-6344", 5, &po, &plan, &lagged);
    size_t rung_checks = 0;
    for (size_t i = 0; i < plain; i++)
        rung_checks += !plan[i].spec.baseline;
    /* seeds 1..4 of both modes: one wave behind (-lagS), one wave ahead (-aheadS) */
    assert_int_equal(lagged, 2 * ENG_LAG_AUTO_SEEDS * rung_checks);
    assert_int_equal(n, plain + lagged);
    size_t ahead = 0;
    for (size_t i = 0; i < n; i++) {
        const struct eng_planned *p = &plan[i];
        if (!p->spec.lag)
            continue;
        assert_false(p->spec.baseline);
        uint32_t seed = eng_lag_seed(p->spec.lag);
        assert_true(seed >= 1 && seed <= ENG_LAG_AUTO_SEEDS);
        ahead += eng_lag_is_ahead(p->spec.lag);
        char suffix[32];
        snprintf(suffix, sizeof suffix, "-%s%u", eng_lag_is_ahead(p->spec.lag) ? "ahead" : "lag",
                 (unsigned)seed);
        const char *nm = p->spec.name;
        assert_string_equal(nm + strlen(nm) - strlen(suffix), suffix);
        /* the plain check it copies: same name without the suffix, same variant */
        bool found = false;
        for (size_t k = 0; k < n && !found; k++)
            found = !plan[k].spec.lag && !strcmp(plan[k].spec.variant, p->spec.variant) &&
                    strlen(plan[k].spec.name) == strlen(nm) - strlen(suffix) &&
                    !strncmp(plan[k].spec.name, nm, strlen(plan[k].spec.name)) &&
                    plan[k].expect_fail == p->expect_fail && plan[k].spec.repeats >= p->spec.repeats;
        assert_true(found);
        assert_true(p->spec.repeats <= 8);
    }
    assert_int_equal(ahead, ENG_LAG_AUTO_SEEDS * rung_checks);
    eng_planned_free(plan, n);

    /* A prebuilt code object cannot be rebuilt lagged: one copy per variant stands for the
     * seeds, carrying the object, so that the check says so when it runs (and is skipped). */
    po.code_object = "prebuilt.co";
    n = plan_of("aiter-6344", 5, &po, &plan, &lagged);
    assert_int_equal(lagged, 2);
    for (size_t i = 0; i < n; i++)
        if (plan[i].spec.lag)
            assert_string_equal(plan[i].spec.code_object, "prebuilt.co");
    eng_planned_free(plan, n);
}

static void test_explicit_seeds(void **state)
{
    (void)state;
    struct eng_plan_opts po = {.backend = "cpu", .wave = 32, .fixed = true, .buggy = false,
                               .baseline = true, .timeout_s = 5,
                               .lag = {7, 9 | ENG_LAG_AHEAD}, .nlag = 2};
    struct eng_planned *plan;
    size_t lagged, n = plan_of("aiter-6127", 2, &po, &plan, &lagged);
    size_t sevens = 0, nines = 0, classes = 0;
    for (size_t i = 0; i < n; i++) {
        sevens += plan[i].spec.lag == 7 && strstr(plan[i].spec.name, "-lag7");
        nines += plan[i].spec.lag == (9 | ENG_LAG_AHEAD) && strstr(plan[i].spec.name, "-ahead9");
        classes += !plan[i].spec.lag && !plan[i].spec.baseline && plan[i].spec.values;
        if (plan[i].spec.lag) /* the value class goes with the copy */
            assert_non_null(plan[i].spec.values);
    }
    assert_true(classes > 0);
    assert_int_equal(sevens, classes);
    assert_int_equal(nines, classes);
    assert_int_equal(lagged, 2 * classes);
    eng_planned_free(plan, n);

    po.nlag = 0; /* off */
    n = plan_of("aiter-6127", 2, &po, &plan, &lagged);
    assert_int_equal(lagged, 0);
    eng_planned_free(plan, n);
}

static void test_spec_json(void **state)
{
    (void)state;
    struct eng_shape sh = {0};
    char suite[] = "aiter-6127", variant[] = "buggy", name[] = "identical-rows-lag3";
    struct eng_check_spec s = {.backend = "cuda", .suite = suite, .variant = variant,
                               .name = name, .rung = 2, .lag = 3, .nshapes = 1, .shapes = &sh};
    char *text = eng_check_spec_json(&s);
    struct eng_check_spec back;
    char err[256];
    assert_int_equal(eng_check_spec_parse(text, &back, err, sizeof err), 0);
    assert_int_equal(back.lag, 3);
    eng_check_spec_free(&back);
    free(text);
    s.lag = 3 | ENG_LAG_AHEAD; /* the mode travels to the worker with the seed */
    text = eng_check_spec_json(&s);
    assert_int_equal(eng_check_spec_parse(text, &back, err, sizeof err), 0);
    assert_int_equal(back.lag, 3 | ENG_LAG_AHEAD);
    eng_check_spec_free(&back);
    free(text);
    s.lag = 0;
    text = eng_check_spec_json(&s);
    assert_null(strstr(text, "\"lag\""));
    assert_int_equal(eng_check_spec_parse(text, &back, err, sizeof err), 0);
    assert_int_equal(back.lag, 0);
    eng_check_spec_free(&back);
    free(text);
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_by_backend),
        cmocka_unit_test(test_explicit_seeds),
        cmocka_unit_test(test_spec_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
