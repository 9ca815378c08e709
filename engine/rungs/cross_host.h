/* Rung 7's cross-host comparison: two hosts' exported results (the document `kladder export`
 * writes, importers/results_json.h) compared check by check under `kladder compare`'s own noise
 * rules (cdb_compare_finish, casedb/results_query.h): a time is flagged when both sides have
 * CDB_CMP_MIN_REPEATS repeats and either the two medians are CDB_CMP_LARGE times apart, or
 * their [min, max] spreads do not overlap and the medians differ by more than CDB_CMP_NOISE. Fewer repeats, or no spread, is "not judged", never a pass of a difference.
 *
 * Only checks whose name starts with `prefix` are compared ("timing:", rung 7's micro-checks);
 * a check is matched on (rung, suite, check, shape, variant), and where a document holds it more
 * than once the last one in the document counts. */
#ifndef KL_ENGINE_CROSS_HOST_H
#define KL_ENGINE_CROSS_HOST_H

#include <stddef.h>

struct eng_cross_host {
    int compared;   /* checks timed on both hosts */
    int flagged;    /* beyond the noise */
    int noise;      /* within it */
    int few;        /* not judged: too few repeats or no spread */
    int only_one;   /* a check one host has and the other lacks */
};

/* Compares document a (len_a bytes, named name_a in messages) with document b. report gets one
 * "; "-separated sentence per flagged check (check, ratio, both medians and spreads, both hosts)
 * and, when none is flagged, what was compared. Returns 0, or -1 with err naming the document
 * and what is wrong with it (a document the importer refuses, or no check under prefix with
 * times on both hosts: nothing to compare is not a pass). */
int eng_cross_host_compare(const char *a, size_t len_a, const char *name_a, const char *b,
                           size_t len_b, const char *name_b, const char *prefix,
                           struct eng_cross_host *out, char *report, size_t reportlen, char *err,
                           size_t errlen);

#endif
