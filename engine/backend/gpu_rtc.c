/* A run-time compiler's program life, shared by hipRTC and NVRTC; see gpu_rtc.h. */
#include "engine/backend/gpu_rtc.h"
#include "engine/backend/gpu_dl.h"

#include <stdlib.h>
#include <string.h>

static int rtc_fail(const struct gpu_rtc_api *rtc, char *log, size_t loglen, const char *call,
                    int rc)
{
    const char *text = rtc->error_string ? rtc->error_string(rc) : NULL;
    gpu_dl_fmt(log, loglen, "%s failed: %s (%s %d)", call, text ? text : "unknown error",
               rtc->result_type, rc);
    return -1;
}

size_t gpu_rtc_copy_log(const struct gpu_rtc_api *rtc, void *prog, char *log, size_t loglen)
{
    if (!log || loglen == 0)
        return 0;
    log[0] = '\0';
    size_t n = 0;
    if (rtc->log_size(prog, &n) != 0 || n <= 1)
        return 0;
    /* One byte more than announced: a compiler whose size leaves out the NUL still ends in
     * memory we own. */
    char *buf = calloc(1, n + 1);
    if (!buf)
        return 0;
    if (rtc->log(prog, buf) == 0) {
        buf[n] = '\0';
        gpu_dl_copy(log, loglen, buf);
    }
    free(buf);
    return strlen(log);
}

static bool is_name_flag(const char *f)
{
    return strncmp(f, GPU_RTC_NAME_FLAG, strlen(GPU_RTC_NAME_FLAG)) == 0;
}

/* NULL-terminated pre then flags, name expressions left out, in one calloc'd array (NULL when
 * out of memory). */
static const char **join_options(const char *const *pre, const char *const *flags, int *n)
{
    size_t np = 0, nf = 0;
    while (pre && pre[np])
        np++;
    while (flags && flags[nf])
        nf++;
    const char **opts = calloc(np + nf + 1, sizeof *opts);
    if (!opts)
        return NULL;
    for (size_t i = 0; i < np; i++)
        opts[i] = pre[i];
    size_t k = np;
    for (size_t i = 0; i < nf; i++)
        if (!is_name_flag(flags[i]))
            opts[k++] = flags[i];
    *n = (int)k;
    return opts;
}

int gpu_rtc_compile(const struct gpu_rtc_api *rtc, const char *target, const char *source,
                    const char *name, const char *const *pre, const char *const *flags,
                    void **code, size_t *code_len, char *log, size_t loglen)
{
    *code = NULL;
    *code_len = 0;
    int nopts = 0;
    const char **opts = join_options(pre, flags, &nopts);
    if (!opts) {
        gpu_dl_fmt(log, loglen, "out of host memory");
        return -1;
    }
    void *prog = NULL;
    int rc = rtc->create(&prog, source, name ? name : "kernel.kl", 0, NULL, NULL);
    if (rc != 0) {
        free(opts);
        return rtc_fail(rtc, log, loglen, rtc->call.create, rc);
    }
    for (size_t i = 0; flags && flags[i] && rtc->add_name; i++)
        if (is_name_flag(flags[i]) &&
            (rc = rtc->add_name(prog, flags[i] + strlen(GPU_RTC_NAME_FLAG))) != 0) {
            free(opts);
            rtc->destroy(&prog);
            return rtc_fail(rtc, log, loglen, "adding a name expression", rc);
        }
    rc = rtc->compile(prog, nopts, opts);
    free(opts);
    if (rc != 0) {
        size_t used = gpu_rtc_copy_log(rtc, prog, log, loglen);
        if (log && used + 1 < loglen) {
            const char *text = rtc->error_string ? rtc->error_string(rc) : NULL;
            gpu_dl_fmt(log + used, loglen - used, "%s%s(%s) failed: %s (%d)", used ? "\n" : "",
                       rtc->call.compile, target, text ? text : "error", rc);
        }
        rtc->destroy(&prog);
        return -1;
    }
    size_t size = 0;
    rc = rtc->code_size(prog, &size);
    if (rc != 0 || size == 0) {
        rtc->destroy(&prog);
        if (rc != 0)
            return rtc_fail(rtc, log, loglen, rtc->call.code_size, rc);
        gpu_dl_fmt(log, loglen, "%s: empty %s for %s", rtc->call.code_size, rtc->code_kind,
                   target);
        return -1;
    }
    char *buf = malloc(size);
    if (!buf) {
        rtc->destroy(&prog);
        gpu_dl_fmt(log, loglen, "out of host memory (%zu-byte %s)", size, rtc->code_kind);
        return -1;
    }
    rc = rtc->code(prog, buf);
    rtc->destroy(&prog);
    if (rc != 0) {
        free(buf);
        return rtc_fail(rtc, log, loglen, rtc->call.code, rc);
    }
    if (log && loglen)
        log[0] = '\0';
    *code = buf;
    *code_len = size;
    return 0;
}
