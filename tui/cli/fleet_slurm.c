/* Slurm's commands by argv (fleet_slurm.h). */
#include "tui/cli/fleet_slurm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/api/faces.h"

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        s[--n] = '\0';
}

int fleet_slurm_run(const char *name, const char *const *args, char *out, size_t outlen)
{
    char path[4096];
    if (!eng_tool_find(name, path, sizeof path)) {
        snprintf(out, outlen, "%s not found on PATH (Slurm's client commands are needed)", name);
        return -1;
    }
    /* eng_tool_run takes char *const[]: copies, so nothing const is cast away */
    char *argv[32] = {xstrdup(path)};
    size_t n = 1;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = xstrdup(args[n - 1]);
    argv[n] = NULL;
    int rc = eng_tool_run(argv, out, outlen);
    for (size_t i = 0; i < n; i++)
        free(argv[i]);
    trim(out);
    return rc < 0 ? 1 : rc;
}

int fleet_sbatch(const char *const *args, char *id, size_t idlen, char *err, size_t errlen)
{
    const char *argv[32] = {"--parsable"};
    size_t n = 1;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    char out[4096];
    int rc = fleet_slurm_run("sbatch", argv, out, sizeof out);
    /* --parsable prints "JOBID" or "JOBID;CLUSTER" on its last line, after any warnings */
    const char *last = strrchr(out, '\n');
    last = last ? last + 1 : out;
    size_t digits = strspn(last, "0123456789");
    if (rc != 0 || digits == 0 || digits >= idlen || (last[digits] && last[digits] != ';')) {
        snprintf(err, errlen, "sbatch: %s", out[0] ? out : "no job id printed");
        return -1;
    }
    snprintf(id, idlen, "%.*s", (int)digits, last);
    return 0;
}

/* "STATE|NODE" on the first line of out into state and node; false when there is none. */
static bool take_state(char *out, char *state, size_t slen, char *node, size_t nlen)
{
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = '\0';
    char *bar = strchr(out, '|');
    if (!out[0] || !bar)
        return false;
    *bar = '\0';
    /* sacct says "CANCELLED by 0"; the state is the first word */
    snprintf(state, slen, "%.*s", (int)strcspn(out, " "), out);
    snprintf(node, nlen, "%.*s", (int)strcspn(bar + 1, "|"), bar + 1);
    return state[0] != '\0';
}

int fleet_task_state(const char *job, int index, char *state, size_t slen, char *node,
                     size_t nlen, char *why, size_t whylen)
{
    char task[64], out[2048], out2[2048];
    snprintf(task, sizeof task, "%s_%d", job, index);
    const char *sq[] = {"-h", "-t", "all", "-j", task, "-o", "%T|%N", NULL};
    if (fleet_slurm_run("squeue", sq, out, sizeof out) == 0 &&
        take_state(out, state, slen, node, nlen))
        return 0;
    const char *sa[] = {"-n", "-X", "-P", "-j", task, "-o", "State,NodeList", NULL};
    if (fleet_slurm_run("sacct", sa, out2, sizeof out2) == 0 &&
        take_state(out2, state, slen, node, nlen))
        return 0;
    snprintf(why, whylen, "squeue: %s; sacct: %s", out[0] ? out : "no such job",
             out2[0] ? out2 : "no such job");
    return -1;
}
