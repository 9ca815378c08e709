/* Copying a run's id or command line: always shown on the status line, and also written to the
 * terminal's clipboard with OSC 52 ("ESC ] 52 ; c ; BASE64 BEL") where the terminal is known to
 * accept it. A terminal that does not know OSC 52 may print the sequence or beep, and tmux and
 * screen pass it on only when set up for it, so the sequence is written only for terminals that
 * say who they are (TERM or TERM_PROGRAM) and are known to take it; elsewhere the status line is
 * the copy, for the mouse. Pure but for tui_clipboard_copy, so tests/unit/test_clipboard.c can
 * check every decision. */
#ifndef KL_TUI_CLIPBOARD_H
#define KL_TUI_CLIPBOARD_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a terminal is known to accept OSC 52, from $TERM, $TERM_PROGRAM and whether $TMUX or
 * $STY is set (any argument may be NULL): kitty, alacritty, foot, WezTerm and iTerm2, never
 * inside tmux or screen. */
bool tui_osc52_known(const char *term, const char *term_program, bool multiplexer);

/* The OSC 52 sequence that puts text on the clipboard, NUL-terminated in out. Returns its
 * length, or 0 when it does not fit in len (nothing useful is written then). */
size_t tui_osc52_encode(const char *text, char *out, size_t len);

/* A recorded command line as a person would type it again: without the " --events N" the
 * interface adds to talk to its child. */
void tui_cmdline_for_shell(const char *argv_text, char *buf, size_t len);

/* Writes text to the clipboard when the environment's terminal is known to accept OSC 52;
 * returns whether it did. */
bool tui_clipboard_copy(const char *text);

#endif
