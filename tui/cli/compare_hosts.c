/* kladder compare over more than two hosts (compare_hosts.h). */
#include "tui/cli/compare_hosts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "tui/cli/compare_json.h"
#include "tui/cli/compare_table.h"
#include "tui/columns.h"
#include "tui/compare_fmt.h"
#include "tui/name_cut.h"

enum col { C_MARK, C_RUNG, C_SUITE, C_CHECK, C_SHAPE, C_VARIANT, C_HOSTS };

static const char *name_of(const struct cmp_matrix_row *r, int k)
{
    return k == C_SUITE ? r->suite : k == C_CHECK ? r->check : k == C_SHAPE ? r->shape
                                                                           : r->variant;
}

/* The baseline's cell: its verdict and median time. */
static void base_cell(const struct cdb_compare_cell *c, bool ascii, char *buf, size_t len)
{
    if (!c)
        snprintf(buf, len, "%s", cmp_not_run(ascii));
    else if (!isfinite(c->median_us))
        snprintf(buf, len, "%s", cdb_verdict_name(c->verdict));
    else
        snprintf(buf, len, "%s %.*f%s", cdb_verdict_name(c->verdict), c->median_us < 100 ? 2 : 0,
                 c->median_us, ascii ? "us" : "µs");
}

/* Host h's cell against the baseline: "≠fail 3.10× slower !" (long) or "≠fail 3.10×▲ !". */
static void host_cell(const struct cmp_matrix_row *r, size_t h, bool shortform, bool ascii,
                      char *buf, size_t len)
{
    const struct cdb_compare_row *v = cmp_matrix_vs(r, h);
    const struct cdb_compare_cell *c = cmp_matrix_cell(r, h);
    if (!c) {
        snprintf(buf, len, "%s", cmp_not_run(ascii));
        return;
    }
    char ratio[48] = "";
    if (v && isfinite(v->ratio)) {
        cmp_fmt_ratio(v->ratio, ascii, false, ratio, sizeof ratio);
        if (shortform) {
            char *sp = strrchr(ratio, ' ');
            const char *dir = strcmp(sp + 1, "same") == 0 ? "="
                              : strcmp(sp + 1, "slower") == 0 ? (ascii ? "+" : "▲")
                                                              : (ascii ? "-" : "▼");
            snprintf(sp, sizeof ratio - (size_t)(sp - ratio), "%s", dir);
        }
    }
    snprintf(buf, len, "%s%s%s%s%s%s", v ? cmp_verdict_mark(v, ascii) : "",
             cdb_verdict_name(c->verdict), ratio[0] ? " " : "", ratio,
             v && cmp_timing_mark(v)[0] ? " " : "", v ? cmp_timing_mark(v) : "");
}

static int max_i(int a, int b)
{
    return a > b ? a : b;
}

/* The columns' wants from the rows, laid out in width; long_w[h]: the width host h's long
 * form needs (a narrower column gets the short form). */
static void layout(const struct cmp_matrix *m, const size_t *idx, size_t n,
                   const char *const *names, int width, bool ascii, struct tui_col *col,
                   int *long_w)
{
    static const char *const heads[C_HOSTS] = {"", "RUNG", "SUITE", "CHECK", "SHAPE", "VARIANT"};
    size_t nc = C_HOSTS + m->n_hosts;
    for (size_t k = 0; k < nc; k++)
        col[k] = (struct tui_col){.want = k < C_HOSTS ? text_width(heads[k]) : 0, .min = 1};
    for (size_t h = 0; h < m->n_hosts; h++) {
        char *t = text_sanitize(names[h], false);
        col[C_HOSTS + h].want = text_width(t) + (h == 0 ? 11 : 0); /* " (baseline)" */
        col[C_HOSTS + h].min = max_i(4, text_width(t) < 12 ? text_width(t) : 12);
        free(t);
    }
    char buf[160];
    for (size_t i = 0; i < n; i++) {
        const struct cmp_matrix_row *r = &m->rows[idx[i]];
        for (int k = C_SUITE; k <= C_VARIANT; k++)
            col[k].want = max_i(col[k].want, text_width(name_of(r, k) ? name_of(r, k) : ""));
        base_cell(r->base, ascii, buf, sizeof buf);
        col[C_HOSTS].want = max_i(col[C_HOSTS].want, text_width(buf));
        col[C_HOSTS].min = max_i(col[C_HOSTS].min, text_width(buf));
        for (size_t h = 1; h < m->n_hosts; h++) {
            host_cell(r, h, false, ascii, buf, sizeof buf);
            col[C_HOSTS + h].want = max_i(col[C_HOSTS + h].want, text_width(buf));
            host_cell(r, h, true, ascii, buf, sizeof buf);
            col[C_HOSTS + h].min = max_i(col[C_HOSTS + h].min, text_width(buf));
        }
    }
    col[C_MARK].want = 1;
    col[C_SHAPE].give = 1, col[C_SHAPE].min = 8;
    col[C_RUNG].give = 2, col[C_RUNG].min = col[C_RUNG].want;
    col[C_SUITE].give = 3, col[C_SUITE].min = 8, col[C_SUITE].keep = true;
    col[C_VARIANT].give = 4, col[C_VARIANT].min = 6, col[C_VARIANT].keep = true;
    for (size_t h = 0; h < m->n_hosts; h++)
        col[C_HOSTS + h].give = 5, col[C_HOSTS + h].keep = true;
    col[C_CHECK].flex = true, col[C_CHECK].min = 10;
    int whole = 0;
    for (size_t k = 0; k < nc; k++) {
        if (col[k].min > col[k].want)
            col[k].min = col[k].want;
        whole += col[k].want + 1;
    }
    for (size_t h = 0; h < m->n_hosts; h++)
        long_w[h] = col[C_HOSTS + h].want;
    tui_columns_fit(col, nc, width > 0 && width <= whole ? width - 1 : whole, 1);
}

