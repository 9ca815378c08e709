/* Block samples: how an emulating backend runs a check whose launch is too large to run whole
 * (the 2^31 and 2^32-byte cliffs of rung 1) in seconds.
 *
 * The sample is the blocks whose tiles touch each cliff of the one output (the last element
 * below 2^31 and 2^32 bytes and the first at or past it, and the same around 2^31 and 2^32
 * elements where an element is wider than a byte), plus the first and the last tile.
 * A grid dimension walks the output dimension its expression names (grid "ceil(M, 256)" walks
 * dimension "M"), and each block owns ceil(dim / grid) of it: the kernel and the reference must
 * own tiles that way (one tile per block, the same launch). Only the sampled blocks run, the
 * output's fills and oracles cover only the elements their tiles own (the ranges), and the
 * buffers are address space reserved by the backend, backed only where touched. */
#ifndef KL_ENGINE_EXEC_SAMPLE_H
#define KL_ENGINE_EXEC_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/manifest.h"

struct eng_sample {
    size_t out;                 /* the output buffer */
    uint64_t *blocks;           /* linear block ids (x fastest), sorted */
    size_t nblocks;
    uint64_t all_blocks;        /* of the whole launch */
    uint64_t (*ranges)[2];      /* [first element, count] of the output, sorted, disjoint */
    size_t nranges;
    uint64_t elems;             /* elements in the ranges */
    bool element_cliffs;        /* the output reaches 2^31 elements (of more than a byte) too */
};

/* Plans the sample of the launch (grid, reference grid) at values v. 0, or -1 with the reason
 * the check cannot be sampled in why (no output past 2^31 bytes, several outputs, a grid
 * dimension that names no output dimension, a reference launched otherwise). */
int eng_sample_plan(const struct eng_manifest *m, const struct eng_values *v, const unsigned grid[3],
                    const unsigned rgrid[3], struct eng_sample *out, char *why, size_t whylen);
void eng_sample_free(struct eng_sample *s);

#endif
