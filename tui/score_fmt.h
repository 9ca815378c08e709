/* How rung 8's score reads (struct cdb_score): in a run's checks, `kladder results`, Compare
 * and the Dashboard, so a score reads the same everywhere. */
#ifndef KL_TUI_SCORE_FMT_H
#define KL_TUI_SCORE_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results.h"

/* The score alone, three significant digits: "0.625", "1"; "-" when not set. */
void tui_fmt_score_value(const struct cdb_score *s, char *buf, size_t len);
/* The score with what is known of the rest: "score 0.625 (baseline 1, 8 samples, first
 * diverging step 3)", in Chinese with zh; "" when not set. */
void tui_fmt_score(const struct cdb_score *s, bool zh, char *buf, size_t len);

#endif
