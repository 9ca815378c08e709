/* The line a pulled host gets, the same from `kladder pull` and `kladder fleet collect`:
 * "NAME: N new runs, M checks (K already present)" on stdout, or "NAME: error: ..." on
 * stderr. */
#ifndef KL_TUI_CLI_PULL_REPORT_H
#define KL_TUI_CLI_PULL_REPORT_H

#include "importers/pull.h"

void pull_report_line(const struct imp_pull_result *r);

#endif
