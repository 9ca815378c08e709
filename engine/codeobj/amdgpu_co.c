#include "engine/codeobj/amdgpu_co.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/codeobj/codeobj_err.h"
#include "engine/codeobj/msgpack_read.h"

enum {
    EM_AMDGPU = 224,
    SHT_SYMTAB = 2,
    SHT_NOTE = 7,
    SHT_NOBITS = 8,
    SHT_DYNSYM = 11,
    NT_AMDGPU_METADATA = 32,
    KD_BYTES = 64,
    MAX_KERNELS = 65536,
};

static const struct {
    unsigned mach;
    const char *name;
} machs[] = {
    {0x2f, "gfx906"}, {0x30, "gfx908"}, {0x3f, "gfx90a"}, {0x40, "gfx940"}, {0x4b, "gfx941"},
    {0x4c, "gfx942"}, {0x4f, "gfx950"}, {0x33, "gfx1010"}, {0x36, "gfx1030"},
    {0x41, "gfx1100"}, {0x42, "gfx1101"}, {0x43, "gfx1102"}, {0x44, "gfx1103"},
    {0x48, "gfx1200"}, {0x4e, "gfx1201"}, {0x49, "gfx1250"}, {0x5a, "gfx1251"},
    {0x5b, "gfx12-5-generic"},
};

/* "gfx1250" for EF_AMDGPU_MACH value mach, or NULL when not in the table. */
static const char *amdgpu_mach_name(unsigned mach)
{
    for (size_t i = 0; i < sizeof machs / sizeof *machs; i++)
        if (machs[i].mach == mach)
            return machs[i].name;
    return NULL;
}

int amdgpu_default_wave(const char *p)
{
    if (!p || strncmp(p, "gfx", 3) != 0 || !p[3])
        return 0;
    /* gfx9xx (three digits starting with 9) are wave64; gfx10xx and later are wave32. */
    size_t digits = strspn(p + 3, "0123456789abcdef");
    if (digits == 3 && p[3] == '9')
        return 64;
    if (digits >= 4)
        return 32;
    return 0;
}

