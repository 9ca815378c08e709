/* Help: generated from the action table (tui/actions.def), grouped by where the keys work, then
 * a glossary (the seven gaps and the ladder's rungs from the database, what each verdict glyph
 * and each mark of the dashboard and Compare means), then a few notes on search, the mouse and
 * colours.
 * `/` finds text, n/N jump between matches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "tui/compare_fmt.h"
#include "tui/views/doc.h"
#include "tui/draw.h"
#include "tui/results_fmt.h"
#include "tui/views/view.h"

struct help_state {
    struct tui_doc doc;
    enum tui_lang lang;
    char term[TUI_SEARCH_MAX + 1];
    bool not_found; /* the last find of term found nothing: the page stayed where it was */
    size_t origin_top, origin_sel; /* the page when the search began, for a word not there */
};

/* Finds term from line `from` in direction dir and brings the match to the top; when there is
 * none, the page stays where it was and the status line says so. */
static void find_from(struct help_state *s, size_t from, int dir)
{
    struct tui_list *l = &s->doc.list;
    size_t sel = l->sel, top = l->top;
    l->sel = from;
    s->not_found = !tui_doc_find(&s->doc, dir, s->term);
    if (s->not_found) {
        l->sel = sel;
        l->top = top;
        return;
    }
    tui_list_scroll(l, (long)l->sel - (long)l->top);
}

static void *help_init(struct tui_app *app)
{
    (void)app;
    struct help_state *s = xcalloc(1, sizeof *s);
    s->doc.width = -1;
    return s;
}

static void help_fini(void *state)
{
    struct help_state *s = state;
    tui_doc_free(&s->doc);
    free(s);
}

/* Key names of one action joined by spaces, for the key column. */
struct keys_buf {
    char text[64];
};

static void add_key(int key, const char *name, void *ctx)
{
    (void)key;
    struct keys_buf *b = ctx;
    size_t n = strlen(b->text);
    snprintf(b->text + n, sizeof b->text - n, "%s%s", n ? " " : "", name);
}

/* One glossary entry: the term in the key column, its meaning wrapped beside it. */
static void entry(struct tui_doc *d, int width, const char *term, const char *meaning)
{
    tui_doc_wrap(d, width, 2, TUI_ROLE_NORMAL, meaning, term, 14, TUI_ROLE_KEY);
}

