/* What a compiler is handed of a suite's kernel source reaches no file outside the suite's
 * folder. The compilers run on a copy of the text in a private folder (the cpu backend's
 * c++), or on the text alone (NVRTC, hipRTC), so an #include "name" left in it would be looked
 * up beside that copy, not beside the source: "../../etc/passwd" would be read and its lines
 * echoed in the compiler's errors. So kladder reads every local include itself, inside the
 * suite's folder only (common/file_within.h), and puts it in the text in its place:
 *
 * - #include "name" (and #import "name"): name beside the including file, read inside the
 *   folder, each file once, marked with #line so errors name the file and line as written;
 * - #include <name>: the compiler's own headers and kladder's; a name that is absolute or
 *   climbs ("..") is refused;
 * - #include_next "name", #embed, a computed #include MACRO, __has_include("name") and
 *   __has_include of a refused <name>: refused;
 * - #line with anything but a number, and GNU line markers ("# 1 \"file\""): refused, since a
 *   compiler quotes the lines of the file a #line names in its messages.
 *
 * A directive is recognised the way the preprocessor does: "#" or "%:", comments and spaces
 * between the words, lines joined by a backslash at their end. Lines that look like one
 * inside a comment or a string are judged as directives too: refusing one of those costs a
 * clear message, missing a real one would cost the folder. */
#ifndef KL_ENGINE_SOURCE_INCLUDES_H
#define KL_ENGINE_SOURCE_INCLUDES_H

#include <stddef.h>

/* text, the kernel source file (its name inside the folder root), with its local includes
 * put in place: a malloc'd text, or NULL with "FILE:LINE: ..." in err. */
char *eng_source_includes(const char *root, const char *file, const char *text, char *err,
                          size_t errlen);

/* The same rules over text and every local include it reaches, the includes left where they
 * are (for a plain .cu or .hip source, whose includes engine/compile/plain_source.c puts in place
 * itself, inside the folder too). 0, or -1 with "FILE:LINE: ..." in err. */
int eng_source_check(const char *root, const char *file, const char *text, char *err,
                     size_t errlen);

#endif
