/* The one generic list widget: a selection and a scroll offset over n rows, with page moves,
 * mouse rows and "find the next row that matches" for n/N. It holds no rows itself: the view
 * owns its data and draws each visible row through a callback. Pure (no curses). */
#ifndef KL_TUI_LIST_H
#define KL_TUI_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/actions.h"

struct tui_list {
    size_t n;   /* rows */
    size_t sel; /* selected row (0 when n == 0) */
    size_t top; /* first visible row */
    int height; /* visible rows, set by the last tui_list_draw or tui_list_set_height */
};

void tui_list_reset(struct tui_list *l, size_t n);          /* n rows, first selected */
void tui_list_set_count(struct tui_list *l, size_t n);      /* keeps the selection when it can */
void tui_list_set_height(struct tui_list *l, int height);
void tui_list_select(struct tui_list *l, size_t row);       /* clamps, scrolls into view */
void tui_list_move(struct tui_list *l, long delta);         /* j/k: +1/-1; clamps */
void tui_list_page(struct tui_list *l, int dir);            /* PgDn/PgUp */
void tui_list_first(struct tui_list *l);
void tui_list_last(struct tui_list *l);
/* The movement keys every list view shares (j/k and arrows, PgDn/PgUp, g/G and Home/End):
 * applies act to l and returns true, or returns false for any other action. */
bool tui_list_navigate(struct tui_list *l, enum tui_action act);
/* Scrolls the view by delta rows without moving past the ends (mouse wheel); the selection
 * follows only when it would leave the view. */
void tui_list_scroll(struct tui_list *l, long delta);

/* The row drawn on screen line `line` (0 = first visible line), or -1 for none. */
long tui_list_row_at(const struct tui_list *l, int line);

/* The mouse over a list, as every list view takes it: a wheel notch (wheel != 0) scrolls three
 * rows and returns TUI_LIST_WHEEL; a click on screen line `line` selects the row there and
 * returns it, with *again (may be NULL) true when that row was selected already (a second
 * click, which opens it), or returns TUI_LIST_NO_ROW. */
enum { TUI_LIST_WHEEL = -1, TUI_LIST_NO_ROW = -2 };
long tui_list_mouse(struct tui_list *l, int line, int wheel, bool *again);

/* Searches from the row after (dir > 0) or before (dir < 0) the selection, wrapping around, for
 * a row where match(row, ctx) is true; selects it and returns true, or returns false. */
bool tui_list_find(struct tui_list *l, int dir, bool (*match)(size_t row, void *ctx), void *ctx);

/* Calls draw(row, line, selected, ctx) for every visible row, line 0..height-1, after
 * setting the height and keeping the selection in view. */
void tui_list_draw(struct tui_list *l, int height,
                   void (*draw)(size_t row, int line, bool selected, void *ctx), void *ctx);

#endif
