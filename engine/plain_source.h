/* Plain sources: a suite whose "source" is a .cu, .hip, .cuh or .cpp file as its author wrote it
 * (docs/kernels.md). Before it is compiled the engine
 *   - inlines its local includes ("x.cuh", found beside the including file, each once), with
 *     #line directives so that messages point into the file that has the line;
 *   - removes its vendor includes (cuda_runtime.h, cuda_fp16.h, cooperative_groups.h,
 *     hip/hip_runtime.h, ..., and the <cstdint>-style ones) where kladder's own headers serve
 *     (kernels/kl_vendor.h, put in front), and keeps them for a GPU compiler that has the
 *     vendor's, except the runtime headers its compiler declares by itself;
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
 * NULL with "FILE:LINE: what" in err for a local include that is not there, a header kladder
 * does not supply, or an entry point the source does not define. */
char *eng_suite_source(const struct eng_manifest *m, bool own_headers, char *err, size_t errlen);

/* A GPU compiler builds only the template instances something instantiates: for a plain source
 * on a backend that does not emulate, flags followed by one GPU_RTC_NAME_FLAG flag per entry the
 * manifest names that is no plain identifier (a NULL-terminated malloc'd array of malloc'd
 * strings); NULL when there is none (an emulating backend's launchers instantiate them). */
char **eng_plain_name_flags(const struct eng_manifest *m, bool emulated, const char *const *flags);

#endif
