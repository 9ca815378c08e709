/* kladder fleet submit: writes the fleet folder's scripts and submits them (fleet.h). */
#include "tui/cli/fleet.h"

#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "importers/fleet_dir.h"
#include "tui/cli/cli.h"
#include "tui/cli/fleet_script.h"
#include "tui/cli/fleet_slurm.h"
#include "tui/cli/opts.h"

struct submit_opts {
    const char *out, *time_limit, *kladder;
    struct cli_list nodes, partitions, run_args, sbatch;
    bool dry_run, no_collect;
};

/* An absolute form of path (which need not exist yet), malloc'd. */
static char *absolute(const char *path)
{
    char real[PATH_MAX];
    if (realpath(path, real))
        return xstrdup(real);
    if (path[0] == '/')
        return xstrdup(path);
    char cwd[PATH_MAX];
    return xasprintf("%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", path);
}

/* Appends the comma-separated items of each list entry to f as targets. */
static int add_targets(struct imp_fleet *f, const struct cli_list *l, bool partition)
{
    for (size_t i = 0; i < l->n; i++) {
        char *copy = xstrdup(l->v[i]);
        int rc = 0;
        for (char *save = NULL, *item = strtok_r(copy, ",", &save); item && rc == 0;
             item = strtok_r(NULL, ",", &save)) {
            char err[512];
            struct imp_fleet_target t;
            if (f->n == IMP_FLEET_MAX_TASKS)
                rc = cli_usage_error("fleet", "more than %d targets", IMP_FLEET_MAX_TASKS);
            else if (imp_fleet_parse_target(item, partition, &t, err, sizeof err) != 0)
                rc = cli_usage_error("fleet", "%s %s", partition ? "--partition" : "--nodes", err);
            for (size_t k = 0; rc == 0 && k < f->n; k++)
                if (strcmp(f->t[k].label, t.label) == 0)
                    rc = cli_usage_error("fleet", "two targets are labelled '%s'; give each its "
                                                  "own with LABEL=%s", t.label,
                                         partition ? "PARTITION" : "NODE");
            if (rc == 0) {
                t.index = (int)f->n;
                f->t = xrealloc(f->t, (f->n + 1) * sizeof *f->t);
                f->t[f->n++] = t;
            }
        }
        free(copy);
        if (rc)
            return rc;
    }
    return 0;
}

/* Every text that goes into a script must be safe there; the first that is not is named. */
static int check_safe(const struct fleet_script_in *in)
{
    const char *what[] = {"--out", "--kladder", "--db"};
    const char *val[] = {in->dir, in->kladder, in->db};
    for (int i = 0; i < 3; i++) {
        const char *why = fleet_script_unsafe(val[i]);
        if (why)
            return cli_usage_error("fleet", "%s path cannot go into the script: %s", what[i], why);
    }
    const char *const *lists[] = {in->run_args, in->sbatch};
    for (int l = 0; l < 2; l++)
        for (const char *const *a = lists[l]; *a; a++) {
            const char *why = fleet_script_unsafe(*a);
            if (why)
                return cli_usage_error("fleet", "'%s' cannot go into the script: %s", *a, why);
        }
    const char *why = in->time_limit ? fleet_script_unsafe(in->time_limit) : NULL;
    return why ? cli_usage_error("fleet", "--time cannot go into the script: %s", why) : 0;
}

static int write_file(const char *dir, const char *name, const char *text)
{
    char *path = xasprintf("%s/%s", dir, name), err[1024];
    int rc = file_write_atomic(path, text, strlen(text), err, sizeof err);
    if (rc)
        fprintf(stderr, "kladder fleet: %s\n", err);
    free(path);
    return rc;
}

