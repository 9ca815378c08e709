/* A prebuilt GPU binary, whatever its format, as the engine needs it: which kernels it holds,
 * each one's parameters (offset, size, pointer or value, where the format says), and its launch
 * facts (wave size, static LDS/shared bytes, workgroup limit). Formats:
 *
 *   - an AMDGPU code object (.hsaco, .co): engine/codeobj/amdgpu_co.h, its metadata note;
 *   - a clang offload bundle: the entry for the processor asked for (offload_bundle.h);
 *   - an NVIDIA cubin: engine/codeobj/cubin_info.h, its .nv.info attributes;
 *   - PTX text: engine/codeobj/ptx_entry.h, its .entry parameter lists.
 *
 * Kernels are found by name: the symbol itself, or the name a C++ symbol was mangled from
 * ("scale" finds _Z5scalePfi, "ns::scale" finds _ZN2ns5scaleEPfi, "scale<256>" finds the
 * instance whose template arguments spell 256 when only one matches the base name). Facts a
 * format does not state are -1. The input is untrusted (each reader checks every offset). */
#ifndef KL_ENGINE_GPU_BINARY_H
#define KL_ENGINE_GPU_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gpu_binary_format { GPU_BIN_AMDGPU, GPU_BIN_BUNDLE, GPU_BIN_CUBIN, GPU_BIN_PTX };
enum gpu_param_kind { GPU_PARAM_UNKNOWN, GPU_PARAM_POINTER, GPU_PARAM_VALUE };

struct gpu_param {
    int64_t offset, size;
    enum gpu_param_kind kind;
    char what[32];            /* the format's own word: "global_buffer", "by_value", ".ptr" */
};

struct gpu_kernel_info {
    char name[256];           /* the symbol a loader looks up */
    int wave;                 /* 32 or 64; -1 unknown */
    int64_t shared_bytes;     /* static LDS / shared memory per block */
    int64_t max_threads;      /* the largest block it may be launched with */
    int nparams;              /* -1: the format does not list them */
    struct gpu_param *params; /* malloc'd */
};

struct gpu_binary {
    enum gpu_binary_format format;
    char target[64];          /* "gfx1250", "sm_90"; "" when the binary names none */
    const void *image;        /* what a loader takes: the input, or the bundle's entry (points
                               * into the input, which must outlive this) */
    size_t image_len;
    size_t nkernels;
    struct gpu_kernel_info *kernels; /* malloc'd */
};

/* "AMDGPU code object", "offload bundle", "cubin", "PTX". */
const char *gpu_binary_format_name(enum gpu_binary_format f);

/* Whether data is a GPU binary of one of the formats (by its magic, no full read). */
bool gpu_binary_is(const void *data, size_t len);

/* Reads data[0..len). processor picks a bundle's entry (NULL or "": its only one). 0, or -1
 * with a reason in err (without the file name). Free with gpu_binary_free. */
int gpu_binary_read(const void *data, size_t len, const char *processor, struct gpu_binary *out,
                    char *err, size_t errlen);
void gpu_binary_free(struct gpu_binary *b);

/* The kernel called name (see above), or NULL with a reason in err: none, listing the kernels
 * there are, or several, listing them. */
const struct gpu_kernel_info *gpu_binary_find(const struct gpu_binary *b, const char *name,
                                              char *err, size_t errlen);

#endif
