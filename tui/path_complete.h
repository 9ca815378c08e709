/* A file path typed at the interface's prompt (the Runs view's `o`, a suite file): a leading ~
 * expanded as a shell does, and Tab completion over the file system. Pure of the interface, so
 * the unit tests drive it on a folder of their own. */
#ifndef KL_TUI_PATH_COMPLETE_H
#define KL_TUI_PATH_COMPLETE_H

#include <stddef.h>

/* typed with a leading "~" or "~/..." made $HOME (the password entry's home without $HOME) and
 * "~user/..." that user's home; anything else unchanged. malloc'd. */
char *tui_path_expand(const char *typed);

/* What Tab makes of typed, the nth Tab in a row (0 the first) since it was typed: one match,
 * that match; several, their longest common start where it is longer than typed, else (the
 * next Tabs) each match in turn. Writes into out (len bytes); returns 1 when the match was the
 * only one (a next Tab starts afresh from it: inside a folder it completed), 0 when there are
 * several, -1 when nothing matches (out is typed). */
int tui_path_tab(const char *typed, int nth, char *out, size_t len);

#endif
