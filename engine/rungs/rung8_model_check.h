/* Rung 8's checks of the built-in model (engine/rungs/rung8_model.h): which case's buggy
 * kernel swaps into which role, and the worker side that decodes with the reference kernels and with the kernels
 * under test and scores the second against the first. */
#ifndef KL_ENGINE_RUNG8_MODEL_CHECK_H
#define KL_ENGINE_RUNG8_MODEL_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/check.h"
#include "engine/rungs/rung8_model.h"

/* A case's buggy kernel in the model. unreachable / unreachable_large: why the small / the
 * large configuration cannot reach the bug (the check is then skipped with that reason), or
 * NULL. */
struct eng_model_swap {
    const char *case_id;
    enum eng_model_role role;
    const char *entry;
    const char *unreachable;
    const char *unreachable_large;
};

/* The swaps of case_id (a NULL-terminated run of the table), or NULL when the model uses none
 * of the case's kernels. eng_model_cases lists the cases that have some, for messages. */
const struct eng_model_swap *eng_model_swaps(const char *case_id, size_t *n);
void eng_model_cases(char *out, size_t n);

/* The check spec's "model" JSON: {} for the fixed model, or the swap; "large": true for the
 * large configuration. malloc'd. */
char *eng_model_check_json(const struct eng_model_swap *swap, bool large);

/* Worker side: runs the model check s (s->model set). */
void eng_model_run(const struct eng_check_spec *s, void (*ready)(void *), void *arg,
                   struct eng_check_result *out);

#endif