static void print_heading(const struct cmp_matrix *m, const char *const *names,
                          const struct tui_col *col, bool ascii)
{
    static const char *const heads[C_HOSTS] = {"", "RUNG", "SUITE", "CHECK", "SHAPE", "VARIANT"};
    for (size_t k = 0; k < C_HOSTS + m->n_hosts; k++) {
        if (!col[k].w)
            continue;
        if (k < C_HOSTS) {
            tui_col_print(heads[k], col[k].w, ascii);
            continue;
        }
        char *t = text_sanitize(names[k - C_HOSTS], false);
        char head[160];
        snprintf(head, sizeof head, "%s%s", t,
                 k == C_HOSTS && col[k].w >= text_width(t) + 11 ? " (baseline)" : "");
        tui_col_print(head, col[k].w, ascii);
        free(t);
    }
    putchar('\n');
}

static void print_row(const struct cmp_matrix *m, const struct cmp_matrix_row *r,
                      const struct tui_col *col, const size_t *at, const int *long_w, bool ascii)
{
    char buf[160];
    for (size_t k = 0; k < C_HOSTS + m->n_hosts; k++) {
        int w = col[k].w;
        if (!w)
            continue;
        if (k == C_MARK) {
            tui_col_print(r->standing_out ? "*" : "", w, ascii);
        } else if (k == C_RUNG) {
            snprintf(buf, sizeof buf, "%d", r->rung);
            tui_col_print(buf, w, ascii);
        } else if (k < C_HOSTS) {
            char *t = name_cut(name_of(r, (int)k), at[k], w, ascii);
            tui_col_print(t, w, ascii);
            free(t);
        } else if (k == C_HOSTS) {
            base_cell(r->base, ascii, buf, sizeof buf);
            tui_col_print(buf, w, ascii);
        } else {
            size_t h = k - C_HOSTS;
            host_cell(r, h, w < long_w[h], ascii, buf, sizeof buf);
            tui_col_print(buf, w, ascii);
        }
    }
    putchar('\n');
}

/* Per host against the baseline: the speed sentence, then its marks; each line fits 80. */
static void print_summary(const struct cmp_matrix *m, size_t n, const char *const *names,
                          bool ascii)
{
    char *base = text_fit(names[0], 24, ascii, NULL);
    for (size_t h = 1; h < m->n_hosts; h++) {
        const struct cdb_compare_summary *s = &m->pair[h - 1].summary;
        char *t = text_fit(names[h], 24, ascii, NULL);
        char speed[512];
        cmp_fmt_speed(s, base, t, ascii, false, speed, sizeof speed);
        printf("\n%s\n", speed);
        printf("  %s: timing %d !, %d ~, %d ?; verdicts that differ (%s): %d\n", t, s->flagged,
               s->noise, s->few_repeats, ascii ? "#" : "≠", s->differing_verdicts);
        printf("  %s: only on %s %d, only on %s %d\n", t, base, s->only_a, t, s->only_b);
        free(t);
    }
    free(base);
    printf("\n* a host stands out on that row: %s verdicts differ, ! a real timing difference\n"
           "  (%d+ repeats a side, spreads apart and over %.0f%%, or %.0fx either way),\n"
           "  ~ within noise, ? not judged (fewer than %d repeats a side)\n",
           ascii ? "#" : "≠", CDB_CMP_MIN_REPEATS, CDB_CMP_NOISE * 100, CDB_CMP_LARGE,
           CDB_CMP_MIN_REPEATS);
    printf("ratios are each host's median time over the baseline's (%s slower, %s faster)\n",
           ascii ? "+" : "▲", ascii ? "-" : "▼");
    if (n != m->n)
        printf("shown: %zu of %zu rows\n", n, m->n);
}

