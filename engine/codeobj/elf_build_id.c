/* The GNU build id of an ELF file (engine/codeobj/elf_build_id.h). Notes are found through the section
 * headers (SHT_NOTE) and, when a file has none (a stripped section table), through the program
 * headers (PT_NOTE). */
#include "engine/codeobj/elf_build_id.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/codeobj/elf_map.h"


#define NT_GNU_BUILD_ID 3
#define SHT_NOTE 7
#define PT_NOTE 4

struct elf {
    const unsigned char *d;
    size_t len;
    bool is64, big;
};

static uint64_t rd(const struct elf *e, size_t off, int size)
{
    uint64_t v = 0;
    for (int i = 0; i < size; i++) {
        unsigned b = e->d[off + (size_t)(e->big ? i : size - 1 - i)];
        v = (v << 8) | b;
    }
    return v;
}

static bool in_file(const struct elf *e, uint64_t off, uint64_t size)
{
    return off <= e->len && size <= e->len - off;
}

/* Walks the notes in [off, off+size); 0 with the id in out, 1 when none is a build id. */
static int scan_notes(const struct elf *e, uint64_t off, uint64_t size, char *out)
{
    uint64_t end = off + size;
    while (off + 12 <= end) {
        uint64_t namesz = rd(e, (size_t)off, 4), descsz = rd(e, (size_t)off + 4, 4);
        uint64_t type = rd(e, (size_t)off + 8, 4);
        uint64_t name_off = off + 12;
        uint64_t desc_off = name_off + ((namesz + 3) & ~(uint64_t)3);
        uint64_t next = desc_off + ((descsz + 3) & ~(uint64_t)3);
        if (namesz > size || descsz > size || next > end)
            return 1;
        if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(e->d + name_off, "GNU", 4) &&
            descsz > 0 && descsz <= ELF_BUILD_ID_MAX) {
            for (uint64_t i = 0; i < descsz; i++)
                snprintf(out + 2 * i, 3, "%02x", e->d[desc_off + i]);
            return 0;
        }
        off = next;
    }
    return 1;
}

int eng_elf_build_id_mem(const unsigned char *data, size_t len, char out[2 * ELF_BUILD_ID_MAX + 1],
                         char *why, size_t whylen)
{
    out[0] = '\0';
    if (len < 52 || memcmp(data, "\x7f" "ELF", 4) != 0) {
        snprintf(why, whylen, "expected an ELF file (a shared library), found no ELF header");
        return -1;
    }
    struct elf e = {data, len, data[4] == 2, data[5] == 2};
    if ((data[4] != 1 && data[4] != 2) || (data[5] != 1 && data[5] != 2) ||
        (e.is64 && len < 64)) {
        snprintf(why, whylen, "expected an ELF class and byte order, found %u and %u", data[4],
                 data[5]);
        return -1;
    }
    int w = e.is64 ? 8 : 4;
    uint64_t shoff = rd(&e, e.is64 ? 0x28 : 0x20, w);
    uint64_t phoff = rd(&e, e.is64 ? 0x20 : 0x1c, w);
    uint64_t shentsize = rd(&e, e.is64 ? 0x3a : 0x2e, 2), shnum = rd(&e, e.is64 ? 0x3c : 0x30, 2);
    uint64_t phentsize = rd(&e, e.is64 ? 0x36 : 0x2a, 2), phnum = rd(&e, e.is64 ? 0x38 : 0x2c, 2);
    if (shoff && shentsize >= (uint64_t)(e.is64 ? 64 : 40) && in_file(&e, shoff, shnum * shentsize))
        for (uint64_t i = 0; i < shnum; i++) {
            size_t h = (size_t)(shoff + i * shentsize);
            if (rd(&e, h + 4, 4) != SHT_NOTE)
                continue;
            uint64_t off = rd(&e, h + (e.is64 ? 0x18 : 0x10), w);
            uint64_t size = rd(&e, h + (e.is64 ? 0x20 : 0x14), w);
            if (in_file(&e, off, size) && scan_notes(&e, off, size, out) == 0)
                return 0;
        }
    if (phoff && phentsize >= (uint64_t)(e.is64 ? 56 : 32) && in_file(&e, phoff, phnum * phentsize))
        for (uint64_t i = 0; i < phnum; i++) {
            size_t h = (size_t)(phoff + i * phentsize);
            if (rd(&e, h, 4) != PT_NOTE)
                continue;
            uint64_t off = rd(&e, h + (e.is64 ? 0x08 : 0x04), w);
            uint64_t size = rd(&e, h + (e.is64 ? 0x20 : 0x10), w);
            if (in_file(&e, off, size) && scan_notes(&e, off, size, out) == 0)
                return 0;
        }
    snprintf(why, whylen, "no GNU build id note (link it with -Wl,--build-id)");
    return 1;
}

int eng_elf_build_id(const char *path, char out[2 * ELF_BUILD_ID_MAX + 1], char *err,
                     size_t errlen)
{
    out[0] = '\0';
    size_t len;
    const unsigned char *map = eng_elf_map(path, &len, err, errlen);
    if (!map)
        return -1;
    char why[256];
    int rc = eng_elf_build_id_mem(map, len, out, why, sizeof why);
    if (rc != 0)
        snprintf(err, errlen, "%s: %s", path, why);
    eng_elf_unmap(map, len);
    return rc;
}
