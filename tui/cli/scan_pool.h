/* `kladder scan`'s workers: each file is compiled and judged (engine/compile/scan_unit.h) in a
 * child process of its own, in a process group of its own, at most jobs at a time; a child past
 * the time limit is killed with its compiler (the whole group) and its file judged "time-limit".
 * A child hands its result back as one JSON document on a pipe, so a crash in a compile or a
 * killed child costs that file only. */
#ifndef KL_TUI_CLI_SCAN_POOL_H
#define KL_TUI_CLI_SCAN_POOL_H

#include <stddef.h>

#include "engine/api/faces.h"
#include "tui/cli/scan_files.h"

struct scan_job {
    const struct eng_backend *b;
    const char *target;
    const char *const *flags; /* -I, -D for the compiler; NULL-terminated, may be NULL */
    int jobs;                 /* children at once, >= 1 */
    int timeout_s;            /* per file, >= 1 */
};

/* Judges every file of files into results[i] (files->n entries, each freed by the caller with
 * eng_scan_result_free). progress (may be NULL) is called as each file is judged, in the
 * order they finish. */
void scan_pool_run(const struct scan_job *job, const struct scan_files *files,
                   struct eng_scan_result *results,
                   void (*progress)(size_t index, const struct eng_scan_result *r, void *arg),
                   void *arg);

#endif
