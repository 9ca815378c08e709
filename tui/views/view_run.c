/* A run's checks: one row per check (verdict, variant, check, shape, median time and spread),
 * and under the list the selected check in full — oracle, detail, first bad index, counts,
 * error, timings, repeats and the time limit; n/a wherever the backend could not measure; for
 * a failing rung 3 check its seam, both sides side by side (tui/views/run_seam.h).
 * The columns are as wide as their content and give way in a declared order on a narrow
 * screen (tui/columns.h): the shape first, then the check shrinks; the variant stays whole.
 * p turns the paired layout on and off (tui/views/run_pair.h): one row per check with the fixed
 * variant's verdict and median beside the buggy one's, and what the pair shows ("buggy
 * caught"); the detail below is then the row's buggy check. A check of a `kladder exec` run
 * shows the program instead of errors and times: how it ended and the tail of its output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "casedb/results_query.h"
#include "common/fileio.h"
#include "common/paths.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/rung.h"
#include "tui/clipboard.h"
#include "tui/cmdline.h"
#include "tui/run_report.h"
#include "tui/columns.h"
#include "tui/draw.h"
#include "tui/views/list.h"
#include "tui/results_fmt.h"
#include "tui/views/run_pair.h"
#include "tui/views/run_seam.h"
#include "tui/views/view.h"

struct run_state {
    char uuid[40];
    struct cdb_run_detail d;
    bool loaded;
    unsigned gen;
    struct tui_list list;
    int list_y0;
    int variant_w, check_w, shape_w, time_w; /* the widest of each among the checks */
    bool paired;                /* the list shows pair rows rather than checks */
    struct tui_pair_row *pairs; /* the checks in pairs (n_checks rows of room) */
    size_t n_pairs;
    int group_w;                /* the widest pair group ("baseline") */
};

/* The index in d.checks of the check the selected list row stands for. */
static size_t selected_check(const struct run_state *s)
{
    if (!s->paired)
        return s->list.sel;
    if (s->list.sel >= s->n_pairs)
        return 0;
    return (size_t)(tui_pair_main(&s->pairs[s->list.sel]) - s->d.checks);
}

static void *run_init(struct tui_app *app)
{
    (void)app;
    return xcalloc(1, sizeof(struct run_state));
}

static void run_fini(void *state)
{
    struct run_state *s = state;
    if (s->loaded)
        cdb_run_detail_free(&s->d);
    free(s->pairs);
    free(s);
}

/* y: the run's Markdown report (kladder report) to the clipboard. A terminal not known to take
 * OSC 52 gets it as a file in the state folder instead, its path on the status line: a report
 * does not fit a status line to select. */
static void copy_report(struct tui_app *app, const char *uuid)
{
    char *doc = NULL, err[512];
    size_t len = 0;
    FILE *mem = open_memstream(&doc, &len);
    if (!mem) {
        tui_app_message(app, "%s", tui_tr(app, "Out of memory", "内存不足"));
        return;
    }
    int rc = tui_run_report(app->db, uuid, TUI_REPORT_MD, mem, err, sizeof err);
    fclose(mem);
    if (rc != 0) {
        tui_app_message(app, "%s", err);
    } else if (tui_clipboard_copy(doc)) {
        tui_app_message(app, "%s %.8s", tui_tr(app, "Copied: the Markdown report of run",
                                               "已复制：运行的 Markdown 报告"), uuid);
    } else {
        char *dir = paths_state_dir();
        char *folder = xasprintf("%s/reports", dir);
        char *path = xasprintf("%s/%s.md", folder, uuid);
        if (file_mkdirs(folder, err, sizeof err) == 0 &&
            file_write_atomic(path, doc, len, err, sizeof err) == 0)
            tui_app_message(app, "%s %s%s", tui_tr(app, "Markdown report written to",
                                                   "Markdown 报告已写入"), path,
                            tui_tr(app, " (this terminal is not known to take OSC 52)",
                                   "（未知此终端是否支持 OSC 52）"));
        else
            tui_app_message(app, "%s", err);
        free(path);
        free(folder);
        free(dir);
    }
    free(doc);
}

