/* The target read back from code objects the real compilers make: hipRTC for gfx90a and
 * gfx1030, NVRTC for sm_80 and sm_90, each where that compiler loads here (skipped otherwise).
 * The refusal itself is tested on the fake runtime (test_gpu_rt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/embed.h"
#include "engine/backend/backend.h"
#include "engine/cache/cache.h"
#include "engine/codeobj/codeobj_target.h"
#include "engine/tables/tables.h"

static void compiled_for(const char *backend, const char *const *targets)
{
    const struct eng_backend *B = eng_backend_find(backend);
    char why[512];
    if (!B || B->load(why, sizeof why) != 0)
        skip();
    const struct embed_file *h = embed_find("kernels/kl.h"), *k = embed_find("kernels/util.kl");
    assert_non_null(h);
    assert_non_null(k);
    char *full = eng_source_join((const char *)h->data, "util.kl", (const char *)k->data);
    for (size_t i = 0; targets[i]; i++) {
        void *code = NULL;
        size_t len = 0;
        char log[4096], got[32];
        if (B->compile(targets[i], full, "util.kl", NULL, &code, &len, log, sizeof log) != 0) {
            print_message("# %s cannot compile for %s here: %.200s\n", backend, targets[i], log);
            continue;
        }
        assert_int_equal(eng_codeobj_target(code, len, got, sizeof got), 0);
        assert_string_equal(got, targets[i]);
        free(code);
    }
    free(full);
}

static void test_hiprtc(void **state)
{
    (void)state;
    compiled_for("hip", (const char *const[]){"gfx90a", "gfx1030", "gfx942", NULL});
}

static void test_nvrtc(void **state)
{
    (void)state;
    compiled_for("cuda", (const char *const[]){"sm_80", "sm_90", NULL});
}

/* The cpu backend's objects are host shared objects: no GPU target, never refused. */
static void test_cpu(void **state)
{
    (void)state;
    const struct eng_backend *B = eng_backend_find("cpu");
    char why[512];
    if (!B || B->load(why, sizeof why) != 0)
        skip();
    void *code = NULL;
    size_t len = 0;
    char log[2048], got[32];
    assert_int_equal(B->compile("cpu-wave32", "extern \"C\" int f(void) { return 1; }", "f.kl",
                                NULL, &code, &len, log, sizeof log), 0);
    assert_int_equal(eng_codeobj_target(code, len, got, sizeof got), 1);
    free(code);
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hiprtc),
        cmocka_unit_test(test_nvrtc),
        cmocka_unit_test(test_cpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
