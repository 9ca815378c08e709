/* Small helpers shared by the JSON importers (case index, results documents). */
#ifndef KL_IMPORTERS_JSON_UTIL_H
#define KL_IMPORTERS_JSON_UTIL_H

struct cJSON;

/* What a value is, for error messages: "a string", "an array", "null", "nothing (missing)"... */
const char *imp_json_type_name(const struct cJSON *j);

#endif
