/* A check's kind (engine/check.h): the rung that plans a check says what machinery runs it, and
 * the kind travels to the worker in the spec, so no rung tells its checks apart by their names.
 * And the worker's suites (engine/exec/suite_cache.h): a suite is parsed once per worker, and
 * again only when its manifest file changed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/fileio.h"
#include "engine/check.h"
#include "engine/exec/suite_cache.h"
#include "engine/manifest.h"
#include "engine/plan.h"
#include "engine/tables/tables.h"

static struct eng_planned *plan_rung3(const char *suite, size_t *n)
{
    char err[512];
    struct eng_manifest *m = eng_manifest_load(suite, NULL, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    struct eng_plan_opts po = {.backend = "cpu", .wave = 32, .fixed = true, .buggy = true,
                               .baseline = true, .timeout_s = 10};
    struct eng_planned *plan = NULL;
    *n = 0;
    if (eng_plan_rung(m, suite, 3, &po, &plan, n, err, sizeof err) != 0)
        fail_msg("%s", err);
    eng_manifest_free(m);
    return plan;
}

/* A suite with a tuned table: its table checks (the rung's and the unit test of the tables)
 * are table checks, every other check a device check. */
static void test_table_kind(void **state)
{
    (void)state;
    size_t n, tables = 0, device = 0;
    struct eng_planned *plan = plan_rung3("aiter-6360", &n);
    for (size_t i = 0; i < n; i++) {
        const struct eng_check_spec *s = &plan[i].spec;
        bool table_named = !strcmp(s->name, "tuned-table") || !strcmp(s->name, "unit-test-tables");
        assert_int_equal(s->kind, table_named ? ENG_CHECK_TABLE : ENG_CHECK_DEVICE);
        assert_string_equal(s->target, "");
        tables += s->kind == ENG_CHECK_TABLE;
        device += s->kind == ENG_CHECK_DEVICE;
    }
    assert_true(tables >= 2); /* fixed and buggy at least */
    assert_true(device > 0);
    eng_planned_free(plan, n);
}

/* A suite that lists code-object targets: its code checks carry the target in the spec. */
static void test_code_kind(void **state)
{
    (void)state;
    size_t n, code = 0;
    struct eng_planned *plan = plan_rung3("aiter-5465", &n);
    for (size_t i = 0; i < n; i++) {
        const struct eng_check_spec *s = &plan[i].spec;
        if (s->kind != ENG_CHECK_CODE) {
            assert_int_equal(s->kind, ENG_CHECK_DEVICE);
            continue;
        }
        code++;
        assert_false(s->baseline);
        assert_true(strlen(s->target) > 3);
        assert_memory_equal(s->target, "gfx", 3);
        /* the name says the target to people; the worker reads the spec's field */
        assert_non_null(strstr(s->name, s->target));
    }
    assert_true(code > 0);
    eng_planned_free(plan, n);
}

static void test_spec_json(void **state)
{
    (void)state;
    struct eng_shape sh = {0};
    char suite[] = "aiter-5465", variant[] = "buggy", name[] = "anything-at-all";
    struct eng_check_spec s = {.backend = "cpu", .suite = suite, .variant = variant,
                               .name = name, .rung = 3, .kind = ENG_CHECK_CODE,
                               .target = "gfx950", .nshapes = 1, .shapes = &sh};
    char *text = eng_check_spec_json(&s);
    struct eng_check_spec back;
    char err[256];
    assert_int_equal(eng_check_spec_parse(text, &back, err, sizeof err), 0);
    assert_int_equal(back.kind, ENG_CHECK_CODE);
    assert_string_equal(back.target, "gfx950");
    eng_check_spec_free(&back);
    free(text);

    s.kind = ENG_CHECK_E2E;
    s.target[0] = '\0';
    text = eng_check_spec_json(&s);
    assert_null(strstr(text, "\"target\""));
    assert_int_equal(eng_check_spec_parse(text, &back, err, sizeof err), 0);
    assert_int_equal(back.kind, ENG_CHECK_E2E);
    eng_check_spec_free(&back);
    free(text);

    /* a spec without a kind is a device check; a kind nobody knows is refused */
    const char *plain = "{\"backend\":\"cpu\",\"suite\":\"x\",\"variant\":\"fixed\",\"name\":\"n\","
                        "\"mode\":\"plain\",\"schedule\":\"default\",\"shapes\":[]}";
    assert_int_equal(eng_check_spec_parse(plain, &back, err, sizeof err), 0);
    assert_int_equal(back.kind, ENG_CHECK_DEVICE);
    eng_check_spec_free(&back);
    const char *odd = "{\"backend\":\"cpu\",\"suite\":\"x\",\"variant\":\"fixed\",\"name\":\"n\","
                      "\"mode\":\"plain\",\"schedule\":\"default\",\"kind\":\"tuned-table\","
                      "\"shapes\":[]}";
    assert_int_equal(eng_check_spec_parse(odd, &back, err, sizeof err), -1);
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    char err[256];
    char *text = file_read_all(from, &len, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    FILE *f = fopen(to, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    free(text);
}

/* One parse per suite however often it is asked for; a changed file is parsed again, and the
 * manifest handed out before stays valid. */
static void test_suite_cache(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    char dir[512], path[600], src[600];
    snprintf(dir, sizeof dir, "%s/kl-suite-cache-XXXXXX", tmp && *tmp ? tmp : P_tmpdir);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/mine.json", dir);
    snprintf(src, sizeof src, "%s/hang.kl", dir);
    copy_file("tests/engine/fixtures/control.json", path);
    copy_file("tests/engine/fixtures/hang.kl", src);

    char err[512];
    size_t before = eng_suite_cache_parses();
    const struct eng_manifest *a = eng_suite_cached(path, err, sizeof err);
    assert_non_null(a);
    assert_ptr_equal(eng_suite_cached(path, err, sizeof err), a);
    const struct eng_manifest *b = eng_suite_cached("aiter-6360", err, sizeof err);
    assert_non_null(b);
    assert_ptr_equal(eng_suite_cached("aiter-6360", err, sizeof err), b);
    assert_int_equal(eng_suite_cache_parses() - before, 2);
    assert_string_equal(a->name, "copy-control");

    /* the same path, another content: parsed again */
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("\n", f);
    assert_int_equal(fclose(f), 0);
    const struct eng_manifest *c = eng_suite_cached(path, err, sizeof err);
    assert_non_null(c);
    assert_ptr_not_equal(c, a);
    assert_string_equal(a->name, "copy-control"); /* the first one still readable */
    assert_int_equal(eng_suite_cache_parses() - before, 3);

    /* a suite that does not load is not cached: its message every time */
    assert_null(eng_suite_cached("no-such-suite", err, sizeof err));
    assert_non_null(strstr(err, "no-such-suite"));
    assert_null(eng_suite_cached("no-such-suite", err, sizeof err));
    assert_int_equal(eng_suite_cache_parses() - before, 5);

    eng_suite_cache_clear();
    unlink(path);
    unlink(src);
    rmdir(dir);
}

int main(void)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_kind),
        cmocka_unit_test(test_code_kind),
        cmocka_unit_test(test_spec_json),
        cmocka_unit_test(test_suite_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
