/* kladder fleet collect DIR and kladder fleet status JOB|DIR (fleet.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "casedb/cdb.h"
#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "importers/fleet_dir.h"
#include "tui/cli/cli.h"
#include "tui/cli/fleet.h"
#include "tui/cli/fleet_slurm.h"
#include "tui/cli/opts.h"
#include "tui/cli/pull_report.h"

#define LOG_TAIL_LINES 6

static void help(const struct cli_parser *p)
{
    (void)p; /* collect's and status's table has no options to list: submit's are fleet's */
    fleet_help();
}

/* The last LOG_TAIL_LINES lines of a task's log, each indented and sanitised, on stderr. */
static void print_log_tail(const char *dir, int index)
{
    char *path = xasprintf("%s/logs/task-%d.log", dir, index), err[512];
    char *text = file_read_all(path, NULL, err, sizeof err);
    if (!text) {
        fprintf(stderr, "  no log: %s\n", err);
        free(path);
        return;
    }
    size_t len = strlen(text);
    while (len && text[len - 1] == '\n')
        text[--len] = '\0';
    const char *start = text + len;
    for (int lines = 0; start > text && lines < LOG_TAIL_LINES; start--)
        if (start[-1] == '\n' && ++lines == LOG_TAIL_LINES)
            break;
    fprintf(stderr, "  log %s, last lines:\n", path);
    char *copy = xstrdup(start);
    for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *clean = text_sanitize(line, false);
        fprintf(stderr, "    %s\n", clean);
        free(clean);
    }
    free(copy);
    free(text);
    free(path);
}

/* A task that left no export: its Slurm state (or why none is known) and its log's tail. */
static void report_missing(const char *dir, const struct imp_fleet *f, size_t i)
{
    const struct imp_fleet_target *t = &f->t[i];
    char state[64], node[256], why[4096];
    if (!f->array_job[0])
        fprintf(stderr, "%s: error: no export (task %d; no job id recorded)\n", t->label,
                t->index);
    else if (fleet_task_state(f->array_job, t->index, state, sizeof state, node, sizeof node, why,
                              sizeof why) == 0)
        fprintf(stderr, "%s: error: no export: task %s_%d %s on %s\n", t->label, f->array_job,
                t->index, state, node[0] ? node : "no node");
    else
        fprintf(stderr, "%s: error: no export: task %s_%d, state not known (%s)\n", t->label,
                f->array_job, t->index, why);
    print_log_tail(dir, t->index);
}

static bool has_label(char **labels, size_t n, const char *label)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(labels[i], label) == 0)
            return true;
    return false;
}

static int collect(const struct cli_global *g, const char *dir)
{
    struct imp_fleet f;
    char err[1024];
    char **labels = NULL;
    size_t n = 0;
    if (imp_fleet_read(dir, &f, err, sizeof err) != 0 ||
        imp_fleet_exports(dir, &labels, &n, err, sizeof err) != 0) {
        fprintf(stderr, "kladder fleet: %s\n", err);
        imp_fleet_free(&f);
        return 2;
    }
    struct cdb *db = cli_open_db_write(g, "fleet");
    if (!db) {
        imp_fleet_labels_free(labels, n);
        imp_fleet_free(&f);
        return 2;
    }
    struct imp_pull_opts o;
    imp_pull_opts_init(&o);
    struct imp_pull_result *res = NULL;
    size_t nres = 0;
    int failed = imp_fleet_collect(db, dir, (const char *const *)labels, n, &o, &res, &nres, err,
                                   sizeof err);
    cdb_close(db);
    if (failed < 0) {
        fprintf(stderr, "kladder fleet: %s\n", err);
        failed = 1;
    }
    for (size_t i = 0; i < nres; i++)
        pull_report_line(&res[i]);
    fflush(stdout);
    int missing = 0;
    for (size_t i = 0; i < f.n; i++)
        if (!has_label(labels, n, f.t[i].label)) {
            report_missing(dir, &f, i);
            missing++;
        }
    if (n == 0 && f.n == 0)
        fprintf(stderr, "kladder fleet: %s holds no export (LABEL.json) and no fleet.targets\n",
                dir);
    free(res);
    imp_fleet_labels_free(labels, n);
    imp_fleet_free(&f);
    return failed || missing || (n == 0 && f.n == 0) ? 1 : 0;
}

