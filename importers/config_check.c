#include "importers/config_check.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"

static const char *const type_names[] = {"int", "float", "string"};

static bool canonical(enum cfg_type t, const char *cell, char *out, size_t n);

int cfg_schema_parse(const char *text, size_t len, const char *path, struct cfg_schema *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    cJSON *j = cJSON_ParseWithLength(text, len);
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(j, "format"),
                *ver = cJSON_GetObjectItemCaseSensitive(j, "version"),
                *cols = cJSON_GetObjectItemCaseSensitive(j, "columns"),
                *key = cJSON_GetObjectItemCaseSensitive(j, "key");
    int rc = -1;
    if (!cJSON_IsObject(j)) {
        snprintf(err, errlen, "%s: expected a JSON object", path);
        goto out;
    }
    for (const cJSON *it = j->child; it; it = it->next)
        if (strcmp(it->string, "format") && strcmp(it->string, "version") &&
            strcmp(it->string, "columns") && strcmp(it->string, "key") &&
            strcmp(it->string, "defaults")) {
            snprintf(err, errlen, "%s: %.40s: unknown field (expected format, version, columns, "
                     "key, defaults)", path, it->string);
            goto out;
        }
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "kladder-config-schema") != 0) {
        snprintf(err, errlen, "%s: format: expected \"kladder-config-schema\"", path);
        goto out;
    }
    if (!cJSON_IsNumber(ver) || ver->valueint != 1) {
        snprintf(err, errlen, "%s: version: expected 1", path);
        goto out;
    }
    if (!cJSON_IsObject(cols) || !cols->child) {
        snprintf(err, errlen, "%s: columns: expected an object of column name to \"int\", "
                 "\"float\" or \"string\"", path);
        goto out;
    }
    size_t n = (size_t)cJSON_GetArraySize(cols);
    out->names = xcalloc(n, sizeof *out->names);
    out->defaults = xcalloc(n, sizeof *out->defaults);
    out->types = xcalloc(n, sizeof *out->types);
    for (const cJSON *it = cols->child; it; it = it->next) {
        int t = -1;
        for (int k = 0; k < 3 && cJSON_IsString(it); k++)
            if (!strcmp(it->valuestring, type_names[k]))
                t = k;
        if (t < 0 || !it->string[0] || !text_is_clean(it->string, NULL)) {
            snprintf(err, errlen, "%s: columns.%.40s: expected \"int\", \"float\" or \"string\"",
                     path, it->string);
            goto out;
        }
        out->names[out->ncols] = xstrdup(it->string);
        out->types[out->ncols++] = (enum cfg_type)t;
    }
    if (!cJSON_IsArray(key) || !key->child) {
        snprintf(err, errlen, "%s: key: expected a non-empty array of column names", path);
        goto out;
    }
    out->key = xcalloc((size_t)cJSON_GetArraySize(key), sizeof *out->key);
    for (const cJSON *it = key->child; it; it = it->next) {
        size_t c = out->ncols;
        for (size_t i = 0; cJSON_IsString(it) && i < out->ncols; i++)
            if (!strcmp(out->names[i], it->valuestring))
                c = i;
        if (c == out->ncols) {
            snprintf(err, errlen, "%s: key[%zu]: expected a column named in \"columns\"", path,
                     out->nkey);
            goto out;
        }
        out->key[out->nkey++] = c;
    }
    const cJSON *defs = cJSON_GetObjectItemCaseSensitive(j, "defaults");
    if (defs && !cJSON_IsObject(defs)) {
        snprintf(err, errlen, "%s: defaults: expected an object of column name to its value", path);
        goto out;
    }
    for (const cJSON *it = defs ? defs->child : NULL; it; it = it->next) {
        size_t c = out->ncols;
        for (size_t i = 0; i < out->ncols; i++)
            if (!strcmp(out->names[i], it->string))
                c = i;
        char v[512];
        if (c == out->ncols || !cJSON_IsString(it) ||
            !canonical(out->types[c], it->valuestring, v, sizeof v)) {
            snprintf(err, errlen, "%s: defaults.%.40s: expected a column named in \"columns\" and "
                     "a string holding a value of its type", path, it->string);
            goto out;
        }
        out->defaults[c] = xstrdup(it->valuestring);
    }
    rc = 0;
