/* The interactive interface: the table of views, start-up, the event loop, and what every view
 * shares on screen (header with tabs, status line, key bar, the too-small screen). Views live
 * in tui/views/; what they call on the application is in tui/views/app_calls.c, below them. */
#include <langinfo.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/child.h"
#include "tui/cli/cli.h"
#include "tui/draw.h"
#include "tui/path_complete.h"
#include "tui/script.h"
#include "tui/term.h"
#include "tui/views/view.h"

/* The views of tui/views.def: each one's ops, its tab (NULL: none), the view it shows under. */
static const struct tui_view_ops *const views[TUI_VIEW_COUNT] = {
#define VIEW(id, ops, tab_en, tab_zh, parent) [TUI_VIEW_##id] = &ops,
#include "tui/views.def"
#undef VIEW
};

static const struct {
    const char *tab[2]; /* English, Chinese */
    enum tui_view_id parent;
} view_rows[TUI_VIEW_COUNT] = {
#define VIEW(id, ops, tab_en, tab_zh, parent)                                                     \
    [TUI_VIEW_##id] = {{tab_en, tab_zh}, TUI_VIEW_##parent},
#include "tui/views.def"
#undef VIEW
};

/* The tabs, in the table's order: the views that have one. */
static enum tui_view_id tab_views[TUI_VIEW_COUNT];
static int n_tabs;

static void list_tabs(void)
{
    n_tabs = 0;
    for (int v = 0; v < TUI_VIEW_COUNT; v++)
        if (view_rows[v].tab[0])
            tab_views[n_tabs++] = (enum tui_view_id)v;
}

/* The tab lit for the view shown: its own, or the one of the view it shows under. */
static int tab_index(const struct tui_app *app)
{
    enum tui_view_id v = app->view;
    for (int up = 0; up < TUI_VIEW_COUNT && !view_rows[v].tab[0] &&
                     view_rows[v].parent != TUI_VIEW_NONE; up++)
        v = view_rows[v].parent;
    for (int i = 0; i < n_tabs; i++)
        if (tab_views[i] == v)
            return i;
    return 0;
}

/* ---- shared parts of the screen ---- */

static void draw_header(struct tui_app *app)
{
    const struct tui_rect *r = &app->lay.header;
    tui_draw_fill(r->y, r->x, r->w, TUI_ROLE_HEADER);
    int x = r->x + tui_draw_text(r->y, r->x, r->w, TUI_ROLE_HEADER, " kladder ");
    int cur = tab_index(app);
    char right[96];
    snprintf(right, sizeof right, "%s · %s ", app->lang == TUI_LANG_ZH ? "中文" : "English",
             app->themes[app->theme].name);
    int rw = text_width(right);
    /* A space between tabs where the language and theme still fit at the right. */
    int need = x + rw + 1 + (app->run_under_way ? 2 : 0);
    for (int i = 0; i < n_tabs; i++) {
        const char *const *name = view_rows[tab_views[i]].tab;
        need += text_width(tui_tr(app, name[0], name[1])) + 4 + 1;
    }
    int gap = need < r->x + r->w ? 1 : 0;
    for (int i = 0; i < n_tabs; i++) {
        const char *const *name = view_rows[tab_views[i]].tab;
        char label[64];
        /* A run going on behind another view shows on the Runs tab, wherever one is. */
        bool mark = app->run_under_way && tab_views[i] == TUI_VIEW_RUNS;
        snprintf(label, sizeof label, " %d %s%s ", i + 1, tui_tr(app, name[0], name[1]),
                 mark ? (tui_draw_ascii() ? " *" : " ●") : "");
        x += gap;
        int w = tui_draw_text(r->y, x, r->x + r->w - x, i == cur ? TUI_ROLE_TAB_ACTIVE : TUI_ROLE_TAB,
                              label);
        app->tabs[i].x0 = x;
        app->tabs[i].x1 = x + w;
        app->tabs[i].view = tab_views[i];
        x += w;
    }
    app->n_tabs = n_tabs;
    /* Where "English · high-contrast" does not fit (80 columns), a shorter form does: the
     * language as its code, then the theme alone. The theme never vanishes while it fits. */
    const char *theme = app->themes[app->theme].name;
    for (int form = 0; form < 3; form++) {
        if (form == 1)
            snprintf(right, sizeof right, "%s · %s ", app->lang == TUI_LANG_ZH ? "中" : "EN", theme);
        else if (form == 2)
            snprintf(right, sizeof right, "%s ", theme);
        rw = text_width(right);
        if (r->x + r->w - x > rw + 1) {
            tui_draw_text(r->y, r->x + r->w - rw, rw, TUI_ROLE_HEADER, right);
            break;
        }
    }
}

static void draw_status(struct tui_app *app)
{
    const struct tui_rect *r = &app->lay.status;
    if (app->prompt) {
        tui_draw_fill(r->y, r->x, r->w, TUI_ROLE_NORMAL);
        int x = r->x + tui_draw_text(r->y, r->x, r->w, TUI_ROLE_KEY,
                                     app->prompt_label ? app->prompt_label : "/");
        /* Show the end of a long search text: that is where the typing happens. */
        const char *t = app->prompt_text;
        while (text_width(t) > r->w - (x - r->x) - 2 && *t) {
            uint32_t cp;
            t += text_decode(t, strlen(t), &cp);
        }
        x += tui_draw_text(r->y, x, r->w - (x - r->x) - 1,
                           app->prompt_fresh ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL, t);
        tui_draw_text(r->y, x, 1, TUI_ROLE_SELECTED, " ");
        return;
    }
    char buf[512] = "";
    size_t o = 0;
    if (app->run_under_way && app->view != TUI_VIEW_LIVE && !app->confirm.open)
        o = (size_t)snprintf(buf, sizeof buf, "%s %s · ", tui_draw_ascii() ? "*" : "●",
                             tui_tr(app, "run under way (r shows it)", "运行进行中（按 r 查看）"));
    if (app->confirm.open)
        snprintf(buf, sizeof buf, "%s", app->confirm.text);
    else if (app->message[0])
        snprintf(buf + o, sizeof buf - o, "%s", app->message);
    else if (views[app->view]->status)
        views[app->view]->status(app, app->state[app->view], buf + o, sizeof buf - o);
    bool warn = app->message[0] || app->confirm.open;
    tui_draw_pad(r->y, r->x, r->w, warn ? TUI_ROLE_WARN : TUI_ROLE_STATUS, buf);
}

static bool in_scope(enum tui_scope a, enum tui_scope want)
{
    return a == want;
}

static void draw_keybar(struct tui_app *app)
{
    const struct tui_rect *r = &app->lay.keybar;
    tui_draw_fill(r->y, r->x, r->w, TUI_ROLE_KEYBAR);
    enum tui_scope scope = app->confirm.open ? TUI_SCOPE_CONFIRM
                           : app->prompt     ? TUI_SCOPE_SEARCH
                                             : views[app->view]->scope;
    int x = r->x, end = r->x + r->w;
    app->n_bar = 0;
    /* The view's own keys first, then the global ones (none while the prompt is open). */
    for (int pass = 0; pass < 2; pass++) {
        enum tui_scope want = pass == 0 ? scope : TUI_SCOPE_GLOBAL;
        if (pass == 1 && (scope == TUI_SCOPE_SEARCH || scope == TUI_SCOPE_CONFIRM ||
                          scope == TUI_SCOPE_GLOBAL))
            break;
        for (int a = TUI_ACT_NONE + 1; a < TUI_ACT_COUNT; a++) {
            const struct tui_action_info *in = &tui_actions[a];
            if (!in_scope(in->scope, want) || !in->bar[0])
                continue;
            if (scope != TUI_SCOPE_SEARCH && scope != TUI_SCOPE_CONFIRM &&
                !tui_app_offers(app, (enum tui_action)a))
                continue;
            const char *key = tui_action_key_label((enum tui_action)a);
            const char *label = in->bar[app->lang == TUI_LANG_ZH ? 1 : 0];
            int need = text_width(key) + 1 + text_width(label) + 1;
            if (x + need > end)
                break;
            int x0 = x;
            x += tui_draw_text(r->y, x, end - x, TUI_ROLE_KEY, key);
            x += tui_draw_text(r->y, x, end - x, TUI_ROLE_KEYBAR, " ");
            x += tui_draw_text(r->y, x, end - x, TUI_ROLE_KEYBAR, label);
            if (app->n_bar < (int)(sizeof app->bar / sizeof app->bar[0])) {
                app->bar[app->n_bar].x0 = x0;
                app->bar[app->n_bar].x1 = x;
                app->bar[app->n_bar].act = (enum tui_action)a;
                app->n_bar++;
            }
            x += 1;
        }
    }
}

static void draw_too_small(struct tui_app *app)
{
    int rows = app->lay.screen.h, cols = app->lay.screen.w;
    char msg[256];
    if (app->lang == TUI_LANG_ZH)
        snprintf(msg, sizeof msg, "终端太小：%d×%d。kladder 至少需要 %d×%d。\n请放大窗口，或按 q 退出。",
                 cols, rows, TUI_MIN_COLS, TUI_MIN_ROWS);
    else
        snprintf(msg, sizeof msg,
                 "Terminal too small: %d×%d. kladder needs at least %d×%d.\n"
                 "Enlarge the window, or press q to quit.",
                 cols, rows, TUI_MIN_COLS, TUI_MIN_ROWS);
    size_t n;
    char **lines = text_wrap(msg, cols > 2 ? cols - 2 : 1, &n);
    int y0 = rows > (int)n ? (rows - (int)n) / 2 : 0;
    for (size_t i = 0; i < n && y0 + (int)i < rows; i++) {
        int w = text_width(lines[i]);
        int x = cols > w ? (cols - w) / 2 : 0;
        tui_draw_text(y0 + (int)i, x, cols - x, i == 0 ? TUI_ROLE_WARN : TUI_ROLE_NORMAL,
                      lines[i]);
    }
    text_lines_free(lines, n);
}

static void draw_all(struct tui_app *app)
{
    attrset(tui_term_attr(TUI_ROLE_NORMAL));
    erase();
    if (app->lay.too_small) {
        draw_too_small(app);
    } else {
        draw_header(app);
        views[app->view]->draw(app, app->state[app->view]);
        draw_status(app);
        draw_keybar(app);
    }
    refresh();
}

/* ---- input ---- */

static void apply_theme(struct tui_app *app)
{
    struct tui_theme t;
    char err[256];
    if (tui_theme_entry_load(&app->themes[app->theme], &t, err, sizeof err) != 0) {
        /* a broken file of the user's: say where, and carry on with the default colours */
        tui_app_message(app, "%s", err);
        if (tui_theme_load("default", &t, err, sizeof err) != 0)
            die("kladder: the built-in default theme is broken: %s", err);
    }
    tui_term_apply(&t, app->color_mode);
}

static void refresh_views(struct tui_app *app)
{
    for (int v = 0; v < TUI_VIEW_COUNT; v++)
        if (views[v]->changed)
            views[v]->changed(app, app->state[v]);
}

static unsigned quit_yes(struct tui_app *app, void *ctx)
{
    (void)app;
    (void)ctx;
    return TUI_R_QUIT;
}

static unsigned generic_action(struct tui_app *app, enum tui_action act)
{
    int tab = tab_index(app);
    switch (act) {
    case TUI_ACT_QUIT:
        if (app->run_under_way) { /* leaving cancels the run: ask */
            tui_app_confirm(app, tui_tr(app, "A run is under way: quit and cancel it? y/n",
                                        "有运行在进行：退出并取消它吗？y/n"),
                            quit_yes, NULL);
            return TUI_R_DRAW;
        }
        return TUI_R_QUIT;
    case TUI_ACT_HELP:
    case TUI_ACT_VIEW_HELP:
        tui_app_show(app, TUI_VIEW_HELP);
        return TUI_R_DRAW;
    case TUI_ACT_VIEW_DASHBOARD:
        tui_app_show(app, TUI_VIEW_DASHBOARD);
        return TUI_R_DRAW;
    case TUI_ACT_VIEW_CASES:
        /* A number key goes to the list, never back into an open detail: what is typed next
         * (a search, r) must act on the list the person asked for. */
        app->detail_open = false;
        tui_app_show(app, TUI_VIEW_CASES);
        return TUI_R_DRAW;
    case TUI_ACT_VIEW_RUNS:
        tui_app_show(app, TUI_VIEW_RUNS);
        return TUI_R_DRAW;
    case TUI_ACT_VIEW_COMPARE:
        tui_app_show(app, TUI_VIEW_COMPARE);
        return TUI_R_DRAW;
    case TUI_ACT_NEXT_VIEW:
        tui_app_show(app, tab_views[(tab + 1) % n_tabs]);
        return TUI_R_DRAW;
    case TUI_ACT_PREV_VIEW:
        tui_app_show(app, tab_views[(tab + n_tabs - 1) % n_tabs]);
        return TUI_R_DRAW;
    case TUI_ACT_LAUNCH:
        if (tui_app_open(app, TUI_VIEW_LIVE, &(struct tui_open){0}))
            return TUI_R_DRAW; /* the run under way */
        tui_app_message(app, "%s", tui_tr(app, "r runs a case or a dashboard cell: select one first",
                                          "r 运行案例或仪表盘格子：请先选中一个"));
        return TUI_R_DRAW;
    case TUI_ACT_PULL:
        /* The pull is the Runs view's (it shows the report); P works from every view. */
        return views[TUI_VIEW_RUNS]->action(app, app->state[TUI_VIEW_RUNS], act);
    case TUI_ACT_LANG:
        app->lang = app->lang == TUI_LANG_EN ? TUI_LANG_ZH : TUI_LANG_EN;
        refresh_views(app);
        return TUI_R_DRAW;
    case TUI_ACT_THEME:
        if (app->color_mode == TUI_COLOR_MONO) {
            /* In monochrome every theme looks the same: changing only the name would say
             * something happened when nothing did. */
            tui_app_message(app, "%s", tui_tr(app, "Themes need colour, and colour is off (NO_COLOR, --color=never or the terminal); --color=always turns it on",
                                              "主题需要颜色，而颜色已关闭（NO_COLOR、--color=never 或终端不支持）；--color=always 可打开"));
            return TUI_R_DRAW;
        }
        app->theme = (size_t)app->theme + 1 < app->n_themes ? app->theme + 1 : 0;
        apply_theme(app);
        return TUI_R_DRAW;
    case TUI_ACT_REDRAW:
        clearok(curscr, TRUE);
        return TUI_R_DRAW;
    case TUI_ACT_SEARCH:
        tui_app_prompt_open(app);
        return TUI_R_DRAW;
    default:
        return TUI_R_NONE;
    }
}

static unsigned dispatch(struct tui_app *app, enum tui_action act)
{
    const struct tui_view_ops *ops = views[app->view];
    if (!tui_app_offers(app, act)) {
        if (act == TUI_ACT_SEARCH)
            tui_app_refuse_search(app);
        else
            tui_app_message(app, "%s", tui_tr(app, "That key does nothing here", "此键在这里无效"));
        return TUI_R_DRAW;
    }
    unsigned r = ops->action ? ops->action(app, app->state[app->view], act) : TUI_R_UNHANDLED;
    if (r & TUI_R_UNHANDLED)
        r = (r & ~(unsigned)TUI_R_UNHANDLED) | generic_action(app, act);
    return r;
}

static void prompt_changed(struct tui_app *app)
{
    const struct tui_view_ops *ops = views[app->view];
    if (ops->search && !app->prompt_done) /* a question is answered on Enter, not searched */
        ops->search(app, app->state[app->view], app->prompt_text);
}

/* Tab at a path question: the next completion of what was typed before the Tabs in a row. */
static unsigned prompt_tab(struct tui_app *app)
{
    app->prompt_fresh = false;
    if (app->prompt_tabs == 0)
        snprintf(app->prompt_tab_base, sizeof app->prompt_tab_base, "%s", app->prompt_text);
    int rc = tui_path_tab(app->prompt_tab_base, app->prompt_tabs, app->prompt_text,
                          sizeof app->prompt_text);
    /* one match: done with it (a folder's next Tab looks inside it); none: nothing to step */
    app->prompt_tabs = rc == 0 ? app->prompt_tabs + 1 : 0;
    return TUI_R_DRAW;
}

static unsigned prompt_key(struct tui_app *app, int key)
{
    enum tui_action act = tui_action_for_key(TUI_SCOPE_SEARCH, key);
    size_t len = strlen(app->prompt_text);
    if (app->prompt_done && app->prompt_paths && key == '\t')
        return prompt_tab(app);
    app->prompt_tabs = 0;
    bool fresh = app->prompt_fresh;
    app->prompt_fresh = false;
    switch (act) {
    case TUI_ACT_SEARCH_KEEP:
        app->prompt = false;
        if (app->prompt_done) {
            void (*done)(struct tui_app *, const char *) = app->prompt_done;
            app->prompt_done = NULL;
            app->prompt_label = NULL;
            if (app->prompt_paths) {
                char *path = tui_path_expand(app->prompt_text);
                done(app, path);
                free(path);
            } else {
                done(app, app->prompt_text);
            }
        }
        return TUI_R_DRAW;
    case TUI_ACT_SEARCH_CANCEL:
        app->prompt = false;
        if (app->prompt_done) {
            app->prompt_done = NULL;
            app->prompt_label = NULL;
            return TUI_R_DRAW;
        }
        snprintf(app->prompt_text, sizeof app->prompt_text, "%s", app->prompt_saved);
        prompt_changed(app);
        return TUI_R_DRAW;
    case TUI_ACT_SEARCH_ERASE:
        /* Back over one whole UTF-8 character. */
        while (len > 0 && ((unsigned char)app->prompt_text[len - 1] & 0xC0) == 0x80)
            len--;
        if (len > 0)
            len--;
        app->prompt_text[len] = '\0';
        prompt_changed(app);
        return TUI_R_DRAW;
    case TUI_ACT_SEARCH_CLEAR:
        app->prompt_text[0] = '\0';
        prompt_changed(app);
        return TUI_R_DRAW;
    default:
        break;
    }
    if (app->prompt_done && app->n_prompt_choices > 0 &&
        (key == TUI_KEY_FN(KEY_UP) || key == TUI_KEY_FN(KEY_DOWN))) {
        /* Down goes to older answers, Up back to newer ones; both wrap */
        int n = app->n_prompt_choices, step = key == TUI_KEY_FN(KEY_DOWN) ? 1 : n - 1;
        app->prompt_choice = (app->prompt_choice + step) % n;
        snprintf(app->prompt_text, sizeof app->prompt_text, "%s",
                 app->prompt_choices[app->prompt_choice]);
        app->prompt_fresh = true;
        return TUI_R_DRAW;
    }
    if (key < ' ' || key >= 0x110000 || text_is_control((uint32_t)key)) {
        app->prompt_fresh = fresh; /* a key that does nothing leaves the offer as it was */
        return TUI_R_NONE;
    }
    if (fresh) { /* the offered text was not typed: what is typed replaces it */
        app->prompt_text[0] = '\0';
        len = 0;
    }
    char ch[5]; /* the character itself: a space is typed as a space */
    size_t n = text_encode((uint32_t)key, ch);
    if (n > 0 && len + n <= TUI_SEARCH_MAX) {
        memcpy(app->prompt_text + len, ch, n + 1);
        prompt_changed(app);
    }
    return TUI_R_DRAW;
}

static unsigned handle_key(struct tui_app *app, int key)
{
    app->message[0] = '\0';
    if (app->confirm.open) {
        app->confirm.open = false;
        if (tui_action_for_key(TUI_SCOPE_CONFIRM, key) == TUI_ACT_CONFIRM_YES)
            return app->confirm.yes(app, app->confirm.ctx) | TUI_R_DRAW;
        tui_app_message(app, "%s", tui_tr(app, "Not done", "未执行"));
        return TUI_R_DRAW;
    }
    if (app->prompt)
        return prompt_key(app, key);
    if (app->search_refused) {
        /* Characters typed after a refused `/` are the search the person meant: drop them,
         * and Enter or Esc that would have ended the prompt. Any other key acts. */
        if (key == TUI_KEY_ENTER || key == TUI_KEY_ESC) {
            app->search_refused = false;
            return TUI_R_DRAW;
        }
        if (key >= ' ' && key < 0x110000 && !text_is_control((uint32_t)key)) {
            tui_app_refuse_search(app);
            return TUI_R_DRAW;
        }
        app->search_refused = false;
    }
    if (app->lay.too_small)
        return key == 'q' || key == TUI_KEY_FN(KEY_F(10)) ? TUI_R_QUIT : TUI_R_NONE;
    if (key == ' ' && app->view != TUI_VIEW_CASES)
        key = TUI_KEY_FN(KEY_NPAGE); /* Space pages down where it has no other use */
    enum tui_action act = tui_action_for_key(views[app->view]->scope, key);
    if (act == TUI_ACT_NONE)
        return TUI_R_NONE;
    return dispatch(app, act);
}

static unsigned handle_mouse(struct tui_app *app, const struct tui_event *ev)
{
    app->message[0] = '\0';
    app->search_refused = false;
    if (app->confirm.open && !(ev->wheel == 0 && ev->y == app->lay.keybar.y)) {
        app->confirm.open = false; /* a click elsewhere answers no, as any key does */
        tui_app_message(app, "%s", tui_tr(app, "Not done", "未执行"));
        return TUI_R_DRAW;
    }
    if (app->lay.too_small)
        return TUI_R_NONE;
    if (ev->wheel == 0 && ev->y == app->lay.header.y) {
        for (int i = 0; i < app->n_tabs; i++)
            if (ev->x >= app->tabs[i].x0 && ev->x < app->tabs[i].x1) {
                app->prompt = false;
                tui_app_show(app, app->tabs[i].view);
                return TUI_R_DRAW;
            }
        return TUI_R_NONE;
    }
    if (ev->wheel == 0 && ev->y == app->lay.keybar.y) {
        for (int i = 0; i < app->n_bar; i++)
            if (ev->x >= app->bar[i].x0 && ev->x < app->bar[i].x1) {
                enum tui_action act = app->bar[i].act;
                if (app->confirm.open)
                    return handle_key(app, tui_key_parse(tui_action_key_label(act)));
                if (app->prompt) {
                    const char *k = tui_action_key_label(act);
                    return prompt_key(app, tui_key_parse(k));
                }
                return dispatch(app, act);
            }
        return TUI_R_NONE;
    }
    if (tui_rect_contains(&app->lay.body, ev->y, ev->x) && views[app->view]->mouse)
        return views[app->view]->mouse(app, app->state[app->view], ev->y, ev->x, ev->wheel);
    return TUI_R_NONE;
}

/* ---- children (runs, pulls, device probes) ---- */

/* Takes what every child has written; calls on_exit for those that ended and forgets them.
 * Returns true when anything happened. */
static bool pump_jobs(struct tui_app *app)
{
    bool any = false;
    for (int i = 0; i < app->n_jobs;) {
        struct tui_job j = app->jobs[i];
        any |= tui_child_pump(j.child, j.on_line, j.ctx);
        if (tui_child_done(j.child)) {
            memmove(app->jobs + i, app->jobs + i + 1, (size_t)(app->n_jobs - i - 1) * sizeof j);
            app->n_jobs--;
            if (j.on_exit)
                j.on_exit(app, j.ctx);
            any = true;
        } else {
            i++;
        }
    }
    return any;
}

/* Calls ready for every watched descriptor that is readable now and forgets it. Returns true
 * when any was. */
static bool pump_waits(struct tui_app *app)
{
    bool any = false;
    for (int i = 0; i < app->n_waits;) {
        struct pollfd p = {.fd = app->waits[i].fd, .events = POLLIN};
        if (poll(&p, 1, 0) == 1) {
            struct tui_wait w = app->waits[i];
            tui_app_unwait(app, w.fd);
            w.ready(app, w.ctx);
            any = true;
        } else {
            i++;
        }
    }
    return any;
}

/* Sleeps until key_fd (-1: none), a child or a watched descriptor has something to read, or
 * timeout_ms passes. Returns true when key_fd is readable. */
static bool wait_events(struct tui_app *app, int key_fd, int timeout_ms)
{
    struct tui_child *ch[TUI_JOBS_MAX];
    int fds[TUI_WAITS_MAX];
    for (int i = 0; i < app->n_jobs; i++)
        ch[i] = app->jobs[i].child;
    for (int i = 0; i < app->n_waits; i++)
        fds[i] = app->waits[i].fd;
    return tui_child_wait(key_fd, ch, (size_t)app->n_jobs, fds, (size_t)app->n_waits,
                          timeout_ms) == 1;
}

/* Waits for a key while watching the children and background reads: a key returns true with
 * ev; activity or the quarter-second tick (elapsed times on screen) returns false. */
static bool wait_input(struct tui_app *app, struct tui_event *ev)
{
    if (tui_term_read_timeout(ev, 0)) /* curses may hold keys already read from the terminal */
        return true;
    if (wait_events(app, STDIN_FILENO, 250))
        return tui_term_read_timeout(ev, 0);
    return false;
}

/* Leaving with children still running: cancel each (a run records itself as cancelled), give
 * them the grace to do so, then they are killed by their owners' fini. */
static void stop_jobs(struct tui_app *app)
{
    for (int i = 0; i < app->n_jobs; i++)
        tui_child_cancel(app->jobs[i].child);
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (app->n_jobs > 0) {
        wait_events(app, -1, 100);
        pump_jobs(app);
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 >
            TUI_CHILD_GRACE_MS + 1000)
            break;
    }
}