/* sbatch --hold, pin each task with scontrol, release; then the collect job after it. */
static int submit(const struct fleet_script_in *in, struct imp_fleet *f, bool collect)
{
    char err[4096], out[4096];
    char *script = xasprintf("%s/fleet.sbatch", in->dir);
    const char *args[] = {"--hold", script, NULL};
    int rc = fleet_sbatch(args, f->array_job, sizeof f->array_job, err, sizeof err);
    free(script);
    if (rc) {
        fprintf(stderr, "kladder fleet: %s\n", err);
        return 2;
    }
    for (size_t i = 0; i < f->n && rc == 0; i++) {
        char job[64], where[300];
        snprintf(job, sizeof job, "JobId=%s_%d", f->array_job, f->t[i].index);
        snprintf(where, sizeof where, "%s=%s", f->t[i].partition ? "Partition" : "NodeList",
                 f->t[i].where);
        const char *upd[] = {"update", job, where, NULL};
        if ((rc = fleet_slurm_run("scontrol", upd, out, sizeof out)) != 0)
            fprintf(stderr, "kladder fleet: scontrol update %s %s: %s\n", job, where, out);
    }
    const char *rel[] = {"release", f->array_job, NULL};
    if (rc == 0 && (rc = fleet_slurm_run("scontrol", rel, out, sizeof out)) != 0)
        fprintf(stderr, "kladder fleet: scontrol release %s: %s\n", f->array_job, out);
    if (rc != 0) {
        const char *cancel[] = {f->array_job, NULL};
        fleet_slurm_run("scancel", cancel, out, sizeof out);
        fprintf(stderr, "kladder fleet: job array %s cancelled\n", f->array_job);
        return 2;
    }
    if (collect) {
        char dep[64];
        snprintf(dep, sizeof dep, "--dependency=afterany:%s", f->array_job);
        char *cscript = xasprintf("%s/collect.sbatch", in->dir);
        const char *cargs[] = {dep, cscript, NULL};
        rc = fleet_sbatch(cargs, f->collect_job, sizeof f->collect_job, err, sizeof err);
        free(cscript);
        if (rc)
            fprintf(stderr, "kladder fleet: the collect job: %s\n(the array runs; collect with "
                            "kladder fleet collect %s)\n", err, in->dir);
    }
    if (imp_fleet_write_jobs(in->dir, f, err, sizeof err) != 0)
        fprintf(stderr, "kladder fleet: %s\n", err);
    printf("job array %s: %zu task%s\n", f->array_job, f->n, f->n == 1 ? "" : "s");
    for (size_t i = 0; i < f->n; i++)
        printf("  %d %s: %s %s\n", f->t[i].index, f->t[i].label,
               f->t[i].partition ? "partition" : "node", f->t[i].where);
    if (f->collect_job[0])
        printf("collect job %s pulls every export into %s once the array is over\n",
               f->collect_job, in->db);
    printf("kladder fleet status %s\n", in->dir);
    return rc ? 1 : 0;
}

/* What submit writes into the fleet folder, and whether each was there before, so that a
 * submission Slurm refused takes back what it wrote and leaves the folder as it found it. */
static const char *const written[] = {"logs", IMP_FLEET_TARGETS, "fleet.sbatch", "collect.sbatch"};
#define N_WRITTEN (sizeof written / sizeof *written)

/* The outermost folder of dir that is not there yet (file_mkdirs makes them all), or NULL. */
static char *first_missing(const char *dir)
{
    char *top = NULL, *p = xstrdup(dir);
    for (char *slash; access(p, F_OK) != 0; *slash = '\0') {
        free(top);
        top = xstrdup(p);
        if (!(slash = strrchr(p, '/')) || slash == p)
            break;
    }
    free(p);
    return top;
}

static void note_present(const char *dir, char **made, bool was[N_WRITTEN])
{
    *made = first_missing(dir);
    for (size_t i = 0; i < N_WRITTEN; i++) {
        char *p = xasprintf("%s/%s", dir, written[i]);
        was[i] = access(p, F_OK) == 0;
        free(p);
    }
}

