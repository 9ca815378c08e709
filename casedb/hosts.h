/* The hosts table: the other machines whose results are pulled (docs/remote.md). A host is a
 * name and the URL of its exported document, with what the last pull left behind.
 *
 * Nothing here prints. Ownership: a host list owns its strings (one arena per list); the const
 * char * fields stay valid until cdb_host_list_free. */
#ifndef KL_CASEDB_HOSTS_H
#define KL_CASEDB_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

struct cdb;
struct cdb_pool; /* string arena owned by a list */

struct cdb_host {
    const char *name;
    const char *url;
    const char *added;      /* ISO time */
    const char *last_pull;  /* ISO time of the last successful pull; NULL never */
    const char *last_error; /* a column of the schema that no pull fills yet: NULL */
    const char *cursor;     /* newest `finished` pulled; NULL: nothing yet */
    int runs;               /* runs pulled from it */
};
struct cdb_host_list {
    struct cdb_host *items; /* ordered by name */
    size_t n;
    struct cdb_pool *pool;
};

/* A host name: 1 to 64 characters of [a-z0-9._-], not starting with '.' or '-', and not the
 * reserved word "local". */
bool cdb_host_name_valid(const char *name);

int cdb_hosts_list(struct cdb *db, struct cdb_host_list *out, char *err, size_t errlen);
/* Looks a host up by name (by_url false) or by URL. Returns 1 found (out holds it), 0 not, -1
 * error (out is then empty). Free out with cdb_host_list_free after 1 and 0 alike. */
int cdb_host_find(struct cdb *db, const char *key, bool by_url, struct cdb_host_list *out,
                  char *err, size_t errlen);
void cdb_host_list_free(struct cdb_host_list *l);
/* Adds a host, added now. An existing name is an error, and so is a URL that another host
 * already pulls from: its runs belong to that host, so a second name would stay empty (the
 * message names the first host and `kladder hosts rename`). The caller validates the name
 * (cdb_host_name_valid) and the URL. */
int cdb_host_add(struct cdb *db, const char *name, const char *url, char *err, size_t errlen);
/* Adds a host with the given added time unless one of that name is stored, which is then left
 * as it is (a pull by URL names its host on the fly). Meant to run inside the pull's
 * transaction. */
int cdb_host_ensure(struct cdb *db, const char *name, const char *url, const char *added,
                    char *err, size_t errlen);
/* Removes a host. Runs pulled from it would otherwise look local, so with purge false a host
 * that has runs is refused; purge deletes them (and their checks) in the same transaction.
 * Returns 1 removed, 0 no such host, -1 error; *purged gets the runs deleted. */
int cdb_host_remove(struct cdb *db, const char *name, bool purge, int *purged, char *err,
                    size_t errlen);
/* Renames a host; its pulled runs go with it (they keep their machine and its host name).
 * Returns 1 renamed, 0 no host named old, -1 error (new already taken, or SQLite). One
 * transaction. The caller validates new with cdb_host_name_valid. */
int cdb_host_rename(struct cdb *db, const char *old, const char *new_name, char *err,
                    size_t errlen);
/* Records a successful pull: last_pull, the new cursor (NULL keeps the old one), clears
 * last_error. A name not stored changes nothing. Meant to run inside the pull's transaction. */
int cdb_host_set_pulled(struct cdb *db, const char *name, const char *when, const char *cursor,
                        char *err, size_t errlen);
/* Forgets the cursor, so the next pull reads everything again. */
int cdb_host_reset_cursor(struct cdb *db, const char *name, char *err, size_t errlen);

#endif
