/* Compare: two sides — "local", a pulled host, or one machine — with their checks matched on
 * (rung, suite, check, shape, variant), each side's latest finished result of a key. A row has
 * time A, time B, the ratio B/A, a bar of the ratio on a log scale (1× in the middle; right:
 * B slower, left: B faster) and both verdicts. A ratio is flagged only when the two repeat
 * spreads [min, max] do not overlap; verdicts that differ stand out. The summary gives the
 * geometric-mean ratio and the counts. a / b change a side, R the rung, f shows only the rows
 * that stand out. The CLI twin is `kladder compare A B [--rung N]`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/hosts.h"
#include "casedb/results_query.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/bgread.h"
#include "tui/draw.h"
#include "tui/list.h"
#include "tui/results_fmt.h"
#include "tui/view.h"

struct side_opt {
    char spec[80];   /* what cdb_side_resolve takes */
    char label[160];
};

struct compare_state {
    struct side_opt *sides;
    size_t n_sides;
    int a, b;          /* indexes into sides, -1 none */
    int rung;          /* -1 all */
    bool only_flagged;
    struct cdb_compare cmp;
    bool loaded;
    struct tui_bgread *reading; /* the comparison being read in the background, NULL none */
    unsigned gen;
    bool sides_ready;
    size_t *vis;       /* rows shown (indexes into cmp.rows) */
    size_t n_vis;
    struct tui_list list;
    int list_y0;
    char err[300];
};

static void *compare_init(struct tui_app *app)
{
    (void)app;
    struct compare_state *s = xcalloc(1, sizeof *s);
    s->a = s->b = -1;
    s->rung = -1;
    return s; /* everything is read when the view is first shown */
}

static void compare_fini(void *state)
{
    struct compare_state *s = state;
    tui_bgread_cancel(s->reading);
    if (s->loaded)
        cdb_compare_free(&s->cmp);
    free(s->sides);
    free(s->vis);
    free(s);
}

static void side_add(struct compare_state *s, size_t *cap, const char *spec, const char *label)
{
    if (s->n_sides == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        s->sides = xrealloc(s->sides, *cap * sizeof *s->sides);
    }
    struct side_opt *o = &s->sides[s->n_sides++];
    snprintf(o->spec, sizeof o->spec, "%s", spec);
    snprintf(o->label, sizeof o->label, "%s", label);
}

/* The sides one can pick: local, each host of the hosts table, each machine. */
static void load_sides(struct tui_app *app, struct compare_state *s)
{
    char keep_a[80] = "", keep_b[80] = "";
    if (s->a >= 0)
        snprintf(keep_a, sizeof keep_a, "%s", s->sides[s->a].spec);
    if (s->b >= 0)
        snprintf(keep_b, sizeof keep_b, "%s", s->sides[s->b].spec);
    free(s->sides);
    s->sides = NULL;
    s->n_sides = 0;
    size_t cap = 0;
    char err[300];
    side_add(s, &cap, "local", tui_tr(app, "local (runs made here)", "本机（在此运行的记录）"));
    struct cdb_host_list hl = {0};
    if (cdb_hosts_list(app->db, &hl, err, sizeof err) == 0) {
        for (size_t i = 0; i < hl.n; i++) {
            char label[160];
            snprintf(label, sizeof label, "%s (%s, %d %s)", hl.items[i].name,
                     tui_tr(app, "host", "主机"), hl.items[i].runs, tui_tr(app, "runs", "个运行"));
            side_add(s, &cap, hl.items[i].name, label);
        }
        cdb_host_list_free(&hl);
    }
    struct cdb_machine_list ml = {0};
    if (cdb_machines_query(app->db, NULL, &ml, err, sizeof err) == 0) {
        for (size_t i = 0; i < ml.n; i++) {
            const struct cdb_machine *m = &ml.items[i];
            char label[160];
            snprintf(label, sizeof label, "%.8s %s %s @%s", m->id, m->device ? m->device : "?",
                     m->target ? m->target : "", m->host ? m->host : "?");
            side_add(s, &cap, m->id, label);
        }
        cdb_machine_list_free(&ml);
    }
    s->a = s->b = -1;
    for (size_t i = 0; i < s->n_sides; i++) {
        if (keep_a[0] && !strcmp(keep_a, s->sides[i].spec))
            s->a = (int)i;
        if (keep_b[0] && !strcmp(keep_b, s->sides[i].spec))
            s->b = (int)i;
    }
    if (s->a < 0) {
        /* local when something ran here, else the first host */
        struct cdb_run_filter f;
        cdb_run_filter_init(&f);
        f.local_only = true;
        f.finished_only = true;
        struct cdb_run_list rl = {0};
        bool local = cdb_runs_query(app->db, &f, &rl, err, sizeof err) == 0 && rl.n > 0;
        if (rl.pool || rl.items)
            cdb_run_list_free(&rl);
        s->a = local || s->n_sides < 2 ? 0 : 1;
    }
    if (s->b < 0)
        s->b = s->n_sides > (size_t)s->a + 1 ? s->a + 1 : s->n_sides > 1 ? 0 : -1;
    s->sides_ready = true;
}

