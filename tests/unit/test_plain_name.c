/* Plain sources by name: which files are plain sources, which entry point names a manifest may
 * give for one (C++ names and template instances, nothing that could smuggle code into the
 * appended entry lines), and the symbols they are exported as (an identifier as it is,
 * distinct instances under distinct identifiers). */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "engine/codeobj/plain_name.h"

static void test_is_plain(void **state)
{
    (void)state;
    assert_true(eng_plain_is("softmax.cu"));
    assert_true(eng_plain_is("dir/x.hip"));
    assert_true(eng_plain_is("x.cuh"));
    assert_true(eng_plain_is("x.cpp"));
    assert_false(eng_plain_is("x.kl"));
    assert_false(eng_plain_is("x.cu.kl"));
    assert_false(eng_plain_is("cu"));
    assert_false(eng_plain_is(NULL));
}

static void test_entry_names(void **state)
{
    (void)state;
    const char *good[] = {"softmax_ref", "ns::kernel", "a::b::c", "moving_average<256, 97>",
                          "gelu_bf16<true>", "f<-1, 2u>", "g<float, 4>", "h<vec<2>, 3>",
                          "k<T*, 1.5>", NULL};
    for (int i = 0; good[i]; i++)
        assert_true(eng_plain_entry_ok(good[i]));
    const char *bad[] = {"", "1abc", "f<1>x", "f<1>>", "f<<1>", "f<1", "f<1>); int x(0",
                         "ns::", "::f", "f;g", "f<\"s\">", "f<1>\n#define", "f{1}", NULL};
    for (int i = 0; bad[i]; i++) {
        print_message("refused: %s\n", bad[i]);
        assert_false(eng_plain_entry_ok(bad[i]));
    }
    assert_false(eng_plain_entry_ok(NULL));
}

static void test_symbols(void **state)
{
    (void)state;
    char a[160], b[160], c[160];
    eng_plain_symbol("softmax_ref", a, sizeof a);
    assert_string_equal(a, "softmax_ref");
    eng_plain_symbol("gelu_bf16<true>", a, sizeof a);
    eng_plain_symbol("gelu_bf16<false>", b, sizeof b);
    eng_plain_symbol("gelu_bf16<true>", c, sizeof c);
    assert_string_not_equal(a, b);
    assert_string_equal(a, c);
    assert_int_equal(strncmp(a, "kl_entry_gelu_bf16_true_", 24), 0);
    /* the same letters, other punctuation: still distinct */
    eng_plain_symbol("ns::f", a, sizeof a);
    eng_plain_symbol("ns_f", b, sizeof b);
    assert_string_not_equal(a, b);
    for (const char *s = a; *s; s++)
        assert_true(isalnum((unsigned char)*s) || *s == '_');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_plain),
        cmocka_unit_test(test_entry_names),
        cmocka_unit_test(test_symbols),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
