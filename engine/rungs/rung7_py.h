/* Rung 7's checks of Python code beside a suite's kernel (engine/rungs/rung7_api.c: a moved
 * library API, sglang-33142; engine/rungs/rung7_ci.c: a CI that runs no test, aiter-5133):
 * their settings, planning and checks, called from engine/rungs/rung7.c. */
#ifndef KL_ENGINE_RUNGS_RUNG7_PY_H
#define KL_ENGINE_RUNGS_RUNG7_PY_H

#include <cJSON.h>
#include <stdbool.h>

#include "engine/check.h"
#include "engine/manifest_parse.h"
#include "engine/plan.h"
#include "engine/rungs/rung7.h"

/* "api": {"library": PKG, "releases": [DIR, ...], "callers": DIR | {"fixed", "buggy"},
 *         "calls": ["MODULE:FUNCTION", ...]} */
bool eng_r7_api_parse(struct eng_mparse *p, const cJSON *j, struct eng_rung7_api **out);
void eng_r7_api_free(struct eng_rung7_api *a);
void eng_r7_api_plan(struct eng_plan_builder *b, const struct eng_rung7_api *a);
/* Runs check s (its name "api:RELEASE" or "unit-test-api:RELEASE") into out. */
void eng_r7_api_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                      const struct eng_rung7_api *a, struct eng_check_result *out);

/* "ci": {"tests": DIR | {"fixed", "buggy"}, "runner": "pytest" | "script" | {"fixed", "buggy"}} */
bool eng_r7_ci_parse(struct eng_mparse *p, const cJSON *j, struct eng_rung7_ci **out);
void eng_r7_ci_free(struct eng_rung7_ci *c);
void eng_r7_ci_plan(struct eng_plan_builder *b, const struct eng_rung7_ci *c);
/* Runs check s ("ci-audit:DIR" or "ci-exit-status:DIR") into out. */
void eng_r7_ci_check(const struct eng_check_spec *s, const struct eng_manifest *m,
                     const struct eng_rung7_ci *c, struct eng_check_result *out);

/* Appends printf-style to buf of n bytes (bounded, always terminated). */
__attribute__((format(printf, 3, 4))) void eng_r7_add(char *buf, size_t n, const char *fmt, ...);

#endif