static void load(struct tui_app *app, struct run_state *s)
{
    if (s->loaded)
        cdb_run_detail_free(&s->d);
    memset(&s->d, 0, sizeof s->d);
    free(s->pairs);
    s->pairs = NULL;
    s->n_pairs = 0;
    s->loaded = false;
    s->gen = app->results_gen;
    char err[512];
    int rc = cdb_run_load(app->db, s->uuid, &s->d, err, sizeof err);
    if (rc != 1) {
        tui_app_message(app, "%s", rc == 0 ? tui_tr(app, "That run is no longer in the database",
                                                    "数据库中已没有这次运行")
                                           : err);
        tui_list_reset(&s->list, 0);
        return;
    }
    s->loaded = true;
    s->pairs = xcalloc(s->d.n_checks ? s->d.n_checks : 1, sizeof *s->pairs);
    s->n_pairs = tui_pair_rows(s->d.checks, s->d.n_checks, s->pairs);
    s->group_w = 0;
    for (size_t i = 0; i < s->n_pairs; i++)
        if ((int)s->pairs[i].group_len > s->group_w)
            s->group_w = (int)s->pairs[i].group_len;
    tui_list_set_count(&s->list, s->paired ? s->n_pairs : s->d.n_checks);
    s->variant_w = s->check_w = s->shape_w = s->time_w = 0;
    for (size_t i = 0; i < s->d.n_checks; i++) {
        const struct cdb_check *k = &s->d.checks[i];
        char med[32];
        tui_fmt_us(k->time_median_us, med, sizeof med);
        int w = text_width(med);
        if (w > s->time_w)
            s->time_w = w;
        if (k->variant && (w = text_width(k->variant)) > s->variant_w)
            s->variant_w = w;
        if (k->check && (w = text_width(k->check)) > s->check_w)
            s->check_w = w;
        if (k->shape && (w = text_width(k->shape)) > s->shape_w)
            s->shape_w = w;
    }
}

static bool run_open(struct tui_app *app, void *state, const struct tui_open *what)
{
    struct run_state *s = state;
    if (strcmp(s->uuid, what->id) != 0) {
        snprintf(s->uuid, sizeof s->uuid, "%s", what->id);
        tui_list_reset(&s->list, 0);
    }
    load(app, s);
    if (s->loaded && what->has_check)
        for (size_t i = 0; i < s->d.n_checks; i++)
            if (s->d.checks[i].seq == what->check_seq) {
                tui_list_select(&s->list, s->paired ? tui_pair_row_of(s->pairs, s->n_pairs,
                                                                      &s->d.checks[i])
                                                    : i);
                break;
            }
    tui_runs_push(app, TUI_VIEW_RUN);
    return true;
}

enum { COL_SEQ, COL_VERDICT, COL_VARIANT, COL_CHECK, COL_SHAPE, COL_TIME, COL_COUNT };

/* The paired layout's columns: the pair's group, the check, its shape, the fixed variant's
 * verdict and median, the buggy one's, and what the pair shows. */
enum { PC_GROUP, PC_CHECK, PC_SHAPE, PC_FIXED, PC_FIXED_T, PC_BUGGY, PC_BUGGY_T, PC_SHOWS,
       PC_COUNT };


struct draw_ctx {
    struct tui_app *app;
    struct run_state *s;
    int y, x, w;
    struct tui_col col[(int)PC_COUNT > (int)COL_COUNT ? (int)PC_COUNT : (int)COL_COUNT];
};

static void draw_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct cdb_check *k = &c->s->d.checks[row];
    int y = c->y + line, x = c->x;
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    char buf[256];
    const struct tui_col *col = c->col;
    tui_draw_fill(y, x, c->w, base);
    snprintf(buf, sizeof buf, "%d", k->seq);
    if (col[COL_SEQ].w)
        tui_draw_right(y, x + col[COL_SEQ].x, col[COL_SEQ].w, selected ? base : TUI_ROLE_DIM, buf);
    tui_fmt_verdict_lang(k->verdict, c->app->lang == TUI_LANG_ZH, buf, sizeof buf);
    if (col[COL_VERDICT].w)
        tui_draw_pad(y, x + col[COL_VERDICT].x, col[COL_VERDICT].w,
                     selected ? base : tui_verdict_role(k->verdict), buf);
    if (col[COL_VARIANT].w)
        tui_draw_pad(y, x + col[COL_VARIANT].x, col[COL_VARIANT].w, base,
                     k->variant ? k->variant : "");
    if (col[COL_CHECK].w)
        tui_draw_pad(y, x + col[COL_CHECK].x, col[COL_CHECK].w, base, k->check ? k->check : "");
    if (col[COL_SHAPE].w)
        tui_draw_pad(y, x + col[COL_SHAPE].x, col[COL_SHAPE].w, selected ? base : TUI_ROLE_DIM,
                     k->shape ? k->shape : "");
    tui_fmt_us(k->time_median_us, buf, sizeof buf);
    if (col[COL_TIME].w)
        tui_draw_right(y, x + col[COL_TIME].x, col[COL_TIME].w, base, buf);
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

