/* Reading a manifest's fields with messages a person can act on: "FILE: FIELD: expected WHAT,
 * got WHAT". The manifest parser and each rung's settings parser (engine/rung.h) share these.
 *
 * Every function returns true (or the value) on success; on failure it records the first
 * problem in p and returns false (or NULL/-1); later problems are not recorded, so the message
 * names the first field that is wrong. `field` is the JSON path used in the message
 * ("rungs.1.cliffs[0].param"). A value that is absent is not an error unless said. */
#ifndef KL_ENGINE_MANIFEST_PARSE_H
#define KL_ENGINE_MANIFEST_PARSE_H

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/manifest.h"

struct eng_mparse {
    const char *path; /* the manifest, as messages name it */
    char *err;
    size_t errlen;
    bool failed;
    bool params_only; /* expressions may not name the launch (while reading "launch") */
};

/* An expression name check (engine/values/expr.h) that knows the manifest's parameters (ctx is the
 * struct eng_manifest); every known name reads as 1. */
bool eng_mp_param_known(const void *ctx, const char *name, size_t len, int64_t *value);
/* The same, and the variant's launch (eng_launch_name_index): every other expression's names. */
bool eng_mp_name_known(const void *ctx, const char *name, size_t len, int64_t *value);

bool eng_mp_bad(struct eng_mparse *p, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* What a JSON value is, for "got ...": "\"abc\"", 3, true, null, an array, an object. */
void eng_mp_describe(const cJSON *j, char *out, size_t n);
/* Every key of obj is one of allowed (NULL-terminated): a misspelt setting is an error. */
bool eng_mp_only_keys(struct eng_mparse *p, const cJSON *obj, const char *field,
                      const char *const *allowed);

/* A non-empty string (malloc'd), NULL when absent and not required or on error. */
char *eng_mp_string(struct eng_mparse *p, const cJSON *obj, const char *key, bool required,
                    const char *field);
/* j itself as a whole number in [lo, hi]. */
bool eng_mp_int(struct eng_mparse *p, const cJSON *j, const char *field, int64_t lo, int64_t hi,
                int64_t *out);
/* obj[key] as a number in [lo, hi] or a boolean; *out untouched when absent. */
bool eng_mp_number(struct eng_mparse *p, const cJSON *obj, const char *key, const char *field,
                   double lo, double hi, double *out);
bool eng_mp_bool(struct eng_mparse *p, const cJSON *obj, const char *key, const char *field,
                 bool *out);
/* obj[key] as one of names (dflt >= 0: its index when absent). */
bool eng_mp_enum(struct eng_mparse *p, const cJSON *obj, const char *key, const char *field,
                 const char *const *names, int n, int dflt, int *out);
/* The index of s in names, or -1. */
int eng_mp_pick(const char *s, const char *const *names, int n);

/* A parameter's index in m->params, or -1. */
int eng_mp_param_index(const struct eng_manifest *m, const char *name);
/* j as a shape {"M": 128, ...} over m's parameters (allow_name: an optional "name"). */
bool eng_mp_shape(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                  const char *field, bool allow_name, struct eng_shape *out);
/* obj[key] as an array of shapes (named: each needs a "name"); *out malloc'd, *n set even on
 * failure so that eng_shapes_free frees what was read. */
bool eng_mp_shapes(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *obj,
                   const char *key, const char *field, bool named, size_t *n,
                   struct eng_shape **out);

/* Buffer bi's contract (engine/values/contract.h, engine/manifest_contract.c) from its object it,
 * once every buffer and parameter is known. */
bool eng_mp_contract(struct eng_mparse *p, struct eng_manifest *m, const cJSON *it, size_t bi);

#endif
