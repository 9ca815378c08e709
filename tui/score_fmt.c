/* Rung 8's score as a value (tui/score_fmt.h). */
#include "tui/score_fmt.h"

#include <math.h>
#include <stdio.h>

void tui_fmt_score_value(const struct cdb_score *s, char *buf, size_t len)
{
    if (!s->set || isnan(s->value))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.3g", s->value);
}
