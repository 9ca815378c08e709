/* Verdicts of a pulled document, judged again here (verdict_derive.h). */
#include "importers/verdict_derive.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

const char *imp_check_verdict_derive(const char *word, const struct cdb_check *c,
                                     enum cdb_verdict *out, char *why, size_t whylen)
{
    int v = cdb_verdict_parse(word);
    why[0] = '\0';
    if (v == CDB_FAIL || v == CDB_HANG || v == CDB_ERROR || v == CDB_DOUBT) {
        *out = (enum cdb_verdict)v;
        return NULL;
    }
    if (c->bad_count > 0 || c->first_bad >= 0) {
        *out = CDB_FAIL;
        if (c->bad_count > 0)
            snprintf(why, whylen, "it records %lld bad element%s", (long long)c->bad_count,
                     c->bad_count == 1 ? "" : "s");
        else
            snprintf(why, whylen, "it records a first bad element (index %lld)",
                     (long long)c->first_bad);
        return why;
    }
    /* a time or an error measured; not repeats, which a plan may record before it skips */
    bool measured = !isnan(c->time_median_us) || !isnan(c->time_min_us) ||
                    !isnan(c->time_max_us) || !isnan(c->max_err);
    if ((v == CDB_SKIP || v == CDB_CANCELLED) && measured) {
        *out = CDB_ERROR;
        snprintf(why, whylen, "a check that did not run records no %s; what it found is not "
                 "known", !isnan(c->max_err) ? "error" : "time");
        return why;
    }
    if (v == CDB_PASS || v == CDB_SKIP || v == CDB_CANCELLED) {
        *out = (enum cdb_verdict)v;
        return NULL;
    }
    *out = CDB_ERROR;
    snprintf(why, whylen, "not a verdict of a finished check here; what it found is not known");
    return why;
}

static bool right_side(const struct cdb_check *c)
{
    return !c->variant || strcmp(c->variant, "buggy") != 0;
}

static bool ran(const struct cdb_check *c)
{
    return c->verdict != CDB_SKIP && c->verdict != CDB_CANCELLED;
}

static int by_group(const void *a, const void *b)
{
    const struct cdb_check *x = *(const struct cdb_check *const *)a,
                           *y = *(const struct cdb_check *const *)b;
    if (x->rung != y->rung)
        return (x->rung > y->rung) - (x->rung < y->rung);
    return strcmp(x->suite ? x->suite : "", y->suite ? y->suite : "");
}

/* The first (suite, rung) of the run none of whose checks ran, or NULL. */
static const struct cdb_check *group_without_a_run(const struct cdb_check *cs, size_t n)
{
    const struct cdb_check **p = xcalloc(n + 1, sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = &cs[i];
    qsort(p, n, sizeof *p, by_group);
    const struct cdb_check *found = NULL;
    for (size_t i = 0; i < n && !found;) {
        size_t j = i;
        bool any = false;
        for (; j < n && by_group(&p[i], &p[j]) == 0; j++)
            any |= ran(p[j]);
        if (!any)
            found = p[i];
        i = j;
    }
    free(p);
    return found;
}

/* The checks' verdict; why says which check decided it (empty for a pass). */
static enum cdb_verdict from_checks(const struct cdb_check *cs, size_t n, char *why,
                                    size_t whylen)
{
    const struct cdb_check *fail = NULL, *hang = NULL, *error = NULL;
    size_t n_ran = 0, n_doubt = 0;
    for (size_t i = 0; i < n; i++) {
        n_ran += ran(&cs[i]);
        n_doubt += cs[i].verdict == CDB_DOUBT;
        if (!right_side(&cs[i]))
            continue;
        enum cdb_verdict v = cs[i].verdict;
        if (v == CDB_FAIL && !fail)
            fail = &cs[i];
        if (v == CDB_HANG && !hang)
            hang = &cs[i];
        if ((v == CDB_ERROR || v == CDB_CANCELLED) && !error)
            error = &cs[i];
    }
    why[0] = '\0';
    /* the engine's rules (engine/runner.c, eng_run_summarise): a run that tested nothing is
     * inconclusive, neither a pass nor a failure; one that met everything but holds a check in
     * doubt is doubt */
    if (n_ran == 0) {
        snprintf(why, whylen, "none of its %zu checks ran: a run that tested nothing is "
                 "inconclusive, never a pass", n);
        return CDB_SKIP;
    }
    const struct cdb_check *decided = fail ? fail : hang ? hang : error;
    if (decided) {
        snprintf(why, whylen, "its check seq %d (variant %.40s, %.80s) is \"%s\"", decided->seq,
                 decided->variant ? decided->variant : "-", decided->check ? decided->check : "-",
                 cdb_verdict_name(decided->verdict));
        return fail ? CDB_FAIL : hang ? CDB_HANG : CDB_ERROR;
    }
    const struct cdb_check *idle = group_without_a_run(cs, n);
    if (idle) {
        snprintf(why, whylen, "none of its checks of %.80s rung %d ran: a rung that tested "
                 "nothing is inconclusive, never a pass", idle->suite ? idle->suite : "-",
                 idle->rung);
        return CDB_SKIP;
    }
    if (n_doubt) {
        snprintf(why, whylen, "%zu of its checks are in doubt: not a pass", n_doubt);
        return CDB_DOUBT;
    }
    return CDB_PASS;
}

enum cdb_verdict imp_run_verdict_derive(const char *word, const struct cdb_check *cs, size_t n,
                                        char *why, size_t whylen)
{
    char because[256];
    enum cdb_verdict d = from_checks(cs, n, because, sizeof because);
    int w = cdb_verdict_parse(word);
    enum cdb_verdict out = d;
    if (w == CDB_FAIL || w == CDB_CANCELLED || w == CDB_INTERRUPTED)
        out = (enum cdb_verdict)w;
    else if (w == CDB_ERROR && d != CDB_FAIL && d != CDB_HANG)
        out = CDB_ERROR;
    else if ((w == CDB_SKIP || w == CDB_DOUBT) && d == CDB_PASS)
        out = (enum cdb_verdict)w;
    why[0] = '\0';
    if (w < 0 || out != (enum cdb_verdict)w)
        snprintf(why, whylen, "exported as \"%.32s\", recomputed from its checks as \"%s\"%s%s",
                 word, cdb_verdict_name(out), because[0] ? ": " : "", because);
    return out;
}
