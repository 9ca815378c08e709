/* Compare: two sides — "local", a pulled host, or one machine — with their checks matched on
 * (rung, suite, check, shape, variant), each side's latest finished result of a key. A row has
 * time A, time B, B against A as a magnitude and a direction ("450× faster"), the timing mark
 * (! a real difference, ~ within noise, ? not judged: too few repeats), a bar of the ratio on a
 * log10 scale (1× in the middle; right: B slower, left: B faster) and both verdicts (○: not run
 * on that side, -: skipped); ≠ marks verdicts that differ. The marks and the judgement are
 * tui/compare_fmt.h's and the CLI's. The summary names the faster side and counts the marks.
 * a / b change a side, R the rung, f the rows that stand out, o the rows on both sides, V a
 * verdict, / a search, s the sort, x clears; Enter opens the matched check in its run. The CLI
 * twin is `kladder compare A B`. m turns to every host against side A (compare_every_host.h),
 * the twin of `kladder compare A B C ...`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/hosts.h"
#include "casedb/results_query.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/bgread.h"
#include "tui/compare_fmt.h"
#include "tui/score_fmt.h"
#include "tui/draw.h"
#include "tui/views/compare_every_host.h"
#include "tui/views/list.h"
#include "tui/views/name_cuts.h"
#include "tui/results_fmt.h"
#include "tui/views/view.h"

struct side_opt {
    char spec[80];   /* what cdb_side_resolve takes */
    char label[160];
    char name[48];   /* short, for the sentence that names the faster side */
    bool machine;    /* one machine, not a host: left out of every-host mode */
};

struct compare_state {
    struct side_opt *sides;
    size_t n_sides;
    int a, b;          /* indexes into sides, -1 none */
    int rung;          /* -1 all */
    struct cmp_select sel;
    char search[256];  /* sel.text points here */
    struct cdb_compare cmp;
    bool loaded;
    struct tui_bgread *reading; /* the comparison being read in the background, NULL none */
    unsigned gen;
    bool sides_ready;
    size_t *vis;       /* rows shown (indexes into cmp.rows) */
    size_t n_vis;
    struct tui_list list;
    int list_y0;
    int head_x0, head_cw[16]; /* the heading as last drawn (row list_y0 - 1), for clicks */
    char err[300];
    bool every;                /* every-host mode (m) */
    bool local_ran;            /* something ran here: local is one of every host */
    bool one_machine;          /* no host pulled and one machine here: local is that machine,
                                * so there is no second side to offer */
    bool picked;               /* the user chose a side (a, b): the pair is theirs to keep */
    struct every_host eh;
};

static void *compare_init(struct tui_app *app)
{
    (void)app;
    struct compare_state *s = xcalloc(1, sizeof *s);
    s->a = s->b = -1;
    s->rung = -1;
    cmp_select_init(&s->sel);
    s->sel.text = s->search;
    every_host_init(&s->eh);
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
    every_host_fini(&s->eh);
    free(s);
}

