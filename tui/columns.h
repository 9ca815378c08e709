/* Table columns that give way in a declared order when the width runs short, and never overlap.
 * Pure (no curses), so tests/unit/test_columns.c can check every width.
 *
 * Each column says the width its widest content needs (want), the narrowest width at which it
 * still says something (min), and its place in the give-way order (give: 1 gives first, then
 * 2, ...; 0 never gives). When the table is too wide, the column that gives first shrinks to its
 * min, then is dropped (a kept one stays at its min), before the next one gives anything; when only columns that never give
 * are left, the flex column shrinks to its min, then columns are cut from the right. What is
 * left over goes to the flex column. Columns are separated by `gap` blank cells, so text cut to its width with an ellipsis
 * never runs into its neighbour.
 *
 * The plain-text tables of the CLI verbs print their cells with tui_col_print. */
#ifndef KL_TUI_COLUMNS_H
#define KL_TUI_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

struct tui_col {
    int want;  /* in: the width its content needs */
    int min;   /* in: below this it is dropped rather than cut (<= want) */
    int give;  /* in: give-way order, 1 first; 0 never (cut last, only when nothing else can) */
    bool flex; /* in: takes the width left over (the first flex column does) */
    bool keep; /* in: gives in its turn only down to min and is never dropped for it (then it
                * is cut last, as a column that never gives) */
    int w;     /* out: its width, 0 when dropped */
    int x;     /* out: its left edge, from the table's left edge */
};

/* Lays n columns out in `width` cells with `gap` cells between shown columns. Every shown column
 * has w >= 1 and ends before the next starts; the last ends at or before width. Returns the
 * number of columns shown. */
int tui_columns_fit(struct tui_col *cols, size_t n, int width, int gap);

/* Prints one cell of a plain-text table on stdout: s (NULL: empty) sanitised, cut and padded to
 * exactly `cells` display cells (text_fit_pad; ascii: ASCII only), then one space, so
 * neighbouring cells never touch. */
void tui_col_print(const char *s, int cells, bool ascii);

#endif
