#define _XOPEN_SOURCE 700
#include "common/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "common/xalloc.h"

size_t text_encode(uint32_t cp, char out[5])
{
    size_t n = 0;
    if (cp < 0x80) {
        out[n++] = (char)cp;
    } else if (cp < 0x800) {
        out[n++] = (char)(0xC0 | (cp >> 6));
        out[n++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000 && (cp < 0xD800 || cp > 0xDFFF)) {
        out[n++] = (char)(0xE0 | (cp >> 12));
        out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[n++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp >= 0x10000 && cp < 0x110000) {
        out[n++] = (char)(0xF0 | (cp >> 18));
        out[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[n++] = (char)(0x80 | (cp & 0x3F));
    }
    out[n] = '\0';
    return n;
}

size_t text_decode(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0) {
        *cp = TEXT_REPLACEMENT;
        return 1;
    }
    unsigned char c = u[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if ((c & 0xE0) == 0xC0) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        *cp = TEXT_REPLACEMENT;
        return 1;
    }
    if (len > n)
        goto bad;
    for (size_t i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80)
            goto bad;
        v = (v << 6) | (u[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        goto bad;
    *cp = v;
    return len;
bad:
    *cp = TEXT_REPLACEMENT;
    return 1;
}

bool text_is_control(uint32_t cp)
{
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
        return true;
    /* Invisible format characters: a right-to-left override (U+202E) makes "vm" and a file
     * name read backwards, zero-width ones make two different names look the same. */
    return cp == 0x061C ||                   /* Arabic letter mark */
           (cp >= 0x200B && cp <= 0x200F) || /* zero width space/non-joiner/joiner, LRM, RLM */
           (cp >= 0x202A && cp <= 0x202E) || /* bidi embeddings and overrides */
           (cp >= 0x2066 && cp <= 0x2069);   /* bidi isolates */
}

bool text_is_clean(const char *s, const char *allowed)
{
    size_t n = strlen(s);
    while (n) {
        uint32_t cp;
        size_t k = text_decode(s, n, &cp);
        if (cp == TEXT_REPLACEMENT && !(k == 3 && memcmp(s, "\xEF\xBF\xBD", 3) == 0))
            return false;
        if (text_is_control(cp) && !(allowed && cp < 0x80 && strchr(allowed, (int)cp)))
            return false;
        s += k;
        n -= k;
    }
    return true;
}

/* East Asian Wide/Fullwidth ranges: the fallback when the locale's wcwidth cannot answer. */
static bool is_wide(uint32_t cp)
{
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
           (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
           (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
           (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
           (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

int text_cp_width(uint32_t cp)
{
    if (text_is_control(cp))
        return 1; /* shown as U+FFFD */
    if (cp < 0x7F)
        return 1;
    int w = wcwidth((wchar_t)cp);
    if (w >= 0)
        return w > 2 ? 2 : w;
    return is_wide(cp) ? 2 : 1;
}

int text_width(const char *s)
{
    int w = 0;
    size_t n = strlen(s);
    while (n) {
        uint32_t cp;
        size_t k = text_decode(s, n, &cp);
        w += text_cp_width(cp);
        s += k;
        n -= k;
    }
    return w;
}

char *text_sanitize(const char *s, bool keep_newlines)
{
    size_t n = strlen(s);
    char *out = xmalloc(n * 3 + 1), *o = out; /* a replaced byte grows to 3 bytes at most */
    while (n) {
        uint32_t cp;
        size_t k = text_decode(s, n, &cp);
        if (cp == '\n' && keep_newlines)
            *o++ = '\n';
        else if (cp == '\t')
            *o++ = ' ';
        else {
            char u[5]; /* text_decode gave a code point text_encode takes (never a surrogate) */
            size_t len = text_encode(text_is_control(cp) ? TEXT_REPLACEMENT : cp, u);
            memcpy(o, u, len);
            o += len;
        }
        s += k;
        n -= k;
    }
    *o = '\0';
    return out;
}

char *text_escape(const char *s, size_t max_cps)
{
    size_t n = strlen(s), kept = 0;
    char *out = xmalloc(n * 6 + 4), *o = out; /* one byte grows to 6 at most ("\u0085") */
    while (n) {
        if (kept++ == max_cps) {
            memcpy(o, "...", 3);
            o += 3;
            break;
        }
        uint32_t cp;
        size_t k = text_decode(s, n, &cp);
        if (cp == TEXT_REPLACEMENT && k == 1) /* a malformed byte, not a real U+FFFD */
            o += sprintf(o, "\\x%02x", (unsigned char)*s);
        else if (cp == '\n')
            o += sprintf(o, "\\n");
        else if (cp == '\t')
            o += sprintf(o, "\\t");
        else if (text_is_control(cp))
            o += sprintf(o, cp < 0x80 ? "\\x%02x" : "\\u%04x", (unsigned)cp);
        else {
            memcpy(o, s, k);
            o += k;
        }
        s += k;
        n -= k;
    }
    *o = '\0';
    return out;
}

char *text_fit(const char *s, int cells, bool ascii_only, int *used)
{
    char *clean = text_sanitize(s, false);
    int total = text_width(clean);
    if (cells < 0)
        cells = 0;
    if (total <= cells) {
        if (used)
            *used = total;
        return clean;
    }
    /* Keep as many whole characters as fit in cells - 1, then the one-cell marker. */
    int w = 0;
    size_t n = strlen(clean), pos = 0;
    while (pos < n) {
        uint32_t cp;
        size_t k = text_decode(clean + pos, n - pos, &cp);
        int cw = text_cp_width(cp);
        if (w + cw > cells - 1)
            break;
        w += cw;
        pos += k;
    }
    /* A zero-width mark after the cut belongs to the kept character. */
    while (pos < n) {
        uint32_t cp;
        size_t k = text_decode(clean + pos, n - pos, &cp);
        if (text_cp_width(cp) != 0)
            break;
        pos += k;
    }
    const char *mark = ascii_only ? "~" : "\xE2\x80\xA6";
    char *out = xmalloc(pos + 4);
    memcpy(out, clean, pos);
    if (cells > 0) {
        strcpy(out + pos, mark);
        w += 1;
    } else {
        out[pos] = '\0';
    }
    free(clean);
    if (used)
        *used = w;
    return out;
}

char *text_fit_pad(const char *s, int cells, bool ascii_only)
{
    int used;
    char *fit = text_fit(s, cells, ascii_only, &used);
    if (used >= cells)
        return fit;
    size_t len = strlen(fit);
    fit = xrealloc(fit, len + (size_t)(cells - used) + 1);
    memset(fit + len, ' ', (size_t)(cells - used));
    fit[len + (size_t)(cells - used)] = '\0';
    return fit;
}

static void push_line(char ***lines, size_t *count, size_t *cap, const char *s, size_t len)
{
    if (*count == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *lines = xrealloc(*lines, *cap * sizeof **lines);
    }
    char *l = xmalloc(len + 1);
    memcpy(l, s, len);
    l[len] = '\0';
    while (len && l[len - 1] == ' ')
        l[--len] = '\0';
    (*lines)[(*count)++] = l;
}

/* Chinese punctuation that must not begin a line (、。，：；！？ and closing brackets). */
static bool no_break_before(uint32_t cp)
{
    static const uint32_t closing[] = {0x3001, 0x3002, 0xFF0C, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F,
                                       0xFF09, 0x300D, 0x300F, 0x300B, 0x3009, 0x3011, 0xFF3D};
    for (size_t i = 0; i < sizeof closing / sizeof closing[0]; i++)
        if (cp == closing[i])
            return true;
    return false;
}

char **text_wrap(const char *s, int cells, size_t *count)
{
    char *clean = text_sanitize(s, true);
    char **lines = NULL;
    size_t cap = 0;
    *count = 0;
    if (cells < 1)
        cells = 1;
    /* Break opportunities: at a space, and after or before any wide (CJK) character, since
     * Chinese has no spaces between words. The latest opportunity before the overflow wins. */
    size_t n = strlen(clean), start = 0, pos = 0, brk = 0;
    int w = 0;
    while (pos < n) {
        uint32_t cp;
        size_t k = text_decode(clean + pos, n - pos, &cp);
        if (cp == '\n') {
            push_line(&lines, count, &cap, clean + start, pos - start);
            pos += k;
            start = pos, brk = 0, w = 0;
            continue;
        }
        int cw = text_cp_width(cp);
        if (cw == 2 && pos > start && !no_break_before(cp))
            brk = pos;
        if (w + cw > cells && pos > start) {
            size_t end = brk > start ? brk : pos;
            push_line(&lines, count, &cap, clean + start, end - start);
            start = end;
            while (start < n && clean[start] == ' ')
                start++;
            brk = 0;
            w = 0; /* the carried-over part is measured again */
            for (size_t q = start; q < pos;) {
                uint32_t c2;
                size_t k2 = text_decode(clean + q, n - q, &c2);
                w += text_cp_width(c2);
                q += k2;
            }
            if (pos < start)
                pos = start;
            continue;
        }
        if (cp == ' ')
            brk = pos;
        w += cw;
        pos += k;
        if (cw == 2 && pos < n) {
            uint32_t next;
            text_decode(clean + pos, n - pos, &next);
            if (!no_break_before(next))
                brk = pos;
        }
    }
    if (pos > start || *count == 0)
        push_line(&lines, count, &cap, clean + start, pos - start);
    free(clean);
    return lines;
}

void text_lines_free(char **lines, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(lines[i]);
    free(lines);
}
