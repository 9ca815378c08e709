/* Plain sources by name (engine/compile/plain_source.h says what a plain source is): the file names,
 * the entry point names a manifest may give for one, and the symbols they are exported as. */
#ifndef KL_ENGINE_PLAIN_NAME_H
#define KL_ENGINE_PLAIN_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a source file name is a plain source (by its extension). */
bool eng_plain_is(const char *file);

/* Whether entry is an entry point a plain source may name: a C++ name (ns::name allowed),
 * optionally with template arguments of letters, digits, spaces, commas, ., +, -, *, :: and
 * nested <>. */
bool eng_plain_entry_ok(const char *entry);

/* The symbol an entry point is exported under: entry itself when it is an identifier, else
 * "kl_entry_" + its letters and digits + a hash of the whole (distinct entries, distinct
 * symbols). */
void eng_plain_symbol(const char *entry, char *out, size_t n);

#endif
