/* A case back as the JSON object of data/cases.json: what `cases --json` and `show --json` print,
 * and what a round trip through import must reproduce. */
#include <cJSON.h>

#include "importers/case_index.h"

static cJSON *str_or_null(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *strv(char *const *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
    return a;
}

cJSON *imp_case_to_json(const struct cdb_case *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", c->id);
    cJSON_AddStringToObject(o, "repo", c->repo);
    cJSON *refs = cJSON_AddArrayToObject(o, "refs");
    for (size_t i = 0; i < c->n_refs; i++) {
        const struct cdb_ref *r = &c->refs[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "ref", r->ref);
        cJSON_AddStringToObject(j, "repo", r->repo);
        cJSON_AddNumberToObject(j, "number", r->number);
        cJSON_AddStringToObject(j, "url", r->url);
        cJSON_AddItemToObject(j, "kind", str_or_null(r->kind));
        cJSON_AddItemToObject(j, "state", str_or_null(r->state));
        cJSON_AddItemToObject(j, "date", str_or_null(r->date));
        cJSON_AddItemToObject(j, "title", str_or_null(r->title));
        cJSON_AddBoolToObject(j, "verified", r->verified);
        cJSON_AddItemToArray(refs, j);
    }
    cJSON_AddStringToObject(o, "arch", c->arch);
    cJSON_AddNumberToObject(o, "gap", c->gap);
    cJSON *gaps = cJSON_AddArrayToObject(o, "gaps"); /* CreateIntArray gives NULL when empty */
    for (size_t i = 0; i < c->n_gaps; i++)
        cJSON_AddItemToArray(gaps, cJSON_CreateNumber(c->gaps[i]));
    cJSON_AddNumberToObject(o, "rung", c->rung);
    cJSON_AddItemToObject(o, "symptoms", strv(c->symptoms, c->n_symptoms));
    cJSON_AddItemToObject(o, "models", strv(c->models, c->n_models));
    cJSON *figs = cJSON_AddArrayToObject(o, "figures");
    for (size_t i = 0; i < c->n_figures; i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "value", c->figures[i].value);
        cJSON_AddStringToObject(j, "label_en", c->figures[i].label_en);
        cJSON_AddStringToObject(j, "label_zh", c->figures[i].label_zh);
        cJSON_AddItemToArray(figs, j);
    }
    cJSON *rates = cJSON_AddArrayToObject(o, "rates");
    for (size_t i = 0; i < c->n_rates; i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "failures", c->rates[i].failures);
        cJSON_AddNumberToObject(j, "trials", c->rates[i].trials);
        cJSON_AddStringToObject(j, "label_en", c->rates[i].label_en);
        cJSON_AddStringToObject(j, "label_zh", c->rates[i].label_zh);
        cJSON_AddItemToArray(rates, j);
    }
    cJSON_AddStringToObject(o, "catch_en", c->catch_en);
    cJSON_AddStringToObject(o, "catch_zh", c->catch_zh);
    cJSON_AddStringToObject(o, "title_en", c->title_en);
    cJSON_AddStringToObject(o, "title_zh", c->title_zh);
    cJSON_AddStringToObject(o, "summary_en", c->summary_en);
    cJSON_AddStringToObject(o, "summary_zh", c->summary_zh);
    cJSON_AddItemToObject(o, "related", strv(c->related, c->n_related));
    cJSON_AddItemToObject(o, "reproducer", str_or_null(c->reproducer));
    cJSON_AddItemToObject(o, "notes", str_or_null(c->notes));
    cJSON_AddBoolToObject(o, "verified", c->verified);
    return o;
}
