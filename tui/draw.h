/* The one way text reaches the screen. Every function sanitises (control characters and
 * malformed UTF-8 become U+FFFD), measures with wcwidth (Chinese is two cells) and cuts on a
 * character boundary with an ellipsis, so a string never spills past its width. Coordinates
 * are screen cells; a width <= 0 draws nothing. */
#ifndef KL_TUI_DRAW_H
#define KL_TUI_DRAW_H

#include <stdbool.h>

#include "tui/theme.h"

/* Turns on ASCII glyphs and truncation marks (for terminals whose locale is not UTF-8). */
void tui_draw_set_ascii(bool ascii);
bool tui_draw_ascii(void);

/* Draws s at (y, x) in at most w cells; returns the cells used. */
int tui_draw_text(int y, int x, int w, enum tui_role role, const char *s);

/* Like tui_draw_text, padded with spaces to exactly w cells. */
void tui_draw_pad(int y, int x, int w, enum tui_role role, const char *s);

/* Right-aligned in w cells (padded on the left). */
void tui_draw_right(int y, int x, int w, enum tui_role role, const char *s);

/* Like tui_draw_pad, with every occurrence of `term` (ASCII case-insensitive) in role hl. */
void tui_draw_hl(int y, int x, int w, enum tui_role role, enum tui_role hl, const char *s,
                 const char *term);

/* w spaces in role. */
void tui_draw_fill(int y, int x, int w, enum tui_role role);

/* True when s contains term (ASCII case-insensitively; other characters exactly). */
bool tui_text_has(const char *s, const char *term);

/* Glyphs with an ASCII fallback. */
enum tui_glyph { TUI_GLYPH_MARK, TUI_GLYPH_DOT, TUI_GLYPH_VLINE, TUI_GLYPH_HLINE,
                 TUI_GLYPH_ARROW, TUI_GLYPH_BULLET, TUI_GLYPH_TIMES };
const char *tui_glyph(enum tui_glyph g);

#endif
