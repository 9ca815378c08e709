#include "casedb/runs_latest.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/case.h"
#include "casedb/cdb_internal.h"
#include "casedb/check_facts.h"
#include "common/xalloc.h"

/* Which verdict of a rung's checks is worth seeing: fail over hang over error over cancelled
 * over skip over pass. (An interrupted run's rung is marked by cdb_latest_verdicts.) */
static int rank(int v)
{
    static const int r[CDB_VERDICT_COUNT] = {[CDB_PASS] = 0, [CDB_FAIL] = 5, [CDB_HANG] = 4,
                                             [CDB_ERROR] = 3, [CDB_SKIP] = 1,
                                             [CDB_CANCELLED] = 2, [CDB_RUNNING] = 0,
                                             [CDB_DOUBT] = 1};
    return v >= 0 && v < CDB_VERDICT_COUNT ? r[v] : 0;
}

static size_t find(const struct cdb_latest *l, size_t n, const char *src, int rung)
{
    for (size_t i = 0; i < n; i++)
        if (l[i].rung == rung && strcmp(l[i].source, src) == 0)
            return i;
    return n;
}

/* Returns the entry of (src, rung), made with verdict v when there was none. */
static struct cdb_latest *put(struct cdb_latest **l, size_t *n, size_t *cap, const char *src,
                              int rung, int v)
{
    size_t at = find(*l, *n, src, rung);
    if (at < *n)
        return &(*l)[at]; /* a newer run already gave this rung its verdict */
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 32;
        *l = xrealloc(*l, *cap * sizeof **l);
    }
    struct cdb_latest *e = &(*l)[(*n)++];
    snprintf(e->source, sizeof e->source, "%s", src);
    e->rung = rung;
    e->verdict = (enum cdb_verdict)v;
    e->runs = e->failed = 0;
    e->score = NAN;
    return e;
}

/* What one rung of a run of several rungs shows: the check tallies of that rung. */
struct rung_tally {
    int checks, executed;
    int unexpected;      /* the worst verdict of a check that should have passed; -1 none */
    int cancelled;       /* checks the interruption stopped */
    int buggy, caught, buggy_skipped;
};

/* Whether a check failing or hanging stops a bug rather than fails the code: the buggy
 * variant's checks, and in a user's suite (no case) its unit test's on the buggy variant too,
 * which states nothing of them. */
static bool catches_a_bug(const char *variant, bool reproducer)
{
    return !strcmp(variant, "buggy") || (!reproducer && !strcmp(variant, "baseline-buggy"));
}

/* Each rung of run id (a run of several rungs, verdict v, reproducer: it names a case) as the
 * run of that rung alone would have ended: a run that met every expectation passed each of its
 * rungs (its buggy checks failing is the rung catching the bug, never a ✗); otherwise a rung
 * shows what went wrong in it: a check that should have passed and did not, every check
 * skipped, or a reproducer's bug that got through all of its checks there. */
