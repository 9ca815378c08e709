/* The translation units under the paths `kladder scan` is given: every .cu and .hip file, and
 * every .cpp, .cc or .cxx file that holds a __global__ function. Headers (.cuh, .h, .hpp, ...)
 * are no units: they are read where a unit includes them. */
#ifndef KL_TUI_CLI_SCAN_FILES_H
#define KL_TUI_CLI_SCAN_FILES_H

#include <stdbool.h>
#include <stddef.h>

struct scan_file {
    char *root;     /* the folder local includes are confined to: the PATH given, or the folder
                     * of a FILE given */
    char *rel;      /* the file below root */
    char *shown;    /* root/rel as the user named it, for the report */
    char *refusal;  /* non-NULL: why it cannot be read at all (not a regular file, no
                     * permission); it is reported as unreadable without a compile */
};

struct scan_files {
    struct scan_file *v;
    size_t n;
};

/* Finds the units under each of paths[0..npaths), sorted within each path. Returns 0, or -1
 * with "PATH: what" in err for a path that does not exist, is neither a folder nor a regular
 * file, a folder (or one below it) that cannot be read, or a path under which there is no unit. */
int scan_files_find(const char *const *paths, size_t npaths, struct scan_files *out, char *err,
                    size_t errlen);
void scan_files_free(struct scan_files *f);

#endif
