/* The schema migrations, in order: migration i takes user_version i to i + 1. Each is a
 * NULL-terminated list of SQL scripts run in one transaction. */
#ifndef KL_CASEDB_SCHEMA_H
#define KL_CASEDB_SCHEMA_H

#include <stddef.h>

extern const char *const *const cdb_migrations[];
extern const size_t cdb_migration_count;

#endif
