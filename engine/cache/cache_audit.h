/* The cache-key audit (rung 7): change one input of a compile at a time and require the cache
 * key to change; a key that stays put for some input would hand a kernel compiled for one
 * situation to another (flydsl-1277). The inputs: the backend, the target, the compiler
 * identity, each flag (dropped, and the order of the first two), one flag added, the dialect
 * header, the kernel source, and each environment variable the inventory marks as key
 * (engine/toolchain/cache_env.h), set to a new value and unset. Any variable the compile path read that
 * the inventory lacks fails the audit too, by name. */
#ifndef KL_ENGINE_CACHE_AUDIT_H
#define KL_ENGINE_CACHE_AUDIT_H

#include <stddef.h>

#include "engine/cache/cache.h"
#include "engine/toolchain/cache_env.h"

/* Audits key_fn around base (base->env is ignored: the environment comes from get, NULL for
 * getenv). Writes one line per finding to report (n bytes, always NUL-terminated) and returns
 * the number of findings; 0 means every input moves the key. */
size_t eng_cache_audit(eng_cache_key_fn key_fn, const struct eng_cache_key *base,
                       eng_env_get_fn get, void *arg, char *report, size_t n);

#endif
