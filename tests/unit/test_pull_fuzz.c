/* Pulled verdicts are judged again (importers/verdict_derive.h), and the pull reader is total:
 * the rules on their own, then a mutation loop over documents with the whole verdict vocabulary
 * (kladder's words for checks and runs, and words it does not know) in every place a verdict or
 * a count goes, each parsed and, when it reads, merged into a database. Whatever the document
 * says, no mutation may crash (the ASan+UBSan pass watches), a run whose checks show a failure
 * of a kernel expected to be right is never stored as a pass, and the counts stored are those
 * of the checks stored. Seeded, so a failure reproduces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/merge.h"
#include "casedb/results.h"
#include "casedb/results_query.h"
#include "common/xalloc.h"
#include "importers/results_json.h"
#include "importers/verdict_derive.h"
#include "tests/unit/helpers/test_rand.h"

static struct cdb_check check(const char *variant, const char *word_unused, enum cdb_verdict v)
{
    (void)word_unused;
    return (struct cdb_check){.run_uuid = "r", .suite = "s", .rung = 1, .variant = variant,
                              .check = "c", .verdict = v, .first_bad = -1, .bad_count = -1,
                              .max_err = NAN, .time_median_us = NAN, .time_min_us = NAN,
                              .time_max_us = NAN, .limit_s = NAN};
}

static void test_check_rules(void **state)
{
    (void)state;
    char why[160];
    enum cdb_verdict v;
    struct cdb_check c = check("fixed", NULL, CDB_PASS);
    /* a word the fields do not refute stands */
    assert_null(imp_check_verdict_derive("pass", &c, &v, why, sizeof why));
    assert_int_equal(v, CDB_PASS);
    assert_null(imp_check_verdict_derive("skip", &c, &v, why, sizeof why));
    assert_int_equal(v, CDB_SKIP);
    /* doubt is a word kladder writes: it stands, bad elements and all */
    c.bad_count = 12;
    assert_null(imp_check_verdict_derive("doubt", &c, &v, why, sizeof why));
    assert_int_equal(v, CDB_DOUBT);
    /* a failed check relabelled skip or pass still records its bad elements: a fail */
    assert_non_null(imp_check_verdict_derive("skip", &c, &v, why, sizeof why));
    assert_int_equal(v, CDB_FAIL);
    assert_non_null(strstr(why, "12 bad elements"));
    assert_non_null(imp_check_verdict_derive("pass", &c, &v, why, sizeof why));
    assert_int_equal(v, CDB_FAIL);
    c.bad_count = -1, c.first_bad = 0;
    assert_non_null(imp_check_verdict_derive("cancelled", &c, &v, why, sizeof why));
    assert_int_equal(v, CDB_FAIL);
    /* repeats alone say nothing (a plan may record them before it skips) */
    c.first_bad = -1, c.repeats = 20;
    assert_null(imp_check_verdict_derive("skip", &c, &v, why, sizeof why));
    /* a skip that ran (a time) is an error: what it found is not known */
    c.time_median_us = 3;
    assert_non_null(imp_check_verdict_derive("skip", &c, &v, why, sizeof why));
    assert_int_equal(v, CDB_ERROR);
    /* but a pass that ran is what passes look like */
    assert_null(imp_check_verdict_derive("pass", &c, &v, why, sizeof why));
    assert_int_equal(v, CDB_PASS);
    /* words that are no finished check's verdict, and unknown ones: an error, never a pass */
    const char *odd[] = {"running", "interrupted", "passed", "PASS", "ok", "x"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        assert_non_null(imp_check_verdict_derive(odd[i], &c, &v, why, sizeof why));
        assert_int_equal(v, CDB_ERROR);
    }
}

