/* Rung 2, replay real inputs: every value class over every float input at each baseline shape,
 * and length sweeps on both sides of each declared chunk and top-k, every check a plain launch
 * with the reference, sentinel and finite oracles (docs/engine.md). A suite that lists rung 2
 * with no settings gets all of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/rung.h"
#include "engine/rung2.h"

size_t eng_r2_sweep_lengths(int64_t b, int64_t out[7])
{
    int64_t cand[7] = {1, b - 1, b, b + 1, 2 * b - 1, 2 * b, 2 * b + 1};
    size_t n = 0;
    for (int i = 0; i < 7; i++)
        if (cand[i] >= 1 && (n == 0 || cand[i] > out[n - 1]))
            out[n++] = cand[i];
    return n;
}

/* "chunks": {"S": 64} or {"S": "chunk"}; "topk": {"N": "K"}. */
static bool parse_sweeps(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j,
                         const char *key, bool topk, struct eng_rung2_spec *r)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, key);
    char field[160];
    snprintf(field, sizeof field, "rungs.2.%s", key);
    if (!o)
        return true;
    if (!cJSON_IsObject(o))
        return eng_mp_bad(p, field, "expected an object {\"%s\": %s}", topk ? "N" : "S",
                          topk ? "\"K\"" : "64");
    for (const cJSON *it = o->child; it; it = it->next) {
        snprintf(field, sizeof field, "rungs.2.%s.%s", key, it->string);
        if (eng_mp_param_index(m, it->string) < 0)
            return eng_mp_bad(p, field, "expected a length parameter named in \"params\"");
        r->sweeps = xrealloc(r->sweeps, (r->nsweeps + 1) * sizeof *r->sweeps);
        struct eng_r2_sweep *s = &r->sweeps[r->nsweeps++];
        memset(s, 0, sizeof *s);
        s->param = xstrdup(it->string);
        s->topk = topk;
        if (cJSON_IsString(it)) {
            if (eng_mp_param_index(m, it->valuestring) < 0)
                return eng_mp_bad(p, field, "expected a whole number or a parameter named in "
                                  "\"params\", got \"%s\"", it->valuestring);
            s->boundary_param = xstrdup(it->valuestring);
        } else if (!eng_mp_int(p, it, field, 1, (int64_t)1 << 40, &s->boundary)) {
            return false;
        }
    }
    return true;
}

static bool parse(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j, void **out)
{
    static const char *const keys[] = {"classes", "chunks", "topk", NULL};
    struct eng_rung2_spec *r = xcalloc(1, sizeof *r);
    *out = r;
    if (!eng_mp_only_keys(p, j, "rungs.2", keys))
        return false;
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(j, "classes");
    if (!cl) {
        for (int c = 0; c < ENG_VC_COUNT; c++)
            r->classes[c] = true;
    } else {
        if (!cJSON_IsArray(cl))
            return eng_mp_bad(p, "rungs.2.classes", "expected an array of value classes (%s)",
                              eng_vclass_list());
        size_t i = 0;
        for (const cJSON *it = cl->child; it; it = it->next, i++) {
            char field[64], got[64];
            snprintf(field, sizeof field, "rungs.2.classes[%zu]", i);
            int c = cJSON_IsString(it) ? eng_vclass_find(it->valuestring) : -1;
            if (c < 0) {
                eng_mp_describe(it, got, sizeof got);
                return eng_mp_bad(p, field, "expected one of %s, got %s", eng_vclass_list(), got);
            }
            r->classes[c] = true;
        }
    }
    return parse_sweeps(p, m, j, "chunks", false, r) && parse_sweeps(p, m, j, "topk", true, r);
}

static void free_settings(void *settings)
{
    struct eng_rung2_spec *r = settings;
    for (size_t i = 0; i < r->nsweeps; i++) {
        free(r->sweeps[i].param);
        free(r->sweeps[i].boundary_param);
    }
    free(r->sweeps);
    free(r);
}

/* eng_plan_add, then the value class on the checks it added. */
static void add_with_values(struct eng_plan_builder *b, const char *name,
                            const struct eng_shape *s, const char *values)
{
    size_t before = *b->n;
    eng_plan_add(b, name, ENG_MODE_PLAIN, false, s, 1, 0, 0);
    for (size_t i = before; values && i < *b->n; i++)
        (*b->list)[i].spec.values = xstrdup(values);
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    const struct eng_manifest *m = b->m;
    const struct eng_rung2_spec *r = m->settings[2];
    struct eng_shape dflt = {0};
    size_t nbase = m->nbaseline ? m->nbaseline : 1;
    bool float_input = false;
    for (size_t i = 0; i < m->nbuffers; i++)
        float_input |= m->buffers[i].role == ENG_ROLE_INPUT && eng_vclass_applies(m->buffers[i].dtype);
    char name[240], tag[160];
    /* Each value class over every float input, at each baseline shape. */
    for (int c = 0; float_input && c < ENG_VC_COUNT; c++) {
        if (!r->classes[c])
            continue;
        for (size_t i = 0; i < nbase; i++) {
            const struct eng_shape *s = m->nbaseline ? &m->baseline[i] : &dflt;
            eng_shape_tag(s, tag, sizeof tag);
            snprintf(name, sizeof name, "%s%s%s", eng_vclass_name((enum eng_vclass)c),
                     nbase > 1 ? "-" : "", nbase > 1 ? tag : "");
            add_with_values(b, name, s, eng_vclass_name((enum eng_vclass)c));
        }
    }
    /* Lengths on both sides of each chunk and top-k, at the first baseline shape. */
    const struct eng_shape *base = m->nbaseline ? &m->baseline[0] : &dflt;
    for (size_t k = 0; k < r->nsweeps; k++) {
        const struct eng_r2_sweep *sw = &r->sweeps[k];
        int64_t bnd = sw->boundary;
        if (sw->boundary_param) {
            struct eng_values v;
            if (eng_values_make(m, base, NULL, NULL, &v, err, errlen) != 0)
                return -1;
            int rc = eng_values_eval(&v, sw->boundary_param, &bnd, err, errlen);
            eng_values_free(&v);
            if (rc != 0)
                return -1;
        }
        int64_t lens[7];
        size_t nl = eng_r2_sweep_lengths(bnd, lens);
        for (size_t l = 0; l < nl; l++) {
            struct eng_shape s = {0};
            eng_shape_merge(&s, base);
            eng_shape_set(&s, sw->param, lens[l]);
            snprintf(name, sizeof name, "%s-%s%lld", sw->topk ? "topk" : "chunk", sw->param,
                     (long long)lens[l]);
            add_with_values(b, name, &s, NULL);
            eng_shape_free(&s);
        }
    }
    if (!float_input && !r->nsweeps) {
        snprintf(err, errlen, "suite %s: rung 2 has nothing to vary: no f32, bf16 or fp8e4m3 "
                 "input for the value classes and no \"chunks\" or \"topk\" to sweep", m->name);
        return -1;
    }
    return 0;
}

const struct eng_rung eng_rung2 = {
    .number = 2,
    .name = "replay real inputs",
    .parse = parse,
    .free_settings = free_settings,
    .plan = plan,
};
