/* A kernel file that does not compile, told the way a user fixes it: the compiler's first
 * error, at the line of the user's file it came from, with that line's text. The compiler's
 * own log names temporary files and lines of kernels/kl.h (a macro's definition); the kernel
 * file's line is the one the log ties the error to ("in expansion of macro ..." notes, or the
 * error's own location when it is in the file). */
#ifndef KL_ENGINE_COMPILE_ERROR_H
#define KL_ENGINE_COMPILE_ERROR_H

#include <stddef.h>

/* "drop_tail.kl:10: error: two or more data types in declaration of 'copy_fixed'\n
 *     10 | KL_KERNEL void copy_fixed(float *out, ...)" (the second line only when the line is
 * found in source), from log, the compiler's output for file (a path or base name; the log
 * names it by base name, the engine's #line). Each line free of control characters, cut to fit
 * n. Without an error in the log, its first non-empty line. */
void eng_compile_error_at(const char *log, const char *file, const char *source, char *out,
                          size_t n);

#endif
