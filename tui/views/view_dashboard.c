/* Dashboard: the 7 gaps × the ladder's rungs (eight, or as many as the engine's table and the
 * index have: tui_app_ladder_len). A marked cell means the rung closes the gap (rungs.json
 * "closes"); the number is how many cases have that primary gap and lowest rung. Enter on a
 * cell opens the case list filtered to it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/runs_latest.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/rung.h"
#include "tui/draw.h"
#include "tui/results_fmt.h"
#include "tui/views/view.h"

/* The latest verdict per rung of one host ("local" for runs made here), under the matrix: one
 * row for every host that has runs (a fleet's nodes included), as many as the screen holds;
 * the ones that do not fit are counted below them. */
struct dash_host {
    char name[72];
    int verdict[CDB_RUNG_MAX]; /* -1: no finished run of that rung */
    int runs[CDB_RUNG_MAX], failed[CDB_RUNG_MAX]; /* its runs of that rung, and those failed */
    double score[CDB_RUNG_MAX]; /* a scored rung's latest score (struct cdb_latest); NAN none */
};

struct dash_state {
    struct dash_host *hosts;
    int n_hosts, cap_hosts;
    int more_hosts; /* rows the last frame had no room for */
    unsigned results_gen;
    bool results_loaded;
    int counts[CDB_GAPS][CDB_RUNG_MAX];
    int total;
    /* the matrix's columns: the ladder's length (tui_app_ladder_len), or the highest rung a
     * host has results of (a pulled host's kladder may run a rung this one does not) */
    int n_rungs, top_result;
    int gap, rung; /* cursor, 0-based */
    /* geometry of the last frame, for the mouse */
    int y0, x0, label_w, cell_w;
};

static void dash_load(struct tui_app *app, struct dash_state *s)
{
    memset(s->counts, 0, sizeof s->counts);
    s->total = 0;
    s->n_rungs = tui_app_ladder_len(app); /* dash_draw widens it to the results' */
    struct cdb_case_list l = {0};
    char err[256];
    if (cdb_cases_query(app->db, NULL, &l, err, sizeof err) != 0) {
        tui_app_message(app, "%s", err);
        return;
    }
    for (size_t i = 0; i < l.n; i++) {
        int g = l.items[i].gap, r = l.items[i].rung;
        if (g >= 1 && g <= CDB_GAPS && r >= 1 && r <= CDB_RUNG_MAX)
            s->counts[g - 1][r - 1]++;
        s->total++;
    }
    cdb_case_list_free(&l);
}

static struct dash_host *host_slot(struct dash_state *s, const char *name)
{
    for (int i = 0; i < s->n_hosts; i++)
        if (strcmp(s->hosts[i].name, name) == 0)
            return &s->hosts[i];
    if (s->n_hosts == s->cap_hosts) {
        s->cap_hosts = s->cap_hosts ? 2 * s->cap_hosts : 8;
        s->hosts = xrealloc(s->hosts, (size_t)s->cap_hosts * sizeof *s->hosts);
    }
    struct dash_host *h = &s->hosts[s->n_hosts++];
    snprintf(h->name, sizeof h->name, "%s", name);
    for (int r = 0; r < CDB_RUNG_MAX; r++)
        h->verdict[r] = -1, h->runs[r] = h->failed[r] = 0, h->score[r] = NAN;
    return h;
}

/* The rungs whose checks carry a score (rung 8: a model end to end), as the engine's table
 * says: their cells show the score. */
static unsigned scored_rungs(void)
{
    unsigned m = 0;
    for (size_t i = 0; i < eng_rung_count(); i++) {
        const struct eng_rung *R = eng_rung_nth(i);
        if (R->runs_end_to_end && R->number > 0 && R->number <= CDB_RUNG_MAX)
            m |= 1u << R->number;
    }
    return m;
}

