/* What a check found, as every part of it writes it down: a note appended to e->detail ("; "
 * between notes, cut where it fills) and the bad elements counted into the check's result. In a
 * file of its own because every other part of the check writes findings. */
#include "engine/exec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void eng_exec_note(struct eng_exec *e, const char *fmt, ...)
{
    size_t len = strlen(e->detail);
    if (len + 4 >= sizeof e->detail)
        return;
    if (len)
        len += (size_t)snprintf(e->detail + len, sizeof e->detail - len, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->detail + len, sizeof e->detail - len, fmt, ap);
    va_end(ap);
}

void eng_exec_record_bad(struct eng_exec *e, int64_t first, int64_t count, double maxerr)
{
    struct eng_check_result *r = e->out;
    if (r->bad_count < 0)
        r->bad_count = 0;
    r->bad_count += count;
    if (first >= 0 && (r->first_bad < 0))
        r->first_bad = first;
    if (!isnan(maxerr) && (isnan(r->max_err) || maxerr > r->max_err))
        r->max_err = maxerr;
}
