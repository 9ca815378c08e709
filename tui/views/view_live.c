/* The live run: follows the event lines of the `kladder run` the launch panel started (start,
 * check-start, check-done, end): checks done of total, the current check, the elapsed time, a
 * progress bar and each verdict as it arrives. One run at a time; r during a run shows this view.
 *
 * Esc goes back and leaves the run going (a ● on the Runs tab says so; r shows it again). x, and
 * q anywhere, ask y/n first, since a cancel cannot be undone: SIGTERM, on which kladder run stops
 * its worker, records the checks not run as cancelled and the run as cancelled; if it had to be
 * killed before it could, the run is marked cancelled here (cdb_run_finish), and the checks it
 * finished stay recorded.
 *
 * A queue (the launch panel's "every suite of this cell") runs several such runs one after
 * another as separate runs: when one ends the next starts, the view says "run 2 of 3", and a
 * cancel (asked first, naming the runs still queued) stops the run and drops the rest. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casedb/results.h"
#include "casedb/results_query.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/child.h"
#include "tui/columns.h"
#include "tui/draw.h"
#include "tui/views/launcher.h"
#include "tui/views/list.h"
#include "tui/results_fmt.h"
#include "tui/views/view.h"


struct live_check {
    int seq;
    int verdict;
    char *variant, *check, *shape, *detail;
    double median_us;
};

struct live_state {
    struct tui_child *child;
    char cmd[600];
    char run_id[40];
    char device[128];
    int total, done;
    char current[200];
    long current_ms;   /* when the check running now started (the child's elapsed time) */
    double current_limit_s; /* its time limit after setup; 0 when the run did not say */
    struct live_check *checks;
    size_t n, cap;
    bool ended;        /* the "end" event came */
    bool inconclusive; /* it said the checks that reach the bug were skipped */
    int verdict;       /* of the run, once known */
    bool met;
    char uncaught[256]; /* the user suites whose bug no rung caught, from the end event */
    bool finished;     /* the child is gone */
    int status;
    long elapsed_ms;   /* final, once finished */
    char error[600];   /* why it did not start or ended badly */
    bool cancel_asked;
    struct tui_list list;
    /* The queue: its runs' command lines (owned), and the one running now. Kept across
     * live_clear; n_queue 0: a single run. */
    char ***queue;
    int n_queue, queue_at;
};

static char **argv_dup(const char *const *argv)
{
    int n = 0;
    while (argv[n])
        n++;
    char **v = xcalloc((size_t)n + 1, sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = xstrdup(argv[i]);
    return v;
}

static void queue_free(struct live_state *s)
{
    for (int i = 0; i < s->n_queue; i++) {
        for (char **a = s->queue[i]; *a; a++)
            free(*a);
        free(s->queue[i]);
    }
    free(s->queue);
    s->queue = NULL;
    s->n_queue = s->queue_at = 0;
}

/* Runs of the queue still to start after the one running now. */
static int queued_after(const struct live_state *s)
{
    return s->n_queue ? s->n_queue - s->queue_at - 1 : 0;
}

static void live_clear(struct live_state *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->checks[i].variant);
        free(s->checks[i].check);
        free(s->checks[i].shape);
        free(s->checks[i].detail);
    }
    free(s->checks);
    tui_child_free(s->child);
    char ***queue = s->queue;
    int n_queue = s->n_queue, queue_at = s->queue_at;
    memset(s, 0, sizeof *s);
    s->queue = queue, s->n_queue = n_queue, s->queue_at = queue_at;
}

static void *live_init(struct tui_app *app)
{
    (void)app;
    return xcalloc(1, sizeof(struct live_state));
}

