/* Files a compiler reads, judged by its own preprocessor (preproc_confine.h). */
#define _GNU_SOURCE /* realpath */
#include "engine/toolchain/preproc_confine.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/toolchain/tool_run.h"

/* The folders allowed, each with every link followed. */
struct roots {
    char **dir;
    size_t n;
};

static void add_root(struct roots *r, const char *dir, size_t n)
{
    char *d = xasprintf("%.*s", (int)n, dir), *real = realpath(d, NULL);
    free(d);
    if (!real)
        return;
    r->dir = xrealloc(r->dir, (r->n + 1) * sizeof *r->dir);
    r->dir[r->n++] = real;
}

/* The folders a -v log lists between "search starts here:" and "End of search list." */
static void add_search_dirs(struct roots *r, const char *vlog)
{
    bool in = false;
    for (const char *s = vlog; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        if (n >= 20 && strstr(s, "search starts here:") && (size_t)(strstr(s, "search starts here:") - s) < n)
            in = true;
        else if (!strncmp(s, "End of search list.", 19))
            in = false;
        else if (in && n > 1 && s[0] == ' ') {
            const char *d = s + 1;
            size_t k = n - 1;
            /* clang marks a framework folder " (framework directory)" */
            const char *paren = memchr(d, '(', k);
            if (paren && paren > d && paren[-1] == ' ')
                k = (size_t)(paren - 1 - d);
            add_root(r, d, k);
        }
        s = nl ? nl + 1 : s + n;
    }
}

static bool under(const struct roots *r, const char *real)
{
    for (size_t i = 0; i < r->n; i++) {
        size_t n = strlen(r->dir[i]);
        if (!strncmp(real, r->dir[i], n) && (real[n] == '/' || real[n] == '\0' || n == 1))
            return true;
    }
    return false;
}

/* A line marker `# LINE "FILE" FLAGS...` at s (to its end e): line, file (unescaped, malloc'd)
 * and whether flag 1 (a file entered) is among the flags. false when s is no marker. */
static bool marker(const char *s, const char *e, long *line, char **file, bool *enter)
{
    if (s >= e || *s != '#')
        return false;
    s++;
    if (e - s >= 5 && !strncmp(s, "line ", 5))
        s += 4;
    while (s < e && *s == ' ')
        s++;
    if (s >= e || *s < '0' || *s > '9')
        return false;
    *line = 0;
    while (s < e && *s >= '0' && *s <= '9')
        *line = *line * 10 + (*s++ - '0');
    while (s < e && *s == ' ')
        s++;
    if (s >= e || *s != '"')
        return false;
    char *f = xmalloc((size_t)(e - s) + 1);
    size_t k = 0;
    for (s++; s < e && *s != '"'; s++) {
        if (*s == '\\' && s + 1 < e) {
            s++;
            if (*s >= '0' && *s <= '7') { /* \NNN */
                int v = 0;
                for (int d = 0; d < 3 && s < e && *s >= '0' && *s <= '7'; d++)
                    v = v * 8 + (*s++ - '0');
                s--;
                f[k++] = (char)v;
                continue;
            }
        }
        f[k++] = *s;
    }
    f[k] = '\0';
    *enter = false;
    for (s = s < e ? s + 1 : e; s < e; s++)
        if (*s == '1' && s[-1] == ' ' && (s + 1 == e || s[1] == ' '))
            *enter = true;
    *file = f;
    return true;
}

int eng_preproc_judge(const char *pre, const char *vlog, const char *const *rootv, char *err,
                      size_t errlen)
{
    struct roots r = {0};
    for (size_t i = 0; rootv && rootv[i]; i++)
        add_root(&r, rootv[i], strlen(rootv[i]));
    add_search_dirs(&r, vlog);
    char *cur = xstrdup("");
    long next = 1; /* the line of cur the next output line is */
    int rc = 0;
    for (const char *s = pre; *s && rc == 0;) {
        const char *nl = strchr(s, '\n'), *e = nl ? nl : s + strlen(s);
        long line;
        char *file;
        bool enter;
        if (marker(s, e, &line, &file, &enter)) {
            if (enter && file[0] != '<') {
                char *real = realpath(file, NULL);
                if (!real || !under(&r, real)) {
                    char *f = text_escape(file, 200), *by = text_escape(cur, 200);
                    snprintf(err, errlen, "%s:%ld: #include reaches %s, which is outside the "
                             "suite's folder, its include_dirs, kladder's headers and the "
                             "compiler's system headers: refused", by, next, f);
                    free(f);
                    free(by);
                    rc = -1;
                }
                free(real);
            }
            free(cur);
            cur = file;
            next = line;
        } else {
            next++;
        }
        s = nl ? nl + 1 : e;
    }
    free(cur);
    for (size_t i = 0; i < r.n; i++)
        free(r.dir[i]);
    free(r.dir);
    return rc;
}

int eng_preproc_confine(char *const argv[], char *const envp[], double limit_s, const char *out_i,
                        const char *const *roots, char *err, size_t errlen)
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **v = xcalloc(n + 2, sizeof *v);
    static char o_v[] = "-v";
    v[0] = argv[0];
    v[1] = o_v;
    for (size_t i = 1; i <= n; i++)
        v[i + 1] = argv[i];
    size_t loglen = 1 << 16;
    char *log = xmalloc(loglen);
    int st = eng_tool_run_limit(v, envp, limit_s, log, loglen);
    free(v);
    int rc = 0;
    if (st == ENG_TOOL_TIMED_OUT || st == -1) {
        snprintf(err, errlen, "the preprocessor pass: %s", log);
        rc = -1;
    } else {
        char why[256];
        char *pre = file_read_all(out_i, NULL, why, sizeof why);
        /* no output: the preprocessor failed before writing any, which the compile proper
         * reports the same way */
        if (pre)
            rc = eng_preproc_judge(pre, log, roots, err, errlen);
        else if (access(out_i, F_OK) == 0) { /* too large to judge: never compiled unjudged */
            snprintf(err, errlen, "the preprocessor pass: %s", why);
            rc = -1;
        }
        free(pre);
    }
    unlink(out_i);
    free(log);
    return rc;
}
