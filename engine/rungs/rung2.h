/* Rung 2, replay real inputs: its settings ("rungs": {"2": {...}}), for tools and tests.
 * docs/engine.md describes the rung for people writing a suite. */
#ifndef KL_ENGINE_RUNG2_H
#define KL_ENGINE_RUNG2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/exec/replay.h"
#include "engine/values/value_class.h"

/* A length parameter swept on both sides of a boundary: 1, b-1, b, b+1, 2b-1, 2b, 2b+1. */
struct eng_r2_sweep {
    char *param;       /* the length swept ("S") */
    int64_t boundary;  /* the chunk size, or the top-k count ... */
    char *boundary_param; /* ... or the parameter that holds it, at the baseline shape */
    bool topk;         /* named "topk-..." rather than "chunk-..." */
};

/* A property of an output checked without a reference:
 *   {"output": "P", "rows_sum_to": 1.0}: on every value-class check with finite inputs;
 *   {"output": "O", "equals": 1.0, "when": {"V": "ones"}}: on checks of its own, one per class,
 *   where input V is made with that init and the other float inputs with the class.
 * "tolerance" (default: the suite's abs tolerance) bounds the error. */
struct eng_r2_property {
    char *output;
    size_t buffer;       /* its index in the manifest */
    bool rows_sum;       /* rows_sum_to; else equals */
    double target, tol;
    char *when_buffer;   /* NULL: always */
    char *when_init;     /* "ones" */
};

struct eng_rung2_spec {
    bool classes[ENG_VC_COUNT];  /* the value classes run (default: all) */
    size_t nsweeps;
    struct eng_r2_sweep *sweeps; /* "chunks" then "topk" */
    size_t nprops;
    struct eng_r2_property *props;
    size_t ninputs;
    struct eng_replay_bind *inputs; /* "inputs": captured tensors replayed (engine/exec/replay.h) */
};

/* The lengths a sweep around boundary b visits, ascending, without repeats or values < 1. */
size_t eng_r2_sweep_lengths(int64_t b, int64_t out[7]);

#endif
