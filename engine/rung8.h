/* Rung 8, the end-to-end score: judge the model by its score, never by an exit status
 * (docs/engine.md, "Rung 8"). The user's own evaluation (--e2e) is planned here, outside any
 * suite; engine/e2e_check.h runs it. */
#ifndef KL_ENGINE_RUNG8_H
#define KL_ENGINE_RUNG8_H

#include <stddef.h>

#include "engine/e2e_check.h"
#include "engine/plan.h"

/* The suite name a user evaluation is recorded under. */
#define ENG_E2E_SUITE "e2e"

/* Appends the one check of a user evaluation e for the options o (backend, device, time
 * limit): variant "user", oracle score. */
void eng_rung8_plan_e2e(const struct eng_e2e *e, const struct eng_plan_opts *o,
                        struct eng_planned **list, size_t *n);

#endif