static void live_fini(void *state)
{
    live_clear(state);
    queue_free(state);
    free(state);
}

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double jnum(const cJSON *o, const char *k, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static void live_event(struct live_state *s, const cJSON *ev)
{
    const char *kind = jstr(ev, "event");
    if (!kind)
        return;
    if (!strcmp(kind, "start")) {
        snprintf(s->run_id, sizeof s->run_id, "%s", jstr(ev, "run_id") ? jstr(ev, "run_id") : "");
        double t = jnum(ev, "total", 0);
        s->total = t > 0 && t < 1e7 ? (int)t : 0;
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(ev, "machine");
        const char *dev = m ? jstr(m, "device") : NULL, *tg = m ? jstr(m, "target") : NULL;
        snprintf(s->device, sizeof s->device, "%s%s%s", dev ? dev : "", tg ? " · " : "",
                 tg ? tg : "");
    } else if (!strcmp(kind, "check-start")) {
        const char *c = jstr(ev, "check"), *v = jstr(ev, "variant");
        snprintf(s->current, sizeof s->current, "%s%s%s", c ? c : "?", v ? " · " : "", v ? v : "");
        s->current_ms = tui_child_elapsed_ms(s->child);
        double lim = jnum(ev, "limit_s", 0);
        s->current_limit_s = lim > 0 && lim < 1e7 ? lim : 0;
    } else if (!strcmp(kind, "check-done")) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(ev, "check");
        if (!cJSON_IsObject(c))
            return;
        if (s->n == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 32;
            s->checks = xrealloc(s->checks, s->cap * sizeof *s->checks);
        }
        int v = jstr(c, "verdict") ? cdb_verdict_parse(jstr(c, "verdict")) : -1;
        /* a check the cancel stopped before it ran is no check done: "5 of 24 checks done",
         * never "24 of 24" after an x */
        if (v == CDB_CANCELLED)
            return;
        struct live_check *k = &s->checks[s->n++];
        k->seq = (int)jnum(ev, "seq", (double)s->n - 1);
        k->verdict = v < 0 ? CDB_ERROR : v;
        k->variant = xstrdup_or_null(jstr(c, "variant"));
        k->check = xstrdup_or_null(jstr(c, "check"));
        k->shape = xstrdup_or_null(jstr(c, "shape"));
        k->detail = xstrdup_or_null(jstr(c, "detail"));
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(c, "time_us");
        k->median_us = NAN;
        if (t)
            k->median_us = jnum(t, "median", NAN);
        s->done = (int)s->n;
        s->current[0] = '\0';
        tui_list_set_count(&s->list, s->n);
        tui_list_last(&s->list); /* follow the newest verdict */
    } else if (!strcmp(kind, "end")) {
        s->ended = true;
        const char *vn = jstr(ev, "verdict");
        /* "inconclusive" is a run's outcome, not a check verdict: recorded as skip */
        s->inconclusive = vn && !strcmp(vn, "inconclusive");
        int v = s->inconclusive ? CDB_SKIP : vn ? cdb_verdict_parse(vn) : -1;
        s->verdict = v < 0 ? CDB_ERROR : v;
        s->met = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "expectation_met"));
        s->uncaught[0] = '\0';
        const cJSON *m, *missed = cJSON_GetObjectItemCaseSensitive(ev, "bug_caught_by_no_rung");
        cJSON_ArrayForEach(m, missed) {
            size_t l = strlen(s->uncaught);
            if (cJSON_IsString(m) && l + 4 < sizeof s->uncaught)
                snprintf(s->uncaught + l, sizeof s->uncaught - l, "%s%s", l ? ", " : "",
                         m->valuestring);
        }
        s->current[0] = '\0';
    }
}

static void live_line(void *ctx, enum tui_child_stream st, const char *line)
{
    struct live_state *s = ctx;
    if (st != TUI_CHILD_EVENTS)
        return; /* the text report; its tail is kept by the child for errors */
    cJSON *ev = cJSON_Parse(line);
    if (ev)
        live_event(s, ev);
    cJSON_Delete(ev);
}

static void live_start(struct tui_app *app, struct live_state *s, const char *const *argv,
                       bool show);

