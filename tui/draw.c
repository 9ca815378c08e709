#include "tui/draw.h"

#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "tui/term.h"

static bool ascii_glyphs;

void tui_draw_set_ascii(bool ascii)
{
    ascii_glyphs = ascii;
}

bool tui_draw_ascii(void)
{
    return ascii_glyphs;
}

const char *tui_glyph(enum tui_glyph g)
{
    static const char *const utf8[] = {"●", "·", "│", "─", "▸", "•", "×"};
    static const char *const ascii[] = {"*", ".", "|", "-", ">", "*", "x"};
    return ascii_glyphs ? ascii[g] : utf8[g];
}

/* Writes already-fitted, sanitised text. */
static void put_raw(int y, int x, enum tui_role role, const char *s, size_t n)
{
    attrset(tui_term_attr(role));
    mvaddnstr(y, x, s, (int)n);
}

int tui_draw_text(int y, int x, int w, enum tui_role role, const char *s)
{
    if (w <= 0)
        return 0;
    int used = 0;
    char *fit = text_fit(s ? s : "", w, ascii_glyphs, &used);
    put_raw(y, x, role, fit, strlen(fit));
    free(fit);
    return used;
}

void tui_draw_fill(int y, int x, int w, enum tui_role role)
{
    if (w <= 0)
        return;
    attrset(tui_term_attr(role));
    mvhline(y, x, ' ', w);
}

void tui_draw_pad(int y, int x, int w, enum tui_role role, const char *s)
{
    int used = tui_draw_text(y, x, w, role, s);
    tui_draw_fill(y, x + used, w - used, role);
}

void tui_draw_right(int y, int x, int w, enum tui_role role, const char *s)
{
    if (w <= 0)
        return;
    int tw = text_width(s ? s : "");
    int pad = tw < w ? w - tw : 0;
    tui_draw_fill(y, x, pad, role);
    tui_draw_text(y, x + pad, w - pad, role, s);
}

/* Byte offset of the next occurrence of term in s at or after `from`, or -1. ASCII letters
 * match without regard to case; everything else byte for byte (UTF-8 stays aligned because a
 * match starts at a lead byte of term). */
static long find_ci(const char *s, size_t from, const char *term)
{
    size_t n = strlen(term), len = strlen(s);
    if (n == 0)
        return -1;
    for (size_t i = from; i + n <= len; i++) {
        size_t k = 0;
        for (; k < n; k++) {
            unsigned char a = (unsigned char)s[i + k], b = (unsigned char)term[k];
            if (a >= 'A' && a <= 'Z')
                a = (unsigned char)(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z')
                b = (unsigned char)(b - 'A' + 'a');
            if (a != b)
                break;
        }
        if (k == n)
            return (long)i;
    }
    return -1;
}

bool tui_text_has(const char *s, const char *term)
{
    return s && term && *term && find_ci(s, 0, term) >= 0;
}

void tui_draw_hl(int y, int x, int w, enum tui_role role, enum tui_role hl, const char *s,
                 const char *term)
{
    if (w <= 0)
        return;
    char *fit = text_fit(s ? s : "", w, ascii_glyphs, NULL);
    int col = x;
    size_t pos = 0, len = strlen(fit);
    while (pos < len) {
        long m = term && *term ? find_ci(fit, pos, term) : -1;
        size_t end = m < 0 ? len : (size_t)m;
        if (end > pos) {
            char save = fit[end];
            fit[end] = '\0';
            put_raw(y, col, role, fit + pos, end - pos);
            col += text_width(fit + pos);
            fit[end] = save;
        }
        if (m < 0)
            break;
        size_t tl = strlen(term);
        char save = fit[end + tl];
        fit[end + tl] = '\0';
        put_raw(y, col, hl, fit + end, tl);
        col += text_width(fit + end);
        fit[end + tl] = save;
        pos = end + tl;
    }
    tui_draw_fill(y, col, x + w - col, role);
    free(fit);
}
