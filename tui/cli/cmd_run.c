/* kladder run --rung N --suite NAME | --case ID [options]: option parsing only; the engine
 * (engine/runner.c) plans, runs, records and reports. `run --worker` is the watchdog's worker
 * mode: it is how every check runs in a process of its own. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "common/xalloc.h"
#include "engine/api/faces.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"
#include "tui/cli/run_e2e.h"
#include "tui/cli/run_rung_opts.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"--suite NAME|PATH [--rung N] %o", "--rung N --suite all %o", "--case ID %o", "--rung 8 --e2e COMMAND --score FORMAT --baseline VALUE|FILE", "--rung 8 --suite model | --case ID   (the built-in model)", "--list", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Runs a rung of the verification ladder on a suite's reproducer\n"
           "(`run --list` lists the suites, their cases and rungs), with the plain unit-test\n"
           "baseline beside it; without --rung, every rung the suite lists. --case runs every rung its suites list, both\n"
           "variants. A rung must fail the buggy variant and pass the fixed one; the baseline\n"
           "passes both. A suite marked \"control\": true has only correct variants: each must\n"
           "pass, and a failure is reported as a false alarm of the harness. Runs are recorded\n"
           "under the suite's own name. --suite all runs every built-in suite the rung applies to\n"
           "(rung 7: the toolchain smoke of every kernel after a compiler or runtime change).\n\n"
           "options:\n");
    cli_print_help(stdout, p);
    printf("\n"
           "verdicts: pass, fail, hang, error, skip, and doubt: an oracle could not vouch\n"
           "either way (the reference breaks its own error bound, or only rows past the\n"
           "output's declared domain differ); doubt is never a catch and never a failure\n");
    printf("exit status: 0 every expectation met (buggy caught, fixed and baselines pass or\n"
           "are in doubt), 1 an expectation not met (a buggy variant whose checks only\n"
           "doubt is not caught) or the run inconclusive (the checks that reach the bug\n"
           "were skipped here), 2 usage or setup error; a suite of your own (no \"case\")\n"
           "states no expectation of its buggy variant: the rungs that caught it and those\n"
           "that did not are reported, and it exits 0 when its fixed variant passed\n");
}

static int list_suites(void)
{
    size_t n;
    const char **names = eng_manifest_list(&n);
    for (size_t i = 0; i < n; i++) {
        char err[512];
        const char *base = strrchr(names[i], '/') + 1;
        char *name = xstrdup(base);
        name[strlen(name) - 5] = '\0';
        struct eng_manifest *m = eng_manifest_load(name, NULL, err, sizeof err);
        if (!m) {
            printf("%-18s (invalid: %s)\n", name, err);
        } else {
            char rungs[32] = "";
            for (int r = 1; r <= eng_rung_top(); r++)
                if (m->has_rung[r])
                    snprintf(rungs + strlen(rungs), sizeof rungs - strlen(rungs), "%s%d",
                             rungs[0] ? "," : "", r);
            printf("%-18s case %-12s rungs %-6s %s\n", m->name, m->case_id ? m->case_id : "-",
                   rungs, m->title_en ? m->title_en : "");
            eng_manifest_free(m);
        }
        free(name);
    }
    free(names);
    return 0;
}

/* --suite all: every built-in suite rung R plans checks for (eng_rung_applies), e.g. rung 7's
 * toolchain smoke over every kernel after a compiler or runtime change. */
static int all_targets(int rung, struct eng_run_target **out, size_t *n, char ***names)
{
    size_t cnt;
    const char **files = eng_manifest_list(&cnt);
    *out = xcalloc(cnt + 1, sizeof **out);
    *names = xcalloc(cnt + 1, sizeof **names);
    *n = 0;
    for (size_t i = 0; i < cnt; i++) {
        char *name = xstrdup(strrchr(files[i], '/') + 1);
        name[strlen(name) - 5] = '\0';
        char err[512];
        struct eng_manifest *m = eng_manifest_load(name, NULL, err, sizeof err);
        if (m && eng_rung_applies(eng_rung_find(rung), m)) {
            (*names)[*n] = name;
            (*out)[*n] = (struct eng_run_target){name, rung};
            (*n)++;
        } else {
            free(name);
        }
        eng_manifest_free(m);
    }
    free(files);
    return *n ? 0 : -1;
}

