/* The results document: the strict JSON reader (importers/json_arena.h), the validator and the
 * writer (importers/results_json.h). A document written by export must parse and merge into a
 * second database to the same content; every malformed input must be refused with a message
 * that names the place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cJSON.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/merge.h"
#include "casedb/results.h"
#include "casedb/results_query.h"
#include "common/xalloc.h"
#include "importers/json_arena.h"
#include "importers/results_json.h"

static const cJSON *parse(const char *text, struct imp_json **a, char *err, size_t len)
{
    return imp_json_parse(text, strlen(text), 64, a, err, len);
}

static void test_json_arena_values(void **state)
{
    (void)state;
    char err[256];
    struct imp_json *a;
    const cJSON *r = parse(" {\"a\": [1, -2.5e1, true, false, null], \"s\": \"x\\u00e9\\ud83d\\ude00\\n\"} ",
                           &a, err, sizeof err);
    assert_non_null(r);
    assert_true(cJSON_IsObject(r));
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(r, "a");
    assert_int_equal(cJSON_GetArraySize(arr), 5);
    assert_true(fabs(cJSON_GetArrayItem(arr, 1)->valuedouble + 25) < 1e-12);
    assert_true(cJSON_IsTrue(cJSON_GetArrayItem(arr, 2)));
    assert_true(cJSON_IsNull(cJSON_GetArrayItem(arr, 4)));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(r, "s")->valuestring,
                        "x\xc3\xa9\xf0\x9f\x98\x80\n");
    imp_json_free(a);
}

static void test_json_arena_refuses(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"", "ends early"},
        {"{\"a\": 1", "ends early"},
        {"{\"a\": \"abc", "ends inside a string"},
        {"[01]", "expected ','"},
        {"[1.]", "malformed number"},
        {"[-]", "malformed number"},
        {"[NaN]", "NaN, Infinity"},
        {"[Infinity]", "NaN, Infinity"},
        {"[\"a\\u0000b\"]", "escaped NUL"},
        {"[\"\\ud800\"]", "lone UTF-16 surrogate"},
        {"[\"\\udc00x\"]", "lone UTF-16 surrogate"},
        {"[\"\\x41\"]", "unknown escape"},
        {"[\"a\tb\"]", "raw control character"},
        {"[1] [2]", "unexpected data after"},
        {"{1: 2}", "member name in quotes"},
        {"{\"a\" 2}", "expected ':'"},
        {"[1 2]", "expected ','"},
        {"// comment\n[]", "unexpected character"},
        {"[tru]", "unexpected character"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[256] = "";
        struct imp_json *a = (struct imp_json *)1;
        const cJSON *r = parse(bad[i].text, &a, err, sizeof err);
        if (r || !strstr(err, bad[i].want))
            fail_msg("input %zu (%s): got '%s', wanted '%s'", i, bad[i].text, err, bad[i].want);
        assert_null(a);
    }
    /* nesting: 64 levels pass, 65 do not */
    char deep[200];
    memset(deep, '[', 64);
    memset(deep + 64, ']', 64);
    deep[128] = '\0';
    struct imp_json *a;
    char err[256];
    assert_non_null(parse(deep, &a, err, sizeof err));
    imp_json_free(a);
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    deep[130] = '\0';
    assert_null(parse(deep, &a, err, sizeof err));
    assert_non_null(strstr(err, "nested too deeply"));
}

