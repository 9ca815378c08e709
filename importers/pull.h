/* `kladder pull`: fetch the results documents of several hosts at once, validate each whole,
 * keep only runs at or after the host's cursor, and merge each host in its own transaction.
 * The TUI calls the same function; nothing here prints.
 *
 * Incremental pulls: the host's cursor is the newest `finished` time it has sent. The sources
 * are static files (file://, a plain web server, sftp), so the whole document is fetched and the
 * filter runs here, after validation; runs finished in the cursor's own second are looked at
 * again and counted as already present. `full` ignores the cursor. */
#ifndef KL_IMPORTERS_PULL_H
#define KL_IMPORTERS_PULL_H

#include <stdbool.h>
#include <stddef.h>

#include "importers/remote.h"

struct cdb;

struct imp_pull_opts {
    struct imp_fetch_opts fetch;
    bool full;
};
void imp_pull_opts_init(struct imp_pull_opts *o);

struct imp_pull_result {
    char label[128]; /* the host's name, or the URL given (sanitised) */
    char origin[72]; /* the hosts row the runs were filed under; empty when none */
    bool ok;
    bool unknown; /* not ok because the name given is no host and no URL: a usage error */
    size_t new_runs, new_checks, present_runs, new_machines, older_runs;
    double fetch_s, parse_s, merge_s; /* wall time of each step (the fetch is shared) */
    char err[768];
};

/* specs: host names of the hosts table or URLs; n == 0 pulls every host. A URL not in the
 * hosts table is added as a host named after the host that exported the document.
 * *out (malloc'd, *n_out entries) gets one result per distinct target, in the order given.
 * Returns the number of targets that failed, or -1 (with err) when nothing could start. */
int imp_pull(struct cdb *db, const char *const *specs, size_t n, const struct imp_pull_opts *o,
             struct imp_pull_result **out, size_t *n_out, char *err, size_t errlen);

#endif