/* Every built-in suite of a case, each with the rungs it lists. */
static int case_targets(const char *id, struct eng_run_target **out, size_t *n, char ***names)
{
    size_t cnt;
    const char **files = eng_manifest_list(&cnt);
    *out = xcalloc(cnt * (size_t)eng_rung_top() + 1, sizeof **out);
    *names = xcalloc(cnt + 1, sizeof **names);
    *n = 0;
    size_t nn = 0;
    for (size_t i = 0; i < cnt; i++) {
        char *name = xstrdup(strrchr(files[i], '/') + 1);
        name[strlen(name) - 5] = '\0';
        char err[512];
        struct eng_manifest *m = eng_manifest_load(name, NULL, err, sizeof err);
        if (m && m->case_id && strcmp(m->case_id, id) == 0) {
            (*names)[nn++] = name;
            for (int r = 1; r <= eng_rung_top(); r++)
                if (m->has_rung[r] && eng_rung_find(r))
                    (*out)[(*n)++] = (struct eng_run_target){name, r};
        } else {
            free(name);
        }
        eng_manifest_free(m);
    }
    free(files);
    return *n ? 0 : -1;
}

/* Every rung the engine runs that suite (a name or a manifest path) lists. */
static int suite_targets(const char *suite, struct eng_run_target **out, size_t *n)
{
    char err[1024];
    struct eng_manifest *m = eng_manifest_load(suite, NULL, err, sizeof err);
    if (!m) {
        fprintf(stderr, "kladder run: %s\n", err);
        return -1;
    }
    *out = xcalloc((size_t)eng_rung_top() + 1, sizeof **out);
    *n = 0;
    for (int r = 1; r <= eng_rung_top(); r++)
        if (m->has_rung[r] && eng_rung_find(r))
            (*out)[(*n)++] = (struct eng_run_target){suite, r};
    if (*n == 0) {
        char have[64];
        eng_rung_list(have, sizeof have);
        fprintf(stderr, "kladder run: suite %s lists no rung the engine runs (rungs %s do)\n",
                m->name, have);
        free(*out);
        *out = NULL;
    }
    eng_manifest_free(m);
    return *n ? 0 : -1;
}

/* --lag auto|off|S[,S...]: 0, or -1 for anything else. Each S may be written ahead:S, the
 * mirror mode (every wave but the seeded one held back). */
static int parse_lag(const char *v, struct eng_run_opts *o)
{
    o->nlag = 0;
    o->lag_auto = !strcmp(v, "auto");
    if (o->lag_auto || !strcmp(v, "off"))
        return 0;
    for (const char *p = v;;) {
        char *end;
        uint32_t mode = 0;
        if (!strncmp(p, "ahead:", 6)) {
            mode = ENG_LAG_AHEAD;
            p += 6;
        }
        if (*p < '0' || *p > '9' || o->nlag == ENG_LAG_MAX_SEEDS)
            return -1;
        unsigned long s = strtoul(p, &end, 10);
        if (s < 1 || s > 999999 || (*end != ',' && *end))
            return -1;
        o->lag[o->nlag++] = (uint32_t)s | mode;
        if (!*end)
            return 0;
        p = end + 1;
    }
}

/* ---- the options: one callback for each that is more than a value stored ---- */

static int worker(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)opt, (void)v, (void)ctx;
    return eng_worker_main();
}

static int list(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)opt, (void)v, (void)ctx;
    return list_suites();
}

static int take_variant(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    struct eng_run_opts *o = opt->dest;
    if (!strcmp(v, "fixed"))
        o->buggy = false;
    else if (!strcmp(v, "buggy"))
        o->fixed = false;
    return CLI_PARSED; /* both; the parser took only the choices */
}

static int take_backend(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    if (!eng_backend_find(v)) /* the choices are the backend table's names */
        return 2;
    *(const char **)opt->dest = v;
    return CLI_PARSED;
}

static int take_repeat(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    struct eng_run_opts *o = opt->dest;
    if (!strcmp(v, "auto"))
        o->repeat_auto = true;
    else if (!cli_parse_int("run", opt->name, v, 1, 1000000000, &o->repeats))
        return 2;
    return CLI_PARSED;
}

