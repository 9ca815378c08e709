#include "engine/rungs/rung7_flags.h"

#include <stdio.h>
#include <string.h>

static bool ident_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

/* A macro name: an identifier, then the end or '=' (when a value may follow). */
static bool macro_name(const char *s, bool value_ok)
{
    if (!ident_char(*s, true))
        return false;
    while (ident_char(*s, false))
        s++;
    return *s == '\0' || (value_ok && *s == '=');
}

static bool opt_level(const char *l)
{
    static const char *const levels[] = {"", "0", "1", "2", "3", "s", "z", "g", "fast", NULL};
    for (size_t i = 0; levels[i]; i++)
        if (strcmp(l, levels[i]) == 0)
            return true;
    return false;
}

/* Words in an -f/-m option's name that mark one naming a file, folder, list, map or plugin,
 * or making the compiler write one, or passing words on to another tool. Matched anywhere in
 * the name, so -fno-X and every -fX-Y variant go with -fX. */
static const char *const file_words[] = {
    "profile",   "file",       "dir",       "path",        "list",       "map",
    "plugin",    "coverage",   "dump",      "record",      "trace",      "report",
    "module",    "output",     "prefix",    "include",     "use-ld",     "ld-path",
    "usage",     "callgraph",  "opt-info",  "save",        "crash",      "apinotes",
    "gpubinary", "offload-object", "xray",  "instrument",  "basic-block-sections",
    "diagnostics-format", "sarif", "pch",   "thinlto",     "link",       "llvm",
    "stats",     "remark",     NULL};

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.' || c == '+';
}

static bool value_char(char c)
{
    return name_char(c) || c == ',' || c == ':' || c == '=';
}

static bool fm_option(const char *flag, char *why, size_t whylen)
{
    const char *name = flag + 2, *eq = strchr(name, '=');
    size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
    if (nlen == 0) {
        snprintf(why, whylen, "it names no option");
        return false;
    }
    for (size_t i = 0; i < nlen; i++)
        if (!name_char(name[i])) {
            snprintf(why, whylen, "its name holds '%c'", name[i]);
            return false;
        }
    for (size_t w = 0; file_words[w]; w++) {
        const char *hit = strstr(name, file_words[w]);
        if (hit && (size_t)(hit - name) < nlen) {
            snprintf(why, whylen, "an option about \"%s\" names or writes a file, or passes "
                     "options on to another tool", file_words[w]);
            return false;
        }
    }
    if (!eq)
        return true;
    const char *v = eq + 1;
    if (*v == '.' || *v == '\0') {
        snprintf(why, whylen, "its value %s", *v ? "looks like a path" : "is empty");
        return false;
    }
    for (; *v; v++)
        if (!value_char(*v)) {
            snprintf(why, whylen, "its value holds '%c' (a path, a response file)", *v);
            return false;
        }
    return true;
}

bool eng_rung7_flag_allowed(const char *flag, char *why, size_t whylen)
{
    if (flag[0] != '-' || flag[1] == '\0') {
        snprintf(why, whylen, "it is no option");
        return false;
    }
    switch (flag[1]) {
    case 'O':
        if (opt_level(flag + 2))
            return true;
        snprintf(why, whylen, "an optimisation level is -O, -O0 to -O3, -Os, -Oz, -Og or -Ofast");
        return false;
    case 'D':
    case 'U':
        if (macro_name(flag + 2, flag[1] == 'D'))
            return true;
        snprintf(why, whylen, "-%c takes a macro name (an identifier) in the same word%s",
                 flag[1], flag[1] == 'D' ? ", then =value if any" : "");
        return false;
    case 'f':
    case 'm':
        return fm_option(flag, why, whylen);
    case 's':
        if (strncmp(flag, "-std=", 5) == 0 && flag[5]) {
            for (const char *c = flag + 5; *c; c++)
                if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '+')) {
                    snprintf(why, whylen, "a standard is letters, digits and '+' (c++17)");
                    return false;
                }
            return true;
        }
        break;
    default:
        break;
    }
    snprintf(why, whylen, "only these are accepted");
    return false;
}
