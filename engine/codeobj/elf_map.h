/* A file mapped read-only for the ELF readers (engine/codeobj/elf_build_id.h, engine/codeobj/elf_exports.h):
 * the libraries worth inspecting (a GPU runtime, a torch build) can be far larger than a
 * whole-file read allows, and only headers, notes and symbol tables are touched. */
#ifndef KL_ENGINE_ELF_MAP_H
#define KL_ENGINE_ELF_MAP_H

#include <stddef.h>

/* The file's bytes (unmap with eng_elf_unmap) and *len; NULL with "PATH: reason" in err when it
 * cannot be opened, is not a regular file, or is empty. */
const unsigned char *eng_elf_map(const char *path, size_t *len, char *err, size_t errlen);
void eng_elf_unmap(const unsigned char *map, size_t len);

#endif
