/* Case detail: everything about one case as a scrollable page with a cursor line — summary,
 * figures, the test that catches it, the probability helper for timing cases, the rung and what
 * it runs, references, related cases (Enter follows one; Esc comes back) and notes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "tui/views/doc.h"
#include "tui/draw.h"
#include "tui/views/prob.h"
#include "tui/views/model_vs_unit.h"
#include "tui/views/view.h"

#define HISTORY_MAX 32

struct detail_state {
    struct cdb_case c;
    bool loaded;
    char *history[HISTORY_MAX]; /* cases to return to, most recent last */
    size_t n_hist;
    struct tui_doc doc;
    enum tui_lang lang;
    bool stale;
    double n_user; /* the probability helper's adjustable N */
    char term[TUI_SEARCH_MAX + 1];
};

static void *detail_init(struct tui_app *app)
{
    (void)app;
    struct detail_state *s = xcalloc(1, sizeof *s);
    s->n_user = 100;
    s->stale = true;
    return s;
}

static void detail_fini(void *state)
{
    struct detail_state *s = state;
    if (s->loaded)
        cdb_case_free(&s->c);
    for (size_t i = 0; i < s->n_hist; i++)
        free(s->history[i]);
    tui_doc_free(&s->doc);
    free(s);
}

static bool load(struct tui_app *app, struct detail_state *s, const char *id)
{
    struct cdb_case c;
    char err[256];
    memset(&c, 0, sizeof c);
    int rc = cdb_case_get(app->db, id, &c, err, sizeof err);
    if (rc != 1) {
        if (rc == 0)
            tui_app_message(app, "%s %s", tui_tr(app, "No such case:", "没有这个案例："), id);
        else
            tui_app_message(app, "%s", err);
        if (rc == 0)
            cdb_case_free(&c);
        return false;
    }
    if (s->loaded)
        cdb_case_free(&s->c);
    s->c = c;
    s->loaded = true;
    s->stale = true;
    s->term[0] = '\0';
    tui_list_reset(&s->doc.list, 0);
    return true;
}

/* Shows case id; push: Esc comes back to the case shown now. */
static bool show_case(struct tui_app *app, struct detail_state *s, const char *id, bool push)
{
    char *prev = push && s->loaded ? xstrdup(s->c.id) : NULL;
    if (!load(app, s, id)) {
        free(prev);
        return false;
    }
    if (!push) {
        for (size_t i = 0; i < s->n_hist; i++)
            free(s->history[i]);
        s->n_hist = 0;
    } else if (prev) {
        if (s->n_hist == HISTORY_MAX) { /* forget the oldest */
            free(s->history[0]);
            memmove(s->history, s->history + 1, (HISTORY_MAX - 1) * sizeof s->history[0]);
            s->n_hist--;
        }
        s->history[s->n_hist++] = prev;
    }
    app->detail_open = true;
    tui_app_show(app, TUI_VIEW_CASES);
    return true;
}

/* A case opened from the list: the cases followed before are forgotten. */
static bool detail_open(struct tui_app *app, void *state, const struct tui_open *what)
{
    return show_case(app, state, what->id, false);
}

/* ---- building the page ---- */

static enum tui_role gap_role(int gap)
{
    return gap >= 1 && gap <= 7 ? (enum tui_role)(TUI_ROLE_GAP1 + gap - 1) : TUI_ROLE_NORMAL;
}

static void heading(struct tui_doc *d, const char *text)
{
    tui_doc_blank(d);
    tui_doc_add(d, TUI_ROLE_COLHEAD, text);
}

#define LABEL_W 12

static void field(struct tui_doc *d, int w, const char *label, enum tui_role role, const char *text)
{
    tui_doc_wrap(d, w, 0, role, text, label, LABEL_W, TUI_ROLE_DIM);
}

