#include "importers/case_index.h"

#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "casedb/results.h"
#include "casedb/sink.h"
#include "common/hash.h"
#include "common/embed.h"
#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "importers/json_util.h"

/* Where an error is: file, and the case (id or index) when inside one. */
struct where {
    const char *file;
    const char *what; /* "case", "gap", "rung" */
    const char *id;   /* may be NULL before the id is known */
    int index;
    char *err;
    size_t errlen;
};

__attribute__((format(printf, 3, 4))) static int fail(const struct where *w, const char *field,
                                                       const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *id = w->id ? text_sanitize(w->id, false) : NULL;
    if (w->what && id)
        snprintf(w->err, w->errlen, "%s: %s '%s' (#%d): field '%s': %s", w->file, w->what, id,
                 w->index + 1, field, msg);
    else if (w->what)
        snprintf(w->err, w->errlen, "%s: %s #%d: field '%s': %s", w->file, w->what, w->index + 1,
                 field, msg);
    else
        snprintf(w->err, w->errlen, "%s: field '%s': %s", w->file, field, msg);
    free(id);
    return -1;
}

/* Rejects keys not in `allowed` and keys given twice (a hostile file could hide a second value
 * behind the first). */
static int check_keys(const struct where *w, const cJSON *obj, const char *const *allowed)
{
    for (const cJSON *a = obj->child; a; a = a->next) {
        bool ok = false;
        for (const char *const *k = allowed; *k; k++)
            ok |= strcmp(a->string, *k) == 0;
        if (!ok) {
            char *name = text_fit(a->string, 40, true, NULL);
            int rc = fail(w, name, "is not a known field");
            free(name);
            return rc;
        }
        for (const cJSON *b = a->next; b; b = b->next)
            if (strcmp(a->string, b->string) == 0)
                return fail(w, a->string, "appears more than once");
    }
    for (const char *const *k = allowed; *k; k++)
        if (!cJSON_GetObjectItemCaseSensitive(obj, *k))
            return fail(w, *k, "is required");
    return 0;
}

/* A string field: required non-empty (nullable = false) or string-or-null. */
static int get_str(const struct where *w, const cJSON *obj, const char *field, bool nullable,
                   bool multiline, size_t maxlen, char **out)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, field);
    *out = NULL;
    if (nullable && cJSON_IsNull(j))
        return 0;
    if (!cJSON_IsString(j))
        return fail(w, field, "expected %s, got %s", nullable ? "a string or null" : "a string",
                    imp_json_type_name(j));
    size_t len = strlen(j->valuestring);
    if (len == 0)
        return fail(w, field, "expected a non-empty string");
    if (len > maxlen)
        return fail(w, field, "expected at most %zu bytes, got %zu", maxlen, len);
    if (!text_is_clean(j->valuestring, multiline ? "\n" : NULL))
        return fail(w, field, "contains a control character or invalid UTF-8 (%s)",
                    multiline ? "only newlines are allowed" : "none are allowed");
    *out = xstrdup(j->valuestring);
    return 0;
}

/* A JSON number that is a whole number in [lo, hi]. */
static bool whole_in(const cJSON *j, double lo, double hi)
{
    return cJSON_IsNumber(j) && j->valuedouble >= lo && j->valuedouble <= hi &&
           !(fabs(j->valuedouble - floor(j->valuedouble)) > 0);
}

static int get_int(const struct where *w, const cJSON *obj, const char *field, int lo, int hi,
                   int *out)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (!whole_in(j, lo, hi))
        return fail(w, field, "expected a whole number from %d to %d, got %s", lo, hi,
                    cJSON_IsNumber(j) ? "an out-of-range or fractional number" : imp_json_type_name(j));
    *out = (int)j->valuedouble;
    return 0;
}

static int get_bool(const struct where *w, const cJSON *obj, const char *field, bool *out)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (!cJSON_IsBool(j))
        return fail(w, field, "expected true or false, got %s", imp_json_type_name(j));
    *out = cJSON_IsTrue(j);
    return 0;
}

