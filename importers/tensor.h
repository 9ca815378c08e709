/* Tensors read from files other programs wrote (captures of a model's real inputs): the common
 * form that the safetensors and .npy readers produce, and the exact conversions the engine may
 * apply when it binds a tensor to a kernel buffer.
 *
 * A reader validates the whole file before it returns anything: a bad file gets one error
 * "FILE: tensor 'NAME': FIELD: expected WHAT, got WHAT" (or "FILE: FIELD: ..." for what is not
 * one tensor's) and the caller gets no partial result. Tensor names and metadata are checked to
 * be UTF-8 without control characters, so they are safe to print. Data is copied out of the
 * file: nothing assumes the file's bytes are aligned. */
#ifndef KL_IMPORTERS_TENSOR_H
#define KL_IMPORTERS_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Element types a capture may hold. Every one is a whole number of bytes; the fp8 types are the
 * OCP "FN" formats (the FNUZ variants of gfx942 are refused by the readers, never reinterpreted). */
enum imp_tdtype {
    IMP_TD_F64, IMP_TD_F32, IMP_TD_F16, IMP_TD_BF16, IMP_TD_I64, IMP_TD_I32, IMP_TD_I16,
    IMP_TD_I8, IMP_TD_U16, IMP_TD_U8, IMP_TD_BOOL, IMP_TD_F8_E4M3, IMP_TD_F8_E5M2,
    IMP_TD_F8_E8M0, IMP_TD_COUNT
};

/* Bytes of one element; the safetensors spelling ("F32", "F8_E4M3"). */
size_t imp_tdtype_size(enum imp_tdtype d);
const char *imp_tdtype_name(enum imp_tdtype d);
/* The dtype spelled `name` (safetensors spelling), or -1. */
int imp_tdtype_find(const char *name);

/* Most dimensions a tensor may have: more is refused (no capture kladder replays needs more). */
#define IMP_TENSOR_MAX_DIMS 8

struct imp_tensor {
    char *name;                      /* "layer3.scores"; for .npy the file's base name */
    enum imp_tdtype dtype;
    size_t ndims;                    /* 0: a scalar of one element */
    uint64_t dims[IMP_TENSOR_MAX_DIMS];
    uint64_t elems;                  /* product of dims (1 for a scalar) */
    size_t nbytes;                   /* elems * imp_tdtype_size(dtype) */
    unsigned char *data;             /* owned copy, little-endian, C order; NULL when empty */
};

struct imp_tensor_file {
    char *path;                      /* as given, for messages */
    size_t n;
    struct imp_tensor *t;            /* in file order (safetensors: header order) */
    size_t nmeta;
    char **meta_keys, **meta_values; /* safetensors "__metadata__", kept as read */
};

/* Largest tensor file a reader loads (1 GiB): a capture is a few rows of real input, not a model. */
#define IMP_TENSOR_FILE_MAX ((uint64_t)1 << 30)

/* Reads a safetensors file (.safetensors) or a .npy file (by its magic bytes, whatever its
 * name). Returns 0 and fills *out (free with imp_tensor_file_free), or -1 with a message in err
 * and *out zeroed. */
int imp_tensor_file_load(const char *path, struct imp_tensor_file *out, char *err, size_t errlen);

/* The same from bytes already in memory; path names them in messages. */
int imp_safetensors_parse(const unsigned char *buf, size_t len, const char *path,
                          struct imp_tensor_file *out, char *err, size_t errlen);
int imp_npy_parse(const unsigned char *buf, size_t len, const char *path,
                  struct imp_tensor_file *out, char *err, size_t errlen);

/* The tensor called name, or NULL. */
const struct imp_tensor *imp_tensor_find(const struct imp_tensor_file *f, const char *name);

void imp_tensor_file_free(struct imp_tensor_file *f);

/* ---- for the readers --------------------------------------------------------------------- */

/* err = "PATH: [tensor 'NAME': ]FIELD: WHAT", with path and name made safe to print. Returns -1. */
int imp_tensor_fail(char *err, size_t errlen, const char *path, const char *tensor,
                    const char *field, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* a * b into *out; false on overflow of 64 bits. */
bool imp_mul_u64(uint64_t a, uint64_t b, uint64_t *out);

#endif
