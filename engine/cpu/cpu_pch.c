/* The cpu backend's precompiled system headers (cpu_pch.h). */
#include "engine/cpu/cpu_pch.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/hash.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "engine/toolchain/cache_env.h"
#include "engine/toolchain/tool_run.h"

/* What kernels/kl.h includes on the cpu backend, in its order: the precompiled header holds
 * these and nothing else, so a kernel sees the same declarations with it or without it. */
static const char header_text[] =
    "/* kladder: the system headers kernels/kl.h includes on the cpu backend */\n"
    "#include <cmath>\n#include <cstring>\n#include <ctime>\n#include <utility>\n";

static bool given_up;        /* building it failed, or the compiler blamed it */
static char ready_key[33];   /* the key of the last one found or built */
static char include_path[4096];

/* Only macro definitions may differ from the options the header was compiled with. */
static bool flags_allow(const char *const *flags)
{
    for (size_t i = 0; flags && flags[i]; i++)
        if (strncmp(flags[i], "-D", 2) != 0 && strncmp(flags[i], "-U", 2) != 0)
            return false;
    return true;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* Builds KEY's folder under a temporary name beside it and renames it into place: a reader
 * sees a complete folder or none; of two builders at once, the second rename fails and the
 * first one's folder stays. */
static bool build(const char *compiler, char *const *fixed, size_t nfixed, const char *dir)
{
    char *tmp = xasprintf("%s.tmp-%ld", dir, (long)getpid());
    char *h = xasprintf("%s/kl_sys.h", tmp), *gch = xasprintf("%s/kl_sys.h.gch", tmp);
    char err[256], log[2048];
    bool ok = false;
    if (file_mkdirs(tmp, err, sizeof err) == 0 &&
        file_write_atomic(h, header_text, sizeof header_text - 1, err, sizeof err) == 0) {
        char **argv = xcalloc(nfixed + 8, sizeof *argv);
        size_t a = 0;
        static char o_x[] = "-x", o_hdr[] = "c++-header", o_out[] = "-o";
        argv[a++] = (char *)(uintptr_t)compiler;
        for (size_t i = 0; i < nfixed; i++)
            argv[a++] = fixed[i];
        argv[a++] = o_x;
        argv[a++] = o_hdr;
        argv[a++] = h;
        argv[a++] = o_out;
        argv[a++] = gch;
        char **env = eng_compile_child_env();
        ok = eng_tool_run_env(argv, env, log, sizeof log) == 0 && exists(gch);
        eng_compile_child_env_free(env);
        free(argv);
    }
    if (ok && rename(tmp, dir) != 0) {
        char *theirs = xasprintf("%s/kl_sys.h.gch", dir);
        ok = exists(theirs);
        free(theirs);
    }
    if (!ok || exists(h)) { /* the rename lost (or never happened): clear the temporary folder */
        unlink(gch);
        unlink(h);
        rmdir(tmp);
    }
    free(h);
    free(gch);
    free(tmp);
    return ok;
}

const char *cpu_pch_include(const char *compiler, const char *compiler_id,
                            char *const *fixed, size_t nfixed, const char *const *flags)
{
    if (given_up || !flags_allow(flags) || strstr(compiler_id, "clang") ||
        !eng_compile_cache_enabled())
        return NULL;
    struct hash_state hs;
    hash_init(&hs);
    hash_str(&hs, "kladder-cpu-pch 1");
    hash_str(&hs, compiler);
    hash_str(&hs, compiler_id);
    for (size_t i = 0; i < nfixed; i++)
        hash_str(&hs, fixed[i]);
    hash_str(&hs, header_text);
    char key[33];
    hash_hex(&hs, key);
    if (strcmp(key, ready_key) == 0)
        return include_path;
    char *cache = paths_cache_dir();
    char *dir = xasprintf("%s/pch/%s", cache, key);
    char *gch = xasprintf("%s/kl_sys.h.gch", dir);
    char err[256];
    char *parent = xasprintf("%s/pch", cache);
    bool ok = exists(gch) ||
              (file_mkdirs(parent, err, sizeof err) == 0 && build(compiler, fixed, nfixed, dir));
    if (ok) {
        snprintf(include_path, sizeof include_path, "%s/kl_sys.h", dir);
        memcpy(ready_key, key, sizeof key);
    } else {
        given_up = true;
    }
    free(parent);
    free(gch);
    free(dir);
    free(cache);
    return ok ? include_path : NULL;
}

bool cpu_pch_blamed(const char *log)
{
    if (!log || !(strstr(log, "kl_sys.h") || strstr(log, ".gch") || strstr(log, "PCH")))
        return false;
    /* removed, so that the next process builds it again instead of failing the same way */
    if (ready_key[0]) {
        char *gch = xasprintf("%s.gch", include_path);
        unlink(gch);
        unlink(include_path);
        char *dir = xstrdup(include_path);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            rmdir(dir);
        }
        free(dir);
        free(gch);
    }
    given_up = true;
    ready_key[0] = '\0';
    return true;
}
