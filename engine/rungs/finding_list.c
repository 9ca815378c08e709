/* Summarising a finding's list (engine/rungs/finding_list.h). */
#include "engine/rungs/finding_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* src into dst (size n), cut after the last whole word that fits, "..." marking the cut. */
static void clip_words(char *dst, size_t n, const char *src, size_t len)
{
    if (len < n) {
        memcpy(dst, src, len);
        dst[len] = '\0';
        return;
    }
    size_t keep = n - 4;
    while (keep > 0 && src[keep] != ' ')
        keep--;
    memcpy(dst, src, keep);
    memcpy(dst + keep, "...", 4);
}

void finding_list_say(void *arg, const char *line)
{
    struct finding_list *l = arg;
    size_t no = 0, plen = l->path ? strlen(l->path) : 0;
    const char *what = line;
    char *end;
    if (plen && !strncmp(line, l->path, plen) && line[plen] == ':') {
        unsigned long v = strtoul(line + plen + 1, &end, 10);
        if (end > line + plen + 1 && end[0] == ':' && end[1] == ' ')
            no = v, what = end + 2;
    }
    l->lines++;
    if (l->prefix && strncmp(what, l->prefix, strlen(l->prefix)) != 0) {
        l->skipped++;
        return;
    }
    what += l->prefix ? strlen(l->prefix) : 0;
    size_t len = strlen(what), slen = l->suffix ? strlen(l->suffix) : 0;
    if (slen && len >= slen && !strcmp(what + len - slen, l->suffix))
        len -= slen;
    char w[sizeof l->kind[0].what];
    clip_words(w, sizeof w, what, len);
    for (size_t k = 0; k < l->nkinds; k++)
        if (!strcmp(l->kind[k].what, w)) {
            l->kind[k].count++;
            return;
        }
    if (l->nkinds == FINDING_KINDS) {
        l->past++;
        return;
    }
    snprintf(l->kind[l->nkinds].what, sizeof l->kind[0].what, "%s", w);
    l->kind[l->nkinds].first = no;
    l->kind[l->nkinds++].count = 1;
}

char *finding_list_write(const struct finding_list *l, size_t most, char *out, size_t n)
{
    size_t used = 0, more = l->past, k = 0;
    out[0] = '\0';
    for (; k < l->nkinds && k < most; k++) {
        char one[320], at[64] = "";
        if (l->kind[k].count > 1)
            snprintf(at, sizeof at, "%zu lines from line %zu: ", l->kind[k].count,
                     l->kind[k].first);
        else if (l->kind[k].first) /* "line 3 (M=16, ...)", "line 6: column ep: ..." */
            snprintf(at, sizeof at, "line %zu%s", l->kind[k].first,
                     l->kind[k].what[0] == '(' ? " " : ": ");
        int w = snprintf(one, sizeof one, "%s%s%s", k ? "; " : "", at, l->kind[k].what);
        if (w < 0 || used + (size_t)w + 1 > n)
            break; /* a whole kind or none: the count in front still says how many */
        memcpy(out + used, one, (size_t)w + 1);
        used += (size_t)w;
    }
    for (; k < l->nkinds; k++)
        more += l->kind[k].count;
    if (more && used + 24 < n)
        snprintf(out + used, n - used, "; and %zu more", more);
    return out;
}
