#include "tui/clipboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool starts_with(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

bool tui_osc52_known(const char *term, const char *term_program, bool multiplexer)
{
    /* tmux and screen swallow the sequence unless set up to pass it: not known to work */
    if (multiplexer || starts_with(term, "screen") || starts_with(term, "tmux"))
        return false;
    static const char *const terms[] = {"xterm-kitty", "alacritty", "foot", "wezterm"};
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
        if (starts_with(term, terms[i]))
            return true;
    static const char *const programs[] = {"iTerm.app", "WezTerm"};
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
        if (term_program && strcmp(term_program, programs[i]) == 0)
            return true;
    return false;
}

size_t tui_osc52_encode(const char *text, char *out, size_t len)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const char head[] = "\033]52;c;";
    size_t n = strlen(text), need = sizeof head - 1 + (n + 2) / 3 * 4 + 1;
    if (need + 1 > len)
        return 0;
    size_t o = 0;
    memcpy(out, head, sizeof head - 1);
    o = sizeof head - 1;
    const unsigned char *t = (const unsigned char *)text;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)t[i] << 16 | (i + 1 < n ? (unsigned)t[i + 1] << 8 : 0) |
                     (i + 2 < n ? t[i + 2] : 0);
        out[o++] = b64[v >> 18 & 63];
        out[o++] = b64[v >> 12 & 63];
        out[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? b64[v & 63] : '=';
    }
    out[o++] = '\a';
    out[o] = '\0';
    return o;
}

void tui_cmdline_for_shell(const char *argv_text, char *buf, size_t len)
{
    snprintf(buf, len, "%s", argv_text ? argv_text : "");
    char *e = strstr(buf, " --events ");
    if (!e)
        return;
    char *end = e + strlen(" --events ");
    while (*end >= '0' && *end <= '9')
        end++;
    if (*end != '\0' && *end != ' ')
        return; /* not a number: leave it as recorded */
    memmove(e, end, strlen(end) + 1);
}

bool tui_clipboard_copy(const char *text)
{
    if (!tui_osc52_known(getenv("TERM"), getenv("TERM_PROGRAM"),
                         getenv("TMUX") != NULL || getenv("STY") != NULL))
        return false;
    /* sized to the text: a run's whole Markdown report goes the same way as its id */
    size_t cap = strlen(text) / 3 * 4 + 32;
    char *seq = malloc(cap);
    size_t n = seq ? tui_osc52_encode(text, seq, cap) : 0;
    if (n == 0) {
        free(seq);
        return false;
    }
    /* curses owns the screen, not the clipboard: the sequence moves no cursor and draws
     * nothing, so it can go straight to the terminal */
    fwrite(seq, 1, n, stdout);
    fflush(stdout);
    free(seq);
    return true;
}