static void add_prob(struct tui_app *app, struct detail_state *s, int w)
{
    struct tui_doc *d = &s->doc;
    const struct cdb_case *c = &s->c;
    char buf[512], a[48], b[48], p50[48], p95[48];
    heading(d, tui_tr(app, "Probability helper: how many calls catch it",
                      "概率助手：需要多少次调用才能发现它"));
    tui_doc_wrap(d, w, 2, TUI_ROLE_DIM,
                 tui_tr(app, "P(N) = 1 - (1 - p)^N for N independent calls. +/- change the last N.",
                        "N 次独立调用发现它的概率 P(N) = 1 - (1 - p)^N。按 +/- 调整最后一行的 N。"),
                 NULL, 0, TUI_ROLE_NORMAL);
    for (size_t i = 0; i < c->n_rates; i++) {
        const struct cdb_rate *r = &c->rates[i];
        double p = tui_prob_rate(r->failures, r->trials);
        tui_prob_format_count(r->failures, a, sizeof a);
        tui_prob_format_count(r->trials, b, sizeof b);
        snprintf(buf, sizeof buf, "%s %s %s: %s", a, tui_tr(app, "in", "/"), b,
                 tui_tr(app, r->label_en, r->label_zh));
        tui_doc_blank(d);
        tui_doc_wrap(d, w, 2, TUI_ROLE_TITLE, buf, NULL, 0, TUI_ROLE_NORMAL);
        snprintf(buf, sizeof buf, "p = %.3g %s", p, tui_tr(app, "per call", "每次调用"));
        tui_doc_wrap(d, w, 4, TUI_ROLE_NORMAL, buf, NULL, 0, TUI_ROLE_NORMAL);
        const double ns[] = {1, 1e3, 1e6, s->n_user};
        for (int k = 0; k < 4; k++) {
            char nbuf[64], pct[32];
            tui_prob_format_count(ns[k], nbuf, sizeof nbuf);
            tui_prob_format_pct(tui_prob_catch(p, ns[k]), pct, sizeof pct);
            char *prefix = xasprintf("    N = %s%s", nbuf, k == 3 ? " (+/-)" : "");
            tui_doc_wrap(d, w, 0, k == 3 ? TUI_ROLE_TITLE : TUI_ROLE_NORMAL, pct, prefix, 28,
                         k == 3 ? TUI_ROLE_KEY : TUI_ROLE_NORMAL);
            free(prefix);
        }
        tui_prob_format_count(tui_prob_calls_for(p, 0.5), p50, sizeof p50);
        tui_prob_format_count(tui_prob_calls_for(p, 0.95), p95, sizeof p95);
        snprintf(buf, sizeof buf, "%s N = %s   %s N = %s", tui_tr(app, "50% needs", "50% 需要"),
                 p50, tui_tr(app, "95% needs", "95% 需要"), p95);
        tui_doc_wrap(d, w, 4, TUI_ROLE_OK, buf, NULL, 0, TUI_ROLE_NORMAL);
    }
}

/* "a, b, c" of n strings into buf. */
static void join(char *buf, size_t len, char *const *items, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", items[i]);
}

/* The id and title, then one labelled field each: gap, other gaps, rung, symptoms, models,
 * reproducer. */
static void add_fields(struct tui_app *app, struct tui_doc *d, const struct cdb_case *c, int w)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s  %s %s %s", c->id, c->repo, tui_glyph(TUI_GLYPH_DOT),
             c->arch ? c->arch : "");
    struct tui_doc_line *l = tui_doc_add(d, TUI_ROLE_TITLE, buf);
    if (!c->verified) {
        l->badge = xstrdup(tui_tr(app, " unverified ", " 未核实 "));
        l->badge_role = TUI_ROLE_BADGE;
    }
    tui_doc_wrap(d, w, 0, TUI_ROLE_TITLE, tui_tr(app, c->title_en, c->title_zh), NULL, 0, 0);
    tui_doc_blank(d);

    const struct cdb_gap *g = tui_app_gap(app, c->gap);
    snprintf(buf, sizeof buf, "%d %s", c->gap, g ? tui_tr(app, g->name_en, g->name_zh) : "");
    field(d, w, tui_tr(app, "Gap", "缺口"), gap_role(c->gap), buf);
    if (c->n_gaps) {
        size_t o = 0;
        buf[0] = '\0';
        for (size_t i = 0; i < c->n_gaps && o < sizeof buf; i++) {
            const struct cdb_gap *g2 = tui_app_gap(app, c->gaps[i]);
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%d %s", i ? ", " : "", c->gaps[i],
                                  g2 ? tui_tr(app, g2->name_en, g2->name_zh) : "");
        }
        field(d, w, tui_tr(app, "Also", "也属于"), TUI_ROLE_NORMAL, buf);
    }
    const struct cdb_rung *rg = tui_app_rung(app, c->rung);
    snprintf(buf, sizeof buf, "%d %s", c->rung, rg ? tui_tr(app, rg->name_en, rg->name_zh) : "");
    field(d, w, tui_tr(app, "Rung", "阶梯"), TUI_ROLE_NORMAL, buf);
    if (c->n_symptoms) {
        join(buf, sizeof buf, c->symptoms, c->n_symptoms);
        field(d, w, tui_tr(app, "Symptoms", "症状"), TUI_ROLE_WARN, buf);
    }
    if (c->n_models) {
        join(buf, sizeof buf, c->models, c->n_models);
        field(d, w, tui_tr(app, "Models", "模型"), TUI_ROLE_NORMAL, buf);
    }
    if (c->reproducer)
        field(d, w, tui_tr(app, "Reproducer", "复现"), TUI_ROLE_NORMAL, c->reproducer);
}

