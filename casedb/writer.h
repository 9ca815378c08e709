/* The one writer of results: every machine, run and check row enters the database here, whether
 * the runner records it (results.h: cdb_machine_put, cdb_run_put, cdb_check_put, cdb_run_finish)
 * or a pull merges it (merge.h). Internal to casedb/.
 *
 * What a row holds is decided once: a NULL machine host, backend, device, target or kladder
 * version, run host, or check oracle or detail is stored as "" (a NULL part of a check's key
 * too, check_keys.h), a negative first_bad or bad_count and a NAN double as NULL, a verdict by
 * its name.
 *
 * A writer prepares each statement on first use and reuses it for every later row, so a merge
 * of 100,000 checks compiles each statement once. It never begins or ends a transaction: the
 * caller does. Check keys get ids inside the caller's transaction (check_keys.h), so after a
 * rollback of anything the writer wrote the caller frees the writer. Strings given to a put are
 * only read during the call. */
#ifndef KL_CASEDB_WRITER_H
#define KL_CASEDB_WRITER_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "casedb/results.h"

struct cdb;
struct cdb_writer;

struct cdb_writer *cdb_writer_new(struct cdb *db);
/* NULL is a no-op. */
void cdb_writer_free(struct cdb_writer *w);

/* Inserts m unless a machine with its id is stored (that one is left as it is); *added says
 * which. */
int cdb_writer_machine(struct cdb_writer *w, const struct cdb_machine *m, bool *added, char *err,
                       size_t errlen);
/* Inserts r, whose uuid must be new; origin is hosts.name for a pulled run, NULL for a run made
 * here. counts (indexed by enum cdb_verdict; NULL: all 0) are the run's checks per verdict.
 * *id gets the run's row id, which checks refer to. */
int cdb_writer_run(struct cdb_writer *w, const struct cdb_run *r, const char *origin,
                   const int *counts, sqlite3_int64 *id, char *err, size_t errlen);
/* Inserts c as a check of run row run_id (c->run_uuid is not read), giving its key an id when
 * the key is new. The run's counts are not touched: see cdb_writer_count. */
int cdb_writer_check(struct cdb_writer *w, sqlite3_int64 run_id, const struct cdb_check *c,
                     char *err, size_t errlen);

#endif
