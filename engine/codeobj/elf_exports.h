/* Whether a shared library exports a symbol: a defined, global or weak, default- or
 * protected-visibility entry of its dynamic symbol table, which is what a downstream caller's
 * dlsym or dynamic link can reach (sglang-33142: after a library moved a module, one caller's
 * guarded import silently fell back to a slow path and another raised). Read from the file,
 * never loaded: nothing in it runs. Every offset is checked against the file's length. */
#ifndef KL_ENGINE_ELF_EXPORTS_H
#define KL_ENGINE_ELF_EXPORTS_H

#include <stdbool.h>
#include <stddef.h>

struct eng_elf_exports;

/* Reads the dynamic symbols of the ELF64 little-endian file at path. NULL with "PATH: reason"
 * in err when it cannot be read or has no dynamic symbol table. */
struct eng_elf_exports *eng_elf_exports_open(const char *path, char *err, size_t errlen);
bool eng_elf_exports_has(const struct eng_elf_exports *x, const char *name);
void eng_elf_exports_close(struct eng_elf_exports *x);

#endif
