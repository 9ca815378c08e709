/* Reading the case index: filtered queries, one case, gaps, rungs, facet counts. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/cdb_internal.h"
#include "common/xalloc.h"

static int load_children(struct cdb *db, struct cdb_case *c, char *err, size_t errlen)
{
    static const char *const sql[] = {
        "SELECT gap FROM case_gaps WHERE case_id = ?1 ORDER BY gap",
        "SELECT tag FROM case_symptoms WHERE case_id = ?1 ORDER BY ord",
        "SELECT model FROM case_models WHERE case_id = ?1 ORDER BY ord",
        "SELECT ref, repo, number, url, kind, state, date, title, verified FROM case_refs "
        "WHERE case_id = ?1 ORDER BY ord",
        "SELECT value, label_en, label_zh FROM case_figures WHERE case_id = ?1 ORDER BY ord",
        "SELECT failures, trials, label_en, label_zh FROM case_rates WHERE case_id = ?1 ORDER BY ord",
        "SELECT related FROM case_related WHERE case_id = ?1 ORDER BY ord",
    };
    for (size_t q = 0; q < sizeof sql / sizeof sql[0]; q++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db->h, sql[q], -1, &st, NULL) != SQLITE_OK)
            return cdb_fail(db, "loading a case", err, errlen);
        sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
        size_t n = 0, cap = 0;
        void *arr = NULL;
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            static const size_t elem[] = {sizeof(int), sizeof(char *), sizeof(char *),
                                          sizeof(struct cdb_ref), sizeof(struct cdb_figure),
                                          sizeof(struct cdb_rate), sizeof(char *)};
            if (n == cap) {
                cap = cap ? cap * 2 : 4;
                arr = xrealloc(arr, cap * elem[q]);
            }
            switch (q) {
            case 0:
                ((int *)arr)[n] = sqlite3_column_int(st, 0);
                break;
            case 1:
            case 2:
            case 6:
                ((char **)arr)[n] = cdb_col_strdup(st, 0);
                break;
            case 3: {
                struct cdb_ref *r = &((struct cdb_ref *)arr)[n];
                r->ref = cdb_col_strdup(st, 0);
                r->repo = cdb_col_strdup(st, 1);
                r->number = sqlite3_column_int(st, 2);
                r->url = cdb_col_strdup(st, 3);
                r->kind = cdb_col_strdup(st, 4);
                r->state = cdb_col_strdup(st, 5);
                r->date = cdb_col_strdup(st, 6);
                r->title = cdb_col_strdup(st, 7);
                r->verified = sqlite3_column_int(st, 8) != 0;
                break;
            }
            case 4: {
                struct cdb_figure *f = &((struct cdb_figure *)arr)[n];
                f->value = cdb_col_strdup(st, 0);
                f->label_en = cdb_col_strdup(st, 1);
                f->label_zh = cdb_col_strdup(st, 2);
                break;
            }
            case 5: {
                struct cdb_rate *r = &((struct cdb_rate *)arr)[n];
                r->failures = sqlite3_column_double(st, 0);
                r->trials = sqlite3_column_double(st, 1);
                r->label_en = cdb_col_strdup(st, 2);
                r->label_zh = cdb_col_strdup(st, 3);
                break;
            }
            }
            n++;
        }
        sqlite3_finalize(st);
        switch (q) {
        case 0: c->gaps = arr, c->n_gaps = n; break;
        case 1: c->symptoms = arr, c->n_symptoms = n; break;
        case 2: c->models = arr, c->n_models = n; break;
        case 3: c->refs = arr, c->n_refs = n; break;
        case 4: c->figures = arr, c->n_figures = n; break;
        case 5: c->rates = arr, c->n_rates = n; break;
        case 6: c->related = arr, c->n_related = n; break;
        }
        if (rc != SQLITE_DONE)
            return cdb_fail(db, "loading a case", err, errlen);
    }
    return 0;
}

static void case_from_row(sqlite3_stmt *st, struct cdb_case *c)
{
    memset(c, 0, sizeof *c);
    c->id = cdb_col_strdup(st, 0);
    c->repo = cdb_col_strdup(st, 1);
    c->arch = cdb_col_strdup(st, 2);
    c->gap = sqlite3_column_int(st, 3);
    c->rung = sqlite3_column_int(st, 4);
    c->title_en = cdb_col_strdup(st, 5);
    c->title_zh = cdb_col_strdup(st, 6);
    c->summary_en = cdb_col_strdup(st, 7);
    c->summary_zh = cdb_col_strdup(st, 8);
    c->catch_en = cdb_col_strdup(st, 9);
    c->catch_zh = cdb_col_strdup(st, 10);
    c->notes = cdb_col_strdup(st, 11);
    c->reproducer = cdb_col_strdup(st, 12);
    c->verified = sqlite3_column_int(st, 13) != 0;
}

#define CASE_COLUMNS                                                                            \
    "c.id, c.repo, c.arch, c.gap, c.rung, c.title_en, c.title_zh, c.summary_en, c.summary_zh, " \
    "c.catch_en, c.catch_zh, c.notes, c.reproducer, c.verified"

/* A LIKE pattern matching term anywhere, with LIKE's wildcards escaped. */
static char *like_pattern(const char *term, size_t len)
{
    char *p = xmalloc(len * 2 + 3), *o = p;
    *o++ = '%';
    for (size_t i = 0; i < len; i++) {
        if (term[i] == '%' || term[i] == '_' || term[i] == '\\')
            *o++ = '\\';
        *o++ = term[i];
    }
    *o++ = '%';
    *o = '\0';
    return p;
}

