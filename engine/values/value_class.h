/* Value classes: input generators for the values a model really sends and random normal inputs
 * almost never contain (all-zero rows, exact ties, one dominant key, NaN...). Any rung may name
 * one as a buffer's "init"; rung 2 runs every class over every float input.
 *
 * A buffer is seen as rows: the last dimension is a row, every other dimension counts rows.
 * The padded columns of a row (pad_to on the last dimension) and the rows of padding are zero.
 * Classes apply to floating-point buffers (f32, bf16, fp8e4m3); integer inputs (indices,
 * lengths, ids) keep their own init, since a class value there would be out of range rather
 * than hard. Generation is on the host, deterministic in (class, dtype, geometry, seed), and
 * every value is exactly representable in the buffer's dtype unless the class is about values
 * that are not (under-fp8-min in fp8). */
#ifndef KL_ENGINE_VALUE_CLASS_H
#define KL_ENGINE_VALUE_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/values/dtype.h"

enum eng_vclass {
    ENG_VC_ZERO_ROWS,      /* every third row (row 0 first) all zeros, the others normal */
    ENG_VC_CONST_ROWS,     /* each row one value, different rows different values */
    ENG_VC_TIES,           /* each row holds 4 distinct values only: exact ties everywhere */
    ENG_VC_NEAR_TIES,      /* each row: one base value plus 0, 1 or 2 ulps of the dtype */
    ENG_VC_ONE_HOT,        /* one 1.0 per row (its column moves from row to row), 0 elsewhere */
    ENG_VC_PEAKED,         /* two dominant keys per row (8 and 4) over a N(0, 0.5) background:
                            * once normalised, the background weighs e^-8, under fp8 e4m3's 2^-9 */
    ENG_VC_IDENTICAL_ROWS, /* every row equal to the first (identical warm-up tokens) */
    ENG_VC_DISTINCT,       /* every element a different value (per-group biases that differ) */
    ENG_VC_NAN_INF,        /* normal values with NaN, +Inf or -Inf at one chosen column of each row
                            * but every fourth (r % 4 == 3: ordinary rows) */
    ENG_VC_DENORMALS,      /* subnormal values of the dtype, both signs */
    ENG_VC_UNDER_FP8_MIN,  /* magnitudes in [2^-10, 2^-9): under fp8 e4m3's smallest subnormal */
    ENG_VC_MAX_FINITE,     /* half the elements +-the dtype's largest finite value, in every row
                            * but every fourth (r % 4 == 3: ordinary rows) */
    ENG_VC_LARGE_MEAN,     /* N(0, 1) around a common mean of 128: exp past its range without
                            * the max subtracted, E[x^2] - E[x]^2 cancelling */
    ENG_VC_MAGNITUDE_LADDER, /* each row one magnitude M, 10^1, 10^2, ... up to 10^16 (10^4 in
                            * f16, 10^2 in fp8): values M * U(-1, 1) and +M at one column;
                            * every fourth row (r % 4 == 3) ordinary. An overflow at any
                            * magnitude between the ordinary and the domain (exp(0.125 x) past
                            * x = 710) is crossed inside the domain (docs/engine.md) */
    ENG_VC_COUNT
};

/* "zero-rows", "near-ties"...; the class named s, or -1. */
const char *eng_vclass_name(enum eng_vclass c);
int eng_vclass_find(const char *s);
/* "zero-rows const-rows ...", for messages. */
const char *eng_vclass_list(void);

/* True for the dtypes classes apply to (f32, bf16, fp8e4m3). */
bool eng_vclass_applies(enum eng_dtype d);

/* The column of row r that a class marks (one-hot's 1.0, nan-inf's special value). */
uint64_t eng_vclass_column(enum eng_vclass c, uint64_t row, uint64_t row_len, uint64_t seed);

/* Writes n elements of dtype d at out (element size eng_dtype_size(d)): rows of row_len values
 * laid out every row_stride elements (row_stride >= row_len; the rest of each stride and any
 * tail that is not a whole row are zero). */
void eng_vclass_fill(enum eng_vclass c, enum eng_dtype d, void *out, uint64_t n, uint64_t row_len,
                     uint64_t row_stride, uint64_t seed);
/* The same bits, on at most max_threads threads (engine/values/par_rows.h; eng_vclass_fill: as many as
 * the fill's size and the machine allow). */
void eng_vclass_fill_on(enum eng_vclass c, enum eng_dtype d, void *out, uint64_t n,
                        uint64_t row_len, uint64_t row_stride, uint64_t seed, unsigned max_threads);

/* Part part of nparts of the same fill: the rows n / row_stride * part / nparts up to the next
 * part's first, their whole strides written (the zeros too), and the last part the tail. The
 * nparts parts, in any order or at once, write every byte eng_vclass_fill writes, the same
 * bits: a fill made in the background (engine/session/input_prefetch.h) is one made on demand. */
void eng_vclass_fill_part(enum eng_vclass c, enum eng_dtype d, void *out, uint64_t n,
                          uint64_t row_len, uint64_t row_stride, uint64_t seed, unsigned part,
                          unsigned nparts);

/* How many threads a fill of n elements takes (at most most): KLADDER_FILL_THREADS, the
 * machine's cores and the fill's size bound it; 1 means the calling thread alone. */
unsigned eng_vclass_fill_threads(uint64_t n, unsigned most);

/* Element i of a buffer of dtype d as a float (for messages: "the input there is 16"). */
double eng_dtype_value(enum eng_dtype d, const void *buf, uint64_t i);

/* Host conversions that match kernels/kl.h bit for bit (round to nearest even; fp8 saturates
 * to +-448 and has no infinities; f16 overflows to infinity past 65504). */
uint16_t eng_f32_to_bf16(float f);
uint8_t eng_f32_to_fp8e4m3(float f);
uint16_t eng_f32_to_f16(float f);
float eng_bf16_to_f32(uint16_t b);
float eng_fp8e4m3_to_f32(uint8_t b);
float eng_f16_to_f32(uint16_t h);

#endif
