/* Runs: every recorded run, newest first — made here or pulled from other hosts — with its
 * host, machine, rung, suite, verdict and the count of checks per verdict. H, R and V cycle the
 * host, rung and verdict filters, x clears them; Enter opens a run's checks, m its machine.
 *
 * Also here: P, the pull of every host. It runs `kladder pull` as a child (the transfers and
 * their time limits stay out of this process) and shows one line per host as they finish. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/hosts.h"
#include "casedb/results_query.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/bgread.h"
#include "tui/child.h"
#include "tui/draw.h"
#include "tui/launcher.h"
#include "tui/list.h"
#include "tui/results_fmt.h"
#include "tui/view.h"

struct runs_state {
    struct cdb_run_list runs; /* every run, newest first */
    size_t *vis;              /* the runs that pass the filters (indexes into runs.items) */
    size_t n_vis;
    bool loaded;
    struct tui_bgread *reading; /* the list being read in the background, NULL none */
    unsigned gen;           /* app->results_gen of the loaded list */
    struct tui_list list;
    int list_y0;
    /* filters: host "" = any */
    char host[80];
    int rung;    /* -1 any */
    int verdict; /* -1 any */
    /* the pull */
    struct tui_child *pull;
    char *pull_report;      /* "NAME: ..." lines, newest pull */
    size_t n_hosts;         /* hosts asked */
    size_t n_answered;
    long pull_ms;
};

/* ---- loading ---- */

/* The filters work on the list in memory, as cdb_run_filter would in SQL (a run belongs to
 * the host it was pulled under; "local" is runs made here): a filter key then costs no read,
 * whatever the size of the database. */
static bool passes(const struct runs_state *s, const struct cdb_run_info *ri)
{
    if (s->host[0]) {
        bool local = strcmp(s->host, "local") == 0;
        if (local ? ri->origin != NULL : !(ri->origin && strcmp(ri->origin, s->host) == 0))
            return false;
    }
    return (s->rung < 0 || ri->run.rung == s->rung) &&
           (s->verdict < 0 || (int)ri->run.verdict == s->verdict);
}

static void apply_filters(struct runs_state *s)
{
    free(s->vis);
    s->vis = xmalloc((s->runs.n + 1) * sizeof *s->vis);
    s->n_vis = 0;
    for (size_t i = 0; i < s->runs.n; i++)
        if (passes(s, &s->runs.items[i]))
            s->vis[s->n_vis++] = i;
    tui_list_set_count(&s->list, s->n_vis);
}

static const struct cdb_run_info *shown(const struct runs_state *s, size_t row)
{
    return &s->runs.items[s->vis[row]];
}

/* The list is read on a worker thread (tui/bgread.h), as the comparison is: 1,000 runs take a
 * few milliseconds, a year of runs far more than a keystroke may. Until a new list arrives the
 * old one stays on screen. */
static void install(struct runs_state *s, struct cdb_run_list *l)
{
    if (s->loaded)
        cdb_run_list_free(&s->runs);
    s->runs = *l;
    s->loaded = true;
    apply_filters(s);
}

static void *runs_read(struct cdb *db, void *arg, char *err, size_t errlen)
{
    (void)arg;
    struct cdb_run_list *l = xcalloc(1, sizeof *l);
    if (cdb_runs_query(db, NULL, l, err, errlen) != 0) {
        free(l);
        return NULL;
    }
    return l;
}

static void runs_result_free(void *result)
{
    cdb_run_list_free(result);
    free(result);
}

static void runs_ready(struct tui_app *app, void *ctx)
{
    struct runs_state *s = ctx;
    char err[512];
    struct cdb_run_list *l = tui_bgread_take(s->reading, err, sizeof err);
    s->reading = NULL;
    if (!l) {
        tui_app_message(app, "%s", err);
        return;
    }
    install(s, l);
    free(l);
}

