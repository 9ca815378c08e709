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
#include "engine/rungs/finding_list.h"
#include "engine/rungs/rung3.h"
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
        if (!eng_suite_paths(p, v, f, both))
            return false;
        *dst[k] = both[0];
        free(both[1]);
    }
    if (!eng_suite_paths(p, cJSON_GetObjectItemCaseSensitive(j, "merged"),
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
        if (cJSON_IsObject(it) || !eng_suite_paths(p, it, f, both))
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
    size_t first = *b->n;
    eng_plan_add(b, "tuned-table", ENG_MODE_PLAIN, false, &none, 1, 0, 0);
    if (b->o->baseline)
        eng_plan_add(b, "unit-test-tables", ENG_MODE_PLAIN, true, &none, 1, 0, 0);
    eng_plan_set_kind(b, first, ENG_CHECK_TABLE, NULL);
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
    struct cfg_report r = {say_line, &said, 0, 0};
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

/* The finding, what it costs first (the run view's row shows its start): how many production
 * shapes run untuned and how many problems the table has, then the first of each. */
static void write_finding(struct eng_check_result *out, const char *merged, const char *production,
                          size_t nshapes, const struct cfg_report *rc,
                          const struct finding_list *cells, const struct cfg_report *rs,
                          const struct finding_list *shapes, size_t differ)
{
    char c[640] = "", p[480] = "";
    if (rc->problems)
        finding_list_write(cells, FINDING_KINDS, c, sizeof c);
    if (rs->missing)
        finding_list_write(shapes, 2, p, sizeof p);
    int w = snprintf(out->detail, sizeof out->detail, "%zu of %zu production shapes find no tuned "
                     "row; %zu problem%s as the dispatch reads %s%s%s", rs->missing, nshapes,
                     rc->problems, rc->problems == 1 ? "" : "s", merged, c[0] ? ": " : "", c);
    if (p[0] && w > 0 && (size_t)w < sizeof out->detail)
        w += snprintf(out->detail + w, sizeof out->detail - (size_t)w, ". Untuned (%s): %s",
                      production, p);
    if (differ && w > 0 && (size_t)w + 80 < sizeof out->detail)
        snprintf(out->detail + w, sizeof out->detail - (size_t)w, ". %zu found with other values",
                 differ);
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
    /* Counts and the first few of each list: a merge of real tables damages hundreds of
     * cells, and the finding must say how many and show the first ones whole. */
    struct finding_list cells = {.path = merged},
                        shapes = {.path = production, .prefix = "the lookup finds no row ",
                                  .suffix = NULL};
    char in[600];
    snprintf(in, sizeof in, " in %s", merged);
    shapes.suffix = in;
    struct cfg_report rc = {finding_list_say, &cells, 0, 0}, rs = {finding_list_say, &shapes, 0, 0};
    cfg_check_table(s, tab, merged, &rc);
    cfg_check_lookup(s, prod, production, tab, merged, &rs);
    /* The lookup names 20 missing rows at most; the rest are "more" all the same. */
    size_t listed = 0;
    for (size_t k = 0; k < shapes.nkinds; k++)
        listed += shapes.kind[k].count;
    shapes.past = rs.missing > listed ? rs.missing - listed : 0;
    /* Lookup problems that are not a missing row: a row found with other values. The lookup
     * said 20 missing rows at most, and one line more for the rest. */
    size_t said = rs.missing > 20 ? 21 : rs.missing;
    size_t differ = rs.problems > said ? rs.problems - said : 0;
    out->bad_count = (int64_t)(rc.problems + rs.missing + differ);
    out->verdict = out->bad_count ? CDB_FAIL : CDB_PASS;
    if (out->bad_count)
        write_finding(out, merged, production, prod->nrows, &rc, &cells, &rs, &shapes, differ);
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
                                                              : eng_suite_path_base(t->merged[buggy]));
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
