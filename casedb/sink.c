/* The case-index sink: one import replaces the whole index inside one transaction. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/cdb_internal.h"
#include "casedb/results.h"
#include "casedb/sink.h"
#include "common/xalloc.h"

static int run(struct cdb *db, sqlite3_stmt *st, const char *what, char *err, size_t errlen)
{
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
        cdb_fail(db, what, err, errlen);
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

static int prep(struct cdb *db, const char *sql, sqlite3_stmt **st, char *err, size_t errlen)
{
    if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK)
        return cdb_fail(db, "preparing an import statement", err, errlen);
    return 0;
}

static int cases_begin(struct cdb_sink *s, char *err, size_t errlen)
{
    if (cdb_tx_begin(s->db, err, errlen) != 0)
        return -1;
    /* Children go by ON DELETE CASCADE; the search index is a separate table. */
    if (cdb_exec(s->db,
                 "DELETE FROM case_fts; DELETE FROM cases; DELETE FROM rung_closes;"
                 "DELETE FROM rungs; DELETE FROM gaps;",
                 err, errlen) != 0) {
        cdb_tx_rollback(s->db);
        return -1;
    }
    return 0;
}

static int cases_put_gap(struct cdb_sink *s, const struct cdb_gap *g, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (prep(s->db,
             "INSERT INTO gaps (n, key, name_en, name_zh, summary_en, summary_zh) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
             &st, err, errlen) != 0)
        return -1;
    sqlite3_bind_int(st, 1, g->n);
    cdb_bind_text(st, 2, g->key);
    cdb_bind_text(st, 3, g->name_en);
    cdb_bind_text(st, 4, g->name_zh);
    cdb_bind_text(st, 5, g->summary_en);
    cdb_bind_text(st, 6, g->summary_zh);
    return run(s->db, st, "storing a gap", err, errlen);
}