/* The table's columns at width w: as wide as the content and the headings. Only the shape gives
 * way; then the check (the flex column) shrinks: fixed against buggy is the lesson of a row, so
 * the variant stays whole. */
static void layout_columns(const struct run_state *s, bool zh, const char *const *heads, int w,
                           struct tui_col *col)
{
    int verdict_w = 0;
    for (int v = 0; v < CDB_RUNNING; v++)
        if (s->d.info.counts[v]) {
            char buf[48];
            tui_fmt_verdict_lang(v, zh, buf, sizeof buf);
            verdict_w = max_int(verdict_w, text_width(buf));
        }
    char seq[24];
    snprintf(seq, sizeof seq, "%zu", s->d.n_checks ? s->d.n_checks - 1 : 0);
    col[COL_SEQ] = (struct tui_col){.want = max_int((int)strlen(seq), 1), .min = 1};
    col[COL_VERDICT] = (struct tui_col){.want = max_int(verdict_w, text_width(heads[COL_VERDICT])),
                                        .min = 6};
    col[COL_VARIANT] = (struct tui_col){.want = max_int(s->variant_w, text_width(heads[COL_VARIANT])),
                                        .min = 8};
    col[COL_CHECK] = (struct tui_col){.want = max_int(s->check_w, text_width(heads[COL_CHECK])),
                                      .min = 12, .flex = true};
    col[COL_SHAPE] = (struct tui_col){.want = max_int(s->shape_w, text_width(heads[COL_SHAPE])),
                                      .min = 10, .give = 1};
    col[COL_TIME] = (struct tui_col){.want = max_int(s->time_w, text_width(heads[COL_TIME])),
                                     .min = 3};
    if (col[COL_SHAPE].min > col[COL_SHAPE].want)
        col[COL_SHAPE].min = col[COL_SHAPE].want;
    tui_columns_fit(col, COL_COUNT, w, 2);
}

static const char *lesson_text(const struct tui_app *app, enum tui_pair_lesson l)
{
    switch (l) {
    case TUI_PAIR_CAUGHT: return tui_tr(app, "buggy caught", "捕获缺陷");
    case TUI_PAIR_NOT_CAUGHT: return tui_tr(app, "not caught", "未捕获");
    case TUI_PAIR_FALSE_ALARM: return tui_tr(app, "fixed fails", "修复版失败");
    default: return tui_tr(app, "incomplete", "不完整");
    }
}

static enum tui_role lesson_role(enum tui_pair_lesson l)
{
    return l == TUI_PAIR_CAUGHT        ? tui_verdict_role(CDB_PASS)
           : l == TUI_PAIR_FALSE_ALARM ? tui_verdict_role(CDB_FAIL)
           : l == TUI_PAIR_NOT_CAUGHT  ? TUI_ROLE_NORMAL
                                       : TUI_ROLE_DIM;
}

/* A side's verdict, or an em dash where the run has no check of that side. */
static void side_verdict(const struct tui_app *app, const struct cdb_check *k, char *buf,
                         size_t len)
{
    if (k)
        tui_fmt_verdict_lang(k->verdict, app->lang == TUI_LANG_ZH, buf, len);
    else
        snprintf(buf, len, "—");
}

