/* The Compare view's every-host mode (compare_every_host.h). */
#include "tui/views/compare_every_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/results_query.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/columns.h"
#include "tui/compare_fmt.h"
#include "tui/draw.h"
#include "tui/results_fmt.h"
#include "tui/views/name_cuts.h"
#include "tui/views/view.h"

void every_host_init(struct every_host *e)
{
    memset(e, 0, sizeof *e);
    e->sel = (struct cmp_matrix_select){.differs_host = -1, .text = e->search};
}

void every_host_fini(struct every_host *e)
{
    if (e->loaded)
        cmp_matrix_free(&e->m);
    free(e->vis);
    e->vis = NULL;
    e->loaded = false;
}

static void select_rows(struct every_host *e)
{
    free(e->vis);
    e->vis = xmalloc((e->m.n + 1) * sizeof *e->vis);
    e->n_vis = e->loaded ? cmp_matrix_select_rows(&e->m, &e->sel, e->vis) : 0;
    tui_list_set_count(&e->list, e->n_vis);
}

void every_host_load(struct tui_app *app, struct every_host *e, const char *const *spec,
                     const char *const *name, size_t n, int rung)
{
    every_host_fini(e);
    e->err[0] = '\0';
    e->n = n < EVERY_HOST_MAX ? n : EVERY_HOST_MAX;
    for (size_t i = 0; i < e->n; i++) {
        snprintf(e->spec[i], sizeof e->spec[i], "%s", spec[i]);
        snprintf(e->name[i], sizeof e->name[i], "%s", name[i]);
    }
    if (e->sel.differs_host >= (int)e->n)
        e->sel.differs_host = -1, e->sel.only_flagged = false;
    if (e->sel.sort_host >= (int)e->n)
        e->sel.sort = CMP_MATRIX_NAME;
    if (e->n < 3) {
        snprintf(e->err, sizeof e->err, "%s",
                 tui_tr(app, "Every host needs three hosts or more: pull another (P)",
                        "全部主机模式需要三个或更多主机：再拉取一个（P）"));
        select_rows(e);
        return;
    }
    struct cdb_side side[EVERY_HOST_MAX];
    struct cdb_compare *pair = xcalloc(e->n, sizeof *pair);
    size_t loaded = 0;
    int rc = 0;
    for (size_t i = 0; i < e->n && rc == 0; i++)
        rc = cdb_side_resolve(app->db, e->spec[i], &side[i], e->err, sizeof e->err);
    for (size_t i = 1; i < e->n && rc == 0; i++) {
        rc = cdb_compare_load(app->db, &side[0], &side[i], rung, &pair[i - 1], e->err,
                              sizeof e->err);
        loaded += rc == 0;
    }
    if (rc != 0) {
        for (size_t i = 0; i < loaded; i++)
            cdb_compare_free(&pair[i]);
        free(pair);
    } else {
        cmp_matrix_build(&e->m, pair, e->n);
        e->loaded = true;
    }
    select_rows(e);
}

/* ---- drawing ---- */

enum col { COL_MARK, COL_RUNG, COL_SUITE, COL_CHECK, COL_VARIANT, COL_HOSTS };
#define CELL_W 14 /* a host's cell: "✓ 1.48×▲ !" or "✓ 1266µs" */

/* The name columns, cut where a name differs from its neighbours' (tui/views/name_cuts.h), as
 * the two-sided view cuts them. */
enum { CUT_SUITE, CUT_CHECK, CUT_VARIANT, CUT_KINDS };

struct draw_ctx {
    struct tui_app *app;
    struct every_host *e;
    int y;
    struct tui_col col[COL_HOSTS + EVERY_HOST_MAX];
    int x0;
    struct name_cuts cuts;
};

/* Visible row `row`'s name in cut column col (name_cuts_find). */
static const char *cut_name(int col, size_t row, const void *ctx)
{
    const struct every_host *e = ctx;
    const struct cmp_matrix_row *r = &e->m.rows[e->vis[row]];
    return col == CUT_SUITE ? r->suite : col == CUT_CHECK ? r->check : r->variant;
}

