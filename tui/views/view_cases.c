/* Cases: the list of cases with a sidebar of filters (gap, rung, repo, symptom, has a reproducer,
 * each with the count it would give) and incremental search. Search is a filter here: the list
 * shows only the cases whose text contains every word; n/N then move between rows that show the
 * text. A ▶ marks the cases with a built-in reproducer (r runs it); s sorts by the next column,
 * S reverses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "tui/draw.h"
#include "tui/views/list.h"
#include "tui/views/model_vs_unit.h"
#include "tui/views/view.h"

enum side_kind { SIDE_HEAD, SIDE_REPRO, SIDE_GAP, SIDE_RUNG, SIDE_REPO, SIDE_SYMPTOM };

/* What s cycles through; SORT_INDEX is the query's own order (gap, rung, id). */
enum sort_key { SORT_INDEX, SORT_ID, SORT_REPO, SORT_GAP, SORT_RUNG, SORT_REPRO, SORT_TITLE,
                SORT_COUNT };

struct side_item {
    enum side_kind kind;
    int n;        /* gap or rung number; for heads, the kind of the section */
    char *value;  /* repo or symptom */
    int count;
};

struct cases_state {
    bool repro_only; /* only cases with a built-in reproducer */
    enum sort_key sort;
    bool sort_desc;
    int gap, rung;
    char *repo, *symptom;
    char search[TUI_SEARCH_MAX + 1];
    struct cdb_case_list cases;
    struct tui_list list;
    struct side_item *side;
    size_t n_side;
    struct tui_list sl;
    bool focus_side;
    int total;
    int list_y0;  /* screen row of the first list row, for the mouse */
};

static void side_free(struct cases_state *s)
{
    for (size_t i = 0; i < s->n_side; i++)
        free(s->side[i].value);
    free(s->side);
    s->side = NULL;
    s->n_side = 0;
}

static void side_push(struct cases_state *s, size_t *cap, enum side_kind k, int n,
                      const char *value, int count)
{
    if (s->n_side == *cap) {
        *cap = *cap ? *cap * 2 : 32;
        s->side = xrealloc(s->side, *cap * sizeof *s->side);
    }
    s->side[s->n_side++] = (struct side_item){
        .kind = k, .n = n, .value = xstrdup_or_null(value), .count = count};
}

static int facet_count(const struct cdb_facet *f, size_t n, const char *value)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].value, value) == 0)
            return f[i].count;
    return 0;
}

static void filter_of(const struct cases_state *s, struct cdb_case_filter *f)
{
    memset(f, 0, sizeof *f);
    f->gap = s->gap;
    f->rung = s->rung;
    f->repo = s->repo;
    f->symptom = s->symptom;
    f->search = s->search[0] ? s->search : NULL;
}

/* The sort in force, for qsort (the interface is one thread). */
static enum sort_key sort_by;
static bool sort_zh;

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static const char *title_of(const struct cdb_case *c)
{
    return sort_zh && c->title_zh && *c->title_zh ? c->title_zh : c->title_en;
}

static int cmp_case(const void *pa, const void *pb)
{
    const struct cdb_case *a = pa, *b = pb;
    int d = 0;
    switch (sort_by) {
    case SORT_ID:
        break;
    case SORT_REPO:
        d = cmp_str(a->repo, b->repo);
        break;
    case SORT_GAP:
        d = a->gap - b->gap;
        break;
    case SORT_RUNG:
        d = a->rung - b->rung;
        break;
    case SORT_REPRO: /* those with a reproducer first */
        d = (b->reproducer != NULL) - (a->reproducer != NULL);
        break;
    case SORT_TITLE:
        d = cmp_str(title_of(a), title_of(b));
        break;
    default:
        break;
    }
    return d ? d : cmp_str(a->id, b->id); /* ids are unique: a total order */
}

static void sort_cases(const struct tui_app *app, struct cases_state *s)
{
    if (s->sort == SORT_INDEX && !s->sort_desc)
        return;
    sort_by = s->sort;
    sort_zh = app->lang == TUI_LANG_ZH;
    if (s->sort != SORT_INDEX)
        qsort(s->cases.items, s->cases.n, sizeof s->cases.items[0], cmp_case);
    if (s->sort_desc)
        for (size_t i = 0, j = s->cases.n; i + 1 < j--; i++) {
            struct cdb_case t = s->cases.items[i];
            s->cases.items[i] = s->cases.items[j];
            s->cases.items[j] = t;
        }
}

