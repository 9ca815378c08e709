/* The code-object readers' one way to say what is wrong: a formatted message into the caller's
 * buffer, and the -1 the reader returns with it. */
#ifndef KL_ENGINE_CODEOBJ_ERR_H
#define KL_ENGINE_CODEOBJ_ERR_H

#include <stddef.h>

/* Writes the message into err (errlen bytes; err may be NULL when errlen is 0); returns -1. */
int codeobj_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
