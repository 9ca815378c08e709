/* kladder compare A B [--rung N] [--only-both] [--only-flagged] [--verdict V] [--search TEXT]
 *                     [--sort KEY] [--json] */
#include <cJSON.h>
#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "casedb/cdb.h"
#include "casedb/results_query.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/api/faces.h"
#include "tui/cli/cli.h"
#include "tui/cli/compare_hosts.h"
#include "tui/cli/compare_json.h"
#include "tui/cli/compare_table.h"
#include "tui/cli/opts.h"
#include "tui/columns.h"
#include "tui/compare_fmt.h"

/* What only a comparison of three hosts or more takes. */
struct cli_many {
    const char *baseline, *differs, *sort, *text;
    bool only_flagged;
};

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"A B [C ...] %o", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Puts two machines side by side. A and B are 'local' (runs made here), a host of\n"
           "`kladder hosts list`, a host that produced runs, or a machine id (or 4+ of its first\n"
           "characters). Checks are matched on rung, suite, check, shape and variant, using each\n"
           "side's latest run of that check. 'B vs A' is B's median time against A's, as a\n"
           "magnitude and a direction (450x faster, 1.30x slower).\n\n"
           "Marks (the Compare view uses the same ones):\n"
           "  ≠ (# in ASCII)  the verdicts differ: both ran, neither skipped\n"
           "  !  a real timing difference: %d+ repeats on each side, and [min, max] spreads\n"
           "     apart and more than %.0f%% apart, or %.0fx or more either way\n"
           "  ~  within noise\n"
           "  ?  not judged: fewer than %d repeats on a side (one launch says nothing of noise,\n"
           "     however far apart); such rows are not in the summary's mean either\n"
           "Verdicts: 'skip' ran and chose not to judge; 'not run' has no result on that side.\n"
           "The bars show log10 of the ratio: to the right of '|' when B is slower, to the\n"
           "left when B is faster; each half is %d decades.\n\n"
           "Three hosts or more: checks x hosts, each host judged against the baseline (the\n"
           "first host, or --baseline HOST) with the rules above; a row is marked * when some\n"
           "host stands out against the baseline (≠ or !).\n\n"
           "options:\n",
           CDB_CMP_MIN_REPEATS, CDB_CMP_NOISE * 100, CDB_CMP_LARGE, CDB_CMP_MIN_REPEATS,
           CMP_BAR_DECADES);
    cli_print_help(stdout, p);
}

static void print_json(const struct cdb_compare *c, const size_t *idx, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (size_t k = 0; k < n; k++) {
        const struct cdb_compare_row *r = &c->rows[idx[k]];
        cJSON *o = compare_json_key(r->rung, r->suite, r->check, r->shape, r->variant);
        cJSON_AddItemToObject(o, "a", compare_json_side(&r->a));
        cJSON_AddItemToObject(o, "b", compare_json_side(&r->b));
        compare_json_add_judgement(o, r);
        cJSON_AddItemToArray(rows, o);
    }
    const struct cdb_compare_summary *s = &c->summary;
    cJSON *sum = cJSON_AddObjectToObject(root, "summary");
    if (isfinite(s->geomean_ratio))
        cJSON_AddNumberToObject(sum, "geomean_ratio", s->geomean_ratio);
    else
        cJSON_AddNullToObject(sum, "geomean_ratio");
    cJSON_AddNumberToObject(sum, "with_ratio", s->with_ratio);
    cJSON_AddNumberToObject(sum, "judged", s->judged); /* the rows the mean is over */
    if (s->judged && isfinite(s->geomean_ratio) && s->geomean_ratio < 1)
        cJSON_AddStringToObject(sum, "faster", "B");
    else if (s->judged && isfinite(s->geomean_ratio) && s->geomean_ratio > 1)
        cJSON_AddStringToObject(sum, "faster", "A");
    else
        cJSON_AddNullToObject(sum, "faster");
    cJSON_AddNumberToObject(sum, "flagged", s->flagged);
    cJSON_AddNumberToObject(sum, "noise", s->noise);
    cJSON_AddNumberToObject(sum, "few_repeats", s->few_repeats);
    cJSON_AddNumberToObject(sum, "differing_verdicts", s->differing_verdicts);
    cJSON_AddNumberToObject(sum, "skipped_one", s->skipped_one);
    cJSON_AddNumberToObject(sum, "only_a", s->only_a);
    cJSON_AddNumberToObject(sum, "only_b", s->only_b);
    cJSON_AddNumberToObject(sum, "both", s->both);
    cJSON_AddNumberToObject(sum, "scored", s->scored);
    cJSON_AddNumberToObject(sum, "differing_scores", s->differing_scores);
    cJSON_AddNumberToObject(sum, "rows", (double)c->n);
    cJSON_AddNumberToObject(sum, "shown", (double)n);
    char *out = cJSON_Print(root);
    puts(out);
    cJSON_free(out);
    cJSON_Delete(root);
}