static void build_glossary(struct tui_app *app, struct tui_doc *d, int width)
{
    bool zh = app->lang == TUI_LANG_ZH;
    char term[64], text[600];
    tui_doc_add(d, TUI_ROLE_COLHEAD, tui_tr(app, "Glossary", "术语表"));
    tui_doc_wrap(d, width, 2, TUI_ROLE_DIM,
                 tui_tr(app, "Gaps are why a unit test that passes misses what a model meets (the "
                             "dashboard's rows); rungs are the kinds of test that close them (its "
                             "columns).",
                        "缺口是通过的单元测试为何漏掉模型遇到的问题（仪表盘的行）；阶梯是补上缺口的测试种类（仪表盘的列）。"),
                 NULL, 0, TUI_ROLE_NORMAL);
    for (size_t i = 0; i < app->n_gaps; i++) {
        const struct cdb_gap *g = &app->gaps[i];
        snprintf(term, sizeof term, "%s %d", tui_tr(app, "gap", "缺口"), g->n);
        snprintf(text, sizeof text, "%s%s%s", tui_tr(app, g->name_en, g->name_zh), zh ? "：" : ": ",
                 tui_tr(app, g->summary_en, g->summary_zh));
        entry(d, width, term, text);
    }
    for (size_t i = 0; i < app->n_rungs; i++) {
        const struct cdb_rung *r = &app->rungs[i];
        snprintf(term, sizeof term, "R%d", r->n);
        snprintf(text, sizeof text, "%s%s%s", tui_tr(app, r->name_en, r->name_zh), zh ? "：" : ": ",
                 tui_tr(app, r->runs_en, r->runs_zh));
        entry(d, width, term, text);
    }
    /* in the order of enum cdb_verdict */
    static const char *const verdicts[][2] = {
        {"the check met its oracle", "检查符合判定器的要求"},
        {"values, bytes or repeats differ from what the oracle wants", "数值、字节或重复结果不符合判定器的要求"},
        {"the watchdog had to stop the work after its time limit", "超过时限，看门狗不得不停止它"},
        {"the check could not run: compile, launch or crash; the detail says which", "检查无法运行：编译、启动或崩溃；详情中说明"},
        {"not run here, with the reason (too large for this backend, no such device)", "未在此运行，并说明原因（对此后端过大、没有该设备）"},
        {"stopped by a person; the checks done before are kept", "被人为停止；之前完成的检查保留"},
        {"under way", "进行中"},
    };
    for (int v = 0; v < (int)(sizeof verdicts / sizeof verdicts[0]); v++) {
        tui_fmt_verdict_lang(v, zh, term, sizeof term);
        entry(d, width, term, verdicts[v][zh]);
    }
    /* the words a run and its checks are described with (docs/engine.md) */
    static const char *const words[][4] = {
        {"inconclusive", "不确定",
         "a run whose buggy variant was neither caught nor shown uncaught: the checks that reach "
         "the bug were skipped here (beyond this backend); it exits 1, never a pass",
         "缺陷变体既未被发现、也未被证明漏掉的运行：能触及缺陷的检查在此被跳过（超出此后端的能力）；"
         "退出码 1，绝不算通过"},
        {"interrupted", "中断",
         "a run whose process went away without finishing (killed, crashed, the machine "
         "rebooted), marked so by the next kladder; the checks it finished are kept",
         "进程未完成就消失的运行（被杀、崩溃、机器重启），由下一个 kladder 标记；已完成的检查保留"},
        {"baseline", "基线",
         "the plain unit test, run beside a rung on both variants: it passes both, which is the "
         "lesson (the unit test did not see the bug)",
         "普通单元测试，在阶梯旁对两个变体都运行：两者都通过，这正是要说明的（单元测试没看到缺陷）"},
        {"fixed", "修复版", "the variant with the fix: every check of it must pass",
         "带修复的变体：它的每项检查都必须通过"},
        {"buggy", "缺陷版",
         "the variant with the bug: its rung must fail it (one failing check catches it; a "
         "check that passes did not reach the bug)",
         "带缺陷的变体：它的阶梯必须让它失败（一项失败即发现；通过的检查只是没有触及缺陷）"},
        {"oracle", "判定器",
         "what a check holds the kernel's output against: the reference kernel, sentinels in "
         "memory it must not write, a repeat that must match bit for bit, a score",
         "检查用来评判内核输出的依据：参考内核、不应写入的内存中的哨兵值、必须逐位一致的重复运行、得分"},
        {"value class", "值类别",
         "the kind of values a check fills its inputs with (ties, zeros, one-hot, NaN, huge): "
         "rung 2 runs the classes a bug needs",
         "检查填充输入所用的数值种类（并列、零、独热、NaN、极大值）：第 2 阶运行缺陷所需的类别"},
    };
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        entry(d, width, words[w][zh], words[w][2 + zh]);
    entry(d, width, tui_glyph(TUI_GLYPH_MARK),
          tui_tr(app, "Dashboard: this rung closes this gap (a number: the cases of the cell)",
                 "仪表盘：此阶梯补上此缺口（数字：格子中的案例数）"));
    entry(d, width, tui_glyph(TUI_GLYPH_DOT),
          tui_tr(app, "Dashboard: this rung does not close this gap", "仪表盘：此阶梯不能补上此缺口"));
    snprintf(term, sizeof term, "%s 1", tui_glyph(TUI_GLYPH_DOT));
    entry(d, width, term,
          tui_tr(app, "Dashboard: a number where the rung does not close the gap (highlighted): "
                      "cases of this gap that this rung catches first, though no rung of their "
                      "own gap does",
                 "仪表盘：阶梯不能补上缺口处的数字（高亮）：此缺口中由此阶梯最先发现的案例，"
                 "而它们自己缺口的阶梯都发现不了"));
    snprintf(term, sizeof term, "%s host", tui_glyph(TUI_GLYPH_ARROW));
    entry(d, width, term,
          tui_tr(app, "Dashboard: the latest verdict of each rung on that host",
                 "仪表盘：该主机上每个阶梯的最新判定"));
    /* the marks come from tui/compare_fmt.h, as in the Compare view and `kladder compare` */
    entry(d, width, tui_draw_ascii() ? "#" : "≠",
          tui_tr(app, "Compare: the two sides' verdicts differ (both ran, neither skipped)",
                 "对比：两方的判定不同（两方都运行了，都没有跳过）"));
    entry(d, width, "!",
          tui_tr(app, "Compare: a real timing difference: 3+ repeats on each side, and spreads "
                      "apart and more than 5%, or 4x or more whatever the spreads",
                 "对比：真实的时间差异：每方至少 3 次重复，且范围不重叠、相差超过 5%，或相差 4 倍以上"));
    entry(d, width, "~", tui_tr(app, "Compare: within noise", "对比：在噪声范围内"));
    entry(d, width, "?",
          tui_tr(app, "Compare: not judged: fewer than 3 repeats on a side (never flagged, "
                      "not in the summary's mean)",
                 "对比：未判断：某一方少于 3 次重复（不标记，也不计入汇总的平均）"));
    entry(d, width, "-",
          tui_tr(app, "Compare: skipped on that side (it ran and chose not to judge)",
                 "对比：该方跳过（运行了但不作判断）"));
    entry(d, width, cmp_not_run(tui_draw_ascii()),
          tui_tr(app, "Compare: the check did not run on that side", "对比：该方没有运行此检查"));
    snprintf(term, sizeof term, "%s/%s", tui_verdict_glyph(0), tui_verdict_glyph(1));
    entry(d, width, term,
          tui_tr(app, "Compare: side A's verdict, then side B's", "对比：A 方的判定，然后是 B 方的"));
    tui_doc_blank(d);
}

