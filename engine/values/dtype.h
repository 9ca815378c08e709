/* The element types of a suite's buffers (a manifest's "dtype"): how many bytes an element takes
 * and the 8-byte sentinel pattern the oracles look for. The names a manifest spells them with
 * are the parser's (engine/manifest.c); the codes are shared with kernels/util.kl. */
#ifndef KL_ENGINE_DTYPE_H
#define KL_ENGINE_DTYPE_H

#include <stddef.h>
#include <stdint.h>

enum eng_dtype { ENG_F32, ENG_BF16, ENG_FP8E4M3, ENG_I32, ENG_U32, ENG_I64, ENG_U8,
                 ENG_DTYPE_COUNT };

/* Bytes per element; 1 for a code out of range. */
size_t eng_dtype_size(enum eng_dtype d);
/* The 8-byte sentinel pattern of a dtype (a signaling NaN for f32 and bf16; 0x7f NaN for fp8;
 * 0xa5 bytes for integers), as kernels/util.kl uses it. */
uint64_t eng_dtype_sentinel(enum eng_dtype d);

#endif
