/* What the views of the interactive interface share: the application state, the struct
 * tui_view_ops every view file (tui/views/view_*.c) fills with designated initializers, and the
 * application's interface (implemented by tui/views/app_calls.c, which references no view: the table
 * of views reaches it through app->views).
 *
 * Views draw immediately from their state (the whole frame is rebuilt on every redraw), through
 * tui/draw.h only. Handlers return TUI_R_* bits (tui/actions.h); a view returns TUI_R_UNHANDLED
 * to let the generic handler in tui/app.c act. A view never calls into another view's file: it
 * opens another view with tui_app_open, so each view file can be read and changed alone. */
#ifndef KL_TUI_VIEW_H
#define KL_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/cdb.h"
#include "tui/actions.h"
#include "tui/child.h"
#include "tui/global.h"
#include "tui/layout.h"
#include "tui/theme.h"

enum tui_lang { TUI_LANG_EN, TUI_LANG_ZH };

/* The views, one row each in tui/views.def: TUI_VIEW_NONE is no view (a tab's parent). */
enum tui_view_id {
    TUI_VIEW_NONE = -1,
#define VIEW(id, ops, tab_en, tab_zh, parent) TUI_VIEW_##id,
#include "tui/views.def"
#undef VIEW
    TUI_VIEW_COUNT
};

/* The tabs of the header are the rows of tui/views.def with a tab, in their order. The Runs
 * tab shows a stack of views (the list and its children: a run, a machine, the launch panel, a
 * live run), at most TUI_RUNS_STACK deep; the Cases tab shows the list or a case's detail. */
enum { TUI_RUNS_STACK = 6 };

struct tui_app;

/* What tui_app_open opens a view on: each view reads its own fields, the others stay zero. */
struct tui_open {
    const char *id;          /* TUI_VIEW_RUN: the run's uuid; TUI_VIEW_MACHINE: the machine's
                              * id; TUI_VIEW_DETAIL, TUI_VIEW_LAUNCH: the case's id */
    int gap, rung;           /* TUI_VIEW_CASES, TUI_VIEW_LAUNCH without an id: a dashboard cell */
    const char *suite_path;  /* TUI_VIEW_LAUNCH: a suite file of one's own (its rungs offered) */
    const char *const *argv; /* TUI_VIEW_LIVE: the kladder run to start and follow; NULL: the
                              * run under way, shown only when there is one */
    const char *const *const *queue; /* TUI_VIEW_LIVE: n_queue runs to start one after another
                                      * (each when the one before ends; a cancel stops them all);
                                      * argv is then not read */
    int n_queue;
    bool has_check;          /* TUI_VIEW_RUN: select the check of seq check_seq (Compare's
                              * Enter); false: the run's first check */
    int check_seq;
};

struct tui_view_ops {
    const char *name;
    enum tui_scope scope;               /* its own keys in tui/actions.def: TUI_SCOPE_<its id>
                                         * (GLOBAL or NONE: none) */
    const char *keys_title[2];          /* their heading in the help view (en, zh) */
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
    /* The keys this view offers: the key bar shows only those, and a key of a global action
     * the view does not offer is refused with a message. NULL: tui_app_offers_default. */
    bool (*offers)(struct tui_app *app, void *state, enum tui_action act);
    /* Shows the view on what (see struct tui_open); NULL for a view reached only by its tab.
     * Returns false when it did not open (a message says why where a person asked for it). */
    bool (*open)(struct tui_app *app, void *state, const struct tui_open *what);
};

#define VIEW(id, ops, tab_en, tab_zh, parent) extern const struct tui_view_ops ops;
#include "tui/views.def"
#undef VIEW


/* A child process the event loop watches (tui/child.h): its lines go to on_line as they come,
 * on_exit is called once when it has ended. The owner keeps the child and frees it after. A
 * line only updates the owner's state (the loop redraws after it), so on_line needs no app. */
struct tui_job {
    struct tui_child *child;
    void (*on_line)(void *ctx, enum tui_child_stream s, const char *line);
    void (*on_exit)(struct tui_app *app, void *ctx);
    void *ctx;
};
#define TUI_JOBS_MAX 4
/* A descriptor the event loop watches for a view (a background read's pipe, tui/bgread.h):
 * ready is called once, from the loop, when fd turns readable; the entry is then dropped. */