static void draw_pair_row(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct tui_pair_row *p = &c->s->pairs[row];
    const struct cdb_check *k = tui_pair_main(p);
    int y = c->y + line, x = c->x;
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    const struct tui_col *col = c->col;
    char buf[256];
    tui_draw_fill(y, x, c->w, base);
    snprintf(buf, sizeof buf, "%.*s", (int)p->group_len, p->group);
    if (col[PC_GROUP].w)
        tui_draw_pad(y, x + col[PC_GROUP].x, col[PC_GROUP].w, selected ? base : TUI_ROLE_DIM,
                     buf);
    if (col[PC_CHECK].w)
        tui_draw_pad(y, x + col[PC_CHECK].x, col[PC_CHECK].w, base, k->check ? k->check : "");
    if (col[PC_SHAPE].w)
        tui_draw_pad(y, x + col[PC_SHAPE].x, col[PC_SHAPE].w, selected ? base : TUI_ROLE_DIM,
                     k->shape ? k->shape : "");
    const struct cdb_check *side[2] = {p->fixed, p->buggy};
    for (int i = 0; i < 2; i++) {
        int vc = i ? PC_BUGGY : PC_FIXED, tc = i ? PC_BUGGY_T : PC_FIXED_T;
        side_verdict(c->app, side[i], buf, sizeof buf);
        if (col[vc].w)
            tui_draw_pad(y, x + col[vc].x, col[vc].w,
                         selected || !side[i] ? base : tui_verdict_role(side[i]->verdict), buf);
        if (side[i])
            tui_fmt_us(side[i]->time_median_us, buf, sizeof buf);
        else
            snprintf(buf, sizeof buf, "—");
        if (col[tc].w)
            tui_draw_right(y, x + col[tc].x, col[tc].w, base, buf);
    }
    enum tui_pair_lesson l = tui_pair_lesson(p);
    if (p->other) /* a variant that pairs with nothing says its own verdict */
        tui_fmt_verdict_lang(p->other->verdict, c->app->lang == TUI_LANG_ZH, buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "%s", lesson_text(c->app, l));
    if (col[PC_SHOWS].w)
        tui_draw_pad(y, x + col[PC_SHOWS].x, col[PC_SHOWS].w,
                     selected ? base : p->other ? tui_verdict_role(p->other->verdict)
                                                : lesson_role(l),
                     buf);
}

/* The paired table's columns at width w. The shape gives way first, then the medians, then the
 * group; the check shrinks last: the two verdicts and what they show are the row's lesson. */
static void layout_pairs(const struct tui_app *app, const struct run_state *s,
                         const char *const *heads, int w, struct tui_col *col)
{
    bool zh = app->lang == TUI_LANG_ZH;
    int verdict_w = text_width("—"), shows_w = 0;
    for (int v = 0; v < CDB_RUNNING; v++)
        if (s->d.info.counts[v]) {
            char buf[48];
            tui_fmt_verdict_lang(v, zh, buf, sizeof buf);
            verdict_w = max_int(verdict_w, text_width(buf));
        }
    for (size_t i = 0; i < s->n_pairs; i++)
        shows_w = max_int(shows_w, text_width(lesson_text(app, tui_pair_lesson(&s->pairs[i]))));
    shows_w = max_int(shows_w, verdict_w);
    col[PC_GROUP] = (struct tui_col){.want = s->group_w ? max_int(s->group_w,
                                                                   text_width(heads[PC_GROUP]))
                                                        : 0,
                                     .min = 4, .give = 3};
    col[PC_CHECK] = (struct tui_col){.want = max_int(s->check_w, text_width(heads[PC_CHECK])),
                                     .min = 12, .flex = true};
    col[PC_SHAPE] = (struct tui_col){.want = max_int(s->shape_w, text_width(heads[PC_SHAPE])),
                                     .min = 10, .give = 1};
    for (int i = 0; i < 2; i++) {
        int vc = i ? PC_BUGGY : PC_FIXED, tc = i ? PC_BUGGY_T : PC_FIXED_T;
        col[vc] = (struct tui_col){.want = max_int(verdict_w, text_width(heads[vc])), .min = 6};
        col[tc] = (struct tui_col){.want = max_int(s->time_w, text_width(heads[tc])), .min = 3,
                                   .give = 2};
    }
    col[PC_SHOWS] = (struct tui_col){.want = max_int(shows_w, text_width(heads[PC_SHOWS])),
                                     .min = 6};
    for (int i = 0; i < PC_COUNT; i++)
        if (col[i].min > col[i].want)
            col[i].min = col[i].want;
    tui_columns_fit(col, PC_COUNT, w, 2);
}

static int line_kv(int y, int x, int w, const char *k, const char *v, enum tui_role role)
{
    int kw = tui_draw_text(y, x, w, TUI_ROLE_COLHEAD, k);
    tui_draw_text(y, x + kw + 1, w - kw - 1, role, v);
    return y + 1;
}

/* A check's values as a person reads them: "peaked;V=ones" as "peaked, V=ones", and a replay
 * "replay;x=@embed:kernels/captures/a.npy#t" as "replay: x from kernels/captures/a.npy (t)". */
