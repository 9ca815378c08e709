#include "tui/views/list.h"

static void keep_visible(struct tui_list *l)
{
    if (l->n == 0) {
        l->sel = l->top = 0;
        return;
    }
    if (l->sel >= l->n)
        l->sel = l->n - 1;
    if (l->height <= 0)
        return; /* not drawn yet: the first draw scrolls */
    size_t h = l->height > 0 ? (size_t)l->height : 1;
    if (l->sel < l->top)
        l->top = l->sel;
    if (l->sel >= l->top + h)
        l->top = l->sel - h + 1;
    /* Do not leave blank lines below the last row when the rows could fill the view. */
    if (l->n >= h && l->top > l->n - h)
        l->top = l->n - h;
    if (l->n < h)
        l->top = 0;
}

void tui_list_reset(struct tui_list *l, size_t n)
{
    l->n = n;
    l->sel = l->top = 0;
}

void tui_list_set_count(struct tui_list *l, size_t n)
{
    l->n = n;
    keep_visible(l);
}

void tui_list_set_height(struct tui_list *l, int height)
{
    l->height = height > 0 ? height : 0;
    keep_visible(l);
}

void tui_list_select(struct tui_list *l, size_t row)
{
    l->sel = row;
    keep_visible(l);
}

void tui_list_move(struct tui_list *l, long delta)
{
    if (l->n == 0)
        return;
    if (delta < 0 && (size_t)-delta > l->sel)
        l->sel = 0;
    else if (delta > 0 && l->sel + (size_t)delta >= l->n)
        l->sel = l->n - 1;
    else
        l->sel = (size_t)((long)l->sel + delta);
    keep_visible(l);
}

void tui_list_page(struct tui_list *l, int dir)
{
    long h = l->height > 1 ? l->height - 1 : 1;
    /* Move the view a page and the selection with it, as less and tig do. */
    if (dir > 0) {
        size_t h_u = (size_t)h;
        l->top = l->top + h_u < l->n ? l->top + h_u : l->top;
    } else {
        l->top = l->top > (size_t)h ? l->top - (size_t)h : 0;
    }
    tui_list_move(l, dir > 0 ? h : -h);
}

void tui_list_first(struct tui_list *l)
{
    tui_list_select(l, 0);
}

void tui_list_last(struct tui_list *l)
{
    tui_list_select(l, l->n ? l->n - 1 : 0);
}

void tui_list_scroll(struct tui_list *l, long delta)
{
    size_t h = l->height > 0 ? (size_t)l->height : 1;
    size_t max_top = l->n > h ? l->n - h : 0;
    if (delta < 0)
        l->top = (size_t)-delta > l->top ? 0 : l->top - (size_t)-delta;
    else
        l->top = l->top + (size_t)delta > max_top ? max_top : l->top + (size_t)delta;
    if (l->n == 0)
        return;
    if (l->sel < l->top)
        l->sel = l->top;
    if (l->sel >= l->top + h)
        l->sel = l->top + h - 1;
}

long tui_list_row_at(const struct tui_list *l, int line)
{
    if (line < 0 || line >= l->height)
        return -1;
    size_t row = l->top + (size_t)line;
    return row < l->n ? (long)row : -1;
}

long tui_list_mouse(struct tui_list *l, int line, int wheel, bool *again)
{
    if (wheel) {
        tui_list_scroll(l, (long)wheel * 3);
        return TUI_LIST_WHEEL;
    }
    long row = tui_list_row_at(l, line);
    if (row < 0)
        return TUI_LIST_NO_ROW;
    if (again)
        *again = (size_t)row == l->sel;
    tui_list_select(l, (size_t)row);
    return row;
}

bool tui_list_find(struct tui_list *l, int dir, bool (*match)(size_t row, void *ctx), void *ctx)
{
    if (l->n == 0)
        return false;
    for (size_t i = 1; i <= l->n; i++) {
        size_t row = dir >= 0 ? (l->sel + i) % l->n : (l->sel + l->n - i % l->n) % l->n;
        if (match(row, ctx)) {
            tui_list_select(l, row);
            return true;
        }
    }
    return false;
}

void tui_list_draw(struct tui_list *l, int height,
                   void (*draw)(size_t row, int line, bool selected, void *ctx), void *ctx)
{
    tui_list_set_height(l, height);
    for (int line = 0; line < l->height; line++) {
        size_t row = l->top + (size_t)line;
        if (row >= l->n)
            break;
        draw(row, line, row == l->sel, ctx);
    }
}

bool tui_list_navigate(struct tui_list *l, enum tui_action act)
{
    switch (act) {
    case TUI_ACT_DOWN:
    case TUI_ACT_UP:
        tui_list_move(l, act == TUI_ACT_DOWN ? 1 : -1);
        return true;
    case TUI_ACT_PAGE_DOWN:
    case TUI_ACT_PAGE_UP:
        tui_list_page(l, act == TUI_ACT_PAGE_DOWN ? 1 : -1);
        return true;
    case TUI_ACT_FIRST:
        tui_list_first(l);
        return true;
    case TUI_ACT_LAST:
        tui_list_last(l);
        return true;
    default:
        return false;
    }
}
