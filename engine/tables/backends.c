/* The backends (engine/tables/tables.h), in the order `kladder run` prefers them when none is
 * named: a GPU one first, the cpu emulation last. */
#include "engine/backend/backend.h"
#include "engine/tables/tables.h"

static const struct eng_backend *const backends[] = {&eng_backend_hip, &eng_backend_cuda,
                                                     &eng_backend_cpu, NULL};

static void eng_backends_install(void) { eng_backend_use_table(backends); }

void eng_tables_install(void)
{
    eng_ladder_install();
    eng_backends_install();
}
