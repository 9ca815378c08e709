/* The field readers of a manifest's parser (engine/manifest_parse.h): one JSON value each, with
 * a message that names the file, the field and what was expected. They know nothing of a
 * manifest's meaning, so the parser's parts (the manifest, each rung's settings, an output's
 * contract) share them without using each other. */
#include "engine/manifest_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "common/text.h"
#include "common/xalloc.h"

static bool is_whole(double x)
{
    double f = floor(x);
    return !(x > f) && !(x < f);
}

__attribute__((format(printf, 3, 4))) bool eng_mp_bad(struct eng_mparse *p, const char *field,
                                                      const char *fmt, ...)
{
    if (p->failed)
        return false;
    p->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s: %s: %s", p->path, field, msg);
    return false;
}

/* A short description of what a JSON value is, for "got ..." in messages. */
void eng_mp_describe(const cJSON *j, char *out, size_t n)
{
    if (!j)
        snprintf(out, n, "nothing");
    else if (cJSON_IsString(j)) {
        /* a manifest is outside input: its text reaches the terminal sanitised, cut on a
         * character boundary */
        char *clean = text_fit(j->valuestring, 40, false, NULL);
        snprintf(out, n, "\"%s\"", clean);
        free(clean);
    }
    else if (cJSON_IsNumber(j))
        snprintf(out, n, "%g", j->valuedouble);
    else if (cJSON_IsBool(j))
        snprintf(out, n, "%s", cJSON_IsTrue(j) ? "true" : "false");
    else if (cJSON_IsNull(j))
        snprintf(out, n, "null");
    else if (cJSON_IsArray(j))
        snprintf(out, n, "an array");
    else
        snprintf(out, n, "an object");
}

char *eng_mp_string(struct eng_mparse *p, const cJSON *obj, const char *key, bool required,
                        const char *field)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!j && !required)
        return NULL;
    if (!cJSON_IsString(j) || !j->valuestring[0]) {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        eng_mp_bad(p, field, "expected a non-empty string, got %s", got);
        return NULL;
    }
    return xstrdup(j->valuestring);
}

bool eng_mp_int(struct eng_mparse *p, const cJSON *j, const char *field, int64_t lo, int64_t hi,
                    int64_t *out)
{
    char got[64];
    if (!cJSON_IsNumber(j) || !is_whole(j->valuedouble) || j->valuedouble < (double)lo ||
        j->valuedouble > (double)hi) {
        eng_mp_describe(j, got, sizeof got);
        return eng_mp_bad(p, field, "expected a whole number from %lld to %lld, got %s", (long long)lo,
                   (long long)hi, got);
    }
    *out = (int64_t)j->valuedouble;
    return true;
}

bool eng_mp_only_keys(struct eng_mparse *p, const cJSON *obj, const char *field,
                      const char *const *allowed)
{
    for (const cJSON *it = obj ? obj->child : NULL; it; it = it->next) {
        bool known = false;
        for (size_t i = 0; allowed[i] && !known; i++)
            known = strcmp(it->string, allowed[i]) == 0;
        if (known)
            continue;
        char list[256] = "";
        for (size_t i = 0; allowed[i]; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"",
                     i ? (allowed[i + 1] ? ", " : " or ") : "", allowed[i]);
        return eng_mp_bad(p, field, "expected %s%s, got unknown key \"%.60s\"",
                          allowed[0] ? "only the keys " : "no keys", list, it->string);
    }
    return true;
}

int eng_mp_pick(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (s && strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

bool eng_mp_enum(struct eng_mparse *p, const cJSON *obj, const char *key, const char *field,
                     const char *const *names, int n, int dflt, int *out)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!j && dflt >= 0) {
        *out = dflt;
        return true;
    }
    int v = cJSON_IsString(j) ? eng_mp_pick(j->valuestring, names, n) : -1;
    if (v < 0) {
        char list[400] = "", got[64];
        for (int i = 0; i < n; i++) {
            strncat(list, names[i], sizeof list - strlen(list) - 1);
            if (i + 1 < n)
                strncat(list, " ", sizeof list - strlen(list) - 1);
        }
        eng_mp_describe(j, got, sizeof got);
        return eng_mp_bad(p, field, "expected one of %s, got %s", list, got);
    }
    *out = v;
    return true;
}

bool eng_mp_bool(struct eng_mparse *p, const cJSON *obj, const char *key, const char *field,
                     bool *out)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!j)
        return true;
    if (!cJSON_IsBool(j)) {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        return eng_mp_bad(p, field, "expected true or false, got %s", got);
    }
    *out = cJSON_IsTrue(j);
    return true;
}

bool eng_mp_number(struct eng_mparse *p, const cJSON *obj, const char *key, const char *field,
                       double lo, double hi, double *out)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!j)
        return true;
    if (!cJSON_IsNumber(j) || !(j->valuedouble >= lo && j->valuedouble <= hi)) {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        return eng_mp_bad(p, field, "expected a number from %g to %g, got %s", lo, hi, got);
    }
    *out = j->valuedouble;
    return true;
}

static const char *const eng_launch_names[ENG_LAUNCH_NAMES] = {
    "grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z", "shared_bytes"};

int eng_launch_name_index(const char *name, size_t len)
{
    for (int i = 0; i < ENG_LAUNCH_NAMES; i++)
        if (strlen(eng_launch_names[i]) == len && !memcmp(eng_launch_names[i], name, len))
            return i;
    return -1;
}

bool eng_mp_name_known(const void *ctx, const char *name, size_t len, int64_t *value)
{
    if (eng_launch_name_index(name, len) < 0)
        return eng_mp_param_known(ctx, name, len, value);
    *value = 1;
    return true;
}

bool eng_mp_param_known(const void *ctx, const char *name, size_t len, int64_t *value)
{
    const struct eng_manifest *m = ctx;
    for (size_t i = 0; i < m->nparams; i++)
        if (strlen(m->params[i].name) == len && !memcmp(m->params[i].name, name, len)) {
            *value = 1;
            return true;
        }
    return false;
}