static void describe_values(const char *v, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    bool replay = !strncmp(v, "replay", 6) && (v[6] == ';' || !v[6]);
    for (const char *p = v; *p && len + 1 < n;) {
        size_t part = strcspn(p, ";");
        const char *sep = p == v ? "" : replay && len == 6 ? ": " : ", ";
        const char *eq = memchr(p, '=', part), *hash = memchr(p, '#', part);
        if (replay && p != v && eq && eq[1] == '@') {
            const char *file = eq + 2;
            if (!strncmp(file, "embed:", 6))
                file += 6;
            const char *end = hash ? hash : p + part;
            len += (size_t)snprintf(out + len, n - len, "%s%.*s from %.*s", sep, (int)(eq - p), p,
                                    (int)(end - file), file);
            if (hash && len < n)
                len += (size_t)snprintf(out + len, n - len, " (%.*s)",
                                        (int)(p + part - hash - 1), hash + 1);
        } else {
            len += (size_t)snprintf(out + len, n - len, "%s%.*s", sep, (int)part, p);
        }
        p += part + (p[part] == ';');
    }
}

/* The program check of a `kladder exec` run (its exec facts, casedb/check_facts.h): exec's
 * verdict, how the program ended, how it ran, then the tail of what it wrote, as many of its
 * last lines as fit. A finding's check has only its kind there: its report is the detail,
 * already drawn. Every string goes through the draw helpers, which replace control
 * characters. Returns the next line. */
static int draw_exec(struct tui_app *app, const struct cdb_check *k, int y, int x, int w,
                     int ymax)
{
    cJSON *e = cJSON_Parse(k->exec);
    const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(e, "verdict");
    if (!cJSON_IsString(verdict)) {
        cJSON_Delete(e);
        return y;
    }
    char buf[512], how[96];
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "exit_status"),
                *sig = cJSON_GetObjectItemCaseSensitive(e, "signal");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "timed_out")))
        snprintf(how, sizeof how, "%s", tui_tr(app, "killed at the time limit", "超时被终止"));
    else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "stopped")))
        snprintf(how, sizeof how, "%s", tui_tr(app, "stopped by kladder at the finding",
                                               "在发现处被 kladder 停止"));
    else if (cJSON_IsNumber(sig) && sig->valueint)
        snprintf(how, sizeof how, "%s %d", tui_tr(app, "killed by signal", "被信号终止"),
                 sig->valueint);
    else if (cJSON_IsNumber(st))
        snprintf(how, sizeof how, "%s %d", tui_tr(app, "exit status", "退出状态"), st->valueint);
    else
        snprintf(how, sizeof how, "%s", tui_tr(app, "did not run", "未运行"));
    const cJSON *sched = cJSON_GetObjectItemCaseSensitive(e, "schedule"),
                *seed = cJSON_GetObjectItemCaseSensitive(e, "seed"),
                *wave = cJSON_GetObjectItemCaseSensitive(e, "wave");
    snprintf(buf, sizeof buf, "%s · %s · %s %s, %s %.0f, %s %d", verdict->valuestring, how,
             tui_tr(app, "schedule", "调度"), cJSON_IsString(sched) ? sched->valuestring : "?",
             tui_tr(app, "seed", "种子"), cJSON_IsNumber(seed) ? seed->valuedouble : 0.0,
             tui_tr(app, "wave", "波宽"), cJSON_IsNumber(wave) ? wave->valueint : 0);
    if (y < ymax)
        y = line_kv(y, x, w, tui_tr(app, "Program", "程序"), buf,
                    tui_verdict_role(k->verdict));
    const cJSON *tail = cJSON_GetObjectItemCaseSensitive(e, "output_tail");
    if (y < ymax && cJSON_IsString(tail)) {
        bool cut = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "output_cut"));
        size_t n;
        char **lines = text_wrap(tail->valuestring, w - 8, &n);
        while (n > 0 && !lines[n - 1][0]) /* the last newline opens no line of its own */
            free(lines[--n]);
        y = line_kv(y, x, w, tui_tr(app, "Output", "输出"),
                    !n ? tui_tr(app, "(none)", "（无）")
                    : cut ? tui_tr(app, "(its last lines)", "（最后几行）") : "",
                    TUI_ROLE_DIM);
        size_t room = (size_t)(ymax > y ? ymax - y : 0), from = n > room ? n - room : 0;
        for (size_t i = from; i < n && y < ymax; i++)
            y = line_kv(y, x, w, "      ", lines[i], TUI_ROLE_NORMAL);
        text_lines_free(lines, n);
    }
    cJSON_Delete(e);
    return y;
}

