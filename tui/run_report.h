/* A write-up of one recorded run, to paste into an issue tracker or attach to a bug report: the
 * case and its gap, the machine that ran it, the command that reproduces it (for a run of the
 * user's own suite with a script that bundles its files, tui/report_bundle.h), each failing check
 * (its shape, value class, seam, first bad element, and the fixed variant's result beside it) and
 * every check's timings with their spread. `kladder report` prints it; the Runs view's `y` copies
 * the Markdown form.
 *
 * Markdown renders on GitHub (tables, a fenced command); HTML is one self-contained document
 * (inline style, no script, no link or image to fetch), so it opens offline. Every string taken
 * from the database is sanitised (no control character survives) and escaped for the format. */
#ifndef KL_TUI_RUN_REPORT_H
#define KL_TUI_RUN_REPORT_H

#include <stddef.h>
#include <stdio.h>

struct cdb;

enum tui_report_format { TUI_REPORT_MD, TUI_REPORT_HTML };

/* Writes the report of run id (a UUID or a unique prefix of 4+ characters) to out. Returns 0,
 * 1 when no such run is stored (err says so), or -1 with err on a database error. */
int tui_run_report(struct cdb *db, const char *id, enum tui_report_format fmt, FILE *out,
                   char *err, size_t errlen);

#endif
