/* kladder compare's table, fitted to a width (tui/cli/compare_table.h). */
#include "tui/cli/compare_table.h"

#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "tui/columns.h"
#include "tui/compare_fmt.h"
#include "tui/name_cut.h"

#define BAR_CELLS 16 /* each half of the bar */

enum col { C_MARK, C_RUNG, C_SUITE, C_CHECK, C_SHAPE, C_VARIANT, C_TIMES, C_RATIO, C_TMARK,
           C_VERDICT, C_BAR, C_COUNT };
#define TIME_CELLS 10 /* each of the two times; Times holds both, so they go together */

bool compare_table_ascii(void)
{
    const char *cs = nl_langinfo(CODESET);
    return !(cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0));
}

int compare_table_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    const char *cols = getenv("COLUMNS");
    int w = cols ? atoi(cols) : 0;
    return w > 0 ? w : 0;
}

static void fmt_us(const struct cdb_compare_cell *c, char *buf, size_t len)
{
    if (!c->present)
        snprintf(buf, len, "%s", "");
    else if (isnan(c->median_us))
        snprintf(buf, len, "n/a");
    else if (c->median_us < 100)
        snprintf(buf, len, "%.2f", c->median_us);
    else
        snprintf(buf, len, "%.0f", c->median_us);
}

static const char *side_verdict(const struct cdb_compare_cell *c)
{
    return c->present ? cdb_verdict_name(c->verdict) : "not run";
}

/* Right-aligned in `cells`, then the gap. */
static void rcell(const char *s, int cells)
{
    char *t = text_fit(s, cells, false, NULL);
    int w = text_width(t);
    printf("%*s%s ", w < cells ? cells - w : 0, "", t);
    free(t);
}

static const char *row_name(const struct cdb_compare_row *r, enum col k)
{
    return k == C_SUITE ? r->suite : k == C_CHECK ? r->check : k == C_SHAPE ? r->shape
                                                                           : r->variant;
}

/* The columns' wants from the rows' contents, laid out in width (0: every one whole). */
static void layout(const struct cdb_compare *c, const size_t *idx, size_t n, int width,
                   struct tui_col *col)
{
    static const char *const heads[C_COUNT] = {"", "RUNG", "SUITE", "CHECK", "SHAPE", "VARIANT",
                                               "", "B vs A", "", "VERDICT A/B", ""};
    for (int k = 0; k < C_COUNT; k++)
        col[k] = (struct tui_col){.want = text_width(heads[k]), .min = 1};
    for (size_t i = 0; i < n; i++) {
        const struct cdb_compare_row *r = &c->rows[idx[i]];
        for (enum col k = C_SUITE; k <= C_VARIANT; k++) {
            int w = text_width(row_name(r, k) ? row_name(r, k) : "");
            col[k].want = w > col[k].want ? w : col[k].want;
        }
        char v[48];
        snprintf(v, sizeof v, "%s/%s", side_verdict(&r->a), side_verdict(&r->b));
        col[C_VERDICT].want = text_width(v) > col[C_VERDICT].want ? text_width(v)
                                                                  : col[C_VERDICT].want;
    }
    col[C_MARK].want = 1;
    col[C_TIMES].want = 2 * TIME_CELLS + 1;
    col[C_RATIO].want = 13;
    col[C_TMARK].want = 1;
    col[C_BAR].want = 2 * BAR_CELLS + 1;
    /* the give-way order of the Compare view: Shape, the bar, Rung, Suite narrows, the times
     * together, Variant narrows; Check takes the rest */
    col[C_SHAPE].give = 1, col[C_SHAPE].min = 8;
    col[C_BAR].give = 2, col[C_BAR].min = col[C_BAR].want;
    col[C_RUNG].give = 3, col[C_RUNG].min = col[C_RUNG].want;
    col[C_SUITE].give = 4, col[C_SUITE].min = 8, col[C_SUITE].keep = true;
    col[C_TIMES].give = 5, col[C_TIMES].min = col[C_TIMES].want;
    col[C_VARIANT].give = 6, col[C_VARIANT].min = 6, col[C_VARIANT].keep = true;
    col[C_CHECK].flex = true, col[C_CHECK].min = 10;
    for (int k = 0; k < C_COUNT; k++)
        if (col[k].min > col[k].want)
            col[k].min = col[k].want;
    int whole = 0;
    for (int k = 0; k < C_COUNT; k++)
        whole += col[k].want + 1;
    /* every cell is followed by its gap, the last one too: it must fit as well */
    tui_columns_fit(col, C_COUNT, width > 0 && width <= whole ? width - 1 : whole, 1);
}

static void print_heading(const struct tui_col *col, bool ascii)
{
    for (int k = 0; k < C_COUNT; k++) {
        int w = col[k].w;
        if (!w)
            continue;
        if (k == C_TIMES) {
            rcell(ascii ? "A us" : "A µs", TIME_CELLS), rcell(ascii ? "B us" : "B µs", TIME_CELLS);
        } else if (k == C_RATIO) {
            rcell("B vs A", w);
        } else if (k == C_BAR) {
            printf("%*s|%-*s", BAR_CELLS, "faster", BAR_CELLS, "slower");
        } else {
            static const char *const heads[C_COUNT] = {"", "RUNG", "SUITE", "CHECK", "SHAPE",
                                                       "VARIANT", "", "", "", "VERDICT A/B", ""};
            tui_col_print(heads[k], w, ascii);
        }
    }
    putchar('\n');
}

