/* Checks x hosts against a baseline (tui/compare_matrix.h). */
#define _GNU_SOURCE /* strcasestr, qsort_r */
#include "tui/compare_matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "tui/compare_fmt.h"

struct entry {
    size_t pair;
    const struct cdb_compare_row *row;
};

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int key_cmp(const struct cdb_compare_row *a, const struct cdb_compare_row *b)
{
    int d = a->rung - b->rung;
    if (!d)
        d = cmp_str(a->suite, b->suite);
    if (!d)
        d = cmp_str(a->check, b->check);
    if (!d)
        d = cmp_str(a->shape, b->shape);
    if (!d)
        d = cmp_str(a->variant, b->variant);
    return d;
}

static int entry_cmp(const void *x, const void *y)
{
    const struct entry *a = x, *b = y;
    int d = key_cmp(a->row, b->row);
    return d ? d : (a->pair > b->pair) - (a->pair < b->pair);
}

void cmp_matrix_build(struct cmp_matrix *m, struct cdb_compare *pair, size_t n_hosts)
{
    memset(m, 0, sizeof *m);
    m->n_hosts = n_hosts;
    m->pair = pair;
    size_t total = 0;
    for (size_t p = 0; p + 1 < n_hosts; p++)
        total += pair[p].n;
    struct entry *e = xcalloc(total + 1, sizeof *e);
    size_t k = 0;
    for (size_t p = 0; p + 1 < n_hosts; p++)
        for (size_t i = 0; i < pair[p].n; i++)
            e[k++] = (struct entry){p, &pair[p].rows[i]};
    qsort(e, total, sizeof *e, entry_cmp);
    m->rows = xcalloc(total + 1, sizeof *m->rows);
    for (size_t i = 0; i < total;) {
        struct cmp_matrix_row *r = &m->rows[m->n++];
        const struct cdb_compare_row *first = e[i].row;
        *r = (struct cmp_matrix_row){.rung = first->rung, .suite = first->suite,
                                     .check = first->check, .shape = first->shape,
                                     .variant = first->variant};
        r->vs = xcalloc(n_hosts, sizeof *r->vs);
        for (; i < total && key_cmp(e[i].row, first) == 0; i++) {
            r->vs[e[i].pair] = e[i].row;
            if (e[i].row->a.present)
                r->base = &e[i].row->a;
            r->standing_out += cmp_stands_out(e[i].row);
        }
    }
    free(e);
}

void cmp_matrix_free(struct cmp_matrix *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->rows[i].vs);
    free(m->rows);
    for (size_t p = 0; p + 1 < m->n_hosts; p++)
        cdb_compare_free(&m->pair[p]);
    free(m->pair);
    memset(m, 0, sizeof *m);
}

const struct cdb_compare_row *cmp_matrix_vs(const struct cmp_matrix_row *r, size_t h)
{
    return h >= 1 ? r->vs[h - 1] : NULL;
}

const struct cdb_compare_cell *cmp_matrix_cell(const struct cmp_matrix_row *r, size_t h)
{
    if (h == 0)
        return r->base;
    const struct cdb_compare_row *v = r->vs[h - 1];
    return v && v->b.present ? &v->b : NULL;
}

static bool has_text(const struct cmp_matrix_row *r, const char *t)
{
    const char *f[] = {r->suite, r->check, r->shape, r->variant};
    for (int i = 0; i < 4; i++)
        if (f[i] && strcasestr(f[i], t))
            return true;
    return false;
}

static bool keep(const struct cmp_matrix_row *r, const struct cmp_matrix_select *sel)
{
    if (sel->text && sel->text[0] && !has_text(r, sel->text))
        return false;
    if (!sel->only_flagged)
        return true;
    if (sel->differs_host >= 1) {
        const struct cdb_compare_row *v = r->vs[sel->differs_host - 1];
        return v && cmp_stands_out(v);
    }
    return r->standing_out > 0;
}

/* The sort's key of a row; NAN when it has none (it then goes last). */
static double sort_key(const struct cmp_matrix_row *r, const struct cmp_matrix_select *sel)
{
    if (sel->sort == CMP_MATRIX_DIFFERS)
        return r->standing_out;
    if (sel->sort == CMP_MATRIX_RATIO && sel->sort_host >= 1) {
        const struct cdb_compare_row *v = r->vs[sel->sort_host - 1];
        return v ? v->ratio : (double)NAN;
    }
    return 0;
}

struct sort_ctx {
    const struct cmp_matrix *m;
    const struct cmp_matrix_select *sel;
};

static int by_key(const void *x, const void *y, void *arg)
{
    const struct sort_ctx *c = arg;
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    double ka = sort_key(&c->m->rows[a], c->sel), kb = sort_key(&c->m->rows[b], c->sel);
    if (isnan(ka) != isnan(kb))
        return isnan(ka) ? 1 : -1;
    if (!isnan(ka) && (ka > kb || ka < kb))
        return ka > kb ? -1 : 1;
    return (a > b) - (a < b);
}

size_t cmp_matrix_select_rows(const struct cmp_matrix *m, const struct cmp_matrix_select *sel,
                              size_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++)
        if (keep(&m->rows[i], sel))
            idx[n++] = i;
    if (sel->sort != CMP_MATRIX_NAME) {
        struct sort_ctx c = {m, sel};
        qsort_r(idx, n, sizeof *idx, by_key, &c);
    }
    return n;
}