static void live_exit(struct tui_app *app, void *ctx)
{
    struct live_state *s = ctx;
    s->finished = true;
    app->run_under_way = false;
    s->status = tui_child_status(s->child);
    s->elapsed_ms = tui_child_elapsed_ms(s->child);
    bool cancelled = tui_child_cancelled(s->child);
    if (!s->run_id[0]) {
        char *tail = text_sanitize(tui_child_tail(s->child), false);
        snprintf(s->error, sizeof s->error, "%s", tail[0] ? tail : "kladder run did not start");
        free(tail);
    } else if (!s->ended) {
        /* The run ended without its last word (killed, crashed): make its record say so. */
        struct cdb_run_detail d;
        char err[512], now[21];
        if (cdb_run_load(app->db, s->run_id, &d, err, sizeof err) == 1) {
            if (d.info.run.verdict == CDB_RUNNING) {
                cdb_now_iso(now);
                if (cdb_run_finish(app->db, s->run_id, now, cancelled ? CDB_CANCELLED : CDB_ERROR,
                                   err, sizeof err) != 0)
                    snprintf(s->error, sizeof s->error, "%s", err);
            }
            s->verdict = d.info.run.verdict == CDB_RUNNING
                             ? (cancelled ? CDB_CANCELLED : CDB_ERROR)
                             : d.info.run.verdict;
            cdb_run_detail_free(&d);
        } else {
            s->verdict = cancelled ? CDB_CANCELLED : CDB_ERROR;
        }
        if (!cancelled && !s->error[0]) {
            char *tail = text_sanitize(tui_child_tail(s->child), false);
            snprintf(s->error, sizeof s->error, "kladder run ended with status %d: %s", s->status,
                     tail);
            free(tail);
        }
    }
    tui_app_results_changed(app);
    if (queued_after(s) > 0 && s->run_id[0] && !cancelled) {
        /* The next run of the queue, where this one left the screen (not brought forward) */
        s->queue_at++;
        live_start(app, s, (const char *const *)s->queue[s->queue_at], false);
        if (app->lang == TUI_LANG_ZH)
            tui_app_message(app, "第 %d / %d 次运行开始", s->queue_at + 1, s->n_queue);
        else
            tui_app_message(app, "Run %d of %d started", s->queue_at + 1, s->n_queue);
        return;
    }
    if (app->lang == TUI_LANG_ZH)
        tui_app_message(app, "运行结束：%s", !s->run_id[0] ? "未能开始"
                                           : s->inconclusive ? "无结论（能触及缺陷的检查被跳过）"
                                                             : tui_verdict_word(s->verdict, true));
    else
        tui_app_message(app, "The run ended: %s",
                        !s->run_id[0] ? "it did not start"
                        : s->inconclusive ? "inconclusive (the checks that reach the bug were skipped)"
                                          : cdb_verdict_name((enum cdb_verdict)s->verdict));
}

/* Starts argv and follows it; show: bring the live view forward (a queue's later runs start
 * where the person is). */
static void live_start(struct tui_app *app, struct live_state *s, const char *const *argv,
                       bool show)
{
    live_clear(s);
    tui_launcher_cmdline(argv, s->cmd, sizeof s->cmd);
    char err[300];
    s->child = tui_launcher_start(app, argv, true, live_line, live_exit, s, err, sizeof err);
    app->run_under_way = s->child != NULL;
    if (show)
        tui_runs_push(app, TUI_VIEW_LIVE);
    if (!s->child) {
        s->finished = true;
        snprintf(s->error, sizeof s->error, "%s", err);
    }
}

static bool live_open(struct tui_app *app, void *state, const struct tui_open *what)
{
    struct live_state *s = state;
    if (what->n_queue > 0) {
        queue_free(s);
        s->queue = xcalloc((size_t)what->n_queue, sizeof *s->queue);
        for (int i = 0; i < what->n_queue; i++)
            s->queue[i] = argv_dup(what->queue[i]);
        s->n_queue = what->n_queue;
        live_start(app, s, (const char *const *)s->queue[0], true);
        return true;
    }
    if (what->argv) {
        queue_free(s);
        live_start(app, s, what->argv, true);
        return true;
    }
    if (!s->child || s->finished)
        return false;
    tui_runs_push(app, TUI_VIEW_LIVE);
    return true;
}

