#include "engine/toolchain/amd_clang.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "engine/toolchain/cache_env.h"
#include "engine/toolchain/preproc_confine.h"
#include "engine/toolchain/tool_run.h"

extern char **environ;

/* Every option that shapes the code object besides the target and the caller's flags; they are
 * part of the identity, so changing one moves every cache key. */
static const char *const fixed_opts[] = {
    "-x", "hip", "-nogpulib", "-nogpuinc", "--offload-device-only", "--no-gpu-bundle-output",
    "-O3", "-DKL_HIP_BARE", NULL,
};

static struct {
    int state; /* 0 not tried, 1 found, -1 not found */
    char path[PATH_MAX];
    char id[512];
    char why[512];
} C;

const char *amd_clang_id(char *why, size_t whylen)
{
    if (C.state == 0) {
        const char *env = eng_compile_getenv("KLADDER_CLANG");
        const char *name = env && *env ? env : "clang-22";
        C.state = -1;
        char out[1024];
        if (!eng_tool_find(name, C.path, sizeof C.path)) {
            snprintf(C.why, sizeof C.why, "%s not found%s (install clang-22 and lld-22, or set "
                     "KLADDER_CLANG)", name, env && *env ? "" : " on PATH");
        } else {
            static char opt_version[] = "--version";
            char *argv[] = {C.path, opt_version, NULL};
            int st = eng_tool_run(argv, out, sizeof out);
            char *nl = strchr(out, '\n');
            if (nl)
                *nl = '\0';
            if (st != 0 || !strstr(out, "clang version")) {
                snprintf(C.why, sizeof C.why, "%.200s --version did not say it is clang (status "
                         "%d: %.200s)", C.path, st, out);
            } else {
                size_t len = (size_t)snprintf(C.id, sizeof C.id, "%s [", out);
                for (size_t i = 0; fixed_opts[i] && len < sizeof C.id; i++)
                    len += (size_t)snprintf(C.id + len, sizeof C.id - len, "%s%s",
                                            i ? " " : "", fixed_opts[i]);
                if (len < sizeof C.id)
                    snprintf(C.id + len, sizeof C.id - len, "]");
                C.state = 1;
            }
        }
    }
    if (C.state < 0 && why && whylen)
        snprintf(why, whylen, "%s", C.why);
    return C.state > 0 ? C.id : NULL;
}

/* Runs clang on source for target: the fixed options opts, then the caller's flags; 0 with
 * *code malloc'd, or -1 with clang's messages in log. */
static int run_clang(const char *target, const char *source, const char *name,
                     const char *const *opts, const char *const *flags, void **code,
                     size_t *code_len, char *log, size_t loglen)
{
    *code = NULL;
    *code_len = 0;
    if (!amd_clang_id(log, loglen))
        return -1;
    if (!target || strncmp(target, "gfx", 3) != 0) {
        snprintf(log, loglen, "clang: target \"%s\" is not a gfx processor id", target ? target : "");
        return -1;
    }
    char err[512];
    char *dir = eng_tool_tmpdir("kladder-clang", err, sizeof err);
    if (!dir) {
        snprintf(log, loglen, "clang: %s", err);
        return -1;
    }
    char *src = xasprintf("%s/kernel.hip", dir);
    char *obj = xasprintf("%s/kernel.co", dir);
    char *arch = xasprintf("--offload-arch=%s", target);
    int rc = -1;
    if (file_write_atomic(src, source, strlen(source), err, sizeof err) != 0) {
        snprintf(log, loglen, "clang: %s", err);
        goto out;
    }
    size_t nflags = 0, nfixed = 0;
    while (flags && flags[nflags])
        nflags++;
    while (opts[nfixed])
        nfixed++;
    const char **argv = xcalloc(nfixed + nflags + 8, sizeof *argv);
    size_t a = 0;
    argv[a++] = C.path;
    argv[a++] = arch;
    for (size_t i = 0; i < nfixed; i++)
        argv[a++] = opts[i];
    for (size_t i = 0; i < nflags; i++)
        argv[a++] = flags[i];
    /* first the preprocessor alone, with the same options: every file it reaches must be the
     * compiler's own or this folder's (engine/toolchain/preproc_confine.h) */
    char *pre = xasprintf("%s/kernel.ii", dir);
    argv[a] = "-E";
    argv[a + 1] = "-o";
    argv[a + 2] = pre;
    argv[a + 3] = src;
    argv[a + 4] = NULL;
    /* posix_spawn's argv is char *const[] for historical reasons; nothing writes through it. */
    char *const *args;
    memcpy(&args, &argv, sizeof args);
    const char *roots[] = {dir, NULL};
    int st = eng_preproc_confine(args, environ, eng_compile_limit_s(), pre, roots, log, loglen);
    free(pre);
    argv[a++] = "-o";
    argv[a++] = obj;
    argv[a++] = src;
    argv[a] = NULL;
    if (st == 0) {
        st = eng_tool_run_limit(args, environ, eng_compile_limit_s(), log, loglen);
        if (st == ENG_TOOL_TIMED_OUT)
            snprintf(log, loglen, "clang: the compile of %s for %s did not finish within %g s "
                     "(KLADDER_COMPILE_TIMEOUT) and was stopped", name ? name : "the kernel",
                     target, eng_compile_limit_s());
    }
    free(argv);
    if (st != 0) {
        if (log && loglen && log[0] == '\0')
            snprintf(log, loglen, "%s exited with status %d compiling %s for %s", C.path, st,
                     name ? name : "the kernel", target);
        goto out;
    }
    char *data = file_read_all(obj, code_len, err, sizeof err);
    if (!data || *code_len == 0) {
        free(data);
        *code_len = 0;
        snprintf(log, loglen, "clang wrote no code object for %s: %s", target, err);
        goto out;
    }
    *code = data;
    if (log && loglen)
        log[0] = '\0';
    rc = 0;
out:
    unlink(src);
    unlink(obj);
    rmdir(dir);
    free(src);
    free(obj);
    free(arch);
    free(dir);
    return rc;
}