/* KLADDER_TIMING=FILE: one line per frame, "first-frame US" (from start) then "key US" (from
 * the key's arrival to the end of its frame), and "loaded US" (from the key that asked for it
 * to the end of the frame that shows a background read's result), for bench/tui_bench.sh. */
static FILE *timing;
static struct timespec timing_t0;

static long us_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long)(now.tv_sec - t->tv_sec) * 1000000 + (now.tv_nsec - t->tv_nsec) / 1000;
}

/* ---- start and end ---- */

static void load_reference(struct tui_app *app)
{
    char err[512];
    if (cdb_gaps_load(app->db, &app->gaps, &app->n_gaps, err, sizeof err) != 0 ||
        cdb_rungs_load(app->db, &app->rungs, &app->n_rungs, err, sizeof err) != 0)
        die("kladder: cannot read gaps and rungs from the database: %s", err);
}

static void free_app(struct tui_app *app)
{
    tui_theme_list_free(app->themes, app->n_themes);
    for (int v = 0; v < TUI_VIEW_COUNT; v++)
        if (app->state[v] && views[v]->fini)
            views[v]->fini(app->state[v]);
    for (size_t i = 0; i < app->n_gaps; i++)
        cdb_gap_free(&app->gaps[i]);
    free(app->gaps);
    for (size_t i = 0; i < app->n_rungs; i++)
        cdb_rung_free(&app->rungs[i]);
    free(app->rungs);
    if (app->db)
        cdb_close(app->db);
}