/* The columns of the checks' rows, laid out by tui/columns.h as the run view's are: the seq and
 * the verdict never give way, the time gives first, then the variant shrinks; the check and
 * its detail take what is left. Fixed widths cut a Chinese verdict or a long variant and ran
 * the time into the check on a narrow screen. */
enum { LCOL_SEQ, LCOL_VERDICT, LCOL_VARIANT, LCOL_CHECK, LCOL_TIME, LCOL_COUNT };

struct live_draw_ctx {
    struct live_state *s;
    bool zh;
    int y, x, w;
    const char *heads[LCOL_COUNT]; /* the headings, as the run view's */
    struct tui_col col[LCOL_COUNT];
};

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

/* Measured on every frame: a live run has tens or hundreds of checks, not thousands. */
static void live_layout(struct live_draw_ctx *c)
{
    const struct live_state *s = c->s;
    int seq_w = text_width(c->heads[LCOL_SEQ]), verdict_w = text_width(c->heads[LCOL_VERDICT]),
        variant_w = text_width(c->heads[LCOL_VARIANT]), check_w = text_width(c->heads[LCOL_CHECK]),
        time_w = text_width(c->heads[LCOL_TIME]);
    for (size_t i = 0; i < s->n; i++) {
        const struct live_check *k = &s->checks[i];
        char buf[64];
        snprintf(buf, sizeof buf, "%d", k->seq);
        seq_w = max_int(seq_w, (int)strlen(buf));
        tui_fmt_verdict_lang(k->verdict, c->zh, buf, sizeof buf);
        verdict_w = max_int(verdict_w, text_width(buf));
        variant_w = max_int(variant_w, text_width(k->variant ? k->variant : ""));
        check_w = max_int(check_w, text_width(k->check ? k->check : ""));
        tui_fmt_us(k->median_us, buf, sizeof buf);
        time_w = max_int(time_w, text_width(buf));
    }
    struct tui_col *col = c->col;
    col[LCOL_SEQ] = (struct tui_col){.want = seq_w, .min = seq_w};
    col[LCOL_VERDICT] = (struct tui_col){.want = verdict_w, .min = 6};
    col[LCOL_VARIANT] = (struct tui_col){.want = variant_w, .min = variant_w < 8 ? variant_w : 8,
                                         .give = 2};
    /* the check and its detail: as wide as the screen allows */
    col[LCOL_CHECK] = (struct tui_col){.want = check_w, .min = check_w < 12 ? check_w : 12,
                                       .flex = true};
    col[LCOL_TIME] = (struct tui_col){.want = time_w, .min = time_w, .give = 1};
    tui_columns_fit(col, LCOL_COUNT, c->w, 2);
}

static void live_row(size_t row, int line, bool selected, void *vctx)
{
    struct live_draw_ctx *c = vctx;
    const struct live_check *k = &c->s->checks[row];
    const struct tui_col *col = c->col;
    int y = c->y + line, x = c->x;
    enum tui_role base = selected ? TUI_ROLE_SELECTED : TUI_ROLE_NORMAL;
    char buf[64];
    tui_draw_fill(y, x, c->w, base);
    snprintf(buf, sizeof buf, "%d", k->seq);
    if (col[LCOL_SEQ].w)
        tui_draw_right(y, x + col[LCOL_SEQ].x, col[LCOL_SEQ].w, selected ? base : TUI_ROLE_DIM,
                       buf);
    tui_fmt_verdict_lang(k->verdict, c->zh, buf, sizeof buf);
    if (col[LCOL_VERDICT].w)
        tui_draw_pad(y, x + col[LCOL_VERDICT].x, col[LCOL_VERDICT].w,
                     selected ? base : tui_verdict_role(k->verdict), buf);
    if (col[LCOL_VARIANT].w)
        tui_draw_pad(y, x + col[LCOL_VARIANT].x, col[LCOL_VARIANT].w, base,
                     k->variant ? k->variant : "");
    if (col[LCOL_CHECK].w) {
        char *txt = xasprintf("%s%s%s", k->check ? k->check : "",
                              k->detail && *k->detail ? " — " : "", k->detail ? k->detail : "");
        tui_draw_pad(y, x + col[LCOL_CHECK].x, col[LCOL_CHECK].w, base, txt);
        free(txt);
    }
    tui_fmt_us(k->median_us, buf, sizeof buf);
    if (col[LCOL_TIME].w)
        tui_draw_right(y, x + col[LCOL_TIME].x, col[LCOL_TIME].w, base, buf);
}