/* Lines the program check of an exec run wants beyond the detail's own (its Program and Output
 * headings take the place of errors and times): the output's lines, a newline being written
 * "\n" in its facts' JSON, at most max. */
static int exec_lines(const struct cdb_check *k, int max)
{
    if (!k->exec || !strstr(k->exec, "\"output_tail\""))
        return 0;
    int n = 0;
    for (const char *p = k->exec; (p = strstr(p, "\\n")) && n < max; p += 2)
        n++;
    return n < max ? n : max;
}

/* The selected check in full, below the list; returns the next line. */
static int draw_check(struct tui_app *app, const struct cdb_check *k, int y, int x, int w,
                       int ymax)
{
    char buf[512], a[48], b[48];
    if (y >= ymax)
        return y;
    char verdict[48];
    tui_fmt_verdict_lang(k->verdict, app->lang == TUI_LANG_ZH, verdict, sizeof verdict);
    snprintf(buf, sizeof buf, "%s · %s · %s", verdict, k->check ? k->check : "",
             k->variant ? k->variant : "");
    tui_draw_text(y++, x, w, tui_verdict_role(k->verdict), buf);
    if (y < ymax) {
        snprintf(buf, sizeof buf, "%s · %s %d · %s", k->shape ? k->shape : "",
                 tui_tr(app, "rung", "阶梯"), k->rung, k->suite ? k->suite : "");
        if (k->value_class) { /* rung 2's value class, or a replay of captured tensors */
            char vals[300];
            describe_values(k->value_class, vals, sizeof vals);
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " · %s %s",
                     tui_tr(app, "values", "取值"), vals);
        }
        y = line_kv(y, x, w, tui_tr(app, "Shape", "形状"), buf, TUI_ROLE_NORMAL);
    }
    const char *label = NULL; /* the rung's facts in its own words (rung 8: the score and
                               * where the model first went wrong), before the detail so it is
                               * never cut */
    if (y < ymax && eng_rung_facts_line(k, app->lang == TUI_LANG_ZH, &label, buf, sizeof buf))
        y = line_kv(y, x, w, label, buf, k->verdict == CDB_PASS ? TUI_ROLE_OK : TUI_ROLE_FAIL);
    if (y < ymax) {
        const char *det = k->detail && *k->detail ? k->detail : tui_tr(app, "(none)", "（无）");
        snprintf(buf, sizeof buf, "%s: %s", k->oracle ? k->oracle : "n/a", det);
        size_t n;
        char **lines = text_wrap(buf, w - 8, &n);
        for (size_t i = 0; i < n && y < ymax; i++)
            y = line_kv(y, x, w, i == 0 ? tui_tr(app, "Oracle", "判定器") : "      ", lines[i],
                        TUI_ROLE_NORMAL);
        text_lines_free(lines, n);
    }
    if (k->exec) /* a check of a `kladder exec` run: the program, not a kernel's numbers */
        return draw_exec(app, k, y, x, w, ymax);
    if (y < ymax) {
        if (k->first_bad >= 0)
            snprintf(a, sizeof a, "%lld", (long long)k->first_bad);
        else
            snprintf(a, sizeof a, "n/a");
        if (k->bad_count >= 0)
            snprintf(b, sizeof b, "%lld", (long long)k->bad_count);
        else
            snprintf(b, sizeof b, "n/a");
        char e[32];
        if (isnan(k->max_err))
            snprintf(e, sizeof e, "n/a");
        else
            snprintf(e, sizeof e, "%.4g", k->max_err);
        snprintf(buf, sizeof buf, "%s %s · %s %s · %s %s", tui_tr(app, "first bad", "首个错误"), a,
                 tui_tr(app, "bad", "错误数"), b, tui_tr(app, "max error", "最大误差"), e);
        y = line_kv(y, x, w, tui_tr(app, "Errors", "错误"), buf, TUI_ROLE_NORMAL);
    }
    if (y < ymax) {
        char med[32], lim[32];
        tui_fmt_us(k->time_median_us, med, sizeof med);
        tui_fmt_us(k->time_min_us, a, sizeof a);
        tui_fmt_us(k->time_max_us, b, sizeof b);
        if (isnan(k->limit_s))
            snprintf(lim, sizeof lim, "n/a");
        else
            snprintf(lim, sizeof lim, "%g s", k->limit_s);
        snprintf(buf, sizeof buf, "%s %s · %s %s · %s %s · %s %d · %s %s",
                 tui_tr(app, "median", "中位数"), med, tui_tr(app, "min", "最小"), a,
                 tui_tr(app, "max", "最大"), b, tui_tr(app, "repeats", "重复"),
                 k->repeats, tui_tr(app, "limit", "时限"), lim);
        y = line_kv(y, x, w, tui_tr(app, "Time", "时间"), buf, TUI_ROLE_NORMAL);
    }
    return y;
}

