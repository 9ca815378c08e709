/* A strict JSON parser (RFC 8259) for large documents from other machines: every node and
 * string lives in one arena, so a 50,000-check document costs a few large allocations instead of
 * two million small ones, and is freed at once.
 *
 * The nodes have cJSON's shape (type, next, child, string, valuestring, valuedouble), so the
 * cJSON_Is* and lookup functions work on them; they must never reach cJSON_Delete. Stricter
 * than cJSON: raw control characters in strings, lone surrogates, an escaped NUL (\u0000),
 * leading zeros, and anything after the value are errors. Numbers are read in the C locale. */
#ifndef KL_IMPORTERS_JSON_ARENA_H
#define KL_IMPORTERS_JSON_ARENA_H

#include <stddef.h>

struct cJSON;
struct imp_json; /* the arena */

/* Parses len bytes. Returns the root (owned by *arena), or NULL with "not valid JSON: ... at byte
 * N" in err (and *arena NULL). Nesting deeper than max_depth is an error. */
const struct cJSON *imp_json_parse(const char *text, size_t len, int max_depth,
                                   struct imp_json **arena, char *err, size_t errlen);
void imp_json_free(struct imp_json *arena);

#endif
