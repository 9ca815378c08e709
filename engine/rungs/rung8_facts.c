/* Rung 8's score in words (engine/rungs/rung8_facts.h). */
#include "engine/rungs/rung8_facts.h"

#include <math.h>
#include <stdio.h>

bool eng_rung8_facts_line(const struct cdb_check *k, bool zh, const char **label, char *buf,
                          size_t len)
{
    const struct cdb_score *s = &k->score;
    buf[0] = '\0';
    *label = zh ? "得分" : "Score";
    if (!s->set || isnan(s->value))
        return false;
    size_t l = (size_t)snprintf(buf, len, zh ? "得分 %.3g" : "score %.3g", s->value);
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
    return true;
}
