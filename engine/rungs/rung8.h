/* Rung 8, the end-to-end score: judge the model by its score, never by an exit status
 * (docs/engine.md, "Rung 8"). The user's own evaluation (--e2e;
 * engine/rungs/rung8_e2e_check.h runs it) and the built-in model
 * (engine/rungs/rung8_model_check.h) are planned here, outside any suite. */
#ifndef KL_ENGINE_RUNG8_H
#define KL_ENGINE_RUNG8_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/rungs/rung8_e2e_check.h"
#include "engine/plan.h"

/* The suite name a user evaluation is recorded under. */
#define ENG_E2E_SUITE "e2e"

/* Appends the one check of a user evaluation e for the options o (backend, device, time
 * limit): variant "user", oracle score. */
void eng_rung8_plan_e2e(const struct eng_e2e *e, const struct eng_plan_opts *o,
                        struct eng_planned **list, size_t *n);

/* The suite names the built-in model is run and recorded under: the small configuration
 * (--rung 8 --suite model) and the large one (--suite model-large, engine/rungs/rung8_model.h). */
#define ENG_MODEL_SUITE "model"
#define ENG_MODEL_LARGE_SUITE "model-large"

/* Appends the built-in model's checks, of the large configuration with large: model:fixed (the fixed kernels against the reference
 * kernels; must pass), and with case_id one model:swap:ENTRY per buggy kernel of that case the
 * model uses (must fail, or is skipped with the reason the small model cannot reach it), each
 * reachable one after the plain unit test of the built-in suite whose buggy variant it is
 * (baseline-buggy, must pass). 0, or -1 with a message when the model uses no kernel of
 * case_id. */
int eng_rung8_plan_model(const char *case_id, bool large, const struct eng_plan_opts *o,
                         struct eng_planned **list, size_t *n, char *err, size_t errlen);

#endif
