/* Rows of a host-side loop split over a few threads kept for the process (engine/values/par_rows.c):
 * a fill of a GPU check's input runs in a check that takes well under a millisecond, where
 * starting threads for it costs as much as it saves. */
#ifndef ENG_PAR_ROWS_H
#define ENG_PAR_ROWS_H

#include <stdint.h>

/* Calls fn(arg, r0, r1) over rows 0 .. rows - 1 in nt parts (at most ENG_PAR_MAX), one on the
 * calling thread, and returns when all are done. Each row in exactly one part; parts run at
 * once, so fn must write only its own rows. A job started with eng_par_rows_start is waited
 * for first. */
#define ENG_PAR_MAX 8
void eng_par_rows(void (*fn)(void *arg, uint64_t r0, uint64_t r1), void *arg, uint64_t rows,
                  unsigned nt);

/* The same split, in the background: all nt parts on the kept threads, none on the caller's,
 * and returns at once (after waiting for a job started before). fn and arg must stay valid
 * until eng_par_rows_wait says the job is done. 0, or -1 when no thread could be started (the
 * caller does the work itself). */
int eng_par_rows_start(void (*fn)(void *arg, uint64_t r0, uint64_t r1), void *arg,
                       uint64_t rows, unsigned nt);

/* Waits for the job eng_par_rows_start started: 0 when it ran to its end, -1 when this process
 * is not the one that started it (a fork's child has none of its parent's threads: the job
 * never ran here). 0 when none was started. */
int eng_par_rows_wait(void);

#endif