static void describe(const struct cdb_side *s, const char *spec, char *buf, size_t len)
{
    char *t = text_fit(spec, 40, true, NULL);
    switch (s->kind) {
    case CDB_SIDE_LOCAL:
        snprintf(buf, len, "local (runs made here)");
        break;
    case CDB_SIDE_ORIGIN:
        snprintf(buf, len, "%s (pulled host)", t);
        break;
    case CDB_SIDE_HOST:
        snprintf(buf, len, "%s (host)", t);
        break;
    case CDB_SIDE_MACHINE:
        snprintf(buf, len, "machine %s", s->value);
        break;
    }
    free(t);
}

/* Puts the sides spec[0] and spec[1] side by side, as a table or JSON. Returns the exit
 * status. */
static int compare(const struct cli_global *g, const char *const *spec, int rung,
                   const struct cmp_select *sel, bool json)
{
    struct cdb *db = cli_open_db(g);
    if (!db)
        return 2;
    struct cdb_side sa, sb;
    struct cdb_compare c;
    char err[1024];
    if (cdb_side_resolve(db, spec[0], &sa, err, sizeof err) != 0 ||
        cdb_side_resolve(db, spec[1], &sb, err, sizeof err) != 0 ||
        cdb_compare_load(db, &sa, &sb, rung, &c, err, sizeof err) != 0) {
        fprintf(stderr, "kladder compare: %s\n", err);
        cdb_close(db);
        return 2;
    }
    cdb_close(db);
    size_t *idx = xmalloc((c.n + 1) * sizeof *idx);
    size_t shown = cmp_select_rows(&c, sel, idx);
    if (json) {
        print_json(&c, idx, shown);
    } else {
        char da[128], db_[128];
        describe(&sa, spec[0], da, sizeof da);
        describe(&sb, spec[1], db_, sizeof db_);
        char *short_a = text_fit(spec[0], 40, compare_table_ascii(), NULL);
        char *short_b = text_fit(spec[1], 40, compare_table_ascii(), NULL);
        compare_table_print(&c, idx, shown, da, db_, short_a, short_b, g->color,
                            compare_table_width());
        free(short_a), free(short_b);
    }
    free(idx);
    cdb_compare_free(&c);
    return 0;
}

static int take_verdict(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    *(int *)opt->dest = cdb_verdict_parse(v); /* one of the choices, the database's names */
    return CLI_PARSED;
}

#define MAX_HOSTS 16

/* Host name in spec[0..n), or -1. */
static int host_index(const char *const *spec, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(spec[i], name) == 0)
            return (int)i;
    return -1;
}

/* More than two sides: each host against the baseline (tui/compare_matrix.h). */
static int compare_many(const struct cli_global *g, const char *const *spec, size_t n, int rung,
                        const struct cli_many *o, bool json)
{
    int base = o->baseline ? host_index(spec, n, o->baseline) : 0;
    if (base < 0)
        return cli_usage_error("compare", "--baseline %s is none of the hosts compared",
                               o->baseline);
    /* the baseline first, the others in the order given */
    const char *names[MAX_HOSTS];
    names[0] = spec[base];
    for (size_t i = 0, k = 1; i < n; i++)
        if ((int)i != base)
            names[k++] = spec[i];
    struct cmp_matrix_select sel = {.only_flagged = o->only_flagged, .differs_host = -1, .text = o->text,
                                    .sort = CMP_MATRIX_NAME};
    if (o->differs && (sel.differs_host = host_index(names, n, o->differs)) < 1)
        return cli_usage_error("compare", "--differs %s is none of the hosts compared, or the "
                                          "baseline", o->differs);
    if (o->differs)
        sel.only_flagged = true;
    if (o->sort && strcmp(o->sort, "differs") == 0) {
        sel.sort = CMP_MATRIX_DIFFERS;
    } else if (o->sort && strcmp(o->sort, "name") != 0) {
        if ((sel.sort_host = host_index(names, n, o->sort)) < 1)
            return cli_usage_error("compare", "--sort expects name, differs or a host other "
                                              "than the baseline (its slowest rows first)");
        sel.sort = CMP_MATRIX_RATIO;
    }
    struct cdb *db = cli_open_db(g);
    if (!db)
        return 2;
    struct cdb_side side[MAX_HOSTS];
    struct cdb_compare *pair = xcalloc(n, sizeof *pair);
    char err[1024];
    size_t loaded = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = cdb_side_resolve(db, names[i], &side[i], err, sizeof err);
    for (size_t i = 1; i < n && rc == 0; i++, loaded++)
        rc = cdb_compare_load(db, &side[0], &side[i], rung, &pair[i - 1], err, sizeof err);
    cdb_close(db);
    if (rc != 0) {
        fprintf(stderr, "kladder compare: %s\n", err);
        for (size_t i = 0; i + 1 < loaded; i++)
            cdb_compare_free(&pair[i]);
        free(pair);
        return 2;
    }
    struct cmp_matrix m;
    cmp_matrix_build(&m, pair, n);
    size_t *idx = xmalloc((m.n + 1) * sizeof *idx);
    size_t shown = cmp_matrix_select_rows(&m, &sel, idx);
    if (json)
        compare_hosts_json(&m, idx, shown, names);
    else
        compare_hosts_print(&m, idx, shown, names, g->color, compare_table_width());
    free(idx);
    cmp_matrix_free(&m);
    return 0;
}