static void side_add(struct compare_state *s, size_t *cap, const char *spec, const char *name,
                     const char *label)
{
    if (s->n_sides == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        s->sides = xrealloc(s->sides, *cap * sizeof *s->sides);
    }
    struct side_opt *o = &s->sides[s->n_sides++];
    snprintf(o->spec, sizeof o->spec, "%s", spec);
    snprintf(o->label, sizeof o->label, "%s", label);
    snprintf(o->name, sizeof o->name, "%s", name);
    o->machine = false;
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
    side_add(s, &cap, "local", tui_tr(app, "local", "本机"), tui_tr(app, "local (runs made here)", "本机（在此运行的记录）"));
    struct cdb_host_list hl = {0};
    if (cdb_hosts_list(app->db, &hl, err, sizeof err) == 0) {
        for (size_t i = 0; i < hl.n; i++) {
            char label[160];
            snprintf(label, sizeof label, "%s (%s, %d %s)", hl.items[i].name,
                     tui_tr(app, "host", "主机"), hl.items[i].runs, tui_tr(app, "runs", "个运行"));
            side_add(s, &cap, hl.items[i].name, hl.items[i].name, label);
        }
        cdb_host_list_free(&hl);
    }
    size_t n_hosts = s->n_sides - 1, n_machines = 0;
    struct cdb_machine_list ml = {0};
    if (cdb_machines_query(app->db, NULL, &ml, err, sizeof err) == 0) {
        n_machines = ml.n;
        for (size_t i = 0; i < ml.n; i++) {
            const struct cdb_machine *m = &ml.items[i];
            char label[160];
            snprintf(label, sizeof label, "%.8s %s %s @%s", m->id, m->device ? m->device : "?",
                     m->target ? m->target : "", m->host ? m->host : "?");
            char name[16];
            snprintf(name, sizeof name, "%.8s", m->id);
            side_add(s, &cap, m->id, name, label);
            s->sides[s->n_sides - 1].machine = true;
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
        s->local_ran = local;
    }
    if (s->b < 0)
        s->b = s->n_sides > (size_t)s->a + 1 ? s->a + 1 : s->n_sides > 1 ? 0 : -1;
    /* With no host pulled, local is this database's machines: with one, local and it are the
     * same runs, and a comparison of them with themselves says nothing (1.00x on every row),
     * so side B stays empty; with several, the first two machines are the pair. A pair the
     * user chose is kept. */
    s->one_machine = false;
    if (n_hosts == 0 && !s->picked) {
        if (n_machines >= 2) {
            s->a = 1;
            s->b = 2;
        } else {
            s->b = -1;
            s->one_machine = n_machines == 1;
        }
    }
    s->sides_ready = true;
}

static void select_rows(struct compare_state *s)
{
    free(s->vis);
    s->vis = xmalloc((s->cmp.n + 1) * sizeof *s->vis);
    s->n_vis = cmp_select_rows(&s->cmp, &s->sel, s->vis);
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

/* Every host against side A: A first, then local (when something ran here) and every host of
 * the hosts table; machines stay out, their runs are already some host's. */
static void load_every(struct tui_app *app, struct compare_state *s)
{
    const char *spec[EVERY_HOST_MAX], *name[EVERY_HOST_MAX];
    size_t n = 0;
    if (s->a >= 0)
        spec[n] = s->sides[s->a].spec, name[n++] = s->sides[s->a].name;
    for (size_t i = 0; i < s->n_sides && n < EVERY_HOST_MAX; i++)
        if ((int)i != s->a && !s->sides[i].machine && (i > 0 || s->local_ran))
            spec[n] = s->sides[i].spec, name[n++] = s->sides[i].name;
    every_host_load(app, &s->eh, spec, name, n, s->rung);
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
    if (s->every) {
        load_every(app, s);
        return;
    }
    if (s->one_machine) {
        /* said when drawn, in the language of the moment */
    } else if (s->a < 0 || s->b < 0) {
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

/* The columns of a row, left to right. Check is never dropped; when the width runs out the
 * others give way in the order of `give_way` below, so columns never run into each other. */
enum col { COL_MARK, COL_RUNG, COL_SUITE, COL_CHECK, COL_SHAPE, COL_VARIANT, COL_TIME_A,
           COL_TIME_B, COL_RATIO, COL_TMARK, COL_BAR, COL_VERDICT, COL_COUNT };
_Static_assert(COL_COUNT <= 16, "compare_state.head_cw holds every column");
#define CHECK_MIN 10     /* Check keeps at least this much; the rest gives way first */
#define CHECK_COMFORT 20 /* Shape and the bar are shown only while Check keeps this much */
#define SUITE_MIN 8      /* Suite narrows to this before the times, Rung or Variant give way */
/* Time A and Time B go together: one time alone reads as if it were the only one. */
static const enum col give_way[][2] = {{COL_SHAPE, COL_SHAPE}, {COL_BAR, COL_BAR},
                                       {COL_TIME_A, COL_TIME_B}, {COL_RUNG, COL_RUNG},
                                       {COL_VARIANT, COL_VARIANT}, {COL_SUITE, COL_SUITE}};

/* The name columns, cut where a name differs from its neighbours' (tui/views/name_cuts.h). */
enum { NAME_SUITE, NAME_CHECK, NAME_SHAPE, NAME_VARIANT, NAME_COUNT };

struct draw_ctx {
    struct tui_app *app;
    struct compare_state *s;
    int y, x, w;
    int cw[COL_COUNT]; /* cells of each column; 0: not shown */
    struct name_cuts cuts; /* where each name on screen first differs from its neighbours' */
};

/* Visible row `row`'s name in name column col (name_cuts_find). */
static const char *cut_name(int col, size_t row, const void *ctx)
{
    const struct compare_state *s = ctx;
    const struct cdb_compare_row *r = &s->cmp.rows[s->vis[row]];
    return col == NAME_SUITE ? r->suite : col == NAME_CHECK ? r->check
           : col == NAME_SHAPE ? r->shape : r->variant;
}

static void layout_columns(int w, int cw[COL_COUNT])
{
    const int want[COL_COUNT] = {
        [COL_MARK] = 1,   [COL_RUNG] = 3,     [COL_SUITE] = w >= 130 ? 16 : 12,
        [COL_CHECK] = 0,  [COL_SHAPE] = 24,   [COL_VARIANT] = w >= 110 ? 14 : 9,
        [COL_TIME_A] = 9, [COL_TIME_B] = 9,   [COL_RATIO] = w >= 100 ? 13 : 12,
        [COL_TMARK] = 1,  [COL_BAR] = w >= 110 ? 21 : 11, [COL_VERDICT] = 3};
    int used = 0;
    for (int i = 0; i < COL_COUNT; i++) {
        cw[i] = want[i];
        if (i != COL_CHECK)
            used += cw[i] + 1;
    }
    for (size_t k = 0; k < sizeof give_way / sizeof give_way[0]; k++) {
        enum col c0 = give_way[k][0], c1 = give_way[k][1];
        int room = w - used - 1; /* Check's cells with what is still shown */
        int need = c0 == COL_SHAPE || c0 == COL_BAR ? CHECK_COMFORT : CHECK_MIN;
        if (room >= need)
            continue;
        if (need == CHECK_MIN && cw[COL_SUITE] > SUITE_MIN) {
            /* narrow Suite before anything that tells rows apart or gives a time goes */
            int give = cw[COL_SUITE] - SUITE_MIN < need - room ? cw[COL_SUITE] - SUITE_MIN
                                                               : need - room;
            cw[COL_SUITE] -= give;
            used -= give;
            if (w - used - 1 >= need)
                continue;
        }
        used -= cw[c0] + 1;
        cw[c0] = 0;
        if (c1 != c0) {
            used -= cw[c1] + 1;
            cw[c1] = 0;
        }
    }
    cw[COL_CHECK] = w - used - 1;
    if (cw[COL_CHECK] < 1)
        cw[COL_CHECK] = 1;
}

/* The ratio on a log10 scale (tui/compare_fmt.h), 1× in the middle; "1.00× same" draws none. */
static void ratio_bar(int y, int x, int w, double ratio, enum tui_role role, enum tui_role base)
{
    tui_draw_fill(y, x, w, base);
    int half = (w - 1) / 2;
    tui_draw_text(y, x + half, 1, TUI_ROLE_BORDER, tui_glyph(TUI_GLYPH_VLINE));
    int e = cmp_bar_eighths(ratio, half);
    if (e == 0)
        return;
    char bar[256];
    cmp_fmt_bar(e, tui_draw_ascii(), bar, sizeof bar);
    int cells = text_width(bar);
    if (e > 0)
        tui_draw_text(y, x + half + 1, half, role, bar);
    else
        tui_draw_text(y, x + half - cells, cells, role, bar);
}

/* A side's time; a rung 8 check has none, and shows its score there ("0.625"; the status line
 * says what the selected row's two numbers are). */
static void cell_time(const struct cdb_compare_cell *c, char *buf, size_t len)
{
    if (!c->present) {
        snprintf(buf, len, "%s", "");
    } else if (isnan(c->median_us) && c->score.set) {
        tui_fmt_score_value(&c->score, buf, len);
    } else {
        tui_fmt_us(c->median_us, buf, len);
    }
}

static enum tui_role timing_role(const struct cdb_compare_row *r)
{
    return r->timing == CDB_TIMING_FLAGGED ? TUI_ROLE_WARN
           : r->timing == CDB_TIMING_NOISE ? TUI_ROLE_OK
                                           : TUI_ROLE_DIM;
}

static int draw_verdict(int y, int x, const struct cdb_compare_cell *c, bool selected,
                        enum tui_role base)
{
    if (!c->present)
        return tui_draw_text(y, x, 1, selected ? base : TUI_ROLE_DIM,
                             cmp_not_run(tui_draw_ascii()));
    return tui_draw_text(y, x, 1, selected ? base : tui_verdict_role(c->verdict),
                         tui_verdict_glyph(c->verdict));
}

static void draw_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct cdb_compare_row *r = &c->s->cmp.rows[c->s->vis[row]];
    const int *cw = c->cw;
    int y = c->y + line, x = c->x;
    bool ascii = tui_draw_ascii();
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    char buf[200];
    tui_draw_fill(y, x, c->w, base);
    for (int col = 0; col < COL_COUNT; col++) {
        if (cw[col] <= 0)
            continue;
        int w = cw[col];
        switch ((enum col)col) {
        case COL_MARK:
            tui_draw_text(y, x, w, selected ? base : TUI_ROLE_FAIL, cmp_verdict_mark(r, ascii));
            break;
        case COL_RUNG:
            snprintf(buf, sizeof buf, "R%d", r->rung);
            tui_draw_pad(y, x, w, base, buf);
            break;
        case COL_SUITE:
            name_cuts_draw(&c->cuts, row, NAME_SUITE, y, x, w, base, r->suite);
            break;
        case COL_CHECK:
            name_cuts_draw(&c->cuts, row, NAME_CHECK, y, x, w, base, r->check);
            break;
        case COL_SHAPE:
            name_cuts_draw(&c->cuts, row, NAME_SHAPE, y, x, w, selected ? base : TUI_ROLE_DIM, r->shape);
            break;
        case COL_VARIANT:
            name_cuts_draw(&c->cuts, row, NAME_VARIANT, y, x, w, base, r->variant);
            break;
        case COL_TIME_A:
        case COL_TIME_B:
            cell_time(col == COL_TIME_A ? &r->a : &r->b, buf, sizeof buf);
            tui_draw_right(y, x, w, base, buf);
            break;
        case COL_RATIO:
            if (isnan(r->ratio) && r->scored) /* rung 8: B's score less A's */
                snprintf(buf, sizeof buf, "%+.3g", r->score_diff);
            else if (isnan(r->ratio))
                buf[0] = '\0';
            else
                cmp_fmt_ratio(r->ratio, ascii, c->app->lang == TUI_LANG_ZH, buf, sizeof buf);
            tui_draw_right(y, x, w,
                           selected ? base : r->flagged || r->score_differs ? TUI_ROLE_WARN : base,
                           buf);
            break;
        case COL_TMARK:
            if (r->scored && isnan(r->ratio)) /* rung 8: whether the scores part */
                tui_draw_text(y, x, w, selected ? base : r->score_differs ? TUI_ROLE_WARN
                                                                          : TUI_ROLE_OK,
                              cmp_score_mark(r));
            else
                tui_draw_text(y, x, w, selected ? base : timing_role(r), cmp_timing_mark(r));
            break;
        case COL_BAR:
            ratio_bar(y, x, w, r->ratio, selected ? base : r->flagged ? TUI_ROLE_WARN : TUI_ROLE_DIM,
                      base);
            break;
        case COL_VERDICT: {
            int vx = x;
            vx += draw_verdict(y, vx, &r->a, selected, base);
            vx += tui_draw_text(y, vx, 1, base, "/");
            draw_verdict(y, vx, &r->b, selected, base);
            break;
        }
        default:
            break;
        }
        x += w + 1;
    }
}

/* The column a sort key orders by, for the ↓ in its heading. */
static enum col sort_col(enum cmp_sort k)
{
    switch (k) {
    case CMP_SORT_RATIO:
        return COL_RATIO;
    case CMP_SORT_TIME_A:
        return COL_TIME_A;
    case CMP_SORT_TIME_B:
        return COL_TIME_B;
    case CMP_SORT_VERDICT:
        return COL_VERDICT;
    default:
        return COL_COUNT;
    }
}

static void draw_heading(struct tui_app *app, struct compare_state *s, int y, int x, int w,
                         const int cw[COL_COUNT])
{
    bool zh = app->lang == TUI_LANG_ZH;
    const char *const names[COL_COUNT][2] = {
        [COL_MARK] = {"", ""},           [COL_RUNG] = {"R", "阶"},
        [COL_SUITE] = {"Suite", "套件"}, [COL_CHECK] = {"Check", "检查"},
        [COL_SHAPE] = {"Shape", "形状"}, [COL_VARIANT] = {"Variant", "变体"},
        [COL_TIME_A] = {"Time A", "时间 A"}, [COL_TIME_B] = {"Time B", "时间 B"},
        [COL_RATIO] = {"B vs A", "B 对 A"}, [COL_TMARK] = {"", ""},
        [COL_BAR] = {"", ""},            [COL_VERDICT] = {"A/B", "A/B"}};
    tui_draw_fill(y, x, w, TUI_ROLE_COLHEAD);
    enum col sorted = sort_col(s->sel.sort);
    for (int col = 0; col < COL_COUNT; col++) {
        if (cw[col] <= 0)
            continue;
        char buf[64];
        const char *t = names[col][zh];
        if (col == COL_BAR)
            t = cw[col] >= 17 ? "÷10⁴ ← 1× → ×10⁴" : zh ? "快 ← → 慢" : "fast←│→slow";
        snprintf(buf, sizeof buf, "%s%s", t, col == (int)sorted ? "↓" : "");
        bool right = col == COL_TIME_A || col == COL_TIME_B || col == COL_RATIO;
        if (right)
            tui_draw_right(y, x, cw[col], TUI_ROLE_COLHEAD, buf);
        else
            tui_draw_pad(y, x, cw[col], TUI_ROLE_COLHEAD, buf);
        x += cw[col] + 1;
    }
}

/* One line of counts, the long form when it fits, else the marks alone: never wrapped. */
static void draw_counts(struct tui_app *app, struct compare_state *s, int y, int x, int w)
{
    const struct cdb_compare_summary *m = &s->cmp.summary;
    bool zh = app->lang == TUI_LANG_ZH, ascii = tui_draw_ascii();
    const char *ne = ascii ? "#" : "≠";
    char rung[32] = "", buf[512];
    if (s->rung >= 0)
        snprintf(rung, sizeof rung, " · %s %d", zh ? "阶梯" : "rung", s->rung);
    char skipped[128] = "";
    if (m->skipped_one)
        snprintf(skipped, sizeof skipped, zh ? " · 一方跳过 %d" : " · skipped on one side %d",
                 m->skipped_one);
    if (m->scored) { /* rung 8: how many of the scored rows part (!) */
        size_t l = strlen(skipped);
        snprintf(skipped + l, sizeof skipped - l, zh ? " · 得分相差 %d/%d" : " · scores apart %d of %d",
                 m->differing_scores, m->scored);
    }
    if (zh)
        snprintf(buf, sizeof buf,
                 "%zu 行%s · ! 差异 %d · ~ 噪声内 %d · ? 未判断 %d · %s 判定不同 %d%s · 仅 A %d · 仅 B %d",
                 s->cmp.n, rung, m->flagged, m->noise, m->few_repeats, ne, m->differing_verdicts,
                 skipped, m->only_a, m->only_b);
    else
        snprintf(buf, sizeof buf,
                 "%zu rows%s · ! %d flagged · ~ %d within noise · ? %d not judged · %s %d verdicts "
                 "differ%s · only A %d · only B %d",
                 s->cmp.n, rung, m->flagged, m->noise, m->few_repeats, ne, m->differing_verdicts,
                 skipped, m->only_a, m->only_b);
    if (text_width(buf) > w) {
        int l = snprintf(buf, sizeof buf, "%zu %s%s · !%d ~%d ?%d %s%d · A %d B %d", s->cmp.n,
                         zh ? "行" : "rows", rung, m->flagged, m->noise, m->few_repeats, ne,
                         m->differing_verdicts, m->only_a, m->only_b);
        if (m->scored && l > 0 && (size_t)l < sizeof buf)
            snprintf(buf + l, sizeof buf - (size_t)l, zh ? " · 得分 !%d/%d" : " · scores !%d/%d",
                     m->differing_scores, m->scored);
    }
    tui_draw_text(y, x, w,
                  m->flagged || m->differing_verdicts || m->differing_scores ? TUI_ROLE_WARN
                                                                             : TUI_ROLE_NORMAL,
                  buf);
}

static void compare_draw(struct tui_app *app, void *state)
{
    struct compare_state *s = state;
    if (!s->sides_ready || s->gen != app->results_gen)
        load(app, s);
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, x = r->x + 1, w = r->w - 2, ymax = r->y + r->h;
    char buf[512];
    if (s->every) {
        every_host_draw(app, &s->eh, y, x, w, ymax);
        return;
    }
    /* every heading line is cut to the width, never wrapped */
    snprintf(buf, sizeof buf, "A %s", s->a >= 0 ? s->sides[s->a].label : "—");
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    snprintf(buf, sizeof buf, "B %s", s->b >= 0 ? s->sides[s->b].label : "—");
    tui_draw_text(y++, x, w, TUI_ROLE_TITLE, buf);
    if (s->one_machine && !s->err[0]) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_WARN,
                      tui_tr(app, "Only one machine has results: pull another host (P) or run on "
                                  "another backend",
                             "只有一台机器有结果：拉取其他主机（P），或用另一后端运行"));
        return;
    }
    if (s->err[0]) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_WARN, s->err);
        return;
    }
    if (s->reading) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_DIM,
                      tui_tr(app, "Matching the two sides' checks…", "正在匹配两方的检查…"));
        return;
    }
    cmp_fmt_speed(&s->cmp.summary, s->sides[s->a].name, s->sides[s->b].name, tui_draw_ascii(),
                  app->lang == TUI_LANG_ZH, buf, sizeof buf);
    tui_draw_text(y++, x, w, TUI_ROLE_NORMAL, buf);
    draw_counts(app, s, y++, x, w);

    struct draw_ctx c = {.app = app, .s = s, .x = x, .w = w};
    layout_columns(w, c.cw);
    draw_heading(app, s, y++, x, w, c.cw);
    s->head_x0 = x;
    memcpy(s->head_cw, c.cw, sizeof c.cw);
    s->list_y0 = y;
    c.y = y;
    if (s->n_vis == 0) {
        bool narrowed = s->sel.only_flagged || s->sel.only_both || s->sel.verdict >= 0 ||
                        s->search[0];
        tui_draw_text(y + 1, x, w, TUI_ROLE_DIM,
                      narrowed ? tui_tr(app, "No row matches the filters. x clears them.",
                                        "没有符合筛选的行。按 x 清除筛选。")
                               : tui_tr(app, "No check was run on both sides or either side.",
                                        "两方都没有运行过检查。"));
        return;
    }
    tui_list_set_height(&s->list, ymax - y);
    name_cuts_find(&c.cuts, s->list.top, ymax - y, s->n_vis, NAME_COUNT, cut_name, s);
    tui_list_draw(&s->list, ymax - y, draw_row, &c);
}

