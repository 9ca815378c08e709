/* The built-in ladder (engine/tables/tables.h): one line per rung, each defined in its own
 * engine/rungs/rungN.c. Ladder order is by number, whatever the order here. */
#include "engine/rung.h"
#include "engine/tables/tables.h"

extern const struct eng_rung eng_rung1, eng_rung2, eng_rung3, eng_rung4, eng_rung5, eng_rung6,
    eng_rung7, eng_rung8;

static const struct eng_rung *const ladder[] = {
    &eng_rung1, &eng_rung2, &eng_rung3, &eng_rung4, &eng_rung5, &eng_rung6, &eng_rung7, &eng_rung8,
    NULL,
};

void eng_ladder_install(void) { eng_rung_use_builtin(ladder); }