/* The newest finished verdict of each (host, rung), from one cheap pass over the runs. */
static void dash_load_results(struct tui_app *app, struct dash_state *s)
{
    s->n_hosts = s->more_hosts = s->top_result = 0;
    s->results_loaded = true;
    s->results_gen = app->results_gen;
    struct cdb_latest *l = NULL;
    size_t n = 0;
    char err[256];
    if (cdb_latest_verdicts(app->db, 16, scored_rungs(), &l, &n, err, sizeof err) != 0) {
        tui_app_message(app, "%s", err);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        struct dash_host *h = host_slot(s, l[i].source[0] ? l[i].source : "local");
        int r = l[i].rung - 1;
        if (h && r >= 0 && r < CDB_RUNG_MAX) {
            s->top_result = r + 1 > s->top_result ? r + 1 : s->top_result;
            h->verdict[r] = (int)l[i].verdict;
            h->runs[r] = l[i].runs;
            h->failed[r] = l[i].failed;
            h->score[r] = l[i].score;
        }
    }
    free(l);
    /* local first, the pulled hosts after it in the order of their newest run */
    for (int i = 1; i < s->n_hosts; i++)
        if (strcmp(s->hosts[i].name, "local") == 0) {
            struct dash_host t = s->hosts[i];
            memmove(s->hosts + 1, s->hosts, (size_t)i * sizeof t);
            s->hosts[0] = t;
        }
}

static void *dash_init(struct tui_app *app)
{
    struct dash_state *s = xcalloc(1, sizeof *s);
    dash_load(app, s);
    return s;
}

static void dash_fini(void *state)
{
    struct dash_state *s = state;
    free(s->hosts);
    free(s);
}

static bool closes(const struct cdb_rung *r, int gap)
{
    for (size_t i = 0; r && i < r->n_closes; i++)
        if (r->closes[i] == gap)
            return true;
    return false;
}

static enum tui_role gap_role(int gap)
{
    return gap >= 1 && gap <= 7 ? (enum tui_role)(TUI_ROLE_GAP1 + gap - 1) : TUI_ROLE_NORMAL;
}

/* Wrapped text under the matrix; returns the next free row. */
static int para(int y, int x, int w, int ymax, enum tui_role role, const char *text)
{
    size_t n;
    char **lines = text_wrap(text, w, &n);
    for (size_t i = 0; i < n && y < ymax; i++, y++)
        tui_draw_text(y, x, w, role, lines[i]);
    text_lines_free(lines, n);
    return y;
}

/* The title and the legend; returns the next free row. */
static int draw_intro(struct tui_app *app, int y, int x, int w, int ymax)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s",
             tui_tr(app, "Which rung of the ladder closes which gap",
                    "验证阶梯的哪一级填补哪个缺口"));
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    /* "· 1" is a case first caught by a rung that does not close its gap: the legend says
     * what a dot and a number each mean, so the two read together */
    snprintf(buf, sizeof buf, "%s %s   %s %s   %s",
             tui_glyph(TUI_GLYPH_MARK),
             tui_tr(app, "the rung closes the gap", "该级填补该缺口"),
             tui_glyph(TUI_GLYPH_DOT),
             tui_tr(app, "it does not", "不填补"),
             tui_tr(app, "number: cases of the gap first caught at the rung",
                    "数字：该缺口的案例中最先由该级发现的个数"));
    return para(y, x, w, ymax, TUI_ROLE_DIM, buf);
}

/* Column geometry: a label column for the gap names, then a cell for each rung, all of one
 * width; kept in s for the mouse. */
static void set_geometry(struct tui_app *app, struct dash_state *s, int x, int w)
{
    int label_w = 12;
    for (int i = 1; i <= CDB_GAPS; i++) {
        const struct cdb_gap *g = tui_app_gap(app, i);
        int lw = g ? text_width(tui_tr(app, g->name_en, g->name_zh)) + 3 : 0;
        label_w = lw > label_w ? lw : label_w;
    }
    /* a gap's whole name wherever the rung cells keep 6 columns each (a mark and a count):
     * from about 90 columns on; narrower, the name is cut */
    if (label_w > w - s->n_rungs * 6)
        label_w = w - s->n_rungs * 6;
    int cell_w = (w - label_w) / s->n_rungs;
    if (cell_w > 22)
        cell_w = 22;
    if (cell_w < 4)
        cell_w = 4;
    s->x0 = x;
    s->label_w = label_w;
    s->cell_w = cell_w;
}

