/* Element sizes and sentinel patterns of the buffer dtypes; see dtype.h. Apart from the
 * manifest's parser so that what needs only the sizes (the value classes) does not need the
 * parser, which needs them. */
#include "engine/values/dtype.h"

static const size_t dtype_sizes[ENG_DTYPE_COUNT] = {4, 2, 1, 4, 4, 8, 1, 2};

const char *const eng_dtype_names[ENG_DTYPE_COUNT] = {"f32", "bf16", "fp8e4m3", "i32",
                                                      "u32", "i64",  "u8",      "f16"};

const char *eng_dtype_name(enum eng_dtype d)
{
    return (unsigned)d < ENG_DTYPE_COUNT ? eng_dtype_names[d] : "?";
}

size_t eng_dtype_size(enum eng_dtype d) { return d < ENG_DTYPE_COUNT ? dtype_sizes[d] : 1; }

uint64_t eng_dtype_sentinel(enum eng_dtype d)
{
    switch (d) {
    case ENG_F32: return 0x7fa5a5a57fa5a5a5ull;
    case ENG_BF16: return 0x7fa57fa57fa57fa5ull;
    case ENG_F16: return 0x7ca57ca57ca57ca5ull; /* exponent all ones, quiet bit clear */
    case ENG_FP8E4M3: return 0x7f7f7f7f7f7f7f7full;
    default: return 0xa5a5a5a5a5a5a5a5ull;
    }
}