static void run_draw(struct tui_app *app, void *state)
{
    struct run_state *s = state;
    if (s->gen != app->results_gen && s->uuid[0])
        load(app, s);
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, x = r->x + 1, w = r->w - 2, ymax = r->y + r->h;
    if (!s->loaded) {
        tui_draw_text(y + 1, x, w, TUI_ROLE_DIM, tui_tr(app, "No run.", "没有运行。"));
        return;
    }
    const struct cdb_run_info *ri = &s->d.info;
    char buf[512], counts[160];
    tui_fmt_run_counts(ri->counts, ri->caught_fail, ri->caught_hang, ri->run.verdict,
                       app->lang == TUI_LANG_ZH, counts, sizeof counts);
    char verdict[48];
    tui_fmt_run_verdict(ri->run.verdict, ri->exec_verdict, app->lang == TUI_LANG_ZH, verdict,
                        sizeof verdict);
    snprintf(buf, sizeof buf, "%s · %s %s%s%s · %s", verdict, tui_tr(app, "run", "运行"),
             ri->run.uuid, ri->origin ? " · " : "", ri->origin ? ri->origin : "",
             counts);
    tui_draw_text(y++, x, w, tui_verdict_role(ri->run.verdict), buf);
    snprintf(buf, sizeof buf, "%s %s · %s %s %s · %s %s%s%s", tui_tr(app, "host", "主机"),
             ri->run.host ? ri->run.host : "?", tui_tr(app, "machine", "机器"),
             ri->machine.device ? ri->machine.device : "?",
             ri->machine.target ? ri->machine.target : "", ri->run.started ? ri->run.started : "",
             ri->run.finished ? "→ " : "", ri->run.finished ? ri->run.finished : "", "");
    tui_draw_text(y++, x, w, TUI_ROLE_DIM, buf);
    if (ri->run.argv) {
        tui_draw_text(y++, x, w, TUI_ROLE_DIM, ri->run.argv);
    }

    struct draw_ctx c = {.app = app, .s = s, .x = x, .w = w};
    if (s->paired) {
        const char *heads[PC_COUNT] = {
            tui_tr(app, "Pair", "配对"),   tui_tr(app, "Check", "检查"),
            tui_tr(app, "Shape", "形状"),  tui_tr(app, "Fixed", "修复版"),
            tui_tr(app, "Median", "中位数"), tui_tr(app, "Buggy", "缺陷版"),
            tui_tr(app, "Median", "中位数"), tui_tr(app, "Shows", "结论")};
        layout_pairs(app, s, heads, w, c.col);
        tui_draw_fill(y, x, w, TUI_ROLE_COLHEAD);
        for (int i = 0; i < PC_COUNT; i++) {
            if (!c.col[i].w)
                continue;
            if (i == PC_FIXED_T || i == PC_BUGGY_T)
                tui_draw_right(y, x + c.col[i].x, c.col[i].w, TUI_ROLE_COLHEAD, heads[i]);
            else
                tui_draw_pad(y, x + c.col[i].x, c.col[i].w, TUI_ROLE_COLHEAD, heads[i]);
        }
    } else {
        const char *heads[COL_COUNT] = {
            "#", tui_tr(app, "Verdict", "判定"), tui_tr(app, "Variant", "变体"),
            tui_tr(app, "Check", "检查"), tui_tr(app, "Shape", "形状"),
            tui_tr(app, "Median", "中位数")};
        layout_columns(s, app->lang == TUI_LANG_ZH, heads, w, c.col);
        tui_draw_fill(y, x, w, TUI_ROLE_COLHEAD);
        for (int i = 0; i < COL_COUNT; i++) {
            if (!c.col[i].w)
                continue;
            if (i == COL_SEQ || i == COL_TIME)
                tui_draw_right(y, x + c.col[i].x, c.col[i].w, TUI_ROLE_COLHEAD, heads[i]);
            else
                tui_draw_pad(y, x + c.col[i].x, c.col[i].w, TUI_ROLE_COLHEAD, heads[i]);
        }
    }
    y++;
    size_t sel = selected_check(s);
    int detail_h = 7 + tui_seam_lines(s->d.checks, s->d.n_checks, sel) +
                   exec_lines(&s->d.checks[sel], (ymax - y) / 2);
    int list_h = ymax - y - detail_h;
    if (list_h < 3)
        list_h = ymax - y, detail_h = 0;
    s->list_y0 = y;
    c.y = y;
    if (s->d.n_checks == 0) {
        tui_draw_text(y, x, w, TUI_ROLE_DIM, tui_tr(app, "No checks recorded.", "没有记录检查。"));
        return;
    }
    tui_list_draw(&s->list, list_h, s->paired ? draw_pair_row : draw_row, &c);
    if (detail_h) {
        int dy = y + list_h;
        for (int i = 0; i < w; i++)
            tui_draw_text(dy, x + i, 1, TUI_ROLE_BORDER, tui_glyph(TUI_GLYPH_HLINE));
        int next = draw_check(app, &s->d.checks[sel], dy + 1, x, w, ymax);
        tui_seam_draw(app, s->d.checks, s->d.n_checks, sel, next, x, w, ymax);
    }
}