static bool stands_out(const struct cdb_compare_row *r)
{
    return r->flagged || r->verdict_differs;
}

static void select_rows(struct compare_state *s)
{
    free(s->vis);
    s->vis = xmalloc((s->cmp.n + 1) * sizeof *s->vis);
    s->n_vis = 0;
    for (size_t i = 0; i < s->cmp.n; i++)
        if (!s->only_flagged || stands_out(&s->cmp.rows[i]))
            s->vis[s->n_vis++] = i;
    tui_list_set_count(&s->list, s->n_vis);
}

/* ---- reading the comparison ----
 * Matching 100,000 checks takes tens of milliseconds, more than a keystroke may: the
 * comparison is read on a worker thread (tui/bgread.h) while the view says it is coming. */

struct compare_job {
    struct cdb_side a, b;
    int rung;
};

static void *compare_read(struct cdb *db, void *arg, char *err, size_t errlen)
{
    const struct compare_job *j = arg;
    struct cdb_compare *c = xmalloc(sizeof *c);
    if (cdb_compare_load(db, &j->a, &j->b, j->rung, c, err, errlen) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

static void compare_result_free(void *result)
{
    cdb_compare_free(result);
    free(result);
}

static void compare_ready(struct tui_app *app, void *ctx)
{
    (void)app;
    struct compare_state *s = ctx;
    char err[sizeof s->err];
    struct cdb_compare *c = tui_bgread_take(s->reading, err, sizeof err);
    s->reading = NULL;
    if (c) {
        s->cmp = *c;
        s->loaded = true;
        free(c);
    } else {
        snprintf(s->err, sizeof s->err, "%s", err);
    }
    select_rows(s);
}

static void load(struct tui_app *app, struct compare_state *s)
{
    tui_app_read_cancel(app, &s->reading);
    if (!s->sides_ready || s->gen != app->results_gen)
        load_sides(app, s);
    if (s->loaded)
        cdb_compare_free(&s->cmp);
    memset(&s->cmp, 0, sizeof s->cmp);
    s->loaded = false;
    s->gen = app->results_gen;
    s->err[0] = '\0';
    if (s->a < 0 || s->b < 0) {
        snprintf(s->err, sizeof s->err, "%s",
                 tui_tr(app, "Nothing to compare yet: run something here, or pull another host (P)",
                        "还没有可对比的内容：在此运行，或拉取其他主机（P）"));
    } else {
        struct compare_job j = {.rung = s->rung};
        char err[300];
        if (cdb_side_resolve(app->db, s->sides[s->a].spec, &j.a, err, sizeof err) != 0 ||
            cdb_side_resolve(app->db, s->sides[s->b].spec, &j.b, err, sizeof err) != 0) {
            snprintf(s->err, sizeof s->err, "%s", err);
        } else {
            s->reading = tui_app_read(app, compare_read, &j, sizeof j, compare_result_free,
                                      compare_ready, s);
            /* no worker (an in-memory database, or no thread to be had): read here */
            if (!s->reading) {
                if (cdb_compare_load(app->db, &j.a, &j.b, s->rung, &s->cmp, err, sizeof err) != 0)
                    snprintf(s->err, sizeof s->err, "%s", err);
                else
                    s->loaded = true;
            }
        }
    }
    select_rows(s);
}

/* ---- drawing ---- */

struct draw_ctx {
    struct tui_app *app;
    struct compare_state *s;
    int y, x, w;
    int rung_w, suite_w, check_w, shape_w, variant_w, time_w, ratio_w, bar_w, verdict_w;
};

/* The ratio on a log2 scale from 1/16 to 16, 1 in the middle. */
static void ratio_bar(int y, int x, int w, double ratio, enum tui_role role, enum tui_role base)
{
    tui_draw_fill(y, x, w, base);
    int half = (w - 1) / 2;
    tui_draw_text(y, x + half, 1, TUI_ROLE_BORDER, tui_glyph(TUI_GLYPH_VLINE));
    if (isnan(ratio) || ratio <= 0 || half <= 0)
        return;
    double l = log2(ratio) / 4.0; /* 16x fills a half */
    if (l > 1)
        l = 1;
    if (l < -1)
        l = -1;
    bool ascii = tui_draw_ascii();
    char bar[256];
    size_t o = 0;
    if (l >= 0) {
        int units = (int)lround(l * half * 8);
        int full = units / 8, part = units % 8;
        static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
        for (int i = 0; i < full && o + 4 < sizeof bar; i++)
            o += (size_t)snprintf(bar + o, sizeof bar - o, "%s", ascii ? "#" : "█");
        if (part && !ascii && full < half)
            o += (size_t)snprintf(bar + o, sizeof bar - o, "%s", eighths[part]);
        if (o)
            tui_draw_text(y, x + half + 1, half, role, bar);
    } else {
        /* Leftward bars have no partial blocks that grow from the right: whole cells. */
        int cells = (int)lround(-l * half);
        for (int i = 0; i < cells && o + 4 < sizeof bar; i++)
            o += (size_t)snprintf(bar + o, sizeof bar - o, "%s", ascii ? "#" : "█");
        if (cells)
            tui_draw_text(y, x + half - cells, cells, role, bar);
    }
}

static void cell_time(const struct cdb_compare_cell *c, char *buf, size_t len)
{
    if (!c->present)
        snprintf(buf, len, "—");
    else
        tui_fmt_us(c->median_us, buf, len);
}

static void draw_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct cdb_compare_row *r = &c->s->cmp.rows[c->s->vis[row]];
    int y = c->y + line, x = c->x;
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    enum tui_role mark = r->verdict_differs ? TUI_ROLE_FAIL : r->flagged ? TUI_ROLE_WARN : base;
    char buf[200];
    tui_draw_fill(y, x, c->w, base);
    snprintf(buf, sizeof buf, "%s", r->verdict_differs ? "≠" : r->flagged ? "!" : " ");
    tui_draw_text(y, x, 1, selected ? base : mark, tui_draw_ascii() && r->verdict_differs ? "#" : buf);
    x += 2;
    snprintf(buf, sizeof buf, "R%d", r->rung);
    tui_draw_pad(y, x, c->rung_w, base, buf);
    x += c->rung_w + 1;
    tui_draw_pad(y, x, c->suite_w, base, r->suite);
    x += c->suite_w + 1;
    tui_draw_pad(y, x, c->check_w, base, r->check);
    x += c->check_w + 1;
    if (c->shape_w) {
        tui_draw_pad(y, x, c->shape_w, selected ? base : TUI_ROLE_DIM, r->shape);
        x += c->shape_w + 1;
    }
    tui_draw_pad(y, x, c->variant_w, base, r->variant);
    x += c->variant_w + 1;
    cell_time(&r->a, buf, sizeof buf);
    tui_draw_right(y, x, c->time_w, base, buf);
    x += c->time_w + 1;
    cell_time(&r->b, buf, sizeof buf);
    tui_draw_right(y, x, c->time_w, base, buf);
    x += c->time_w + 1;
    tui_fmt_ratio(r->ratio, 2, buf, sizeof buf);
    tui_draw_right(y, x, c->ratio_w, selected ? base : r->flagged ? TUI_ROLE_WARN : base, buf);
    x += c->ratio_w + 1;
    if (c->bar_w > 0) {
        ratio_bar(y, x, c->bar_w, r->ratio, selected ? base : r->flagged ? TUI_ROLE_WARN : TUI_ROLE_OK,
                  base);
        x += c->bar_w + 1;
    }
    int vx = x;
    if (r->a.present)
        vx += tui_draw_text(y, vx, 1, selected ? base : tui_verdict_role(r->a.verdict),
                            tui_verdict_glyph(r->a.verdict));
    else
        vx += tui_draw_text(y, vx, 1, base, "—");
    vx += tui_draw_text(y, vx, 1, base, "/");
    if (r->b.present)
        tui_draw_text(y, vx, 1, selected ? base : tui_verdict_role(r->b.verdict),
                      tui_verdict_glyph(r->b.verdict));
    else
        tui_draw_text(y, vx, 1, base, "—");
}

static void compare_draw(struct tui_app *app, void *state)
{
    struct compare_state *s = state;
    if (!s->sides_ready || s->gen != app->results_gen)
        load(app, s);
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, x = r->x + 1, w = r->w - 2, ymax = r->y + r->h;
    char buf[512];
    snprintf(buf, sizeof buf, "A %s", s->a >= 0 ? s->sides[s->a].label : "—");
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    snprintf(buf, sizeof buf, "B %s", s->b >= 0 ? s->sides[s->b].label : "—");
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    if (s->err[0]) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_WARN, s->err);
        return;
    }
    if (s->reading) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_DIM,
                      tui_tr(app, "Matching the two sides' checks…", "正在匹配两方的检查…"));
        return;
    }
    const struct cdb_compare_summary *m = &s->cmp.summary;
    char gm[32];
    tui_fmt_ratio(m->geomean_ratio, 3, gm, sizeof gm);
    char rung[32];
    if (s->rung >= 0)
        snprintf(rung, sizeof rung, " · %s %d", tui_tr(app, "rung", "阶梯"), s->rung);
    else
        rung[0] = '\0';
    if (app->lang == TUI_LANG_ZH)
        snprintf(buf, sizeof buf, "%zu 行%s · 几何平均比值 B/A %s（%d 行有比值）· 标记 %d · 判定不同 %d · 仅 A %d · 仅 B %d",
                 s->cmp.n, rung, gm, m->with_ratio, m->flagged, m->differing_verdicts, m->only_a,
                 m->only_b);
    else
        snprintf(buf, sizeof buf, "%zu rows%s · geometric-mean ratio B/A %s (over %d) · flagged %d · "
                 "verdicts differ %d · only A %d · only B %d",
                 s->cmp.n, rung, gm, m->with_ratio, m->flagged, m->differing_verdicts, m->only_a,
                 m->only_b);
    size_t nl;
    char **lines = text_wrap(buf, w, &nl);
    for (size_t i = 0; i < nl && i < 2; i++)
        tui_draw_text(y++, x, w, m->flagged || m->differing_verdicts ? TUI_ROLE_WARN : TUI_ROLE_NORMAL,
                      lines[i]);
    text_lines_free(lines, nl);

    struct draw_ctx c = {.app = app, .s = s, .x = x, .w = w};
    c.rung_w = 3;
    c.variant_w = 9;
    c.time_w = 9;
    c.ratio_w = 7;
    c.verdict_w = 3;
    c.bar_w = w >= 100 ? 21 : w >= 76 ? 11 : 0;
    c.suite_w = w >= 120 ? 16 : 12;
    c.shape_w = w >= 130 ? 24 : 0;
    int fixed = 2 + c.rung_w + c.suite_w + c.variant_w + 2 * c.time_w + c.ratio_w + c.verdict_w + 7 +
                (c.bar_w ? c.bar_w + 1 : 0) + (c.shape_w ? c.shape_w + 1 : 0);
    c.check_w = w - fixed;
    if (c.check_w < 8) {
        c.check_w += c.bar_w + 1;
        c.bar_w = 0;
    }
    int xx = x + 2;
    tui_draw_fill(y, x, w, TUI_ROLE_COLHEAD);
    const struct {
        int w;
        const char *t[2];
        bool right;
    } heads[] = {
        {c.rung_w, {"R", "阶"}, false},     {c.suite_w, {"Suite", "套件"}, false},
        {c.check_w, {"Check", "检查"}, false}, {c.shape_w, {"Shape", "形状"}, false},
        {c.variant_w, {"Variant", "变体"}, false}, {c.time_w, {"Time A", "时间 A"}, true},
        {c.time_w, {"Time B", "时间 B"}, true}, {c.ratio_w, {"B/A", "B/A"}, true},
        {c.bar_w, {"÷16 ← 1× → ×16", "÷16 ← 1× → ×16"}, false},
        {c.verdict_w, {"A/B", "A/B"}, false},
    };
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        if (heads[i].w <= 0)
            continue;
        if (heads[i].right)
            tui_draw_right(y, xx, heads[i].w, TUI_ROLE_COLHEAD, heads[i].t[app->lang == TUI_LANG_ZH]);
        else
            tui_draw_pad(y, xx, heads[i].w, TUI_ROLE_COLHEAD, heads[i].t[app->lang == TUI_LANG_ZH]);
        xx += heads[i].w + 1;
    }
    y++;
    s->list_y0 = y;
    c.y = y;
    if (s->n_vis == 0) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_DIM,
                      s->only_flagged ? tui_tr(app, "No row stands out. f shows every row.",
                                               "没有突出的行。按 f 显示全部行。")
                                      : tui_tr(app, "No check was run on both sides or either side.",
                                               "两方都没有运行过检查。"));
        return;
    }
    tui_list_draw(&s->list, ymax - y, draw_row, &c);
}