static void print_row(const struct cdb_compare_row *r, const struct tui_col *col,
                      const size_t at[C_COUNT], bool ascii)
{
    for (int k = 0; k < C_COUNT; k++) {
        int w = col[k].w;
        if (!w)
            continue;
        char buf[160] = "", buf2[48] = "";
        switch ((enum col)k) {
        case C_MARK:
            tui_col_print(cmp_verdict_mark(r, ascii), w, ascii);
            break;
        case C_RUNG:
            snprintf(buf, sizeof buf, "%d", r->rung);
            tui_col_print(buf, w, ascii);
            break;
        case C_SUITE:
        case C_CHECK:
        case C_SHAPE:
        case C_VARIANT: {
            char *t = name_cut(row_name(r, (enum col)k), at[k], w, ascii);
            tui_col_print(t, w, ascii);
            free(t);
            break;
        }
        case C_TIMES:
            fmt_us(&r->a, buf, sizeof buf), fmt_us(&r->b, buf2, sizeof buf2);
            rcell(buf, TIME_CELLS), rcell(buf2, TIME_CELLS);
            break;
        case C_RATIO:
            if (!isnan(r->ratio))
                cmp_fmt_ratio(r->ratio, ascii, false, buf, sizeof buf);
            rcell(buf, w);
            break;
        case C_TMARK:
            tui_col_print(cmp_timing_mark(r), w, ascii);
            break;
        case C_VERDICT:
            snprintf(buf, sizeof buf, "%s/%s", side_verdict(&r->a), side_verdict(&r->b));
            tui_col_print(buf, w, ascii);
            break;
        case C_BAR: {
            char left[BAR_CELLS * 4 + 8] = "", right[BAR_CELLS * 4 + 8] = "";
            int e = cmp_bar_eighths(r->ratio, BAR_CELLS);
            if (e)
                cmp_fmt_bar(e, ascii, e > 0 ? right : left, sizeof right);
            printf("%*s%s|%s", BAR_CELLS - text_width(left), "", left, right);
            if (r->scored) { /* rung 8: no times, the two scores */
                cmp_fmt_score(r, ascii, false, buf, sizeof buf);
                printf("%*s  %s", BAR_CELLS - text_width(right), "", buf);
            }
            break;
        }
        default:
            break;
        }
    }
}

static void print_summary(const struct cdb_compare *c, size_t n, const char *short_a,
                          const char *short_b, bool ascii)
{
    const struct cdb_compare_summary *s = &c->summary;
    char speed[512];
    cmp_fmt_speed(s, short_a, short_b, ascii, false, speed, sizeof speed);
    printf("\n%s\n", speed);
    /* each line of the summary fits 80 columns */
    printf("timing: %d flagged (!), %d within noise (~), %d not judged (?: < %d repeats a "
           "side)\n",
           s->flagged, s->noise, s->few_repeats, CDB_CMP_MIN_REPEATS);
    printf("verdicts that differ (%s): %d; skipped on one side only: %d\n", ascii ? "#" : "≠",
           s->differing_verdicts, s->skipped_one);
    if (s->scored)
        printf("scores (rung 8): %d on both sides, %d apart by more than %.0f%% (!)\n", s->scored,
               s->differing_scores, CDB_CMP_SCORE_TOL * 100);
    printf("only on A: %d, only on B: %d, on both: %d\n", s->only_a, s->only_b, s->both);
    if (n != c->n)
        printf("shown: %zu of %zu rows\n", n, c->n);
    printf("bars: log10 ratio, each half = %d decades (10^%dx)\n", CMP_BAR_DECADES,
           CMP_BAR_DECADES);
}

void compare_table_print(const struct cdb_compare *c, const size_t *idx, size_t n,
                         const char *na, const char *nb, const char *short_a,
                         const char *short_b, enum cli_color when, int width)
{
    bool ascii = compare_table_ascii();
    bool color = when == CLI_COLOR_ALWAYS ||
                 (when == CLI_COLOR_AUTO && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
    struct tui_col col[C_COUNT];
    layout(c, idx, n, width, col);
    /* where each name first differs from the others of its column, for its cut */
    size_t(*at)[C_COUNT] = xcalloc(n ? n : 1, sizeof *at);
    const char **names = xcalloc(n ? n : 1, sizeof *names);
    size_t *one = xcalloc(n ? n : 1, sizeof *one);
    for (enum col k = C_SUITE; k <= C_VARIANT; k++) {
        for (size_t i = 0; i < n; i++)
            names[i] = row_name(&c->rows[idx[i]], k);
        name_cut_points(names, n, one);
        for (size_t i = 0; i < n; i++)
            at[i][k] = one[i];
    }
    printf("A = %s, B = %s\n\n", na, nb);
    print_heading(col, ascii);
    /* The checks both sides ran first: they are the comparison. A check one side never ran
     * says nothing about the other, so those come after, under a line that counts them, not
     * as dozens of "not run" rows ahead of the first real one. */
    for (int part = 0; part < 3; part++) {
        size_t count = 0;
        for (size_t i = 0; i < n; i++) {
            const struct cdb_compare_row *r = &c->rows[idx[i]];
            count += part == (r->a.present && r->b.present ? 0 : r->a.present ? 1 : 2);
        }
        if (part > 0 && count)
            printf("\n%zu check%s only on %s (not run on %s):\n",
                   count, count == 1 ? "" : "s", part == 1 ? "A" : "B", part == 1 ? "B" : "A");
        for (size_t i = 0; i < n; i++) {
            const struct cdb_compare_row *r = &c->rows[idx[i]];
            if (part != (r->a.present && r->b.present ? 0 : r->a.present ? 1 : 2))
                continue;
            if (color && r->verdict_differs)
                fputs("\033[1;31m", stdout);
            print_row(r, col, at[i], ascii);
            if (color && r->verdict_differs)
                fputs("\033[0m", stdout);
            putchar('\n');
        }
    }
    free(at), free(names), free(one);
    print_summary(c, n, short_a, short_b, ascii);
}
