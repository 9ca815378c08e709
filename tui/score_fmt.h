/* How rung 8's score reads as a value (struct cdb_score) in Compare and the Dashboard; the
 * score in words beside a check is rung 8's own (engine/rungs/rung8_facts.h, through its
 * entry's facts_line). */
#ifndef KL_TUI_SCORE_FMT_H
#define KL_TUI_SCORE_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results.h"

/* The score alone, three significant digits: "0.625", "1"; "-" when not set. */
void tui_fmt_score_value(const struct cdb_score *s, char *buf, size_t len);

#endif
