#include "tui/theme.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/fileio.h"
#include "common/xalloc.h"

static const char *const role_names[] = {
#define TUI_ROLE_NAME(id, name) name,
    TUI_ROLES(TUI_ROLE_NAME)
#undef TUI_ROLE_NAME
};

const char *const tui_theme_names[] = {"default", "light", "high-contrast", "mono", NULL};

static const char *const attr_names[] = {"bold", "dim", "reverse", "underline", "standout",
                                         "italic"};
static const char *const color_names[] = {"black", "red",     "green", "yellow",
                                          "blue",  "magenta", "cyan",  "white"};

const char *tui_role_name(enum tui_role r)
{
    return (unsigned)r < TUI_ROLE_COUNT ? role_names[r] : "?";
}

/* One comma-separated attribute word; returns its flag or 0 when unknown. */
static unsigned attr_flag(const char *w, size_t n)
{
    for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
        if (strlen(attr_names[i]) == n && strncmp(attr_names[i], w, n) == 0)
            return 1u << i;
    return 0;
}

static int parse_attrs(const char *s, unsigned *out, char *why, size_t whylen)
{
    *out = 0;
    if (strcmp(s, "normal") == 0)
        return 0;
    while (*s) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        unsigned f = attr_flag(s, n);
        if (!f) {
            snprintf(why, whylen,
                     "unknown attribute '%.*s' (use normal, bold, dim, reverse, underline, "
                     "standout, italic)",
                     (int)n, s);
            return -1;
        }
        *out |= f;
        s += n + (end ? 1 : 0);
    }
    return 0;
}

static int parse_color(const char *s, size_t n, int max, short *out, char *why, size_t whylen)
{
    if (n == 7 && strncmp(s, "default", 7) == 0) {
        *out = TUI_COLOR_DEFAULT;
        return 0;
    }
    for (size_t i = 0; i < 8; i++)
        if (strlen(color_names[i]) == n && strncmp(color_names[i], s, n) == 0) {
            *out = (short)i;
            return 0;
        }
    int v = 0;
    size_t i = 0;
    for (; i < n && i < 4 && isdigit((unsigned char)s[i]); i++)
        v = v * 10 + (s[i] - '0');
    if (n == 0 || i != n) {
        snprintf(why, whylen, "unknown colour '%.*s' (use default, a colour name or a number)",
                 (int)n, s);
        return -1;
    }
    if (v > max) {
        snprintf(why, whylen, "colour %d out of range 0-%d", v, max);
        return -1;
    }
    *out = (short)v;
    return 0;
}

/* FG/BG[,attrs] */
static int parse_form(const char *s, int max, struct tui_style *st, char *why, size_t whylen)
{
    const char *slash = strchr(s, '/');
    if (!slash) {
        snprintf(why, whylen, "'%s' is not FG/BG[,attributes]", s);
        return -1;
    }
    const char *comma = strchr(slash, ',');
    size_t bgn = comma ? (size_t)(comma - slash - 1) : strlen(slash + 1);
    if (parse_color(s, (size_t)(slash - s), max, &st->fg, why, whylen) < 0 ||
        parse_color(slash + 1, bgn, max, &st->bg, why, whylen) < 0)
        return -1;
    st->attrs = 0;
    return comma ? parse_attrs(comma + 1, &st->attrs, why, whylen) : 0;
}

static const char *form_label(int f)
{
    return f == TUI_COLOR_MONO ? "mono" : f == TUI_COLOR_8 ? "8-colour" : "256-colour";
}

