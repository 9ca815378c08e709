/* Rung planning: the checks a rung derives from a suite manifest (docs/engine.md lists them),
 * plus the plain unit-test baseline beside them, for the chosen variants. */
#ifndef KL_ENGINE_PLAN_H
#define KL_ENGINE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/check.h"
#include "engine/manifest.h"

struct eng_rung_args;

#define ENG_LAG_MAX_SEEDS 8
#define ENG_LAG_AUTO_SEEDS 4 /* of each mode: auto plans 2 x 4 copies */

struct eng_plan_opts {
    const char *backend;
    int device;
    int wave;
    const char *code_object;    /* prebuilt suite code object (a path) or NULL */
    enum eng_schedule schedule; /* for rung checks; baselines always use the default */
    bool schedule_given;        /* --schedule was given: it wins over a suite's own schedule */
    uint64_t seed;
    int repeats;                /* --repeat; 0 = from the manifest */
    bool repeat_auto;           /* --repeat auto: N from the failure rate, never the manifest's N */
    double rate, confidence;    /* --rate, --confidence; 0 = the suite's */
    double timeout_s;
    bool fixed, buggy;          /* which variants */
    bool baseline;              /* add the baseline checks */
    /* Lag builds (kernels/kl.h, KL_LAG) that rungs 2 and 5 add beside their checks: these
     * seeds (each may carry ENG_LAG_AHEAD, engine/check.h), or with lag_auto seeds
     * 1..ENG_LAG_AUTO_SEEDS of both modes (one wave behind, one wave ahead) on a backend that
     * runs kernels on real hardware and none on an emulating one (its schedules reorder waves
     * already). */
    uint32_t lag[ENG_LAG_MAX_SEEDS];
    size_t nlag;
    bool lag_auto;
    /* The values of the rungs' own options (engine/rung.h), or NULL: each check a rung plans
     * carries its rung's block (eng_check_spec.rung_opts). */
    const struct eng_rung_args *rung_args;
};

struct eng_planned {
    struct eng_check_spec spec;
    char label[32];             /* "fixed", "buggy", "baseline-fixed", "baseline-buggy" */
    bool expect_fail;           /* a buggy rung check: failing is the point */
    /* set by the runner once planned: */
    const char *suite_name;     /* the manifest's own "name" (spec.suite may be a path) */
    bool control;               /* of a control suite: every variant is correct, so a failure
                                   is a false alarm of the harness */
    bool pct_added;             /* a copy under the pct schedule that the rung added by itself
                                   on an emulating backend (eng_plan_add_pct) */
    bool reproducer;            /* of a reproducer (its manifest names a "case"): its unit test
                                   is declared to pass the buggy variant; a user's own suite
                                   declares nothing of it, so a unit test that catches the bug
                                   is a fact to report, not an expectation missed */
    bool expect_caught;         /* its buggy variant must be caught on every rung it runs: a
                                   reproducer's (its case states the bug) or a suite's that
                                   says "expect_caught"; any other suite states no expectation
                                   of it, and the run only says which rungs caught it */
    double confidence;          /* rung 5: the confidence its repeats were chosen for (0: none) */
    /* A check the vendor's sanitizer added beside the check that ran the kernels (runner,
     * --sanitizer): its tool ("racecheck"), "" for every planned check. Its hazards are
     * findings: on a fixed variant or a baseline one fails the run like any failure; on a
     * buggy variant it is reported and met either way, and never stands in for the rung
     * catching the bug (docs/engine.md). */
    char sanitizer[12];
};

/* What a check's suite is called wherever a person or a tool reads it (text, JSON, JUnit,
 * events, the database): the manifest's own "name", never the path it was given by (that is
 * spec.suite, a detail); spec.suite until the runner has set the name. */
static inline const char *eng_planned_suite(const struct eng_planned *p)
{
    return p->suite_name ? p->suite_name : p->spec.suite;
}

