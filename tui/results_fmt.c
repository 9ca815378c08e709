#include "tui/results_fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "casedb/results.h"
#include "tui/draw.h"

const char *tui_verdict_glyph(int v)
{
    static const char *const utf8[CDB_VERDICT_COUNT] = {"✓", "✗", "⧗", "!", "-", "⊘", "…", "↯", "?"};
    static const char *const ascii[CDB_VERDICT_COUNT] = {"+", "x", "H", "!", "-", "c", ".", "i", "?"};
    if (v < 0 || v >= CDB_VERDICT_COUNT)
        return "?";
    return tui_draw_ascii() ? ascii[v] : utf8[v];
}

enum tui_role tui_verdict_role(int v)
{
    switch (v) {
    case CDB_PASS:
        return TUI_ROLE_OK;
    case CDB_FAIL:
    case CDB_HANG:
    case CDB_ERROR:
        return TUI_ROLE_FAIL;
    case CDB_CANCELLED:
    case CDB_RUNNING:
    case CDB_INTERRUPTED:
    case CDB_DOUBT: /* apart from both: neither a pass nor a catch */
        return TUI_ROLE_WARN;
    default:
        return TUI_ROLE_DIM;
    }
}

const char *tui_verdict_word(int v, bool zh)
{
    /* in the order of enum cdb_verdict */
    static const char *const words_zh[] = {"通过", "失败", "挂起", "错误", "跳过", "已取消",
                                           "运行中", "已中断", "存疑"};
    _Static_assert(sizeof words_zh / sizeof words_zh[0] == CDB_VERDICT_COUNT,
                   "a Chinese word for every verdict");
    if (v < 0 || v >= CDB_VERDICT_COUNT)
        return "?";
    return zh ? words_zh[v] : cdb_verdict_name((enum cdb_verdict)v);
}

void tui_fmt_counts_caught(const int *counts, int caught_fail, int caught_hang, bool zh,
                           char *buf, size_t len)
{
    /* failures first: they are what a person looks for; then the bugs caught as intended */
    enum { CAUGHT = CDB_VERDICT_COUNT };
    static const int order[] = {CDB_FAIL, CDB_HANG, CDB_ERROR, CDB_CANCELLED, CDB_DOUBT, CAUGHT,
                                CDB_SKIP, CDB_PASS};
    static const char *const one_en[CDB_VERDICT_COUNT] = {
        "passed", "failed", "hung", "error", "skipped", "cancelled", [CDB_DOUBT] = "in doubt"};
    static const char *const many_en[CDB_VERDICT_COUNT] = {
        "passed", "failed", "hung", "errors", "skipped", "cancelled", [CDB_DOUBT] = "in doubt"};
    static const char *const zh_w[CDB_VERDICT_COUNT] = {
        "通过", "失败", "挂起", "出错", "跳过", "已取消", [CDB_DOUBT] = "存疑"};
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof order / sizeof order[0] && o < len; i++) {
        int v = order[i];
        int n = v == CAUGHT     ? caught_fail + caught_hang
                : v == CDB_FAIL ? counts[v] - caught_fail
                : v == CDB_HANG ? counts[v] - caught_hang
                                : counts[v];
        if (n <= 0)
            continue;
        if (v == CAUGHT && zh)
            o += (size_t)snprintf(buf + o, len - o, "%s捕获 %d 个缺陷", o ? "，" : "", n);
        else if (v == CAUGHT)
            o += (size_t)snprintf(buf + o, len - o, "%s%d %s caught", o ? ", " : "", n,
                                  n == 1 ? "bug" : "bugs");
        else if (zh)
            o += (size_t)snprintf(buf + o, len - o, "%s%d 项%s", o ? "，" : "", n, zh_w[v]);
        else
            o += (size_t)snprintf(buf + o, len - o, "%s%d %s", o ? ", " : "", n,
                                  n == 1 ? one_en[v] : many_en[v]);
    }
    if (!buf[0])
        snprintf(buf, len, "-");
}

void tui_fmt_run_counts(const int *counts, int caught_fail, int caught_hang, int run_verdict,
                        bool zh, char *buf, size_t len)
{
    if (run_verdict == CDB_PASS) {
        caught_fail = counts[CDB_FAIL];
        caught_hang = counts[CDB_HANG];
    }
    tui_fmt_counts_caught(counts, caught_fail, caught_hang, zh, buf, len);
    int wrong = counts[CDB_FAIL] - caught_fail + counts[CDB_HANG] - caught_hang +
                counts[CDB_ERROR] + counts[CDB_CANCELLED];
    /* A failed run whose checks all passed or skipped failed for what did not happen: its
     * buggy variant got through every check of its rung. */
    if (run_verdict == CDB_FAIL && wrong == 0 && caught_fail + caught_hang == 0 &&
        strcmp(buf, "-") != 0) { /* with no check at all there is nothing to explain it by */
        size_t o = strlen(buf);
        snprintf(buf + o, len - o, "%s", zh ? "；缺陷未被捕获" : "; the bug was not caught");
    }
}

void tui_fmt_rungs(unsigned rungs, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int r = 0; r < 32 && o < len; r++)
        if (rungs >> r & 1u)
            o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", r);
    if (!buf[0])
        snprintf(buf, len, "-");
}

void tui_fmt_counts(const int *counts, bool zh, char *buf, size_t len)
{
    tui_fmt_counts_caught(counts, 0, 0, zh, buf, len);
}

void tui_fmt_verdict_lang(int v, bool zh, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s", tui_verdict_glyph(v), tui_verdict_word(v, zh));
}

void tui_fmt_run_verdict(int v, const char *exec_verdict, bool zh, char *buf, size_t len)
{
    if (exec_verdict)
        snprintf(buf, len, "%s %s", tui_verdict_glyph(v), exec_verdict);
    else
        tui_fmt_verdict_lang(v, zh, buf, len);
}

void tui_fmt_us(double us, char *buf, size_t len)
{
    if (isnan(us))
        snprintf(buf, len, "n/a");
    else if (us < 1000)
        snprintf(buf, len, "%.3g us", us);
    else if (us < 1e6)
        snprintf(buf, len, "%.3g ms", us / 1e3);
    else
        snprintf(buf, len, "%.3g s", us / 1e6);
}
