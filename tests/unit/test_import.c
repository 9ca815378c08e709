/* The case-index importer and casedb queries: valid input lands whole and is searchable;
 * every kind of hostile input is refused with a message naming file, case and field, and the
 * database is left exactly as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "casedb/cdb.h"
#include "casedb/results.h"
#include "common/fileio.h"
#include "common/xalloc.h"
#include "importers/case_index.h"

#define FIX "tests/fixtures/import/"

static char *cases_text, *gaps_text, *rungs_text;

static int setup(void **state)
{
    (void)state;
    char err[512];
    cases_text = file_read_all(FIX "cases.json", NULL, err, sizeof err);
    gaps_text = file_read_all(FIX "gaps.json", NULL, err, sizeof err);
    rungs_text = file_read_all(FIX "rungs.json", NULL, err, sizeof err);
    return cases_text && gaps_text && rungs_text ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(cases_text), free(gaps_text), free(rungs_text);
    return 0;
}

static struct cdb *fresh_db(void)
{
    struct cdb *db;
    char err[512];
    assert_int_equal(cdb_open(":memory:", &db, err, sizeof err), 0);
    return db;
}

static int import_text(struct cdb *db, const char *cases, char *err, size_t errlen)
{
    struct imp_index ix;
    if (imp_index_parse(cases, "cases.json", gaps_text, "gaps.json", rungs_text, "rungs.json", &ix,
                        err, errlen) != 0)
        return -1;
    int rc = imp_index_store(db, &ix, err, errlen);
    imp_index_free(&ix);
    return rc;
}

/* Everything the index holds, as one JSON text: equal texts mean equal databases. */
static char *dump(struct cdb *db)
{
    struct cdb_case_list l;
    char err[256];
    assert_int_equal(cdb_cases_query(db, NULL, &l, err, sizeof err), 0);
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < l.n; i++)
        cJSON_AddItemToArray(arr, imp_case_to_json(&l.items[i]));
    struct cdb_gap *g;
    struct cdb_rung *r;
    size_t ng, nr;
    assert_int_equal(cdb_gaps_load(db, &g, &ng, err, sizeof err), 0);
    assert_int_equal(cdb_rungs_load(db, &r, &nr, err, sizeof err), 0);
    for (size_t i = 0; i < ng; i++) {
        cJSON_AddItemToArray(arr, cJSON_CreateString(g[i].summary_zh));
        cdb_gap_free(&g[i]);
    }
    for (size_t i = 0; i < nr; i++) {
        cJSON_AddItemToArray(arr, cJSON_CreateIntArray(r[i].closes, (int)r[i].n_closes));
        cdb_rung_free(&r[i]);
    }
    free(g), free(r);
    char *s = cJSON_PrintUnformatted(arr);
    cJSON_Delete(arr);
    cdb_case_list_free(&l);
    return s;
}

static size_t count(struct cdb *db, struct cdb_case_filter f)
{
    struct cdb_case_list l;
    char err[256];
    assert_int_equal(cdb_cases_query(db, &f, &l, err, sizeof err), 0);
    size_t n = l.n;
    cdb_case_list_free(&l);
    return n;
}

static void test_valid_import_and_filters(void **state)
{
    (void)state;
    struct cdb *db = fresh_db();
    char err[512];
    assert_int_equal(import_text(db, cases_text, err, sizeof err), 0);
    int n = 0;
    cdb_case_count(db, &n, err, sizeof err);
    assert_int_equal(n, 4);
    assert_int_equal(count(db, (struct cdb_case_filter){.gap = 4}), 2);
    assert_int_equal(count(db, (struct cdb_case_filter){.gap = 4, .rung = 4}), 2);
    assert_int_equal(count(db, (struct cdb_case_filter){.rung = 1}), 1);
    assert_int_equal(count(db, (struct cdb_case_filter){.repo = "flydsl"}), 1); /* own repo only */
    assert_int_equal(count(db, (struct cdb_case_filter){.mentions = "flydsl"}), 2); /* any ref */
    assert_int_equal(count(db, (struct cdb_case_filter){.symptom = "hang"}), 1);
    assert_int_equal(count(db, (struct cdb_case_filter){.symptom = "zeros"}), 0);
    cdb_close(db);
}