/* The smallest per-run failure probability that n equal repeats rule out at a confidence:
 * 1 - (1 - confidence)^(1/n), the inverse of eng_plan_repeats(). */
double eng_plan_rate_ruled_out(int n, double confidence);

/* Appends the checks of `rung` for suite m (referred to as suite_ref: a name or a path) to
 * *list: the rung's own (engine/rung.h) and the plain unit-test baseline beside them. Returns 0,
 * or -1 with a message: a rung the engine does not run, one the suite does not declare, one
 * whose settings plan no check, a shape that cannot be evaluated. */
int eng_plan_rung(const struct eng_manifest *m, const char *suite_ref, int rung,
                  const struct eng_plan_opts *o, struct eng_planned **list, size_t *n, char *err,
                  size_t errlen);

/* 0 when the engine runs `rung` and suite m declares it; else -1 with a message naming the
 * rungs there are. */
int eng_plan_check_rung(const struct eng_manifest *m, int rung, char *err, size_t errlen);

/* The repeats rung 5 uses: ceil(ln(1 - confidence) / ln(1 - p)), at most 10^9. */
int eng_plan_repeats(double failure_rate, double confidence);

void eng_planned_free(struct eng_planned *list, size_t n);

/* ---- for rung planners ---------------------------------------------------------------- */

struct eng_plan_builder {
    const struct eng_manifest *m;
    const char *suite_ref;
    const struct eng_plan_opts *o;
    struct eng_planned **list;
    size_t *n;
    int rung;
};

/* Adds one check for each selected variant (baseline: the plain unit test's form of it);
 * shapes are copied. repeats: ENG_MODE_REPEAT; replays: ENG_MODE_GRAPH. */
void eng_plan_add(struct eng_plan_builder *b, const char *name, enum eng_mode mode, bool baseline,
                  const struct eng_shape *shapes, size_t nshapes, int repeats, int replays);

/* The value of the planning rung's own option name (engine/rung.h, struct eng_rung_opt) that
 * the run was given: "" for a flag, NULL when it was not given. */
const char *eng_plan_rung_arg(const struct eng_plan_builder *b, const char *name);

/* Makes every check planned from index first on a check of kind (engine/check.h) at target
 * (ENG_CHECK_CODE: the processor; NULL otherwise), baselines included. */
void eng_plan_set_kind(struct eng_plan_builder *b, size_t first, enum eng_check_kind kind,
                       const char *target);

/* Adds, for each lag seed S of the run, a copy of every rung check (not baseline) planned from
 * index first on: named NAME-lagS, built with KL_LAG=S (NAME-aheadS, with KL_LAG_MODE=1 too, for
 * a seed carrying ENG_LAG_AHEAD), with at most max_repeats repeats
 * (0: as planned). A race that needs one wave to fall behind shows in some seed's copy. With a
 * prebuilt code object (which cannot be rebuilt) only the first check of each variant gets one
 * copy, which is skipped with the reason when it runs. */
void eng_plan_add_lag(struct eng_plan_builder *b, size_t first, int max_repeats);

/* On an emulating backend, when --schedule was not given: adds, for seeds S = the run's seed
 * .. + seeds - 1, a copy of every rung check planned from index first on that runs under the
 * run's schedule (not a schedule its suite declared), named pctS-TAG (TAG: the name without
 * "repeat-"), one launch under the pct schedule with seed S judged by the oracles and the
 * race check (engine/cpu/cpu_race.c). Its inputs come from seed S too. */
void eng_plan_add_pct(struct eng_plan_builder *b, size_t first, int seeds);

/* Sets (or adds) one key of a shape; merges src's keys into dst; "M16-N8192" from its keys. */
void eng_shape_set(struct eng_shape *s, const char *key, int64_t v);
void eng_shape_merge(struct eng_shape *dst, const struct eng_shape *src);
void eng_shape_tag(const struct eng_shape *s, char *out, size_t n);

#endif
