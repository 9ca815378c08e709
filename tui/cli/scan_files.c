/* Finding the units to scan (scan_files.h). Links are not followed into folders (no loops, no
 * way out of the path given); a file is read only where it is a regular file. */
#define _GNU_SOURCE /* memmem */
#include "tui/cli/scan_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

/* A unit by its name alone (.cu, .hip), one only when it holds a kernel (.cpp, .cc, .cxx), or
 * none. */
enum unit_kind { NOT_UNIT, UNIT, UNIT_IF_KERNEL };

static enum unit_kind unit_kind(const char *name)
{
    if (ends_with(name, ".cu") || ends_with(name, ".hip"))
        return UNIT;
    if (ends_with(name, ".cpp") || ends_with(name, ".cc") || ends_with(name, ".cxx"))
        return UNIT_IF_KERNEL;
    return NOT_UNIT;
}

/* Whether the regular file at path mentions __global__ (read without blocking, at most 8 MiB). */
static bool mentions_kernel(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0)
        return true; /* let the scan say why it cannot be read */
    static char buf[1 << 16];
    const char word[] = "__global__";
    size_t keep = 0, total = 0;
    bool found = false;
    ssize_t got;
    while (!found && total < (8u << 20) &&
           (got = read(fd, buf + keep, sizeof buf - keep - 1)) > 0) {
        size_t n = keep + (size_t)got;
        buf[n] = '\0';
        found = memmem(buf, n, word, sizeof word - 1) != NULL;
        keep = n < sizeof word ? n : sizeof word - 1;
        memmove(buf, buf + n - keep, keep);
        total += (size_t)got;
    }
    close(fd);
    return found;
}

static void add(struct scan_files *f, const char *root, const char *rel, const char *refusal)
{
    f->v = xrealloc(f->v, (f->n + 1) * sizeof *f->v);
    bool dot = !strcmp(root, ".");
    f->v[f->n++] = (struct scan_file){
        .root = xstrdup(root), .rel = xstrdup(rel),
        .shown = dot ? xstrdup(rel) : xasprintf("%s/%s", root, rel),
        .refusal = refusal ? xstrdup(refusal) : NULL};
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The units below root/rel (rel "" for root itself), depth-first in name order. */
static int walk(struct scan_files *f, const char *root, const char *rel, int depth, char *err,
                size_t errlen)
{
    char *dir = rel[0] ? xasprintf("%s/%s", root, rel) : xstrdup(root);
    if (depth > 64) {
        snprintf(err, errlen, "%s: folders nested more than 64 deep", dir);
        free(dir);
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot read this folder: %s", dir, strerror(errno));
        free(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        names = xrealloc(names, (n + 1) * sizeof *names);
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", dir, names[i]);
        char *sub = rel[0] ? xasprintf("%s/%s", rel, names[i]) : xstrdup(names[i]);
        struct stat st;
        if (rc == 0 && lstat(path, &st) == 0) {
            enum unit_kind kind = unit_kind(names[i]);
            if (S_ISDIR(st.st_mode))
                rc = walk(f, root, sub, depth + 1, err, errlen);
            else if (kind == NOT_UNIT || S_ISLNK(st.st_mode))
                ; /* a header, another file, or a link (not followed out of the folder) */
            else if (!S_ISREG(st.st_mode))
                add(f, root, sub, "not a regular file (a FIFO, socket or device is not read)");
            else if (access(path, R_OK) != 0)
                add(f, root, sub, "cannot be read (no permission)");
            else if (kind == UNIT || mentions_kernel(path))
                add(f, root, sub, NULL);
        }
        free(path);
        free(sub);
        free(names[i]);
    }
    free(names);
    free(dir);
    return rc;
}

int scan_files_find(const char *const *paths, size_t npaths, struct scan_files *out, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (size_t p = 0; p < npaths; p++) {
        char *path = xstrdup(paths[p]);
        size_t len = strlen(path);
        while (len > 1 && path[len - 1] == '/')
            path[--len] = '\0';
        struct stat st;
        size_t before = out->n;
        int rc = 0;
        if (stat(path, &st) != 0) {
            snprintf(err, errlen, "%s: %s", paths[p],
                     errno == ENOENT ? "no such file or folder" : strerror(errno));
            rc = -1;
        } else if (S_ISDIR(st.st_mode)) {
            rc = walk(out, path, "", 0, err, errlen);
            if (rc == 0 && out->n == before) {
                snprintf(err, errlen, "%s: no unit to scan under it (a .cu or .hip file, or a "
                         ".cpp, .cc or .cxx file with a __global__ function)", paths[p]);
                rc = -1;
            }
        } else if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "%s: not a regular file or a folder (a FIFO, socket or device "
                     "is not read)", paths[p]);
            rc = -1;
        } else if (unit_kind(path) == NOT_UNIT) {
            snprintf(err, errlen, "%s: not a unit to scan (a .cu, .hip, .cpp, .cc or .cxx file; "
                     "a header is scanned where a unit includes it)", paths[p]);
            rc = -1;
        } else {
            char *slash = strrchr(path, '/');
            if (slash == path)
                add(out, "/", path + 1, NULL);
            else if (slash) {
                *slash = '\0';
                add(out, path, slash + 1, NULL);
            } else {
                add(out, ".", path, NULL);
            }
            if (access(paths[p], R_OK) != 0) {
                out->v[out->n - 1].refusal = xstrdup("cannot be read (no permission)");
            }
        }
        free(path);
        if (rc != 0) {
            scan_files_free(out);
            return -1;
        }
    }
    return 0;
}

void scan_files_free(struct scan_files *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->v[i].root);
        free(f->v[i].rel);
        free(f->v[i].shown);
        free(f->v[i].refusal);
    }
    free(f->v);
    memset(f, 0, sizeof *f);
}