static bool parse_size(const char *s, int *rows, int *cols)
{
    int c, r;
    char x;
    if (!s || sscanf(s, "%d%c%d", &c, &x, &r) != 3 || (x != 'x' && x != 'X') || c < 1 ||
        r < 1 || c > 1000 || r > 1000)
        return false;
    *rows = r;
    *cols = c;
    return true;
}

/* The language and theme asked for in the environment, and the themes there are: the built-in
 * ones, then the user's files in $XDG_CONFIG_HOME/kladder/themes. */
static void load_settings(struct tui_app *app)
{
    const char *lang = getenv("KLADDER_LANG");
    if (lang && strncmp(lang, "zh", 2) == 0)
        app->lang = TUI_LANG_ZH;
    char *config = paths_config_dir();
    char *theme_dir = xasprintf("%s/themes", config);
    app->themes = tui_theme_list(theme_dir, &app->n_themes);
    free(theme_dir);
    free(config);
    const char *theme = getenv("KLADDER_THEME");
    for (size_t i = 0; theme && i < app->n_themes; i++)
        if (strcmp(theme, app->themes[i].name) == 0)
            app->theme = (int)i;
}

/* Opens the database and the terminal, loads what the views read and starts every view on the
 * dashboard. Returns 0, or 2 after a message on stderr (free_app frees what was opened). */
