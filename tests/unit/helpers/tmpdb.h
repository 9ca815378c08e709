/* A database file of its own for a test: a fresh name under /tmp, and its removal with the
 * WAL and shared-memory files SQLite leaves beside it. */
#ifndef KL_TESTS_TMPDB_H
#define KL_TESTS_TMPDB_H

#include <stddef.h>

/* Creates an empty file named like /tmp/kl-TAG-XXXXXX and writes its name into path (len >= 64).
 * Returns 0, or -1 when no file could be made. */
int tmpdb_make(const char *tag, char *path, size_t len);
void tmpdb_remove(const char *path);

#endif
