/* Two hosts' exported results, judged by kladder compare's noise rules (engine/rungs/cross_host.h). */
#include "engine/rungs/cross_host.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/results_query.h"
#include "common/xalloc.h"
#include "importers/results_json.h"

static bool same_key(const struct cdb_check *x, const struct cdb_check *y)
{
    return x->rung == y->rung && strcmp(x->suite, y->suite) == 0 &&
           strcmp(x->check, y->check) == 0 && strcmp(x->shape, y->shape) == 0 &&
           strcmp(x->variant, y->variant) == 0;
}

/* The last check of d with c's key (the document's latest word on it), or NULL. */
static const struct cdb_check *last_like(const struct imp_results_doc *d, const struct cdb_check *c)
{
    for (size_t i = d->n_checks; i-- > 0;)
        if (same_key(&d->checks[i], c))
            return &d->checks[i];
    return NULL;
}

static void cell(struct cdb_compare_cell *out, const struct cdb_check *c)
{
    memset(out, 0, sizeof *out);
    out->present = true;
    out->verdict = c->verdict;
    out->median_us = c->time_median_us;
    out->min_us = c->time_min_us;
    out->max_us = c->time_max_us;
    out->repeats = c->repeats;
    out->seq = c->seq;
    out->run_uuid = c->run_uuid;
}

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    *used = k < 0 ? len : *used + (size_t)k >= len ? len - 1 : *used + (size_t)k;
}

int eng_cross_host_compare(const char *a, size_t len_a, const char *name_a, const char *b,
                           size_t len_b, const char *name_b, const char *prefix,
                           struct eng_cross_host *out, char *report, size_t reportlen, char *err,
                           size_t errlen)
{
    memset(out, 0, sizeof *out);
    report[0] = '\0';
    struct imp_results_doc da, db;
    if (imp_results_parse(a, len_a, name_a, &da, err, errlen) != 0)
        return -1;
    if (imp_results_parse(b, len_b, name_b, &db, err, errlen) != 0) {
        imp_results_doc_free(&da);
        return -1;
    }
    size_t plen = strlen(prefix), n = 0;
    struct cdb_compare cmp = {0};
    cmp.rows = xcalloc(da.n_checks + db.n_checks + 1, sizeof *cmp.rows);
    for (size_t i = 0; i < da.n_checks; i++) {
        const struct cdb_check *ca = &da.checks[i];
        if (strncmp(ca->check, prefix, plen) != 0 || last_like(&da, ca) != ca)
            continue;
        const struct cdb_check *cb = last_like(&db, ca);
        if (!cb) {
            out->only_one++;
            continue;
        }
        struct cdb_compare_row *r = &cmp.rows[n++];
        r->rung = ca->rung;
        r->suite = ca->suite, r->check = ca->check, r->shape = ca->shape, r->variant = ca->variant;
        cell(&r->a, ca);
        cell(&r->b, cb);
    }
    for (size_t i = 0; i < db.n_checks; i++) {
        const struct cdb_check *cb = &db.checks[i];
        if (strncmp(cb->check, prefix, plen) == 0 && last_like(&db, cb) == cb && !last_like(&da, cb))
            out->only_one++;
    }
    cmp.n = n;
    cdb_compare_finish(&cmp);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cdb_compare_row *r = &cmp.rows[i];
        if (!isfinite(r->ratio))
            continue;
        out->compared++;
        out->noise += r->timing == CDB_TIMING_NOISE;
        out->few += r->timing == CDB_TIMING_FEW;
        if (!r->flagged)
            continue;
        out->flagged++;
        double m = r->ratio >= 1 ? r->ratio : 1 / r->ratio;
        append(report, reportlen, &used,
               "%s%s (%s): %.1fx %s on %s than on %s, median %.4g us against %.4g us, spreads "
               "[%.4g, %.4g] and [%.4g, %.4g] us, %d and %d repeats",
               used ? "; " : "", r->check, r->variant, m, r->ratio > 1 ? "slower" : "faster",
               db.exported_host, da.exported_host, r->b.median_us, r->a.median_us, r->b.min_us,
               r->b.max_us, r->a.min_us, r->a.max_us, r->b.repeats, r->a.repeats);
    }
    int rc = 0;
    if (!out->compared) {
        snprintf(err, errlen, "%s and %s: no %s check has times on both hosts: nothing to compare",
                 name_a, name_b, prefix);
        rc = -1;
    } else if (!out->flagged) {
        append(report, reportlen, &used,
               "%d %s check%s timed on %s and %s: %d within the noise, %d not judged (fewer "
               "than %d repeats or no spread)",
               out->compared, prefix, out->compared == 1 ? "" : "s", da.exported_host,
               db.exported_host, out->noise, out->few, CDB_CMP_MIN_REPEATS);
    }
    free(cmp.rows);
    imp_results_doc_free(&da);
    imp_results_doc_free(&db);
    return rc;
}
