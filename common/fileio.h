/* Whole-file reads with a size limit and atomic writes (temp file, fsync, rename). Every read
 * takes regular files only and never waits on a FIFO. */
#ifndef KL_COMMON_FILEIO_H
#define KL_COMMON_FILEIO_H

#include <stddef.h>

/* Largest file file_read_all accepts (64 MiB): inputs beyond that are refused, not truncated. */
#define FILE_READ_MAX ((size_t)64 << 20)

/* Reads `path` into a malloc'd NUL-terminated buffer (caller frees) and sets *len (may be NULL).
 * Returns NULL on failure with "PATH: reason" in err. */
char *file_read_all(const char *path, size_t *len, char *err, size_t errlen);
/* The same with a limit of max bytes of one's own. */
char *file_read_max(const char *path, size_t max, size_t *len, char *err, size_t errlen);
/* The same from an open descriptor, which it closes whatever happens; path names it in err. */
char *file_read_fd(int fd, const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Writes len bytes to path atomically: a temp file in the same folder, fsync, rename, fsync of
 * the folder. The file's mode is 0666 less the umask, as for any file the user creates.
 * Returns 0, or -1 with "PATH: reason" in err (the old file is then untouched). */
int file_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* mkdir -p with mode 0700 for new folders. Returns 0 or -1 with a message in err. */
int file_mkdirs(const char *path, char *err, size_t errlen);

#endif
