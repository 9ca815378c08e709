/* kladder compare's JSON pieces (compare_json.h). */
#include "tui/cli/compare_json.h"

#include <math.h>
#include <stdlib.h>

#include "common/text.h"
#include "engine/api/faces.h"

cJSON *compare_json_side(const struct cdb_compare_cell *c)
{
    if (!c || !c->present)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "verdict", cdb_verdict_name(c->verdict));
    cJSON *t = cJSON_AddObjectToObject(o, "time_us");
    const double v[3] = {c->median_us, c->min_us, c->max_us};
    const char *const k[3] = {"median", "min", "max"};
    for (int i = 0; i < 3; i++) {
        if (isfinite(v[i]))
            cJSON_AddNumberToObject(t, k[i], v[i]);
        else
            cJSON_AddNullToObject(t, k[i]);
    }
    cJSON_AddNumberToObject(o, "repeats", c->repeats);
    cJSON_AddStringToObject(o, "run_id", c->run_uuid ? c->run_uuid : "");
    cJSON_AddNumberToObject(o, "seq", c->seq);
    if (c->score.set)
        eng_json_add_score(o, &c->score);
    return o;
}

void compare_json_add_text(cJSON *o, const char *key, const char *s)
{
    char *t = text_sanitize(s ? s : "", false);
    cJSON_AddStringToObject(o, key, t);
    free(t);
}

cJSON *compare_json_key(int rung, const char *suite, const char *check, const char *shape,
                        const char *variant)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rung", rung);
    compare_json_add_text(o, "suite", suite);
    compare_json_add_text(o, "check", check);
    compare_json_add_text(o, "shape", shape);
    compare_json_add_text(o, "variant", variant);
    return o;
}

/* "flagged", "noise", "too-few-repeats", or NULL (no ratio). */
static const char *compare_json_timing(enum cdb_timing t)
{
    switch (t) {
    case CDB_TIMING_FLAGGED:
        return "flagged";
    case CDB_TIMING_NOISE:
        return "noise";
    case CDB_TIMING_FEW:
        return "too-few-repeats";
    default:
        return NULL;
    }
}

void compare_json_add_judgement(cJSON *o, const struct cdb_compare_row *r)
{
    if (isfinite(r->ratio))
        cJSON_AddNumberToObject(o, "ratio", r->ratio);
    else
        cJSON_AddNullToObject(o, "ratio");
    if (compare_json_timing(r->timing))
        cJSON_AddStringToObject(o, "timing", compare_json_timing(r->timing));
    else
        cJSON_AddNullToObject(o, "timing");
    cJSON_AddBoolToObject(o, "flagged", r->flagged);
    cJSON_AddBoolToObject(o, "verdict_differs", r->verdict_differs);
    cJSON_AddBoolToObject(o, "skipped_one", r->skipped_one);
    if (r->scored) {
        cJSON_AddNumberToObject(o, "score_diff", r->score_diff);
        eng_json_add_number(o, "score_ratio", r->score_ratio);
        cJSON_AddBoolToObject(o, "score_differs", r->score_differs);
    }
}