/* Numbers are read in the C locale whatever LC_NUMERIC says. */
static void test_json_arena_locale(void **state)
{
    (void)state;
    const char *names[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", NULL};
    const char *got = NULL;
    for (int i = 0; names[i] && !got; i++)
        got = setlocale(LC_NUMERIC, names[i]);
    if (!got)
        return; /* no such locale installed: nothing to show here (cmocka's skip reads as a
                   failure in TAP) */
    char err[256];
    struct imp_json *a;
    const cJSON *r = parse("[1.5, 2.25e2]", &a, err, sizeof err);
    setlocale(LC_NUMERIC, "C");
    assert_non_null(r);
    assert_true(fabs(r->child->valuedouble - 1.5) < 1e-12);
    assert_true(fabs(r->child->next->valuedouble - 225) < 1e-12);
    imp_json_free(a);
}

static void test_formats(void **state)
{
    (void)state;
    assert_true(imp_iso_time_valid("2026-11-29T08:51:17Z"));
    assert_false(imp_iso_time_valid("2026-11-29 08:51:17Z"));
    assert_false(imp_iso_time_valid("2026-13-29T08:51:17Z"));
    assert_false(imp_iso_time_valid("2026-11-29T24:00:00Z"));
    assert_false(imp_iso_time_valid("2026-11-29T08:51:17"));
    assert_false(imp_iso_time_valid("2026-11-29T08:51:17.5Z"));
    assert_true(imp_uuid_valid("12345678-9abc-4def-8123-456789abcdef"));
    assert_false(imp_uuid_valid("12345678-9ABC-4DEF-8123-456789ABCDEF"));
    assert_false(imp_uuid_valid("123456789abc-4def-8123-456789abcdef0"));
    assert_false(imp_uuid_valid("12345678-9abc-4def-8123-456789abcdeg"));
}

/* A database with two local runs, one of them holding strings a terminal must never see. */
static struct cdb *source_db(void)
{
    struct cdb *db;
    char err[512];
    assert_int_equal(cdb_open(":memory:", &db, err, sizeof err), 0);
    struct cdb_machine m = {.host = "box", .backend = "cpu", .device = "cpu (x86_64, 2 threads)",
                            .target = "cpu-wave32", .wave_size = 32, .compute_units = 2,
                            .mem_bytes = 25769803776LL, .kladder_version = "0.1.0"};
    cdb_machine_make_id(&m);
    assert_int_equal(cdb_machine_put(db, &m, err, sizeof err), 0);
    const char *ids[2] = {"aaaaaaaa-1111-4111-8111-111111111111",
                          "bbbbbbbb-2222-4222-8222-222222222222"};
    for (int r = 0; r < 2; r++) {
        struct cdb_run run = {.uuid = ids[r], .machine_id = m.id, .host = "box", .rung = 1 + r,
                              .suite = "fence", .variant = "both", .argv = "kladder run\n--rung 1",
                              .started = "2026-11-01T10:00:00Z", .verdict = CDB_RUNNING};
        assert_int_equal(cdb_run_put(db, &run, err, sizeof err), 0);
        for (int i = 0; i < 3; i++) {
            struct cdb_check c = {.run_uuid = ids[r], .seq = i, .rung = 1 + r, .suite = "fence",
                                  .variant = i ? "buggy" : "fixed", .check = "tail",
                                  .shape = "M=640", .oracle = "reference",
                                  .verdict = i == 2 ? CDB_FAIL : CDB_PASS,
                                  .detail = i == 2 ? "bad\x1b[2J at 7\tx" : "",
                                  .first_bad = i == 2 ? 7 : -1, .bad_count = i == 2 ? 3 : -1,
                                  .max_err = i == 2 ? 0.125 : (double)NAN,
                                  .time_median_us = i ? 0.1 + i : (double)NAN,
                                  .time_min_us = i ? 0.05 + i : (double)NAN,
                                  .time_max_us = i ? 0.3 + i : (double)NAN, .repeats = 7,
                                  .limit_s = i ? 2.5 : (double)NAN};
            /* rung 8's scores: one whole, one with only its value known */
            if (r == 1 && i == 2)
                c.score = (struct cdb_score){.set = true, .value = 0.625, .baseline = 1,
                                             .samples = 8, .diverge_step = 3};
            if (r == 1 && i == 1)
                c.score = (struct cdb_score){.set = true, .value = 0.75, .baseline = NAN,
                                             .samples = -1, .diverge_step = -1};
            assert_int_equal(cdb_check_put(db, &c, err, sizeof err), 0);
        }
        assert_int_equal(cdb_run_finish(db, ids[r], "2026-11-01T10:00:30Z",
                                        r ? CDB_FAIL : CDB_PASS, err, sizeof err),
                         0);
    }
    /* a run still going is not exported */
    struct cdb_run running = {.uuid = "cccccccc-3333-4333-8333-333333333333", .machine_id = m.id,
                              .host = "box", .rung = 3, .started = "2026-11-01T11:00:00Z",
                              .verdict = CDB_RUNNING};
    assert_int_equal(cdb_run_put(db, &running, err, sizeof err), 0);
    return db;
}

static void test_export_parse_merge_roundtrip(void **state)
{
    (void)state;
    struct cdb *src = source_db();
    char err[512], *text;
    size_t len;
    struct imp_export_opts o = {0};
    assert_int_equal(imp_results_export(src, &o, &text, &len, err, sizeof err), 0);
    assert_null(strchr(text, '\x1b')); /* sanitised on the way out... */
    struct imp_results_doc d;
    if (imp_results_parse(text, len, "export", &d, err, sizeof err) != 0)
        fail_msg("own export refused: %s", err); /* ...so our own parser accepts it */
    assert_int_equal(d.n_machines, 1);
    assert_int_equal(d.n_runs, 2);
    assert_int_equal(d.n_checks, 6);
    assert_string_equal(d.newest_finished, "2026-11-01T10:00:30Z");
    assert_int_equal(d.runs[1].n_checks, 3);
    assert_int_equal(d.runs[1].checks[2].first_bad, 7);
    assert_true(isnan(d.runs[1].checks[0].time_median_us));
    assert_true(fabs(d.runs[1].checks[2].time_median_us - 2.1) < 1e-15);
    /* scores travel whole, and a check without one has none */
    const struct cdb_score *sc = &d.runs[1].checks[2].score;
    assert_true(sc->set && fabs(sc->value - 0.625) < 1e-15 && fabs(sc->baseline - 1) < 1e-15);
    assert_int_equal(sc->samples, 8);
    assert_int_equal(sc->diverge_step, 3);
    sc = &d.runs[1].checks[1].score;
    assert_true(sc->set && fabs(sc->value - 0.75) < 1e-15 && isnan(sc->baseline));
    assert_int_equal(sc->samples, -1);
    assert_int_equal(sc->diverge_step, -1);
    assert_false(d.runs[1].checks[0].score.set);
    assert_false(d.runs[0].checks[2].score.set);

    struct cdb *dst;
    assert_int_equal(cdb_open(":memory:", &dst, err, sizeof err), 0);
    struct cdb_merge_input in = {.machines = d.machines, .n_machines = d.n_machines,
                                 .runs = d.runs, .n_runs = d.n_runs};
    struct cdb_merge_target t = {.origin = "box", .url = "file:///x", .when = "2026-11-02T00:00:00Z",
                                 .cursor = d.newest_finished};
    struct cdb_merge_stats st;
    assert_int_equal(cdb_merge(dst, &t, &in, &st, err, sizeof err), 0);
    assert_int_equal(st.new_runs, 2);
    assert_int_equal(st.new_checks, 6);
    /* the pulled database holds the scores in its checks' facts */
    struct cdb_run_detail rd;
    assert_int_equal(cdb_run_load(dst, "bbbbbbbb", &rd, err, sizeof err), 1);
    assert_true(rd.checks[2].score.set && fabs(rd.checks[2].score.value - 0.625) < 1e-15);
    assert_int_equal(rd.checks[2].score.diverge_step, 3);
    assert_int_equal(rd.checks[2].score.samples, 8);
    assert_true(rd.checks[1].score.set && isnan(rd.checks[1].score.baseline));
    assert_false(rd.checks[0].score.set);
    cdb_run_detail_free(&rd);
    /* the exports of both databases hold the same runs and checks */
    char *again;
    size_t again_len;
    o.include_pulled = true;
    assert_int_equal(imp_results_export(dst, &o, &again, &again_len, err, sizeof err), 0);
    cJSON *x = cJSON_Parse(text), *y = cJSON_Parse(again);
    assert_true(cJSON_Compare(cJSON_GetObjectItem(x, "runs"), cJSON_GetObjectItem(y, "runs"), 1));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(x, "checks"), cJSON_GetObjectItem(y, "checks"), 1));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(x, "machines"), cJSON_GetObjectItem(y, "machines"), 1));
    cJSON_Delete(x);
    cJSON_Delete(y);
    /* and merging the same document again adds nothing */
    assert_int_equal(cdb_merge(dst, &t, &in, &st, err, sizeof err), 0);
    assert_int_equal(st.new_runs, 0);
    assert_int_equal(st.present_runs, 2);
    imp_results_doc_free(&d);
    free(text);
    free(again);
    /* --since */
    o.include_pulled = false;
    o.since = "aaaaaaaa-1111-4111-8111-111111111111";
    assert_int_equal(imp_results_export(src, &o, &text, &len, err, sizeof err), 0);
    assert_int_equal(imp_results_parse(text, len, "since", &d, err, sizeof err), 0);
    assert_int_equal(d.n_runs, 1);
    assert_string_equal(d.runs[0].run.uuid, "bbbbbbbb-2222-4222-8222-222222222222");
    imp_results_doc_free(&d);
    free(text);
    o.since = "dddddddd-1111-4111-8111-111111111111";
    assert_int_equal(imp_results_export(src, &o, &text, &len, err, sizeof err), -1);
    assert_non_null(strstr(err, "no run"));
    o.since = "2026-11-02";
    assert_int_equal(imp_results_export(src, &o, &text, &len, err, sizeof err), 0);
    assert_int_equal(imp_results_parse(text, len, "since", &d, err, sizeof err), 0);
    assert_int_equal(d.n_runs, 0);
    imp_results_doc_free(&d);
    free(text);
    cdb_close(src);
    cdb_close(dst);
}