static void test_run_rules(void **state)
{
    (void)state;
    char why[400];
    struct cdb_check cs[4] = {check("fixed", NULL, CDB_PASS), check("buggy", NULL, CDB_FAIL),
                              check("fixed", NULL, CDB_PASS), check("buggy", NULL, CDB_PASS)};
    for (int i = 0; i < 4; i++)
        cs[i].seq = i;
    /* the checks say pass: the words that cannot say worse give a pass */
    const char *to_pass[] = {"pass", "hang", "running", "kept", "PASS"};
    for (size_t i = 0; i < sizeof to_pass / sizeof to_pass[0]; i++)
        assert_int_equal(imp_run_verdict_derive(to_pass[i], cs, 4, why, sizeof why), CDB_PASS);
    assert_string_equal(imp_run_verdict_derive("pass", cs, 4, why, sizeof why) == CDB_PASS ? why
                                                                                         : "x",
                        "");
    /* words that say worse than the checks for what a document does not show stand */
    assert_int_equal(imp_run_verdict_derive("fail", cs, 4, why, sizeof why), CDB_FAIL);
    assert_int_equal(imp_run_verdict_derive("error", cs, 4, why, sizeof why), CDB_ERROR);
    assert_int_equal(imp_run_verdict_derive("skip", cs, 4, why, sizeof why), CDB_SKIP);
    assert_int_equal(imp_run_verdict_derive("doubt", cs, 4, why, sizeof why), CDB_DOUBT);
    assert_int_equal(imp_run_verdict_derive("cancelled", cs, 4, why, sizeof why), CDB_CANCELLED);
    assert_int_equal(imp_run_verdict_derive("interrupted", cs, 4, why, sizeof why),
                     CDB_INTERRUPTED);
    /* a kernel expected to be right that failed: the run fails, whatever it says */
    cs[2].verdict = CDB_FAIL;
    assert_int_equal(imp_run_verdict_derive("pass", cs, 4, why, sizeof why), CDB_FAIL);
    assert_non_null(strstr(why, "exported as \"pass\""));
    assert_non_null(strstr(why, "check seq 2"));
    assert_int_equal(imp_run_verdict_derive("skip", cs, 4, why, sizeof why), CDB_FAIL);
    assert_int_equal(imp_run_verdict_derive("error", cs, 4, why, sizeof why), CDB_FAIL);
    /* one that hung: hang; a hang said where none hung is not kept */
    cs[2].verdict = CDB_HANG;
    assert_int_equal(imp_run_verdict_derive("pass", cs, 4, why, sizeof why), CDB_HANG);
    cs[2].verdict = CDB_ERROR;
    assert_int_equal(imp_run_verdict_derive("hang", cs, 4, why, sizeof why), CDB_ERROR);
    /* a check in doubt among passes: doubt, whatever the document says short of worse */
    cs[2].verdict = CDB_DOUBT;
    assert_int_equal(imp_run_verdict_derive("pass", cs, 4, why, sizeof why), CDB_DOUBT);
    assert_int_equal(imp_run_verdict_derive("fail", cs, 4, why, sizeof why), CDB_FAIL);
    /* nothing ran: it tested nothing, inconclusive as the engine says (skip), never a pass */
    for (int i = 0; i < 4; i++)
        cs[i].verdict = CDB_SKIP;
    assert_int_equal(imp_run_verdict_derive("pass", cs, 4, why, sizeof why), CDB_SKIP);
    assert_non_null(strstr(why, "none of its 4 checks ran"));
    assert_int_equal(imp_run_verdict_derive("pass", cs, 0, why, sizeof why), CDB_SKIP);
    /* one rung of the run tested nothing while another did */
    cs[0].verdict = CDB_PASS, cs[1].verdict = CDB_FAIL;
    cs[2].rung = cs[3].rung = 2;
    assert_int_equal(imp_run_verdict_derive("pass", cs, 4, why, sizeof why), CDB_SKIP);
    assert_non_null(strstr(why, "rung 2 ran"));
}

/* ---- the mutation loop -------------------------------------------------------------------- */

static const char *const words[] = {"pass", "fail", "hang", "error", "skip", "cancelled",
                                    "doubt", "running", "interrupted", "passed", "Pass",
                                    "kept", "", "inconclusive"};
#define N_WORDS (sizeof words / sizeof words[0])

static const char *pick(void)
{
    return words[test_rand_next() % N_WORDS];
}

static const char *const uuids[] = {"aaaaaaaa-1111-4111-8111-111111111111",
                                    "bbbbbbbb-2222-4222-8222-222222222222"};

/* A document of two runs of 2 to 6 checks each, with verdict words, counts, bad elements,
 * timings and times drawn at random. */
