/* The compile cache: the key changes when any input changes (source, dialect header, backend,
 * target, compiler identity, each flag, their order and count, the key environment), a second
 * compile of the same input is a hit served from $XDG_CACHE_HOME/kladder, and KLADDER_NO_CACHE
 * bypasses it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/xalloc.h"
#include "engine/cache/cache.h"

static void test_key_changes_with_every_input(void **state)
{
    (void)state;
    const char *f1[] = {"-O3", NULL}, *f2[] = {"-O2", NULL}, *f3[] = {"-O3", "-g", NULL},
               *f4[] = {"-g", "-O3", NULL};
    struct eng_cache_key base = {"hip", "gfx90a", "hiprtc 5.2", f1, "header", "source", NULL};
    struct eng_cache_key v[] = {
        {"cuda", "gfx90a", "hiprtc 5.2", f1, "header", "source", NULL},
        {"hip", "gfx1030", "hiprtc 5.2", f1, "header", "source", NULL},
        {"hip", "gfx90a", "hiprtc 6.0", f1, "header", "source", NULL},
        {"hip", "gfx90a", "hiprtc 5.2", f2, "header", "source", NULL},
        {"hip", "gfx90a", "hiprtc 5.2", f3, "header", "source", NULL},
        {"hip", "gfx90a", "hiprtc 5.2", f4, "header", "source", NULL},
        {"hip", "gfx90a", "hiprtc 5.2", NULL, "header", "source", NULL},
        {"hip", "gfx90a", "hiprtc 5.2", f1, "header!", "source", NULL},
        {"hip", "gfx90a", "hiprtc 5.2", f1, "header", "source!", NULL},
        /* moving text between header and source changes the key too */
        {"hip", "gfx90a", "hiprtc 5.2", f1, "heade", "rsource", NULL},
        /* a key environment variable (engine/toolchain/cache_env.h) */
        {"hip", "gfx90a", "hiprtc 5.2", f1, "header", "source", "ROCM_PATH=/opt/rocm-7.0\n"},
    };
    char kb[33], k[33], k2[33];
    eng_cache_key_hex(&base, kb);
    eng_cache_key_hex(&base, k2);
    assert_string_equal(kb, k2); /* deterministic */
    assert_int_equal(strlen(kb), 32);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        eng_cache_key_hex(&v[i], k);
        if (strcmp(k, kb) == 0)
            fail_msg("variation %zu did not change the key", i);
        for (size_t j = 0; j < i; j++) {
            eng_cache_key_hex(&v[j], k2);
            if (strcmp(k, k2) == 0)
                fail_msg("variations %zu and %zu share a key", i, j);
        }
    }
}

/* A backend whose compile counts its calls and returns the source as the "code". */
static int compiles;
static const char *fake_id(void) { return "fake 1.0"; }
static int fake_compile(const char *target, const char *source, const char *name,
                        const char *const *flags, void **code, size_t *len, char *log,
                        size_t loglen)
{
    (void)target, (void)name, (void)flags, (void)log, (void)loglen;
    compiles++;
    *code = xstrdup(source);
    *len = strlen(source);
    return 0;
}

static void test_hit_and_miss(void **state)
{
    (void)state;
    char dir[] = "/tmp/kladder-cache-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("XDG_CACHE_HOME", dir, 1);
    unsetenv("KLADDER_NO_CACHE");
    struct eng_backend fake = {.name = "fake", .compiler_id = fake_id, .compile = fake_compile};
    void *code;
    size_t len;
    bool hit;
    char log[256];
    compiles = 0;
    assert_int_equal(eng_compile_cached(&fake, "t1", "k.kl", "H", "S", NULL, &code, &len, &hit, log, sizeof log), 0);
    assert_false(hit);
    assert_non_null(strstr((char *)code, "#line 1 \"k.kl\"")); /* kernel messages keep their lines */
    free(code);
    assert_int_equal(eng_compile_cached(&fake, "t1", "k.kl", "H", "S", NULL, &code, &len, &hit, log, sizeof log), 0);
    assert_true(hit);
    assert_int_equal(compiles, 1);
    free(code);
    assert_int_equal(eng_compile_cached(&fake, "t2", "k.kl", "H", "S", NULL, &code, &len, &hit, log, sizeof log), 0);
    assert_false(hit);
    free(code);
    const char *flags[] = {"-DX", NULL};
    assert_int_equal(eng_compile_cached(&fake, "t1", "k.kl", "H", "S", flags, &code, &len, &hit, log, sizeof log), 0);
    assert_false(hit);
    free(code);
    setenv("KLADDER_NO_CACHE", "1", 1);
    assert_int_equal(eng_compile_cached(&fake, "t1", "k.kl", "H", "S", NULL, &code, &len, &hit, log, sizeof log), 0);
    assert_false(hit);
    assert_int_equal(compiles, 4);
    free(code);
    unsetenv("KLADDER_NO_CACHE");
    char *cmd = xasprintf("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_changes_with_every_input),
        cmocka_unit_test(test_hit_and_miss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
