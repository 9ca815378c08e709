/* Symbol tables of an ELF64 little-endian image in memory: finding one (.symtab or .dynsym)
 * and the functions it defines, the named STT_FUNC entries (a CUBIN and an AMDGPU code object
 * name their kernels there by their mangled C++ names). Every offset is checked against the
 * image's length. */
#ifndef KL_ENGINE_ELF_SYMBOLS_H
#define KL_ENGINE_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A symbol table: sym_count entries of 24 bytes at sym_off, names in the string table at
 * str_off (str_size bytes, ending in a NUL). */
struct eng_elf_symtab {
    uint64_t sym_off, sym_count, str_off, str_size;
};

/* A little-endian unsigned value of n bytes at p. */
uint64_t eng_elf_le(const unsigned char *p, int n);

/* The first section of type `type` (SHT_SYMTAB, SHT_DYNSYM) of the ELF64 little-endian image
 * and its string table, checked to lie inside the image; false when there is none or the
 * image is no such file. */
bool eng_elf_symtab_find(const unsigned char *image, size_t len, unsigned type,
                         struct eng_elf_symtab *out);

/* Calls fn(name, arg) for each defined function symbol (.symtab, else .dynsym) until fn
 * returns nonzero; returns that value, 0 when every symbol was seen, or -1 when the image is
 * no ELF64 little-endian file or has no symbol table. */
int eng_elf_each_function(const void *image, size_t len, int (*fn)(const char *name, void *arg),
                          void *arg);

#endif
