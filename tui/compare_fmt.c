/* Formatting and row selection of a comparison, shared by the CLI and the Compare view. */
#include "tui/compare_fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xalloc.h"

void cmp_fmt_ratio(double ratio, bool ascii, bool zh, char *buf, size_t len)
{
    const char *x = ascii ? "x" : "×";
    if (!isfinite(ratio) || ratio <= 0) {
        snprintf(buf, len, "n/a");
        return;
    }
    double m = ratio >= 1 ? ratio : 1 / ratio;
    char num[32];
    /* at most four digits, so that "19514× faster" does not outgrow its column: 20k× */
    if (m >= 999.5e3)
        snprintf(num, sizeof num, "%.0fM", m / 1e6);
    else if (m >= 9999.5)
        snprintf(num, sizeof num, "%.0fk", m / 1e3);
    else
        snprintf(num, sizeof num, "%.*f", m < 10 ? 2 : m < 100 ? 1 : 0, m);
    /* the word follows what is printed: 1.004 reads "1.00× same", not "1.00× slower" */
    bool same = strcmp(num, "1.00") == 0;
    const char *word = zh ? (same ? "相同" : ratio > 1 ? "更慢" : "更快")
                          : (same ? "same" : ratio > 1 ? "slower" : "faster");
    snprintf(buf, len, "%s%s %s", num, x, word);
}

const char *cmp_verdict_mark(const struct cdb_compare_row *r, bool ascii)
{
    return r->verdict_differs ? (ascii ? "#" : "≠") : "";
}

const char *cmp_timing_mark(const struct cdb_compare_row *r)
{
    switch (r->timing) {
    case CDB_TIMING_FLAGGED:
        return "!";
    case CDB_TIMING_NOISE:
        return "~";
    case CDB_TIMING_FEW:
        return "?";
    default:
        return "";
    }
}

const char *cmp_not_run(bool ascii)
{
    return ascii ? "o" : "○";
}

int cmp_bar_eighths(double ratio, int half)
{
    if (!isfinite(ratio) || ratio <= 0 || half <= 0)
        return 0;
    /* a ratio that reads "1.00× same" draws no bar: the bar says what the words say */
    double m = ratio >= 1 ? ratio : 1 / ratio;
    if (m < 1.005)
        return 0;
    double l = log10(ratio) / CMP_BAR_DECADES;
    if (l > 1)
        l = 1;
    if (l < -1)
        l = -1;
    long e = lround(l * half * 8);
    /* any difference at all shows at least a sliver */
    if (e == 0 && (ratio > 1 || ratio < 1))
        e = ratio > 1 ? 1 : -1;
    return (int)e;
}

