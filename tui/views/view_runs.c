/* Runs: every recorded run, newest first — made here or pulled from other hosts — with its
 * host, machine, rung, suite, verdict and the count of checks per verdict. H, R and V cycle the
 * host, rung and verdict filters, / searches (case, suite, verdict, host: every word must occur
 * in one of them), x clears them all; s sorts by the next column, S reverses; Enter opens a
 * run's checks, m its machine. A `kladder exec` run reads "exec" where a rung would be, and
 * exec's own verdict (finding, failed, crash...) after the run's glyph.
 *
 * Also here: P, the pull of every host. It runs `kladder pull` as a child (the transfers and
 * their time limits stay out of this process) and shows one line per host as they finish. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "casedb/hosts.h"
#include "casedb/results_query.h"
#include "casedb/runs_reap.h"
#include "common/proc_owner.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/bgread.h"
#include "tui/child.h"
#include "tui/clipboard.h"
#include "tui/cmdline.h"
#include "tui/columns.h"
#include "tui/draw.h"
#include "tui/recent_suites.h"
#include "tui/views/launcher.h"
#include "tui/views/list.h"
#include "tui/results_fmt.h"
#include "tui/views/view.h"

/* The columns of the list, in order; also what s sorts by. */
enum { COL_WHEN, COL_HOST, COL_MACH, COL_RUNG, COL_SUITE, COL_VERDICT, COL_COUNTS, COL_COUNT };

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
    char search[TUI_SEARCH_MAX + 1];
    /* The widths the shown runs' content needs, measured when the rows or the language
     * change rather than on every frame (a thousand runs take milliseconds). */
    int want[COL_COUNT];
    bool want_valid;
    enum tui_lang want_lang;
    int sort;       /* a column (COL_*): COL_WHEN is newest first, as read */
    bool sort_desc; /* reversed */
    /* the pull */
    struct tui_child *pull;
    char *pull_report;      /* "NAME: ..." lines, newest pull */
    size_t n_hosts;         /* hosts asked */
    size_t n_answered;
    long pull_ms;
    /* this process, as the reaper compares a run's owner with it */
    struct kl_owner here;
};

/* ---- loading ---- */

/* The filters work on the list in memory, as cdb_run_filter would in SQL (a run belongs to
 * the host it was pulled under; "local" is runs made here): a filter key then costs no read,
 * whatever the size of the database. */
/* Whether field holds term (n bytes), ignoring ASCII case: a verdict or a host is typed as it
 * reads, "FAIL" or "fail". */
static bool field_has(const char *field, const char *term, size_t n)
{
    if (!field)
        return false;
    for (const char *p = field; strlen(p) >= n; p++)
        if (strncasecmp(p, term, n) == 0)
            return true;
    return false;
}

/* Every whitespace-separated word of the search occurs in the run's case, suite, verdict (its
 * English name or the one on screen) or host, or is "exec" for a `kladder exec` run. */
static bool matches_search(const struct tui_app *app, const char *search,
                           const struct cdb_run_info *ri)
{
    char verdict[64];
    tui_fmt_run_verdict(ri->run.verdict, ri->exec_verdict, app->lang == TUI_LANG_ZH, verdict,
                        sizeof verdict);
    const char *fields[] = {ri->run.case_id, ri->run.suite,
                            cdb_verdict_name(ri->run.verdict), verdict, ri->run.host,
                            ri->origin, ri->exec_verdict ? "exec" : NULL};
    for (const char *p = search; *p;) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, " \t");
        if (n == 0)
            break;
        bool found = false;
        for (size_t i = 0; i < sizeof fields / sizeof fields[0] && !found; i++)
            found = field_has(fields[i], p, n);
        if (!found)
            return false;
        p += n;
    }
    return true;
}

