/* Plain sources: a suite whose "source" is a .cu, .hip, .cuh or .cpp file as its author wrote it
 * (docs/kernels.md), a whole translation unit: host code compiles and is ignored, only the
 * entry points the manifest names run. Before it is compiled the engine
 *   - inlines its local includes ("x.cuh", found beside the including file, else in the
 *     manifest's include_dirs, as is a <x.h> found there; each once, a byte-order mark
 *     skipped), with #line directives so that messages point into the file that has the
 *     line; a quoted standard header not beside it is the system's;
 *   - leaves every include it cannot serve to the preprocessor, so that one in a branch the
 *     preprocessor does not take is never looked up: a local one not found becomes an #error
 *     at its line; any other <header> stays for the compiler to find among its own (on the
 *     cpu backend with kladder's device macros hidden from it, and an #error at its line
 *     where the compiler has none). What the compiler then reads is judged by its own
 *     preprocessor (engine/toolchain/preproc_confine.h);
 *   - puts the manifest's defines in front, as -D does;
 *   - removes its vendor includes (cuda_runtime.h, cuda_fp16.h, cooperative_groups.h,
 *     hip/hip_runtime.h, ...) where kladder's own headers serve (kernels/kl_vendor.h, put in
 *     front), and keeps them for a GPU compiler that has the vendor's, except the runtime
 *     headers its compiler declares by itself (a .hip source's HIP headers become CUDA's
 *     under a CUDA compiler, engine/compile/host_headers.h);
 *   - on the cpu backend: hoists the standard library headers it includes in front of
 *     kladder's, puts kernels/kl_host.h (the vendors' host API, declared only) after
 *     kl_vendor.h in place of cuBLAS/cuBLASLt/hipBLAS includes, writes a host launch
 *     `k<<<...>>>(args)` as the plain call `k(args)`, and points the entry of a kernel whose
 *     name a host function overloads at the kernel itself;
 *   - on a GPU backend: marks the text a whole unit (GPU_RTC_WHOLE_UNIT, for nvcc) and keeps
 *     the C library includes for an offline compiler (guarded from run-time ones);
 *   - writes `extern __shared__ T name[];` as KL_EXTERN_SHARED(name, T) (the cpu backend has no
 *     extern thread-local arrays);
 *   - appends KL_ENTRY(symbol, entry) for each entry point the manifest names, so no
 *     KL_EXPORT line is needed and a template instance named there is instantiated.
 * Kernels in the dialect (.kl) pass through unchanged. */
#ifndef KL_ENGINE_PLAIN_SOURCE_H
#define KL_ENGINE_PLAIN_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/manifest.h"

/* The suite's source ready for the compiler (malloc'd): eng_manifest_source, and for a plain
 * source the steps above; own_headers says whether kladder's headers stand in for the vendor's.
 * NULL with "FILE:LINE: what" in err for an #include with no name, includes nested past 16,
 * or an entry point the source does not define or that is
 * no __global__ function of it. */
char *eng_suite_source(const struct eng_manifest *m, bool own_headers, char *err, size_t errlen);

/* A GPU compiler builds only the template instances something instantiates: for a plain source
 * on a backend that does not emulate, flags followed by one GPU_RTC_NAME_FLAG flag per entry the
 * manifest names that is no plain identifier (a NULL-terminated malloc'd array of malloc'd
 * strings); NULL when there is none (an emulating backend's launchers instantiate them). */
char **eng_plain_name_flags(const struct eng_manifest *m, bool emulated, const char *const *flags);

/* The __global__ functions of a plain source as the walk above finds them (in the file and its
 * local includes), by the name they are defined with, each once (a declaration and its
 * definition are one), and whether each is a template. by_macro: a macro defines kernels, so
 * the list may miss some. */
struct eng_plain_kernels {
    char **names;
    bool *templates;
    size_t n;
    bool by_macro;
};

/* Where kladder's headers serve, each kernel that is no template is followed (on its last
 * line) by a function of no use named this prefix, its name, '_' and a number: in the object
 * exactly when the kernel's definition is, so that a kernel missing from an object can be told
 * apart as one under a preprocessor branch not taken. */
#define ENG_PLAIN_SEEN_PREFIX "kl_cpu_seen_"

/* Fills out (free with eng_plain_kernels_free, also after a failure). 0, or -1 with
 * "FILE:LINE: what" in err when the source or a local include cannot be read. */
int eng_plain_kernels(const struct eng_manifest *m, bool own_headers, struct eng_plain_kernels *out,
                      char *err, size_t errlen);
void eng_plain_kernels_free(struct eng_plain_kernels *k);

#endif
