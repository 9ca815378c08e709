#include "importers/json_util.h"

#include <cJSON.h>

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
