/* Rung 5's settings (engine/rungs/rung5.c): the failure rate and confidence that choose the
 * number of repeats, the schedule the repeats need, and the widest rows. Here for tools and tests
 * that look into a parsed suite (m->settings[5]). */
#ifndef KL_ENGINE_RUNGS_RUNG5_H
#define KL_ENGINE_RUNGS_RUNG5_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/manifest.h"

/* rung 5: scale and repeats. */
struct eng_rung5_spec {
    double failure_rate;          /* p to catch (default 0.01) */
    double confidence;            /* default 0.99: N = ceil(ln(1-c) / ln(1-p)) */
    int repeats;                  /* explicit N; 0 = from p and c */
    int schedule;                 /* the cpu schedule its repeats need when --schedule is not
                                     given (enum eng_schedule); -1: the run's own */
    size_t nwide;
    struct eng_shape *wide;       /* widest rows; default the default shape */
};

#endif
