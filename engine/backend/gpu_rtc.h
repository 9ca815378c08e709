/* Driving a run-time compiler (hipRTC, NVRTC) through one program's life: create, compile,
 * read the log on failure, fetch the code, destroy. hipRTC copies NVRTC's interface, so both
 * backends bind their exported symbols straight into one table and call gpu_rtc_compile().
 *
 * Entry points return the compiler's own result code, 0 meaning success in both; error_string
 * turns a code into the compiler's text. call.* are the exported names, for messages. */
#ifndef KL_ENGINE_GPU_RTC_H
#define KL_ENGINE_GPU_RTC_H

#include <stddef.h>

#define GPU_RTC_NAME_FLAG "--kl-name-expression="
/* A line in front of a plain source prepared for a GPU backend (engine/compile/plain_source.h): a whole
 * translation unit, host code and all, which a backend with the vendor's offline compiler
 * (nvcc) gives to it rather than to the run-time compiler. */
#define GPU_RTC_WHOLE_UNIT "/* kladder: a whole translation unit, host code and all */\n"

struct gpu_rtc_api {
    const char *result_type; /* "hiprtcResult", "nvrtcResult" */
    const char *code_kind;   /* "code object", "CUBIN" */
    int (*create)(void **prog, const char *source, const char *name, int nheaders,
                  const char *const *headers, const char *const *include_names);
    int (*compile)(void *prog, int nopts, const char *const *opts);
    /* The log's size counts its terminating NUL (1 = empty). */
    int (*log_size)(void *prog, size_t *bytes);
    int (*log)(void *prog, char *buf);
    int (*code_size)(void *prog, size_t *bytes);
    int (*code)(void *prog, char *buf);
    int (*destroy)(void **prog);
    /* Optional (NULL when the library lacks it): instantiates a name expression such as
     * "f<128, true>" so that its kernel is in the code (a template instance nothing else
     * instantiates). */
    int (*add_name)(void *prog, const char *name_expression);
    const char *(*error_string)(int result);
    struct {
        const char *create, *compile, *code_size, *code;
    } call;
};

/* Compiles source (named name in the compiler's messages) with the options pre and then flags
 * (both NULL-terminated, either may be NULL); target only names the target in messages. A flag
 * GPU_RTC_NAME_FLAG "f<1>" is no compiler option: its name expression is instantiated
 * (add_name) instead (a flag, so that the cache key holds it).
 * Returns 0 with *code malloc'd (the caller frees it) and log emptied, or -1 with the
 * compiler's log followed by the failing call, the target and the compiler's error text in log
 * (may be NULL). */
int gpu_rtc_compile(const struct gpu_rtc_api *rtc, const char *target, const char *source,
                    const char *name, const char *const *pre, const char *const *flags,
                    void **code, size_t *code_len, char *log, size_t loglen);

/* Copies prog's log into log (always NUL-terminated; log may be NULL) and returns the length
 * copied; 0 when the compiler has none or will not say. */
size_t gpu_rtc_copy_log(const struct gpu_rtc_api *rtc, void *prog, char *log, size_t loglen);

#endif
