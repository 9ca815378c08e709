/* Rung planning: the checks a rung derives from a suite manifest (docs/engine.md lists them),
 * plus the plain unit-test baseline beside them, for the chosen variants. */
#ifndef KL_ENGINE_PLAN_H
#define KL_ENGINE_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/check.h"
#include "engine/manifest.h"

struct eng_plan_opts {
    const char *backend;
    int device;
    int wave;
    enum eng_schedule schedule; /* for rung checks; baselines always use the default */
    uint64_t seed;
    int repeats;                /* --repeat; 0 = from the manifest */
    double timeout_s;
    bool fixed, buggy;          /* which variants */
    bool baseline;              /* add the baseline checks */
};

struct eng_planned {
    struct eng_check_spec spec;
    char label[32];             /* "fixed", "buggy", "baseline-fixed", "baseline-buggy" */
    bool expect_fail;           /* a buggy rung check: failing is the point */
    bool claimed;               /* the suite names this rung as the one that catches its bug:
                                   only there must the buggy variant be caught; elsewhere its
                                   checks are shown (a rung that is not the bug's) but not owed */
};

/* Appends the checks of `rung` for suite m (referred to as suite_ref: a name or a path) to
 * *list. Returns 0, or -1 with a message (unknown rung, a shape that cannot be evaluated). */
int eng_plan_rung(const struct eng_manifest *m, const char *suite_ref, int rung,
                  const struct eng_plan_opts *o, struct eng_planned **list, size_t *n, char *err,
                  size_t errlen);

/* The repeats rung 5 uses: ceil(ln(1 - confidence) / ln(1 - p)). */
int eng_plan_repeats(double failure_rate, double confidence);

void eng_planned_free(struct eng_planned *list, size_t n);

#endif