static int get_array(const struct where *w, const cJSON *obj, const char *field, size_t min,
                     size_t max, const cJSON **out, size_t *n)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (!cJSON_IsArray(j))
        return fail(w, field, "expected an array, got %s", imp_json_type_name(j));
    size_t count = (size_t)cJSON_GetArraySize(j);
    if (count < min || count > max)
        return fail(w, field, "expected %zu to %zu entries, got %zu", min, max, count);
    *out = j;
    *n = count;
    return 0;
}

/* Lower-case word: a repo name. */
static bool is_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
            return false;
    return true;
}

static bool is_date(const char *s)
{
    int y, m, d;
    char tail;
    if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3)
        return false;
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return y >= 2000 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1] &&
           s[4] == '-' && s[7] == '-';
}

static bool in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

static int parse_strv(const struct where *w, const cJSON *obj, const char *field, size_t min,
                      char ***out, size_t *n)
{
    const cJSON *arr;
    *out = NULL;
    *n = 0;
    if (get_array(w, obj, field, min, 64, &arr, n) != 0)
        return -1;
    *out = xcalloc(*n, sizeof **out);
    size_t i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return fail(w, field, "entry %zu: expected a non-empty string, got %s", i + 1,
                        imp_json_type_name(e));
        if (strlen(e->valuestring) > 200 || !text_is_clean(e->valuestring, NULL))
            return fail(w, field, "entry %zu: too long or contains control characters", i + 1);
        for (size_t k = 0; k < i; k++)
            if (strcmp((*out)[k], e->valuestring) == 0)
                return fail(w, field, "entry %zu repeats '%s'", i + 1, (*out)[k]);
        (*out)[i] = xstrdup(e->valuestring);
    }
    return 0;
}

static int parse_ref(const struct where *w, const cJSON *j, size_t i, struct cdb_ref *r)
{
    char field[32];
    snprintf(field, sizeof field, "refs[%zu]", i);
    if (!cJSON_IsObject(j))
        return fail(w, field, "expected an object, got %s", imp_json_type_name(j));
    static const char *const keys[] = {"ref", "repo", "number", "url", "kind", "state",
                                       "date", "title", "verified", NULL};
    struct where sub = *w;
    if (check_keys(&sub, j, keys) != 0) {
        /* re-prefix so the message says which ref */
        char inner[400];
        snprintf(inner, sizeof inner, "%s", w->err);
        snprintf(w->err, w->errlen, "%s (in %s)", inner, field);
        return -1;
    }
    static const char *const kinds[] = {"issue", "pr", NULL};
    static const char *const states[] = {"open", "closed", "merged", "merged-reverted", NULL};
    char f[64];
#define SUB(name) (snprintf(f, sizeof f, "%s.%s", field, name), f)
    if (get_str(w, j, "ref", false, false, 64, &r->ref) ||
        get_str(w, j, "repo", false, false, 32, &r->repo) ||
        get_int(w, j, "number", 1, 99999999, &r->number) ||
        get_str(w, j, "url", false, false, 300, &r->url) ||
        get_str(w, j, "kind", true, false, 16, &r->kind) ||
        get_str(w, j, "state", true, false, 32, &r->state) ||
        get_str(w, j, "date", true, false, 10, &r->date) ||
        get_str(w, j, "title", true, false, 400, &r->title) ||
        get_bool(w, j, "verified", &r->verified))
        return -1;
    if (!is_name(r->repo))
        return fail(w, SUB("repo"), "expected a lower-case repository name, got '%s'", r->repo);
    char expect[64];
    snprintf(expect, sizeof expect, "%s#%d", r->repo, r->number);
    if (strcmp(expect, r->ref) != 0)
        return fail(w, SUB("ref"), "expected '%s' (repo '#' number), got '%s'", expect, r->ref);
    if (strncmp(r->url, "https://", 8) != 0 || strchr(r->url, ' '))
        return fail(w, SUB("url"), "expected an https:// URL without spaces");
    if (r->kind && !in_list(r->kind, kinds))
        return fail(w, SUB("kind"), "expected \"issue\", \"pr\" or null, got '%s'", r->kind);
    if (r->state && !in_list(r->state, states))
        return fail(w, SUB("state"), "expected open, closed, merged, merged-reverted or null");
    if (r->date && !is_date(r->date))
        return fail(w, SUB("date"), "expected a date YYYY-MM-DD or null, got '%s'", r->date);
    if (!r->verified && (r->kind || r->state || r->date || r->title))
        return fail(w, SUB("verified"),
                    "is false, so kind, state, date and title must be null (unconfirmed facts)");
#undef SUB
    return 0;
}

