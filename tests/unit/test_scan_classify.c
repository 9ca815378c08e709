/* Why a scanned file did not compile (engine/compile/scan_unit.h, eng_scan_classify), read from
 * the first error of g++ (cpu), clang (hip) and nvcc (cuda) logs as they print them, and from
 * kladder's own refusal of an include: the missing name with its scope, the header, the place as
 * FILE:LINE; an error that names nothing missing is a compile error with its line, and a later
 * error never decides. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/compile/scan_unit.h"

struct want {
    const char *log;
    enum eng_scan_cause cause;
    const char *what, *where;
};

static void check(const struct want *w)
{
    struct eng_scan_result r = {0};
    eng_scan_classify(w->log, &r);
    if (r.cause != w->cause)
        fail_msg("%s: cause %s, expected %s", w->log, eng_scan_cause_name(r.cause),
                 eng_scan_cause_name(w->cause));
    if (w->what)
        assert_string_equal(r.what ? r.what : "(none)", w->what);
    else
        assert_null(r.what);
    if (w->where)
        assert_string_equal(r.where ? r.where : "(none)", w->where);
    assert_non_null(r.message);
    eng_scan_result_free(&r);
}

static void test_missing_api(void **state)
{
    (void)state;
    const struct want cases[] = {
        /* g++, in the C locale and in a UTF-8 one */
        {"In file included from k.cu:3:\nk.cu:12:5: error: 'atomicInc' was not declared in this "
         "scope; did you mean 'atomicAdd'?\n   12 |     atomicInc(p, 4);\n",
         ENG_SCAN_MISSING_API, "atomicInc", "k.cu:12"},
        {"sub/a.cuh:7:3: error: \xe2\x80\x98hipThreadIdx_x\xe2\x80\x99 was not declared in this "
         "scope\n", ENG_SCAN_MISSING_API, "hipThreadIdx_x", "sub/a.cuh:7"},
        {"k.cu:4:8: error: 'thread_group' is not a member of 'cg'\n", ENG_SCAN_MISSING_API,
         "cg::thread_group", "k.cu:4"},
        {"k.cu:9:1: error: 'CUresult' does not name a type\n", ENG_SCAN_MISSING_API, "CUresult",
         "k.cu:9"},
        {"k.cu:20:9: error: no matching function for call to 'atomicAdd(__nv_bfloat162*, "
         "__nv_bfloat162&)'\nk.cu:30:1: error: 'x' was not declared in this scope\n",
         ENG_SCAN_MISSING_API, "atomicAdd", "k.cu:20"},
        /* clang */
        {"k.hip:5:14: error: use of undeclared identifier '__fdividef'\n", ENG_SCAN_MISSING_API,
         "__fdividef", "k.hip:5"},
        {"k.hip:6:10: error: no matching function for call to '__expf'\n", ENG_SCAN_MISSING_API,
         "__expf", "k.hip:6"},
        {"k.hip:2:4: error: no member named 'tiled_partition' in namespace 'cooperative_groups'\n",
         ENG_SCAN_MISSING_API, "cooperative_groups::tiled_partition", "k.hip:2"},
        /* nvcc */
        {"k.cu(33): error: identifier \"hipBlockIdx_x\" is undefined\n", ENG_SCAN_MISSING_API,
         "hipBlockIdx_x", "k.cu:33"},
        /* a name kladder declares unsupported on the backend */
        {"k.cu:8:3: error: 'cudaGraphInstantiate' is not supported on the cpu backend\n",
         ENG_SCAN_UNSUPPORTED_API, "cudaGraphInstantiate", "k.cu:8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check(&cases[i]);
}

static void test_missing_header(void **state)
{
    (void)state;
    const struct want cases[] = {
        {"k.cu:3:10: fatal error: helper_cuda.h: No such file or directory\ncompilation "
         "terminated.\n", ENG_SCAN_MISSING_HEADER, "helper_cuda.h", "k.cu:3"},
        {"k.hip:1:10: fatal error: 'rocprim/rocprim.hpp' file not found\n",
         ENG_SCAN_MISSING_HEADER, "rocprim/rocprim.hpp", "k.hip:1"},
        {"k.cu(2): catastrophic error: cannot open source file \"cudnn.h\"\n",
         ENG_SCAN_MISSING_HEADER, "cudnn.h", "k.cu:2"},
        /* kladder's own refusals, before any compiler */
        {"main.cu:4: #include <strings.h>: kladder supplies no such header on this backend "
         "(docs/kernels.md lists those it does)", ENG_SCAN_MISSING_HEADER, "strings.h",
         "main.cu:4"},
        {"main.cu:5: #include \"../common/util.h\": no such file beside main.cu (outside the "
         "folder)", ENG_SCAN_MISSING_HEADER, "../common/util.h", "main.cu:5"},
        /* the #error the preprocessor pass leaves in place of an include nobody has */
        {"main.cu:6:2: error: #error \"#include <cub/cub.cuh>: neither kladder (docs/kernels.md "
         "lists what it supplies) nor the host compiler has this header\"\n",
         ENG_SCAN_MISSING_HEADER, "cub/cub.cuh", "main.cu:6"},
        {"main.cu:7:2: error: #error \"#include \\\"SDKBitMap.h\\\": no such file beside main.cu "
         "(x/SDKBitMap.h: No such file or directory)\"\n",
         ENG_SCAN_MISSING_HEADER, "SDKBitMap.h", "main.cu:7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check(&cases[i]);
}

static void test_other_errors(void **state)
{
    (void)state;
    const struct want cases[] = {
        {"k.cu:3:18: error: expected primary-expression before ';' token\n",
         ENG_SCAN_COMPILE_ERROR, NULL, "k.cu:3"},
        {"k.cu:2:2: error: #error WIDTH must be given\n", ENG_SCAN_COMPILE_ERROR, NULL, "k.cu:2"},
        /* a warning first, the error after it */
        {"k.cu:1:1: warning: 'x' is deprecated\nk.cu:9:2: error: expected ';' after "
         "expression\n", ENG_SCAN_COMPILE_ERROR, NULL, "k.cu:9"},
        /* no error line: the log's first line, no place */
        {"\ncpu backend: cannot write /nowhere/kernel.cpp: No space left\n",
         ENG_SCAN_COMPILE_ERROR, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check(&cases[i]);
    struct eng_scan_result r = {0};
    eng_scan_classify("k.cu:3:18: error: expected primary-expression\n", &r);
    assert_string_equal(r.message, "k.cu:3:18: error: expected primary-expression");
    eng_scan_result_free(&r);
}

static void test_cause_names(void **state)
{
    (void)state;
    for (int c = 0; c < ENG_SCAN_NCAUSES; c++)
        assert_int_equal(eng_scan_cause_parse(eng_scan_cause_name((enum eng_scan_cause)c)), c);
    assert_int_equal(eng_scan_cause_parse("nonsense"), -1);
    assert_int_equal(eng_scan_cause_parse(NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_api),
        cmocka_unit_test(test_missing_header),
        cmocka_unit_test(test_other_errors),
        cmocka_unit_test(test_cause_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
