/* Warm against cold (engine/cache/cache_warm_cold.h). */
#include "engine/cache/cache_warm_cold.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "engine/toolchain/cache_env.h"

/* Removes the temporary cache: DIR/code/BACKEND/KEY.bin and the folders above them. */
static void remove_cache(const char *dir, const char *backend)
{
    char *sub = xasprintf("%s/code/%s", dir, backend);
    DIR *d = opendir(sub);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *f = xasprintf("%s/%s", sub, e->d_name);
        unlink(f);
        free(f);
    }
    if (d)
        closedir(d);
    rmdir(sub);
    free(sub);
    sub = xasprintf("%s/code", dir);
    rmdir(sub);
    free(sub);
    rmdir(dir);
}

static void flags_text(const char *const *flags, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; flags && flags[i] && used + 1 < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? " " : "", flags[i]);
    if (!flags || !flags[0])
        snprintf(out, n, "(no flags)");
}

void eng_cache_key_without_flags(const struct eng_cache_key *k, char out[33])
{
    struct eng_cache_key c = *k;
    c.flags = NULL;
    eng_cache_key_hex(&c, out);
}

int eng_cache_warm_cold(const struct eng_backend *b, eng_cache_key_fn key_fn, const char *target,
                        const char *file, const char *header, const char *source,
                        const char *const *const *sets, size_t nsets, char *report, size_t n,
                        char *err, size_t errlen)
{
    const char *t = eng_compile_getenv("TMPDIR");
    char *dir = xasprintf("%s/kladder-warm-cold-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "cannot create a temporary cache folder %s", dir);
        free(dir);
        return -1;
    }
    if (n)
        report[0] = '\0';
    size_t used = 0;
    int differ = 0, rc = 0;
    char *full = eng_source_join(header, file, source);
    for (size_t i = 0; i < nsets && rc == 0; i++) {
        void *warm = NULL, *cold = NULL;
        size_t wl = 0, cl = 0;
        bool hit = false;
        char log[2048];
        char fl[512];
        flags_text(sets[i], fl, sizeof fl);
        if (eng_compile_cached_key(b, key_fn, dir, target, file, header, source, sets[i], &warm,
                                   &wl, &hit, log, sizeof log) != 0 ||
            b->compile(target, full, file, sets[i], &cold, &cl, log, sizeof log) != 0) {
            snprintf(err, errlen, "compiling %s with %s: %.1500s", file, fl, log);
            rc = -1;
        } else if (wl != cl || memcmp(warm, cold, wl) != 0) {
            differ++;
            if (used + 1 < n)
                used += (size_t)snprintf(report + used, n - used,
                                         "%s: the warm cache%s gave another code object than a "
                                         "cold compile\n",
                                         fl, hit ? " (a hit: an earlier configuration's entry)"
                                                 : "");
            if (used >= n)
                used = n - 1;
        }
        free(warm);
        free(cold);
    }
    free(full);
    remove_cache(dir, b->name);
    free(dir);
    return rc ? -1 : differ;
}