static void load(struct tui_app *app, struct runs_state *s)
{
    tui_app_read_cancel(app, &s->reading);
    s->gen = app->results_gen;
    char none = 0;
    s->reading = tui_app_read(app, runs_read, &none, sizeof none, runs_result_free, runs_ready, s);
    if (s->reading)
        return;
    /* no worker (an in-memory database, or no thread to be had): read here */
    char err[512];
    struct cdb_run_list l = {0};
    if (cdb_runs_query(app->db, NULL, &l, err, sizeof err) != 0)
        tui_app_message(app, "%s", err);
    install(s, &l);
}

static void *runs_init(struct tui_app *app)
{
    (void)app;
    struct runs_state *s = xcalloc(1, sizeof *s);
    s->rung = -1;
    s->verdict = -1;
    return s; /* loaded when first shown: start-up stays quick on a large database */
}

static void runs_fini(void *state)
{
    struct runs_state *s = state;
    tui_bgread_cancel(s->reading);
    if (s->loaded)
        cdb_run_list_free(&s->runs);
    free(s->vis);
    tui_child_free(s->pull);
    free(s->pull_report);
    free(s);
}

/* ---- drawing ---- */

struct draw_ctx {
    struct tui_app *app;
    struct runs_state *s;
    int y, x, w;
    int when_w, host_w, mach_w, rung_w, suite_w, verdict_w, counts_w;
};

static void counts_text(const struct cdb_run_info *ri, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int v = 0; v < CDB_RUNNING && o < len; v++)
        if (ri->counts[v])
            o += (size_t)snprintf(buf + o, len - o, "%s%d%s", o ? " " : "", ri->counts[v],
                                  tui_verdict_glyph(v));
    if (!buf[0])
        snprintf(buf, len, "-");
}

/* A run made here is "local", whatever this machine is called (a pulled machine may carry the
 * same name); a pulled run shows its machine's host name @ the host it was pulled under. */
static void host_text(const struct cdb_run_info *ri, char *buf, size_t len)
{
    const char *h = ri->run.host ? ri->run.host : "?";
    if (!ri->origin)
        snprintf(buf, len, "local");
    else if (strcmp(ri->origin, h) != 0)
        snprintf(buf, len, "%s@%s", h, ri->origin);
    else
        snprintf(buf, len, "%s", h);
}

static void when_text(const char *iso, char *buf, size_t len)
{
    /* "2026-11-29T08:51:17Z" -> "2026-11-29 08:51" */
    if (iso && strlen(iso) >= 16)
        snprintf(buf, len, "%.10s %.5s", iso, iso + 11);
    else
        snprintf(buf, len, "%s", iso ? iso : "");
}

static void draw_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct cdb_run_info *ri = shown(c->s, row);
    int y = c->y + line, x = c->x;
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    char buf[256];
    tui_draw_fill(y, x, c->w, base);
    when_text(ri->run.started, buf, sizeof buf);
    tui_draw_pad(y, x, c->when_w, selected ? base : TUI_ROLE_DIM, buf);
    x += c->when_w + 1;
    host_text(ri, buf, sizeof buf);
    tui_draw_pad(y, x, c->host_w, ri->origin || selected ? base : TUI_ROLE_TITLE, buf);
    x += c->host_w + 1;
    if (c->mach_w > 0) {
        snprintf(buf, sizeof buf, "%s %s", ri->machine.device ? ri->machine.device : "?",
                 ri->machine.target ? ri->machine.target : "");
        tui_draw_pad(y, x, c->mach_w, base, buf);
        x += c->mach_w + 1;
    }
    if (ri->run.rung > 0)
        snprintf(buf, sizeof buf, "R%d", ri->run.rung);
    else
        snprintf(buf, sizeof buf, "-");
    tui_draw_pad(y, x, c->rung_w, base, buf);
    x += c->rung_w + 1;
    snprintf(buf, sizeof buf, "%s", ri->run.suite ? ri->run.suite
                                    : ri->run.case_id ? ri->run.case_id : "-");
    tui_draw_pad(y, x, c->suite_w, base, buf);
    x += c->suite_w + 1;
    tui_fmt_verdict(ri->run.verdict, buf, sizeof buf);
    tui_draw_pad(y, x, c->verdict_w, selected ? base : tui_verdict_role(ri->run.verdict), buf);
    x += c->verdict_w + 1;
    counts_text(ri, buf, sizeof buf);
    tui_draw_pad(y, x, c->counts_w, base, buf);
}