int amd_clang_compile(const char *target, const char *source, const char *name,
                      const char *const *flags, void **code, size_t *code_len, char *log,
                      size_t loglen)
{
    return run_clang(target, source, name, fixed_opts, flags, code, code_len, log, loglen);
}

/* ROCm's root (the folder whose include/hip/hip_runtime.h exists: $ROCM_PATH, else
 * /opt/rocm) into root; false when there is none. */
static bool amd_clang_rocm(char *root, size_t rootlen)
{
    const char *env = eng_compile_getenv("ROCM_PATH");
    const char *roots[] = {env && *env ? env : NULL, "/opt/rocm"};
    for (size_t i = 0; i < 2; i++) {
        if (!roots[i])
            continue;
        char probe[PATH_MAX + 32];
        snprintf(probe, sizeof probe, "%s/include/hip/hip_runtime.h", roots[i]);
        if (access(probe, R_OK) == 0) {
            snprintf(root, rootlen, "%s", roots[i]);
            return true;
        }
    }
    return false;
}

const char *amd_clang_whole_id(void)
{
    static char id[PATH_MAX + 640];
    const char *base = amd_clang_id(NULL, 0);
    if (!base)
        return NULL;
    int version = (int)strcspn(base, "[");
    while (version > 0 && base[version - 1] == ' ')
        version--;
    char root[PATH_MAX];
    if (amd_clang_rocm(root, sizeof root))
        snprintf(id, sizeof id, "%.*s [whole unit: -x hip --offload-device-only "
                 "--no-gpu-bundle-output -O3 --rocm-path=%s -include hip/hip_runtime.h]",
                 version, base, root);
    else
        snprintf(id, sizeof id, "%.*s [whole unit: -x hip --offload-device-only "
                 "--no-gpu-bundle-output -O3 -nogpulib -nogpuinc -DKL_HIP_BARE -DKL_HIP_WHOLE]",
                 version, base);
    return id;
}

int amd_clang_compile_whole(const char *target, const char *source, const char *name,
                            const char *const *flags, void **code, size_t *code_len, char *log,
                            size_t loglen)
{
    char root[PATH_MAX], rocm[PATH_MAX + 16];
    const char *opts[16];
    size_t a = 0;
    const char *const head[] = {"-x", "hip", "--offload-device-only", "--no-gpu-bundle-output",
                                "-O3", NULL};
    for (size_t i = 0; head[i]; i++)
        opts[a++] = head[i];
    if (amd_clang_rocm(root, sizeof root)) { /* ROCm's HIP headers and device library, as hipcc */
        snprintf(rocm, sizeof rocm, "--rocm-path=%s", root);
        opts[a++] = rocm;
        opts[a++] = "-include";
        opts[a++] = "hip/hip_runtime.h";
    } else { /* no HIP headers: kl.h's bare device API and kl_host.h's host declarations */
        opts[a++] = "-nogpulib";
        opts[a++] = "-nogpuinc";
        opts[a++] = "-DKL_HIP_BARE";
        opts[a++] = "-DKL_HIP_WHOLE";
    }
    opts[a] = NULL;
    return run_clang(target, source, name, opts, flags, code, code_len, log, loglen);
}
