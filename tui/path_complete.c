/* tui/path_complete.h: ~ expansion and Tab completion of a typed path. */
#include "tui/path_complete.h"

#include <dirent.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

char *tui_path_expand(const char *typed)
{
    if (typed[0] != '~')
        return xstrdup(typed);
    const char *rest = typed + 1 + strcspn(typed + 1, "/");
    size_t ulen = (size_t)(rest - typed - 1);
    const char *home = NULL;
    if (ulen == 0) {
        home = getenv("HOME");
        if (!home || !home[0]) {
            const struct passwd *pw = getpwuid(getuid());
            home = pw ? pw->pw_dir : NULL;
        }
    } else {
        char user[256];
        if (ulen >= sizeof user)
            return xstrdup(typed);
        memcpy(user, typed + 1, ulen);
        user[ulen] = '\0';
        const struct passwd *pw = getpwnam(user);
        home = pw ? pw->pw_dir : NULL;
    }
    if (!home)
        return xstrdup(typed); /* no such user: the path is as typed, and fails as typed */
    return xasprintf("%s%s", home, rest);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of typed's folder whose names start with its last component, each as typed
 * would read completed to it (the folder part kept as typed, "~" included), a folder's with a
 * trailing '/'; sorted; hidden entries only when the component starts with '.'. Returns how
 * many (at most max); *out is malloc'd, free with tui_path_matches_free. */
static size_t tui_path_matches(const char *typed, size_t max, char ***out)
{
    *out = NULL;
    const char *slash = strrchr(typed, '/');
    size_t dir_len = slash ? (size_t)(slash - typed) + 1 : 0; /* the folder as typed, '/' kept */
    const char *base = typed + dir_len;
    char *dir_typed = xstrdup(typed);
    dir_typed[dir_len] = '\0';
    char *dir = tui_path_expand(dir_len ? dir_typed : "./");
    DIR *d = opendir(dir);
    size_t n = 0, blen = strlen(base);
    if (d) {
        *out = xcalloc(max + 1, sizeof **out);
        for (struct dirent *e; (e = readdir(d)) != NULL && n < max;) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
                strncmp(e->d_name, base, blen) || (e->d_name[0] == '.' && base[0] != '.'))
                continue;
            bool folder = e->d_type == DT_DIR;
            if (e->d_type == DT_UNKNOWN || e->d_type == DT_LNK) {
                char *full = xasprintf("%s/%s", dir, e->d_name);
                struct stat st;
                folder = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
                free(full);
            }
            (*out)[n++] = xasprintf("%s%s%s", dir_typed, e->d_name, folder ? "/" : "");
        }
        closedir(d);
        qsort(*out, n, sizeof **out, cmp_str);
    }
    free(dir);
    free(dir_typed);
    return n;
}

static void tui_path_matches_free(char **m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(m[i]);
    free(m);
}

int tui_path_tab(const char *typed, int nth, char *out, size_t len)
{
    char **m;
    size_t n = tui_path_matches(typed, 256, &m);
    snprintf(out, len, "%s", typed);
    if (n == 0) {
        tui_path_matches_free(m, n);
        return -1;
    }
    size_t common = strlen(m[0]);
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;
        while (k < common && m[i][k] == m[0][k])
            k++;
        common = k;
    }
    int rc = n == 1;
    if (n == 1)
        snprintf(out, len, "%s", m[0]);
    else if (common > strlen(typed) && nth == 0)
        snprintf(out, len, "%.*s", (int)common, m[0]);
    else /* nothing more in common: each Tab shows the next match */
        snprintf(out, len, "%s", m[(size_t)(common > strlen(typed) ? nth - 1 : nth) % n]);
    tui_path_matches_free(m, n);
    return rc;
}