/* ---- actions ---- */

static void next_side(struct compare_state *s, int *side, int other)
{
    if (s->n_sides == 0)
        return;
    s->picked = true;
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
    if (act == TUI_ACT_COMPARE_EVERY) {
        s->every = !s->every;
        load(app, s);
        return TUI_R_DRAW;
    }
    if (s->every) {
        unsigned r = every_host_action(app, &s->eh, act);
        if (r != TUI_R_UNHANDLED)
            return r;
        if (act == TUI_ACT_COMPARE_A) { /* the next host becomes the baseline */
            for (size_t i = 0; i < s->n_sides; i++) {
                next_side(s, &s->a, -1);
                if (!s->sides[s->a].machine && (s->a > 0 || s->local_ran))
                    break;
            }
            load(app, s);
            return TUI_R_DRAW;
        }
        if (act == TUI_ACT_COMPARE_RUNG) {
            s->rung = s->rung < 0 ? 1 : s->rung >= tui_app_ladder_len(app) ? -1 : s->rung + 1;
            load(app, s);
            return TUI_R_DRAW;
        }
        /* b, o and V are two-side filters */
        if (act == TUI_ACT_COMPARE_B || act == TUI_ACT_COMPARE_BOTH ||
            act == TUI_ACT_COMPARE_VERDICT)
            return TUI_R_NONE;
        return TUI_R_UNHANDLED;
    }
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
        s->rung = s->rung < 0 ? 1 : s->rung >= tui_app_ladder_len(app) ? -1 : s->rung + 1;
        tui_list_first(l);
        load(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_COMPARE_FLAGGED:
        s->sel.only_flagged = !s->sel.only_flagged;
        tui_list_first(l);
        select_rows(s);
        return TUI_R_DRAW;
    case TUI_ACT_COMPARE_BOTH:
        s->sel.only_both = !s->sel.only_both;
        tui_list_first(l);
        select_rows(s);
        return TUI_R_DRAW;
    case TUI_ACT_COMPARE_VERDICT:
        /* pass … cancelled in turn, then every verdict (running never reaches a comparison) */
        s->sel.verdict = s->sel.verdict + 1 >= CDB_RUNNING ? -1 : s->sel.verdict + 1;
        tui_list_first(l);
        select_rows(s);
        return TUI_R_DRAW;
    case TUI_ACT_SORT: /* name, ratio (B slowest first), time A, time B, verdict in turn */
        s->sel.sort = (enum cmp_sort)((s->sel.sort + 1) % CMP_SORT_COUNT);
        tui_list_first(l);
        select_rows(s);
        return TUI_R_DRAW;
    case TUI_ACT_COMPARE_CLEAR:
        cmp_select_init(&s->sel);
        s->search[0] = '\0';
        s->sel.text = s->search;
        tui_list_first(l);
        select_rows(s);
        return TUI_R_DRAW;
    case TUI_ACT_OPEN: {
        if (s->n_vis == 0)
            return TUI_R_NONE;
        /* the matched check itself, in B's run (A's when B has none) */
        const struct cdb_compare_row *r = &s->cmp.rows[s->vis[l->sel]];
        const struct cdb_compare_cell *side = r->b.present && r->b.run_uuid ? &r->b : &r->a;
        if (side->run_uuid)
            tui_app_open(app, TUI_VIEW_RUN,
                         &(struct tui_open){.id = side->run_uuid, .has_check = true,
                                            .check_seq = side->seq});
        return TUI_R_DRAW;
    }
    default:
        return TUI_R_UNHANDLED;
    }
}

