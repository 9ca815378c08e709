#include "common/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

/* Opens path for reading only when it is a regular file: without blocking on a FIFO (whose
 * open would wait for a writer forever), refusing a device, a folder or a socket with
 * "PATH: not a regular file". Returns the descriptor (blocking again), or -1 with err. */
static int file_open_regular(const char *path, char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

char *file_read_all(const char *path, size_t *len, char *err, size_t errlen)
{
    return file_read_max(path, FILE_READ_MAX, len, err, errlen);
}

char *file_read_max(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    int fd = file_open_regular(path, err, errlen);
    if (fd < 0)
        return NULL;
    return file_read_fd(fd, path, max, len, err, errlen);
}

char *file_read_fd(int fd, const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        close(fd);
        return NULL;
    }
    if ((size_t)st.st_size > max) {
        snprintf(err, errlen, "%s: %lld bytes, more than the limit of %zu bytes", path,
                 (long long)st.st_size, max);
        close(fd);
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 == cap) {
            if (cap > max) {
                snprintf(err, errlen, "%s: grew past the limit of %zu bytes while reading", path,
                         max);
                free(buf);
                close(fd);
                return NULL;
            }
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static int fsync_dir_of(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        strcpy(dir, ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* The process's umask, read without setting it (umask() would change it for a moment under
 * every other thread); 022 where the kernel does not say. */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[128];
    unsigned m = 022;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &m) == 1)
            break;
    if (f)
        fclose(f);
    return (mode_t)m;
}

int file_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char *tmp = xasprintf("%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create temp file: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file 0600; the file it becomes is made as any other, after the umask
     * (an export is served from a web root, a code object copied to another machine) */
    if (fchmod(fd, 0666 & ~current_umask()) != 0) {
        snprintf(err, errlen, "%s: chmod failed: %s", path, strerror(errno));
        goto fail;
    }
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
            goto fail;
        }
        p += w;
        left -= (size_t)w;
    }
    if (fsync(fd) != 0) {
        snprintf(err, errlen, "%s: fsync failed: %s", path, strerror(errno));
        goto fail;
    }
    close(fd);
    fd = -1;
    if (rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: rename failed: %s", path, strerror(errno));
        goto fail;
    }
    free(tmp);
    fsync_dir_of(path); /* best effort: the data itself is already durable */
    return 0;
fail:
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    return -1;
}

int file_mkdirs(const char *path, char *err, size_t errlen)
{
    char *p = xstrdup(path);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "%s: cannot create folder: %s", p, strerror(errno));
                free(p);
                return -1;
            }
            *s = c;
            if (c == '\0')
                break;
        }
    }
    free(p);
    return 0;
}