static void build(struct tui_app *app, struct help_state *s, int width)
{
    tui_doc_clear(&s->doc);
    struct tui_doc *d = &s->doc;
    int zh = app->lang == TUI_LANG_ZH;
    /* The global keys, each view's own in the order of tui/views.def, then the prompts'. */
    struct {
        enum tui_scope scope;
        const char *const *title;
    } groups[TUI_VIEW_COUNT + 3];
    size_t n_groups = 0;
    static const char *const everywhere[2] = {"Keys everywhere", "全局按键"};
    static const char *const search[2] = {"Search prompt", "搜索输入框"};
    static const char *const question[2] = {"A question (y/n)", "提问（y/n）"};
    groups[n_groups].scope = TUI_SCOPE_GLOBAL;
    groups[n_groups++].title = everywhere;
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = app->views[v];
        if (ops->scope != TUI_SCOPE_GLOBAL && ops->scope != TUI_SCOPE_NONE && ops->keys_title[0]) {
            groups[n_groups].scope = ops->scope;
            groups[n_groups++].title = ops->keys_title;
        }
    }
    groups[n_groups].scope = TUI_SCOPE_SEARCH;
    groups[n_groups++].title = search;
    groups[n_groups].scope = TUI_SCOPE_CONFIRM;
    groups[n_groups++].title = question;
    tui_doc_add(d, TUI_ROLE_TITLE,
                tui_tr(app, "kladder — know the gaps between unit tests and models",
                       "kladder — 认识单元测试与模型之间的缺口"));
    tui_doc_wrap(d, width, 0, TUI_ROLE_DIM,
                 tui_tr(app, "The keys first; below them what the gaps, rungs, verdicts and "
                             "marks mean (/ gloss finds it), then notes.",
                        "先是按键；其下是缺口、阶梯、判定和标记的含义（/ 术语 可找到），最后是说明。"),
                 NULL, 0, TUI_ROLE_NORMAL);
    tui_doc_blank(d);
    for (size_t g = 0; g < n_groups; g++) {
        tui_doc_add(d, TUI_ROLE_COLHEAD, groups[g].title[zh]);
        for (int a = TUI_ACT_NONE + 1; a < TUI_ACT_COUNT; a++) {
            if (tui_actions[a].scope != groups[g].scope)
                continue;
            struct keys_buf kb = {.text = ""};
            tui_action_keys((enum tui_action)a, add_key, &kb);
            tui_doc_wrap(d, width, 2, TUI_ROLE_NORMAL, tui_actions[a].help[zh], kb.text, 14,
                         TUI_ROLE_KEY);
        }
        tui_doc_blank(d);
    }
    static const char *const notes[][2] = {
        {"Search. In Cases, / filters the list as you type: every word must occur somewhere in "
         "the case (id, refs, titles, summaries, figures, models, symptoms, the test that "
         "catches it), in English or Chinese. Enter keeps the filter, Esc restores the previous "
         "one, and n/N move to the next or previous row that shows the text. In Help and in a "
         "case's detail, / finds text and n/N jump between the lines that have it.",
         "搜索。在案例视图中，/ 会随输入筛选列表：每个词都须出现在案例的某处（编号、引用、标题、摘要、"
         "数字、模型、症状、能发现它的测试），中英文皆可。Enter 保留筛选，Esc 恢复之前的筛选，"
         "n/N 移到下一个或上一个显示该文字的行。在帮助和案例详情中，/ 查找文字，n/N 在含有它的行之间跳转。"},
        {"Mouse. Click a tab, a row, a sidebar filter or a key bar label; click the selected row "
         "again to open it; the wheel scrolls. Every action also has a key.",
         "鼠标。可点击标签页、行、侧栏筛选或按键栏标签；再次点击选中的行即可打开；滚轮滚动。"
         "每个操作也都有按键。"},
        {"Colours. t cycles the themes default, light, high-contrast and mono. NO_COLOR (set and "
         "not empty) or --color=never gives monochrome; --color=always wins over NO_COLOR.",
         "颜色。t 在 default、light、high-contrast、mono 主题间切换。设置了非空的 NO_COLOR 或 "
         "--color=never 时为单色；--color=always 优先于 NO_COLOR。"},
    };
    build_glossary(app, d, width);
    tui_doc_add(d, TUI_ROLE_COLHEAD, zh ? "说明" : "Notes");
    for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++) {
        tui_doc_wrap(d, width, 2, TUI_ROLE_NORMAL, notes[i][zh], NULL, 0, TUI_ROLE_NORMAL);
        tui_doc_blank(d);
    }
    s->doc.width = width;
    s->lang = app->lang;
    s->doc.list.n = d->n;
}

