/* Reads confined to one folder (common/file_within.h). */
#define _GNU_SOURCE /* realpath */
#include "common/file_within.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"

static void say(char *err, size_t errlen, const char *root, const char *rel, const char *why)
{
    char *r = text_escape(root, 200), *n = text_escape(rel, 200);
    snprintf(err, errlen, "%s/%s: %s", r, n, why);
    free(r);
    free(n);
}

/* Is path inside dir (or dir itself)? Both are real paths. */
static bool inside(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return path[0] == '/';
    return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

bool file_within(const char *root, const char *rel, char **real, char *err, size_t errlen)
{
    if (real)
        *real = NULL;
    if (!rel[0] || rel[0] == '/') {
        say(err, errlen, root, rel, "expected a name inside the suite's folder, not an absolute "
            "path");
        return false;
    }
    char *joined = xasprintf("%s/%s", root, rel);
    char *r = realpath(root, NULL), *p = realpath(joined, NULL);
    int e = errno;
    free(joined);
    bool ok = r && p && inside(r, p);
    if (!ok) {
        char why[PATH_MAX + 96];
        char *shown_r = text_escape(r ? r : root, 200);
        if (!r || !p)
            snprintf(why, sizeof why, "%s", strerror(e));
        else
            snprintf(why, sizeof why, "resolves outside the suite's folder %s (a link or \"..\" "
                     "may not leave it)", shown_r);
        free(shown_r);
        say(err, errlen, root, rel, why);
        free(p);
    } else if (real) {
        *real = p;
    } else {
        free(p);
    }
    free(r);
    return ok;
}

/* The path the descriptor fd really opened, from /proc; NULL where /proc is not there. */
static char *fd_path(int fd)
{
    char link[64], buf[PATH_MAX + 1];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    return xstrdup(buf);
}

char *file_read_within(const char *root, const char *rel, size_t *len, char *err, size_t errlen)
{
    char *real = NULL;
    if (!file_within(root, rel, &real, err, errlen))
        return NULL;
    /* O_NOFOLLOW: the real path names no link; one put there since is refused */
    int fd = open(real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        say(err, errlen, root, rel, errno == ELOOP ? "became a symbolic link while it was read"
                                                   : strerror(errno));
        free(real);
        return NULL;
    }
    char *opened = fd_path(fd);
    if (opened && strcmp(opened, real) != 0) {
        say(err, errlen, root, rel, "changed while it was read (a folder on its path became a "
            "link)");
        free(opened);
        free(real);
        close(fd);
        return NULL;
    }
    free(opened);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        say(err, errlen, root, rel, "not a regular file (a FIFO, a device or a folder is never "
            "read)");
        free(real);
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    char *shown = xasprintf("%s/%s", root, rel);
    char *text = file_read_fd(fd, shown, FILE_READ_MAX, len, err, errlen);
    free(shown);
    free(real);
    return text;
}
