/* C++ entry points in a code object: the comparable form of a name (spaces, literal suffixes,
 * casts and a template instance's return type aside), and the lookup of a manifest's entry
 * among an ELF object's mangled functions, on a host object built from template kernels the
 * way a GPU object holds them (skipped without a host C++ compiler). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/fileio.h"
#include "engine/codeobj/plain_entry.h"

static void key_is(const char *name, const char *want)
{
    char *k = eng_plain_name_key(name);
    assert_string_equal(k, want);
    free(k);
}

static void test_keys(void **state)
{
    (void)state;
    key_is("moving_average<128, 5, true>", "moving_average<128,5,true>");
    key_is("void moving_average<128, 5, true>(float*, float const*, int)",
           "moving_average<128,5,true>");
    key_is("block_sums<0u>(float*)", "block_sums<0>");
    key_is("f<(unsigned char)1, 2ul>(int)", "f<1,2>");
    key_is("ns::plain(int*)", "ns::plain");
    key_is("softmax_ref", "softmax_ref");
    /* a name that ends in u or l is no literal */
    key_is("f<kValu, x1l>", "f<kValu,x1l>");
}

static const char kernels[] =
    "template <int B, int W, bool H> void moving_average(float *o, const float *i, int n)\n"
    "{ o[0] = i[B + W + H] + n; }\n"
    "template <unsigned K> void block_sums(float *o) { o[0] = K; }\n"
    "namespace ns { void plain(int *p) { *p = 1; } }\n"
    "void over(int *p) { *p = 1; }\n"
    "void over(float *p) { *p = 1; }\n"
    "extern \"C\" void softmax_ref(float *o) { o[0] = 0; }\n"
    "template void moving_average<128, 5, true>(float *, const float *, int);\n"
    "template void moving_average<128, 5, false>(float *, const float *, int);\n"
    "template void block_sums<0>(float *);\n"
    "template void block_sums<1>(float *);\n";

static void test_lookup(void **state)
{
    (void)state;
    char dir[] = "/tmp/kladder-plain-entry-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char src[128], obj[128], cmd[512], err[256];
    snprintf(src, sizeof src, "%s/k.cpp", dir);
    snprintf(obj, sizeof obj, "%s/k.o", dir);
    assert_int_equal(file_write_atomic(src, kernels, strlen(kernels), err, sizeof err), 0);
    snprintf(cmd, sizeof cmd, "c++ -c -o %s %s 2>/dev/null", obj, src);
    if (system(cmd) != 0) {
        remove(src);
        remove(dir);
        skip();
    }
    size_t len;
    char *code = file_read_all(obj, &len, err, sizeof err);
    assert_non_null(code);
    char out[256];
    assert_int_equal(eng_plain_mangled(code, len, "moving_average<128, 5, true>", out, sizeof out,
                                       err, sizeof err), 0);
    assert_string_equal(out, "_Z14moving_averageILi128ELi5ELb1EEvPfPKfi");
    assert_int_equal(eng_plain_mangled(code, len, "moving_average<128,5,false>", out, sizeof out,
                                       err, sizeof err), 0);
    assert_string_equal(out, "_Z14moving_averageILi128ELi5ELb0EEvPfPKfi");
    assert_int_equal(eng_plain_mangled(code, len, "block_sums<1>", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "_Z10block_sumsILj1EEvPf");
    assert_int_equal(eng_plain_mangled(code, len, "ns::plain", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "_ZN2ns5plainEPi");
    assert_int_equal(eng_plain_mangled(code, len, "softmax_ref", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "softmax_ref");
    /* an instance nobody built, a bare template name, overloads: each told */
    assert_int_equal(eng_plain_mangled(code, len, "block_sums<2>", out, sizeof out, err, sizeof err), -1);
    assert_string_equal(err, "no function block_sums<2> in the code object");
    assert_int_equal(eng_plain_mangled(code, len, "block_sums", out, sizeof out, err, sizeof err), -1);
    assert_int_equal(eng_plain_mangled(code, len, "over", out, sizeof out, err, sizeof err), -1);
    assert_string_equal(err, "over names 2 functions of the code object (overloads)");
    /* not an ELF image */
    assert_int_equal(eng_plain_mangled(kernels, sizeof kernels, "over", out, sizeof out, err,
                                       sizeof err), -1);
    free(code);
    remove(obj);
    remove(src);
    remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
