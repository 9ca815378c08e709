/* Cubin kernels' attributes (engine/codeobj/cubin_info.h). The attribute numbers are the ones
 * cuobjdump --dump-elf names: EIATTR_MAX_THREADS 0x05, EIATTR_REQNTID 0x10, EIATTR_KPARAM_INFO
 * 0x17, EIATTR_CBANK_PARAM_SIZE 0x19; formats EIFMT_NVAL 1, EIFMT_BVAL 2, EIFMT_HVAL 3,
 * EIFMT_SVAL 4. */
#include "engine/codeobj/cubin_info.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/codeobj/codeobj_err.h"
#include "engine/codeobj/codeobj_target.h"

enum {
    EM_CUDA = 190,
    SHT_NOBITS = 8,
    ATTR_MAX_THREADS = 0x05,
    ATTR_REQNTID = 0x10,
    ATTR_KPARAM_INFO = 0x17,
    ATTR_CBANK_PARAM_SIZE = 0x19,
    FMT_SVAL = 4,
    MAX_PARAMS = 4096,
};

static const char INFO_PREFIX[] = ".nv.info.", SHARED_PREFIX[] = ".nv.shared.";

static uint64_t get(const unsigned char *p, int n)
{
    uint64_t v = 0;
    while (n-- > 0)
        v = v << 8 | p[n];
    return v;
}

struct section {
    const char *name; /* NUL-terminated inside the file's string table, or "" */
    uint32_t type;
    uint64_t off, size;
};

/* Section i's header, with its name checked to end inside the section name table. */
static void section_at(const unsigned char *d, uint64_t shoff, uint64_t stroff,
                       uint64_t strsize, unsigned i, struct section *s)
{
    const unsigned char *h = d + shoff + (uint64_t)i * 64;
    uint64_t name = get(h, 4);
    s->type = (uint32_t)get(h + 4, 4);
    s->off = get(h + 24, 8);
    s->size = get(h + 32, 8);
    s->name = "";
    if (name < strsize && memchr(d + stroff + name, 0, (size_t)(strsize - name)))
        s->name = (const char *)d + stroff + name;
}

static struct cubin_kernel *kernel_named(struct cubin_info *ci, const char *name)
{
    for (size_t i = 0; i < ci->nkernels; i++)
        if (!strcmp(ci->kernels[i].name, name))
            return &ci->kernels[i];
    return NULL;
}

/* One KPARAM_INFO record: u32 index, u16 ordinal, u16 offset, u32 whose bits 18-31 are the
 * size in bytes. */
static int add_param(struct cubin_kernel *k, const unsigned char *rec, size_t n, char *err,
                     size_t errlen)
{
    if (n < 12)
        return codeobj_fail(err, errlen, "%s%s: a parameter record of %zu bytes (expected 12)",
                    INFO_PREFIX, k->name, n);
    unsigned ordinal = (unsigned)get(rec + 4, 2);
    int64_t offset = (int64_t)get(rec + 6, 2), size = (int64_t)(get(rec + 8, 4) >> 18);
    if (ordinal >= MAX_PARAMS)
        return codeobj_fail(err, errlen, "%s%s: parameter ordinal %u", INFO_PREFIX, k->name, ordinal);
    if (k->nparams < (int)ordinal + 1) {
        k->params = xrealloc(k->params, (ordinal + 1) * sizeof *k->params);
        for (int i = k->nparams < 0 ? 0 : k->nparams; i <= (int)ordinal; i++)
            k->params[i] = (struct cubin_param){-1, -1};
        k->nparams = (int)ordinal + 1;
    }
    k->params[ordinal] = (struct cubin_param){offset, size};
    return 0;
}

static int read_info(const unsigned char *d, const struct section *s, struct cubin_kernel *k,
                     char *err, size_t errlen)
{
    uint64_t pos = s->off, end = s->off + s->size;
    while (pos < end) {
        if (end - pos < 4)
            return codeobj_fail(err, errlen, "%s: an attribute cut off at byte %llu", s->name,
                        (unsigned long long)(pos - s->off));
        unsigned fmt = d[pos], attr = d[pos + 1];
        uint64_t value = get(d + pos + 2, 2);
        pos += 4;
        if (fmt != FMT_SVAL) {
            if (attr == ATTR_CBANK_PARAM_SIZE)
                k->param_bytes = (int64_t)value;
            continue;
        }
        if (value > end - pos)
            return codeobj_fail(err, errlen, "%s: attribute 0x%02x at byte %llu claims %llu bytes, past "
                        "the section's end", s->name, attr, (unsigned long long)(pos - 4 - s->off),
                        (unsigned long long)value);
        if (attr == ATTR_KPARAM_INFO && add_param(k, d + pos, (size_t)value, err, errlen) != 0)
            return -1;
        if ((attr == ATTR_MAX_THREADS || attr == ATTR_REQNTID) && value >= 12) {
            int64_t x = (int64_t)get(d + pos, 4), y = (int64_t)get(d + pos + 4, 4),
                    z = (int64_t)get(d + pos + 8, 4);
            if (x && y && z && x * y * z < (int64_t)1 << 31)
                k->max_threads = x * y * z;
        }
        pos += value;
    }
    return 0;
}

