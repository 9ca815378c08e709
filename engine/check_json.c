/* JSON forms of check specs and results, for the pipe between `kladder run` and its workers. */
#include "engine/check.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static const char *const mode_names[ENG_MODE_COUNT] = {"plain", "graph", "streams",
                                                       "warm", "garbage", "repeat"};
static const char *const sched_names[] = {"default", "adversarial", "random", "pct"};

const char *eng_mode_name(enum eng_mode m) { return m < ENG_MODE_COUNT ? mode_names[m] : "?"; }

static const char *const kind_names[ENG_CHECK_KIND_COUNT] = {"device", "table", "code", "e2e"};

const char *eng_check_kind_name(enum eng_check_kind k)
{
    return (unsigned)k < ENG_CHECK_KIND_COUNT ? kind_names[k] : "?";
}

void eng_check_result_init(struct eng_check_result *r)
{
    memset(r, 0, sizeof *r);
    r->verdict = CDB_ERROR;
    r->first_bad = -1;
    r->bad_count = -1;
    r->max_err = NAN;
    r->t_med_us = r->t_min_us = r->t_max_us = NAN;
    r->score = (struct cdb_score){.set = false, .value = NAN, .baseline = NAN, .samples = -1,
                                  .diverge_step = -1};
}

void eng_check_defect(struct eng_check_result *r, const char *what)
{
    if (!r->defect[0])
        snprintf(r->defect, sizeof r->defect, "%s", what);
}

void eng_check_seam(struct eng_check_result *r, const char *what, const char *a, const char *b)
{
    if (r->seam[0])
        return;
    snprintf(r->seam, sizeof r->seam, "%s", what);
    snprintf(r->seam_a, sizeof r->seam_a, "%s", a);
    snprintf(r->seam_b, sizeof r->seam_b, "%s", b);
}

void eng_check_spec_free(struct eng_check_spec *s)
{
    free(s->suite);
    free(s->code_object);
    free(s->variant);
    free(s->name);
    free(s->values);
    free(s->e2e);
    free(s->model);
    free(s->rung_opts);
    for (size_t i = 0; i < s->nshapes; i++)
        eng_shape_free(&s->shapes[i]);
    free(s->shapes);
    memset(s, 0, sizeof *s);
}

char *eng_check_spec_json(const struct eng_check_spec *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "backend", s->backend);
    cJSON_AddNumberToObject(o, "device", s->device);
    cJSON_AddNumberToObject(o, "wave", s->wave);
    cJSON_AddStringToObject(o, "schedule", sched_names[s->schedule]);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->seed);
    cJSON_AddStringToObject(o, "seed", seed);
    if (s->lag)
        cJSON_AddNumberToObject(o, "lag", s->lag);
    cJSON_AddStringToObject(o, "suite", s->suite);
    if (s->code_object)
        cJSON_AddStringToObject(o, "code_object", s->code_object);
    cJSON_AddStringToObject(o, "variant", s->variant);
    cJSON_AddBoolToObject(o, "baseline", s->baseline);
    cJSON_AddNumberToObject(o, "rung", s->rung);
    cJSON_AddStringToObject(o, "kind", kind_names[s->kind]);
    if (s->target[0])
        cJSON_AddStringToObject(o, "target", s->target);
    cJSON_AddStringToObject(o, "name", s->name);
    cJSON_AddStringToObject(o, "mode", mode_names[s->mode]);
    cJSON *shapes = cJSON_AddArrayToObject(o, "shapes");
    for (size_t i = 0; i < s->nshapes; i++) {
        cJSON *sh = cJSON_CreateObject();
        for (size_t k = 0; k < s->shapes[i].n; k++)
            cJSON_AddNumberToObject(sh, s->shapes[i].keys[k], (double)s->shapes[i].values[k]);
        cJSON_AddItemToArray(shapes, sh);
    }
    cJSON_AddNumberToObject(o, "repeats", s->repeats);
    cJSON_AddNumberToObject(o, "replays", s->replays);
    cJSON_AddBoolToObject(o, "scratch_once", s->scratch_once);
    cJSON_AddBoolToObject(o, "sample_cliffs", s->sample_cliffs);
    cJSON_AddBoolToObject(o, "event", s->event);
    cJSON_AddNumberToObject(o, "timeout_s", s->timeout_s);
    if (s->values)
        cJSON_AddStringToObject(o, "values", s->values);
    if (s->e2e)
        cJSON_AddStringToObject(o, "e2e", s->e2e);
    if (s->model)
        cJSON_AddStringToObject(o, "model", s->model);
    if (s->rung_opts)
        cJSON_AddStringToObject(o, "rung_opts", s->rung_opts);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

