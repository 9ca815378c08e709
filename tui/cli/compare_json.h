/* The JSON pieces `kladder compare` prints for two hosts and for more: one side's cell and a
 * row's timing judgement, with the field names docs/remote.md lists. */
#ifndef KL_TUI_CLI_COMPARE_JSON_H
#define KL_TUI_CLI_COMPARE_JSON_H

#include <cJSON.h>

#include "casedb/results_query.h"

/* {verdict, time_us: {median, min, max}, repeats, run_id, seq[, score]}, or null when the
 * check did not run on that side (c NULL or not present). */
cJSON *compare_json_side(const struct cdb_compare_cell *c);
/* s sanitised (text_sanitize) under key; NULL is "". */
void compare_json_add_text(cJSON *o, const char *key, const char *s);
/* A new object with a row's key: rung, suite, check, shape, variant (sanitised). */
cJSON *compare_json_key(int rung, const char *suite, const char *check, const char *shape,
                        const char *variant);
/* A row's judgement against its A side: ratio, timing, flagged, verdict_differs, skipped_one
 * and, for rung 8, the scores' fields. */
void compare_json_add_judgement(cJSON *o, const struct cdb_compare_row *r);

#endif
