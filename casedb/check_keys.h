/* Ids of check keys. A check is matched across runs and machines by its key (rung, suite,
 * check, shape, variant); the key's text is stored once in check_keys and every check row
 * carries only its id (migration 2). Internal to casedb/.
 *
 * A cache remembers the ids it has seen, so a merge of 100,000 checks over a few thousand
 * distinct keys asks SQLite once per key, not once per check. Ids are created on first use,
 * inside the caller's transaction: a rolled-back merge takes its new keys with it, and the
 * caller must then drop the cache (its ids may no longer exist). */
#ifndef KL_CASEDB_CHECK_KEYS_H
#define KL_CASEDB_CHECK_KEYS_H

#include <sqlite3.h>
#include <stddef.h>

#include "casedb/results.h"

struct cdb;
struct cdb_key_cache;

/* Prepares the lookups on db's connection; NULL (err set) when SQLite refuses. */
struct cdb_key_cache *cdb_key_cache_new(struct cdb *db, char *err, size_t errlen);
/* The id of c's key, created when new. NULL suite/check/shape/variant count as "". */
int cdb_key_id(struct cdb_key_cache *kc, const struct cdb_check *c, sqlite3_int64 *id, char *err,
               size_t errlen);
void cdb_key_cache_free(struct cdb_key_cache *kc);

#endif
