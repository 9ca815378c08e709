#include "engine/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/backend/backend.h"
#include "engine/prebuilt.h"
#include "engine/rung.h"

int eng_plan_repeats(double p, double c)
{
    if (!(p > 0 && p < 1) || !(c > 0 && c < 1))
        return 1;
    /* log1p: for a rate of 1e-8, log(1 - p) loses half its digits */
    double n = ceil(log1p(-c) / log1p(-p));
    return n < 1 ? 1 : n > 1e9 ? 1000000000 : (int)n;
}

double eng_plan_rate_ruled_out(int n, double c)
{
    if (n < 1 || !(c > 0 && c < 1))
        return 1;
    return -expm1(log1p(-c) / n);
}

void eng_planned_free(struct eng_planned *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        eng_check_spec_free(&list[i].spec);
    free(list);
}


void eng_shape_set(struct eng_shape *s, const char *key, int64_t v)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->keys[i], key) == 0) {
            s->values[i] = v;
            return;
        }
    s->keys = xrealloc(s->keys, (s->n + 1) * sizeof *s->keys);
    s->values = xrealloc(s->values, (s->n + 1) * sizeof *s->values);
    s->keys[s->n] = xstrdup(key);
    s->values[s->n++] = v;
}

void eng_shape_merge(struct eng_shape *dst, const struct eng_shape *src)
{
    for (size_t i = 0; src && i < src->n; i++)
        eng_shape_set(dst, src->keys[i], src->values[i]);
}

/* "M16-N8192" from a shape's keys. */
void eng_shape_tag(const struct eng_shape *s, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < s->n && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s%lld", i ? "-" : "", s->keys[i],
                                (long long)s->values[i]);
}

/* Adds one check for each selected variant. shapes are copied. */
void eng_plan_add(struct eng_plan_builder *b, const char *name, enum eng_mode mode, bool baseline,
                const struct eng_shape *shapes, size_t nshapes, int repeats, int replays)
{
    const char *variants[2] = {"fixed", "buggy"};
    for (int v = 0; v < 2; v++) {
        if ((v == 0 && !b->o->fixed) || (v == 1 && (!b->o->buggy || !b->m->entry_buggy)))
            continue;
        *b->list = xrealloc(*b->list, (*b->n + 1) * sizeof **b->list);
        struct eng_planned *p = &(*b->list)[(*b->n)++];
        memset(p, 0, sizeof *p);
        struct eng_check_spec *s = &p->spec;
        snprintf(s->backend, sizeof s->backend, "%s", b->o->backend);
        s->device = b->o->device;
        s->wave = b->o->wave;
        s->schedule = baseline ? ENG_SCHED_DEFAULT : b->o->schedule;
        s->seed = b->o->seed;
        s->suite = xstrdup(b->suite_ref);
        const char *co = b->o->code_object ? b->o->code_object : b->m->code_object;
        s->code_object = co ? xstrdup(co) : NULL;
        s->variant = xstrdup(variants[v]);
        s->baseline = baseline;
        s->rung = b->rung;
        s->name = xstrdup(name);
        s->mode = mode;
        s->nshapes = nshapes;
        s->shapes = xcalloc(nshapes + 1, sizeof *s->shapes);
        for (size_t i = 0; i < nshapes; i++)
            eng_shape_copy(&s->shapes[i], &shapes[i]);
        s->repeats = repeats;
        s->replays = replays;
        const struct eng_variant_opts *vo = v ? &b->m->opt_buggy : &b->m->opt_fixed;
        s->scratch_once = vo->scratch_once;
        s->event = vo->event;
        s->timeout_s = b->o->timeout_s;
        s->rung_opts = eng_rung_args_block(b->o->rung_args, b->rung);
        snprintf(p->label, sizeof p->label, "%s%s", baseline ? "baseline-" : "", variants[v]);
        p->expect_fail = !baseline && v == 1;
    }
}

const char *eng_plan_rung_arg(const struct eng_plan_builder *b, const char *name)
{
    return eng_rung_arg(b->o->rung_args, b->rung, name);
}

