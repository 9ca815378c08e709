/* Rung 3's tuned-table seam (aiter-6360): the table a tuning job writes is an interface between
 * the tuner and the kernel library's dispatch. Several tables merged by a tool that writes
 * integer columns as floats ("8.0", or "" where a table lacked the column) still read fine one
 * by one, but the dispatch, keyed on integers, finds none of the damaged rows: those shapes run
 * untuned, silently. The check reads the merged table exactly as the consumer does
 * (importers/config_check.h, kladder check-config's rules): every cell must parse as its
 * column's type, and every production shape must find its tuned row by the typed key. The unit
 * test beside it reads each source table alone, the way the tuner's own tests did. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "engine/rungs/rung3.h"
#include "engine/rungs/rung7_py.h"
#include "engine/rungs/suite_py.h"
#include "importers/config_check.h"

void eng_rung3_table_free(struct eng_rung3_table *t)
{
    if (!t)
        return;
    free(t->schema);
    free(t->production);
    free(t->merged[0]);
    free(t->merged[1]);
    for (size_t i = 0; i < t->ntables; i++)
        free(t->tables[i]);
    free(t->tables);
    free(t);
}

bool eng_rung3_table_parse(struct eng_mparse *p, const cJSON *j, struct eng_rung3_table **out)
{
    static const char *const keys[] = {"schema", "tables", "merged", "production", NULL};
    struct eng_rung3_table *t = *out = xcalloc(1, sizeof *t);
    if (!cJSON_IsObject(j) || !eng_mp_only_keys(p, j, "rungs.3.tuned_table", keys))
        return p->failed ? false : eng_mp_bad(p, "rungs.3.tuned_table", "expected {\"schema\": "
                                              "PATH, \"tables\": [PATH, ...], \"merged\": PATH, "
                                              "\"production\": PATH}");
    const char *one[] = {"schema", "production"};
    char **dst[] = {&t->schema, &t->production};
    for (int k = 0; k < 2; k++) {
        char f[48], *both[2] = {NULL, NULL};
        snprintf(f, sizeof f, "rungs.3.tuned_table.%s", one[k]);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, one[k]);
        if (cJSON_IsObject(v))
            return eng_mp_bad(p, f, "expected one path for both variants");
        if (!eng_r7_paths(p, v, f, both))
            return false;
        *dst[k] = both[0];
        free(both[1]);
    }
    if (!eng_r7_paths(p, cJSON_GetObjectItemCaseSensitive(j, "merged"),
                      "rungs.3.tuned_table.merged", t->merged))
        return false;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "tables");
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1)
        return eng_mp_bad(p, "rungs.3.tuned_table.tables", "expected an array of the source "
                          "tables the merge read");
    t->tables = xcalloc((size_t)cJSON_GetArraySize(a), sizeof *t->tables);
    for (const cJSON *it = a->child; it; it = it->next) {
        char f[64], *both[2] = {NULL, NULL};
        snprintf(f, sizeof f, "rungs.3.tuned_table.tables[%zu]", t->ntables);
        if (cJSON_IsObject(it) || !eng_r7_paths(p, it, f, both))
            return p->failed ? false : eng_mp_bad(p, f, "expected a path");
        t->tables[t->ntables++] = both[0];
        free(both[1]);
    }
    return true;
}

void eng_rung3_table_plan(struct eng_plan_builder *b, const struct eng_rung3_table *t)
{
    (void)t;
    struct eng_shape none = {0};
    eng_plan_add(b, "tuned-table", ENG_MODE_PLAIN, false, &none, 1, 0, 0);
    if (b->o->baseline)
        eng_plan_add(b, "unit-test-tables", ENG_MODE_PLAIN, true, &none, 1, 0, 0);
}

/* What the consumer's rules said, as one line of the finding. */
struct said {
    char text[1300];
    size_t lines;
};

static void say_line(void *arg, const char *line)
{
    struct said *s = arg;
    size_t used = strlen(s->text);
    if (used + 1 < sizeof s->text)
        snprintf(s->text + used, sizeof s->text - used, "%s%s", used ? "; " : "", line);
    s->lines++;
}

/* Reads path as CSV; NULL with the reason in err. */
static struct csv_table *load(const struct eng_manifest *m, const char *path, char *err,
                              size_t errlen)
{
    size_t len;
    char *text = eng_suite_file_read(m, path, &len, err, errlen);
    struct csv_table *t = xcalloc(1, sizeof *t);
    if (!text || csv_read(text, len, path, t, err, errlen) != 0) {
        free(text);
        free(t);
        return NULL;
    }
    free(text);
    return t;
}