static void progress_bar(int y, int x, int w, int done, int total)
{
    if (w <= 0)
        return;
    static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    /* Events come from another process: a run may report more checks done than it planned
     * (checks a sanitizer adds), and the bar's buffer holds w cells, no more. */
    if (done > total)
        done = total;
    if (done < 0)
        done = 0;
    long units = total > 0 ? (long)done * w * 8 / total : 0;
    int full = (int)(units / 8), part = (int)(units % 8);
    char *bar = xmalloc((size_t)w * 4 + 8);
    size_t o = 0;
    for (int i = 0; i < full; i++)
        o += (size_t)sprintf(bar + o, "%s", tui_draw_ascii() ? "#" : "█");
    if (full < w && part && !tui_draw_ascii())
        o += (size_t)sprintf(bar + o, "%s", eighths[part]);
    bar[o] = '\0';
    tui_draw_fill(y, x, w, TUI_ROLE_DIM);
    tui_draw_text(y, x, w, TUI_ROLE_OK, bar);
    free(bar);
}

static void live_draw(struct tui_app *app, void *state)
{
    struct live_state *s = state;
    const struct tui_rect *r = &app->lay.body;
    int y = r->y, x = r->x + 1, w = r->w - 2, ymax = r->y + r->h;
    char buf[700];
    tui_draw_text(y++, x, w, TUI_ROLE_DIM, s->cmd);
    long ms = s->finished ? s->elapsed_ms : tui_child_elapsed_ms(s->child);
    const char *state_txt;
    enum tui_role role = TUI_ROLE_TITLE;
    if (!s->finished)
        state_txt = s->cancel_asked ? tui_tr(app, "cancelling…", "正在取消…")
                                    : tui_tr(app, "running", "运行中");
    else if (!s->run_id[0])
        state_txt = tui_tr(app, "did not start", "未能开始"), role = TUI_ROLE_FAIL;
    else if (s->inconclusive)
        state_txt = tui_tr(app, "inconclusive", "无结论"), role = TUI_ROLE_WARN;
    else
        state_txt = tui_verdict_word(s->verdict, app->lang == TUI_LANG_ZH),
        role = tui_verdict_role(s->verdict);
    char of_queue[64] = "";
    if (s->n_queue > 1)
        snprintf(of_queue, sizeof of_queue, app->lang == TUI_LANG_ZH ? "第 %d / %d 次运行 · "
                                                                     : "run %d of %d · ",
                 s->queue_at + 1, s->n_queue);
    if (app->lang == TUI_LANG_ZH)
        snprintf(buf, sizeof buf, "%s%s · 已完成 %d / %d 项检查 · %.1f 秒%s%s", of_queue, state_txt,
                 s->done, s->total, (double)ms / 1000.0, s->device[0] ? " · " : "", s->device);
    else
        snprintf(buf, sizeof buf, "%s%s · %d of %d checks done · %.1f s%s%s", of_queue, state_txt,
                 s->done, s->total, (double)ms / 1000.0, s->device[0] ? " · " : "", s->device);
    tui_draw_text(y++, x, w, role, buf);
    progress_bar(y++, x, w, s->done, s->total);
    if (!s->finished && s->current[0]) {
        /* The check's own clock against its limit: a hang shows coming, not only after. The
         * limit counts after setup (compiling) and this clock from the start, so the time
         * left shown may be less than what is left, never more. */
        double cur = (double)(ms - s->current_ms) / 1000.0;
        if (cur < 0)
            cur = 0;
        if (s->current_limit_s > 0 && app->lang == TUI_LANG_ZH)
            snprintf(buf, sizeof buf, "当前：%s · %.1f 秒 / 时限 %g 秒（剩余 %.0f 秒）", s->current,
                     cur, s->current_limit_s,
                     s->current_limit_s > cur ? s->current_limit_s - cur : 0.0);
        else if (s->current_limit_s > 0)
            snprintf(buf, sizeof buf, "Now: %s · %.1f s of its %g s limit (%.0f s left)",
                     s->current, cur, s->current_limit_s,
                     s->current_limit_s > cur ? s->current_limit_s - cur : 0.0);
        else
            snprintf(buf, sizeof buf, "%s %s · %.1f s", tui_tr(app, "Now:", "当前："), s->current,
                     cur);
    }
    else if (s->finished && s->ended && s->inconclusive)
        snprintf(buf, sizeof buf, "%s",
                 tui_tr(app, "Inconclusive: the checks that reach the bug were skipped here, so nothing was shown (exit 1)",
                        "无结论：能触及缺陷的检查在此被跳过，未能证明任何事（退出码 1）"));
    else if (s->finished && s->ended && s->verdict == CDB_CANCELLED)
        snprintf(buf, sizeof buf, "%s",
                 tui_tr(app, "Cancelled: the checks done are kept; nothing is judged",
                        "已取消：已完成的检查保留；不作判定"));
    else if (s->finished && s->ended && s->met && s->uncaught[0]) {
        /* the CLI's answer, said the same way: met, yet no rung caught the bug */
        char *names = text_sanitize(s->uncaught, false);
        snprintf(buf, sizeof buf, "%s%s%s",
                 tui_tr(app, "Every expectation met, but no rung caught the bug of ",
                        "全部符合预期，但没有任何阶梯发现以下套件的缺陷："),
                 names, tui_tr(app, " (your suite states no expectation of it)",
                               "（该套件未声明对其缺陷的预期）"));
        free(names);
    } else if (s->finished && s->ended)
        snprintf(buf, sizeof buf, "%s", s->met ? tui_tr(app, "Every expectation met (buggy caught where it ran, fixed and baselines passed)",
                                                       "全部符合预期（运行了的缺陷变体均被发现，修复变体和基线通过）")
                                              : tui_tr(app, "An expectation was not met (see the checks)",
                                                       "有预期未满足（见各项检查）"));
    else
        buf[0] = '\0';
    tui_draw_text(y++, x, w, TUI_ROLE_NORMAL, buf);
    if (s->error[0] && y < ymax) {
        size_t n;
        char **lines = text_wrap(s->error, w, &n);
        for (size_t i = 0; i < n && i < 4 && y < ymax; i++)
            tui_draw_text(y++, x, w, TUI_ROLE_FAIL, lines[i]);
        text_lines_free(lines, n);
    }
    if (s->run_id[0] && y < ymax) {
        snprintf(buf, sizeof buf, "%s %s%s", tui_tr(app, "run", "运行"), s->run_id,
                 s->finished ? tui_tr(app, " · Enter opens its checks", " · Enter 打开其检查") : "");
        tui_draw_text(y++, x, w, TUI_ROLE_DIM, buf);
    }
    y++;
    if (y >= ymax)
        return;
    struct live_draw_ctx c = {.s = s, .zh = app->lang == TUI_LANG_ZH, .x = x, .w = w,
                              .heads = {"#", tui_tr(app, "Verdict", "判定"),
                                        tui_tr(app, "Variant", "变体"),
                                        tui_tr(app, "Check", "检查"),
                                        tui_tr(app, "Median", "中位数")}};
    live_layout(&c);
    tui_draw_fill(y, x, w, TUI_ROLE_COLHEAD);
    for (int i = 0; i < LCOL_COUNT; i++) {
        if (!c.col[i].w)
            continue;
        if (i == LCOL_SEQ || i == LCOL_TIME)
            tui_draw_right(y, x + c.col[i].x, c.col[i].w, TUI_ROLE_COLHEAD, c.heads[i]);
        else
            tui_draw_pad(y, x + c.col[i].x, c.col[i].w, TUI_ROLE_COLHEAD, c.heads[i]);
    }
    if (++y >= ymax)
        return;
    c.y = y;
    tui_list_draw(&s->list, ymax - y, live_row, &c);
}