void eng_plan_set_kind(struct eng_plan_builder *b, size_t first, enum eng_check_kind kind,
                       const char *target)
{
    for (size_t i = first; i < *b->n; i++) {
        struct eng_check_spec *s = &(*b->list)[i].spec;
        s->kind = kind;
        snprintf(s->target, sizeof s->target, "%s", target ? target : "");
    }
}

/* The lag seeds of a run (struct eng_plan_opts): out gets up to ENG_LAG_MAX_SEEDS; returns how
 * many. */
static size_t eng_plan_lag_seeds(const struct eng_plan_opts *o, uint32_t out[ENG_LAG_MAX_SEEDS])
{
    if (!o->lag_auto) {
        size_t n = o->nlag < ENG_LAG_MAX_SEEDS ? o->nlag : ENG_LAG_MAX_SEEDS;
        memcpy(out, o->lag, n * sizeof *out);
        return n;
    }
    const struct eng_backend *B = eng_backend_find(o->backend);
    if (!B || B->caps.emulated)
        return 0;
    for (uint32_t s = 0; s < ENG_LAG_AUTO_SEEDS; s++) {
        out[s] = s + 1;
        out[ENG_LAG_AUTO_SEEDS + s] = (s + 1) | ENG_LAG_AHEAD;
    }
    return 2 * ENG_LAG_AUTO_SEEDS;
}

/* Appends a deep copy of planned check i, named name (taken), and returns it. */
static struct eng_planned *planned_copy(struct eng_plan_builder *b, size_t i, char *name)
{
    *b->list = xrealloc(*b->list, (*b->n + 1) * sizeof **b->list);
    struct eng_planned *src = &(*b->list)[i], *p = &(*b->list)[(*b->n)++];
    *p = *src;
    struct eng_check_spec *s = &p->spec, *o = &src->spec;
    s->suite = xstrdup(o->suite);
    s->code_object = o->code_object ? xstrdup(o->code_object) : NULL;
    s->variant = xstrdup(o->variant);
    s->name = name;
    s->shapes = xcalloc(o->nshapes + 1, sizeof *s->shapes);
    for (size_t j = 0; j < o->nshapes; j++)
        eng_shape_copy(&s->shapes[j], &o->shapes[j]);
    s->values = o->values ? xstrdup(o->values) : NULL;
    s->e2e = o->e2e ? xstrdup(o->e2e) : NULL;
    s->model = o->model ? xstrdup(o->model) : NULL;
    s->rung_opts = o->rung_opts ? xstrdup(o->rung_opts) : NULL;
    return p;
}

void eng_plan_add_pct(struct eng_plan_builder *b, size_t first, int seeds)
{
    const struct eng_backend *B = eng_backend_find(b->o->backend);
    if (!B || !B->caps.emulated || b->o->schedule_given || b->o->code_object ||
        b->m->code_object)
        return; /* a prebuilt object has no access instrumentation to schedule by */
    size_t last = *b->n;
    for (int k = 0; k < seeds; k++)
        for (size_t i = first; i < last; i++) {
            const struct eng_check_spec *o = &(*b->list)[i].spec;
            if (o->baseline || o->lag || o->schedule != b->o->schedule)
                continue; /* a suite's own schedule is the one it declared for its rate */
            const char *tag = strncmp(o->name, "repeat-", 7) ? o->name : o->name + 7;
            uint64_t seed = o->seed + (uint64_t)k;
            struct eng_planned *p = planned_copy(b, i, xasprintf("pct%llu-%s", (unsigned long long)seed, tag));
            p->spec.schedule = ENG_SCHED_PCT;
            p->spec.seed = seed;
            p->spec.mode = ENG_MODE_PLAIN;
            p->spec.repeats = 0;
            p->confidence = 0; /* no repeats: nothing ruled out at a rate */
            p->pct_added = true;
        }
}

