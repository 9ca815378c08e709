/* Base names of mangled kernel symbols (engine/codeobj/mangled_name.h), after the Itanium C++
 * ABI's <nested-name> and <source-name> productions. */
#include "engine/codeobj/mangled_name.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One <source-name> (<length><identifier>) at *p appended to out after sep. */
static bool source_name(const char **p, char *out, size_t n, size_t *used, const char *sep)
{
    if (!isdigit((unsigned char)**p))
        return false;
    char *end;
    unsigned long len = strtoul(*p, &end, 10);
    if (len == 0 || strnlen(end, len) < len)
        return false;
    int w = snprintf(out + *used, n - *used, "%s%.*s", sep, (int)len, end);
    if (w < 0 || (size_t)w >= n - *used)
        return false;
    *used += (size_t)w;
    *p = end + len;
    return true;
}

bool mangled_base_name(const char *symbol, char *out, size_t n, const char **targs)
{
    if (targs)
        *targs = NULL;
    if (!n || strncmp(symbol, "_Z", 2) != 0)
        return false;
    const char *p = symbol + 2;
    size_t used = 0;
    out[0] = '\0';
    if (*p == 'N') {
        p++;
        while (*p == 'K' || *p == 'V' || *p == 'r')
            p++;
        if (!strncmp(p, "St", 2)) { /* std:: */
            p += 2;
            if (!source_name(&p, out, n, &used, "std::"))
                return false;
        }
        while (*p != 'E' && *p != 'I') {
            if (!source_name(&p, out, n, &used, used ? "::" : ""))
                return false;
        }
    } else if (!source_name(&p, out, n, &used, "")) {
        return false;
    }
    if (targs && *p == 'I')
        *targs = p;
    return true;
}

static const struct {
    const char *source;
    char code;
} builtin[] = {{"int", 'i'}, {"unsigned", 'j'}, {"unsigned int", 'j'}, {"float", 'f'},
               {"double", 'd'}, {"bool", 'b'}, {"char", 'c'}, {"long", 'l'},
               {"unsigned long", 'm'}, {"short", 's'}, {"long long", 'x'}};

/* One mangled template argument at *p (L<type><value>E or a builtin type code) against one
 * source argument (trimmed). */
static bool targ_match(const char **p, const char *arg, size_t alen)
{
    if (**p == 'L') {
        const char *v = *p + 2; /* past L and the type code */
        const char *e = strchr(v, 'E');
        if (!e || !(*p)[1])
            return false;
        *p = e + 1;
        if (alen && (arg[0] == '-'))
            return v[0] == 'n' && (size_t)(e - v - 1) == alen - 1 && !strncmp(v + 1, arg + 1, alen - 1);
        if (alen > 1 && (arg[alen - 1] == 'u' || arg[alen - 1] == 'U'))
            alen--; /* 256u */
        return (size_t)(e - v) == alen && !strncmp(v, arg, alen);
    }
    for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++)
        if (strlen(builtin[i].source) == alen && !strncmp(arg, builtin[i].source, alen)) {
            bool ok = **p == builtin[i].code;
            (*p)++;
            return ok;
        }
    return false;
}

bool mangled_targs_match(const char *targs, const char *source_args)
{
    if (!targs || *targs != 'I')
        return false;
    const char *p = targs + 1, *a = source_args;
    for (;;) {
        while (isspace((unsigned char)*a))
            a++;
        size_t alen = strcspn(a, ",");
        size_t trimmed = alen;
        while (trimmed && isspace((unsigned char)a[trimmed - 1]))
            trimmed--;
        if (*p == 'E' || !trimmed || !targ_match(&p, a, trimmed))
            return false;
        a += alen;
        if (!*a)
            return *p == 'E';
        a++; /* past , */
    }
}