static int draw_pull(struct tui_app *app, struct runs_state *s, int y, int x, int w, int ymax)
{
    if (!s->pull && !s->pull_report)
        return y;
    char buf[256];
    bool zh = app->lang == TUI_LANG_ZH;
    double secs = (double)(s->pull ? tui_child_elapsed_ms(s->pull) : s->pull_ms) / 1000.0;
    if (s->pull && zh)
        snprintf(buf, sizeof buf, "正在拉取 %zu 个主机… %.1f 秒", s->n_hosts, secs);
    else if (s->pull)
        snprintf(buf, sizeof buf, "Pulling %zu host(s)… %.1f s", s->n_hosts, secs);
    else if (zh)
        snprintf(buf, sizeof buf, "拉取 %zu 个主机，用时 %.1f 秒（Esc 收起）：", s->n_hosts, secs);
    else
        snprintf(buf, sizeof buf, "Pull of %zu host(s), %.1f s (Esc hides this):", s->n_hosts, secs);
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    const char *p = s->pull_report ? s->pull_report : "";
    while (*p && y < ymax) {
        size_t n = strcspn(p, "\n");
        char *line = xasprintf("  %.*s", (int)n, p);
        tui_draw_text(y++, x, w, strstr(line, ": error: ") ? TUI_ROLE_FAIL : TUI_ROLE_NORMAL,
                      line);
        free(line);
        p += n + (p[n] == '\n');
    }
    return y + 1;
}

static void runs_draw(struct tui_app *app, void *state)
{
    struct runs_state *s = state;
    if ((!s->loaded && !s->reading) || s->gen != app->results_gen)
        load(app, s);
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, ymax = r->y + r->h;
    struct draw_ctx c = {.app = app, .s = s, .x = r->x + 1, .w = r->w - 2};
    y = draw_pull(app, s, y, c.x, c.w, ymax - 3);

    c.when_w = 16;
    c.host_w = 14;
    c.rung_w = 4;
    c.suite_w = 14;
    c.verdict_w = 11;
    c.counts_w = 16;
    int fixed = c.when_w + c.host_w + c.rung_w + c.suite_w + c.verdict_w + c.counts_w + 5;
    c.mach_w = c.w - fixed - 1;
    if (c.mach_w < 12) {
        c.mach_w = 0;
        c.counts_w = c.w - (fixed - c.counts_w);
    } else if (c.mach_w > 40) {
        c.counts_w += c.mach_w - 40;
        c.mach_w = 40;
    }
    int x = c.x;
    static const char *const heads[][2] = {{"Started", "开始时间"}, {"Host", "主机"},
                                           {"Machine", "机器"}, {"Rung", "阶梯"},
                                           {"Suite/case", "套件/案例"}, {"Verdict", "判定"},
                                           {"Checks", "检查"}};
    const int widths[] = {c.when_w, c.host_w, c.mach_w, c.rung_w, c.suite_w, c.verdict_w,
                          c.counts_w};
    tui_draw_fill(y, c.x, c.w, TUI_ROLE_COLHEAD);
    for (int i = 0; i < 7; i++) {
        if (widths[i] <= 0)
            continue;
        tui_draw_pad(y, x, widths[i], TUI_ROLE_COLHEAD, tui_tr(app, heads[i][0], heads[i][1]));
        x += widths[i] + 1;
    }
    y++;
    s->list_y0 = y;
    if (s->n_vis == 0 && s->reading) {
        tui_draw_text(y + 1, c.x, c.w, TUI_ROLE_DIM, tui_tr(app, "Reading the runs…", "正在读取运行记录…"));
        return;
    }
    if (s->n_vis == 0) {
        bool filtered = s->host[0] || s->rung >= 0 || s->verdict >= 0;
        tui_draw_text(y + 1, c.x, c.w, TUI_ROLE_DIM,
                      filtered ? tui_tr(app, "No run matches the filters. x clears them.",
                                        "没有符合筛选的运行。按 x 清除筛选。")
                               : tui_tr(app, "No runs yet. r on a case or a dashboard cell "
                                             "runs it; P pulls other hosts' results.",
                                        "还没有运行记录。在案例或仪表盘格子上按 r 运行；按 P "
                                        "拉取其他主机的结果。"));
        return;
    }
    c.y = y;
    tui_list_draw(&s->list, ymax - y, draw_row, &c);
}

