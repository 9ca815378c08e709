/* common/suggest.h: the known names nearest a mistyped one. */
#include "common/suggest.h"

#include <stdlib.h>
#include <string.h>

/* Levenshtein distance of a and b, case-sensitive, by bytes (names here are ASCII). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *row = malloc((lb + 1) * sizeof *row);
    if (!row)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    size_t d = row[lb];
    free(row);
    return d;
}

size_t suggest_nearest(const char *word, const char *const *names, size_t n, const char **out,
                       size_t max)
{
    size_t got = 0, *dist = malloc((max ? max : 1) * sizeof *dist);
    if (!dist || !word[0])
        return free(dist), 0;
    size_t wl = strlen(word);
    for (size_t i = 0; i < n; i++) {
        size_t nl = strlen(names[i]), longer = wl > nl ? wl : nl;
        size_t limit = longer / 3 > 2 ? longer / 3 : 2;
        size_t d = distance(word, names[i]);
        if (strstr(names[i], word) && wl >= 2)
            d = nl - wl; /* a part typed: as near as the letters it leaves out */
        else if (d > limit)
            continue;
        /* insertion by distance, stable among equals */
        size_t at = got;
        while (at > 0 && dist[at - 1] > d)
            at--;
        if (at >= max)
            continue;
        size_t keep = got < max ? got : max - 1;
        memmove(out + at + 1, out + at, (keep - at) * sizeof *out);
        memmove(dist + at + 1, dist + at, (keep - at) * sizeof *dist);
        out[at] = names[i];
        dist[at] = d;
        if (got < max)
            got++;
    }
    free(dist);
    return got;
}
