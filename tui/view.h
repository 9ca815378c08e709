/* What the views of the interactive interface share: the application state and the
 * struct tui_view_ops every view file (tui/view_*.c) fills with designated initializers.
 *
 * Views draw immediately from their state (the whole frame is rebuilt on every redraw), through
 * tui/draw.h only. Handlers return TUI_R_* bits (tui/actions.h); a view returns TUI_R_UNHANDLED
 * to let the generic handler in tui/app.c act. */
#ifndef KL_TUI_VIEW_H
#define KL_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/cdb.h"
#include "tui/actions.h"
#include "tui/cli.h"
#include "tui/layout.h"
#include "tui/theme.h"

enum tui_lang { TUI_LANG_EN, TUI_LANG_ZH };

enum tui_view_id { TUI_VIEW_DASHBOARD, TUI_VIEW_CASES, TUI_VIEW_DETAIL, TUI_VIEW_HELP,
                   TUI_VIEW_COUNT };

struct tui_app;

struct tui_view_ops {
    const char *name;
    enum tui_scope scope;               /* its own keys in tui/actions.def */
    void *(*init)(struct tui_app *app); /* the view's state, owned by the view */
    void (*fini)(void *state);
    void (*draw)(struct tui_app *app, void *state);
    unsigned (*action)(struct tui_app *app, void *state, enum tui_action act);
    /* A mouse click (button 1) on body cell (y, x); wheel: delta rows, 0 for a click. */
    unsigned (*mouse)(struct tui_app *app, void *state, int y, int x, int wheel);
    /* Search prompt hooks, NULL when the view has no search: called on every keystroke with
     * the text so far (incremental); `/` opens the prompt only when set. */
    void (*search)(struct tui_app *app, void *state, const char *text);
    const char *(*search_text)(void *state); /* the search in force, "" for none */
    /* The status line when no prompt or message is shown (buf of len bytes). */
    void (*status)(struct tui_app *app, void *state, char *buf, size_t len);
    /* Language or data changed: rebuild what depends on it. */
    void (*changed)(struct tui_app *app, void *state);
};

extern const struct tui_view_ops tui_view_dashboard, tui_view_cases, tui_view_detail,
    tui_view_help;

#define TUI_SEARCH_MAX 200

struct tui_app {
    const struct cli_global *g;
    struct cdb *db;
    struct cdb_gap *gaps;
    size_t n_gaps;
    struct cdb_rung *rungs;
    size_t n_rungs;

    enum tui_lang lang;
    int theme;                      /* index in tui_theme_names */
    enum tui_color_mode color_mode;
    struct tui_layout lay;

    enum tui_view_id view;          /* shown now */
    bool detail_open;               /* the Cases tab shows the detail */
    void *state[TUI_VIEW_COUNT];

    bool prompt;                    /* the search prompt is open */
    char prompt_text[TUI_SEARCH_MAX + 1];
    char prompt_saved[TUI_SEARCH_MAX + 1]; /* restored by Esc */
    char message[256];              /* shown in the status line until the next key */

    /* Mouse targets of the last frame: header tabs and key bar items. */
    struct { int x0, x1; enum tui_view_id view; } tabs[3];
    struct { int x0, x1; enum tui_action act; } bar[24];
    int n_bar;
};

/* Text in the language in force: zh when Chinese is on and zh is non-empty, else en. */
const char *tui_tr(const struct tui_app *app, const char *en, const char *zh);

/* Gap / rung by number (NULL when out of range or not loaded). */
const struct cdb_gap *tui_app_gap(const struct tui_app *app, int n);
const struct cdb_rung *tui_app_rung(const struct tui_app *app, int n);

/* Shows a view (the Cases tab shows the detail while one is open). */
void tui_app_show(struct tui_app *app, enum tui_view_id v);

/* Opens the search prompt on the current view. */
void tui_app_prompt_open(struct tui_app *app);

/* Sets the status line message (formatted), shown until the next key. */
void tui_app_message(struct tui_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Cross-view entries. */
void tui_cases_show_cell(struct tui_app *app, int gap, int rung); /* dashboard Enter */
void tui_detail_show(struct tui_app *app, const char *id, bool push); /* open a case */

#endif