/* Keeps the cases with a built-in reproducer when that filter is on; returns how many of the
 * cases under the other filters have one (the count the sidebar shows). */
static int filter_repro(struct cases_state *s)
{
    int with = 0;
    size_t kept = 0;
    for (size_t i = 0; i < s->cases.n; i++) {
        struct cdb_case *c = &s->cases.items[i];
        if (c->reproducer)
            with++;
        if (!s->repro_only || c->reproducer)
            s->cases.items[kept++] = *c;
        else
            cdb_case_free(c);
    }
    s->cases.n = kept;
    return with;
}

static void requery(struct tui_app *app, struct cases_state *s)
{
    char err[256];
    struct cdb_case_filter f;
    filter_of(s, &f);
    cdb_case_list_free(&s->cases);
    memset(&s->cases, 0, sizeof s->cases);
    if (cdb_cases_query(app->db, &f, &s->cases, err, sizeof err) != 0)
        tui_app_message(app, "%s", err);
    int with_repro = filter_repro(s);
    sort_cases(app, s);
    tui_list_set_count(&s->list, s->cases.n);

    size_t cap = 0;
    side_free(s);
    static const enum cdb_facet_kind kinds[] = {CDB_FACET_GAP, CDB_FACET_RUNG, CDB_FACET_REPO,
                                                CDB_FACET_SYMPTOM};
    for (int k = 0; k < 4; k++) {
        struct cdb_facet *fa = NULL;
        size_t nf = 0;
        if (cdb_facets(app->db, kinds[k], &f, &fa, &nf, err, sizeof err) != 0)
            tui_app_message(app, "%s", err);
        side_push(s, &cap, SIDE_HEAD, SIDE_GAP + k, NULL, 0);
        if (k < 2) {
            int max = k == 0 ? CDB_GAPS : tui_app_ladder_len(app);
            for (int i = 1; i <= max; i++) {
                char v[16];
                snprintf(v, sizeof v, "%d", i);
                side_push(s, &cap, k == 0 ? SIDE_GAP : SIDE_RUNG, i, NULL,
                          facet_count(fa, nf, v));
            }
        } else {
            const char *sel = k == 2 ? s->repo : s->symptom;
            bool sel_listed = false;
            for (size_t i = 0; i < nf; i++) {
                side_push(s, &cap, k == 2 ? SIDE_REPO : SIDE_SYMPTOM, 0, fa[i].value,
                          fa[i].count);
                if (sel && strcmp(sel, fa[i].value) == 0)
                    sel_listed = true;
            }
            if (sel && !sel_listed) /* keep the active filter visible so it can be turned off */
                side_push(s, &cap, k == 2 ? SIDE_REPO : SIDE_SYMPTOM, 0, sel, 0);
        }
        cdb_facets_free(fa, nf);
    }
    /* The reproducer filter is not the database's (the facets above do not count it): it
     * works on the list the other filters give. Last, so the sections above keep their rows. */
    side_push(s, &cap, SIDE_HEAD, SIDE_REPRO, NULL, 0);
    side_push(s, &cap, SIDE_REPRO, 0, NULL, with_repro);
    tui_list_set_count(&s->sl, s->n_side);
}

static bool cases_offers(struct tui_app *app, void *state, enum tui_action act)
{
    (void)state;
    return act == TUI_ACT_SORT || act == TUI_ACT_SORT_REVERSE || tui_app_offers_default(app, act);
}

static void *cases_init(struct tui_app *app)
{
    struct cases_state *s = xcalloc(1, sizeof *s);
    char err[256];
    if (cdb_case_count(app->db, &s->total, err, sizeof err) != 0)
        s->total = 0;
    requery(app, s);
    s->sl.sel = 1; /* first gap, not the heading */
    return s;
}

static void cases_fini(void *state)
{
    struct cases_state *s = state;
    cdb_case_list_free(&s->cases);
    side_free(s);
    free(s->repo);
    free(s->symptom);
    free(s);
}

