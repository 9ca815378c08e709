/* A rung is one file: rung 9's (tests/fixtures/rung9/rung9.c, the file
 * tests/engine/rung9_builtin.sh builds into kladder as a built-in rung) added at run time plugs
 * into the table (engine/rung.h, eng_rung_add), and everything the engine asks of a rung comes from its entry.
 * With it added, the ladder is nine long, a suite may declare "9" with settings that rung 9's own
 * parser reads (its unknown keys refused by name), the planner plans its checks beside the plain
 * unit test, and a run on the cpu backend executes them in workers (this binary, started again
 * with `run --worker`, adds the rung before it answers) and judges them: the buggy K-tail GEMM of
 * flydsl-1199 fails rung 9's tail shape, the fixed one passes, the unit test passes both. Removed
 * again, the ladder is eight long and "9" is refused as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <cJSON.h>

#include "casedb/case.h"
#include "casedb/results.h"
#include "common/fileio.h"
#include "common/xalloc.h"
#include "engine/manifest.h"
#include "engine/manifest_parse.h"
#include "engine/plan.h"
#include "engine/reporter.h"
#include "engine/rung.h"
#include "engine/runner.h"
#include "engine/exec/worker.h"
#include "engine/tables/tables.h"

/* ---- rung 9: the same file tests/engine/rung9_builtin.sh builds into kladder as a built-in
 * rung (named shapes from its settings, each a plain launch), added here at run time ---------- */

#include "tests/fixtures/rung9/rung9.c"

/* ---- a suite that declares it --------------------------------------------------------------- */

static const char suite_text[] =
    "{\"format\": \"kladder-suite\", \"version\": 1, \"name\": \"nine\", \"case\": \"flydsl-1199\",\n"
    " \"source\": \"flydsl_1199.kl\",\n"
    " \"variants\": {\"fixed\": \"ktail_gemm_fixed\", \"buggy\": \"ktail_gemm_buggy\"},\n"
    " \"reference\": \"ktail_gemm_ref\",\n"
    " \"params\": {\"M\": 32, \"N\": 32, \"K\": 128, \"tile_k\": 64},\n"
    " \"buffers\": [\n"
    "  {\"name\": \"A\", \"dtype\": \"bf16\", \"shape\": [\"M\", \"K\"], \"role\": \"input\"},\n"
    "  {\"name\": \"B\", \"dtype\": \"bf16\", \"shape\": [\"N\", \"K\"], \"role\": \"input\"},\n"
    "  {\"name\": \"C\", \"dtype\": \"f32\", \"shape\": [\"M\", \"N\"], \"role\": \"output\"}],\n"
    " \"args\": [\"C\", \"A\", \"B\", \"M\", \"N\", \"K\", \"tile_k\"],\n"
    " \"launch\": {\"block\": [256, 1, 1], \"grid\": [\"ceil(N, 16)\", \"ceil(M, 16)\", 1]},\n"
    " \"tolerance\": {\"abs\": 0.01, \"rel\": 0.001},\n"
    " \"baseline\": [{\"M\": 32, \"N\": 32, \"K\": 128, \"tile_k\": 64}],\n"
    " \"rungs\": {\"9\": %s}}\n";

static char *suite_with(const char *settings)
{
    return xasprintf(suite_text, settings);
}

static char dir[] = "/tmp/kl-rung9-XXXXXX";
static char *suite_path;

