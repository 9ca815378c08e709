/* Rung 8, the end-to-end score (engine/rungs/rung8.h). A suite does not plan rung 8 checks of its
 * own: the rung runs the user's evaluation command (eng_rung8_plan_e2e) or the built-in model
 * (eng_rung8_plan_model), in the worker under the watchdog like every other check. */
#include "engine/rungs/rung8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/paths.h"
#include "common/xalloc.h"
#include "engine/manifest.h"
#include "engine/rungs/rung8_facts.h"
#include "engine/rungs/rung8_model_check.h"
#include "engine/rung.h"

/* Appends one rung 8 check of a suite of its own (the user's command, the built-in model): the
 * run's options, one plain mode, no shapes. The caller adds what it scores and its label. */
static struct eng_planned *add_check(const struct eng_plan_opts *o, struct eng_planned **list,
                                     size_t *n, const char *suite, const char *variant,
                                     const char *name)
{
    *list = xrealloc(*list, (*n + 1) * sizeof **list);
    struct eng_planned *p = &(*list)[(*n)++];
    memset(p, 0, sizeof *p);
    struct eng_check_spec *s = &p->spec;
    snprintf(s->backend, sizeof s->backend, "%s", o->backend);
    s->device = o->device;
    s->wave = o->wave;
    s->schedule = o->schedule;
    s->seed = o->seed;
    s->suite = xstrdup(suite);
    s->variant = xstrdup(variant);
    s->rung = 8;
    s->kind = ENG_CHECK_E2E; /* no suite manifest: the worker loads none */
    s->name = xstrdup(name);
    s->mode = ENG_MODE_PLAIN;
    s->shapes = xcalloc(1, sizeof *s->shapes);
    s->timeout_s = o->timeout_s;
    snprintf(p->label, sizeof p->label, "%s", variant);
    return p;
}

/* Appends the one check of a user evaluation e for the options o (backend, device, time
 * limit): variant "user", oracle score. */
static void eng_rung8_plan_e2e(const struct eng_e2e *e, const struct eng_plan_opts *o,
                               struct eng_planned **list, size_t *n)
{
    char name[96];
    eng_e2e_check_name(e, name, sizeof name);
    add_check(o, list, n, ENG_E2E_SUITE, "user", name)->spec.e2e = eng_e2e_json(e);
}

/* A suite cannot declare rung 8: what it scores is the user's command, not a suite's kernel.
 * Refused when the manifest loads, naming the field, rather than planning nothing later. */
static bool parse(struct eng_mparse *p, const struct eng_manifest *m, const cJSON *j, void **out)
{
    (void)m;
    (void)j;
    *out = NULL;
    return eng_mp_bad(p, "rungs.8", "no rung 8 in a suite: rung 8 scores an evaluation "
                      "command (kladder run --rung 8 --e2e COMMAND) or the built-in model "
                      "(--rung 8 --suite model)");
}

static void add_model_check(const struct eng_model_swap *sw, bool large,
                            const struct eng_plan_opts *o, struct eng_planned **list, size_t *n)
{
    char name[96];
    snprintf(name, sizeof name, "model:%s%s", sw ? "swap:" : "fixed", sw ? sw->entry : "");
    struct eng_planned *p = add_check(o, list, n, large ? ENG_MODEL_LARGE_SUITE : ENG_MODEL_SUITE,
                                      sw ? "buggy" : "fixed", name);
    p->spec.model = eng_model_check_json(sw, large);
    p->expect_fail = sw != NULL;
    /* a case's buggy kernel in the built-in model: the case states that the score drops */
    p->reproducer = p->expect_caught = sw != NULL;
}

/* The plain unit test of the built-in suite whose buggy variant is sw's kernel, beside the
 * model's verdict on it: the baseline passes the kernel that the model fails. Nothing when no
 * built-in suite has that variant. */
static void plan_unit_baseline(const struct eng_model_swap *sw, const struct eng_plan_opts *o,
                               struct eng_planned **list, size_t *n)
{
    size_t cnt;
    const char **files = eng_manifest_list(&cnt);
    struct eng_plan_opts bo = *o;
    bo.fixed = false;
    bo.buggy = true;
    for (size_t i = 0; i < cnt; i++) {
        char *name = xstrdup(strrchr(files[i], '/') + 1);
        name[strlen(name) - 5] = '\0'; /* ".json" */
        char err[512];
        struct eng_manifest *m = eng_manifest_load(name, NULL, err, sizeof err);
        if (m && m->case_id && !strcmp(m->case_id, sw->case_id) && m->entry_buggy &&
            !strcmp(m->entry_buggy, sw->entry)) {
            struct eng_plan_builder b = {.m = m, .suite_ref = m->name, .o = &bo, .list = list,
                                         .n = n, .rung = 8};
            for (size_t k = 0; k < m->nbaseline; k++) {
                char tag[160], check[200];
                eng_shape_tag(&m->baseline[k], tag, sizeof tag);
                snprintf(check, sizeof check, "unit-test-%s", tag);
                eng_plan_add(&b, check, ENG_MODE_PLAIN, true, &m->baseline[k], 1, 0, 0);
            }
            i = cnt; /* one suite is the unit test */
        }
        eng_manifest_free(m);
        free(name);
    }
    free(files);
}