static void layout(struct every_host *e, int w, struct tui_col *col)
{
    size_t nc = COL_HOSTS + e->n;
    for (size_t k = 0; k < nc; k++)
        col[k] = (struct tui_col){.want = CELL_W, .min = 9, .give = 4, .keep = true};
    col[COL_MARK] = (struct tui_col){.want = 1, .min = 1};
    col[COL_RUNG] = (struct tui_col){.want = 2, .min = 2, .give = 1};
    col[COL_SUITE] = (struct tui_col){.want = 14, .min = 8, .give = 2, .keep = true};
    col[COL_CHECK] = (struct tui_col){.want = 10, .min = 8, .flex = true};
    col[COL_VARIANT] = (struct tui_col){.want = 7, .min = 5, .give = 3, .keep = true};
    tui_columns_fit(col, nc, w, 1);
}

/* A host's cell: its verdict glyph, then its median time (the baseline) or its ratio against
 * the baseline with the timing mark; ≠ when the verdicts differ. */
static void draw_cell(const struct cmp_matrix_row *r, size_t h, int y, int x, int w,
                      bool selected)
{
    bool ascii = tui_draw_ascii();
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    const struct cdb_compare_cell *cell = cmp_matrix_cell(r, h);
    if (!cell) {
        tui_draw_pad(y, x, w, selected ? base : TUI_ROLE_DIM, cmp_not_run(ascii));
        return;
    }
    const struct cdb_compare_row *v = cmp_matrix_vs(r, h);
    int used = 0;
    if (v && v->verdict_differs)
        used += tui_draw_text(y, x, 1, selected ? base : TUI_ROLE_FAIL, cmp_verdict_mark(v, ascii));
    used += tui_draw_text(y, x + used, 1, selected ? base : tui_verdict_role(cell->verdict),
                          tui_verdict_glyph(cell->verdict));
    char buf[64] = "";
    enum tui_role role = base;
    if (h == 0) {
        if (isfinite(cell->median_us))
            tui_fmt_us(cell->median_us, buf, sizeof buf);
    } else if (v && isfinite(v->ratio)) {
        char ratio[48];
        cmp_fmt_ratio(v->ratio, ascii, false, ratio, sizeof ratio);
        char *sp = strrchr(ratio, ' ');
        const char *dir = strcmp(sp + 1, "same") == 0 ? "="
                          : strcmp(sp + 1, "slower") == 0 ? (ascii ? "+" : "▲")
                                                          : (ascii ? "-" : "▼");
        *sp = '\0';
        snprintf(buf, sizeof buf, "%s%s %s", ratio, dir, cmp_timing_mark(v));
        if (!selected)
            role = v->flagged ? TUI_ROLE_WARN : v->timing == CDB_TIMING_NOISE ? TUI_ROLE_OK
                                                                               : TUI_ROLE_DIM;
    }
    tui_draw_pad(y, x + used, w - used, role, buf[0] ? " " : "");
    if (buf[0])
        tui_draw_pad(y, x + used + 1, w - used - 1, role, buf);
}

static void draw_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct cmp_matrix_row *r = &c->e->m.rows[c->e->vis[row]];
    int y = c->y + line;
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    char buf[64];
    for (size_t k = 0; k < COL_HOSTS + c->e->n; k++) {
        int w = c->col[k].w, x = c->x0 + c->col[k].x;
        if (w <= 0)
            continue;
        /* the gap after a cell is part of the selection bar */
        tui_draw_fill(y, x, w + 1, base);
        switch (k) {
        case COL_MARK:
            tui_draw_text(y, x, w, selected ? base : TUI_ROLE_WARN, r->standing_out ? "*" : "");
            break;
        case COL_RUNG:
            snprintf(buf, sizeof buf, "R%d", r->rung);
            tui_draw_pad(y, x, w, base, buf);
            break;
        case COL_SUITE:
            name_cuts_draw(&c->cuts, row, CUT_SUITE, y, x, w, base, r->suite);
            break;
        case COL_CHECK:
            name_cuts_draw(&c->cuts, row, CUT_CHECK, y, x, w, base, r->check);
            break;
        case COL_VARIANT:
            name_cuts_draw(&c->cuts, row, CUT_VARIANT, y, x, w, base, r->variant);
            break;
        default:
            draw_cell(r, k - COL_HOSTS, y, x, w, selected);
        }
    }
}