static bool side_active(const struct cases_state *s, const struct side_item *it)
{
    switch (it->kind) {
    case SIDE_REPRO:
        return s->repro_only;
    case SIDE_GAP:
        return s->gap == it->n;
    case SIDE_RUNG:
        return s->rung == it->n;
    case SIDE_REPO:
        return s->repo && strcmp(s->repo, it->value) == 0;
    case SIDE_SYMPTOM:
        return s->symptom && strcmp(s->symptom, it->value) == 0;
    default:
        return false;
    }
}

static void set_str(char **dst, const char *v)
{
    free(*dst);
    *dst = xstrdup_or_null(v);
}

/* Turns the filter of a sidebar item on, or off when it is on; one value per kind. */
static void side_toggle(struct tui_app *app, struct cases_state *s, size_t i)
{
    if (i >= s->n_side)
        return;
    const struct side_item *it = &s->side[i];
    bool on = side_active(s, it);
    char *value = xstrdup_or_null(it->value); /* requery frees the items */
    switch (it->kind) {
    case SIDE_REPRO:
        s->repro_only = !on;
        break;
    case SIDE_GAP:
        s->gap = on ? 0 : it->n;
        break;
    case SIDE_RUNG:
        s->rung = on ? 0 : it->n;
        break;
    case SIDE_REPO:
        set_str(&s->repo, on ? NULL : value);
        break;
    case SIDE_SYMPTOM:
        set_str(&s->symptom, on ? NULL : value);
        break;
    case SIDE_HEAD:
        free(value);
        return;
    }
    free(value);
    tui_list_first(&s->list);
    requery(app, s);
}

/* Enter on a dashboard cell: the cases of that gap and rung, every other filter off. */
static bool cases_open(struct tui_app *app, void *state, const struct tui_open *what)
{
    struct cases_state *s = state;
    s->gap = what->gap;
    s->rung = what->rung;
    set_str(&s->repo, NULL);
    set_str(&s->symptom, NULL);
    s->repro_only = false;
    s->search[0] = '\0';
    s->focus_side = false;
    tui_list_first(&s->list);
    requery(app, s);
    app->detail_open = false;
    tui_app_show(app, TUI_VIEW_CASES);
    return true;
}

/* ---- drawing ---- */

static enum tui_role gap_role(int gap)
{
    return gap >= 1 && gap <= 7 ? (enum tui_role)(TUI_ROLE_GAP1 + gap - 1) : TUI_ROLE_NORMAL;
}

struct draw_ctx {
    struct tui_app *app;
    struct cases_state *s;
    int y, x, w;
    int id_w, repo_w, gap_w, rung_w, repro_w, sym_w, title_w;
};

/* The mark of a case with a built-in reproducer: r runs it. */
static const char *repro_mark(void)
{
    return tui_draw_ascii() ? ">" : "▶";
}

static void draw_side_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct side_item *it = &c->s->side[row];
    struct tui_app *app = c->app;
    int y = c->y + line;
    char label[128];
    if (it->kind == SIDE_HEAD) {
        static const char *const heads[][2] = {{"Reproducer", "复现"}, {"Gaps", "缺口"},
                                               {"Rungs", "阶梯"},      {"Repos", "仓库"},
                                               {"Symptoms", "症状"}};
        tui_draw_pad(y, c->x, c->w, TUI_ROLE_COLHEAD, tui_tr(app, heads[it->n - SIDE_REPRO][0],
                                                               heads[it->n - SIDE_REPRO][1]));
        return;
    }
    if (it->kind == SIDE_REPRO) {
        snprintf(label, sizeof label, "%s %s", repro_mark(), tui_tr(app, "has one", "有"));
    } else if (it->kind == SIDE_GAP) {
        const struct cdb_gap *g = tui_app_gap(app, it->n);
        snprintf(label, sizeof label, "%d %s", it->n, g ? tui_tr(app, g->name_en, g->name_zh) : "");
    } else if (it->kind == SIDE_RUNG) {
        const struct cdb_rung *r = tui_app_rung(app, it->n);
        snprintf(label, sizeof label, "%d %s", it->n, r ? tui_tr(app, r->name_en, r->name_zh) : "");
    } else {
        snprintf(label, sizeof label, "%s", it->value);
    }
    bool on = side_active(c->s, it);
    enum tui_role role = selected ? (c->s->focus_side ? TUI_ROLE_SELECTED
                                                      : TUI_ROLE_SELECTED_INACTIVE)
                         : on                   ? TUI_ROLE_TITLE
                         : it->count == 0       ? TUI_ROLE_DIM
                         : it->kind == SIDE_GAP ? gap_role(it->n)
                                                : TUI_ROLE_NORMAL;
    char count[16];
    snprintf(count, sizeof count, "%d", it->count);
    int cw = 4;
    tui_draw_pad(y, c->x, 2, role, on ? tui_glyph(TUI_GLYPH_MARK) : "");
    tui_draw_pad(y, c->x + 2, c->w - 2 - cw, role, label);
    tui_draw_right(y, c->x + c->w - cw, cw - 1, role, count);
    tui_draw_fill(y, c->x + c->w - 1, 1, role);
}

