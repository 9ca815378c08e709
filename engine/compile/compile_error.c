/* The compiler's first error, located in the user's kernel file (engine/compile/compile_error.h). */
#include "engine/compile/compile_error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The line of text that starts at p: its length up to the newline. */
static size_t line_len(const char *p)
{
    const char *end = strchr(p, '\n');
    return end ? (size_t)(end - p) : strlen(p);
}

/* Where "error" starts in the line p[0..len), or NULL. */
static const char *error_word(const char *p, size_t len)
{
    for (size_t k = 0; k + 5 <= len; k++)
        if (strncasecmp(p + k, "error", 5) == 0)
            return p + k;
    return NULL;
}

/* The line number a log line gives in base ("x/drop_tail.kl:10:1: note: ...", "In file
 * included from drop_tail.kl:1:" -> 10, 1), or 0 when it names no place in base. */
static long location_in(const char *p, size_t len, const char *base)
{
    size_t bl = strlen(base);
    for (size_t k = 0; k + bl + 2 < len; k++) {
        if (strncmp(p + k, base, bl) != 0 || p[k + bl] != ':' ||
            (k && p[k - 1] != '/' && p[k - 1] != ' '))
            continue;
        char *end;
        long line = strtol(p + k + bl + 1, &end, 10);
        if (end > p + k + bl + 1 && *end == ':')
            return line;
    }
    return 0;
}

/* Whether a log line is part of an include chain ("In file included from F:1:", "   from F:2:"). */
static bool include_chain(const char *p, size_t len)
{
    size_t k = 0;
    while (k < len && p[k] == ' ')
        k++;
    return (len - k > 5 && strncmp(p + k, "from ", 5) == 0) ||
           (len > 22 && strncmp(p, "In file included from ", 22) == 0);
}

/* Appends text[0..len) to out (used of n), tabs as spaces and other control characters as
 * '?', so that every line it writes is one line on a terminal. */
static void put_clean(char *out, size_t n, size_t *used, const char *text, size_t len)
{
    for (size_t k = 0; k < len && *used + 1 < n; k++) {
        unsigned char c = (unsigned char)text[k];
        out[(*used)++] = c == '\t' ? ' ' : c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    out[*used] = '\0';
}

/* Line number `line` (1-based) of source, or NULL. */
static const char *source_line(const char *source, long line)
{
    const char *p = source;
    for (long k = 1; p && k < line; k++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return p && *p ? p : NULL;
}

void eng_compile_error_at(const char *log, const char *file, const char *source, char *out,
                          size_t n)
{
    if (!n)
        return;
    out[0] = '\0';
    const char *slash = strrchr(file, '/');
    const char *base = slash ? slash + 1 : file;
    const char *err = NULL, *first = NULL;
    size_t err_len = 0, first_len = 0;
    long at = 0, included_at = 0;
    for (const char *p = log; *p;) {
        size_t len = line_len(p);
        const char *word = error_word(p, len);
        if (err && word) /* the next error: the first one's notes are over */
            break;
        if (!first && len) {
            first = p;
            first_len = len;
        }
        if (!err && word) {
            if (word - p >= 6 && strncasecmp(word - 6, "fatal ", 6) == 0)
                word -= 6; /* "fatal error: ...", whole */
            err = word;
            err_len = len - (size_t)(word - p);
        }
        if (err && !at && !include_chain(p, len)) /* its own place, or a note's in the file */
            at = location_in(p, len, base);
        if (!err && include_chain(p, len)) /* an error in a header: where the file included it */
            included_at = location_in(p, len, base);
        p += len + (p[len] == '\n');
    }
    if (!at)
        at = included_at;
    size_t used = 0;
    if (!err) {
        put_clean(out, n, &used, first ? first : "", first_len);
        return;
    }
    if (at)
        used += (size_t)snprintf(out, n, "%s:%ld: ", base, at);
    if (used >= n)
        used = n - 1;
    put_clean(out, n, &used, err, err_len);
    const char *text = at && source ? source_line(source, at) : NULL;
    if (text && used + 16 < n) {
        used += (size_t)snprintf(out + used, n - used, "\n%6ld | ", at);
        put_clean(out, n, &used, text, line_len(text));
    }
}
