/* Prebuilt GPU binaries of every format, one view (engine/codeobj/gpu_binary.h). */
#include "engine/codeobj/gpu_binary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/codeobj/amdgpu_co.h"
#include "engine/codeobj/cubin_info.h"
#include "engine/codeobj/mangled_name.h"
#include "engine/codeobj/offload_bundle.h"
#include "engine/codeobj/ptx_entry.h"

const char *gpu_binary_format_name(enum gpu_binary_format f)
{
    switch (f) {
    case GPU_BIN_AMDGPU: return "AMDGPU code object";
    case GPU_BIN_BUNDLE: return "offload bundle";
    case GPU_BIN_CUBIN: return "cubin";
    case GPU_BIN_PTX: return "PTX";
    }
    return "?";
}

static unsigned elf_machine(const unsigned char *d, size_t len)
{
    if (len < 64 || memcmp(d, "\177ELF", 4) != 0)
        return 0;
    return (unsigned)(d[18] | d[19] << 8);
}

bool gpu_binary_is(const void *data, size_t len)
{
    unsigned m = elf_machine(data, len);
    return m == 224 || m == 190 || offload_bundle_is(data, len) || ptx_is(data, len);
}

static struct gpu_kernel_info *add(struct gpu_binary *b, const char *name)
{
    struct gpu_kernel_info *k = &b->kernels[b->nkernels++];
    snprintf(k->name, sizeof k->name, "%s", name);
    k->wave = -1;
    k->shared_bytes = k->max_threads = -1;
    k->nparams = -1;
    return k;
}

static void take_amd(struct gpu_binary *b, const struct amdgpu_co *co)
{
    snprintf(b->target, sizeof b->target, "%s", co->processor);
    b->kernels = xcalloc(co->nkernels + 1, sizeof *b->kernels);
    for (size_t i = 0; i < co->nkernels; i++) {
        const struct amdgpu_kernel *a = &co->kernels[i];
        struct gpu_kernel_info *k = add(b, a->name);
        k->wave = (int)a->wavefront_size;
        k->shared_bytes = a->group_segment_fixed_size;
        k->max_threads = a->max_flat_workgroup_size;
        if (!a->has_args)
            continue;
        k->nparams = (int)a->nargs;
        k->params = xcalloc(a->nargs + 1, sizeof *k->params);
        for (size_t j = 0; j < a->nargs; j++) {
            struct gpu_param *p = &k->params[j];
            p->offset = a->args[j].offset;
            p->size = a->args[j].size;
            snprintf(p->what, sizeof p->what, "%s", a->args[j].value_kind);
            p->kind = !strcmp(p->what, "by_value")        ? GPU_PARAM_VALUE
                      : !strcmp(p->what, "global_buffer") ? GPU_PARAM_POINTER
                                                          : GPU_PARAM_UNKNOWN;
        }
    }
}

static int read_amd(struct gpu_binary *b, const void *data, size_t len, char *err, size_t errlen)
{
    struct amdgpu_co co;
    if (amdgpu_co_read(data, len, &co, err, errlen) != 0)
        return -1;
    take_amd(b, &co);
    amdgpu_co_free(&co);
    return 0;
}

static int read_cubin(struct gpu_binary *b, const void *data, size_t len, char *err, size_t errlen)
{
    struct cubin_info ci;
    if (cubin_info_read(data, len, &ci, err, errlen) != 0)
        return -1;
    snprintf(b->target, sizeof b->target, "%s", ci.target);
    b->kernels = xcalloc(ci.nkernels + 1, sizeof *b->kernels);
    for (size_t i = 0; i < ci.nkernels; i++) {
        const struct cubin_kernel *c = &ci.kernels[i];
        struct gpu_kernel_info *k = add(b, c->name);
        k->wave = 32;
        k->shared_bytes = c->shared_bytes;
        k->max_threads = c->max_threads;
        k->nparams = c->nparams;
        k->params = xcalloc((size_t)(c->nparams > 0 ? c->nparams : 0) + 1, sizeof *k->params);
        for (int j = 0; j < c->nparams; j++)
            k->params[j] = (struct gpu_param){.offset = c->params[j].offset,
                                              .size = c->params[j].size};
    }
    cubin_info_free(&ci);
    return 0;
}