static unsigned cancel_yes(struct tui_app *app, void *ctx)
{
    struct live_state *s = ctx;
    if (!s->child || s->finished) /* it ended while the question waited */
        return TUI_R_DRAW;
    tui_child_cancel(s->child);
    s->cancel_asked = true;
    tui_app_message(app, "%s", tui_tr(app, "Cancelling: the run stops after its worker",
                                      "正在取消：工作进程停止后运行即结束"));
    return TUI_R_DRAW;
}

static bool cancellable(const struct live_state *s)
{
    return s->child && !s->finished && !s->cancel_asked;
}

static unsigned live_action(struct tui_app *app, void *state, enum tui_action act)
{
    struct live_state *s = state;
    switch (act) {
    case TUI_ACT_RUN_CANCEL:
        if (!cancellable(s))
            return TUI_R_NONE;
        if (queued_after(s) > 0) {
            char q[200];
            if (app->lang == TUI_LANG_ZH)
                snprintf(q, sizeof q, "取消这次运行，并放弃其后排队的 %d 次运行吗？已完成的检查会保留。y/n",
                         queued_after(s));
            else
                snprintf(q, sizeof q, "Cancel the run and the %d queued after it? The checks done are kept. y/n",
                         queued_after(s));
            tui_app_confirm(app, q, cancel_yes, s);
        } else {
            tui_app_confirm(app, tui_tr(app, "Cancel the run? The checks done are kept. y/n",
                                        "取消这次运行吗？已完成的检查会保留。y/n"),
                            cancel_yes, s);
        }
        return TUI_R_DRAW;
    case TUI_ACT_BACK:
        if (s->child && !s->finished)
            tui_app_message(app, "%s", tui_tr(app, "The run goes on: ● on the Runs tab; r shows it again",
                                              "运行继续进行：运行标签上有 ●；按 r 再次查看"));
        tui_runs_pop(app);
        return TUI_R_DRAW;
    case TUI_ACT_OPEN:
        if (s->finished && s->run_id[0])
            tui_app_open(app, TUI_VIEW_RUN, &(struct tui_open){.id = s->run_id});
        return TUI_R_DRAW;
    default:
        return tui_list_navigate(&s->list, act) ? TUI_R_DRAW : TUI_R_UNHANDLED;
    }
}