/* Each figure's value in a column, its label beside it. */
static void add_figures(struct tui_app *app, struct tui_doc *d, const struct cdb_case *c, int w)
{
    heading(d, tui_tr(app, "Figures", "数字"));
    int vw = 0;
    for (size_t i = 0; i < c->n_figures; i++) {
        int x = text_width(c->figures[i].value);
        vw = x > vw ? x : vw;
    }
    vw = vw + 4 > w / 2 ? w / 2 : vw + 4;
    for (size_t i = 0; i < c->n_figures; i++) {
        char *prefix = xasprintf("  %s", c->figures[i].value);
        tui_doc_wrap(d, w, 0, TUI_ROLE_NORMAL,
                     tui_tr(app, c->figures[i].label_en, c->figures[i].label_zh), prefix, vw,
                     TUI_ROLE_OK);
        free(prefix);
    }
}

/* Each reference: kind, state and date beside its name, an unverified badge, title and URL. */
static void add_refs(struct tui_app *app, struct tui_doc *d, const struct cdb_case *c, int w)
{
    char buf[1024];
    heading(d, tui_tr(app, "References", "引用"));
    for (size_t i = 0; i < c->n_refs; i++) {
        const struct cdb_ref *r = &c->refs[i];
        size_t o = 0;
        buf[0] = '\0';
        const char *parts[] = {r->kind, r->state, r->date};
        for (int k = 0; k < 3; k++)
            if (parts[k] && *parts[k])
                o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", o ? " · " : "", parts[k]);
        char *prefix = xasprintf("  %s", r->ref);
        tui_doc_wrap(d, w, 0, TUI_ROLE_NORMAL, buf, prefix, 18, TUI_ROLE_TITLE);
        free(prefix);
        struct tui_doc_line *l = &d->lines[d->n - 1];
        if (!r->verified) {
            l->badge = xstrdup(tui_tr(app, " unverified ", " 未核实 "));
            l->badge_role = TUI_ROLE_BADGE;
        }
        if (r->title && *r->title)
            tui_doc_wrap(d, w, 4, TUI_ROLE_NORMAL, r->title, NULL, 0, 0);
        if (r->url && *r->url)
            tui_doc_wrap(d, w, 4, TUI_ROLE_LINK, r->url, NULL, 0, 0);
    }
}

/* One link per related case, with its title from the index. */
static void add_related(struct tui_app *app, struct tui_doc *d, const struct cdb_case *c)
{
    char buf[1024];
    heading(d, tui_tr(app, "Related cases (Enter opens)", "相关案例（Enter 打开）"));
    int idw = 0;
    for (size_t i = 0; i < c->n_related; i++) {
        int x = text_width(c->related[i]);
        idw = x > idw ? x : idw;
    }
    for (size_t i = 0; i < c->n_related; i++) {
        struct cdb_case rel;
        char err[128];
        memset(&rel, 0, sizeof rel);
        int rc = cdb_case_get(app->db, c->related[i], &rel, err, sizeof err);
        char *idp = text_fit_pad(c->related[i], idw, tui_draw_ascii());
        snprintf(buf, sizeof buf, "  %s %s  %s", tui_glyph(TUI_GLYPH_ARROW), idp,
                 rc == 1 ? tui_tr(app, rel.title_en, rel.title_zh)
                         : tui_tr(app, "(not in the index)", "（不在索引中）"));
        free(idp);
        if (rc != -1)
            cdb_case_free(&rel);
        struct tui_doc_line *l = tui_doc_add(d, TUI_ROLE_LINK, buf);
        l->link = xstrdup(c->related[i]);
    }
}