static int read_ptx(struct gpu_binary *b, const void *data, size_t len, char *err, size_t errlen)
{
    struct ptx_module pm;
    if (ptx_read(data, len, &pm, err, errlen) != 0)
        return -1;
    snprintf(b->target, sizeof b->target, "%s", pm.target);
    b->kernels = xcalloc(pm.nkernels + 1, sizeof *b->kernels);
    for (size_t i = 0; i < pm.nkernels; i++) {
        const struct ptx_kernel *p = &pm.kernels[i];
        struct gpu_kernel_info *k = add(b, p->name);
        k->wave = 32;
        k->shared_bytes = p->shared_bytes;
        k->max_threads = p->max_threads;
        k->nparams = p->nparams;
        k->params = xcalloc((size_t)p->nparams + 1, sizeof *k->params);
        for (int j = 0; j < p->nparams; j++) {
            struct gpu_param *q = &k->params[j];
            q->offset = p->params[j].offset;
            q->size = p->params[j].size;
            q->kind = p->params[j].pointer ? GPU_PARAM_POINTER : GPU_PARAM_UNKNOWN;
            snprintf(q->what, sizeof q->what, "%s", p->params[j].pointer ? ".ptr" : "");
        }
    }
    ptx_module_free(&pm);
    return 0;
}

int gpu_binary_read(const void *data, size_t len, const char *processor, struct gpu_binary *b,
                    char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->image = data;
    b->image_len = len;
    unsigned machine = elf_machine(data, len);
    int rc;
    if (offload_bundle_is(data, len)) {
        b->format = GPU_BIN_BUNDLE;
        char picked[64];
        rc = offload_bundle_pick(data, len, processor, &b->image, &b->image_len, picked,
                                 sizeof picked, err, errlen);
        if (rc == 0 && (rc = read_amd(b, b->image, b->image_len, err, errlen)) != 0) {
            char inner[512];
            snprintf(inner, sizeof inner, "%s", err);
            snprintf(err, errlen, "the offload bundle's %s entry: %s", picked, inner);
        }
    } else if (machine == 224) {
        b->format = GPU_BIN_AMDGPU;
        rc = read_amd(b, data, len, err, errlen);
    } else if (machine == 190) {
        b->format = GPU_BIN_CUBIN;
        rc = read_cubin(b, data, len, err, errlen);
    } else if (ptx_is(data, len)) {
        b->format = GPU_BIN_PTX;
        rc = read_ptx(b, data, len, err, errlen);
    } else {
        snprintf(err, errlen, "not a GPU binary: neither an AMDGPU code object, an offload "
                 "bundle, a cubin (ELF machine 224 or 190) nor PTX text (.version first)%s",
                 len < 64 ? " (shorter than an ELF header)" : "");
        return -1;
    }
    if (rc != 0)
        gpu_binary_free(b);
    return rc;
}

void gpu_binary_free(struct gpu_binary *b)
{
    for (size_t i = 0; b->kernels && i < b->nkernels; i++)
        free(b->kernels[i].params);
    free(b->kernels);
    b->kernels = NULL;
    b->nkernels = 0;
}

static void list_kernels(const struct gpu_binary *b, const bool *only, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < b->nkernels && used + 1 < n; i++)
        if (!only || only[i])
            used += (size_t)snprintf(out + used, n - used, "%s%.80s", used ? ", " : "",
                                     b->kernels[i].name);
    if (used >= n && n > 4)
        memcpy(out + n - 4, "...", 4);
}

const struct gpu_kernel_info *gpu_binary_find(const struct gpu_binary *b, const char *name,
                                              char *err, size_t errlen)
{
    for (size_t i = 0; i < b->nkernels; i++)
        if (!strcmp(b->kernels[i].name, name))
            return &b->kernels[i];
    /* By the name it was mangled from; a template instance by its arguments. */
    const char *lt = strchr(name, '<');
    size_t base_len = lt ? (size_t)(lt - name) : strlen(name);
    while (base_len && name[base_len - 1] == ' ')
        base_len--;
    char source_args[256] = "";
    if (lt)
        snprintf(source_args, sizeof source_args, "%.*s", (int)strcspn(lt + 1, ">"), lt + 1);
    bool *hit = xcalloc(b->nkernels + 1, sizeof *hit);
    size_t nhit = 0, last = 0;
    for (size_t i = 0; i < b->nkernels; i++) {
        char base[256];
        const char *targs;
        if (!mangled_base_name(b->kernels[i].name, base, sizeof base, &targs) ||
            strlen(base) != base_len || strncmp(base, name, base_len) != 0)
            continue;
        if (lt && !mangled_targs_match(targs, source_args))
            continue;
        hit[i] = true;
        nhit++;
        last = i;
    }
    char names[512];
    list_kernels(b, nhit > 1 ? hit : NULL, names, sizeof names);
    free(hit);
    if (nhit == 1)
        return &b->kernels[last];
    if (nhit > 1)
        snprintf(err, errlen, "kernel '%.120s' is ambiguous: %zu kernels have that name (%s); "
                 "name one by its symbol", name, nhit, names);
    else
        snprintf(err, errlen, "kernel '%.120s' is not in it (its kernels: %s)", name, names);
    return NULL;
}
