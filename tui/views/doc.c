#include "tui/views/doc.h"

#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "tui/draw.h"

void tui_doc_clear(struct tui_doc *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->lines[i].prefix);
        free(d->lines[i].text);
        free(d->lines[i].badge);
        free(d->lines[i].link);
    }
    d->n = 0;
}

void tui_doc_free(struct tui_doc *d)
{
    tui_doc_clear(d);
    free(d->lines);
    d->lines = NULL;
    d->cap = 0;
}

struct tui_doc_line *tui_doc_add(struct tui_doc *d, enum tui_role role, const char *text)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 64;
        d->lines = xrealloc(d->lines, d->cap * sizeof *d->lines);
    }
    struct tui_doc_line *l = &d->lines[d->n++];
    memset(l, 0, sizeof *l);
    l->role = role;
    l->text = xstrdup(text ? text : "");
    return l;
}

void tui_doc_blank(struct tui_doc *d)
{
    tui_doc_add(d, 0, "");
}

void tui_doc_wrap(struct tui_doc *d, int width, int indent, enum tui_role role, const char *text,
                  const char *prefix, int prefix_w, enum tui_role prefix_role)
{
    int avail = width - indent - (prefix ? prefix_w : 0);
    if (avail < 8)
        avail = 8;
    size_t n = 0;
    char **lines = text_wrap(text ? text : "", avail, &n);
    char *pad = xmalloc((size_t)indent + 1);
    memset(pad, ' ', (size_t)indent);
    pad[indent] = '\0';
    for (size_t i = 0; i < n || (i == 0 && n == 0); i++) {
        char *t = xasprintf("%s%s", pad, n ? lines[i] : "");
        struct tui_doc_line *l = tui_doc_add(d, role, t);
        free(t);
        if (prefix) {
            l->prefix = xstrdup(i == 0 ? prefix : "");
            l->prefix_w = prefix_w;
            l->prefix_role = prefix_role;
        }
    }
    free(pad);
    text_lines_free(lines, n);
}

struct draw_ctx {
    struct tui_doc *d;
    int y, x, w;
    bool cursor;
    const char *term;
};

static void draw_line(size_t row, int line, bool selected, void *vctx)
{
    struct draw_ctx *c = vctx;
    const struct tui_doc_line *l = &c->d->lines[row];
    int y = c->y + line, x = c->x, end = c->x + c->w;
    bool sel = selected && c->cursor;
    if (l->prefix) {
        int pw = l->prefix_w < c->w ? l->prefix_w : c->w;
        tui_draw_pad(y, x, pw, sel ? TUI_ROLE_SELECTED : l->prefix_role, l->prefix);
        x += pw;
    }
    int badge_w = l->badge ? text_width(l->badge) + 1 : 0;
    if (badge_w > end - x)
        badge_w = 0;
    enum tui_role role = sel ? TUI_ROLE_SELECTED : l->role;
    if (badge_w) {
        int tw = text_width(l->text);
        int room = end - x - badge_w;
        int used = tui_draw_text(y, x, tw < room ? tw : room, role, l->text);
        tui_draw_text(y, x + used + 1, badge_w - 1, l->badge_role, l->badge);
        if (sel) {
            tui_draw_fill(y, x + used, 1, role);
            tui_draw_fill(y, x + used + badge_w, end - x - used - badge_w, role);
        }
    } else {
        tui_draw_hl(y, x, end - x, role, TUI_ROLE_SEARCH_MATCH, l->text, c->term);
    }
}

void tui_doc_draw(struct tui_doc *d, int y, int x, int h, int w, bool show_cursor,
                  const char *term)
{
    struct draw_ctx c = {.d = d, .y = y, .x = x, .w = w, .cursor = show_cursor, .term = term};
    d->list.n = d->n;
    tui_list_draw(&d->list, h, draw_line, &c);
}

struct find_ctx {
    const struct tui_doc *d;
    const char *term;
};

static bool line_has(size_t row, void *vctx)
{
    struct find_ctx *c = vctx;
    const struct tui_doc_line *l = &c->d->lines[row];
    return tui_text_has(l->text, c->term) || tui_text_has(l->prefix, c->term);
}

bool tui_doc_find(struct tui_doc *d, int dir, const char *term)
{
    if (!term || !*term)
        return false;
    struct find_ctx c = {.d = d, .term = term};
    d->list.n = d->n;
    return tui_list_find(&d->list, dir, line_has, &c);
}