int cmd_compare(int argc, char **argv, const struct cli_global *g)
{
    struct cli_list spec;
    int rung = -1;
    bool json = false;
    struct cmp_select sel;
    cmp_select_init(&sel);
    struct cli_many many = {0};
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_FLAG_DOC("--json", &json, "print the rows as JSON"),
        /* any rung the database keeps: a pulled host may run rungs this kladder has not */
        CLI_OPT_INT_DOC("--rung", &rung, 0, CDB_RUNG_MAX, "N", "rows of one rung"),
        CLI_OPT_FLAG_DOC("--only-both", &sel.only_both,
                         "two hosts: rows with a result on both sides"),
        CLI_OPT_FLAG_DOC("--only-flagged", &sel.only_flagged,
                         "rows marked ≠ or ! (three hosts or more: rows marked *)"),
        CLI_OPT_STRING_DOC("--sort", &many.sort, "KEY",
                           "two hosts: name (default), ratio (B slowest against A first), "
                           "time-a, time-b (slowest first), verdict (differing first); three "
                           "hosts or more: name (default), differs (rows where most hosts stand "
                           "out first) or a HOST (its slowest rows against the baseline first)"),
        CLI_OPT_STRING_DOC("--baseline", &many.baseline, "HOST",
                           "three hosts or more: the host the others are timed against (default: "
                           "the first)"),
        CLI_OPT_STRING_DOC("--differs", &many.differs, "HOST",
                           "three hosts or more: rows where HOST stands out against the baseline"),
        CLI_OPT_CALL_CHOICE_DOC("--verdict", &sel.verdict, take_verdict,
                                CLI_WORD_FN(cli_word_verdict),
                                "two hosts: rows where either side's verdict is this"),
        CLI_OPT_STRING_DOC("--search", &sel.text, "TEXT",
                           "rows whose suite, check, shape or variant contains TEXT"),
    };
    const struct cli_parser p = {.verb = "compare", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = {.kind = CLI_LIST, .dest = &spec, .hi = MAX_HOSTS}};
    int rc = cli_parse(&p, argc, argv, NULL);
    if (rc == CLI_PARSED && spec.n < 2)
        rc = cli_usage_error("compare", "expects two sides or more: A B [C ...] (host names, "
                                        "machine ids or 'local')");
    if (rc == CLI_PARSED && spec.n == 2 && (many.baseline || many.differs))
        rc = cli_usage_error("compare", "--baseline and --differs are for three hosts or more");
    int sort = spec.n == 2 && many.sort ? cmp_sort_parse(many.sort) : (int)CMP_SORT_NAME;
    if (rc == CLI_PARSED && sort < 0)
        rc = cli_usage_error("compare", "--sort expects name, ratio, time-a, time-b or verdict");
    sel.sort = sort < 0 ? CMP_SORT_NAME : (enum cmp_sort)sort;
    if (rc == CLI_PARSED && spec.n == 2)
        rc = compare(g, spec.v, rung, &sel, json);
    else if (rc == CLI_PARSED) {
        many.only_flagged = sel.only_flagged, many.text = sel.text;
        if (sel.only_both || sel.verdict >= 0)
            rc = cli_usage_error("compare", "--only-both and --verdict are for two hosts");
        else
            rc = compare_many(g, spec.v, spec.n, rung, &many, json);
    }
    free(spec.v);
    return rc;
}
