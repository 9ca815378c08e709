/* The names a compare view shows in its name columns (suite, check, shape, variant), cut so that
 * what tells a row from its neighbours on screen stays in view: "…ne-fixed" and "…ne-buggy", not
 * "baselin…" twice (tui/name_cut.h). The two-machine view and the every-host matrix keep the
 * cut points of the rows on screen here, found once a frame and used by each cell drawn. */
#ifndef KL_TUI_VIEWS_NAME_CUTS_H
#define KL_TUI_VIEWS_NAME_CUTS_H

#include <stddef.h>

#include "tui/draw.h"

#define NAME_CUTS_ROWS 256 /* rows on screen at most: a taller terminal cuts the rest at the end */
#define NAME_CUTS_COLS 4   /* name columns at most */

struct name_cuts {
    size_t top, shown; /* the rows on screen: `shown` of them from visible row `top` */
    size_t at[NAME_CUTS_COLS][NAME_CUTS_ROWS];
};

/* The cut points of the rows top .. top + height of nrows visible rows, in ncols columns;
 * name(col, row, ctx) is visible row `row`'s name in column col (NULL counts as ""). */
void name_cuts_find(struct name_cuts *c, size_t top, int height, size_t nrows, int ncols,
                    const char *(*name)(int col, size_t row, const void *ctx), const void *ctx);

/* Draws name, visible row `row`'s in column col, cut to w cells at its cut point (at its end for
 * a row off the rows found). */
void name_cuts_draw(const struct name_cuts *c, size_t row, int col, int y, int x, int w,
                    enum tui_role role, const char *name);

#endif
