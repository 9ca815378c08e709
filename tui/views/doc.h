/* A document of screen lines for the pager-like views (help, case detail): each line is an
 * optional fixed-width prefix, a text and an optional badge, each in its own role, plus an
 * optional link (a case id) that Enter follows. Lines own their strings. */
#ifndef KL_TUI_DOC_H
#define KL_TUI_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/views/list.h"
#include "tui/theme.h"

struct tui_doc_line {
    char *prefix;            /* may be NULL */
    int prefix_w;            /* cells reserved for the prefix (padded) */
    enum tui_role prefix_role;
    char *text;
    enum tui_role role;
    char *badge;             /* may be NULL; drawn after the text in badge_role */
    enum tui_role badge_role;
    char *link;              /* case id, or NULL */
};

struct tui_doc {
    struct tui_doc_line *lines;
    size_t n, cap;
    struct tui_list list;
    int width;               /* the width the lines were wrapped for */
};

void tui_doc_clear(struct tui_doc *d);   /* frees the lines, keeps the list position */
void tui_doc_free(struct tui_doc *d);

/* Appends one line (copies the strings); returns it for setting badge/link. */
struct tui_doc_line *tui_doc_add(struct tui_doc *d, enum tui_role role, const char *text);

/* Appends text word-wrapped to `width` cells after `indent` spaces; '\n' breaks lines.
 * With a prefix, the first line carries it and every line is indented past prefix_w. */
void tui_doc_wrap(struct tui_doc *d, int width, int indent, enum tui_role role, const char *text,
                  const char *prefix, int prefix_w, enum tui_role prefix_role);

void tui_doc_blank(struct tui_doc *d);

/* Draws the document into the rectangle, the cursor line in `selected` (or not at all when
 * show_cursor is false), highlighting `term`. */
void tui_doc_draw(struct tui_doc *d, int y, int x, int h, int w, bool show_cursor,
                  const char *term);

/* n/N: the next/previous line containing term; false when none. */
bool tui_doc_find(struct tui_doc *d, int dir, const char *term);

#endif
