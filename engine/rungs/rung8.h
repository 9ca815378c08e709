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

/* The suite names the built-in model is run and recorded under: the small configuration
 * (--rung 8 --suite model) and the large one (--suite model-large, engine/rungs/rung8_model.h). */
#define ENG_MODEL_SUITE "model"
#define ENG_MODEL_LARGE_SUITE "model-large"

#endif