out:
    cJSON_Delete(j);
    if (rc != 0)
        cfg_schema_free(out);
    return rc;
}

void cfg_schema_free(struct cfg_schema *s)
{
    for (size_t i = 0; i < s->ncols; i++) {
        free(s->names[i]);
        free(s->defaults ? s->defaults[i] : NULL);
    }
    free(s->defaults);
    free(s->names);
    free(s->types);
    free(s->key);
    memset(s, 0, sizeof *s);
}

static void say(struct cfg_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct cfg_report *r, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    char *clean = text_sanitize(line, false);
    r->problems++;
    if (r->say)
        r->say(r->arg, clean);
    free(clean);
}

static bool parse_int(const char *s, long long *out)
{
    const char *p = s + (*s == '-' || *s == '+');
    if (!*p || strspn(p, "0123456789") != strlen(p))
        return false;
    errno = 0;
    char *end;
    *out = strtoll(s, &end, 10);
    return errno == 0 && *end == '\0';
}

static bool parse_float(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *s && *end == '\0' && errno == 0 && isfinite(*out);
}

/* The cell in canonical form for its type, into out; false when it is not of that type. */
static bool canonical(enum cfg_type t, const char *cell, char *out, size_t n)
{
    long long i;
    double d;
    switch (t) {
    case CFG_INT:
        if (!parse_int(cell, &i))
            return false;
        snprintf(out, n, "%lld", i);
        return true;
    case CFG_FLOAT:
        if (!parse_float(cell, &d))
            return false;
        snprintf(out, n, "%.17g", d);
        return true;
    default:
        snprintf(out, n, "%s", cell);
        return cell[0] != '\0';
    }
}

/* The table's column of each schema column (-1 when missing). malloc'd. */
static int *column_map(const struct cfg_schema *s, const struct csv_table *t)
{
    int *map = xcalloc(s->ncols + 1, sizeof *map);
    for (size_t c = 0; c < s->ncols; c++)
        map[c] = csv_column(t, s->names[c]);
    return map;
}

/* The row's key in canonical form ("\x1f"-joined), or NULL when a key cell is not of its type. */
static char *key_of(const struct cfg_schema *s, const int *map, char *const *row)
{
    size_t cap = 64, len = 0;
    char *k = xmalloc(cap);
    k[0] = '\0';
    for (size_t i = 0; i < s->nkey; i++) {
        size_t c = s->key[i];
        char v[512];
        const char *cell = map[c] >= 0 ? row[map[c]] : s->defaults[c];
        if (!cell || !canonical(s->types[c], cell, v, sizeof v)) {
            free(k);
            return NULL;
        }
        size_t need = len + strlen(v) + 2;
        if (need > cap) {
            cap = 2 * need;
            k = xrealloc(k, cap);
        }
        len += (size_t)snprintf(k + len, cap - len, "%s%s", i ? "\x1f" : "", v);
    }
    return k;
}

static void key_text(const struct cfg_schema *s, const int *map, char *const *row, char *out,
                     size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < s->nkey && len < n; i++) {
        size_t c = s->key[i];
        const char *cell = map[c] >= 0 ? row[map[c]] : s->defaults[c];
        len += (size_t)snprintf(out + len, n - len, "%s%s=%.40s", i ? ", " : "", s->names[c],
                                cell ? cell : "?");
    }
}

struct keyed {
    char *key;
    size_t row;
};

static int keyed_cmp(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Sorted (key, row) pairs of the rows whose keys are well-typed. */
static struct keyed *index_rows(const struct cfg_schema *s, const struct csv_table *t,
                                const int *map, size_t *n)
{
    struct keyed *k = xcalloc(t->nrows + 1, sizeof *k);
    *n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        char *key = key_of(s, map, t->rows[r]);
        if (key)
            k[(*n)++] = (struct keyed){key, r};
    }
    qsort(k, *n, sizeof *k, keyed_cmp);
    return k;
}

static void index_free(struct keyed *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(k[i].key);
    free(k);
}