static const char *str_of(const cJSON *o, const char *k)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(j) ? j->valuestring : NULL;
}

static double num_of(const cJSON *o, const char *k, double dflt)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(j) ? j->valuedouble : dflt;
}

static int pick(const char *s, const char *const *names, int n)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

int eng_check_spec_parse(const char *text, struct eng_check_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    cJSON *o = cJSON_Parse(text);
    if (!o) {
        snprintf(err, errlen, "check spec: not valid JSON");
        return -1;
    }
    const char *backend = str_of(o, "backend"), *suite = str_of(o, "suite"),
               *variant = str_of(o, "variant"), *name = str_of(o, "name"),
               *seed = str_of(o, "seed");
    int mode = pick(str_of(o, "mode"), mode_names, ENG_MODE_COUNT);
    int sched = pick(str_of(o, "schedule"), sched_names, 4);
    /* a spec without a kind is a device check */
    int kind = str_of(o, "kind") ? pick(str_of(o, "kind"), kind_names, ENG_CHECK_KIND_COUNT)
                                 : ENG_CHECK_DEVICE;
    const char *target = str_of(o, "target");
    const cJSON *shapes = cJSON_GetObjectItemCaseSensitive(o, "shapes");
    if (!backend || !suite || !variant || !name || mode < 0 || sched < 0 || kind < 0 ||
        (target && strlen(target) >= sizeof out->target) || !cJSON_IsArray(shapes)) {
        snprintf(err, errlen, "check spec: missing or invalid fields");
        cJSON_Delete(o);
        return -1;
    }
    snprintf(out->backend, sizeof out->backend, "%s", backend);
    out->device = (int)num_of(o, "device", 0);
    out->wave = (int)num_of(o, "wave", 32);
    out->schedule = (enum eng_schedule)sched;
    out->seed = seed ? strtoull(seed, NULL, 10) : 0;
    double lag = num_of(o, "lag", 0);
    out->lag = lag >= 0 && lag <= 4294967295.0 ? (uint32_t)lag : 0;
    out->suite = xstrdup(suite);
    const char *co = str_of(o, "code_object");
    out->code_object = co ? xstrdup(co) : NULL;
    out->variant = xstrdup(variant);
    out->name = xstrdup(name);
    out->baseline = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "baseline"));
    out->rung = (int)num_of(o, "rung", 0);
    out->kind = (enum eng_check_kind)kind;
    snprintf(out->target, sizeof out->target, "%s", target ? target : "");
    out->mode = (enum eng_mode)mode;
    out->repeats = (int)num_of(o, "repeats", 0);
    out->replays = (int)num_of(o, "replays", 0);
    out->scratch_once = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "scratch_once"));
    out->sample_cliffs = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "sample_cliffs"));
    out->event = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "event"));
    out->timeout_s = num_of(o, "timeout_s", 60);
    out->values = str_of(o, "values") ? xstrdup(str_of(o, "values")) : NULL;
    out->e2e = str_of(o, "e2e") ? xstrdup(str_of(o, "e2e")) : NULL;
    out->model = str_of(o, "model") ? xstrdup(str_of(o, "model")) : NULL;
    out->rung_opts = str_of(o, "rung_opts") ? xstrdup(str_of(o, "rung_opts")) : NULL;
    out->nshapes = (size_t)cJSON_GetArraySize(shapes);
    out->shapes = xcalloc(out->nshapes + 1, sizeof *out->shapes);
    size_t i = 0;
    for (const cJSON *sh = shapes->child; sh; sh = sh->next, i++) {
        struct eng_shape *d = &out->shapes[i];
        size_t n = (size_t)cJSON_GetArraySize(sh);
        d->keys = xcalloc(n + 1, sizeof *d->keys);
        d->values = xcalloc(n + 1, sizeof *d->values);
        for (const cJSON *kv = sh->child; kv; kv = kv->next) {
            d->keys[d->n] = xstrdup(kv->string);
            d->values[d->n++] = (int64_t)kv->valuedouble;
        }
    }
    cJSON_Delete(o);
    return 0;
}

