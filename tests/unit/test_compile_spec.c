/* Shape-specialised compiles (engine/compile/compile_spec.h): the prelude takes each specialised value
 * from the check's shape, else the suite's default, and names the variant; shapes that disagree
 * on a specialised parameter cannot share one compile; the compiler's first error line is found
 * in g++, clang and NVRTC logs, without the temporary file's path, and control characters never
 * get through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/check.h"
#include "engine/compile/compile_spec.h"
#include "engine/manifest.h"
#include "engine/tables/tables.h"

static struct eng_shape shape(const char *k1, int64_t v1, const char *k2, int64_t v2)
{
    struct eng_shape s = {0};
    s.n = k2 ? 2 : 1;
    s.keys = calloc(2, sizeof *s.keys);
    s.values = calloc(2, sizeof *s.values);
    s.keys[0] = strdup(k1), s.values[0] = v1;
    if (k2)
        s.keys[1] = strdup(k2), s.values[1] = v2;
    return s;
}

static void shape_release(struct eng_shape *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->keys[i]);
    free(s->keys);
    free(s->values);
}

static void test_prelude(void **state)
{
    (void)state;
    char err[256], desc[64];
    struct eng_manifest *m = eng_manifest_load("aiter-4987", NULL, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(m->nspecialize, 2);
    struct eng_shape s = shape("N", 768, "E", 8);
    char buggy[] = "buggy", fixed[] = "fixed";
    struct eng_check_spec c = {.variant = buggy, .nshapes = 1, .shapes = &s};
    char *p = eng_spec_prelude(m, &c, desc, sizeof desc, err, sizeof err);
    assert_non_null(p);
    /* N from the shape, K from the defaults (256), E not specialised */
    assert_string_equal(p, "#define KL_SPEC_N 768\n#define KL_SPEC_K 256\n#define KL_VARIANT_BUGGY 1\n");
    assert_string_equal(desc, "N=768,K=256");
    free(p);
    c.variant = fixed;
    c.nshapes = 0;
    p = eng_spec_prelude(m, &c, desc, sizeof desc, err, sizeof err);
    assert_string_equal(p, "#define KL_SPEC_N 512\n#define KL_SPEC_K 256\n#define KL_VARIANT_FIXED 1\n");
    free(p);
    /* two shapes of one check that need two compiles */
    struct eng_shape two[2] = {shape("N", 512, NULL, 0), shape("N", 513, NULL, 0)};
    c.nshapes = 2, c.shapes = two;
    assert_null(eng_spec_prelude(m, &c, desc, sizeof desc, err, sizeof err));
    assert_non_null(strstr(err, "N=512 and N=513: one compile cannot serve both"));
    shape_release(&two[0]);
    shape_release(&two[1]);
    shape_release(&s);
    eng_manifest_free(m);
}

static void test_first_error(void **state)
{
    (void)state;
    char out[128];
    eng_compile_first_error("/tmp/kl-x/k.cc: In function 'void f()':\n"
                            "/tmp/kl-x/k.cc:47:9: error: 'kl_buffer_load_lds' was not declared in this scope\n"
                            "   47 |         kl_buffer_load_lds(stage);\n", out, sizeof out);
    assert_string_equal(out, "error: 'kl_buffer_load_lds' was not declared in this scope");
    eng_compile_first_error("k.hip:45:16: warning: unused\nk.hip:46:16: error: implicit instantiation "
                            "of undefined template 'rs_loader<2>'\n", out, sizeof out);
    assert_string_equal(out, "error: implicit instantiation of undefined template 'rs_loader<2>'");
    eng_compile_first_error("k.cu(12): error: identifier \"kl_buffer_load_lds\" is undefined\n", out,
                            sizeof out);
    assert_string_equal(out, "error: identifier \"kl_buffer_load_lds\" is undefined");
    /* no line says error: the first non-empty one; control characters replaced */
    eng_compile_first_error("\n\nLLVM ERROR\x1b[2J cannot select\n", out, sizeof out);
    assert_string_equal(out, "ERROR?[2J cannot select");
    eng_compile_first_error("\n\nsegmentation fault \x07\n", out, sizeof out);
    assert_string_equal(out, "segmentation fault ?");
    eng_compile_first_error("", out, sizeof out);
    assert_string_equal(out, "");
    /* cut to the buffer */
    eng_compile_first_error("error: 0123456789", out, 8);
    assert_string_equal(out, "error: ");
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prelude),
        cmocka_unit_test(test_first_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