/* "refs": one to 16, none twice; the first names the case (id "repo-number", its repo), and
 * the case is verified exactly when every ref is. */
static int parse_case_refs(const struct where *w, const cJSON *j, struct cdb_case *c)
{
    const cJSON *arr;
    size_t n;
    if (get_array(w, j, "refs", 1, 16, &arr, &n) != 0)
        return -1;
    c->refs = xcalloc(n, sizeof *c->refs);
    for (const cJSON *e = arr->child; e; e = e->next) {
        if (parse_ref(w, e, c->n_refs, &c->refs[c->n_refs]) != 0) {
            c->n_refs++;
            return -1;
        }
        c->n_refs++;
    }
    char expect_id[80];
    snprintf(expect_id, sizeof expect_id, "%s-%d", c->refs[0].repo, c->refs[0].number);
    if (strcmp(c->id, expect_id) != 0)
        return fail(w, "id", "expected '%s' (repo and number of the first ref)", expect_id);
    if (strcmp(c->repo, c->refs[0].repo) != 0)
        return fail(w, "repo", "expected '%s' (the repo of the first ref)", c->refs[0].repo);
    bool all_verified = true;
    for (size_t i = 0; i < c->n_refs; i++) {
        all_verified &= c->refs[i].verified;
        for (size_t k = 0; k < i; k++)
            if (strcmp(c->refs[i].ref, c->refs[k].ref) == 0)
                return fail(w, "refs", "'%s' is listed twice", c->refs[i].ref);
    }
    if (c->verified != all_verified)
        return fail(w, "verified", "expected %s: it must say whether every ref is verified",
                    all_verified ? "true" : "false");
    return 0;
}

/* "gaps": the secondary gaps, each once and none the primary one. */
static int parse_case_gaps(const struct where *w, const cJSON *j, struct cdb_case *c)
{
    const cJSON *arr;
    size_t n;
    if (get_array(w, j, "gaps", 0, CDB_GAPS - 1, &arr, &n) != 0)
        return -1;
    c->gaps = xcalloc(n, sizeof *c->gaps);
    for (const cJSON *e = arr->child; e; e = e->next) {
        if (!whole_in(e, 1, CDB_GAPS))
            return fail(w, "gaps", "expected whole numbers from 1 to 7");
        int g = (int)e->valuedouble;
        if (g == c->gap)
            return fail(w, "gaps", "lists the primary gap %d as a secondary gap", g);
        for (size_t k = 0; k < c->n_gaps; k++)
            if (c->gaps[k] == g)
                return fail(w, "gaps", "lists gap %d twice", g);
        c->gaps[c->n_gaps++] = g;
    }
    return 0;
}

/* "symptoms" (known tags, at least one), "models" and "related". */
static int parse_case_tags(const struct where *w, const cJSON *j, struct cdb_case *c)
{
    if (parse_strv(w, j, "symptoms", 1, &c->symptoms, &c->n_symptoms) != 0)
        return -1;
    for (size_t i = 0; i < c->n_symptoms; i++)
        if (!cdb_symptom_known(c->symptoms[i]))
            return fail(w, "symptoms", "'%s' is not a known symptom tag (see data/schema)",
                        c->symptoms[i]);
    if (parse_strv(w, j, "models", 0, &c->models, &c->n_models) != 0 ||
        parse_strv(w, j, "related", 0, &c->related, &c->n_related) != 0)
        return -1;
    return 0;
}