/* One valid document, mutated by string replacement; each mutation must be refused with the
 * expected words in the message, and the message must be printable. */
static const char base[] =
    "{\"format\":\"kladder-results\",\"version\":1,"
    "\"exported_by\":{\"host\":\"box\",\"kladder_version\":\"0.1.0\",\"commit\":null},"
    "\"exported_at\":\"2026-11-02T00:00:00Z\","
    "\"machines\":[{\"id\":\"0123456789abcdef0123456789abcdef\",\"host\":\"box\",\"backend\":\"cpu\","
    "\"device\":\"cpu\",\"target\":\"cpu-wave32\",\"wave_size\":32,\"compute_units\":2,"
    "\"mem_bytes\":0,\"driver_version\":null,\"runtime_version\":null,\"compiler_version\":null,"
    "\"compute_partition\":null,\"memory_partition\":null,\"kladder_version\":\"0.1.0\","
    "\"kladder_commit\":null}],"
    "\"runs\":[{\"run_id\":\"aaaaaaaa-1111-4111-8111-111111111111\","
    "\"machine_id\":\"0123456789abcdef0123456789abcdef\",\"host\":\"box\",\"rung\":1,"
    "\"suite\":\"fence\",\"case\":null,\"variant\":\"fixed\",\"argv\":null,"
    "\"started\":\"2026-11-01T10:00:00Z\",\"finished\":\"2026-11-01T10:00:30Z\","
    "\"verdict\":\"pass\",\"counts\":{\"pass\":1,\"fail\":0,\"hang\":0,\"error\":0,\"skip\":0,"
    "\"cancelled\":0}}],"
    "\"checks\":[{\"run_id\":\"aaaaaaaa-1111-4111-8111-111111111111\",\"seq\":0,\"rung\":1,"
    "\"suite\":\"fence\",\"variant\":\"fixed\",\"check\":\"tail\",\"shape\":\"M=640\","
    "\"oracle\":\"reference\",\"verdict\":\"pass\",\"detail\":\"\",\"first_bad\":null,"
    "\"bad_count\":null,\"max_err\":null,\"time_us\":{\"median\":2,\"min\":1,\"max\":3},"
    "\"repeats\":7,\"limit_s\":null}]}";