/* Appends the built-in model's checks, of the large configuration with large: model:fixed (the fixed kernels against the reference
 * kernels; must pass), and with case_id one model:swap:ENTRY per buggy kernel of that case the
 * model uses (must fail, or is skipped with the reason the small model cannot reach it), each
 * reachable one after the plain unit test of the built-in suite whose buggy variant it is
 * (baseline-buggy, must pass). 0, or -1 with a message when the model uses no kernel of
 * case_id. */
static int eng_rung8_plan_model(const char *case_id, bool large, const struct eng_plan_opts *o,
                                struct eng_planned **list, size_t *n, char *err, size_t errlen)
{
    size_t ns = 0;
    const struct eng_model_swap *sw = case_id ? eng_model_swaps(case_id, &ns) : NULL;
    if (case_id && !sw) {
        char have[256];
        eng_model_cases(have, sizeof have);
        snprintf(err, errlen, "the built-in model uses no kernel of case %s (it uses those of "
                 "%s)", case_id, have);
        return -1;
    }
    add_model_check(NULL, large, o, list, n);
    /* the unit test runs even where the model cannot reach the kernel: its pass is half of the
     * lesson, and the model's skip says plainly which configuration, if any, does reach it */
    for (size_t i = 0; i < ns; i++) {
        plan_unit_baseline(&sw[i], o, list, n);
        add_model_check(&sw[i], large, o, list, n);
    }
    return 0;
}

static int plan(struct eng_plan_builder *b, char *err, size_t errlen)
{
    snprintf(err, errlen, "rung 8 plans no checks from suite %s: run the built-in model with "
             "--rung 8 --suite model, or an evaluation with --rung 8 --e2e COMMAND --score "
             "FORMAT --baseline VALUE|FILE", b->m->name);
    return -1;
}

static void run(const struct eng_check_spec *s, const struct eng_manifest *m,
                void (*ready)(void *), void *arg, struct eng_check_result *out)
{
    if (s->e2e) {
        eng_e2e_run(s, ready, arg, out);
        return;
    }
    if (s->model) {
        eng_model_run(s, ready, arg, out);
        return;
    }
    /* the plain unit test planned beside the model (a device check of a suite) */
    if (!m) {
        eng_check_result_init(out);
        snprintf(out->detail, sizeof out->detail, "setup: a rung 8 check of kind %s names "
                 "no evaluation and no model", eng_check_kind_name(s->kind));
        if (ready)
            ready(arg);
        return;
    }
    eng_exec_check(s, m, ready, arg, out);
}

/* A run of rung 8 is the user's evaluation (--e2e) or the built-in model (--suite model, --case
 * ID), never a suite's: the runner loads no suite for it. */
static bool claim(const struct eng_run_ask *o, struct eng_run_claim *c)
{
    if (o->e2e) {
        *c = (struct eng_run_claim){ENG_E2E_SUITE, "user", "evaluation command"};
        return true;
    }
    if (o->model) {
        *c = (struct eng_run_claim){o->model_large ? ENG_MODEL_LARGE_SUITE : ENG_MODEL_SUITE,
                                    o->model_case ? "both" : "fixed", "model"};
        return true;
    }
    return false;
}

static int plan_claimed(const struct eng_run_ask *o, const char *uuid,
                        const struct eng_plan_opts *po, struct eng_planned **list, size_t *n,
                        char *err, size_t errlen)
{
    if (!o->e2e)
        return eng_rung8_plan_model(o->model_case, o->model_large, po, list, n, err, errlen);
    /* the evaluation's output is kept beside the database, named by the run */
    struct eng_e2e e = *o->e2e;
    char *dir = paths_data_dir();
    char *log = xasprintf("%s/e2e/%s.log", dir, uuid);
    e.log = log;
    eng_rung8_plan_e2e(&e, po, list, n);
    free(log);
    free(dir);
    return 0;
}

/* What the evaluation printed before it hung; a model check hangs in a kernel like any other. */
static const char *hang_note(const struct eng_check_spec *s, char *note, size_t n)
{
    if (!s->e2e)
        return NULL;
    eng_e2e_hang_note(s, note, n);
    return "evaluation command";
}

const struct eng_rung eng_rung8 = {
    .number = 8,
    .name = "end-to-end score",
    .parse = parse,
    .free_settings = free,
    .plan = plan,
    .plans_baseline = true,
    .run = run,
    .claim = claim,
    .plan_claimed = plan_claimed,
    .hang_note = hang_note,
    .runs_end_to_end = true,
    .facts_line = eng_rung8_facts_line,
    .op_unavailable = "rung 8 is a model's end-to-end score: run `kladder run --rung 8` with the "
                      "model's evaluation",
};
