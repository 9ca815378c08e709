/* Merging results that came from another host (a validated `kladder export` document) into the
 * database: one transaction, idempotent by run UUID.
 *
 * - A machine whose id is new is inserted; one already stored must be identical.
 * - A run whose UUID is new is inserted with its checks and origin = the host's name.
 * - A run already stored with identical content (run fields and every check) is skipped and
 *   counted as present; one stored with different content is a conflict: nothing is written
 *   and the error names the run and the first field that differs.
 * - The host row is created when missing (a pull by URL) and its last pull time and cursor are
 *   updated, in the same transaction.
 * On any error the transaction is rolled back: the database is exactly as it was. */
#ifndef KL_CASEDB_MERGE_H
#define KL_CASEDB_MERGE_H

#include <stddef.h>

#include "casedb/results.h"

struct cdb;

struct cdb_merge_run {
    struct cdb_run run;
    const struct cdb_check *checks; /* this run's checks, ordered by seq */
    size_t n_checks;
};

struct cdb_merge_input {
    const struct cdb_machine *machines;
    size_t n_machines;
    const struct cdb_merge_run *runs;
    size_t n_runs;
};

struct cdb_merge_target {
    const char *origin;  /* hosts.name; created with url when missing */
    const char *url;
    const char *when;    /* ISO time of this pull */
    const char *cursor;  /* new cursor to store; NULL keeps the old one */
};

struct cdb_merge_stats {
    size_t new_runs, new_checks, present_runs, new_machines;
};

/* Pointers in `in` are only read during the call. */
int cdb_merge(struct cdb *db, const struct cdb_merge_target *t, const struct cdb_merge_input *in,
              struct cdb_merge_stats *stats, char *err, size_t errlen);

#endif