static void test_search_english_and_chinese(void **state)
{
    (void)state;
    struct cdb *db = fresh_db();
    char err[512];
    assert_int_equal(import_text(db, cases_text, err, sizeof err), 0);
    struct cdb_case_list l;
    /* one Chinese character: shorter than a trigram, still found */
    assert_int_equal(cdb_cases_query(db, &(struct cdb_case_filter){.search = "挂"}, &l, err,
                                     sizeof err), 0);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.items[0].id, "aiter-4494");
    cdb_case_list_free(&l);
    assert_int_equal(count(db, (struct cdb_case_filter){.search = "信号量"}), 1);
    assert_int_equal(count(db, (struct cdb_case_filter){.search = "SEMAPHORE"}), 1);
    assert_int_equal(count(db, (struct cdb_case_filter){.search = "semaphore replay"}), 1);
    assert_int_equal(count(db, (struct cdb_case_filter){.search = "semaphore nothere"}), 0);
    assert_int_equal(count(db, (struct cdb_case_filter){.search = "292,889,600"}), 1);
    assert_int_equal(count(db, (struct cdb_case_filter){.search = "flydsl#1237"}), 1);
    assert_int_equal(count(db, (struct cdb_case_filter){.search = "100%_"}), 0); /* wildcards are literal */
    assert_int_equal(count(db, (struct cdb_case_filter){.search = "stream", .gap = 4}), 1);
    cdb_close(db);
}

static void test_reimport_is_idempotent(void **state)
{
    (void)state;
    struct cdb *db = fresh_db();
    char err[512];
    assert_int_equal(import_text(db, cases_text, err, sizeof err), 0);
    char *a = dump(db);
    assert_int_equal(import_text(db, cases_text, err, sizeof err), 0);
    char *b = dump(db);
    assert_string_equal(a, b);
    free(a), free(b);
    cdb_close(db);
}

static void test_facets(void **state)
{
    (void)state;
    struct cdb *db = fresh_db();
    char err[512];
    assert_int_equal(import_text(db, cases_text, err, sizeof err), 0);
    struct cdb_facet *f;
    size_t n;
    assert_int_equal(cdb_facets(db, CDB_FACET_GAP, NULL, &f, &n, err, sizeof err), 0);
    assert_int_equal(n, 3); /* gaps 1, 4, 5 */
    assert_string_equal(f[1].value, "4");
    assert_int_equal(f[1].count, 2);
    cdb_facets_free(f, n);
    /* a facet ignores its own filter but honours the others */
    assert_int_equal(cdb_facets(db, CDB_FACET_REPO, &(struct cdb_case_filter){.repo = "aiter", .gap = 4},
                                &f, &n, err, sizeof err), 0);
    assert_int_equal(n, 2); /* aiter (4494) and flydsl (1220) under gap 4 */
    cdb_facets_free(f, n);
    /* The repo counts are of the cases' own repositories, so they add up to the cases: aiter-4841
     * mentions flydsl in a reference but counts under aiter only. */
    assert_int_equal(cdb_facets(db, CDB_FACET_REPO, NULL, &f, &n, err, sizeof err), 0);
    int total = 0;
    for (size_t i = 0; i < n; i++) {
        total += f[i].count;
        if (strcmp(f[i].value, "flydsl") == 0)
            assert_int_equal(f[i].count, 1);
    }
    assert_int_equal(total, 4);
    cdb_facets_free(f, n);
    struct cdb_case_list l;
    assert_int_equal(cdb_cases_query(db, &(struct cdb_case_filter){.repo = "flydsl"}, &l, err,
                                     sizeof err), 0);
    assert_int_equal((int)l.n, 1);
    assert_string_equal(l.items[0].id, "flydsl-1220");
    cdb_case_list_free(&l);
    assert_int_equal(cdb_cases_query(db, &(struct cdb_case_filter){.mentions = "flydsl"}, &l,
                                     err, sizeof err), 0);
    assert_int_equal((int)l.n, 2); /* flydsl-1220 and aiter-4841 */
    cdb_case_list_free(&l);
    cdb_close(db);
}