/* "figures": a value with its labels in both languages. */
static int parse_case_figures(const struct where *w, const cJSON *j, struct cdb_case *c)
{
    const cJSON *arr;
    size_t n;
    if (get_array(w, j, "figures", 0, 32, &arr, &n) != 0)
        return -1;
    c->figures = xcalloc(n, sizeof *c->figures);
    for (const cJSON *e = arr->child; e; e = e->next) {
        static const char *const fk[] = {"value", "label_en", "label_zh", NULL};
        struct cdb_figure *f = &c->figures[c->n_figures++];
        if (!cJSON_IsObject(e))
            return fail(w, "figures", "expected objects, got %s", imp_json_type_name(e));
        if (check_keys(w, e, fk) || get_str(w, e, "value", false, false, 100, &f->value) ||
            get_str(w, e, "label_en", false, false, 400, &f->label_en) ||
            get_str(w, e, "label_zh", false, false, 400, &f->label_zh))
            return -1;
    }
    return 0;
}

/* "rates": failures of trials (0 <= failures <= trials, trials >= 1) with their labels. */
static int parse_case_rates(const struct where *w, const cJSON *j, struct cdb_case *c)
{
    const cJSON *arr;
    size_t n;
    if (get_array(w, j, "rates", 0, 16, &arr, &n) != 0)
        return -1;
    c->rates = xcalloc(n, sizeof *c->rates);
    for (const cJSON *e = arr->child; e; e = e->next) {
        static const char *const rk[] = {"failures", "trials", "label_en", "label_zh", NULL};
        struct cdb_rate *r = &c->rates[c->n_rates++];
        if (!cJSON_IsObject(e))
            return fail(w, "rates", "expected objects, got %s", imp_json_type_name(e));
        if (check_keys(w, e, rk) || get_str(w, e, "label_en", false, false, 400, &r->label_en) ||
            get_str(w, e, "label_zh", false, false, 400, &r->label_zh))
            return -1;
        const cJSON *fj = cJSON_GetObjectItemCaseSensitive(e, "failures");
        const cJSON *tj = cJSON_GetObjectItemCaseSensitive(e, "trials");
        if (!cJSON_IsNumber(fj) || !cJSON_IsNumber(tj) || !(tj->valuedouble >= 1) ||
            !(fj->valuedouble >= 0) || fj->valuedouble > tj->valuedouble ||
            !isfinite(tj->valuedouble))
            return fail(w, "rates", "expected numbers with 0 <= failures <= trials and trials >= 1");
        r->failures = fj->valuedouble;
        r->trials = tj->valuedouble;
    }
    return 0;
}

