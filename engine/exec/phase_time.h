/* Where a check's time goes, by phase: KLADDER_PHASE_TIMES=1 makes each check of an op on the
 * host's side (the library's kl_run_check) print one line to stderr, the microseconds spent in
 * each phase since the last mark. Off (the default), a mark is one branch. For measuring the
 * per-check overhead (bench/RESULTS.md), not a report. */
#ifndef ENG_PHASE_TIME_H
#define ENG_PHASE_TIME_H

#include <stdbool.h>

/* The time since the previous mark (or start) goes to phase name. */
void eng_phase_mark(const char *name);
/* A new check: the clock starts, nothing is accumulated. */
void eng_phase_start(void);
/* One line, "phases CHECK: name=us ... total=us", to stderr. */
void eng_phase_print(const char *check);

#endif