static bool passes(const struct tui_app *app, const struct runs_state *s,
                   const struct cdb_run_info *ri)
{
    if (s->search[0] && !matches_search(app, s->search, ri))
        return false;
    if (s->host[0]) {
        bool local = strcmp(s->host, "local") == 0;
        if (local ? ri->origin != NULL : !(ri->origin && strcmp(ri->origin, s->host) == 0))
            return false;
    }
    return (s->rung < 0 || ri->run.rung == s->rung || (s->rung > 0 && ri->rungs >> s->rung & 1u)) &&
           (s->verdict < 0 || (int)ri->run.verdict == s->verdict);
}

/* How bad a verdict is, for sorting: failures first. */
static int verdict_rank(int v)
{
    static const int rank[CDB_VERDICT_COUNT] = {
        [CDB_FAIL] = 0, [CDB_HANG] = 1, [CDB_ERROR] = 2, [CDB_CANCELLED] = 3,
        [CDB_RUNNING] = 4, [CDB_DOUBT] = 4, [CDB_SKIP] = 5, [CDB_PASS] = 6};
    return v >= 0 && v < CDB_VERDICT_COUNT ? rank[v] : 7;
}

/* The checks that went wrong: a buggy variant caught is the rung working, not a failure. */
static int bad_checks(const struct cdb_run_info *ri)
{
    return ri->counts[CDB_FAIL] + ri->counts[CDB_HANG] + ri->counts[CDB_ERROR] -
           ri->caught_fail - ri->caught_hang;
}

static int cmp_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

/* The list being sorted (the interface is one thread; qsort takes no context). */
static const struct runs_state *sorting;

static void host_text(const struct cdb_run_info *ri, char *buf, size_t len);
static void machine_text(const struct cdb_run_info *ri, char *buf, size_t len);
static const char *suite_text(const struct cdb_run_info *ri);

static int cmp_run(const void *pa, const void *pb)
{
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    const struct cdb_run_info *a = &sorting->runs.items[ia], *b = &sorting->runs.items[ib];
    char ta[256], tb[256];
    int d = 0;
    switch (sorting->sort) {
    case COL_HOST:
        host_text(a, ta, sizeof ta);
        host_text(b, tb, sizeof tb);
        d = strcmp(ta, tb);
        break;
    case COL_MACH:
        machine_text(a, ta, sizeof ta);
        machine_text(b, tb, sizeof tb);
        d = strcmp(ta, tb);
        break;
    case COL_RUNG:
        d = a->run.rung - b->run.rung;
        break;
    case COL_SUITE:
        d = cmp_text(suite_text(a), suite_text(b));
        break;
    case COL_VERDICT:
        d = verdict_rank(a->run.verdict) - verdict_rank(b->run.verdict);
        break;
    case COL_COUNTS: /* most failing checks first */
        d = bad_checks(b) - bad_checks(a);
        break;
    default:
        break;
    }
    /* ties keep the list's own order, newest first */
    return d ? d : (ia > ib) - (ia < ib);
}

static void sort_rows(struct runs_state *s)
{
    if (s->sort != COL_WHEN) {
        sorting = s;
        qsort(s->vis, s->n_vis, sizeof s->vis[0], cmp_run);
        sorting = NULL;
    }
    if (s->sort_desc)
        for (size_t i = 0, j = s->n_vis; i + 1 < j--; i++) {
            size_t t = s->vis[i];
            s->vis[i] = s->vis[j];
            s->vis[j] = t;
        }
}

static void apply_filters(const struct tui_app *app, struct runs_state *s)
{
    free(s->vis);
    s->vis = xmalloc((s->runs.n + 1) * sizeof *s->vis);
    s->n_vis = 0;
    for (size_t i = 0; i < s->runs.n; i++)
        if (passes(app, s, &s->runs.items[i]))
            s->vis[s->n_vis++] = i;
    sort_rows(s);
    s->want_valid = false;
    tui_list_set_count(&s->list, s->n_vis);
}

static const struct cdb_run_info *shown(const struct runs_state *s, size_t row)
{
    return &s->runs.items[s->vis[row]];
}

/* The list is read on a worker thread (tui/bgread.h), as the comparison is: 1,000 runs take a
 * few milliseconds, a year of runs far more than a keystroke may. Until a new list arrives the
 * old one stays on screen. */
