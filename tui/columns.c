#include "tui/columns.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/text.h"

static int total(const struct tui_col *c, size_t n, int gap)
{
    int t = 0, shown = 0;
    for (size_t i = 0; i < n; i++)
        if (c[i].w > 0) {
            t += c[i].w;
            shown++;
        }
    return t + (shown > 1 ? (shown - 1) * gap : 0);
}

/* Whether column i can still give: shown, with a give order, and not a kept one at its min. */
static bool can_give(const struct tui_col *ci)
{
    int min = ci->min > 0 ? ci->min : 1;
    return ci->w > 0 && ci->give > 0 && !(ci->keep && ci->w <= min);
}

/* The column that gives way next: the lowest give order that can still give; -1 when none. */
static int next_to_give(const struct tui_col *c, size_t n)
{
    int best = -1;
    for (size_t i = 0; i < n; i++)
        if (can_give(&c[i]) && (best < 0 || c[i].give < c[best].give))
            best = (int)i;
    return best;
}

int tui_columns_fit(struct tui_col *c, size_t n, int width, int gap)
{
    if (width < 0)
        width = 0;
    for (size_t i = 0; i < n; i++) {
        c[i].w = c[i].want > 0 ? c[i].want : 1;
        c[i].x = 0;
    }
    int over = total(c, n, gap) - width;
    while (over > 0) {
        int k = next_to_give(c, n);
        if (k < 0)
            break;
        int min = c[k].min > 0 ? c[k].min : 1;
        if (c[k].w > min) { /* shrink toward min first */
            int take = c[k].w - min < over ? c[k].w - min : over;
            c[k].w -= take;
        } else { /* at its min: drop it, with the gap before it */
            c[k].w = 0;
        }
        over = total(c, n, gap) - width;
    }
    /* Only columns that never give are left and still too wide: the flex column shrinks to
     * its min, then columns are cut from the right, dropping what no longer has a cell. */
    for (size_t i = 0; over > 0 && i < n; i++)
        if (c[i].flex && c[i].w > (c[i].min > 0 ? c[i].min : 1)) {
            int room = c[i].w - (c[i].min > 0 ? c[i].min : 1);
            c[i].w -= room < over ? room : over;
            over = total(c, n, gap) - width;
        }
    for (size_t i = n; over > 0 && i-- > 0;) {
        if (c[i].w == 0)
            continue;
        int take = c[i].w - 1 < over ? c[i].w - 1 : over;
        c[i].w -= take;
        over = total(c, n, gap) - width;
        if (over > 0) {
            c[i].w = 0;
            over = total(c, n, gap) - width;
        }
    }
    if (over < 0)
        for (size_t i = 0; i < n; i++)
            if (c[i].flex && c[i].w > 0) {
                c[i].w -= over;
                break;
            }
    int x = 0, shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (c[i].w == 0)
            continue;
        if (shown++)
            x += gap;
        c[i].x = x;
        x += c[i].w;
    }
    return shown;
}

void tui_col_print(const char *s, int cells, bool ascii)
{
    char *t = text_fit_pad(s ? s : "", cells, ascii);
    fputs(t, stdout);
    free(t);
    fputc(' ', stdout);
}