/* --rate and --confidence: either implies --repeat auto. */
static int take_probability(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    struct eng_run_opts *o = opt->dest;
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x > 0 && x < 1))
        return cli_usage_error("run", "%s expects a probability between 0 and 1 (exclusive), "
                                      "not '%s'", opt->name, v);
    *(opt->name[2] == 'r' ? &o->rate : &o->confidence) = x;
    o->repeat_auto = true;
    return CLI_PARSED;
}

static int take_wave(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    int *wave = opt->dest;
    return cli_parse_int("run", opt->name, v, 32, 64, wave) ? CLI_PARSED : 2; /* 32 or 64 */
}

static int take_code_object(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    if (access(v, R_OK) != 0)
        return cli_usage_error("run", "--code-object %s: %s", v, strerror(errno));
    *(const char **)opt->dest = v;
    return CLI_PARSED;
}

static int take_schedule(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    struct eng_run_opts *o = opt->dest;
    o->schedule_given = true;
    for (size_t i = 0; cli_word_schedule(i); i++) /* the parser took only these */
        if (!strcmp(v, cli_word_schedule(i)))
            o->schedule = (enum eng_schedule)i;
    return CLI_PARSED;
}

static int take_seed(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    char *end;
    unsigned long long s = strtoull(v, &end, 10);
    if (!*v || *end)
        return cli_usage_error("run", "--seed expects a whole number, not '%s'", v);
    *(uint64_t *)opt->dest = s;
    return CLI_PARSED;
}

static int take_lag(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    if (parse_lag(v, opt->dest) != 0)
        return cli_usage_error("run", "--lag expects auto, off or seeds 1-999999 (each S or "
                                      "ahead:S) separated by commas (at most %d), not '%s'",
                               ENG_LAG_MAX_SEEDS, v);
    return CLI_PARSED;
}

static int take_sanitizer(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    if (!eng_san_tool_known(v)) /* the choices and the tools the engine runs are one list */
        return cli_usage_error("run", "--sanitizer %s: the engine runs no such tool", v);
    *(const char **)opt->dest = v;
    return CLI_PARSED;
}

static int no_progress(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)v, (void)ctx;
    *(bool *)opt->dest = false;
    return CLI_PARSED;
}

/* --rung N[,N...], repeatable: every rung named is run, in the ladder's order (a second --rung
 * adds to the first instead of replacing it without a word). */
static int take_rung(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    unsigned *rungs = opt->dest;
    char buf[64];
    if (!*v || strlen(v) >= sizeof buf)
        return cli_usage_error("run", "%s expects N or N,N,... (rungs %d to %d)", opt->name,
                               opt->lo, opt->hi);
    strcpy(buf, v);
    for (char *t = buf, *comma;; t = comma + 1) {
        comma = strchr(t, ',');
        if (comma)
            *comma = '\0';
        int n;
        if (!cli_parse_int("run", opt->name, t, opt->lo, opt->hi, &n))
            return 2;
        *rungs |= 1u << n;
        if (!comma)
            break;
    }
    return CLI_PARSED;
}

/* rung 8's --e2e options, gathered by tui/cli/run_e2e.c */
static int take_e2e(int argc, char **argv, int *i, void *ctx)
{
    return run_e2e_take(ctx, argc, argv, i);
}

/* ---- after the options: what they ask for together ---- */

/* What the arguments name besides the engine's settings. */
struct run_args {
    const char *suite, *case_id;
    int rung;        /* the one rung asked for; 0 when none or several were */
    unsigned rungs;  /* every rung --rung named, bit N for rung N */
    struct run_e2e_args e2e;
};

/* Turns --e2e and the built-in model into their suites, then checks that the options fit
 * together. CLI_PARSED, or 2 after a usage message. e2e is filled for o to point at. */