void cfg_check_table(const struct cfg_schema *s, const struct csv_table *t, const char *path,
                     struct cfg_report *r)
{
    int *map = column_map(s, t);
    for (size_t c = 0; c < s->ncols; c++)
        if (map[c] < 0 && !s->defaults[c])
            say(r, "%s:1: column \"%s\" (%s) is missing", path, s->names[c], type_names[s->types[c]]);
    for (size_t c = 0; c < t->ncols; c++) {
        bool known = false;
        for (size_t k = 0; k < s->ncols && !known; k++)
            known = !strcmp(s->names[k], t->header[c]);
        if (!known)
            say(r, "%s:1: column \"%.60s\" is not in the schema", path, t->header[c]);
    }
    for (size_t row = 0; row < t->nrows; row++)
        for (size_t c = 0; c < s->ncols; c++) {
            if (map[c] < 0)
                continue;
            const char *cell = t->rows[row][map[c]];
            char v[512];
            if (!cell[0])
                say(r, "%s:%zu: column %s: empty cell (expected %s %s)", path, t->line[row],
                    s->names[c], s->types[c] == CFG_INT ? "an" : "a", type_names[s->types[c]]);
            else if (!canonical(s->types[c], cell, v, sizeof v)) {
                double d;
                bool whole_float = s->types[c] == CFG_INT && parse_float(cell, &d) &&
                                   !(fabs(d - floor(d)) > 0.0);
                say(r, "%s:%zu: column %s: expected %s %s, got \"%.60s\"%s", path, t->line[row],
                    s->names[c], s->types[c] == CFG_INT ? "an" : "a", type_names[s->types[c]],
                    cell, whole_float ? " (an integer written as a float)" : "");
            }
        }
    size_t n;
    struct keyed *k = index_rows(s, t, map, &n);
    for (size_t i = 1; i < n; i++)
        if (!strcmp(k[i].key, k[i - 1].key)) {
            char kt[256];
            key_text(s, map, t->rows[k[i].row], kt, sizeof kt);
            say(r, "%s:%zu: duplicate key (%s), first on line %zu", path, t->line[k[i].row], kt,
                t->line[k[i - 1].row]);
        }
    index_free(k, n);
    free(map);
}

