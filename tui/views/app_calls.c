/* The application's side of tui/views/view.h: what a view calls on the application (text in
 * the language in force, messages and questions on the status line, showing and opening views,
 * the Runs tab's stack, children and descriptors the event loop watches, background reads).
 *
 * It sits below the views and references none of them: the table of views comes in through
 * app->views, set by tui/app.c, which holds the table and the event loop on top. So symbol
 * dependencies run one way, app.c -> views -> this file, and a view links without app.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "engine/rung.h"
#include "tui/bgread.h"
#include "tui/clipboard.h"
#include "tui/views/view.h"

const char *tui_tr(const struct tui_app *app, const char *en, const char *zh)
{
    if (app->lang == TUI_LANG_ZH && zh && *zh)
        return zh;
    return en ? en : "";
}

const struct cdb_gap *tui_app_gap(const struct tui_app *app, int n)
{
    for (size_t i = 0; i < app->n_gaps; i++)
        if (app->gaps[i].n == n)
            return &app->gaps[i];
    return NULL;
}

const struct cdb_rung *tui_app_rung(const struct tui_app *app, int n)
{
    for (size_t i = 0; i < app->n_rungs; i++)
        if (app->rungs[i].n == n)
            return &app->rungs[i];
    return NULL;
}

int tui_app_ladder_len(const struct tui_app *app)
{
    int top = eng_rung_top();
    for (size_t i = 0; i < app->n_rungs; i++)
        top = app->rungs[i].n > top ? app->rungs[i].n : top;
    return top < 1 ? 1 : top > CDB_RUNG_MAX ? CDB_RUNG_MAX : top;
}

const char *tui_app_rung_name(const struct tui_app *app, int n)
{
    const struct cdb_rung *r = tui_app_rung(app, n);
    if (r)
        return tui_tr(app, r->name_en, r->name_zh);
    const struct eng_rung *e = eng_rung_find(n);
    return e ? e->name : NULL;
}

void tui_app_message(struct tui_app *app, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(app->message, sizeof app->message, fmt, ap);
    va_end(ap);
}

void tui_app_copy(struct tui_app *app, const char *text)
{
    char *clean = text_sanitize(text, false);
    if (tui_clipboard_copy(clean))
        tui_app_message(app, "%s %s", tui_tr(app, "Copied:", "已复制："), clean);
    else
        tui_app_message(app, "%s%s", clean,
                        tui_tr(app, " (select it to copy: this terminal is not known to take OSC 52)",
                               "（请选中复制：未知此终端是否支持 OSC 52）"));
    free(clean);
}

void tui_app_confirm(struct tui_app *app, const char *question,
                     unsigned (*yes)(struct tui_app *app, void *ctx), void *ctx)
{
    snprintf(app->confirm.text, sizeof app->confirm.text, "%s", question);
    app->confirm.yes = yes;
    app->confirm.ctx = ctx;
    app->confirm.open = true;
}

void tui_app_show(struct tui_app *app, enum tui_view_id v)
{
    if (v == TUI_VIEW_CASES && app->detail_open)
        v = TUI_VIEW_DETAIL;
    if (v == TUI_VIEW_RUNS)
        v = app->runs_stack[app->runs_depth - 1];
    app->view = v;
}

bool tui_app_open(struct tui_app *app, enum tui_view_id v, const struct tui_open *what)
{
    return app->views[v]->open ? app->views[v]->open(app, app->state[v], what) : false;
}

void tui_runs_push(struct tui_app *app, enum tui_view_id v)
{
    if (app->runs_stack[app->runs_depth - 1] != v) {
        if (app->runs_depth == TUI_RUNS_STACK) /* forget the oldest above the list */
            memmove(app->runs_stack + 1, app->runs_stack + 2,
                    (TUI_RUNS_STACK - 2) * sizeof app->runs_stack[0]);
        else
            app->runs_depth++;
        app->runs_stack[app->runs_depth - 1] = v;
    }
    app->view = v;
}

void tui_runs_pop(struct tui_app *app)
{
    if (app->runs_depth > 1)
        app->runs_depth--;
    app->view = app->runs_stack[app->runs_depth - 1];
}

bool tui_app_watch(struct tui_app *app, const struct tui_job *job)
{
    if (app->n_jobs == TUI_JOBS_MAX)
        return false;
    app->jobs[app->n_jobs++] = *job;
    return true;
}

/* Watches a descriptor (see struct tui_wait); false when the table is full. */
static bool tui_app_wait(struct tui_app *app, const struct tui_wait *w)
{
    if (app->n_waits == TUI_WAITS_MAX)
        return false;
    app->waits[app->n_waits++] = *w;
    return true;
}