static void draw_heading(const struct draw_ctx *c, int y)
{
    bool zh = c->app->lang == TUI_LANG_ZH;
    const char *const heads[COL_HOSTS][2] = {{"", ""}, {"R", "阶"}, {"Suite", "套件"},
                                             {"Check", "检查"}, {"Variant", "变体"}};
    for (size_t k = 0; k < COL_HOSTS + c->e->n; k++) {
        int w = c->col[k].w, x = c->x0 + c->col[k].x;
        if (w <= 0)
            continue;
        char buf[96];
        if (k < COL_HOSTS)
            snprintf(buf, sizeof buf, "%s", heads[k][zh]);
        else
            snprintf(buf, sizeof buf, "%s%s", c->e->name[k - COL_HOSTS],
                     (int)(k - COL_HOSTS) == c->e->sel.sort_host && c->e->sel.sort == CMP_MATRIX_RATIO
                         ? "↓" : "");
        tui_draw_pad(y, x, w + 1, TUI_ROLE_COLHEAD, buf);
    }
}

/* One line per host against the baseline: its speed and its marks, cut to the width. */
static int draw_summaries(struct tui_app *app, struct every_host *e, int y, int x, int w,
                          int lines)
{
    bool zh = app->lang == TUI_LANG_ZH, ascii = tui_draw_ascii();
    for (size_t h = 1; h < e->n && lines > 0; h++, lines--) {
        const struct cdb_compare_summary *s = &e->m.pair[h - 1].summary;
        char ratio[48] = "n/a", buf[256];
        if (s->judged && isfinite(s->geomean_ratio))
            cmp_fmt_ratio(s->geomean_ratio, ascii, zh, ratio, sizeof ratio);
        snprintf(buf, sizeof buf, "%s: %s (%d %s) · !%d ~%d ?%d %s%d", e->name[h], ratio,
                 s->judged, zh ? "行已判断" : "judged", s->flagged, s->noise, s->few_repeats,
                 ascii ? "#" : "≠", s->differing_verdicts);
        tui_draw_text(y++, x, w,
                      s->flagged || s->differing_verdicts ? TUI_ROLE_WARN : TUI_ROLE_NORMAL, buf);
    }
    return y;
}

void every_host_draw(struct tui_app *app, struct every_host *e, int y, int x, int w, int ymax)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s %s · %zu %s", tui_tr(app, "Baseline", "基准"), e->name[0],
             e->n ? e->n - 1 : 0, tui_tr(app, "hosts against it (m: two sides)",
                                          "个主机与之对比（m：两方）"));
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    if (e->err[0] || !e->loaded) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_WARN, e->err);
        return;
    }
    /* at most a third of the body for the per-host lines */
    int room = (ymax - y) / 3;
    y = draw_summaries(app, e, y, x, w, room < 1 ? 1 : room);
    struct draw_ctx c = {.app = app, .e = e, .x0 = x};
    layout(e, w, c.col);
    draw_heading(&c, y++);
    e->list_y0 = c.y = y;
    if (e->n_vis == 0) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_DIM,
                      tui_tr(app, "No row matches the filters. x clears them.",
                             "没有符合筛选的行。按 x 清除筛选。"));
        return;
    }
    tui_list_set_height(&e->list, ymax - y);
    name_cuts_find(&c.cuts, e->list.top, ymax - y, e->n_vis, CUT_KINDS, cut_name, e);
    tui_list_draw(&e->list, ymax - y, draw_row, &c);
}

/* ---- keys ---- */

