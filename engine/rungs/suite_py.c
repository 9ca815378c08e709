/* The suite's Python files and the probes that read them (engine/rungs/suite_py.h). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/embed.h"
#include "common/file_within.h"
#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/rungs/suite_py.h"
#include "engine/toolchain/tool_run.h"

char *eng_suite_file_read(const struct eng_manifest *m, const char *path, size_t *len, char *err,
                          size_t errlen)
{
    if (path[0] == '/') /* the suite's author named it whole (docs/engine.md) */
        return file_read_all(path, len, err, errlen);
    if (m->dir) /* beside the manifest: inside its folder, no link or ".." out of it */
        return file_read_within(m->dir, path, len, err, errlen);
    char *rel = xasprintf("kernels/%s", path);
    char *text = embed_load(NULL, rel, len, err, errlen);
    free(rel);
    return text;
}

/* Whether path is one a suite may name: relative, no "..", no control characters. */
static bool eng_suite_path_ok(const char *path)
{
    if (!path[0] || path[0] == '/' || !text_is_clean(path, NULL))
        return false;
    for (const char *s = path; (s = strstr(s, "..")); s += 2)
        if ((s == path || s[-1] == '/') && (s[2] == '/' || !s[2]))
            return false;
    return true;
}

/* Writes the embedded file f (a path under kernels/) at dir/<path after kernels/>. */
static int unpack_one(const char *dir, const struct embed_file *f, char *err, size_t errlen)
{
    char *out = xasprintf("%s/%s", dir, f->path + strlen("kernels/"));
    for (char *s = out + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        if (mkdir(out, 0700) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "creating %s: %s", out, strerror(errno));
            free(out);
            return -1;
        }
        *s = '/';
    }
    int rc = file_write_atomic(out, (const char *)f->data, f->size, err, errlen);
    free(out);
    return rc;
}

/* Whether python at path imports module: one short run. */
static bool python_has(const char *path, const char *module)
{
    char out[256];
    char *argv[] = {xstrdup(path), xstrdup("-B"), xstrdup("-c"),
                    xasprintf("import %s", module ? module : "sys"), NULL};
    bool ok = eng_tool_run(argv, out, sizeof out) == 0;
    for (size_t i = 0; argv[i]; i++)
        free(argv[i]);
    return ok;
}

static bool find_python(const char *module, char *out, size_t outlen)
{
    const char *env = getenv("KLADDER_PYTHON");
    if (env && env[0])
        return eng_tool_find(env, out, outlen) && python_has(out, module);
    /* Debian's own python3 last: a PATH python (a virtual environment) may lack its packages */
    static const char *const candidates[] = {"python3", "/usr/bin/python3"};
    for (size_t i = 0; i < 2; i++)
        if (eng_tool_find(candidates[i], out, outlen) && python_has(out, module))
            return true;
    return false;
}

int eng_suite_py_open(struct eng_suite_py *p, const struct eng_manifest *m, const char *tool,
                      const char *module, char *why, size_t whylen)
{
    memset(p, 0, sizeof *p);
    if (!find_python(module, p->python, sizeof p->python)) {
        snprintf(why, whylen, "no python3 that imports %s (install python3%s%s, or point "
                 "KLADDER_PYTHON at one)", module ? module : "sys", module ? "-" : "",
                 module ? module : "");
        return 1;
    }
    if (!(p->tmp = eng_tool_tmpdir("kladder-py", why, whylen)))
        return -1;
    p->root = m->dir ? m->dir : p->tmp;
    char *want = xasprintf("kernels/tools/%s", tool);
    bool found = false;
    for (const struct embed_file *f = embed_files; f->path; f++) {
        bool is_tool = strcmp(f->path, want) == 0;
        bool data = !m->dir && strncmp(f->path, "kernels/py/", 11) == 0;
        if ((is_tool || data) && unpack_one(p->tmp, f, why, whylen) != 0) {
            free(want);
            return -1;
        }
        found |= is_tool;
    }
    free(want);
    if (!found) {
        snprintf(why, whylen, "kernels/tools/%s is not built in", tool);
        return -1;
    }
    p->tool = xasprintf("%s/tools/%s", p->tmp, tool);
    return 0;
}

char *eng_suite_py_path(const struct eng_suite_py *p, const char *rel)
{
    return xasprintf("%s/%s", p->root, rel);
}

int eng_suite_py_run(const struct eng_suite_py *p, const char *const *args, char *out,
                     size_t outlen)
{
    size_t n = 0;
    while (args[n])
        n++;
    char **argv = xcalloc(n + 4, sizeof *argv);
    argv[0] = xstrdup(p->python);
    argv[1] = xstrdup("-B");
    argv[2] = xstrdup(p->tool);
    for (size_t i = 0; i < n; i++)
        argv[3 + i] = xstrdup(args[i]);
    int rc = eng_tool_run(argv, out, outlen);
    for (size_t i = 0; argv[i]; i++)
        free(argv[i]);
    free(argv);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void eng_suite_py_close(struct eng_suite_py *p)
{
    if (p->tmp)
        nftw(p->tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(p->tmp);
    free(p->tool);
    memset(p, 0, sizeof *p);
}

const char *eng_suite_path_base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

char *eng_suite_path(struct eng_mparse *p, const cJSON *j, const char *field)
{
    if (!cJSON_IsString(j) || !eng_suite_path_ok(j->valuestring)) {
        char got[64];
        eng_mp_describe(j, got, sizeof got);
        eng_mp_bad(p, field, "expected a relative path inside the suite's folder (no \"..\"), "
                   "got %s", got);
        return NULL;
    }
    return xstrdup(j->valuestring);
}

bool eng_suite_paths(struct eng_mparse *p, const cJSON *j, const char *field, char *out[2])
{
    if (!cJSON_IsObject(j)) {
        if (!(out[0] = eng_suite_path(p, j, field)))
            return false;
        out[1] = xstrdup(out[0]);
        return true;
    }
    static const char *const vk[] = {"fixed", "buggy", NULL};
    if (!eng_mp_only_keys(p, j, field, vk))
        return false;
    for (int v = 0; v < 2; v++) {
        char f[96];
        snprintf(f, sizeof f, "%s.%s", field, vk[v]);
        if (!(out[v] = eng_suite_path(p, cJSON_GetObjectItemCaseSensitive(j, vk[v]), f)))
            return false;
    }
    return true;
}
