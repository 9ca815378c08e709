/* The terminal: curses setup and teardown, theme roles as curses attributes, reading input, and
 * the text dump of the screen used by the screen tests. The only file besides tui/draw.c that
 * talks to curses directly.
 *
 * Headless mode (KLADDER_SCRIPT, tests): curses draws into its virtual screen and writes the
 * terminal codes to /dev/null, with a fixed size; no terminal is needed. */
#ifndef KL_TUI_TERM_H
#define KL_TUI_TERM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "tui/theme.h"

enum tui_event_kind { TUI_EV_KEY, TUI_EV_RESIZE, TUI_EV_MOUSE, TUI_EV_SAVE, TUI_EV_END };

struct tui_event {
    enum tui_event_kind kind;
    int key;          /* TUI_EV_KEY: see tui/actions.h */
    int y, x;         /* TUI_EV_MOUSE: cell; TUI_EV_RESIZE: rows (y) and columns (x) */
    int wheel;        /* TUI_EV_MOUSE: 0 click, -1 wheel up, +1 wheel down */
    const char *path; /* TUI_EV_SAVE: where to write the screen (owned by the script) */
};

/* Starts curses: on the terminal, or headless with rows x cols. Returns 0, or -1 with err. */
int tui_term_start(bool headless, int rows, int cols, char *err, size_t errlen);
/* Ends curses and frees its screen; safe to call twice (die() calls it). */
void tui_term_end(void);

bool tui_term_has_colors(void);
int tui_term_colors(void);

/* Makes every role's attribute from form `mode` of the theme. */
void tui_term_apply(const struct tui_theme *t, enum tui_color_mode mode);
attr_t tui_term_attr(enum tui_role r);

/* Blocks for the next key, resize or mouse event from the terminal. */
void tui_term_read(struct tui_event *ev);
/* Like tui_term_read, waiting at most ms milliseconds (0: only what curses or the terminal
 * already has; -1: forever). Returns false when nothing came in time. */
bool tui_term_read_timeout(struct tui_event *ev, int ms);

/* Headless: resizes the virtual screen. */
void tui_term_resize(int rows, int cols);

/* Writes the text of the screen to path: one line per row, UTF-8, a wide character once,
 * trailing spaces removed. Returns 0, or -1 with err. */
int tui_term_save_screen(const char *path, char *err, size_t errlen);

#endif