void eng_plan_add_lag(struct eng_plan_builder *b, size_t first, int max_repeats)
{
    uint32_t seeds[ENG_LAG_MAX_SEEDS];
    size_t ns = eng_plan_lag_seeds(b->o, seeds), last = *b->n;
    /* A lag build rebuilds the source: a prebuilt code object cannot be, so one copy of each
     * variant's first check stands for all of them and says so when it runs (skipped). */
    bool prebuilt = b->o->code_object || b->m->code_object;
    bool seen[2] = {false, false};
    for (size_t k = 0; k < (prebuilt && ns ? 1 : ns); k++)
        for (size_t i = first; i < last; i++) {
            const struct eng_check_spec *from = &(*b->list)[i].spec;
            if (from->baseline || from->lag)
                continue;
            bool *once = &seen[strcmp(from->variant, "buggy") == 0];
            if (prebuilt && *once)
                continue;
            *once = true;
            struct eng_planned *p = planned_copy(b, i, xasprintf("%s-%s%u", from->name,
                                                 eng_lag_is_ahead(seeds[k]) ? "ahead" : "lag",
                                                 (unsigned)eng_lag_seed(seeds[k])));
            struct eng_check_spec *s = &p->spec;
            s->lag = seeds[k];
            if (max_repeats > 0 && s->repeats > max_repeats) {
                s->repeats = max_repeats;
                p->confidence = 0; /* no longer the N its confidence was chosen for */
            }
        }
}

/* The plain unit test beside a rung's checks, at the run's own wave, the one its header says
 * (a rung that wants the unit test at another wave plans its baseline itself: rung 3). */
static int plan_baseline(struct eng_plan_builder *b)
{
    for (size_t i = 0; i < b->m->nbaseline; i++) {
        char tag[160], name[200];
        eng_shape_tag(&b->m->baseline[i], tag, sizeof tag);
        snprintf(name, sizeof name, "unit-test-%s", tag);
        eng_plan_add(b, name, ENG_MODE_PLAIN, true, &b->m->baseline[i], 1, 0, 0);
    }
    return 0;
}

int eng_plan_check_rung(const struct eng_manifest *m, int rung, char *err, size_t errlen)
{
    if (!eng_rung_find(rung)) {
        char have[64];
        eng_rung_list(have, sizeof have);
        snprintf(err, errlen, "rung %d has no engine checks (rungs %s do)", rung, have);
        return -1;
    }
    if (!eng_rung_applies(eng_rung_find(rung), m)) {
        char has[64] = "";
        for (int r = 1; r < ENG_RUNG_SLOTS; r++)
            if (m->has_rung[r])
                snprintf(has + strlen(has), sizeof has - strlen(has), "%s%d", has[0] ? ", " : "", r);
        snprintf(err, errlen, "suite %s does not declare rung %d (its rungs: %s; a suite declares "
                 "the rungs it supports under \"rungs\")", m->name, rung, has[0] ? has : "none");
        return -1;
    }
    return 0;
}

int eng_plan_rung(const struct eng_manifest *m, const char *suite_ref, int rung,
                  const struct eng_plan_opts *o, struct eng_planned **list, size_t *n, char *err,
                  size_t errlen)
{
    if (eng_plan_check_rung(m, rung, err, errlen) != 0)
        return -1;
    /* A GPU binary on the emulator is refused once here, not in every check. */
    const char *co = o->code_object ? o->code_object : m->code_object;
    const struct eng_backend *B = eng_backend_find(o->backend);
    if (co && B && B->caps.emulated) {
        struct eng_device_info none = {0};
        char target[64];
        B->compile_target(&none, o->wave, target, sizeof target);
        if (eng_prebuilt_refused(m, co, B, target, err, errlen) != 0)
            return -1;
    }
    const struct eng_rung *R = eng_rung_find(rung);
    struct eng_plan_builder b = {m, suite_ref, o, list, n, rung};
    size_t before = *n;
    if (o->baseline && !R->plans_baseline)
        plan_baseline(&b);
    size_t baselines = *n - before;
    if (R->plan(&b, err, errlen) != 0)
        return -1;
    if (*n - before == baselines) {
        if (R->plans_from)
            snprintf(err, errlen, "suite %s: rung %d plans no check from its settings: give "
                     "\"rungs\": {\"%d\": {...}} %s", m->name, rung, rung, R->plans_from);
        else
            snprintf(err, errlen, "suite %s: rung %d plans no check from its settings (say which "
                     "checks it should run under \"rungs\": {\"%d\": {...}})", m->name, rung, rung);
        return -1;
    }
    return 0;
}
