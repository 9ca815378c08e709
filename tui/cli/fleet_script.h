/* The text of the scripts `kladder fleet submit` hands to sbatch (docs/fleet.md explains each
 * line): a job array of one task per target, each running the ladder into a private database
 * and exporting it atomically to DIR/LABEL.json, and the collect job that pulls every export
 * once the array is over. Pure text: nothing is written or run here. */
#ifndef KL_TUI_CLI_FLEET_SCRIPT_H
#define KL_TUI_CLI_FLEET_SCRIPT_H

#include <stddef.h>

#include "importers/fleet_dir.h"

struct fleet_script_in {
    const char *kladder;          /* absolute path of the binary the nodes run */
    const char *dir;              /* absolute path of the fleet folder (shared by the nodes) */
    const char *db;               /* absolute path of the database collect pulls into */
    const struct imp_fleet *fleet;
    const char *const *run_args;  /* `kladder run`'s arguments, NULL-terminated */
    const char *time_limit;       /* sbatch --time of each task, or NULL */
    const char *const *sbatch;    /* more #SBATCH options (--account=A ...), NULL-terminated */
};

/* A path or option can go on an #SBATCH line and in single quotes: no whitespace, quotes,
 * backslash, '%' or control characters. Returns NULL when it can, else the reason. */
const char *fleet_script_unsafe(const char *s);

/* The job array's script and the collect job's, malloc'd. */
char *fleet_script_array(const struct fleet_script_in *in);
char *fleet_script_collect(const struct fleet_script_in *in);

#endif
