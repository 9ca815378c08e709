/* Rows of a host-side loop split over a few threads kept for the process (engine/par_rows.c):
 * a fill of a GPU check's input runs in a check that takes well under a millisecond, where
 * starting threads for it costs as much as it saves. */
#ifndef ENG_PAR_ROWS_H
#define ENG_PAR_ROWS_H

#include <stdint.h>

/* Calls fn(arg, r0, r1) over rows 0 .. rows - 1 in nt parts (at most ENG_PAR_MAX), one on the
 * calling thread, and returns when all are done. Each row in exactly one part; parts run at
 * once, so fn must write only its own rows. */
#define ENG_PAR_MAX 8
void eng_par_rows(void (*fn)(void *arg, uint64_t r0, uint64_t r1), void *arg, uint64_t rows,
                  unsigned nt);

#endif
