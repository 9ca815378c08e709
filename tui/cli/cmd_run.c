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
#include "engine/backend/backend.h"
#include "engine/manifest.h"
#include "engine/rung.h"
#include "engine/runner.h"
#include "engine/toolchain/sanitizer_run.h"
#include "engine/watchdog.h"
#include "tui/cli/cli.h"
#include "tui/cli/run_e2e.h"

static void print_help(void)
{
    printf("usage: kladder run --suite NAME|PATH [--rung N] [options]\n"
           "       kladder run --rung N --suite all [options]\n"
           "       kladder run --case ID [options]\n"
           "       kladder run --rung 8 --e2e COMMAND --score FORMAT --baseline VALUE|FILE\n"
           "       kladder run --rung 8 --suite model | --case ID   (the built-in model)\n"
           "       kladder run --list\n\n"
           "Runs a rung of the verification ladder (`run --list` names the rungs) on a suite's\n"
           "reproducer, with the plain unit-test baseline beside it; without --rung, every rung the\n"
           "suite lists. --case runs every rung its suites list, both variants. A rung must fail the\n"
           "buggy variant and pass the fixed one; the baseline passes both. A suite marked\n"
           "\"control\": true has only correct variants: each must pass, and a failure is reported as\n"
           "a false alarm of the harness. Runs are recorded under the suite's own name. --suite all\n"
           "runs every built-in suite the rung applies to (rung 7: the toolchain smoke of every\n"
           "kernel after a compiler or runtime change).\n\n"
           "options:\n"
           "  --variant fixed|buggy|both   which variant (default both)\n"
           "  --backend hip|cuda|cpu       default: the first available of hip, cuda, cpu\n"
           "  --device I                   device index (default 0)\n"
           "  --repeat N|auto              rung 5 repeats (default: the suite's N, else from its\n"
           "                               failure rate); auto: N = ceil(ln(1-C)/ln(1-R))\n"
           "  --rate R --confidence C      the failure rate R (0 < R < 1) that auto's repeats rule\n"
           "                               out at confidence C (default: the suite's; imply auto)\n"
           "  --timeout S                  per-check limit in seconds after setup (default 60)\n"
           "  --wave 32|64                 cpu backend wave width (default 32)\n"
           "  --code-object FILE           run this prebuilt code object (kladder compile --out)\n"
           "                               instead of compiling the suite's kernel source\n"
           "  --schedule default|adversarial|random|pct\n"
           "                               cpu backend schedule for rung checks (default\n"
           "                               adversarial; baselines always run the default); pct\n"
           "                               interleaves at every memory access and reports data\n"
           "                               races (slower); it wins over a rung 5 suite's own\n"
           "                               schedule (a rare race declares random)\n"
           "  --seed N                     seed for inputs and the random schedule (default 1)\n"
           "  --inputs FILE|DIR            rung 2: replay captured tensors (safetensors or .npy)\n"
           "                               named like the suite's input buffers\n"
           "  --lag auto|off|S[,S...]      rungs 2 and 5 also run the kernel built to hold one\n"
           "                               wave of a block back (KL_LAG=S); ahead:S holds every\n"
           "                               wave but one back instead; on a GPU its async copies\n"
           "                               land at their waits; auto (default): seeds 1-4 of\n"
           "                               both on a GPU, none on the cpu backend\n"
           "  --sanitizer racecheck|synccheck|memcheck\n"
           "                               cuda: run each check under NVIDIA's compute-sanitizer\n"
           "                               (PATH, /usr/local/cuda*/bin or\n"
           "                               $KLADDER_COMPUTE_SANITIZER); its hazards become checks\n"
           "                               of their own; limits are 20x --timeout\n"
           "  --json                       print the report as JSON\n"
           "  --junit FILE                 also write JUnit XML\n"
           "  --events FD                  stream JSON lines (start, check-start, check-done, end)\n"
           "  --no-progress                no progress bar on stderr\n\n"
           "%s\n"
           "exit status: 0 every expectation met (buggy caught, fixed and baselines pass),\n"
           "1 an expectation not met or the run inconclusive (the checks that reach the bug\n"
           "were skipped here), 2 usage or setup error\n", run_e2e_help);
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
            for (int r = 1; r <= 8; r++)
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
    *out = xcalloc(cnt * 8 + 1, sizeof **out);
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
            for (int r = 1; r <= 8; r++)
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
    *out = xcalloc(9, sizeof **out);
    *n = 0;
    for (int r = 1; r <= 8; r++)
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

int cmd_run(int argc, char **argv, const struct cli_global *g)
{
    struct eng_run_opts o = {.device = 0, .schedule = ENG_SCHED_ADVERSARIAL, .seed = 1,
                             .timeout_s = 60, .fixed = true, .buggy = true, .events_fd = -1,
                             .progress = isatty(2), .lag_auto = true};
    const char *suite = NULL, *case_id = NULL;
    int rung = 0;
    struct run_e2e_args e2e_args = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int took = run_e2e_take(&e2e_args, argc, argv, &i);
        if (took == 2)
            return 2;
        if (took)
            continue;
#define NEED()                                                                                  \
    do {                                                                                        \
        if (!v)                                                                                 \
            return cli_usage_error("run", "%s expects a value", a);                             \
        i++;                                                                                    \
    } while (0)
        if (!strcmp(a, "--worker")) {
            return eng_worker_main();
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_help();
            return 0;
        } else if (!strcmp(a, "--list")) {
            return list_suites();
        } else if (!strcmp(a, "--rung")) {
            NEED();
            if (!cli_parse_int("run", a, v, 1, 8, &rung))
                return 2;
        } else if (!strcmp(a, "--suite")) {
            NEED();
            suite = v;
        } else if (!strcmp(a, "--case")) {
            NEED();
            case_id = v;
        } else if (!strcmp(a, "--variant")) {
            NEED();
            if (!strcmp(v, "fixed"))
                o.buggy = false;
            else if (!strcmp(v, "buggy"))
                o.fixed = false;
            else if (strcmp(v, "both"))
                return cli_usage_error("run", "--variant expects fixed, buggy or both, not '%s'", v);
        } else if (!strcmp(a, "--backend")) {
            NEED();
            if (!eng_backend_find(v))
                return cli_usage_error("run", "--backend expects hip, cuda or cpu, not '%s'", v);
            o.backend = v;
        } else if (!strcmp(a, "--device")) {
            NEED();
            if (!cli_parse_int("run", a, v, 0, 255, &o.device))
                return 2;
        } else if (!strcmp(a, "--repeat")) {
            NEED();
            if (!strcmp(v, "auto"))
                o.repeat_auto = true;
            else if (!cli_parse_int("run", a, v, 1, 1000000000, &o.repeats))
                return 2;
        } else if (!strcmp(a, "--rate") || !strcmp(a, "--confidence")) {
            NEED();
            char *end;
            double x = strtod(v, &end);
            if (end == v || *end || !(x > 0 && x < 1))
                return cli_usage_error("run", "%s expects a probability between 0 and 1 (exclusive), not '%s'", a, v);
            *(a[2] == 'r' ? &o.rate : &o.confidence) = x;
            o.repeat_auto = true;
        } else if (!strcmp(a, "--timeout")) {
            NEED();
            int t;
            if (!cli_parse_int("run", a, v, 1, 86400, &t))
                return 2;
            o.timeout_s = t;
        } else if (!strcmp(a, "--wave")) {
            NEED();
            if (!cli_parse_int("run", a, v, 32, 64, &o.wave) || (o.wave != 32 && o.wave != 64))
                return cli_usage_error("run", "--wave expects 32 or 64, not '%s'", v);
        } else if (!strcmp(a, "--code-object")) {
            NEED();
            if (access(v, R_OK) != 0)
                return cli_usage_error("run", "--code-object %s: %s", v, strerror(errno));
            o.code_object = v;
        } else if (!strcmp(a, "--schedule")) {
            NEED();
            o.schedule_given = true;
            if (!strcmp(v, "default"))
                o.schedule = ENG_SCHED_DEFAULT;
            else if (!strcmp(v, "adversarial"))
                o.schedule = ENG_SCHED_ADVERSARIAL;
            else if (!strcmp(v, "random"))
                o.schedule = ENG_SCHED_RANDOM;
            else if (!strcmp(v, "pct"))
                o.schedule = ENG_SCHED_PCT;
            else
                return cli_usage_error("run", "--schedule expects default, adversarial, random or pct, not '%s'", v);
        } else if (!strcmp(a, "--seed")) {
            NEED();
            char *end;
            unsigned long long s = strtoull(v, &end, 10);
            if (!*v || *end)
                return cli_usage_error("run", "--seed expects a whole number, not '%s'", v);
            o.seed = s;
        } else if (!strcmp(a, "--lag")) {
            NEED();
            if (parse_lag(v, &o) != 0)
                return cli_usage_error("run", "--lag expects auto, off or seeds 1-999999 (each S or "
                                       "ahead:S) separated by commas (at most %d), not '%s'", ENG_LAG_MAX_SEEDS, v);
        } else if (!strcmp(a, "--sanitizer")) {
            NEED();
            if (!eng_san_tool_known(v))
                return cli_usage_error("run", "--sanitizer expects racecheck, synccheck or memcheck, "
                                       "not '%s'", v);
            o.sanitizer = v;
        } else if (!strcmp(a, "--json")) {
            o.json = true;
        } else if (!strcmp(a, "--junit")) {
            NEED();
            o.junit = v;
        } else if (!strcmp(a, "--events")) {
            NEED();
            if (!cli_parse_int("run", a, v, 0, 1 << 20, &o.events_fd))
                return 2;
        } else if (!strcmp(a, "--inputs")) {
            NEED();
            o.inputs = v;
        } else if (!strcmp(a, "--no-progress")) {
            o.progress = false;
        } else {
            return cli_unknown("run", a);
        }
#undef NEED
    }
    struct eng_e2e e2e;
    if (e2e_args.first) {
        if (suite || case_id)
            return cli_usage_error("run", "--e2e runs your evaluation command, not a suite: "
                                          "leave out --suite and --case");
        if (run_e2e_finish(&e2e_args, rung, &e2e) != 0)
            return 2;
        o.e2e = &e2e;
        suite = "e2e";
    }
    /* rung 8's built-in model: --suite model alone, or with a case's buggy kernels swapped in;
     * --suite model-large the large configuration, alone or with --case */
    bool large = suite && !strcmp(suite, "model-large");
    if (rung == 8 && !e2e_args.first && ((suite && !strcmp(suite, "model")) || large || case_id)) {
        if (suite && case_id && !large)
            return cli_usage_error("run", "--rung 8 --case ID runs the built-in model with the "
                                          "case's kernel swapped in; leave out --suite, or give "
                                          "--suite model-large for the large configuration");
        o.model = true;
        o.model_case = case_id;
        o.model_large = large;
        suite = large ? "model-large" : "model";
        case_id = NULL;
    }
    if (case_id && (suite || rung))
        return cli_usage_error("run", "--case runs its own suites and rungs; leave out --suite and --rung");
    if (!case_id && !suite)
        return cli_usage_error("run", "give --suite NAME|PATH (and --rung N for one of its rungs), "
                                      "or --case ID (--list shows the suites)");
    if (o.repeat_auto && o.repeats > 0)
        return cli_usage_error("run", "--repeat %d contradicts --repeat auto (or --rate, --confidence): "
                               "give a number of repeats or a rate to rule out, not both", o.repeats);
    if (o.inputs && rung != 2)
        return cli_usage_error("run", "--inputs replays captured tensors on rung 2; give --rung 2");
    if (!case_id && rung && !eng_rung_find(rung)) {
        char have[64];
        eng_rung_list(have, sizeof have);
        return cli_usage_error("run", "rung %d has no engine checks; rungs %s do", rung, have);
    }

    struct eng_run_target one = {suite, rung}, *targets = &one;
    size_t ntargets = 1;
    char **names = NULL;
    if (!case_id && strcmp(suite, "all") == 0) {
        if (!rung)
            return cli_usage_error("run", "--suite all runs one rung over every built-in suite; "
                                          "give --rung N");
        if (all_targets(rung, &targets, &ntargets, &names) != 0) {
            free(targets);
            free(names);
            fprintf(stderr, "kladder run: no built-in suite runs rung %d\n", rung);
            return 2;
        }
    } else if (!case_id && !rung && suite_targets(suite, &targets, &ntargets) != 0) {
        return 2;
    }
    if (case_id && case_targets(case_id, &targets, &ntargets, &names) != 0) {
        free(targets);
        free(names);
        fprintf(stderr, "kladder run: no built-in suite reproduces case '%s' (kladder run --list)\n",
                case_id);
        return 2;
    }
    o.case_id = o.model_case ? o.model_case : case_id;
    o.exe = eng_self_exe(g->argv0);
    size_t len = 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *cmd = xmalloc(len + 8);
    strcpy(cmd, "kladder");
    for (int i = 0; i < argc; i++) {
        strcat(cmd, " ");
        strcat(cmd, argv[i]);
    }
    o.argv_text = cmd;
    struct cdb *db = cli_open_db_write(g, "run");
    int status = 2;
    if (db) {
        o.db = db;
        status = eng_run(&o, targets, ntargets);
        cdb_close(db);
    }
    free(cmd);
    if (names) {
        for (size_t i = 0; names[i]; i++)
            free(names[i]);
        free(names);
    }
    if (targets != &one)
        free(targets);
    return status;
}
