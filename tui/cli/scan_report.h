/* What `kladder scan` says: a line per file as it is judged, then the summary (files, compiled
 * whole, every entry launchable, refusals by cause, the most frequent missing API names), as
 * text or as one JSON document. Every string from a file or a compiler is cleaned of control
 * characters before it is printed. */
#ifndef KL_TUI_CLI_SCAN_REPORT_H
#define KL_TUI_CLI_SCAN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/api/faces.h"
#include "tui/cli/scan_files.h"

/* How many missing API names the summary lists. */
#define SCAN_TOP_APIS 20

/* One file's line: "ok  PATH  (3 entries: ...)" or "refused  PATH: CAUSE ...". */
void scan_report_line(FILE *f, const struct scan_file *file, const struct eng_scan_result *r);

/* The summary table of n judged files. */
void scan_report_summary(FILE *f, const struct eng_scan_result *r, size_t n);

/* The whole scan as one JSON document: backend, target, the flags, each file and the summary. */
void scan_report_json(FILE *f, const char *backend, const char *target,
                      const char *const *flags, const struct scan_files *files,
                      const struct eng_scan_result *r);

#endif