static void build(struct tui_app *app, struct detail_state *s, int w)
{
    struct tui_doc *d = &s->doc;
    size_t keep_sel = d->list.sel, keep_top = d->list.top;
    tui_doc_clear(d);
    const struct cdb_case *c = &s->c;
    char buf[1024];

    add_fields(app, d, c, w);
    heading(d, tui_tr(app, "Summary", "摘要"));
    tui_doc_wrap(d, w, 2, TUI_ROLE_NORMAL, tui_tr(app, c->summary_en, c->summary_zh), NULL, 0, 0);
    if (c->n_figures)
        add_figures(app, d, c, w);
    heading(d, tui_tr(app, "The test that catches it", "能发现它的测试"));
    tui_doc_wrap(d, w, 2, TUI_ROLE_NORMAL, tui_tr(app, c->catch_en, c->catch_zh), NULL, 0, 0);
    if (c->n_rates)
        add_prob(app, s, w);
    const struct cdb_rung *rg = tui_app_rung(app, c->rung);
    if (rg) {
        snprintf(buf, sizeof buf, "%s %d %s %s %s", tui_tr(app, "Rung", "阶梯"), rg->n,
                 tui_tr(app, rg->name_en, rg->name_zh), tui_glyph(TUI_GLYPH_DOT),
                 tui_tr(app, "what it runs", "运行内容"));
        heading(d, buf);
        tui_doc_wrap(d, w, 2, TUI_ROLE_NORMAL, tui_tr(app, rg->runs_en, rg->runs_zh), NULL, 0, 0);
    }
    add_refs(app, d, c, w);
    if (c->n_related)
        add_related(app, d, c);
    if (c->notes && *c->notes) {
        heading(d, tui_tr(app, "Notes", "备注"));
        tui_doc_wrap(d, w, 2, TUI_ROLE_DIM, c->notes, NULL, 0, 0);
    }
    d->width = w;
    d->list.n = d->n;
    tui_list_select(&d->list, keep_sel);
    d->list.top = keep_top;
    s->lang = app->lang;
    s->stale = false;
}

static void detail_draw(struct tui_app *app, void *state)
{
    struct detail_state *s = state;
    const struct tui_rect *r = &app->lay.body;
    if (!s->loaded)
        return;
    int w = r->w - 2;
    if (s->stale || s->doc.width != w || s->lang != app->lang)
        build(app, s, w);
    tui_doc_draw(&s->doc, r->y, r->x + 1, r->h, w, true, s->term);
}

/* ---- actions ---- */

static unsigned go_back(struct tui_app *app, struct detail_state *s)
{
    while (s->n_hist > 0) {
        char *id = s->history[--s->n_hist];
        bool ok = load(app, s, id);
        free(id);
        if (ok)
            return TUI_R_DRAW;
    }
    app->detail_open = false;
    tui_app_show(app, TUI_VIEW_CASES);
    return TUI_R_DRAW;
}

static unsigned follow(struct tui_app *app, struct detail_state *s, size_t row)
{
    if (row >= s->doc.n || !s->doc.lines[row].link) {
        tui_app_message(app, "%s", tui_tr(app, "Enter follows a related case: move to one first",
                                          "Enter 用于打开相关案例：请先移到其中一个"));
        return TUI_R_DRAW;
    }
    char *id = xstrdup(s->doc.lines[row].link);
    show_case(app, s, id, true);
    free(id);
    return TUI_R_DRAW;
}