static void install(const struct tui_app *app, struct runs_state *s, struct cdb_run_list *l)
{
    if (s->loaded)
        cdb_run_list_free(&s->runs);
    s->runs = *l;
    s->loaded = true;
    apply_filters(app, s);
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
    install(app, s, l);
    free(l);
}

/* A run killed elsewhere (kill -9, a crash, a reboot) stays `running` in the database until a
 * kladder notices that its owner is gone (casedb/runs_reap.h). Opening the database does that
 * once; a TUI left open looks again before it reads the list and whenever the list it shows
 * holds a running run, so such a run turns `interrupted` on the next frame. Looking costs one
 * read of the running runs and takes no write lock unless one is marked. */
static bool shows_running(const struct runs_state *s)
{
    for (size_t i = 0; s->loaded && i < s->runs.n; i++)
        if (s->runs.items[i].run.verdict == CDB_RUNNING)
            return true;
    return false;
}

static int reap_gone(struct tui_app *app, struct runs_state *s)
{
    char err[256];
    int marked = 0;
    /* a database that cannot be written (read-only use) keeps its `running`: nothing to say */
    if (cdb_runs_reap(app->db, &s->here, &marked, err, sizeof err) != 0)
        return 0;
    return marked;
}

static void load(struct tui_app *app, struct runs_state *s)
{
    reap_gone(app, s);
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
    install(app, s, &l);
}

static void *runs_init(struct tui_app *app)
{
    (void)app;
    struct runs_state *s = xcalloc(1, sizeof *s);
    s->rung = -1;
    s->verdict = -1;
    kl_owner_self(&s->here);
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
    struct tui_col col[COL_COUNT];
};

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

/* "2026-11-29T08:51:17Z" -> "2026-11-29 08:51", or "11-29 08:51" in fewer than 16 cells */
static void when_text(const char *iso, int cells, char *buf, size_t len)
{
    if (iso && strlen(iso) >= 16 && cells < 16)
        snprintf(buf, len, "%.5s %.5s", iso + 5, iso + 11);
    else if (iso && strlen(iso) >= 16)
        snprintf(buf, len, "%.10s %.5s", iso, iso + 11);
    else
        snprintf(buf, len, "%s", iso ? iso : "");
}

static void machine_text(const struct cdb_run_info *ri, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s", ri->machine.device ? ri->machine.device : "?",
             ri->machine.target ? ri->machine.target : "");
}

/* "R5", or the rungs a run of several ran: "R1,2,3,5"; "exec" for a program run whole by
 * `kladder exec`, which is on no rung. */
static void rung_text(const struct cdb_run_info *ri, char *buf, size_t len)
{
    if (ri->exec_verdict) {
        snprintf(buf, len, "exec");
        return;
    }
    char r[48];
    tui_fmt_rungs(ri->run.rung > 0 ? 1u << ri->run.rung : ri->rungs, r, sizeof r);
    snprintf(buf, len, "%s%s", strcmp(r, "-") ? "R" : "", r);
}

static const char *suite_text(const struct cdb_run_info *ri)
{
    return ri->run.suite ? ri->run.suite : ri->run.case_id ? ri->run.case_id : "-";
}