static char *join(char **v, size_t n)
{
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(v[i]) + 1;
    char *out = xmalloc(len);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(out, ",");
        strcat(out, v[i]);
    }
    return out;
}

static void draw_case_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct cdb_case *k = &c->s->cases.items[row];
    struct tui_app *app = c->app;
    int y = c->y + line, x = c->x;
    enum tui_role base = selected ? (c->s->focus_side ? TUI_ROLE_SELECTED_INACTIVE
                                                      : TUI_ROLE_SELECTED)
                                  : TUI_ROLE_NORMAL;
    const char *term = c->s->search;
    char buf[16];
    tui_draw_hl(y, x, c->id_w, base, TUI_ROLE_SEARCH_MATCH, k->id, term);
    x += c->id_w;
    tui_draw_fill(y, x++, 1, base);
    tui_draw_pad(y, x, c->repo_w, base, k->repo);
    x += c->repo_w;
    tui_draw_fill(y, x++, 1, base);
    snprintf(buf, sizeof buf, "G%d", k->gap);
    tui_draw_pad(y, x, c->gap_w, selected ? base : gap_role(k->gap), buf);
    x += c->gap_w;
    tui_draw_fill(y, x++, 1, base);
    snprintf(buf, sizeof buf, "R%d", k->rung);
    tui_draw_pad(y, x, c->rung_w, base, buf);
    x += c->rung_w;
    tui_draw_fill(y, x++, 1, base);
    tui_draw_pad(y, x, c->repro_w, selected ? base : TUI_ROLE_OK, k->reproducer ? repro_mark() : "");
    x += c->repro_w;
    tui_draw_fill(y, x++, 1, base);
    if (c->sym_w > 0) {
        char *sym = join(k->symptoms, k->n_symptoms);
        tui_draw_hl(y, x, c->sym_w, selected ? base : TUI_ROLE_DIM, TUI_ROLE_SEARCH_MATCH, sym,
                    term);
        free(sym);
        x += c->sym_w;
        tui_draw_fill(y, x++, 1, base);
    }
    tui_draw_hl(y, x, c->title_w, base, TUI_ROLE_SEARCH_MATCH,
                tui_tr(app, k->title_en, k->title_zh), term);
}

static void layout_columns(struct draw_ctx *c)
{
    struct tui_app *app = c->app;
    c->id_w = 8;
    for (size_t i = 0; i < c->s->cases.n; i++) {
        int w = text_width(c->s->cases.items[i].id);
        if (w > c->id_w)
            c->id_w = w;
    }
    if (c->id_w > 16)
        c->id_w = 16;
    /* A heading may carry the sort's ▲ or ▼: one cell more than its text. */
    if (c->id_w < text_width(tui_tr(app, "Case", "案例")) + 1)
        c->id_w = text_width(tui_tr(app, "Case", "案例")) + 1;
    c->repo_w = 6;
    if (c->repo_w < text_width(tui_tr(app, "Repo", "仓库")) + 1)
        c->repo_w = text_width(tui_tr(app, "Repo", "仓库")) + 1;
    c->gap_w = text_width(tui_tr(app, "Gap", "缺口")) + 1;
    c->rung_w = text_width(tui_tr(app, "Rung", "阶梯")) + 1;
    c->repro_w = text_width(tui_tr(app, "Repro", "复现")) + 1;
    int fixed = c->id_w + c->repo_w + c->gap_w + c->rung_w + c->repro_w + 5;
    c->sym_w = c->w >= 100 ? 22 : c->w >= 80 ? 14 : 0;
    if (c->sym_w)
        fixed += c->sym_w + 1;
    c->title_w = c->w - fixed;
    if (c->title_w < 10 && c->sym_w) {
        c->title_w += c->sym_w + 1;
        c->sym_w = 0;
    }
}

