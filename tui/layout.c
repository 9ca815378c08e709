#include "tui/layout.h"

#include <string.h>

static struct tui_rect rect(int y, int x, int h, int w)
{
    struct tui_rect r = {.y = y, .x = x, .h = h, .w = w};
    return r;
}

void tui_layout_compute(int rows, int cols, struct tui_layout *out)
{
    memset(out, 0, sizeof *out);
    out->screen = rect(0, 0, rows > 0 ? rows : 0, cols > 0 ? cols : 0);
    if (rows < TUI_MIN_ROWS || cols < TUI_MIN_COLS) {
        out->too_small = true;
        return;
    }
    out->header = rect(0, 0, 1, cols);
    out->body = rect(1, 0, rows - 3, cols);
    out->status = rect(rows - 2, 0, 1, cols);
    out->keybar = rect(rows - 1, 0, 1, cols);

    /* The sidebar holds "7 Environment  12"-sized lines (or their Chinese names): a quarter of
     * the width, but never so narrow that names vanish nor so wide that titles do. */
    int side = cols / 4;
    if (side < 20)
        side = 20;
    if (side > 30)
        side = 30;
    out->sidebar = rect(1, 0, rows - 3, side);
    out->sep = rect(1, side, rows - 3, 1);
    out->main = rect(1, side + 1, rows - 3, cols - side - 1);
}

bool tui_rect_contains(const struct tui_rect *r, int y, int x)
{
    return y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}
