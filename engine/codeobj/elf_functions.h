/* The functions a code object defines: the named STT_FUNC entries of an ELF64 little-endian
 * image's symbol table (.symtab, else .dynsym), read from memory. A CUBIN and an AMDGPU code
 * object name their kernels there by their (mangled) C++ names. Every offset is checked against
 * the image's length. */
#ifndef KL_ENGINE_ELF_FUNCTIONS_H
#define KL_ENGINE_ELF_FUNCTIONS_H

#include <stddef.h>

/* Calls fn(name, arg) for each defined function symbol until fn returns nonzero; returns that
 * value, 0 when every symbol was seen, or -1 when the image is no ELF64 little-endian file or
 * has no symbol table. */
int eng_elf_each_function(const void *image, size_t len, int (*fn)(const char *name, void *arg),
                          void *arg);

#endif