/* A column heading, with ▲ or ▼ when the list is sorted by it; returns the cells used. */
static int head(const struct draw_ctx *c, int x, int w, const char *label, enum sort_key key)
{
    char buf[64];
    if (c->s->sort == key && key != SORT_INDEX)
        snprintf(buf, sizeof buf, "%s%s", label,
                 tui_draw_ascii() ? (c->s->sort_desc ? "v" : "^") : (c->s->sort_desc ? "▼" : "▲"));
    else
        snprintf(buf, sizeof buf, "%s", label);
    tui_draw_pad(c->y, x, w + 1, TUI_ROLE_COLHEAD, buf);
    return w + 1;
}

static void cases_draw(struct tui_app *app, void *state)
{
    struct cases_state *s = state;
    const struct tui_layout *lay = &app->lay;
    struct draw_ctx c = {.app = app, .s = s};

    /* Sidebar. */
    c.y = lay->sidebar.y;
    c.x = lay->sidebar.x;
    c.w = lay->sidebar.w;
    tui_list_draw(&s->sl, lay->sidebar.h, draw_side_row, &c);
    for (int y = lay->sep.y; y < lay->sep.y + lay->sep.h; y++)
        tui_draw_text(y, lay->sep.x, 1, TUI_ROLE_BORDER, tui_glyph(TUI_GLYPH_VLINE));

    /* Column headers, then the rows. */
    c.y = lay->main.y;
    c.x = lay->main.x + 1;
    c.w = lay->main.w - 1;
    layout_columns(&c);
    int x = c.x;
    x += head(&c, x, c.id_w, tui_tr(app, "Case", "案例"), SORT_ID);
    x += head(&c, x, c.repo_w, tui_tr(app, "Repo", "仓库"), SORT_REPO);
    x += head(&c, x, c.gap_w, tui_tr(app, "Gap", "缺口"), SORT_GAP);
    x += head(&c, x, c.rung_w, tui_tr(app, "Rung", "阶梯"), SORT_RUNG);
    x += head(&c, x, c.repro_w, tui_tr(app, "Repro", "复现"), SORT_REPRO);
    if (c.sym_w)
        x += head(&c, x, c.sym_w, tui_tr(app, "Symptoms", "症状"), SORT_COUNT);
    head(&c, x, c.title_w - 1, tui_tr(app, "Title", "标题"), SORT_TITLE);
    c.y = lay->main.y + 1;
    s->list_y0 = c.y;
    if (s->cases.n == 0) {
        tui_draw_text(c.y + 1, c.x, c.w, TUI_ROLE_DIM,
                      tui_tr(app, "No case matches. x clears the filters and the search.",
                             "没有匹配的案例。按 x 清除筛选和搜索。"));
        return;
    }
    tui_list_draw(&s->list, lay->main.h - 1, draw_case_row, &c);
}

/* ---- actions ---- */

static void side_move(struct cases_state *s, long delta)
{
    tui_list_move(&s->sl, delta);
    /* Headings cannot be selected: step over them, back the other way at the ends. */
    while (s->sl.sel < s->n_side && s->side[s->sl.sel].kind == SIDE_HEAD) {
        if (delta >= 0 && s->sl.sel + 1 < s->n_side)
            tui_list_move(&s->sl, 1);
        else if (s->sl.sel > 0) {
            tui_list_move(&s->sl, -1);
            delta = -1;
        } else {
            tui_list_move(&s->sl, 1);
            delta = 1;
        }
    }
}

struct match_ctx {
    struct tui_app *app;
    const struct cases_state *s;
};

static bool row_shows(size_t row, void *vctx)
{
    struct match_ctx *m = vctx;
    const struct cdb_case *k = &m->s->cases.items[row];
    const char *t = m->s->search;
    if (tui_text_has(k->id, t) || tui_text_has(k->repo, t) ||
        tui_text_has(tui_tr(m->app, k->title_en, k->title_zh), t))
        return true;
    for (size_t i = 0; i < k->n_symptoms; i++)
        if (tui_text_has(k->symptoms[i], t))
            return true;
    return false;
}