struct tui_wait {
    int fd;
    void (*ready)(struct tui_app *app, void *ctx);
    void *ctx;
};
#define TUI_WAITS_MAX 4

#define TUI_SEARCH_MAX 200
#define TUI_PROMPT_CHOICES 8

struct tui_app {
    const struct tui_view_ops *const *views; /* every view by its id (tui/app.c's table, from
                                              * tui/views.def) */
    const struct cli_global *g;
    struct cdb *db;
    struct cdb_gap *gaps;
    size_t n_gaps;
    struct cdb_rung *rungs;
    size_t n_rungs;

    enum tui_lang lang;
    struct tui_theme_entry *themes; /* built-in and the user's (tui_theme_list) */
    size_t n_themes;
    int theme;                      /* index in themes */
    enum tui_color_mode color_mode;
    struct tui_layout lay;

    enum tui_view_id view;          /* shown now */
    bool detail_open;               /* the Cases tab shows the detail */
    void *state[TUI_VIEW_COUNT];

    bool prompt;                    /* the search prompt is open */
    /* When set, the prompt asks a question instead (tui_app_ask): label leads it, Enter hands
     * the text to done, Esc drops it, and nothing is searched while typing. */
    const char *prompt_label;
    void (*prompt_done)(struct tui_app *app, const char *text);
    /* Answers offered to a question, Up and Down step through them (recent files, say). */
    char prompt_choices[TUI_PROMPT_CHOICES][TUI_SEARCH_MAX + 1];
    int n_prompt_choices, prompt_choice;
    char prompt_text[TUI_SEARCH_MAX + 1];
    char prompt_saved[TUI_SEARCH_MAX + 1]; /* restored by Esc */
    /* A question's text offered, not typed (a remembered answer): shown selected, and the
     * first character typed replaces it; Backspace or Tab takes it up for editing. */
    bool prompt_fresh;
    /* The question asks for a path (tui_app_ask_path): Tab completes it over the file system,
     * Tabs in a row step through the matches of prompt_tab_base (tui/path_complete.h). */
    bool prompt_paths;
    int prompt_tabs;
    char prompt_tab_base[TUI_SEARCH_MAX + 1];
    char message[256];              /* shown in the status line until the next key */
    /* A y/n question on the status line: the next key answers it (y yes, anything else no). */
    struct {
        bool open;
        char text[200];
        unsigned (*yes)(struct tui_app *app, void *ctx); /* returns TUI_R_* bits */
        void *ctx;
    } confirm;
    bool run_under_way;             /* the live view's run is going (set by
                                     * tui/views/view_live.c): a ● on the Runs tab and in the
                                     * status line, q asks first */
    bool search_refused;            /* `/` was refused here: the text typed after it is
                                     * swallowed (up to Enter or Esc), never taken as keys */

    /* The Runs tab: the views it shows, the top one on screen (Esc pops). */
    enum tui_view_id runs_stack[TUI_RUNS_STACK];
    int runs_depth;                 /* >= 1 */
    unsigned results_gen;           /* bumped when runs arrive (a run ends, a pull lands), or
                                       when another process changed the database */
    long long outside_version;      /* cdb_outside_changes when last looked */
    struct tui_job jobs[TUI_JOBS_MAX];
    int n_jobs;
    struct tui_wait waits[TUI_WAITS_MAX];
    int n_waits;

    /* Mouse targets of the last frame: header tabs and key bar items. */
    struct { int x0, x1; enum tui_view_id view; } tabs[TUI_VIEW_COUNT];
    int n_tabs;
    struct { int x0, x1; enum tui_action act; } bar[24];
    int n_bar;
};

/* Text in the language in force: zh when Chinese is on and zh is non-empty, else en. */
const char *tui_tr(const struct tui_app *app, const char *en, const char *zh);

/* Gap / rung by number (NULL when out of range or not loaded). */
const struct cdb_gap *tui_app_gap(const struct tui_app *app, int n);
const struct cdb_rung *tui_app_rung(const struct tui_app *app, int n);
/* The ladder's length as the views show it: the highest rung of the engine's table
 * (engine/rung.h) and of the case index, at most CDB_RUNG_MAX. A rung the engine runs but the
 * index does not teach still gets its column and its filter step. */
