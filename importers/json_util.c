#include "importers/json_util.h"

#include <cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "common/text.h"

const char *imp_json_type_name(const cJSON *j)
{
    if (!j)
        return "nothing (missing)";
    if (cJSON_IsNull(j))
        return "null";
    if (cJSON_IsBool(j))
        return "a boolean";
    if (cJSON_IsNumber(j))
        return "a number";
    if (cJSON_IsString(j))
        return "a string";
    if (cJSON_IsArray(j))
        return "an array";
    if (cJSON_IsObject(j))
        return "an object";
    return "something else";
}

void imp_json_add_str(cJSON *o, const char *key, const char *s, bool text)
{
    if (!s) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    if (text_is_clean(s, text ? "\n" : NULL)) {
        cJSON_AddStringToObject(o, key, s);
        return;
    }
    char *t = text_sanitize(s, text);
    cJSON_AddStringToObject(o, key, t);
    free(t);
}

void imp_json_add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}