static char *replace(const char *from, const char *to)
{
    const char *at = strstr(base, from);
    assert_non_null(at);
    return xasprintf("%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
}

static void test_validator_refuses(void **state)
{
    (void)state;
    struct imp_results_doc d;
    char err[1024];
    /* a document without scores (every one written before them) reads, with none */
    assert_int_equal(imp_results_parse(base, strlen(base), "base", &d, err, sizeof err), 0);
    assert_false(d.runs[0].checks[0].score.set);
    imp_results_doc_free(&d);
    /* and one with a score reads it */
    static const char scored[] = ",\"score\":{\"value\":0.5,\"baseline\":0.9,\"samples\":1319,"
                                 "\"diverge_step\":null}}]}";
    char *withscore = xasprintf("%.*s%s", (int)(strlen(base) - 3), base, scored);
    assert_int_equal(imp_results_parse(withscore, strlen(withscore), "s", &d, err, sizeof err), 0);
    assert_true(d.runs[0].checks[0].score.set && fabs(d.runs[0].checks[0].score.value - 0.5) < 1e-15);
    assert_int_equal(d.runs[0].checks[0].score.samples, 1319);
    assert_int_equal(d.runs[0].checks[0].score.diverge_step, -1);
    imp_results_doc_free(&d);
    free(withscore);
    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"\"version\":1", "\"version\":1.5", "field 'version'"},
        {"\"rung\":1,\"suite\":\"fence\",\"case\"", "\"rung\":16,\"suite\":\"fence\",\"case\"",
         "runs[0] (aaaaaaaa-1111-4111-8111-111111111111): field 'rung'"},
        {"\"seq\":0", "\"seq\":0.5", "checks[0]"},
        {"\"wave_size\":32", "\"wave_size\":\"32\"", "machines[0]"},
        {"\"device\":\"cpu\"", "\"device\":\"\\u001b[31mred\"", "control character"},
        {"\"device\":\"cpu\"", "\"device\":\"\\u009b31m\"", "control character"},
        {"\"detail\":\"\"", "\"detail\":\"a\\tb\"", "control character"},
        {"\"detail\":\"\"", "\"detail\":\"a\\u0007b\"", "control character"},
        {"\"max_err\":null", "\"max_err\":-1", "expected a number >= 0"},
        {"\"limit_s\":null", "\"limit_s\":-1", "field 'limit_s': expected a number >= 0"},
        {"\"first_bad\":null", "\"first_bad\":-1", "field 'first_bad'"},
        {"\"mem_bytes\":0", "\"mem_bytes\":1e300", "field 'mem_bytes'"},
        {"\"finished\":\"2026-11-01T10:00:30Z\"", "\"finished\":\"2026-11-01T09:00:00Z\"",
         "is before 'started'"},
        {"\"finished\":\"2026-11-01T10:00:30Z\"", "\"finished\":null", "field 'finished'"},
        {"\"cancelled\":0}", "\"cancelled\":0,\"Run-ning\":0}", "is not a known field of counts"},
        {"\"cancelled\":0}", "\"cancelled\":0,\"doubt\":-1}", "field 'doubt': expected a whole"},
        {"\"finished\":\"2026-11-01T10:00:30Z\"", "\"finished\":\"9999-12-31T23:59:59Z\"",
         "field 'finished': 9999-12-31T23:59:59Z is in the future"},
        {"\"started\":\"2026-11-01T10:00:00Z\"", "\"started\":\"9000-01-01T00:00:00Z\"",
         "field 'started': 9000-01-01T00:00:00Z is in the future"},
        {"\"verdict\":\"pass\",\"counts\"", "\"verdict\":\"\",\"counts\"",
         "field 'verdict': expected a verdict"},
        {"\"median\":2", "\"median\":2,\"mean\":2", "is not a known field of time_us"},
        {"\"commit\":null", "\"commit\":5", "field 'commit'"},
        {"\"exported_at\":\"2026-11-02T00:00:00Z\"", "\"exported_at\":\"now\"", "exported_at"},
        {"\"checks\":[", "\"checks\":[1,", "checks[0]: expected an object"},
        {"\"limit_s\":null}", "\"limit_s\":null,\"score\":{\"value\":null,\"baseline\":null,"
         "\"samples\":null,\"diverge_step\":null}}", "field 'score.value'"},
        {"\"limit_s\":null}", "\"limit_s\":null,\"score\":{\"value\":\"0.9\",\"baseline\":1,"
         "\"samples\":8,\"diverge_step\":2}}", "field 'score.value'"},
        {"\"limit_s\":null}", "\"limit_s\":null,\"score\":{\"value\":0.9,\"baseline\":1,"
         "\"samples\":-8,\"diverge_step\":2}}", "field 'score.samples'"},
        {"\"limit_s\":null}", "\"limit_s\":null,\"score\":{\"value\":0.9,\"baseline\":1,"
         "\"samples\":8,\"diverge_step\":2,\"tokens\":8}}", "is not a known field of score"},
        {"\"limit_s\":null}", "\"limit_s\":null,\"score\":{\"value\":0.9}}", "field 'baseline'"},
        {"\"limit_s\":null}", "\"limit_s\":null,\"score\":0.9}", "field 'score': expected an object"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *doc = replace(cases[i].from, cases[i].to);
        int rc = imp_results_parse(doc, strlen(doc), "doc\x1b[2J.json", &d, err, sizeof err);
        if (rc == 0 || !strstr(err, cases[i].want) || strchr(err, '\x1b'))
            fail_msg("case %zu: rc %d, message '%s', wanted '%s'", i, rc, err, cases[i].want);
        assert_null(d.runs);
        free(doc);
    }
}

