/* UTF-8 text for the terminal: decoding, sanitising, display width, truncation.
 *
 * Every string that reaches the screen goes through text_sanitize() (or a function built on it):
 * C0/C1 control characters, DEL, the invisible bidirectional and zero-width format characters
 * and malformed UTF-8 become U+FFFD, so an escape sequence in a case file or a remote result can
 * never drive the terminal, and a right-to-left override cannot make text read as other text. Widths follow wcwidth() (Chinese
 * is two cells, combining marks zero), with a built-in East Asian table as the fallback when the
 * C library's locale does not know a character. Decoding never depends on the locale. */
#ifndef KL_COMMON_TEXT_H
#define KL_COMMON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TEXT_REPLACEMENT 0xFFFDu

/* Decodes one code point at s (at most n bytes). Returns the bytes used (>= 1) and sets *cp;
 * malformed, overlong or surrogate input yields *cp = TEXT_REPLACEMENT and consumes one byte. */
size_t text_decode(const char *s, size_t n, uint32_t *cp);

/* Writes the UTF-8 form of cp to out (NUL-terminated) and returns its length in bytes, or 0
 * (out = "") for a surrogate or a value above U+10FFFF. */
size_t text_encode(uint32_t cp, char out[5]);

/* True for code points that must never be written to a terminal: C0, DEL, C1, and the format
 * characters that reorder or hide text: U+061C, U+200B-U+200F, U+202A-U+202E, U+2066-U+2069.
 * Importers refuse strings holding them (text_is_clean), as they refuse escape sequences. */
bool text_is_control(uint32_t cp);

/* True when the string is valid UTF-8 and has no control characters other than those in
 * `allowed` (e.g. "\n\t"; NULL allows none). */
bool text_is_clean(const char *s, const char *allowed);

/* Display cells of one code point (0, 1 or 2; controls count as the 1-cell replacement). */
int text_cp_width(uint32_t cp);

/* Display cells of a string as text_sanitize would show it. */
int text_width(const char *s);

/* A malloc'd copy of s with every control character and malformed byte replaced by U+FFFD.
 * With keep_newlines, '\n' is kept (for multi-line detail text) and '\t' becomes a space. */
char *text_sanitize(const char *s, bool keep_newlines);

/* A malloc'd copy of s for a message that quotes what the user typed: control characters and
 * malformed bytes are written as escapes (\n, \t, \x1b, \u0085), so the value shows as typed
 * and cannot drive the terminal. At most max_cps code points of s are kept; "..." marks a cut. */
char *text_escape(const char *s, size_t max_cps);

/* Sanitises s in place-free fashion and cuts it to at most `cells` display cells on a character
 * boundary; when cut, the last cell holds "…" (or "~" when ascii_only). Result is malloc'd.
 * *used (may be NULL) receives the cells the result occupies. */
char *text_fit(const char *s, int cells, bool ascii_only, int *used);

/* Like text_fit, then padded with spaces to exactly `cells` cells. */
char *text_fit_pad(const char *s, int cells, bool ascii_only);

/* Word-wraps sanitised s into lines of at most `cells` cells. Returns a malloc'd array of
 * malloc'd lines and sets *count; free with text_lines_free. '\n' in s forces a break. */
char **text_wrap(const char *s, int cells, size_t *count);
void text_lines_free(char **lines, size_t count);

#endif
