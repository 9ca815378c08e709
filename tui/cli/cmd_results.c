/* kladder results [--host NAME] [--rung N] [--verdict V] [--json]
 * kladder results RUN_ID [--json] */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/cdb.h"
#include "casedb/results_query.h"
#include "common/text.h"
#include "importers/results_json.h"
#include "engine/api/faces.h"
#include "tui/cmdline.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"
#include "tui/columns.h"
#include "tui/results_fmt.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"%o", "RUN_ID [--json]", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Lists recorded runs, newest first: runs made here and runs pulled from other hosts.\n"
           "HOST is the host a run was pulled under ('local': runs made here; the machine's own\n"
           "host name is in a run's detail). --host keeps one such host, --rung a rung (0: runs of several),\n"
           "--verdict pass, fail, hang, error, skip, cancelled, running or interrupted (its\n"
           "process ended before it finished: killed, crashed or the machine rebooted; the checks\n"
           "it recorded are kept). With a RUN_ID (a UUID or its first 4+ characters) prints that\n"
           "run with every check: verdict, oracle detail and timings (n/a where not measured).\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

static void print_line(const char *label, const char *value)
{
    char *v = text_sanitize(value ? value : "-", false);
    printf("%-10s %s\n", label, v);
    free(v);
}

/* The checks in words, with a buggy variant's failures as the bugs they caught ("17 bugs
 * caught, 37 passed"), as the Runs view says it. */
static void fmt_counts(const struct cdb_run_info *ri, char *buf, size_t len)
{
    tui_fmt_run_counts(ri->counts, ri->caught_fail, ri->caught_hang, ri->run.verdict, false,
                       buf, len);
    if (!strcmp(buf, "-"))
        snprintf(buf, len, "no checks");
}

static void fmt_us(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else if (v < 100)
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.0f", v);
}

static void print_machine_short(const struct cdb_machine *m, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s", m->device ? m->device : "?", m->target ? m->target : "");
}

static int list_runs(struct cdb *db, const struct cdb_run_filter *f, bool json)
{
    struct cdb_run_list l;
    char err[1024];
    if (cdb_runs_query(db, f, &l, err, sizeof err) != 0) {
        fprintf(stderr, "kladder results: %s\n", err);
        return 2;
    }
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; i < l.n; i++)
            cJSON_AddItemToArray(arr, imp_run_to_json(&l.items[i], true));
        char *out = cJSON_Print(arr);
        puts(out);
        cJSON_free(out);
        cJSON_Delete(arr);
    } else {
        tui_col_print("RUN", 8, false), tui_col_print("STARTED", 20, false),
            tui_col_print("HOST", 16, false), tui_col_print("MACHINE", 24, false),
            tui_col_print("RUNG", 8, false), tui_col_print("SUITE/CASE", 18, false),
            tui_col_print("VARIANT", 8, false), tui_col_print("VERDICT", 11, false);
        puts("CHECKS");
        for (size_t i = 0; i < l.n; i++) {
            const struct cdb_run_info *ri = &l.items[i];
            char host[160], mach[300], rung[48], counts[160];
            /* a run belongs to the host it was pulled under, a run made here to "local"; the
             * machine's own host name is in the run's detail */
            snprintf(host, sizeof host, "%s", ri->origin ? ri->origin : "local");
            print_machine_short(&ri->machine, mach, sizeof mach);
            tui_fmt_rungs(ri->run.rung > 0 ? 1u << ri->run.rung : ri->rungs, rung, sizeof rung);
            fmt_counts(ri, counts, sizeof counts);
            char id[9];
            snprintf(id, sizeof id, "%s", ri->run.uuid ? ri->run.uuid : "");
            tui_col_print(id, 8, false), tui_col_print(ri->run.started, 20, false),
                tui_col_print(host, 16, false), tui_col_print(mach, 24, false),
                tui_col_print(rung, 8, false),
                tui_col_print(ri->run.suite ? ri->run.suite : ri->run.case_id, 18, false),
                tui_col_print(ri->run.variant, 8, false),
                tui_col_print(cdb_verdict_name(ri->run.verdict), 11, false);
            char *c = text_sanitize(counts, false);
            puts(c);
            free(c);
        }
        printf("%zu run%s\n", l.n, l.n == 1 ? "" : "s");
    }
    cdb_run_list_free(&l);
    return 0;
}