/* Header row: rung numbers, and names when the cells are wide enough. */
static void draw_rung_heads(struct tui_app *app, const struct dash_state *s, int y)
{
    int x = s->x0, label_w = s->label_w, cell_w = s->cell_w;
    char buf[512];
    /* The corner names rows and columns; where it would touch R1 the rows' name alone. A cell
     * is kept free before the first rung's heading, as between rungs. */
    const char *corner = tui_tr(app, "gap \\ rung", "缺口 \\ 阶梯");
    if (text_width(corner) > label_w - 1)
        corner = tui_tr(app, "gap", "缺口");
    tui_draw_pad(y, x, label_w, TUI_ROLE_COLHEAD, "");
    tui_draw_pad(y, x, label_w - 1, TUI_ROLE_COLHEAD, corner);
    for (int j = 0; j < s->n_rungs; j++) {
        const char *name = tui_app_rung_name(app, j + 1);
        if (cell_w >= 10 && name)
            snprintf(buf, sizeof buf, "%d %s", j + 1, name);
        else
            snprintf(buf, sizeof buf, "R%d", j + 1);
        tui_draw_pad(y, x + label_w + j * cell_w, cell_w - 1, TUI_ROLE_COLHEAD, buf);
    }
}

/* One row per gap: a cell per rung with its mark and count. Returns the next free row. */
static int draw_gap_rows(struct tui_app *app, const struct dash_state *s, int y, int ymax)
{
    int x = s->x0, label_w = s->label_w, cell_w = s->cell_w;
    char buf[512];
    for (int i = 0; i < CDB_GAPS && y < ymax; i++, y++) {
        const struct cdb_gap *g = tui_app_gap(app, i + 1);
        snprintf(buf, sizeof buf, "%d %s", i + 1, g ? tui_tr(app, g->name_en, g->name_zh) : "?");
        tui_draw_pad(y, x, label_w, gap_role(i + 1), buf);
        for (int j = 0; j < s->n_rungs; j++) {
            bool mark = closes(tui_app_rung(app, j + 1), i + 1);
            bool cur = i == s->gap && j == s->rung;
            int cx = x + label_w + j * cell_w;
            int n = s->counts[i][j];
            char cell[32];
            if (n)
                snprintf(cell, sizeof cell, " %s %d", mark ? tui_glyph(TUI_GLYPH_MARK)
                                                           : tui_glyph(TUI_GLYPH_DOT), n);
            else
                snprintf(cell, sizeof cell, " %s", mark ? tui_glyph(TUI_GLYPH_MARK)
                                                        : tui_glyph(TUI_GLYPH_DOT));
            enum tui_role role = cur ? TUI_ROLE_SELECTED
                                 : mark ? TUI_ROLE_MARK
                                        : TUI_ROLE_DIM;
            if (!cur && n && !mark)
                role = TUI_ROLE_WARN; /* cases in a cell no rung closes: worth a look */
            tui_draw_pad(y, cx, cell_w - 1, role, cell);
        }
    }
    return y;
}

/* A host's cell of rung j+1 (verdict v >= 0): the verdict's mark, the same in every language
 * and at every width (the legend under the rows says the marks), and a scored rung's score. */
static void host_cell(const struct dash_host *dh, int j, int v, int cell_w, char *buf, size_t len)
{
    if (!isnan(dh->score[j]) && cell_w >= 7)
        snprintf(buf, len, " %s %.3g", tui_verdict_glyph(v), dh->score[j]);
    else
        snprintf(buf, len, " %s", tui_verdict_glyph(v));
}

