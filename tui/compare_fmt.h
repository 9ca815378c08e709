/* How a comparison reads, in the CLI table (`kladder compare`) and the Compare view alike: the
 * ratio with its direction, the two marks, the log-scaled bar, the sentence that names the
 * faster side, and which rows are shown in which order. Both faces format through here so a
 * mark or a ratio means the same thing in each.
 *
 * Marks (docs/tui.md and `kladder compare --help` list them):
 *   verdict mark  ≠  the verdicts differ (both ran, neither skipped); '#' in ASCII
 *   timing mark   !  a real difference: 3+ repeats each side, and spreads apart and more than
 *                    5%, or 4x or more whatever the spreads
 *                 ~  within noise
 *                 ?  not judged: fewer than 3 repeats on a side (one launch says nothing of noise)
 *   score mark    !  rung 8: the two scores part by more than 8% of the larger
 *                 =  both scored, within 8%
 *   verdicts      -  skipped (the check ran and chose not to judge);  ○ ('o' in ASCII): not run
 *                    on that side at all. */
#ifndef KL_TUI_COMPARE_FMT_H
#define KL_TUI_COMPARE_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results_query.h"

/* The bar's scale: a full half is this many decades (1x in the middle, 10^4x at either end). */
#define CMP_BAR_DECADES 4

/* B/A as a magnitude and a direction: "450× faster", "1.30× slower", "1.00× same", "20k×
 * faster" from 10^4 on (zh: 更快, 更慢, 相同); never "0.00×"; at most 12 cells in English. "n/a" for NAN. ascii: "x" for "×". */
void cmp_fmt_ratio(double ratio, bool ascii, bool zh, char *buf, size_t len);
/* The verdict mark ("≠", "#" in ASCII, or "") and the timing mark ("!", "~", "?" or ""). */
const char *cmp_verdict_mark(const struct cdb_compare_row *r, bool ascii);
const char *cmp_timing_mark(const struct cdb_compare_row *r);
/* A side's verdict as one cell: the verdict glyph or name (caller's choice through `glyph`),
 * "○" ("o" in ASCII) when the check did not run on that side. */
const char *cmp_not_run(bool ascii);
/* The length of a half bar for a ratio, in eighths of a cell, on the fixed log scale
 * (CMP_BAR_DECADES decades fill `half` cells); 0 for NAN and for a ratio that reads "1.00×
 * same"; at least one eighth for any other. Positive: B slower. */
int cmp_bar_eighths(double ratio, int half);
/* A half bar of `eighths` eighth-cells (negative: the faster side, growing leftward from the
 * middle) in buf: block characters whose partial cell sits at the bar's far end (▏..▉ on the
 * right, ▕ or ▐ on the left), or '#' per cell in ASCII (rounded, at least one). */
void cmp_fmt_bar(int eighths, bool ascii, char *buf, size_t len);
/* The summary sentence, over the judged rows only (3+ repeats a side): "B (h200) is 450×
 * faster than A (local), geometric mean over 54 rows judged"; "... the same speed ...";
 * "no row judged: none of the 54 rows timed on both sides has 3 repeats a side"; "no check has
 * times on both sides". Names are shown as given (callers sanitise). */
void cmp_fmt_speed(const struct cdb_compare_summary *s, const char *name_a, const char *name_b,
                   bool ascii, bool zh, char *buf, size_t len);

/* Why a row's timing was judged as it was, in a few words: "! spreads apart, 20 and 20
 * repeats", "! 4x or more apart: flagged whatever the spreads, 3 and 5 repeats", "~ spreads overlap", "~ within 5%",
 * "? not judged: A has 1 repeat, B 1 (3 needed on each side)", "no time on both sides". */
void cmp_explain(const struct cdb_compare_row *r, bool zh, char *buf, size_t len);

/* Rung 8's scores of a row side by side: "score 1 → 0.625 (-0.375, 0.625×): apart by more
 * than 8%", "score 0.9 → 0.89 (-0.01): within 8%"; "" when not both scored. ascii: "->" and
 * "x". The score mark: "!" apart, "=" within, "" not both scored. */
void cmp_fmt_score(const struct cdb_compare_row *r, bool ascii, bool zh, char *buf, size_t len);
const char *cmp_score_mark(const struct cdb_compare_row *r);

/* Which rows, in which order. */
enum cmp_sort { CMP_SORT_NAME, CMP_SORT_RATIO, CMP_SORT_TIME_A, CMP_SORT_TIME_B, CMP_SORT_VERDICT,
                CMP_SORT_COUNT };
/* "name", "ratio", "time-a", "time-b", "verdict"; cmp_sort_parse returns -1 for other text. */
const char *cmp_sort_name(enum cmp_sort s);
int cmp_sort_parse(const char *name);
struct cmp_select {
    bool only_both;    /* rows present on both sides */
    bool only_flagged; /* rows with a mark that asks for attention: ≠ or ! */
    int verdict;       /* -1 any; else rows where either side has this enum cdb_verdict */
    const char *text;  /* NULL or "": any; else a case-insensitive substring of suite, check,
                        * shape or variant */
    enum cmp_sort sort;
};
void cmp_select_init(struct cmp_select *sel);
/* A row stands out: verdicts differ, the timing is flagged or the scores part. */
bool cmp_stands_out(const struct cdb_compare_row *r);
/* Writes the indexes of the rows of c that sel keeps, in sel's order, into idx (room for c->n)
 * and returns how many. Name order is the comparison's own; ratio puts the largest B/A first;
 * times the slowest first; verdict the rows whose verdicts differ first. Rows without the sort
 * key go last, and ties keep name order. */
size_t cmp_select_rows(const struct cdb_compare *c, const struct cmp_select *sel, size_t *idx);

#endif
