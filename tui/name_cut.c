/* Names cut where they do not tell a family apart (tui/name_cut.h). */
#include "tui/name_cut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"

static int by_text(const void *a, const void *b)
{
    return strcmp(**(const char *const *const *)a, **(const char *const *const *)b);
}

static size_t common_prefix(const char *a, const char *b)
{
    size_t k = 0;
    while (a[k] && a[k] == b[k])
        k++;
    return k;
}

void name_cut_points(const char *const *names, size_t n, size_t *at)
{
    if (!n)
        return;
    /* sorted, a name's nearest neighbours are the next different names above and below it */
    const char **text = xcalloc(n, sizeof *text);
    const char ***order = xcalloc(n, sizeof *order);
    for (size_t i = 0; i < n; i++) {
        text[i] = names[i] ? names[i] : "";
        order[i] = &text[i];
    }
    qsort(order, n, sizeof *order, by_text);
    for (size_t k = 0; k < n; k++) {
        const char *s = *order[k];
        size_t best = 0, j = k;
        while (j > 0 && strcmp(*order[j - 1], s) == 0)
            j--;
        if (j > 0)
            best = common_prefix(*order[j - 1], s);
        j = k;
        while (j + 1 < n && strcmp(*order[j + 1], s) == 0)
            j++;
        if (j + 1 < n) {
            size_t p = common_prefix(*order[j + 1], s);
            best = p > best ? p : best;
        }
        at[order[k] - text] = best;
    }
    free(order);
    free(text);
}

static bool plain_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            return false;
    return true;
}

char *name_cut(const char *name, size_t at, int cells, bool ascii)
{
    const char *s = name ? name : "";
    size_t len = strlen(s);
    if (cells < 1)
        return xstrdup("");
    if (!plain_ascii(s) || len <= (size_t)cells || cells < 4)
        return text_fit(s, cells, ascii, NULL);
    const char *dots = ascii ? "~" : "…";
    size_t keep = (size_t)cells - 1; /* what one cut keeps, beside its ellipsis */
    if (at < keep) /* the difference is in the head: the usual cut */
        return text_fit(s, cells, ascii, NULL);
    if (at >= len - keep) /* in the tail */
        return xasprintf("%s%s", dots, s + len - keep);
    /* in the middle: a window that starts a little before it, cut at both ends */
    size_t window = (size_t)cells - 2, from = at > 2 ? at - 2 : 0;
    if (from + window > len)
        from = len - window;
    return xasprintf("%s%.*s%s", dots, (int)window, s + from, dots);
}
