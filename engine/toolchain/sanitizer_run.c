/* compute-sanitizer found, its command line, and its report read back (engine/toolchain/sanitizer_run.h). */
#define _GNU_SOURCE
#include "engine/toolchain/sanitizer_run.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "engine/toolchain/tool_run.h"

bool eng_san_tool_known(const char *tool)
{
    return tool && (!strcmp(tool, "racecheck") || !strcmp(tool, "synccheck") ||
                    !strcmp(tool, "memcheck"));
}

int eng_san_find(char *out, size_t outlen, char *err, size_t errlen)
{
    const char *named = getenv("KLADDER_COMPUTE_SANITIZER");
    if (named && *named) {
        if (eng_tool_find(named, out, outlen))
            return 0;
        snprintf(err, errlen, "--sanitizer needs NVIDIA's compute-sanitizer: "
                 "KLADDER_COMPUTE_SANITIZER names %.300s, which is not an executable program",
                 named);
        return -1;
    }
    if (eng_tool_find("compute-sanitizer", out, outlen))
        return 0;
    /* the CUDA toolkit's own folder is often not on PATH; the newest-named one wins */
    glob_t g;
    int found = -1;
    if (glob("/usr/local/cuda*/bin/compute-sanitizer", 0, NULL, &g) == 0) {
        for (size_t i = g.gl_pathc; i-- > 0 && found != 0;)
            if (access(g.gl_pathv[i], X_OK) == 0) {
                snprintf(out, outlen, "%s", g.gl_pathv[i]);
                found = 0;
            }
        globfree(&g);
    }
    if (found != 0)
        snprintf(err, errlen, "--sanitizer needs NVIDIA's compute-sanitizer (CUDA toolkit): "
                 "not found on PATH nor as /usr/local/cuda*/bin/compute-sanitizer "
                 "(KLADDER_COMPUTE_SANITIZER may name it)");
    return found;
}

char **eng_san_argv(const char *path, const char *tool, const char *log)
{
    char **a = xcalloc(8, sizeof *a);
    size_t n = 0;
    a[n++] = xstrdup(path);
    a[n++] = xstrdup("--tool");
    a[n++] = xstrdup(tool);
    a[n++] = xstrdup("--log-file");
    a[n++] = xstrdup(log);
    a[n++] = xstrdup("--print-limit");
    a[n++] = xasprintf("%d", ENG_SAN_PRINT_LIMIT);
    return a;
}

void eng_san_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* A line of the tool's own ("========= ...") that starts with word after the marker. */
static bool has_tool_line(const char *text, const char *word)
{
    size_t wl = strlen(word);
    for (const char *l = text; l && *l;) {
        if (!strncmp(l, "=========", 9)) {
            const char *s = l + 9;
            while (*s == ' ' || *s == '\t')
                s++;
            if (!strncmp(s, word, wl))
                return true;
        }
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    return false;
}

int eng_san_read_log(const char *log, const char *tool, bool finished,
                     struct eng_san_hazard **out, size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    char rerr[512];
    size_t len;
    char *text = file_read_all(log, &len, rerr, sizeof rerr);
    if (!text) {
        snprintf(err, errlen, "%s's report could not be read: %s", tool, rerr);
        return -1;
    }
    const char *why = NULL;
    if (len == 0)
        why = "it is empty";
    else if (memchr(text, '\0', len))
        why = "it holds NUL bytes (not a text report)";
    else if (!has_tool_line(text, "COMPUTE-SANITIZER"))
        why = "the tool's \"========= COMPUTE-SANITIZER\" banner line is missing";
    else if (finished && !has_tool_line(text, "ERROR SUMMARY") &&
             !has_tool_line(text, "RACECHECK SUMMARY"))
        why = "the tool's summary line (ERROR SUMMARY or RACECHECK SUMMARY) is missing: the "
              "report was cut short";
    size_t total = why ? 0 : eng_san_parse(tool, text, NULL, 0);
    struct eng_san_hazard *h = xcalloc(total + 1, sizeof *h);
    if (!why)
        eng_san_parse(tool, text, h, total);
    for (size_t i = 0; !why && i < total; i++) {
        bool race = strncmp(h[i].kind, "race ", 5) == 0;
        if (h[i].nsites == 0 || (race && h[i].nsites < 2))
            why = race ? "a race's head line is not followed by its \"and ... access at\" line"
                       : "a hazard's head line is not followed by its \"at LOCATION\" line";
    }
    free(text);
    if (why) {
        snprintf(err, errlen, "%.400s: garbled %s report: %s", log, tool, why);
        free(h);
        return -1;
    }
    *out = h;
    *n = total;
    return 0;
}
