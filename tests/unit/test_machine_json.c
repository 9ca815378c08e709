/* A machine as JSON (importers/machine_json.h): a value that is not known is null, never 0, in
 * the object itself, in an export document and in `kladder results --json`'s run objects; the
 * parser takes that null back as "not known", and the 0 of documents written before as well, so
 * the machine keeps its id and its stored values either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/merge.h"
#include "casedb/results.h"
#include "casedb/results_query.h"
#include "common/xalloc.h"
#include "importers/machine_json.h"
#include "importers/results_json.h"

/* A machine whose backend could tell nothing but its name and target. */
static struct cdb_machine unknown_machine(void)
{
    struct cdb_machine m = {.host = "box", .backend = "cpu", .device = "cpu", .target = "cpu-wave32",
                            .kladder_version = "0.1.0"};
    cdb_machine_make_id(&m);
    return m;
}

static const char *const unknown_fields[] = {
    "wave_size", "compute_units", "mem_bytes", "driver_version", "runtime_version",
    "compiler_version", "compute_partition", "memory_partition", "kladder_commit"};
#define N_UNKNOWN (sizeof unknown_fields / sizeof unknown_fields[0])

/* Every field a machine leaves unknown is present and null; no field anywhere is the number 0. */
static void assert_unknown_is_null(const cJSON *o)
{
    assert_true(cJSON_IsObject(o));
    for (size_t i = 0; i < N_UNKNOWN; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, unknown_fields[i]);
        if (!cJSON_IsNull(v))
            fail_msg("field '%s' of an unknown machine is not null", unknown_fields[i]);
    }
    for (const cJSON *v = o->child; v; v = v->next)
        if (cJSON_IsNumber(v) && !(v->valuedouble < 0) && !(v->valuedouble > 0))
            fail_msg("field '%s' is written as 0; not known must be null", v->string);
}

static void test_unknown_is_null(void **state)
{
    (void)state;
    struct cdb_machine m = unknown_machine();
    cJSON *o = imp_machine_json(&m);
    assert_unknown_is_null(o);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "id")->valuestring, m.id);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "target")->valuestring, "cpu-wave32");
    cJSON_Delete(o);
    /* required strings stay strings, so the strict parser still accepts the object */
    struct cdb_machine bare = {.id = "0123456789abcdef0123456789abcdef"};
    o = imp_machine_json(&bare);
    assert_unknown_is_null(o);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "host")->valuestring, "");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "kladder_version")->valuestring, "");
    cJSON_Delete(o);
}

static void test_known_is_number(void **state)
{
    (void)state;
    struct cdb_machine m = unknown_machine();
    m.wave_size = 32;
    m.compute_units = 132;
    m.mem_bytes = 150754820096LL;
    m.compute_partition = "SPX";
    cJSON *o = imp_machine_json(&m);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(o, "wave_size")->valuedouble, 32);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(o, "compute_units")->valuedouble, 132);
    assert_int_equal((int64_t)cJSON_GetObjectItemCaseSensitive(o, "mem_bytes")->valuedouble,
                     150754820096LL);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "compute_partition")->valuestring, "SPX");
    cJSON_Delete(o);
}

/* A database holding one finished run of the unknown machine. */
static struct cdb *db_with_unknown_machine(struct cdb_machine *m)
{
    struct cdb *db;
    char err[512];
    assert_int_equal(cdb_open(":memory:", &db, err, sizeof err), 0);
    *m = unknown_machine();
    assert_int_equal(cdb_machine_put(db, m, err, sizeof err), 0);
    struct cdb_run r = {.uuid = "aaaaaaaa-1111-4111-8111-111111111111", .machine_id = m->id,
                        .host = "box", .rung = 1, .suite = "fence", .variant = "fixed",
                        .started = "2026-11-01T10:00:00Z", .verdict = CDB_RUNNING};
    assert_int_equal(cdb_run_put(db, &r, err, sizeof err), 0);
    /* an error: a run that finished without checks (a pulled "pass" needs a check that ran) */
    assert_int_equal(cdb_run_finish(db, r.uuid, "2026-11-01T10:00:30Z", CDB_ERROR, err, sizeof err),
                     0);
    return db;
}