/* Replaces the first occurrence of from with to (to may be long). */
static char *mutate(const char *text, const char *from, const char *to)
{
    const char *p = strstr(text, from);
    if (!p)
        print_error("fixture lacks \"%s\"\n", from), fail();
    return xasprintf("%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
}

struct hostile {
    const char *name, *from, *to;
    const char *expect[3]; /* substrings the message must contain */
};

static void test_hostile_inputs_leave_db_unchanged(void **state)
{
    (void)state;
    char *huge = xmalloc((1 << 20) + 64);
    strcpy(huge, "\"summary_en\": \"");
    size_t pre = strlen(huge);
    memset(huge + pre, 'x', 1 << 20);
    strcpy(huge + pre + (1 << 20), "\",");
    static const struct hostile cases[] = {
        {"escape sequence", "\"GEMM rows", "\"\\u001b[2J\\u001b]0;owned\\u0007GEMM rows",
         {"aiter-6402", "title_en", "control character"}},
        {"C1 control", "\"GEMM rows", "\"\\u009bGEMM rows", {"aiter-6402", "title_en", "control"}},
        {"wrong type", "\"gap\": 1,", "\"gap\": \"1\",", {"aiter-6402", "'gap'", "got a string"}},
        {"out of range", "\"rung\": 1,", "\"rung\": 9,", {"aiter-6402", "'rung'", "1 to 8"}},
        {"past any ladder", "\"rung\": 1,", "\"rung\": 16,", {"aiter-6402", "'rung'", "1 to 15"}},
        {"fraction", "\"rung\": 1,", "\"rung\": 1.5,", {"aiter-6402", "'rung'", "whole number"}},
        {"duplicate id", "\"id\": \"aiter-4494\"", "\"id\": \"aiter-6402\"",
         {"cases.json", "'id'", "aiter-6402"}},
        {"unknown field", "\"gap\": 1,", "\"gap\": 1, \"colour\": 3,", {"aiter-6402", "colour", "not a known field"}},
        {"duplicate key", "\"gap\": 1,", "\"gap\": 1, \"gap\": 2,", {"aiter-6402", "'gap'", "more than once"}},
        {"unknown symptom", "\"hang\"", "\"hung\"", {"aiter-4494", "symptoms", "hung"}},
        {"missing field", "\"arch\": \"gfx1250\",", "", {"aiter-6402", "'arch'", "required"}},
        {"primary in secondary", "\"gaps\": [],", "\"gaps\": [1],", {"aiter-6402", "gaps", "primary"}},
        {"related unknown", "\"aiter-4494\"\n   ]", "\"aiter-9999\"\n   ]", {"aiter-6402", "related", "aiter-9999"}},
        {"invalid utf-8", "\"GEMM rows", "\"\xff\xfeGEMM rows", {"cases.json", "", ""}},
        {"version", "\"version\": 1", "\"version\": 2", {"cases.json", "version", "1"}},
        {"id mismatch", "\"id\": \"aiter-6402\"", "\"id\": \"aiter-6403\"", {"'id'", "aiter-6402", "first ref"}},
        {"unverified facts", "\"kind\": null", "\"kind\": \"pr\"", {"aiter-6402", "verified", "null"}},
        {"verified flag", "\"notes\": null,\n   \"verified\": true", "\"notes\": null,\n   \"verified\": false", {"aiter-4494", "verified", "true"}},
        {"bad date", "\"date\": \"2026-08-01\"", "\"date\": \"2026-02-30\"", {"aiter-4494", "date", "YYYY-MM-DD"}},
        {"bad url", "https://github.com/ROCm/aiter/issues/6402", "javascript:alert(1)", {"aiter-6402", "url", "https"}},
        {"rates", "\"failures\": 7", "\"failures\": 7e12", {"aiter-4841", "rates", "failures <= trials"}},
        {"not an object", "{\n \"format\"", "[\n \"format\"", {"cases.json", "", ""}},
        {"ref mismatch", "\"ref\": \"aiter#6402\"", "\"ref\": \"aiter#6401\"", {"aiter-6402", "ref", "aiter#6402"}},
    };
    struct cdb *db = fresh_db();
    char err[1024];
    assert_int_equal(import_text(db, cases_text, err, sizeof err), 0);
    char *before = dump(db);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *bad = mutate(cases_text, cases[i].from, cases[i].to);
        err[0] = '\0';
        int rc = import_text(db, bad, err, sizeof err);
        if (rc == 0)
            fail_msg("hostile input '%s' was accepted", cases[i].name);
        for (int k = 0; k < 3; k++)
            if (!strstr(err, cases[i].expect[k]))
                fail_msg("'%s': message \"%s\" lacks \"%s\"", cases[i].name, err, cases[i].expect[k]);
        /* the message itself must be safe to print */
        for (const char *p = err; *p; p++)
            assert_true((unsigned char)*p >= 0x20 || *p == '\n');
        char *after = dump(db);
        assert_string_equal(before, after);
        free(after);
        free(bad);
    }
    /* truncated JSON */
    char *cut = xasprintf("%.*s", (int)(strlen(cases_text) / 2), cases_text);
    assert_int_equal(import_text(db, cut, err, sizeof err), -1);
    assert_non_null(strstr(err, "line"));
    assert_non_null(strstr(err, "not valid JSON"));
    free(cut);
    /* a 1 MB string */
    char *big = mutate(cases_text, "\"summary_en\": \"The output offset is 32-bit.\",", huge);
    assert_int_equal(import_text(db, big, err, sizeof err), -1);
    assert_non_null(strstr(err, "summary_en"));
    assert_non_null(strstr(err, "at most"));
    free(big);
    char *after = dump(db);
    assert_string_equal(before, after);
    free(after);
    free(before);
    free(huge);
    cdb_close(db);
}

