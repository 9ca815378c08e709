/* Read-only file mapping for the ELF readers (engine/codeobj/elf_map.h). */
#include "engine/codeobj/elf_map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdint.h>
#include <unistd.h>

const unsigned char *eng_elf_map(const char *path, size_t *len, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO: refused, not waited on */
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        snprintf(err, errlen, "%s: expected an ELF file (a shared library), found %s", path,
                 S_ISREG(st.st_mode) ? "an empty file" : "something that is not a file");
        close(fd);
        return NULL;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    *len = (size_t)st.st_size;
    return map;
}

void eng_elf_unmap(const unsigned char *map, size_t len)
{
    if (map)
        munmap((void *)(uintptr_t)map, len);
}
