#include "importers/csv_read.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define CSV_MAX_COLS 1024

struct growbuf {
    char *s;
    size_t n, cap;
};

static void put(struct growbuf *b, char c)
{
    if (b->n + 1 >= b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->s = xrealloc(b->s, b->cap);
    }
    b->s[b->n++] = c;
    b->s[b->n] = '\0';
}

/* Reads one record starting at *pos; fields into a malloc'd array (*nf). *line advances over
 * the line ends it consumes. 1 when a record was read, 0 at the end, -1 on an error. */
static int record(const char *t, size_t len, size_t *pos, size_t *line, char ***fields,
                  size_t *nf, const char *path, char *err, size_t errlen)
{
    size_t p = *pos, start_line = *line;
    *fields = NULL;
    *nf = 0;
    if (p >= len)
        return 0;
    size_t cap = 0;
    for (;;) {
        struct growbuf f = {0};
        put(&f, 'x');
        f.n = 0;
        f.s[0] = '\0';
        if (p < len && t[p] == '"') {
            p++;
            for (;;) {
                if (p >= len) {
                    snprintf(err, errlen, "%s:%zu: a quoted field is never closed", path, start_line);
                    goto fail_field;
                }
                if (t[p] == '"') {
                    if (p + 1 < len && t[p + 1] == '"') {
                        put(&f, '"');
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                if (t[p] == '\n')
                    (*line)++;
                put(&f, t[p++]);
            }
            if (p < len && t[p] != ',' && t[p] != '\n' && t[p] != '\r') {
                snprintf(err, errlen, "%s:%zu: text after a closing quote", path, *line);
                goto fail_field;
            }
        } else {
            while (p < len && t[p] != ',' && t[p] != '\n' && t[p] != '\r') {
                if (t[p] == '"') {
                    snprintf(err, errlen, "%s:%zu: a quote inside an unquoted field", path, *line);
                    goto fail_field;
                }
                put(&f, t[p++]);
            }
        }
        if (*nf + 1 > CSV_MAX_COLS) {
            snprintf(err, errlen, "%s:%zu: more than %d fields", path, start_line, CSV_MAX_COLS);
            goto fail_field;
        }
        if (*nf + 1 >= cap) {
            cap = cap ? 2 * cap : 8;
            *fields = xrealloc(*fields, cap * sizeof **fields);
        }
        (*fields)[(*nf)++] = f.s;
        if (p < len && t[p] == ',') {
            p++;
            continue;
        }
        if (p < len && t[p] == '\r')
            p++;
        if (p < len && t[p] == '\n')
            p++;
        else if (p < len) {
            snprintf(err, errlen, "%s:%zu: a carriage return not followed by a line feed", path,
                     *line);
            goto fail;
        }
        (*line)++;
        *pos = p;
        return 1;
    fail_field:
        free(f.s);
        goto fail;
    }
fail:
    for (size_t i = 0; i < *nf; i++)
        free((*fields)[i]);
    free(*fields);
    *fields = NULL;
    *nf = 0;
    return -1;
}

int csv_read(const char *text, size_t len, const char *path, struct csv_table *out, char *err,
             size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (memchr(text, '\0', len)) {
        snprintf(err, errlen, "%s: a NUL byte: not a text file", path);
        return -1;
    }
    size_t pos = 0, line = 1, nf;
    char **f;
    int r = record(text, len, &pos, &line, &f, &nf, path, err, errlen);
    if (r <= 0) {
        if (r == 0)
            snprintf(err, errlen, "%s: empty: expected a header row", path);
        return -1;
    }
    out->header = f;
    out->ncols = nf;
    for (size_t i = 0; i < nf; i++)
        for (size_t j = 0; j < i; j++)
            if (!strcmp(f[i], f[j])) {
                snprintf(err, errlen, "%s:1: column \"%.60s\" appears twice", path, f[i]);
                csv_free(out);
                return -1;
            }
    size_t cap = 0;
    for (;;) {
        size_t at = line;
        r = record(text, len, &pos, &line, &f, &nf, path, err, errlen);
        if (r < 0) {
            csv_free(out);
            return -1;
        }
        if (r == 0)
            break;
        if (nf == 1 && f[0][0] == '\0') { /* a blank line */
            free(f[0]);
            free(f);
            continue;
        }
        if (nf != out->ncols) {
            snprintf(err, errlen, "%s:%zu: %zu fields, the header has %zu", path, at, nf,
                     out->ncols);
            for (size_t i = 0; i < nf; i++)
                free(f[i]);
            free(f);
            csv_free(out);
            return -1;
        }
        if (out->nrows + 1 > cap) {
            cap = cap ? 2 * cap : 16;
            out->rows = xrealloc(out->rows, cap * sizeof *out->rows);
            out->line = xrealloc(out->line, cap * sizeof *out->line);
        }
        out->rows[out->nrows] = f;
        out->line[out->nrows++] = at;
    }
    return 0;
}

void csv_free(struct csv_table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++)
            free(t->rows[r][c]);
        free(t->rows[r]);
    }
    for (size_t c = 0; c < t->ncols; c++)
        free(t->header[c]);
    free(t->header);
    free(t->rows);
    free(t->line);
    memset(t, 0, sizeof *t);
}

int csv_column(const struct csv_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(t->header[c], name))
            return (int)c;
    return -1;
}

char *csv_quote(const char *cell)
{
    if (!strpbrk(cell, ",\"\r\n"))
        return xstrdup(cell);
    struct growbuf b = {0};
    put(&b, '"');
    for (const char *c = cell; *c; c++) {
        if (*c == '"')
            put(&b, '"');
        put(&b, *c);
    }
    put(&b, '"');
    return b.s;
}