static int start(struct tui_app *app, bool headless, int rows, int cols)
{
    char err[sizeof app->message];
    app->db = cli_open_db(app->g);
    if (!app->db)
        return 2;
    load_reference(app);
    load_settings(app);

    const char *codeset = nl_langinfo(CODESET);
    tui_draw_set_ascii(!codeset || strcmp(codeset, "UTF-8") != 0);

    if (tui_term_start(headless, rows, cols, err, sizeof err) != 0) {
        fprintf(stderr, "kladder: %s\n", err);
        return 2;
    }
    die_set_cleanup(tui_term_end);
    app->color_mode = tui_theme_color_mode(app->g->color, getenv("NO_COLOR"),
                                           tui_term_has_colors(), tui_term_colors());
    apply_theme(app);
    tui_layout_compute(LINES, COLS, &app->lay);
    list_tabs();
    for (int v = 0; v < TUI_VIEW_COUNT; v++)
        app->state[v] = views[v]->init(app);
    app->view = TUI_VIEW_DASHBOARD;
    app->runs_stack[0] = TUI_VIEW_RUNS;
    app->runs_depth = 1;
    const char *timing_path = getenv("KLADDER_TIMING");
    if (timing_path && *timing_path)
        timing = fopen(timing_path, "w");
    return 0;
}

