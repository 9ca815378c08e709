/* Shape-specialised compiles (a manifest's "specialize", engine/manifest.h): the lines put in
 * front of a check's kernel source, and the compiler's first error line for the check's
 * verdict when that source does not compile for the shape. */
#ifndef KL_ENGINE_COMPILE_SPEC_H
#define KL_ENGINE_COMPILE_SPEC_H

#include <stddef.h>

#include "engine/check.h"
#include "engine/manifest.h"

/* "#define KL_SPEC_N 513\n...#define KL_VARIANT_BUGGY 1\n" for check s of suite m (malloc'd),
 * with desc set to "N=513,K=256"; each value is the check's shape's, else the manifest's
 * default. NULL with err when s runs several shapes that disagree on a specialised parameter
 * (one compile cannot serve them). m must specialise (m->nspecialize > 0). */
char *eng_spec_prelude(const struct eng_manifest *m, const struct eng_check_spec *s, char *desc,
                       size_t desclen, char *err, size_t errlen);

/* The first line of a compiler log that reports an error, from the word "error" on (the file
 * and line before it name a temporary file), control characters replaced by '?'; the first
 * non-empty line when none says "error"; "" for an empty log. */
void eng_compile_first_error(const char *log, char *out, size_t n);

#endif