int cdb_cases_query(struct cdb *db, const struct cdb_case_filter *f, struct cdb_case_list *out,
                    char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t cap = 1024;
    char *sql = xmalloc(cap);
    int len = snprintf(sql, cap, "SELECT " CASE_COLUMNS " FROM cases c WHERE 1");
    char *binds[64];
    size_t nb = 0;
    if (f && f->gap)
        len += snprintf(sql + len, cap - (size_t)len, " AND c.gap = %d", f->gap);
    if (f && f->rung)
        len += snprintf(sql + len, cap - (size_t)len, " AND c.rung = %d", f->rung);
    if (f && f->repo && *f->repo) {
        len += snprintf(sql + len, cap - (size_t)len, " AND c.repo = ?%zu", nb + 1);
        binds[nb++] = xstrdup(f->repo);
    }
    if (f && f->mentions && *f->mentions) {
        len += snprintf(sql + len, cap - (size_t)len,
                        " AND EXISTS (SELECT 1 FROM case_refs r WHERE r.case_id = c.id AND r.repo = ?%zu)",
                        nb + 1);
        binds[nb++] = xstrdup(f->mentions);
    }
    if (f && f->symptom && *f->symptom) {
        len += snprintf(sql + len, cap - (size_t)len,
                        " AND EXISTS (SELECT 1 FROM case_symptoms s WHERE s.case_id = c.id AND s.tag = ?%zu)",
                        nb + 1);
        binds[nb++] = xstrdup(f->symptom);
    }
    if (f && f->search) {
        /* Every whitespace-separated term must occur; LIKE over the trigram index also finds
         * terms shorter than three characters (a single Chinese character such as 挂). */
        const char *s = f->search;
        while (*s && nb < 60) {
            while (*s == ' ' || *s == '\t')
                s++;
            size_t tl = strcspn(s, " \t");
            if (tl == 0)
                break;
            if ((size_t)len + 200 > cap)
                sql = xrealloc(sql, cap *= 2);
            len += snprintf(sql + len, cap - (size_t)len,
                            " AND c.id IN (SELECT case_id FROM case_fts WHERE body LIKE ?%zu ESCAPE '\\')",
                            nb + 1);
            binds[nb++] = like_pattern(s, tl);
            s += tl;
        }
    }
    snprintf(sql + len, cap - (size_t)len, " ORDER BY c.gap, c.rung, c.id");

    sqlite3_stmt *st;
    int rc = -1;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
        cdb_fail(db, "querying cases", err, errlen);
        goto done;
    }
    for (size_t i = 0; i < nb; i++)
        sqlite3_bind_text(st, (int)i + 1, binds[i], -1, SQLITE_STATIC);
    size_t lcap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->n == lcap) {
            lcap = lcap ? lcap * 2 : 32;
            out->items = xrealloc(out->items, lcap * sizeof *out->items);
        }
        case_from_row(st, &out->items[out->n++]);
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) {
        cdb_fail(db, "querying cases", err, errlen);
        goto done;
    }
    for (size_t i = 0; i < out->n; i++)
        if (load_children(db, &out->items[i], err, errlen) != 0)
            goto done;
    rc = 0;
done:
    for (size_t i = 0; i < nb; i++)
        free(binds[i]);
    free(sql);
    if (rc != 0)
        cdb_case_list_free(out);
    return rc;
}

int cdb_case_get(struct cdb *db, const char *id, struct cdb_case *out, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT " CASE_COLUMNS " FROM cases c WHERE c.id = ?1", -1, &st,
                           NULL) != SQLITE_OK)
        return cdb_fail(db, "loading a case", err, errlen);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return rc == SQLITE_DONE ? 0 : cdb_fail(db, "loading a case", err, errlen);
    }
    case_from_row(st, out);
    sqlite3_finalize(st);
    if (load_children(db, out, err, errlen) != 0) {
        cdb_case_free(out);
        return -1;
    }
    return 1;
}

