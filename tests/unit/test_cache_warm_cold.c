/* flydsl-1277's reproducer: a kernel specialised on a compile flag, compiled for two
 * configurations through one cache with the real cpu compiler. With a key that forgets the
 * flags (the buggy variant) the second configuration gets the first one's object from the warm
 * cache, and the warm-cold comparison names it; with kladder's key (fixed) warm and cold agree.
 * A fake compiler that bakes its input into the "object" shows the same without a compiler. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/embed.h"
#include "common/xalloc.h"
#include "engine/backend/backend.h"
#include "engine/cache/cache_warm_cold.h"
#include "engine/tables/tables.h"

static const char *s2[] = {"-DF1277_SCALE=2", NULL}, *s3[] = {"-DF1277_SCALE=3", NULL};
static const char *const *sets[] = {s2, s3};

static const char *text_of(const char *name)
{
    const struct embed_file *e = embed_find(name);
    assert_non_null(e);
    return (const char *)e->data;
}

static void on_cpu(eng_cache_key_fn fn, int want, const char *want_text)
{
    const struct eng_backend *B = eng_backend_find("cpu");
    char why[256];
    if (!B || B->load(why, sizeof why) != 0)
        skip(); /* no host compiler: the fake below still runs */
    char report[1024], err[2048];
    int d = eng_cache_warm_cold(B, fn, "cpu-wave32", "flydsl_1277.kl", text_of("kernels/kl.h"),
                                text_of("kernels/flydsl_1277.kl"), sets, 2, report,
                                sizeof report, err, sizeof err);
    if (d < 0)
        fail_msg("%s", err);
    if (d != want)
        fail_msg("%d configurations differ, expected %d:\n%s", d, want, report);
    if (want_text && !strstr(report, want_text))
        fail_msg("missing '%s' in:\n%s", want_text, report);
}

static void test_buggy_key_caught_on_cpu(void **state)
{
    (void)state;
    on_cpu(eng_cache_key_without_flags, 1,
           "-DF1277_SCALE=3: the warm cache (a hit: an earlier configuration's entry) gave "
           "another code object than a cold compile");
}

static void test_fixed_key_passes_on_cpu(void **state)
{
    (void)state;
    on_cpu(eng_cache_key_hex, 0, NULL);
}

/* A compiler whose object is its flags and source: deterministic by construction. */
static const char *fake_id(void) { return "fake 1.0"; }
static int fake_compile(const char *target, const char *source, const char *name,
                        const char *const *flags, void **code, size_t *len, char *log,
                        size_t loglen)
{
    (void)name, (void)log, (void)loglen;
    char *s = xasprintf("%s|%s|%s", target, flags && flags[0] ? flags[0] : "", source);
    *code = s;
    *len = strlen(s);
    return 0;
}

static void test_fake_compiler(void **state)
{
    (void)state;
    struct eng_backend fake = {.name = "fake", .compiler_id = fake_id, .compile = fake_compile};
    char report[1024], err[256];
    assert_int_equal(eng_cache_warm_cold(&fake, eng_cache_key_without_flags, "t", "k.kl", "H",
                                         "S", sets, 2, report, sizeof report, err, sizeof err),
                     1);
    assert_non_null(strstr(report, "-DF1277_SCALE=3"));
    assert_null(strstr(report, "-DF1277_SCALE=2"));
    assert_int_equal(eng_cache_warm_cold(&fake, eng_cache_key_hex, "t", "k.kl", "H", "S", sets,
                                         2, report, sizeof report, err, sizeof err),
                     0);
    assert_string_equal(report, "");
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fake_compiler),
        cmocka_unit_test(test_buggy_key_caught_on_cpu),
        cmocka_unit_test(test_fixed_key_passes_on_cpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