static char *document(void)
{
    size_t cap = 1 << 16, len = 0;
    char *s = xmalloc(cap);
#define PUT(...) (len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__))
    PUT("{\"format\":\"kladder-results\",\"version\":1,\"exported_by\":{\"host\":\"box\","
        "\"kladder_version\":\"0.1.0\",\"commit\":null},\"exported_at\":\"2026-11-02T00:00:00Z\","
        "\"machines\":[{\"id\":\"0123456789abcdef0123456789abcdef\",\"host\":\"box\","
        "\"backend\":\"cpu\",\"device\":\"cpu\",\"target\":\"cpu-wave32\",\"wave_size\":32,"
        "\"compute_units\":2,\"mem_bytes\":0,\"driver_version\":null,\"runtime_version\":null,"
        "\"compiler_version\":null,\"compute_partition\":null,\"memory_partition\":null,"
        "\"kladder_version\":\"0.1.0\",\"kladder_commit\":null}],\"runs\":[");
    int nchecks[2];
    for (int r = 0; r < 2; r++) {
        nchecks[r] = 2 + (int)(test_rand_next() % 5);
        const char *finished = test_rand_next() % 16 == 0 ? "9999-12-31T00:00:00Z"
                                                          : "2026-11-01T10:00:30Z";
        PUT("%s{\"run_id\":\"%s\",\"machine_id\":\"0123456789abcdef0123456789abcdef\","
            "\"host\":\"box\",\"rung\":%d,\"suite\":\"s\",\"case\":null,\"variant\":\"both\","
            "\"argv\":\"kladder run --rung 1 ; touch X $(id)\",\"started\":\"2026-11-01T10:00:00Z\","
            "\"finished\":\"%s\",\"verdict\":\"%s\",\"counts\":{",
            r ? "," : "", uuids[r], 1 + r, finished, pick());
        static const char *const keys[] = {"pass", "fail", "hang", "error", "skip", "cancelled",
                                           "doubt", "interrupted"};
        int nk = 6 + (int)(test_rand_next() % 3);
        for (int k = 0; k < nk; k++)
            PUT("%s\"%s\":%d", k ? "," : "", keys[k], (int)(test_rand_next() % 9));
        PUT("}}");
    }
    PUT("],\"checks\":[");
    for (int r = 0, first = 1; r < 2; r++)
        for (int i = 0; i < nchecks[r]; i++, first = 0) {
            bool bad = test_rand_next() % 3 == 0, timed = test_rand_next() % 2;
            PUT("%s{\"run_id\":\"%s\",\"seq\":%d,\"rung\":%d,\"suite\":\"%s\",\"variant\":\"%s\","
                "\"check\":\"c%d\",\"shape\":\"\",\"oracle\":\"reference\",\"verdict\":\"%s\","
                "\"detail\":\"d\",\"first_bad\":%s,\"bad_count\":%s,\"max_err\":%s,"
                "\"time_us\":{\"median\":%s,\"min\":%s,\"max\":%s},\"repeats\":%d,"
                "\"limit_s\":%s}",
                first ? "" : ",", uuids[r], i, 1 + (int)(test_rand_next() % 2),
                test_rand_next() % 2 ? "s" : "t", test_rand_next() % 2 ? "buggy" : "fixed", i,
                pick(), bad ? "3" : "null", bad ? "5" : test_rand_next() % 2 ? "0" : "null",
                bad ? "0.5" : "null", timed ? "2" : "null", timed ? "1" : "null",
                timed ? "3" : "null", timed ? 7 : 0, test_rand_next() % 2 ? "0" : "10");
        }
    PUT("]}");
#undef PUT
    assert_true(len < cap);
    return s;
}

/* What may be said of a stored run whatever its document said. */
static void check_stored(struct cdb *db)
{
    struct cdb_run_filter f;
    cdb_run_filter_init(&f);
    struct cdb_run_list runs;
    char err[512];
    assert_int_equal(cdb_runs_query(db, &f, &runs, err, sizeof err), 0);
    for (size_t i = 0; i < runs.n; i++) {
        struct cdb_run_detail d;
        assert_int_equal(cdb_run_load(db, runs.items[i].run.uuid, &d, err, sizeof err), 1);
        int counts[CDB_VERDICT_COUNT] = {0};
        bool right_failed = false;
        for (size_t k = 0; k < d.n_checks; k++) {
            const struct cdb_check *c = &d.checks[k];
            counts[c->verdict]++;
            right_failed |= strcmp(c->variant, "buggy") != 0 && c->verdict != CDB_PASS &&
                            c->verdict != CDB_SKIP && c->verdict != CDB_DOUBT;
            /* a check that records bad elements is stored as neither a pass nor a skip */
            if (c->bad_count > 0)
                assert_true(c->verdict != CDB_PASS && c->verdict != CDB_SKIP);
        }
        for (int v = 0; v < CDB_VERDICT_COUNT; v++)
            assert_int_equal(counts[v], d.info.counts[v]);
        if (right_failed)
            assert_int_not_equal(d.info.run.verdict, CDB_PASS);
        assert_non_null(d.info.run.exported_verdict);
        cdb_run_detail_free(&d);
    }
    cdb_run_list_free(&runs);
}

