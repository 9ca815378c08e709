/* Files read from inside one folder only (a suite's): its sources, local includes and code
 * objects are the suite author's, and a name in a manifest or an #include line must not
 * reach a file outside the folder, by "..", by an absolute name or by a symbolic link. */
#ifndef KL_COMMON_FILE_WITHIN_H
#define KL_COMMON_FILE_WITHIN_H

#include <stdbool.h>
#include <stddef.h>

/* Does rel, a name inside folder root, stay there: relative, and its real location (every
 * symbolic link followed) inside root's real location? On true, *real (when not NULL) is
 * that location (malloc'd). On false, err says why, naming root/rel with control characters
 * escaped: "S/k.kl: resolves outside the suite's folder S". A missing file is false too. */
bool file_within(const char *root, const char *rel, char **real, char *err, size_t errlen);

/* Reads rel inside root as file_read_all reads (a regular file only, never waiting on a
 * FIFO, at most FILE_READ_MAX bytes), once file_within holds; the file opened is checked to
 * be the one resolved, so a link swapped in between is refused too. NULL with err. */
char *file_read_within(const char *root, const char *rel, size_t *len, char *err, size_t errlen);

#endif