static unsigned detail_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct detail_state *s = state;
    struct tui_list *l = &s->doc.list;
    if (tui_list_navigate(l, act))
        return TUI_R_DRAW;
    switch (act) {
    case TUI_ACT_OPEN:
        return follow(app, s, l->sel);
    case TUI_ACT_LAUNCH:
        if (s->loaded)
            tui_app_open(app, TUI_VIEW_LAUNCH, &(struct tui_open){.id = s->c.id});
        return TUI_R_DRAW;
    case TUI_ACT_MODEL_VS_UNIT:
        if (s->loaded)
            tui_model_vs_unit(app, s->c.id);
        return TUI_R_DRAW;
    case TUI_ACT_BACK:
        if (s->term[0]) {
            s->term[0] = '\0';
            return TUI_R_DRAW;
        }
        return go_back(app, s);
    case TUI_ACT_QUIT:
        return go_back(app, s);
    case TUI_ACT_PROB_MORE:
    case TUI_ACT_PROB_LESS:
        if (!s->c.n_rates) {
            tui_app_message(app, "%s", tui_tr(app, "This case has no failure rate to work with",
                                              "此案例没有可用的失败率"));
            return TUI_R_DRAW;
        }
        s->n_user = tui_prob_step(s->n_user, act == TUI_ACT_PROB_MORE ? 1 : -1);
        s->stale = true;
        return TUI_R_DRAW;
    case TUI_ACT_SEARCH_NEXT:
    case TUI_ACT_SEARCH_PREV:
        if (!tui_doc_find(&s->doc, act == TUI_ACT_SEARCH_NEXT ? 1 : -1, s->term))
            tui_app_message(app, "%s", tui_tr(app, "Not found", "未找到"));
        return TUI_R_DRAW;
    default:
        return TUI_R_UNHANDLED;
    }
}

static unsigned detail_mouse(struct tui_app *app, void *state, int y, int x, int wheel)
{
    (void)x;
    struct detail_state *s = state;
    long row = tui_list_mouse(&s->doc.list, y - app->lay.body.y, wheel, NULL);
    if (row == TUI_LIST_NO_ROW)
        return TUI_R_NONE;
    if (row >= 0 && s->doc.lines[row].link)
        return follow(app, s, (size_t)row);
    return TUI_R_DRAW;
}

static void detail_search(struct tui_app *app, void *state, const char *text)
{
    (void)app;
    struct detail_state *s = state;
    snprintf(s->term, sizeof s->term, "%s", text);
    if (s->doc.n == 0 || !s->term[0])
        return;
    /* Incremental: the first match from the cursor on, the cursor line included. */
    struct tui_list *l = &s->doc.list;
    size_t from = l->sel;
    l->sel = from > 0 ? from - 1 : s->doc.n - 1;
    if (!tui_doc_find(&s->doc, 1, s->term))
        tui_list_select(l, from);
}

static const char *detail_search_text(void *state)
{
    return ((struct detail_state *)state)->term;
}

static void detail_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct detail_state *s = state;
    if (!s->loaded) {
        buf[0] = '\0';
        return;
    }
    size_t o = (size_t)snprintf(buf, len, "%s · %s %zu/%zu", s->c.id, tui_tr(app, "line", "行"),
                                s->doc.list.sel + 1, s->doc.n);
    if (s->n_hist && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s %s", tui_tr(app, "Esc back to", "Esc 返回"),
                              s->history[s->n_hist - 1]);
    if (s->term[0] && o < len)
        snprintf(buf + o, len - o, " · %s \"%s\" n/N", tui_tr(app, "find", "查找"), s->term);
}

static void detail_refresh(struct tui_app *app, void *state)
{
    (void)app;
    ((struct detail_state *)state)->stale = true;
}

const struct tui_view_ops tui_view_detail = {
    .name = "detail",
    .scope = TUI_SCOPE_DETAIL,
    .keys_title = {"Case detail", "案例详情"},
    .init = detail_init,
    .fini = detail_fini,
    .draw = detail_draw,
    .action = detail_action,
    .mouse = detail_mouse,
    .search = detail_search,
    .search_text = detail_search_text,
    .status = detail_status,
    .changed = detail_refresh,
    .open = detail_open,
};
