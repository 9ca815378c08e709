/* Symbol tables of an ELF64 image in memory. */
#include "engine/codeobj/elf_symbols.h"

#include <elf.h>
#include <string.h>

uint64_t eng_elf_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static bool in_image(size_t len, uint64_t off, uint64_t size)
{
    return off <= len && size <= len - off;
}

bool eng_elf_symtab_find(const unsigned char *d, size_t len, unsigned type,
                         struct eng_elf_symtab *out)
{
    if (!d || len < 64 || memcmp(d, "\x7f" "ELF", 4) != 0 || d[4] != 2 || d[5] != 1)
        return false;
    uint64_t shoff = eng_elf_le(d + 0x28, 8), shentsize = eng_elf_le(d + 0x3a, 2),
             shnum = eng_elf_le(d + 0x3c, 2);
    if (shentsize < 64 || !in_image(len, shoff, shnum * shentsize))
        return false;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *h = d + shoff + i * shentsize;
        if (eng_elf_le(h + 4, 4) != type)
            continue;
        uint64_t off = eng_elf_le(h + 0x18, 8), size = eng_elf_le(h + 0x20, 8);
        uint64_t link = eng_elf_le(h + 0x28, 4), entsize = eng_elf_le(h + 0x38, 8);
        if (link >= shnum || entsize < 24 || !in_image(len, off, size))
            return false;
        const unsigned char *sh = d + shoff + link * shentsize;
        uint64_t soff = eng_elf_le(sh + 0x18, 8), ssize = eng_elf_le(sh + 0x20, 8);
        if (!in_image(len, soff, ssize) || ssize == 0 || d[soff + ssize - 1] != '\0')
            return false;
        *out = (struct eng_elf_symtab){off, size / 24, soff, ssize};
        return true;
    }
    return false;
}

int eng_elf_each_function(const void *image, size_t len, int (*fn)(const char *name, void *arg),
                          void *arg)
{
    const unsigned char *d = image;
    struct eng_elf_symtab t;
    if (!eng_elf_symtab_find(d, len, SHT_SYMTAB, &t) && !eng_elf_symtab_find(d, len, SHT_DYNSYM, &t))
        return -1;
    for (uint64_t i = 0; i < t.sym_count; i++) {
        const unsigned char *s = d + t.sym_off + i * 24;
        uint64_t name = eng_elf_le(s, 4), shndx = eng_elf_le(s + 6, 2);
        if ((s[4] & 0xf) != STT_FUNC || shndx == SHN_UNDEF || name == 0 || name >= t.str_size)
            continue;
        /* the string table ends in a NUL (checked), so the name stays inside it */
        int rc = fn((const char *)d + t.str_off + name, arg);
        if (rc)
            return rc;
    }
    return 0;
}