/* x Cancel only while there is a run to cancel: not after it ended, nor once cancelling. */
static bool live_offers(struct tui_app *app, void *state, enum tui_action act)
{
    if (act == TUI_ACT_RUN_CANCEL)
        return cancellable(state);
    return tui_app_offers_default(app, act);
}

static void live_status(struct tui_app *app, void *state, char *buf, size_t len)
{
    struct live_state *s = state;
    if (s->child && !s->finished && s->cancel_asked)
        snprintf(buf, len, "%s", tui_tr(app, "Cancelling · Esc goes back", "正在取消 · Esc 返回"));
    else if (s->child && !s->finished)
        snprintf(buf, len, "%s", tui_tr(app, "x cancels the run (asks first) · Esc goes back and leaves it running",
                                        "x 取消运行（先询问） · Esc 返回，运行继续"));
    else
        snprintf(buf, len, "%s", tui_tr(app, "Enter opens the run's checks · Esc back to the runs",
                                        "Enter 打开运行的检查 · Esc 返回运行列表"));
}

const struct tui_view_ops tui_view_live = {
    .name = "live",
    .scope = TUI_SCOPE_LIVE,
    .keys_title = {"Live run", "进行中的运行"},
    .init = live_init,
    .fini = live_fini,
    .draw = live_draw,
    .action = live_action,
    .status = live_status,
    .open = live_open,
    .offers = live_offers,
};
