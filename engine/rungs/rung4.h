/* Rung 4's settings (engine/rungs/rung4.c): which production-execution checks run (graph
 * capture and replay, streams, warm caches, garbage memory, a full pool) and their shapes. Here for
 * tools and tests that look into a parsed suite (m->settings[4]). */
#ifndef KL_ENGINE_RUNGS_RUNG4_H
#define KL_ENGINE_RUNGS_RUNG4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/manifest.h"

/* rung 4: environment and timing. */
#define ENG_R4_GRAPH 1u
#define ENG_R4_STREAMS 2u
#define ENG_R4_WARM 4u
#define ENG_R4_GARBAGE 8u
#define ENG_R4_POOL 16u
struct eng_rung4_spec {
    unsigned checks;              /* ENG_R4_* (default all but POOL, which needs shapes) */
    int replays;                  /* graph replays (default 3) */
    size_t nwarm;
    struct eng_shape *warm;       /* default: baseline shapes plus the default shape */
    size_t npool;
    struct eng_shape *pool;       /* full-pool shapes (large offsets) */
    /* pool_sample: where the backend cannot hold the whole pool, the pool checks fill only the
     * rows of input buffer sample_buffer they read, [first, first + rows) (expressions over the
     * parameters); -1 none. Rows no correct gather reads stay unbacked and read as zero. */
    int sample_buffer;
    char *sample_first, *sample_rows;
};

#endif