static unsigned run_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct run_state *s = state;
    struct tui_list *l = &s->list;
    if (tui_list_navigate(l, act))
        return TUI_R_DRAW;
    switch (act) {
    case TUI_ACT_RUN_MACHINE:
        if (s->loaded)
            tui_app_open(app, TUI_VIEW_MACHINE, &(struct tui_open){.id = s->d.info.machine.id});
        return TUI_R_DRAW;
    case TUI_ACT_RUN_COPY:
        if (s->loaded)
            copy_report(app, s->d.info.run.uuid);
        return TUI_R_DRAW;
    case TUI_ACT_RUN_COPY_CMD:
        if (s->loaded) {
            /* this host's quoted form; a pulled run's only as a comment (tui/cmdline.h) */
            char *cmd = tui_cmdline_copy(s->d.info.run.argv, s->d.info.origin);
            tui_app_copy(app, cmd);
            free(cmd);
        }
        return TUI_R_DRAW;
    case TUI_ACT_RUN_PAIRED:
        if (s->loaded) { /* the selection follows its check from one layout to the other */
            size_t k = selected_check(s);
            s->paired = !s->paired;
            tui_list_reset(&s->list, s->paired ? s->n_pairs : s->d.n_checks);
            tui_list_select(&s->list, s->paired ? tui_pair_row_of(s->pairs, s->n_pairs,
                                                                  &s->d.checks[k])
                                                : k);
        }
        return TUI_R_DRAW;
    case TUI_ACT_BACK:
        tui_runs_pop(app);
        return TUI_R_DRAW;
    case TUI_ACT_QUIT:
        tui_runs_pop(app); /* q closes the run first, as it closes a case's detail */
        return TUI_R_DRAW;
    default:
        return TUI_R_UNHANDLED;
    }
}

static unsigned run_mouse(struct tui_app *app, void *state, int y, int x, int wheel)
{
    (void)app, (void)x;
    struct run_state *s = state;
    return tui_list_mouse(&s->list, y - s->list_y0, wheel, NULL) == TUI_LIST_NO_ROW ? TUI_R_NONE
                                                                                 : TUI_R_DRAW;
}

static void run_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct run_state *s = state;
    size_t n = s->loaded ? s->paired ? s->n_pairs : s->d.n_checks : 0;
    size_t at = n ? s->list.sel + 1 : 0;
    if (app->lang == TUI_LANG_ZH)
        snprintf(buf, len, s->paired ? "第 %zu / %zu 对 · p 逐项列出 · m 机器指纹 · Esc 返回"
                                     : "第 %zu / %zu 项检查 · m 机器指纹 · Esc 返回",
                 at, n);
    else
        snprintf(buf, len, s->paired ? "Pair %zu of %zu · p one row per variant · m the machine · Esc back"
                                     : "Check %zu of %zu · m the machine · Esc back",
                 at, n);
}

const struct tui_view_ops tui_view_run = {
    .name = "run",
    .scope = TUI_SCOPE_RUN,
    .keys_title = {"A run's checks", "单次运行的检查"},
    .init = run_init,
    .fini = run_fini,
    .draw = run_draw,
    .action = run_action,
    .mouse = run_mouse,
    .status = run_status,
    .open = run_open,
};