/* The sort key of a heading column: a click on a heading sorts by it, a second click goes back
 * to name order. */
static enum cmp_sort sort_of_col(enum col c)
{
    switch (c) {
    case COL_TIME_A:
        return CMP_SORT_TIME_A;
    case COL_TIME_B:
        return CMP_SORT_TIME_B;
    case COL_RATIO:
    case COL_TMARK:
    case COL_BAR:
        return CMP_SORT_RATIO;
    case COL_MARK:
    case COL_VERDICT:
        return CMP_SORT_VERDICT;
    default:
        return CMP_SORT_NAME;
    }
}

static unsigned compare_mouse(struct tui_app *app, void *state, int y, int x, int wheel)
{
    (void)app;
    struct compare_state *s = state;
    if (y == s->list_y0 - 1 && !wheel && s->loaded) {
        int cx = s->head_x0;
        for (int c = 0; c < COL_COUNT; c++) {
            if (s->head_cw[c] <= 0)
                continue;
            if (x >= cx && x < cx + s->head_cw[c] + 1) {
                enum cmp_sort k = sort_of_col((enum col)c);
                s->sel.sort = s->sel.sort == k ? CMP_SORT_NAME : k;
                tui_list_first(&s->list);
                select_rows(s);
                return TUI_R_DRAW;
            }
            cx += s->head_cw[c] + 1;
        }
        return TUI_R_NONE;
    }
    return tui_list_mouse(&s->list, y - s->list_y0, wheel, NULL) == TUI_LIST_NO_ROW ? TUI_R_NONE
                                                                                 : TUI_R_DRAW;
}

