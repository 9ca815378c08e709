/* A recorded run's command line made into text for a shell (cmdline.h). */
#include "tui/cmdline.h"

#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "tui/clipboard.h"

char *tui_shell_quote(const char *word)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                "_./=:,+@%-";
    size_t n = strlen(word);
    if (n && strspn(word, plain) == n)
        return xstrdup(word);
    size_t quotes = 0;
    for (const char *p = word; *p; p++)
        quotes += *p == '\'';
    char *out = xmalloc(n + 3 * quotes + 3), *o = out;
    *o++ = '\'';
    for (const char *p = word; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}

/* The recorded command, each word quoted, control characters replaced, without the
 * " --events N" the interface adds to talk to its child. "" when nothing was recorded. malloc'd. */
static char *tui_cmdline_quoted(const char *argv_text)
{
    char *clean = text_sanitize(argv_text ? argv_text : "", false);
    size_t len = strlen(clean) + 1;
    char *plain = xmalloc(len);
    tui_cmdline_for_shell(clean, plain, len);
    free(clean);
    size_t cap = 4 * len + 16, used = 0;
    char *out = xmalloc(cap);
    out[0] = '\0';
    char *save = NULL;
    for (char *w = strtok_r(plain, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *q = tui_shell_quote(w);
        size_t qn = strlen(q);
        if (used + qn + 2 > cap) {
            cap = 2 * (used + qn + 2);
            out = xrealloc(out, cap);
        }
        if (used)
            out[used++] = ' ';
        memcpy(out + used, q, qn + 1);
        used += qn;
        free(q);
    }
    free(plain);
    return out;
}

char *tui_cmdline_copy(const char *argv_text, const char *origin)
{
    char *q = tui_cmdline_quoted(argv_text);
    if (!origin || !q[0])
        return q;
    char *from = text_sanitize(origin, false);
    char *out = xasprintf("# pulled from %s, not verified here: %s", from, q);
    free(from);
    free(q);
    return out;
}
