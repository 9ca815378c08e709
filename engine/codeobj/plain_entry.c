/* Finding a plain source's C++ entry points among a GPU code object's mangled functions. */
#include "engine/codeobj/plain_entry.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/codeobj/elf_symbols.h"

typedef char *(*demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static demangle_fn demangler(void)
{
    static demangle_fn fn;
    static bool tried;
    if (!tried) {
        tried = true;
        void *lib = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            lib = dlopen("libc++abi.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib)
            *(void **)&fn = dlsym(lib, "__cxa_demangle");
    }
    return fn;
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

char *eng_plain_name_key(const char *name)
{
    size_t n = strlen(name);
    char *k = xmalloc(n + 1), *o = k;
    int depth = 0;
    for (const char *s = name; *s; s++) {
        if (*s == '(' && depth == 0)
            break; /* the parameter list */
        if (*s == '<')
            depth++;
        else if (*s == '>')
            depth--;
        if (isspace((unsigned char)*s))
            continue;
        /* a cast the demangler writes before a template argument: (unsigned char)1 */
        if (*s == '(' && depth > 0) {
            const char *close = strchr(s, ')');
            if (close && (isdigit((unsigned char)close[1]) || close[1] == '-')) {
                s = close;
                continue;
            }
        }
        /* an integer literal's suffix: 1u, 2ul, 3ll */
        if ((*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L') && o > k &&
            isdigit((unsigned char)o[-1])) {
            const char *e = s;
            while (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L')
                e++;
            bool literal = true;
            for (char *b = o - 1; b >= k && ident_char(*b); b--)
                literal &= isdigit((unsigned char)*b) != 0;
            if (literal && !ident_char(*e)) {
                s = e - 1;
                continue;
            }
        }
        *o++ = *s;
    }
    *o = '\0';
    /* a template instance's demangled name starts with its return type: "void f<1>(int)" */
    const char *t = name;
    while (isspace((unsigned char)*t))
        t++;
    if (!strncmp(t, "void", 4) && isspace((unsigned char)t[4]) && strchr(k, '<'))
        memmove(k, k + 4, strlen(k + 4) + 1);
    return k;
}

struct search {
    demangle_fn demangle;
    const char *want; /* key of the entry */
    char found[512];
    int matches;
};

static int visit(const char *mangled, void *arg)
{
    struct search *s = arg;
    int status = -1;
    char *d = strncmp(mangled, "_Z", 2) == 0 ? s->demangle(mangled, NULL, NULL, &status) : NULL;
    char *key = eng_plain_name_key(d && status == 0 ? d : mangled);
    if (!strcmp(key, s->want)) {
        if (!s->matches++)
            snprintf(s->found, sizeof s->found, "%s", mangled);
    }
    free(key);
    free(d);
    return 0;
}

int eng_plain_mangled(const void *code, size_t len, const char *entry, char *out, size_t n,
                      char *err, size_t errlen)
{
    struct search s = {.demangle = demangler()};
    if (!s.demangle) {
        snprintf(err, errlen, "no C++ demangler here (libstdc++.so.6) to find %s by name", entry);
        return -1;
    }
    char *want = eng_plain_name_key(entry);
    s.want = want;
    int rc = eng_elf_each_function(code, len, visit, &s);
    free(want);
    if (rc < 0) {
        snprintf(err, errlen, "the code object is no ELF image with a symbol table: %s is not "
                 "found by name", entry);
        return -1;
    }
    if (s.matches > 1) {
        snprintf(err, errlen, "%s names %d functions of the code object (overloads)", entry,
                 s.matches);
        return -1;
    }
    if (!s.matches) {
        snprintf(err, errlen, "no function %s in the code object", entry);
        return -1;
    }
    snprintf(out, n, "%s", s.found);
    return 0;
}

char *eng_plain_demangle(const char *symbol)
{
    demangle_fn demangle = demangler();
    if (!demangle || strncmp(symbol, "_Z", 2) != 0)
        return NULL;
    int status = -1;
    char *d = demangle(symbol, NULL, NULL, &status);
    if (d && status == 0)
        return d;
    free(d);
    return NULL;
}