/* One event from the terminal or the script; returns TUI_R_* bits. A screen dump that cannot
 * be written quits with *status 2 and the reason in app->message. */
static unsigned handle_event(struct tui_app *app, bool script, const struct tui_event *ev,
                             int *status)
{
    char err[sizeof app->message];
    switch (ev->kind) {
    case TUI_EV_END:
        return TUI_R_QUIT;
    case TUI_EV_KEY:
        return handle_key(app, ev->key);
    case TUI_EV_MOUSE:
        return handle_mouse(app, ev);
    case TUI_EV_RESIZE:
        if (script)
            tui_term_resize(ev->y, ev->x);
        tui_layout_compute(LINES, COLS, &app->lay);
        return TUI_R_DRAW;
    case TUI_EV_SAVE: /* the frame on screen is the last one drawn: the loop draws first */
        if (tui_term_save_screen(ev->path, err, sizeof err) != 0) {
            snprintf(app->message, sizeof app->message, "%s", err);
            *status = 2;
            return TUI_R_QUIT;
        }
        break;
    }
    return TUI_R_NONE;
}

/* Draws, takes what the children and background reads have for us, and hands each key, click,
 * resize or script step on, until something quits. Returns the exit status: 2 when a script
 * step or a screen dump failed (app->message says why). */