void tui_app_unwait(struct tui_app *app, int fd)
{
    for (int i = 0; i < app->n_waits; i++)
        if (app->waits[i].fd == fd) {
            memmove(app->waits + i, app->waits + i + 1,
                    (size_t)(app->n_waits - i - 1) * sizeof app->waits[0]);
            app->n_waits--;
            return;
        }
}

struct tui_bgread *tui_app_read(struct tui_app *app,
                                void *(*fn)(struct cdb *db, void *arg, char *err, size_t errlen),
                                const void *arg, size_t arg_size, void (*free_result)(void *),
                                void (*ready)(struct tui_app *app, void *ctx), void *ctx)
{
    char err[256];
    struct tui_bgread *r =
        tui_bgread_start(cdb_path(app->db), fn, arg, arg_size, free_result, err, sizeof err);
    if (!r)
        return NULL;
    struct tui_wait w = {.fd = tui_bgread_fd(r), .ready = ready, .ctx = ctx};
    if (!tui_app_wait(app, &w)) {
        tui_bgread_cancel(r);
        return NULL;
    }
    return r;
}

void tui_app_read_cancel(struct tui_app *app, struct tui_bgread **r)
{
    if (!*r)
        return;
    tui_app_unwait(app, tui_bgread_fd(*r));
    tui_bgread_cancel(*r);
    *r = NULL;
}

void tui_app_results_changed(struct tui_app *app)
{
    app->results_gen++;
}

bool tui_app_offers_default(const struct tui_app *app, enum tui_action act)
{
    if (act == TUI_ACT_SEARCH || act == TUI_ACT_SEARCH_NEXT || act == TUI_ACT_SEARCH_PREV)
        return app->views[app->view]->search != NULL;
    if (act == TUI_ACT_SORT || act == TUI_ACT_SORT_REVERSE)
        return false; /* only tables offer it, through their offers hook */
    return true;
}

bool tui_app_offers(struct tui_app *app, enum tui_action act)
{
    const struct tui_view_ops *ops = app->views[app->view];
    return ops->offers ? ops->offers(app, app->state[app->view], act)
                       : tui_app_offers_default(app, act);
}

/* A person who did not see the message types the search anyway. */
void tui_app_refuse_search(struct tui_app *app)
{
    app->search_refused = true;
    tui_app_message(app, "%s", tui_tr(app, "No search in this view: typing is ignored until Enter or Esc",
                                      "此视图不支持搜索：Enter 或 Esc 之前的输入将被忽略"));
}

/* Opens the prompt as a question (a path to type, say): label (static text) leads it, the text
 * starts as the first of the n choices (none: empty), Up and Down step through them, Enter
 * calls done with what was typed. The choices are copied (at most TUI_PROMPT_CHOICES). */
static void tui_app_ask(struct tui_app *app, const char *label, char *const *choices, size_t n,
                        void (*done)(struct tui_app *app, const char *text))
{
    if (n > TUI_PROMPT_CHOICES)
        n = TUI_PROMPT_CHOICES;
    for (size_t i = 0; i < n; i++)
        snprintf(app->prompt_choices[i], sizeof app->prompt_choices[i], "%s", choices[i]);
    app->n_prompt_choices = (int)n;
    app->prompt_choice = 0;
    snprintf(app->prompt_text, sizeof app->prompt_text, "%s", n ? choices[0] : "");
    app->prompt_fresh = n > 0;
    app->prompt_paths = false;
    app->prompt_tabs = 0;
    app->prompt_label = label;
    app->prompt_done = done;
    app->prompt = true;
}

void tui_app_ask_path(struct tui_app *app, const char *label, char *const *choices, size_t n,
                      void (*done)(struct tui_app *app, const char *text))
{
    tui_app_ask(app, label, choices, n, done);
    app->prompt_paths = true;
}

void tui_app_prompt_open(struct tui_app *app)
{
    app->prompt_label = NULL;
    app->prompt_done = NULL;
    const struct tui_view_ops *ops = app->views[app->view];
    if (!ops->search) {
        tui_app_refuse_search(app);
        return;
    }
    /* A new search starts empty, as in less and vim; Esc brings back the one in force. */
    const char *cur = ops->search_text ? ops->search_text(app->state[app->view]) : "";
    snprintf(app->prompt_saved, sizeof app->prompt_saved, "%s", cur);
    app->prompt_text[0] = '\0';
    app->prompt_fresh = app->prompt_paths = false;
    app->prompt = true;
}