/* ---- the pull ---- */

static void pull_line(void *ctx, enum tui_child_stream st, const char *line)
{
    (void)st;
    struct runs_state *s = ctx;
    if (!line[0])
        return;
    char *clean = text_sanitize(line, false);
    char *old = s->pull_report;
    s->pull_report = old && *old ? xasprintf("%s\n%s", old, clean) : xstrdup(clean);
    free(old);
    free(clean);
    s->n_answered++;
}

static void pull_exit(struct tui_app *app, void *ctx)
{
    struct runs_state *s = ctx;
    int st = tui_child_status(s->pull);
    s->pull_ms = tui_child_elapsed_ms(s->pull);
    if (st != 0 && st != 1 && !s->n_answered) {
        /* The pull did not get to any host: show why (its last output). */
        char *why = text_sanitize(tui_child_tail(s->pull), false);
        char *old = s->pull_report;
        s->pull_report = xasprintf("%s%serror: %s", old ? old : "", old && *old ? "\n" : "", why);
        free(old);
        free(why);
    }
    tui_child_free(s->pull);
    s->pull = NULL;
    tui_app_results_changed(app);
    tui_app_message(app, "%s", st == 0 ? tui_tr(app, "Pull done: every host answered",
                                                "拉取完成：所有主机均已响应")
                                       : tui_tr(app, "Pull done, with errors (see the Runs view)",
                                                "拉取完成，但有错误（见运行视图）"));
}

/* P, from any view (tui/app.c hands it here): the report shows at the top of the Runs list. */
static void pull_start(struct tui_app *app, struct runs_state *s)
{
    if (s->pull) {
        tui_app_message(app, "%s", tui_tr(app, "A pull is already under way", "正在拉取中"));
        return;
    }
    struct cdb_host_list hl = {0};
    char err[512];
    if (cdb_hosts_list(app->db, &hl, err, sizeof err) != 0) {
        tui_app_message(app, "%s", err);
        return;
    }
    size_t n = hl.n;
    cdb_host_list_free(&hl);
    if (n == 0) {
        tui_app_message(app, "%s", tui_tr(app, "No hosts to pull: add one with kladder hosts add NAME URL",
                                          "没有可拉取的主机：用 kladder hosts add NAME URL 添加"));
        return;
    }
    const char *argv[8];
    int k = tui_launcher_argv(app, argv, 6);
    argv[k++] = "pull";
    argv[k] = NULL;
    s->pull = tui_launcher_start(app, argv, false, pull_line, pull_exit, s, err, sizeof err);
    if (!s->pull) {
        tui_app_message(app, "%s", err);
        return;
    }
    free(s->pull_report);
    s->pull_report = NULL;
    s->n_hosts = n;
    s->n_answered = 0;
    app->runs_depth = 1;
    tui_app_show(app, TUI_VIEW_RUNS);
}

/* ---- actions ---- */

