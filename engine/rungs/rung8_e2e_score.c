/* Score formats of rung 8's --e2e (engine/rungs/rung8_e2e_score.h). */
#include "engine/rungs/rung8_e2e_score.h"

#include <cJSON.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

int eng_score_format_parse(const char *text, struct eng_score_format *f, char *err,
                           size_t errlen)
{
    memset(f, 0, sizeof *f);
    if (!strcmp(text, "lm-eval") || !strncmp(text, "lm-eval:", 8)) {
        f->kind = ENG_SCORE_LM_EVAL;
        if (text[7] == ':' && !text[8]) {
            snprintf(err, errlen, "--score lm-eval:TASK: the task name is empty");
            return -1;
        }
        snprintf(f->arg, sizeof f->arg, "%s", text[7] ? text + 8 : "");
        return 0;
    }
    if (!strcmp(text, "sglang")) {
        f->kind = ENG_SCORE_SGLANG;
        return 0;
    }
    if (!strncmp(text, "regex:", 6)) {
        f->kind = ENG_SCORE_REGEX;
        if (strlen(text + 6) >= sizeof f->arg || !text[6]) {
            snprintf(err, errlen, "--score regex:PATTERN: expected a pattern of 1 to %zu bytes",
                     sizeof f->arg - 1);
            return -1;
        }
        regex_t re;
        int rc = regcomp(&re, text + 6, REG_EXTENDED | REG_NEWLINE);
        if (rc != 0) {
            char why[128];
            regerror(rc, &re, why, sizeof why);
            snprintf(err, errlen, "--score regex:PATTERN: not a POSIX extended regular "
                     "expression (%s)", why);
            return -1;
        }
        regfree(&re);
        snprintf(f->arg, sizeof f->arg, "%s", text + 6);
        return 0;
    }
    snprintf(err, errlen, "--score expects lm-eval[:TASK], sglang or regex:PATTERN, not '%.80s'",
             text);
    return -1;
}

static void score_init(struct eng_score *s)
{
    memset(s, 0, sizeof *s);
    s->score = NAN;
    s->invalid = NAN;
    s->samples = s->samples_full = -1;
}

/* The first JSON object in text with a "results" member: the whole text, or one that starts a
 * line (lm-eval's own log lines come before it when its output is piped). NULL if none. */
static cJSON *find_results_json(const char *text)
{
    for (const char *p = text; p && *p;) {
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '{') {
            cJSON *j = cJSON_ParseWithOpts(q, NULL, false);
            if (j && cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "results")))
                return j;
            cJSON_Delete(j);
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NULL;
}

static int read_lm_eval(const struct eng_score_format *f, const char *text, struct eng_score *out,
                        char *err, size_t errlen)
{
    static const char metric[] = "exact_match,strict-match";
    cJSON *j = find_results_json(text);
    if (!j) {
        snprintf(err, errlen, "no lm-evaluation-harness results JSON (an object with "
                 "\"results\") in the output");
        return -1;
    }
    int rc = -1;
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(j, "results"), *task = NULL;
    if (f->arg[0]) {
        task = cJSON_GetObjectItemCaseSensitive(res, f->arg);
        if (!cJSON_IsObject(task)) {
            snprintf(err, errlen, "the lm-eval results hold no task \"%.100s\"", f->arg);
            goto done;
        }
    } else if (cJSON_GetArraySize(res) == 1 && cJSON_IsObject(res->child)) {
        task = res->child;
    } else {
        snprintf(err, errlen, "the lm-eval results hold %d tasks; name one with "
                 "--score lm-eval:TASK", cJSON_GetArraySize(res));
        goto done;
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(task, metric);
    if (!cJSON_IsNumber(v)) {
        snprintf(err, errlen, "results.%.100s has no number \"%s\"", task->string, metric);
        goto done;
    }
    out->score = v->valuedouble;
    snprintf(out->metric, sizeof out->metric, "%.60s %s", task->string, metric);
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "n-samples"), task->string);
    const cJSON *eff = cJSON_GetObjectItemCaseSensitive(ns, "effective");
    const cJSON *orig = cJSON_GetObjectItemCaseSensitive(ns, "original");
    if (cJSON_IsNumber(eff) && eff->valuedouble >= 0)
        out->samples = (int64_t)eff->valuedouble;
    if (cJSON_IsNumber(orig) && orig->valuedouble >= 0)
        out->samples_full = (int64_t)orig->valuedouble;
    rc = 0;