static void draw_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct cdb_run_info *ri = shown(c->s, row);
    const struct tui_col *col = c->col;
    bool zh = c->app->lang == TUI_LANG_ZH;
    int y = c->y + line, x = c->x;
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    char buf[256];
    tui_draw_fill(y, x, c->w, base);
    when_text(ri->run.started, col[COL_WHEN].w, buf, sizeof buf);
    if (col[COL_WHEN].w)
        tui_draw_pad(y, x + col[COL_WHEN].x, col[COL_WHEN].w, selected ? base : TUI_ROLE_DIM, buf);
    host_text(ri, buf, sizeof buf);
    if (col[COL_HOST].w)
        tui_draw_pad(y, x + col[COL_HOST].x, col[COL_HOST].w,
                     ri->origin || selected ? base : TUI_ROLE_TITLE, buf);
    machine_text(ri, buf, sizeof buf);
    if (col[COL_MACH].w)
        tui_draw_pad(y, x + col[COL_MACH].x, col[COL_MACH].w, base, buf);
    rung_text(ri, buf, sizeof buf);
    if (col[COL_RUNG].w)
        tui_draw_pad(y, x + col[COL_RUNG].x, col[COL_RUNG].w, base, buf);
    if (col[COL_SUITE].w)
        tui_draw_pad(y, x + col[COL_SUITE].x, col[COL_SUITE].w, base, suite_text(ri));
    tui_fmt_run_verdict(ri->run.verdict, ri->exec_verdict, zh, buf, sizeof buf);
    if (col[COL_VERDICT].w)
        tui_draw_pad(y, x + col[COL_VERDICT].x, col[COL_VERDICT].w,
                     selected ? base : tui_verdict_role(ri->run.verdict), buf);
    tui_fmt_run_counts(ri->counts, ri->caught_fail, ri->caught_hang, ri->run.verdict, zh,
                           buf, sizeof buf);
    if (col[COL_COUNTS].w)
        tui_draw_pad(y, x + col[COL_COUNTS].x, col[COL_COUNTS].w, base, buf);
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

/* Measures what the shown runs' content needs in each column (and the headings), once per
 * change of the rows or of the language. */
static void measure_widths(struct tui_app *app, struct runs_state *s, const char *const *heads)
{
    bool zh = app->lang == TUI_LANG_ZH;
    int *want = s->want;
    for (int i = 0; i < COL_COUNT; i++)
        want[i] = text_width(heads[i]) + 1; /* room for the sort's ▲ or ▼ */
    want[COL_WHEN] = max_int(want[COL_WHEN], 16);
    for (size_t r = 0; r < s->n_vis; r++) {
        const struct cdb_run_info *ri = shown(s, r);
        char buf[256];
        host_text(ri, buf, sizeof buf);
        want[COL_HOST] = max_int(want[COL_HOST], text_width(buf));
        machine_text(ri, buf, sizeof buf);
        want[COL_MACH] = max_int(want[COL_MACH], text_width(buf));
        rung_text(ri, buf, sizeof buf);
        want[COL_RUNG] = max_int(want[COL_RUNG], text_width(buf));
        want[COL_SUITE] = max_int(want[COL_SUITE], text_width(suite_text(ri)));
        tui_fmt_run_verdict(ri->run.verdict, ri->exec_verdict, zh, buf, sizeof buf);
        want[COL_VERDICT] = max_int(want[COL_VERDICT], text_width(buf));
        tui_fmt_run_counts(ri->counts, ri->caught_fail, ri->caught_hang, ri->run.verdict, zh,
                           buf, sizeof buf);
        want[COL_COUNTS] = max_int(want[COL_COUNTS], text_width(buf));
    }
    s->want_valid = true;
    s->want_lang = app->lang;
}

/* Columns as wide as the runs shown need, giving way in the order machine, the start time's
 * year, the counts' tail, host, suite; the counts take what is left. */
