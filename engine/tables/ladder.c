/* The built-in ladder (engine/tables/tables.h): every engine/rungs/rungN.c, each defining
 * eng_rungN. The list is written at build time from the rung files themselves
 * (scripts/ladder-gen.sh, run by the Makefile), so a new built-in rung is its file alone. Ladder
 * order is by number. */
#include "engine/rung.h"
#include "engine/tables/tables.h"

#define LADDER_RUNG(n) extern const struct eng_rung eng_rung##n;
#include "ladder.inc"
#undef LADDER_RUNG

#define LADDER_RUNG(n) &eng_rung##n,
static const struct eng_rung *const ladder[] = {
#include "ladder.inc"
    NULL,
};
#undef LADDER_RUNG

void eng_ladder_install(void) { eng_rung_use_builtin(ladder); }
