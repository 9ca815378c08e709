/* Warm against cold (rung 7, flydsl-1277): a kernel compiled through a cache that earlier
 * compiles have filled must be the kernel a cold compile makes. A key that forgets an input —
 * a specialisation value passed as a flag, an environment variable — hands back the object
 * built for the earlier configuration, and only a warm cache shows it.
 *
 * Each configuration (a flag set) is compiled in order through a fresh cache in a temporary
 * folder, so every one after the first finds the cache warm, and once with no cache at all;
 * the two code objects must be byte for byte the same (the compilers kladder drives are
 * deterministic: the same input gives the same bytes). */
#ifndef KL_ENGINE_CACHE_WARM_COLD_H
#define KL_ENGINE_CACHE_WARM_COLD_H

#include <stddef.h>

#include "engine/backend/backend.h"
#include "engine/cache/cache.h"

/* sets[i] is a NULL-terminated flag list. Writes one line per configuration whose warm object
 * differs from its cold one into report and returns how many; -1 with a message in err when a
 * compile fails or the temporary cache cannot be made. */
int eng_cache_warm_cold(const struct eng_backend *b, eng_cache_key_fn key_fn, const char *target,
                        const char *file, const char *header, const char *source,
                        const char *const *const *sets, size_t nsets, char *report, size_t n,
                        char *err, size_t errlen);

/* flydsl-1277's buggy key, kept as the reproducer's buggy variant: every input but the flags,
 * as FlyDSL's per-function key hashed only scalar closure values and skipped the configuration
 * object the kernel was specialised on. */
void eng_cache_key_without_flags(const struct eng_cache_key *k, char out[33]);

#endif
