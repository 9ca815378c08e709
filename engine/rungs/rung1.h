/* Rung 1's settings (engine/rungs/rung1.c reads them from a suite's "rungs": {"1": {...}}):
 * tails around every tile, the 2^31 and 2^32 cliffs, untuned shapes, named extra shapes. Here
 * for tools and tests that look into a parsed suite (m->settings[1]). */
#ifndef KL_ENGINE_RUNGS_RUNG1_H
#define KL_ENGINE_RUNGS_RUNG1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/manifest.h"

/* rung 1: shape and data. */
struct eng_cliff {
    char *buffer;        /* the output whose padded size crosses 2^31 and 2^32 bytes */
    char *param;         /* the parameter that grows it */
    struct eng_shape with; /* other parameters for these checks */
    bool elements;       /* "unit": "elements": the cliffs are at 2^31 and 2^32 elements (an
                          * element index held in 32 bits), not bytes (a byte offset) */
};
struct eng_rung1_spec {
    size_t ntail;
    char **tail_tile, **tail_dim; /* tile parameter -> the dimension it divides; default
                                   * "tile_x" -> "X" or "x" when such a parameter exists */
    size_t ncliffs;
    struct eng_cliff *cliffs;
    bool untuned;                 /* shapes next to tuned ones without a tuned entry (true) */
    size_t nextra;
    struct eng_shape *extra;      /* named shapes: [{"name": "k640", "K": 640}] */
};

/* Rung 1 by itself, for a suite whose settings and tiles plan no rung-1 check: the default
 * shape, and for each dimension (an integral parameter some buffer's shape mentions) its
 * default - 1, default + 1 and 1, each alone and only where every buffer keeps an element
 * (engine/rungs/rung1_dims.c). */
struct eng_plan_builder;
void eng_rung1_plan_dims(struct eng_plan_builder *b);

#endif