done:
    cJSON_Delete(j);
    return rc;
}

/* The number after the last line that starts with key (e.g. "Accuracy:"); NAN when none. */
static double last_keyed_number(const char *text, const char *key)
{
    double v = NAN;
    size_t kl = strlen(key);
    for (const char *p = text; p && *p;) {
        if (!strncmp(p, key, kl)) {
            char *end;
            double x = strtod(p + kl, &end);
            if (end != p + kl)
                v = x;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return v;
}

static int read_regex(const struct eng_score_format *f, const char *text, struct eng_score *out,
                      char *err, size_t errlen)
{
    regex_t re;
    if (regcomp(&re, f->arg, REG_EXTENDED | REG_NEWLINE) != 0) {
        snprintf(err, errlen, "the pattern does not compile");
        return -1;
    }
    regmatch_t m[2];
    const char *p = text, *hit = NULL;
    size_t hitlen = 0;
    /* a search that resumes inside a line must not let '^' match there */
    while (*p && regexec(&re, p, 2, m, p > text && p[-1] != '\n' ? REG_NOTBOL : 0) == 0) {
        int g = re.re_nsub >= 1 && m[1].rm_so >= 0 ? 1 : 0;
        hit = p + m[g].rm_so;
        hitlen = (size_t)(m[g].rm_eo - m[g].rm_so);
        if (m[0].rm_eo > m[0].rm_so) {
            p += m[0].rm_eo; /* the last match wins, as the last "Accuracy:" line does */
        } else {
            const char *nl = strchr(p + m[0].rm_eo, '\n');
            if (!nl)
                break;
            p = nl + 1;
        }
    }
    regfree(&re);
    if (!hit) {
        snprintf(err, errlen, "no line of the output matches the pattern /%.120s/", f->arg);
        return -1;
    }
    char num[64];
    snprintf(num, sizeof num, "%.*s", (int)(hitlen < 63 ? hitlen : 63), hit);
    char *end;
    out->score = strtod(num, &end);
    if (end == num || *end) {
        char *shown = xstrdup(num);
        for (char *c = shown; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f)
                *c = '?';
        snprintf(err, errlen, "the pattern /%.120s/ matched '%s', which is not a number", f->arg,
                 shown);
        free(shown);
        return -1;
    }
    snprintf(out->metric, sizeof out->metric, "regex");
    return 0;
}

int eng_score_read(const struct eng_score_format *f, const char *text, struct eng_score *out,
                   char *err, size_t errlen)
{
    score_init(out);
    int rc;
    switch (f->kind) {
    case ENG_SCORE_LM_EVAL:
        rc = read_lm_eval(f, text, out, err, errlen);
        break;
    case ENG_SCORE_SGLANG:
        out->score = last_keyed_number(text, "Accuracy:");
        out->invalid = last_keyed_number(text, "Invalid:");
        snprintf(out->metric, sizeof out->metric, "Accuracy");
        rc = 0;
        if (isnan(out->score)) {
            snprintf(err, errlen, "no line \"Accuracy: NUMBER\" in the output");
            rc = -1;
        }
        break;
    default:
        rc = read_regex(f, text, out, err, errlen);
        break;
    }
    if (rc != 0)
        return -1;
    if (!isfinite(out->score)) {
        snprintf(err, errlen, "the %s score is not a finite number", out->metric);
        return -1;
    }
    if (f->kind != ENG_SCORE_REGEX && (out->score < 0 || out->score > 1)) {
        snprintf(err, errlen, "the %s score %g is outside [0, 1]", out->metric, out->score);
        return -1;
    }
    if (!isnan(out->invalid) && (out->invalid < 0 || out->invalid > 1)) {
        snprintf(err, errlen, "the invalid-answer rate %g is outside [0, 1]", out->invalid);
        return -1;
    }
    return 0;
}
