/* `kladder compare`'s table on stdout, fitted to a width: the terminal's when stdout is one,
 * else $COLUMNS when set, else every column whole (what a script reading the text gets). When
 * the width runs out, columns give way as the Compare view's do (tui/columns.h): Shape first,
 * then the bar, Rung, Suite narrows, the two times together, Variant narrows; Check takes what
 * is left and never goes. Names are cut where they do not tell their rows apart
 * (tui/name_cut.h): "…ne-fixed", "…ne-buggy", never "baselin…" twice. */
#ifndef KL_TUI_CLI_COMPARE_TABLE_H
#define KL_TUI_CLI_COMPARE_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results_query.h"
#include "tui/global.h"

/* Whether the locale cannot show UTF-8: ASCII marks, bars and ellipses then. */
bool compare_table_ascii(void);

/* The width to fit: 0 for no limit. */
int compare_table_width(void);

/* Rows idx[0..n) of c, side names na and nb in the heading, short_a and short_b in the summary;
 * width 0: no limit. */
void compare_table_print(const struct cdb_compare *c, const size_t *idx, size_t n,
                         const char *na, const char *nb, const char *short_a,
                         const char *short_b, enum cli_color when, int width);

#endif