static unsigned open_selected(struct tui_app *app, struct cases_state *s)
{
    if (s->focus_side) {
        side_toggle(app, s, s->sl.sel);
        return TUI_R_DRAW;
    }
    if (s->cases.n == 0)
        return TUI_R_NONE;
    tui_app_open(app, TUI_VIEW_DETAIL, &(struct tui_open){.id = s->cases.items[s->list.sel].id});
    return TUI_R_DRAW;
}

static unsigned cases_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct cases_state *s = state;
    struct tui_list *l = s->focus_side ? &s->sl : &s->list;
    switch (act) {
    case TUI_ACT_DOWN:
    case TUI_ACT_UP:
        if (s->focus_side)
            side_move(s, act == TUI_ACT_DOWN ? 1 : -1);
        else
            tui_list_move(l, act == TUI_ACT_DOWN ? 1 : -1);
        return TUI_R_DRAW;
    case TUI_ACT_PAGE_DOWN:
    case TUI_ACT_PAGE_UP:
        tui_list_page(l, act == TUI_ACT_PAGE_DOWN ? 1 : -1);
        if (s->focus_side)
            side_move(s, act == TUI_ACT_PAGE_DOWN ? 1 : -1);
        return TUI_R_DRAW;
    case TUI_ACT_FIRST:
        tui_list_first(l);
        if (s->focus_side)
            side_move(s, 0);
        return TUI_R_DRAW;
    case TUI_ACT_LAST:
        if (s->focus_side) /* the sidebar's last filter: has a reproducer */
            tui_list_last(&s->sl);
        else
            tui_list_last(l);
        return TUI_R_DRAW;
    case TUI_ACT_LEFT:
        s->focus_side = true;
        return TUI_R_DRAW;
    case TUI_ACT_RIGHT:
        s->focus_side = false;
        return TUI_R_DRAW;
    case TUI_ACT_OPEN:
        return open_selected(app, s);
    case TUI_ACT_LAUNCH:
        if (s->cases.n)
            tui_app_open(app, TUI_VIEW_LAUNCH,
                         &(struct tui_open){.id = s->cases.items[s->list.sel].id});
        return TUI_R_DRAW;
    case TUI_ACT_MODEL_VS_UNIT:
        if (s->cases.n)
            tui_model_vs_unit(app, s->cases.items[s->list.sel].id);
        return TUI_R_DRAW;
    case TUI_ACT_FILTER_TOGGLE:
        if (s->focus_side)
            side_toggle(app, s, s->sl.sel);
        else
            tui_list_page(&s->list, 1);
        return TUI_R_DRAW;
    case TUI_ACT_SORT:
    case TUI_ACT_SORT_REVERSE:
        if (act == TUI_ACT_SORT) {
            s->sort = (enum sort_key)((s->sort + 1) % SORT_COUNT);
            s->sort_desc = false;
        } else {
            s->sort_desc = !s->sort_desc;
        }
        tui_list_first(l);
        requery(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_FILTER_CLEAR:
        s->repro_only = false;
        s->gap = s->rung = 0;
        set_str(&s->repo, NULL);
        set_str(&s->symptom, NULL);
        s->search[0] = '\0';
        requery(app, s);
        return TUI_R_DRAW;
    case TUI_ACT_BACK:
        if (s->search[0]) {
            s->search[0] = '\0';
            requery(app, s);
            return TUI_R_DRAW;
        }
        return TUI_R_UNHANDLED;
    case TUI_ACT_SEARCH_NEXT:
    case TUI_ACT_SEARCH_PREV: {
        struct match_ctx m = {app, s};
        if (!s->search[0])
            tui_app_message(app, "%s", tui_tr(app, "No search: / starts one", "没有搜索：按 / 开始"));
        else if (!tui_list_find(&s->list, act == TUI_ACT_SEARCH_NEXT ? 1 : -1, row_shows, &m))
            tui_app_message(app, "%s", tui_tr(app, "No other row shows the text",
                                              "没有其他行显示该文字"));
        s->focus_side = false;
        return TUI_R_DRAW;
    }
    default:
        return TUI_R_UNHANDLED;
    }
}

