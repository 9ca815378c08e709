/* Prebuilt code objects checked against their manifest (engine/prebuilt.h). */
#include "engine/prebuilt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_within.h"
#include "common/fileio.h"
#include "common/xalloc.h"

char *eng_code_object_read(const struct eng_manifest *m, const char *path, size_t *len,
                           char *err, size_t errlen)
{
    size_t dl = m && m->dir ? strlen(m->dir) : 0;
    if (m && m->code_object && m->dir && !strcmp(path, m->code_object) &&
        !strncmp(path, m->dir, dl) && path[dl] == '/')
        return file_read_within(m->dir, path + dl + 1, len, err, errlen);
    return file_read_all(path, len, err, errlen);
}

int eng_prebuilt_from(char *raw, size_t len, const char *path, const char *processor,
                      struct eng_prebuilt *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    /* A loader takes PTX as a C string: the file's bytes with a terminator after them. */
    p->data = xrealloc(raw, len + 1);
    ((char *)p->data)[len] = '\0';
    p->len = len;
    p->path = xstrdup(path);
    char why[512];
    if (gpu_binary_read(p->data, len, processor, &p->bin, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        eng_prebuilt_close(p);
        return -1;
    }
    if (p->bin.format == GPU_BIN_PTX)
        p->bin.image_len = len + 1;
    return 0;
}

int eng_prebuilt_open(const struct eng_manifest *m, const char *path, const char *processor,
                      struct eng_prebuilt *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    size_t len;
    char *raw = eng_code_object_read(m, path, &len, err, errlen);
    return raw ? eng_prebuilt_from(raw, len, path, processor, p, err, errlen) : -1;
}

void eng_prebuilt_close(struct eng_prebuilt *p)
{
    gpu_binary_free(&p->bin);
    free(p->data);
    free(p->path);
    memset(p, 0, sizeof *p);
}

int eng_prebuilt_refused_bytes(const void *data, size_t len, const char *path,
                               const struct eng_backend *B, const char *target, char *err,
                               size_t errlen)
{
    if (!B->caps.emulated || !gpu_binary_is(data, len))
        return 0;
    struct gpu_binary b;
    char why[256];
    bool known = gpu_binary_read(data, len, NULL, &b, why, sizeof why) == 0;
    snprintf(err, errlen, "code object %s is a %s %s; this run compiles for %s: the %s backend "
             "runs host code only and cannot run a GPU binary (run it on a GPU backend; kladder "
             "inspect reads it here)", path, known && b.target[0] ? b.target : "GPU",
             !known ? "binary" : b.format == GPU_BIN_AMDGPU ? "code object"
                               : gpu_binary_format_name(b.format), target, B->name);
    if (known)
        gpu_binary_free(&b);
    return -1;
}

int eng_prebuilt_refused(const struct eng_manifest *m, const char *path,
                         const struct eng_backend *B, const char *target, char *err,
                         size_t errlen)
{
    if (!B->caps.emulated)
        return 0;
    size_t len;
    char why[256];
    char *data = eng_code_object_read(m, path, &len, why, sizeof why);
    int rc = data ? eng_prebuilt_refused_bytes(data, len, path, B, target, err, errlen) : 0;
    free(data);
    return rc;
}

static const char *arg_type_name(enum eng_argtype t)
{
    static const char *const names[] = {"i32", "u32", "i64", "u64", "f32", "a buffer (pointer)"};
    return names[t];
}

static int64_t arg_bytes(enum eng_argtype t)
{
    return t == ENG_ARG_I32 || t == ENG_ARG_U32 || t == ENG_ARG_F32 ? 4 : 8;
}

/* Each of the manifest's args against the kernel's parameter at the same place: its size, its
 * offset when laid out as a C compiler lays out the arguments, and pointer against value. */
static int check_args(const struct eng_prebuilt *p, const struct eng_manifest *m, const char *field,
                      const struct gpu_kernel_info *k, char *err, size_t errlen)
{
    if (k->nparams < 0)
        return 0; /* the format does not say: the runtime's own check (kernel_params) is left */
    bool reference = strcmp(field, "reference") == 0;
    size_t nargs;
    const struct eng_arg *args = eng_manifest_args(m, reference, &nargs);
    const char *list = reference && m->ref_args != m->args ? "reference_args" : "args";
    if ((size_t)k->nparams != nargs) {
        snprintf(err, errlen, "%s: %s: %zu given, but kernel %.120s (%s %s) in %s takes %d "
                 "parameter%s", m->path, list, nargs, k->name, field, p->bin.target, p->path,
                 k->nparams, k->nparams == 1 ? "" : "s");
        return -1;
    }
    int64_t at = 0;
    for (size_t i = 0; i < nargs; i++) {
        const struct eng_arg *a = &args[i];
        const struct gpu_param *q = &k->params[i];
        int64_t want = arg_bytes(a->type);
        at = (at + want - 1) / want * want;
        bool ptr = a->type == ENG_ARG_PTR;
        const char *why = NULL;
        char buf[160];
        if (q->size != want) {
            snprintf(buf, sizeof buf, "%lld bytes, but the kernel's parameter %zu is %lld bytes",
                     (long long)want, i + 1, (long long)q->size);
            why = buf;
        } else if ((ptr && q->kind == GPU_PARAM_VALUE) || (!ptr && q->kind == GPU_PARAM_POINTER)) {
            snprintf(buf, sizeof buf, "a %s, but the kernel's parameter %zu is a %s (%s)",
                     ptr ? "pointer" : "value", i + 1, ptr ? "value" : "pointer", q->what);
            why = buf;
        } else if (q->offset != at) {
            snprintf(buf, sizeof buf, "at byte %lld of the arguments, but the kernel's parameter "
                     "%zu is at byte %lld", (long long)at, i + 1, (long long)q->offset);
            why = buf;
        }
        if (why) {
            snprintf(err, errlen, "%s: %s[%zu] (\"%.60s\", %s): %s, in kernel %.120s (%s) of "
                     "%s%s", m->path, list, i, a->expr, arg_type_name(a->type), why, k->name, field,
                     p->path, ptr || q->size == want ? ""
                                 : " (arg_types sets a scalar's type; i32 by default)");
            return -1;
        }
        at += want;
    }
    return 0;
}

/* The launch's block at the default parameters against the kernel's workgroup limit. */
static int check_launch(const struct eng_prebuilt *p, const struct eng_manifest *m,
                        const char *field, const struct gpu_kernel_info *k, char *err,
                        size_t errlen)
{
    struct eng_values v;
    char why[256];
    if (eng_values_make(m, NULL, NULL, NULL, &v, why, sizeof why) != 0)
        return 0; /* the run names it */
    bool ref = strcmp(field, "reference") == 0;
    unsigned grid[3], block[3], shared;
    /* the launch's own range checks (each dimension 1 to 1024, their product at most 1024):
     * a product formed here first would overflow on a manifest's [256, 1, 2^56] */
    int rc = eng_launch_eval(m, ref, &v, grid, block, &shared, why, sizeof why);
    eng_values_free(&v);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", m->path, why);
        return -1;
    }
    int64_t threads = (int64_t)block[0] * block[1] * block[2];
    if (k->max_threads <= 0 || threads <= k->max_threads) /* 0: the binary does not say */
        return 0;
    snprintf(err, errlen, "%s: %s.block: %lld threads at the default parameters, but kernel "
             "%.120s (%s) of %s allows at most %lld (its workgroup limit)", m->path,
             ref ? "reference_launch" : "launch", (long long)threads, k->name,
             field, p->path, (long long)k->max_threads);
    return -1;
}

const struct gpu_kernel_info *eng_prebuilt_entry(const struct eng_prebuilt *p,
                                                 const struct eng_manifest *m, const char *field,
                                                 const char *entry, int device_wave, char *err,
                                                 size_t errlen)
{
    char why[768];
    const struct gpu_kernel_info *k = gpu_binary_find(&p->bin, entry, why, sizeof why);
    if (!k) {
        snprintf(err, errlen, "%s: %s: %s: %s", m->path, field, p->path, why);
        return NULL;
    }
    if (device_wave > 0 && k->wave > 0 && k->wave != device_wave) {
        snprintf(err, errlen, "%s: %s: kernel %.120s of %s was built for wave %d; this device "
                 "runs wave %d", m->path, field, k->name, p->path, k->wave, device_wave);
        return NULL;
    }
    if (check_args(p, m, field, k, err, errlen) != 0 ||
        check_launch(p, m, field, k, err, errlen) != 0)
        return NULL;
    return k;
}
