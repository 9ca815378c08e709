/* The string arena of a result list (results_query.h, hosts.h): a list's strings are copied
 * into a few large blocks, so freeing 100,000 checks is one walk over those blocks, not 100,000
 * frees. Internal to casedb/. */
#ifndef KL_CASEDB_POOL_H
#define KL_CASEDB_POOL_H

#include <sqlite3.h>
#include <stddef.h>

struct cdb_pool;

struct cdb_pool *cdb_pool_new(void);
/* Frees every string the pool handed out; NULL is a no-op. */
void cdb_pool_free(struct cdb_pool *p);
/* A copy of column i of st's current row, valid until cdb_pool_free; NULL stays NULL. */
const char *cdb_pool_col(struct cdb_pool *p, sqlite3_stmt *st, int i);

#endif
