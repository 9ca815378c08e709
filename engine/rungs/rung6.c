/* Rung 6, the multi-GPU protocol: its table entry, the multi-rank checks a collective suite gets
 * (engine/rungs/rung6.h), and the worker side in engine/rungs/rung6_ranks.c. */
#include "engine/rung.h"
#include "engine/rungs/rung6.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* The per-check keys rung 6 sets; the suite must declare each as a parameter. */
static const char *const needed[] = {"ranks", "calls", "changing", "lag", "nsizes", "sync_each",
                                     "size_a", "size_b", "size_c", "ll_threshold", "max_ranks"};

struct r6_check {
    const char *name;
    int ranks, changing;
    int lag;            /* the lagging rank + 1; 0: nobody lags */
    int nsizes, sync_each, calls; /* calls 0: the suite's */
    int skew;           /* EP dispatch only: 1 routing with a hot rank, 0 an even split */
};

static void shape_put(struct eng_shape *s, const char *k, int64_t v)
{
    s->keys = xrealloc(s->keys, (s->n + 1) * sizeof *s->keys);
    s->values = xrealloc(s->values, (s->n + 1) * sizeof *s->values);
    s->keys[s->n] = xstrdup(k);
    s->values[s->n++] = v;
}

static void add(const struct eng_manifest *m, const char *suite_ref,
                const struct eng_plan_opts *o, struct eng_planned **list, size_t *n,
                const struct r6_check *c, bool baseline, bool dispatch)
{
    const char *variants[2] = {"fixed", "buggy"};
    for (int v = 0; v < 2; v++) {
        if ((v == 0 && !o->fixed) || (v == 1 && (!o->buggy || !m->entry_buggy)))
            continue;
        *list = xrealloc(*list, (*n + 1) * sizeof **list);
        struct eng_planned *p = &(*list)[(*n)++];
        memset(p, 0, sizeof *p);
        struct eng_check_spec *s = &p->spec;
        snprintf(s->backend, sizeof s->backend, "%s", o->backend);
        s->device = o->device;
        s->wave = o->wave;
        s->schedule = baseline ? ENG_SCHED_DEFAULT : o->schedule;
        s->seed = o->seed;
        s->suite = xstrdup(suite_ref);
        s->variant = xstrdup(variants[v]);
        s->baseline = baseline;
        s->rung = 6;
        s->name = xstrdup(c->name);
        s->mode = baseline ? ENG_MODE_PLAIN : ENG_MODE_REPEAT;
        s->nshapes = 1;
        s->shapes = xcalloc(2, sizeof *s->shapes);
        shape_put(&s->shapes[0], "ranks", c->ranks);
        shape_put(&s->shapes[0], "changing", c->changing);
        shape_put(&s->shapes[0], "lag", c->lag);
        shape_put(&s->shapes[0], "nsizes", c->nsizes);
        shape_put(&s->shapes[0], "sync_each", c->sync_each);
        if (c->calls)
            shape_put(&s->shapes[0], "calls", c->calls);
        if (dispatch)
            shape_put(&s->shapes[0], "skew", c->skew);
        s->timeout_s = o->timeout_s;
        snprintf(p->label, sizeof p->label, "%s%s", baseline ? "baseline-" : "", variants[v]);
        p->expect_fail = !baseline && v == 1;
    }
}

/* Appends rung 6's checks (and the plain baseline when o->baseline) for suite m. Returns 0 or
 * -1 with a message (the suite lacks a parameter rung 6 needs). */
