/* Plain sources by name: which files are plain sources, which entry point names they may use,
 * and the symbol each entry point is exported under. */
#include "engine/codeobj/plain_name.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/hash.h"

bool eng_plain_is(const char *file)
{
    const char *dot = file ? strrchr(file, '.') : NULL;
    return dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".hip") || !strcmp(dot, ".cuh") ||
                   !strcmp(dot, ".cpp"));
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

bool eng_plain_entry_ok(const char *entry)
{
    const char *s = entry;
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    while (ident_char(*s) || (s[0] == ':' && s[1] == ':' && (s += 1)))
        s++;
    if (!*s)
        return s[-1] != ':';
    if (*s != '<')
        return false;
    int depth = 0;
    for (; *s; s++) {
        if (*s == '<')
            depth++;
        else if (*s == '>')
            depth--;
        else if (!ident_char(*s) && !strchr(" ,.+-*:", *s))
            return false;
        if (depth < 0)
            return false;
        if (depth == 0 && s[1])
            return false; /* nothing after the closing '>' */
    }
    return depth == 0;
}

void eng_plain_symbol(const char *entry, char *out, size_t n)
{
    bool plain = true;
    for (const char *s = entry; *s; s++)
        plain &= ident_char(*s);
    if (plain) {
        snprintf(out, n, "%s", entry);
        return;
    }
    struct hash_state h;
    hash_init(&h);
    hash_str(&h, entry);
    char hex[33];
    hash_hex(&h, hex);
    char letters[96];
    size_t k = 0;
    for (const char *s = entry; *s && k + 1 < sizeof letters; s++)
        if (ident_char(*s) && !(k && letters[k - 1] == '_' && *s == '_'))
            letters[k++] = *s;
        else if (k && letters[k - 1] != '_')
            letters[k++] = '_';
    letters[k] = '\0';
    snprintf(out, n, "kl_entry_%s_%.8s", letters, hex);
}
