/* Runs whose owner is gone. A run made here records its owning process (common/proc_owner.h);
 * when that process is killed, crashes or the machine reboots, the run would stay `running`
 * forever. A later kladder that opens the database for writing looks at every running run it
 * can judge (same host) and marks those whose owner is gone `interrupted`: a verdict of its own,
 * with the checks the run recorded before it ended. A run whose owner still runs, a run of
 * another host, a pulled run and a run recorded before owners were (no owner) are left as they
 * are. */
#ifndef KL_CASEDB_RUNS_REAP_H
#define KL_CASEDB_RUNS_REAP_H

#include <stddef.h>

#include "common/proc_owner.h"

struct cdb;

/* Marks the running runs whose owner is gone, seen from `here`, interrupted, with finished set
 * to now (the time it was noticed: the run ended at or before it). *marked (may be NULL) gets
 * how many. The marks land together in one transaction. */
int cdb_runs_reap(struct cdb *db, const struct kl_owner *here, int *marked, char *err,
                  size_t errlen);

#endif
