/* The element types of a suite's buffers (a manifest's "dtype"): how many bytes an element takes
 * and the 8-byte sentinel pattern the oracles look for. The names a manifest spells them with
 * are the parser's (engine/manifest.c); the codes are shared with kernels/util.kl. */
#ifndef KL_ENGINE_DTYPE_H
#define KL_ENGINE_DTYPE_H

#include <stddef.h>
#include <stdint.h>

/* ENG_F16 came last: the codes are kernels/util.kl's too, and the ones before it keep theirs. */
enum eng_dtype { ENG_F32, ENG_BF16, ENG_FP8E4M3, ENG_I32, ENG_U32, ENG_I64, ENG_U8, ENG_F16,
                 ENG_DTYPE_COUNT };

/* The names a manifest spells the dtypes with ("f32", "bf16", "fp8e4m3", "i32", "u32", "i64",
 * "u8", "f16"), indexed by code. */
extern const char *const eng_dtype_names[ENG_DTYPE_COUNT];

/* A dtype's name, "?" for a code out of range. */
const char *eng_dtype_name(enum eng_dtype d);

/* Bytes per element; 1 for a code out of range. */
size_t eng_dtype_size(enum eng_dtype d);
/* The 8-byte sentinel pattern of a dtype (a signaling NaN for f32, bf16 and f16; 0x7f NaN for fp8;
 * 0xa5 bytes for integers), as kernels/util.kl uses it. */
uint64_t eng_dtype_sentinel(enum eng_dtype d);

#endif
