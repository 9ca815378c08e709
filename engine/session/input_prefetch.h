/* The next check's inputs made on the host in the background (engine/session/input_prefetch.c).
 *
 * An op's checks run from the library (engine/api) follow a plan known in advance, and a value
 * class's input is made on the host from its class, dtype, shape and seed alone. So while one
 * check calls the op and judges it, the kept threads of engine/values/par_rows.h make the next check's
 * inputs into host buffers of the session (engine/session/session.h); the next check takes a buffer
 * whose fill is the one it would make (every parameter equal) and makes any other itself. A
 * taken buffer holds the bits a fill on demand writes (eng_vclass_fill_part), so no value,
 * verdict or record depends on whether it was made ahead. One thread (the checks') calls
 * these. */
#ifndef KL_ENGINE_INPUT_PREFETCH_H
#define KL_ENGINE_INPUT_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/values/dtype.h"

/* One fill: eng_vclass_fill's parameters, and the host buffer's size (at least n elements). */
struct eng_fill_key {
    int cls; /* enum eng_vclass */
    enum eng_dtype dtype;
    uint64_t n, row_len, row_stride, seed;
    size_t bytes;
};

#define ENG_PREFETCH_MAX 8

/* True unless KLADDER_PREFETCH=0 (every input made on demand, for comparing the two). */
bool eng_prefetch_enabled(void);

/* Gives back what an earlier start left untaken, then starts making the fills of keys (the
 * first ENG_PREFETCH_MAX) and returns at once. Where no thread can start, nothing is made. */
void eng_prefetch_start(const struct eng_fill_key *keys, size_t nkeys);

/* The buffer holding the fill of a key equal to *k, once it is made (waited for here): a host
 * buffer of the session of k->bytes, the caller's now (eng_session_host_put gives it back).
 * NULL when none was started for it or it could not be made in this process. */
void *eng_prefetch_take(const struct eng_fill_key *k);

/* A run's end on the host: eng_prefetch_drop, then the session's kept host buffers freed
 * (eng_session_host_trim), so that none is left with the fill threads or kept after. */
void eng_prefetch_trim(void);

#endif