static int parse_case(struct where *w, const cJSON *j, struct cdb_case *c)
{
    static const char *const keys[] = {
        "id",       "repo",    "refs",     "arch",       "gap",        "gaps",
        "rung",     "symptoms", "models",  "figures",    "rates",      "catch_en",
        "catch_zh", "title_en", "title_zh", "summary_en", "summary_zh", "related",
        "reproducer", "notes", "verified", NULL};
    if (!cJSON_IsObject(j))
        return fail(w, "cases", "expected each case to be an object, got %s", imp_json_type_name(j));
    /* Name the case in messages as early as possible. */
    const cJSON *idj = cJSON_GetObjectItemCaseSensitive(j, "id");
    if (cJSON_IsString(idj) && text_is_clean(idj->valuestring, NULL) &&
        strlen(idj->valuestring) < 64)
        w->id = idj->valuestring;
    if (check_keys(w, j, keys) != 0)
        return -1;
    if (get_str(w, j, "id", false, false, 64, &c->id) ||
        get_str(w, j, "repo", false, false, 32, &c->repo) ||
        get_str(w, j, "arch", false, false, 32, &c->arch) ||
        get_int(w, j, "gap", 1, CDB_GAPS, &c->gap) ||
        get_int(w, j, "rung", 1, CDB_RUNG_MAX, &c->rung) ||
        get_str(w, j, "title_en", false, false, 200, &c->title_en) ||
        get_str(w, j, "title_zh", false, false, 200, &c->title_zh) ||
        get_str(w, j, "summary_en", false, true, IMP_MAX_STRING, &c->summary_en) ||
        get_str(w, j, "summary_zh", false, true, IMP_MAX_STRING, &c->summary_zh) ||
        get_str(w, j, "catch_en", false, true, IMP_MAX_STRING, &c->catch_en) ||
        get_str(w, j, "catch_zh", false, true, IMP_MAX_STRING, &c->catch_zh) ||
        get_str(w, j, "notes", true, true, IMP_MAX_STRING, &c->notes) ||
        get_str(w, j, "reproducer", true, false, 64, &c->reproducer) ||
        get_bool(w, j, "verified", &c->verified))
        return -1;
    if (parse_case_refs(w, j, c) || parse_case_gaps(w, j, c) || parse_case_tags(w, j, c) ||
        parse_case_figures(w, j, c) || parse_case_rates(w, j, c))
        return -1;
    return 0;
}

static int parse_json(const char *text, const char *name, cJSON **out, char *err, size_t errlen)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, true);
    if (!root) {
        /* cJSON points at where parsing stopped: turn it into line and column. */
        int line = 1, col = 1;
        const char *stop = end ? end : cJSON_GetErrorPtr();
        for (const char *p = text; stop && p < stop && *p; p++) {
            if (*p == '\n')
                line++, col = 1;
            else
                col++;
        }
        snprintf(err, errlen, "%s: line %d, column %d: not valid JSON (truncated or malformed)",
                 name, line, col);
        return -1;
    }
    *out = root;
    return 0;
}

static int parse_header(const cJSON *root, const char *name, const char *format, const char *list,
                        const cJSON **items, char *err, size_t errlen)
{
    struct where w = {.file = name, .err = err, .errlen = errlen};
    if (!cJSON_IsObject(root))
        return fail(&w, "(top level)", "expected an object, got %s", imp_json_type_name(root));
    const char *keys[] = {"format", "version", list, NULL};
    if (check_keys(&w, root, keys) != 0)
        return -1;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(f) || strcmp(f->valuestring, format) != 0)
        return fail(&w, "format", "expected \"%s\"", format);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (!whole_in(v, 1, 1))
        return fail(&w, "version", "expected 1 (the only version this kladder reads)");
    *items = cJSON_GetObjectItemCaseSensitive(root, list);
    if (!cJSON_IsArray(*items))
        return fail(&w, list, "expected an array, got %s", imp_json_type_name(*items));
    return 0;
}

static int parse_gaps(const cJSON *root, const char *name, struct imp_index *ix, char *err,
                      size_t errlen)
{
    const cJSON *arr;
    if (parse_header(root, name, "kladder-gaps", "gaps", &arr, err, errlen) != 0)
        return -1;
    struct where w = {.file = name, .what = "gap", .err = err, .errlen = errlen};
    if (cJSON_GetArraySize(arr) != CDB_GAPS)
        return fail(&w, "gaps", "expected exactly 7 gaps, got %d", cJSON_GetArraySize(arr));
    ix->gaps = xcalloc(CDB_GAPS, sizeof *ix->gaps);
    static const char *const keys[] = {"n", "key", "name_en", "name_zh", "summary_en",
                                       "summary_zh", NULL};
    for (const cJSON *e = arr->child; e; e = e->next, w.index++) {
        struct cdb_gap *g = &ix->gaps[ix->n_gaps++];
        if (!cJSON_IsObject(e))
            return fail(&w, "gaps", "expected an object, got %s", imp_json_type_name(e));
        if (check_keys(&w, e, keys) || get_int(&w, e, "n", 1, CDB_GAPS, &g->n) ||
            get_str(&w, e, "key", false, false, 32, &g->key) ||
            get_str(&w, e, "name_en", false, false, 100, &g->name_en) ||
            get_str(&w, e, "name_zh", false, false, 100, &g->name_zh) ||
            get_str(&w, e, "summary_en", false, true, IMP_MAX_STRING, &g->summary_en) ||
            get_str(&w, e, "summary_zh", false, true, IMP_MAX_STRING, &g->summary_zh))
            return -1;
        if (g->n != w.index + 1)
            return fail(&w, "n", "expected %d: gaps are listed in order 1 to 7", w.index + 1);
    }
    return 0;
}

