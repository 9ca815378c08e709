#include "tui/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

bool cli_parse_int(const char *verb, const char *opt, const char *text, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        fprintf(stderr, "kladder %s: %s expects a whole number from %d to %d, not '%s'\n",
                verb ? verb : "", opt, lo, hi, text);
        return false;
    }
    *out = (int)v;
    return true;
}

int cli_usage_error(const char *verb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "kladder%s%s: ", verb ? " " : "", verb ? verb : "");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see kladder --help)\n");
    va_end(ap);
    return 2;
}