int tui_theme_parse(const char *text, const char *file, struct tui_theme *out, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t bn = strcspn(base, ".");
    snprintf(out->name, sizeof out->name, "%.*s", (int)bn, base);

    bool seen[TUI_ROLE_COUNT] = {false};
    char why[160];
    int lineno = 0;
    const char *p = text;
    while (*p) {
        lineno++;
        size_t len = strcspn(p, "\n");
        char line[512];
        if (len >= sizeof line) {
            snprintf(err, errlen, "%s:%d: line longer than %zu bytes", file, lineno,
                     sizeof line - 1);
            return -1;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (p[len] == '\n');
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *field[5];
        int nf = 0;
        char *save = NULL;
        for (char *tok = strtok_r(line, " \t\r", &save); tok;
             tok = strtok_r(NULL, " \t\r", &save))
            if (nf < 5)
                field[nf++] = tok;
            else
                nf = 5;
        if (nf == 0)
            continue;
        if (nf != 4) {
            snprintf(err, errlen,
                     "%s:%d: expected 4 fields (role, mono, 8-colour, 256-colour), found %s%d",
                     file, lineno, nf == 5 ? "more than " : "", nf == 5 ? 4 : nf);
            return -1;
        }
        int role = -1;
        for (int r = 0; r < TUI_ROLE_COUNT; r++)
            if (strcmp(field[0], role_names[r]) == 0)
                role = r;
        if (role < 0) {
            snprintf(err, errlen, "%s:%d: unknown role '%.40s'", file, lineno, field[0]);
            return -1;
        }
        if (seen[role]) {
            snprintf(err, errlen, "%s:%d: role '%s' is defined twice", file, lineno, field[0]);
            return -1;
        }
        seen[role] = true;
        struct tui_style *mono = &out->form[TUI_COLOR_MONO][role];
        mono->fg = mono->bg = TUI_COLOR_DEFAULT;
        int rc = parse_attrs(field[1], &mono->attrs, why, sizeof why);
        int f = TUI_COLOR_MONO;
        if (rc == 0 && parse_form(field[2], 7, &out->form[TUI_COLOR_8][role], why, sizeof why) < 0)
            rc = -1, f = TUI_COLOR_8;
        if (rc == 0 &&
            parse_form(field[3], 255, &out->form[TUI_COLOR_256][role], why, sizeof why) < 0)
            rc = -1, f = TUI_COLOR_256;
        if (rc < 0) {
            snprintf(err, errlen, "%s:%d: %s form of '%s': %s", file, lineno, form_label(f),
                     field[0], why);
            return -1;
        }
    }
    for (int r = 0; r < TUI_ROLE_COUNT; r++)
        if (!seen[r]) {
            snprintf(err, errlen, "%s: role '%s' is missing (every role needs a line)", file,
                     role_names[r]);
            return -1;
        }
    return 0;
}

int tui_theme_load(const char *name, struct tui_theme *out, char *err, size_t errlen)
{
    if (strchr(name, '/')) {
        size_t len;
        char *text = file_read_all(name, &len, err, errlen);
        if (!text)
            return -1;
        int rc = tui_theme_parse(text, name, out, err, errlen);
        free(text);
        return rc;
    }
    char path[96];
    snprintf(path, sizeof path, "themes/%s.theme", name);
    const struct embed_file *f = embed_find(path);
    if (!f) {
        snprintf(err, errlen, "no built-in theme '%s' (default, light, high-contrast, mono)",
                 name);
        return -1;
    }
    return tui_theme_parse((const char *)f->data, path, out, err, errlen);
}

/* A user theme's name from its file name ("NAME.theme"), or false for a file to pass over. */
static bool user_theme_name(const char *file, char name[32])
{
    size_t len = strlen(file);
    static const char ext[] = ".theme";
    if (len <= sizeof ext - 1 || strcmp(file + len - (sizeof ext - 1), ext) != 0)
        return false;
    len -= sizeof ext - 1;
    if (len > 31 || file[0] == '.')
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)file[i]) && !strchr("._-", file[i]))
            return false;
    memcpy(name, file, len);
    name[len] = '\0';
    return true;
}

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const struct tui_theme_entry *)a)->name,
                  ((const struct tui_theme_entry *)b)->name);
}

struct tui_theme_entry *tui_theme_list(const char *user_dir, size_t *n)
{
    size_t builtin = 0, cap = 8;
    while (tui_theme_names[builtin])
        builtin++;
    struct tui_theme_entry *l = xcalloc(cap + builtin, sizeof *l);
    for (size_t i = 0; i < builtin; i++)
        snprintf(l[i].name, sizeof l[i].name, "%s", tui_theme_names[i]);
    *n = builtin;
    DIR *d = user_dir ? opendir(user_dir) : NULL;
    struct dirent *de;
    size_t first_user = builtin;
    while (d && (de = readdir(d))) {
        char name[32];
        if (!user_theme_name(de->d_name, name))
            continue;
        char *path = xasprintf("%s/%s", user_dir, de->d_name);
        size_t at = 0;
        while (at < builtin && strcmp(l[at].name, name) != 0)
            at++;
        if (at < builtin) { /* the user's file replaces the built-in theme of that name */
            free(l[at].path);
            l[at].path = path;
            continue;
        }
        if (*n == cap + builtin) {
            cap *= 2;
            l = xrealloc(l, (cap + builtin) * sizeof *l);
        }
        snprintf(l[*n].name, sizeof l[*n].name, "%s", name);
        l[(*n)++].path = path;
    }
    if (d)
        closedir(d);
    qsort(l + first_user, *n - first_user, sizeof *l, entry_cmp);
    return l;
}

void tui_theme_list_free(struct tui_theme_entry *list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        free(list[i].path);
    free(list);
}

int tui_theme_entry_load(const struct tui_theme_entry *e, struct tui_theme *out, char *err,
                         size_t errlen)
{
    if (!e->path)
        return tui_theme_load(e->name, out, err, errlen);
    size_t len;
    char *text = file_read_all(e->path, &len, err, errlen);
    if (!text)
        return -1;
    int rc = tui_theme_parse(text, e->path, out, err, errlen);
    free(text);
    if (rc == 0)
        snprintf(out->name, sizeof out->name, "%s", e->name);
    return rc;
}

enum tui_color_mode tui_theme_color_mode(enum cli_color opt, const char *no_color,
                                         bool has_colors, int colors)
{
    if (opt == CLI_COLOR_NEVER || !has_colors)
        return TUI_COLOR_MONO;
    if (opt == CLI_COLOR_AUTO && no_color && *no_color)
        return TUI_COLOR_MONO;
    return colors >= 256 ? TUI_COLOR_256 : TUI_COLOR_8;
}
