/* The seam of a rung 3 check, under the run view's check detail (tui/views/view_run.c): the two
 * sides the check recorded (engine/check.h: the wave a kernel assumes beside the wave it runs
 * at, a kernel's value beside the reference's) set side by side, and beside the check its
 * passing neighbour: the check of the same run, rung, suite and variant whose name differs from
 * it in one number only (wave32-default and wave64-default, layout-scale_layout2-wave32 and
 * layout-scale_layout1-wave32, code-gfx1250-tile_k64 and code-gfx1250-tile_k128), so that a
 * failure is read as one comparison with its two numbers. */
#ifndef KL_TUI_RUN_SEAM_H
#define KL_TUI_RUN_SEAM_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results.h"
#include "tui/views/view.h"

/* True when a and b are the same name but for exactly one run of digits ("wave32-x",
 * "wave64-x"). */
bool tui_seam_one_number_apart(const char *a, const char *b);

/* The passing neighbour of the failing rung 3 check checks[sel] among checks[0..n) (the first
 * in order), or NULL: none, or checks[sel] is not a failing rung 3 check. */
const struct cdb_check *tui_seam_neighbour(const struct cdb_check *checks, size_t n, size_t sel);

/* How many lines tui_seam_draw draws for checks[sel]: 0 when it has neither a recorded seam
 * nor a neighbour. */
int tui_seam_lines(const struct cdb_check *checks, size_t n, size_t sel);

/* Draws them from line y in columns x..x+w, stopping before ymax; returns the next line. */
int tui_seam_draw(struct tui_app *app, const struct cdb_check *checks, size_t n, size_t sel,
                  int y, int x, int w, int ymax);

#endif