static int eng_rung6_plan(const struct eng_manifest *m, const char *suite_ref,
                          const struct eng_plan_opts *o, struct eng_planned **list, size_t *n,
                          char *err, size_t errlen)
{
    int max_ranks = 0;
    bool dispatch = false; /* the suite's "pattern": 1 is the EP dispatch, else the all-reduce */
    for (size_t i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, "pattern") == 0)
            dispatch = m->params[i].value > 0.5 && m->params[i].value < 1.5;
    for (size_t k = 0; k < sizeof needed / sizeof *needed; k++) {
        bool found = false;
        for (size_t i = 0; i < m->nparams; i++)
            if (strcmp(m->params[i].name, needed[k]) == 0) {
                found = true;
                if (!strcmp(needed[k], "max_ranks"))
                    max_ranks = (int)m->params[i].value;
            }
        if (!found) {
            snprintf(err, errlen, "%s: rung 6 needs the parameter \"%s\" (docs/multi-gpu.md)",
                     m->path, needed[k]);
            return -1;
        }
    }
    /* The plain unit test: two ranks, one call per size with a synchronisation after each,
     * the same inputs every call, nobody lagging. */
    static const struct r6_check base = {"unit-test-tp2", 2, 0, 0, 3, 1, 3, 0};
    static const struct r6_check checks[] = {
        /* many calls back to back, inputs changing every call (aiter-4812's regression test) */
        {"tp2-changing", 2, 1, 0, 3, 0, 0, 0},
        /* the same, inputs constant: stale contents equal fresh ones, the lesson's contrast */
        {"tp2-constant", 2, 0, 0, 3, 0, 0, 0},
        /* one rank lags every call: a rank one call ahead meets a reader still in the last one */
        {"tp2-lag", 2, 1, 2, 3, 0, 0, 0},
        /* one size only: every call lands in the same place (aiter-6446's review remark) */
        {"tp2-lag-one-size", 2, 1, 2, 1, 0, 0, 0},
        {"tp4-changing", 4, 1, 0, 3, 0, 0, 0},
        {"tp4-lag", 4, 1, 4, 3, 0, 0, 0},
    };
    /* EP: the dispatch of a MoE layer. Its unit test routes evenly with the same tokens every
     * call and synchronises after each; a model routes unevenly, differently every call, with
     * the calls of its layers queued back to back. */
    static const struct r6_check ep_base = {"unit-test-ep2", 2, 0, 0, 3, 1, 3, 0};
    static const struct r6_check ep_checks[] = {
        {"ep2-changing", 2, 1, 0, 3, 0, 0, 1},
        /* constant tokens: the lesson's contrast again */
        {"ep2-constant", 2, 0, 0, 3, 0, 0, 1},
        /* an even split with changing tokens: what is left of the model when routing is uniform */
        {"ep2-even-changing", 2, 1, 0, 3, 0, 0, 0},
        {"ep4-changing", 4, 1, 0, 3, 0, 0, 1},
    };
    /* A suite whose bug needs a peer says how many ranks its own unit test ran with
     * ("unit_ranks": 1, flydsl-1214's one-GPU test): the lesson is that test passing. */
    struct r6_check unit = dispatch ? ep_base : base;
    for (size_t i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, "unit_ranks") == 0 && m->params[i].value > 0.5 && m->params[i].value < 1.5)
            unit = (struct r6_check){"unit-test-tp1", 1, 0, 0, 3, 1, 3, 0};
    const struct r6_check *b0 = &unit;
    const struct r6_check *table = dispatch ? ep_checks : checks;
    size_t count = dispatch ? sizeof ep_checks / sizeof *ep_checks : sizeof checks / sizeof *checks;
    if (o->baseline)
        add(m, suite_ref, o, list, n, b0, true, dispatch);
    for (size_t i = 0; i < count; i++)
        if (table[i].ranks <= max_ranks)
            add(m, suite_ref, o, list, n, &table[i], false, dispatch);
    return 0;
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    return eng_rung6_plan(b->m, b->suite_ref, b->o, b->list, b->n, err, errlen);
}

/* Rung 6 reads its suite's integer "params" (docs/multi-gpu.md): its settings object is {}.
 * Its checks run the protocol over several ranks (engine/rungs/rung6_ranks.c), each with its own contexts
 * and rank threads, and plan their own baseline. */
const struct eng_rung eng_rung6 = {
    .number = 6,
    .name = "multi-GPU protocols",
    .plan = plan,
    .plans_baseline = true,
    .owns_kernels = true,
    .run = eng_rung6_run,
    .op_unavailable = "rung 6 launches one kernel per rank inside kladder's multi-GPU protocol: an op "
                      "has no rank entry point",
};