/* Another process committed (a `kladder hosts rename`, a run or pull in another terminal):
 * every view reads again what it shows, so no old host name or list outlives the change. */
static void notice_outside_changes(struct tui_app *app)
{
    long long v = cdb_outside_changes(app->db);
    if (v != app->outside_version) {
        app->outside_version = v;
        tui_app_results_changed(app);
    }
}

static int event_loop(struct tui_app *app, struct tui_script *script)
{
    char err[sizeof app->message];
    int status = 0;
    bool dirty = true, first = true, loaded = false;
    struct timespec key_t0 = timing_t0;
    app->outside_version = cdb_outside_changes(app->db);
    for (;;) {
        notice_outside_changes(app);
        if (dirty) {
            draw_all(app);
            if (timing) {
                fprintf(timing, "%s %ld\n", first ? "first-frame" : loaded ? "loaded" : "key",
                        us_since(&key_t0));
                first = false;
            }
        }
        dirty = loaded = false;
        struct tui_event ev;
        if (app->n_jobs > 0 && pump_jobs(app)) {
            dirty = true; /* show what changed first: the last child may have just ended */
            continue;
        }
        if (app->n_waits > 0 && pump_waits(app)) {
            dirty = loaded = true;
            continue;
        }
        if (script && (app->n_jobs > 0 || app->n_waits > 0)) {
            /* Scripts are deterministic: a child or a background read started by one step
             * finishes before the next step is read. */
            wait_events(app, -1, 250);
            continue;
        }
        if (!script && (app->n_jobs > 0 || app->n_waits > 0)) {
            if (!wait_input(app, &ev)) {
                pump_jobs(app);
                dirty = true; /* new lines, an exit, or the tick of an elapsed time */
                continue;
            }
        } else if (script) {
            if (tui_script_next(script, &ev, err, sizeof err) != 0) {
                snprintf(app->message, sizeof app->message, "%s", err);
                return 2;
            }
        } else {
            tui_term_read(&ev);
        }
        clock_gettime(CLOCK_MONOTONIC, &key_t0);
        if (handle_event(app, script != NULL, &ev, &status) & TUI_R_QUIT)
            return status;
        /* Every key can change what is shown (a message goes away), so redraw after each;
         * drawing the whole frame is cheap and curses sends only the difference. */
        dirty = true;
    }
}

