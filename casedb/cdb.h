/* The kladder database: SQLite in WAL mode with foreign keys on, migrated by PRAGMA user_version.
 * Every SQL statement of the program lives in casedb/ (DESIGN). Functions return 0 on success
 * and -1 on failure with a message in err (a person can act on it), unless they say otherwise;
 * they never print. */
#ifndef KL_CASEDB_CDB_H
#define KL_CASEDB_CDB_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/case.h"

struct cdb; /* opaque handle */

/* The schema version this build migrates to (the length of casedb/schema.c's list). */
#define CDB_SCHEMA_VERSION 10

/* Opens (creating and migrating when needed) the database at path; ":memory:" works for tests.
 * A database newer than CDB_SCHEMA_VERSION is refused. */
int cdb_open(const char *path, struct cdb **out, char *err, size_t errlen);
/* A second, read-only connection to a database another connection has opened (and migrated):
 * for a reader on another thread. A database at any other schema version is refused;
 * ":memory:" cannot be shared and is refused too. */
int cdb_open_reader(const char *path, struct cdb **out, char *err, size_t errlen);
void cdb_close(struct cdb *db);
/* The path the database was opened with. */
const char *cdb_path(const struct cdb *db);
/* Makes the statement running on db's connection stop soon with an error; safe to call from
 * another thread while db is in use (sqlite3_interrupt). */
void cdb_interrupt(struct cdb *db);

/* Transactions: everything between begin and commit lands together or not at all. They nest:
 * only the outermost begin and commit reach SQLite, so a function with its own transaction can
 * run inside its caller's. A rollback at any depth undoes the outermost transaction whole. */
int cdb_tx_begin(struct cdb *db, char *err, size_t errlen);
int cdb_tx_commit(struct cdb *db, char *err, size_t errlen);
void cdb_tx_rollback(struct cdb *db);

/* Every transaction that writes takes the write lock up front (BEGIN IMMEDIATE), so that a
 * connection that finds another one writing waits for it under the busy timeout. A deferred
 * transaction (a bare BEGIN, or a SAVEPOINT outside a transaction) that reads first cannot
 * wait: its upgrade to a writer fails at once with "database is locked" whenever another
 * connection wrote meanwhile, and SQLite calls no busy handler for it.
 *
 * A unit of writes lands whole or not at all: outside a transaction it is one of its own,
 * begun IMMEDIATE; inside the caller's (cdb_tx_begin), a savepoint, so that a failing unit
 * undoes only itself. cdb_unit_begin returns 1 (a transaction of its own), 0 (a savepoint) or
 * -1 with err; that answer is what cdb_unit_commit and cdb_unit_rollback take. A commit that
 * fails rolls the unit back. */
int cdb_unit_begin(struct cdb *db, char *err, size_t errlen);
int cdb_unit_commit(struct cdb *db, int unit, char *err, size_t errlen);
void cdb_unit_rollback(struct cdb *db, int unit);

/* How long a connection waits for another's lock before it gives up (sqlite3_busy_timeout). */
#define CDB_BUSY_TIMEOUT_MS 30000

/* Number of cases stored (0 on a fresh database). */
int cdb_case_count(struct cdb *db, int *count, char *err, size_t errlen);

/* Filter for case queries. Zero/NULL fields do not filter. */
struct cdb_case_filter {
    int gap;             /* primary gap 1..7 */
    int rung;            /* 1..CDB_RUNG_MAX */
    const char *repo;    /* "aiter", "flydsl", "sglang", "atom": the case's own repository */
    const char *mentions; /* a repository any of the case's references is in (a case of aiter
                             whose fix went into FlyDSL mentions flydsl) */
    const char *symptom; /* one tag */
    const char *search;  /* English or Chinese text; every whitespace-separated term must occur
                            (case-insensitively for ASCII) in the id, arch, refs and their
                            titles, titles, summaries, figures, models, symptoms or the test
                            that catches it */
};

struct cdb_case_list {
    struct cdb_case *items;
    size_t n;
};

/* Loads the cases matching f (NULL: all), ordered by gap, rung, id. */
int cdb_cases_query(struct cdb *db, const struct cdb_case_filter *f, struct cdb_case_list *out,
                    char *err, size_t errlen);
/* Loads one case by id; returns 1 when found, 0 when not, -1 on error. */
int cdb_case_get(struct cdb *db, const char *id, struct cdb_case *out, char *err, size_t errlen);
void cdb_case_list_free(struct cdb_case_list *l);

/* Gaps (7) and rungs (8), ordered by number. The arrays are malloc'd; free each element with
 * cdb_gap_free/cdb_rung_free and then the array. */
int cdb_gaps_load(struct cdb *db, struct cdb_gap **out, size_t *n, char *err, size_t errlen);
int cdb_rungs_load(struct cdb *db, struct cdb_rung **out, size_t *n, char *err, size_t errlen);

/* A facet count: how many cases (under the other filters) have each value. */
struct cdb_facet {
    char *value; /* "1".."7" for gaps and rungs, the repo name, or the tag */
    int count;
};
enum cdb_facet_kind { CDB_FACET_GAP, CDB_FACET_RUNG, CDB_FACET_REPO, CDB_FACET_SYMPTOM };
int cdb_facets(struct cdb *db, enum cdb_facet_kind kind, const struct cdb_case_filter *f,
               struct cdb_facet **out, size_t *n, char *err, size_t errlen);
void cdb_facets_free(struct cdb_facet *f, size_t n);

/* Small facts about the database (e.g. "index_source", "index_hash"). get returns a malloc'd
 * value or NULL when unset; set replaces. */
char *cdb_meta_get(struct cdb *db, const char *key);
int cdb_meta_set(struct cdb *db, const char *key, const char *value, char *err, size_t errlen);

/* A number that changes whenever another process commits to the database (SQLite's
 * data_version): a long-lived reader compares it to learn that runs, hosts or pulls changed
 * under it (another terminal's `kladder hosts rename`, run or pull). -1 when it cannot be read. */
long long cdb_outside_changes(struct cdb *db);

/* The raw SQLite handle, for tests that look at the stored rows directly; casedb's own files
 * use struct cdb's member (cdb_internal.h), and no other program code may use it (DESIGN: only
 * casedb writes SQL). */
struct sqlite3 *cdb_handle(struct cdb *db);

#endif
