/* Slurm's own commands as kladder fleet's interface to the scheduler: sbatch submits, scontrol
 * pins a held array task to its node or partition and releases the array, squeue and sacct say
 * what became of a task. Nothing of Slurm is reimplemented; a command's own error text is
 * handed back as it printed it. Commands run by argv, never through a shell. */
#ifndef KL_TUI_CLI_FLEET_SLURM_H
#define KL_TUI_CLI_FLEET_SLURM_H

#include <stdbool.h>
#include <stddef.h>

/* Runs the Slurm command name (found on $PATH) with args (NULL-terminated, without argv[0]);
 * what it printed goes to out (stdout and stderr together, trailing newlines trimmed).
 * Returns its exit status, or -1 when it is not installed (out says so). */
int fleet_slurm_run(const char *name, const char *const *args, char *out, size_t outlen);

/* `sbatch --parsable ARGS...`: the job id in id (digits only). Returns 0, or -1 with sbatch's
 * own output in err. */
int fleet_sbatch(const char *const *args, char *id, size_t idlen, char *err, size_t errlen);

/* What became of array task JOB_INDEX: state ("COMPLETED", "FAILED", "TIMEOUT", ...) and node,
 * from squeue (the controller still knows recent jobs) or else sacct. Returns 0, or -1 with
 * the two commands' own words in why. */
int fleet_task_state(const char *job, int index, char *state, size_t slen, char *node,
                     size_t nlen, char *why, size_t whylen);

#endif