static int parse_rungs(const cJSON *root, const char *name, struct imp_index *ix, char *err,
                       size_t errlen)
{
    const cJSON *arr;
    if (parse_header(root, name, "kladder-rungs", "rungs", &arr, err, errlen) != 0)
        return -1;
    struct where w = {.file = name, .what = "rung", .err = err, .errlen = errlen};
    /* The ladder's rungs, 1 to n in order: eight in the source's ladder; an index may teach
     * a longer one (a rung added to the engine), up to the numbers the database keeps. */
    int count = cJSON_GetArraySize(arr);
    if (count < 1 || count > CDB_RUNG_MAX)
        return fail(&w, "rungs", "expected 1 to %d rungs, got %d", CDB_RUNG_MAX, count);
    ix->rungs = xcalloc((size_t)count, sizeof *ix->rungs);
    static const char *const keys[] = {"n", "key", "name_en", "name_zh", "runs_en",
                                       "runs_zh", "closes", NULL};
    for (const cJSON *e = arr->child; e; e = e->next, w.index++) {
        struct cdb_rung *r = &ix->rungs[ix->n_rungs++];
        if (!cJSON_IsObject(e))
            return fail(&w, "rungs", "expected an object, got %s", imp_json_type_name(e));
        if (check_keys(&w, e, keys) || get_int(&w, e, "n", 1, CDB_RUNG_MAX, &r->n) ||
            get_str(&w, e, "key", false, false, 32, &r->key) ||
            get_str(&w, e, "name_en", false, false, 100, &r->name_en) ||
            get_str(&w, e, "name_zh", false, false, 100, &r->name_zh) ||
            get_str(&w, e, "runs_en", false, true, IMP_MAX_STRING, &r->runs_en) ||
            get_str(&w, e, "runs_zh", false, true, IMP_MAX_STRING, &r->runs_zh))
            return -1;
        if (r->n != w.index + 1)
            return fail(&w, "n", "expected %d: rungs are listed in order from 1", w.index + 1);
        const cJSON *cl;
        size_t n;
        if (get_array(&w, e, "closes", 1, CDB_GAPS, &cl, &n) != 0)
            return -1;
        r->closes = xcalloc(n, sizeof *r->closes);
        for (const cJSON *g = cl->child; g; g = g->next) {
            if (!whole_in(g, 1, CDB_GAPS))
                return fail(&w, "closes", "expected gap numbers from 1 to 7");
            for (size_t k = 0; k < r->n_closes; k++)
                if (r->closes[k] == (int)g->valuedouble)
                    return fail(&w, "closes", "lists gap %d twice", r->closes[k]);
            r->closes[r->n_closes++] = (int)g->valuedouble;
        }
    }
    return 0;
}

