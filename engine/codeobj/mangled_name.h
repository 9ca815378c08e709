/* The source name an Itanium C++ symbol was mangled from, as far as a kernel needs it to be
 * found by the name its author calls it: "_Z5scalePfi" -> "scale", "_ZN2ns5scaleEPf" ->
 * "ns::scale", "_Z14moving_averageILi256ELi97EEvPKf" -> "moving_average" with template
 * arguments. Not a demangler: parameter types are not read, and a symbol it does not follow is
 * left alone (no base name). */
#ifndef KL_ENGINE_MANGLED_NAME_H
#define KL_ENGINE_MANGLED_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* The (qualified) name of symbol into out; false when symbol is not a mangled function name
 * this reads. *targs (may be NULL) points at the template argument list ("ILi256ELi97EE...")
 * or NULL when there is none. */
bool mangled_base_name(const char *symbol, char *out, size_t n, const char **targs);

/* Whether the template arguments spelled in source form (the text between < and > of
 * "moving_average<256, 97>") are those of the mangled list targs: integers as L<type>N E
 * (negative: Ln), and the builtin types int, unsigned, float, double, bool, char, long. */
bool mangled_targs_match(const char *targs, const char *source_args);

#endif