int tui_main(const struct cli_global *g)
{
    clock_gettime(CLOCK_MONOTONIC, &timing_t0);
    const char *script_path = getenv("KLADDER_SCRIPT");
    bool headless = script_path && *script_path;
    int rows = 24, cols = 80;
    if (headless && getenv("KLADDER_SIZE") && !parse_size(getenv("KLADDER_SIZE"), &rows, &cols)) {
        fprintf(stderr, "kladder: KLADDER_SIZE must look like 80x24, not '%s'\n",
                getenv("KLADDER_SIZE"));
        return 2;
    }
    /* Drawn into a file or a pipe, the interface is escape codes nobody reads, waiting for keys
     * nobody can type: refuse, and say where the same facts are as text. */
    if (!headless && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
        fprintf(stderr, "kladder: the interface needs a terminal, and %s is not one; for text, "
                "use a verb: kladder cases, kladder results, kladder show CASE (kladder --help "
                "lists them)\n", !isatty(STDOUT_FILENO) ? "stdout" : "stdin");
        return 2;
    }
    char err[sizeof ((struct tui_app *)0)->message];
    struct tui_script *script = NULL;
    if (headless && !(script = tui_script_open(script_path, err, sizeof err))) {
        fprintf(stderr, "kladder: KLADDER_SCRIPT: %s\n", err);
        return 2;
    }
    struct tui_app app = {.views = views, .g = g};
    if (start(&app, headless, rows, cols) != 0) {
        tui_script_free(script);
        free_app(&app);
        return 2;
    }
    int status = event_loop(&app, script);
    stop_jobs(&app);
    tui_term_end();
    die_set_cleanup(NULL);
    if (timing)
        fclose(timing);
    if (status != 0)
        fprintf(stderr, "kladder: %s\n", app.message);
    tui_script_free(script);
    free_app(&app);
    return status;
}