static int show_run(struct cdb *db, const char *id, bool json)
{
    struct cdb_run_detail d;
    char err[1024];
    int found = cdb_run_load(db, id, &d, err, sizeof err);
    if (found < 0) {
        fprintf(stderr, "kladder results: %s\n", err);
        return 2;
    }
    if (found == 0) {
        char *shown = text_fit(id, 40, true, NULL);
        fprintf(stderr, "kladder results: no run '%s' (see kladder results)\n", shown);
        free(shown);
        return 2;
    }
    const struct cdb_run_info *ri = &d.info;
    if (json) {
        cJSON *o = imp_run_to_json(ri, true);
        cJSON *arr = cJSON_AddArrayToObject(o, "checks");
        for (size_t i = 0; i < d.n_checks; i++)
            cJSON_AddItemToArray(arr, imp_check_to_json(&d.checks[i], false));
        char *out = cJSON_Print(o);
        puts(out);
        cJSON_free(out);
        cJSON_Delete(o);
        cdb_run_detail_free(&d);
        return 0;
    }
    const struct cdb_machine *m = &ri->machine;
    char buf[512], counts[160];
    print_line("run", ri->run.uuid);
    print_line("host", ri->origin ? ri->origin : "local");
    print_line("pulled", ri->origin ? ri->origin : "no (run here)");
    print_line("machine host", ri->run.host);
    snprintf(buf, sizeof buf, "%s, %s %s, wave %d, %d CUs, driver %s, runtime %s", m->backend,
             m->device, m->target, m->wave_size, m->compute_units,
             m->driver_version ? m->driver_version : "n/a",
             m->runtime_version ? m->runtime_version : "n/a");
    print_line("machine", buf);
    print_line("machine id", m->id);
    tui_fmt_rungs(ri->run.rung > 0 ? 1u << ri->run.rung : ri->rungs, buf, sizeof buf);
    print_line("rung", buf);
    print_line("suite", ri->run.suite);
    print_line("case", ri->run.case_id);
    print_line("variant", ri->run.variant);
    print_line("started", ri->run.started);
    print_line("finished", ri->run.finished);
    fmt_counts(ri, counts, sizeof counts);
    snprintf(buf, sizeof buf, "%s (%s)", cdb_verdict_name(ri->run.verdict), counts);
    print_line("verdict", buf);
    if (ri->run.exported_verdict && strcmp(ri->run.exported_verdict,
                                           cdb_verdict_name(ri->run.verdict)) != 0)
        print_line("exported as", ri->run.exported_verdict);
    /* this host's quoted form; a pulled run's only as a comment (tui/cmdline.h) */
    char *cmd = tui_cmdline_copy(ri->run.argv, ri->origin);
    print_line("command", cmd[0] ? cmd : NULL);
    free(cmd);
    putchar('\n');
    tui_col_print("SEQ", 4, false), tui_col_print("RUNG", 4, false),
        tui_col_print("SUITE", 14, false), tui_col_print("VARIANT", 8, false),
        tui_col_print("CHECK", 20, false), tui_col_print("SHAPE", 22, false),
        tui_col_print("ORACLE", 10, false), tui_col_print("VERDICT", 11, false),
        tui_col_print("MEDIAN µs", 10, false), tui_col_print("MIN µs", 10, false),
        tui_col_print("MAX µs", 10, false), tui_col_print("REP", 5, false);
    puts("DETAIL");
    for (size_t i = 0; i < d.n_checks; i++) {
        const struct cdb_check *c = &d.checks[i];
        char seq[16], rung[8], med[32], mn[32], mx[32], rep[16];
        snprintf(seq, sizeof seq, "%d", c->seq);
        snprintf(rung, sizeof rung, "%d", c->rung);
        fmt_us(c->time_median_us, med, sizeof med);
        fmt_us(c->time_min_us, mn, sizeof mn);
        fmt_us(c->time_max_us, mx, sizeof mx);
        snprintf(rep, sizeof rep, "%d", c->repeats);
        tui_col_print(seq, 4, false), tui_col_print(rung, 4, false),
            tui_col_print(c->suite, 14, false), tui_col_print(c->variant, 8, false),
            tui_col_print(c->check, 20, false), tui_col_print(c->shape, 22, false),
            tui_col_print(c->oracle, 10, false),
            tui_col_print(cdb_verdict_name(c->verdict), 11, false), tui_col_print(med, 10, false),
            tui_col_print(mn, 10, false), tui_col_print(mx, 10, false),
            tui_col_print(rep, 5, false);
        /* the detail is one line here; newlines in it become spaces */
        char *det = text_sanitize(c->detail ? c->detail : "", false);
        char extra[160] = "", err_s[32] = "n/a";
        if (!isnan(c->max_err))
            snprintf(err_s, sizeof err_s, "%g", c->max_err);
        if (c->first_bad >= 0 || c->bad_count >= 0 || !isnan(c->max_err))
            snprintf(extra, sizeof extra, " [first_bad %lld, bad %lld, max_err %s]",
                     (long long)c->first_bad, (long long)c->bad_count, err_s);
        char facts[200]; /* the rung's facts in its own words (rung 8: the score) */
        const char *label;
        eng_rung_facts_line(c, false, &label, facts, sizeof facts);
        printf("%s%s%s%s\n", det, c->verdict == CDB_PASS ? "" : extra, facts[0] ? " · " : "",
               facts);
        free(det);
    }
    printf("%zu check%s\n", d.n_checks, d.n_checks == 1 ? "" : "s");
    cdb_run_detail_free(&d);
    return 0;
}

static int take_verdict(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    int *verdict = opt->dest;
    *verdict = cdb_verdict_parse(v); /* one of the choices, the database's own names */
    return CLI_PARSED;
}

int cmd_results(int argc, char **argv, const struct cli_global *g)
{
    struct cdb_run_filter f;
    cdb_run_filter_init(&f);
    bool json = false;
    const char *id = NULL;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_FLAG_DOC("--json", &json, "print the runs (or the run) as JSON"),
        CLI_OPT_STRING_DOC("--host", &f.host, "NAME",
                           "runs pulled under NAME ('local': runs made here)"),
        /* any rung the database keeps: a pulled host may run rungs this kladder has not */
        CLI_OPT_INT_DOC("--rung", &f.rung, 0, CDB_RUNG_MAX, "N",
                        "runs of one rung (0: runs of several rungs)"),
        CLI_OPT_CALL_CHOICE_DOC("--verdict", &f.verdict, take_verdict,
                                CLI_WORD_FN(cli_word_verdict), "runs of this verdict"),
    };
    const struct cli_parser p = {.verb = "results", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_STRING(NULL, &id)};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc != CLI_PARSED)
        return rc;
    if (id && (f.host || f.rung >= 0 || f.verdict >= 0))
        return cli_usage_error("results", "--host, --rung and --verdict filter the run list, not "
                                          "one run");
    struct cdb *db = cli_open_db(g);
    if (!db)
        return 2;
    rc = id ? show_run(db, id, json) : list_runs(db, &f, json);
    cdb_close(db);
    return rc;
}