/* What the host rows' marks mean, one line under them: each verdict a row shows, in order. */
static int draw_host_legend(struct tui_app *app, const struct dash_state *s, int y, int w,
                            int ymax)
{
    if (s->n_hosts == s->more_hosts || y >= ymax)
        return y;
    bool shown[CDB_VERDICT_COUNT] = {false};
    for (int h = 0; h < s->n_hosts - s->more_hosts; h++)
        for (int j = 0; j < s->n_rungs; j++)
            if (s->hosts[h].verdict[j] >= 0 && s->hosts[h].verdict[j] < CDB_VERDICT_COUNT)
                shown[s->hosts[h].verdict[j]] = true;
    char buf[512];
    bool zh = app->lang == TUI_LANG_ZH;
    size_t o = (size_t)snprintf(buf, sizeof buf, "%s %s", tui_glyph(TUI_GLYPH_ARROW),
                                tui_tr(app, "each machine's latest run of each rung:",
                                       "每台机器每一阶梯最近一次运行："));
    for (int v = 0; v < CDB_VERDICT_COUNT && o < sizeof buf; v++)
        if (shown[v])
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s %s", zh ? " " : "  ",
                                  tui_verdict_glyph(v), tui_verdict_word(v, zh));
    tui_draw_text(y++, s->x0, w, TUI_ROLE_DIM, buf);
    return y;
}

/* One row per host under the matrix: its latest verdict per rung. Returns the next free row. */
static int draw_host_rows(struct tui_app *app, struct dash_state *s, int y, int ymax)
{
    int x = s->x0, label_w = s->label_w, cell_w = s->cell_w;
    char buf[512];
    /* a line is kept for the legend under the rows; when not every host fits, one more says
     * how many are left out */
    int fit = ymax - y - 1, rows = s->n_hosts <= fit ? s->n_hosts : fit - 1;
    s->more_hosts = rows < 0 ? s->n_hosts : s->n_hosts - rows;
    for (int h = 0; h < rows && y < ymax; h++, y++) {
        const struct dash_host *dh = &s->hosts[h];
        snprintf(buf, sizeof buf, "%s %s", tui_glyph(TUI_GLYPH_ARROW),
                 strcmp(dh->name, "local") == 0 ? tui_tr(app, "local", "本机") : dh->name);
        tui_draw_pad(y, x, label_w, TUI_ROLE_TITLE, buf);
        for (int j = 0; j < s->n_rungs; j++) {
            int v = dh->verdict[j];
            int cx = x + label_w + j * cell_w;
            if (v < 0) {
                tui_draw_pad(y, cx, cell_w - 1, TUI_ROLE_DIM, "");
                continue;
            }
            host_cell(dh, j, v, cell_w, buf, sizeof buf);
            tui_draw_pad(y, cx, cell_w - 1, tui_verdict_role(v), buf);
        }
    }
    return y;
}

/* Where a host ran a rung more than once and some runs failed, the latest verdict is not the
 * whole story: say how many failed, in words, one line per such host; before them, how many
 * hosts had no room. Returns the next free row. */
static int draw_failed_runs(struct tui_app *app, const struct dash_state *s, int y, int w,
                            int ymax)
{
    int x = s->x0;
    char buf[512];
    /* the hosts left out first: the line draw_host_rows kept for them */
    if (s->more_hosts && y < ymax) {
        snprintf(buf, sizeof buf, "+%d %s", s->more_hosts,
                 tui_tr(app, "more hosts (Runs view, H filters by host)", "个主机（见运行视图，H 按主机筛选）"));
        tui_draw_text(y++, x, w, TUI_ROLE_DIM, buf);
    }
    for (int h = 0; h < s->n_hosts - s->more_hosts && y < ymax; h++) {
        const struct dash_host *dh = &s->hosts[h];
        size_t o = 0;
        buf[0] = '\0';
        for (int j = 0; j < s->n_rungs && o < sizeof buf; j++) {
            if (dh->runs[j] < 2 || dh->failed[j] == 0)
                continue;
            if (app->lang == TUI_LANG_ZH)
                o += (size_t)snprintf(buf + o, sizeof buf - o, "%sR%d %d 次中 %d 次", o ? "，" : "",
                                      j + 1, dh->runs[j], dh->failed[j]);
            else
                o += (size_t)snprintf(buf + o, sizeof buf - o, "%sR%d %d of %d", o ? ", " : "",
                                      j + 1, dh->failed[j], dh->runs[j]);
        }
        if (!buf[0])
            continue;
        char line[640]; /* "  ", a name (72), the words and buf (512) */
        const char *name = strcmp(dh->name, "local") == 0 ? tui_tr(app, "local", "本机") : dh->name;
        if (app->lang == TUI_LANG_ZH)
            snprintf(line, sizeof line, "  %s 失败的运行：%s", name, buf);
        else
            snprintf(line, sizeof line, "  %s: runs that failed: %s", name, buf);
        tui_draw_text(y++, x, w, TUI_ROLE_WARN, line);
    }
    return y;
}

