/* The fleet folder (docs/fleet.md): what `kladder fleet submit` leaves in DIR, what each task
 * of the job array writes there, and how `kladder fleet collect DIR` pulls it. The folder is
 * the whole contract between the nodes and the collecting side (a Slurm job array or a
 * Kubernetes indexed Job alike):
 *
 *   DIR/fleet.targets   one task a line: "INDEX LABEL KIND WHERE" (kind node or partition)
 *   DIR/fleet.jobs      "array JOBID" and "collect JOBID" lines, when submitted
 *   DIR/logs/task-I.log task I's output (the scheduler writes it)
 *   DIR/LABEL.json      task I's export, written atomically by `kladder export --out`
 *
 * Only names LABEL.json with LABEL a valid host name are exports; the temp files of an atomic
 * write (LABEL.json.tmp.XXXXXX) never are. Nothing here prints. */
#ifndef KL_IMPORTERS_FLEET_DIR_H
#define KL_IMPORTERS_FLEET_DIR_H

#include <stdbool.h>
#include <stddef.h>

#include "importers/pull.h"

struct cdb;

#define IMP_FLEET_TARGETS "fleet.targets"
#define IMP_FLEET_JOBS "fleet.jobs"
#define IMP_FLEET_MAX_TASKS 1000

struct imp_fleet_target {
    int index;          /* the array task id */
    char label[72];     /* the host name its runs are pulled under */
    bool partition;     /* where is a partition (else a node) */
    char where[256];
};

struct imp_fleet {
    struct imp_fleet_target *t; /* malloc'd, n entries, in index order */
    size_t n;
    char array_job[32], collect_job[32]; /* "" when not recorded */
};

/* Reads DIR/fleet.targets and DIR/fleet.jobs. A folder without fleet.targets (exports copied
 * in by hand) is no error: out->n is 0. A malformed line is an error naming file and line. */
int imp_fleet_read(const char *dir, struct imp_fleet *out, char *err, size_t errlen);
void imp_fleet_free(struct imp_fleet *f);
/* Writes DIR/fleet.targets, or DIR/fleet.jobs, atomically. */
int imp_fleet_write_targets(const char *dir, const struct imp_fleet *f, char *err, size_t errlen);
int imp_fleet_write_jobs(const char *dir, const struct imp_fleet *f, char *err, size_t errlen);

/* Parses "LABEL=WHERE" or "WHERE" (the label is then WHERE itself) into t; the label must be
 * a host name (cdb_host_name_valid), WHERE 1-255 characters of [A-Za-z0-9._-] or Slurm's
 * node-range brackets. Returns 0 or -1 with a message naming the item. */
int imp_fleet_parse_target(const char *item, bool partition, struct imp_fleet_target *t, char *err,
                           size_t errlen);

/* The labels of the exports in dir (LABEL.json, sorted), malloc'd strings in a malloc'd array
 * the caller frees with imp_fleet_labels_free. Returns 0 or -1 with err. */
int imp_fleet_exports(const char *dir, char ***labels, size_t *n, char *err, size_t errlen);
void imp_fleet_labels_free(char **labels, size_t n);

/* Pulls the exports of labels[0..n) from dir, each as the host of its label (added with its
 * file:// URL when new; a host of that name pulling another URL is that label's error), each
 * in its own transaction, as `kladder pull` does: a rerun adds nothing twice, and an export
 * that does not validate whole (half written, truncated) lands nothing. *out gets one result a
 * label (malloc'd). Returns the number of labels that failed, or -1 with err. */
int imp_fleet_collect(struct cdb *db, const char *dir, const char *const *labels, size_t n,
                      const struct imp_pull_opts *o, struct imp_pull_result **out, size_t *n_out,
                      char *err, size_t errlen);

#endif
