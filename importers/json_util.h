/* Small helpers shared by the JSON importers (case index, results documents) and by the writers
 * of the documents they read. */
#ifndef KL_IMPORTERS_JSON_UTIL_H
#define KL_IMPORTERS_JSON_UTIL_H

#include <stdbool.h>

struct cJSON;

/* What a value is, for error messages: "a string", "an array", "null", "nothing (missing)"... */
const char *imp_json_type_name(const struct cJSON *j);

/* Adds s under key to object o, or null when s is NULL. A string with a control character or
 * invalid UTF-8 is sanitised first (text: newlines kept), so every document kladder writes
 * passes its own strict parser. */
void imp_json_add_str(struct cJSON *o, const char *key, const char *s, bool text);
/* Adds v under key, or null when v is not finite (NAN: not measured). */
void imp_json_add_num(struct cJSON *o, const char *key, double v);

#endif
