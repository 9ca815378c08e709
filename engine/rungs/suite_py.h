/* What the rungs need to run a suite's Python beside its kernel (sglang-33142, aiter-5133: cases
 * whose bug is in Python code, not in a kernel): the suite's files on disk, a python3 that has
 * the modules a probe needs, and the probe itself (kernels/tools/, carried in the binary).
 *
 * A built-in suite's paths name files under kernels/ in the binary: they are written into a
 * private folder for the run and removed after it. A suite read from a folder names files
 * relative to that folder, used where they are. */
#ifndef KL_ENGINE_RUNGS_SUITE_PY_H
#define KL_ENGINE_RUNGS_SUITE_PY_H

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/manifest.h"
#include "engine/manifest_parse.h"

struct eng_suite_py {
    char *tmp;          /* the private folder (removed by close) */
    const char *root;   /* where the suite's paths resolve: the manifest's folder, or tmp */
    char python[512];   /* the python3 found */
    char *tool;         /* the probe script's path */
};

/* Reads a file the suite names: an absolute path as named; a relative one inside the suite's
 * folder (common/file_within.h: no ".." or link out of it), or under kernels/ in the binary
 * for a built-in suite. malloc'd, NUL-terminated, or NULL with a message naming the file. */
char *eng_suite_file_read(const struct eng_manifest *m, const char *path, size_t *len, char *err,
                          size_t errlen);

/* j as a path the suite names (eng_suite_path_ok), malloc'd; NULL with a message naming field. */
char *eng_suite_path(struct eng_mparse *p, const cJSON *j, const char *field);

/* j as a path the suite names, or {"fixed": PATH, "buggy": PATH}: out[0] fixed, out[1] buggy
 * (malloc'd). false with a message naming field. Shared by the rungs that read files beside a
 * suite's kernel (rung 3's tuned tables, rung 7's Python), so that neither needs the other. */
bool eng_suite_paths(struct eng_mparse *p, const cJSON *j, const char *field, char *out[2]);

/* The last path component, for check names. */
const char *eng_suite_path_base(const char *path);

/* Prepares a run of probe kernels/tools/TOOL: finds python3 ($KLADDER_PYTHON, then python3 on
 * $PATH, then the system's own) that imports module (NULL: any), unpacks the suite's files.
 * 0; 1 when no python3 with module is found (why says so: the check is skipped, not failed);
 * -1 on an error (in why). Close it in every case. */
int eng_suite_py_open(struct eng_suite_py *p, const struct eng_manifest *m, const char *tool,
                      const char *module, char *why, size_t whylen);

/* root/rel, malloc'd. */
char *eng_suite_py_path(const struct eng_suite_py *p, const char *rel);

/* Runs python3 -B TOOL args... (args NULL-terminated); stdout and stderr into out. The exit
 * status, or -1 when it could not run (the reason in out). */
int eng_suite_py_run(const struct eng_suite_py *p, const char *const *args, char *out,
                     size_t outlen);

void eng_suite_py_close(struct eng_suite_py *p);

#endif