static void take_back(const char *dir, const char *made, const bool was[N_WRITTEN])
{
    for (size_t i = N_WRITTEN; i-- > 0;) {
        char *p = xasprintf("%s/%s", dir, written[i]);
        if (!was[i] && (i == 0 ? rmdir(p) : unlink(p)) != 0 && errno != ENOENT)
            fprintf(stderr, "kladder fleet: could not remove %s: %s\n", p, strerror(errno));
        free(p);
    }
    /* the folders submit made, inner first; rmdir takes only empty ones, nobody else's file */
    char *p = xstrdup(dir);
    for (char *slash; made && strlen(p) >= strlen(made) && rmdir(p) == 0 &&
                      (slash = strrchr(p, '/')) && slash != p;)
        *slash = '\0';
    free(p);
}

static int run_submit(const struct cli_global *g, const struct submit_opts *o)
{
    if (!o->out)
        return cli_usage_error("fleet", "submit expects --out DIR (a folder every node can "
                                        "write, as a shared filesystem is)");
    struct imp_fleet f = {0};
    int rc = add_targets(&f, &o->nodes, false);
    if (rc == 0)
        rc = add_targets(&f, &o->partitions, true);
    if (rc == 0 && f.n == 0)
        rc = cli_usage_error("fleet", "submit expects --nodes LIST or --partition LIST");
    if (rc) {
        imp_fleet_free(&f);
        return rc;
    }
    char self[PATH_MAX];
    ssize_t k = o->kladder ? 0 : readlink("/proc/self/exe", self, sizeof self - 1);
    self[k > 0 ? k : 0] = '\0';
    char *db = g->db_path ? absolute(g->db_path) : paths_default_db();
    struct fleet_script_in in = {.kladder = o->kladder ? o->kladder : self,
                                 .dir = NULL, .db = db, .fleet = &f,
                                 .run_args = o->run_args.v, .time_limit = o->time_limit,
                                 .sbatch = o->sbatch.v};
    char *dir = absolute(o->out);
    in.dir = dir;
    rc = check_safe(&in);
    char *array = rc ? NULL : fleet_script_array(&in);
    char *collect = rc ? NULL : fleet_script_collect(&in);
    if (rc == 0 && o->dry_run) {
        printf("%s\n# ---- %s/collect.sbatch\n%s\n", array, dir, collect);
        printf("# submitted as: sbatch --parsable --hold %s/fleet.sbatch; then, per task,\n"
               "# scontrol update JobId=JOB_I NodeList=NODE (or Partition=P); scontrol release "
               "JOB;\n# sbatch --parsable --dependency=afterany:JOB %s/collect.sbatch\n",
               dir, dir);
    } else if (rc == 0) {
        char *logs = xasprintf("%s/logs", dir), err[1024];
        bool was[N_WRITTEN];
        char *made;
        note_present(dir, &made, was);
        if (file_mkdirs(logs, err, sizeof err) != 0) {
            fprintf(stderr, "kladder fleet: %s\n", err);
            rc = 2;
        } else if (imp_fleet_write_targets(dir, &f, err, sizeof err) != 0) {
            fprintf(stderr, "kladder fleet: %s\n", err);
            rc = 2;
        } else if (write_file(dir, "fleet.sbatch", array) ||
                   write_file(dir, "collect.sbatch", collect)) {
            rc = 2;
        } else {
            rc = submit(&in, &f, !o->no_collect);
        }
        if (rc == 2) { /* nothing runs: the scripts of a fleet that is not there go too */
            take_back(dir, made, was);
            fprintf(stderr, "kladder fleet: nothing was submitted; %s is left as it was\n", dir);
        }
        free(made);
        free(logs);
    }
    free(array), free(collect), free(dir), free(db);
    imp_fleet_free(&f);
    return rc;
}

/* What submit's options fill: its own settings, and kladder run's options it hands on. */
struct submit_args {
    struct submit_opts o;
    const char *rung, *suite, *kcase, *backend, *variant;
};

/* Parses submit's arguments against its table, which is also what every fleet subcommand's
 * help lists (fleet_help): the other subcommands take no options. */
