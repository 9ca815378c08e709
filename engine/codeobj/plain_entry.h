/* Entry points of a plain source in a GPU code object: a C++ name or a template instance
 * (docs/kernels.md) is a mangled symbol there, found by demangling the object's functions
 * (the C++ runtime's demangler, loaded at run time) and comparing them with the name the
 * manifest gives, spaces and integer-literal suffixes aside (`f<1u, true>` is `f<1, true>`). */
#ifndef KL_ENGINE_PLAIN_ENTRY_H
#define KL_ENGINE_PLAIN_ENTRY_H

#include <stddef.h>

/* The mangled symbol of entry in the ELF image code into out. 0, or -1 with the reason in err
 * (no such function, several, no demangler here, not an ELF image). */
int eng_plain_mangled(const void *code, size_t len, const char *entry, char *out, size_t n,
                      char *err, size_t errlen);

/* The comparable form of a C++ name (malloc'd): spaces removed, a leading return type of a
 * template instance dropped, the parameter list cut, integer-literal suffixes and casts of
 * template arguments removed. */
char *eng_plain_name_key(const char *name);

/* The C++ name symbol was mangled from, with its parameter list (malloc'd, the C++ runtime's
 * demangler); NULL when symbol is no mangled name or there is no demangler here. */
char *eng_plain_demangle(const char *symbol);

#endif
