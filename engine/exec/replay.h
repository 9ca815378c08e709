/* Replaying captured inputs (rung 2): input buffers bound to tensors of safetensors or .npy
 * files (importers/tensor.h), the shape the tensors imply, and the exact conversions from a
 * tensor's dtype to its buffer's.
 *
 * A binding comes from a suite's "rungs": {"2": {"inputs": [{"buffer", "file", "tensor",
 * "dtype"}]}} (file relative to the kernel's folder: kernels/ for built-in suites) or from
 * `kladder run --inputs FILE|DIR` (every tensor named like an input buffer). Everything is
 * checked when the run is planned, before anything is recorded: the file, the tensor, its
 * rank, each dimension against the buffer's shape, and that every value converts exactly. A
 * problem is one message "FILE: tensor 'T': FIELD: expected ..., got ...". */
#ifndef KL_ENGINE_REPLAY_H
#define KL_ENGINE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/manifest.h"

struct eng_replay_bind {
    char *buffer;   /* an input buffer of the suite */
    char *file;     /* as resolved: an absolute path, or "embed:kernels/..." */
    char *tensor;   /* its name in the file (.npy: the file's base name) */
    bool raw_bf16;  /* the tensor's 16-bit integers are bf16 bits ("dtype": "bf16") */
};

void eng_replay_binds_free(struct eng_replay_bind *b, size_t n);

/* Where a binding's file is: file itself when absolute or when dir is NULL and the suite is
 * a path, else relative to the suite's kernel folder (embedded kernels/ for built-in suites).
 * Returns a malloc'd reference for eng_replay_bind.file. */
char *eng_replay_resolve(const struct eng_manifest *m, const char *file);

/* Bindings for `--inputs PATH`: a safetensors file (tensors named like input buffers), a .npy
 * file (its base name is the buffer), or a folder of both. 0, or -1 when nothing binds or a
 * file is bad. */
int eng_replay_from_path(const struct eng_manifest *m, const char *path,
                         struct eng_replay_bind **out, size_t *n, char *err, size_t errlen);

/* Checks every binding (file, tensor, rank, dimensions, exact conversion) and sets *shape to
 * the parameters the tensors imply (a dimension that is a bare parameter takes the tensor's
 * size; any other must evaluate to it). 0, or -1 with a message. */
int eng_replay_check(const struct eng_manifest *m, const struct eng_replay_bind *b, size_t n,
                     struct eng_shape *shape, char *err, size_t errlen);

/* The check's "values" for the bindings: "replay;BUF=@FILE#TENSOR[#bf16];..." (malloc'd). */
char *eng_replay_values(const struct eng_replay_bind *b, size_t n);

/* Worker side: buffer b of m at values v filled from ref ("@FILE#TENSOR[#bf16]") into out
 * (padded_elems elements of the buffer's dtype, padding zero). 0, or -1 with a message. */
int eng_replay_fill(const struct eng_manifest *m, size_t b, const struct eng_values *v,
                    const char *ref, void *out, uint64_t padded_elems, char *err, size_t errlen);

#endif