/* The ladder is as long as rungs.json makes it: a ninth rung is taught and a case may name
 * it; a tenth named by a case that the index lacks is refused with the rung named. */
static void test_longer_ladder(void **state)
{
    (void)state;
    static const char ninth[] =
        "  },\n  {\"n\": 9, \"key\": \"ninth\", \"name_en\": \"Ninth\", \"name_zh\": \"第九\",\n"
        "   \"runs_en\": \"r\", \"runs_zh\": \"r\", \"closes\": [1]}\n ]\n}";
    /* cut at the last rung's closing brace (the one before the file's own) and go on there */
    const char *end = strrchr(rungs_text, '}');
    end = end ? end - 1 : rungs_text;
    while (end > rungs_text && *end != '}')
        end--;
    char *nine = xasprintf("%.*s%s", (int)(end - rungs_text), rungs_text, ninth);
    char *saved = rungs_text;
    rungs_text = nine;
    struct cdb *db = fresh_db();
    char err[1024];
    char *cases9 = mutate(cases_text, "\"rung\": 1,", "\"rung\": 9,");
    if (import_text(db, cases9, err, sizeof err) != 0)
        fail_msg("a case of rung 9 with a ninth rung in the index: %s", err);
    struct cdb_rung *r;
    size_t nr;
    assert_int_equal(cdb_rungs_load(db, &r, &nr, err, sizeof err), 0);
    assert_int_equal(nr, 9);
    assert_int_equal(r[8].n, 9);
    assert_string_equal(r[8].name_en, "Ninth");
    for (size_t i = 0; i < nr; i++)
        cdb_rung_free(&r[i]);
    free(r);
    assert_int_equal(count(db, (struct cdb_case_filter){.rung = 9}), 1);
    char *cases10 = mutate(cases_text, "\"rung\": 1,", "\"rung\": 10,");
    assert_int_equal(import_text(db, cases10, err, sizeof err), -1);
    assert_non_null(strstr(err, "'rung'"));
    assert_non_null(strstr(err, "1 to 9"));
    free(cases10);
    free(cases9);
    cdb_close(db);
    rungs_text = saved;
    free(nine);
}

