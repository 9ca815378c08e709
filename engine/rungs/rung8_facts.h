/* Rung 8's facts in words: the score a check recorded (casedb's checks.facts "score") as
 * `kladder results` and the run view show it, through rung 8's entry (engine/rung.h,
 * facts_line). */
#ifndef KL_ENGINE_RUNGS_RUNG8_FACTS_H
#define KL_ENGINE_RUNGS_RUNG8_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results.h"

/* "score 0.625 (baseline 1, 8 samples, first diverging step 3)" (in Chinese with zh), what is
 * known of it in brackets, under the label "Score"; false, buf "", when k has no score. */
bool eng_rung8_facts_line(const struct cdb_check *k, bool zh, const char **label, char *buf,
                          size_t len);

#endif