int fleet_collect(int argc, char **argv, const struct cli_global *g)
{
    const char *dir = NULL;
    const struct cli_opt opts[] = {CLI_OPT_HELP("--help", help), CLI_OPT_HELP("-h", help)};
    const struct cli_parser p = {.verb = "fleet", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_STRING(NULL, &dir)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc == CLI_PARSED && !dir)
        rc = cli_usage_error("fleet", "collect expects DIR (the fleet folder given to submit)");
    return rc == CLI_PARSED ? collect(g, dir) : rc;
}

/* The label of array task index, or "" when f does not know it. */
static const char *label_of(const struct imp_fleet *f, const char *task)
{
    char *end;
    long i = strtol(task, &end, 10);
    return *end == '\0' && end != task && i >= 0 && (size_t)i < f->n ? f->t[i].label : "";
}

/* One job's tasks from squeue, else sacct, as a table; their own errors when neither knows. */
static int show_job(const char *job, const struct imp_fleet *f, const char *what)
{
    char out[16384], out2[16384];
    const char *sq[] = {"-h", "-t", "all", "-j", job, "-o", "%K|%T|%N|%M|%r", NULL};
    const char *sa[] = {"-n", "-X", "-P", "-j", job, "-o", "JobID,State,NodeList,Elapsed,ExitCode",
                        NULL};
    bool from_squeue = fleet_slurm_run("squeue", sq, out, sizeof out) == 0 && out[0];
    if (!from_squeue && (fleet_slurm_run("sacct", sa, out2, sizeof out2) != 0 || !out2[0])) {
        fprintf(stderr, "kladder fleet: %s %s: squeue: %s\nsacct: %s\n", what, job,
                out[0] ? out : "no such job", out2[0] ? out2 : "no such job");
        return 1;
    }
    printf("%s %s (from %s)\n%-8s %-16s %-12s %-16s %-10s %s\n", what, job,
           from_squeue ? "squeue" : "sacct", "TASK", "LABEL", "STATE", "NODE", "TIME",
           from_squeue ? "REASON" : "EXIT");
    char *text = from_squeue ? out : out2;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *field[5] = {0};
        int k = 0;
        for (char *s2 = NULL, *c = strtok_r(line, "|", &s2); c && k < 5; c = strtok_r(NULL, "|", &s2))
            field[k++] = c;
        if (k < 5)
            continue;
        /* sacct names a task JOB_I; squeue gives I alone */
        const char *task = strchr(field[0], '_') ? strchr(field[0], '_') + 1 : field[0];
        char *clean[5];
        for (int j = 0; j < 5; j++)
            clean[j] = text_sanitize(field[j], false);
        printf("%-8s %-16s %-12s %-16s %-10s %s\n", clean[0], label_of(f, task), clean[1],
               clean[2], clean[3], clean[4]);
        for (int j = 0; j < 5; j++)
            free(clean[j]);
    }
    return 0;
}

static int status(const char *arg)
{
    struct imp_fleet f = {0};
    char err[1024];
    struct stat st;
    const char *job = arg;
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (imp_fleet_read(arg, &f, err, sizeof err) != 0) {
            fprintf(stderr, "kladder fleet: %s\n", err);
            return 2;
        }
        if (!f.array_job[0]) {
            fprintf(stderr, "kladder fleet: %s/%s names no job array (was it submitted?)\n", arg,
                    IMP_FLEET_JOBS);
            imp_fleet_free(&f);
            return 2;
        }
        job = f.array_job;
    } else if (!arg[0] || strspn(arg, "0123456789") != strlen(arg)) {
        return cli_usage_error("fleet", "status expects a job id or a fleet folder");
    }
    int rc = show_job(job, &f, "job array");
    if (f.collect_job[0] && show_job(f.collect_job, &f, "collect job") != 0)
        rc = 1;
    imp_fleet_free(&f);
    return rc;
}

int fleet_status(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    const char *arg = NULL;
    const struct cli_opt opts[] = {CLI_OPT_HELP("--help", help), CLI_OPT_HELP("-h", help)};
    const struct cli_parser p = {.verb = "fleet", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_STRING(NULL, &arg)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc == CLI_PARSED && !arg)
        rc = cli_usage_error("fleet", "status expects a job id or a fleet folder");
    return rc == CLI_PARSED ? status(arg) : rc;
}