void cmp_fmt_bar(int eighths, bool ascii, char *buf, size_t len)
{
    static const char *const right[8] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    bool left = eighths < 0;
    int e = left ? -eighths : eighths;
    int full = e / 8, rest = e % 8;
    size_t used = 0;
    buf[0] = '\0';
    if (ascii) {
        full = (e + 4) / 8;
        if (full == 0 && e > 0)
            full = 1;
        rest = 0;
    }
    /* leftward, only a right-aligned eighth (▕) and half (▐) exist: the nearer one */
    const char *part = !rest ? "" : !left ? right[rest] : rest < 4 ? "▕" : "▐";
    if (left && *part)
        used += (size_t)snprintf(buf + used, len - used, "%s", part);
    for (int i = 0; i < full && used + 4 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s", ascii ? "#" : "█");
    if (!left && *part && used + 4 < len)
        snprintf(buf + used, len - used, "%s", part);
}

void cmp_fmt_speed(const struct cdb_compare_summary *s, const char *name_a, const char *name_b,
                   bool ascii, bool zh, char *buf, size_t len)
{
    if (!s->with_ratio) {
        snprintf(buf, len, "%s", zh ? "没有两方都有时间的检查" : "no check has times on both sides");
        return;
    }
    /* rows timed once say nothing of noise: no headline from them, however far apart */
    if (!s->judged || !isfinite(s->geomean_ratio)) {
        if (zh)
            snprintf(buf, len, "没有可判断的行：两方都有时间的 %d 行中，没有一行每方重复 %d 次",
                     s->with_ratio, CDB_CMP_MIN_REPEATS);
        else
            snprintf(buf, len, "no row judged: none of the %d row%s timed on both sides has %d "
                     "repeats a side", s->with_ratio, s->with_ratio == 1 ? "" : "s",
                     CDB_CMP_MIN_REPEATS);
        return;
    }
    char r[48];
    cmp_fmt_ratio(s->geomean_ratio, ascii, false, r, sizeof r);
    *strrchr(r, ' ') = '\0'; /* the magnitude alone; the sentence says the direction */
    bool same = strcmp(r, ascii ? "1.00x" : "1.00×") == 0;
    bool b_faster = s->geomean_ratio < 1;
    const char *fast = b_faster ? name_b : name_a, *slow = b_faster ? name_a : name_b;
    const char *fl = b_faster ? "B" : "A", *sl = b_faster ? "A" : "B";
    if (zh && same)
        snprintf(buf, len, "A（%s）与 B（%s）速度相同（已判断的 %d 行的几何平均）", name_a, name_b,
                 s->judged);
    else if (zh)
        snprintf(buf, len, "%s（%s）比 %s（%s）快 %s（已判断的 %d 行的几何平均）", fl, fast, sl, slow,
                 r, s->judged);
    else if (same)
        snprintf(buf, len, "A (%s) and B (%s) run at the same speed, geometric mean over %d row%s "
                 "judged", name_a, name_b, s->judged, s->judged == 1 ? "" : "s");
    else
        snprintf(buf, len, "%s (%s) is %s faster than %s (%s), geometric mean over %d row%s judged",
                 fl, fast, r, sl, slow, s->judged, s->judged == 1 ? "" : "s");
}

void cmp_explain(const struct cdb_compare_row *r, bool zh, char *buf, size_t len)
{
    double m = r->ratio >= 1 ? r->ratio : 1 / r->ratio;
    bool few_a = r->a.repeats < CDB_CMP_MIN_REPEATS, few_b = r->b.repeats < CDB_CMP_MIN_REPEATS;
    switch (r->timing) {
    case CDB_TIMING_FLAGGED:
        if (m >= CDB_CMP_LARGE && zh)
            snprintf(buf, len, "! 相差 %.0f× 以上：不论区间都标记，重复 %d 与 %d 次", CDB_CMP_LARGE,
                     r->a.repeats, r->b.repeats);
        else if (m >= CDB_CMP_LARGE)
            snprintf(buf, len, "! %.0fx or more apart: flagged whatever the spreads, %d and %d "
                     "repeats", CDB_CMP_LARGE, r->a.repeats, r->b.repeats);
        else if (zh)
            snprintf(buf, len, "! 区间不重叠，超过 %.0f%%，重复 %d 与 %d 次", CDB_CMP_NOISE * 100,
                     r->a.repeats, r->b.repeats);
        else
            snprintf(buf, len, "! spreads apart and beyond %.0f%%, %d and %d repeats",
                     CDB_CMP_NOISE * 100, r->a.repeats, r->b.repeats);
        break;
    case CDB_TIMING_NOISE:
        if (r->a.max_us < r->b.min_us || r->b.max_us < r->a.min_us)
            snprintf(buf, len, zh ? "~ 噪声内：相差不到 %.0f%%" : "~ within noise: less than %.0f%% apart",
                     CDB_CMP_NOISE * 100);
        else
            snprintf(buf, len, "%s", zh ? "~ 噪声内：区间重叠" : "~ within noise: the spreads overlap");
        break;
    case CDB_TIMING_FEW:
        if (!few_a && !few_b)
            snprintf(buf, len, "%s", zh ? "? 未判断：缺少最小/最大时间" : "? not judged: no [min, max] spread");
        else if (zh)
            snprintf(buf, len, "? 未判断：A 重复 %d 次，B %d 次（每方需 %d 次）", r->a.repeats,
                     r->b.repeats, CDB_CMP_MIN_REPEATS);
        else
            snprintf(buf, len, "? not judged: A has %d repeat%s, B %d (%d needed on each side)",
                     r->a.repeats, r->a.repeats == 1 ? "" : "s", r->b.repeats,
                     CDB_CMP_MIN_REPEATS);
        break;
    case CDB_TIMING_NONE:
    default:
        if (r->scored) /* rung 8 has no times: its scores are what the two sides compare */
            cmp_fmt_score(r, false, zh, buf, len);
        else
            snprintf(buf, len, "%s", zh ? "两方没有都测得时间" : "no time on both sides");
        break;
    }
}

void cmp_fmt_score(const struct cdb_compare_row *r, bool ascii, bool zh, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!r->scored)
        return;
    char ratio[32] = "";
    if (!isnan(r->score_ratio))
        snprintf(ratio, sizeof ratio, ", %.3g%s", r->score_ratio, ascii ? "x" : "×");
    const char *arrow = ascii ? "->" : "→";
    const double tol = CDB_CMP_SCORE_TOL * 100;
    if (zh)
        snprintf(buf, len, "%s 得分 %.3g %s %.3g（%+.3g%s）：%s %.0f%%", cmp_score_mark(r),
                 r->a.score.value, arrow, r->b.score.value, r->score_diff, ratio,
                 r->score_differs ? "相差超过" : "相差不到", tol);
    else
        snprintf(buf, len, "%s score %.3g %s %.3g (%+.3g%s): %s %.0f%%", cmp_score_mark(r),
                 r->a.score.value, arrow, r->b.score.value, r->score_diff, ratio,
                 r->score_differs ? "apart by more than" : "within", tol);
}

