#include "casedb/case.h"

#include <stdlib.h>
#include <string.h>

const char *const cdb_symptom_tags[] = {
    "garbage-tokens", "nan",          "hang",       "stale-data",       "wrong-values",
    "wrong-values-tail", "zeros",     "crash",      "compile-error",    "silent-slow-path",
    "silent-no-op",   "flaky",        "ci-false-pass", "perf-variance", "test-oracle-wrong",
    NULL,
};

bool cdb_symptom_known(const char *tag)
{
    for (const char *const *t = cdb_symptom_tags; *t; t++)
        if (strcmp(*t, tag) == 0)
            return true;
    return false;
}

static void free_strv(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void cdb_case_free(struct cdb_case *c)
{
    if (!c)
        return;
    free(c->id);
    free(c->repo);
    free(c->arch);
    free(c->gaps);
    free_strv(c->symptoms, c->n_symptoms);
    free_strv(c->models, c->n_models);
    for (size_t i = 0; i < c->n_refs; i++) {
        struct cdb_ref *r = &c->refs[i];
        free(r->ref), free(r->repo), free(r->url), free(r->kind), free(r->state);
        free(r->date), free(r->title);
    }
    free(c->refs);
    for (size_t i = 0; i < c->n_figures; i++)
        free(c->figures[i].value), free(c->figures[i].label_en), free(c->figures[i].label_zh);
    free(c->figures);
    for (size_t i = 0; i < c->n_rates; i++)
        free(c->rates[i].label_en), free(c->rates[i].label_zh);
    free(c->rates);
    free_strv(c->related, c->n_related);
    free(c->title_en), free(c->title_zh), free(c->summary_en), free(c->summary_zh);
    free(c->catch_en), free(c->catch_zh), free(c->notes), free(c->reproducer);
    memset(c, 0, sizeof *c);
}

void cdb_gap_free(struct cdb_gap *g)
{
    if (!g)
        return;
    free(g->key), free(g->name_en), free(g->name_zh), free(g->summary_en), free(g->summary_zh);
    memset(g, 0, sizeof *g);
}

void cdb_rung_free(struct cdb_rung *r)
{
    if (!r)
        return;
    free(r->key), free(r->name_en), free(r->name_zh), free(r->runs_en), free(r->runs_zh);
    free(r->closes);
    memset(r, 0, sizeof *r);
}
