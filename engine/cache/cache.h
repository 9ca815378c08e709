/* The compile cache: code objects under $XDG_CACHE_HOME/kladder/code/BACKEND/KEY.bin.
 *
 * The key is a hash of everything that can change the code object (DESIGN: a key that forgets
 * one input is itself one of the cases): the backend, the target id (as much of it as the code
 * object depends on: a backend's cache_target), the compiler's identity and
 * version, every flag in order, the environment variables the inventory marks as key
 * (engine/toolchain/cache_env.h), the dialect header and the kernel source (hashed separately, so a change
 * to either one moves the key). engine/cache/cache_audit.h proves it, one input at a time. Entries are written atomically; a damaged or missing
 * entry is simply a miss. KLADDER_NO_CACHE=1 turns the cache off (reads and writes). */
#ifndef KL_ENGINE_CACHE_H
#define KL_ENGINE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/backend/backend.h"

struct eng_cache_key {
    const char *backend;
    const char *target;
    const char *compiler;      /* compiler_id() */
    const char *const *flags;  /* NULL-terminated, may be NULL */
    const char *header;        /* kernels/kl.h text */
    const char *source;        /* the kernel file's text */
    const char *env;           /* eng_cache_env_text(); NULL counts as "" */
};

/* A key function: eng_cache_key_hex, or a stand-in the audit is shown to catch. */
typedef void (*eng_cache_key_fn)(const struct eng_cache_key *k, char out[33]);

/* 32 hex digits and a NUL. */
void eng_cache_key_hex(const struct eng_cache_key *k, char out[33]);

/* The complete text handed to the compiler: the dialect header, then the kernel with its own
 * line numbers (so messages point into the kernel file). malloc'd. */
char *eng_source_join(const char *header, const char *file_name, const char *source);

/* eng_compile_cached with the key made by key_fn (NULL: eng_cache_key_hex) and the cache in
 * dir (NULL: $XDG_CACHE_HOME/kladder), for the warm-against-cold comparison
 * (engine/cache/cache_warm_cold.h); every run uses eng_compile_cached. */
int eng_compile_cached_key(const struct eng_backend *b, eng_cache_key_fn key_fn,
                           const char *dir, const char *target, const char *file_name, const char *header,
                           const char *source, const char *const *flags, void **code,
                           size_t *code_len, bool *hit, char *log, size_t loglen);

/* Compiles through the cache: on a hit *code is the cached object; on a miss the backend
 * compiles the joined source and the result is stored. *hit (may be NULL) says which.
 * Returns 0, or -1 with the compiler's log (or the reason) in log. *code is malloc'd. */
int eng_compile_cached(const struct eng_backend *b, const char *target, const char *file_name,
                       const char *header, const char *source, const char *const *flags,
                       void **code, size_t *code_len, bool *hit, char *log, size_t loglen);

#endif
