/* Rung 8's score in words (tui/score_fmt.h). */
#include "tui/score_fmt.h"

#include <math.h>
#include <stdio.h>

void tui_fmt_score_value(const struct cdb_score *s, char *buf, size_t len)
{
    if (!s->set || isnan(s->value))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.3g", s->value);
}

void tui_fmt_score(const struct cdb_score *s, bool zh, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!s->set || isnan(s->value))
        return;
    char v[32];
    tui_fmt_score_value(s, v, sizeof v);
    size_t l = (size_t)snprintf(buf, len, zh ? "得分 %s" : "score %s", v);
    const char *const open = zh ? "（" : " (", *const next = zh ? "，" : ", ";
    const char *sep = open;
    if (!isnan(s->baseline) && l < len) {
        l += (size_t)snprintf(buf + l, len - l, zh ? "%s基线 %.3g" : "%sbaseline %.3g", sep,
                              s->baseline);
        sep = next;
    }
    if (s->samples >= 0 && l < len) {
        l += (size_t)snprintf(buf + l, len - l, zh ? "%s%lld 个样本" : "%s%lld samples", sep,
                              (long long)s->samples);
        sep = next;
    }
    if (s->diverge_step >= 0 && l < len) {
        l += (size_t)snprintf(buf + l, len - l,
                              zh ? "%s第 %lld 步起分歧" : "%sfirst diverging step %lld", sep,
                              (long long)s->diverge_step);
        sep = next;
    }
    if (sep == next && l < len) /* something was added in brackets */
        snprintf(buf + l, len - l, "%s", zh ? "）" : ")");
}
