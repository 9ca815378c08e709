#include "engine/codeobj/codeobj_err.h"

#include <stdarg.h>
#include <stdio.h>

int codeobj_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