/* The cell under the cursor, explained, and the size of the index. */
static void draw_cell_text(struct tui_app *app, const struct dash_state *s, int y, int w,
                           int ymax)
{
    int x = s->x0;
    char buf[512];
    const struct cdb_gap *g = tui_app_gap(app, s->gap + 1);
    const struct cdb_rung *rg = tui_app_rung(app, s->rung + 1);
    int n = s->counts[s->gap][s->rung];
    if (y < ymax) {
        snprintf(buf, sizeof buf, "%s %d %s %s %s %d %s%s%d %s%s",
                 tui_tr(app, "Gap", "缺口"), s->gap + 1, g ? tui_tr(app, g->name_en, g->name_zh) : "",
                 tui_glyph(TUI_GLYPH_TIMES), tui_tr(app, "rung", "阶梯"), s->rung + 1,
                 rg ? tui_tr(app, rg->name_en, rg->name_zh) : "", tui_tr(app, ": ", "："), n,
                 tui_tr(app, n == 1 ? "case" : "cases", "个案例"),
                 closes(rg, s->gap + 1) ? tui_tr(app, "; this rung closes this gap",
                                                 "；该级填补此缺口")
                                        : "");
        tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    }
    if (g && y < ymax)
        y = para(y, x, w, ymax, TUI_ROLE_NORMAL, tui_tr(app, g->summary_en, g->summary_zh));
    if (rg && y < ymax) {
        snprintf(buf, sizeof buf, "%s %d %s%s%s", tui_tr(app, "Rung", "阶梯"), rg->n,
                 tui_tr(app, rg->name_en, rg->name_zh), tui_tr(app, ": ", "："),
                 tui_tr(app, rg->runs_en, rg->runs_zh));
        y = para(y, x, w, ymax, TUI_ROLE_NORMAL, buf);
    } else if (y < ymax && tui_app_rung_name(app, s->rung + 1)) {
        /* a rung the engine runs that the case index does not teach (yet) */
        snprintf(buf, sizeof buf, "%s %d %s%s%s", tui_tr(app, "Rung", "阶梯"), s->rung + 1,
                 tui_app_rung_name(app, s->rung + 1), tui_tr(app, ": ", "："),
                 tui_tr(app, "run by this kladder; the case index has no text for it",
                        "本 kladder 可运行；案例索引中没有它的说明"));
        y = para(y, x, w, ymax, TUI_ROLE_NORMAL, buf);
    }
    if (y + 1 < ymax) {
        y++;
        if (app->lang == TUI_LANG_ZH)
            snprintf(buf, sizeof buf, "索引中共 %d 个案例。按 Enter 列出此格中的案例。", s->total);
        else
            snprintf(buf, sizeof buf, "%d cases in the index. Enter lists the cases of the cell.",
                     s->total);
        tui_draw_text(y, x, w, TUI_ROLE_DIM, buf);
    }
}

static void dash_draw(struct tui_app *app, void *state)
{
    struct dash_state *s = state;
    const struct tui_rect *r = &app->lay.body;
    int x = r->x + 1, w = r->w - 2, y = r->y, ymax = r->y + r->h;
    y = draw_intro(app, y, x, w, ymax) + 1;
    if (!s->results_loaded || s->results_gen != app->results_gen)
        dash_load_results(app, s);
    s->n_rungs = tui_app_ladder_len(app);
    s->n_rungs = s->top_result > s->n_rungs ? s->top_result : s->n_rungs;
    if (s->rung >= s->n_rungs) /* the index was replaced by a shorter one */
        s->rung = s->n_rungs - 1;
    set_geometry(app, s, x, w);
    draw_rung_heads(app, s, y++);
    s->y0 = y;
    y = draw_gap_rows(app, s, y, ymax);
    y = draw_host_rows(app, s, y, ymax);
    y = draw_host_legend(app, s, y, w, ymax);
    y = draw_failed_runs(app, s, y, w, ymax);
    draw_cell_text(app, s, y + 1, w, ymax);
}

