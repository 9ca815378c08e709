/* A plain CUDA source compiled whole by the toolkit's nvcc (docs/kernels.md): the file as its
 * author builds it, host code and library headers included (nvcc parses the host code and
 * drops it: -cubin keeps the device code only). The cuda backend takes this path for a source
 * engine/compile/plain_source.c marked a whole translation unit (GPU_RTC_WHOLE_UNIT) when nvcc is
 * there, and NVRTC otherwise and for kladder's dialect. */
#ifndef KL_ENGINE_CUDA_NVCC_H
#define KL_ENGINE_CUDA_NVCC_H

#include <stdbool.h>
#include <stddef.h>

/* nvcc's path into out: $KLADDER_NVCC, else bin/nvcc of the toolkit whose library folder
 * holds rtc_lib (NVRTC's path; may be empty), else /usr/local/cuda/bin/nvcc, else nvcc on
 * $PATH. false when there is none. */
bool cuda_nvcc_find(const char *rtc_lib, char *out, size_t outlen);

/* What identifies nvcc's output, for the compile cache's key and the compile line: its path and
 * the build line of `nvcc --version` ("Build cuda_13.0.r13.0/compiler.36424714_0"), so a toolkit
 * upgraded in place misses the cache. Asked once per path; NULL when there is no nvcc. */
const char *cuda_nvcc_id(const char *rtc_lib);

/* Compiles source for target (sm_XY) into a CUBIN with nvcc: flags are passed on (-D, -I, ...)
 * except each GPU_RTC_NAME_FLAG "f<1>", which instantiates f<1> instead (its address taken at
 * the end of the unit). 0 with *code malloc'd, or -1 with nvcc's messages in log. */
int cuda_nvcc_compile(const char *nvcc, const char *target, const char *source,
                      const char *const *flags, void **code, size_t *code_len, char *log,
                      size_t loglen);

#endif