static void compare_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct compare_state *s = state;
    if (s->every) {
        every_host_status(app, &s->eh, buf, len);
        return;
    }
    bool zh = app->lang == TUI_LANG_ZH;
    char what[400] = "";
    size_t o = 0;
#define ADD(...) o += (size_t)snprintf(what + o, o < sizeof what ? sizeof what - o : 0, __VA_ARGS__)
    if (s->sel.sort != CMP_SORT_NAME)
        ADD(zh ? " · 按%s排序" : " · sorted by %s", cmp_sort_name(s->sel.sort));
    if (s->sel.only_flagged)
        ADD("%s", zh ? " · 仅 !/≠" : " · only !/≠");
    if (s->sel.only_both)
        ADD("%s", zh ? " · 两方都有" : " · on both sides");
    if (s->sel.verdict >= 0)
        ADD(zh ? " · 判定 %s" : " · verdict %s", cdb_verdict_name((enum cdb_verdict)s->sel.verdict));
    if (s->search[0]) {
        char *t = text_fit(s->search, 24, tui_draw_ascii(), NULL);
        ADD(" · /%s", t);
        free(t);
    }
    /* why the selected row is marked as it is */
    if (s->n_vis && s->list.sel < s->n_vis) {
        char why[160];
        cmp_explain(&s->cmp.rows[s->vis[s->list.sel]], zh, why, sizeof why);
        ADD(" · %s", why);
    }