/* A `kladder exec` check's "exec" object: read member by member, written back in the engine's
 * order (whatever the document's), and refused when a member is unknown, missing, of the wrong
 * type or holds a control character. */
static void test_exec_facts(void **state)
{
    (void)state;
    struct imp_results_doc d;
    char err[1024];
    static const char program[] =
        ",\"exec\":{\"file\":\"/src/race.cu\",\"verdict\":\"finding\",\"args\":[\"8\",\"a b\"],"
        "\"schedule\":\"pct\",\"seed\":3,\"wave\":32,\"signal\":0,\"stopped\":false,"
        "\"timed_out\":false,\"timeout_s\":60,\"output_tail\":\"sum 7: FAIL\\n\","
        "\"output_cut\":false,\"exit_status\":1}}]}";
    char *doc = xasprintf("%.*s%s", (int)(strlen(base) - 3), base, program);
    if (imp_results_parse(doc, strlen(doc), "exec", &d, err, sizeof err) != 0)
        fail_msg("an exec check refused: %s", err);
    assert_string_equal(d.runs[0].checks[0].exec,
                        "{\"verdict\":\"finding\",\"file\":\"/src/race.cu\",\"args\":[\"8\",\"a b\"],"
                        "\"schedule\":\"pct\",\"seed\":3,\"wave\":32,\"signal\":0,"
                        "\"stopped\":false,\"timed_out\":false,\"timeout_s\":60,"
                        "\"output_tail\":\"sum 7: FAIL\\n\",\"output_cut\":false,\"exit_status\":1}");
    imp_results_doc_free(&d);
    /* a finding's check carries its kind; a check of the ladder none */
    char *finding = xasprintf("%.*s,\"exec\":{\"kind\":\"race\"}}]}", (int)(strlen(base) - 3), base);
    assert_int_equal(imp_results_parse(finding, strlen(finding), "f", &d, err, sizeof err), 0);
    assert_string_equal(d.runs[0].checks[0].exec, "{\"kind\":\"race\"}");
    imp_results_doc_free(&d);
    free(finding);
    assert_int_equal(imp_results_parse(base, strlen(base), "base", &d, err, sizeof err), 0);
    assert_null(d.runs[0].checks[0].exec);
    imp_results_doc_free(&d);
    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"\"wave\":32", "\"wave\":48", "field 'exec.wave': expected 32 or 64"},
        {"\"verdict\":\"finding\"", "\"verdict\":\"fine\"", "field 'exec.verdict'"},
        {"\"seed\":3", "\"seed\":3,\"pid\":4", "is not a known field of exec"},
        {"\"seed\":3,", "", "field 'seed': is required"},
        {"\"output_tail\":\"sum 7: FAIL\\n\"", "\"output_tail\":\"\\u001b[2Jsum\"",
         "field 'exec.output_tail': contains a control character"},
        {"\"args\":[\"8\",\"a b\"]", "\"args\":[\"8\",\"\\u009b\"]", "field 'exec.args[]'"},
        {"\"args\":[\"8\",\"a b\"]", "\"args\":\"8\"", "field 'exec.args': expected an array"},
        {"\"exit_status\":1", "\"exit_status\":300", "field 'exec.exit_status'"},
        {"\"stopped\":false", "\"stopped\":0", "field 'exec.stopped': expected true or false"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *at = strstr(doc, cases[i].from);
        assert_non_null(at);
        char *bad = xasprintf("%.*s%s%s", (int)(at - doc), doc, cases[i].to,
                              at + strlen(cases[i].from));
        int rc = imp_results_parse(bad, strlen(bad), "doc.json", &d, err, sizeof err);
        if (rc == 0 || !strstr(err, cases[i].want) || strchr(err, '\x1b'))
            fail_msg("case %zu: rc %d, message '%s', wanted '%s'", i, rc, err, cases[i].want);
        assert_null(d.runs);
        free(bad);
    }
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_arena_values),
        cmocka_unit_test(test_json_arena_refuses),
        cmocka_unit_test(test_json_arena_locale),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_export_parse_merge_roundtrip),
        cmocka_unit_test(test_validator_refuses),
        cmocka_unit_test(test_exec_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