static void drop(struct csv_table *t)
{
    if (t)
        csv_free(t);
    free(t);
}

/* The unit test: each source table alone against the schema. */
static void tables_alone(const struct eng_manifest *m, const struct eng_rung3_table *t,
                         const struct cfg_schema *s, struct eng_check_result *out)
{
    struct said said = {0};
    struct cfg_report r = {say_line, &said, 0};
    size_t rows = 0;
    for (size_t i = 0; i < t->ntables; i++) {
        char err[512];
        struct csv_table *tab = load(m, t->tables[i], err, sizeof err);
        if (!tab) {
            say_line(&said, err);
            r.problems++;
            continue;
        }
        cfg_check_table(s, tab, t->tables[i], &r);
        rows += tab->nrows;
        drop(tab);
    }
    out->bad_count = (int64_t)r.problems;
    out->verdict = r.problems ? CDB_FAIL : CDB_PASS;
    if (r.problems)
        snprintf(out->detail, sizeof out->detail, "%s", said.text);
    else
        snprintf(out->detail, sizeof out->detail, "each of the %zu tables read alone parses "
                 "(%zu rows)", t->ntables, rows);
}

/* The rung: the merged table as the consumer loads it, and every production shape's lookup. */
static void merged_table(const struct eng_manifest *m, const char *merged, const char *production,
                         const struct cfg_schema *s, struct eng_check_result *out)
{
    char err[512];
    struct csv_table *tab = load(m, merged, err, sizeof err),
                     *prod = tab ? load(m, production, err, sizeof err) : NULL;
    for (size_t k = 0; prod && k < s->nkey; k++)
        if (csv_column(prod, s->names[s->key[k]]) < 0) {
            snprintf(err, sizeof err, "%s: no column %s (a production shape is the schema's key)",
                     production, s->names[s->key[k]]);
            drop(prod), prod = NULL;
        }
    if (!prod) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: %s", err);
        drop(tab);
        return;
    }
    struct said cells = {0}, shapes = {0};
    struct cfg_report rc = {say_line, &cells, 0}, rs = {say_line, &shapes, 0};
    cfg_check_table(s, tab, merged, &rc);
    cfg_check_lookup(s, prod, production, tab, merged, &rs);
    out->bad_count = (int64_t)(rc.problems + rs.problems);
    out->verdict = out->bad_count ? CDB_FAIL : CDB_PASS;
    if (out->bad_count)
        snprintf(out->detail, sizeof out->detail, "%zu cell problem%s as the dispatch loads it "
                 "(%.600s); %zu of %zu production shapes left without a tuned entry (%.700s)",
                 rc.problems, rc.problems == 1 ? "" : "s", cells.text[0] ? cells.text : "none",
                 rs.problems, prod->nrows, shapes.text[0] ? shapes.text : "none");
    else
        snprintf(out->detail, sizeof out->detail, "%s: every cell parses as its column's type and "
                 "each of the %zu production shapes finds its tuned row", merged, prod->nrows);
    drop(tab);
    drop(prod);
}

void eng_rung3_table_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                           const struct eng_rung3_table *t, struct eng_check_result *out)
{
    bool buggy = strcmp(s->variant, "buggy") == 0;
    snprintf(out->oracle, sizeof out->oracle, "tuned-table");
    snprintf(out->shape, sizeof out->shape, "%s", s->baseline ? "each table alone"
                                                              : eng_r7_base(t->merged[buggy]));
    char err[512];
    size_t len;
    char *text = eng_suite_file_read(m, t->schema, &len, err, sizeof err);
    struct cfg_schema schema;
    if (!text || cfg_schema_parse(text, len, t->schema, &schema, err, sizeof err) != 0) {
        out->verdict = CDB_ERROR;
        snprintf(out->detail, sizeof out->detail, "setup: %s", err);
        free(text);
        return;
    }
    free(text);
    if (s->baseline)
        tables_alone(m, t, &schema, out);
    else
        merged_table(m, t->merged[buggy], t->production, &schema, out);
    char *clean = text_sanitize(out->detail, false);
    snprintf(out->detail, sizeof out->detail, "%s", clean);
    free(clean);
    cfg_schema_free(&schema);
}