void cfg_check_lookup(const struct cfg_schema *s, const struct csv_table *src,
                      const char *src_path, const struct csv_table *dst, const char *dst_path,
                      struct cfg_report *r)
{
    int *smap = column_map(s, src), *dmap = column_map(s, dst);
    size_t n;
    struct keyed *k = index_rows(s, dst, dmap, &n);
    size_t missing = 0;
    for (size_t row = 0; row < src->nrows; row++) {
        char *key = key_of(s, smap, src->rows[row]);
        if (!key)
            continue; /* already a type problem of src */
        struct keyed probe = {key, 0};
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(k[mid].key, key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        char kt[256];
        key_text(s, smap, src->rows[row], kt, sizeof kt);
        if (lo >= n || strcmp(k[lo].key, probe.key) != 0) {
            if (missing++ < 20)
                say(r, "%s:%zu: the lookup finds no row (%s) in %s", src_path, src->line[row], kt,
                    dst_path);
        } else {
            char *const *drow = dst->rows[k[lo].row];
            for (size_t c = 0; c < s->ncols; c++) {
                char a[512], b[512];
                if (smap[c] < 0 || dmap[c] < 0)
                    continue;
                bool ta = canonical(s->types[c], src->rows[row][smap[c]], a, sizeof a),
                     tb = canonical(s->types[c], drow[dmap[c]], b, sizeof b);
                if (ta && tb && strcmp(a, b) != 0)
                    say(r, "%s:%zu: row (%s): column %s is \"%.40s\" here and \"%.40s\" in %s "
                        "line %zu", src_path, src->line[row], kt, s->names[c],
                        src->rows[row][smap[c]], drow[dmap[c]], dst_path, dst->line[k[lo].row]);
            }
        }
        free(key);
    }
    r->missing += missing;
    if (missing > 20)
        say(r, "%s: %zu rows in all are not found in %s", src_path, missing, dst_path);
    index_free(k, n);
    free(smap);
    free(dmap);
}

/* A source row in a merge: its key, where it is, its place in the input, and the place of the
 * first row with the same key (where the merged row is written). */
struct merge_row {
    char *key;
    size_t tab, row, seq, first;
};

static int seen_by_key(const void *a, const void *b)
{
    const struct merge_row *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int seen_by_first(const void *a, const void *b)
{
    const struct merge_row *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

char *cfg_merge_write(const struct cfg_schema *s, const struct csv_table *const *tabs,
                      const char *const *paths, size_t n, struct cfg_report *r)
{
    /* Every well-typed row with its key and its place in the input, sorted by key (then
     * place): each run of one key keeps its last row, written at its first row's place. */
    size_t total = 0;
    for (size_t t = 0; t < n; t++)
        total += tabs[t]->nrows;
    struct merge_row *all = xcalloc(total + 1, sizeof *all);
    size_t nall = 0, seq = 0;
    for (size_t t = 0; t < n; t++) {
        int *map = column_map(s, tabs[t]);
        for (size_t row = 0; row < tabs[t]->nrows; row++, seq++) {
            char *key = key_of(s, map, tabs[t]->rows[row]);
            if (key)
                all[nall++] = (struct merge_row){key, t, row, seq, seq};
        }
        free(map);
    }
    qsort(all, nall, sizeof *all, seen_by_key);
    struct merge_row *rows = xcalloc(nall + 1, sizeof *rows);
    size_t nrows = 0;
    for (size_t i = 0; i < nall;) {
        size_t j = i + 1;
        while (j < nall && !strcmp(all[j].key, all[i].key)) {
            if (all[j].tab != all[j - 1].tab) {
                int *map = column_map(s, tabs[all[j].tab]);
                char kt[256];
                key_text(s, map, tabs[all[j].tab]->rows[all[j].row], kt, sizeof kt);
                say(r, "%s:%zu: key (%s) is also in %s line %zu: the merge keeps this row",
                    paths[all[j].tab], tabs[all[j].tab]->line[all[j].row], kt,
                    paths[all[j - 1].tab], tabs[all[j - 1].tab]->line[all[j - 1].row]);
                free(map);
            }
            free(all[j].key);
            j++;
        }
        rows[nrows] = all[j - 1];
        rows[nrows].key = all[i].key;
        rows[nrows++].first = all[i].seq;
        i = j;
    }
    free(all);
    qsort(rows, nrows, sizeof *rows, seen_by_first);
    size_t cap = 256, len = 0;
    char *out = xmalloc(cap);
    out[0] = '\0';
#define APPEND(str)                                                                             \
    do {                                                                                        \
        const char *a_ = (str);                                                                 \
        size_t l_ = strlen(a_);                                                                 \
        if (len + l_ + 2 > cap) {                                                               \
            cap = 2 * (len + l_ + 2);                                                           \
            out = xrealloc(out, cap);                                                           \
        }                                                                                       \
        memcpy(out + len, a_, l_ + 1);                                                          \
        len += l_;                                                                              \
    } while (0)
    for (size_t c = 0; c < s->ncols; c++) {
        char *q = csv_quote(s->names[c]);
        APPEND(c ? "," : "");
        APPEND(q);
        free(q);
    }
    APPEND("\n");
    for (size_t i = 0; i < nrows; i++) {
        int *map = column_map(s, tabs[rows[i].tab]);
        for (size_t c = 0; c < s->ncols; c++) {
            const char *cell = map[c] >= 0 ? tabs[rows[i].tab]->rows[rows[i].row][map[c]]
                               : s->defaults[c] ? s->defaults[c] : "";
            char v[512];
            /* An int is written as an int whatever its source said ("+8" -> "8"); other cells
             * keep their exact text, so no float is rounded on the way through. */
            char *q = csv_quote(s->types[c] == CFG_INT && canonical(CFG_INT, cell, v, sizeof v)
                                    ? v : cell);
            APPEND(c ? "," : "");
            APPEND(q);
            free(q);
        }
        APPEND("\n");
        free(map);
        free(rows[i].key);
    }
#undef APPEND
    free(rows);
    return out;
}
