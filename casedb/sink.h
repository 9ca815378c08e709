/* The way the case index enters the database (ncdu's pipeline idea): an importer validates its
 * whole input first, then pushes records into a sink between begin() and commit(). (Results
 * enter through results.h and merge.h instead.) Nothing is visible to readers until commit(),
 * or until the caller's own transaction commits when begin() ran inside one (cdb_tx_*). A put
 * that fails leaves its transaction open: the caller then calls abort(), which leaves the
 * database exactly as it was before begin() (and before the caller's transaction).
 *
 * Ownership: the sink never keeps a pointer it was given; it copies what it stores before the
 * put returns, so the caller may free or reuse the record right after the call. */
#ifndef KL_CASEDB_SINK_H
#define KL_CASEDB_SINK_H

#include <stddef.h>

#include "casedb/case.h"

struct cdb;

struct cdb_sink {
    struct cdb *db;
    /* Case import: replaces the whole index (cases, gaps, rungs) in one transaction. */
    int (*begin)(struct cdb_sink *s, char *err, size_t errlen);
    int (*put_gap)(struct cdb_sink *s, const struct cdb_gap *g, char *err, size_t errlen);
    int (*put_rung)(struct cdb_sink *s, const struct cdb_rung *r, char *err, size_t errlen);
    int (*put_case)(struct cdb_sink *s, const struct cdb_case *c, char *err, size_t errlen);
    /* Checks every reference once more (a case naming a gap that is not there) and rolls the
     * whole import back when one is broken or the commit fails. */
    int (*commit)(struct cdb_sink *s, char *err, size_t errlen);
    void (*abort)(struct cdb_sink *s);
};

/* A sink that writes the case index into db. */
void cdb_sink_cases_init(struct cdb_sink *s, struct cdb *db);

#endif
