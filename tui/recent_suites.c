/* tui/recent_suites.h: the list of recent suite files, as a small text file. */
#include "tui/recent_suites.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/paths.h"
#include "common/text.h"
#include "common/xalloc.h"

static char *list_path(void)
{
    char *dir = paths_state_dir();
    char *p = xasprintf("%s/recent-suites", dir);
    free(dir);
    return p;
}

size_t tui_recent_suites_load(char **out, size_t max)
{
    char *path = list_path(), err[256];
    char *doc = file_read_all(path, NULL, err, sizeof err);
    free(path);
    size_t n = 0;
    if (!doc)
        return 0;
    char *save = NULL;
    for (char *line = strtok_r(doc, "\n", &save); line && n < max;
         line = strtok_r(NULL, "\n", &save))
        if (*line && text_is_clean(line, NULL)) /* the file may have been edited by hand */
            out[n++] = xstrdup(line);
    free(doc);
    return n;
}

int tui_recent_suites_add(const char *path, char *err, size_t errlen)
{
    char abs[PATH_MAX];
    if (!realpath(path, abs))
        snprintf(abs, sizeof abs, "%s", path);
    char *old[TUI_RECENT_SUITES];
    size_t n = tui_recent_suites_load(old, TUI_RECENT_SUITES);
    char *doc = NULL;
    size_t len = 0, kept = 1;
    FILE *mem = open_memstream(&doc, &len);
    if (!mem) {
        snprintf(err, errlen, "out of memory");
        for (size_t i = 0; i < n; i++)
            free(old[i]);
        return -1;
    }
    fprintf(mem, "%s\n", abs);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(old[i], abs) != 0 && kept < TUI_RECENT_SUITES) {
            fprintf(mem, "%s\n", old[i]);
            kept++;
        }
        free(old[i]);
    }
    fclose(mem);
    char *dir = paths_state_dir(), *file = list_path();
    int rc = file_mkdirs(dir, err, errlen);
    if (rc == 0)
        rc = file_write_atomic(file, doc, len, err, errlen);
    free(dir);
    free(file);
    free(doc);
    return rc;
}
