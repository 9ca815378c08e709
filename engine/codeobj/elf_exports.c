/* Exported symbols of a shared library (engine/codeobj/elf_exports.h): the SHT_DYNSYM section and the
 * string table its sh_link names. */
#include "engine/codeobj/elf_exports.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/codeobj/elf_map.h"

#define SHT_DYNSYM 11
#define SHN_UNDEF 0
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STV_DEFAULT 0
#define STV_PROTECTED 3

struct eng_elf_exports {
    const unsigned char *map;
    size_t len;
    uint64_t sym_off, sym_count, str_off, str_size;
};

static uint64_t rd(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static bool in_file(size_t len, uint64_t off, uint64_t size)
{
    return off <= len && size <= len - off;
}

struct eng_elf_exports *eng_elf_exports_open(const char *path, char *err, size_t errlen)
{
    size_t len;
    const unsigned char *d = eng_elf_map(path, &len, err, errlen);
    if (!d)
        return NULL;
    if (len < 64) {
        snprintf(err, errlen, "%s: expected a shared library (an ELF file)", path);
        eng_elf_unmap(d, len);
        return NULL;
    }
    const char *why = NULL;
    struct eng_elf_exports x = {.map = d, .len = len};
    if (memcmp(d, "\x7f" "ELF", 4) != 0 || d[4] != 2 || d[5] != 1) {
        why = "expected a 64-bit little-endian ELF shared library";
    } else {
        uint64_t shoff = rd(d + 0x28, 8), shentsize = rd(d + 0x3a, 2), shnum = rd(d + 0x3c, 2);
        if (shentsize < 64 || !in_file(len, shoff, shnum * shentsize)) {
            why = "its section headers lie outside the file";
        } else {
            for (uint64_t i = 0; i < shnum && !x.sym_count; i++) {
                const unsigned char *h = d + shoff + i * shentsize;
                if (rd(h + 4, 4) != SHT_DYNSYM)
                    continue;
                uint64_t off = rd(h + 0x18, 8), size = rd(h + 0x20, 8);
                uint64_t link = rd(h + 0x28, 4), entsize = rd(h + 0x38, 8);
                if (link >= shnum || entsize < 24 || !in_file(len, off, size))
                    break;
                const unsigned char *sh = d + shoff + link * shentsize;
                uint64_t soff = rd(sh + 0x18, 8), ssize = rd(sh + 0x20, 8);
                if (!in_file(len, soff, ssize) || ssize == 0 || d[soff + ssize - 1] != '\0')
                    break;
                x.sym_off = off;
                x.sym_count = size / 24;
                x.str_off = soff;
                x.str_size = ssize;
            }
            if (!x.sym_count)
                why = "no dynamic symbol table: expected a shared library";
        }
    }
    if (why) {
        snprintf(err, errlen, "%s: %s", path, why);
        eng_elf_unmap(d, len);
        return NULL;
    }
    struct eng_elf_exports *out = xmalloc(sizeof *out);
    *out = x;
    return out;
}

bool eng_elf_exports_has(const struct eng_elf_exports *x, const char *name)
{
    for (uint64_t i = 0; i < x->sym_count; i++) {
        const unsigned char *s = x->map + x->sym_off + i * 24;
        uint64_t name_off = rd(s, 4);
        unsigned info = s[4], other = s[5];
        uint64_t shndx = rd(s + 6, 2);
        unsigned bind = info >> 4, vis = other & 3;
        if (name_off >= x->str_size || shndx == SHN_UNDEF ||
            (bind != STB_GLOBAL && bind != STB_WEAK) ||
            (vis != STV_DEFAULT && vis != STV_PROTECTED))
            continue;
        /* the string table ends in a NUL (checked at open), so this stays inside it */
        if (strcmp((const char *)x->map + x->str_off + name_off, name) == 0)
            return true;
    }
    return false;
}

void eng_elf_exports_close(struct eng_elf_exports *x)
{
    if (!x)
        return;
    eng_elf_unmap(x->map, x->len);
    free(x);
}
