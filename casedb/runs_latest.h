/* The newest finished verdict of each (source, rung): what the dashboard shows under its matrix
 * for the local host and each pulled host. Cheap on a large database: one pass over the runs
 * table, newest first, without per-run counts; a run of several rungs (rung 0, `kladder run
 * --suite` of every rung it lists) gives each of its rungs the verdict a run of that rung alone
 * would have had, read from its checks: pass where the run met every expectation (a buggy
 * variant caught is the rung working), else what went wrong there (at most max_multi such runs
 * are read, newest first). Each (source, rung) also counts its runs and failed runs. */
#ifndef KL_CASEDB_RUNS_LATEST_H
#define KL_CASEDB_RUNS_LATEST_H

#include <stddef.h>

#include "casedb/results.h"

struct cdb;

struct cdb_latest {
    char source[72];         /* hosts.name the run was pulled from; "" for runs made here */
    int rung;                /* 1..CDB_RUNG_MAX */
    enum cdb_verdict verdict;
    /* Every finished run of this one rung from this source (runs of several rungs are not
     * counted), and those that failed, hung, erred or were interrupted: the latest verdict
     * alone hides a rung that fails one run in three. */
    int runs, failed;
    /* A scored rung (rung 8, end to end): the score of the newest run's first scored check
     * that is not a buggy variant (the fixed built-in model, or the user's evaluation): the
     * model's own score, not that of a bug swapped in to be caught. NAN: none (a rung not
     * asked for in scored_rungs, or no score recorded). */
    double score;
};

/* *out (malloc'd, *n entries) gets one entry per (source, rung) that has a finished run, sources
 * in the order of their newest run. scored_rungs: bit r set for each rung r whose checks carry
 * a score (the engine's rung table knows which), so that only those runs' checks are read for
 * one. Returns 0, or -1 with err. */
int cdb_latest_verdicts(struct cdb *db, int max_multi, unsigned scored_rungs,
                        struct cdb_latest **out, size_t *n, char *err, size_t errlen);

#endif