int tui_app_ladder_len(const struct tui_app *app);
/* Rung n's name in the language in force: the index's, else the engine's (English); NULL when
 * neither knows rung n. */
const char *tui_app_rung_name(const struct tui_app *app, int n);

/* Shows a view (the Cases tab shows the detail while one is open). */
void tui_app_show(struct tui_app *app, enum tui_view_id v);

/* Opens view v on what, through its open hook: how one view leads to another (a run from the
 * Runs list, a case from the list, the launch panel from a case, the live run from the panel).
 * Returns what the hook returns; false for a view without one. */
bool tui_app_open(struct tui_app *app, enum tui_view_id v, const struct tui_open *what);

/* Whether the view shown offers action act (its offers hook, or the default). The default:
 * the search keys (/ n N) only where the view has a search hook, sorting (s S) nowhere (a table
 * offers it), everything else yes. */
bool tui_app_offers(struct tui_app *app, enum tui_action act);
bool tui_app_offers_default(const struct tui_app *app, enum tui_action act);

/* Opens the search prompt on the current view, empty (Esc restores the search in force); where
 * the view has no search, refuses it as tui_app_refuse_search does. */
void tui_app_prompt_open(struct tui_app *app);
/* `/` where there is nothing to search: says so, and what is typed next up to Enter or Esc is
 * swallowed (it is the search the person meant, and its digits would switch views). */
void tui_app_refuse_search(struct tui_app *app);
/* Opens the prompt as a question for a file path: label (static text) leads it, the text starts
 * as the first of the n choices (none: empty) and is replaced by what is typed, Up and Down step
 * through them, Tab completes it, Enter calls done with it, a leading ~ expanded. The choices
 * are copied (at most TUI_PROMPT_CHOICES). */
void tui_app_ask_path(struct tui_app *app, const char *label, char *const *choices, size_t n,
                      void (*done)(struct tui_app *app, const char *text));

/* Asks question (y/n) on the status line; y calls yes, any other key only says nothing was
 * done. Used before what cannot be undone (cancelling a run, quitting during one). */
void tui_app_confirm(struct tui_app *app, const char *question,
                     unsigned (*yes)(struct tui_app *app, void *ctx), void *ctx);

/* Sets the status line message (formatted), shown until the next key. */
void tui_app_message(struct tui_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copies text (a run id, a command line): it is always shown on the status line, and written to
 * the clipboard too where the terminal is known to take OSC 52 (tui/clipboard.h); the message
 * says which, so nobody pastes what was never copied. */
void tui_app_copy(struct tui_app *app, const char *text);

/* Watches a child from the event loop (see struct tui_job). Returns false when the table is
 * full. */
bool tui_app_watch(struct tui_app *app, const struct tui_job *job);
/* Forgets a descriptor watched (struct tui_wait) before it was ready (a read abandoned). */
void tui_app_unwait(struct tui_app *app, int fd);
/* A read of the database on a worker (tui/bgread.h) whose end the loop reports by calling
 * ready(app, ctx); ready takes the result with tui_bgread_take. Returns NULL when no worker can
 * start (an in-memory database) or the wait table is full: the caller then reads on its own
 * connection. */
struct tui_bgread;
struct tui_bgread *tui_app_read(struct tui_app *app,
                                void *(*fn)(struct cdb *db, void *arg, char *err, size_t errlen),
                                const void *arg, size_t arg_size, void (*free_result)(void *),
                                void (*ready)(struct tui_app *app, void *ctx), void *ctx);
/* Abandons the read *r (NULL: none) and sets *r to NULL. */
void tui_app_read_cancel(struct tui_app *app, struct tui_bgread **r);
/* Runs changed in the database: views that show results reload when next drawn. */
void tui_app_results_changed(struct tui_app *app);

/* The Runs tab's stack: push shows v on top (and the tab); pop returns to the view below (the
 * list stays at the bottom). */
void tui_runs_push(struct tui_app *app, enum tui_view_id v);
void tui_runs_pop(struct tui_app *app);

#endif