static void help_draw(struct tui_app *app, void *state)
{
    struct help_state *s = state;
    const struct tui_rect *r = &app->lay.body;
    int w = r->w - 2;
    if (s->doc.width != w || s->lang != app->lang)
        build(app, s, w);
    tui_doc_draw(&s->doc, r->y, r->x + 1, r->h, w, false, s->term);
}

static unsigned help_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct help_state *s = state;
    struct tui_list *l = &s->doc.list;
    (void)app;
    /* Without a cursor, moves scroll the page. */
    switch (act) {
    case TUI_ACT_DOWN:
        tui_list_scroll(l, 1);
        return TUI_R_DRAW;
    case TUI_ACT_UP:
        tui_list_scroll(l, -1);
        return TUI_R_DRAW;
    case TUI_ACT_PAGE_DOWN:
        tui_list_scroll(l, l->height > 1 ? l->height - 1 : 1);
        return TUI_R_DRAW;
    case TUI_ACT_PAGE_UP:
        tui_list_scroll(l, -(l->height > 1 ? l->height - 1 : 1));
        return TUI_R_DRAW;
    case TUI_ACT_FIRST:
        tui_list_scroll(l, -(long)l->n);
        return TUI_R_DRAW;
    case TUI_ACT_LAST:
        tui_list_scroll(l, (long)l->n);
        return TUI_R_DRAW;
    case TUI_ACT_SEARCH_NEXT:
    case TUI_ACT_SEARCH_PREV:
        /* Find from the top line of the page, then bring the match to the top. */
        find_from(s, l->top, act == TUI_ACT_SEARCH_NEXT ? 1 : -1);
        return TUI_R_DRAW;
    case TUI_ACT_BACK:
        if (s->term[0]) {
            s->term[0] = '\0';
            return TUI_R_DRAW;
        }
        return TUI_R_UNHANDLED;
    case TUI_ACT_HELP:
        return TUI_R_NONE;
    default:
        return TUI_R_UNHANDLED;
    }
}

static unsigned help_mouse(struct tui_app *app, void *state, int y, int x, int wheel)
{
    (void)app, (void)y, (void)x;
    struct help_state *s = state;
    if (wheel)
        (void)tui_list_mouse(&s->doc.list, 0, wheel, NULL); /* clicks on help text do nothing */
    return TUI_R_DRAW;
}

static void help_search(struct tui_app *app, void *state, const char *text)
{
    (void)app;
    struct help_state *s = state;
    struct tui_list *l = &s->doc.list;
    if (!s->term[0]) { /* a new search: where a word that is not there leaves the page */
        s->origin_top = l->top;
        s->origin_sel = l->sel;
    }
    snprintf(s->term, sizeof s->term, "%s", text);
    /* Incremental: the first match at or after the top of the page. */
    s->not_found = false;
    if (s->doc.n == 0 || !s->term[0])
        return;
    /* typed letter by letter, the search moves while the text is found; once it is not,
     * the page goes back to where the search began, not to where a shorter text was */
    l->top = s->origin_top;
    l->sel = s->origin_sel;
    find_from(s, l->top > 0 ? l->top - 1 : s->doc.n - 1, 1);
}

static const char *help_search_text(void *state)
{
    return ((struct help_state *)state)->term;
}

static void help_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct help_state *s = state;
    if (s->term[0] && s->not_found)
        snprintf(buf, len, "%s: %s   %s", tui_tr(app, "Find", "查找"), s->term,
                 tui_tr(app, "not found", "未找到"));
    else if (s->term[0])
        snprintf(buf, len, "%s: %s   n/N", tui_tr(app, "Find", "查找"), s->term);
    else
        snprintf(buf, len, "%s",
                 tui_tr(app, "Help: every key, generated from the action table",
                        "帮助：全部按键，由操作表生成"));
}

const struct tui_view_ops tui_view_help = {
    .name = "help",
    .scope = TUI_SCOPE_GLOBAL,
    .init = help_init,
    .fini = help_fini,
    .draw = help_draw,
    .action = help_action,
    .mouse = help_mouse,
    .search = help_search,
    .search_text = help_search_text,
    .status = help_status,
};
