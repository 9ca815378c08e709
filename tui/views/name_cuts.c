/* The cut points of the names on screen in a compare view (tui/views/name_cuts.h). */
#include "tui/views/name_cuts.h"

#include <stdlib.h>

#include "tui/name_cut.h"

void name_cuts_find(struct name_cuts *c, size_t top, int height, size_t nrows, int ncols,
                    const char *(*name)(int col, size_t row, const void *ctx), const void *ctx)
{
    c->top = top;
    c->shown = height > 0 ? (size_t)height : 0;
    if (c->shown > NAME_CUTS_ROWS)
        c->shown = NAME_CUTS_ROWS;
    if (top + c->shown > nrows)
        c->shown = nrows > top ? nrows - top : 0;
    if (ncols > NAME_CUTS_COLS)
        ncols = NAME_CUTS_COLS;
    const char *names[NAME_CUTS_ROWS];
    for (int k = 0; k < ncols; k++) {
        for (size_t i = 0; i < c->shown; i++)
            names[i] = name(k, top + i, ctx);
        name_cut_points(names, c->shown, c->at[k]);
    }
}

void name_cuts_draw(const struct name_cuts *c, size_t row, int col, int y, int x, int w,
                    enum tui_role role, const char *name)
{
    size_t i = row - c->top;
    size_t at = row >= c->top && i < c->shown && col < NAME_CUTS_COLS ? c->at[col][i] : 0;
    char *t = name_cut(name, at, w, tui_draw_ascii());
    tui_draw_pad(y, x, w, role, t);
    free(t);
}