static int parse_cases(const cJSON *root, const char *name, struct imp_index *ix, char *err,
                       size_t errlen)
{
    const cJSON *arr;
    if (parse_header(root, name, "kladder-cases", "cases", &arr, err, errlen) != 0)
        return -1;
    int count = cJSON_GetArraySize(arr);
    struct where w = {.file = name, .what = "case", .err = err, .errlen = errlen};
    if (count < 1 || count > 1000)
        return fail(&w, "cases", "expected 1 to 1000 cases, got %d", count);
    ix->cases = xcalloc((size_t)count, sizeof *ix->cases);
    for (const cJSON *e = arr->child; e; e = e->next, w.index++) {
        w.id = NULL;
        struct cdb_case *c = &ix->cases[ix->n_cases++];
        if (parse_case(&w, e, c) != 0)
            return -1;
        w.id = c->id;
        if (c->rung > (int)ix->n_rungs)
            return fail(&w, "rung", "expected a rung of the index (1 to %zu), got %d",
                        ix->n_rungs, c->rung);
        for (size_t k = 0; k + 1 < ix->n_cases; k++) {
            if (strcmp(ix->cases[k].id, c->id) == 0)
                return fail(&w, "id", "'%s' is already used by case #%zu", c->id, k + 1);
            for (size_t a = 0; a < c->n_refs; a++)
                for (size_t b = 0; b < ix->cases[k].n_refs; b++)
                    if (strcmp(c->refs[a].ref, ix->cases[k].refs[b].ref) == 0)
                        return fail(&w, "refs", "'%s' already belongs to case '%s'",
                                    c->refs[a].ref, ix->cases[k].id);
        }
    }
    /* Related ids must name cases of this index. */
    w.index = 0;
    for (size_t i = 0; i < ix->n_cases; i++, w.index++) {
        struct cdb_case *c = &ix->cases[i];
        w.id = c->id;
        for (size_t r = 0; r < c->n_related; r++) {
            bool found = false;
            for (size_t k = 0; k < ix->n_cases && !found; k++)
                found = k != i && strcmp(ix->cases[k].id, c->related[r]) == 0;
            if (!found)
                return fail(&w, "related", "'%s' is not another case of this index",
                            c->related[r]);
        }
    }
    return 0;
}

void imp_index_free(struct imp_index *ix)
{
    for (size_t i = 0; i < ix->n_cases; i++)
        cdb_case_free(&ix->cases[i]);
    for (size_t i = 0; i < ix->n_gaps; i++)
        cdb_gap_free(&ix->gaps[i]);
    for (size_t i = 0; i < ix->n_rungs; i++)
        cdb_rung_free(&ix->rungs[i]);
    free(ix->cases);
    free(ix->gaps);
    free(ix->rungs);
    memset(ix, 0, sizeof *ix);
}

int imp_index_parse(const char *cases_json, const char *name_cases, const char *gaps_json,
                    const char *name_gaps, const char *rungs_json, const char *name_rungs,
                    struct imp_index *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    cJSON *c = NULL, *g = NULL, *r = NULL;
    int rc = -1;
    if (parse_json(gaps_json, name_gaps, &g, err, errlen) ||
        parse_json(rungs_json, name_rungs, &r, err, errlen) ||
        parse_json(cases_json, name_cases, &c, err, errlen) ||
        parse_gaps(g, name_gaps, out, err, errlen) || parse_rungs(r, name_rungs, out, err, errlen) ||
        parse_cases(c, name_cases, out, err, errlen))
        goto done;
    rc = 0;
done:
    cJSON_Delete(c);
    cJSON_Delete(g);
    cJSON_Delete(r);
    if (rc != 0)
        imp_index_free(out);
    return rc;
}

static bool access_ok(const char *path)
{
    return access(path, R_OK) == 0;
}

/* Reads path, or the built-in copy of `builtin` when path is NULL or missing and allowed. */
static char *read_doc(const char *path, const char *builtin, bool fallback, char **name,
                      char *err, size_t errlen)
{
    if (path && (!fallback || access_ok(path))) {
        *name = xstrdup(path);
        return file_read_all(path, NULL, err, errlen);
    }
    *name = xasprintf("%s (built in)", builtin);
    return embed_load(NULL, builtin, NULL, err, errlen);
}

/* Reads the three files and parses them. cases_path NULL: the built-in copies. Otherwise
 * gaps.json and rungs.json are taken from the folder of cases_path when they exist there, and
 * from the built-in copies when they do not. */
