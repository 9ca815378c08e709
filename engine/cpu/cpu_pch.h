/* The cpu backend's precompiled system headers.
 *
 * A kernel compile spends about a third of its time parsing the C++ headers kernels/kl.h
 * includes (<cmath> above all), the same for every kernel. With GCC, those headers are compiled
 * once into a precompiled header kept in the cache folder ($XDG_CACHE_HOME/kladder/pch/KEY/,
 * KEY hashing the compiler's identity and the fixed options), and each compile includes it first.
 *
 * The object is byte for byte the one a compile without it gives: GCC itself rejects the
 * precompiled header where a macro it depends on is defined otherwise, and it is offered only
 * where every extra option is a macro definition (-D, -U): an optimisation or code generation
 * option would compile the headers' inline functions otherwise than the precompiled ones. No
 * precompiled header with clang (another format), with KLADDER_NO_CACHE set, or where building
 * it failed once (then every compile goes on without it). */
#ifndef KL_ENGINE_CPU_PCH_H
#define KL_ENGINE_CPU_PCH_H

#include <stdbool.h>
#include <stddef.h>

/* The header to pass as "-include PATH" for a compile by compiler (its path) whose --version
 * first line is compiler_id, with the fixed options fixed[0..nfixed) (the temporary folder's
 * -ffile-prefix-map left out) and the extra options flags (NULL-terminated, may be NULL);
 * NULL: compile without one. Builds it on first use; static storage until the next call. */
const char *cpu_pch_include(const char *compiler, const char *compiler_id,
                            char *const *fixed, size_t nfixed, const char *const *flags);

/* Whether a failed compile's log blames the precompiled header (then it is compiled again
 * without it, and none is offered again in this process). */
bool cpu_pch_blamed(const char *log);

#endif