static void add_rung9(void)
{
    char err[256];
    if (eng_rung_add(&eng_rung9, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* ---- the tests -------------------------------------------------------------------------------- */

static void test_table_grows_and_shrinks(void **state)
{
    (void)state;
    char err[512], list[64];
    assert_int_equal(eng_rung_top(), 8);
    assert_int_equal(eng_rung_count(), 8);
    char *text = suite_with("{\"shapes\": [{\"name\": \"k96\", \"K\": 96}]}");
    struct eng_manifest *m = eng_manifest_parse(text, strlen(text), "nine.json", dir, err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "rungs.9: expected a rung number from 1 to 8 as the key"));

    add_rung9();
    assert_int_equal(eng_rung_top(), 9);
    assert_int_equal(eng_rung_count(), 9);
    assert_ptr_equal(eng_rung_nth(8), &eng_rung9);
    eng_rung_list(list, sizeof list);
    assert_string_equal(list, "1, 2, 3, 4, 5, 6, 7, 8 and 9");
    assert_int_not_equal(eng_rung_add(&eng_rung9, err, sizeof err), 0); /* a number once */
    assert_non_null(strstr(err, "rung 9 is already in the table"));
    m = eng_manifest_parse(text, strlen(text), "nine.json", dir, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    assert_true(m->has_rung[9]);
    const struct rung9_settings *r = m->settings[9];
    assert_int_equal(r->nshapes, 1);
    assert_string_equal(r->shapes[0].name, "k96");
    eng_manifest_free(m);
    free(text);

    text = suite_with("{\"shape\": []}");
    m = eng_manifest_parse(text, strlen(text), "nine.json", dir, err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "rungs.9"));
    assert_non_null(strstr(err, "\"shape\""));
    free(text);

    eng_rung_remove(9);
    assert_int_equal(eng_rung_top(), 8);
    assert_null(eng_rung_find(9));
    text = suite_with("{}");
    m = eng_manifest_parse(text, strlen(text), "nine.json", dir, err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "expected a rung number from 1 to 8 as the key"));
    free(text);
}

static void test_plans_beside_the_unit_test(void **state)
{
    (void)state;
    char err[512];
    add_rung9();
    struct eng_manifest *m = eng_manifest_load(suite_path, NULL, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    struct eng_plan_opts po = {.backend = "cpu", .wave = 32, .fixed = true, .buggy = true,
                               .baseline = true, .timeout_s = 60};
    struct eng_planned *plan = NULL;
    size_t n = 0;
    if (eng_plan_rung(m, suite_path, 9, &po, &plan, &n, err, sizeof err) != 0)
        fail_msg("%s", err);
    /* per variant: the unit test, then rung 9's two shapes */
    assert_int_equal(n, 6);
    size_t rung9_checks = 0, caught_expected = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(plan[i].spec.rung, 9);
        rung9_checks += strncmp(plan[i].label, "baseline", 8) != 0;
        caught_expected += plan[i].expect_fail;
    }
    assert_int_equal(rung9_checks, 4);
    assert_int_equal(caught_expected, 2); /* buggy on rung 9's own checks */
    eng_planned_free(plan, n);
    eng_manifest_free(m);
    eng_rung_remove(9);
}

/* Rung 9's own option (--only, in its entry): the table finds its owner; a rung that would
 * spell it again is refused; the value a run gives reaches rung 9's planner and travels in each
 * check's spec, through the JSON the worker reads, as rung 9's block and no other rung's. */
static const struct eng_rung_opt again_opts[] = {{.name = "--only", .arg = "X", .about = "x"}, {0}};
static const struct eng_rung again = {.number = 10, .name = "again", .opts = again_opts};

static void test_options_reach_the_rung(void **state)
{
    (void)state;
    char err[512], buf[64];
    const struct eng_rung_opt *o = NULL;
    assert_null(eng_rung_opt_owner("--only", &o));
    add_rung9();
    assert_ptr_equal(eng_rung_opt_owner("--only", &o), &eng_rung9);
    assert_string_equal(o->arg, "NAME");
    assert_int_not_equal(eng_rung_add(&again, err, sizeof err), 0);
    assert_non_null(strstr(err, "option --only is rung 9's already"));
    assert_null(eng_rung_find(10));

    struct eng_rung_args args = {0};
    eng_rung_args_set(&args, 9, "--only", "k96");
    eng_rung_args_set(&args, 9, "--only", "k160"); /* the last one given counts */
    eng_rung_args_set(&args, 3, "--flag", NULL);
    assert_string_equal(eng_rung_arg(&args, 9, "--only"), "k160");
    assert_string_equal(eng_rung_arg(&args, 3, "--flag"), "");
    assert_null(eng_rung_arg(&args, 3, "--only"));
    assert_null(eng_rung_arg(&args, 1, "--only"));

    struct eng_manifest *m = eng_manifest_load(suite_path, NULL, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    struct eng_plan_opts po = {.backend = "cpu", .wave = 32, .fixed = true, .buggy = true,
                               .baseline = true, .timeout_s = 60, .rung_args = &args};
    struct eng_planned *plan = NULL;
    size_t n = 0;
    if (eng_plan_rung(m, suite_path, 9, &po, &plan, &n, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(n, 4); /* per variant: the unit test and k160 alone */
    for (size_t i = 0; i < n; i++) {
        if (strncmp(plan[i].label, "baseline", 8) != 0)
            assert_string_equal(plan[i].spec.name, "k160");
        char *json = eng_check_spec_json(&plan[i].spec);
        struct eng_check_spec back = {0};
        if (eng_check_spec_parse(json, &back, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_int_equal(eng_rung_block_get(back.rung_opts, "--only", buf, sizeof buf), 1);
        assert_string_equal(buf, "k160");
        assert_int_equal(eng_rung_block_get(back.rung_opts, "--flag", buf, sizeof buf), 0);
        eng_check_spec_free(&back);
        free(json);
    }
    eng_planned_free(plan, n);
    assert_int_equal(eng_rung_block_get("[1]", "--only", buf, sizeof buf), -1);
    assert_int_equal(eng_rung_block_get(NULL, "--only", buf, sizeof buf), 0);

    eng_rung_args_set(&args, 9, "--only", "k7"); /* no such shape: rung 9's own message */
    plan = NULL;
    n = 0;
    assert_int_not_equal(eng_plan_rung(m, suite_path, 9, &po, &plan, &n, err, sizeof err), 0);
    assert_non_null(strstr(err, "--only k7 names no shape"));
    eng_planned_free(plan, n);
    eng_rung_args_free(&args);
    eng_manifest_free(m);
    eng_rung_remove(9);
    assert_null(eng_rung_opt_owner("--only", NULL));
}

/* A reporter of the test's own: the verdict of every check, by variant and name. */
struct seen {
    struct eng_reporter r;
    char lines[32][160];
    size_t n;
    bool met;
};

static void seen_done(struct eng_reporter *r, const struct eng_run_info *run, size_t seq,
                      const struct eng_done *d)
{
    (void)run;
    (void)seq;
    struct seen *s = (struct seen *)r;
    if (s->n < 32)
        snprintf(s->lines[s->n++], sizeof s->lines[0], "%s %s %s", cdb_verdict_name(d->r.verdict),
                 d->p->spec.variant, d->p->spec.name);
}

static int seen_end(struct eng_reporter *r, const struct eng_run_info *run,
                    const struct eng_summary *s, const struct eng_done *checks, size_t n)
{
    (void)run;
    (void)checks;
    (void)n;
    ((struct seen *)r)->met = s->met;
    return 0;
}

static void seen_free(struct eng_reporter *r) { (void)r; }

static struct seen seen = {.r = {.check_done = seen_done, .end = seen_end, .free = seen_free}};

static struct eng_reporter **open_seen(const struct eng_run_opts *o, char *err, size_t errlen)
{
    (void)o;
    (void)err;
    (void)errlen;
    struct eng_reporter **r = xcalloc(2, sizeof *r);
    r[0] = &seen.r;
    return r;
}

static bool saw(const char *line)
{
    for (size_t i = 0; i < seen.n; i++)
        if (!strcmp(seen.lines[i], line))
            return true;
    return false;
}

static void test_runs_in_workers(void **state)
{
    (void)state;
    add_rung9();
    static char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(len > 0);
    exe[len] = '\0';
    struct eng_run_opts o = {.exe = exe, .backend = "cpu", .schedule = ENG_SCHED_DEFAULT,
                             .seed = 1, .timeout_s = 120, .fixed = true, .buggy = true,
                             .events_fd = -1, .open_reports = open_seen};
    struct eng_run_target t = {.suite = suite_path, .rung = 9};
    int status = eng_run(&o, &t, 1);
    for (size_t i = 0; i < seen.n; i++)
        print_message("# %s\n", seen.lines[i]);
    assert_int_equal(seen.n, 6);
    assert_true(saw("pass fixed unit-test-M32-N32-K128-tile_k64"));
    assert_true(saw("pass buggy unit-test-M32-N32-K128-tile_k64"));
    assert_true(saw("pass fixed k96"));
    assert_true(saw("fail buggy k96"));
    assert_true(saw("pass fixed k160"));
    assert_true(saw("fail buggy k160"));
    assert_true(seen.met);
    assert_int_equal(status, 0);
    eng_rung_remove(9);
}

/* The data and its schemas speak of the same ladder as the table: data/rungs.json has one entry
 * per built-in rung, numbered 1 to the top, and the schemas bound the numbers by the table's. */
static cJSON *json_file(const char *path)
{
    char err[256];
    size_t len = 0;
    char *text = file_read_all(path, &len, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    if (!j)
        fail_msg("%s: not JSON", path);
    return j;
}

static int schema_int(const cJSON *j, const char *const *keys)
{
    for (; *keys; keys++)
        j = cJSON_GetObjectItemCaseSensitive(j, *keys);
    if (!cJSON_IsNumber(j))
        fail_msg("schema: no number at that path");
    return j->valueint;
}

static void test_ladder_matches_data(void **state)
{
    (void)state;
    int count = (int)eng_rung_count(), top = eng_rung_top();
    assert_int_equal(top, count); /* no gap in the numbers */
    cJSON *rungs = json_file("data/rungs.json");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(rungs, "rungs");
    assert_int_equal(cJSON_GetArraySize(list), count);
    int i = 0;
    for (const cJSON *r = list->child; r; r = r->next, i++) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "n");
        assert_true(cJSON_IsNumber(n));
        assert_int_equal(n->valueint, eng_rung_nth((size_t)i)->number);
    }
    cJSON_Delete(rungs);
    cJSON *rs = json_file("data/schema/rungs.schema.json");
    /* the schemas allow any ladder up to the rung numbers the database keeps */
    assert_int_equal(schema_int(rs, (const char *const[]){"properties", "rungs", "minItems", NULL}), 1);
    assert_int_equal(schema_int(rs, (const char *const[]){"properties", "rungs", "maxItems", NULL}),
                     CDB_RUNG_MAX);
    assert_int_equal(schema_int(rs, (const char *const[]){"$defs", "rung", "properties", "n", "maximum", NULL}),
                     CDB_RUNG_MAX);
    cJSON_Delete(rs);
    cJSON *cs = json_file("data/schema/cases.schema.json");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(cs, "$defs");
    c = cJSON_GetObjectItemCaseSensitive(c, "case");
    c = cJSON_GetObjectItemCaseSensitive(c, "properties");
    c = cJSON_GetObjectItemCaseSensitive(c, "rung");
    assert_non_null(c);
    assert_int_equal(schema_int(c, (const char *const[]){"maximum", NULL}), CDB_RUNG_MAX);
    cJSON_Delete(cs);
}

static int setup(void **state)
{
    (void)state;
    char err[512];
    if (!mkdtemp(dir))
        return -1;
    size_t klen = 0;
    char *kernel = file_read_all("kernels/flydsl_1199.kl", &klen, err, sizeof err);
    if (!kernel) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    char *kpath = xasprintf("%s/flydsl_1199.kl", dir);
    char *text = suite_with("{\"shapes\": [{\"name\": \"k96\", \"K\": 96},"
                            " {\"name\": \"k160\", \"K\": 160}]}");
    suite_path = xasprintf("%s/nine.json", dir);
    int rc = file_write_atomic(kpath, kernel, klen, err, sizeof err) ||
             file_write_atomic(suite_path, text, strlen(text), err, sizeof err);
    free(kernel);
    free(kpath);
    free(text);
    return rc ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char *cmd = xasprintf("rm -rf '%s'", dir);
    int rc = system(cmd);
    free(cmd);
    free(suite_path);
    return rc == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    eng_tables_install(); /* the built-in rungs and the backends, as kladder's main hands them in */
    /* the runner starts this binary again as its worker: rung 9 must be in that table too */
    if (argc == 3 && !strcmp(argv[1], "run") && !strcmp(argv[2], "--worker")) {
        add_rung9();
        return eng_worker_main();
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ladder_matches_data),
        cmocka_unit_test(test_table_grows_and_shrinks),
        cmocka_unit_test(test_plans_beside_the_unit_test),
        cmocka_unit_test(test_options_reach_the_rung),
        cmocka_unit_test(test_runs_in_workers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
