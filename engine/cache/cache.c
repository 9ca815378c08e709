#include "engine/cache/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/hash.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "engine/toolchain/cache_env.h"

/* Bumped when the layout of what is hashed changes, so old entries stop matching. */
#define CACHE_FORMAT "kladder-code-cache 2"

void eng_cache_key_hex(const struct eng_cache_key *k, char out[33])
{
    struct hash_state h;
    hash_init(&h);
    hash_str(&h, CACHE_FORMAT);
    hash_str(&h, k->backend);
    hash_str(&h, k->target);
    hash_str(&h, k->compiler);
    size_t n = 0;
    while (k->flags && k->flags[n])
        n++;
    hash_bytes(&h, &n, sizeof n);
    for (size_t i = 0; i < n; i++)
        hash_str(&h, k->flags[i]);
    hash_str(&h, k->env ? k->env : "");
    hash_str(&h, k->header);
    hash_str(&h, k->source);
    hash_hex(&h, out);
}

char *eng_source_join(const char *header, const char *file_name, const char *source)
{
    return xasprintf("%s\n#line 1 \"%s\"\n%s", header, file_name, source);
}

int eng_compile_cached(const struct eng_backend *b, const char *target, const char *file_name,
                       const char *header, const char *source, const char *const *flags,
                       void **code, size_t *code_len, bool *hit, char *log, size_t loglen)
{
    return eng_compile_cached_key(b, NULL, NULL, target, file_name, header, source, flags, code,
                                  code_len, hit, log, loglen);
}

int eng_compile_cached_key(const struct eng_backend *b, eng_cache_key_fn key_fn,
                           const char *cache_dir, const char *target, const char *file_name, const char *header,
                           const char *source, const char *const *flags, void **code,
                           size_t *code_len, bool *hit, char *log, size_t loglen)
{
    char *env = eng_cache_env_text(NULL, NULL);
    const char *compiler = b->compiler_for ? b->compiler_for(target) : b->compiler_id();
    char key_target[96];
    if (b->cache_target)
        b->cache_target(target, key_target, sizeof key_target);
    else
        snprintf(key_target, sizeof key_target, "%s", target ? target : "");
    struct eng_cache_key k = {b->name, key_target, compiler ? compiler : "none", flags, header,
                              source, env};
    char key[33];
    (key_fn ? key_fn : eng_cache_key_hex)(&k, key);
    free(env);
    char *dir = cache_dir ? xstrdup(cache_dir) : paths_cache_dir();
    char *sub = xasprintf("%s/code/%s", dir, b->name);
    char *path = xasprintf("%s/%s.bin", sub, key);
    free(dir);
    bool use = eng_compile_cache_enabled();
    int rc = -1;
    if (hit)
        *hit = false;
    if (use) {
        char err[256];
        size_t len;
        char *data = file_read_all(path, &len, err, sizeof err);
        if (data && len > 0) {
            *code = data;
            *code_len = len;
            if (hit)
                *hit = true;
            rc = 0;
            goto out;
        }
        free(data);
    }
    char *full = eng_source_join(header, file_name, source);
    rc = b->compile(target, full, file_name, flags, code, code_len, log, loglen);
    free(full);
    if (rc == 0 && use) {
        /* A cache that cannot be written only costs time; the compile still succeeded. */
        char err[256];
        if (file_mkdirs(sub, err, sizeof err) == 0)
            file_write_atomic(path, *code, *code_len, err, sizeof err);
    }
out:
    free(sub);
    free(path);
    return rc;
}