static int cases_put_rung(struct cdb_sink *s, const struct cdb_rung *r, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (prep(s->db,
             "INSERT INTO rungs (n, key, name_en, name_zh, runs_en, runs_zh) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
             &st, err, errlen) != 0)
        return -1;
    sqlite3_bind_int(st, 1, r->n);
    cdb_bind_text(st, 2, r->key);
    cdb_bind_text(st, 3, r->name_en);
    cdb_bind_text(st, 4, r->name_zh);
    cdb_bind_text(st, 5, r->runs_en);
    cdb_bind_text(st, 6, r->runs_zh);
    if (run(s->db, st, "storing a rung", err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < r->n_closes; i++) {
        if (prep(s->db, "INSERT INTO rung_closes (rung, gap) VALUES (?1, ?2)", &st, err, errlen))
            return -1;
        sqlite3_bind_int(st, 1, r->n);
        sqlite3_bind_int(st, 2, r->closes[i]);
        if (run(s->db, st, "storing the gaps a rung closes", err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* Appends s and a separator to the growing search body. */
static void body_add(char **body, size_t *len, const char *s)
{
    if (!s)
        return;
    size_t n = strlen(s);
    *body = xrealloc(*body, *len + n + 2);
    memcpy(*body + *len, s, n);
    (*body)[*len + n] = '\n';
    *len += n + 1;
    (*body)[*len] = '\0';
}

static int put_strings(struct cdb *db, const char *sql, const char *id, char *const *v, size_t n,
                       const char *what, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        sqlite3_stmt *st;
        if (prep(db, sql, &st, err, errlen) != 0)
            return -1;
        sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, (int)i);
        cdb_bind_text(st, 3, v[i]);
        if (run(db, st, what, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* The case's own row in cases. */
static int put_case_row(struct cdb *db, const struct cdb_case *c, const char *what, char *err,
                        size_t errlen)
{
    sqlite3_stmt *st;
    if (prep(db,
             "INSERT INTO cases (id, repo, arch, gap, rung, title_en, title_zh, summary_en, "
             "summary_zh, catch_en, catch_zh, notes, reproducer, verified) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
             &st, err, errlen) != 0)
        return -1;
    cdb_bind_text(st, 1, c->id);
    cdb_bind_text(st, 2, c->repo);
    cdb_bind_text(st, 3, c->arch);
    sqlite3_bind_int(st, 4, c->gap);
    sqlite3_bind_int(st, 5, c->rung);
    cdb_bind_text(st, 6, c->title_en);
    cdb_bind_text(st, 7, c->title_zh);
    cdb_bind_text(st, 8, c->summary_en);
    cdb_bind_text(st, 9, c->summary_zh);
    cdb_bind_text(st, 10, c->catch_en);
    cdb_bind_text(st, 11, c->catch_zh);
    cdb_bind_text(st, 12, c->notes);
    cdb_bind_text(st, 13, c->reproducer);
    sqlite3_bind_int(st, 14, c->verified);
    return run(db, st, what, err, errlen);
}

/* Its gaps, then its symptoms, models and related cases, in order. */
static int put_case_lists(struct cdb *db, const struct cdb_case *c, const char *what, char *err,
                          size_t errlen)
{
    for (size_t i = 0; i < c->n_gaps; i++) {
        sqlite3_stmt *st;
        if (prep(db, "INSERT INTO case_gaps (case_id, gap) VALUES (?1, ?2)", &st, err, errlen))
            return -1;
        sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, c->gaps[i]);
        if (run(db, st, what, err, errlen) != 0)
            return -1;
    }
    if (put_strings(db, "INSERT INTO case_symptoms (case_id, ord, tag) VALUES (?1, ?2, ?3)", c->id,
                    c->symptoms, c->n_symptoms, what, err, errlen) ||
        put_strings(db, "INSERT INTO case_models (case_id, ord, model) VALUES (?1, ?2, ?3)", c->id,
                    c->models, c->n_models, what, err, errlen) ||
        put_strings(db, "INSERT INTO case_related (case_id, ord, related) VALUES (?1, ?2, ?3)",
                    c->id, c->related, c->n_related, what, err, errlen))
        return -1;
    return 0;
}

/* Its references (issues, pull requests, commits), in order. */
static int put_case_refs(struct cdb *db, const struct cdb_case *c, const char *what, char *err,
                         size_t errlen)
{
    for (size_t i = 0; i < c->n_refs; i++) {
        const struct cdb_ref *r = &c->refs[i];
        sqlite3_stmt *st;
        if (prep(db,
                 "INSERT INTO case_refs (case_id, ord, ref, repo, number, url, kind, state, date, "
                 "title, verified) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                 &st, err, errlen))
            return -1;
        sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, (int)i);
        cdb_bind_text(st, 3, r->ref);
        cdb_bind_text(st, 4, r->repo);
        sqlite3_bind_int(st, 5, r->number);
        cdb_bind_text(st, 6, r->url);
        cdb_bind_text(st, 7, r->kind);
        cdb_bind_text(st, 8, r->state);
        cdb_bind_text(st, 9, r->date);
        cdb_bind_text(st, 10, r->title);
        sqlite3_bind_int(st, 11, r->verified);
        if (run(db, st, what, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* Its figures and failure rates, in order. */
static int put_case_numbers(struct cdb *db, const struct cdb_case *c, const char *what,
                            char *err, size_t errlen)
{
    sqlite3_stmt *st;
    for (size_t i = 0; i < c->n_figures; i++) {
        const struct cdb_figure *f = &c->figures[i];
        if (prep(db,
                 "INSERT INTO case_figures (case_id, ord, value, label_en, label_zh) "
                 "VALUES (?1, ?2, ?3, ?4, ?5)",
                 &st, err, errlen))
            return -1;
        sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, (int)i);
        cdb_bind_text(st, 3, f->value);
        cdb_bind_text(st, 4, f->label_en);
        cdb_bind_text(st, 5, f->label_zh);
        if (run(db, st, what, err, errlen) != 0)
            return -1;
    }
    for (size_t i = 0; i < c->n_rates; i++) {
        const struct cdb_rate *r = &c->rates[i];
        if (prep(db,
                 "INSERT INTO case_rates (case_id, ord, failures, trials, label_en, label_zh) "
                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                 &st, err, errlen))
            return -1;
        sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, (int)i);
        sqlite3_bind_double(st, 3, r->failures);
        sqlite3_bind_double(st, 4, r->trials);
        cdb_bind_text(st, 5, r->label_en);
        cdb_bind_text(st, 6, r->label_zh);
        if (run(db, st, what, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* Its row of the search index: every text a search may match, one per line. */
static int put_case_search(struct cdb *db, const struct cdb_case *c, const char *what, char *err,
                           size_t errlen)
{
    char *body = NULL;
    size_t blen = 0;
    body_add(&body, &blen, c->id);
    body_add(&body, &blen, c->arch);
    for (size_t i = 0; i < c->n_refs; i++) {
        body_add(&body, &blen, c->refs[i].ref);
        body_add(&body, &blen, c->refs[i].title);
    }
    body_add(&body, &blen, c->title_en);
    body_add(&body, &blen, c->title_zh);
    body_add(&body, &blen, c->summary_en);
    body_add(&body, &blen, c->summary_zh);
    body_add(&body, &blen, c->catch_en);
    body_add(&body, &blen, c->catch_zh);
    for (size_t i = 0; i < c->n_figures; i++) {
        body_add(&body, &blen, c->figures[i].value);
        body_add(&body, &blen, c->figures[i].label_en);
        body_add(&body, &blen, c->figures[i].label_zh);
    }
    for (size_t i = 0; i < c->n_models; i++)
        body_add(&body, &blen, c->models[i]);
    for (size_t i = 0; i < c->n_symptoms; i++)
        body_add(&body, &blen, c->symptoms[i]);
    sqlite3_stmt *st;
    if (prep(db, "INSERT INTO case_fts (case_id, body) VALUES (?1, ?2)", &st, err, errlen)) {
        free(body);
        return -1;
    }
    sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, body ? body : "", -1, SQLITE_TRANSIENT);
    free(body);
    return run(db, st, what, err, errlen);
}

static int cases_put_case(struct cdb_sink *s, const struct cdb_case *c, char *err, size_t errlen)
{
    struct cdb *db = s->db;
    char what[160];
    snprintf(what, sizeof what, "storing case %s", c->id);
    if (put_case_row(db, c, what, err, errlen) != 0 ||
        put_case_lists(db, c, what, err, errlen) != 0 ||
        put_case_refs(db, c, what, err, errlen) != 0 ||
        put_case_numbers(db, c, what, err, errlen) != 0)
        return -1;
    return put_case_search(db, c, what, err, errlen);
}

static int cases_commit(struct cdb_sink *s, char *err, size_t errlen)
{
    /* The foreign keys of case_gaps/cases → gaps hold only if gaps came first; check the whole
     * import once more before it becomes visible. */
    sqlite3_stmt *st;
    if (prep(s->db, "PRAGMA foreign_key_check", &st, err, errlen) != 0) {
        cdb_tx_rollback(s->db);
        return -1;
    }
    if (sqlite3_step(st) == SQLITE_ROW) {
        snprintf(err, errlen, "import refers to a gap or rung that does not exist (table %s)",
                 (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        cdb_tx_rollback(s->db);
        return -1;
    }
    sqlite3_finalize(st);
    if (cdb_tx_commit(s->db, err, errlen) != 0) {
        cdb_tx_rollback(s->db);
        return -1;
    }
    return 0;
}

static void cases_abort(struct cdb_sink *s)
{
    cdb_tx_rollback(s->db);
}

void cdb_sink_cases_init(struct cdb_sink *s, struct cdb *db)
{
    *s = (struct cdb_sink){
        .db = db,
        .begin = cases_begin,
        .put_gap = cases_put_gap,
        .put_rung = cases_put_rung,
        .put_case = cases_put_case,
        .commit = cases_commit,
        .abort = cases_abort,
    };
}