static int settle(struct run_args *r, struct eng_run_opts *o, struct eng_e2e *e2e)
{
    bool several = r->rungs & (r->rungs - 1);
    for (int n = 1; !several && n <= eng_rung_top(); n++)
        if (r->rungs & (1u << n))
            r->rung = n;
    if (several && (r->e2e.first ||
                    (r->suite && (!strcmp(r->suite, "all") || !strcmp(r->suite, "model") ||
                                  !strcmp(r->suite, "model-large")))))
        return cli_usage_error("run", "several rungs run on one suite of one's own; with %s "
                                      "give one --rung",
                               r->e2e.first ? "--e2e" : "--suite all and the built-in model");
    if (r->e2e.first) {
        if (r->suite || r->case_id)
            return cli_usage_error("run", "--e2e runs your evaluation command, not a suite: "
                                          "leave out --suite and --case");
        if (run_e2e_finish(&r->e2e, r->rung, e2e) != 0)
            return 2;
        o->e2e = e2e;
        r->suite = "e2e";
    }
    /* rung 8's built-in model: --suite model alone, or with a case's buggy kernels swapped in;
     * --suite model-large the large configuration, alone or with --case */
    bool large = r->suite && !strcmp(r->suite, "model-large");
    const struct eng_rung *e2e_rung = eng_rung_end_to_end();
    if (e2e_rung && r->rung == e2e_rung->number && !r->e2e.first &&
        ((r->suite && !strcmp(r->suite, "model")) || large || r->case_id)) {
        if (r->suite && r->case_id && !large)
            return cli_usage_error("run", "--rung 8 --case ID runs the built-in model with the "
                                          "case's kernel swapped in; leave out --suite, or give "
                                          "--suite model-large for the large configuration");
        o->model = true;
        o->model_case = r->case_id;
        o->model_large = large;
        r->suite = large ? "model-large" : "model";
        r->case_id = NULL;
    }
    if (r->case_id && (r->suite || r->rungs))
        return cli_usage_error("run", "--case runs its own suites and rungs; leave out --suite "
                                      "and --rung");
    if (!r->case_id && !r->suite)
        return cli_usage_error("run", "give --suite NAME|PATH (and --rung N for one of its "
                                      "rungs), or --case ID (--list shows the suites)");
    if (o->repeat_auto && o->repeats > 0)
        return cli_usage_error("run", "--repeat %d contradicts --repeat auto (or --rate, "
                                      "--confidence): give a number of repeats or a rate to rule "
                                      "out, not both", o->repeats);
    for (int n = 1; !r->case_id && n <= eng_rung_top(); n++)
        if ((r->rungs & (1u << n)) && !eng_rung_find(n)) {
            char have[64];
            eng_rung_list(have, sizeof have);
            return cli_usage_error("run", "rung %d has no engine checks; rungs %s do", n, have);
        }
    return CLI_PARSED;
}

/* The suites and rungs a run goes through; targets is &one for a single one. */
struct plan {
    struct eng_run_target one, *targets;
    size_t n;
    char **names; /* the suite names targets point at, NULL-terminated; NULL when none */
};

static void plan_free(struct plan *pl)
{
    if (pl->names) {
        for (size_t i = 0; pl->names[i]; i++)
            free(pl->names[i]);
        free(pl->names);
    }
    if (pl->targets != &pl->one)
        free(pl->targets);
}

/* Fills pl for the suite, --suite all, or the case. 0, or 2 after a message. */
static int plan(const struct run_args *r, struct plan *pl)
{
    pl->one = (struct eng_run_target){r->suite, r->rung};
    pl->targets = &pl->one;
    pl->n = 1;
    pl->names = NULL;
    if (!r->case_id && strcmp(r->suite, "all") == 0) {
        if (!r->rung)
            return cli_usage_error("run", "--suite all runs one rung over every built-in suite; "
                                          "give --rung N");
        if (all_targets(r->rung, &pl->targets, &pl->n, &pl->names) != 0) {
            fprintf(stderr, "kladder run: no built-in suite runs rung %d\n", r->rung);
            return 2;
        }
    } else if (!r->case_id && !r->rungs && suite_targets(r->suite, &pl->targets, &pl->n) != 0) {
        pl->targets = &pl->one;
        return 2;
    }
    if (!r->case_id && !r->rung && r->rungs) {
        pl->targets = xcalloc((size_t)eng_rung_top() + 1, sizeof *pl->targets);
        pl->n = 0;
        for (int n = 1; n <= eng_rung_top(); n++)
            if (r->rungs & (1u << n))
                pl->targets[pl->n++] = (struct eng_run_target){r->suite, n};
        return 0;
    }
    if (r->case_id && case_targets(r->case_id, &pl->targets, &pl->n, &pl->names) != 0) {
        fprintf(stderr,
                "kladder run: no built-in suite reproduces case '%s' (kladder run --list)\n",
                r->case_id);
        return 2;
    }
    return 0;
}

