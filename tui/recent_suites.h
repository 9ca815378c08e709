/* The suite files a person opened from the interface, remembered between sessions in the state
 * folder (paths_state_dir()/recent-suites: one absolute path a line, the newest first, at most
 * TUI_RECENT_SUITES). A missing or unreadable file is an empty list, never an error: what is
 * remembered is a convenience. */
#ifndef KL_TUI_RECENT_SUITES_H
#define KL_TUI_RECENT_SUITES_H

#include <stddef.h>

#define TUI_RECENT_SUITES 8

/* The remembered paths, newest first; returns how many (at most max), each malloc'd into out
 * (free each). Lines with control characters are skipped. */
size_t tui_recent_suites_load(char **out, size_t max);

/* Puts path first (made absolute; an older mention of it is dropped) and writes the list back
 * atomically. Returns 0, or -1 with err. */
int tui_recent_suites_add(const char *path, char *err, size_t errlen);

#endif