void eng_json_add_number(struct cJSON *o, const char *k, double v)
{
    if (isnan(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

void eng_json_add_score(struct cJSON *o, const struct cdb_score *s)
{
    cJSON *sc = cJSON_AddObjectToObject(o, "score");
    eng_json_add_number(sc, "value", s->value);
    eng_json_add_number(sc, "baseline", s->baseline);
    eng_json_add_number(sc, "samples", s->samples >= 0 ? (double)s->samples : (double)NAN);
    eng_json_add_number(sc, "diverge_step",
                        s->diverge_step >= 0 ? (double)s->diverge_step : (double)NAN);
}

char *eng_check_result_json(const struct eng_check_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "verdict", cdb_verdict_name(r->verdict));
    cJSON_AddStringToObject(o, "detail", r->detail);
    cJSON_AddStringToObject(o, "shape", r->shape);
    cJSON_AddStringToObject(o, "oracle", r->oracle);
    cJSON_AddNumberToObject(o, "first_bad", (double)r->first_bad);
    cJSON_AddNumberToObject(o, "bad_count", (double)r->bad_count);
    eng_json_add_number(o, "max_err", r->max_err);
    eng_json_add_number(o, "t_med_us", r->t_med_us);
    eng_json_add_number(o, "t_min_us", r->t_min_us);
    eng_json_add_number(o, "t_max_us", r->t_max_us);
    cJSON_AddNumberToObject(o, "repeats", r->repeats);
    if (r->seam[0]) {
        cJSON *sm = cJSON_AddObjectToObject(o, "seam");
        cJSON_AddStringToObject(sm, "what", r->seam);
        cJSON_AddStringToObject(sm, "a", r->seam_a);
        cJSON_AddStringToObject(sm, "b", r->seam_b);
    }
    if (r->score.set)
        eng_json_add_score(o, &r->score);
    if (r->no_arbiter[0])
        cJSON_AddStringToObject(o, "no_arbiter", r->no_arbiter);
    if (r->defect[0])
        cJSON_AddStringToObject(o, "defect", r->defect);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

int eng_check_result_parse(const char *text, struct eng_check_result *out, char *err,
                           size_t errlen)
{
    eng_check_result_init(out);
    cJSON *o = cJSON_Parse(text);
    if (!o) {
        snprintf(err, errlen, "check result: not valid JSON");
        return -1;
    }
    int v = cdb_verdict_parse(str_of(o, "verdict") ? str_of(o, "verdict") : "");
    if (v < 0) {
        snprintf(err, errlen, "check result: no verdict");
        cJSON_Delete(o);
        return -1;
    }
    out->verdict = (enum cdb_verdict)v;
    snprintf(out->detail, sizeof out->detail, "%s", str_of(o, "detail") ? str_of(o, "detail") : "");
    snprintf(out->shape, sizeof out->shape, "%s", str_of(o, "shape") ? str_of(o, "shape") : "");
    snprintf(out->oracle, sizeof out->oracle, "%s", str_of(o, "oracle") ? str_of(o, "oracle") : "");
    out->first_bad = (int64_t)num_of(o, "first_bad", -1);
    out->bad_count = (int64_t)num_of(o, "bad_count", -1);
    out->max_err = num_of(o, "max_err", NAN);
    out->t_med_us = num_of(o, "t_med_us", NAN);
    out->t_min_us = num_of(o, "t_min_us", NAN);
    out->t_max_us = num_of(o, "t_max_us", NAN);
    out->repeats = (int)num_of(o, "repeats", 0);
    snprintf(out->no_arbiter, sizeof out->no_arbiter, "%s",
             str_of(o, "no_arbiter") ? str_of(o, "no_arbiter") : "");
    snprintf(out->defect, sizeof out->defect, "%s", str_of(o, "defect") ? str_of(o, "defect") : "");
    const cJSON *sm = cJSON_GetObjectItemCaseSensitive(o, "seam");
    if (cJSON_IsObject(sm) && str_of(sm, "what") && str_of(sm, "a") && str_of(sm, "b"))
        eng_check_seam(out, str_of(sm, "what"), str_of(sm, "a"), str_of(sm, "b"));
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(o, "score");
    if (cJSON_IsObject(sc) && !isnan(num_of(sc, "value", NAN))) {
        out->score.set = true;
        out->score.value = num_of(sc, "value", NAN);
        out->score.baseline = num_of(sc, "baseline", NAN);
        out->score.samples = (int64_t)num_of(sc, "samples", -1);
        out->score.diverge_step = (int64_t)num_of(sc, "diverge_step", -1);
    }
    cJSON_Delete(o);
    return 0;
}