static void test_pull_mutations(void **state)
{
    (void)state;
    test_rand_seed(0x6b6c6164646572ull);
    int parsed = 0, refused = 0;
    for (int it = 0; it < 400; it++) {
        char *doc = document();
        /* now and then a cut or a flipped byte as well */
        size_t len = strlen(doc);
        if (test_rand_next() % 8 == 0)
            len = (size_t)(test_rand_next() % len);
        else if (test_rand_next() % 8 == 0)
            doc[test_rand_next() % len] ^= (char)(1 + test_rand_next() % 127);
        struct imp_results_doc d;
        char err[1024];
        if (imp_results_parse(doc, len, "fuzz", &d, err, sizeof err) != 0) {
            refused++;
            assert_true(err[0] != '\0');
            for (const char *p = err; *p; p++)
                assert_true((unsigned char)*p >= 0x20);
            free(doc);
            continue;
        }
        parsed++;
        struct cdb *db;
        assert_int_equal(cdb_open(":memory:", &db, err, sizeof err), 0);
        struct cdb_merge_input in = {.machines = d.machines, .n_machines = d.n_machines,
                                     .runs = d.runs, .n_runs = d.n_runs};
        struct cdb_merge_target t = {.origin = "box", .url = "file:///x.json",
                                     .when = "2026-11-02T00:00:00Z",
                                     .cursor = d.newest_finished};
        struct cdb_merge_stats st;
        if (cdb_merge(db, &t, &in, &st, err, sizeof err) != 0)
            fail_msg("iteration %d: a document that reads must merge: %s", it, err);
        check_stored(db);
        /* and a second pull of the same document finds it all present */
        assert_int_equal(cdb_merge(db, &t, &in, &st, err, sizeof err), 0);
        assert_int_equal(st.present_runs, d.n_runs);
        cdb_close(db);
        imp_results_doc_free(&d);
        free(doc);
    }
    /* the loop reached both sides */
    assert_true(parsed > 100 && refused > 50);
}

/* A run pulled before verdicts were re-derived holds its document's word: the same document
 * pulled again (a --full pull after the upgrade) is the same run, not a conflict. */
static void test_pulled_before_rederiving(void **state)
{
    (void)state;
    test_rand_seed(99);
    char err[1024];
    struct cdb *db;
    assert_int_equal(cdb_open(":memory:", &db, err, sizeof err), 0);
    int tried = 0;
    for (int it = 0; it < 60; it++) {
        char *doc = document();
        struct imp_results_doc d;
        if (imp_results_parse(doc, strlen(doc), "old", &d, err, sizeof err) != 0) {
            free(doc);
            continue;
        }
        struct cdb_merge_input in = {.machines = d.machines, .n_machines = d.n_machines,
                                     .runs = d.runs, .n_runs = d.n_runs};
        struct cdb_merge_target t = {.origin = "box", .url = "file:///x.json",
                                     .when = "2026-11-02T00:00:00Z"};
        struct cdb_merge_stats st;
        assert_int_equal(cdb_merge(db, &t, &in, &st, err, sizeof err), 0);
        /* as a kladder before schema 8 stored it: the document's word, no exported_verdict
         * (only the words that kladder could store) */
        bool storable = true;
        for (size_t r = 0; r < d.n_runs; r++) {
            int w = cdb_verdict_parse(d.runs[r].run.exported_verdict);
            storable &= w >= 0 && w != CDB_DOUBT && w != CDB_RUNNING;
        }
        if (storable) {
            for (size_t r = 0; r < d.n_runs; r++) {
                char *sql = xasprintf("UPDATE runs SET verdict = '%s', exported_verdict = NULL"
                                      " WHERE uuid = '%s'", d.runs[r].run.exported_verdict,
                                      d.runs[r].run.uuid);
                assert_int_equal(sqlite3_exec(cdb_handle(db), sql, NULL, NULL, NULL), SQLITE_OK);
                free(sql);
            }
            if (cdb_merge(db, &t, &in, &st, err, sizeof err) != 0)
                fail_msg("iteration %d: the same document again conflicts: %s", it, err);
            assert_int_equal(st.present_runs, d.n_runs);
            tried++;
        }
        assert_int_equal(sqlite3_exec(cdb_handle(db), "DELETE FROM checks; DELETE FROM runs;",
                                      NULL, NULL, NULL), SQLITE_OK);
        imp_results_doc_free(&d);
        free(doc);
    }
    assert_true(tried >= 5);
    cdb_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_rules),
        cmocka_unit_test(test_run_rules),
        cmocka_unit_test(test_pull_mutations),
        cmocka_unit_test(test_pulled_before_rederiving),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
