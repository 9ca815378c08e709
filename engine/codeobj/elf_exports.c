/* Exported symbols of a shared library (engine/codeobj/elf_exports.h): the SHT_DYNSYM section and the
 * string table its sh_link names. */
#include "engine/codeobj/elf_exports.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/codeobj/elf_map.h"
#include "engine/codeobj/elf_symbols.h"

#define SHT_DYNSYM 11
#define SHN_UNDEF 0
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STV_DEFAULT 0
#define STV_PROTECTED 3

struct eng_elf_exports {
    const unsigned char *map;
    size_t len;
    struct eng_elf_symtab dyn;
};

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
    if (memcmp(d, "\x7f" "ELF", 4) != 0 || d[4] != 2 || d[5] != 1)
        why = "expected a 64-bit little-endian ELF shared library";
    else if (!eng_elf_symtab_find(d, len, SHT_DYNSYM, &x.dyn) || !x.dyn.sym_count)
        why = "no dynamic symbol table: expected a shared library";
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
    for (uint64_t i = 0; i < x->dyn.sym_count; i++) {
        const unsigned char *s = x->map + x->dyn.sym_off + i * 24;
        uint64_t name_off = eng_elf_le(s, 4);
        unsigned info = s[4], other = s[5];
        uint64_t shndx = eng_elf_le(s + 6, 2);
        unsigned bind = info >> 4, vis = other & 3;
        if (name_off >= x->dyn.str_size || shndx == SHN_UNDEF ||
            (bind != STB_GLOBAL && bind != STB_WEAK) ||
            (vis != STV_DEFAULT && vis != STV_PROTECTED))
            continue;
        /* the string table ends in a NUL (checked at open), so this stays inside it */
        if (strcmp((const char *)x->map + x->dyn.str_off + name_off, name) == 0)
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