static unsigned cases_mouse(struct tui_app *app, void *state, int y, int x, int wheel)
{
    struct cases_state *s = state;
    const struct tui_layout *lay = &app->lay;
    bool side = tui_rect_contains(&lay->sidebar, y, x);
    if (wheel) {
        (void)tui_list_mouse(side ? &s->sl : &s->list, 0, wheel, NULL);
        return TUI_R_DRAW;
    }
    if (side) {
        long row = tui_list_row_at(&s->sl, y - lay->sidebar.y);
        if (row < 0 || s->side[row].kind == SIDE_HEAD)
            return TUI_R_NONE;
        s->focus_side = true;
        tui_list_select(&s->sl, (size_t)row);
        side_toggle(app, s, (size_t)row);
        return TUI_R_DRAW;
    }
    if (!tui_rect_contains(&lay->main, y, x))
        return TUI_R_NONE;
    long row = tui_list_row_at(&s->list, y - s->list_y0);
    if (row < 0)
        return TUI_R_NONE;
    bool again = !s->focus_side && (size_t)row == s->list.sel;
    s->focus_side = false;
    tui_list_select(&s->list, (size_t)row);
    return again ? open_selected(app, s) : TUI_R_DRAW;
}

static void cases_search(struct tui_app *app, void *state, const char *text)
{
    struct cases_state *s = state;
    snprintf(s->search, sizeof s->search, "%s", text);
    s->focus_side = false;
    tui_list_first(&s->list);
    requery(app, s);
}

static const char *cases_search_text(void *state)
{
    return ((struct cases_state *)state)->search;
}

static void cases_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct cases_state *s = state;
    size_t o = 0;
    /* The row number tells where the selection is even without colour or reverse video. */
    if (app->lang == TUI_LANG_ZH)
        o += (size_t)snprintf(buf + o, len - o, "第 %zu / %zu 个（索引中共 %d 个）",
                              s->cases.n ? s->list.sel + 1 : 0, s->cases.n, s->total);
    else
        o += (size_t)snprintf(buf + o, len - o, "Case %zu of %zu (%d in the index)",
                              s->cases.n ? s->list.sel + 1 : 0, s->cases.n, s->total);
    if (s->gap && o < len) {
        const struct cdb_gap *g = tui_app_gap(app, s->gap);
        o += (size_t)snprintf(buf + o, len - o, " · %s %d %s", tui_tr(app, "gap", "缺口"), s->gap,
                              g ? tui_tr(app, g->name_en, g->name_zh) : "");
    }
    if (s->rung && o < len) {
        const struct cdb_rung *r = tui_app_rung(app, s->rung);
        o += (size_t)snprintf(buf + o, len - o, " · %s %d %s", tui_tr(app, "rung", "阶梯"),
                              s->rung, r ? tui_tr(app, r->name_en, r->name_zh) : "");
    }
    if (s->repo && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s %s", tui_tr(app, "repo", "仓库"), s->repo);
    if (s->symptom && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s %s", tui_tr(app, "symptom", "症状"),
                              s->symptom);
    if (s->repro_only && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s", tui_tr(app, "with a reproducer", "有复现套件"));
    if (s->search[0] && o < len)
        o += (size_t)snprintf(buf + o, len - o, " · %s \"%s\"", tui_tr(app, "search", "搜索"),
                              s->search);
    static const char *const keys[SORT_COUNT][2] = {
        {"", ""}, {"case", "案例"}, {"repo", "仓库"}, {"gap", "缺口"}, {"rung", "阶梯"},
        {"reproducer", "复现"}, {"title", "标题"}};
    if ((s->sort != SORT_INDEX || s->sort_desc) && o < len)
        snprintf(buf + o, len - o, " · %s %s%s", tui_tr(app, "sorted by", "排序："),
                 s->sort == SORT_INDEX ? tui_tr(app, "gap, rung, case", "缺口、阶梯、案例")
                                       : tui_tr(app, keys[s->sort][0], keys[s->sort][1]),
                 s->sort_desc ? tui_tr(app, ", reversed", "，倒序") : "");
}

const struct tui_view_ops tui_view_cases = {
    .name = "cases",
    .scope = TUI_SCOPE_CASES,
    .keys_title = {"Cases view", "案例视图"},
    .init = cases_init,
    .fini = cases_fini,
    .draw = cases_draw,
    .action = cases_action,
    .mouse = cases_mouse,
    .search = cases_search,
    .search_text = cases_search_text,
    .status = cases_status,
    .open = cases_open,
    .offers = cases_offers,
};
