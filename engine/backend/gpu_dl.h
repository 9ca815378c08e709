/* Shared plumbing of the GPU backends (hip, cuda): opening a vendor library from a list of
 * candidate names, binding a table of entry points, formatting error messages, and reading the
 * small sysfs/procfs files that hold versions and partition modes.
 *
 * Nothing here knows HIP or CUDA. A backend keeps its function pointers in its own static
 * struct; gpu_dl_bind() fills them by name so one table documents, in one place, which exported
 * symbol (with its version suffix) each pointer is bound to. */
#ifndef KL_ENGINE_GPU_DL_H
#define KL_ENGINE_GPU_DL_H

#include <stdbool.h>
#include <stddef.h>

/* One entry point to bind. names is a NULL-terminated list of exported names tried in order
 * (the versioned ABI first: "cuMemAlloc_v2" before nothing, "cuEventElapsedTime_v2" before
 * "cuEventElapsedTime"). slot points at the function-pointer variable to fill. An optional entry
 * left unbound stays NULL; a missing required one fails the whole bind. */
struct gpu_dl_sym {
    const char *const *names;
    void *slot;
    bool optional;
};

/* Tries each candidate with dlopen(RTLD_NOW | RTLD_LOCAL) and returns the first handle that
 * opens; *chosen (may be NULL) gets the candidate that worked. On failure returns NULL and writes
 * into why every candidate with dlerror()'s reason, so a person sees what was searched. */
void *gpu_dl_open_first(const char *const *candidates, const char **chosen, char *why,
                        size_t whylen);

/* The first candidate that is already loaded in this process (dlopen with RTLD_NOLOAD), as a
 * new reference to it, or NULL: which copy of a library another library has opened. */
void *gpu_dl_open_loaded(const char *const *candidates);

/* Binds every entry of syms (n of them) from lib. Returns 0, or -1 with
 * "LIBNAME lacks SYMBOL (tried: a, b)" in why. */
int gpu_dl_bind(void *lib, const char *libname, const struct gpu_dl_sym *syms, size_t n,
                char *why, size_t whylen);

/* The real path (symlinks resolved) of the file that lib was loaded from, found through one of
 * its symbols; "" when unknown. Used to say which copy of a library was picked (several CUDA toolkits may coexist). */
void gpu_dl_path_of(void *lib, const char *symbol, char *buf, size_t buflen);

/* snprintf into buf that never overflows and tolerates buf == NULL or len == 0. */
void gpu_dl_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* realpath() into a fixed buffer; "" when the path does not resolve. */
void gpu_dl_realpath(const char *path, char *buf, size_t buflen);

/* Reads the first line of a small text file (sysfs, procfs) into out without the newline.
 * Returns 0, or -1 when it cannot be read (out is then ""). */
int gpu_dl_read_line(const char *path, char *out, size_t outlen);

/* The part of path after its last '/' ("libnvrtc.so.13.0.88"). */
const char *gpu_dl_base_name(const char *path);

/* Copies src into dst (size dstlen), always NUL-terminated, truncating. */
void gpu_dl_copy(char *dst, size_t dstlen, const char *src);

#endif