static void layout_columns(struct tui_app *app, struct runs_state *s, const char *const *heads,
                           int w, struct tui_col *col)
{
    if (!s->want_valid || s->want_lang != app->lang)
        measure_widths(app, s, heads);
    const int *want = s->want;
    /* The start time gives up its year (11 cells) before the host goes: the host tells a
     * run made here from a pulled one, and the year is rarely in doubt. */
    col[COL_WHEN] = (struct tui_col){.want = want[COL_WHEN], .min = 12, .give = 2,
                                     .keep = true};
    col[COL_HOST] = (struct tui_col){.want = want[COL_HOST],
                                     .min = want[COL_HOST] < 8 ? want[COL_HOST] : 8, .give = 4};
    col[COL_MACH] = (struct tui_col){.want = want[COL_MACH], .min = 12, .give = 1};
    col[COL_RUNG] = (struct tui_col){.want = want[COL_RUNG], .min = 2};
    col[COL_SUITE] = (struct tui_col){.want = want[COL_SUITE], .min = 8, .give = 5};
    col[COL_VERDICT] = (struct tui_col){.want = want[COL_VERDICT], .min = 6};
    /* the counts' first words say the most ("2 failed, 17 bugs caught…"): they narrow to 20
     * cells before the host goes, and take what is left over */
    col[COL_COUNTS] = (struct tui_col){.want = want[COL_COUNTS],
                                       .min = want[COL_COUNTS] < 20 ? want[COL_COUNTS] : 20,
                                       .give = 3, .keep = true, .flex = true};
    for (int i = 0; i < COL_COUNT; i++)
        if (col[i].min > col[i].want)
            col[i].min = col[i].want;
    tui_columns_fit(col, COL_COUNT, w, 2);
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
    if (!s->reading && shows_running(s) && reap_gone(app, s) > 0)
        tui_app_results_changed(app); /* every view showing results reads them again */
    if ((!s->loaded && !s->reading) || s->gen != app->results_gen)
        load(app, s);
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, ymax = r->y + r->h;
    struct draw_ctx c = {.app = app, .s = s, .x = r->x + 1, .w = r->w - 2};
    y = draw_pull(app, s, y, c.x, c.w, ymax - 3);

    static const char *const names[COL_COUNT][2] = {
        {"Started", "开始时间"}, {"Host", "主机"}, {"Machine", "机器"}, {"Rung", "阶梯"},
        {"Suite/case", "套件/案例"}, {"Verdict", "判定"}, {"Checks", "检查"}};
    const char *heads[COL_COUNT];
    for (int i = 0; i < COL_COUNT; i++)
        heads[i] = tui_tr(app, names[i][0], names[i][1]);
    layout_columns(app, s, heads, c.w, c.col);
    tui_draw_fill(y, c.x, c.w, TUI_ROLE_COLHEAD);
    for (int i = 0; i < COL_COUNT; i++) {
        if (!c.col[i].w)
            continue;
        char label[64];
        bool sorted = i == s->sort && (i != COL_WHEN || s->sort_desc);
        /* Started, newest first, is the list's own order: no arrow until it changes. */
        snprintf(label, sizeof label, "%s%s", heads[i],
                 !sorted ? "" : tui_draw_ascii() ? (s->sort_desc ? "v" : "^")
                                                  : (s->sort_desc ? "▼" : "▲"));
        tui_draw_pad(y, c.x + c.col[i].x, c.col[i].w, TUI_ROLE_COLHEAD, label);
    }
    y++;
    s->list_y0 = y;
    if (s->n_vis == 0 && s->reading) {
        tui_draw_text(y + 1, c.x, c.w, TUI_ROLE_DIM, tui_tr(app, "Reading the runs…", "正在读取运行记录…"));
        return;
    }
    if (s->n_vis == 0) {
        bool filtered = s->host[0] || s->rung >= 0 || s->verdict >= 0 || s->search[0];
        tui_draw_text(y + 1, c.x, c.w, TUI_ROLE_DIM,
                      filtered ? tui_tr(app, "No run matches the filters or the search. x clears them.",
                                        "没有符合筛选或搜索的运行。按 x 清除。")
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

/* ---- rerun ---- */

/* The value after `opt` among the recorded command line's words ("--timeout 60" -> "60"), in
 * val; false when absent. The words were joined with spaces when recorded, so only values
 * without spaces (numbers, names) are read back this way. */
static bool argv_value(const char *argv, const char *opt, char *val, size_t len)
{
    size_t n = strlen(opt);
    for (const char *p = argv ? strstr(argv, opt) : NULL; p; p = strstr(p + 1, opt)) {
        if ((p != argv && p[-1] != ' ') || p[n] != ' ')
            continue;
        const char *v = p + n + 1, *end = strchr(v, ' ');
        size_t vl = end ? (size_t)(end - v) : strlen(v);
        if (vl == 0 || vl >= len)
            return false;
        memcpy(val, v, vl);
        val[vl] = '\0';
        return true;
    }
    return false;
}

/* r on a run made here: the same rung and suite (or case), variants, backend, device, repeats
 * and time limit, started again and followed in the live view. A pulled run ran elsewhere, on
 * another machine: it is not rerun here (Y copies its command line). */
static void rerun(struct tui_app *app, const struct cdb_run_info *ri)
{
    if (ri->origin) {
        tui_app_message(app, "%s", tui_tr(app, "r reruns runs made here; this one was pulled from another host (Y copies its command line)",
                                          "r 只重跑本机的运行；这一个是从其他主机拉取的（Y 复制其命令行）"));
        return;
    }
    const char *a = ri->run.argv;
    char suite[256], rung[16], dev[16], rep[16], tmo[16], backend[16];
    static char opt_rung[] = "--rung", opt_suite[] = "--suite", opt_case[] = "--case";
    char *target[4];
    int nt = 0;
    if (ri->run.rung >= 1 && argv_value(a, "--suite", suite, sizeof suite)) {
        snprintf(rung, sizeof rung, "%d", ri->run.rung);
        target[nt++] = opt_rung, target[nt++] = rung, target[nt++] = opt_suite;
        target[nt++] = suite;
    } else if (ri->run.case_id && argv_value(a, "--case", suite, sizeof suite)) {
        target[nt++] = opt_case, target[nt++] = suite;
    } else {
        tui_app_message(app, "%s", tui_tr(app, "This run's command line names no suite or case to run again (Y copies it)",
                                          "此运行的命令行没有可重跑的套件或案例（Y 复制它）"));
        return;
    }
    const char *variant = ri->run.variant && (!strcmp(ri->run.variant, "fixed") ||
                                              !strcmp(ri->run.variant, "buggy"))
                              ? ri->run.variant : "both";
    struct tui_run_opts o = {.target = target, .n_target = nt,
                             .backend = argv_value(a, "--backend", backend, sizeof backend)
                                            ? backend : ri->machine.backend,
                             .device = argv_value(a, "--device", dev, sizeof dev) ? atoi(dev) : 0,
                             .variant = variant,
                             .repeats = argv_value(a, "--repeats", rep, sizeof rep) ? atoi(rep) : 0,
                             .timeout_s = argv_value(a, "--timeout", tmo, sizeof tmo) ? atoi(tmo)
                                                                                      : 60};
    if (o.timeout_s <= 0)
        o.timeout_s = 60;
    struct tui_argv cmd;
    tui_launcher_run_argv(app, &o, &cmd);
    tui_app_open(app, TUI_VIEW_LIVE, &(struct tui_open){.argv = cmd.v});
}


/* o: a suite file of one's own, typed at a prompt that starts with the newest one remembered
 * (Up and Down step through the others); the launch panel then offers its rungs. A file that
 * loads is remembered (recent_suites.h). */
static void suite_chosen(struct tui_app *app, const char *text)
{
    while (*text == ' ')
        text++;
    if (!*text) {
        tui_app_message(app, "%s", tui_tr(app, "No suite file given", "未给出套件文件"));
        return;
    }
    char path[TUI_SEARCH_MAX + 1];
    snprintf(path, sizeof path, "%s", text);
    if (!tui_app_open(app, TUI_VIEW_LAUNCH, &(struct tui_open){.suite_path = path}))
        return;
    char err[256];
    if (tui_recent_suites_add(path, err, sizeof err) != 0)
        tui_app_message(app, "%s", err); /* the suite opened; only the memory of it failed */
}

static void ask_suite(struct tui_app *app)
{
    char *recent[TUI_RECENT_SUITES];
    size_t n = tui_recent_suites_load(recent, TUI_RECENT_SUITES);
    tui_app_ask_path(app, tui_tr(app, "Suite file: ", "套件文件："), recent, n, suite_chosen);
    for (size_t i = 0; i < n; i++)
        free(recent[i]);
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
    case TUI_ACT_LAUNCH:
        /* a run under way is shown, as everywhere; else the selected run is run again */
        if (tui_app_open(app, TUI_VIEW_LIVE, &(struct tui_open){0}) || !s->n_vis)
            return TUI_R_DRAW;
        rerun(app, shown(s, l->sel));
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_COPY:
        if (s->n_vis)
            tui_app_copy(app, shown(s, l->sel)->run.uuid);
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_OPEN_SUITE:
        ask_suite(app);
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_COPY_CMD:
        if (s->n_vis) {
            /* this host's quoted form; a pulled run's only as a comment (tui/cmdline.h) */
            char *cmd = tui_cmdline_copy(shown(s, l->sel)->run.argv, shown(s, l->sel)->origin);
            tui_app_copy(app, cmd);
            free(cmd);
        }
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_HOST:
        cycle_host(app, s);
        tui_list_first(l);
        apply_filters(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_RUNG:
        s->rung = s->rung < 0 ? 1 : s->rung >= tui_app_ladder_len(app) ? -1 : s->rung + 1;
        tui_list_first(l);
        apply_filters(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_VERDICT:
        /* a run's own verdict is never doubt (only checks are): the cycle stops before it */
        s->verdict = s->verdict < 0 ? 0 : s->verdict + 1 >= CDB_DOUBT ? -1 : s->verdict + 1;
        tui_list_first(l);
        apply_filters(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_PULL:
        pull_start(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_SORT:
        s->sort = (s->sort + 1) % COL_COUNT;
        s->sort_desc = false;
        tui_list_first(l);
        apply_filters(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_SORT_REVERSE:
        s->sort_desc = !s->sort_desc;
        tui_list_first(l);
        apply_filters(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_RUNS_CLEAR:
        s->host[0] = '\0';
        s->search[0] = '\0';
        s->rung = s->verdict = -1;
        apply_filters(app, s);
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
                              tui_verdict_word(s->verdict, app->lang == TUI_LANG_ZH));
    if (s->search[0] && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s \"%s\"", tui_tr(app, "search", "搜索"),
                              s->search);
    static const char *const by[COL_COUNT][2] = {
        {"start", "开始时间"}, {"host", "主机"},    {"machine", "机器"},
        {"rung", "阶梯"},      {"suite", "套件"},   {"verdict, failures first", "判定（失败在前）"},
        {"failing checks, most first", "失败的检查（多者在前）"}};
    if ((s->sort != COL_WHEN || s->sort_desc) && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s %s%s", tui_tr(app, "sorted by", "排序："),
                              tui_tr(app, by[s->sort][0], by[s->sort][1]),
                              s->sort_desc ? tui_tr(app, ", reversed", "，倒序") : "");
    if (o < len)
        snprintf(buf + o, len - o, "%s", tui_tr(app, " · P pulls every host", " · P 拉取所有主机"));
}

static bool runs_offers(struct tui_app *app, void *state, enum tui_action act)
{
    (void)state;
    return act == TUI_ACT_SORT || act == TUI_ACT_SORT_REVERSE || tui_app_offers_default(app, act);
}

static void runs_search(struct tui_app *app, void *state, const char *text)
{
    struct runs_state *s = state;
    snprintf(s->search, sizeof s->search, "%s", text);
    tui_list_first(&s->list);
    if (s->loaded)
        apply_filters(app, s);
}

static const char *runs_search_text(void *state)
{
    return ((struct runs_state *)state)->search;
}

static void runs_changed(struct tui_app *app, void *state)
{
    struct runs_state *s = state;
    if (s->loaded && s->search[0]) /* verdict words follow the language */
        apply_filters(app, s);
}

const struct tui_view_ops tui_view_runs = {
    .name = "runs",
    .scope = TUI_SCOPE_RUNS,
    .keys_title = {"Runs", "运行记录"},
    .init = runs_init,
    .fini = runs_fini,
    .draw = runs_draw,
    .action = runs_action,
    .mouse = runs_mouse,
    .status = runs_status,
    .search = runs_search,
    .search_text = runs_search_text,
    .changed = runs_changed,
    .offers = runs_offers,
};