const char *cmp_score_mark(const struct cdb_compare_row *r)
{
    return !r->scored ? "" : r->score_differs ? "!" : "=";
}

static const char *const sort_names[CMP_SORT_COUNT] = {"name", "ratio", "time-a", "time-b",
                                                       "verdict"};

const char *cmp_sort_name(enum cmp_sort s)
{
    return (unsigned)s < CMP_SORT_COUNT ? sort_names[s] : "?";
}

int cmp_sort_parse(const char *name)
{
    for (int i = 0; i < CMP_SORT_COUNT; i++)
        if (strcmp(name, sort_names[i]) == 0)
            return i;
    return -1;
}

void cmp_select_init(struct cmp_select *sel)
{
    memset(sel, 0, sizeof *sel);
    sel->verdict = -1;
    sel->sort = CMP_SORT_NAME;
}

bool cmp_stands_out(const struct cdb_compare_row *r)
{
    return r->flagged || r->verdict_differs || r->score_differs;
}

static bool has_text(const char *field, const char *t)
{
    if (!field)
        return false;
    size_t n = strlen(t);
    for (const char *p = field; *p; p++)
        if (strncasecmp(p, t, n) == 0)
            return true;
    return false;
}

static bool keep(const struct cdb_compare_row *r, const struct cmp_select *sel)
{
    if (sel->only_both && !(r->a.present && r->b.present))
        return false;
    if (sel->only_flagged && !cmp_stands_out(r))
        return false;
    if (sel->verdict >= 0 && !(r->a.present && (int)r->a.verdict == sel->verdict) &&
        !(r->b.present && (int)r->b.verdict == sel->verdict))
        return false;
    if (sel->text && sel->text[0] && !has_text(r->suite, sel->text) &&
        !has_text(r->check, sel->text) && !has_text(r->shape, sel->text) &&
        !has_text(r->variant, sel->text))
        return false;
    return true;
}

/* The sort key of a row, larger first; NAN when the row has none (it goes last). */
static double key_of(const struct cdb_compare_row *r, enum cmp_sort s)
{
    switch (s) {
    case CMP_SORT_RATIO:
        return r->ratio;
    case CMP_SORT_TIME_A:
        return r->a.present ? r->a.median_us : (double)NAN;
    case CMP_SORT_TIME_B:
        return r->b.present ? r->b.median_us : (double)NAN;
    case CMP_SORT_VERDICT:
        return r->verdict_differs ? 2 : r->skipped_one ? 1 : 0;
    default:
        return 0;
    }
}

struct sort_item {
    double key;
    size_t row;
};

static int by_key(const void *pa, const void *pb)
{
    const struct sort_item *a = pa, *b = pb;
    bool na = isnan(a->key), nb = isnan(b->key);
    if (na != nb)
        return na ? 1 : -1;
    if (!na && a->key > b->key)
        return -1;
    if (!na && a->key < b->key)
        return 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

size_t cmp_select_rows(const struct cdb_compare *c, const struct cmp_select *sel, size_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        if (keep(&c->rows[i], sel))
            idx[n++] = i;
    if (sel->sort == CMP_SORT_NAME || n < 2)
        return n;
    struct sort_item *it = xmalloc(n * sizeof *it);
    for (size_t i = 0; i < n; i++)
        it[i] = (struct sort_item){key_of(&c->rows[idx[i]], sel->sort), idx[i]};
    qsort(it, n, sizeof *it, by_key);
    for (size_t i = 0; i < n; i++)
        idx[i] = it[i].row;
    free(it);
    return n;
}
