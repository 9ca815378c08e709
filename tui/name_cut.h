/* Cutting names that come in families (baseline-fixed, baseline-buggy; timing:fence-a,
 * timing:fence-b; unit-test-M128-N4096, unit-test-M64-N1024) so that what tells one from the
 * others on screen survives the cut. Cut at its end, every member of a family reads the same
 * ("baselin…", "timing:fe…"); the part to keep is where a name first differs from its nearest
 * neighbour. Pure (no curses): the Compare view and `kladder compare` cut alike, and
 * tests/unit/test_compare_fmt.c checks it. */
#ifndef KL_TUI_NAME_CUT_H
#define KL_TUI_NAME_CUT_H

#include <stdbool.h>
#include <stddef.h>

/* For each of the n names (NULL counts as ""), the byte where it first differs from the
 * nearest other name of the list (the longest prefix it shares with any different name); 0
 * when no other name differs from it. Equal names are one name: repeats are not a family. */
void name_cut_points(const char *const *names, size_t n, size_t *at);

/* name cut to at most `cells` display cells (malloc'd), keeping byte `at` (from
 * name_cut_points) in view: whole when it fits; cut at its end when `at` lies in what the end
 * cut keeps; else "…" and its tail when `at` lies there; else "…", the part from just before
 * `at`, "…". Names with anything but printable ASCII are cut at their end. ascii: "~" for
 * "…". */
char *name_cut(const char *name, size_t at, int cells, bool ascii);

#endif
