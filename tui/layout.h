/* Screen geometry as a pure function of the terminal size, so it can be unit-tested over every
 * size (tests/unit/test_layout.c) and recomputed on every resize.
 *
 *   row 0            header: program name, view tabs, language
 *   rows 1..rows-3   body: sidebar | separator column | main   (views without a sidebar use body)
 *   row rows-2       status: filters, messages, the search prompt
 *   row rows-1       key bar */
#ifndef KL_TUI_LAYOUT_H
#define KL_TUI_LAYOUT_H

#include <stdbool.h>

/* Below this the views cannot show anything useful: a "terminal too small" screen instead. */
#define TUI_MIN_COLS 60
#define TUI_MIN_ROWS 16

struct tui_rect {
    int y, x; /* top-left cell, 0-based */
    int h, w; /* rows, columns; both 0 for an absent rectangle */
};

struct tui_layout {
    bool too_small;          /* every rectangle but screen is empty */
    struct tui_rect screen;
    struct tui_rect header;
    struct tui_rect body;    /* sidebar + separator + main */
    struct tui_rect sidebar;
    struct tui_rect sep;     /* one column between sidebar and main */
    struct tui_rect main;
    struct tui_rect status;
    struct tui_rect keybar;
};

void tui_layout_compute(int rows, int cols, struct tui_layout *out);

/* True when the cell (y, x) lies inside r. */
bool tui_rect_contains(const struct tui_rect *r, int y, int x);

#endif
