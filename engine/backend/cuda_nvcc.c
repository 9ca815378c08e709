/* Whole CUDA translation units through nvcc (cuda_nvcc.h). */
#include "engine/backend/cuda_nvcc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "engine/backend/gpu_rtc.h"
#include "engine/toolchain/cache_env.h"
#include "engine/toolchain/tool_run.h"

extern char **environ;

static bool executable(const char *path) { return path[0] && access(path, X_OK) == 0; }

bool cuda_nvcc_find(const char *rtc_lib, char *out, size_t outlen)
{
    const char *env = eng_compile_getenv("KLADDER_NVCC");
    if (env && env[0]) {
        snprintf(out, outlen, "%s", env);
        return executable(out);
    }
    if (rtc_lib && rtc_lib[0]) { /* .../lib64/libnvrtc.so or .../targets/ARCH/lib/libnvrtc.so */
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", rtc_lib);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            const char *ups[] = {"/../bin/nvcc", "/../../../bin/nvcc", NULL};
            for (size_t i = 0; ups[i]; i++) {
                snprintf(out, outlen, "%s%s", dir, ups[i]);
                if (executable(out))
                    return true;
            }
        }
    }
    snprintf(out, outlen, "/usr/local/cuda/bin/nvcc");
    if (executable(out))
        return true;
    return eng_tool_find("nvcc", out, outlen);
}

const char *cuda_nvcc_id(const char *rtc_lib)
{
    static char asked[PATH_MAX], id[PATH_MAX + 256];
    char nvcc[PATH_MAX];
    if (!cuda_nvcc_find(rtc_lib, nvcc, sizeof nvcc))
        return NULL;
    if (strcmp(asked, nvcc) == 0)
        return id;
    char out[4096];
    static char version_flag[] = "--version";
    char *argv[] = {nvcc, version_flag, NULL};
    int rc = eng_tool_run(argv, out, sizeof out);
    /* the last line names the build; a release line alone would miss a patched compiler */
    const char *build = rc == 0 ? strstr(out, "Build ") : NULL;
    size_t blen = build ? strcspn(build, "\r\n") : 0;
    if (build)
        snprintf(id, sizeof id, "nvcc %.*s (%s)", (int)(blen - 6), build + 6, nvcc);
    else
        snprintf(id, sizeof id, "nvcc of unknown build (%s)", nvcc);
    snprintf(asked, sizeof asked, "%s", nvcc);
    return id;
}

static void *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    if (n == 0) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int cuda_nvcc_compile(const char *nvcc, const char *target, const char *source,
                      const char *const *flags, void **code, size_t *code_len, char *log,
                      size_t loglen)
{
    *code = NULL;
    *code_len = 0;
    char *dir = eng_tool_tmpdir("kladder-nvcc", log, loglen);
    if (!dir)
        return -1;
    char *src = xasprintf("%s/kernel.cu", dir), *out = xasprintf("%s/kernel.cubin", dir);
    int rc = -1;
    FILE *f = fopen(src, "w");
    if (!f) {
        snprintf(log, loglen, "cuda compile: cannot write %s: %s", src, strerror(errno));
        goto done;
    }
    fputs(source, f);
    /* the template instances the manifest names: nothing else may instantiate them */
    size_t nflags = 0, ninst = 0;
    while (flags && flags[nflags])
        nflags++;
    for (size_t i = 0; i < nflags; i++)
        if (!strncmp(flags[i], GPU_RTC_NAME_FLAG, strlen(GPU_RTC_NAME_FLAG)))
            fprintf(f, "\nstatic void *kl_nvcc_instance_%zu = (void *)&%s;", ninst++,
                    flags[i] + strlen(GPU_RTC_NAME_FLAG));
    fputc('\n', f);
    if (fclose(f) != 0) {
        snprintf(log, loglen, "cuda compile: cannot write %s", src);
        goto done;
    }
    char *arch = xasprintf("-arch=%s", target);
    char **argv = xcalloc(nflags + 12, sizeof *argv);
    size_t a = 0;
    static char o_cubin[] = "-cubin", o_std[] = "-std=c++17", o_w[] = "-w", o_o[] = "-o";
    argv[a++] = (char *)(size_t)nvcc;
    argv[a++] = o_cubin;
    argv[a++] = arch;
    argv[a++] = o_std;
    argv[a++] = o_w;
    for (size_t i = 0; i < nflags; i++)
        if (strncmp(flags[i], GPU_RTC_NAME_FLAG, strlen(GPU_RTC_NAME_FLAG)) != 0)
            argv[a++] = (char *)(size_t)flags[i];
    argv[a++] = o_o;
    argv[a++] = out;
    argv[a++] = src;
    argv[a] = NULL;
    /* under the compile's time limit: an include that reaches a FIFO never ends */
    int st = eng_tool_run_limit(argv, environ, eng_compile_limit_s(), log, loglen);
    free(argv);
    free(arch);
    if (st == ENG_TOOL_TIMED_OUT) {
        snprintf(log, loglen, "nvcc -cubin (%s) did not finish within %g s "
                 "(KLADDER_COMPILE_TIMEOUT) and was stopped", target, eng_compile_limit_s());
        goto done;
    }
    if (st != 0) {
        size_t used = strlen(log);
        snprintf(log + used, loglen - used, "%snvcc -cubin (%s) failed (exit %d)",
                 used && log[used - 1] != '\n' ? "\n" : "", target, st);
        goto done;
    }
    *code = read_all(out, code_len);
    if (!*code) {
        snprintf(log, loglen, "cuda compile: nvcc wrote no CUBIN %s", out);
        goto done;
    }
    log[0] = '\0';
    rc = 0;
done:
    unlink(src);
    unlink(out);
    rmdir(dir);
    free(src);
    free(out);
    free(dir);
    return rc;
}
