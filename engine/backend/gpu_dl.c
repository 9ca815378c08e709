/* Shared dlopen plumbing of the GPU backends; see gpu_dl.h. */
#define _GNU_SOURCE /* dladdr */
#include "engine/backend/gpu_dl.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gpu_dl_fmt(char *buf, size_t len, const char *fmt, ...)
{
    if (!buf || len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

void gpu_dl_copy(char *dst, size_t dstlen, const char *src)
{
    if (!dst || dstlen == 0)
        return;
    snprintf(dst, dstlen, "%s", src ? src : "");
}

const char *gpu_dl_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Appends text to a NUL-terminated buffer without overflowing it. */
static void append(char *buf, size_t len, const char *text)
{
    if (!buf || len == 0)
        return;
    size_t used = strnlen(buf, len);
    if (used + 1 >= len)
        return;
    snprintf(buf + used, len - used, "%s", text);
}

void *gpu_dl_open_first(const char *const *candidates, const char **chosen, char *why,
                        size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    for (size_t i = 0; candidates[i]; i++) {
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            if (chosen)
                *chosen = candidates[i];
            if (why && whylen)
                why[0] = '\0';
            return h;
        }
        const char *e = dlerror();
        /* dlerror() already names the file; keep only its reason when it does. */
        append(why, whylen, i ? "; " : "");
        append(why, whylen, e ? e : candidates[i]);
    }
    return NULL;
}

void *gpu_dl_open_loaded(const char *const *candidates)
{
    for (size_t i = 0; candidates[i]; i++) {
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (h)
            return h;
    }
    return NULL;
}

int gpu_dl_bind(void *lib, const char *libname, const struct gpu_dl_sym *syms, size_t n,
                char *why, size_t whylen)
{
    for (size_t i = 0; i < n; i++) {
        void *p = NULL;
        for (size_t j = 0; syms[i].names[j] && !p; j++)
            p = dlsym(lib, syms[i].names[j]);
        /* A function pointer cannot be assigned from void * in ISO C; the slot is the pointer's
         * storage, and POSIX guarantees the representations agree. */
        memcpy(syms[i].slot, &p, sizeof p);
        if (!p && !syms[i].optional) {
            char tried[256] = "";
            for (size_t j = 0; syms[i].names[j]; j++) {
                append(tried, sizeof tried, j ? ", " : "");
                append(tried, sizeof tried, syms[i].names[j]);
            }
            gpu_dl_fmt(why, whylen, "%s lacks %s (tried: %s); the library is too old or not "
                       "the vendor's", libname, syms[i].names[0], tried);
            return -1;
        }
    }
    return 0;
}

void gpu_dl_path_of(void *lib, const char *symbol, char *buf, size_t buflen)
{
    gpu_dl_copy(buf, buflen, "");
    void *p = lib ? dlsym(lib, symbol) : NULL;
    Dl_info info;
    if (p && dladdr(p, &info) && info.dli_fname) {
        gpu_dl_realpath(info.dli_fname, buf, buflen);
        if (!buf[0])
            gpu_dl_copy(buf, buflen, info.dli_fname);
    }
}

void gpu_dl_realpath(const char *path, char *buf, size_t buflen)
{
    char *real = realpath(path, NULL);
    gpu_dl_copy(buf, buflen, real ? real : "");
    free(real);
}

int gpu_dl_read_line(const char *path, char *out, size_t outlen)
{
    gpu_dl_copy(out, outlen, "");
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    char line[512];
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    if (!got)
        return -1;
    size_t n = strcspn(line, "\r\n");
    line[n] = '\0';
    gpu_dl_copy(out, outlen, line);
    return 0;
}