#undef ADD
    if (zh)
        snprintf(buf, len, "第 %zu / %zu 行%s · a/b 换一方 · s 排序 · f/o/V 筛选 · / 搜索",
                 s->n_vis ? s->list.sel + 1 : 0, s->n_vis, what);
    else
        snprintf(buf, len, "Row %zu of %zu%s · a/b change a side · s sort · f/o/V filter · / search",
                 s->n_vis ? s->list.sel + 1 : 0, s->n_vis, what);
}

/* Incremental: every keystroke narrows the rows to those whose suite, check, shape or variant
 * holds the text. */
static void compare_search(struct tui_app *app, void *state, const char *text)
{
    (void)app;
    struct compare_state *s = state;
    if (s->every) {
        every_host_search(&s->eh, text);
        return;
    }
    snprintf(s->search, sizeof s->search, "%s", text);
    tui_list_first(&s->list);
    select_rows(s);
}

static const char *compare_search_text(void *state)
{
    struct compare_state *s = state;
    return s->every ? s->eh.search : s->search;
}

static void compare_changed(struct tui_app *app, void *state)
{
    (void)app;
    ((struct compare_state *)state)->sides_ready = false; /* labels in the new language */
}

/* Sort steps through the orders (no reverse: each order already puts what matters first). */
static bool compare_offers(struct tui_app *app, void *state, enum tui_action act)
{
    (void)state;
    return act == TUI_ACT_SORT || tui_app_offers_default(app, act);
}

const struct tui_view_ops tui_view_compare = {
    .name = "compare",
    .scope = TUI_SCOPE_COMPARE,
    .keys_title = {"Compare", "对比"},
    .init = compare_init,
    .fini = compare_fini,
    .draw = compare_draw,
    .action = compare_action,
    .mouse = compare_mouse,
    .search = compare_search,
    .search_text = compare_search_text,
    .status = compare_status,
    .changed = compare_changed,
    .offers = compare_offers,
};