static void multi_rung_verdicts(sqlite3_stmt *ck, sqlite3_int64 id, int v, bool reproducer,
                                const char *src, struct cdb_latest **out, size_t *n, size_t *cap)
{
    struct rung_tally t[CDB_RUNG_MAX + 1];
    int last = 0;
    for (int r = 0; r <= CDB_RUNG_MAX; r++)
        t[r] = (struct rung_tally){.unexpected = -1};
    sqlite3_reset(ck);
    sqlite3_bind_int64(ck, 1, id);
    while (sqlite3_step(ck) == SQLITE_ROW) {
        int r = sqlite3_column_int(ck, 0);
        int cv = cdb_verdict_parse((const char *)sqlite3_column_text(ck, 1));
        const char *var = (const char *)sqlite3_column_text(ck, 2);
        if (r < 1 || r > CDB_RUNG_MAX || cv < 0)
            continue;
        struct rung_tally *x = &t[r];
        last = r;
        x->checks++;
        x->executed += cv != CDB_SKIP && cv != CDB_CANCELLED;
        x->cancelled += cv == CDB_CANCELLED;
        bool bug = catches_a_bug(var ? var : "", reproducer);
        if (var && !strcmp(var, "buggy")) {
            x->buggy++;
            x->caught += cv == CDB_FAIL || cv == CDB_HANG;
            x->buggy_skipped += cv == CDB_SKIP;
        }
        bool wrong = cv == CDB_ERROR || (!bug && (cv == CDB_FAIL || cv == CDB_HANG));
        if (wrong && (x->unexpected < 0 || rank(cv) > rank(x->unexpected)))
            x->unexpected = cv;
    }
    for (int r = 1; r <= CDB_RUNG_MAX; r++) {
        const struct rung_tally *x = &t[r];
        if (!x->checks)
            continue;
        int rv = CDB_PASS;
        if (v == CDB_PASS)
            rv = CDB_PASS;
        else if (x->unexpected >= 0)
            rv = x->unexpected;
        else if (x->cancelled)
            rv = CDB_CANCELLED;
        else if (!x->executed)
            rv = CDB_FAIL; /* it tested nothing: never a pass */
        else if (reproducer && x->buggy && !x->caught)
            rv = x->buggy_skipped ? CDB_SKIP : CDB_FAIL; /* inconclusive, or the bug got through */
        /* The rung an interrupted run was in did not finish: its checks so far passing does
         * not make it a pass, but a failure it had already found stands. */
        if (v == CDB_INTERRUPTED && r == last && rank(rv) < rank(CDB_ERROR))
            rv = CDB_INTERRUPTED;
        (void)put(out, n, cap, src, r, rv);
    }
}

int cdb_latest_verdicts(struct cdb *db, int max_multi, unsigned scored_rungs,
                        struct cdb_latest **out, size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    sqlite3_stmt *st = NULL, *ck = NULL, *sc = NULL;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT coalesce(origin, ''), rung, verdict, id, case_id FROM runs"
                           " WHERE verdict != 'running' ORDER BY started DESC, id DESC",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db->h,
                           "SELECT k.rung, c.verdict, k.variant FROM checks c JOIN check_keys k"
                           " ON k.id = c.key_id WHERE c.run_id = ?1 ORDER BY c.seq",
                           -1, &ck, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db->h,
                           "SELECT " CDB_FACT("c.", "score.value") " AS score FROM checks c"
                           " JOIN check_keys k ON k.id = c.key_id"
                           " WHERE c.run_id = ?1 AND k.rung = ?2 AND score IS NOT NULL"
                           " AND k.variant != 'buggy' ORDER BY c.seq LIMIT 1",
                           -1, &sc, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        sqlite3_finalize(ck);
        return cdb_fail(db, "reading the latest verdicts", err, errlen);
    }
    int rc, multi = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *src = (const char *)sqlite3_column_text(st, 0);
        int rung = sqlite3_column_int(st, 1);
        int v = cdb_verdict_parse((const char *)sqlite3_column_text(st, 2));
        if (rung >= 1 && rung <= CDB_RUNG_MAX) {
            size_t had = *n;
            struct cdb_latest *e = put(out, n, &cap, src ? src : "", rung, v < 0 ? CDB_ERROR : v);
            if ((scored_rungs >> rung & 1u) && *n > had) { /* its newest run of a scored rung */
                sqlite3_reset(sc);
                sqlite3_bind_int64(sc, 1, sqlite3_column_int64(st, 3));
                sqlite3_bind_int(sc, 2, rung);
                if (sqlite3_step(sc) == SQLITE_ROW)
                    e->score = sqlite3_column_double(sc, 0);
            }
            e->runs++;
            e->failed += v == CDB_FAIL || v == CDB_HANG || v == CDB_ERROR || v < 0 ||
                         v == CDB_INTERRUPTED;
            continue;
        }
        if (rung != 0 || multi >= max_multi)
            continue;
        multi++;
        multi_rung_verdicts(ck, sqlite3_column_int64(st, 3), v < 0 ? CDB_ERROR : v,
                            sqlite3_column_type(st, 4) != SQLITE_NULL, src ? src : "", out, n,
                            &cap);
    }
    sqlite3_finalize(sc);
    sqlite3_finalize(ck);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        return cdb_fail(db, "reading the latest verdicts", err, errlen);
    }
    return 0;
}
