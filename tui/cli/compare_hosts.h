/* `kladder compare A B C ...`: more than two hosts as checks x hosts (tui/compare_matrix.h),
 * every host judged against the baseline with the two-host rules. The table fits a width as
 * the two-host table does (compare_table.h): Shape gives first, then Rung, Suite narrows,
 * then each host's cell takes its short form ("pass 1.02×▲ ~" for "pass 1.02× slower ~");
 * Check takes the rest. */
#ifndef KL_TUI_CLI_COMPARE_HOSTS_H
#define KL_TUI_CLI_COMPARE_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/compare_matrix.h"
#include "tui/global.h"

/* Rows idx[0..n) of m; names[h] is host h's name as given (0 the baseline); width 0: every
 * column whole. */
void compare_hosts_print(const struct cmp_matrix *m, const size_t *idx, size_t n,
                         const char *const *names, enum cli_color when, int width);
void compare_hosts_json(const struct cmp_matrix *m, const size_t *idx, size_t n,
                        const char *const *names);

#endif