static void test_store_failure_rolls_back(void **state)
{
    (void)state;
    /* A failure inside the transaction (after some rows went in) must leave nothing behind:
     * a rung that closes gap 8 passes the parser only if we build the index by hand. */
    struct cdb *db = fresh_db();
    char err[512];
    assert_int_equal(import_text(db, cases_text, err, sizeof err), 0);
    char *before = dump(db);
    struct imp_index ix;
    assert_int_equal(imp_index_parse(cases_text, "c", gaps_text, "g", rungs_text, "r", &ix, err,
                                     sizeof err), 0);
    ix.cases[3].gap = 7; /* exists */
    ix.rungs[0].closes[0] = 42; /* no such gap: the foreign key refuses it mid-import */
    assert_int_equal(imp_index_store(db, &ix, err, sizeof err), -1);
    imp_index_free(&ix);
    char *after = dump(db);
    assert_string_equal(before, after);
    free(before), free(after);
    cdb_close(db);
}

static void test_results_roundtrip(void **state)
{
    (void)state;
    struct cdb *db = fresh_db();
    char err[512];
    struct cdb_machine m = {.host = "h1", .backend = "cpu", .device = "cpu", .target = "cpu-wave32",
                            .wave_size = 32, .kladder_version = "0.1.0"};
    cdb_machine_make_id(&m);
    struct cdb_machine m2 = m;
    m2.wave_size = 64;
    cdb_machine_make_id(&m2);
    assert_string_not_equal(m.id, m2.id);
    char uuid[37], now[21];
    cdb_uuid_new(uuid);
    assert_int_equal(strlen(uuid), 36);
    assert_int_equal(uuid[14], '4');
    cdb_now_iso(now);
    assert_int_equal(cdb_machine_put(db, &m, err, sizeof err), 0);
    assert_int_equal(cdb_machine_put(db, &m, err, sizeof err), 0); /* idempotent */
    struct cdb_run r = {.uuid = uuid, .machine_id = m.id, .host = "h1", .rung = 1,
                        .started = now, .verdict = CDB_RUNNING};
    assert_int_equal(cdb_run_put(db, &r, err, sizeof err), 0);
    assert_int_equal(cdb_run_put(db, &r, err, sizeof err), -1); /* uuid is unique */
    struct cdb_check c = {.run_uuid = uuid, .seq = 0, .rung = 1, .suite = "s", .variant = "buggy",
                          .check = "tail", .shape = "M=1", .oracle = "sentinel",
                          .verdict = CDB_FAIL, .detail = "first bad 3", .first_bad = 3,
                          .bad_count = 5, .max_err = NAN, .time_median_us = NAN,
                          .time_min_us = NAN, .time_max_us = NAN, .limit_s = NAN};
    assert_int_equal(cdb_check_put(db, &c, err, sizeof err), 0);
    assert_int_equal(cdb_run_finish(db, uuid, now, CDB_FAIL, err, sizeof err), 0);
    /* a check of an unknown run violates the foreign key */
    c.run_uuid = "00000000-0000-4000-8000-000000000000";
    assert_int_equal(cdb_check_put(db, &c, err, sizeof err), -1);
    assert_int_equal(cdb_verdict_parse("hang"), CDB_HANG);
    assert_int_equal(cdb_verdict_parse("nope"), -1);
    cdb_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_import_and_filters),
        cmocka_unit_test(test_search_english_and_chinese),
        cmocka_unit_test(test_reimport_is_idempotent),
        cmocka_unit_test(test_facets),
        cmocka_unit_test(test_hostile_inputs_leave_db_unchanged),
        cmocka_unit_test(test_longer_ladder),
        cmocka_unit_test(test_store_failure_rolls_back),
        cmocka_unit_test(test_results_roundtrip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