void compare_hosts_print(const struct cmp_matrix *m, const size_t *idx, size_t n,
                         const char *const *names, enum cli_color when, int width)
{
    bool ascii = compare_table_ascii();
    bool color = when == CLI_COLOR_ALWAYS ||
                 (when == CLI_COLOR_AUTO && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
    size_t nc = C_HOSTS + m->n_hosts;
    struct tui_col *col = xcalloc(nc, sizeof *col);
    int *long_w = xcalloc(m->n_hosts, sizeof *long_w);
    layout(m, idx, n, names, width, ascii, col, long_w);
    size_t(*at)[C_HOSTS] = xcalloc(n ? n : 1, sizeof *at);
    const char **cut = xcalloc(n ? n : 1, sizeof *cut);
    size_t *one = xcalloc(n ? n : 1, sizeof *one);
    for (int k = C_SUITE; k <= C_VARIANT; k++) {
        for (size_t i = 0; i < n; i++)
            cut[i] = name_of(&m->rows[idx[i]], k);
        name_cut_points(cut, n, one);
        for (size_t i = 0; i < n; i++)
            at[i][k] = one[i];
    }
    print_heading(m, names, col, ascii);
    for (size_t i = 0; i < n; i++) {
        const struct cmp_matrix_row *r = &m->rows[idx[i]];
        if (color && r->standing_out)
            fputs("\033[1;31m", stdout);
        print_row(m, r, col, at[i], long_w, ascii);
        if (color && r->standing_out)
            fputs("\033[0m", stdout);
    }
    free(at), free(cut), free(one), free(col), free(long_w);
    print_summary(m, n, names, ascii);
}

void compare_hosts_json(const struct cmp_matrix *m, const size_t *idx, size_t n,
                        const char *const *names)
{
    cJSON *root = cJSON_CreateObject();
    compare_json_add_text(root, "baseline", names[0]);
    cJSON *hosts = cJSON_AddArrayToObject(root, "hosts");
    for (size_t h = 0; h < m->n_hosts; h++) {
        char *t = text_sanitize(names[h], false);
        cJSON_AddItemToArray(hosts, cJSON_CreateString(t));
        free(t);
    }
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (size_t k = 0; k < n; k++) {
        const struct cmp_matrix_row *r = &m->rows[idx[k]];
        cJSON *o = compare_json_key(r->rung, r->suite, r->check, r->shape, r->variant);
        cJSON *cells = cJSON_AddArrayToObject(o, "cells");
        for (size_t h = 0; h < m->n_hosts; h++) {
            cJSON *c = cJSON_CreateObject();
            cJSON_AddItemToObject(c, "side", compare_json_side(cmp_matrix_cell(r, h)));
            if (h && cmp_matrix_vs(r, h))
                compare_json_add_judgement(c, cmp_matrix_vs(r, h));
            cJSON_AddItemToArray(cells, c);
        }
        cJSON_AddNumberToObject(o, "hosts_standing_out", r->standing_out);
        cJSON_AddItemToArray(rows, o);
    }
    cJSON *sum = cJSON_AddArrayToObject(root, "summary");
    for (size_t h = 1; h < m->n_hosts; h++) {
        const struct cdb_compare_summary *s = &m->pair[h - 1].summary;
        cJSON *o = cJSON_CreateObject();
        compare_json_add_text(o, "host", names[h]);
        if (s->judged && isfinite(s->geomean_ratio))
            cJSON_AddNumberToObject(o, "geomean_ratio", s->geomean_ratio);
        else
            cJSON_AddNullToObject(o, "geomean_ratio");
        cJSON_AddNumberToObject(o, "judged", s->judged);
        cJSON_AddNumberToObject(o, "flagged", s->flagged);
        cJSON_AddNumberToObject(o, "noise", s->noise);
        cJSON_AddNumberToObject(o, "few_repeats", s->few_repeats);
        cJSON_AddNumberToObject(o, "differing_verdicts", s->differing_verdicts);
        cJSON_AddNumberToObject(o, "only_baseline", s->only_a);
        cJSON_AddNumberToObject(o, "only_host", s->only_b);
        cJSON_AddItemToArray(sum, o);
    }
    cJSON_AddNumberToObject(root, "rows_total", (double)m->n);
    cJSON_AddNumberToObject(root, "shown", (double)n);
    char *out = cJSON_Print(root);
    puts(out);
    cJSON_free(out);
    cJSON_Delete(root);
}