/* "kladder ARGV...", recorded with the run. A --suite that names a file is recorded by its
 * absolute path: the command then reruns from any folder, and `kladder report` finds the
 * manifest and its source to bundle them (tui/report_bundle.h). */
static bool suite_file(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 5 && !strcmp(s + n - 5, ".json")) ||
           (n > 3 && !strcmp(s + n - 3, ".cu")) || (n > 4 && !strcmp(s + n - 4, ".hip"));
}

static char *command_line(int argc, char **argv)
{
    char **abs = xcalloc((size_t)argc + 1, sizeof *abs);
    size_t len = 1;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && !strcmp(argv[i - 1], "--suite") && argv[i][0] != '/' && suite_file(argv[i]))
            abs[i] = realpath(argv[i], NULL);
        len += strlen(abs[i] ? abs[i] : argv[i]) + 1;
    }
    char *cmd = xmalloc(len + 8);
    strcpy(cmd, "kladder");
    for (int i = 0; i < argc; i++) {
        strcat(cmd, " ");
        strcat(cmd, abs[i] ? abs[i] : argv[i]);
        free(abs[i]);
    }
    free(abs);
    return cmd;
}

/* Runs the plan and records it in the database. Returns the exit status. */
static int run(const struct cli_global *g, struct eng_run_opts *o, const char *case_id,
               const struct plan *pl, int argc, char **argv)
{
    o->case_id = o->model_case ? o->model_case : case_id;
    o->exe = eng_self_exe(g->argv0);
    char *cmd = command_line(argc, argv);
    o->argv_text = cmd;
    struct cdb *db = cli_open_db_write(g, "run");
    int status = 2;
    if (db) {
        o->db = db;
        status = eng_run(o, pl->targets, pl->n);
        cdb_close(db);
    }
    free(cmd);
    return status;
}

