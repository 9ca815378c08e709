/* The cache-key audit (engine/cache/cache_audit.h) and the environment inventory
 * (engine/toolchain/cache_env.h): the real key passes; keys that forget an input, in the ways real JIT
 * caches have (FlyDSL keyed only the target and its own sources; a key that hashes flags but no
 * environment), are caught and the forgotten inputs named; a variable the compile path reads
 * without listing it fails the audit by name; the cpu compiler's child sees only listed
 * variables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/hash.h"
#include "engine/cache/cache_audit.h"
#include "engine/toolchain/cache_env.h"

static const char *flags[] = {"-O3", "-ffast-math", "-DKL_TILE=64", NULL};
static const struct eng_cache_key base = {"cpu", "cpu-wave32", "c++ (Debian) 12.2.0", flags,
                                          "/* kl.h */", "kernel source", NULL};

/* An environment of the test's own, so the result does not depend on the caller's. */
static const char *fixed_env(const char *name, void *arg)
{
    (void)arg;
    if (strcmp(name, "CXX") == 0)
        return "g++-12";
    return NULL;
}

/* FlyDSL's per-target key before #168, in miniature: the target and the source, nothing else. */
static void key_target_and_source(const struct eng_cache_key *k, char out[33])
{
    struct hash_state h;
    hash_init(&h);
    hash_str(&h, k->target);
    hash_str(&h, k->source);
    hash_hex(&h, out);
}

/* Every input but the environment. */
static void key_without_env(const struct eng_cache_key *k, char out[33])
{
    struct eng_cache_key c = *k;
    c.env = NULL;
    eng_cache_key_hex(&c, out);
}

/* Flags as a set: the order of two flags does not reach the key. */
static void key_sorted_flags(const struct eng_cache_key *k, char out[33])
{
    struct hash_state h;
    hash_init(&h);
    hash_str(&h, k->backend), hash_str(&h, k->target), hash_str(&h, k->compiler);
    hash_str(&h, k->env ? k->env : ""), hash_str(&h, k->header), hash_str(&h, k->source);
    uint64_t sum = 0; /* order-free: a sum of per-flag hashes */
    for (size_t i = 0; k->flags && k->flags[i]; i++) {
        struct hash_state f;
        hash_init(&f);
        hash_str(&f, k->flags[i]);
        sum += f.a;
    }
    hash_bytes(&h, &sum, sizeof sum);
    hash_hex(&h, out);
}

static void test_real_key_passes(void **state)
{
    (void)state;
    char report[4096];
    size_t n = eng_cache_audit(eng_cache_key_hex, &base, fixed_env, NULL, report, sizeof report);
    if (n)
        fail_msg("the real key has %zu findings:\n%s", n, report);
}

static void test_forgetful_key_is_named(void **state)
{
    (void)state;
    char report[8192];
    size_t n = eng_cache_audit(key_target_and_source, &base, fixed_env, NULL, report,
                               sizeof report);
    assert_true(n > 0);
    const char *want[] = {"the key ignores the backend", "the key ignores the compiler identity",
                          "the key ignores the dialect header", "the key ignores flag -O3",
                          "the key ignores flag -ffast-math", "the key ignores flag -DKL_TILE=64",
                          "the key ignores an added flag",
                          "the key ignores the environment variable CXX",
                          "the key ignores the environment variable CPATH"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(report, want[i]))
            fail_msg("missing '%s' in:\n%s", want[i], report);
    /* what it does key on is not reported */
    assert_null(strstr(report, "ignores the target"));
    assert_null(strstr(report, "ignores the kernel source"));
}

static void test_key_without_env_names_each_key_variable(void **state)
{
    (void)state;
    char report[8192];
    size_t n = eng_cache_audit(key_without_env, &base, fixed_env, NULL, report, sizeof report);
    size_t keys = 0;
    for (size_t i = 0; eng_cache_env[i].name; i++) {
        if (eng_cache_env[i].role != ENG_ENV_KEY)
            continue;
        keys++;
        char line[128];
        snprintf(line, sizeof line, "the key ignores the environment variable %s\n",
                 eng_cache_env[i].name);
        if (!strstr(report, line))
            fail_msg("missing '%s' in:\n%s", line, report);
    }
    assert_int_equal(n, keys);
    assert_null(strstr(report, "flag"));
}

static void test_flag_order(void **state)
{
    (void)state;
    char report[4096];
    size_t n = eng_cache_audit(key_sorted_flags, &base, fixed_env, NULL, report, sizeof report);
    assert_int_equal(n, 1);
    assert_string_equal(report, "the key ignores the order of flags -O3 and -ffast-math\n");
}

static void test_env_text(void **state)
{
    (void)state;
    char *t = eng_cache_env_text(fixed_env, NULL);
    assert_non_null(strstr(t, "CXX=g++-12\n"));
    assert_non_null(strstr(t, "CPATH unset\n"));
    /* neutral variables never enter the key */
    assert_null(strstr(t, "TMPDIR"));
    assert_null(strstr(t, "KLADDER_NO_CACHE"));
    free(t);
    for (size_t i = 0; eng_cache_env[i].name; i++) {
        assert_non_null(eng_cache_env[i].why);
        assert_ptr_equal(eng_cache_env_find(eng_cache_env[i].name), &eng_cache_env[i]);
    }
    assert_null(eng_cache_env_find("KLADDER_NOT_A_VARIABLE"));
}

static void test_child_env_holds_only_listed(void **state)
{
    (void)state;
    setenv("CPATH", "/opt/include", 1);
    setenv("KLADDER_UNRELATED_SECRET", "x", 1);
    char **env = eng_compile_child_env();
    bool cpath = false;
    for (size_t i = 0; env[i]; i++) {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(env[i], "="), env[i]);
        if (!eng_cache_env_find(name))
            fail_msg("the compiler child gets %s, which the inventory does not list", name);
        cpath |= strcmp(env[i], "CPATH=/opt/include") == 0;
    }
    assert_true(cpath);
    eng_compile_child_env_free(env);
    unsetenv("CPATH");
    unsetenv("KLADDER_UNRELATED_SECRET");
}

/* Last: it leaves an unlisted name recorded for the rest of the process. A fake compile path
 * reads a variable nobody listed; the audit of the real key then fails, naming it. */
static void fake_compile_path(void)
{
    (void)eng_compile_getenv("KLADDER_FAKE_TUNING_KNOB");
    (void)eng_compile_getenv("CXX"); /* listed: not reported */
}

static void test_unlisted_variable_fails(void **state)
{
    (void)state;
    char report[4096];
    assert_int_equal(eng_cache_audit(eng_cache_key_hex, &base, fixed_env, NULL, report,
                                     sizeof report), 0);
    fake_compile_path();
    size_t n = eng_cache_audit(eng_cache_key_hex, &base, fixed_env, NULL, report, sizeof report);
    assert_int_equal(n, 1);
    assert_non_null(strstr(report, "the compile path reads KLADDER_FAKE_TUNING_KNOB, which the "
                                   "inventory lists neither as key nor as neutral"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_key_passes),
        cmocka_unit_test(test_forgetful_key_is_named),
        cmocka_unit_test(test_key_without_env_names_each_key_variable),
        cmocka_unit_test(test_flag_order),
        cmocka_unit_test(test_env_text),
        cmocka_unit_test(test_child_env_holds_only_listed),
        cmocka_unit_test(test_unlisted_variable_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