static void test_export_and_pull_keep_unknown(void **state)
{
    (void)state;
    struct cdb_machine m;
    struct cdb *src = db_with_unknown_machine(&m);
    char err[512], *text;
    size_t len;
    struct imp_export_opts o = {0};
    assert_int_equal(imp_results_export(src, &o, &text, &len, err, sizeof err), 0);
    cJSON *doc = cJSON_Parse(text);
    assert_unknown_is_null(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "machines"), 0));
    cJSON_Delete(doc);

    /* `kladder results --json` writes the machine inside the run */
    struct cdb_run_list runs;
    assert_int_equal(cdb_runs_query(src, NULL, &runs, err, sizeof err), 0);
    assert_int_equal(runs.n, 1);
    cJSON *ro = imp_run_to_json(&runs.items[0], true);
    assert_unknown_is_null(cJSON_GetObjectItemCaseSensitive(ro, "machine"));
    cJSON_Delete(ro);
    cdb_run_list_free(&runs);

    /* the null comes back as "not known": same id, same stored values, no conflict */
    struct imp_results_doc d;
    if (imp_results_parse(text, len, "export", &d, err, sizeof err) != 0)
        fail_msg("own export refused: %s", err);
    assert_int_equal(d.machines[0].wave_size, 0);
    assert_int_equal(d.machines[0].compute_units, 0);
    assert_int_equal(d.machines[0].mem_bytes, 0);
    assert_string_equal(d.machines[0].id, m.id);
    struct cdb_merge_input in = {.machines = d.machines, .n_machines = d.n_machines};
    struct cdb_merge_target t = {.origin = "box", .url = "file:///x", .when = "2026-11-02T00:00:00Z"};
    struct cdb_merge_stats st;
    /* into the database it came from: the stored machine matches field for field */
    if (cdb_merge(src, &t, &in, &st, err, sizeof err) != 0)
        fail_msg("merge back refused: %s", err);
    assert_int_equal(st.new_machines, 0);
    /* its run was made here: it stays local rather than being filed under a host (exported by
     * its own host: the document's exporter is this machine, the run's host the fixture's) */
    in.runs = d.runs, in.n_runs = d.n_runs;
    const char *exporter = d.runs[0].run.exported_by;
    d.runs[0].run.exported_by = d.runs[0].run.host;
    assert_int_equal(cdb_merge(src, &t, &in, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "was made here (a local run)"));
    /* relayed by another host, it is left where it is, counted as present, and blocks nothing */
    d.runs[0].run.exported_by = "relay";
    assert_int_equal(cdb_merge(src, &t, &in, &st, err, sizeof err), 0);
    assert_int_equal(st.present_runs, 1);
    d.runs[0].run.exported_by = exporter;
    imp_results_doc_free(&d);
    free(text);
    cdb_close(src);
}

/* A document written before null: 0 for the unknown numbers. */
static const char old_doc[] =
    "{\"format\":\"kladder-results\",\"version\":1,"
    "\"exported_by\":{\"host\":\"box\",\"kladder_version\":\"0.1.0\",\"commit\":null},"
    "\"exported_at\":\"2026-11-02T00:00:00Z\","
    "\"machines\":[{\"id\":\"0123456789abcdef0123456789abcdef\",\"host\":\"box\",\"backend\":\"cpu\","
    "\"device\":\"cpu\",\"target\":\"cpu-wave32\",\"wave_size\":0,\"compute_units\":0,"
    "\"mem_bytes\":0,\"driver_version\":null,\"runtime_version\":null,\"compiler_version\":null,"
    "\"compute_partition\":null,\"memory_partition\":null,\"kladder_version\":\"0.1.0\","
    "\"kladder_commit\":null}],\"runs\":[],\"checks\":[]}";

static void test_old_zero_and_new_null_read_alike(void **state)
{
    (void)state;
    char err[512];
    struct imp_results_doc old, now;
    assert_int_equal(imp_results_parse(old_doc, strlen(old_doc), "old", &old, err, sizeof err), 0);
    char *with_null = xstrdup(old_doc);
    const char *from[] = {"\"wave_size\":0", "\"compute_units\":0", "\"mem_bytes\":0"};
    for (size_t i = 0; i < 3; i++) {
        char *at = strstr(with_null, from[i]);
        assert_non_null(at);
        char *next = xasprintf("%.*s%.*snull%s", (int)(at - with_null), with_null,
                               (int)(strlen(from[i]) - 1), from[i], at + strlen(from[i]));
        free(with_null);
        with_null = next;
    }
    assert_null(strstr(with_null, "\":0"));
    if (imp_results_parse(with_null, strlen(with_null), "new", &now, err, sizeof err) != 0)
        fail_msg("null for an unknown number refused: %s", err);
    const struct cdb_machine *a = &old.machines[0], *b = &now.machines[0];
    assert_int_equal(a->wave_size, 0);
    assert_int_equal(a->compute_units, 0);
    assert_int_equal(a->mem_bytes, 0);
    assert_int_equal(b->wave_size, 0);
    assert_int_equal(b->compute_units, 0);
    assert_int_equal(b->mem_bytes, 0);
    /* and writing either back says null */
    cJSON *o = imp_machine_json(a);
    assert_unknown_is_null(o);
    cJSON_Delete(o);
    imp_results_doc_free(&old);
    imp_results_doc_free(&now);
    free(with_null);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_is_null),
        cmocka_unit_test(test_known_is_number),
        cmocka_unit_test(test_export_and_pull_keep_unknown),
        cmocka_unit_test(test_old_zero_and_new_null_read_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
