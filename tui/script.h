/* Scripted input for the headless screen tests (KLADDER_SCRIPT=FILE), as tig does it. One
 * command a line; blank lines and lines starting with '#' are skipped:
 *
 *   j  Enter  Tab  Esc  ^L  F1 ...   one key, by the names of tui/actions.def
 *   :type TEXT                        each character of TEXT as a key (UTF-8, spaces kept)
 *   :save-screen PATH                 the screen's text to PATH (tui_term_save_screen)
 *   :resize COLS ROWS                 a terminal resize
 *   :click COL ROW                    a mouse click on that cell (0-based)
 *   :wheel up|down COL ROW            a mouse wheel step
 *
 * The end of the script ends the program (exit status 0). */
#ifndef KL_TUI_SCRIPT_H
#define KL_TUI_SCRIPT_H

#include <stddef.h>

#include "tui/term.h"

struct tui_script;

/* Reads the whole script; NULL with err when it cannot be read. */
struct tui_script *tui_script_open(const char *path, char *err, size_t errlen);
void tui_script_free(struct tui_script *s);

/* The next event. Returns 0, or -1 with err (naming the line) for a malformed line. */
int tui_script_next(struct tui_script *s, struct tui_event *ev, char *err, size_t errlen);

#endif
