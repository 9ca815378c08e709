/* Defined function symbols of an ELF64 image in memory. */
#include "engine/codeobj/elf_functions.h"

#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static uint64_t rd(const unsigned char *p, int n)
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

/* The section of type `type` that holds symbols, with its string table; false when none. */
static bool symbols(const unsigned char *d, size_t len, unsigned type, uint64_t *sym_off,
                    uint64_t *count, uint64_t *str_off, uint64_t *str_size)
{
    uint64_t shoff = rd(d + 0x28, 8), shentsize = rd(d + 0x3a, 2), shnum = rd(d + 0x3c, 2);
    if (shentsize < 64 || !in_image(len, shoff, shnum * shentsize))
        return false;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *h = d + shoff + i * shentsize;
        if (rd(h + 4, 4) != type)
            continue;
        uint64_t off = rd(h + 0x18, 8), size = rd(h + 0x20, 8), link = rd(h + 0x28, 4);
        if (link >= shnum || !in_image(len, off, size))
            return false;
        const unsigned char *sh = d + shoff + link * shentsize;
        uint64_t soff = rd(sh + 0x18, 8), ssize = rd(sh + 0x20, 8);
        if (!in_image(len, soff, ssize) || ssize == 0 || d[soff + ssize - 1] != '\0')
            return false;
        *sym_off = off;
        *count = size / 24;
        *str_off = soff;
        *str_size = ssize;
        return true;
    }
    return false;
}

int eng_elf_each_function(const void *image, size_t len, int (*fn)(const char *name, void *arg),
                          void *arg)
{
    const unsigned char *d = image;
    if (!d || len < 64 || memcmp(d, "\x7f" "ELF", 4) != 0 || d[4] != 2 || d[5] != 1)
        return -1;
    uint64_t off, count, soff, ssize;
    if (!symbols(d, len, SHT_SYMTAB, &off, &count, &soff, &ssize) &&
        !symbols(d, len, SHT_DYNSYM, &off, &count, &soff, &ssize))
        return -1;
    for (uint64_t i = 0; i < count; i++) {
        const unsigned char *s = d + off + i * 24;
        uint64_t name = rd(s, 4), shndx = rd(s + 6, 2);
        if ((s[4] & 0xf) != STT_FUNC || shndx == SHN_UNDEF || name == 0 || name >= ssize)
            continue;
        /* the string table ends in a NUL (checked above), so the name stays inside it */
        int rc = fn((const char *)d + soff + name, arg);
        if (rc)
            return rc;
    }
    return 0;
}