int cmd_run(int argc, char **argv, const struct cli_global *g)
{
    struct eng_run_opts o = {.device = 0, .schedule = ENG_SCHED_ADVERSARIAL, .seed = 1,
                             .open_reports = eng_reporters_open, .timeout_s = 60, .fixed = true, .buggy = true, .events_fd = -1,
                             .progress = isatty(2), .lag_auto = true};
    struct run_args r = {0};
    int timeout = 60;
    /* the e2e options last, so that help says them after run's own */
    const struct cli_opt opts[] = {
        CLI_OPT_DO("--worker", NULL, worker),
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_DO_DOC("--list", NULL, list, "list the suites, their cases and rungs, and exit"),
        CLI_OPT_CALL_RANGE_DOC("--rung", &r.rungs, take_rung, 1, eng_rung_top(), "N[,N...]",
                         "the rungs to run, repeatable (default: every rung the suite lists)"),
        CLI_OPT_STRING_DOC("--suite", &r.suite, "NAME|PATH",
                           "a built-in suite, a suite manifest of one's own, or all"),
        CLI_OPT_STRING_DOC("--case", &r.case_id, "ID",
                           "every rung the case's suites list, both variants"),
        CLI_OPT_CALL_CHOICE_DOC("--variant", &o, take_variant,
                                CLI_WORD_FN(cli_word_variant),
                                "which variant (default both)"),
        CLI_OPT_CALL_CHOICE_DOC("--backend", &o.backend, take_backend,
                                CLI_WORD_FN(cli_word_backend),
                                "default: the first available, in this order"),
        CLI_OPT_INT_DOC("--device", &o.device, 0, 255, "I", "device index (default 0)"),
        CLI_OPT_CALL_DOC("--repeat", &o, take_repeat, "N|auto",
                         "rung 5 repeats (default: the suite's N, else from its failure rate); "
                         "auto: N = ceil(ln(1-C)/ln(1-R))"),
        CLI_OPT_CALL_DOC("--rate", &o, take_probability, "R",
                         "the failure rate R (0 < R < 1) that auto's repeats rule out (default: "
                         "the suite's; implies --repeat auto)"),
        CLI_OPT_CALL_DOC("--confidence", &o, take_probability, "C",
                         "the confidence C (0 < C < 1) auto's repeats rule R out at (default: the "
                         "suite's; implies --repeat auto)"),
        CLI_OPT_INT_DOC("--timeout", &timeout, 1, 86400, "S",
                        "per-check limit in seconds after setup (default 60)"),
        CLI_OPT_CALL_CHOICE_DOC("--wave", &o.wave, take_wave, CLI_WORDS("32", "64"),
                                "cpu backend wave width (default 32)"),
        CLI_OPT_CALL_DOC("--code-object", &o.code_object, take_code_object, "FILE",
                         "run this prebuilt code object (kladder compile --out, .hsaco, bundle, "
                         ".cubin, PTX) instead of the source"),
        CLI_OPT_CALL_CHOICE_DOC("--schedule", &o, take_schedule,
                         CLI_WORD_FN(cli_word_schedule), "cpu backend schedule for rung checks (default adversarial; baselines "
                         "always run the default); pct interleaves at every memory access and "
                         "reports data races (slower); it wins over a rung 5 suite's own schedule "
                         "(a rare race declares random)"),
        CLI_OPT_CALL_DOC("--seed", &o.seed, take_seed, "N",
                         "seed for inputs and the random schedule (default 1)"),
        CLI_OPT_CALL_DOC("--lag", &o, take_lag, "auto|off|S[,S...]",
                         "rungs 2 and 5 also run the kernel built to hold one wave of a block back "
                         "(KL_LAG=S); ahead:S holds every wave but one back instead; on a GPU its "
                         "async copies land at their waits; auto (default): seeds 1-4 of both on a "
                         "GPU, none on the cpu backend"),
        CLI_OPT_CALL_CHOICE_DOC("--sanitizer", &o.sanitizer, take_sanitizer,
                         CLI_WORDS("racecheck", "synccheck", "memcheck"),
                         "cuda: run each check under NVIDIA's compute-sanitizer (PATH, "
                         "/usr/local/cuda*/bin or $KLADDER_COMPUTE_SANITIZER); its hazards become "
                         "checks of their own; limits are 20x --timeout"),
        CLI_OPT_FLAG_DOC("--json", &o.json, "print the report as JSON"),
        CLI_OPT_STRING_DOC("--junit", &o.junit, "FILE", "also write JUnit XML"),
        CLI_OPT_INT_DOC("--events", &o.events_fd, 0, 1 << 20, "FD",
                        "stream JSON lines (start, check-start, check-done, end)"),
        CLI_OPT_DO_DOC("--no-progress", &o.progress, no_progress, "no progress bar on stderr"),
    };
    /* then the rungs' own options, as their entries give them, and the e2e ones last */
    struct run_rung_opts ro;
    run_rung_opts_init(&ro);
    size_t nall = CLI_COUNT(opts) + ro.n + 1;
    struct cli_opt *all = xcalloc(nall, sizeof *all);
    memcpy(all, opts, sizeof opts);
    memcpy(all + CLI_COUNT(opts), ro.opts, ro.n * sizeof *all);
    all[nall - 1] = (struct cli_opt)CLI_OPT_TAKE_NAMED(take_e2e, run_e2e_options);
    const struct cli_parser p = {.verb = "run", .opts = all, .nopts = nall};
    int status = cli_parse(&p, argc, argv, &r.e2e);
    o.timeout_s = timeout;
    o.rung_args = &ro.args;
    struct eng_e2e e2e;
    if (status == CLI_PARSED)
        status = settle(&r, &o, &e2e) != CLI_PARSED ? 2 : run_rung_opts_check(&ro, r.rungs);
    if (status == CLI_PARSED) {
        struct plan pl;
        status = plan(&r, &pl);
        if (status == 0)
            status = run(g, &o, r.case_id, &pl, argc, argv);
        plan_free(&pl);
    }
    free(all);
    run_rung_opts_free(&ro);
    return status;
}
