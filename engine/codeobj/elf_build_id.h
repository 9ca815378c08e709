/* The GNU build id of an ELF file (the NT_GNU_BUILD_ID note that `ld --build-id` writes): what
 * identifies one build of a shared library whatever its file name or version string says, so a
 * pin (engine/machine/pin.h) can tell a rebuilt libfoo.so.1 from the one it was written against.
 *
 * The reader trusts nothing in the file: every offset and size is checked against the file's
 * length before it is used; ELF32 and ELF64, either byte order. */
#ifndef KL_ENGINE_ELF_BUILD_ID_H
#define KL_ENGINE_ELF_BUILD_ID_H

#include <stddef.h>

/* Longest build id kept, in bytes (SHA-1 ids are 20; a few linkers write up to 32). */
#define ELF_BUILD_ID_MAX 64

/* Reads the build id of the ELF file at path as lower-case hex into out (2 * ELF_BUILD_ID_MAX + 1
 * bytes). Returns 0; 1 when the file is ELF but has no build id note; -1 with
 * "PATH: reason" in err when it cannot be read or is not ELF. */
int eng_elf_build_id(const char *path, char out[2 * ELF_BUILD_ID_MAX + 1], char *err,
                     size_t errlen);

/* The same on bytes in memory (for tests and for files already read). */
int eng_elf_build_id_mem(const unsigned char *data, size_t len, char out[2 * ELF_BUILD_ID_MAX + 1],
                         char *why, size_t whylen);

#endif