/* ---- actions ---- */

static void next_side(struct compare_state *s, int *side, int other)
{
    if (s->n_sides == 0)
        return;
    int n = (int)s->n_sides;
    int v = *side;
    for (int i = 0; i < n; i++) {
        v = (v + 1) % n;
        if (v != other || n == 1)
            break;
    }
    *side = v;
}

static unsigned compare_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct compare_state *s = state;
    struct tui_list *l = &s->list;
    if (tui_list_navigate(l, act))
        return TUI_R_DRAW;
    switch (act) {
    case TUI_ACT_COMPARE_A:
    case TUI_ACT_COMPARE_B:
        if (!s->sides_ready)
            load_sides(app, s);
        if (act == TUI_ACT_COMPARE_A)
            next_side(s, &s->a, s->b);
        else
            next_side(s, &s->b, s->a);
        tui_list_first(l);
        load(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_COMPARE_RUNG:
        s->rung = s->rung < 0 ? 1 : s->rung >= CDB_RUNGS ? -1 : s->rung + 1;
        tui_list_first(l);
        load(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_COMPARE_FLAGGED:
        s->only_flagged = !s->only_flagged;
        tui_list_first(l);
        select_rows(s);
        return TUI_R_DRAW;
    case TUI_ACT_OPEN: {
        if (s->n_vis == 0)
            return TUI_R_NONE;
        const struct cdb_compare_row *r = &s->cmp.rows[s->vis[l->sel]];
        const char *uuid = r->b.present && r->b.run_uuid ? r->b.run_uuid : r->a.run_uuid;
        if (uuid)
            tui_app_open(app, TUI_VIEW_RUN, &(struct tui_open){.id = uuid});
        return TUI_R_DRAW;
    }
    default:
        return TUI_R_UNHANDLED;
    }
}

static unsigned compare_mouse(struct tui_app *app, void *state, int y, int x, int wheel)
{
    (void)app, (void)x;
    struct compare_state *s = state;
    return tui_list_mouse(&s->list, y - s->list_y0, wheel, NULL) == TUI_LIST_NO_ROW ? TUI_R_NONE
                                                                                 : TUI_R_DRAW;
}

static void compare_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct compare_state *s = state;
    if (app->lang == TUI_LANG_ZH)
        snprintf(buf, len, "第 %zu / %zu 行%s · a/b 换一方 · R 阶梯 · f 只看突出的行",
                 s->n_vis ? s->list.sel + 1 : 0, s->n_vis, s->only_flagged ? "（仅突出）" : "");
    else
        snprintf(buf, len, "Row %zu of %zu%s · a/b change a side · R rung · f rows that stand out",
                 s->n_vis ? s->list.sel + 1 : 0, s->n_vis, s->only_flagged ? " (standing out)" : "");
}

static void compare_changed(struct tui_app *app, void *state)
{
    (void)app;
    ((struct compare_state *)state)->sides_ready = false; /* labels in the new language */
}

const struct tui_view_ops tui_view_compare = {
    .name = "compare",
    .scope = TUI_SCOPE_COMPARE,
    .init = compare_init,
    .fini = compare_fini,
    .draw = compare_draw,
    .action = compare_action,
    .mouse = compare_mouse,
    .status = compare_status,
    .changed = compare_changed,
};
