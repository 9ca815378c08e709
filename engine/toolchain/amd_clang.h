/* AMD code objects built offline with clang's own HIP device compilation (Debian's clang-22
 * knows gfx1250, gfx1251, gfx950 and gfx942, which the hipRTC of older ROCm releases does not).
 * The hip backend uses it for a target its hipRTC lacks, or for every target when
 * KLADDER_HIP_COMPILER=clang, and for a plain source compiled whole (amd_clang_compile_whole);
 * docs/gpu.md describes the path, its flags and its limits.
 *
 * The compiler is $KLADDER_CLANG when set, else clang-22 on $PATH. It runs with no HIP headers
 * and no device library (-nogpuinc -nogpulib): kernels/kl.h supplies the device API itself
 * under KL_HIP_BARE. The result is a bare code object (an AMDGPU ELF), not an offload bundle,
 * which hipModuleLoadData accepts as it is. */
#ifndef KL_ENGINE_AMD_CLANG_H
#define KL_ENGINE_AMD_CLANG_H

#include <stdbool.h>
#include <stddef.h>

/* The compiler's identity for cache keys: its --version line and every fixed option, e.g.
 * "Debian clang version 22.1.8 (1~deb12u1) [-x hip ... -DKL_HIP_BARE]"; static storage. NULL
 * when no clang is found (why says what was looked for, why may be NULL). */
const char *amd_clang_id(char *why, size_t whylen);

/* Compiles the joined source (kl.h already prepended; name for messages) for target (a gfx
 * processor id) with the extra flags (NULL-terminated, may be NULL). 0 with *code malloc'd,
 * or -1 with clang's messages (or the reason it could not run) in log. */
int amd_clang_compile(const char *target, const char *source, const char *name,
                      const char *const *flags, void **code, size_t *code_len, char *log,
                      size_t loglen);

/* A plain source compiled whole (docs/kernels.md): the identity of the compile below for cache
 * keys (amd_clang_id plus the header mode), NULL without clang; static storage. */
const char *amd_clang_whole_id(void);

/* Compiles a whole translation unit, host code and all, for target: -x hip
 * --offload-device-only -O3 (host code parsed and dropped), with ROCm's HIP headers and device
 * library when amd_clang_rocm finds them, else -nogpuinc -nogpulib and kladder's own (kl.h's KL_HIP_BARE device API,
 * kl_host.h's host declarations under KL_HIP_WHOLE). Returns as amd_clang_compile. */
int amd_clang_compile_whole(const char *target, const char *source, const char *name,
                            const char *const *flags, void **code, size_t *code_len, char *log,
                            size_t loglen);

#endif
