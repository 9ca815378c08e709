/* Shape-specialised compiles: the source prelude and the compiler's first error line. */
#include "engine/compile/compile_spec.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xalloc.h"

/* Parameter name's value in shape sh, or false when sh does not set it. */
static bool shape_value(const struct eng_shape *sh, const char *name, int64_t *v)
{
    for (size_t k = 0; sh && k < sh->n; k++)
        if (strcmp(sh->keys[k], name) == 0) {
            *v = sh->values[k];
            return true;
        }
    return false;
}

char *eng_spec_prelude(const struct eng_manifest *m, const struct eng_check_spec *s, char *desc,
                       size_t desclen, char *err, size_t errlen)
{
    size_t cap = 64 + m->nspecialize * 96, used = 0, dused = 0;
    char *out = xmalloc(cap);
    out[0] = '\0';
    desc[0] = '\0';
    for (size_t i = 0; i < m->nspecialize; i++) {
        const char *name = m->specialize[i];
        int64_t v = 0;
        bool set = s->nshapes && shape_value(&s->shapes[0], name, &v);
        for (size_t k = 1; set && k < s->nshapes; k++) {
            int64_t w;
            if (shape_value(&s->shapes[k], name, &w) && w != v) {
                snprintf(err, errlen, "suite %s specialises its kernel on %s, and this check runs "
                         "shapes with %s=%lld and %s=%lld: one compile cannot serve both",
                         m->name, name, name, (long long)v, name, (long long)w);
                free(out);
                return NULL;
            }
        }
        if (!set)
            for (size_t p = 0; p < m->nparams; p++)
                if (strcmp(m->params[p].name, name) == 0)
                    v = (int64_t)llround(m->params[p].value);
        used += (size_t)snprintf(out + used, cap - used, "#define KL_SPEC_%s %lld\n", name,
                                 (long long)v);
        if (dused < desclen)
            dused += (size_t)snprintf(desc + dused, desclen - dused, "%s%s=%lld", i ? "," : "",
                                      name, (long long)v);
    }
    bool buggy = s->variant && strcmp(s->variant, "buggy") == 0;
    snprintf(out + used, cap - used, "#define KL_VARIANT_%s 1\n", buggy ? "BUGGY" : "FIXED");
    return out;
}

void eng_compile_first_error(const char *log, char *out, size_t n)
{
    const char *line = NULL, *first = NULL;
    for (const char *p = log; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (!first && len)
            first = p;
        for (size_t k = 0; !line && k + 5 <= len; k++)
            if (strncasecmp(p + k, "error", 5) == 0)
                line = p + k;
        if (line)
            break;
        p = end ? end + 1 : p + len;
    }
    const char *from = line ? line : first ? first : "";
    size_t k = 0;
    for (; from[k] && from[k] != '\n' && k + 1 < n; k++)
        out[k] = (unsigned char)from[k] < 0x20 || from[k] == 0x7f ? '?' : from[k];
    if (n)
        out[k] = '\0';
}