void cdb_case_list_free(struct cdb_case_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        cdb_case_free(&l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

int cdb_gaps_load(struct cdb *db, struct cdb_gap **out, size_t *n, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT n, key, name_en, name_zh, summary_en, summary_zh FROM gaps ORDER BY n",
                           -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "loading gaps", err, errlen);
    while (sqlite3_step(st) == SQLITE_ROW) {
        *out = xrealloc(*out, (*n + 1) * sizeof **out);
        struct cdb_gap *g = &(*out)[(*n)++];
        g->n = sqlite3_column_int(st, 0);
        g->key = cdb_col_strdup(st, 1);
        g->name_en = cdb_col_strdup(st, 2);
        g->name_zh = cdb_col_strdup(st, 3);
        g->summary_en = cdb_col_strdup(st, 4);
        g->summary_zh = cdb_col_strdup(st, 5);
    }
    sqlite3_finalize(st);
    return 0;
}

int cdb_rungs_load(struct cdb *db, struct cdb_rung **out, size_t *n, char *err, size_t errlen)
{
    sqlite3_stmt *st, *cl;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT n, key, name_en, name_zh, runs_en, runs_zh FROM rungs ORDER BY n",
                           -1, &st, NULL) != SQLITE_OK)
        return cdb_fail(db, "loading rungs", err, errlen);
    if (sqlite3_prepare_v2(db->h, "SELECT gap FROM rung_closes WHERE rung = ?1 ORDER BY gap", -1,
                           &cl, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return cdb_fail(db, "loading rungs", err, errlen);
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        *out = xrealloc(*out, (*n + 1) * sizeof **out);
        struct cdb_rung *r = &(*out)[(*n)++];
        memset(r, 0, sizeof *r);
        r->n = sqlite3_column_int(st, 0);
        r->key = cdb_col_strdup(st, 1);
        r->name_en = cdb_col_strdup(st, 2);
        r->name_zh = cdb_col_strdup(st, 3);
        r->runs_en = cdb_col_strdup(st, 4);
        r->runs_zh = cdb_col_strdup(st, 5);
        sqlite3_bind_int(cl, 1, r->n);
        while (sqlite3_step(cl) == SQLITE_ROW) {
            r->closes = xrealloc(r->closes, (r->n_closes + 1) * sizeof *r->closes);
            r->closes[r->n_closes++] = sqlite3_column_int(cl, 0);
        }
        sqlite3_reset(cl);
    }
    sqlite3_finalize(cl);
    sqlite3_finalize(st);
    return 0;
}

static void facet_add(struct cdb_facet **out, size_t *n, const char *value)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*out)[i].value, value) == 0) {
            (*out)[i].count++;
            return;
        }
    *out = xrealloc(*out, (*n + 1) * sizeof **out);
    (*out)[*n].value = xstrdup(value);
    (*out)[*n].count = 1;
    (*n)++;
}

static int facet_cmp(const void *a, const void *b)
{
    const struct cdb_facet *x = a, *y = b;
    size_t lx = strlen(x->value), ly = strlen(y->value);
    /* numbers sort numerically ("2" before "10"), names alphabetically */
    if (lx != ly && x->value[0] >= '0' && x->value[0] <= '9')
        return lx < ly ? -1 : 1;
    return strcmp(x->value, y->value);
}

int cdb_facets(struct cdb *db, enum cdb_facet_kind kind, const struct cdb_case_filter *f,
               struct cdb_facet **out, size_t *n, char *err, size_t errlen)
{
    /* Counts "under the other filters": the facet's own filter is left out, so the sidebar
     * shows what choosing another value would give. */
    struct cdb_case_filter other = f ? *f : (struct cdb_case_filter){0};
    switch (kind) {
    case CDB_FACET_GAP: other.gap = 0; break;
    case CDB_FACET_RUNG: other.rung = 0; break;
    case CDB_FACET_REPO: other.repo = NULL; break;
    case CDB_FACET_SYMPTOM: other.symptom = NULL; break;
    }
    struct cdb_case_list l;
    *out = NULL;
    *n = 0;
    if (cdb_cases_query(db, &other, &l, err, errlen) != 0)
        return -1;
    char num[16];
    for (size_t i = 0; i < l.n; i++) {
        struct cdb_case *c = &l.items[i];
        switch (kind) {
        case CDB_FACET_GAP:
            snprintf(num, sizeof num, "%d", c->gap);
            facet_add(out, n, num);
            break;
        case CDB_FACET_RUNG:
            snprintf(num, sizeof num, "%d", c->rung);
            facet_add(out, n, num);
            break;
        case CDB_FACET_REPO:
            /* the case's own repository, as the repo filter matches: the counts add up to the
             * number of cases */
            facet_add(out, n, c->repo);
            break;
        case CDB_FACET_SYMPTOM:
            for (size_t s = 0; s < c->n_symptoms; s++)
                facet_add(out, n, c->symptoms[s]);
            break;
        }
    }
    cdb_case_list_free(&l);
    if (*n)
        qsort(*out, *n, sizeof **out, facet_cmp);
    return 0;
}

void cdb_facets_free(struct cdb_facet *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(f[i].value);
    free(f);
}
