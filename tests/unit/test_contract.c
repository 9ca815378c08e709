/* The error bound of an output's contract (engine/values/contract.h): it grows with the reduction
 * length and the accumulator, keeps the suite's floor, allows one fp8 code for quantized
 * outputs and nothing for selections, a normalized output's grows with the cancellation in
 * x - mean, and the default domain keeps sums of squares finite. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>

#include "engine/values/contract.h"

/* exact bounds are the point: each is a sum of powers of two */
#pragma GCC diagnostic ignored "-Wfloat-equal"

static struct eng_out_contract contract(enum eng_kind k)
{
    struct eng_out_contract c = {.declared = true, .kind = k, .acc = ENG_F32};
    return c;
}

static void bound_grows_with_the_reduction(void **state)
{
    (void)state;
    struct eng_out_contract c = contract(ENG_KIND_SUM);
    double b64 = eng_contract_bound(&c, ENG_F32, 64, 1, 1, 0, 0, 0);
    double b4096 = eng_contract_bound(&c, ENG_F32, 4096, 1, 1, 0, 0, 0);
    assert_true(b4096 > 50 * b64);
    /* 2 gamma_4096(2^-24) + 2^-23: a tree sum 1.5e-5 off a sequential reference passes */
    assert_true(b4096 > 4.8e-4 && b4096 < 5.0e-4);
    c.acc = ENG_BF16;
    assert_true(eng_contract_bound(&c, ENG_F32, 64, 1, 1, 0, 0, 0) > 1e4 * b64 / 64);
}

static void the_floor_stays(void **state)
{
    (void)state;
    struct eng_out_contract c = contract(ENG_KIND_SELECTION);
    assert_true(eng_contract_bound(&c, ENG_F32, 1, 2, 2, 0, 0.5, 0.25) == 1.0);
    c = contract(ENG_KIND_ELEMENTWISE);
    assert_true(eng_contract_bound(&c, ENG_F32, 1, 0, 0, 0, 1e-6, 0) == 1e-6);
}

static void quantized_allows_one_code(void **state)
{
    (void)state;
    struct eng_out_contract c = contract(ENG_KIND_QUANTIZED);
    /* fp8 e4m3 codes are 32 apart between 256 and 448, 2^-9 apart among subnormals */
    assert_true(eng_contract_bound(&c, ENG_FP8E4M3, 1, 320, 448, 0, 0, 0) == 32);
    assert_true(eng_contract_bound(&c, ENG_FP8E4M3, 1, 0.001, 1, 0, 0, 0) == ldexp(1, -9));
}

/* A layer norm's output error grows with max|x| / max|x - mean| of its input row: the mean's
 * rounding, amplified by 1 / sigma; unknown (0) adds nothing, a row of equal values (+Inf)
 * bounds nothing finite. */
static void normalized_grows_with_the_cancellation(void **state)
{
    (void)state;
    struct eng_out_contract c = contract(ENG_KIND_NORMALIZED);
    double plain = eng_contract_bound(&c, ENG_F32, 64, 1, 2, 0, 0, 0);
    double one = eng_contract_bound(&c, ENG_F32, 64, 1, 2, 1, 0, 0);
    double big = eng_contract_bound(&c, ENG_F32, 64, 1, 2, 1e6, 0, 0);
    assert_true(fabs((one - plain) / (4 * sqrt(65.0) * ldexp(1, -24)) - 1) < 1e-9);
    assert_true(big - plain > 1e5 * (one - plain) && big - plain < 1.1e6 * (one - plain));
    assert_true(isinf(eng_contract_bound(&c, ENG_F32, 64, 0, 0, (double)INFINITY, 0, 0)));
    c = contract(ENG_KIND_SUM); /* only a normalization divides by the spread */
    assert_true(eng_contract_bound(&c, ENG_F32, 64, 1, 2, 1e6, 0, 0) ==
                eng_contract_bound(&c, ENG_F32, 64, 1, 2, 0, 0, 0));
}

static void default_domain(void **state)
{
    (void)state;
    struct eng_out_contract c = contract(ENG_KIND_SUM);
    double d = eng_contract_domain(&c, 100);
    assert_true(isfinite((float)(d * d * 100 * 0.99)));
    c.domain = 50;
    assert_true(eng_contract_domain(&c, 100) == 50);
    c = contract(ENG_KIND_ELEMENTWISE);
    assert_true(eng_contract_domain(&c, 100) == (double)FLT_MAX);
    assert_true(isinf(eng_gamma(1e9, ldexp(1, -24))));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bound_grows_with_the_reduction),
        cmocka_unit_test(the_floor_stays),
        cmocka_unit_test(quantized_allows_one_code),
        cmocka_unit_test(normalized_grows_with_the_cancellation),
        cmocka_unit_test(default_domain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