static int parse_submit(int argc, char **argv, struct submit_args *a)
{
    struct submit_opts *o = &a->o;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", fleet_print_help),
        CLI_OPT_HELP("-h", fleet_print_help),
        CLI_OPT_STRING_DOC("--out", &o->out, "DIR",
                           "the fleet folder, one every node can write (a shared filesystem)"),
        CLI_OPT_LIST_DOC("--nodes", &o->nodes, "LIST",
                         "targets by node: NODE or LABEL=NODE, comma-separated or repeated (the "
                         "label is the host name the runs are pulled under)"),
        CLI_OPT_LIST_DOC("--partition", &o->partitions, "LIST",
                         "targets by partition: P or LABEL=P"),
        CLI_OPT_STRING_DOC("--rung", &a->rung, "N", "kladder run's --rung, on every node"),
        CLI_OPT_STRING_DOC("--suite", &a->suite, "NAME", "kladder run's --suite, on every node"),
        CLI_OPT_STRING_DOC("--case", &a->kcase, "ID", "kladder run's --case, on every node"),
        CLI_OPT_STRING_CHOICE_DOC("--backend", &a->backend, CLI_WORD_FN(cli_word_backend),
                                  "kladder run's --backend, on every node"),
        CLI_OPT_STRING_CHOICE_DOC("--variant", &a->variant, CLI_WORD_FN(cli_word_variant),
                                  "kladder run's --variant, on every node"),
        CLI_OPT_LIST_DOC("--run-arg", &o->run_args, "ARG",
                         "one more argument for `kladder run` (repeatable)"),
        CLI_OPT_STRING_DOC("--time", &o->time_limit, "LIMIT",
                           "each task's time limit (sbatch --time)"),
        CLI_OPT_LIST_DOC("--sbatch", &o->sbatch, "OPTION",
                         "one more #SBATCH line, e.g. --sbatch --account=lab (repeatable)"),
        CLI_OPT_STRING_DOC("--kladder", &o->kladder, "PATH",
                           "the binary the nodes run (default: this one)"),
        CLI_OPT_FLAG_DOC("--dry-run", &o->dry_run,
                         "print the scripts and the commands; write and submit nothing"),
        CLI_OPT_FLAG_DOC("--no-collect", &o->no_collect,
                         "no collect job: run kladder fleet collect DIR yourself"),
    };
    const struct cli_parser p = {.verb = "fleet", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = {.kind = CLI_NONE}};
    return cli_parse(&p, argc, argv, NULL);
}

static void free_args(struct submit_args *a)
{
    free(a->o.nodes.v), free(a->o.partitions.v), free(a->o.run_args.v), free(a->o.sbatch.v);
}

void fleet_help(void)
{
    struct submit_args a = {0};
    char sub[] = "submit", flag[] = "--help";
    char *argv[] = {sub, flag, NULL};
    parse_submit(2, argv, &a);
    free_args(&a);
}

int fleet_submit(int argc, char **argv, const struct cli_global *g)
{
    struct submit_args a = {0};
    struct submit_opts *o = &a.o;
    int rc = parse_submit(argc, argv, &a);
    if (rc == CLI_PARSED && !a.suite && !a.kcase)
        rc = cli_usage_error("fleet", "submit expects --suite NAME or --case ID (what each node "
                                      "runs)");
    if (rc == CLI_PARSED) {
        /* kladder run's own options first, then --run-arg's, in the order given */
        const char *named[][2] = {{"--rung", a.rung}, {"--suite", a.suite}, {"--case", a.kcase},
                                  {"--backend", a.backend}, {"--variant", a.variant}};
        const char **args = xcalloc(2 * 5 + o->run_args.n + 1, sizeof *args);
        size_t n = 0;
        for (size_t i = 0; i < 5; i++)
            if (named[i][1])
                args[n++] = named[i][0], args[n++] = named[i][1];
        for (size_t i = 0; i < o->run_args.n; i++)
            args[n++] = o->run_args.v[i];
        free(o->run_args.v);
        o->run_args.v = args;
        rc = run_submit(g, o);
    }
    free_args(&a);
    return rc;
}