static unsigned open_cell(struct tui_app *app, struct dash_state *s)
{
    tui_app_open(app, TUI_VIEW_CASES, &(struct tui_open){.gap = s->gap + 1, .rung = s->rung + 1});
    return TUI_R_DRAW;
}

static unsigned dash_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct dash_state *s = state;
    switch (act) {
    case TUI_ACT_DOWN:
        s->gap = s->gap + 1 < CDB_GAPS ? s->gap + 1 : s->gap;
        return TUI_R_DRAW;
    case TUI_ACT_UP:
        s->gap = s->gap > 0 ? s->gap - 1 : 0;
        return TUI_R_DRAW;
    case TUI_ACT_RIGHT:
        s->rung = s->rung + 1 < s->n_rungs ? s->rung + 1 : s->rung;
        return TUI_R_DRAW;
    case TUI_ACT_LEFT:
        s->rung = s->rung > 0 ? s->rung - 1 : 0;
        return TUI_R_DRAW;
    case TUI_ACT_FIRST:
    case TUI_ACT_PAGE_UP:
        s->gap = 0;
        return TUI_R_DRAW;
    case TUI_ACT_LAST:
    case TUI_ACT_PAGE_DOWN:
        s->gap = CDB_GAPS - 1;
        return TUI_R_DRAW;
    case TUI_ACT_OPEN:
        return open_cell(app, s);
    case TUI_ACT_LAUNCH:
        tui_app_open(app, TUI_VIEW_LAUNCH,
                     &(struct tui_open){.gap = s->gap + 1, .rung = s->rung + 1});
        return TUI_R_DRAW;
    case TUI_ACT_SEARCH:
        /* Search lives in the case list: go there (not into an open detail) and open the
         * prompt. */
        app->detail_open = false;
        tui_app_show(app, TUI_VIEW_CASES);
        tui_app_prompt_open(app);
        return TUI_R_DRAW;
    default:
        return TUI_R_UNHANDLED;
    }
}

static unsigned dash_mouse(struct tui_app *app, void *state, int y, int x, int wheel)
{
    struct dash_state *s = state;
    if (wheel) {
        s->gap += wheel;
        s->gap = s->gap < 0 ? 0 : s->gap >= CDB_GAPS ? CDB_GAPS - 1 : s->gap;
        return TUI_R_DRAW;
    }
    int i = y - s->y0, cx = x - s->x0 - s->label_w;
    if (i < 0 || i >= CDB_GAPS || cx < 0 || s->cell_w <= 0 || cx / s->cell_w >= s->n_rungs)
        return TUI_R_NONE;
    int j = cx / s->cell_w;
    if (i == s->gap && j == s->rung)
        return open_cell(app, s); /* a second click opens, like Enter */
    s->gap = i;
    s->rung = j;
    return TUI_R_DRAW;
}

static void dash_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    (void)state;
    snprintf(buf, len, "%s",
             tui_tr(app, "Arrows or h/j/k/l move, Enter opens the cell, Tab switches view",
                    "方向键或 h/j/k/l 移动，Enter 打开格子，Tab 切换视图"));
}

static void dash_refresh(struct tui_app *app, void *state)
{
    (void)app, (void)state;
}

/* `/` searches the case list from here; n and N have nothing to move between. */
static bool dash_offers(struct tui_app *app, void *state, enum tui_action act)
{
    (void)state;
    return act == TUI_ACT_SEARCH || tui_app_offers_default(app, act);
}

const struct tui_view_ops tui_view_dashboard = {
    .name = "dashboard",
    .scope = TUI_SCOPE_GLOBAL,
    .init = dash_init,
    .fini = dash_fini,
    .draw = dash_draw,
    .action = dash_action,
    .mouse = dash_mouse,
    .status = dash_status,
    .changed = dash_refresh,
    .offers = dash_offers,
};