unsigned every_host_action(struct tui_app *app, struct every_host *e, enum tui_action act)
{
    struct tui_list *l = &e->list;
    if (tui_list_navigate(l, act))
        return TUI_R_DRAW;
    struct cmp_matrix_select *sel = &e->sel;
    switch (act) {
    case TUI_ACT_SORT: /* name, differs, then each host's slowest rows first */
        if (sel->sort == CMP_MATRIX_NAME)
            sel->sort = CMP_MATRIX_DIFFERS;
        else if (sel->sort == CMP_MATRIX_DIFFERS)
            sel->sort = CMP_MATRIX_RATIO, sel->sort_host = 1;
        else if (sel->sort_host + 1 < (int)e->n)
            sel->sort_host++;
        else
            sel->sort = CMP_MATRIX_NAME;
        break;
    case TUI_ACT_COMPARE_FLAGGED: /* every row, some host stands out, host 1, 2, ... does */
        if (!sel->only_flagged)
            sel->only_flagged = true, sel->differs_host = -1;
        else if (sel->differs_host + 1 < (int)e->n)
            sel->differs_host = sel->differs_host < 1 ? 1 : sel->differs_host + 1;
        else
            sel->only_flagged = false, sel->differs_host = -1;
        break;
    case TUI_ACT_COMPARE_CLEAR:
        e->search[0] = '\0';
        *sel = (struct cmp_matrix_select){.differs_host = -1, .text = e->search};
        break;
    case TUI_ACT_OPEN: {
        if (e->n_vis == 0)
            return TUI_R_NONE;
        const struct cmp_matrix_row *r = &e->m.rows[e->vis[l->sel]];
        for (size_t h = 0; h < e->n; h++) {
            const struct cdb_compare_cell *c = cmp_matrix_cell(r, h);
            if (c && c->run_uuid) {
                tui_app_open(app, TUI_VIEW_RUN,
                             &(struct tui_open){.id = c->run_uuid, .has_check = true,
                                                .check_seq = c->seq});
                break;
            }
        }
        return TUI_R_DRAW;
    }
    default:
        return TUI_R_UNHANDLED;
    }
    tui_list_first(l);
    select_rows(e);
    return TUI_R_DRAW;
}

void every_host_status(struct tui_app *app, const struct every_host *e, char *buf, size_t len)
{
    bool zh = app->lang == TUI_LANG_ZH;
    char what[300] = "";
    size_t o = 0;
    const struct cmp_matrix_select *sel = &e->sel;
#define ADD(...) o += (size_t)snprintf(what + o, o < sizeof what ? sizeof what - o : 0, __VA_ARGS__)
    if (sel->only_flagged && sel->differs_host >= 1 && (size_t)sel->differs_host < e->n)
        ADD(zh ? " · 仅 %s 突出的行" : " · rows where %s stands out", e->name[sel->differs_host]);
    else if (sel->only_flagged)
        ADD("%s", zh ? " · 仅有主机突出的行" : " · rows where a host stands out");
    if (sel->sort == CMP_MATRIX_DIFFERS)
        ADD("%s", zh ? " · 突出者多的在前" : " · most hosts standing out first");
    else if (sel->sort == CMP_MATRIX_RATIO && (size_t)sel->sort_host < e->n)
        ADD(zh ? " · %s 最慢在前" : " · %s slowest first", e->name[sel->sort_host]);
    if (e->search[0]) {
        char *t = text_fit(e->search, 24, tui_draw_ascii(), NULL);
        ADD(" · /%s", t);
        free(t);
    }
#undef ADD
    snprintf(buf, len,
             zh ? "第 %zu / %zu 行%s · s 排序 · f 按主机筛选 · a 换基准 · m 两方"
                : "Row %zu of %zu%s · s sort · f by host · a baseline · m two sides",
             e->n_vis ? e->list.sel + 1 : 0, e->n_vis, what);
}

void every_host_search(struct every_host *e, const char *text)
{
    snprintf(e->search, sizeof e->search, "%s", text);
    tui_list_first(&e->list);
    select_rows(e);
}