static int imp_index_load(const char *cases_path, struct imp_index *out, char *err, size_t errlen)
{
    char *gaps_path = NULL, *rungs_path = NULL;
    if (cases_path) {
        const char *slash = strrchr(cases_path, '/');
        int dirlen = slash ? (int)(slash - cases_path) : 1;
        const char *dir = slash ? cases_path : ".";
        gaps_path = xasprintf("%.*s/gaps.json", dirlen, dir);
        rungs_path = xasprintf("%.*s/rungs.json", dirlen, dir);
    }
    char *nc = NULL, *ng = NULL, *nr = NULL;
    char *tc = read_doc(cases_path, "data/cases.json", false, &nc, err, errlen);
    char *tg = tc ? read_doc(gaps_path, "data/gaps.json", true, &ng, err, errlen) : NULL;
    char *tr = tg ? read_doc(rungs_path, "data/rungs.json", true, &nr, err, errlen) : NULL;
    int rc = -1;
    if (tr)
        rc = imp_index_parse(tc, nc, tg, ng, tr, nr, out, err, errlen);
    free(tc), free(tg), free(tr), free(nc), free(ng), free(nr);
    free(gaps_path), free(rungs_path);
    return rc;
}

int imp_index_store(struct cdb *db, const struct imp_index *ix, char *err, size_t errlen)
{
    struct cdb_sink s;
    cdb_sink_cases_init(&s, db);
    if (s.begin(&s, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < ix->n_gaps; i++)
        if (s.put_gap(&s, &ix->gaps[i], err, errlen) != 0)
            goto fail;
    for (size_t i = 0; i < ix->n_rungs; i++)
        if (s.put_rung(&s, &ix->rungs[i], err, errlen) != 0)
            goto fail;
    for (size_t i = 0; i < ix->n_cases; i++)
        if (s.put_case(&s, &ix->cases[i], err, errlen) != 0)
            goto fail;
    return s.commit(&s, err, errlen);
fail:
    s.abort(&s);
    return -1;
}

static void builtin_hash(char out[33])
{
    struct hash_state h;
    hash_init(&h);
    static const char *const docs[] = {"data/cases.json", "data/gaps.json", "data/rungs.json"};
    for (size_t i = 0; i < 3; i++) {
        const struct embed_file *f = embed_find(docs[i]);
        hash_str(&h, docs[i]);
        if (f)
            hash_bytes(&h, f->data, f->size);
    }
    hash_hex(&h, out);
}

int imp_index_import(struct cdb *db, const char *cases_path, char *err, size_t errlen)
{
    struct imp_index ix;
    if (imp_index_load(cases_path, &ix, err, errlen) != 0)
        return -1;
    char hash[33] = "";
    if (!cases_path)
        builtin_hash(hash);
    /* The index and the record of where it came from land together. */
    int rc = cdb_tx_begin(db, err, errlen);
    if (rc == 0)
        rc = imp_index_store(db, &ix, err, errlen);
    if (rc == 0)
        rc = cdb_meta_set(db, "index_source", cases_path ? cases_path : "builtin", err, errlen);
    if (rc == 0)
        rc = cdb_meta_set(db, "index_hash", hash, err, errlen);
    if (rc == 0)
        rc = cdb_tx_commit(db, err, errlen);
    else
        cdb_tx_rollback(db);
    imp_index_free(&ix);
    return rc;
}

int imp_index_ensure(struct cdb *db, char *err, size_t errlen)
{
    int count = 0;
    if (cdb_case_count(db, &count, err, errlen) != 0)
        return -1;
    char *source = cdb_meta_get(db, "index_source");
    char *stored = cdb_meta_get(db, "index_hash");
    char hash[33];
    builtin_hash(hash);
    bool need = count == 0 ||
                ((!source || strcmp(source, "builtin") == 0) && (!stored || strcmp(stored, hash)));
    free(source);
    free(stored);
    return need ? imp_index_import(db, NULL, err, errlen) : 0;
}