static void cycle_host(struct tui_app *app, struct runs_state *s)
{
    /* "" (any) -> local -> each host of the hosts table -> "" */
    struct cdb_host_list hl = {0};
    char err[256];
    if (cdb_hosts_list(app->db, &hl, err, sizeof err) != 0)
        tui_app_message(app, "%s", err);
    const char *next = "local";
    if (strcmp(s->host, "local") == 0) {
        next = hl.n ? hl.items[0].name : "";
    } else if (s->host[0]) {
        next = "";
        for (size_t i = 0; i < hl.n; i++)
            if (strcmp(hl.items[i].name, s->host) == 0)
                next = i + 1 < hl.n ? hl.items[i + 1].name : "";
    }
    snprintf(s->host, sizeof s->host, "%s", next);
    cdb_host_list_free(&hl);
}

static unsigned runs_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct runs_state *s = state;
    struct tui_list *l = &s->list;
    if (tui_list_navigate(l, act))
        return TUI_R_DRAW;
    switch (act) {
    case TUI_ACT_OPEN:
        if (s->n_vis)
            tui_app_open(app, TUI_VIEW_RUN, &(struct tui_open){.id = shown(s, l->sel)->run.uuid});
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_MACHINE:
        if (s->n_vis)
            tui_app_open(app, TUI_VIEW_MACHINE,
                         &(struct tui_open){.id = shown(s, l->sel)->machine.id});
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_HOST:
        cycle_host(app, s);
        tui_list_first(l);
        apply_filters(s);
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_RUNG:
        s->rung = s->rung < 0 ? 1 : s->rung >= CDB_RUNGS ? -1 : s->rung + 1;
        tui_list_first(l);
        apply_filters(s);
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_VERDICT:
        s->verdict = s->verdict < 0 ? 0 : s->verdict + 1 >= CDB_VERDICT_COUNT ? -1 : s->verdict + 1;
        tui_list_first(l);
        apply_filters(s);
        return TUI_R_DRAW;
    case TUI_ACT_PULL:
        pull_start(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_CLEAR:
        s->host[0] = '\0';
        s->rung = s->verdict = -1;
        apply_filters(s);
        return TUI_R_DRAW;
    case TUI_ACT_BACK:
        if (s->pull_report && !s->pull) { /* Esc dismisses the report of the last pull */
            free(s->pull_report);
            s->pull_report = NULL;
            return TUI_R_DRAW;
        }
        return TUI_R_UNHANDLED;
    default:
        return TUI_R_UNHANDLED;
    }
}

static unsigned runs_mouse(struct tui_app *app, void *state, int y, int x, int wheel)
{
    (void)x;
    struct runs_state *s = state;
    bool again = false;
    long row = tui_list_mouse(&s->list, y - s->list_y0, wheel, &again);
    if (row == TUI_LIST_NO_ROW)
        return TUI_R_NONE;
    if (row >= 0 && again)
        tui_app_open(app, TUI_VIEW_RUN, &(struct tui_open){.id = shown(s, (size_t)row)->run.uuid});
    return TUI_R_DRAW;
}

static void runs_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct runs_state *s = state;
    size_t o = (size_t)snprintf(buf, len, app->lang == TUI_LANG_ZH ? "第 %zu / %zu 个运行" : "Run %zu of %zu",
                                s->n_vis ? s->list.sel + 1 : 0, s->n_vis);
    if (s->host[0] && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s %s", tui_tr(app, "host", "主机"), s->host);
    if (s->rung >= 0 && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s %d", tui_tr(app, "rung", "阶梯"), s->rung);
    if (s->verdict >= 0 && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s %s", tui_tr(app, "verdict", "判定"),
                              cdb_verdict_name((enum cdb_verdict)s->verdict));
    if (o < len)
        snprintf(buf + o, len - o, "%s", tui_tr(app, " · P pulls every host", " · P 拉取所有主机"));
}

const struct tui_view_ops tui_view_runs = {
    .name = "runs",
    .scope = TUI_SCOPE_RUNS,
    .init = runs_init,
    .fini = runs_fini,
    .draw = runs_draw,
    .action = runs_action,
    .mouse = runs_mouse,
    .status = runs_status,
};