static uint64_t rd(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* off + size lies inside a file of len bytes (no overflow). */
static bool inside(uint64_t off, uint64_t size, size_t len)
{
    return off <= len && size <= len - off;
}

struct elf {
    const unsigned char *d;
    size_t len;
    uint64_t shoff;
    unsigned shnum;
};

struct shdr {
    uint32_t type, link;
    uint64_t addr, off, size, entsize;
};

static void shdr_at(const struct elf *e, unsigned i, struct shdr *s)
{
    const unsigned char *h = e->d + e->shoff + (uint64_t)i * 64;
    s->type = (uint32_t)rd(h + 4, 4);
    s->addr = rd(h + 16, 8);
    s->off = rd(h + 24, 8);
    s->size = rd(h + 32, 8);
    s->link = (uint32_t)rd(h + 40, 4);
    s->entsize = rd(h + 56, 8);
}

/* Copies a msgpack string into a fixed field; too long is an error, not a truncation. */
static bool take_str(struct mp_reader *r, const struct mp_value *v, const char *key, char *out,
                     size_t n)
{
    if (v->kind != MP_STR) {
        snprintf(r->err, sizeof r->err, "metadata %s: expected a string", key);
        return false;
    }
    if (v->n >= n) {
        snprintf(r->err, sizeof r->err, "metadata %s: %u bytes, longer than %zu", key, v->n, n - 1);
        return false;
    }
    memcpy(out, v->s, v->n);
    out[v->n] = '\0';
    return true;
}

static const struct {
    const char *key;
    size_t off;
} int_keys[] = {
#define K(f) {"." #f, offsetof(struct amdgpu_kernel, f)}
    K(wavefront_size), K(sgpr_count), K(vgpr_count), K(agpr_count), K(sgpr_spill_count),
    K(vgpr_spill_count), K(group_segment_fixed_size), K(private_segment_fixed_size),
    K(kernarg_segment_size), K(max_flat_workgroup_size),
#undef K
};

/* One map of .args: its offset, size and value kind; a hidden_* one is read and dropped. */
static bool read_arg(struct mp_reader *r, size_t index, struct amdgpu_kernel *k)
{
    struct mp_value v;
    if (!mp_next(r, &v))
        return false;
    if (v.kind != MP_MAP) {
        snprintf(r->err, sizeof r->err, "metadata %.60s .args[%zu]: expected a map", k->name, index);
        return false;
    }
    struct amdgpu_arg a = {.offset = -1, .size = -1};
    for (uint32_t p = 0, pairs = v.n; p < pairs; p++) {
        struct mp_value key, val;
        if (!mp_next(r, &key))
            return false;
        bool off = mp_str_is(&key, ".offset"), size = mp_str_is(&key, ".size");
        if (off || size) {
            if (!mp_next(r, &val))
                return false;
            if (val.kind != MP_UINT || val.u > (uint64_t)INT32_MAX) {
                snprintf(r->err, sizeof r->err, "metadata %.60s .args[%zu]%s: expected a whole "
                         "number below 2^31", k->name, index, off ? ".offset" : ".size");
                return false;
            }
            *(off ? &a.offset : &a.size) = (int64_t)val.u;
        } else if (mp_str_is(&key, ".value_kind")) {
            if (!mp_next(r, &val) || !take_str(r, &val, ".value_kind", a.value_kind, sizeof a.value_kind))
                return false;
        } else if (!mp_skip(r, 8)) {
            return false;
        }
    }
    if (a.offset < 0 || a.size < 0 || !a.value_kind[0]) {
        snprintf(r->err, sizeof r->err, "metadata %.60s .args[%zu]: needs .offset, .size and "
                 ".value_kind", k->name, index);
        return false;
    }
    if (strncmp(a.value_kind, "hidden_", 7) != 0)
        k->args[k->nargs++] = a;
    return true;
}

static bool read_args(struct mp_reader *r, struct amdgpu_kernel *k)
{
    struct mp_value v;
    if (!mp_next(r, &v))
        return false;
    if (v.kind != MP_ARRAY || k->has_args) {
        snprintf(r->err, sizeof r->err, "metadata %.60s .args: %s", k->name,
                 k->has_args ? "appears twice" : "expected an array");
        return false;
    }
    k->has_args = true;
    k->args = xcalloc((size_t)v.n + 1, sizeof *k->args);
    for (uint32_t i = 0; i < v.n; i++)
        if (!read_arg(r, i, k))
            return false;
    return true;
}

static bool read_kernel(struct mp_reader *r, size_t index, struct amdgpu_kernel *k)
{
    struct mp_value v;
    if (!mp_next(r, &v))
        return false;
    if (v.kind != MP_MAP) {
        snprintf(r->err, sizeof r->err, "metadata amdhsa.kernels[%zu]: expected a map", index);
        return false;
    }
    for (size_t i = 0; i < sizeof int_keys / sizeof *int_keys; i++)
        *(int64_t *)(void *)((char *)k + int_keys[i].off) = -1;
    uint32_t pairs = v.n;
    for (uint32_t p = 0; p < pairs; p++) {
        struct mp_value key, val;
        if (!mp_next(r, &key))
            return false;
        if (key.kind != MP_STR) {
            snprintf(r->err, sizeof r->err, "metadata amdhsa.kernels[%zu]: a key is not a string", index);
            return false;
        }
        bool known = false;
        for (size_t i = 0; i < sizeof int_keys / sizeof *int_keys && !known; i++) {
            if (!mp_str_is(&key, int_keys[i].key))
                continue;
            known = true;
            if (!mp_next(r, &val))
                return false;
            if (val.kind != MP_UINT || val.u > (uint64_t)INT32_MAX * 4) {
                snprintf(r->err, sizeof r->err, "metadata amdhsa.kernels[%zu]%s: expected a "
                         "whole number from 0 to 2^33", index, int_keys[i].key);
                return false;
            }
            *(int64_t *)(void *)((char *)k + int_keys[i].off) = (int64_t)val.u;
        }
        if (known)
            continue;
        if (mp_str_is(&key, ".name") || mp_str_is(&key, ".symbol")) {
            bool is_name = key.s[1] == 'n';
            if (!mp_next(r, &val) ||
                !take_str(r, &val, is_name ? ".name" : ".symbol", is_name ? k->name : k->symbol,
                          is_name ? sizeof k->name : sizeof k->symbol))
                return false;
        } else if (mp_str_is(&key, ".args")) {
            if (!read_args(r, k))
                return false;
        } else if (!mp_skip(r, 8)) {
            return false;
        }
    }
    if (!k->name[0]) {
        snprintf(r->err, sizeof r->err, "metadata amdhsa.kernels[%zu]: no .name", index);
        return false;
    }
    if (k->wavefront_size != 32 && k->wavefront_size != 64) {
        snprintf(r->err, sizeof r->err, "metadata kernel %.60s: .wavefront_size is %lld, "
                 "expected 32 or 64 (the format requires it)", k->name, (long long)k->wavefront_size);
        return false;
    }
    return true;
}

static int read_metadata(const unsigned char *desc, size_t n, struct amdgpu_co *co, char *err,
                         size_t errlen)
{
    struct mp_reader r;
    mp_init(&r, desc, n);
    struct mp_value v;
    if (!mp_next(&r, &v))
        goto fail;
    if (v.kind != MP_MAP)
        return codeobj_fail(err, errlen, "NT_AMDGPU_METADATA: expected a msgpack map at the top");
    bool seen_kernels = false;
    for (uint32_t p = 0, pairs = v.n; p < pairs; p++) {
        struct mp_value key;
        if (!mp_next(&r, &key))
            goto fail;
        if (mp_str_is(&key, "amdhsa.target")) {
            if (!mp_next(&r, &v) ||
                !take_str(&r, &v, "amdhsa.target", co->metadata_target, sizeof co->metadata_target))
                goto fail;
        } else if (mp_str_is(&key, "amdhsa.kernels")) {
            if (!mp_next(&r, &v))
                goto fail;
            if (v.kind != MP_ARRAY)
                return codeobj_fail(err, errlen, "NT_AMDGPU_METADATA: amdhsa.kernels is not an array");
            if (seen_kernels || v.n > MAX_KERNELS)
                return codeobj_fail(err, errlen, "NT_AMDGPU_METADATA: amdhsa.kernels %s",
                           seen_kernels ? "appears twice" : "lists more than 65536 kernels");
            seen_kernels = true;
            co->kernels = xcalloc((size_t)v.n + 1, sizeof *co->kernels);
            for (uint32_t k = 0; k < v.n; k++) {
                if (!read_kernel(&r, k, &co->kernels[k]))
                    goto fail;
                co->nkernels = k + 1;
            }
        } else if (!mp_skip(&r, 8)) {
            goto fail;
        }
    }
    if (!seen_kernels)
        return codeobj_fail(err, errlen, "NT_AMDGPU_METADATA: no amdhsa.kernels");
    return 0;
fail:
    return codeobj_fail(err, errlen, "NT_AMDGPU_METADATA: %s", r.err[0] ? r.err : "unreadable");
}

/* Walks the notes of one SHT_NOTE section; *found when the AMDGPU metadata note was read. */
static int read_notes(const struct elf *e, const struct shdr *s, unsigned idx, bool *found,
                      struct amdgpu_co *co, char *err, size_t errlen)
{
    uint64_t pos = s->off, end = s->off + s->size;
    while (pos < end) {
        if (end - pos < 12)
            return codeobj_fail(err, errlen, "section %u: a note header is cut off at byte %llu", idx,
                       (unsigned long long)pos);
        uint64_t namesz = rd(e->d + pos, 4), descsz = rd(e->d + pos + 4, 4),
                 type = rd(e->d + pos + 8, 4);
        uint64_t name_off = pos + 12, name_pad = (namesz + 3) & ~3ull;
        uint64_t desc_off = name_off + name_pad, desc_pad = (descsz + 3) & ~3ull;
        if (name_pad > end - name_off || descsz > end - desc_off)
            return codeobj_fail(err, errlen, "section %u: note at byte %llu claims %llu name and %llu "
                       "description bytes, past the section's end", idx,
                       (unsigned long long)pos, (unsigned long long)namesz,
                       (unsigned long long)descsz);
        if (namesz == 7 && memcmp(e->d + name_off, "AMDGPU", 7) == 0 &&
            type == NT_AMDGPU_METADATA) {
            if (*found)
                return codeobj_fail(err, errlen, "two NT_AMDGPU_METADATA notes");
            *found = true;
            if (read_metadata(e->d + desc_off, (size_t)descsz, co, err, errlen) != 0)
                return -1;
        }
        pos = desc_off + (desc_pad <= end - desc_off ? desc_pad : end - desc_off);
    }
    return 0;
}

/* The need bytes at symbol name's address, when a symbol table names it and a section holds
 * those bytes inside the file; NULL otherwise. */
static const unsigned char *symbol_bytes(const struct elf *e, const char *want, uint64_t need)
{
    size_t wlen = strlen(want);
    for (unsigned i = 0; i < e->shnum; i++) {
        struct shdr s, str;
        shdr_at(e, i, &s);
        if ((s.type != SHT_SYMTAB && s.type != SHT_DYNSYM) || s.entsize != 24 ||
            !inside(s.off, s.size, e->len) || s.link >= e->shnum)
            continue;
        shdr_at(e, s.link, &str);
        if (!inside(str.off, str.size, e->len))
            continue;
        for (uint64_t j = 0; j < s.size / 24; j++) {
            const unsigned char *sym = e->d + s.off + j * 24;
            uint64_t name = rd(sym, 4), value = rd(sym + 8, 8);
            if (name >= str.size || str.size - name < wlen + 1 ||
                memcmp(e->d + str.off + name, want, wlen + 1) != 0)
                continue;
            for (unsigned h = 0; h < e->shnum; h++) {
                struct shdr t;
                shdr_at(e, h, &t);
                if (t.type == SHT_NOBITS || value < t.addr || value - t.addr > t.size ||
                    t.size - (value - t.addr) < need || !inside(t.off, t.size, e->len))
                    continue;
                return e->d + t.off + (value - t.addr);
            }
        }
    }
    return NULL;
}

/* The kernel descriptor (<name>.kd, 64 bytes) and the kernel's KL_ASSUME_WAVE constant. */
static void read_symbols(const struct elf *e, struct amdgpu_kernel *k)
{
    char want[160];
    if (k->symbol[0])
        snprintf(want, sizeof want, "%s", k->symbol);
    else
        snprintf(want, sizeof want, "%s.kd", k->name);
    const unsigned char *kd = symbol_bytes(e, want, KD_BYTES);
    if (kd) {
        uint32_t rsrc1 = (uint32_t)rd(kd + 48, 4);
        uint16_t props = (uint16_t)rd(kd + 56, 2);
        k->has_descriptor = true;
        k->descriptor_wave32 = (props >> 10) & 1;
        k->float_denorm_32 = (int)((rsrc1 >> 16) & 3);
        k->float_denorm_16_64 = (int)((rsrc1 >> 18) & 3);
    }
    snprintf(want, sizeof want, "kl_assume_wave_%s", k->name);
    const unsigned char *aw = symbol_bytes(e, want, 4);
    k->assumed_wave = aw ? (int)(int32_t)rd(aw, 4) : -1;
}

int amdgpu_co_read(const void *data, size_t len, struct amdgpu_co *co, char *err, size_t errlen)
{
    memset(co, 0, sizeof *co);
    const unsigned char *d = data;
    if (len < 64 || memcmp(d, "\177ELF", 4) != 0)
        return codeobj_fail(err, errlen, "not an ELF file (%s)", len < 64 ? "shorter than an ELF header"
                                                                  : "no \\177ELF magic");
    if (d[4] != 2 || d[5] != 1)
        return codeobj_fail(err, errlen, "not a 64-bit little-endian ELF (class %u, data %u)", d[4], d[5]);
    unsigned machine = (unsigned)rd(d + 18, 2);
    if (machine != EM_AMDGPU)
        return codeobj_fail(err, errlen, "ELF machine %u, not EM_AMDGPU (224): not an AMD code object%s",
                   machine, machine == 190 ? " (190 is an NVIDIA CUBIN)" : "");
    struct elf e = {.d = d, .len = len, .shoff = rd(d + 40, 8), .shnum = (unsigned)rd(d + 60, 2)};
    unsigned shentsize = (unsigned)rd(d + 58, 2);
    co->mach = (unsigned)rd(d + 48, 4) & 0xffu;
    const char *pname = amdgpu_mach_name(co->mach);
    if (pname)
        snprintf(co->processor, sizeof co->processor, "%s", pname);
    else
        snprintf(co->processor, sizeof co->processor, "unknown-0x%02x", co->mach);
    if (e.shnum == 0)
        return codeobj_fail(err, errlen, "no section headers (e_shnum 0)");
    if (shentsize != 64)
        return codeobj_fail(err, errlen, "e_shentsize %u, expected 64", shentsize);
    if (!inside(e.shoff, (uint64_t)e.shnum * 64, len))
        return codeobj_fail(err, errlen, "section headers (%u at offset %llu) run past the end of the "
                   "%zu-byte file", e.shnum, (unsigned long long)e.shoff, len);
    bool found = false;
    for (unsigned i = 0; i < e.shnum; i++) {
        struct shdr s;
        shdr_at(&e, i, &s);
        if (s.type != SHT_NOTE)
            continue;
        if (!inside(s.off, s.size, len)) {
            amdgpu_co_free(co);
            return codeobj_fail(err, errlen, "section %u: offset %llu + size %llu is past the end of the "
                       "%zu-byte file", i, (unsigned long long)s.off,
                       (unsigned long long)s.size, len);
        }
        if (read_notes(&e, &s, i, &found, co, err, errlen) != 0) {
            amdgpu_co_free(co);
            return -1;
        }
    }
    if (!found) {
        amdgpu_co_free(co);
        return codeobj_fail(err, errlen, "no NT_AMDGPU_METADATA note (owner \"AMDGPU\", type 32): not a "
                   "code object v3 or later");
    }
    /* Each kernel scans the symbol tables; a hostile file with both many kernels and many
     * symbols would make that quadratic, so past a bound the descriptors are left unread (and
     * say n/a) rather than the reader taking minutes. Real code objects are far below it. */
    uint64_t nsyms = 0;
    for (unsigned i = 0; i < e.shnum; i++) {
        struct shdr s;
        shdr_at(&e, i, &s);
        if ((s.type == SHT_SYMTAB || s.type == SHT_DYNSYM) && s.entsize == 24)
            nsyms += s.size / 24;
    }
    bool affordable = (uint64_t)co->nkernels * (nsyms + 1) <= 50000000u;
    for (size_t k = 0; k < co->nkernels; k++) {
        co->kernels[k].assumed_wave = -1;
        if (affordable)
            read_symbols(&e, &co->kernels[k]);
    }
    return 0;
}

void amdgpu_co_free(struct amdgpu_co *co)
{
    /* a kernel whose reading failed half-way may hold args beyond nkernels */
    for (size_t i = 0; co->kernels && (i < co->nkernels || co->kernels[i].args); i++)
        free(co->kernels[i].args);
    free(co->kernels);
    co->kernels = NULL;
    co->nkernels = 0;
}
