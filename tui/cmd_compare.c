/* kladder compare A B [--rung N] [--json] */
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
#include "tui/cli.h"

static void print_help(void)
{
    printf("usage: kladder compare A B [--rung N] [--json]\n\n"
           "Puts two machines side by side. A and B are 'local' (runs made here), a host of\n"
           "`kladder hosts list`, a host that produced runs, or a machine id (or 4+ of its first\n"
           "characters). Checks are matched on rung, suite, check, shape and variant, using each\n"
           "side's latest run of that check. RATIO is B's median time over A's; it is flagged\n"
           "(*) only when the [min, max] spreads of the repeats do not overlap. Rows whose\n"
           "verdicts differ are marked (!). The bars show |log2 ratio|: to the right of '|' when\n"
           "B is slower, to the left when B is faster.\n");
}

static bool utf8_locale(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

static void cell(const char *s, int cells, bool ascii)
{
    char *t = text_fit_pad(s ? s : "", cells, ascii);
    fputs(t, stdout);
    free(t);
    fputc(' ', stdout);
}

/* Right-aligned number cell. */
static void rcell(const char *s, int cells)
{
    int w = text_width(s);
    printf("%*s%s ", w < cells ? cells - w : 0, "", s);
}

static void fmt_us(const struct cdb_compare_cell *c, char *buf, size_t len)
{
    if (!c->present)
        snprintf(buf, len, "-");
    else if (isnan(c->median_us))
        snprintf(buf, len, "n/a");
    else if (c->median_us < 100)
        snprintf(buf, len, "%.2f", c->median_us);
    else
        snprintf(buf, len, "%.0f", c->median_us);
}

/* A bar of `eighths` eighth-cells, in block characters or '#' when the terminal is ASCII. */
static void bar(int eighths, bool ascii, char *buf, size_t len)
{
    static const char *const part[8] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    size_t used = 0;
    buf[0] = '\0';
    int full = eighths / 8, rest = eighths % 8;
    if (ascii) {
        full = (eighths + 4) / 8;
        rest = 0;
    }
    for (int i = 0; i < full && used + 4 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s", ascii ? "#" : "█");
    if (rest && used + 4 < len)
        snprintf(buf + used, len - used, "%s", part[rest]);
}

#define BAR_CELLS 16

static double scale_of(const struct cdb_compare *c)
{
    double m = 1; /* a 2x difference fills the bar unless larger ones exist */
    for (size_t i = 0; i < c->n; i++)
        if (!isnan(c->rows[i].ratio) && fabs(log2(c->rows[i].ratio)) > m)
            m = fabs(log2(c->rows[i].ratio));
    return m;
}

static void print_table(const struct cdb_compare *c, const char *na, const char *nb,
                        enum cli_color when)
{
    bool ascii = !utf8_locale();
    bool color = when == CLI_COLOR_ALWAYS ||
                 (when == CLI_COLOR_AUTO && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
    double scale = scale_of(c);
    char ha[64], hb[64];
    snprintf(ha, sizeof ha, "A %s", ascii ? "us" : "µs");
    snprintf(hb, sizeof hb, "B %s", ascii ? "us" : "µs");
    printf("A = %s, B = %s\n\n", na, nb);
    cell("", 2, ascii), cell("RUNG", 4, ascii), cell("SUITE", 14, ascii), cell("CHECK", 20, ascii),
        cell("SHAPE", 20, ascii), cell("VARIANT", 8, ascii);
    rcell(ha, 10), rcell(hb, 10), rcell("B/A", 8);
    cell(" ", 1, ascii), cell("VERDICT A/B", 16, ascii);
    printf("%*s|%s\n", BAR_CELLS, "faster", "slower");
    for (size_t i = 0; i < c->n; i++) {
        const struct cdb_compare_row *r = &c->rows[i];
        char rung[8], ta[32], tb[32], ratio[32] = "", verd[48], left[BAR_CELLS * 4 + 8] = "",
                                                              right[BAR_CELLS * 4 + 8] = "";
        snprintf(rung, sizeof rung, "%d", r->rung);
        fmt_us(&r->a, ta, sizeof ta);
        fmt_us(&r->b, tb, sizeof tb);
        if (!isnan(r->ratio))
            snprintf(ratio, sizeof ratio, "%.2fx", r->ratio);
        else
            snprintf(ratio, sizeof ratio, "-");
        snprintf(verd, sizeof verd, "%s/%s", r->a.present ? cdb_verdict_name(r->a.verdict) : "-",
                 r->b.present ? cdb_verdict_name(r->b.verdict) : "-");
        if (!isnan(r->ratio)) {
            int e = (int)lround(fabs(log2(r->ratio)) / scale * BAR_CELLS * 8);
            bar(e, ascii, r->ratio >= 1 ? right : left, sizeof right);
        }
        const char *mark = r->verdict_differs ? "!" : "";
        if (color && r->verdict_differs)
            fputs("\033[1;31m", stdout);
        cell(mark, 2, ascii), cell(rung, 4, ascii), cell(r->suite, 14, ascii),
            cell(r->check, 20, ascii), cell(r->shape, 20, ascii), cell(r->variant, 8, ascii);
        rcell(ta, 10), rcell(tb, 10), rcell(ratio, 8);
        cell(r->flagged ? "*" : "", 1, ascii), cell(verd, 16, ascii);
        int lw = text_width(left);
        printf("%*s%s|%s", BAR_CELLS - lw, "", left, right);
        if (color && r->verdict_differs)
            fputs("\033[0m", stdout);
        putchar('\n');
    }
    const struct cdb_compare_summary *s = &c->summary;
    putchar('\n');
    if (isnan(s->geomean_ratio))
        printf("geometric-mean ratio B/A: n/a (no check has times on both sides)\n");
    else
        printf("geometric-mean ratio B/A: %.3fx over %d check%s\n", s->geomean_ratio,
               s->with_ratio, s->with_ratio == 1 ? "" : "s");
    printf("flagged (spreads do not overlap): %d\n", s->flagged);
    printf("verdicts that differ: %d\n", s->differing_verdicts);
    printf("only on A: %d, only on B: %d, on both: %d\n", s->only_a, s->only_b, s->both);
    printf("bars: |log2 ratio|, full width = %.3gx\n", exp2(scale));
}

static cJSON *side_json(const struct cdb_compare_cell *c)
{
    if (!c->present)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "verdict", cdb_verdict_name(c->verdict));
    cJSON *t = cJSON_AddObjectToObject(o, "time_us");
    const double v[3] = {c->median_us, c->min_us, c->max_us};
    const char *const k[3] = {"median", "min", "max"};
    for (int i = 0; i < 3; i++) {
        if (isfinite(v[i]))
            cJSON_AddNumberToObject(t, k[i], v[i]);
        else
            cJSON_AddNullToObject(t, k[i]);
    }
    cJSON_AddStringToObject(o, "run_id", c->run_uuid ? c->run_uuid : "");
    return o;
}

static void add_sanitised(cJSON *o, const char *key, const char *s)
{
    char *t = text_sanitize(s ? s : "", false);
    cJSON_AddStringToObject(o, key, t);
    free(t);
}

static void print_json(const struct cdb_compare *c)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (size_t i = 0; i < c->n; i++) {
        const struct cdb_compare_row *r = &c->rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "rung", r->rung);
        add_sanitised(o, "suite", r->suite);
        add_sanitised(o, "check", r->check);
        add_sanitised(o, "shape", r->shape);
        add_sanitised(o, "variant", r->variant);
        cJSON_AddItemToObject(o, "a", side_json(&r->a));
        cJSON_AddItemToObject(o, "b", side_json(&r->b));
        if (isfinite(r->ratio))
            cJSON_AddNumberToObject(o, "ratio", r->ratio);
        else
            cJSON_AddNullToObject(o, "ratio");
        cJSON_AddBoolToObject(o, "flagged", r->flagged);
        cJSON_AddBoolToObject(o, "verdict_differs", r->verdict_differs);
        cJSON_AddItemToArray(rows, o);
    }
    const struct cdb_compare_summary *s = &c->summary;
    cJSON *sum = cJSON_AddObjectToObject(root, "summary");
    if (isfinite(s->geomean_ratio))
        cJSON_AddNumberToObject(sum, "geomean_ratio", s->geomean_ratio);
    else
        cJSON_AddNullToObject(sum, "geomean_ratio");
    cJSON_AddNumberToObject(sum, "with_ratio", s->with_ratio);
    cJSON_AddNumberToObject(sum, "flagged", s->flagged);
    cJSON_AddNumberToObject(sum, "differing_verdicts", s->differing_verdicts);
    cJSON_AddNumberToObject(sum, "only_a", s->only_a);
    cJSON_AddNumberToObject(sum, "only_b", s->only_b);
    cJSON_AddNumberToObject(sum, "both", s->both);
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

int cmd_compare(int argc, char **argv, const struct cli_global *g)
{
    const char *spec[2] = {NULL, NULL};
    int n = 0, rung = -1;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--rung") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("compare", "--rung expects a value");
            if (!cli_parse_int("compare", a, argv[++i], 0, 8, &rung))
                return 2;
        } else if (a[0] == '-' || n == 2) {
            return cli_usage_error("compare", "unknown argument '%s'", a);
        } else {
            spec[n++] = a;
        }
    }
    if (n != 2)
        return cli_usage_error("compare", "expects two sides: A B (host names, machine ids or "
                                          "'local')");
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
    if (json) {
        print_json(&c);
    } else {
        char da[128], db_[128];
        describe(&sa, spec[0], da, sizeof da);
        describe(&sb, spec[1], db_, sizeof db_);
        print_table(&c, da, db_, g->color);
    }
    cdb_compare_free(&c);
    return 0;
}