static struct cubin_kernel *add_kernel(struct cubin_info *ci, const char *name)
{
    struct cubin_kernel *k = kernel_named(ci, name);
    if (k)
        return k;
    ci->kernels = xrealloc(ci->kernels, (ci->nkernels + 1) * sizeof *ci->kernels);
    k = &ci->kernels[ci->nkernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->nparams = -1;
    k->param_bytes = -1;
    k->max_threads = -1;
    return k;
}

static int read_sections(const unsigned char *d, size_t len, struct cubin_info *ci, char *err,
                         size_t errlen)
{
    uint64_t shoff = get(d + 40, 8);
    unsigned shnum = (unsigned)get(d + 60, 2), shstrndx = (unsigned)get(d + 62, 2);
    if (get(d + 58, 2) != 64 || shnum == 0 || shstrndx >= shnum)
        return codeobj_fail(err, errlen, "no usable section headers (e_shentsize %u, e_shnum %u, "
                    "e_shstrndx %u)", (unsigned)get(d + 58, 2), shnum, shstrndx);
    if (shoff > len || (uint64_t)shnum * 64 > len - shoff)
        return codeobj_fail(err, errlen, "section headers (%u at offset %llu) run past the end of the "
                    "%zu-byte file", shnum, (unsigned long long)shoff, len);
    const unsigned char *sh = d + shoff + (uint64_t)shstrndx * 64;
    uint64_t stroff = get(sh + 24, 8), strsize = get(sh + 32, 8);
    if (stroff > len || strsize > len - stroff)
        return codeobj_fail(err, errlen, "the section name table runs past the end of the file");
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < shnum; i++) {
            struct section s;
            section_at(d, shoff, stroff, strsize, i, &s);
            bool info = !strncmp(s.name, INFO_PREFIX, sizeof INFO_PREFIX - 1) &&
                        s.name[sizeof INFO_PREFIX - 1];
            bool shared = !strncmp(s.name, SHARED_PREFIX, sizeof SHARED_PREFIX - 1);
            if (pass == 0 && info) {
                if (s.type == SHT_NOBITS || s.off > len || s.size > len - s.off)
                    return codeobj_fail(err, errlen, "section %s: offset %llu + size %llu is past the "
                                "end of the %zu-byte file", s.name, (unsigned long long)s.off,
                                (unsigned long long)s.size, len);
                struct cubin_kernel *k = add_kernel(ci, s.name + sizeof INFO_PREFIX - 1);
                if (read_info(d, &s, k, err, errlen) != 0)
                    return -1;
            } else if (pass == 1 && shared) {
                struct cubin_kernel *k = kernel_named(ci, s.name + sizeof SHARED_PREFIX - 1);
                if (k)
                    k->shared_bytes = (int64_t)s.size;
            }
        }
    return 0;
}

int cubin_info_read(const void *data, size_t len, struct cubin_info *ci, char *err, size_t errlen)
{
    memset(ci, 0, sizeof *ci);
    const unsigned char *d = data;
    if (len < 64 || memcmp(d, "\177ELF", 4) != 0 || d[4] != 2 || d[5] != 1)
        return codeobj_fail(err, errlen, "not a 64-bit little-endian ELF file%s",
                    len < 64 ? " (shorter than an ELF header)" : "");
    if (get(d + 18, 2) != EM_CUDA)
        return codeobj_fail(err, errlen, "ELF machine %u, not EM_CUDA (190): not a cubin",
                    (unsigned)get(d + 18, 2));
    if (eng_codeobj_target(d, len, ci->target, sizeof ci->target) != 0)
        snprintf(ci->target, sizeof ci->target, "sm_?");
    if (read_sections(d, len, ci, err, errlen) != 0) {
        cubin_info_free(ci);
        return -1;
    }
    if (ci->nkernels == 0)
        return codeobj_fail(err, errlen, "no .nv.info.<kernel> section: a cubin without kernels");
    for (size_t i = 0; i < ci->nkernels; i++) {
        struct cubin_kernel *k = &ci->kernels[i];
        for (int p = 0; p < k->nparams; p++)
            if (k->params[p].size < 0) {
                snprintf(err, errlen, "%s%s: parameter %d has no EIATTR_KPARAM_INFO record",
                         INFO_PREFIX, k->name, p);
                cubin_info_free(ci);
                return -1;
            }
        if (k->nparams < 0 && k->param_bytes == 0)
            k->nparams = 0; /* a kernel without parameters */
    }
    return 0;
}

void cubin_info_free(struct cubin_info *ci)
{
    for (size_t i = 0; i < ci->nkernels; i++)
        free(ci->kernels[i].params);
    free(ci->kernels);
    memset(ci, 0, sizeof *ci);
}
